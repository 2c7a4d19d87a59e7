/*
 * html_plots.c: the plots both HTML pages draw (see html_svg.h): forest
 * plots of estimates with their intervals, distributions (a histogram
 * with a density estimate, or overlaid densities) and run-by-run
 * progressions.
 *
 * Nothing statistical is computed here: the estimates and intervals come
 * from the caller (the analysis document, or the gate's comparison), and
 * bins, densities and decimation are plot geometry (plot.h).  The size of
 * a plot does not grow with the number of runs: at most HIST_BINS bins,
 * KDE_POINTS density points and PROG_BUCKETS points per line.
 */
#include "html_svg.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define HIST_BINS 40
#define KDE_POINTS 160
#define PROG_POINTS 500     /* drawn run by run up to this many runs */
#define PROG_BUCKETS 400    /* beyond, an envelope of this many buckets */
#define MAX_MARKS 300       /* outlier markers per series */
#define LABEL_CHARS 45     /* a forest plot's labels, the ellipsis included */

void html_key(FILE *f, int colour, const char *name)
{
	fprintf(f, "<span class=\"key\" style=\"background:var(--c%d)\">&#160;</span>",
		colour % HTML_COLOURS);
	html_text(f, name);
}

static void forest_row(FILE *f, const struct html_plot *p,
		       const struct html_forest_row *r, double y)
{
	const char *cls = "fbad";
	char c[8];
	if (r->colour >= 0) {
		snprintf(c, sizeof c, "f%d", r->colour % HTML_COLOURS);
		cls = c;
	}
	fprintf(f, "<g><title>");
	html_text(f, r->label);
	char e[48], lo[48], hi[48];
	html_value(e, sizeof e, r->est, &p->xu);
	html_value(lo, sizeof lo, r->lo, &p->xu);
	html_value(hi, sizeof hi, r->hi, &p->xu);
	fprintf(f, ": %s [%s, %s]</title>", e, lo, hi);
	fprintf(f, "<text x=\"%g\" y=\"%g\" text-anchor=\"end\">", p->ml - 8, y + 4);
	html_text_cut(f, r->label, LABEL_CHARS);
	fputs("</text>", f);
	if (isfinite(r->lo) && isfinite(r->hi)) {
		fputs("<line class=\"ci ", f);
		fprintf(f, "s%d\" x1=\"", r->colour >= 0 ? r->colour % HTML_COLOURS : 1);
		html_num(f, html_px(p, r->lo));
		fputs("\" x2=\"", f);
		html_num(f, html_px(p, r->hi));
		fprintf(f, "\" y1=\"%g\" y2=\"%g\"/>", y, y);
	}
	if (isfinite(r->est)) {
		fprintf(f, "<circle class=\"%s\" r=\"4.5\" cy=\"%g\" cx=\"", cls, y);
		html_num(f, html_px(p, r->est));
		fputs("\"/>", f);
	}
	fputs("</g>\n", f);
}

static void vline(FILE *f, const struct html_plot *p, double x, const char *cls)
{
	double px = html_px(p, x);
	fprintf(f, "<line class=\"%s\" x1=\"", cls);
	html_num(f, px);
	fputs("\" x2=\"", f);
	html_num(f, px);
	fprintf(f, "\" y1=\"%g\" y2=\"%g\"/>\n", p->mt, p->h - p->mb);
}

void html_forest(FILE *f, const struct html_forest_row *rows, size_t n,
		 const struct html_axis *x, double ref, const double *thr,
		 size_t n_thr, const char *title, const char *desc)
{
	size_t longest = 0;
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(rows[i].label);
		longest = l > longest ? l : longest;
	}
	if (longest > LABEL_CHARS)
		longest = LABEL_CHARS;
	struct html_plot p = {.ml = fmin(320, 7.0 * (double)longest + 18)};
	const double row_h = 26;
	struct html_axis y = {.lo = 0, .hi = (double)n, .categorical = true,
			      .unit = {.div = 1, .name = ""}};
	html_plot_begin(&p, f, 760, 12 + row_h * (double)n + 42, x, &y, title, desc);
	for (size_t i = 0; i < n_thr; i++)
		vline(f, &p, thr[i], "thr");
	if (isfinite(ref))
		vline(f, &p, ref, "ref");
	for (size_t i = 0; i < n; i++)
		forest_row(f, &p, &rows[i], p.mt + row_h * ((double)i + 0.5));
	html_plot_end(&p);
}

