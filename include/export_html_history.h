/*
 * export_html_history.h: the page of `cbench history report BENCH -o
 * OUT.html`: a benchmark's series across recorded invocations (one point
 * per invocation, oldest first, the mean with its CI as an error bar, the
 * commits on the x axis) with the change points cp_detect found marked,
 * and the numbers in tables beside the plot.  Self-contained like the
 * other pages (html_svg.h): inline CSS and SVG, no script.
 *
 * Library-style: writes to the FILE given; borrows everything.
 */
#ifndef CBENCH_EXPORT_HTML_HISTORY_H
#define CBENCH_EXPORT_HTML_HISTORY_H

#include "changepoint.h"
#include "history.h"

#include <stdio.h>

/* The longest line that says why a change is not the code's. */
#define HISTORY_CAUSE_MAX 256

struct html_history {
	const char *title;          /* NULL: "History of BENCH" */
	const char *bench;
	int metric;                 /* enum metric_id */
	const char *metric_why;     /* why it was chosen, or NULL or "" */
	const char *machine;        /* fingerprint, or NULL: every machine */
	const char *test;           /* "t test at alpha 0.05", ... */
	double alpha;
	const struct history_point *p;   /* finite means, oldest first */
	size_t n;
	const struct cp_change *ch;
	size_t nch;
	const char (*cause)[HISTORY_CAUSE_MAX]; /* per change: why it is not
				       the code's, "" when it is; or NULL */
	size_t min_size;            /* of cp_detect: fewer than 2 x: too few */
	double resolution;          /* cp_resolution; NaN or 0: not said */
};

int export_html_history(FILE *f, const struct html_history *h);

#endif
