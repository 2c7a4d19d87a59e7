/*
 * Unit tests: plot geometry (plot.h).  Tick positions for awkward ranges,
 * empty, constant, one-value, huge and tiny data, never a NaN; histogram
 * bins and the kernel density estimate against values computed
 * independently with numpy and scipy (the exact call beside each value).
 */
#include "plot.h"
#include "unit.h"
#include "xalloc.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>

/* Ticks are finite, increasing and inside the axis, which covers [lo, hi]. */
static int ticks_sane(const struct plot_ticks *t, double lo, double hi)
{
	if (!isfinite(t->lo) || !isfinite(t->hi) || t->lo > lo || t->hi < hi)
		return 0;
	for (size_t i = 0; i < t->n; i++) {
		if (!isfinite(t->v[i]) || t->v[i] < t->lo || t->v[i] > t->hi)
			return 0;
		if (i && !(t->v[i] > t->v[i - 1]))
			return 0;
	}
	return 1;
}

static void ticks_round_values(void)
{
	struct plot_ticks t;
	CHECK(plot_ticks_linear(0.13, 0.97, 5, &t) == 6);
	for (size_t i = 0; i < 6; i++)
		CHECK_NEAR(t.v[i], 0.2 * (double)i, 1e-15);
	CHECK(t.decimals == 1);
	CHECK(ticks_sane(&t, 0.13, 0.97));

	CHECK(plot_ticks_linear(-3.7, 12.1, 5, &t) == 5);
	CHECK(t.v[0] == -5 && t.v[1] == 0 && t.v[4] == 15);
	CHECK(t.decimals == 0);

	/* 1.23e-7 .. 9.87e-7: steps of 2e-7 from 0 to 1e-6. */
	CHECK(plot_ticks_linear(1.23e-7, 9.87e-7, 5, &t) == 6);
	CHECK(t.v[0] == 0);
	CHECK_REL(t.v[3], 6e-7, 1e-12);
	CHECK_REL(t.v[5], 1e-6, 1e-12);
	CHECK(t.decimals == 7);
	CHECK(ticks_sane(&t, 1.23e-7, 9.87e-7));

	/* Swapped bounds read as the same range; 0.1 steps print exactly:
	 * 0.3 is 3 * 0.1, not 0.1 + 0.1 + 0.1. */
	CHECK(plot_ticks_linear(0.45, 0.05, 5, &t) == 6);
	CHECK(t.v[3] == 3 * 0.1);
	CHECK(t.v[0] == 0);
}

static void ticks_degenerate(void)
{
	struct plot_ticks t;
	/* Empty (NaN bounds): no ticks, a usable axis. */
	CHECK(plot_ticks_linear(NAN, NAN, 5, &t) == 0);
	CHECK(t.lo == 0 && t.hi == 1);
	CHECK(plot_ticks_linear(0, INFINITY, 5, &t) == 0);
	/* Constant 0: the axis 0 .. 1. */
	CHECK(plot_ticks_linear(0, 0, 5, &t) == 6);
	CHECK(t.v[0] == 0 && t.v[5] == 1);
	/* Constant 5 (one run): an interval around it, 5 a tick. */
	CHECK(plot_ticks_linear(5, 5, 5, &t) > 2);
	CHECK(ticks_sane(&t, 5, 5));
	CHECK(t.lo < 5 && t.hi > 5);
	int has5 = 0;
	for (size_t i = 0; i < t.n; i++)
		has5 |= fabs(t.v[i] - 5) < 1e-12;
	CHECK(has5);
	/* A difference below the values' precision is a constant too. */
	CHECK(plot_ticks_linear(1, 1 + 1e-14, 5, &t) > 2);
	CHECK(ticks_sane(&t, 1, 1 + 1e-14));
	CHECK(t.hi - t.lo > 0.1);
	/* Target out of range is clamped. */
	CHECK(plot_ticks_linear(0, 1, 0, &t) >= 2);
	CHECK(plot_ticks_linear(0, 1, 1000, &t) <= PLOT_MAX_TICKS);
}

