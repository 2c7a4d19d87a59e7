/*
 * history_sqlite.c: the embedded store (history_int.h) over the SQLite
 * library.  The file is checked before anything is written to it: an
 * existing file must start with SQLite's header ("SQLite format 3") and,
 * if it has tables, hold cbench_meta; only then is it switched to WAL
 * (readers never block the writer, parallel jobs append safely) with a
 * busy timeout, so a second writer waits for the first instead of failing.
 */
#include "history.h"
#include "history_int.h"
#include "utf8.h"
#include "xalloc.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct sq {
	struct hist_store st;
	sqlite3 *db;
	char *path;
	int busy_ms;
};

/* The error class of an SQLite result code. */
static int classify(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		return HISTORY_EINPUT;
	default:
		return HISTORY_EFAIL;
	}
}

static int sq_error(struct sq *q, int rc, char *err, size_t errlen)
{
	const char *what = sqlite3_errmsg(q->db);
	/* A full disk may also come back as a failed write. */
	if ((rc & 0xff) == SQLITE_IOERR && sqlite3_system_errno(q->db) == ENOSPC)
		rc = SQLITE_FULL;
	switch (rc & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		snprintf(err, errlen, "the history %s is locked by another writer "
			 "(waited %.1f s): %s", q->path, q->busy_ms / 1000.0, what);
		break;
	case SQLITE_IOERR:
		snprintf(err, errlen, "history %s: %s (%s)", q->path, what,
			 strerror(sqlite3_system_errno(q->db)));
		break;
	case SQLITE_FULL:
		snprintf(err, errlen, "cannot write to the history %s: the disk is "
			 "full (nothing of this invocation was kept)", q->path);
		break;
	case SQLITE_READONLY:
		snprintf(err, errlen, "cannot write to the history %s: read-only "
			 "(%s)", q->path, what);
		break;
	case SQLITE_NOTADB:
	case SQLITE_CORRUPT:
		snprintf(err, errlen, "%s is not a usable cbench history: %s (the "
			 "file was left as it is)", q->path, what);
		break;
	default:
		snprintf(err, errlen, "history %s: %s", q->path, what);
	}
	return classify(rc);
}

static int bind_all(sqlite3_stmt *stmt, const struct hv *args, int nargs)
{
	for (int k = 0; k < nargs; k++) {
		int rc;
		switch (args[k].t) {
		case HV_INT:
			rc = sqlite3_bind_int64(stmt, k + 1, args[k].i);
			break;
		case HV_REAL:
			rc = sqlite3_bind_double(stmt, k + 1, args[k].d);
			break;
		case HV_TEXT:
			/* kept byte for byte (a name is found again as
			 * given, in histories of any cbench), read back as
			 * valid UTF-8 (row_values) */
			rc = sqlite3_bind_text(stmt, k + 1, args[k].s, -1, SQLITE_STATIC);
			break;
		case HV_BLOB:
			rc = sqlite3_bind_blob64(stmt, k + 1, args[k].b,
						 (sqlite3_uint64)args[k].len, SQLITE_STATIC);
			break;
		default:
			rc = sqlite3_bind_null(stmt, k + 1);
		}
		if (rc != SQLITE_OK)
			return rc;
	}
	return SQLITE_OK;
}

/* A row's values; text that is not valid UTF-8 comes back with U+FFFD
 * (as PostgreSQL stores it) in a copy in freeme[c], else NULL. */
static void row_values(sqlite3_stmt *stmt, struct hv *cols, int n,
		       char **freeme)
{
	for (int c = 0; c < n; c++) {
		struct hv *v = &cols[c];
		memset(v, 0, sizeof *v);
		freeme[c] = NULL;
		switch (sqlite3_column_type(stmt, c)) {
		case SQLITE_INTEGER:
			v->t = HV_INT;
			v->i = sqlite3_column_int64(stmt, c);
			v->d = (double)v->i;
			break;
		case SQLITE_FLOAT:
			v->t = HV_REAL;
			v->d = sqlite3_column_double(stmt, c);
			v->i = (int64_t)v->d;
			break;
		case SQLITE_TEXT:
			v->t = HV_TEXT;
			v->s = (const char *)sqlite3_column_text(stmt, c);
			if (v->s && !utf8_valid(v->s))
				v->s = freeme[c] = utf8_clean(v->s);
			break;
		case SQLITE_BLOB:
			v->t = HV_BLOB;
			v->b = sqlite3_column_blob(stmt, c);
			v->len = (size_t)sqlite3_column_bytes(stmt, c);
			break;
		default:
			v->t = HV_NULL;
		}
	}
}

