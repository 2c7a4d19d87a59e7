/*
 * simcpu.c: measured runs under Valgrind's cachegrind (see simcpu.h).
 *
 * Valgrind writes, per process, an out file (--cachegrind-out-file with
 * %p) and a log (--log-file with %p: its messages stay out of the
 * command's own stderr).  A log's preamble names the process's command
 * and its parent (`==PID== Command: ...`, `==PID== Parent PID: N`): a
 * process whose parent is one of the run's and runs the same command line
 * forked without exec, which is how simcpu_collect() tells such processes
 * (their out file holds the parent's counts up to the fork as well).
 */
#include "simcpu.h"
#include "cmdline.h"
#include "profile.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct simcpu {
	enum sim_mode mode;
	char *valgrind;     /* its path */
	char *dir;          /* the private directory */
	char *out_opt, *log_opt, *cl_opt;
};

enum sim_mode simcpu_mode(const char *spec)
{
	if (spec && strcmp(spec, "sim") == 0)
		return SIM_COUNTS;
	if (spec && strcmp(spec, "sim-cache") == 0)
		return SIM_CACHE;
	return SIM_OFF;
}

/* dir with every % doubled: Valgrind reads %p, %q{VAR} and %% in its
 * file names, so a literal one must be written %%. */
static char *vg_escaped(const char *dir)
{
	size_t n = 0;
	for (const char *p = dir; *p; p++)
		n += *p == '%' ? 2 : 1;
	char *e = xmalloc(n + 1), *q = e;
	for (const char *p = dir; *p; p++) {
		*q++ = *p;
		if (*p == '%')
			*q++ = '%';
	}
	*q = '\0';
	return e;
}

int simcpu_new(struct simcpu **out, enum sim_mode mode, char *err, size_t errlen)
{
	*out = NULL;
	char *vg = cmdline_resolve("valgrind");
	if (vg == NULL) {
		snprintf(err, errlen, "--counters %s runs each command under "
			 "Valgrind, which is not installed (Debian and Ubuntu: "
			 "apt-get install valgrind)",
			 mode == SIM_CACHE ? "sim-cache" : "sim");
		return -1;
	}
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/cbench-sim-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL) {
		snprintf(err, errlen, "cannot make a directory for Valgrind's "
			 "files in %s: %s", tmp && *tmp ? tmp : "/tmp",
			 strerror(errno));
		free(vg);
		free(dir);
		return -1;
	}
	struct simcpu *s = xcalloc(1, sizeof *s);
	s->mode = mode;
	s->valgrind = vg;
	s->dir = dir;
	char *esc = vg_escaped(dir);
	s->out_opt = xasprintf("--cachegrind-out-file=%s/cg.%%p", esc);
	s->log_opt = xasprintf("--log-file=%s/vg.%%p", esc);
	s->cl_opt = xasprintf("--callgrind-out-file=%s/cl.%%p", esc);
	free(esc);
	*out = s;
	return 0;
}

void simcpu_free(struct simcpu *s)
{
	if (s == NULL)
		return;
	simcpu_discard(s);
	rmdir(s->dir);
	free(s->valgrind);
	free(s->dir);
	free(s->out_opt);
	free(s->log_opt);
	free(s->cl_opt);
	free(s);
}

const char *simcpu_path(const struct simcpu *s)
{
	return s->valgrind;
}

/* valgrind's options opts[0..no), then the program and its arguments. */
static char **wrapped(const char *const *opts, size_t no, const char *path,
		      char *const *argv)
{
	size_t na = 0;
	while (argv[na])
		na++;
	char **v = xcalloc(no + na + 1, sizeof *v);
	for (size_t i = 0; i < no; i++)
		v[i] = xstrdup(opts[i]);
	/* The program by its path (Valgrind would search PATH again), then
	 * its own arguments; Valgrind gives it argv[0] = that path. */
	v[no] = xstrdup(path);
	for (size_t i = 1; i < na; i++)
		v[no + i] = xstrdup(argv[i]);
	return v;
}

