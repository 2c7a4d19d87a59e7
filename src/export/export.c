/*
 * export.c: what every exporter shares (see export.h): the document that
 * exporters read (the analysis with its context), the table of
 * exporters, the checks made on destinations before the first run, and the
 * atomic file writer.
 *
 * Atomic replacement follows the usual POSIX recipe (as git's lockfile.c
 * and rename-based editors do): write a temporary file in the destination's
 * own directory (rename(2) is atomic only within one file system), flush
 * and fsync it, rename it over the destination, then fsync the directory so
 * the rename itself survives a crash.
 */
#include "export.h"
#include "fileid.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const struct {
	enum export_format format;
	const char *option;
	export_fn write;
} exporters[EXPORT__COUNT] = {
	{EXPORT_JSON, "--export-json", export_json_write},
	{EXPORT_MARKDOWN, "--export-markdown", export_markdown_write},
	{EXPORT_ASCIIDOC, "--export-asciidoc", export_asciidoc_write},
	{EXPORT_ORGMODE, "--export-orgmode", export_orgmode_write},
	{EXPORT_CSV, "--export-csv", export_csv_write},
	{EXPORT_CSV_RUNS, "--export-csv-runs", export_csv_runs_write},
	{EXPORT_HTML, "--export-html", export_html_write},
	{EXPORT_BMF, "--export-bmf", export_bmf_write},
	{EXPORT_GITHUB_BENCHMARK, "--export-github-benchmark",
	 export_github_benchmark_write},
	/* Written from the gate's report (export_junit.h), not the document. */
	{EXPORT_JUNIT, "--export-junit", NULL},
	{EXPORT_GITHUB_BENCHMARK_BIGGER, "--export-github-benchmark-bigger",
	 export_github_benchmark_bigger_write},
};

export_fn export_function(enum export_format format)
{
	for (size_t i = 0; i < EXPORT__COUNT; i++)
		if (exporters[i].format == format)
			return exporters[i].write;
	return NULL;
}

const char *export_option_name(enum export_format format)
{
	for (size_t i = 0; i < EXPORT__COUNT; i++)
		if (exporters[i].format == format)
			return exporters[i].option;
	return "--export";
}

const char *export_req_option(const struct export_req *r)
{
	return r->option ? r->option : export_option_name(r->format);
}

void export_number(char *buf, size_t len, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", "");
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/* ---- the document ---- */

struct export_doc *export_doc_new(const struct export_context *ctx,
				  const struct bench_outcome *o,
				  const struct analysis *an)
{
	struct export_doc *d = xcalloc(1, sizeof *d);
	d->ctx = ctx;
	d->outcome = o;
	if (an == NULL) {
		struct analysis_options opt = ctx->opts->analysis;
		opt.paired = o->order != ORDER_SEQUENTIAL;
		d->owned = analysis_new(&opt);
		analysis_update(d->owned, o->results, o->n, o->reference);
		an = d->owned;
	}
	d->an = an;
	return d;
}

void export_doc_free(struct export_doc *d)
{
	if (d == NULL)
		return;
	analysis_free(d->owned);
	free(d);
}

/* ---- destinations ---- */

bool export_is_stream(const char *path)
{
	if (strcmp(path, "-") == 0 || strncmp(path, "/dev/", 5) == 0 ||
	    strncmp(path, "/proc/", 6) == 0)
		return true;
	struct stat st;
	return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* The directory part of path, as a new string ("." for a bare name). */
static mode_t file_mode(void)
{
	static mode_t mode;
	static bool known;
	if (!known) {
		mode_t mask = umask(022);
		umask(mask);
		mode = 0666 & ~mask;
		known = true;
	}
	return mode;
}

/* When this process began writing exports: a temporary file of ours
 * older than that was left by an earlier, killed cbench. */
static struct timespec export_start(void)
{
	static struct timespec start;
	if (start.tv_sec == 0)
		clock_gettime(CLOCK_REALTIME, &start);
	return start;
}

/* Is name ".BASE.cbench-XXXXXX", the name make_temp gives (mkstemp's six
 * letters and digits)? */
static bool is_our_temp(const char *name, const char *base)
{
	size_t b = strlen(base);
	if (name[0] != '.' || strncmp(name + 1, base, b) != 0 ||
	    strncmp(name + 1 + b, ".cbench-", 8) != 0)
		return false;
	const char *x = name + 1 + b + 8;
	size_t n = strspn(x, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			  "0123456789");
	return n == 6 && x[6] == '\0';
}

/*
 * Remove the temporary files a killed cbench left beside target (a SIGKILL
 * between mkstemp and rename leaves one): only regular files of
 * make_temp's naming for this destination, last changed before this
 * process began writing exports.
 */
static void remove_stale_temps(const char *target)
{
	char *copy = xstrdup(target);
	char *dir = fileid_dir(target);
	const char *base = basename(copy);
	struct timespec start = export_start();
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
		if (!is_our_temp(e->d_name, base))
			continue;
		struct stat st;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) &&
		    (st.st_mtim.tv_sec < start.tv_sec ||
		     (st.st_mtim.tv_sec == start.tv_sec &&
		      st.st_mtim.tv_nsec < start.tv_nsec)))
			unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
	free(dir);
	free(copy);
}

