/*
 * plot.c: plot geometry for the HTML report (see plot.h): ticks, scales,
 * units, histogram bins, the kernel density estimate, decimation.
 *
 * Tick values follow the usual "nice numbers" rule (Heckbert 1990, "Nice
 * numbers for graph labels", Graphics Gems): a step of 1, 2 or 5 times a
 * power of ten, the axis widened to whole steps.  Each tick is computed as
 * k * step from an integer k, never by repeated addition, so 0.1 + 0.2
 * drift never reaches a label.  Large magnitudes are halved before they
 * are subtracted, so that [-1e308, 1e308] does not overflow.
 *
 * GSL does the order statistics (gsl_sort, gsl_stats_quantile_from_sorted_data,
 * whose quantile is Hyndman and Fan's type 7, R's default), the standard
 * deviation (gsl_stats_sd) and the Gaussian kernel (gsl_ran_gaussian_pdf).
 */
#include "plot.h"
#include "xalloc.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The 1, 2, 5 or 10 times 10^k nearest raw (> 0), Heckbert's rounding. */
static double nice_step(double raw)
{
	double e = floor(log10(raw));
	double mag = pow(10, e);
	double f = raw / mag;
	double nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
	return nf * mag;
}

/* The next nice step above step. */
static double next_step(double step)
{
	double e = floor(log10(step) + 1e-9);
	double f = step / pow(10, e);
	return (f < 1.5 ? 2 : f < 3.5 ? 5 : 10) * pow(10, e);
}

static int step_decimals(double step)
{
	if (step >= 1)
		return 0;
	int d = (int)ceil(-log10(step) - 1e-9);
	return d < 0 ? 0 : d > 15 ? 15 : d;
}

/* *lo <= *hi, swapping them if need be. */
static void ascending(double *lo, double *hi)
{
	if (*lo > *hi) {
		double s = *lo;
		*lo = *hi;
		*hi = s;
	}
}

static void empty_ticks(struct plot_ticks *t)
{
	t->n = 0;
	t->lo = 0;
	t->hi = 1;
	t->decimals = 0;
}