static void ticks_magnitudes(void)
{
	struct plot_ticks t;
	CHECK(plot_ticks_linear(1e300, 9e300, 5, &t) == 6);
	CHECK_REL(t.v[5], 1e301, 1e-12);
	CHECK(ticks_sane(&t, 1e300, 9e300));
	/* The whole double range: no overflow. */
	CHECK(plot_ticks_linear(-1e308, 1e308, 5, &t) == 5);
	CHECK(ticks_sane(&t, -1e308, 1e308));
	CHECK(t.v[2] == 0);
	CHECK(plot_ticks_linear(1e-300, 3e-300, 5, &t) > 2);
	CHECK(ticks_sane(&t, 1e-300, 3e-300));
	CHECK(t.decimals == 15);
	/* Subnormal. */
	plot_ticks_linear(0, 1e-320, 5, &t);
	CHECK(ticks_sane(&t, 0, 1e-320));
	CHECK(plot_ticks_linear(-DBL_MAX, DBL_MAX, 5, &t) > 0);
	CHECK(ticks_sane(&t, -DBL_MAX, DBL_MAX));
	CHECK(isfinite(t.lo) && isfinite(t.hi));
}

static void ticks_log(void)
{
	struct plot_ticks t;
	/* Five decades: the powers of ten. */
	CHECK(plot_ticks_log(0.003, 40, &t) == 6);
	CHECK_REL(t.v[0], 1e-3, 1e-12);
	CHECK_REL(t.v[5], 1e2, 1e-12);
	CHECK(t.decimals == 3);
	CHECK(ticks_sane(&t, 0.003, 40));
	/* Two decades: 1, 2, 5 in each. */
	CHECK(plot_ticks_log(2, 30, &t) == 7);
	CHECK(t.v[1] == 2 && t.v[2] == 5 && t.v[6] == 100);
	/* Hundreds of decades: thinned to fit. */
	CHECK(plot_ticks_log(1e-300, 1e300, &t) <= PLOT_MAX_TICKS);
	CHECK(ticks_sane(&t, 1e-300, 1e300));
	CHECK(plot_ticks_log(0, 10, &t) == 0);
	CHECK(plot_ticks_log(-1, 10, &t) == 0);
	CHECK(plot_ticks_log(NAN, 10, &t) == 0);
	CHECK(plot_wants_log(1, 100) && !plot_wants_log(1, 99) &&
	      !plot_wants_log(0, 100));
}

static void scale_map(void)
{
	struct plot_scale s;
	plot_scale_init(&s, 0, 10, 100, 0, false);
	CHECK(plot_scale_map(&s, 0) == 100);
	CHECK(plot_scale_map(&s, 5) == 50);
	CHECK(plot_scale_map(&s, 20) == 0);      /* clamped */
	CHECK(plot_scale_map(&s, NAN) == 100);
	plot_scale_init(&s, 1, 1000, 0, 300, true);
	CHECK_NEAR(plot_scale_map(&s, 10), 100, 1e-9);
	CHECK(plot_scale_map(&s, 0) == 0);       /* log of 0: the origin */
	plot_scale_init(&s, 3, 3, 0, 10, false); /* empty domain */
	CHECK(plot_scale_map(&s, 3) == 5);
	plot_scale_init(&s, -1e308, 1e308, 0, 10, false);
	CHECK(plot_scale_map(&s, 0) == 5);
}

static void units(void)
{
	double d;
	CHECK_STR(plot_unit(PLOT_SECONDS, 0.0042, &d), "ms");
	CHECK(d == 1e-3);
	CHECK_STR(plot_unit(PLOT_SECONDS, 4.2e-7, &d), "ns");
	CHECK_STR(plot_unit(PLOT_SECONDS, 12, &d), "s");
	CHECK_STR(plot_unit(PLOT_SECONDS, NAN, &d), "s");
	CHECK_STR(plot_unit(PLOT_BYTES, 10485760, &d), "MiB");
	CHECK(d == 1048576);
	CHECK_STR(plot_unit(PLOT_COUNT, 1.2e9, &d), "G");
	CHECK_STR(plot_unit(PLOT_COUNT, 45, &d), "");
	CHECK(d == 1);
}

static const double sample[] = {1.0, 1.2, 1.1, 1.5, 0.9, 1.3, 2.5, 1.05,
				1.12, 0.98};
#define NSAMPLE (sizeof sample / sizeof *sample)

