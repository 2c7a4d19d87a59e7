/*
 * stats.c: descriptive statistics, confidence intervals, two-sample tests
 * and benchmark warnings, with GSL for the distributions.
 *
 * Methods and sources:
 * - Mean and sample standard deviation: GSL's gsl_stats_mean /
 *   gsl_stats_sd_m arithmetic (a running mean, then a running mean of
 *   squared deviations, in long double), accurate on the NIST StRD
 *   univariate datasets (tests/unit/test_stats.c); computed here, several
 *   columns at once, with results identical to GSL's.
 * - Quantiles: Hyndman & Fan (1996) "Sample quantiles in statistical
 *   packages", definition 7 (R's default, numpy's "linear"): h = (n-1)p,
 *   linear interpolation between the order statistics around h.  This is
 *   what gsl_stats_quantile_from_sorted_data computes.  Median, Q1, Q3 and
 *   IQR = Q3 - Q1 use it; MAD is the unscaled median of |x - median|.
 * - Mean CI: Student's t, mean +- t_{(1+c)/2, n-1} s / sqrt(n).
 * - Median CI: distribution-free, from order statistics (Conover, Practical
 *   Nonparametric Statistics, 3rd ed., section 3.2): [x_(k), x_(n-k+1)] with
 *   the largest k such that 2 P(B <= k-1) <= 1 - c for B ~ Binomial(n, 1/2).
 *   Its true coverage, 1 - 2 P(B <= k-1), is at least c.
 * - Outliers: Tukey (1977) fences, mild beyond 1.5 IQR, severe beyond 3 IQR
 *   from the quartiles.  Flagged, never removed.
 * - Ratio of means: Fieller's (1954) theorem for independent samples, with
 *   the Welch-Satterthwaite degrees of freedom evaluated at the estimated
 *   ratio (the plug-in approach of Tamhane & Logan 2004).  Unlike
 *   hyperfine's propagated spread, its width shrinks like 1/sqrt(n), and
 *   the interval of 1/ratio is exactly the reciprocal interval.  For
 *   nonnegative samples (times, counts) the interval is clamped at 0: the
 *   ratio of two nonnegative means cannot be negative, so the part of
 *   Fieller's set below 0 holds no possible value.
 * - Welch (1947) t-test, two-sided, Welch-Satterthwaite df.
 * - Mann-Whitney (1947) U test, two-sided: exact null distribution (counted
 *   by dynamic programming) without ties when both samples have fewer than
 *   50 values (R's wilcox.test rule); otherwise the normal approximation
 *   with tie correction and continuity correction (R wilcox.test(correct =
 *   TRUE), scipy.stats.mannwhitneyu(method='asymptotic')).
 * - Bimodality coefficient: (g^2 + 1) / (k + 3 (n-1)^2 / ((n-2)(n-3))) with
 *   sample skewness g and excess kurtosis k (SAS formulas); above 5/9, the
 *   value for a uniform distribution, suggests two modes (Pfister et al.
 *   2013, "Good things peak in pairs", Frontiers in Psychology 4:700).
 */
#include "stats.h"
#include "results.h"
#include "xalloc.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void stats_init(void)
{
	gsl_set_error_handler_off();
}

/* Copy the finite values of x; returns how many. */
static size_t finite_copy(const double *x, size_t n, double *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			out[k++] = x[i];
	return k;
}

/*
 * Sort v[0..n) ascending, all finite.  Equal values are the same double, so
 * any correct sort gives the same array (only -0 and +0, equal but
 * distinct, keep a fixed order here: -0 first).  Small arrays use
 * insertion sort; larger ones an LSD radix sort on the IEEE bits mapped to
 * unsigned keys whose order is the numeric order (flip every bit of a
 * negative value, only the sign bit of a positive one): six passes of 11
 * bits, each skipped when every key shares that digit (run times share
 * their exponent, counts most of their bits), so a million run times sort
 * in a few milliseconds where GSL's heapsort took a quarter of a second.
 */
#ifndef RADIX_BITS
#define RADIX_BITS 11
#endif
#define RADIX_SIZE (1u << RADIX_BITS)
#define RADIX_PASSES ((64 + RADIX_BITS - 1) / RADIX_BITS)

/* The order-preserving key of a double, and back. */
static uint64_t radix_key(double x)
{
	uint64_t u;
	memcpy(&u, &x, sizeof u);
	return u ^ ((u >> 63) ? ~UINT64_C(0) : UINT64_C(1) << 63);
}

static double radix_value(uint64_t u)
{
	u ^= (u >> 63) ? UINT64_C(1) << 63 : ~UINT64_C(0);
	double x;
	memcpy(&x, &u, sizeof x);
	return x;
}

