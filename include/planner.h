/*
 * planner.h: from options to the exact list of benchmarks to run, and the
 * decision of when a benchmark has enough runs.  Pure logic: no I/O, no
 * processes, so it is unit-tested by checking the plan it produces.
 *
 * Ownership: planner_build() fills a plan freed with planner_free(); all
 * strings in it are owned by the plan.
 */
#ifndef CBENCH_PLANNER_H
#define CBENCH_PLANNER_H

#include "cli.h"
#include "results.h"

#include <stdbool.h>
#include <stddef.h>

struct plan_bench {
	char *name;               /* display name, parameters substituted */
	char *command;            /* real command line, parameters substituted */
	struct param_value *params;
	size_t n_params;
	char *setup, *prepare, *conclude, *cleanup;   /* NULL if none */
	const char *output;       /* null|pipe|inherit|FILE (from config) */
	bool is_reference;
};

struct plan {
	struct plan_bench *bench;
	size_t n;
};

/* Build the plan.  Returns 0, or -1 with a one-line message in err. */
int planner_build(const struct config *cfg, struct plan *plan,
		  char *err, size_t errlen);
void planner_free(struct plan *plan);

/* Why a benchmark stops taking runs. */
enum stop_reason {
	STOP_CONTINUE = 0,
	STOP_RUNS,        /* --runs reached */
	STOP_ENOUGH,      /* min runs and min time reached */
	STOP_PRECISION,   /* --precision reached */
	STOP_MAX_RUNS,    /* --max-runs reached before the goal */
	STOP_MAX_TIME,    /* --max-time reached before the goal */
};

/*
 * Does a benchmark with n runs totalling total_wall_s of measured time need
 * another run?  rel_halfwidth is the current relative half-width of the
 * mean's confidence interval (NaN if unknown); used with --precision.
 */
enum stop_reason planner_next(const struct config *cfg, size_t n,
			      double total_wall_s, double rel_halfwidth);

#endif