/* An interval around a constant value v. */
static void widen_constant(double *lo, double *hi)
{
	double v = *lo;
	if (v == 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	double d = fabs(v) * 0.1;
	*lo = v - d;
	*hi = v + d;
	if (v > 0 && *lo < 0)
		*lo = 0;
}

/* Fill t with the multiples of step covering [lo, hi]; false if more
 * than PLOT_MAX_TICKS would be needed. */
static bool fill_ticks(double lo, double hi, double step, struct plot_ticks *t)
{
	double k0 = floor(lo / step + 1e-9), k1 = ceil(hi / step - 1e-9);
	if (!(k1 - k0 + 1 <= PLOT_MAX_TICKS))
		return false;
	t->n = 0;
	for (double k = k0; k <= k1; k++) {
		double v = k * step;
		if (!isfinite(v))
			continue;
		t->v[t->n++] = v == 0 ? 0 : v;   /* no "-0" */
	}
	t->lo = t->n && t->v[0] < lo ? t->v[0] : lo;
	t->hi = t->n && t->v[t->n - 1] > hi ? t->v[t->n - 1] : hi;
	t->decimals = step_decimals(step);
	return true;
}

size_t plot_ticks_linear(double lo, double hi, size_t target, struct plot_ticks *t)
{
	if (!isfinite(lo) || !isfinite(hi)) {
		empty_ticks(t);
		return 0;
	}
	ascending(&lo, &hi);
	if (target < 2)
		target = 2;
	if (target > PLOT_MAX_TICKS - 2)
		target = PLOT_MAX_TICKS - 2;
	/* A span below the values' own precision is a constant. */
	double mag = fmax(fabs(lo), fabs(hi));
	if (hi / 2 - lo / 2 <= mag * 1e-12)
		widen_constant(&lo, &hi);
	double raw = (hi / 2 - lo / 2) * 2 / (double)(target - 1);
	if (!isfinite(raw))
		raw = (hi / 2 - lo / 2) / (double)(target - 1) * 2;
	double step = nice_step(raw);
	if (!(step > 0) || !isfinite(step)) {
		empty_ticks(t);
		return 0;
	}
	while (!fill_ticks(lo, hi, step, t)) {
		step = next_step(step);
		if (!isfinite(step)) {
			empty_ticks(t);
			return 0;
		}
	}
	return t->n;
}

size_t plot_ticks_log(double lo, double hi, struct plot_ticks *t)
{
	if (!(lo > 0) || !(hi > 0) || !isfinite(lo) || !isfinite(hi)) {
		empty_ticks(t);
		return 0;
	}
	ascending(&lo, &hi);
	int a = (int)floor(log10(lo) + 1e-9), b = (int)ceil(log10(hi) - 1e-9);
	if (a < -307)
		a = -307;
	if (b > 308)
		b = 308;
	if (b <= a)
		b = a + 1;
	int every = (b - a) / (PLOT_MAX_TICKS - 2) + 1;
	bool minor = b - a < 3;
	t->n = 0;
	for (int e = a; e <= b; e++) {
		if ((e - a) % every != 0)
			continue;
		double p = pow(10, e);
		t->v[t->n++] = p;
		if (minor && e < b) {
			t->v[t->n++] = 2 * p;
			t->v[t->n++] = 5 * p;
		}
	}
	t->lo = pow(10, a);
	t->hi = pow(10, b);
	t->decimals = a < 0 ? (-a > 15 ? 15 : -a) : 0;
	return t->n;
}

bool plot_wants_log(double lo, double hi)
{
	return lo > 0 && isfinite(hi) && hi / lo >= 100;
}

void plot_scale_init(struct plot_scale *s, double d0, double d1, double r0,
		     double r1, bool log)
{
	s->d0 = d0;
	s->d1 = d1;
	s->r0 = r0;
	s->r1 = r1;
	s->log = log && d0 > 0 && d1 > 0;
}

double plot_scale_map(const struct plot_scale *s, double x)
{
	double t;
	if (!isfinite(x) || (s->log && !(x > 0)))
		return s->r0;
	if (s->log) {
		double l0 = log10(s->d0), l1 = log10(s->d1);
		t = l1 != l0 ? (log10(x) - l0) / (l1 - l0) : 0.5;
	} else {
		double den = s->d1 / 2 - s->d0 / 2;
		t = den != 0 ? (x / 2 - s->d0 / 2) / den : 0.5;
	}
	if (!isfinite(t))
		t = 0.5;
	if (t < 0)
		t = 0;
	if (t > 1)
		t = 1;
	double r = s->r0 + t * (s->r1 - s->r0);
	return isfinite(r) ? r : s->r0;
}

/* Each kind's units, largest first: the first one whose threshold |max_abs|
 * reaches (the last one's is 0), and what to divide by for it. */
static const struct plot_unit_step {
	double from, div;
	const char *name;
} unit_steps[][4] = {
	[PLOT_SECONDS] = {{1, 1, "s"}, {1e-3, 1e-3, "ms"}, {1e-6, 1e-6, "µs"},
			  {0, 1e-9, "ns"}},
	[PLOT_BYTES] = {{1073741824.0, 1073741824.0, "GiB"},
			{1048576.0, 1048576.0, "MiB"}, {1024.0, 1024.0, "KiB"},
			{0, 1, "B"}},
	[PLOT_COUNT] = {{1e9, 1e9, "G"}, {1e6, 1e6, "M"}, {1e4, 1e3, "k"},
			{0, 1, ""}},
};

const char *plot_unit(enum plot_unit_kind kind, double max_abs, double *div)
{
	double v = isfinite(max_abs) ? fabs(max_abs) : 0;
	*div = 1;
	if ((unsigned)kind >= sizeof unit_steps / sizeof unit_steps[0])
		return "";
	if (kind == PLOT_SECONDS && v == 0)   /* an axis of zeros reads in s */
		return "s";
	const struct plot_unit_step *u = unit_steps[kind];
	size_t k = 0;
	while (k < 3 && v < u[k].from)
		k++;
	*div = u[k].div;
	return u[k].name;
}

/* The finite values of x, sorted (caller frees); *m their count. */
static double *sorted_finite(const double *x, size_t n, size_t *m)
{
	double *s = xmalloc((n ? n : 1) * sizeof *s);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			s[k++] = x[i];
	gsl_sort(s, 1, k);
	*m = k;
	return s;
}

static double iqr_sorted(const double *s, size_t m)
{
	return gsl_stats_quantile_from_sorted_data(s, 1, m, 0.75) -
	       gsl_stats_quantile_from_sorted_data(s, 1, m, 0.25);
}

/* How many bins for m finite values from lo to hi (lo < hi). */
static size_t bin_count(size_t m, double lo, double hi, double iqr, size_t max_bins)
{
	double span = hi - lo;
	double sturges = ceil(log2((double)m)) + 1, bins = sturges;
	if (iqr > 0 && isfinite(span))
		bins = fmax(ceil(span / (2 * iqr / cbrt((double)m))), sturges);
	if (!(bins >= 1))
		bins = 1;
	return bins > (double)max_bins ? max_bins : (size_t)bins;
}

size_t plot_hist_build_known(const double *x, size_t n, size_t m, double lo,
			     double hi, double iqr, size_t max_bins,
			     struct plot_hist *h)
{
	memset(h, 0, sizeof *h);
	if (max_bins < 1)
		max_bins = 1;
	if (m == 0 || !isfinite(lo) || !isfinite(hi) || hi < lo ||
	    !isfinite(hi - lo))
		return 0;
	double width;
	if (hi == lo) {
		h->n_bins = 1;
		width = lo == 0 ? 1 : fabs(lo) * 0.1;
		h->lo = lo - width / 2;
	} else {
		h->n_bins = bin_count(m, lo, hi, iqr, max_bins);
		width = (hi - lo) / (double)h->n_bins;
		h->lo = lo;
	}
	h->width = width;
	h->count = xcalloc(h->n_bins, sizeof *h->count);
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]) || x[i] < lo || x[i] > hi)
			continue;
		double k = floor((x[i] - h->lo) / width);
		size_t b = !(k > 0) ? 0 : k >= (double)h->n_bins ? h->n_bins - 1
								  : (size_t)k;
		h->count[b]++;
		h->total++;
	}
	for (size_t b = 0; b < h->n_bins; b++)
		if (h->count[b] > h->max_count)
			h->max_count = h->count[b];
	return h->n_bins;
}