/* tmp: scratch space for n values. */
static void sort_doubles(double *v, size_t n, double *tmp)
{
	if (n < 64) {
		for (size_t i = 1; i < n; i++) {
			double x = v[i];
			size_t j = i;
			for (; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	/* The keys live in v's and tmp's storage, copied in and out with
	 * memcpy so no object is read through a pointer of another type. */
	unsigned char *a = (unsigned char *)v, *b = (unsigned char *)tmp;
	size_t (*count)[RADIX_SIZE] = xcalloc(RADIX_PASSES, sizeof *count);
	for (size_t i = 0; i < n; i++) {
		uint64_t u = radix_key(v[i]);
		memcpy(a + 8 * i, &u, 8);
		for (int p = 0; p < RADIX_PASSES; p++)
			count[p][(u >> (p * RADIX_BITS)) & (RADIX_SIZE - 1)]++;
	}
	for (int p = 0; p < RADIX_PASSES; p++) {
		size_t *c = count[p], sum = 0;
		unsigned shift = (unsigned)(p * RADIX_BITS);
		uint64_t u;
		memcpy(&u, a, 8);
		if (c[(u >> shift) & (RADIX_SIZE - 1)] == n)
			continue; /* one digit everywhere: nothing moves */
		for (size_t d = 0; d < RADIX_SIZE; d++) {
			size_t t = c[d];
			c[d] = sum;
			sum += t;
		}
		for (size_t i = 0; i < n; i++) {
			memcpy(&u, a + 8 * i, 8);
			memcpy(b + 8 * c[(u >> shift) & (RADIX_SIZE - 1)]++, &u, 8);
		}
		unsigned char *t = a;
		a = b;
		b = t;
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t u;
		memcpy(&u, a + 8 * i, 8);
		v[i] = radix_value(u);
	}
	free(count);
}

/* A sorted copy of the finite values of x (caller frees); *k their count. */
static double *sorted_finite(const double *x, size_t n, size_t *k)
{
	double *v = xmalloc((n ? n : 1) * sizeof *v);
	double *tmp = xmalloc((n ? n : 1) * sizeof *tmp);
	*k = finite_copy(x, n, v);
	sort_doubles(v, *k, tmp);
	free(tmp);
	return v;
}

static double stats_quantile_sorted(const double *sorted, size_t n, double p)
{
	if (n == 0)
		return NAN;
	return gsl_stats_quantile_from_sorted_data(sorted, 1, n, p);
}

/* Two-sided Student t critical value for level c with df degrees
 * (GSL's quantile agrees with a 40-digit mpmath computation to ~1e-15). */
static double t_crit(double c, double df)
{
	return gsl_cdf_tdist_Pinv(0.5 + c / 2.0, df);
}

/* 2 P(B <= k-1) for B ~ Binomial(n, 1/2): the miss rate of [x_(k), x_(n-k+1)]. */
static double median_ci_miss(size_t k, size_t n)
{
	return 2.0 * gsl_cdf_binomial_P((unsigned)(k - 1), 0.5, (unsigned)n);
}

/*
 * Order-statistic CI of the median of sorted v[0..n) (see the top): the
 * largest k in 1..n/2 whose miss rate is at most 1 - c.  The miss rate
 * grows with k, so a bisection finds it in log2(n) evaluations of the
 * binomial CDF (a scan from k = 1 took n/2 of them: half a million for a
 * million runs).
 */
static void median_ci(const double *v, size_t n, double c, struct stats_summary *out)
{
	size_t ok = 0, bad = n / 2 + 1; /* miss(ok) <= 1 - c < miss(bad) */
	while (bad - ok > 1) {
		size_t mid = ok + (bad - ok) / 2;
		if (median_ci_miss(mid, n) > 1.0 - c)
			bad = mid;
		else
			ok = mid;
	}
	if (ok == 0)
		return;
	out->median_ci_lo = v[ok - 1];
	out->median_ci_hi = v[n - ok];
	out->median_ci_level = 1.0 - median_ci_miss(ok, n);
}

/* v[i] *= 2^e for all i, exactly as ldexp does: with one multiplication
 * when 2^e is a double (correctly rounded both ways, so the same result). */
static void scale_all(double *v, size_t k, int e)
{
	if (e >= -1022 && e <= 1023) {
		double f = ldexp(1.0, e);
		for (size_t i = 0; i < k; i++)
			v[i] *= f;
	} else {
		for (size_t i = 0; i < k; i++)
			v[i] = ldexp(v[i], e);
	}
}

/*
 * Absolute deviations from med of sorted v[0..k), sorted, into out: those
 * below med, read backwards, and those from med on, read forwards, are two
 * ascending runs, so one merge sorts them.
 */
static void sorted_deviations(const double *v, size_t k, double med, double *out)
{
	size_t split = 0;
	while (split < k && v[split] < med)
		split++;
	size_t lo = split, hi = split, o = 0;
	while (lo > 0 && hi < k) {
		double dl = fabs(v[lo - 1] - med), dh = fabs(v[hi] - med);
		if (dl <= dh) {
			out[o++] = dl;
			lo--;
		} else {
			out[o++] = dh;
			hi++;
		}
	}
	while (lo > 0) {
		out[o++] = fabs(v[lo - 1] - med);
		lo--;
	}
	while (hi < k)
		out[o++] = fabs(v[hi++] - med);
}

/*
 * GSL's running mean and variance (gsl_stats_mean, gsl_stats_sd_m: GSL 2.7
 * statistics/mean_source.c and variance_source.c), the same operations in
 * the same order and precision, so the results are identical bit for bit
 * (tests/unit/test_stats.c checks), for up to BATCH columns at once.  Each
 * step divides by the step count in long double, a chain of dependent
 * divisions that takes about 25 cycles per value; running several
 * columns' chains side by side overlaps them.
 */
#define BATCH 4

static void running_means(double *const *v, const size_t *k, size_t nc,
			  double *mean)
{
	long double m[BATCH] = {0};
	size_t common = SIZE_MAX;
	if (nc == 1) {
		long double m1 = 0;
		for (size_t i = 0; i < k[0]; i++)
			m1 += (v[0][i] - m1) / (long double)(i + 1);
		mean[0] = (double)m1;
		return;
	}
	for (size_t c = 0; c < nc; c++)
		if (k[c] < common)
			common = k[c];
	const double *p0 = v[0], *p1 = v[nc > 1], *p2 = v[nc > 2 ? 2 : 0],
		     *p3 = v[nc > 3 ? 3 : 0];
	long double m0 = 0, m1 = 0, m2 = 0, m3 = 0;
	for (size_t i = 0; i < common; i++) {
		long double d = (long double)(i + 1);
		m0 += (p0[i] - m0) / d;
		m1 += (p1[i] - m1) / d;
		m2 += (p2[i] - m2) / d;
		m3 += (p3[i] - m3) / d;
	}
	m[0] = m0, m[1] = m1, m[2] = m2, m[3] = m3;
	for (size_t c = 0; c < nc; c++) {
		long double mc = m[c];
		for (size_t i = common; i < k[c]; i++)
			mc += (v[c][i] - mc) / (long double)(i + 1);
		mean[c] = (double)mc;
	}
}

static void running_sds(double *const *v, const size_t *k, size_t nc,
			const double *mean, double *sd)
{
	long double s[BATCH] = {0};
	size_t common = SIZE_MAX;
	if (nc == 1) {
		long double s1 = 0;
		for (size_t i = 0; i < k[0]; i++) {
			const long double e = v[0][i] - mean[0];
			s1 += (e * e - s1) / (long double)(i + 1);
		}
		const double var = (double)s1;
		sd[0] = k[0] >= 2 ? sqrt(var * ((double)k[0] / (double)(k[0] - 1))) : NAN;
		return;
	}
	for (size_t c = 0; c < nc; c++)
		if (k[c] < common)
			common = k[c];
	size_t c1 = nc > 1, c2 = nc > 2 ? 2 : 0, c3 = nc > 3 ? 3 : 0;
	const double *p0 = v[0], *p1 = v[c1], *p2 = v[c2], *p3 = v[c3];
	double a0 = mean[0], a1 = mean[c1], a2 = mean[c2], a3 = mean[c3];
	long double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	for (size_t i = 0; i < common; i++) {
		long double d = (long double)(i + 1);
		const long double e0 = p0[i] - a0, e1 = p1[i] - a1;
		const long double e2 = p2[i] - a2, e3 = p3[i] - a3;
		s0 += (e0 * e0 - s0) / d;
		s1 += (e1 * e1 - s1) / d;
		s2 += (e2 * e2 - s2) / d;
		s3 += (e3 * e3 - s3) / d;
	}
	s[0] = s0, s[1] = s1, s[2] = s2, s[3] = s3;
	for (size_t c = 0; c < nc; c++) {
		long double sc = s[c];
		for (size_t i = common; i < k[c]; i++) {
			const long double e = v[c][i] - mean[c];
			sc += (e * e - sc) / (long double)(i + 1);
		}
		const double var = (double)sc;
		double kk = (double)k[c];
		sd[c] = k[c] >= 2 ? sqrt(var * (kk / (double)(k[c] - 1))) : NAN;
	}
}

/* Everything but the mean and standard deviation, from sorted v[0..k). */
static void summarize_sorted(double *v, size_t k, double *tmp, double confidence,
			     struct stats_summary *out)
{
	out->median = stats_quantile_sorted(v, k, 0.5);
	out->min = v[0];
	out->max = v[k - 1];
	out->q1 = stats_quantile_sorted(v, k, 0.25);
	out->q3 = stats_quantile_sorted(v, k, 0.75);
	out->iqr = out->q3 - out->q1;
	if (k >= 2) {
		double h = stats_mean_halfwidth(out, confidence);
		out->mean_ci_lo = out->mean - h;
		out->mean_ci_hi = out->mean + h;
	}
	median_ci(v, k, confidence, out);

	/* Tukey's fences: the outliers are at the two ends of v. */
	double lo3 = out->q1 - 3.0 * out->iqr, hi3 = out->q3 + 3.0 * out->iqr;
	double lo15 = out->q1 - 1.5 * out->iqr, hi15 = out->q3 + 1.5 * out->iqr;
	size_t i = 0, j = k;
	for (; i < k && (v[i] < lo3 || v[i] < lo15); i++)
		*(v[i] < lo3 ? &out->outliers_severe : &out->outliers_mild) += 1;
	for (; j > i && (v[j - 1] > hi3 || v[j - 1] > hi15); j--)
		*(v[j - 1] > hi3 ? &out->outliers_severe : &out->outliers_mild) += 1;

	/* MAD: median of absolute deviations. */
	sorted_deviations(v, k, out->median, tmp);
	out->mad = stats_quantile_sorted(tmp, k, 0.5);
}

/* Up to BATCH columns; see stats_summarize_columns. */
static void summarize_batch(const double *const *x, size_t n, size_t nc,
			    double confidence, struct stats_summary *out)
{
	double *v[BATCH], *tmp[BATCH], mean[BATCH], sd[BATCH];
	double *live_v[BATCH];
	size_t k[BATCH], live_k[BATCH], live[BATCH], nl = 0;
	int e[BATCH];
	for (size_t c = 0; c < nc; c++) {
		struct stats_summary *o = &out[c];
		v[c] = xmalloc((n ? n : 1) * sizeof *v[c]);
		tmp[c] = xmalloc((n ? n : 1) * sizeof *tmp[c]);
		k[c] = finite_copy(x[c], n, v[c]);
		sort_doubles(v[c], k[c], tmp[c]);
		memset(o, 0, sizeof *o);
		o->n = k[c];
		o->confidence = confidence;
		o->q1 = o->q3 = o->iqr = o->mad = NAN;
		o->mean_ci_lo = o->mean_ci_hi = NAN;
		o->median_ci_lo = o->median_ci_hi = o->median_ci_level = NAN;
		if (k[c] == 0) {
			o->mean = o->stddev = o->median = o->min = o->max = NAN;
			continue;
		}
		/* Scale by a power of two (exact) so that squares of huge or
		 * tiny values neither overflow nor underflow. */
		frexp(fmax(fabs(v[c][0]), fabs(v[c][k[c] - 1])), &e[c]);
		scale_all(v[c], k[c], -e[c]);
		live_v[nl] = v[c];
		live_k[nl] = k[c];
		live[nl++] = c;
	}
	/* A column of one value needs no running sums: GSL's mean is that
	 * value (+0 for zeros of either sign: the sum starts at +0), its
	 * variance 0. */
	size_t nv = 0;
	double *var_v[BATCH];
	size_t var_k[BATCH], var_of[BATCH];
	for (size_t l = 0; l < nl; l++) {
		if (live_v[l][0] == live_v[l][live_k[l] - 1]) {
			mean[l] = live_v[l][0] + 0.0;
			sd[l] = live_k[l] >= 2 ? 0.0 : NAN;
			continue;
		}
		var_v[nv] = live_v[l];
		var_k[nv] = live_k[l];
		var_of[nv++] = l;
	}
	if (nv > 0) {
		double m[BATCH], d[BATCH];
		running_means(var_v, var_k, nv, m);
		running_sds(var_v, var_k, nv, m, d);
		for (size_t j = 0; j < nv; j++) {
			mean[var_of[j]] = m[j];
			sd[var_of[j]] = d[j];
		}
	}
	for (size_t l = 0; l < nl; l++) {
		size_t c = live[l];
		out[c].mean = ldexp(mean[l], e[c]);
		out[c].stddev = k[c] >= 2 ? ldexp(sd[l], e[c]) : NAN;
		scale_all(v[c], k[c], e[c]);
		summarize_sorted(v[c], k[c], tmp[c], confidence, &out[c]);
	}
	for (size_t c = 0; c < nc; c++) {
		free(v[c]);
		free(tmp[c]);
	}
}

void stats_summarize_columns(const double *const *x, size_t n, size_t ncols,
			     double confidence, struct stats_summary *out)
{
	for (size_t c = 0; c < ncols; c += BATCH) {
		size_t nt = ncols - c < BATCH ? ncols - c : BATCH;
		summarize_batch(x + c, n, nt, confidence, out + c);
	}
}

int stats_summarize(const double *x, size_t n, double confidence,
		    struct stats_summary *out)
{
	stats_summarize_columns(&x, n, 1, confidence, out);
	return out->n > 0 ? 0 : -1;
}

void stats_ratio(const struct stats_summary *a, const struct stats_summary *b,
		 double *ratio, double *spread)
{
	*ratio = b->mean / a->mean;
	double ra = a->n >= 2 && a->mean != 0 ? a->stddev / a->mean : 0;
	double rb = b->n >= 2 && b->mean != 0 ? b->stddev / b->mean : 0;
	*spread = fabs(*ratio) * sqrt(ra * ra + rb * rb);
}

double stats_mean_halfwidth(const struct stats_summary *s, double confidence)
{
	if (s->n < 2 || !isfinite(s->stddev))
		return NAN;
	if (s->stddev == 0)
		return 0;
	return t_crit(confidence, (double)(s->n - 1)) * s->stddev / sqrt((double)s->n);
}

void stats_flag_outliers(const double *x, size_t n, const struct stats_summary *s,
			 unsigned char *flags)
{
	for (size_t i = 0; i < n; i++) {
		flags[i] &= (unsigned char)~(RUN_OUTLIER_MILD | RUN_OUTLIER_SEVERE);
		if (!isfinite(x[i]) || !isfinite(s->iqr))
			continue;
		if (x[i] < s->q1 - 3.0 * s->iqr || x[i] > s->q3 + 3.0 * s->iqr)
			flags[i] |= RUN_OUTLIER_SEVERE;
		else if (x[i] < s->q1 - 1.5 * s->iqr || x[i] > s->q3 + 1.5 * s->iqr)
			flags[i] |= RUN_OUTLIER_MILD;
	}
}

/* --- Welch's t-test ---------------------------------------------------- */

/* Welch-Satterthwaite degrees of freedom from the standard errors of the
 * two means (scale-free: they are first divided by the larger). */
static double welch_df(double ea, size_t na, double eb, size_t nb)
{
	double s = fmax(ea, eb);
	if (!(s > 0))
		return NAN;
	double va = (ea / s) * (ea / s), vb = (eb / s) * (eb / s);
	double num = (va + vb) * (va + vb);
	double den = va * va / (double)(na - 1) + vb * vb / (double)(nb - 1);
	return num / den;
}

static double welch_from(const struct stats_summary *sa,
			 const struct stats_summary *sb, double *t, double *df)
{
	double tt = NAN, d = NAN, p = NAN;
	if (sa->n >= 2 && sb->n >= 2) {
		double ea = sa->stddev / sqrt((double)sa->n);
		double eb = sb->stddev / sqrt((double)sb->n);
		double diff = sb->mean - sa->mean;
		if (ea > 0 || eb > 0) {
			tt = diff / hypot(ea, eb);
			d = welch_df(ea, sa->n, eb, sb->n);
			p = 2.0 * gsl_cdf_tdist_Q(fabs(tt), d);
			if (p > 1)
				p = 1;
		} else {
			/* No spread at all: the difference is certain. */
			tt = diff == 0 ? 0 : copysign(INFINITY, diff);
			p = diff == 0 ? 1.0 : 0.0;
		}
	}
	if (t)
		*t = tt;
	if (df)
		*df = d;
	return p;
}

double stats_welch_p(const double *a, size_t na, const double *b, size_t nb,
		     double *t, double *df)
{
	struct stats_summary sa, sb;
	if (stats_summarize(a, na, 0.95, &sa) != 0 ||
	    stats_summarize(b, nb, 0.95, &sb) != 0) {
		if (t)
			*t = NAN;
		if (df)
			*df = NAN;
		return NAN;
	}
	return welch_from(&sa, &sb, t, df);
}

/* --- Mann-Whitney U ---------------------------------------------------- */

struct ranked {
	double v;
	int group; /* 0: a, 1: b */
};

static int cmp_ranked(const void *p, const void *q)
{
	double x = ((const struct ranked *)p)->v, y = ((const struct ranked *)q)->v;
	return (x > y) - (x < y);
}

/*
 * P(U >= u) under the null for samples of m and n values without ties:
 * count the m-subsets of ranks 1..m+n by rank sum (dynamic programming over
 * the ranks, additions only, so no cancellation), then U = W - m(m+1)/2.
 */
static double mw_exact_upper(size_t m, size_t n, double u)
{
	size_t big = m + n;
	size_t maxw = m * (2 * big - m + 1) / 2;
	size_t width = maxw + 1;
	double *cnt = xcalloc((m + 1) * width, sizeof *cnt);
	cnt[0] = 1; /* zero chosen, sum 0 */
	for (size_t r = 1; r <= big; r++) {
		size_t top = r < m ? r : m;
		for (size_t j = top; j >= 1; j--) {
			double *dst = cnt + j * width, *src = cnt + (j - 1) * width;
			for (size_t w = maxw; w >= r; w--)
				dst[w] += src[w - r];
		}
	}
	double total = 0, upper = 0;
	double w0 = (double)m * (double)(m + 1) / 2.0;
	for (size_t w = 0; w <= maxw; w++) {
		double c = cnt[m * width + w];
		total += c;
		if ((double)w - w0 >= u - 1e-9)
			upper += c;
	}
	free(cnt);
	return upper / total;
}

double stats_mann_whitney_p(const double *a, size_t na, const double *b,
			    size_t nb, double *u, bool *exact)
{
	struct ranked *r = xmalloc((na + nb ? na + nb : 1) * sizeof *r);
	size_t m = 0, n = 0, big = 0;
	for (size_t i = 0; i < na; i++)
		if (isfinite(a[i])) {
			r[big++] = (struct ranked){a[i], 0};
			m++;
		}
	for (size_t i = 0; i < nb; i++)
		if (isfinite(b[i])) {
			r[big++] = (struct ranked){b[i], 1};
			n++;
		}
	if (u)
		*u = NAN;
	if (exact)
		*exact = false;
	if (m == 0 || n == 0) {
		free(r);
		return NAN;
	}
	qsort(r, big, sizeof *r, cmp_ranked);
	/* Mid-ranks for ties; tie term sum(t^3 - t). */
	double rank_sum_b = 0, ties = 0;
	for (size_t i = 0; i < big;) {
		size_t j = i;
		while (j + 1 < big && r[j + 1].v == r[i].v)
			j++;
		double t = (double)(j - i + 1);
		double mid = ((double)i + (double)j) / 2.0 + 1.0;
		for (size_t k = i; k <= j; k++)
			if (r[k].group == 1)
				rank_sum_b += mid;
		ties += t * t * t - t;
		i = j + 1;
	}
	free(r);
	double dm = (double)m, dn = (double)n, dN = (double)big;
	double ub = rank_sum_b - dn * (dn + 1) / 2.0; /* pairs b > a, ties 1/2 */
	double umax = fmax(ub, dm * dn - ub);
	if (u)
		*u = ub;
	double p;
	if (ties == 0 && m < 50 && n < 50) {
		p = 2.0 * mw_exact_upper(m, n, umax);
		if (exact)
			*exact = true;
	} else {
		double mu = dm * dn / 2.0;
		double var = dm * dn / 12.0 * ((dN + 1) - ties / (dN * (dN - 1)));
		if (!(var > 0))
			return 1.0; /* every value equal: no evidence at all */
		double z = (umax - mu - 0.5) / sqrt(var);
		p = 2.0 * gsl_cdf_ugaussian_Q(z);
	}
	return p > 1 ? 1 : p;
}

/* --- Comparison -------------------------------------------------------- */

/*
 * Fieller's interval for mb/ma from the means and the variances of the
 * means, all first divided by ma so that huge and tiny magnitudes neither
 * overflow nor underflow: solve (r - theta)^2 <= t^2 (wb + theta^2 wa) for
 * theta, where r = mb/ma, wa = va/ma^2, wb = vb/ma^2.  Bounded only when
 * g = t^2 wa < 1 (ma significantly non-zero).
 */
static void fieller(const struct stats_summary *sa, const struct stats_summary *sb,
		    double c, double *lo, double *hi)
{
	*lo = *hi = NAN;
	if (sa->n < 2 || sb->n < 2 || sa->mean == 0)
		return;
	double r = sb->mean / sa->mean;
	double ca = sa->stddev / sa->mean, cb = sb->stddev / sa->mean;
	double wa = ca * ca / (double)sa->n, wb = cb * cb / (double)sb->n;
	if (wa == 0 && wb == 0) {
		*lo = *hi = r;
		return;
	}
	double df = welch_df(fabs(r) * sqrt(wa), sa->n, sqrt(wb), sb->n);
	double t = t_crit(c, df);
	double g = t * t * wa;
	if (!(g < 1))
		return;
	double disc = wb + r * r * wa - g * wb;
	if (disc < 0)
		disc = 0;
	double h = t * sqrt(disc);
	*lo = (r - h) / (1 - g);
	*hi = (r + h) / (1 - g);
}

int stats_compare(const double *a, size_t na, const double *b, size_t nb,
		  double confidence, unsigned long seed,
		  struct stats_comparison *out)
{
	struct stats_summary sa, sb;
	(void)seed;
	memset(out, 0, sizeof *out);
	out->confidence = confidence;
	out->ratio = out->ratio_lo = out->ratio_hi = NAN;
	out->p_welch = out->p_mann_whitney = NAN;
	out->welch_t = out->welch_df = out->mw_u = NAN;
	out->verdict = VERDICT_UNKNOWN;
	if (stats_summarize(a, na, confidence, &sa) != 0 ||
	    stats_summarize(b, nb, confidence, &sb) != 0)
		return -1;
	out->na = sa.n;
	out->nb = sb.n;
	out->ratio = sb.mean / sa.mean;
	if (sa.n < 2 || sb.n < 2)
		return 0;
	fieller(&sa, &sb, confidence, &out->ratio_lo, &out->ratio_hi);
	/* Times and counts are never negative, and neither is a ratio of
	 * their means: Fieller's set is intersected with [0, inf), which
	 * keeps its coverage (the true ratio lies there).  A negative lower
	 * root (the candidate's mean not significantly above 0) becomes 0;
	 * an unbounded interval stays unbounded (NaN). */
	if (sa.min >= 0 && sb.min >= 0 && out->ratio_lo < 0)
		out->ratio_lo = 0;
	out->p_welch = welch_from(&sa, &sb, &out->welch_t, &out->welch_df);
	out->p_mann_whitney = stats_mann_whitney_p(a, na, b, nb, &out->mw_u,
						   &out->mw_exact);

	/*
	 * The verdict needs the ratio's interval and Welch's test (parametric,
	 * about means) and the rank test (robust to a stray outlier) to agree.
	 * The interval and Welch's test nearly always do, but not always (the
	 * interval's df is taken at the estimated ratio, the test's at 1), and
	 * the report shows both.  An unbounded interval (mean of a not
	 * significantly non-zero) or negative means leave it to the tests.
	 */
	double alpha = 1.0 - confidence;
	int dir_welch = out->p_welch < alpha ? (sb.mean > sa.mean ? 1 : -1) : 0;
	int dir_ci = dir_welch;
	if (sa.mean > 0 && isfinite(out->ratio_lo) && isfinite(out->ratio_hi))
		dir_ci = out->ratio_lo > 1 ? 1 : out->ratio_hi < 1 ? -1 : 0;
	double mu = (double)sa.n * (double)sb.n / 2.0;
	int dir_mw = out->p_mann_whitney < alpha ? (out->mw_u > mu ? 1 : -1) : 0;
	/* The smallest two-sided p the exact rank test can give is
	 * 2 / C(na+nb, na): with 3 + 3 runs that is 0.1, so at 95 % it could
	 * never agree and would veto every verdict.  Let it abstain then. */
	out->mw_underpowered =
		2.0 * exp(-gsl_sf_lnchoose((unsigned)(sa.n + sb.n), (unsigned)sa.n)) >= alpha;
	if (out->mw_underpowered)
		dir_mw = dir_ci;
	if (dir_ci != 0 && dir_ci == dir_welch && dir_ci == dir_mw)
		out->verdict = dir_ci > 0 ? VERDICT_SLOWER : VERDICT_FASTER;
	else
		out->verdict = VERDICT_SAME;
	return 0;
}

bool stats_constant(const double *x, size_t n, double *v)
{
	size_t k = 0;
	double first = NAN;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			continue;
		if (k++ == 0)
			first = x[i];
		else if (x[i] != first)
			return false;
	}
	*v = first;
	return k >= 2;
}

int stats_compare_exact(const double *a, size_t na, const double *b, size_t nb,
			double confidence, struct stats_comparison *out)
{
	double va, vb;
	if (!stats_constant(a, na, &va) || !stats_constant(b, nb, &vb))
		return -1;
	memset(out, 0, sizeof *out);
	out->confidence = confidence;
	out->ratio = va != 0 ? vb / va : vb == 0 ? NAN : INFINITY;
	out->ratio_lo = out->ratio_hi = out->ratio;
	out->p_welch = out->p_mann_whitney = NAN;
	out->welch_t = out->welch_df = out->mw_u = NAN;
	for (size_t i = 0; i < na; i++)
		out->na += isfinite(a[i]) != 0;
	for (size_t i = 0; i < nb; i++)
		out->nb += isfinite(b[i]) != 0;
	out->verdict = vb < va ? VERDICT_FASTER : vb > va ? VERDICT_SLOWER
						      : VERDICT_SAME;
	out->exact = true;
	return 0;
}

double stats_resolution(const struct stats_comparison *c)
{
	if (c->exact)
		return 0;
	if (!(c->ratio_lo > 0) || !isfinite(c->ratio_hi) || c->ratio_hi < c->ratio_lo)
		return NAN;
	return sqrt(c->ratio_hi / c->ratio_lo) - 1;
}

const char *stats_verdict_name(enum stats_verdict v)
{
	switch (v) {
	case VERDICT_SAME:
		return "no significant difference";
	case VERDICT_FASTER:
		return "faster";
	case VERDICT_SLOWER:
		return "slower";
	default:
		return "unknown";
	}
}

/*
 * The mean of values from which an estimate was subtracted (the shell's
 * calibrated start-up) carries that estimate's error too: its variance is
 * s^2/n + se^2, with Welch-Satterthwaite degrees of freedom (Welch 1947;
 * Satterthwaite 1946) from n - 1 and the estimate's extra_n - 1.
 */
void stats_widen_mean_ci(struct stats_summary *s, double extra_se, size_t extra_n)
{
	if (s->n < 2 || !isfinite(s->stddev) || !(s->stddev > 0) ||
	    !(extra_se > 0) || extra_n < 2)
		return;
	double v1 = s->stddev * s->stddev / (double)s->n, v2 = extra_se * extra_se;
	double df = (v1 + v2) * (v1 + v2) /
		    (v1 * v1 / (double)(s->n - 1) + v2 * v2 / (double)(extra_n - 1));
	/* Each side of the interval scaled by the widened over the plain t
	 * half-width: exact for a t-interval, and the same proportion for
	 * an interval of another shape (a bootstrap's). */
	double k = t_crit(s->confidence, df) * sqrt(v1 + v2) /
		   (t_crit(s->confidence, (double)(s->n - 1)) * sqrt(v1));
	s->mean_ci_lo = s->mean - k * (s->mean - s->mean_ci_lo);
	s->mean_ci_hi = s->mean + k * (s->mean_ci_hi - s->mean);
}

/* --- Warnings ---------------------------------------------------------- */

void stats_clamp_nonnegative(struct stats_summary *s)
{
	if (s->mean_ci_lo < 0)
		s->mean_ci_lo = 0;
	if (s->median_ci_lo < 0)
		s->median_ci_lo = 0;
}

/*
 * The first run is "far slower" when it lies beyond the severe Tukey fence
 * of the other runs (Q3 + 3 IQR of runs 2..n) and is also at least 20 %
 * above their median, so a tiny IQR alone (deterministic runs) does not
 * trigger it.  Needs 4 runs besides the first.  hyperfine warns in the same
 * situation; cold caches are the usual cause.
 */
bool stats_first_run_slow(const double *x, size_t n)
{
	size_t first = 0;
	while (first < n && !isfinite(x[first]))
		first++;
	if (first >= n)
		return false;
	struct stats_summary rest;
	if (stats_summarize(x + first + 1, n - first - 1, 0.95, &rest) != 0 ||
	    rest.n < 4)
		return false;
	double v = x[first];
	return v > rest.q3 + 3.0 * rest.iqr && v > 1.2 * rest.median;
}

/*
 * For normal data 0.70 % of values fall beyond the 1.5 IQR fences and
 * 0.00023 % beyond 3 IQR, so more than 5 % mild-or-severe outliers (and at
 * least 2: one in 10 runs happens by chance), or any severe one, points at
 * interference rather than the command's own spread.  Needs 5 runs.
 *
 * On very tight data (ten `sleep 0.02` within 0.8 %) the fences are a few
 * microseconds apart and "outliers" are harmless, so the warning also needs
 * the extreme run beyond its fence to lie more than STATS_OUTLIER_REL (5 %)
 * from the median: an outlier must matter in size.  The Tukey counts
 * themselves are unchanged.
 */
bool stats_many_outliers(const struct stats_summary *s)
{
	if (s->n < 5)
		return false;
	size_t all = s->outliers_mild + s->outliers_severe;
	if (!(s->outliers_severe > 0 ||
	      (all >= 2 && (double)all > 0.05 * (double)s->n)))
		return false;
	double far = STATS_OUTLIER_REL * fabs(s->median);
	double hi = fmax(s->q3 + 1.5 * s->iqr, s->median + far);
	double lo = fmin(s->q1 - 1.5 * s->iqr, s->median - far);
	return s->max > hi || s->min < lo;
}

void stats_carryover(const double *x, const double *run_index, size_t n,
		     struct stats_carryover *out)
{
	double *self = xmalloc((n ? n : 1) * sizeof *self);
	double *other = xmalloc((n ? n : 1) * sizeof *other);
	size_t ns = 0, no = 0;
	/* Once the others have all finished (adaptive counts), every later
	 * run follows its own: those runs are left out, so that both groups
	 * come from the same stretch of time. */
	size_t end = n;
	while (end > 1 && isfinite(run_index[end - 1]) &&
	       isfinite(run_index[end - 2]) &&
	       run_index[end - 2] == run_index[end - 1] - 1)
		end--;
	if (end == 1)
		end = n;   /* none followed another: sequential, all of them */
	for (size_t k = 1; k < end; k++) {
		if (!isfinite(x[k]) || !isfinite(run_index[k]) ||
		    !isfinite(run_index[k - 1]))
			continue;
		/* a benchmark's runs are in run-index order: the run before
		 * run k was its own if and only if its own run k - 1 was */
		if (run_index[k - 1] == run_index[k] - 1)
			self[ns++] = x[k];
		else
			other[no++] = x[k];
	}
	out->n_self = ns, out->n_other = no;
	size_t ks, ko;
	double *ss = sorted_finite(self, ns, &ks);
	double *so = sorted_finite(other, no, &ko);
	out->after_self = stats_quantile_sorted(ss, ks, 0.5);
	out->after_other = stats_quantile_sorted(so, ko, 0.5);
	out->change = ks && ko && out->after_self != 0
		      ? out->after_other / out->after_self - 1 : NAN;
	out->p = ks && ko ? stats_mann_whitney_p(self, ns, other, no, NULL, NULL)
			  : NAN;
	free(ss);
	free(so);
	free(self);
	free(other);
}

double stats_bimodality_coefficient(const double *x, size_t n)
{
	size_t k;
	double *v = sorted_finite(x, n, &k);
	double bc = NAN;
	if (k >= 4 && v[0] != v[k - 1]) {
		double dk = (double)k;
		double mean = gsl_stats_mean(v, 1, k);
		double m2 = 0, m3 = 0, m4 = 0;
		for (size_t i = 0; i < k; i++) {
			double d = v[i] - mean, d2 = d * d;
			m2 += d2;
			m3 += d2 * d;
			m4 += d2 * d2;
		}
		m2 /= dk;
		m3 /= dk;
		m4 /= dk;
		/* Adjusted (SAS/Excel "SKEW", "KURT") sample estimators. */
		double g1 = m3 / pow(m2, 1.5);
		double G1 = g1 * sqrt(dk * (dk - 1)) / (dk - 2);
		double g2 = m4 / (m2 * m2) - 3.0;
		double G2 = (dk - 1) / ((dk - 2) * (dk - 3)) * ((dk + 1) * g2 + 6.0);
		bc = (G1 * G1 + 1) /
		     (G2 + 3.0 * (dk - 1) * (dk - 1) / ((dk - 2) * (dk - 3)));
	}
	free(v);
	return bc;
}

/*
 * A right-skewed unimodal sample (one slow straggler) also has a high
 * coefficient, so ask for two real groups too: somewhere the sorted values
 * must split into two groups, each with at least 10 % of the runs and at
 * least 2, separated by an empty gap more than twice the standard deviation
 * of either group.  Run times and counts spread multiplicatively (a loaded
 * machine stretches slow runs more), so when every value is positive this
 * is judged on their logarithms.  Needs 20 runs: in simulations (NumPy,
 * seed 7, 400 samples each) this flags 0.5 % of lognormal and 2-2.5 % of
 * exponential samples of 20, and finds two lognormal groups 2x apart (5 %
 * spread, one third slow) every time; with 10 runs false alarms from
 * skewed samples reached 8 %.  The gap must also be large in relative
 * terms, over STATS_BIMODAL_GAP_REL (5 %) of the value below it: on very
 * tight data (18 runs within 2 % and 2 stragglers) a 1 % gap can exceed
 * twice each group's spread without mattering to anyone.
 */
bool stats_looks_bimodal(const double *x, size_t n)
{
	double bc = stats_bimodality_coefficient(x, n);
	if (!(bc > 5.0 / 9.0))
		return false;
	size_t k;
	double *v = sorted_finite(x, n, &k);
	bool yes = false;
	if (k >= 20) {
		bool logs = v[0] > 0;
		double mingap = STATS_BIMODAL_GAP_REL * fabs(v[k / 2]);
		if (logs) {
			for (size_t i = 0; i < k; i++)
				v[i] = log(v[i]);
			mingap = log1p(STATS_BIMODAL_GAP_REL);
		}
		size_t need = (size_t)ceil(0.1 * (double)k);
		if (need < 2)
			need = 2;
		for (size_t i = need; i + need <= k && !yes; i++) {
			double gap = v[i] - v[i - 1];
			yes = gap > mingap && gap > 2 * gsl_stats_sd(v, 1, i) &&
			      gap > 2 * gsl_stats_sd(v + i, 1, k - i);
		}
	}
	free(v);
	return yes;
}

static double finite_mean(const double *x, size_t n)
{
	double s = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i])) {
			s += x[i];
			k++;
		}
	return k ? s / (double)k : NAN;
}

