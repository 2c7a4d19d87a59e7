/*
 * changepoint.c: change points in a series of benchmark results, by
 * E-divisive means with the significance test of Hunter/Apache Otava.
 *
 * Method and sources:
 * - The divergence.  Matteson and James, "A Nonparametric Approach for
 *   Multiple Change Point Analysis of Multivariate Data", JASA 109 (2014),
 *   eq. (3)-(5): for a split of a segment into X (m points) and Y (k),
 *     E = 2/(mk) sum|X_i - Y_j|^a - C(m,2)^-1 sum_{i<l}|X_i - X_l|^a
 *         - C(k,2)^-1 sum_{j<l}|Y_j - Y_l|^a,    Q = mk/(m+k) E.
 *   cbench takes the exponent a = 2, the member of the family that sees
 *   changes of the mean (the paper's a in (0, 2) sees any change of the
 *   distribution; at a = 2 the divergence is zero exactly when the means
 *   agree), hence "E-divisive means".  Expanding the squares,
 *     E = 2 ((mean X - mean Y)^2 - s_X^2 / m - s_Y^2 / k)
 *   with the sample variances s^2 (n - 1 denominators): an unbiased
 *   estimate of 2 (mu_X - mu_Y)^2.  So one pass of running sums over a
 *   segment gives Q at every split, O(m) per segment instead of the
 *   O(m^2) of the pairwise sums (tests/unit/changepoint_expected.py
 *   computes the pairwise definition directly and agrees).
 * - The search, as the E-divisive implementation Hunter builds on
 *   (MongoDB's signal-processing-algorithms; Daly et al., ICPE 2020) and
 *   Hunter itself (Fleming et al., "Hunter: Using Change Point Detection
 *   to Hunt for Performance Regressions", ICPE 2023): a segment's
 *   candidate is the split tau (at least min_size points on each side)
 *   with the largest Q of [start, tau) against [tau, end); the candidate
 *   of largest Q among all segments is taken first, kept when its test
 *   gives p < alpha, and then both parts are searched again; a segment
 *   whose candidate is not significant is final.  Without max_changes the
 *   result does not depend on the order (each segment's decision depends
 *   only on its own points); with it the strongest changes are kept.
 * - CP_TEST_T: Welch's (1947) two-sided t-test of the two sides
 *   (gsl_cdf_tdist_Q, Welch-Satterthwaite df), as Hunter tests a split
 *   (Hunter uses Student's; Welch does not assume equal variances).  The
 *   split tested is the one that separates the means most, so its raw p
 *   is far too small: on pure noise, p < 0.05 at the chosen split in 19 %
 *   of series of 12 points, 33 % of 30 and 47 % of 100 (simulation,
 *   changepoint_expected.py fpr).  Hunter answers with a small threshold
 *   (p 0.001); cbench corrects the p-value for the choice instead,
 *   Bonferroni over the K admissible splits of the segment (p = min(1,
 *   K p_welch)), which bounds the false-positive rate by alpha (measured
 *   3-5 %; the unit test re-runs it).  p_welch keeps the raw value.
 * - CP_TEST_PERMUTATION: Matteson and James's permutation test: the
 *   segment's points are shuffled `permutations` times (GSL's MT19937,
 *   seeded from the seed and the segment's bounds, so the result does not
 *   depend on the order segments are tested in), the maximum of Q over
 *   the splits is taken for each, and p = (1 + #{Q_perm >= Q}) /
 *   (permutations + 1): exact for exchangeable points.
 * - Each change's magnitude is compared between its adjacent segments
 *   (the points between the neighbouring change points): the ratio of
 *   their means with Fieller's (1954) interval at 1 - alpha for
 *   independent samples, with the Welch-Satterthwaite df at the estimated
 *   ratio (as stats.c's comparison); unbounded (NaN) when the mean before
 *   is not significantly non-zero.  Fieller rather than a t-interval of
 *   log values: benchmark series are positive, but the interval must also
 *   hold for a series of differences that crosses zero.  The interval
 *   does not allow for the search having chosen the split.
 *
 * Numerics: the series is first centred at its mid-range and divided by
 * its half-range, so running sums neither overflow nor underflow for any
 * finite input; means are returned in the series' units and the
 * divergence in its units squared (which can overflow to inf for values
 * beyond about 1e154).
 *
 * Cost: O(n) to scale, O(m) to search a segment of m points, so
 * O(n (depth + 1)) in all, depth being the levels of splitting (at most
 * the number of changes); the permutation test adds O(P m) per segment
 * tested.  10,000 points take about a millisecond (`make bench`).
 */
