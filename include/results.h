/*
 * results.h: what a benchmark collected, run by run.
 *
 * Every measured quantity is a *metric* with a fixed id: wall time, user and
 * system time, peak RSS, rusage fault and context-switch counts, and one per
 * perf counter.  A benchmark stores, for each metric it measures, one double
 * per run (a column), so adding runs costs a few bytes per metric and all
 * statistics read plain arrays.  NaN in a column means "not counted in that
 * run".  Units: seconds for times, bytes for memory, plain counts otherwise.
 *
 * Ownership: results_new() returns a benchmark freed by results_free(); the
 * strings given to it are copied.
 */
#ifndef CBENCH_RESULTS_H
#define CBENCH_RESULTS_H

#include "counters.h"
#include "spawn.h"

struct profile;

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A command is CPU-bound when its CPU time reaches this share of its wall
 * time in some run (one that sleeps or reads never does, however quiet
 * the machine): the gate's, the CI exports' and history detect's rule. */
#define CPU_BOUND_SHARE 0.75

enum metric_id {
	MET_WALL,
	MET_USER,
	MET_SYSTEM,
	MET_MAX_RSS,
	MET_MINFLT,
	MET_MAJFLT,
	MET_VCSW,
	MET_IVCSW,
	MET_CTR_FIRST,               /* MET_CTR_FIRST + counter_id */
	/* --counters sim, sim-cache: counted by Valgrind's simulated CPU
	 * (simcpu.h), every process of the command summed */
	MET_SIM_FIRST = MET_CTR_FIRST + CTR_MAX,
	MET_SIM_INSTRUCTIONS = MET_SIM_FIRST,   /* Ir */
	MET_SIM_CYCLES,              /* estimated (vgout_estimated_cycles) */
	MET_SIM_I1_MISSES,           /* I1mr */
	MET_SIM_D1_READ_MISSES,      /* D1mr */
	MET_SIM_D1_WRITE_MISSES,     /* D1mw */
	MET_SIM_LL_INSTR_MISSES,     /* ILmr */
	MET_SIM_LL_READ_MISSES,      /* DLmr */
	MET_SIM_LL_WRITE_MISSES,     /* DLmw */
	MET_SIM_END,
	/* --metric NAME=REGEX: slots defined at run time (metric_define) */
	MET_CUSTOM_FIRST = MET_SIM_END,
	MET_COUNT = MET_CUSTOM_FIRST + 8
};
#define MET_CUSTOM_MAX (MET_COUNT - MET_CUSTOM_FIRST)

/* UNIT_CUSTOM: a number read from the command's output, in the unit text
 * its definition gave (metric_info.unit_text, maybe ""). */
enum metric_unit { UNIT_SECONDS, UNIT_BYTES, UNIT_COUNT, UNIT_CUSTOM };

struct metric_info {
	const char *key;     /* JSON/CSV key, e.g. "wall_time", "instructions" */
	const char *label;   /* terminal label, e.g. "Peak RSS", "instructions" */
	enum metric_unit unit;
	bool shell_corrected; /* shell start-up cost is subtracted from it */
	bool custom;          /* defined by --metric (or read from a file) */
	bool higher_is_better; /* a rise is an improvement (custom only) */
	bool simulated;       /* counted by a simulated CPU: the same in
				 every run of a deterministic program */
	const char *unit_text; /* UNIT_CUSTOM: the unit's name, maybe "" */
	const char *pattern;   /* custom: the regular expression, or NULL
				  when the definition was read from a file */
};

/* The metric's description; for a custom slot not defined (yet), one whose
 * key and label are "" (so loops over every metric need no check, and
 * metric_defined() tells). */
const struct metric_info *metric_info(enum metric_id id);
bool metric_defined(enum metric_id id);
/* Look up a metric by key or label (case-insensitive); -1 if unknown. */
int metric_lookup(const char *name);

/*
 * Define a custom metric (process-wide, as the built-in ones are): its key
 * (also its label), unit text (NULL or "": none), direction and pattern
 * (NULL: read from a file).  Returns its id, the existing id when a custom
 * metric of that key is defined already with the same unit and direction,
 * or -1 with a message: a key that is not [A-Za-z_][A-Za-z0-9_]* (at most
 * 40 characters), that names a built-in metric, that was defined with a
 * different unit or direction, or when MET_CUSTOM_MAX are defined.
 */
