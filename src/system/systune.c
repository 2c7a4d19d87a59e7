/*
 * systune.c: tune and reset (systune.h).  The plan is made first (every
 * file read), the previous values saved (atomically: a temporary file
 * renamed into place), and only then is anything written, so a failure
 * at any point leaves a saved file that reset can undo.
 */
#include "systune.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void at(char *buf, size_t len, const char *root, const char *rel)
{
	snprintf(buf, len, "%s/%s", strcmp(root, "/") == 0 ? "" : root, rel);
}

/* The first line of ROOT/rel, trimmed, into buf.  0, or -1. */
static int read_value(const char *root, const char *rel, char *buf, size_t len)
{
	char path[4400];
	at(path, sizeof path, root, rel);
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return -1;
	bool ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int write_value(const char *root, const char *rel, const char *v,
		       char *err, size_t errlen)
{
	char path[4400];
	at(path, sizeof path, root, rel);
	FILE *f = fopen(path, "w");
	if (f == NULL || fprintf(f, "%s\n", v) < 0 || fclose(f) != 0) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

void systune_log_free(struct systune_log *log)
{
	free(log->v);
	memset(log, 0, sizeof *log);
}

/* Plan one change of rel to `to`, when the file is there and differs. */
static void plan(struct systune_log *log, const char *root, const char *rel,
		 const char *to)
{
	char cur[64];
	if (read_value(root, rel, cur, sizeof cur) != 0 || strcmp(cur, to) == 0)
		return;
	xgrow((void **)&log->v, &log->cap, log->n + 1, sizeof *log->v);
	struct systune_change *c = &log->v[log->n++];
	snprintf(c->path, sizeof c->path, "%s", rel);
	snprintf(c->from, sizeof c->from, "%s", cur);
	snprintf(c->to, sizeof c->to, "%s", to);
}

/* Every cpuN's governor that can be performance. */
static void plan_governors(struct systune_log *log, const char *root)
{
	char dir[4400];
	at(dir, sizeof dir, root, "sys/devices/system/cpu");
	DIR *d = opendir(dir);
	if (d == NULL)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		const char *n = e->d_name;
		if (strncmp(n, "cpu", 3) != 0 || n[3] < '0' || n[3] > '9' ||
		    strspn(n + 3, "0123456789") != strlen(n + 3))
			continue;
		char rel[160], avail[512];
		snprintf(rel, sizeof rel, "sys/devices/system/cpu/%.16s/cpufreq/"
			 "scaling_available_governors", n);
		if (read_value(root, rel, avail, sizeof avail) == 0 &&
		    strstr(avail, "performance") == NULL)
			continue;
		snprintf(rel, sizeof rel, "sys/devices/system/cpu/%.16s/cpufreq/"
			 "scaling_governor", n);
		plan(log, root, rel, "performance");
	}
	closedir(d);
}

/* mkdir -p of ROOT/run/cbench. */
static int make_saved_dir(const char *root, char *err, size_t errlen)
{
	const char *parts[] = {"run", "run/cbench"};
	for (size_t i = 0; i < 2; i++) {
		char path[4400];
		at(path, sizeof path, root, parts[i]);
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			snprintf(err, errlen, "cannot create '%s': %s", path,
				 strerror(errno));
			return -1;
		}
	}
	return 0;
}

static int save(const char *root, const struct systune_log *log, char *err,
		size_t errlen)
{
	char path[4400], tmp[4420];
	if (make_saved_dir(root, err, errlen) != 0)
		return -1;
	at(path, sizeof path, root, SYSTUNE_SAVED);
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	bool ok = f != NULL;
	for (size_t i = 0; ok && i < log->n; i++)
		ok = fprintf(f, "%s\t%s\n", log->v[i].path, log->v[i].from) >= 0;
	if (f && (fflush(f) != 0 || fsync(fileno(f)) != 0))
		ok = false;
	if (f && fclose(f) != 0)
		ok = false;
	if (!ok || rename(tmp, path) != 0) {
		snprintf(err, errlen, "cannot save the previous values in '%s': %s",
			 path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int systune_apply(const char *root, struct systune_log *log, char *err,
		  size_t errlen)
{
	memset(log, 0, sizeof *log);
	char path[4400];
	at(path, sizeof path, root, SYSTUNE_SAVED);
	if (access(path, F_OK) == 0) {
		snprintf(err, errlen, "already tuned (the previous values are in "
			 "'%s'): run 'cbench system reset' first", path);
		return -1;
	}
	plan_governors(log, root);
	plan(log, root, "sys/devices/system/cpu/cpufreq/boost", "0");
	plan(log, root, "sys/devices/system/cpu/intel_pstate/no_turbo", "1");
	plan(log, root, "proc/sys/kernel/perf_event_max_sample_rate", "1");
	if (log->n == 0)
		return 0;
	if (save(root, log, err, errlen) != 0)
		return -1;
	for (size_t i = 0; i < log->n; i++)
		if (write_value(root, log->v[i].path, log->v[i].to, err, errlen) != 0)
			return -1;
	return 0;
}

int systune_reset(const char *root, struct systune_log *log, char *err,
		  size_t errlen)
{
	memset(log, 0, sizeof *log);
	char path[4400], line[512];
	at(path, sizeof path, root, SYSTUNE_SAVED);
	FILE *f = fopen(path, "r");
	if (f == NULL && errno == ENOENT)
		return 1;
	if (f == NULL) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	int rc = 0;
	while (rc == 0 && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		char *tab = strchr(line, '\t');
		if (tab == NULL || strstr(line, "..") != NULL || line[0] == '/') {
			snprintf(err, errlen, "'%s': a line that is not PATH<TAB>VALUE: "
				 "'%s'", path, line);
			rc = -1;
			break;
		}
		*tab = '\0';
		xgrow((void **)&log->v, &log->cap, log->n + 1, sizeof *log->v);
		struct systune_change *c = &log->v[log->n++];
		snprintf(c->path, sizeof c->path, "%.159s", line);
		read_value(root, line, c->from, sizeof c->from);
		snprintf(c->to, sizeof c->to, "%s", tab + 1);
		rc = write_value(root, c->path, c->to, err, errlen);
	}
	fclose(f);
	if (rc == 0 && unlink(path) != 0) {
		snprintf(err, errlen, "cannot remove '%s': %s", path, strerror(errno));
		rc = -1;
	}
	return rc;
}
