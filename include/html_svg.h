/*
 * html_svg.h: the pieces the HTML reports (export_html.c, the run's page;
 * export_html_compare.c, the page of `cbench report --compare`) are built
 * from: the page's head with its inline style sheet, escaping, values in
 * a unit, and an SVG plot frame with round ticks (plot.h) and labelled
 * axes.
 *
 * The page is self-contained: inline CSS and SVG, no script, no external
 * reference; colours are the Okabe-Ito palette (Okabe and Ito 2008,
 * "Color Universal Design"), distinguishable with every common colour
 * vision deficiency, as CSS classes (.s0-.s7 stroke, .f0-.f7 fill) so the
 * page follows prefers-color-scheme.  Hover details are SVG <title>
 * elements, which browsers show as tooltips without any script.
 *
 * Library-style: writes to the FILE given, never prints elsewhere.
 */
#ifndef CBENCH_HTML_SVG_H
#define CBENCH_HTML_SVG_H

#include "plot.h"
#include "results.h"
#include "stats.h"

#include <stdbool.h>
#include <stdio.h>

#define HTML_COLOURS 8

/* s with &, <, >, " and ' escaped. */
void html_text(FILE *f, const char *s);
/* The same, cut to at most max_chars (>= 1) characters (UTF-8 aware): its
 * first max_chars - 1 and an ellipsis when it is longer; true if cut. */
bool html_text_cut(FILE *f, const char *s, size_t max_chars);
/* <!DOCTYPE html> to <body>, the style sheet inline. */
void html_head(FILE *f, const char *title);
/* The footer, "Made by cbench VERSION" then how, and the end of the page;
 * returns 0, or -1 if f has an error. */
int html_tail(FILE *f, const char *how);

/* A unit for the values of one axis or table column. */
struct html_unit {
	enum plot_unit_kind kind;
	const char *name;    /* "ms", "MiB", "k", "" */
	double div;
};
struct html_unit html_unit_for(enum plot_unit_kind kind, double max_abs);
enum plot_unit_kind html_metric_kind(enum metric_id m);
/* "wall time", "user time", "system time", else the metric's label. */
const char *html_metric_label(enum metric_id m);
/* v in unit u, 4 significant digits, with the unit ("1.234 ms"); "n/a"
 * for NaN. */
void html_value(char *buf, size_t len, double v, const struct html_unit *u);
/* The same with the unit chosen for v itself. */
void html_metric_value(char *buf, size_t len, double v, enum plot_unit_kind k);

/* One axis of a plot: the data range, linear or log, the unit, a label;
 * categorical: no ticks (the caller labels the rows). */
struct html_axis {
	double lo, hi;
	bool log;
	struct html_unit unit;
	const char *label;
	bool categorical;
};

struct html_plot {
	FILE *f;
	double w, h;
	double ml, mr, mt, mb;     /* margins; 0 = the defaults */
	struct plot_scale x, y;    /* from values in their units */
	struct plot_ticks xt, yt;
	struct html_unit xu, yu;
};

/* Open <svg> with its <title> and <desc>, and draw the grid, the tick
 * labels and the axis labels.  Set p->ml etc. before to change margins. */
void html_plot_begin(struct html_plot *p, FILE *f, double w, double h,
		     const struct html_axis *x, const struct html_axis *y,
		     const char *title, const char *desc);
void html_plot_end(struct html_plot *p);
/* A data value's picture coordinate (never NaN). */
double html_px(const struct html_plot *p, double x);
double html_py(const struct html_plot *p, double y);

/* A number for an SVG attribute: "%.1f", shortest. */
void html_num(FILE *f, double v);

/* ---- plots shared by the pages (html_plots.c) ---- */

/* One row of a forest plot: an estimate with its interval. */
struct html_forest_row {
	const char *label;
	double est, lo, hi;      /* NaN lo/hi: no interval drawn */
	int colour;              /* 0..HTML_COLOURS-1, or -1: the "bad" colour */
};

/* Rows top to bottom on axis x, a dashed reference line at ref (NaN:
 * none) and threshold lines at thr[0..n_thr). */
void html_forest(FILE *f, const struct html_forest_row *rows, size_t n,
		 const struct html_axis *x, double ref, const double *thr,
		 size_t n_thr, const char *title, const char *desc);

/* A sample to draw: its values, and for one series its summary (the mean
 * and median with their intervals are marked). */
struct html_series {
	const char *name;
	const double *x;
	size_t n;
	const struct stats_summary *sum;   /* or NULL */
	int colour;
};

/* Histogram (one series) or overlaid densities (several) with a density
 * estimate each (plot.h), in the unit of kind; the bins' table follows in
 * a folded <details> when with_table. */
void html_distribution(FILE *f, const struct html_series *s, size_t k,
		       enum plot_unit_kind kind, const char *what,
		       const char *title, bool with_table);

/* Values in run order, one line per series on a shared axis; outliers
 * (flags[i] & RUN_OUTLIER_*) marked; decimated to an envelope beyond a
 * few hundred runs. */
struct html_run_series {
	const char *name;
	const double *x;
	const unsigned char *outlier;      /* or NULL */
	size_t n;
	int colour;
};
void html_progression(FILE *f, const struct html_run_series *s, size_t k,
		      enum plot_unit_kind kind, const char *what,
		      const char *title);

/* A colour key: a swatch and the name. */
void html_key(FILE *f, int colour, const char *name);

#endif
