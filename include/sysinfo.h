/*
 * sysinfo.h: where and when cbench runs, for the context block of exports,
 * the machine fingerprint of the results history and `cbench system check`.
 *
 * Everything is read once into a plain struct of fixed-size strings and
 * numbers, so exporters (and unit tests, which fill it by hand to keep
 * golden files stable) never touch the system.  Every reading comes from a
 * file under a root directory ("/" for this machine; a fixture tree in
 * tests), and each says when it could not be read: "" for strings, -1 for
 * numbers and tri-states, never a guess.
 */
#ifndef CBENCH_SYSINFO_H
#define CBENCH_SYSINFO_H

#include <stdint.h>
#include <time.h>

struct machine_info {
	char started_at[32];   /* ISO 8601 UTC, "2026-11-29T09:10:33Z" */
	char hostname[256];    /* proc/sys/kernel/hostname */
	char kernel[256];      /* "Linux 6.1.0-18-amd64" (ostype osrelease) */
	char cpu_model[256];   /* proc/cpuinfo "model name", "" if unknown */
	long cpus;             /* online cores, 0 if unknown */
	long cpus_configured;  /* cores present (sys/devices/system/cpu/present), 0 */
	int64_t mem_total;     /* bytes (proc/meminfo MemTotal), -1 */
	int64_t swap_total;    /* bytes (proc/meminfo SwapTotal), -1 */
	int64_t swap_used;     /* bytes (SwapTotal - SwapFree), -1 */
	double loadavg[3];     /* proc/loadavg, -1 each if unknown */
	char os_release[256];  /* etc/os-release PRETTY_NAME */
	char governor[64];     /* cpu0's cpufreq scaling_governor */
	char cpufreq_driver[64];  /* cpu0's cpufreq scaling_driver */
	int boost;             /* 1 on, 0 off (cpufreq/boost, intel_pstate/no_turbo), -1 */
	int smt;               /* 1 active, 0 not (sys/devices/system/cpu/smt/active), -1 */
	char isolated[256];    /* sys/devices/system/cpu/isolated ("" when none) */
	char nohz_full[256];   /* sys/devices/system/cpu/nohz_full ("" when none) */
	int isolation_known;   /* 1 when the isolated file was readable, else 0 */
	char clocksource[64];  /* sys/devices/system/clocksource/clocksource0/current_clocksource */
	char thp[32];          /* transparent huge pages: the selected word ("madvise") */
	int aslr;              /* proc/sys/kernel/randomize_va_space (0, 1, 2), -1 */
	int perf_paranoid;     /* proc/sys/kernel/perf_event_paranoid, -99 if unknown */
	int pmu;               /* 1: a "cpu" PMU in sys/bus/event_source/devices, 0 none, -1 */
	int hypervisor;        /* 1: "hypervisor" in proc/cpuinfo flags, 0 not, -1 */
	char container[32];    /* "docker", "podman", "lxc", ... ; "" none or unknown */
	int on_battery;        /* 1 on battery, 0 on mains (or no battery), -1 unknown */
	char compiler[64];     /* the compiler that built cbench ("gcc 12.2.0") */
};

/* Describe this machine; `now` is the start time to record. */
void sysinfo_collect(struct machine_info *out, time_t now);
/* The load averages now (proc/loadavg), -1 each if unknown. */
void sysinfo_loadavg(double la[3]);

/* The same, reading every file under `root` ("/" or a fixture tree). */
void sysinfo_collect_at(const char *root, struct machine_info *out, time_t now);

/*
 * The source state of a work tree: the git commit, branch and dirty flag
 * of `dir` (NULL: the current directory), overridden by the usual CI
 * variables (GITHUB_SHA and GITHUB_HEAD_REF/GITHUB_REF_NAME, CI_COMMIT_SHA
 * and CI_COMMIT_REF_NAME, BUILDKITE_COMMIT/BUILDKITE_BRANCH, GIT_COMMIT and
 * GIT_BRANCH of Jenkins).  Outside a work tree, or without git, every field
 * is unknown.
 */
struct source_state {
	char commit[64];       /* full hash, "" if unknown */
	char branch[256];      /* "" if unknown or detached */
	int dirty;             /* 1 uncommitted changes to tracked files, 0 clean, -1 */
	char from[32];         /* where it came from: "git", "GITHUB_SHA", ... ; "" */
};

void sysinfo_source_state(const char *dir, struct source_state *out);

#endif