/* Create a temporary file beside target; returns its fd and name. */
static int make_temp(const char *target, char **tmp_out)
{
	char *copy = xstrdup(target);
	char *dir = fileid_dir(target);
	char *tmp = xasprintf("%s/.%s.cbench-XXXXXX", dir, basename(copy));
	free(copy);
	free(dir);
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		free(tmp);
		errno = e;
		return -1;
	}
	*tmp_out = tmp;
	return fd;
}

/*
 * A file's identity, to catch one file named twice ("x.json", "./x.json",
 * a symbolic link): device and inode when it exists, else the canonical
 * directory (realpath) and the base name of where it would be created.
 */
bool export_output_is_file(const char *output)
{
	return strcmp(output, "null") != 0 && strcmp(output, "pipe") != 0 &&
	       strcmp(output, "inherit") != 0;
}

/* Two names for one file: the message says which options clash. */
static int same_file(const char *opt_a, const char *a, const char *opt_b,
		     const char *b, const char *why, char *err, size_t errlen)
{
	if (strcmp(a, b) == 0)
		snprintf(err, errlen, "%s and %s both %s '%s'", opt_a, opt_b,
			 why, a);
	else
		snprintf(err, errlen, "%s '%s' and %s '%s' are the same file",
			 opt_a, a, opt_b, b);
	return -1;
}

/* Exports, --output files and --input must name different files (only
 * --output may be shared by several commands). */
static int check_same_files(const struct export_files *xf, char *err, size_t errlen)
{
	for (size_t i = 0; i < xf->n_exports; i++) {
		const struct export_req *e = &xf->exports[i];
		if (strcmp(e->path, "-") == 0)
			continue;
		const char *opt = export_req_option(e);
		for (size_t k = 0; k < i; k++)
			if (strcmp(xf->exports[k].path, "-") != 0 &&
			    fileid_same(xf->exports[k].path, e->path))
				return same_file(export_req_option(&xf->exports[k]),
						 xf->exports[k].path, opt, e->path,
						 "write to", err, errlen);
		for (size_t k = 0; k < xf->plan.outputs.n; k++)
			if (export_output_is_file(xf->plan.outputs.v[k]) &&
			    fileid_same(xf->plan.outputs.v[k], e->path))
				return same_file("--output", xf->plan.outputs.v[k], opt,
						 e->path, "write to", err, errlen);
	}
	for (size_t k = 0; xf->input && k < xf->plan.outputs.n; k++)
		if (export_output_is_file(xf->plan.outputs.v[k]) &&
		    fileid_same(xf->input, xf->plan.outputs.v[k]))
			return same_file("--input", xf->input, "--output",
					 xf->plan.outputs.v[k], "name", err, errlen);
	return 0;
}

/* An --output FILE can be created or written (bench.c opens it later). */
static int check_output(const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "cannot open --output file '%s': it is "
				 "a directory", path);
			return -1;
		}
		if (access(path, W_OK) == 0)
			return 0;
	} else {
		char *target = fileid_target(path);
		char *dir = fileid_dir(target);
		int ok = stat(dir, &st) == 0 && !S_ISDIR(st.st_mode)
			 ? (errno = ENOTDIR, -1) : access(dir, W_OK | X_OK);
		free(dir);
		free(target);
		if (ok == 0)
			return 0;
	}
	snprintf(err, errlen, "cannot open --output file '%s': %s", path,
		 strerror(errno));
	return -1;
}

int export_check_files(const struct export_files *xf, char *err, size_t errlen)
{
	if (check_same_files(xf, err, errlen) != 0)
		return -1;
	for (size_t i = 0; i < xf->plan.outputs.n; i++)
		if (export_output_is_file(xf->plan.outputs.v[i]) &&
		    check_output(xf->plan.outputs.v[i], err, errlen) != 0)
			return -1;
	return 0;
}

