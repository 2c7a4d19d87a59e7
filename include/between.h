/*
 * between.h: how much a benchmark's mean moves from one invocation to the
 * next on this machine, beyond what each invocation's own interval
 * allows, learned from earlier invocations (the history).
 *
 * An interval from one invocation's runs covers the noise within it; on
 * a shared machine the load also changes between invocations, over
 * minutes, and moves the whole invocation's mean (`make verdicts`: twenty
 * `--precision 10` reruns under load, each claiming ±10 %, held the
 * median of the others in 10 of 20).  As in a random-effects
 * meta-analysis (DerSimonian and Laird 1986, the moment estimator,
 * unweighted), each earlier invocation's mean is taken as the true mean
 * times a factor exp(b), b of sd tau between invocations, plus its own
 * error; on the log scale
 *   tau^2 = max(0, var(log mean_i) - mean(s_i^2)),
 * s_i the relative standard error of invocation i's mean, from its
 * recorded interval (half-width on the log scale over the normal
 * quantile of its level).  An interval that is to hold across reruns is
 * then the mean's own, widened: h = sqrt(h_own^2 + (t tau mean)^2), t
 * Student's quantile with k - 1 degrees of freedom for k invocations.
 *
 * Library-style: pure functions, no output.
 */
#ifndef CBENCH_BETWEEN_H
#define CBENCH_BETWEEN_H

#include <stddef.h>

/* Fewest earlier invocations tau is estimated from. */
#define BETWEEN_MIN_INVOCATIONS 3

/*
 * tau, relative (0.05: invocation means move by about 5 %), from k
 * earlier invocations' means and their intervals [lo, hi] at level
 * confidence; invocations without a positive mean and a finite interval
 * are left out.  NaN with fewer than BETWEEN_MIN_INVOCATIONS left; *used
 * gets how many were used.
 */
double between_sd(const double *mean, const double *lo, const double *hi,
		  size_t k, double confidence, size_t *used);

/* The relative half-width of an interval at confidence that holds across
 * invocations: own (the invocation's relative half-width) widened by tau
 * from k invocations.  own when tau is NaN or 0. */
double between_halfwidth(double own, double tau, size_t k, double confidence);

#endif
