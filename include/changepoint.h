/*
 * changepoint.h: change points in a series of benchmark results.
 *
 * E-divisive (Matteson and James, "A Nonparametric Approach for
 * Multiple Change Point Analysis of Multivariate Data", JASA 2014) with the
 * significance test of Hunter/Apache Otava (Fleming et al., "Hunter: Using
 * Change Point Detection to Hunt for Performance Regressions", ICPE 2023):
 * the strongest split of a segment is kept when a two-sample test of the
 * points on each side finds it significant, and the search recurses into
 * the parts.  The series is one value per invocation (for example a
 * benchmark's mean wall time per commit), in time order.
 *
 * Ownership: cp_detect() fills *out with an array the caller frees with
 * free(); it prints nothing and allocates nothing else that outlives it.
 */
#ifndef CBENCH_CHANGEPOINT_H
#define CBENCH_CHANGEPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cp_test {
	CP_TEST_T,            /* Welch's t-test of the two sides (Hunter) */
	CP_TEST_PERMUTATION,  /* permutation test of the divergence (E-divisive) */
	CP_TEST_OTAVA,        /* Apache Otava's method, whole (see cp_detect_otava) */
};

struct cp_options {
	double alpha;          /* significance level of each change, e.g. 0.05 */
	size_t min_size;       /* fewest points on each side of a change (>= 2) */
	size_t max_changes;    /* 0: no limit */
	enum cp_test test;
	unsigned permutations; /* CP_TEST_PERMUTATION: resamples, e.g. 199 */
	uint64_t seed;         /* CP_TEST_PERMUTATION: the resampling seed */
	size_t window;         /* CP_TEST_OTAVA: window_len, 2 to CP_MAX_WINDOW */
	double min_magnitude;  /* CP_TEST_OTAVA: smallest change kept, >= 0 */
};
#define CP_MAX_WINDOW 1000

/* cp_default_options: alpha 0.05, min_size 3, no limit, the t-test
 * (window 50, min_magnitude 0: Otava's defaults for CP_TEST_OTAVA). */
struct cp_options cp_default_options(void);

/* One change: the series shifts between x[index - 1] and x[index]. */
struct cp_change {
	size_t index;          /* first point of the new segment, 0 < index < n */
	double mean_before;    /* mean of the segment that ends at index - 1 */
	double mean_after;     /* mean of the segment that starts at index */
	double ratio;          /* mean_after / mean_before */
	double ratio_lo, ratio_hi;  /* its CI at 1 - alpha */
	double p_value;        /* of the test that kept this change */
	double divergence;     /* the E-divisive statistic of the split */
	double p_welch;        /* Welch's two-sided p of the split's two sides,
				  before the correction for having chosen the
				  split (what Hunter reports); p_value is
				  min(1, K p_welch) for the t-test, K the
				  splits the segment admitted */
};

/*
 * cp_detect: finds the change points of x[0..n-1] (finite values; fewer
 * than 2 * min_size points give no change).  On success returns 0 and sets
 * *out (NULL when none) and *n_out, changes sorted by index.  On a bad
 * argument (non-finite value, alpha outside (0, 1), min_size < 2) or
 * running out of memory returns -1 with a message in err.
 */
int cp_detect(const double *x, size_t n, const struct cp_options *o,
	      struct cp_change **out, size_t *n_out, char *err, size_t errlen);

/*
 * cp_detect_otava: Apache Otava's compute_change_points (otava/analysis.py
 * and otava/change_point_divisive/, version 0.8), so that a series gives
 * the change points Otava gives.  alpha is its max_pvalue, window its
 * window_len, min_magnitude its min_magnitude; min_size, max_changes and
 * the permutation fields are not used (a segment may be one point: an
 * isolated outlier is its own segment, two changes, rather than the
 * place of a step).  old[0..n_old) (sorted indices, or NULL) and
 * new_points are Otava's incremental analysis after new_points were
 * appended: the old change points are kept as candidates and the search
 * starts near the end.  Each change's p_value (and p_welch) is the p Otava
 * reports for it, divergence NaN; means, ratio and interval as cp_detect's.
 * Returns as cp_detect.
 */
int cp_detect_otava(const double *x, size_t n, const struct cp_options *o,
		    const size_t *old, size_t n_old, size_t new_points,
		    struct cp_change **out, size_t *n_out, char *err,
		    size_t errlen);

/* Otava's candidate split of x[s..e) (e - s >= 2): the tau of the largest
 * Q(tau, kappa) over s < tau < kappa <= e, divergence exponent 1, the
 * first in (tau, kappa) order among equals; returns that Q.  For tests. */
double cp_otava_candidate(const double *x, size_t s, size_t e, size_t *tau);

/*
 * cp_resolution: the smallest step, relative to the series' median, that
 * cp_detect's t-test could call significant in x[0..n-1]: at a split in
 * the middle (the most favourable), with the noise estimated from
 * successive differences x[i+1] - x[i], over sqrt 2: the larger of 1.4826
 * times their MAD and their root mean square about their median (an
 * outlier inflates the test's variances, so it inflates this too):
 *   t(1 - alpha / 2K, n - 2) * sigma * sqrt(1/a + 1/b) / |median|,
 * K the admissible splits, a and b the halves.  A step of that size is
 * found about half the time, one of twice that size nearly always, one
 * of half of it seldom (test_changepoint.c measures it).
 * NaN with fewer than 2 min_size points or a median of 0.
 */
double cp_resolution(const double *x, size_t n, const struct cp_options *o);

/* The resamples the permutation test needs at level alpha: enough that
 * its smallest p, 1 / (permutations + 1), is a tenth of alpha (at least
 * 199); 0 when that is more than CP_MAX_PERMUTATIONS. */
#define CP_MAX_PERMUTATIONS 99999u
unsigned cp_permutations_for(double alpha);

/* The machine's state on both sides of a change point: medians of the
 * finite values of load[from..at) and load[at..to) (the 1-minute load
 * average of each point), likewise of cpu (CPU time over wall time),
 * NaN where a side has none; and whether either moved by a step that
 * alone moves a time (CP_LOAD_STEP_*, CP_CPU_STEP). */
struct cp_state {
	double load_before, load_after, cpu_before, cpu_after;
	bool load_step, cpu_step;
};
/* A load average that at least doubles (each side + 0.5, so that an idle
 * machine's 0.01 to 0.1 is no step) and moves by at least 1 runnable
 * task; a CPU share that moves by 10 points (98 % to 85 %: the runs
 * waited for a CPU, or for something else, 13 % more of their time). */
#define CP_LOAD_STEP_RATIO 2.0
#define CP_LOAD_STEP_ABS 1.0
#define CP_CPU_STEP 0.10
void cp_state_at(const double *load, const double *cpu, size_t from, size_t at,
		 size_t to, struct cp_state *out);

#endif