size_t plot_hist_build(const double *x, size_t n, size_t max_bins,
		       struct plot_hist *h)
{
	size_t m;
	double *s = sorted_finite(x, n, &m);
	size_t r = m == 0 ? (memset(h, 0, sizeof *h), 0)
		 : plot_hist_build_known(x, n, m, s[0], s[m - 1], iqr_sorted(s, m),
					 max_bins, h);
	free(s);
	return r;
}

void plot_hist_free(struct plot_hist *h)
{
	if (h == NULL)
		return;
	free(h->count);
	h->count = NULL;
	h->n_bins = 0;
}

double plot_kde_bandwidth_known(size_t m, double sd, double iqr)
{
	if (m < 2 || !(sd > 0 || iqr > 0))
		return 0;
	double spread = iqr / 1.349;
	double a = spread > 0 && isfinite(spread) && (!isfinite(sd) || spread < sd)
		   ? spread : sd;
	double bw = 0.9 * a * pow((double)m, -0.2);
	return bw > 0 && isfinite(bw) ? bw : 0;
}

double plot_kde_bandwidth(const double *x, size_t n)
{
	size_t m;
	double *s = sorted_finite(x, n, &m);
	double bw = 0;
	if (m >= 2 && s[m - 1] != s[0])
		bw = plot_kde_bandwidth_known(m, gsl_stats_sd(s, 1, m), iqr_sorted(s, m));
	free(s);
	return bw;
}