/* Smallest and largest finite value of every series. */
static bool series_range(const struct html_series *s, size_t k, double *lo,
			 double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t j = 0; j < k; j++)
		for (size_t i = 0; i < s[j].n; i++)
			if (isfinite(s[j].x[i])) {
				*lo = fmin(*lo, s[j].x[i]);
				*hi = fmax(*hi, s[j].x[i]);
			}
	return isfinite(*lo);
}

/* A shaded interval and a line at the estimate. */
static void mark(FILE *f, const struct html_plot *p, double est, double lo,
		 double hi, int colour, bool dashed)
{
	if (isfinite(lo) && isfinite(hi)) {
		double a = html_px(p, lo), b = html_px(p, hi);
		fprintf(f, "<rect class=\"band f%d\" x=\"", colour);
		html_num(f, a);
		fprintf(f, "\" y=\"%g\" width=\"", p->mt);
		html_num(f, fmax(b - a, 1));
		fprintf(f, "\" height=\"%g\"/>\n", p->h - p->mt - p->mb);
	}
	if (isfinite(est)) {
		char cls[24];
		snprintf(cls, sizeof cls, "line s%d%s", colour, dashed ? " dash" : "");
		vline(f, p, est, cls);
	}
}

/* The density line of one series, scaled by `scale`, as a path. */
static void density_path(FILE *f, const struct html_plot *p, const double *grid,
			 const double *dens, double scale, int colour)
{
	fprintf(f, "<path class=\"line s%d\" d=\"", colour);
	for (size_t i = 0; i < KDE_POINTS; i++) {
		fputc(i ? 'L' : 'M', f);
		html_num(f, html_px(p, grid[i]));
		fputc(',', f);
		html_num(f, html_py(p, dens[i] * scale));
	}
	fputs("\"/>\n", f);
}

static void hist_bars(FILE *f, const struct html_plot *p, const struct plot_hist *h,
		      int colour)
{
	for (size_t b = 0; b < h->n_bins; b++) {
		if (h->count[b] == 0)
			continue;
		double x0 = html_px(p, h->lo + (double)b * h->width);
		double x1 = html_px(p, h->lo + (double)(b + 1) * h->width);
		double y = html_py(p, (double)h->count[b]);
		fprintf(f, "<rect class=\"bar f%d\" x=\"", colour);
		html_num(f, x0);
		fputs("\" y=\"", f);
		html_num(f, y);
		fputs("\" width=\"", f);
		html_num(f, fmax(x1 - x0 - 0.5, 0.5));
		fputs("\" height=\"", f);
		html_num(f, p->h - p->mb - y);
		fprintf(f, "\"><title>%zu runs</title></rect>\n", h->count[b]);
	}
}

static void bins_table(FILE *f, const struct plot_hist *h, const struct html_unit *u)
{
	fprintf(f, "<details><summary>The %zu bins</summary><table><thead><tr>"
		"<th>from</th><th>to</th><th>runs</th></tr></thead><tbody>\n",
		h->n_bins);
	for (size_t b = 0; b < h->n_bins; b++) {
		char a[48], z[48];
		html_value(a, sizeof a, h->lo + (double)b * h->width, u);
		html_value(z, sizeof z, h->lo + (double)(b + 1) * h->width, u);
		fprintf(f, "<tr><td>%s</td><td>%s</td><td>%zu</td></tr>\n", a, z,
			h->count[b]);
	}
	fputs("</tbody></table></details>\n", f);
}

/* Does the series' summary (the analysis') give its spread, so the plot
 * need not sort the runs again? */
static bool known(const struct stats_summary *q)
{
	return q && q->n >= 1 && isfinite(q->stddev) && isfinite(q->iqr) &&
	       isfinite(q->min) && isfinite(q->max);
}

struct dens {
	double grid[KDE_POINTS];
	double *d;          /* k * KDE_POINTS */
	bool *ok;           /* k */
	double peak;
};