static void hist_freedman_diaconis(void)
{
	struct plot_hist h;
	/* len(numpy.histogram_bin_edges(x, bins="auto")) - 1 == 7 (its "fd"
	 * gives 7 and "sturges" 5, "auto" the larger), and
	 * numpy.histogram(x, bins=7, range=(x.min(), x.max()))[0] ==
	 * [6 2 1 0 0 0 1] (numpy 1.24). */
	CHECK(plot_hist_build(sample, NSAMPLE, 50, &h) == 7);
	static const size_t want[] = {6, 2, 1, 0, 0, 0, 1};
	for (size_t i = 0; i < 7; i++)
		CHECK(h.count[i] == want[i]);
	CHECK(h.total == 10 && h.max_count == 6);
	CHECK(h.lo == 0.9);
	CHECK_NEAR(h.width, 1.6 / 7, 1e-15);
	plot_hist_free(&h);
	/* 0, 1, ..., 9: Freedman-Diaconis gives 3 bins, Sturges 5;
	 * len(numpy.histogram_bin_edges(numpy.arange(10.0), bins="auto")) - 1
	 * == 5, numpy.histogram(x, bins=5, range=(0, 9))[0] == [2 2 2 2 2]. */
	double ten[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
	CHECK(plot_hist_build(ten, 10, 50, &h) == 5);
	for (size_t i = 0; i < 5; i++)
		CHECK(h.count[i] == 2);
	plot_hist_free(&h);
	/* From the known summary: the same bins without sorting. */
	CHECK(plot_hist_build_known(sample, NSAMPLE, 10, 0.9, 2.5, 0.2625, 50, &h) == 7);
	CHECK(h.count[0] == 6 && h.count[6] == 1 && h.total == 10);
	plot_hist_free(&h);
	/* The cap. */
	CHECK(plot_hist_build(sample, NSAMPLE, 3, &h) == 3);
	plot_hist_free(&h);
}

static void hist_degenerate(void)
{
	struct plot_hist h;
	double nan[3] = {NAN, NAN, NAN};
	CHECK(plot_hist_build(nan, 3, 50, &h) == 0);
	plot_hist_free(&h);
	CHECK(plot_hist_build(NULL, 0, 50, &h) == 0);
	plot_hist_free(&h);
	double one = 0.004;
	CHECK(plot_hist_build(&one, 1, 50, &h) == 1);
	CHECK(h.count[0] == 1 && h.width > 0);
	CHECK(h.lo < one && h.lo + h.width > one);
	plot_hist_free(&h);
	double zeros[4] = {0, 0, 0, 0};
	CHECK(plot_hist_build(zeros, 4, 50, &h) == 1);
	CHECK(h.count[0] == 4 && h.width == 1);
	plot_hist_free(&h);
	/* IQR 0 but a spread: Sturges, ceil(log2 8) + 1 = 4 bins. */
	double ties[8] = {1, 1, 1, 1, 1, 1, 1, 2};
	CHECK(plot_hist_build(ties, 8, 50, &h) == 4);
	CHECK(h.count[0] == 7 && h.count[3] == 1);
	plot_hist_free(&h);
	/* A NaN among values is skipped; huge values do not overflow. */
	double huge[3] = {1e307, NAN, 8e307};
	CHECK(plot_hist_build(huge, 3, 50, &h) >= 1);
	CHECK(h.total == 2 && isfinite(h.width) && isfinite(h.lo));
	plot_hist_free(&h);
	double wide[2] = {-DBL_MAX, DBL_MAX};
	CHECK(plot_hist_build(wide, 2, 50, &h) == 0);
	plot_hist_free(&h);
}

static void kde_small(void)
{
	/* numpy: 0.9 * min(np.std(x, ddof=1), (np.percentile(x, 75) -
	 * np.percentile(x, 25)) / 1.349) * len(x) ** -0.2 */
	double h = plot_kde_bandwidth(sample, NSAMPLE);
	CHECK_REL(h, 0.1104993866815757, 1e-12);
	/* From the known summary: np.std(x, ddof=1) = 0.46726747039451494,
	 * np.percentile(x, 75) - np.percentile(x, 25) = 0.2625. */
	CHECK_REL(plot_kde_bandwidth_known(10, 0.46726747039451494, 0.2625),
		  0.1104993866815757, 1e-12);
	CHECK(plot_kde_bandwidth_known(1, 1, 1) == 0);
	CHECK(plot_kde_bandwidth_known(5, 0, 0) == 0);
	/* scipy.stats.gaussian_kde(x, bw_method=h / np.std(x, ddof=1))
	 * .evaluate([0.5, 1.0, 1.1, 2.0, 2.5, 3.0]) (scipy 1.10) */
	static const double grid[] = {0.5, 1.0, 1.1, 2.0, 2.5, 3.0};
	static const double want[] = {0.0005587936553718057, 1.8009957064338176,
				      1.8626162703303588, 2.5854693973283312e-05,
				      0.3610357418100955, 1.2926997689906152e-05};
	double out[6];
	CHECK(plot_kde(sample, NSAMPLE, h, grid, 6, out) == 0);
	for (size_t i = 0; i < 6; i++)
		CHECK_REL(out[i], want[i], 1e-10);
}

static void kde_binned_large(void)
{
	size_t n = 10000;
	double *y = xmalloc(n * sizeof *y);
	for (size_t i = 0; i < n; i++)
		y[i] = 1 + (double)((i * 7919) % 1000) / 1000.0 + (i % 10 == 0 ? 0.5 : 0);
	/* The same numpy formula on y = 1 + ((i*7919) % 1000)/1000 +
	 * 0.5 * (i % 10 == 0), i = 0..9999. */
	double h = plot_kde_bandwidth(y, n);
	CHECK_REL(h, 0.04630735966346272, 1e-9);
	/* scipy.stats.gaussian_kde(y, bw_method=h / np.std(y, ddof=1))
	 * .evaluate([1.0, 1.25, 1.5, 2.0, 2.4]); binned, so within 0.5 %. */
	static const double grid[] = {1.0, 1.25, 1.5, 2.0, 2.4};
	static const double want[] = {0.44999999999999984, 0.899999975900771,
				      0.9543075472592374, 0.5500000000000017,
				      0.09800849077150835};
	double out[5];
	int rc = plot_kde(y, n, h, grid, 5, out);
	free(y);
	CHECK(rc == 0);
	for (size_t i = 0; i < 5; i++)
		CHECK_REL(out[i], want[i], 5e-3);
}

static void kde_degenerate(void)
{
	double one = 3, out[2] = {7, 7}, grid[2] = {3, 4};
	CHECK(plot_kde_bandwidth(&one, 1) == 0);
	CHECK(plot_kde_bandwidth(NULL, 0) == 0);
	double same[3] = {2, 2, 2};
	CHECK(plot_kde_bandwidth(same, 3) == 0);
	CHECK(plot_kde(&one, 1, 0, grid, 2, out) == -1);
	CHECK(out[0] == 0 && out[1] == 0);
	double nan[2] = {NAN, NAN};
	CHECK(plot_kde(nan, 2, 1, grid, 2, out) == -1);
	CHECK(out[0] == 0);
	CHECK(plot_kde(&one, 1, 1e-320, grid, 2, out) == -1);
	/* IQR 0, sd > 0: sd alone; 0.9 * np.std([1,1,1,1,1,1,1,2], ddof=1)
	 * * 8 ** -0.2 */
	double ties[8] = {1, 1, 1, 1, 1, 1, 1, 2};
	CHECK_REL(plot_kde_bandwidth(ties, 8), 0.9 * 0.35355339059327373 *
		  pow(8, -0.2), 1e-12);
	/* Huge values: finite density, no NaN. */
	double huge[3] = {1e300, 2e300, 3e300};
	double g[1] = {2e300}, o[1];
	double bh = plot_kde_bandwidth(huge, 3);
	CHECK(bh > 0 && isfinite(bh));
	CHECK(plot_kde(huge, 3, bh, g, 1, o) == 0);
	CHECK(isfinite(o[0]) && o[0] >= 0);
}

static void decimate(void)
{
	struct plot_bucket b[4];
	double x[10] = {1, 5, 2, 3, NAN, 4, 0, 9, 8, 7};
	CHECK(plot_decimate(x, 10, 4, b) == 4);
	CHECK(b[0].first == 0 && b[0].count == 3 && b[0].lo == 1 && b[0].hi == 5);
	CHECK(b[1].count_finite == 2 && b[1].lo == 3 && b[1].hi == 4);
	CHECK(b[3].first == 9 && b[3].count == 1 && b[3].lo == 7);
	CHECK(plot_decimate(x, 3, 4, b) == 3);
	CHECK(b[1].lo == 5 && b[1].hi == 5);
	CHECK(plot_decimate(x, 0, 4, b) == 0);
	double nan[2] = {NAN, NAN};
	CHECK(plot_decimate(nan, 2, 4, b) == 2);
	CHECK(b[0].count_finite == 0 && b[0].lo == 0 && b[0].hi == 0);
}

int main(void)
{
	RUN(ticks_round_values);
	RUN(ticks_degenerate);
	RUN(ticks_magnitudes);
	RUN(ticks_log);
	RUN(scale_map);
	RUN(units);
	RUN(hist_freedman_diaconis);
	RUN(hist_degenerate);
	RUN(kde_small);
	RUN(kde_binned_large);
	RUN(kde_degenerate);
	RUN(decimate);
	return unit_failures ? 1 : 0;
}
