/*
 * export_inputs.c: never write over what the user gave.  Every path cbench
 * reads is compared, by file identity (fileid.c: device and inode, or the
 * canonical place of a file not yet there), with every path it writes, so
 * that `cbench compare a.json b.json --export-markdown a.json` or
 * `--input data --export-json data` is an input error before anything runs
 * instead of a lost baseline; an SQLite history is such a path too.  Streams (stdout, devices, pipes) are never
 * replaced and are left out.
 */
#include "export_inputs.h"
#include "export.h"
#include "fileid.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* One path that is read, and the option that names it. */
struct input {
	const char *option;
	const char *path;
};

/* The first word of a command line when it names an existing regular file
 * (a script or program the command runs), as a new string; else NULL. */
static char *script_of(const char *cmd)
{
	cmd += strspn(cmd, " \t\n");
	size_t n = strcspn(cmd, " \t\n;&|<>()'\"`$");
	if (n == 0)
		return NULL;
	char *word = xasprintf("%.*s", (int)n, cmd);
	struct stat st;
	if (stat(word, &st) != 0 || !S_ISREG(st.st_mode)) {
		free(word);
		return NULL;
	}
	return word;
}

/* Does the read path in clash with a written file?  Fills err. */
static int check_one(const struct export_files *xf, const struct input *in,
		     char *err, size_t errlen)
{
	const char *wopt = NULL, *wpath = NULL;
	for (size_t i = 0; i < xf->n_exports && !wopt; i++) {
		const struct export_req *e = &xf->exports[i];
		if (strcmp(e->path, "-") != 0 && !export_is_stream(e->path) &&
		    fileid_same(in->path, e->path)) {
			wopt = export_req_option(e);
			wpath = e->path;
		}
	}
	for (size_t k = 0; k < xf->plan.outputs.n && !wopt; k++) {
		const char *o = xf->plan.outputs.v[k];
		if (export_output_is_file(o) && !export_is_stream(o) &&
		    fileid_same(in->path, o)) {
			wopt = "--output";
			wpath = o;
		}
	}
	if (!wopt)
		return 0;
	if (strcmp(in->path, wpath) == 0)
		snprintf(err, errlen, "%s and %s both name '%s': cbench would "
			 "write over a file it reads", in->option, wopt, wpath);
	else
		snprintf(err, errlen, "%s '%s' and %s '%s' are the same file: "
			 "cbench would write over a file it reads", in->option,
			 in->path, wopt, wpath);
	return -1;
}

/* The commands and hooks of one list, by the script they run. */
static int check_scripts(const struct export_files *xf, const struct strlist *l,
			 const char *option, char *err, size_t errlen)
{
	for (size_t i = 0; i < l->n; i++) {
		char *script = script_of(l->v[i]);
		if (script == NULL)
			continue;
		struct input in = {option, script};
		int rc = check_one(xf, &in, err, errlen);
		free(script);
		if (rc != 0)
			return -1;
	}
	return 0;
}

/* An SQLite history and the files SQLite keeps beside it while it
 * writes: none may be a destination (`--export-json h.db` would replace
 * the database with JSON). */
static int check_history(const struct export_files *xf, char *err, size_t errlen)
{
	static const char *const side[] = {"", "-wal", "-shm", "-journal"};
	for (size_t i = 0; i < sizeof side / sizeof side[0]; i++) {
		char *path = xasprintf("%s%s", xf->history, side[i]);
		char *opt = i ? xasprintf("%s's %s file", xf->history_option, side[i])
			      : xstrdup(xf->history_option);
		struct input in = {opt, path};
		int rc = check_one(xf, &in, err, errlen);
		free(path);
		free(opt);
		if (rc != 0)
			return -1;
	}
	return 0;
}

int export_check_inputs(const struct export_files *xf, char *err, size_t errlen)
{
	if (xf->history && xf->history[0] && check_history(xf, err, errlen) != 0)
		return -1;
	const struct input files[] = {
		{"--baseline", xf->baseline},
		{"the baseline file (BASE)", xf->compare_base},
		{"the new results file (NEW)", xf->compare_new},
		{"--input", xf->input},
	};
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		if (files[i].path && files[i].path[0] &&
		    check_one(xf, &files[i], err, errlen) != 0)
			return -1;
	const struct {
		const struct strlist *list;
		const char *option;
	} scripts[] = {
		{&xf->plan.commands, "the command"},
		{&xf->plan.setup, "--setup"},
		{&xf->plan.prepare, "--prepare"},
		{&xf->plan.conclude, "--conclude"},
		{&xf->plan.cleanup, "--cleanup"},
	};
	for (size_t i = 0; i < sizeof scripts / sizeof scripts[0]; i++)
		if (check_scripts(xf, scripts[i].list, scripts[i].option, err,
				  errlen) != 0)
			return -1;
	return 0;
}

/* Does the export go to the file on descriptor 1: "-", /dev/stdout,
 * /proc/self/fd/1, or a regular file that stdout was redirected into? */
static bool goes_to_stdout(const char *path)
{
	if (export_is_stdout(path))
		return true;
	struct stat a, b;
	return stat(path, &a) == 0 && fstat(STDOUT_FILENO, &b) == 0 &&
	       S_ISREG(a.st_mode) && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

int export_check_stdout(const struct export_files *xf, char *err, size_t errlen)
{
	const struct export_req *first = NULL;
	for (size_t i = 0; i < xf->n_exports; i++) {
		const struct export_req *e = &xf->exports[i];
		if (!goes_to_stdout(e->path))
			continue;
		if (first == NULL) {
			first = e;
			continue;
		}
		snprintf(err, errlen, "only one export can go to stdout: %s '%s' "
			 "and %s '%s' both do", export_req_option(first),
			 first->path, export_req_option(e), e->path);
		return -1;
	}
	return 0;
}

size_t export_hard_links(const char *path)
{
	if (strcmp(path, "-") == 0 || export_is_stream(path))
		return 0;
	char *target = fileid_target(path);
	struct stat st;
	size_t n = stat(target, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink > 1
		   ? (size_t)st.st_nlink - 1 : 0;
	free(target);
	return n;
}
