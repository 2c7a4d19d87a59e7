/*
 * multitest.c: Holm's step-down adjustment and Bonferroni's level (see
 * multitest.h).
 *
 * Holm, S. (1979), "A simple sequentially rejective multiple test
 * procedure", Scandinavian Journal of Statistics 6(2), 65-70: sort the m
 * p-values, compare the j-th smallest with alpha / (m - j + 1), and reject
 * up to the first one that is not below it.  The adjusted p-values
 * (Wright, S. P. (1992), "Adjusted P-values for simultaneous inference",
 * Biometrics 48(4), 1005-1013) turn that into one number per hypothesis,
 * as R's p.adjust(p, "holm") and statsmodels' multipletests(p,
 * method="holm") compute them; the unit tests check against the latter.
 */
#include "multitest.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>

struct ranked {
	double p;      /* NaN counted as 1 */
	size_t at;     /* index in the input */
};

/* Ascending p, ties in input order (qsort is not stable). */
static int by_p(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;
	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->at > b->at) - (a->at < b->at);
}

void multitest_holm(const double *p, size_t m, double *adj)
{
	if (m == 0)
		return;
	struct ranked *r = xcalloc(m, sizeof *r);
	for (size_t i = 0; i < m; i++) {
		r[i].p = isnan(p[i]) ? 1.0 : p[i];
		r[i].at = i;
	}
	qsort(r, m, sizeof *r, by_p);
	double run = 0;
	for (size_t j = 0; j < m; j++) {
		double v = (double)(m - j) * r[j].p;
		if (v > run)
			run = v;
		if (run > 1)
			run = 1;
		r[j].p = run;
	}
	/* The NaN ones stay NaN: read them before adj (which may be p) is
	 * written. */
	for (size_t j = 0; j < m; j++)
		if (isnan(p[r[j].at]))
			r[j].p = NAN;
	for (size_t j = 0; j < m; j++)
		adj[r[j].at] = r[j].p;
	free(r);
}

double multitest_level(double confidence, size_t m)
{
	return m <= 1 ? confidence : 1.0 - (1.0 - confidence) / (double)m;
}