static int sq_exec(struct hist_store *s, const char *sql, const struct hv *args,
		   int nargs, hist_row_fn *fn, void *ctx, char *err, size_t errlen)
{
	struct sq *q = (struct sq *)s;
	sqlite3_stmt *stmt = NULL;
	int rc = sqlite3_prepare_v2(q->db, sql, -1, &stmt, NULL);
	if (rc == SQLITE_OK)
		rc = bind_all(stmt, args, nargs);
	if (rc != SQLITE_OK) {
		int e = sq_error(q, rc, err, errlen);
		sqlite3_finalize(stmt);
		return e;
	}
	int ncols = sqlite3_column_count(stmt);
	struct hv cols[32];
	char *freeme[32];
	if (ncols > 32)
		ncols = 32;
	while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (fn == NULL)
			continue;
		row_values(stmt, cols, ncols, freeme);
		int stop = fn(ctx, cols, ncols);
		for (int c = 0; c < ncols; c++)
			free(freeme[c]);
		if (stop) {
			sqlite3_finalize(stmt);
			snprintf(err, errlen, "history %s: unexpected data in the "
				 "database", q->path);
			return stop < 0 ? stop : HISTORY_EINPUT;
		}
	}
	if (rc != SQLITE_DONE) {
		int e = sq_error(q, rc, err, errlen);
		sqlite3_finalize(stmt);
		return e;
	}
	sqlite3_finalize(stmt);
	return 0;
}

static int sq_begin(struct hist_store *s, char *err, size_t errlen)
{
	return sq_exec(s, "BEGIN IMMEDIATE", NULL, 0, NULL, NULL, err, errlen);
}

static void sq_close(struct hist_store *s)
{
	struct sq *q = (struct sq *)s;
	if (q == NULL)
		return;
	sqlite3_close(q->db);
	free(q->path);
	free(q);
}

/* mkdir -p of the directory part of path. */
static int make_parent(const char *path, char *err, size_t errlen)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	int rc = 0;
	if (slash && slash != dir) {
		*slash = '\0';
		for (char *p = dir + 1; ; p++) {
			if (*p != '/' && *p != '\0')
				continue;
			char c = *p;
			*p = '\0';
			if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
				snprintf(err, errlen, "cannot create the history's "
					 "directory %s: %s", dir, strerror(errno));
				rc = HISTORY_EFAIL;
				break;
			}
			*p = c;
			if (c == '\0')
				break;
		}
	}
	free(dir);
	return rc;
}

/* An existing file: a regular file that starts with SQLite's header (or is
 * empty).  Returns 0, 1 when missing, or an error. */
static int check_file(const char *path, char *err, size_t errlen)
{
	struct stat sb;
	if (stat(path, &sb) != 0) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, errlen, "cannot open the history %s: %s", path,
			 strerror(errno));
		return HISTORY_EFAIL;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "the history %s is not a regular file", path);
		return HISTORY_EINPUT;
	}
	if (sb.st_size == 0)
		return 0;
	FILE *f = fopen(path, "rb");
	if (f == NULL) {
		snprintf(err, errlen, "cannot read the history %s: %s", path,
			 strerror(errno));
		return HISTORY_EFAIL;
	}
	char head[16] = {0};
	size_t got = fread(head, 1, sizeof head, f);
	fclose(f);
	if (got != sizeof head || memcmp(head, "SQLite format 3", 16) != 0) {
		snprintf(err, errlen, "%s is not a cbench history (not an SQLite "
			 "database); the file was left as it is", path);
		return HISTORY_EINPUT;
	}
	return 0;
}

/* Count the tables and whether cbench_meta is one of them. */
static int count_table(void *ctx, const struct hv *c, int n)
{
	int *k = ctx;
	k[0]++;
	if (n > 0 && c[0].t == HV_TEXT && strcmp(c[0].s, "cbench_meta") == 0)
		k[1] = 1;
	return 0;
}

static int read_version(void *ctx, const struct hv *c, int n)
{
	if (n > 0 && c[0].t == HV_TEXT)
		*(long *)ctx = strtol(c[0].s, NULL, 10);
	return 0;
}

/* Another program's tables, or a newer cbench's schema: refused before
 * anything (even the switch to WAL) is written. */