/* Could key name a custom metric: [A-Za-z_][A-Za-z0-9_]*, at most 40? */
bool metric_name_valid(const char *key);
int metric_define(const char *key, const char *unit_text, bool higher_is_better,
		  const char *pattern, char *err, size_t errlen);
/* Forget every custom metric (for tests). */
void metric_undefine_all(void);

/* Per-run flags. */
enum {
	RUN_TIMED_OUT = 1 << 0,
	RUN_FAILED = 1 << 1,         /* non-zero exit or signal (ignored by -i) */
	RUN_OUTLIER_MILD = 1 << 2,
	RUN_OUTLIER_SEVERE = 1 << 3,
};

struct param_value {
	char *name;
	char *value;
};

struct bench_result {
	char *name;            /* display name (-n or the command line) */
	char *short_name;      /* the name without the parameters it does not
				  show (hyperfine's "command"), NULL: name */
	char *command;         /* the real command line, parameters substituted */
	struct param_value *params;
	size_t n_params;
	bool via_shell;        /* run through a shell, with overhead subtracted */
	/* With via_shell: the standard error of the overhead subtracted from
	 * each metric (0: none), from shell_pairs calibration pairs. */
	double shell_se[MET_COUNT];
	size_t shell_pairs;
	/* With via_shell, once the side band measured the shell's own time:
	 * whether the line was found to run shell code of its own, for the
	 * wall time and the task-clock (then only the typical start-up was
	 * taken off its runs, not each run's own). */
	bool shell_own_decided;
	bool shell_own_code[2];

	size_t n_runs, cap;
	double total_wall_s;   /* sum of the wall-time column */
	bool has[MET_COUNT];   /* is the metric measured at all */
	double *col[MET_COUNT];
	int *exit_codes;       /* exit code, or -signal for a killed command */
	int32_t *env_pad;      /* --randomize-layout: bytes of environment
				  padding per run; NULL when not padded */
	uint8_t *flags;

	/* Per run: when it started (seconds since the Unix epoch, read just
	 * before it was spawned) and its place among all the measured runs of
	 * the invocation (1, 2, ... in the order they ran, across benchmarks);
	 * NaN when not known (results built by hand, or read back). */
	double *started_s;
	double *run_index;
	bool interrupted;      /* stopped by Ctrl-C/SIGTERM before its last run */
	size_t group;          /* its state group (plan_bench.group): only
				  benchmarks of one group took turns, so
				  only they are compared by rounds */
	bool exec_exact;       /* every run measured from the exec stop */
	char *stop_reason;     /* why adaptive running stopped, or NULL */
	/* --precision with a history: the spread of the wall-time mean
	 * between invocations (between.h) and the earlier invocations it
	 * came from; NaN and 0 when not learned. */
	double between_tau;
	size_t between_k;
	/* --profile: its per-function profile (profile.h) and the file
	 * callgrind's first process wrote, kept; NULL when not profiled. */
	struct profile *profile;
	char *profile_file;
};

/* Free an array of n parameter values and the strings in it. */
void param_values_free(struct param_value *params, size_t n);

struct bench_result *results_new(const char *name, const char *command,
				 const struct param_value *params, size_t n_params);
void results_free(struct bench_result *r);
/* Set the short name (a copy; NULL: the name). */
void results_set_short_name(struct bench_result *r, const char *short_name);
/* hyperfine's "command" of r: its short name, else its name. */
const char *results_short_name(const struct bench_result *r);
/* Mark which metrics this benchmark measures (before the first run). */
void results_enable(struct bench_result *r, enum metric_id id);
/* Append one run; values for metrics not enabled are ignored. */
void results_add_run(struct bench_result *r, const double value[MET_COUNT],
		     int exit_code, uint8_t flags);
/* Set the start time and invocation-wide index of the last run added. */
void results_set_run_info(struct bench_result *r, double started_s,
			  double run_index);
/* --randomize-layout: run k (already added) had pad bytes of padding. */
void results_set_env_pad(struct bench_result *r, size_t k, int32_t pad);
/* Fill value[] from a spawn result. */
void results_values_from_spawn(const struct spawn_result *s,
			       double value[MET_COUNT]);
/* Total measured wall time so far. */
double results_total_wall(const struct bench_result *r);

#endif
