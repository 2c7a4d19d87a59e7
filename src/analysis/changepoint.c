/*
 * changepoint.c: change points in a series of benchmark results, by
 * E-divisive with the significance test of Hunter/Apache Otava, and
 * Otava's own method whole (CP_TEST_OTAVA, at the end of the file).
 *
 * Method and sources:
 * - The divergence.  Matteson and James, "A Nonparametric Approach for
 *   Multiple Change Point Analysis of Multivariate Data", JASA 109 (2014),
 *   eq. (3)-(5): for a split of a segment into X (m points) and Y (k),
 *     E = 2/(mk) sum|X_i - Y_j|^a - C(m,2)^-1 sum_{i<l}|X_i - X_l|^a
 *         - C(k,2)^-1 sum_{j<l}|Y_j - Y_l|^a,    Q = mk/(m+k) E.
 *   cbench takes the exponent a = 1, as E-divisive in Hunter, Otava and
 *   MongoDB's library do: it sees any change of the distribution, and
 *   one far outlier moves it little, where a = 2 (the difference of the
 *   means) put the split at an outlier five points before a step.  Moving
 *   a point from the right side to the left changes the three pairwise
 *   sums by its distances to the points before and after it, from a
 *   Fenwick tree over the segment's ranks and the sorted prefix sums: Q
 *   at every split in O(m log m) per segment instead of the O(m^2) of the
 *   pairwise sums (tests/unit/changepoint_expected.py computes the
 *   pairwise definition directly and agrees).
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
 * finite input; means and the divergence are returned in the series'
 * units.
 *
 * Cost: O(n) to scale, O(m log m) to search a segment of m points, so
 * O(n log n (depth + 1)) in all, depth being the levels of splitting (at
 * most the number of changes); the permutation test adds O(P m log m)
 * per segment tested (a shuffle keeps the points' ranks).  10,000 points
 * take about 8 ms, 0.35 s with 199 shuffles (`make bench`).
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
	/* The larger of the robust and the plain estimate: Welch's variances
	 * take an outlier in, and a resolution that left it out would claim
	 * steps the test cannot see. */
	double robust = 1.4826 * finite_median(d, 0, n - 1) / sqrt(2), ss = 0;
	for (size_t i = 0; i + 1 < n; i++)
		ss += d[i] * d[i];
	double sigma = fmax(robust, sqrt(ss / (double)(n - 2)) / sqrt(2));
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
		.window = 50,
		.min_magnitude = 0,
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

/* A point of the segment searched: its value and its rank among the
 * segment's values (ties in position order). */
struct pt {
	double v;
	size_t r;
};

struct work {
	const struct cp_options *o;
	const double *y;   /* the scaled series */
	size_t n;
	/* For the segment searched: its points in order and shuffled (the
	 * permutation test), the prefix sums of its sorted values, and the
	 * Fenwick tree of counts and sums over ranks that best_split fills. */
	struct pt *pts, *scratch;
	double *pre, *bit_n, *bit_s;
	gsl_rng *rng;
};

static int by_value(const void *a, const void *b)
{
	const struct pt *x = a, *y = b;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return (x->r > y->r) - (x->r < y->r);
}

/* Fill w->pts and w->pre for the segment y[lo..hi). */
static void rank_segment(struct work *w, size_t lo, size_t hi)
{
	size_t m = hi - lo;
	for (size_t i = 0; i < m; i++)
		w->scratch[i] = (struct pt){w->y[lo + i], i};   /* r: position */
	qsort(w->scratch, m, sizeof *w->scratch, by_value);
	w->pre[0] = 0;
	for (size_t k = 0; k < m; k++) {
		w->pts[w->scratch[k].r] = (struct pt){w->scratch[k].v, k};
		w->pre[k + 1] = w->pre[k] + w->scratch[k].v;
	}
}

/*
 * The split of p[0..m-1] with the largest Q (exponent 1), at least ms
 * points a side; returns Q and sets *tau (0 when m < 2 ms).  With T the
 * sum of |p_i - p_j| over all pairs, moving point t from the right side
 * to the left adds its distances to the points before it (L_t, from the
 * Fenwick tree of the ranks seen) to the left side's sum and takes its
 * distances to the points after it (its row sum, from the sorted prefix
 * sums, less L_t) from the right side's; the cross sum is what is left
 * of T.  O(m log m).
 */
