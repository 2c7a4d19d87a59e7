/*
 * sysinfo.c: collects the machine description exports carry (see
 * sysinfo.h): uname(2) for the host and kernel, /proc/cpuinfo for the CPU
 * model (the "model name" line on x86, "Model"/"cpu model"/"Processor" on
 * some other architectures), sysconf for the core count.  Anything that
 * cannot be read is left empty rather than failing: a benchmark is worth
 * more than a complete description of where it ran.
 */
#include "sysinfo.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Copy s into a buffer of len bytes, trimming surrounding white space. */
static void copy_trimmed(char *dst, size_t len, const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static void read_cpu_model(char *dst, size_t len)
{
	static const char *const keys[] = {"model name", "cpu model", "Model",
					   "Processor", "cpu"};
	FILE *f = fopen("/proc/cpuinfo", "r");
	dst[0] = '\0';
	if (f == NULL)
		return;
	char line[512];
	int best = (int)(sizeof keys / sizeof keys[0]);
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (colon == NULL)
			continue;
		*colon = '\0';
		char key[64];
		copy_trimmed(key, sizeof key, line);
		for (int k = 0; k < best; k++) {
			if (strcasecmp(key, keys[k]) == 0) {
				copy_trimmed(dst, len, colon + 1);
				best = k;
				break;
			}
		}
		if (best == 0)
			break;
	}
	fclose(f);
}

void sysinfo_collect(struct machine_info *out, time_t now)
{
	memset(out, 0, sizeof *out);
	struct tm tm;
	if (gmtime_r(&now, &tm))
		strftime(out->started_at, sizeof out->started_at,
			 "%Y-%m-%dT%H:%M:%SZ", &tm);
	struct utsname u;
	if (uname(&u) == 0) {
		copy_trimmed(out->hostname, sizeof out->hostname, u.nodename);
		snprintf(out->kernel, sizeof out->kernel, "%s %s", u.sysname,
			 u.release);
	}
	read_cpu_model(out->cpu_model, sizeof out->cpu_model);
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	out->cpus = n > 0 ? n : 0;
}
