/*
 * systune.h: `cbench system tune` and `cbench system reset`: apply what
 * the check recommends that can be undone, saving the previous values,
 * and put them back.
 *
 * Every path is under a root directory ("/" for this machine; a fixture
 * tree in tests, so the tests never touch the real one).  Tuned:
 *   sys/devices/system/cpu/cpuN/cpufreq/scaling_governor  -> performance
 *   sys/devices/system/cpu/cpufreq/boost                  -> 0
 *   sys/devices/system/cpu/intel_pstate/no_turbo          -> 1
 *   proc/sys/kernel/perf_event_max_sample_rate            -> 1
 * (each only where the file exists and differs; a governor only where
 * scaling_available_governors, when readable, offers performance).  The
 * previous values go to ROOT/run/cbench/tune.saved ("PATH<TAB>VALUE" per
 * line, PATH relative to the root) before anything is changed.  Nothing
 * here prints; whether the caller may write these files (root) is the
 * caller's check.
 */
#ifndef CBENCH_SYSTUNE_H
#define CBENCH_SYSTUNE_H

#include <stddef.h>

#define SYSTUNE_SAVED "run/cbench/tune.saved"

struct systune_change {
	char path[160];            /* relative to the root */
	char from[64], to[64];
};

/* What was changed (or restored), for the caller to show. */
struct systune_log {
	struct systune_change *v;
	size_t n, cap;
};

void systune_log_free(struct systune_log *log);

/* Tune.  Returns 0 (log says what changed, possibly nothing), or -1 with
 * a message: already tuned (a saved file exists), or a file that could
 * not be saved or written (what was changed before stays in the saved
 * file, so reset undoes it). */
int systune_apply(const char *root, struct systune_log *log, char *err,
		  size_t errlen);

/* Restore the saved values and remove the saved file.  Returns 0, 1 when
 * there was nothing saved, or -1 with a message (the file is kept). */
int systune_reset(const char *root, struct systune_log *log, char *err,
		  size_t errlen);

#endif
