/*
 * report_page.h: `cbench report`: read saved results (report_load.h),
 * analyse them (analysis.h) or compare two files (gate.h), and write the
 * HTML page (export_html.h) atomically.
 *
 * Library-style: nothing here prints or exits; main.c shows the error.
 */
#ifndef CBENCH_REPORT_PAGE_H
#define CBENCH_REPORT_PAGE_H

#include "cli.h"

#include <stddef.h>

/* Build the page cfg asks for.  Returns CBENCH_EXIT_OK, or
 * CBENCH_EXIT_USAGE (a bad input, nothing written) or CBENCH_EXIT_FAILURE
 * (the page could not be written) with one line in err. */
int report_page_build(const struct config *cfg, char *err, size_t errlen);

#endif
