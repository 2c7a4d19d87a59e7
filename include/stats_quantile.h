/*
 * stats_quantile.h: two samples compared at a low quantile.
 *
 * Interference on a busy machine (another process on the core, a host
 * that takes the virtual CPU away, a lower clock) only ever adds time to
 * a fixed amount of work, in bursts: the mean and even the median of a
 * CPU-bound command's CPU time move with it, its low quantiles far less.
 * The quantile is Harrell and Davis's (1982), a weighted mean of every
 * order statistic, smooth enough for the bootstrap; the interval is the
 * percentile bootstrap of the ratio, by rounds when the runs were paired.
 *
 * As stats.h: NaN values are skipped (a round with either side NaN, when
 * paired); pure (same input and seed, same output); nothing printed.
 */
#ifndef CBENCH_STATS_QUANTILE_H
#define CBENCH_STATS_QUANTILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/* The quantile the gate compares CPU time at: the 10th percentile. */
#define STATS_LOW_QUANTILE 0.10
/* The most resamples stats_compare_quantile draws (its p-value's floor is
 * then 2e-5: enough for a Holm family of hundreds at 95 %). */
#define STATS_QUANTILE_B_MAX 100000

/* The Harrell-Davis estimate of quantile p (0 < p < 1) of the finite
 * values of x; NaN when there is none. */
double stats_hd_quantile(const double *x, size_t n, double p);

/*
 * b against a at quantile p: out->ratio = HD_p(b) / HD_p(a), out->ratio_lo
 * and ratio_hi the percentile-bootstrap interval at confidence, out->p_welch
 * the bootstrap's two-sided p-value of ratio 1 (at least 2 / (B + 1)),
 * p_mann_whitney NaN, na and nb the values used.  B resamples (at least
 * enough for p to reach 1 - confidence, 20 / (1 - confidence), up to
 * STATS_QUANTILE_B_MAX), from
 * seed; paired: a and b are rounds (na == nb), resampled together.
 * Returns 0, or -1 when a side has fewer than 2 values (paired: rounds),
 * out of memory, or a side's quantile is not positive.
 */
int stats_compare_quantile(const double *a, size_t na, const double *b,
			   size_t nb, bool paired, double p, double confidence,
			   size_t B, uint64_t seed, struct stats_comparison *out);

#endif
