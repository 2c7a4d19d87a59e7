/*
 * bench.h: runs a plan.  For every benchmark: setup, warmups, then measured
 * runs (each bracketed by prepare and conclude) until the planner says
 * enough, then cleanup; shell start-up cost calibrated once and subtracted.
 * Silent: it reports through events (struct bench_events), which main
 * wires to the terminal (report.c) and the exports.
 *
 * The runner executes the planner's sequences: the steps of each benchmark
 * (planner_steps_next) and the order of their runs (planner_order_next).
 * With --order interleaved or shuffled the benchmarks' measured runs take
 * turns; each benchmark still gets its setup and warmups just before its
 * own first run and its cleanup just after its own last run.
 *
 * Ownership: bench_open() returns a runner freed with bench_close();
 * bench_run() fills an outcome freed with bench_free_outcome().
 * results[i] is benchmark i of the plan.  Sequential order: results holds
 * the benchmarks that started (n grows as they start).  Interleaved and
 * shuffled: all plan->n results exist from the start (n = plan->n), those
 * not yet finished holding the runs so far (possibly none).
 */
#ifndef CBENCH_BENCH_H
#define CBENCH_BENCH_H

#include "diag.h"      /* CBENCH_EXIT_* */
#include "planner.h"
#include "results.h"
#include "strlist.h"

#include <stdbool.h>
#include <stdint.h>

/* -N, -S: whether the commands run under a shell. */
enum shell_mode { SHELL_AUTO, SHELL_NONE, SHELL_FORCE };
/* --aslr: the commands' address-space randomisation (SYSTEM: as the
 * system has it). */
enum aslr_mode { ASLR_SYSTEM, ASLR_ON, ASLR_OFF };

/* What the runner is asked for (main.c fills it through
 * cli_bench_options, cli_layers.h; the names are struct config's). */
struct bench_options {
	struct plan_stop stop;         /* when a benchmark has enough runs */
	long warmup;
	struct strlist commands;       /* as given (for the quoting hint) */
	enum shell_mode shell_mode;
	const char *shell;             /* for SHELL_FORCE: the program */
	/* for SHELL_FORCE: the words after the program, NULL-terminated,
	 * to go before "-c LINE" */
	const char *const *shell_args;
	bool ignore_failure;
	const int *ignore_codes;       /* NULL: every non-zero exit */
	size_t n_ignore_codes;
	double timeout_s;              /* 0: none */
	bool keep_background;          /* leave a run's background jobs alone */
	double confidence;             /* of the --precision interval */
	uint64_t seed;
	bool seed_given;
	const char *input;             /* --input, or NULL */
	const char *counters;          /* NULL: default set */
	/* noise control: CPU lists as given (NULL: not given; --pin-hooks
	 * "none": unpinned), --aslr, --randomize-layout */
	const char *pin, *pin_hooks, *pin_self;
	enum aslr_mode aslr;
	bool randomize_layout;
	const char *profile;           /* --profile DIR: callgrind's files
					  kept there, or NULL */
	/* --precision with a history: per benchmark (plan order), the
	 * spread of its wall-time mean between invocations (between.h) and
	 * the earlier invocations it was learned from; NULL, NaN or 0 k:
	 * none, the goal is the invocation's own interval. */
	const double *between_tau;
	const size_t *between_k;
};

struct bench_outcome {
	struct bench_result **results;
	size_t n;
	int exit_code;        /* CBENCH_EXIT_* */
	long reference;       /* index of the reference benchmark, or -1 */
	char *shell;          /* shell used for shell-syntax commands, or NULL */
	double shell_overhead_s;  /* calibrated wall-time overhead, 0 if none */
	double shell_overhead_sd; /* its standard deviation, 0 if unknown */
	double shell_wake_s;      /* the shell's typical wake-up after its
				     program (kept in the runs); NaN if not
				     measured */
	double shell_reap_s;      /* the typical wait to reap the shell after
				     its exit, each run's own taken off; NaN
				     if not measured */
	bool pmu;             /* hardware counters were available */
	bool user_only;       /* counters exclude kernel mode */
	bool exec_exact;      /* ptrace worked: clock and counters start at exec */
	uint64_t order_seed;  /* seed of --order=shuffled (given or drawn), else 0 */
	enum run_order order; /* the order the runs took (plan.order) */
	int sim;              /* --counters sim: SIM_COUNTS or SIM_CACHE
				 (simcpu.h), else 0 */
	char sim_version[32]; /* Valgrind's version, "" if not known */
	bool split_by_state;  /* several state groups ran one after another
				 (plan.split_by_state; results.h group) */
};

