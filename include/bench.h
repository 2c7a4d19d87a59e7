/*
 * bench.h: runs a plan.  For every benchmark: setup, warmups, then measured
 * runs (each bracketed by prepare and conclude) until the planner says
 * enough, then cleanup; shell start-up cost calibrated once and subtracted.
 * Reports each benchmark on the terminal as it finishes.
 *
 * With --order interleaved or shuffled the benchmarks' measured runs take
 * turns (planner_order_next); each benchmark still gets its setup and
 * warmups just before its own first run and its cleanup just after its own
 * last run.
 *
 * Ownership: bench_run() fills an outcome freed with bench_free_outcome().
 * results[i] is benchmark i of the plan.  Sequential order: results holds
 * the benchmarks that started (n grows as they start).  Interleaved and
 * shuffled: all plan->n results exist from the start (n = plan->n), those
 * not yet finished holding the runs so far (possibly none).
 */
#ifndef CBENCH_BENCH_H
#define CBENCH_BENCH_H

#include "cli.h"
#include "planner.h"
#include "results.h"

#include <stdint.h>

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
	uint64_t order_seed;  /* seed of --order=shuffled (given or drawn), else 0 */
};

/*
 * Called after each benchmark ends (completed, failed or interrupted), with
 * every result so far: exporters rewrite their files from it.  "Ends" means
 * after its last run and its cleanup, in every order: with interleaving,
 * when a benchmark reaches its run count while others go on.  When a
 * failure or an interrupt stops everything, it is called once after the
 * benchmarks still in flight are brought to an end, so the last call
 * always sees the final results.
 */
typedef void (*bench_done_fn)(void *arg, const struct bench_outcome *so_far);

/* --precision with no --max-runs, --max-time (or --runs) gets this cap, so
 * a noisy command cannot run forever; the report says when it stopped one. */
#define BENCH_PRECISION_MAX_TIME_S 60.0
/* Apply that default to cfg; true if it did. */
bool bench_default_cap(struct config *cfg);

/*
 * Why a benchmark stopped at a cap (STOP_MAX_RUNS, STOP_MAX_TIME) after n
 * runs, naming each goal it did not reach: "stopped at --max-time 3 s
 * before reaching --min-runs 10 and --min-time 3 s".  NULL for the other
 * reasons.  default_cap: the cap is bench_default_cap()'s.
 */
const char *bench_stop_text(enum stop_reason s, const struct config *cfg,
			    bool default_cap, size_t n, double total_wall_s,
			    double rel_halfwidth, char *buf, size_t len);

/* Run everything; never exits.  Errors are printed through diag. */
void bench_run(const struct config *cfg, const struct plan *plan,
	       bench_done_fn on_done, void *arg, struct bench_outcome *out);
void bench_free_outcome(struct bench_outcome *out);

#endif