/* Linear binning of the finite x onto PLOT_KDE_BINS points from lo by
 * delta: weights w (caller's array), their total returned. */
static double linear_bins(const double *x, size_t n, double lo, double delta,
			  double *w)
{
	double total = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			continue;
		double p = delta > 0 ? (x[i] - lo) / delta : 0;
		if (p < 0)
			p = 0;
		if (p > PLOT_KDE_BINS - 1)
			p = PLOT_KDE_BINS - 1;
		size_t k = (size_t)p;
		double f = p - (double)k;
		w[k] += 1 - f;
		if (k + 1 < PLOT_KDE_BINS)
			w[k + 1] += f;
		else
			w[k] += f;
		total += 1;
	}
	return total;
}

static int kde_binned(const double *x, size_t n, double bw, const double *grid,
		      size_t m, double *out)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i])) {
			lo = fmin(lo, x[i]);
			hi = fmax(hi, x[i]);
		}
	if (!isfinite(lo))
		return -1;
	double delta = (hi - lo) / (PLOT_KDE_BINS - 1);
	double *w = xcalloc(PLOT_KDE_BINS, sizeof *w);
	double total = linear_bins(x, n, lo, isfinite(delta) ? delta : 0, w);
	for (size_t j = 0; j < m; j++) {
		double sum = 0;
		for (size_t k = 0; k < PLOT_KDE_BINS; k++)
			if (w[k] > 0)
				sum += w[k] * gsl_ran_gaussian_pdf(
					grid[j] - (lo + (double)k * delta), bw);
		out[j] = sum / total;
	}
	free(w);
	return 0;
}

int plot_kde(const double *x, size_t n, double bw, const double *grid,
	     size_t m, double *out)
{
	for (size_t j = 0; j < m; j++)
		out[j] = 0;
	if (!(bw > 0) || !isfinite(bw) || !isfinite(1 / bw))
		return -1;
	int rc = 0;
	if (n > PLOT_KDE_EXACT) {
		rc = kde_binned(x, n, bw, grid, m, out);
	} else {
		size_t used = 0;
		for (size_t i = 0; i < n; i++) {
			if (!isfinite(x[i]))
				continue;
			used++;
			for (size_t j = 0; j < m; j++)
				out[j] += gsl_ran_gaussian_pdf(grid[j] - x[i], bw);
		}
		for (size_t j = 0; j < m; j++)
			out[j] = used ? out[j] / (double)used : 0;
		rc = used ? 0 : -1;
	}
	for (size_t j = 0; j < m; j++)
		if (!isfinite(out[j]))
			out[j] = 0;
	return rc;
}

size_t plot_decimate(const double *x, size_t n, size_t max_buckets,
		     struct plot_bucket *out)
{
	if (n == 0 || max_buckets == 0)
		return 0;
	size_t per = (n + max_buckets - 1) / max_buckets, nb = 0;
	for (size_t first = 0; first < n; first += per) {
		struct plot_bucket *b = &out[nb++];
		b->first = first;
		b->count = first + per <= n ? per : n - first;
		b->lo = b->hi = 0;
		b->count_finite = 0;
		for (size_t i = first; i < first + b->count; i++) {
			if (!isfinite(x[i]))
				continue;
			if (b->count_finite++ == 0)
				b->lo = b->hi = x[i];
			b->lo = fmin(b->lo, x[i]);
			b->hi = fmax(b->hi, x[i]);
		}
	}
	return nb;
}
