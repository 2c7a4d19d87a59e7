/*
 * history_int.h: what history.c asks of a store (history_sqlite.c,
 * history_pg.c).  One statement at a time with positional parameters
 * written '?' (history_pg.c turns them into $1, $2, ...), each result row
 * handed to a callback as typed values.  history.c owns the SQL; a store
 * only runs it, and says how to spell a few column types.
 */
#ifndef CBENCH_HISTORY_INT_H
#define CBENCH_HISTORY_INT_H

#include <stddef.h>
#include <stdint.h>

enum hv_type { HV_NULL, HV_INT, HV_REAL, HV_TEXT, HV_BLOB };

/* A parameter or a column value.  Text and blobs point into the store's
 * buffers, valid during the callback only. */
struct hv {
	enum hv_type t;
	int64_t i;
	double d;
	const char *s;
	const void *b;
	size_t len;
};

/* Called per row; returns 0 to go on, non-zero to stop (the statement
 * then fails with that value). */
typedef int hist_row_fn(void *ctx, const struct hv *cols, int ncols);

struct hist_store {
	const char *name;            /* "SQLite", "PostgreSQL" */
	/* Column types: the id column, 64-bit integers, doubles, blobs. */
	const char *t_id, *t_int, *t_real, *t_blob;
	void *db;
	/* Run one statement; returns 0, HISTORY_EFAIL or HISTORY_EINPUT. */
	int (*exec)(struct hist_store *s, const char *sql, const struct hv *args,
		    int nargs, hist_row_fn *fn, void *ctx, char *err, size_t errlen);
	/* Start a writing transaction: SQLite BEGIN IMMEDIATE, PostgreSQL
	 * BEGIN plus an advisory lock while the schema is checked. */
	int (*begin)(struct hist_store *s, char *err, size_t errlen);
	void (*close)(struct hist_store *s);
};

/* history_sqlite.c: open the file at path (read-only unless write; made
 * when missing with create).  Refuses a file that is not an SQLite
 * database, holds another program's tables or a newer schema, before
 * writing anything. */
int hist_sqlite_open(const char *path, int write, int busy_ms, int create,
		     struct hist_store **out, char *err, size_t errlen);
/* history_pg.c: connect; HISTORY_EINPUT when built without libpq.
 * busy_ms: how long to wait for another writer's lock; timeout_ms: for
 * the connection, and for any answer while a statement runs (0: no
 * limit). */
int hist_pg_open(const char *conninfo, int busy_ms, int timeout_ms,
		 struct hist_store **out, char *err, size_t errlen);
int hist_pg_available(void);

/* The store of an open history (history.c), for history_query.c. */
struct history;
struct hist_store *history_store(struct history *h);

/* Value constructors. */
static inline struct hv hv_int(int64_t i) { return (struct hv){.t = HV_INT, .i = i}; }
static inline struct hv hv_real(double d) { return (struct hv){.t = HV_REAL, .d = d}; }
static inline struct hv hv_text(const char *s)
{
	return s ? (struct hv){.t = HV_TEXT, .s = s} : (struct hv){.t = HV_NULL};
}
static inline struct hv hv_blob(const void *b, size_t len)
{
	return (struct hv){.t = HV_BLOB, .b = b, .len = len};
}

#endif
