/*
 * report.h: the terminal side of a run.  Turns the runner's events (see
 * bench.h) into what the user sees: each benchmark's header and report on
 * stdout, the progress bar and cbench's notes, warnings and errors on
 * stderr (through export_text.c and diag.c).  Like them, it may print.
 *
 * Ownership: report_new() returns a report freed with report_free(); the
 * events from report_events() point at it and must not outlive it.
 */
#ifndef CBENCH_REPORT_H
#define CBENCH_REPORT_H

#include "analysis.h"
#include "bench.h"
#include "export_text.h"

struct report;

/* A report for o's style and the plan's order, resolved against the terminal now
 * (after any redirection of stdout).  Each benchmark's report is read
 * from its entry in an, which the report brings up to date first (so the
 * exports find it computed). */
struct report *report_new(const struct report_options *o, const struct plan *plan,
			  struct analysis *an);
void report_free(struct report *rep);

/* Name the likely cause in the drift and spread warnings (see struct
 * text_style's likely_cause). */
void report_set_cause(struct report *rep,
		      bool (*fn)(void *arg, char *buf, size_t len), void *arg);

/* Events that print to the terminal; results (may be NULL) is passed on
 * with arg, for the exports. */
struct bench_events report_events(struct report *rep, bench_done_fn results,
				  void *arg);

#endif
