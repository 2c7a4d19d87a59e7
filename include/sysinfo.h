/*
 * sysinfo.h: where and when cbench runs, for the context block of exports:
 * start time, host name, kernel, CPU model and online core count.
 *
 * Everything is read once at start-up into a plain struct of fixed-size
 * strings, so exporters (and unit tests, which fill it by hand to keep
 * golden files stable) never touch the system.
 */
#ifndef CBENCH_SYSINFO_H
#define CBENCH_SYSINFO_H

#include <time.h>

struct machine_info {
	char started_at[32];   /* ISO 8601 UTC, "2026-11-29T09:10:33Z" */
	char hostname[256];
	char kernel[256];      /* "Linux 6.1.0-18-amd64" (uname -sr) */
	char cpu_model[256];   /* /proc/cpuinfo "model name", "" if unknown */
	long cpus;             /* online cores, 0 if unknown */
};

/* Describe this machine; `now` is the start time to record. */
void sysinfo_collect(struct machine_info *out, time_t now);

#endif