bool stats_mostly_waiting(const double *wall, const double *user,
			  const double *sys, size_t n)
{
	double w = finite_mean(wall, n);
	double cpu = (user ? finite_mean(user, n) : 0) + (sys ? finite_mean(sys, n) : 0);
	if (!isfinite(w) || !isfinite(cpu))
		return false;
	return cpu < 0.5 * w && w - cpu > 1e-3;
}

/*
 * Too fast: below 5 ms (hyperfine's limit too).  Process start-up (exec,
 * dynamic loading: about 1.5 ms for /bin/true here) is then most of a run,
 * and one scheduler tick (4 ms at HZ=250) of preemption distorts a run by
 * its whole length, so run-to-run noise dwarfs the command's own cost.
 */
unsigned stats_warnings(const double *wall, size_t n, const struct stats_summary *s,
			const struct stats_summary *user, const struct stats_summary *sys)
{
	unsigned w = 0;
	if (s->n == 0)
		return 0;
	if (stats_first_run_slow(wall, n))
		w |= STATS_WARN_FIRST_SLOW;
	if (stats_many_outliers(s))
		w |= STATS_WARN_OUTLIERS;
	if (s->mean < STATS_TOO_FAST_S)
		w |= STATS_WARN_TOO_FAST;
	if ((user && user->n) || (sys && sys->n)) {
		double cpu = (user && user->n ? user->mean : 0) +
			     (sys && sys->n ? sys->mean : 0);
		if (cpu < 0.5 * s->mean && s->mean - cpu > 1e-3)
			w |= STATS_WARN_WAITS;
	}
	if (stats_looks_bimodal(wall, n))
		w |= STATS_WARN_BIMODAL;
	return w;
}
