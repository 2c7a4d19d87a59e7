/*
 * cpulist.c: the kernel's CPU list format ("0-3,6", see cpuset(7), "List
 * format") parsed into and printed from a cpu_set_t, for --pin,
 * --pin-hooks and --pin-self and the system check's readings.
 */
#include "cpulist.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One CPU number at *p, moving *p past it.  -1 if there is none. */
static long cpu_number(const char **p)
{
	if (**p < '0' || **p > '9')
		return -1;
	char *end;
	errno = 0;
	long v = strtol(*p, &end, 10);
	if (errno != 0)
		return -1;
	*p = end;
	return v;
}

int cpulist_parse(const char *s, cpu_set_t *out, char *err, size_t errlen)
{
	CPU_ZERO(out);
	const char *p = s;
	if (*p == '\0') {
		snprintf(err, errlen, "an empty CPU list (expected e.g. 2 or 2-3,6)");
		return -1;
	}
	for (;;) {
		long lo = cpu_number(&p), hi = lo;
		if (lo >= 0 && *p == '-') {
			p++;
			hi = cpu_number(&p);
		}
		if (lo < 0 || hi < 0 || (*p != ',' && *p != '\0')) {
			snprintf(err, errlen, "'%s' is not a CPU list (expected e.g. "
				 "2 or 2-3,6)", s);
			return -1;
		}
		if (hi < lo) {
			snprintf(err, errlen, "'%s': the range %ld-%ld runs backwards",
				 s, lo, hi);
			return -1;
		}
		if (hi >= CPU_SETSIZE) {
			snprintf(err, errlen, "'%s': CPU %ld is beyond the largest "
				 "possible (%d)", s, hi, CPU_SETSIZE - 1);
			return -1;
		}
		for (long c = lo; c <= hi; c++)
			CPU_SET((int)c, out);
		if (*p == '\0')
			return 0;
		p++;
	}
}

void cpulist_format(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, set))
			continue;
		int e = c;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		int n = e == c ? snprintf(buf + used, len - used, "%s%d",
					  used ? "," : "", c)
			       : snprintf(buf + used, len - used, "%s%d-%d",
					  used ? "," : "", c, e);
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
		c = e;
	}
}

int cpulist_check_online(const char *root, const cpu_set_t *set, char *err,
			 size_t errlen)
{
	char path[4096], line[4096], why[256];
	snprintf(path, sizeof path, "%s/sys/devices/system/cpu/online",
		 strcmp(root, "/") == 0 ? "" : root);
	cpu_set_t online;
	FILE *f = fopen(path, "r");
	bool have = false;
	if (f) {
		if (fgets(line, sizeof line, f)) {
			line[strcspn(line, "\n")] = '\0';
			have = cpulist_parse(line, &online, why, sizeof why) == 0;
		}
		fclose(f);
	}
	if (!have) {
		long n = sysconf(_SC_NPROCESSORS_CONF);
		CPU_ZERO(&online);
		for (long c = 0; c < n && c < CPU_SETSIZE; c++)
			CPU_SET((int)c, &online);
	}
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, set) && !CPU_ISSET(c, &online)) {
			char list[512];
			cpulist_format(&online, list, sizeof list);
			snprintf(err, errlen, "CPU %d is not online (online: %s)", c,
				 list[0] ? list : "none");
			return -1;
		}
	}
	return 0;
}