#include "changepoint.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median of the finite values of v[from..to), or NaN. */
static double finite_median(const double *v, size_t from, size_t to)
{
	double *w = malloc((to > from ? to - from : 1) * sizeof *w);
	size_t k = 0;
	for (size_t i = from; w && i < to; i++)
		if (isfinite(v[i]))
			w[k++] = v[i];
	double m = NAN;
	if (k > 0) {
		qsort(w, k, sizeof *w, cmp_double);
		m = k % 2 ? w[k / 2] : (w[k / 2 - 1] + w[k / 2]) / 2;
	}
	free(w);
	return m;
}

void cp_state_at(const double *load, const double *cpu, size_t from, size_t at,
		 size_t to, struct cp_state *out)
{
	out->load_before = finite_median(load, from, at);
	out->load_after = finite_median(load, at, to);
	out->cpu_before = finite_median(cpu, from, at);
	out->cpu_after = finite_median(cpu, at, to);
	double lo = fmin(out->load_before, out->load_after);
	double hi = fmax(out->load_before, out->load_after);
	out->load_step = isfinite(out->load_before) && isfinite(out->load_after) &&
			 hi - lo >= CP_LOAD_STEP_ABS &&
			 (hi + 0.5) >= CP_LOAD_STEP_RATIO * (lo + 0.5);
	out->cpu_step = isfinite(out->cpu_before) && isfinite(out->cpu_after) &&
			fabs(out->cpu_after - out->cpu_before) >= CP_CPU_STEP;
}

double cp_resolution(const double *x, size_t n, const struct cp_options *o)
{
	size_t ms = o->min_size < 2 ? 2 : o->min_size;
	if (n < 2 * ms || n < 3)
		return NAN;
	double *d = malloc((n - 1) * sizeof *d);
	if (d == NULL)
		return NAN;
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = x[i + 1] - x[i];
	double md = finite_median(d, 0, n - 1);
	for (size_t i = 0; i + 1 < n; i++)
		d[i] = fabs(d[i] - md);
	double sigma = 1.4826 * finite_median(d, 0, n - 1) / sqrt(2);
	if (sigma == 0) {   /* most differences equal: their plain sd */
		double ss = 0;
		for (size_t i = 0; i + 1 < n; i++)
			ss += d[i] * d[i];
		sigma = sqrt(ss / (double)(n - 2)) / sqrt(2);
	}
	free(d);
	double mid = finite_median(x, 0, n);
	if (!(mid != 0) || !isfinite(sigma))
		return NAN;
	double a = (double)(n / 2), b = (double)(n - n / 2);
	double k = (double)(n - 2 * ms + 1);
	double t = gsl_cdf_tdist_Pinv(1 - o->alpha / (2 * k), (double)(n - 2));
	return t * sigma * sqrt(1 / a + 1 / b) / fabs(mid);
}

unsigned cp_permutations_for(double alpha)
{
	double need = ceil(10 / alpha) - 1;
	if (!(need <= CP_MAX_PERMUTATIONS))
		return 0;
	return need < 199 ? 199 : (unsigned)need;
}

struct cp_options cp_default_options(void)
{
	struct cp_options o = {
		.alpha = 0.05,
		.min_size = 3,
		.max_changes = 0,
		.test = CP_TEST_T,
		.permutations = 199,
		.seed = 0,
	};
	return o;
}

