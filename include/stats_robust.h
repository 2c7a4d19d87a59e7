/*
 * stats_robust.h: statistics that hold on a noisy machine.
 *
 * Consecutive runs on a shared machine are serially correlated, run times
 * are skewed, and interleaved runs come in rounds.  This module widens
 * intervals and tests for serial dependence (an AR(1) effective sample
 * size), compares paired rounds, and gives bootstrap-t intervals that cover
 * under skew.  Methods, sources and the simulations behind each choice are
 * in stats_robust.c.
 *
 * As in stats.h: GSL does the numerics (stats_init() must have turned its
 * abort handler off); nothing here prints, exits or modifies its input; NaN
 * values ("not counted") are skipped, and for paired data a round is
 * dropped when either side is NaN.  Pure functions: the same input and seed
 * give the same output.
 */
#ifndef CBENCH_STATS_ROBUST_H
#define CBENCH_STATS_ROBUST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/* Bootstrap resamples used by the entry points (cost O(B * n) time,
 * O(B + n) memory per interval). */
#define STATS_ROBUST_B 2000
/* Beyond this many values (both sides together for a ratio) the bootstrap
 * intervals are replaced by the t-interval on the same scale, widened the
 * same way: their quantiles then agree within the bootstrap's own
 * Monte-Carlo error, and the cost stays O(n). */
#define STATS_ROBUST_BOOT_MAX_N 4000
/* Bootstrap-t quantiles are held within this many times the t quantile
 * (a guard against degenerate resamples; see stats_robust.c). */
#define STATS_ROBUST_T_CAP 3.0
/* Fewer values than this are taken as independent (factor 1): the lag-1
 * autocorrelation of so few is mostly noise. */
#define STATS_ROBUST_DEP_MIN_N 20
/* Below this many values a side, too: a handful of values has too few
 * distinct resamples for bootstrap quantiles. */
#define STATS_ROBUST_BOOT_MIN_N 8

/*
 * The resampling generator, documented so that another implementation can
 * reproduce every resample: xoshiro256** 1.0 (Blackman and Vigna 2018),
 * its state filled by four outputs of SplitMix64 (Steele, Lea and Flood
 * 2014) started at the seed.  An index below n is
 * floor(((next >> 11) * 2^-53) * n), computed in double precision.
 */
struct stats_rng {
	uint64_t s[4];
};
void stats_rng_seed(struct stats_rng *r, uint64_t seed);
uint64_t stats_rng_next(struct stats_rng *r);
size_t stats_rng_index(struct stats_rng *r, size_t n);

/* Lag-1 autocorrelation of the finite values of x (in order, NaN dropped):
 * sum (x_t - m)(x_{t+1} - m) / sum (x_t - m)^2, m the overall mean (the
 * n-denominator acf, as statsmodels.tsa.stattools.acf).  NaN when fewer
 * than 3 values or all equal. */
double stats_acf1(const double *x, size_t n);

/*
 * Serial-dependence factor f >= 1 for the standard error of the mean of x:
 * f = sqrt((1 + r) / (1 - r)), r = (n r1 + 1) / (n - 3) (r1 the lag-1
 * autocorrelation, corrected for its bias) clamped to [0, 0.9], so
 * 1 <= f <= 4.36; f = 1 when r1 is undefined or with fewer than
 * STATS_ROBUST_DEP_MIN_N values.  n_eff (optional) receives
 * n / f^2, where n counts the finite values; acf1 (optional) r1.
 */
double stats_dependence_factor(const double *x, size_t n, double *acf1,
			       double *n_eff);

/* stats_mean_halfwidth_dependent from running figures: the standard
 * deviation sd and lag-1 autocorrelation r1 of n values (for a stopping
 * rule that keeps them up to date in O(1) per run).  NaN if n < 2. */
double stats_mean_halfwidth_r1(double sd, size_t n, double r1, double confidence);

/*
 * Half-width of the mean's confidence interval widened for serial
 * dependence: t_{(1+c)/2, df} * f * s / sqrt(n), df = max(n_eff - 1, 1).
 * Equals stats_mean_halfwidth when the lag-1 autocorrelation is <= 0.
 * O(n), no resampling: meant for the --precision stopping rule.  NaN when
 * fewer than 2 finite values.  n_eff optional.
 */