char **simcpu_argv(const struct simcpu *s, const char *path, char *const *argv)
{
	const char *opts[] = {
		"valgrind", "--tool=cachegrind",
		s->mode == SIM_CACHE ? "--cache-sim=yes" : "--cache-sim=no",
		"--branch-sim=no", "--trace-children=yes", s->out_opt, s->log_opt,
	};
	return wrapped(opts, sizeof opts / sizeof opts[0], path, argv);
}

char **simcpu_profile_argv(const struct simcpu *s, const char *path,
			   char *const *argv)
{
	const char *opts[] = {
		"valgrind", "--tool=callgrind", "--trace-children=yes",
		s->cl_opt, s->log_opt,
	};
	return wrapped(opts, sizeof opts / sizeof opts[0], path, argv);
}

void simcpu_argv_free(char **argv)
{
	for (size_t i = 0; argv && argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* ---- the logs ---- */

struct proc {
	long pid, ppid;
	char *cmd;          /* the preamble's command line */
};

struct logs {
	struct proc *p;
	size_t n, cap;
	struct sim_run *run;
};

/* Valgrind's lines that say it could not do its work. */
static bool complaint_line(const char *l)
{
	return strstr(l, "unhandled instruction") != NULL ||
	       strncmp(l, "valgrind: ", 10) == 0 ||
	       strstr(l, "Fatal error") != NULL ||
	       strstr(l, "cannot execute") != NULL;
}

static int read_log(void *arg, const char *path, char *err, size_t errlen)
{
	struct logs *lg = arg;
	size_t len;
	char *text = vgout_read_file(path, &len, err, errlen);
	if (text == NULL)
		return -1;
	struct proc pr = {.pid = -1, .ppid = -1};
	for (char *l = text, *next; l && *l; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		/* "==PID== rest" or "--PID-- rest" */
		char *rest = l;
		long pid = -1;
		if ((l[0] == '=' || l[0] == '-') && l[1] == l[0]) {
			pid = strtol(l + 2, &rest, 10);
			if (rest[0] == l[0] && rest[1] == l[0])
				rest += 2;
			if (*rest == ' ')
				rest++;
		}
		if (strncmp(rest, "Command: ", 9) == 0 && pr.cmd == NULL) {
			pr.pid = pid;
			pr.cmd = xstrdup(rest + 9);
		} else if (strncmp(rest, "Parent PID: ", 12) == 0) {
			pr.ppid = strtol(rest + 12, NULL, 10);
		} else if (strncmp(rest, "Using Valgrind-", 15) == 0 &&
			   lg->run->version[0] == '\0') {
			snprintf(lg->run->version, sizeof lg->run->version, "%.*s",
				 (int)strcspn(rest + 15, " "), rest + 15);
		} else if (complaint_line(rest) && lg->run->complaint[0] == '\0') {
			snprintf(lg->run->complaint, sizeof lg->run->complaint,
				 "%s", rest);
		}
	}
	free(text);
	if (pr.cmd) {
		xgrow((void **)&lg->p, &lg->cap, lg->n + 1, sizeof *lg->p);
		lg->p[lg->n++] = pr;
	}
	return 0;
}

/* Processes whose parent is one of the run's with the same command, and
 * that wrote their counts (a background job killed at the command's end,
 * perhaps between its fork and its exec, wrote none). */
static size_t forked_without_exec(const struct logs *lg, const char *dir)
{
	size_t forked = 0;
	for (size_t i = 0; i < lg->n; i++) {
		char *out = xasprintf("%s/cg.%ld", dir, lg->p[i].pid);
		bool counted = access(out, F_OK) == 0;
		free(out);
		for (size_t j = 0; j < lg->n && counted; j++)
			if (lg->p[i].ppid == lg->p[j].pid && i != j &&
			    strcmp(lg->p[i].cmd, lg->p[j].cmd) == 0) {
				forked++;
				break;
			}
	}
	return forked;
}

/* Is pid alive (not a zombie) and outside process group pgid? */
static bool outside_group(long pid, long pgid)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return false;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* pid (comm) state ppid pgrp ...; comm may hold spaces and ')' */
	char *p = strrchr(buf, ')');
	char state;
	long ppid, pgrp;
	if (p == NULL || sscanf(p + 1, " %c %ld %ld", &state, &ppid, &pgrp) != 3)
		return false;
	return state != 'Z' && state != 'X' && pgrp != pgid;
}

/* Processes of the run that wrote no counts and still run outside its
 * process group (the root's: the first process, whose parent is none of
 * the run's): they escaped it (setsid), and their counts would come in
 * later. */
static size_t escaped(const struct logs *lg, const char *dir)
{
	long root = -1;
	for (size_t i = 0; i < lg->n && root < 0; i++) {
		bool child = false;
		for (size_t j = 0; j < lg->n && !child; j++)
			child = lg->p[i].ppid == lg->p[j].pid && i != j;
		if (!child)
			root = lg->p[i].pid;
	}
	size_t n = 0;
	for (size_t i = 0; i < lg->n && root >= 0; i++) {
		char *out = xasprintf("%s/cg.%ld", dir, lg->p[i].pid);
		bool counted = access(out, F_OK) == 0;
		free(out);
		n += !counted && outside_group(lg->p[i].pid, root);
	}
	return n;
}

int simcpu_collect(struct simcpu *s, struct sim_run *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	struct logs lg = {.run = out};
	char ignored[256];
	size_t nlogs = 0;
	/* The logs first: their complaint explains a missing out file. */
	vgout_each_file(s->dir, "vg.", read_log, &lg, &nlogs, ignored,
			sizeof ignored);
	out->forked = forked_without_exec(&lg, s->dir);
	out->escaped = escaped(&lg, s->dir);
	for (size_t i = 0; i < lg.n; i++)
		free(lg.p[i].cmd);
	free(lg.p);
	int rc = vgout_add_dir(&out->c, s->dir, "cg.", &out->processes, err, errlen);
	simcpu_discard(s);
	return rc;
}

/* Copy from to a new file to (never over an existing one).  0 or -1. */
static int copy_new(const char *from, const char *to, char *err, size_t errlen)
{
	FILE *in = fopen(from, "rb");
	int fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
	int rc = in && out ? 0 : -1;
	char buf[65536];
	size_t n;
	while (rc == 0 && (n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			rc = -1;
	if (rc == 0 && ferror(in))
		rc = -1;
	if (rc != 0)
		snprintf(err, errlen, "cannot keep callgrind's file as %s: %s", to,
			 strerror(errno ? errno : EIO));
	if (in)
		fclose(in);
	if (out) {
		if (fclose(out) != 0 && rc == 0) {
			snprintf(err, errlen, "cannot write %s: %s", to, strerror(errno));
			rc = -1;
		}
	} else if (fd >= 0) {
		close(fd);
	}
	if (rc != 0 && fd >= 0)
		unlink(to);
	return rc;
}

struct keep {
	const char *dir, *name;
	size_t k;
};

static int keep_one(void *arg, const char *path, char *err, size_t errlen)
{
	struct keep *kp = arg;
	char *to = kp->k == 0 ? xasprintf("%s/%s", kp->dir, kp->name)
			      : xasprintf("%s/%s.%zu", kp->dir, kp->name, kp->k + 1);
	kp->k++;
	int rc = copy_new(path, to, err, errlen);
	free(to);
	return rc;
}

int simcpu_collect_profile(struct simcpu *s, struct profile *p,
			   const char *keep_dir, const char *name,
			   char *complaint, size_t clen, char *err, size_t errlen)
{
	struct sim_run sr;
	memset(&sr, 0, sizeof sr);
	struct logs lg = {.run = &sr};
	char ignored[256];
	size_t n = 0;
	vgout_each_file(s->dir, "vg.", read_log, &lg, &n, ignored, sizeof ignored);
	for (size_t i = 0; i < lg.n; i++)
		free(lg.p[i].cmd);
	free(lg.p);
	snprintf(complaint, clen, "%s", sr.complaint);
	int rc = profile_add_dir(p, s->dir, "cl.", &n, err, errlen);
	struct keep kp = {keep_dir, name, 0};
	if (rc == 0 && keep_dir)
		rc = vgout_each_file(s->dir, "cl.", keep_one, &kp, &n, err, errlen);
	simcpu_discard(s);
	return rc;
}

void simcpu_discard(struct simcpu *s)
{
	DIR *d = opendir(s->dir);
	if (d == NULL)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		char *p = xasprintf("%s/%s", s->dir, e->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
}