/* The density of every series on one grid over [lo, hi] widened by the
 * largest bandwidth. */
static void densities(const struct html_series *s, size_t k, double *lo,
		      double *hi, struct dens *D)
{
	double bw_max = 0;
	D->d = xcalloc(k * KDE_POINTS, sizeof *D->d);
	D->ok = xcalloc(k, sizeof *D->ok);
	double *bw = xcalloc(k, sizeof *bw);
	for (size_t j = 0; j < k; j++) {
		const struct stats_summary *q = s[j].sum;
		bw[j] = known(q) ? plot_kde_bandwidth_known(q->n, q->stddev, q->iqr)
				 : plot_kde_bandwidth(s[j].x, s[j].n);
		bw_max = fmax(bw_max, bw[j]);
	}
	double a = *lo - 3 * bw_max, b = *hi + 3 * bw_max;
	if (*lo >= 0 && a < 0)
		a = 0;
	for (size_t i = 0; i < KDE_POINTS; i++)
		D->grid[i] = a + (b - a) * (double)i / (KDE_POINTS - 1);
	D->peak = 0;
	for (size_t j = 0; j < k; j++) {
		double *d = D->d + j * KDE_POINTS;
		D->ok[j] = bw[j] > 0 &&
			   plot_kde(s[j].x, s[j].n, bw[j], D->grid, KDE_POINTS, d) == 0;
		for (size_t i = 0; D->ok[j] && i < KDE_POINTS; i++)
			D->peak = fmax(D->peak, d[i]);
	}
	*lo = a;
	*hi = b;
	free(bw);
}

static void one_histogram(FILE *f, const struct html_series *s,
			  enum plot_unit_kind kind, const char *what,
			  const char *title, bool with_table)
{
	double lo, hi;
	if (!series_range(s, 1, &lo, &hi)) {
		fputs("<p class=\"muted\">No value to draw.</p>\n", f);
		return;
	}
	struct plot_hist h;
	const struct stats_summary *q = s->sum;
	/* The axis stops at Tukey's outer fences (3 IQR beyond the
	 * quartiles): a few severe outliers would squeeze the bulk of the
	 * runs into a bar or two.  The progression shows them. */
	size_t all = 0;
	if (known(q)) {
		if (q->iqr > 0) {
			lo = fmax(lo, q->q1 - 3 * q->iqr);
			hi = fmin(hi, q->q3 + 3 * q->iqr);
		}
		plot_hist_build_known(s->x, s->n, q->n, lo, hi, q->iqr, HIST_BINS, &h);
		all = q->n;
	} else {
		plot_hist_build(s->x, s->n, HIST_BINS, &h);
		all = h.total;
	}
	struct dens D;
	double glo = lo, ghi = hi;
	densities(s, 1, &glo, &ghi, &D);
	double scale = (double)all * h.width;
	double x0 = fmin(glo, h.lo), x1 = fmax(ghi, h.lo + (double)h.n_bins * h.width);
	double ymax = fmax((double)h.max_count, D.peak * scale) * 1.08;
	struct html_axis xa = {.lo = x0, .hi = x1, .label = what,
			       .unit = html_unit_for(kind, fmax(fabs(x0), fabs(x1)))};
	struct html_axis ya = {.lo = 0, .hi = ymax, .label = "runs per bin",
			       .unit = {.kind = PLOT_COUNT, .name = "", .div = 1}};
	struct html_plot p = {0};
	html_plot_begin(&p, f, 560, 280, &xa, &ya, title,
			"Histogram of the runs with a Gaussian kernel density "
			"estimate; the mean and the median are marked with their "
			"confidence intervals.");
	hist_bars(f, &p, &h, s->colour);
	if (D.ok[0])
		density_path(f, &p, D.grid, D.d, scale, s->colour);
	if (s->sum) {
		mark(f, &p, s->sum->median, s->sum->median_ci_lo,
		     s->sum->median_ci_hi, 1, true);
		mark(f, &p, s->sum->mean, s->sum->mean_ci_lo, s->sum->mean_ci_hi,
		     2, false);
	}
	html_plot_end(&p);
	fputs("<p class=\"muted\">", f);
	html_key(f, 2, "mean and its CI");
	fputs(" &#160; ", f);
	html_key(f, 1, "median and its CI (dashed)");
	if (all > h.total)
		fprintf(f, "<br>%zu run%s beyond 3 IQR of the quartiles (severe "
			"outliers) %s off the axis: see the runs in order.", all - h.total,
			all - h.total == 1 ? "" : "s", all - h.total == 1 ? "is" : "are");
	fputs("</p>\n", f);
	if (with_table)
		bins_table(f, &h, &xa.unit);
	plot_hist_free(&h);
	free(D.d);
	free(D.ok);
}