double stats_mean_halfwidth_dependent(const double *x, size_t n,
				      double confidence, double *n_eff);

/*
 * Fieller's interval for mean(b)/mean(a) from n paired rounds: the R with
 * |mean(b) - R mean(a)| <= t * sd(b_i - R a_i) / sqrt(n_eff), where n_eff
 * and the t's df come from the series b_i - R^ a_i (R^ the estimate).
 * Returns 0, or -1 with NaN bounds when fewer than 2 rounds, mean(a) is 0,
 * or the set is unbounded (mean(a) not significantly non-zero).  factor
 * (optional) receives f.
 */
int stats_paired_fieller(const double *a, const double *b, size_t n,
			 double confidence, double *ratio, double *lo,
			 double *hi, double *factor);

/*
 * Paired t-test, two-sided, on the rounds' log ratios log(b_i / a_i), or on
 * the differences b_i - a_i when some value is <= 0.  With widen, the
 * standard error is multiplied by the dependence factor of that series and
 * df = max(n_eff - 1, 1).  NaN when fewer than 2 rounds.  t, df, factor
 * optional.  log_scale (optional): whether log ratios were used.
 */
double stats_paired_t_p(const double *a, const double *b, size_t n, bool widen,
			double *t, double *df, double *factor, bool *log_scale);

/*
 * Wilcoxon signed-rank test of d (NaN skipped), two-sided.  Zeros are
 * dropped (zero_method='wilcox').  With factor == 1, no ties, no zeros and
 * at most 50 values: the exact null distribution, as
 * scipy.stats.wilcoxon(d, method='exact'); otherwise the normal
 * approximation with tie correction and no continuity correction, as
 * scipy.stats.wilcoxon(d, method='approx', correction=False), its standard
 * error multiplied by factor (>= 1; serial dependence).  NaN when no
 * non-zero value.  w_plus (optional): the sum of positive ranks; exact
 * (optional): which p was used.
 */
double stats_wilcoxon_p(const double *d, size_t n, double factor,
			double *w_plus, bool *exact);

/*
 * Bootstrap-t (studentized bootstrap) interval of the mean with B resamples
 * from seed, each endpoint's distance from the mean multiplied by factor
 * (>= 1; 1 for independent runs).  The studentized resample means are
 * (m* - m) / (s* / sqrt(n)), resamples with s* = 0 left out, and the
 * interval is m - factor * s / sqrt(n) * [q(1 - alpha/2), q(alpha/2)] with
 * q the Hyndman-Fan type 7 quantiles (numpy.quantile's default).  Returns 0, or -1 with NaN bounds when fewer than 2 finite values
 * or B < 10.  A constant sample gives lo == hi == the mean.
 */
int stats_boot_mean_ci(const double *x, size_t n, double confidence,
		       size_t B, uint64_t seed, double factor, double *lo,
		       double *hi);

/*
 * Bootstrap-t interval of mean(b)/mean(a), studentized on the log scale
 * with the delta-method standard error; paired resamples rounds (na == nb
 * required), otherwise each side independently.  factor as above, applied
 * on the log scale.  Returns 0, or -1 with NaN bounds when a side has fewer
 * than 2 values, a mean is <= 0, or B < 10.
 */
int stats_boot_ratio_ci(const double *a, size_t na, const double *b,
			size_t nb, bool paired, double confidence, size_t B,
			uint64_t seed, double factor, double *lo, double *hi);

