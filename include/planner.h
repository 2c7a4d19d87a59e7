/*
 * planner.h: from options to the exact list of benchmarks to run, the order
 * their runs take, the steps of each (setup, warmups, prepare/run/conclude,
 * cleanup), and the decision of when a benchmark has enough runs.
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

#include "results.h"
#include "strlist.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Most benchmarks (commands x parameter combinations) one invocation runs. */
#define PLANNER_MAX_BENCHMARKS 100000

/* --order: how the runs of the benchmarks take turns (planner_order_new). */
enum run_order { ORDER_SEQUENTIAL, ORDER_INTERLEAVED, ORDER_SHUFFLED };

/* One -P scan or -L list, as given. */
struct param_spec {
	const char *name;
	bool is_scan;
	const char *min, *max, *step;  /* scan; step NULL = 1 */
	const char *list;              /* list, unsplit */
};

/* What the plan is built from (main.c fills it through cli_plan_options,
 * cli_layers.h; the names are struct config's). */
struct plan_options {
	struct strlist commands;       /* in command-line order */
	struct strlist names;          /* -n, by command, the --reference
					  not counted */
	const struct param_spec *params;
	size_t n_params;
	/* the hooks: none, one for every command, or one per command */
	struct strlist setup, prepare, conclude, cleanup;
	const char *reference;         /* --reference, or NULL */
	const char *reference_name;    /* --reference-name, or NULL */
	enum run_order order;
	struct strlist outputs;        /* --output, once or per command */
	bool show_output;
};

/* When a benchmark has enough runs (planner_next): -r, -m, -M,
 * --min-time, --max-time, --precision (cli_plan_stop fills it). */
struct plan_stop {
	long runs;                     /* 0: not given */
	long min_runs;
	long max_runs;                 /* 0: unlimited */
	double min_time_s;
	double max_time_s;             /* 0: none */
	double precision;              /* relative, 0: off */
};

struct plan_bench {
	char *name;               /* display name, parameters substituted; a
				   * parameter the name does not show is
				   * appended as " (NAME = VALUE, ...)" */
	char *base_name;          /* the name before a " (#2)" was added to tell
				   * it from an earlier benchmark's, or NULL */
	char *short_name;         /* the name without the parameters appended
				   * (" (#2)" kept): hyperfine's get_name(),
				   * its JSON and CSV "command" */
	char *command;            /* real command line, parameters substituted */
	struct param_value *params;   /* every parameter of this combination */
	size_t n_params;
	char *setup, *prepare, *conclude, *cleanup;   /* NULL if none */
	const char *output;       /* null|pipe|inherit|FILE (--output) */
	bool is_reference;
	/* Its state group: benchmarks whose --setup and --cleanup are the
	 * same after substitution share one (numbered 0, 1, ... in plan
	 * order of their first benchmark).  A run must follow its own
	 * setup and precede its own cleanup, so only the benchmarks of one
	 * group take turns; the groups run one after another. */
	size_t group;
};

struct plan {
	struct plan_bench *bench;
	size_t n;
	enum run_order order;     /* --order, as it applies to these
				     benchmarks: one benchmark, or one per
				     state group, runs as sequential */
	size_t n_groups;          /* state groups (plan_bench.group) */
	bool split_by_state;      /* interleaving or shuffling was asked
				     for, but several state groups run one
				     after another */
};

/*
 * Build the plan.  Returns 0, or -1 with a one-line message in err (bad
 * parameter values, duplicate names, too many combinations, a reference
 * that uses a parameter).
 */
