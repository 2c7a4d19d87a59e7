/*
 * history.h: the results history.  Every invocation recorded with
 * --history TARGET is kept in a database: its context (time, cbench
 * version, command line, machine fingerprint, source state, labels), each
 * benchmark with its analysis summary per metric, and the raw per-run
 * values of every metric.  `cbench history` reads it back: listings, one
 * invocation, the series of a benchmark across commits, exports, imports,
 * pruning; --baseline-history gates against it.
 *
 * Two stores behind one interface: an embedded SQLite file (a TARGET that
 * is a path) and a PostgreSQL server (a TARGET that starts with
 * postgresql:// or postgres://, through libpq when cbench was built with
 * it).  The schema is versioned (cbench_meta.version) and migrated forward
 * step by step in one transaction; a database made by a newer cbench, a
 * corrupt file or another program's database is refused with an input
 * error and never written to.  Each invocation is written in one
 * transaction: an interrupted writer leaves all of it or none.
 *
 * Library-style: nothing here prints or exits.  Functions return 0, or
 * HISTORY_EFAIL (the database could not be used: locked, full, read-only,
 * unreachable; exit 1) or HISTORY_EINPUT (the TARGET or the request is
 * wrong: exit 2), with one line in err.
 * Ownership: history_open() returns a handle freed by history_close();
 * every array a query fills is freed with its _free function.
 */
#ifndef CBENCH_HISTORY_H
#define CBENCH_HISTORY_H

#include "gate.h"
#include "sysinfo.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define HISTORY_EFAIL (-1)
#define HISTORY_EINPUT (-2)

/* The schema version this cbench writes (and the newest it reads). */
#define HISTORY_SCHEMA_VERSION 2

struct history;

/* Was cbench built with libpq (postgresql:// targets)? */
bool history_have_postgresql(void);
/* Is target a PostgreSQL URL (postgresql:// or postgres://), not a file? */
bool history_is_url(const char *target);
/* s with any PostgreSQL password in it masked as "***": the one in a
 * URL's user part (postgresql://user:SECRET@host) and the value of a
 * password= parameter (in a URL's query or a key=value connection
 * string); anything else unchanged.  A new string. */
char *history_redact(const char *s);

/*
 * Open TARGET, creating the SQLite file (and its directory) or the
 * PostgreSQL schema when missing, and migrating an older schema.  With
 * !write a missing SQLite file is an input error and nothing is created.
 * busy_ms: how long to wait for another writer (SQLite), 0 for the
 * default (CBENCH_HISTORY_BUSY_MS, else 10 s).
 */
int history_open(const char *target, bool write, struct history **out,
		 char *err, size_t errlen);
void history_close(struct history *h);
/* An SQLite history whose path no longer names the file it opened
 * (deleted, or another file moved there): what is written to it now
 * would be lost.  False for PostgreSQL. */
bool history_replaced(const struct history *h);
/* "SQLite" or "PostgreSQL". */
const char *history_backend(const struct history *h);

/* For tests: create a new SQLite file at schema version `version` only
 * (1 .. HISTORY_SCHEMA_VERSION), as an older cbench made it. */
int history_create_version(const char *path, int version, char *err,
			   size_t errlen);

/* The machine fingerprint: 16 hex digits of a hash of the CPU model, core
 * count, memory, kernel, governor and PMU presence. */
void history_fingerprint(const struct machine_info *m, char out[17]);

/* What an invocation is recorded with. */
struct history_context {
	time_t when;
	const char *origin;            /* "run", or "import FILE" */
	int argc;
	char *const *argv;             /* the command line, or NULL */
	const struct machine_info *machine;   /* NULL: unknown (imports) */
	struct source_state source;    /* labels commit=, branch=, dirty=
					  override it */
	const char *const *labels;     /* "KEY=VALUE" */
	size_t n_labels;
	const char *machine_name;      /* instead of the fingerprint
					  ("hyperfine"), or NULL */
};

/* Check "KEY=VALUE" (a non-empty key of letters, digits, _ . -). */
int history_label_check(const char *label, char *err, size_t errlen);

/*
 * Record one invocation: set's benchmarks with every per-run column and,
 * per metric, the summary of the analysis an (NULL: summarised here from
 * the runs).  One transaction.  *id gets the new invocation's id.
 */
struct analysis;
int history_record(struct history *h, const struct history_context *ctx,
		   const struct cmp_set *set, const struct analysis *an,
		   int64_t *id, char *err, size_t errlen);

/* Which invocations a query looks at; NULL or 0 fields: any. */
struct history_filter {
	const char *bench;      /* a benchmark name or command line */
	const char *branch;
	const char *machine;    /* fingerprint (or a prefix) or hostname */
	const char *commit;     /* commit hash or prefix */
	size_t limit;           /* newest this many */
};

