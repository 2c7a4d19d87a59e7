/*
 * export_junit.h: --export-junit, the gate's verdicts as a JUnit XML
 * report, which GitLab (artifacts:reports:junit) and Jenkins (the junit
 * step) show natively: one test suite per gate metric, one test case per
 * matched benchmark, a regression as a <failure> with the numbers, an
 * undecided comparison as <skipped>; every case states its resolution.
 * With require_resolution (--require-resolution), a pass blind at its
 * threshold is a <failure type="unresolved">.  The numbers are the
 * gate's report (gate.h), nothing recomputed.
 *
 * Library-style: nothing here prints to the terminal or exits.
 */
#ifndef CBENCH_EXPORT_JUNIT_H
#define CBENCH_EXPORT_JUNIT_H

#include "gate.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The report of reps[0..n) (one per gate metric) to f; 0 or -1. */
int export_junit_print(FILE *f, const struct cmp_report *const *reps, size_t n,
		       bool require_resolution);

/* The same to path ("-": stdout), atomically for a regular file; 0, or
 * -1 with a message naming opt in err. */
int export_junit_write(const char *path, const char *opt,
		       const struct cmp_report *const *reps, size_t n,
		       bool require_resolution, char *err, size_t errlen);

#endif
