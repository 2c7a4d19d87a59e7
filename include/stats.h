/*
 * stats.h: summaries of one metric's runs, and comparisons of two.
 *
 * GSL does the numerics.  Functions here never print and never modify their
 * input (GSL sorts in place, so they sort copies).  NaN values ("not
 * counted") are skipped; n says how many values were used.  Every method and
 * its source is named in stats.c and in the README's "Statistics" section.
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
	double q1, q3, iqr;        /* quartiles (Hyndman-Fan type 7, R's
				      default) and interquartile range */
	double mad;                /* median absolute deviation (unscaled) */
	double mean_ci_lo, mean_ci_hi;     /* Student t interval; NaN if n < 2 */
	double median_ci_lo, median_ci_hi; /* order-statistic interval; NaN if
					      n too small for the level */
	double median_ci_level;    /* actual coverage of that interval (>=
				      confidence; binomial), NaN if none */
	size_t outliers_mild;      /* beyond 1.5 IQR (Tukey), not severe */
	size_t outliers_severe;    /* beyond 3 IQR */
};

/* Call once at start-up: GSL must return errors, not abort. */
void stats_init(void);

/* Summarise x[0..n) at the given confidence level (0.5 < c < 1).
 * Returns 0, or -1 when no value is finite.  Every call computes afresh:
 * callers keep what they need (analysis.h holds a run's summaries). */
int stats_summarize(const double *x, size_t n, double confidence,
		    struct stats_summary *out);

/* stats_summarize of ncols columns x[c][0..n) at once, into out[c]
 * (out[c].n == 0 where no value is finite).  The same results, faster:
 * the columns' running sums overlap. */
void stats_summarize_columns(const double *const *x, size_t n, size_t ncols,
			     double confidence, struct stats_summary *out);

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
	double ratio_lo, ratio_hi; /* confidence interval of the ratio
				      (Fieller, clamped at 0 for nonnegative
				      samples); NaN when unbounded or n < 2 */
	double p_welch;            /* Welch's two-sample t-test, two-sided */
	double p_mann_whitney;     /* Mann-Whitney U test, two-sided */
	enum stats_verdict verdict;
	/* Details, for reports that want them. */
	size_t na, nb;             /* finite values used */
	double welch_t, welch_df;  /* t = (mean b - mean a) / se, its df */
	double mw_u;               /* U of sample b (pairs b > a, ties 1/2) */
	bool mw_exact;             /* p from the exact null distribution */
	bool mw_underpowered;      /* too few runs for the rank test ever to
				      reach the level (2 / C(na+nb, na) >= 1 -
				      confidence, e.g. 3 + 3 runs at 95 %): the
				      verdict then rests on the interval and
				      Welch's test */
	bool exact;                /* stats_compare_exact: both sides the same
				      in every run, the ratio exact */
};

/*
 * Compare two samples (NaN values skipped).  seed drives any resampling
 * (none so far: every method here is closed-form).
 * Returns 0, or -1 when either side has no finite value.
 *
 * Verdict at alpha = 1 - confidence: FASTER/SLOWER only when the ratio's
 * confidence interval excludes 1 *and* both Welch's and the Mann-Whitney
 * test reject at alpha, all in the same direction; SAME otherwise; UNKNOWN
 * when either side has fewer than 2 values.
 */
int stats_compare(const double *a, size_t na, const double *b, size_t nb,
		  double confidence, unsigned long seed,
		  struct stats_comparison *out);

/*
 * Deterministic counts (a simulated CPU's): when every finite value of a
 * is the same, and every one of b, in at least 2 runs each, the ratio is
 * exact: ratio_lo = ratio_hi = ratio, no p-value (NaN), exact set, and
 * the verdict FASTER/SLOWER for any ratio but 1 (SAME).  Returns 0, or -1
 * (out untouched) when a side varies or has fewer than 2 values: then
 * the statistics of stats_compare apply.
 */
int stats_compare_exact(const double *a, size_t na, const double *b, size_t nb,
			double confidence, struct stats_comparison *out);
/* Are x's finite values, at least 2 of them, all the same?  *v gets it. */
bool stats_constant(const double *x, size_t n, double *v);

/*
 * The resolution of a comparison: the smallest relative change it could
 * have told from noise at its level, the geometric half-width of the
 * ratio's interval, sqrt(hi / lo) - 1 (0.28: changes under ±28 % could not
 * be seen).  0 for an exact comparison, NaN without an interval.
 */
double stats_resolution(const struct stats_comparison *c);

const char *stats_verdict_name(enum stats_verdict v);

/* The two tests on their own, for callers with other data. */
/* Welch: two-sided p; NaN if either n < 2.  t and df optional (may be NULL). */
double stats_welch_p(const double *a, size_t na, const double *b, size_t nb,
		     double *t, double *df);
/* Mann-Whitney U, two-sided p: exact when there are no ties and both
 * samples have fewer than 50 values (as R's wilcox.test), otherwise the
 * normal approximation with tie and continuity correction (as
 * scipy.stats.mannwhitneyu(method='asymptotic')).  NaN if a side is empty.
 * u (optional) receives U of sample b; exact (optional) which p was used. */