struct history_inv {
	int64_t id;
	char recorded_at[32];   /* ISO 8601 UTC */
	int64_t unix_time;
	char *version, *origin, *argv;     /* argv: a JSON array */
	char *commit, *branch, *source_from;
	int dirty;              /* 1, 0, -1 unknown */
	char machine[17];
	char *hostname, *machine_json;
	char *benches;          /* benchmark names, ", "-joined */
	size_t n_bench;
	char *labels;           /* "k=v k=v", to show */
	char **label_kv;        /* each label, "KEY=VALUE" (a value may hold
				   spaces and '=') */
	size_t n_labels;
};

/* Invocations, newest first. */
int history_list(struct history *h, const struct history_filter *f,
		 struct history_inv **out, size_t *n, char *err, size_t errlen);
void history_invs_free(struct history_inv *v, size_t n);

struct history_summary {
	int metric;             /* enum metric_id */
	size_t n;
	double mean, stddev, median, min, max, ci_lo, ci_hi, confidence;
};

struct history_bench {
	int64_t id;
	char *name, *command;
	struct param_value *params;
	size_t n_params;
	size_t n_runs, failed_runs;
	bool interrupted;
	struct history_summary *sum;
	size_t n_sum;
	double *col[MET_COUNT]; /* with samples: n_runs values, or NULL */
};

struct history_detail {
	struct history_inv inv;
	struct history_bench *bench;
	size_t n_bench;
};

/* One invocation (samples too when with_samples); HISTORY_EINPUT when
 * there is no invocation id. */
int history_show(struct history *h, int64_t id, bool with_samples,
		 struct history_detail **out, char *err, size_t errlen);
void history_detail_free(struct history_detail *d);

/* One point of a series: a benchmark's metric in one invocation. */
struct history_point {
	int64_t inv;
	int64_t unix_time;
	char recorded_at[32];
	char commit[64];
	char branch[128];
	char machine[17];
	int dirty;
	size_t n;               /* runs counted */
	double mean, stddev, median, ci_lo, ci_hi;
	double confidence;      /* the level of [ci_lo, ci_hi] */
	/* The machine's state: its 1-minute load average as the
	 * invocation's runs ended (as they started, for an imported results
	 * file), and the benchmark's CPU time (user + system) over its wall
	 * time, means; NaN where not recorded. */
	double load, cpu_share;
};

/*
 * The series of benchmark f->bench (by name, or by command line when
 * by_command) on metric, oldest first (with f->limit: the newest limit
 * points).  f->machine is an exact fingerprint here; f->commit a hash or
 * its prefix.
 */
int history_series(struct history *h, const struct history_filter *f,
		   bool by_command, int metric, struct history_point **out,
		   size_t *n, char *err, size_t errlen);

/*
 * For --precision: the spread of each planned benchmark's wall-time mean
 * between invocations (between.h), from its newest BETWEEN_WINDOW
 * invocations on machine (a fingerprint) at commit (NULL: any), matched
 * by command line or by name: tau[i] (NaN with fewer than
 * BETWEEN_MIN_INVOCATIONS) and k[i], the invocations it came from.
 * 0, or HISTORY_EFAIL with a message.
 */
#define BETWEEN_WINDOW 30
int history_between(struct history *h, const struct cmp_set *planned,
		    bool by_command, const char *machine, const char *commit,
		    double *tau, size_t *k, char *err, size_t errlen);

/* Delete invocations recorded before `before` (0: no age limit), and all
 * but the newest `keep` (0: no count limit) among those matching f (NULL:
 * all).  The ids removed, oldest first, go to *ids. */
int history_prune(struct history *h, const struct history_filter *f,
		  time_t before, size_t keep, int64_t **ids, size_t *n,
		  char *err, size_t errlen);

/* The ids matching f, newest first (for exports). */
int history_ids(struct history *h, const struct history_filter *f,
		int64_t **ids, size_t *n, char *err, size_t errlen);

/* Write the invocations matching f, newest first: cbench-history JSON
 * (each invocation a cbench-results document) or CSV, one row per run. */
#include <stdio.h>
int history_export(struct history *h, const struct history_filter *f, bool csv,
		   FILE *out, char *err, size_t errlen);

/* Record the results in a JSON file (cbench's, a history export, or
 * hyperfine's), each invocation of it in its own transaction, with base's
 * labels.  The new ids go to *ids (freed by the caller), even on a
 * failure part way. */
int history_import(struct history *h, const char *path,
		   const struct history_context *base, int64_t **ids, size_t *n,
		   char *err, size_t errlen);

/*
 * The base of a gate against the history (--baseline-history): for each
 * benchmark of planned, its newest `window` invocations on machine (a
 * fingerprint) and branch (NULL: any), matched by command line or by name,
 * as a benchmark whose "runs" are those invocations' means, oldest first,
 * one column per metric recorded.  Benchmarks with fewer than two such
 * invocations are left out; none with two is HISTORY_EINPUT.
 */
int history_base_set(struct history *h, const struct cmp_set *planned,
		     bool by_command, const char *machine, const char *branch,
		     size_t window, struct cmp_set **out, char *err,
		     size_t errlen);

/* The distinct benchmark names of the history, in order of first record. */
int history_bench_names(struct history *h, char ***names, size_t *n,
			char *err, size_t errlen);

#endif
