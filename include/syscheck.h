/*
 * syscheck.h: `cbench system check`, what on this machine will spoil
 * measurements, item by item, each fine, a risk or unknown, with the
 * command that fixes it.
 *
 * Three steps, kept apart so the judgement is a pure function tested over
 * fixture trees of machines unlike this one:
 *
 *   syscheck_read   readings under a root directory ("/" or a fixture
 *                   tree): the shared machine description (sysinfo.h) and
 *                   what only the check needs (the busiest processes from
 *                   ROOT/proc/PID/stat, perf_event_max_sample_rate);
 *   syscheck_judge  readings -> items (no I/O);
 *   syscheck_json / syscheck_likely_cause   for `--json`, the exports'
 *                   context and the report's drift and spread warnings.
 *
 * The noise measurement (a fixed CPU-bound loop through the engine) lives
 * in noise.h.  Nothing here prints.
 */
#ifndef CBENCH_SYSCHECK_H
#define CBENCH_SYSCHECK_H

#include "sysinfo.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

enum check_verdict { CHECK_FINE, CHECK_RISK, CHECK_UNKNOWN };

/* One process's CPU use between two looks at ROOT/proc. */
struct check_proc {
	pid_t pid;
	char comm[32];
	double cpu;            /* CPUs' worth busy: 0.5 = half a core */
};

#define CHECK_PROCS 3

/* One process at one look: its CPU ticks so far (utime + stime). */
struct proc_entry {
	pid_t pid;
	char comm[32];
	uint64_t ticks;
	pid_t ppid;
};

/* A look at every process. */
struct proc_snapshot {
	struct proc_entry *v;
	size_t n;
	double at_s;           /* CLOCK_MONOTONIC when taken */
	bool known;            /* ROOT/proc could be listed */
};

struct check_readings {
	struct machine_info m;
	/* The busiest other processes (cbench excluded) over the interval
	 * between two snapshots, busiest first; procs_known false when
	 * ROOT/proc could not be read. */
	struct check_proc busy[CHECK_PROCS];
	size_t n_busy;
	bool procs_known;
	double busy_interval_s;
	/* The CPUs' worth of time every process but cbench's own used over
	 * the interval (from ROOT/proc/stat), NAN when not measured that
	 * way; then busy[] names the busiest now, over a short look. */
	double others_cpu;
	bool watched;          /* a watch's readings: others_cpu is the measure */
	int64_t perf_max_sample_rate;   /* proc/sys/kernel/..., -1 unknown */
};

#define CHECK_TEXT 256

struct check_item {
	const char *key;       /* JSON key: "governor", "boost", ... */
	const char *label;     /* terminal label: "CPU frequency governor" */
	enum check_verdict verdict;
	char reading[CHECK_TEXT];  /* what was read, in words */
	char why[CHECK_TEXT];      /* what it does to the numbers (risk, unknown) */
	char fix[CHECK_TEXT];      /* the command that fixes it, "" if none */
};

#define CHECK_ITEMS 16

struct syscheck {
	struct check_item item[CHECK_ITEMS];
	size_t n;
};

/* Look at every process under ROOT/proc (freed by proc_snapshot_free). */
void proc_snapshot_take(const char *root, struct proc_snapshot *s);
void proc_snapshot_free(struct proc_snapshot *s);

/* The busiest processes between a and b (b later), into r->busy; self,
 * its children and theirs (the launcher, the measured commands) excluded;
 * sets n_busy, procs_known and busy_interval_s. */
void syscheck_busiest(const struct proc_snapshot *a, const struct proc_snapshot *b,
		      pid_t self, struct check_readings *r);

/*
 * Every reading under root: the machine description (sysinfo_collect_at)
 * and the check's own, the processes looked at twice interval_s apart
 * (0: once, so their use reads 0 and the item says so).
 */
void syscheck_read(const char *root, double interval_s, struct check_readings *r);

/* The judgement: readings -> items.  Pure. */
void syscheck_judge(const struct check_readings *r, struct syscheck *out);

/* The item of this key, or NULL. */
const struct check_item *syscheck_find(const struct syscheck *c, const char *key);

/* "fine", "risk", "unknown". */
const char *syscheck_verdict_name(enum check_verdict v);

/*
 * The likeliest cause of drifting or widely spread run times among c's
 * risks, in a few words ("load average 2.1 on 2 cores"), into buf;
 * returns false (buf "") when no item is a risk that moves run times.
 * Order: other processes, load, battery, governor, boost, SMT, VM, swap,
 * transparent huge pages.
 */
bool syscheck_likely_cause(const struct syscheck *c, char *buf, size_t len);

/*
 * The CPU time the whole machine and cbench's own process tree have used
 * so far: ROOT/proc/stat's first line, cbench's and its reaped children's
 * rusage, and each live child's /proc/PID/stat (the launcher).  A few
 * files whatever the number of processes.
 */
struct cpu_account {
	double busy_s;         /* every CPU's user, nice, system, irq, softirq */
	double own_s;          /* cbench and its descendants */
	double at_s;           /* CLOCK_MONOTONIC */
	bool known;
};

void cpu_account_read(const char *root, struct cpu_account *a);

/* The other processes' CPUs' worth of use between a and b (b later), or
 * NAN when either is unknown or no time passed.  Pure. */
double cpu_account_others(const struct cpu_account *a, const struct cpu_account *b);

/*
 * The check around a benchmark: readings taken before the first run (the
 * load then is other work's, not the benchmark's; m, already collected by
 * the caller, or NULL to collect it) and the machine's CPU account; each
 * later syscheck_watch_check judges them with the other processes' CPU use
 * since then.  Only when that use is a risk are the processes listed, to
 * name the busiest (two looks 0.1 s apart, at most one every 5 s), so
 * the cost does not grow with the number of processes on the machine.
 * It holds no resources: nothing to free.
 */
struct syscheck_watch {
	struct check_readings r;
	struct cpu_account start;
	double named_at_s;     /* when busy[] was last filled, 0 never */
};

void syscheck_watch_start(struct syscheck_watch *w, const char *root,
			  const struct machine_info *m);
void syscheck_watch_check(struct syscheck_watch *w, const char *root,
			  struct syscheck *out);

/* The check as a cJSON object ({"items": [...]}); NULL: out of memory.
 * Returned as void * so callers need not include cJSON.h. */
void *syscheck_json(const struct syscheck *c);

#endif