/* Everything one comparison of b with a (the reference) reports. */
struct stats_robust_cmp {
	double confidence;
	bool paired;
	size_t na, nb;             /* values used (paired: both = rounds) */
	double ratio;              /* mean(b) / mean(a); paired (every value
				      positive): the geometric mean of the
				      rounds' ratios b_i / a_i */
	double ratio_lo, ratio_hi; /* its interval: paired, the widened
				      t-interval of the log ratios, else
				      bootstrap-t, widened; NaN if none */
	double ratio_of_means;     /* mean(b) / mean(a) in every case */
	double fieller_lo, fieller_hi; /* paired Fieller (paired only) */
	double p_t;                /* paired t (log ratios) or Welch */
	double t, t_df;
	double p_rank;             /* Wilcoxon signed-rank or Mann-Whitney */
	bool rank_exact;
	bool rank_underpowered;    /* rank test can never reach the level:
				      it abstains from the verdict */
	int rank_dir;              /* +1 when b's values rank above a's (the
				      rank statistic above its mean under no
				      difference), else -1 */
	double acf_a, acf_b;       /* lag-1 autocorrelations; paired: acf_a
				      of the rounds' log ratios (of b_i -
				      R a_i when a value is 0), acf_b NaN */
	double factor;             /* factor applied to the ratio's
				      bootstrap interval (>= 1): f times
				      t_{df_eff} / t_{df} (see .c) */
	double n_eff;              /* paired: of that series; else n_eff of
				      a and b summed */
	double n_eff_a, n_eff_b;   /* unpaired: each side's */
	const char *ci_method;     /* static strings, for the JSON */
	const char *t_method;
	const char *rank_method;
	const char *dependence_method;
	enum stats_verdict verdict;
};

/*
 * Compare b with a.  paired: round i is (a[i], b[i]) and na must equal nb.
 * seed drives the bootstrap (STATS_ROBUST_B resamples).  Returns 0, or -1
 * when a side has no finite value (or, paired, na != nb or no complete
 * round).  Verdict as stats_compare: FASTER/SLOWER only when the ratio's
 * interval excludes 1 and both tests reject at 1 - confidence, all in the
 * same direction (an underpowered rank test abstains; without an interval
 * the tests decide); UNKNOWN below 2 values (rounds) a side.
 */
int stats_compare_robust(const double *a, size_t na, const double *b,
			 size_t nb, bool paired, double confidence,
			 uint64_t seed, struct stats_robust_cmp *out);

/* The same with B resamples for the unpaired (or zero-time) ratio
 * interval; B == 0: the widened t-interval of the log ratio instead (for
 * metrics that are not skewed, at O(n)). */
int stats_compare_robust_b(const double *a, size_t na, const double *b,
			   size_t nb, bool paired, double confidence,
			   uint64_t seed, size_t B, struct stats_robust_cmp *out);

/* r's verdict with p, the p-value its verdict rests on adjusted for
 * multiplicity (multitest.h), in place of both tests' own: FASTER/SLOWER
 * when the ratio's interval excludes 1 (at r's level), p < alpha, and both
 * tests' statistics point the same way (an underpowered rank test
 * abstains), as the rule of stats_compare_robust; UNKNOWN stays UNKNOWN.
 * With p the larger of the two tests' p-values (the t-test's when the rank
 * test abstains) and alpha 1 - r's level, the verdict r has. */
enum stats_verdict stats_robust_verdict_adjusted(const struct stats_robust_cmp *r,
						 double p, double alpha);

/* r in stats_comparison's terms, for code written against stats.h: the
 * ratio, its interval and the verdict; p_welch the t-test's p (paired t
 * or widened Welch), p_mann_whitney the rank test's (Wilcoxon or
 * Mann-Whitney) with mw_underpowered when it abstains.  Fields r has no
 * counterpart for (mw_u) are left as they were. */
void stats_robust_as_comparison(const struct stats_robust_cmp *r,
				struct stats_comparison *c);

/*
 * One benchmark's mean: bootstrap-t interval (STATS_ROBUST_B resamples)
 * widened by the dependence factor f times t_{(1+c)/2, df(n_eff)} /
 * t_{(1+c)/2, n-1}, so that it is as wide as the widened t-interval of
 * stats_mean_halfwidth_dependent for symmetric data; n_eff optional.  Returns 0, or -1 with
 * NaN bounds when fewer than 2 finite values.
 */
int stats_mean_ci_robust(const double *x, size_t n, double confidence,
			 uint64_t seed, double *lo, double *hi, double *n_eff);

#endif
