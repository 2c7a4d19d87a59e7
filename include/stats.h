/*
 * stats.h: summaries of one metric's runs, and comparisons of two.
 *
 * GSL does the numerics.  Functions here never print and never modify their
 * input (GSL sorts in place, so they sort copies).  NaN values ("not
 * counted") are skipped; n says how many values were used.
 */
#ifndef CBENCH_STATS_H
#define CBENCH_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct stats_summary {
	size_t n;          /* finite values used */
	double confidence; /* level of the intervals below, e.g. 0.95 */
	double mean;
	double stddev;     /* sample standard deviation (n-1); NaN when n < 2 */
	double median;
	double min, max;
	double q1, q3, iqr;        /* quartiles and interquartile range */
	double mad;                /* median absolute deviation (unscaled) */
	double mean_ci_lo, mean_ci_hi;     /* Student t interval; NaN if n < 2 */
	double median_ci_lo, median_ci_hi; /* order-statistic interval; NaN if
					      n too small for the level */
	size_t outliers_mild;      /* beyond 1.5 IQR (Tukey), not severe */
	size_t outliers_severe;    /* beyond 3 IQR */
};

/* Call once at start-up: GSL must return errors, not abort. */
void stats_init(void);

/* Summarise x[0..n) at the given confidence level (0.5 < c < 1).
 * Returns 0, or -1 when no value is finite. */
int stats_summarize(const double *x, size_t n, double confidence,
		    struct stats_summary *out);

/* Set RUN_OUTLIER_MILD / RUN_OUTLIER_SEVERE (results.h) in flags[i] for
 * each x[i] beyond Tukey's fences of s; clears them elsewhere. */
void stats_flag_outliers(const double *x, size_t n, const struct stats_summary *s,
			 unsigned char *flags);

/*
 * Ratio of means b/a with its propagated spread, as hyperfine reports it:
 * sigma_r = r * sqrt((sa/a)^2 + (sb/b)^2) (first-order error propagation).
 */
void stats_ratio(const struct stats_summary *a, const struct stats_summary *b,
		 double *ratio, double *spread);

/* Half-width of the Student-t confidence interval of the mean at level
 * confidence (e.g. 0.95): t_{(1+c)/2, n-1} * s / sqrt(n).  NaN if n < 2. */
double stats_mean_halfwidth(const struct stats_summary *s, double confidence);

enum stats_verdict {
	VERDICT_UNKNOWN,       /* too few runs to decide */
	VERDICT_SAME,          /* no significant difference */
	VERDICT_FASTER,        /* b is significantly smaller than a */
	VERDICT_SLOWER,        /* b is significantly larger than a */
};

/* b compared with a (a is the reference/baseline). */
struct stats_comparison {
	double confidence;
	double ratio;              /* mean(b) / mean(a) */
	double ratio_lo, ratio_hi; /* confidence interval of the ratio */
	double p_welch;            /* Welch's two-sample t-test, two-sided */
	double p_mann_whitney;     /* Mann-Whitney U test, two-sided */
	enum stats_verdict verdict;
};

/* Compare two samples (NaN values skipped).  seed drives any resampling.
 * Returns 0, or -1 when either side has no finite value. */
int stats_compare(const double *a, size_t na, const double *b, size_t nb,
		  double confidence, unsigned long seed,
		  struct stats_comparison *out);

const char *stats_verdict_name(enum stats_verdict v);

#endif
