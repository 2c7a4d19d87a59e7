/*
 * stats_quantile.c: two samples compared at a low quantile
 * (stats_quantile.h).
 *
 * Harrell-Davis: the estimate of quantile p from n sorted values is
 * sum_i w_i x_(i), w_i = I(i/n) - I((i-1)/n), I the regularized
 * incomplete beta function with a = p (n + 1), b = (1 - p) (n + 1)
 * (Harrell and Davis 1982; scipy.stats.mstats.hdquantiles computes the
 * same, and the unit test holds it to that).
 */
#include "stats_quantile.h"
#include "stats_robust.h"

#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>

/* Harrell-Davis weights of n sorted values at p, into w[n]. */
static void hd_weights(size_t n, double p, double *w)
{
	double a = p * ((double)n + 1), b = (1 - p) * ((double)n + 1);
	double prev = 0;
	for (size_t i = 1; i <= n; i++) {
		double cur = i == n ? 1.0 : gsl_sf_beta_inc(a, b, (double)i / (double)n);
		w[i - 1] = cur - prev;
		prev = cur;
	}
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* sum w_i x_(i) over x sorted in place. */
static double hd_sorted(double *x, size_t n, const double *w)
{
	qsort(x, n, sizeof *x, cmp_double);
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += w[i] * x[i];
	return s;
}

double stats_hd_quantile(const double *x, size_t n, double p)
{
	double *v = malloc((n ? n : 1) * sizeof *v);
	double *w = malloc((n ? n : 1) * sizeof *w);
	size_t k = 0;
	for (size_t i = 0; v && i < n; i++)
		if (isfinite(x[i]))
			v[k++] = x[i];
	double q = NAN;
	if (v && w && k > 0 && p > 0 && p < 1) {
		hd_weights(k, p, w);
		q = hd_sorted(v, k, w);
	}
	free(v);
	free(w);
	return q;
}

/* The finite values of a and b (paired: the rounds where both are) into
 * va and vb; their counts. */
static void finite_sides(const double *a, size_t na, const double *b, size_t nb,
			 bool paired, double *va, size_t *ka, double *vb, size_t *kb)
{
	*ka = *kb = 0;
	if (paired) {
		for (size_t i = 0; i < na && i < nb; i++)
			if (isfinite(a[i]) && isfinite(b[i])) {
				va[(*ka)++] = a[i];
				vb[(*kb)++] = b[i];
			}
		return;
	}
	for (size_t i = 0; i < na; i++)
		if (isfinite(a[i]))
			va[(*ka)++] = a[i];
	for (size_t i = 0; i < nb; i++)
		if (isfinite(b[i]))
			vb[(*kb)++] = b[i];
}

/* B bootstrap ratios into r[B]: resamples of va and vb (paired: one index
 * for both), their Harrell-Davis quantiles' ratio. */
static void boot_ratios(const double *va, size_t ka, const double *vb, size_t kb,
			bool paired, const double *wa, const double *wb, size_t B,
			uint64_t seed, double *ra, double *rb, double *r)
{
	struct stats_rng rng;
	stats_rng_seed(&rng, seed);
	for (size_t t = 0; t < B; t++) {
		for (size_t i = 0; i < ka; i++) {
			size_t j = stats_rng_index(&rng, ka);
			ra[i] = va[j];
			if (paired)
				rb[i] = vb[j];
		}
		for (size_t i = 0; !paired && i < kb; i++)
			rb[i] = vb[stats_rng_index(&rng, kb)];
		r[t] = hd_sorted(rb, kb, wb) / hd_sorted(ra, ka, wa);
	}
}

int stats_compare_quantile(const double *a, size_t na, const double *b,
			   size_t nb, bool paired, double p, double confidence,
			   size_t B, uint64_t seed, struct stats_comparison *out)
{
	double need = ceil(20.0 / (1.0 - confidence));
	if ((double)B < need)
		B = need < STATS_QUANTILE_B_MAX ? (size_t)need : STATS_QUANTILE_B_MAX;
	size_t n = na + nb + 1;
	double *buf = malloc((4 * n + 2 * n + B) * sizeof *buf);
	if (buf == NULL)
		return -1;
	double *va = buf, *vb = va + n, *ra = vb + n, *rb = ra + n;
	double *wa = rb + n, *wb = wa + n, *r = wb + n;
	size_t ka, kb;
	finite_sides(a, na, b, nb, paired, va, &ka, vb, &kb);
	int rc = -1;
	if (ka >= 2 && kb >= 2) {
		hd_weights(ka, p, wa);
		hd_weights(kb, p, wb);
		for (size_t i = 0; i < ka; i++)
			ra[i] = va[i];
		for (size_t i = 0; i < kb; i++)
			rb[i] = vb[i];
		double qa = hd_sorted(ra, ka, wa), qb = hd_sorted(rb, kb, wb);
		if (qa > 0 && qb > 0) {
			boot_ratios(va, ka, vb, kb, paired, wa, wb, B, seed, ra, rb, r);
			qsort(r, B, sizeof *r, cmp_double);
			size_t below = 0, above = 0;
			for (size_t t = 0; t < B; t++) {
				below += r[t] <= 1.0;
				above += r[t] >= 1.0;
			}
			double tail = (double)(below < above ? below : above) + 1;
			*out = (struct stats_comparison){
				.confidence = confidence, .ratio = qb / qa,
				.ratio_lo = gsl_stats_quantile_from_sorted_data(r, 1, B, (1 - confidence) / 2),
				.ratio_hi = gsl_stats_quantile_from_sorted_data(r, 1, B, (1 + confidence) / 2),
				.p_welch = fmin(1.0, 2 * tail / ((double)B + 1)),
				.p_mann_whitney = NAN, .na = ka, .nb = kb,
				.welch_t = NAN, .welch_df = NAN, .mw_u = NAN};
			rc = 0;
		}
	}
	free(buf);
	return rc;
}