void html_distribution(FILE *f, const struct html_series *s, size_t k,
		       enum plot_unit_kind kind, const char *what,
		       const char *title, bool with_table)
{
	if (k == 1) {
		one_histogram(f, s, kind, what, title, with_table);
		return;
	}
	double lo, hi;
	if (!series_range(s, k, &lo, &hi)) {
		fputs("<p class=\"muted\">No value to draw.</p>\n", f);
		return;
	}
	struct dens D;
	densities(s, k, &lo, &hi, &D);
	struct html_axis xa = {.lo = lo, .hi = hi, .label = what,
			       .unit = html_unit_for(kind, fmax(fabs(lo), fabs(hi)))};
	struct html_axis ya = {.lo = 0, .hi = D.peak > 0 ? D.peak * 1.08 : 1,
			       .categorical = true, .unit = {.div = 1, .name = ""}};
	struct html_plot p = {.ml = 16};
	html_plot_begin(&p, f, 560, 240, &xa, &ya, title,
			"Overlaid Gaussian kernel density estimates of the runs, "
			"each mean marked with its confidence interval.");
	for (size_t j = 0; j < k; j++) {
		if (D.ok[j])
			density_path(f, &p, D.grid, D.d + j * KDE_POINTS, 1,
				     s[j].colour);
		if (s[j].sum)
			mark(f, &p, s[j].sum->mean, s[j].sum->mean_ci_lo,
			     s[j].sum->mean_ci_hi, s[j].colour, false);
	}
	html_plot_end(&p);
	fputs("<p class=\"muted\">", f);
	for (size_t j = 0; j < k; j++) {
		fputs(j ? " &#160; " : "", f);
		html_key(f, s[j].colour, s[j].name);
	}
	fputs("</p>\n", f);
	free(D.d);
	free(D.ok);
}

/* Run by run: a line, and a marker on each outlier. */
static void runs_line(FILE *f, const struct html_plot *p,
		      const struct html_run_series *s, const struct html_unit *u)
{
	fprintf(f, "<path class=\"line s%d\" d=\"", s->colour);
	bool pen = false;
	for (size_t i = 0; i < s->n; i++) {
		if (!isfinite(s->x[i])) {
			pen = false;
			continue;
		}
		fputc(pen ? 'L' : 'M', f);
		pen = true;
		html_num(f, html_px(p, (double)(i + 1)));
		fputc(',', f);
		html_num(f, html_py(p, s->x[i]));
	}
	fputs("\"/>\n", f);
	size_t marks = 0;
	for (size_t i = 0; s->outlier && i < s->n && marks < MAX_MARKS; i++) {
		unsigned o = s->outlier[i];
		if (!(o & (RUN_OUTLIER_MILD | RUN_OUTLIER_SEVERE)) || !isfinite(s->x[i]))
			continue;
		marks++;
		char v[48];
		html_value(v, sizeof v, s->x[i], u);
		bool severe = o & RUN_OUTLIER_SEVERE;
		fprintf(f, "<circle class=\"%s\" r=\"3.5\" cx=\"", severe ? "fbad" : "fg");
		html_num(f, html_px(p, (double)(i + 1)));
		fputs("\" cy=\"", f);
		html_num(f, html_py(p, s->x[i]));
		fprintf(f, "\"><title>run %zu: %s (%s outlier)</title></circle>\n",
			i + 1, v, severe ? "severe" : "mild");
	}
}