/* A segment [lo, hi) of the scaled series and its candidate split. */
struct seg {
	size_t lo, hi;
	size_t tau;        /* 0: no admissible split */
	double q;          /* Q of the candidate (scaled units) */
	double p, p_welch;
	int state;         /* 0 to search, 1 searched, 2 final */
};

struct work {
	const struct cp_options *o;
	const double *y;   /* the scaled series */
	size_t n;
	double *scratch;   /* n values, for the permutation test */
	gsl_rng *rng;
};

/*
 * The split of v[0..m-1] with the largest Q, at least ms points a side;
 * returns Q (at a = 2, from running sums, shifted by v[0] to keep the
 * sums of squares small) and sets *tau (0 when m < 2 ms).
 */
static double best_split(const double *v, size_t m, size_t ms, size_t *tau)
{
	double t1 = 0, t2 = 0, s1 = 0, s2 = 0, best = -INFINITY;
	*tau = 0;
	if (m < 2 * ms)
		return NAN;
	for (size_t i = 0; i < m; i++) {
		double d = v[i] - v[0];
		t1 += d;
		t2 += d * d;
	}
	for (size_t i = 0; i + ms < m; i++) {
		double d = v[i] - v[0];
		s1 += d;
		s2 += d * d;
		size_t a = i + 1, b = m - a;
		if (a < ms)
			continue;
		double ma = s1 / (double)a, mb = (t1 - s1) / (double)b;
		double va = (s2 - (double)a * ma * ma) / (double)(a - 1);
		double vb = (t2 - s2 - (double)b * mb * mb) / (double)(b - 1);
		if (va < 0)
			va = 0;
		if (vb < 0)
			vb = 0;
		double e = 2 * ((ma - mb) * (ma - mb) - va / (double)a - vb / (double)b);
		double q = (double)a * (double)b / (double)m * e;
		if (q > best) {
			best = q;
			*tau = a;
		}
	}
	return best;
}

/* Mean and sample variance of v[0..m-1], two passes. */
static void mean_var(const double *v, size_t m, double *mean, double *var)
{
	double s = 0, ss = 0;
	for (size_t i = 0; i < m; i++)
		s += v[i];
	*mean = s / (double)m;
	for (size_t i = 0; i < m; i++)
		ss += (v[i] - *mean) * (v[i] - *mean);
	*var = m > 1 ? ss / (double)(m - 1) : 0;
}

/* Welch-Satterthwaite df from the variances of the two means. */
static double welch_df(double wa, size_t na, double wb, size_t nb)
{
	double den = wa * wa / (double)(na - 1) + wb * wb / (double)(nb - 1);
	return den > 0 ? (wa + wb) * (wa + wb) / den : (double)(na + nb - 2);
}

/* Welch's two-sided p for v[0..a-1] against v[a..m-1]. */
static double welch_p(const double *v, size_t a, size_t m)
{
	double ma, va, mb, vb;
	mean_var(v, a, &ma, &va);
	mean_var(v + a, m - a, &mb, &vb);
	double wa = va / (double)a, wb = vb / (double)(m - a);
	if (wa + wb == 0)
		return ma == mb ? 1.0 : 0.0;
	double t = fabs(mb - ma) / sqrt(wa + wb);
	double p = 2 * gsl_cdf_tdist_Q(t, welch_df(wa, a, wb, m - a));
	return p > 1 ? 1 : p;
}

/* splitmix64: the permutation seed of one segment. */
static unsigned long seg_seed(uint64_t seed, size_t lo, size_t hi)
{
	uint64_t z = seed + 0x9E3779B97F4A7C15u * (1 + (uint64_t)lo) +
		     0xBF58476D1CE4E5B9u * (uint64_t)hi;
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
	return (unsigned long)(z ^ (z >> 31));
}

