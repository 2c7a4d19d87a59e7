/*
 * history_pg.c: the shared store (history_int.h) on a PostgreSQL server
 * through libpq, for histories that many machines and CI runners write to.
 * Statements go with PQexecParams: '?' placeholders become $1, $2, ...,
 * numbers and text are sent as text, blobs (the per-run values) in binary.
 * Results come back as text and are typed here: bytea is unescaped,
 * int8/float8 parsed.  A writing transaction takes a transaction-scoped
 * advisory lock first, so two runners creating or migrating the schema at
 * once take turns instead of colliding.  Nothing waits forever: the
 * connection has libpq's connect_timeout, the lock the server's
 * lock_timeout, and each statement is sent and awaited without blocking,
 * given up when the server stays silent for the time limit.
 *
 * libpq is loaded with dlopen() on first use, not linked: it pulls in
 * some twenty libraries (TLS, Kerberos, LDAP) whose start-up pages would
 * otherwise be in every cbench process, and so in the peak RSS of every
 * command it launches (README, "Peak RSS of the command").  Built without
 * libpq's headers (HAVE_LIBPQ undefined), or without libpq.so.5 at run
 * time, hist_pg_open says so.
 */
#include "history.h"
#include "history_int.h"
#include "utf8.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef HAVE_LIBPQ

int hist_pg_available(void)
{
	return 0;
}

int hist_pg_open(const char *conninfo, int busy_ms, int timeout_ms,
		 struct hist_store **out, char *err, size_t errlen)
{
	(void)conninfo;
	(void)busy_ms;
	(void)timeout_ms;
	*out = NULL;
	snprintf(err, errlen, "this cbench was built without PostgreSQL support "
		 "(libpq): install libpq-dev and rebuild, or give a file as the "
		 "history");
	return HISTORY_EINPUT;
}

#else

#include <dlfcn.h>
#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <time.h>

/* The libpq functions used here, resolved from libpq.so.5. */
static struct {
	bool loaded;
	PGconn *(*connectdbParams)(const char *const *, const char *const *, int);
	ConnStatusType (*status)(const PGconn *);
	char *(*errorMessage)(const PGconn *);
	void (*finish)(PGconn *);
	PQnoticeProcessor (*setNoticeProcessor)(PGconn *, PQnoticeProcessor, void *);
	int (*sendQueryParams)(PGconn *, const char *, int, const Oid *,
			       const char *const *, const int *, const int *, int);
	int (*setnonblocking)(PGconn *, int);
	int (*flush)(PGconn *);
	int (*socket)(const PGconn *);
	int (*consumeInput)(PGconn *);
	int (*isBusy)(PGconn *);
	PGresult *(*getResult)(PGconn *);
	char *(*resultErrorField)(const PGresult *, int);
	PQconninfoOption *(*conninfo)(PGconn *);
	void (*conninfoFree)(PQconninfoOption *);
	ExecStatusType (*resultStatus)(const PGresult *);
	char *(*resultErrorMessage)(const PGresult *);
	void (*clear)(PGresult *);
	int (*ntuples)(const PGresult *);
	int (*nfields)(const PGresult *);
	int (*getisnull)(const PGresult *, int, int);
	char *(*getvalue)(const PGresult *, int, int);
	Oid (*ftype)(const PGresult *, int);
	unsigned char *(*unescapeBytea)(const unsigned char *, size_t *);
	void (*freemem)(void *);
} pq;

#define PQ_SYM(field, name) { (void **)&pq.field, name }