/* Beyond PROG_POINTS runs: each bucket's extremes as a band. */
static void runs_envelope(FILE *f, const struct html_plot *p,
			  const struct html_run_series *s)
{
	struct plot_bucket *b = xcalloc(PROG_BUCKETS, sizeof *b);
	size_t nb = plot_decimate(s->x, s->n, PROG_BUCKETS, b);
	fprintf(f, "<path class=\"s%d f%d\" fill-opacity=\".35\" d=\"", s->colour,
		s->colour);
	bool first = true;
	for (size_t k = 0; k < nb; k++) {
		if (!b[k].count_finite)
			continue;
		fputc(first ? 'M' : 'L', f);
		first = false;
		html_num(f, html_px(p, (double)(b[k].first + 1)));
		fputc(',', f);
		html_num(f, html_py(p, b[k].hi));
	}
	for (size_t k = nb; k-- > 0;) {
		if (!b[k].count_finite)
			continue;
		fputc('L', f);
		html_num(f, html_px(p, (double)(b[k].first + b[k].count)));
		fputc(',', f);
		html_num(f, html_py(p, b[k].lo));
	}
	fputs(first ? "\"/>\n" : "Z\"/>\n", f);
	size_t marks = 0;
	for (size_t k = 0; s->outlier && k < nb && marks < MAX_MARKS; k++) {
		bool severe = false, any = false;
		for (size_t i = b[k].first; i < b[k].first + b[k].count; i++) {
			any |= (s->outlier[i] & (RUN_OUTLIER_MILD | RUN_OUTLIER_SEVERE)) != 0;
			severe |= (s->outlier[i] & RUN_OUTLIER_SEVERE) != 0;
		}
		if (!any)
			continue;
		marks++;
		fprintf(f, "<circle class=\"%s\" r=\"2.5\" cx=\"", severe ? "fbad" : "fg");
		html_num(f, html_px(p, (double)(b[k].first + 1)));
		fputs("\" cy=\"", f);
		html_num(f, html_py(p, b[k].hi));
		fprintf(f, "\"><title>runs %zu-%zu: outliers</title></circle>\n",
			b[k].first + 1, b[k].first + b[k].count);
	}
	free(b);
}

void html_progression(FILE *f, const struct html_run_series *s, size_t k,
		      enum plot_unit_kind kind, const char *what,
		      const char *title)
{
	double lo = INFINITY, hi = -INFINITY;
	size_t n = 0;
	for (size_t j = 0; j < k; j++) {
		n = s[j].n > n ? s[j].n : n;
		for (size_t i = 0; i < s[j].n; i++)
			if (isfinite(s[j].x[i])) {
				lo = fmin(lo, s[j].x[i]);
				hi = fmax(hi, s[j].x[i]);
			}
	}
	if (!isfinite(lo)) {
		fputs("<p class=\"muted\">No run to draw.</p>\n", f);
		return;
	}
	struct html_axis xa = {.lo = 1, .hi = (double)(n > 1 ? n : 2),
			       .label = k > 1 ? "round (run of each benchmark)" : "run",
			       .unit = html_unit_for(PLOT_COUNT, (double)n)};
	struct html_axis ya = {.lo = lo, .hi = hi, .label = what,
			       .unit = html_unit_for(kind, fmax(fabs(lo), fabs(hi)))};
	struct html_plot p = {0};
	html_plot_begin(&p, f, 560, 260, &xa, &ya, title,
			"Each run's value in the order the runs were made; "
			"outliers (Tukey's fences) are marked, severe ones in the "
			"warning colour.");
	for (size_t j = 0; j < k; j++) {
		if (n <= PROG_POINTS)
			runs_line(f, &p, &s[j], &ya.unit);
		else
			runs_envelope(f, &p, &s[j]);
	}
	html_plot_end(&p);
	fputs("<p class=\"muted\">", f);
	for (size_t j = 0; k > 1 && j < k; j++) {
		fputs(j ? " &#160; " : "", f);
		html_key(f, s[j].colour, s[j].name);
	}
	fputs(k > 1 ? "<br>" : "", f);
	fputs(n > PROG_POINTS ? "Each band spans the fastest to the slowest run of "
	      "a stretch of consecutive runs; " : "", f);
	fputs("dots: outliers (dark: mild, orange: severe).</p>\n", f);
}
