/*
 * cpulist.h: CPU lists as the kernel writes them ("2", "0-3,6", the format
 * of /sys/devices/system/cpu/online and Cpus_allowed_list) to and from a
 * cpu_set_t, and the check that every CPU of a set is online.
 *
 * Pure except cpulist_check_online, which reads one file under a root
 * directory ("/" for this machine, a fixture tree in tests).
 */
#ifndef CBENCH_CPULIST_H
#define CBENCH_CPULIST_H

#include <sched.h>
#include <stddef.h>

/* Parse s ("2", "2-3,6"; no spaces, ranges ascending, CPUs below
 * CPU_SETSIZE) into *out.  Returns 0, or -1 with the reason in err. */
int cpulist_parse(const char *s, cpu_set_t *out, char *err, size_t errlen);

/* The canonical list of *set ("0-2,6"; "" when empty) into buf. */
void cpulist_format(const cpu_set_t *set, char *buf, size_t len);

/* Every CPU of *set is online according to ROOT/sys/devices/system/cpu/
 * online (without that file: below the number of configured CPUs).
 * Returns 0, or -1 with the first offline CPU named in err. */
int cpulist_check_online(const char *root, const cpu_set_t *set, char *err,
			 size_t errlen);

#endif
