/*
 * export_compare.h: the reports of a comparison (compare.h) and the gate
 * that turns one into an exit code: a terminal table on stdout, a Markdown
 * report ready to post as a pull-request comment (one-line verdict, then
 * the table, regressions first), and GitHub Actions annotation lines.
 */
#ifndef CBENCH_EXPORT_COMPARE_H
#define CBENCH_EXPORT_COMPARE_H

#include "cli.h"
#include "compare.h"
#include "export_text.h"

#include <stdio.h>

/* Seed of the comparison's resampling when --seed is not given: a gate
 * must give the same verdict on the same two files every time. */
#define COMPARE_DEFAULT_SEED 1UL

void export_compare_text(const struct text_style *st, const struct cmp_report *r);
void export_compare_markdown(FILE *f, const struct cmp_report *r,
			     enum time_unit unit);
/* ::error:: lines for regressions, ::warning:: for one-sided or undecided
 * benchmarks (https://docs.github.com/actions: workflow commands). */
void export_compare_github(FILE *f, const struct cmp_report *r);

/*
 * The whole gate: compare base with new as cfg says (--gate-metric,
 * --fail-if-slower, --confidence, --match-by, --seed, --require-all),
 * print the table, write --export-markdown files, annotate for GitHub
 * Actions when GITHUB_ACTIONS=true.  Returns the exit code: CBENCH_EXIT_OK,
 * _REGRESSION, _USAGE (input error, or a missing benchmark with
 * --require-all) or _FAILURE (a report could not be written).
 */
int export_compare_gate(const struct config *cfg, const struct cmp_set *base,
			const struct cmp_set *new);

#endif