static double best_split(const struct pt *p, size_t m, size_t ms, struct work *w,
			 size_t *tau)
{
	*tau = 0;
	if (m < 2 * ms)
		return NAN;
	const double *pre = w->pre;
	double total = 0;
	for (size_t i = 0; i < m; i++) {
		double v = p[i].v, r = (double)p[i].r;
		total += r * v - pre[p[i].r] + (pre[m] - pre[p[i].r + 1]) - ((double)m - r - 1) * v;
	}
	total /= 2;
	memset(w->bit_n, 0, (m + 1) * sizeof *w->bit_n);
	memset(w->bit_s, 0, (m + 1) * sizeof *w->bit_s);
	double wx = 0, wy = total, seen_s = 0, best = -INFINITY;
	for (size_t t = 0; t + ms < m; t++) {
		double v = p[t].v, cnt = 0, sum = 0;
		size_t r = p[t].r;
		for (size_t k = r; k > 0; k -= k & (~k + 1)) {   /* ranks below r */
			cnt += w->bit_n[k];
			sum += w->bit_s[k];
		}
		double before = cnt * v - sum + (seen_s - sum) - ((double)t - cnt) * v;
		double row = (double)r * v - pre[r] + (pre[m] - pre[r + 1]) -
			     ((double)m - (double)r - 1) * v;
		wx += before;
		wy -= row - before;
		for (size_t k = r + 1; k <= m; k += k & (~k + 1)) {
			w->bit_n[k] += 1;
			w->bit_s[k] += v;
		}
		seen_s += v;
		size_t a = t + 1, b = m - a;
		if (a < ms)
			continue;
		double cross = total - wx - wy;
		double e = 2 * cross / ((double)a * (double)b) -
			   wx / ((double)a * (double)(a - 1) / 2) -
			   wy / ((double)b * (double)(b - 1) / 2);
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

/* Permutation p-value of Q for the segment s (ranked in w->pts: a
 * shuffle of the points keeps their ranks). */
static double perm_p(struct work *w, const struct seg *s)
{
	size_t m = s->hi - s->lo, tau, ge = 0;
	unsigned np = w->o->permutations;
	memcpy(w->scratch, w->pts, m * sizeof *w->scratch);
	gsl_rng_set(w->rng, seg_seed(w->o->seed, s->lo, s->hi));
	/* Ties (a series of few distinct values) count as reaching Q. */
	double bar = s->q - 1e-12 * fabs(s->q);
	for (unsigned k = 0; k < np; k++) {
		gsl_ran_shuffle(w->rng, w->scratch, m, sizeof *w->scratch);
		if (best_split(w->scratch, m, w->o->min_size, w, &tau) >= bar)
			ge++;
	}
	return (1.0 + (double)ge) / (1.0 + (double)np);
}

/* Find and test the candidate of segment s. */
static void search(struct work *w, struct seg *s)
{
	size_t m = s->hi - s->lo, ms = w->o->min_size;
	s->state = 1;
	if (m >= 2 * ms)
		rank_segment(w, s->lo, s->hi);
	s->q = best_split(w->pts, m, ms, w, &s->tau);
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
			.divergence = s->q * h,
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
	if (o->test == CP_TEST_OTAVA &&
	    !(o->window >= 2 && o->window <= CP_MAX_WINDOW && o->min_magnitude >= 0)) {
		snprintf(err, errlen, "change points: window %zu outside [2, %d] or "
			 "min_magnitude %g below 0", o->window, CP_MAX_WINDOW,
			 o->min_magnitude);
		return -1;
	}
	if (o->test != CP_TEST_T && o->test != CP_TEST_PERMUTATION &&
	    o->test != CP_TEST_OTAVA) {
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
	if (o->test == CP_TEST_OTAVA)
		return cp_detect_otava(x, n, o, NULL, 0, 0, out, n_out, err, errlen);
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
	w.pts = malloc(n * sizeof *w.pts);
	w.scratch = malloc(n * sizeof *w.scratch);
	w.pre = malloc((n + 1) * sizeof *w.pre);
	w.bit_n = malloc((n + 1) * sizeof *w.bit_n);
	w.bit_s = malloc((n + 1) * sizeof *w.bit_s);
	struct seg *segs = malloc(cap * sizeof *segs);
	struct cp_change *ch = malloc(cap * sizeof *ch);
	if (o->test == CP_TEST_PERMUTATION)
		w.rng = gsl_rng_alloc(gsl_rng_mt19937);
	int rc = -1;
	if (!y || !w.pts || !w.scratch || !w.pre || !w.bit_n || !w.bit_s ||
	    !segs || !ch ||
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
	free(w.pts);
	free(w.scratch);
	free(w.pre);
	free(w.bit_n);
	free(w.bit_s);
	free(segs);
	free(ch);
	if (w.rng)
		gsl_rng_free(w.rng);
	return rc;
}

/* ---- CP_TEST_OTAVA: Apache Otava's method ---- */

/*
 * Otava 0.8's compute_change_points, as its code and tests have it:
 * - A window of `window` points slides over the series, half a window at
 *   a time (or on to the last change it found); in each, E-divisive with
 *   divergence exponent 1 (Q = mn/(m+n) E with |x - y|, maximised over
 *   the split tau and the end kappa of the right side) bisects, each
 *   candidate kept while Student's two-sided t-test of its whole
 *   enclosing segment gives p <= a relaxed level (10 alpha below 0.05, 2
 *   alpha below 0.5, else alpha).  The windows' changes are pooled.
 * - Each pooled change is tested against its neighbours (the points
 *   between the changes before and after it), and the weakest removed
 *   while its p >= alpha or its magnitude max(|b/a - 1|, |a/b - 1|) <=
 *   min_magnitude; after a removal only the change that followed it, and
 *   the one after that, are tested again (Otava's merge: the one before
 *   keeps its p, which its tests assert).
 * - The t-test is scipy's ttest_ind_from_stats given the population
 *   standard deviations (n denominators), as Otava passes them.
 */

struct ostat {
	size_t index;
	double p, magnitude;
};

static double otava_p(const double *a, size_t na, const double *b, size_t nb,
		      double *magnitude)
{
	double m1 = 0, m2 = 0, v1 = 0, v2 = 0;
	for (size_t i = 0; i < na; i++)
		m1 += a[i];
	for (size_t i = 0; i < nb; i++)
		m2 += b[i];
	m1 /= (double)na;
	m2 /= (double)nb;
	for (size_t i = 0; na > 1 && i < na; i++)
		v1 += (a[i] - m1) * (a[i] - m1);
	for (size_t i = 0; nb > 1 && i < nb; i++)
		v2 += (b[i] - m2) * (b[i] - m2);
	v1 /= (double)na;
	v2 /= (double)nb;
	double fwd = m1 != 0 ? m2 / m1 - 1 : 0, bwd = m2 != 0 ? m1 / m2 - 1 : 0;
	*magnitude = fmax(fabs(fwd), fabs(bwd));
	if (na + nb <= 2)
		return 1.0;
	double df = (double)(na + nb - 2);
	double svar = ((double)(na - 1) * v1 + (double)(nb - 1) * v2) / df;
	double t = (m1 - m2) / sqrt(svar * (1 / (double)na + 1 / (double)nb));
	if (isnan(t))
		return NAN;
	if (isinf(t))
		return 0;
	double p = 2 * gsl_cdf_tdist_Q(fabs(t), df);
	return p > 1 ? 1 : p;
}

/* Column prefix sums of |x_i - x_j| over x[0..w): col[j * (w + 1) + i]
 * is the sum over i' < i of |x_i' - x_j|. */
static void otava_prefix(const double *x, size_t w, double *col)
{
	for (size_t j = 0; j < w; j++) {
		double *c = col + j * (w + 1);
		c[0] = 0;
		for (size_t i = 0; i < w; i++)
			c[i + 1] = c[i] + fabs(x[i] - x[j]);
	}
}

/* The candidate of [s, e) from the prefix sums (cp_otava_candidate). */
static double otava_best(const double *col, size_t w, size_t s, size_t e,
			 size_t *tau)
{
	double best = -INFINITY, within_x = 0;
#define COL(j, i) col[(j) * (w + 1) + (i)]
	for (size_t t = s + 1; t < e; t++) {
		within_x += COL(t - 1, t - 1) - COL(t - 1, s);  /* adds x[t-1] */
		double n = (double)(t - s), between = 0, within_y = 0;
		for (size_t k = t + 1; k <= e; k++) {
			between += COL(k - 1, t) - COL(k - 1, s);
			within_y += COL(k - 1, k - 1) - COL(k - 1, t);
			double m = (double)(k - t);
			double q = 2 / (m + n) * between;
			if (n > 1)
				q -= 2 * m / ((m + n) * (n - 1)) * within_x;
			if (m > 1)
				q -= 2 * n / ((m + n) * (m - 1)) * within_y;
			if (q > best) {
				best = q;
				*tau = t;
			}
		}
	}
#undef COL
	return best;
}

double cp_otava_candidate(const double *x, size_t s, size_t e, size_t *tau)
{
	*tau = 0;
	if (e < s + 2)
		return NAN;
	double *col = malloc((e - s) * (e - s + 1) * sizeof *col);
	if (col == NULL)
		return NAN;
	otava_prefix(x + s, e - s, col);
	double q = otava_best(col, e - s, 0, e - s, tau);
	*tau += s;
	free(col);
	return q;
}

/* E-divisive over one window x[0..w): its changes, sorted, into cps;
 * returns how many. */
static size_t otava_window(const double *x, size_t w, double pmax, double *col,
			   size_t *cps)
{
	size_t k = 0;
	otava_prefix(x, w, col);
	for (;;) {
		double best = -INFINITY;
		size_t tau = 0, bs = 0, be = 0;
		for (size_t i = 0; i <= k; i++) {
			size_t s = i ? cps[i - 1] : 0, e = i < k ? cps[i] : w, t = 0;
			if (e - s < 2)
				continue;
			double q = otava_best(col, w, s, e, &t);
			if (q > best)
				best = q, tau = t, bs = s, be = e;
		}
		double mag;
		if (tau == 0 || !(otava_p(x + bs, tau - bs, x + tau, be - tau, &mag) <= pmax))
			return k;
		size_t at = k++;
		while (at > 0 && cps[at - 1] > tau) {
			cps[at] = cps[at - 1];
			at--;
		}
		cps[at] = tau;
	}
}

/* Test change i of cs[0..k) against its neighbours. */
static void otava_test(const double *x, size_t n, struct ostat *cs, size_t k,
		       size_t i)
{
	size_t lo = i ? cs[i - 1].index : 0, at = cs[i].index;
	size_t hi = i + 1 < k ? cs[i + 1].index : n;
	cs[i].p = otava_p(x + lo, at - lo, x + at, hi - at, &cs[i].magnitude);
}

static int by_ostat(const void *a, const void *b)
{
	size_t x = ((const struct ostat *)a)->index;
	size_t y = ((const struct ostat *)b)->index;
	return (x > y) - (x < y);
}

/* Where the incremental analysis starts (Otava's split, new_data). */
static size_t otava_start(size_t n, size_t w, const size_t *old, size_t n_old,
			  size_t new_points)
{
	double max_start = (double)n - ((double)new_points / (double)w + 4) * (double)w;
	size_t start = 0;
	for (size_t i = 0; i < n_old; i++)
		if ((double)old[i] < max_start)
			start = old[i];
	for (size_t s = 0; s < n; s += w / 2)
		if ((double)s < max_start && start < s)
			start = s;
	return start;
}

/* The weak changes of every window, pooled, sorted and tested; *k set.
 * NULL when out of memory. */
static struct ostat *otava_split(const double *x, size_t n, const struct cp_options *o,
				 const size_t *old, size_t n_old, size_t new_points,
				 size_t *k)
{
	size_t w = o->window < n ? o->window : n, step = o->window / 2;
	double a = o->alpha, p1 = a < 0.05 ? a * 10 : a < 0.5 ? a * 2 : a;
	struct ostat *cs = malloc((n + n_old + 1) * sizeof *cs);
	size_t *found = malloc((w + 1) * sizeof *found);
	double *col = malloc(w * (w + 1) * sizeof *col);
	*k = 0;
	if (!cs || !found || !col) {
		free(cs);
		free(found);
		free(col);
		return NULL;
	}
	for (size_t i = 0; i < n_old; i++)
		cs[(*k)++] = (struct ostat){.index = old[i]};
	size_t start = old ? otava_start(n, o->window, old, n_old, new_points) : 0;
	while (start < n) {
		size_t base = start, end = start + o->window < n ? start + o->window : n;
		size_t m = otava_window(x + base, end - base, p1, col, found);
		size_t last = m ? found[m - 1] + base : 0;
		start = last > base + step ? last : base + step;
		for (size_t i = 0; i < m; i++) {
			size_t idx = found[i] + base, j = 0;
			while (j < *k && cs[j].index != idx)
				j++;
			if (j == *k)
				cs[(*k)++] = (struct ostat){.index = idx};
		}
	}
	free(found);
	free(col);
	qsort(cs, *k, sizeof *cs, by_ostat);
	for (size_t i = 0; i < *k; i++)
		otava_test(x, n, cs, *k, i);
	return cs;
}

/* Otava's merge: remove the weakest while one is weak; returns the count. */
static size_t otava_merge(const double *x, size_t n, const struct cp_options *o,
			  struct ostat *cs, size_t k)
{
	while (k > 0) {
		size_t w = 0;
		for (size_t i = 1; i < k; i++)
			if (cs[i].p > cs[w].p)
				w = i;
		if (cs[w].p < o->alpha) {
			w = 0;
			for (size_t i = 1; i < k; i++)
				if (cs[i].magnitude < cs[w].magnitude)
					w = i;
			if (cs[w].magnitude > o->min_magnitude)
				return k;
		}
		memmove(cs + w, cs + w + 1, (k - w - 1) * sizeof *cs);
		k--;
		if (w < k)
			otava_test(x, n, cs, k, w);
		if (w + 1 < k)
			otava_test(x, n, cs, k, w + 1);
	}
	return 0;
}

int cp_detect_otava(const double *x, size_t n, const struct cp_options *o,
		    const size_t *old, size_t n_old, size_t new_points,
		    struct cp_change **out, size_t *n_out, char *err,
		    size_t errlen)
{
	struct cp_options def = cp_default_options();
	*out = NULL;
	*n_out = 0;
	if (!o) {
		def.test = CP_TEST_OTAVA;
		def.alpha = 0.001;   /* Otava's max_pvalue */
		o = &def;
	}
	if (check_args(x, n, o, err, errlen) != 0)
		return -1;
	for (size_t i = 0; i < n_old; i++)
		if (old[i] == 0 || old[i] >= n || (i && old[i] <= old[i - 1])) {
			snprintf(err, errlen, "change points: old change %zu is not "
				 "an index in (0, %zu) after the one before", i + 1, n);
			return -1;
		}
	if (n < 2)
		return 0;
	size_t k;
	struct ostat *cs = otava_split(x, n, o, old, n_old, new_points, &k);
	struct cp_change *ch = cs ? malloc((k + 1) * sizeof *ch) : NULL;
	if (ch == NULL) {
		free(cs);
		snprintf(err, errlen, "change points: out of memory for %zu points", n);
		return -1;
	}
	k = otava_merge(x, n, o, cs, k);
	for (size_t i = 0; i < k; i++)
		ch[i] = (struct cp_change){.index = cs[i].index, .p_value = cs[i].p,
					   .p_welch = cs[i].p, .divergence = NAN};
	free(cs);
	describe(x, n, 0, 1, o->alpha, ch, k);
	if (k > 0)
		*out = ch;
	else
		free(ch);
	*n_out = k;
	return 0;
}