/* Why the temporary file beside target could not be made, said as what
 * it is: a name too long once ".NAME.cbench-XXXXXX" is made of it, or a
 * directory that takes no new file (the export is written there first). */
static void temp_error(const char *opt, const char *path, const char *target,
		       int e, char *err, size_t errlen)
{
	char *dir = fileid_dir(target);
	if (e == ENAMETOOLONG)
		snprintf(err, errlen, "cannot write %s file '%s': its name is too "
			 "long for the temporary file cbench writes beside it "
			 "(.NAME.cbench-XXXXXX, 15 bytes more; a name has at most "
			 "%d)", opt, path, NAME_MAX);
	else if (e == EACCES || e == EROFS || e == EPERM)
		snprintf(err, errlen, "cannot write %s file '%s': cannot create a "
			 "temporary file in '%s' (the export is written there, "
			 "then renamed over the file): %s", opt, path, dir,
			 strerror(e));
	else
		snprintf(err, errlen, "cannot write %s file '%s': %s", opt, path,
			 strerror(e));
	free(dir);
}

/* A regular file among the streams that no one may write (/proc/version,
 * mode 0444), which access() calls writable for root; errno EACCES.  Read
 * from its mode alone: opening, or even an empty write, runs a /proc
 * file's handler (a FIFO's open would end its reader). */
static bool stream_refuses_writes(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)))
		return false;
	errno = EACCES;
	return true;
}

/* Another user's file the caller may not write (0444, in a directory
 * anyone may write to): refused (errno from access()), as a shell's >
 * would be, not replaced through the rename, which needs only the
 * directory's permission.  One's own is replaced (a file cbench made
 * under umask 0222 is 0444 too). */
static bool refuses_writes(const char *target)
{
	struct stat st;
	return stat(target, &st) == 0 && S_ISREG(st.st_mode) &&
	       st.st_uid != geteuid() && access(target, W_OK) != 0;
}

int export_check_destinations(const struct export_files *xf, char *err, size_t errlen)
{
	export_start();
	if (check_same_files(xf, err, errlen) != 0)
		return -1;
	for (size_t i = 0; i < xf->n_exports; i++) {
		const struct export_req *e = &xf->exports[i];
		const char *opt = export_req_option(e);
		if (e->path[0] == '\0') {
			snprintf(err, errlen, "%s: empty file name", opt);
			return -1;
		}
		if (strcmp(e->path, "-") == 0)
			continue;
		struct stat st;
		if (stat(e->path, &st) == 0 && S_ISDIR(st.st_mode)) {
			snprintf(err, errlen, "cannot write %s file '%s': it is a "
				 "directory", opt, e->path);
			return -1;
		}
		if (export_is_stream(e->path)) {
			if (access(e->path, W_OK) != 0 ||
			    stream_refuses_writes(e->path)) {
				snprintf(err, errlen, "cannot write %s file '%s': %s",
					 opt, e->path, strerror(errno));
				return -1;
			}
			continue;
		}
		char *target = fileid_target(e->path);
		if (refuses_writes(target)) {
			snprintf(err, errlen, "cannot write %s file '%s': %s", opt,
				 e->path, strerror(errno));
			free(target);
			return -1;
		}
		char *tmp = NULL;
		int fd = make_temp(target, &tmp);
		if (fd < 0) {
			temp_error(opt, e->path, target, errno, err, errlen);
			free(target);
			return -1;
		}
		free(target);
		close(fd);
		unlink(tmp);
		free(tmp);
	}
	return 0;
}

/* ---- writing ---- */