/* Permutation p-value of Q for the segment s. */
static double perm_p(struct work *w, const struct seg *s)
{
	size_t m = s->hi - s->lo, tau, ge = 0;
	unsigned np = w->o->permutations;
	memcpy(w->scratch, w->y + s->lo, m * sizeof *w->scratch);
	gsl_rng_set(w->rng, seg_seed(w->o->seed, s->lo, s->hi));
	/* Ties (a series of few distinct values) count as reaching Q. */
	double bar = s->q - 1e-12 * fabs(s->q);
	for (unsigned k = 0; k < np; k++) {
		gsl_ran_shuffle(w->rng, w->scratch, m, sizeof *w->scratch);
		if (best_split(w->scratch, m, w->o->min_size, &tau) >= bar)
			ge++;
	}
	return (1.0 + (double)ge) / (1.0 + (double)np);
}

/* Find and test the candidate of segment s. */
static void search(struct work *w, struct seg *s)
{
	size_t m = s->hi - s->lo, ms = w->o->min_size;
	s->state = 1;
	s->q = best_split(w->y + s->lo, m, ms, &s->tau);
	if (s->tau == 0) {
		s->state = 2;
		return;
	}
	s->tau += s->lo;
	s->p_welch = welch_p(w->y + s->lo, s->tau - s->lo, m);
	if (w->o->test == CP_TEST_PERMUTATION) {
		s->p = perm_p(w, s);
	} else {
		double k = (double)(m - 2 * ms + 1);
		s->p = s->p_welch * k > 1 ? 1 : s->p_welch * k;
	}
	if (!(s->p < w->o->alpha))
		s->state = 2;
}

/*
 * Fieller's interval for mb / ma from independent samples (na points of
 * mean ma, standard deviation h * sa; nb of mb, h * sb): the theta with
 * (mb - theta ma)^2 <= t^2 (vb / nb + theta^2 va / na), all divided by
 * ma^2 first (so huge and tiny magnitudes neither overflow nor
 * underflow), t at level 1 - alpha with the Welch df at the estimate.
 */
static void fieller(size_t na, double ma, double sa, size_t nb, double mb,
		    double sb, double h, double alpha, double *lo, double *hi)
{
	*lo = *hi = NAN;
	if (ma == 0)
		return;
	double r = mb / ma, u = h / ma;
	double wa = sa * u * sa * u / (double)na, wb = sb * u * sb * u / (double)nb;
	if (wa == 0 && wb == 0) {
		*lo = *hi = r;
		return;
	}
	double df = welch_df(r * r * wa, na, wb, nb);
	double t = gsl_cdf_tdist_Pinv(1 - alpha / 2, df);
	double g = t * t * wa;
	if (!(g < 1))
		return;
	double disc = wb + r * r * wa - g * wb;
	double d = t * sqrt(disc > 0 ? disc : 0);
	*lo = (r - d) / (1 - g);
	*hi = (r + d) / (1 - g);
}

static int by_index(const void *a, const void *b)
{
	size_t x = ((const struct cp_change *)a)->index;
	size_t y = ((const struct cp_change *)b)->index;
	return (x > y) - (x < y);
}

/* The adjacent segments' means and the ratio of each change (sorted). */
static void describe(const double *y, size_t n, double c, double h,
		     double alpha, struct cp_change *ch, size_t k)
{
	qsort(ch, k, sizeof *ch, by_index);
	for (size_t i = 0; i < k; i++) {
		size_t lo = i ? ch[i - 1].index : 0;
		size_t mid = ch[i].index, hi = i + 1 < k ? ch[i + 1].index : n;
		double ma, va, mb, vb;
		mean_var(y + lo, mid - lo, &ma, &va);
		mean_var(y + mid, hi - mid, &mb, &vb);
		ch[i].mean_before = c + h * ma;
		ch[i].mean_after = c + h * mb;
		ch[i].ratio = ch[i].mean_after / ch[i].mean_before;
		fieller(mid - lo, ch[i].mean_before, sqrt(va), hi - mid,
			ch[i].mean_after, sqrt(vb), h, alpha, &ch[i].ratio_lo,
			&ch[i].ratio_hi);
	}
}