static int check_tables(struct sq *q, char *err, size_t errlen)
{
	int k[2] = {0, 0};
	int rc = sq_exec(&q->st, "SELECT name FROM sqlite_master WHERE "
			 "type = 'table'", NULL, 0, count_table, k, err, errlen);
	if (rc != 0)
		return rc;
	if (k[0] > 0 && !k[1]) {
		snprintf(err, errlen, "%s is not a cbench history (an SQLite "
			 "database of another program); the file was left as it is",
			 q->path);
		return HISTORY_EINPUT;
	}
	long version = 0;
	rc = k[1] ? sq_exec(&q->st, "SELECT value FROM cbench_meta WHERE key "
				"= 'version'", NULL, 0, read_version, &version,
				err, errlen) : 0;
	if (rc == 0 && version > HISTORY_SCHEMA_VERSION) {
		snprintf(err, errlen, "the history %s has schema version %ld, made "
			 "by a newer cbench; this one knows versions 1 to %d: "
			 "upgrade cbench (the history was left as it is)", q->path,
			 version, HISTORY_SCHEMA_VERSION);
		return HISTORY_EINPUT;
	}
	return rc;
}

/* "file:PATH?immutable=1" with PATH percent-encoded (every byte but
 * letters, digits, "-._~/"), so that "%41", "?" or "#" in a file name
 * name that file (SQLite's URI filenames decode %HH and stop at ? and #).
 * Freed with free(). */
static char *file_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path);
	char *u = xmalloc(n * 3 + sizeof "file://?immutable=1");
	/* An absolute path after an empty authority ("file:///x"), so that
	 * one that starts with "//" is not read as a host. */
	char *p = u + sprintf(u, path[0] == '/' ? "file://" : "file:");
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || strchr("-._~/", *c)) {
			*p++ = (char)*c;
		} else {
			*p++ = '%';
			*p++ = hex[*c >> 4];
			*p++ = hex[*c & 15];
		}
	}
	strcpy(p, "?immutable=1");
	return u;
}

int hist_sqlite_open(const char *path, int write, int busy_ms, int create,
		     struct hist_store **out, char *err, size_t errlen)
{
	*out = NULL;
	int rc = check_file(path, err, errlen);
	if (rc < 0)
		return rc;
	if (rc == 1 && !create) {
		snprintf(err, errlen, "no history at %s (record one with --history "
			 "%s)", path, path);
		return HISTORY_EINPUT;
	}
	if (rc == 1 && make_parent(path, err, errlen) != 0)
		return HISTORY_EFAIL;
	if (write && rc == 0 && access(path, W_OK) != 0) {
		snprintf(err, errlen, "cannot write to the history %s: %s", path,
			 strerror(errno));
		return HISTORY_EFAIL;
	}
	struct sq *q = xcalloc(1, sizeof *q);
	q->st = (struct hist_store){.name = "SQLite", .t_id = "INTEGER PRIMARY KEY",
		.t_int = "INTEGER", .t_real = "REAL", .t_blob = "BLOB",
		.exec = sq_exec, .begin = sq_begin, .close = sq_close};
	q->path = xstrdup(path);
	q->busy_ms = busy_ms;
	int flags = write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
			  : SQLITE_OPEN_READONLY;
	/* Read-only, with no writer's -wal file beside it and no right to
	 * create one: nothing can change it under us, so read it as
	 * immutable (SQLite cannot otherwise open a WAL file read-only). */
	char *wal = xasprintf("%s-wal", path);
	char *uri = NULL;
	if (!write && access(wal, F_OK) != 0) {
		uri = file_uri(path);
		flags |= SQLITE_OPEN_URI;
	}
	free(wal);
	int src = sqlite3_open_v2(uri ? uri : path, &q->db, flags, NULL);
	free(uri);
	if (src != SQLITE_OK) {
		snprintf(err, errlen, "cannot open the history %s: %s", path,
			 q->db ? sqlite3_errmsg(q->db) : "out of memory");
		sq_close(&q->st);
		return HISTORY_EFAIL;
	}
	sqlite3_busy_timeout(q->db, busy_ms);
	rc = check_tables(q, err, errlen);
	if (rc == 0 && write)
		rc = sq_exec(&q->st, "PRAGMA journal_mode = WAL", NULL, 0, NULL,
			     NULL, err, errlen);
	if (rc == 0)
		rc = sq_exec(&q->st, "PRAGMA synchronous = NORMAL", NULL, 0, NULL,
			     NULL, err, errlen);
	if (rc == 0)
		rc = sq_exec(&q->st, "PRAGMA foreign_keys = ON", NULL, 0, NULL,
			     NULL, err, errlen);
	if (rc != 0) {
		sq_close(&q->st);
		return rc;
	}
	*out = &q->st;
	return 0;
}