double stats_mann_whitney_p(const double *a, size_t na, const double *b,
			    size_t nb, double *u, bool *exact);

/*
 * Warnings about a benchmark, pure functions of its runs.  Thresholds and
 * the reasoning behind them are in stats.c.
 */
enum stats_warning {
	STATS_WARN_FIRST_SLOW = 1 << 0, /* first run far slower than the rest */
	STATS_WARN_OUTLIERS = 1 << 1,   /* many outliers (Tukey fences) */
	STATS_WARN_TOO_FAST = 1 << 2,   /* mean below STATS_TOO_FAST_S */
	STATS_WARN_WAITS = 1 << 3,      /* wall time far above user+system */
	STATS_WARN_BIMODAL = 1 << 4,    /* two clusters of run times */
	STATS_WARN_DRIFT = 1 << 5,      /* consecutive runs strongly
					   correlated: the machine's speed
					   drifted (set by the analysis) */
	STATS_WARN_CARRYOVER = 1 << 6,  /* runs after another benchmark's
					   took longer or shorter than runs
					   after its own (set by the
					   analysis) */
};

/*
 * What the run before changes: a benchmark's runs split by whether the
 * previous measured run of the invocation (run index - 1) was one of its
 * own or another benchmark's.  Its first run is left out (its warmups or
 * setup came before it), and so are runs without a finite value or run
 * index, runs after one of its own without a run index, and the runs at
 * the end that only follow its own once the others have finished
 * (adaptive counts), when some run followed another's.  Interleaved or
 * shuffled rounds give both groups; sequential runs only the first.
 */
struct stats_carryover {
	size_t n_self, n_other;          /* runs in each group */
	double after_self, after_other;  /* their medians; NaN if empty */
	double change;                   /* after_other / after_self - 1 */
	double p;                        /* Mann-Whitney U, two-sided
					    (stats_mann_whitney_p); NaN
					    unless both groups have a run */
};
void stats_carryover(const double *x, const double *run_index, size_t n,
		     struct stats_carryover *out);

/* A difference between the two groups is worth a warning when both have
 * at least STATS_CARRYOVER_MIN_N runs, the rank test's p is below the
 * analysis' 1 - confidence, and the medians differ by STATS_CARRYOVER_REL
 * or more. */
#define STATS_CARRYOVER_MIN_N 5
#define STATS_CARRYOVER_REL 0.05

/* A serial-dependence factor (stats_robust.h) at or above this is worth
 * a warning: the mean's standard error is half as large again as
 * independent runs would make it (lag-1 autocorrelation about 0.38). */
#define STATS_DRIFT_FACTOR 1.5

/* Below this mean wall time (seconds) a run is "too fast to time reliably". */
#define STATS_TOO_FAST_S 5e-3

/* Outliers, and the gap between two groups, must be this far from the
 * median (relative) to be worth a warning: tight data is not "noisy". */
#define STATS_OUTLIER_REL 0.05
#define STATS_BIMODAL_GAP_REL 0.05

/* Widen s's mean interval for an estimate of standard error extra_se
 * (from extra_n values) subtracted from every value: variance s^2/n +
 * extra_se^2, Welch-Satterthwaite degrees of freedom.  No change when
 * extra_se is 0 or n < 2. */
void stats_widen_mean_ci(struct stats_summary *s, double extra_se, size_t extra_n);

/* For a metric that cannot be negative (every metric cbench measures:
 * times, bytes, counts): raise the lower bounds of the mean and median
 * intervals to 0.  The Student-t interval of a few spread-out runs can
 * reach below 0, which no run can. */
void stats_clamp_nonnegative(struct stats_summary *s);

/* Is x[0] (the first run) far slower than the others? */
bool stats_first_run_slow(const double *x, size_t n);
/* Are there many outliers in s (more than 5 % of runs, and at least 2,
 * beyond Tukey's 1.5 IQR fences, or any beyond 3 IQR), and does the most
 * extreme of them lie more than STATS_OUTLIER_REL from the median? */
bool stats_many_outliers(const struct stats_summary *s);
/* Sample bimodality coefficient (SAS's formula, Pfister et al. 2013);
 * NaN when n < 4 or the values are all equal. */
double stats_bimodality_coefficient(const double *x, size_t n);
/* Bimodality coefficient above 5/9, and the sorted values (their logarithms
 * when all are positive) split into two groups of at least 10 % of the runs
 * (and 2 runs) each by an empty gap over twice either group's standard
 * deviation and over STATS_BIMODAL_GAP_REL (relative).  Needs 20 values. */
bool stats_looks_bimodal(const double *x, size_t n);
/* Mean CPU time (user + system) below half the mean wall time, by more than
 * 1 ms: the command mostly waits. */
bool stats_mostly_waiting(const double *wall, const double *user,
			  const double *sys, size_t n);
/* All of the above for a benchmark's wall-time column, given its summary
 * s and the summaries of its user and system times (NULL, or n == 0, when
 * not measured): a mask of enum stats_warning. */
unsigned stats_warnings(const double *wall, size_t n, const struct stats_summary *s,
			const struct stats_summary *user, const struct stats_summary *sys);

#endif
