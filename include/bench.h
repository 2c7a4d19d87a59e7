/*
 * bench.h: runs a plan.  For every benchmark: setup, warmups, then measured
 * runs (each bracketed by prepare and conclude) until the planner says
 * enough, then cleanup; shell start-up cost calibrated once and subtracted.
 * Reports each benchmark on the terminal as it finishes.
 *
 * Ownership: bench_run() returns an array of results (one per benchmark
 * that started) freed with bench_free_results().
 */
#ifndef CBENCH_BENCH_H
#define CBENCH_BENCH_H

#include "cli.h"
#include "planner.h"
#include "results.h"

struct bench_outcome {
	struct bench_result **results;
	size_t n;
	int exit_code;        /* CBENCH_EXIT_* */
	long reference;       /* index of the reference benchmark, or -1 */
	char *shell;          /* shell used for shell-syntax commands, or NULL */
	double shell_overhead_s;  /* calibrated wall-time overhead, 0 if none */
	bool pmu;             /* hardware counters were available */
	bool user_only;       /* counters exclude kernel mode */
	bool exec_exact;      /* ptrace worked: clock and counters start at exec */
};

/* Called after each benchmark ends (completed, failed or interrupted),
 * with every result so far: exporters rewrite their files from it. */
typedef void (*bench_done_fn)(void *arg, const struct bench_outcome *so_far);

/* Run everything; never exits.  Errors are printed through diag. */
void bench_run(const struct config *cfg, const struct plan *plan,
	       bench_done_fn on_done, void *arg, struct bench_outcome *out);
void bench_free_outcome(struct bench_outcome *out);

#endif