/* Load libpq once (it stays loaded).  Returns 0, or -1 with a message. */
static int load_libpq(char *err, size_t errlen)
{
	if (pq.loaded)
		return 0;
	void *lib = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL) {
		snprintf(err, errlen, "PostgreSQL history: cannot load libpq "
			 "(libpq.so.5: install libpq5): %s", dlerror());
		return -1;
	}
	const struct { void **to; const char *name; } syms[] = {
		PQ_SYM(connectdbParams, "PQconnectdbParams"),
		PQ_SYM(status, "PQstatus"),
		PQ_SYM(errorMessage, "PQerrorMessage"), PQ_SYM(finish, "PQfinish"),
		PQ_SYM(setNoticeProcessor, "PQsetNoticeProcessor"),
		PQ_SYM(sendQueryParams, "PQsendQueryParams"),
		PQ_SYM(setnonblocking, "PQsetnonblocking"),
		PQ_SYM(flush, "PQflush"), PQ_SYM(socket, "PQsocket"),
		PQ_SYM(consumeInput, "PQconsumeInput"),
		PQ_SYM(isBusy, "PQisBusy"), PQ_SYM(getResult, "PQgetResult"),
		PQ_SYM(resultErrorField, "PQresultErrorField"),
		PQ_SYM(conninfo, "PQconninfo"),
		PQ_SYM(conninfoFree, "PQconninfoFree"),
		PQ_SYM(resultStatus, "PQresultStatus"),
		PQ_SYM(resultErrorMessage, "PQresultErrorMessage"),
		PQ_SYM(clear, "PQclear"), PQ_SYM(ntuples, "PQntuples"),
		PQ_SYM(nfields, "PQnfields"), PQ_SYM(getisnull, "PQgetisnull"),
		PQ_SYM(getvalue, "PQgetvalue"), PQ_SYM(ftype, "PQftype"),
		PQ_SYM(unescapeBytea, "PQunescapeBytea"),
		PQ_SYM(freemem, "PQfreemem"),
	};
	for (size_t k = 0; k < sizeof syms / sizeof syms[0]; k++) {
		*syms[k].to = dlsym(lib, syms[k].name);
		if (*syms[k].to == NULL) {
			snprintf(err, errlen, "PostgreSQL history: libpq.so.5 has no "
				 "%s", syms[k].name);
			dlclose(lib);
			return -1;
		}
	}
	pq.loaded = true;
	return 0;
}

#define BYTEAOID 17
#define INT2OID 21
#define INT4OID 23
#define INT8OID 20
#define FLOAT4OID 700
#define FLOAT8OID 701
/* A constant key for pg_advisory_xact_lock: "cbnc". */
#define LOCK_KEY 0x63626e63

struct pg {
	struct hist_store st;
	PGconn *conn;
	int busy_ms, timeout_ms;  /* hist_pg_open's */
	bool dead;                /* a statement went unanswered: given up */
};

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Seconds of ms for a message ("30 s", "0.5 s"). */
static double secs(int ms)
{
	return ms / 1000.0;
}

int hist_pg_available(void)
{
	return 1;
}

/* One line of libpq's message (it may end with a newline). */
static void pg_message(PGconn *c, const PGresult *r, const char *sql,
		       char *err, size_t errlen)
{
	const char *m = r ? pq.resultErrorMessage(r) : pq.errorMessage(c);
	char one[400];
	snprintf(one, sizeof one, "%s", m && *m ? m : "unknown error");
	one[strcspn(one, "\n")] = '\0';
	(void)sql;
	snprintf(err, errlen, "PostgreSQL history: %s", one);
}

/* sql with each ? replaced by $k. */
static char *numbered(const char *sql)
{
	size_t n = strlen(sql), q = 0;
	for (size_t i = 0; i < n; i++)
		q += sql[i] == '?';
	char *out = xmalloc(n + q * 4 + 1), *o = out;
	int k = 0;
	for (size_t i = 0; i < n; i++) {
		if (sql[i] == '?')
			o += sprintf(o, "$%d", ++k);
		else
			*o++ = sql[i];
	}
	*o = '\0';
	return out;
}