int export_write_atomic(const char *path, int (*fill)(FILE *f, void *arg),
			void *arg, char *err, size_t errlen)
{
	char *target = fileid_target(path);
	char *tmp = NULL;
	FILE *f = NULL;
	const char *step = "cannot write";
	int e = 0;

	if (refuses_writes(target)) {
		e = errno;
		goto fail;
	}
	remove_stale_temps(target);
	int fd = make_temp(target, &tmp);
	if (fd < 0) {
		e = errno;
		goto fail;
	}
	/* The replacement keeps an existing file's mode (a 0600 results file
	 * stays private) and, where permitted, its owner and group. */
	struct stat old;
	if (stat(target, &old) == 0 && S_ISREG(old.st_mode)) {
		fchmod(fd, old.st_mode & 07777);
		if (fchown(fd, old.st_uid, old.st_gid) != 0)
			(void)fchown(fd, (uid_t)-1, old.st_gid);
	} else {
		fchmod(fd, file_mode());
	}
	f = fdopen(fd, "w");
	if (f == NULL) {
		e = errno;
		close(fd);
		goto fail;
	}
	errno = 0;
	if (fill(f, arg) != 0 || fflush(f) != 0 || ferror(f)) {
		e = errno ? errno : EIO;
		goto fail;
	}
	if (fsync(fileno(f)) != 0) {
		e = errno;
		goto fail;
	}
	int rc = fclose(f);
	f = NULL;
	if (rc != 0) {
		e = errno;
		goto fail;
	}
	if (rename(tmp, target) != 0) {
		e = errno;
		step = "cannot replace";
		goto fail;
	}
	/* Make the rename itself durable. */
	char *dir = fileid_dir(target);
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	free(dir);
	free(tmp);
	free(target);
	return 0;

fail:
	if (f)
		fclose(f);
	if (tmp) {
		unlink(tmp);
		free(tmp);
	}
	snprintf(err, errlen, "%s '%s': %s", step, path, strerror(e));
	free(target);
	return -1;
}

struct fill_arg {
	export_fn fn;
	const struct export_doc *doc;
};

static int fill_doc(FILE *f, void *arg)
{
	const struct fill_arg *a = arg;
	return a->fn(f, a->doc);
}

static FILE *std_out;

void export_set_stdout(FILE *f)
{
	std_out = f;
}

bool export_is_stdout(const char *path)
{
	if (strcmp(path, "-") == 0)
		return true;
	struct stat a, b;
	return export_is_stream(path) && stat(path, &a) == 0 &&
	       fstat(STDOUT_FILENO, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/*
 * Fill path with fill(f, arg): a regular file atomically (a temporary
 * renamed over it), a stream (stdout, a FIFO, a device) once, appended to
 * (/dev/stdout may be a file the shell redirected into).  Messages name
 * opt.
 */
static int write_fill(const char *path, const char *opt,
		      int (*fill)(FILE *f, void *arg), void *arg, char *err,
		      size_t errlen)
{
	if (!export_is_stream(path)) {
		char msg[DIAG_MSG_MAX];
		if (export_write_atomic(path, fill, arg, msg, sizeof msg) != 0) {
			snprintf(err, errlen, "%s: %s", opt, msg);
			return -1;
		}
		return 0;
	}
	bool std = export_is_stdout(path);
	FILE *f = std ? (std_out ? std_out : stdout) : fopen(path, "a");
	if (f == NULL) {
		snprintf(err, errlen, "%s: cannot write '%s': %s", opt, path,
			 strerror(errno));
		return -1;
	}
	errno = 0;
	int rc = fill(f, arg);
	if (rc != 0 || fflush(f) != 0 || ferror(f))
		rc = errno ? errno : EIO;
	if (!std && fclose(f) != 0 && rc == 0)
		rc = errno ? errno : EIO;
	if (rc != 0) {
		snprintf(err, errlen, "%s: cannot write '%s': %s", opt,
			 std ? "standard output" : path, strerror(rc));
		return -1;
	}
	return 0;
}

static int write_as(enum export_format format, const char *path,
		    const char *opt, const struct export_doc *d, char *err,
		    size_t errlen)
{
	export_fn fn = export_function(format);
	if (fn == NULL) {
		snprintf(err, errlen, "%s: not an export of the results", opt);
		return -1;
	}
	struct fill_arg a = {fn, d};
	return write_fill(path, opt, fill_doc, &a, err, errlen);
}

int export_write(enum export_format format, const char *path,
		 const struct export_doc *d, char *err, size_t errlen)
{
	return write_as(format, path, export_option_name(format), d, err, errlen);
}

int export_write_req(const struct export_req *r, const struct export_doc *d,
		     char *err, size_t errlen)
{
	return write_as(r->format, r->path, export_req_option(r), d, err, errlen);
}

/* ---- prepared text (the gate's JUnit report) ---- */

struct text_arg {
	const char *text;
	size_t len;
};

static int fill_text(FILE *f, void *arg)
{
	const struct text_arg *a = arg;
	return fwrite(a->text, 1, a->len, f) == a->len ? 0 : -1;
}

int export_write_text(const char *path, const char *opt, const char *text,
		      size_t len, char *err, size_t errlen)
{
	struct text_arg a = {text, len};
	return write_fill(path, opt, fill_text, &a, err, errlen);
}
