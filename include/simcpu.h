/*
 * simcpu.h: measured runs on Valgrind's simulated CPU (--counters sim,
 * sim-cache).
 *
 * Each measured run executes as `valgrind --tool=cachegrind
 * --trace-children=yes ... PROGRAM ARGS`, so the command and every process
 * it starts are counted, on any machine, whatever else the machine does:
 * the same program with the same input and environment gives the same
 * instruction count.  Every process leaves its own files in a private
 * directory (one out file, one log); simcpu_collect() sums them after the
 * run is reaped and removes them.
 *
 * What the files cannot show is said rather than hidden: a process that
 * forks without exec (a subshell) holds its parent's counts up to the fork
 * too (vgout.h), and is counted (forked); Valgrind's own refusal (an
 * instruction it cannot simulate, a program it cannot start) comes back
 * as its message.
 *
 * Ownership: simcpu_new() returns a context freed with simcpu_free(),
 * which removes its directory; simcpu_argv() returns an argv freed with
 * simcpu_argv_free().  Library-style: nothing here prints or exits.
 */
#ifndef CBENCH_SIMCPU_H
#define CBENCH_SIMCPU_H

#include "vgout.h"

#include <stdbool.h>
#include <stddef.h>

enum sim_mode {
	SIM_OFF,
	SIM_COUNTS,     /* --counters sim: instructions */
	SIM_CACHE,      /* --counters sim-cache: and the cache simulation */
};

/* The mode a --counters spec asks for: "sim", "sim-cache", else SIM_OFF. */
enum sim_mode simcpu_mode(const char *spec);

struct simcpu;

/*
 * Find valgrind on PATH and make the private directory (under $TMPDIR, or
 * /tmp).  Returns 0, or -1 with a one-line message (Valgrind missing: the
 * package that brings it).
 */
int simcpu_new(struct simcpu **out, enum sim_mode mode, char *err, size_t errlen);
void simcpu_free(struct simcpu *s);
/* The valgrind program's path. */
const char *simcpu_path(const struct simcpu *s);

/* The argv of a measured run of program path with its argv (argv[0]
 * kept as the program's). */
char **simcpu_argv(const struct simcpu *s, const char *path, char *const *argv);
void simcpu_argv_free(char **argv);

/* One run's counts. */
struct sim_run {
	struct sim_counts c;
	size_t processes;       /* out files: processes counted */
	size_t forked;          /* of them, forked without exec (their
				   parent's counts before the fork again) */
	size_t escaped;         /* processes still running outside the
				   run's process group: their counts are
				   missing (they write them when they end) */
	char version[32];       /* "3.19.0", from the logs; "" if not seen */
	/* Valgrind's own complaint, from the logs ("" if none): an
	 * instruction it cannot simulate, a program it cannot run. */
	char complaint[256];
};

/*
 * Read and sum what the last run left, then remove it.  Returns 0, or -1
 * with a message when no count could be read (no out file: the run was
 * killed, or Valgrind could not start it; out->complaint says what
 * Valgrind said, if anything).
 */
int simcpu_collect(struct simcpu *s, struct sim_run *out, char *err, size_t errlen);
/* Remove what a run left without reading it (a failed or killed run). */
void simcpu_discard(struct simcpu *s);

/* --profile: the argv of a profiling run, under callgrind (one per
 * benchmark, after its measured runs: its counts are exact too). */
char **simcpu_profile_argv(const struct simcpu *s, const char *path,
			   char *const *argv);

struct profile;
/*
 * Read what the profiling run left into p (profile.h), keep callgrind's
 * own files for KCachegrind and callgrind_annotate as keep_dir/NAME,
 * NAME.2, NAME.3, ... (one per process, the first process's first), and
 * remove them here.  Returns 0, or -1 with a message (Valgrind's
 * complaint, when it had one, in complaint).
 */
int simcpu_collect_profile(struct simcpu *s, struct profile *p,
			   const char *keep_dir, const char *name,
			   char *complaint, size_t clen, char *err, size_t errlen);

#endif
