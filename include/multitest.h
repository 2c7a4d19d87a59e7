/*
 * multitest.h: family-wise error control for several comparisons made at
 * once (every candidate against one base on one metric, every row of one
 * gate).  Each comparison's own test holds its error rate at alpha; with m
 * of them, the chance that at least one identical pair is called different
 * grows towards 1 - (1 - alpha)^m.  Holm's step-down procedure keeps that
 * chance at most alpha for any dependence between the tests, and Bonferroni's
 * level for the intervals keeps all m of them covering together with
 * probability at least 1 - alpha.  With m = 1 both are the plain test and
 * interval.
 *
 * Pure functions: nothing here allocates beyond its own scratch space,
 * prints or modifies its input.
 */
#ifndef CBENCH_MULTITEST_H
#define CBENCH_MULTITEST_H

#include <stddef.h>

/* The method's name, as the JSON export records it. */
#define MULTITEST_METHOD "holm"

/*
 * Holm's step-down adjusted p-values of p[0..m) into adj[0..m) (adj may be
 * p): with p sorted ascending, p(1) <= ... <= p(m), the adjusted value of
 * p(j) is min(1, max over k <= j of (m - k + 1) p(k)), so that rejecting
 * every hypothesis whose adjusted p is below alpha is Holm's procedure at
 * level alpha.  Ties get equal adjusted values.  A NaN p counts as 1 in the
 * family (a test that could not be made rejects nothing) and its adjusted
 * value is NaN.
 */
void multitest_holm(const double *p, size_t m, double *adj);

/* The Bonferroni level of each of m intervals that cover together with
 * probability at least confidence: 1 - (1 - confidence) / m, and exactly
 * confidence when m <= 1. */
double multitest_level(double confidence, size_t m);

#endif
