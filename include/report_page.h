/*
 * report_page.h: `cbench report`: read saved results (report_load.h),
 * analyse them (analysis.h) or compare two files (gate.h), and write the
 * HTML page (export_html.h) atomically.
 *
 * Library-style: nothing here prints or exits; main.c shows the error.
 */
#ifndef CBENCH_REPORT_PAGE_H
#define CBENCH_REPORT_PAGE_H

#include "export.h"
#include "gate.h"

#include <stdbool.h>
#include <stddef.h>

/* What `cbench report` is asked for (main.c fills it through
 * cli_report_page_options, cli_layers.h). */
struct report_page_options {
	struct strlist inputs;         /* the saved results files */
	const char *out;               /* -o/--output */
	bool compare;                  /* --compare: BASE.json NEW.json */
	const char *title;             /* --title, or NULL */
	bool confidence_given;         /* --confidence (else each file's) */
	double confidence;
	double fail_if_slower;         /* --compare's threshold (relative) */
	enum match_by match_by;
	struct export_options exports; /* what the page's document records */
};

/* Build the page o asks for.  Returns CBENCH_EXIT_OK, or
 * CBENCH_EXIT_USAGE (a bad input, nothing written) or CBENCH_EXIT_FAILURE
 * (the page could not be written) with one line in err. */
int report_page_build(const struct report_page_options *o, char *err,
		      size_t errlen);

#endif
