/*
 * export_html.h: the HTML report, one self-contained page (inline CSS and
 * SVG, no script, no external reference): --export-html for the run that
 * just finished, `cbench report` for saved results and for a comparison
 * of two result files.
 *
 * Every number on the page comes from the analysis document (analysis.h)
 * or, for a comparison of two files, from the gate's report (gate.h);
 * the page only draws them (plot geometry: plot.h).
 *
 * Library-style: writes to the FILE given; never prints elsewhere, never
 * exits.  Borrows everything it is given.
 */
#ifndef CBENCH_EXPORT_HTML_H
#define CBENCH_EXPORT_HTML_H

#include "export.h"
#include "gate.h"
#include "sysinfo.h"

#include <stdio.h>

/* What the page says about where the numbers come from. */
struct html_meta {
	const char *title;          /* NULL: "cbench report" */
	const char *measured_by;    /* "cbench 0.1.0", "hyperfine 1.18.0" */
	const char *command_line;   /* the benchmarking command, or NULL */
	const char *options;        /* one line: confidence, order, ... or NULL */
	const char *sources;        /* the files read, or NULL */
	const struct machine_info *machine;   /* or NULL */
	bool have_machine;          /* machine holds readings */
};

/* The page for the results and analysis of d (export_html_write, the
 * exporter, fills meta from d's context). */
int export_html_page(FILE *f, const struct export_doc *d, const struct html_meta *m);

/* The page of a comparison of two result files: every matched benchmark,
 * regressions first, base against new with the gate's threshold drawn. */
int export_html_compare(FILE *f, const struct cmp_report *r, const struct html_meta *m);

/* The sweep section (-P, -L) of the page, when the benchmarks have a
 * numeric parameter (export_html_sweep.c). */
void export_html_sweep(FILE *f, const struct export_doc *d);

#endif