/* A row's text values typed by their column's type. */
static void row_values(PGresult *r, int row, struct hv *cols, int n,
		       unsigned char **freeme)
{
	for (int c = 0; c < n; c++) {
		struct hv *v = &cols[c];
		memset(v, 0, sizeof *v);
		freeme[c] = NULL;
		if (pq.getisnull(r, row, c))
			continue;
		const char *s = pq.getvalue(r, row, c);
		switch (pq.ftype(r, c)) {
		case INT2OID:
		case INT4OID:
		case INT8OID:
			v->t = HV_INT;
			v->i = strtoll(s, NULL, 10);
			v->d = (double)v->i;
			break;
		case FLOAT4OID:
		case FLOAT8OID:
			v->t = HV_REAL;
			v->d = strtod(s, NULL);
			v->i = (int64_t)v->d;
			break;
		case BYTEAOID: {
			size_t len = 0;
			freeme[c] = pq.unescapeBytea((const unsigned char *)s, &len);
			v->t = HV_BLOB;
			v->b = freeme[c];
			v->len = len;
			break;
		}
		default:
			v->t = HV_TEXT;
			v->s = s;
		}
	}
}

/* Call fn on every row of r. */
static int each_row(PGresult *r, hist_row_fn *fn, void *ctx, char *err,
		    size_t errlen)
{
	int ncols = pq.nfields(r);
	if (ncols > 32)
		ncols = 32;
	struct hv cols[32];
	unsigned char *freeme[32];
	for (int row = 0; fn && row < pq.ntuples(r); row++) {
		row_values(r, row, cols, ncols, freeme);
		int stop = fn(ctx, cols, ncols);
		for (int c = 0; c < ncols; c++)
			pq.freemem(freeme[c]);
		if (stop) {
			snprintf(err, errlen, "PostgreSQL history: unexpected data");
			return stop < 0 ? stop : HISTORY_EINPUT;
		}
	}
	return 0;
}

/* Wait until the connection can be read (or written, with want_write),
 * at most limit_ms (0: no limit).  Returns 1 when it can, 0 when the time
 * ran out, -1 on an error. */
static int wait_socket(PGconn *c, bool want_write, int limit_ms)
{
	struct pollfd pfd = {.fd = pq.socket(c),
			     .events = POLLIN | (want_write ? POLLOUT : 0)};
	if (pfd.fd < 0) {
		errno = EBADF;
		return -1;
	}
	double end = now_s() + limit_ms / 1000.0;
	for (int left = limit_ms;;) {
		int n = poll(&pfd, 1, limit_ms > 0 ? left : -1);
		if (n >= 0)
			return n > 0;
		if (errno != EINTR)
			return -1;
		/* a signal: the time left, not the whole limit again */
		double rest = end - now_s();
		left = rest > 0 ? (int)(rest * 1000.0) + 1 : 0;
	}
}

/* Send one statement and take its result, waiting at most limit_ms for
 * each part of the answer (the server silent that long, or frozen, or
 * an answer that never comes: the connection is given up).  NULL with a
 * message when it failed. */
static PGresult *run_statement(struct pg *p, const char *text, int nargs,
			       const char *const *values, const int *lengths,
			       const int *formats, int limit_ms, char *err,
			       size_t errlen)
{
	PGconn *c = p->conn;
	if (p->dead) {
		snprintf(err, errlen, "PostgreSQL history: the server stopped "
			 "answering earlier");
		return NULL;
	}
	if (!pq.sendQueryParams(c, text, nargs, NULL, values, lengths, formats, 0))
		goto broken;
	int f, w;
	while ((f = pq.flush(c)) == 1) {
		if ((w = wait_socket(c, true, limit_ms)) <= 0)
			goto silent;
		if (!pq.consumeInput(c))
			goto broken;
	}
	if (f < 0)
		goto broken;
	PGresult *keep = NULL, *r;
	do {
		/* what has come is read first (TLS may hold decrypted data
		 * the socket no longer shows), then the socket waited on */
		while (pq.isBusy(c)) {
			w = 1;
			if (!pq.consumeInput(c) ||
			    (pq.isBusy(c) && (w = wait_socket(c, false, limit_ms)) <= 0)) {
				pq.clear(keep);
				if (w <= 0)
					goto silent;
				goto broken;
			}
		}
		r = pq.getResult(c);
		if (keep == NULL)
			keep = r;
		else
			pq.clear(r);
	} while (r != NULL);
	if (keep == NULL)
		goto broken;
	return keep;
silent:
	p->dead = true;
	if (w < 0)
		snprintf(err, errlen, "PostgreSQL history: waiting for the server: "
			 "%s", strerror(errno));
	else
		snprintf(err, errlen, "PostgreSQL history: the server did not "
			 "answer for %g s (wait longer with "
			 "CBENCH_HISTORY_TIMEOUT_MS)", secs(limit_ms));
	return NULL;
broken:
	pg_message(c, NULL, NULL, err, errlen);
	return NULL;
}