/*
 * Called after each benchmark ends (completed, failed or interrupted), with
 * every result so far: exporters rewrite their files from it.  "Ends" means
 * after its last run and its cleanup, in every order: with interleaving,
 * when a benchmark reaches its run count while others go on.  When a
 * failure or an interrupt stops everything, it is called once after the
 * benchmarks still in flight are brought to an end, so the last call
 * always sees the final results.  It is also called after every measured
 * run in sequential order, and after every complete round (one run of
 * each benchmark still running) in interleaved and shuffled order, so
 * that a front end can keep files current; it decides how often it
 * rewrites them.
 */
typedef void (*bench_done_fn)(void *arg, const struct bench_outcome *so_far);

/* How bad a message is; BENCH_USAGE is an error in the invocation (the
 * terminal adds the --help hint). */
enum bench_severity { BENCH_NOTE, BENCH_WARNING, BENCH_ERROR, BENCH_USAGE };

/* What a message is about. */
enum bench_msg_kind {
	BENCH_MSG_INPUT_UNREADABLE,    /* --input cannot be opened or read */
	BENCH_MSG_INPUT_DIRECTORY,     /* --input names a directory */
	BENCH_MSG_OUTPUT_UNOPENABLE,   /* an --output FILE cannot be created */
	BENCH_MSG_ENGINE,              /* spawn_init/spawn_run failed (sys_errno
					* unknown: the engine's own text) */
	BENCH_MSG_COUNTERS,            /* --counters refused (see exit_code) */
	BENCH_MSG_COUNTERS_DROPPED,    /* note: some counters cannot be counted */
	BENCH_MSG_SHELL_NOT_FOUND,
	BENCH_MSG_SPLIT_FAILED,        /* --shell=none cannot split a line */
	BENCH_MSG_EMPTY_COMMAND,
	BENCH_MSG_EXEC_NOT_FOUND,      /* ENOENT resolving or executing */
	BENCH_MSG_EXEC_DENIED,         /* EACCES */
	BENCH_MSG_EXEC_FORMAT,         /* ENOEXEC */
	BENCH_MSG_EXEC_FAILED,         /* another errno (sys_errno) */
	BENCH_MSG_INTERPRETER_NOT_FOUND,   /* a script's #! interpreter */
	BENCH_MSG_SHUFFLE_SEED,        /* note: the --order=shuffled seed */
	BENCH_MSG_SHELL_CALIBRATED,    /* note: shell start-up subtracted */
	BENCH_MSG_CALIBRATION_FAILED,  /* the shell failed on `-c ''` */
	BENCH_MSG_PTRACE_FALLBACK,     /* warning: ptrace refused (sys_errno) */
	BENCH_MSG_SETUID,              /* warning: set-id program under ptrace */
	BENCH_MSG_LEFTOVER_PROCESS,    /* warning: a daemon outlived a run */
	BENCH_MSG_HOOK_FAILED,         /* a hook exited non-zero (status) */
	BENCH_MSG_HOOK_SIGNALED,       /* a hook was killed by signal */
	BENCH_MSG_HOOK_TIMED_OUT,
	BENCH_MSG_HOOK_STOPPED,        /* a hook stopped by job control */
	BENCH_MSG_RUN_FAILED,          /* the command exited non-zero */
	BENCH_MSG_RUN_SIGNALED,
	BENCH_MSG_RUN_STOPPED,
	BENCH_MSG_TIMED_OUT,           /* the command hit --timeout */
	BENCH_MSG_SELF_STOPPED,        /* cbench was stopped during a run: discarded */
	BENCH_MSG_METRIC_MISSING,      /* a run printed no --metric value */
	BENCH_MSG_SIM_FAILED,          /* --counters sim: Valgrind could not
					* count a run */
	BENCH_MSG_SIM_FORKED,          /* warning: processes forked without
					* exec, counted with their parent's */
	BENCH_MSG_SIM_NOTE,            /* note: runs are under Valgrind */
};

/*
 * A warning, note or error of the runner, as a value: the terminal prints
 * text, tests and other front ends look at the fields.  text is the
 * finished one-line message (no "cbench: error: " prefix, no newline),
 * valid during the callback only.
 */
