/*
 * planner.h: from options to the exact list of benchmarks to run, the order
 * their runs take, and the decision of when a benchmark has enough runs.
 * Pure logic: no I/O, no processes, so it is unit-tested by checking the
 * plan it produces.
 *
 * Benchmarks are the commands times every combination of parameter values
 * (-P scans and -L lists, a Cartesian product).  Parameters vary like nested
 * loops in the order they were given (the first outermost), and for each
 * combination every command appears in command-line order; the --reference
 * command, not parameterised, comes first of all.
 *
 * Ownership: planner_build() fills a plan freed with planner_free(); all
 * strings in it are owned by the plan.  planner_order_new() returns an
 * iterator freed with planner_order_free().
 */
#ifndef CBENCH_PLANNER_H
#define CBENCH_PLANNER_H

#include "cli.h"
#include "results.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Most benchmarks (commands x parameter combinations) one invocation runs. */
#define PLANNER_MAX_BENCHMARKS 100000

struct plan_bench {
	char *name;               /* display name, parameters substituted; a
				   * parameter the name does not show is
				   * appended as " (NAME = VALUE, ...)" */
	char *command;            /* real command line, parameters substituted */
	struct param_value *params;   /* every parameter of this combination */
	size_t n_params;
	char *setup, *prepare, *conclude, *cleanup;   /* NULL if none */
	const char *output;       /* null|pipe|inherit|FILE (from config) */
	bool is_reference;
};

struct plan {
	struct plan_bench *bench;
	size_t n;
};

/*
 * Build the plan.  Returns 0, or -1 with a one-line message in err (bad
 * parameter values, duplicate names, too many combinations, a reference
 * that uses a parameter).
 */
int planner_build(const struct config *cfg, struct plan *plan,
		  char *err, size_t errlen);
void planner_free(struct plan *plan);

/*
 * The values of one -P scan, as they will be substituted: MIN, MIN + STEP,
 * ... up to MAX, computed in scaled integers (no floating-point drift) and
 * printed with as many decimals as the most precise of MIN, MAX and STEP.
 * step may be NULL (1; the bounds must then be integers).  Returns the
 * number of values and sets *values (each string and the array freed with
 * free()), or -1 with a message in err.  Exposed for the unit tests.
 */
long planner_scan_values(const char *name, const char *min, const char *max,
			 const char *step, char ***values, char *err, size_t errlen);

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

/*
 * Run order (--order) across n benchmarks.  The caller keeps active[i] true
 * while benchmark i needs more runs (planner_next) and asks which benchmark
 * takes the next measured run:
 *   sequential   the lowest active index: all of benchmark 0's runs, then
 *                benchmark 1's, ...
 *   interleaved  round-robin: one run of each active benchmark in turn, so a
 *                round skips benchmarks that already have enough runs;
 *   shuffled     like interleaved, but each round visits the benchmarks in a
 *                fresh random order (Fisher-Yates over a SplitMix64 stream
 *                seeded with seed), so every benchmark's runs stay spread
 *                evenly over time while their order within a round is random.
 * Warmups, setup and cleanup are the caller's: they go before a benchmark's
 * first run and after its last.
 */
struct planner_order;
struct planner_order *planner_order_new(enum run_order order, size_t n,
					uint64_t seed);
void planner_order_free(struct planner_order *o);
/* The benchmark that takes the next run, or -1 when none is active. */
long planner_order_next(struct planner_order *o, const bool *active);

#endif