/* Run sql, waiting at most limit_ms for each part of the answer. */
static int pg_exec_limit(struct pg *p, const char *sql, const struct hv *args,
			 int nargs, hist_row_fn *fn, void *ctx, int limit_ms,
			 char *err, size_t errlen)
{
	char *text = numbered(sql);
	const char **values = xcalloc((size_t)nargs + 1, sizeof *values);
	int *lengths = xcalloc((size_t)nargs + 1, sizeof *lengths);
	int *formats = xcalloc((size_t)nargs + 1, sizeof *formats);
	char (*buf)[40] = xcalloc((size_t)nargs + 1, sizeof *buf);
	char **owned = xcalloc((size_t)nargs + 1, sizeof *owned);
	for (int k = 0; k < nargs; k++) {
		const struct hv *a = &args[k];
		switch (a->t) {
		case HV_INT:
			snprintf(buf[k], sizeof buf[k], "%lld", (long long)a->i);
			values[k] = buf[k];
			break;
		case HV_REAL:
			snprintf(buf[k], sizeof buf[k], "%.17g", a->d);
			values[k] = strcmp(buf[k], "nan") == 0 ? "NaN" : buf[k];
			break;
		case HV_TEXT:
			/* The server takes valid UTF-8 only: other bytes are
			 * sent as U+FFFD, as the SQLite store keeps them. */
			if (a->s && !utf8_valid(a->s))
				values[k] = owned[k] = utf8_clean(a->s);
			else
				values[k] = a->s;
			break;
		case HV_BLOB:
			values[k] = a->b ? a->b : "";
			lengths[k] = (int)a->len;
			formats[k] = 1;
			break;
		default:
			values[k] = NULL;
		}
	}
	PGresult *r = run_statement(p, text, nargs, values, lengths, formats,
				    limit_ms, err, errlen);
	int rc = 0;
	ExecStatusType status = r ? pq.resultStatus(r) : PGRES_FATAL_ERROR;
	const char *state = r ? pq.resultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	if (r == NULL) {
		rc = HISTORY_EFAIL;
	} else if (state && strcmp(state, "55P03") == 0) {   /* lock_not_available */
		snprintf(err, errlen, "PostgreSQL history: another session held a "
			 "lock on the history for %g s (wait longer with "
			 "CBENCH_HISTORY_BUSY_MS)", secs(p->busy_ms));
		rc = HISTORY_EFAIL;
	} else if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
		pg_message(p->conn, r, text, err, errlen);
		rc = HISTORY_EFAIL;
	} else {
		rc = each_row(r, fn, ctx, err, errlen);
	}
	pq.clear(r);
	free(text);
	free(values);
	free(lengths);
	free(formats);
	free(buf);
	for (int k = 0; k < nargs; k++)
		free(owned[k]);
	free(owned);
	return rc;
}

static int pg_exec(struct hist_store *s, const char *sql, const struct hv *args,
		   int nargs, hist_row_fn *fn, void *ctx, char *err, size_t errlen)
{
	struct pg *p = (struct pg *)s;
	return pg_exec_limit(p, sql, args, nargs, fn, ctx, p->timeout_ms, err,
			     errlen);
}

/* BEGIN, then the advisory lock, waited for at most busy_ms (the
 * server's lock_timeout, which also bounds any other lock the
 * transaction waits for; 0 waits not at all). */