/* The search loop of E-divisive over the scaled series; fills ch. */
static size_t divide(struct work *w, struct seg *segs, struct cp_change *ch,
		     double h)
{
	size_t nseg = 1, k = 0, limit = w->o->max_changes;
	segs[0] = (struct seg){ .lo = 0, .hi = w->n };
	while (limit == 0 || k < limit) {
		size_t best = nseg;
		for (size_t i = 0; i < nseg; i++) {
			if (segs[i].state == 0)
				search(w, &segs[i]);
			if (segs[i].state == 1 &&
			    (best == nseg || segs[i].q > segs[best].q))
				best = i;
		}
		if (best == nseg)
			break;
		struct seg *s = &segs[best];
		ch[k++] = (struct cp_change){
			.index = s->tau, .p_value = s->p, .p_welch = s->p_welch,
			.divergence = s->q * h * h,
		};
		segs[nseg++] = (struct seg){ .lo = s->tau, .hi = s->hi };
		*s = (struct seg){ .lo = s->lo, .hi = s->tau };
	}
	return k;
}

static int check_args(const double *x, size_t n, const struct cp_options *o,
		      char *err, size_t errlen)
{
	if (!(o->alpha > 0 && o->alpha < 1)) {
		snprintf(err, errlen, "change points: alpha %g is outside (0, 1)", o->alpha);
		return -1;
	}
	if (o->min_size < 2) {
		snprintf(err, errlen, "change points: min_size %zu is below 2", o->min_size);
		return -1;
	}
	if (o->test == CP_TEST_PERMUTATION && o->permutations == 0) {
		snprintf(err, errlen, "change points: the permutation test needs at least 1 permutation");
		return -1;
	}
	if (o->test != CP_TEST_T && o->test != CP_TEST_PERMUTATION) {
		snprintf(err, errlen, "change points: unknown test %d", (int)o->test);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!isfinite(x[i])) {
			snprintf(err, errlen, "change points: value %zu of the series is %s",
				 i + 1, isnan(x[i]) ? "NaN" : "infinite");
			return -1;
		}
	return 0;
}

int cp_detect(const double *x, size_t n, const struct cp_options *o,
	      struct cp_change **out, size_t *n_out, char *err, size_t errlen)
{
	struct cp_options def = cp_default_options();
	*out = NULL;
	*n_out = 0;
	if (!o)
		o = &def;
	if (check_args(x, n, o, err, errlen) != 0)
		return -1;
	if (n < 2 * o->min_size)
		return 0;
	double lo = x[0], hi = x[0];
	for (size_t i = 1; i < n; i++) {
		lo = x[i] < lo ? x[i] : lo;
		hi = x[i] > hi ? x[i] : hi;
	}
	double c = 0.5 * lo + 0.5 * hi, h = 0.5 * hi - 0.5 * lo;
	if (!(h > 0))
		return 0; /* a constant series has no change */
	size_t cap = n / o->min_size + 2;
	struct work w = { .o = o, .n = n };
	double *y = malloc(n * sizeof *y);
	w.scratch = malloc(n * sizeof *w.scratch);
	struct seg *segs = malloc(cap * sizeof *segs);
	struct cp_change *ch = malloc(cap * sizeof *ch);
	if (o->test == CP_TEST_PERMUTATION)
		w.rng = gsl_rng_alloc(gsl_rng_mt19937);
	int rc = -1;
	if (!y || !w.scratch || !segs || !ch ||
	    (o->test == CP_TEST_PERMUTATION && !w.rng)) {
		snprintf(err, errlen, "change points: out of memory for %zu points", n);
		goto done;
	}
	for (size_t i = 0; i < n; i++)
		y[i] = (x[i] - c) / h;
	w.y = y;
	size_t k = divide(&w, segs, ch, h);
	describe(y, n, c, h, o->alpha, ch, k);
	if (k > 0) {
		*out = ch;
		ch = NULL;
	}
	*n_out = k;
	rc = 0;
done:
	free(y);
	free(w.scratch);
	free(segs);
	free(ch);
	if (w.rng)
		gsl_rng_free(w.rng);
	return rc;
}
