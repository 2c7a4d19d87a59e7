/*
 * counters.h: per-run performance counters through perf_event_open(2).
 *
 * counters.c is the only file that talks to perf_event_open.  It knows the
 * events cbench can count, probes once which of them this machine allows and
 * why the others are refused, opens a fresh set of counters on a frozen child
 * for every run, and reads them (scaled for multiplexing) after the child is
 * reaped.  A counter that never ran is "not counted" (NaN), never 0.
 *
 * Ownership: counters_new() returns a set freed with counters_free().
 */
#ifndef CBENCH_COUNTERS_H
#define CBENCH_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Size of a one-line reason buffer. */
#define DIAG_WHY_MAX 256

enum counter_id {
	CTR_TASK_CLOCK,       /* seconds of CPU time, from the kernel's task clock */
	CTR_PAGE_FAULTS,      /* page faults taken by the command */
	CTR_INSTRUCTIONS,
	CTR_CYCLES,
	CTR_CACHE_REFERENCES,
	CTR_CACHE_MISSES,
	CTR_BRANCHES,
	CTR_BRANCH_MISSES,
	CTR_MAX
};

struct counter_info {
	const char *name;        /* perf's name: "task-clock", "instructions" */
	const char *key;         /* JSON/CSV key: "task_clock", "instructions" */
	const char *help;
	bool hardware;           /* needs a PMU */
	bool is_default;         /* counted when --counters is not given */
	bool is_time;            /* value is in seconds */
};

const struct counter_info *counters_info(enum counter_id id);
/* Look an event up by perf name or key; -1 if unknown. */
int counters_lookup(const char *name);

/* Values of one run; NaN means "not counted". */
struct counter_values {
	double value[CTR_MAX];
	/* Fraction of the run the counter was scheduled (1.0 unless multiplexed). */
	double running_fraction[CTR_MAX];
};

struct counters;

/*
 * Build the set of events from a --counters spec: NULL for the defaults
 * (what this machine can count of the default set), "none", or a comma list
 * of names.  Probes every requested event once.  Returns 0, or -1 with a
 * message in err: an unknown name (*usage set to true) or an explicitly
 * requested event the machine cannot count (*usage false).
 */
int counters_new(struct counters **out, const char *spec, bool *usage,
		 char *err, size_t errlen);
void counters_free(struct counters *c);

/* Is the event selected and countable for every run? */
bool counters_enabled(const struct counters *c, enum counter_id id);
size_t counters_count(const struct counters *c);
/* One line describing why default events were dropped, or NULL. */
const char *counters_dropped_reason(const struct counters *c);
/* Whether hardware counters (a PMU) are usable here. */
bool counters_have_pmu(const struct counters *c);
/* Whether kernel-mode counting is excluded (unprivileged). */
bool counters_user_only(const struct counters *c);

/*
 * Open this run's counters on pid, which must be stopped (frozen at exec)
 * or parked.  enable_on_exec selects perf stat's mode for a child that has
 * not exec'd yet.  Returns 0 or -1 with a message in err.
 */
int counters_open(struct counters *c, pid_t pid, bool enable_on_exec,
		  char *err, size_t errlen);
/* Read the counters opened by counters_open.  Their descriptors are
 * closed by the next counters_release (or counters_open's caller's next
 * release, counters_close, counters_free): closing costs about as much as
 * opening, so the engine does it while the next command runs. */
int counters_read(struct counters *c, struct counter_values *out,
		  char *err, size_t errlen);
/* Close the descriptors of runs already read.  Cheap when there are none. */
void counters_release(struct counters *c);
/* Close without reading (error paths). */
void counters_close(struct counters *c);

/*
 * Scale a raw count for multiplexing: value * enabled / running.  Returns
 * NaN when the counter never ran (running == 0): "not counted".
 */
double counters_scale(uint64_t raw, uint64_t enabled, uint64_t running);

/* Explain an errno from perf_event_open for an event, in one line. */
void counters_explain(int err, bool hardware, int paranoid, char *buf,
		      size_t buflen);

/* Test hook: replace the perf_event_open syscall (and read) so the hardware
 * path can be exercised on machines without a PMU.  NULL restores. */
struct counters_ops {
	int (*open)(void *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags);
	ssize_t (*read)(int fd, void *buf, size_t len);
	int (*paranoid)(void);
};
void counters_set_ops(const struct counters_ops *ops);

#endif
