/*
 * plot.h: the geometry of a plot, for the HTML report: round tick values
 * on linear and logarithmic axes, the unit an axis reads in, scales from
 * data to picture coordinates, histogram bins, a Gaussian kernel density
 * estimate and the decimation of a long series.
 *
 * Pure arithmetic, no I/O.  Every function takes any input (empty, all
 * NaN, constant, one value, 1e-300 or 1e300) and never emits NaN or an
 * infinity: what it cannot compute it leaves out (zero ticks, no bins,
 * a zero bandwidth) and says so in its return value.
 *
 * Ownership: plot_hist_build() fills a histogram freed by
 * plot_hist_free(); the other functions write into the caller's arrays.
 */
#ifndef CBENCH_PLOT_H
#define CBENCH_PLOT_H

#include <stdbool.h>
#include <stddef.h>

#define PLOT_MAX_TICKS 24

struct plot_ticks {
	size_t n;                   /* ticks, 0 when the range is unusable */
	double v[PLOT_MAX_TICKS];   /* increasing */
	double lo, hi;              /* the axis: covers the data and v[] */
	int decimals;               /* digits after the point that print
				       every linear tick exactly (0..15) */
};

/*
 * Round ticks (1, 2 or 5 times a power of ten) for data in [lo, hi], about
 * `target` of them (2..PLOT_MAX_TICKS-2), the axis extended to the ticks
 * just outside the data ("nice" limits).  lo == hi gets an interval around
 * the value; lo > hi are swapped; a non-finite bound gives n = 0, lo = 0,
 * hi = 1.  Returns the number of ticks.
 */
size_t plot_ticks_linear(double lo, double hi, size_t target, struct plot_ticks *t);

/*
 * Ticks for a logarithmic axis over [lo, hi] (both > 0): the powers of ten
 * inside, with 2 and 5 times them when fewer than three decades are
 * spanned, the axis extended to the enclosing ticks.  Non-positive or
 * non-finite bounds give n = 0.  decimals is the count a plain "%.*f"
 * needs for the smallest tick (0 for ticks >= 1).
 */
size_t plot_ticks_log(double lo, double hi, struct plot_ticks *t);

/* Do values from lo to hi (> 0) span enough decades for a log axis (at
 * least two: hi / lo >= 100)? */
bool plot_wants_log(double lo, double hi);

/* A linear or logarithmic map from the domain [d0, d1] to the range
 * [r0, r1] (r1 < r0 for a y axis drawn downwards). */
struct plot_scale {
	double d0, d1, r0, r1;
	bool log;
};

void plot_scale_init(struct plot_scale *s, double d0, double d1, double r0,
		     double r1, bool log);
/* x on the picture, clamped to the range; a non-finite x (or x <= 0 on a
 * log scale) maps to r0.  Never NaN. */
double plot_scale_map(const struct plot_scale *s, double x);

/* The unit an axis of values up to |max_abs| reads in: for seconds "s",
 * "ms", "µs" or "ns"; for bytes "B", "KiB", "MiB", "GiB"; for counts "",
 * "k", "M", "G".  *div is what to divide values by. */
enum plot_unit_kind { PLOT_SECONDS, PLOT_BYTES, PLOT_COUNT };
const char *plot_unit(enum plot_unit_kind kind, double max_abs, double *div);

/* A histogram: n_bins bins of equal width from lo; count[i] values fell in
 * [lo + i width, lo + (i+1) width) (the last bin closed). */
struct plot_hist {
	size_t n_bins;
	double lo, width;
	size_t *count;
	size_t total;       /* finite values counted */
	size_t max_count;
};

/*
 * Bin the finite values of x[0..n): as many bins as the Freedman-Diaconis
 * width 2 IQR n^(-1/3) gives (Freedman and Diaconis 1981), but at least
 * Sturges' ceil(log2 n) + 1 (the larger of the two, numpy's bins='auto'),
 * at most max_bins (>= 1), spanning min to max.  Constant data (or one value) gets one bin centred on it.  Returns
 * the number of bins, 0 when no value is finite (h then empty, freeable).
 */
size_t plot_hist_build(const double *x, size_t n, size_t max_bins,
		       struct plot_hist *h);
/* The same from the values' summary, already known (analysis.h): their
 * finite count m, min, max and interquartile range; no sorting, one pass
 * over x.  Values below min or above max are left out (not counted in
 * total): pass a narrower range to bin only the bulk of the data. */
size_t plot_hist_build_known(const double *x, size_t n, size_t m, double min,
			     double max, double iqr, size_t max_bins,
			     struct plot_hist *h);
void plot_hist_free(struct plot_hist *h);

/*
 * Bandwidth of a Gaussian kernel density estimate of the finite values of
 * x[0..n): Silverman's rule of thumb, 0.9 min(sd, IQR / 1.349) n^(-1/5)
 * (Silverman 1986, "Density Estimation", eq. 3.31), with sd alone when the
 * IQR is 0.  0 when it is undefined (fewer than two values, or all equal).
 */
double plot_kde_bandwidth(const double *x, size_t n);
/* The same rule from the known count m, standard deviation and IQR. */
double plot_kde_bandwidth_known(size_t m, double sd, double iqr);

/*
 * The density estimate with bandwidth bw > 0 at grid[0..m), into
 * out[0..m): (1 / (n bw)) sum_i phi((g - x_i) / bw) over the finite x_i.
 * Exact for up to PLOT_KDE_EXACT values; above, the values are first
 * binned linearly onto PLOT_KDE_BINS points (the binned estimator of
 * Wand and Jones 1995, ch. 3 app. D; error well below a pixel).  Returns
 * 0, or -1 (out all 0) when bw is not positive or no value is finite.
 */
#define PLOT_KDE_EXACT 4096
#define PLOT_KDE_BINS 2048
int plot_kde(const double *x, size_t n, double bw, const double *grid,
	     size_t m, double *out);

/* A run of consecutive values of a long series, drawn as one point. */
struct plot_bucket {
	size_t first, count;   /* runs first .. first + count - 1 */
	double lo, hi;         /* smallest and largest finite value (NaN-free:
				  both 0 and count_finite 0 when none) */
	size_t count_finite;
};

/*
 * Cut x[0..n) into at most max_buckets runs of consecutive values of equal
 * length (the last may be shorter), each with its extremes, so that a
 * million runs draw as an envelope of a few hundred points.  n <=
 * max_buckets gives one bucket per value.  Returns the number of buckets
 * written to out (which holds max_buckets).
 */
size_t plot_decimate(const double *x, size_t n, size_t max_buckets,
		     struct plot_bucket *out);

#endif