struct bench_message {
	enum bench_severity severity;
	enum bench_msg_kind kind;
	long bench;            /* index of the benchmark in the plan, or -1 */
	int exit_code;         /* CBENCH_EXIT_* an error implies, else 0 */
	const char *text;
	const char *hook;      /* "setup", "prepare", ... for HOOK_* and
				* errors of a hook's command, else NULL */
	int status;            /* exit status (RUN/HOOK_FAILED) or signal
				* (*_SIGNALED, *_STOPPED), else 0 */
	int sys_errno;         /* errno behind it, or 0 */
	/* BENCH_MSG_SHELL_CALIBRATED: the subtracted start-up, mean and
	 * standard deviation of wall time (sd 0 if unknown) and mean page
	 * faults, over `runs` calibration runs. */
	double shell_mean_s, shell_sd_s, shell_page_faults;
	int runs;
};

/* Which progress line a run advances. */
enum bench_progress_kind {
	BENCH_PROGRESS_WARMUP,   /* "Warmup": warmup k of the benchmark's n */
	BENCH_PROGRESS_CURRENT,  /* "Current": sequential, run k of about n */
	BENCH_PROGRESS_RUNS,     /* "Runs": interleaved, runs of all so far */
};

struct bench_progress {
	enum bench_progress_kind kind;
	size_t bench;           /* the benchmark that just ran */
	size_t done, total_hint;
	double estimate_s;      /* its mean wall time so far, NaN in warmups */
};

/*
 * What the runner tells its caller while it runs; every callback may be
 * NULL.  It never prints: a front end (report.c for the terminal) turns
 * these into output.  Order per benchmark: bench_start, progress (warmups,
 * then runs), runs_end, bench_done; messages in between as they happen.
 * With interleaving, other benchmarks' events come in between.
 */
struct bench_events {
	void *arg;
	/* Benchmark index starts: command resolved, the shell calibrated if
	 * it needs one; its setup and warmups follow. */
	void (*bench_start)(void *arg, size_t index, const struct bench_result *r);
	void (*progress)(void *arg, const struct bench_progress *p);
	/* Its runs are over (cleanup still to come). */
	void (*runs_end)(void *arg, size_t index);
	/*
	 * It ended (after its cleanup) and its report is due.  report_due
	 * false: it failed, nothing to report.  Sequential: right after its
	 * cleanup.  Interleaved and shuffled: in plan order, as far as the
	 * first benchmark still running, so a front end prints reports in
	 * that order as they come; after a failure or an interrupt, those
	 * that never started get no bench_done.  The runner keeps this order
	 * because it alone knows which benchmarks are in flight and which
	 * will never start.
	 */
	void (*bench_done)(void *arg, size_t index, const struct bench_result *r,
			   bool report_due);
	/* The results changed (see bench_done_fn). */
	bench_done_fn results;
	void (*message)(void *arg, const struct bench_message *m);
};

/* --precision with no --max-runs, --max-time (or --runs) gets this cap, so
 * a noisy command cannot run forever; the report says when it stopped one. */
#define BENCH_PRECISION_MAX_TIME_S 60.0
/* Apply that default to the stop rule; true if it did. */
bool bench_default_cap(struct plan_stop *stop);

/*
 * Why a benchmark stopped at a cap (STOP_MAX_RUNS, STOP_MAX_TIME) after n
 * runs, naming each goal it did not reach: "stopped at --max-time 3 s
 * before reaching --min-runs 10 and --min-time 3 s".  NULL for the other
 * reasons.  default_cap: the cap is bench_default_cap()'s.
 */
const char *bench_stop_text(enum stop_reason s, const struct plan_stop *stop,
			    bool default_cap, size_t n, double total_wall_s,
			    double rel_halfwidth, char *buf, size_t len);

/*
 * The pre-run checks, all before the first run so that a typo costs
 * nothing: the --input file, every --output file (opened here), the
 * engine, the counters, the shell, every command and hook resolved, a
 * script's missing #! interpreter.  Returns CBENCH_EXIT_OK and a runner in
 * *out, or the exit code of the first problem (sent as an error message
 * through ev, *out NULL).  Notes (dropped counters, the shuffle seed) go
 * through ev too.  ev is copied; opt, plan and ev->arg must outlive the
 * runner.
 */
struct bench_runner;
int bench_open(const struct bench_options *opt, const struct plan *plan,
	       const struct bench_events *ev, struct bench_runner **out);
/* Run everything into out (exit_code set); never prints, never exits. */
void bench_run(struct bench_runner *br, struct bench_outcome *out);
/* Close the files and the engine; NULL is a no-op. */
void bench_close(struct bench_runner *br);
/* An outcome with no results (a failed bench_open's), freeable. */
void bench_outcome_init(struct bench_outcome *out, int exit_code);
void bench_free_outcome(struct bench_outcome *out);

#endif