int planner_build(const struct plan_options *opt, struct plan *plan,
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

/*
 * The values of one -L list, as hyperfine's tokenize splits them
 * (src/parameter/tokenize.rs): at every comma, "\," a comma and "\\" a
 * backslash, any other backslash kept with what follows it; "" is one
 * empty value and "a,,b" three.  Returns the number of values (at least
 * 1) and sets *values (each string and the array freed with free()).
 * Exposed for the unit tests.
 */
size_t planner_list_values(const char *list, char ***values);

/* Why a benchmark stops taking runs. */
enum stop_reason {
	STOP_CONTINUE = 0,
	STOP_RUNS,        /* --runs reached */
	STOP_ENOUGH,      /* min runs and min time reached (in a state
			     group taking turns: the group's goal,
			     planner_group_done) */
	STOP_PRECISION,   /* --precision reached */
	STOP_MAX_RUNS,    /* --max-runs reached before the goal */
	STOP_MAX_TIME,    /* --max-time reached before the goal */
};

/*
 * Does a benchmark with n runs that cost cost_s seconds of wall-clock time
 * need another run?  The cost is the whole of each measured run, as
 * hyperfine's budget counts it: its --prepare, the run with its start-up
 * (fork, exec, a shell), its --conclude; --min-time and --max-time are
 * budgets of it.  rel_halfwidth is the current relative half-width of the
 * mean's confidence interval (NaN if unknown); used with --precision.
 */
enum stop_reason planner_next(const struct plan_stop *stop, size_t n,
			      double cost_s, double rel_halfwidth);

/*
 * Adaptive run counts (no -r) for a state group of benchmarks that take
 * turns (interleaved or shuffled): they stop together, in the same round,
 * so that every run of each pairs with a run of the others (the paired
 * comparison uses the first min(na, nb) rounds).  After each turn a member
 * asks planner_next_member(), which stops it only at one of its own caps
 * (--max-runs, --max-time); at the end of each round (every member still
 * taking runs has had its turn) planner_group_done() says whether all of
 * them stop.  The goal is the group's:
 *   --min-time   every member still taking runs has --min-runs, and the
 *                runs of all members together have cost k times
 *                --min-time (k members: the budget is the sum of theirs,
 *                so the group takes the time its members would alone), or
 *                every member has reached its own goal;
 *   --precision  every member still taking runs has reached its own
 *                goal (one that has keeps taking runs, its interval only
 *                narrowing, until the last has, or its cap).
 */
struct planner_member {
	size_t n;               /* runs so far */
	double cost_s;          /* what they cost (planner_next) */
	double rel_halfwidth;   /* for --precision (planner_next) */
	bool active;            /* still taking runs (not stopped by a cap) */
};

/* A member of such a group after its turn: STOP_CONTINUE, or
 * planner_next's reason when one of its caps stops it now. */
enum stop_reason planner_next_member(const struct plan_stop *stop, size_t n,
				     double cost_s, double rel_halfwidth);

/* The end of a round of the group m[0..k) (every member, the ones a cap
 * stopped included): do all its members still taking runs stop? */
bool planner_group_done(const struct plan_stop *stop,
			const struct planner_member *m, size_t k);

/*
 * Run order (--order) across n benchmarks.  The caller keeps active[i] true
 * while benchmark i needs more runs (planner_next) and asks which benchmark
 * takes the next measured run:
 *   sequential   the lowest active index: all of benchmark 0's runs, then
 *                benchmark 1's, ...
 *   interleaved  rounds of one run of each active benchmark in turn (a
 *                round skips benchmarks that already have enough runs),
 *                every other round in reverse (0 1 2, 2 1 0, 0 1 2, ...):
 *                a crossover, so that a benchmark's runs do not always
 *                follow the same other one (with two, each follows
 *                itself as often as the other: A B B A A B ...);
 *   shuffled     like interleaved, but each round visits the benchmarks in a
 *                fresh random order (Fisher-Yates over a SplitMix64 stream
 *                seeded with seed), so every benchmark's runs stay spread
 *                evenly over time while their order within a round is random.
 * Warmups, setup and cleanup go before a benchmark's first run and after its
 * last: planner_steps_next() below.
 */
struct planner_order;
/* group[i]: benchmark i's state group (plan_bench.group), or group NULL
 * for one group.  The groups take their turns one after another, in the
 * order of their first benchmark: the next group starts when every
 * benchmark of the one before is inactive, with a fresh round. */
struct planner_order *planner_order_new(enum run_order order, size_t n,
					const size_t *group, uint64_t seed);
void planner_order_free(struct planner_order *o);
/* The benchmark that takes the next run, or -1 when none is active. */
long planner_order_next(struct planner_order *o, const bool *active);

/*
 * The steps of one benchmark, in the order the runner executes them:
 *
 *   START                      make the command ready (the runner's work:
 *                              resolve it, calibrate the shell if needed)
 *   SETUP                      if --setup
 *   for warmup k = 1..W:       PREPARE, WARMUP k, CONCLUDE, WARMUP_END k
 *   for measured run k = 0..:  PREPARE, MEASURE k, CONCLUDE, RUN_END k
 *   CLEANUP                    if --cleanup
 *   DONE                       (returned again on every later call)
 *
 * PREPARE and CONCLUDE appear only with --prepare and --conclude, and
 * carry the warmup or measured run they bracket.  RUN_END closes a turn:
 * the runner asks planner_next() whether the benchmark needs another run,
 * and planner_order_next() which benchmark takes it; the next call then
 * goes on with the next run.  When the benchmark has enough runs, or a
 * step failed or was interrupted, the runner calls planner_steps_stop():
 * the next step is then CLEANUP, if asked for, there is a --cleanup and
 * the setup was done (SETUP went well, or there is none and START did),
 * else DONE.  The caller calls planner_steps_next() only after the step it
 * got last went well (or after planner_steps_stop()).
 */
enum planner_step_kind {
	PLANNER_STEP_START,
	PLANNER_STEP_SETUP,
	PLANNER_STEP_PREPARE,
	PLANNER_STEP_WARMUP,
	PLANNER_STEP_MEASURE,
	PLANNER_STEP_CONCLUDE,
	PLANNER_STEP_WARMUP_END,
	PLANNER_STEP_RUN_END,
	PLANNER_STEP_CLEANUP,
	PLANNER_STEP_DONE,
};

struct planner_step {
	enum planner_step_kind kind;
	bool warmup;     /* PREPARE, CONCLUDE: around a warmup */
	size_t k;        /* warmup number (1-based), or the measured run's
			  * index (0-based: the runs before it) */
};

/* One benchmark's position in its steps; the fields are planner.c's. */
struct planner_steps {
	size_t warmups;
	bool has_setup, has_prepare, has_conclude, has_cleanup;
	bool begun, setup_done, stopped, cleanup;
	struct planner_step last;
};

/* The steps of benchmark b with warmup (-w) warmup runs first. */
void planner_steps_init(struct planner_steps *it, long warmup,
			const struct plan_bench *b);
struct planner_step planner_steps_next(struct planner_steps *it);
/* No more runs: cleanup says whether the cleanup is still wanted (not
 * after an interrupt).  A later call with cleanup false cancels a cleanup
 * not begun yet. */
void planner_steps_stop(struct planner_steps *it, bool cleanup);

#endif