static int pg_begin(struct hist_store *s, char *err, size_t errlen)
{
	struct pg *p = (struct pg *)s;
	int rc = pg_exec(s, "BEGIN", NULL, 0, NULL, NULL, err, errlen);
	if (rc == 0) {
		char set[64];
		snprintf(set, sizeof set, "SET LOCAL lock_timeout = %d",
			 p->busy_ms > 0 ? p->busy_ms : 1);
		rc = pg_exec(s, set, NULL, 0, NULL, NULL, err, errlen);
	}
	if (rc == 0) {
		struct hv key = hv_int(LOCK_KEY);
		int limit = p->timeout_ms > 0 ? p->timeout_ms + p->busy_ms : 0;
		rc = pg_exec_limit(p, "SELECT pg_advisory_xact_lock(?::bigint)",
				   &key, 1, NULL, NULL, limit, err, errlen);
	}
	return rc;
}

/* The connect_timeout in force on c (ours, the URL's, PGCONNECT_TIMEOUT
 * or a service file's), in seconds as libpq takes it (at least 2), or 0
 * for none. */
static long connect_limit(PGconn *c)
{
	PQconninfoOption *all = pq.conninfo(c);
	long v = 0;
	for (PQconninfoOption *o = all; o && o->keyword; o++)
		if (strcmp(o->keyword, "connect_timeout") == 0 && o->val)
			v = strtol(o->val, NULL, 10);
	pq.conninfoFree(all);
	return v <= 0 ? 0 : v < 2 ? 2 : v;
}

/* Server notices would go to stderr: the caller reports errors instead. */
static void no_notices(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

static void pg_close(struct hist_store *s)
{
	struct pg *p = (struct pg *)s;
	if (p == NULL)
		return;
	pq.finish(p->conn);
	free(p);
}

int hist_pg_open(const char *conninfo, int busy_ms, int timeout_ms,
		 struct hist_store **out, char *err, size_t errlen)
{
	*out = NULL;
	if (load_libpq(err, errlen) != 0)
		return HISTORY_EFAIL;
	struct pg *p = xcalloc(1, sizeof *p);
	p->st = (struct hist_store){.name = "PostgreSQL",
		.t_id = "BIGSERIAL PRIMARY KEY", .t_int = "BIGINT",
		.t_real = "DOUBLE PRECISION", .t_blob = "BYTEA",
		.exec = pg_exec, .begin = pg_begin, .close = pg_close};
	p->busy_ms = busy_ms;
	p->timeout_ms = timeout_ms;
	/* connect_timeout (whole seconds, at least 2) first, so that one in
	 * the connection string, or PGCONNECT_TIMEOUT, decides instead */
	char limit[24];
	snprintf(limit, sizeof limit, "%d",
		 timeout_ms > 2000 ? (timeout_ms + 999) / 1000 : 2);
	bool ours = timeout_ms > 0 && getenv("PGCONNECT_TIMEOUT") == NULL;
	const char *const keys[] = {"connect_timeout", "dbname", NULL};
	const char *const vals[] = {limit, conninfo, NULL};
	double t0 = now_s();
	p->conn = pq.connectdbParams(keys + !ours, vals + !ours, 1);
	if (p->conn == NULL || pq.status(p->conn) != CONNECTION_OK) {
		long in_force = p->conn ? connect_limit(p->conn) : 0;
		if (p->conn == NULL)
			snprintf(err, errlen, "PostgreSQL history: out of memory");
		else if (in_force > 0 && now_s() - t0 >= in_force - 0.25)
			snprintf(err, errlen, "PostgreSQL history: no connection "
				 "within %ld s (wait longer with %s)", in_force,
				 ours && strtol(limit, NULL, 10) == in_force
				 ? "CBENCH_HISTORY_TIMEOUT_MS" : "connect_timeout");
		else
			pg_message(p->conn, NULL, NULL, err, errlen);
		pg_close(&p->st);
		return HISTORY_EFAIL;
	}
	pq.setNoticeProcessor(p->conn, no_notices, NULL);
	/* non-blocking: a statement is sent and awaited with a time limit */
	if (pq.setnonblocking(p->conn, 1) != 0) {
		pg_message(p->conn, NULL, NULL, err, errlen);
		pg_close(&p->st);
		return HISTORY_EFAIL;
	}
	*out = &p->st;
	return 0;
}

#endif
