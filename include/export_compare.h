/*
 * export_compare.h: the reports of a gate's comparison (gate.h): a
 * terminal table on stdout, a Markdown
 * report ready to post as a pull-request comment (one-line verdict, then
 * the table, regressions first), and GitHub Actions annotation lines.
 */
#ifndef CBENCH_EXPORT_COMPARE_H
#define CBENCH_EXPORT_COMPARE_H

#include "gate.h"
#include "export_text.h"

#include <stdio.h>

void export_compare_text(const struct text_style *st, const struct cmp_report *r);
/* ::error:: lines for regressions, ::warning:: for one-sided or undecided
 * benchmarks (https://docs.github.com/actions: workflow commands). */
void export_compare_github(FILE *f, const struct cmp_report *r);

/* Write the Markdown report to path ("-": stdout; a regular file
 * atomically).  Returns 0, or -1 with a message in err. */
int export_compare_write_markdown(const char *path, const struct cmp_report *rep,
				  enum time_unit unit, char *err, size_t errlen);

#endif
