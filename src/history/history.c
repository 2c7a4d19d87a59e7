/*
 * history.c: the results history (see history.h): opening a store,
 * creating and migrating its schema, and recording an invocation.  The
 * queries are in history_query.c; the stores in history_sqlite.c and
 * history_pg.c, which run the SQL written here.
 *
 * Schema (tables prefixed cbench_ so they can share a PostgreSQL database):
 *   cbench_meta        key/value: schema = cbench-history, version = N
 *   cbench_invocation  one row per recorded invocation: time, cbench
 *                      version, origin (run or import), argv (JSON), source
 *                      state, machine fingerprint, hostname, machine (JSON)
 *   cbench_label       --history-label KEY=VALUE of an invocation
 *   cbench_benchmark   its benchmarks: name, command, parameters (JSON),
 *                      run counts
 *   cbench_summary     per benchmark and metric: the analysis' summary
 *   cbench_samples     per benchmark and metric: every run's value, as n
 *                      little-endian IEEE 754 doubles (NaN: not counted) in
 *                      one blob, so 100,000 runs are one row per metric
 * The schema is built by numbered steps (schema_steps below); a database
 * at step k gets steps k+1 .. HISTORY_SCHEMA_VERSION in one transaction
 * with the version update, so rows are never lost and a failed migration
 * leaves the old schema as it was.  Steps are never edited once released:
 * a change is a new step.
 */
#include "history.h"
#include "history_int.h"
#include "numfmt.h"
#include "analysis.h"
#include "version.h"
#include "xalloc.h"

#include <cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct history {
	struct hist_store *st;
	/* An SQLite file: its identity when opened (history_replaced). */
	bool file;
	dev_t dev;
	ino_t ino;
	char *path;
};

struct hist_store *history_store(struct history *h)
{
	return h->st;
}

bool history_have_postgresql(void)
{
	return hist_pg_available();
}

bool history_is_url(const char *target)
{
	return strncmp(target, "postgresql://", 13) == 0 ||
	       strncmp(target, "postgres://", 11) == 0;
}

const char *history_backend(const struct history *h)
{
	return h->st->name;
}

/* ---- schema ---- */

/* %I id column, %N integer, %R double, %B blob; statements end with ';'. */
static const char *const schema_steps[HISTORY_SCHEMA_VERSION] = {
	/* 1: invocations, benchmarks, summaries, samples */
	"CREATE TABLE cbench_invocation (id %I, recorded_at TEXT NOT NULL, "
	"unix_time %N NOT NULL, cbench_version TEXT NOT NULL, origin TEXT NOT "
	"NULL, argv TEXT NOT NULL, commit_sha TEXT, branch TEXT, dirty %N NOT "
	"NULL, source_from TEXT, machine TEXT NOT NULL, hostname TEXT, "
	"machine_json TEXT);"
	"CREATE TABLE cbench_benchmark (id %I, invocation_id %N NOT NULL "
	"REFERENCES cbench_invocation(id) ON DELETE CASCADE, position %N NOT "
	"NULL, name TEXT NOT NULL, command TEXT NOT NULL, params TEXT NOT NULL, "
	"n_runs %N NOT NULL, failed_runs %N NOT NULL, interrupted %N NOT NULL);"
	"CREATE INDEX cbench_benchmark_inv ON cbench_benchmark(invocation_id);"
	"CREATE TABLE cbench_summary (benchmark_id %N NOT NULL REFERENCES "
	"cbench_benchmark(id) ON DELETE CASCADE, metric TEXT NOT NULL, n %N NOT "
	"NULL, mean %R, stddev %R, median %R, min %R, max %R, ci_lo %R, ci_hi "
	"%R, confidence %R, PRIMARY KEY (benchmark_id, metric));"
	"CREATE TABLE cbench_samples (benchmark_id %N NOT NULL REFERENCES "
	"cbench_benchmark(id) ON DELETE CASCADE, metric TEXT NOT NULL, n %N NOT "
	"NULL, vals %B NOT NULL, PRIMARY KEY (benchmark_id, metric));",
	/* 2: labels; indexes for series and age */
	"CREATE TABLE cbench_label (invocation_id %N NOT NULL REFERENCES "
	"cbench_invocation(id) ON DELETE CASCADE, key TEXT NOT NULL, value TEXT "
	"NOT NULL, PRIMARY KEY (invocation_id, key));"
	"CREATE INDEX cbench_benchmark_name ON cbench_benchmark(name);"
	"CREATE INDEX cbench_invocation_time ON cbench_invocation(unix_time);",
};

/* Run every statement of a step, with the store's type names. */
static int run_step(struct hist_store *st, const char *tmpl, char *err,
		    size_t errlen)
{
	size_t cap = strlen(tmpl) * 2 + 64, len = 0;
	char *sql = xmalloc(cap);
	int rc = 0;
	for (const char *p = tmpl; *p && rc == 0; p++) {
		const char *word = NULL;
		if (*p == '%' && p[1]) {
			switch (*++p) {
			case 'I': word = st->t_id; break;
			case 'N': word = st->t_int; break;
			case 'R': word = st->t_real; break;
			default: word = st->t_blob; break;
			}
			size_t wl = strlen(word);
			memcpy(sql + len, word, wl);
			len += wl;
			continue;
		}
		if (*p != ';') {
			sql[len++] = *p;
			continue;
		}
		sql[len] = '\0';
		rc = st->exec(st, sql, NULL, 0, NULL, NULL, err, errlen);
		len = 0;
	}
	free(sql);
	return rc;
}

struct meta { char schema[64]; long version; };

static int read_meta(void *ctx, const struct hv *c, int n)
{
	struct meta *m = ctx;
	if (n < 2 || c[0].t != HV_TEXT || c[1].t != HV_TEXT)
		return 1;
	if (strcmp(c[0].s, "schema") == 0)
		snprintf(m->schema, sizeof m->schema, "%s", c[1].s);
	else if (strcmp(c[0].s, "version") == 0)
		m->version = strtol(c[1].s, NULL, 10);
	return 0;
}

static int rollback(struct hist_store *st)
{
	char ignore[DIAG_MSG_MAX];
	return st->exec(st, "ROLLBACK", NULL, 0, NULL, NULL, ignore, sizeof ignore);
}

/* Check the schema's identity and version (the transaction is open). */
static int check_meta(struct hist_store *st, const char *target, struct meta *m,
		      char *err, size_t errlen)
{
	int rc = st->exec(st, "SELECT key, value FROM cbench_meta", NULL, 0,
			  read_meta, m, err, errlen);
	if (rc != 0)
		return rc;
	if (m->version == 0 && m->schema[0] == '\0')
		return 0;   /* new */
	if (strcmp(m->schema, "cbench-history") != 0 || m->version < 1) {
		snprintf(err, errlen, "%s is not a cbench history (its cbench_meta "
			 "table belongs to something else); left as it is", target);
		return HISTORY_EINPUT;
	}
	if (m->version > HISTORY_SCHEMA_VERSION) {
		snprintf(err, errlen, "the history %s has schema version %ld, made "
			 "by a newer cbench; this one (%s) knows versions 1 to %d: "
			 "upgrade cbench (the history was left as it is)", target,
			 m->version, CBENCH_VERSION, HISTORY_SCHEMA_VERSION);
		return HISTORY_EINPUT;
	}
	return 0;
}

/* Create or migrate up to version `upto`, in one transaction. */
static int migrate(struct hist_store *st, const char *target, int upto,
		   char *err, size_t errlen)
{
	int rc = st->begin(st, err, errlen);
	if (rc != 0)
		return rc;
	struct meta m = {"", 0};
	rc = st->exec(st, "CREATE TABLE IF NOT EXISTS cbench_meta (key TEXT "
		      "PRIMARY KEY, value TEXT NOT NULL)", NULL, 0, NULL, NULL,
		      err, errlen);
	if (rc == 0)
		rc = check_meta(st, target, &m, err, errlen);
	if (rc == 0 && m.version == 0)
		rc = st->exec(st, "INSERT INTO cbench_meta (key, value) VALUES "
			      "('schema', 'cbench-history'), ('version', '0')",
			      NULL, 0, NULL, NULL, err, errlen);
	for (long v = m.version + 1; rc == 0 && v <= upto; v++)
		rc = run_step(st, schema_steps[v - 1], err, errlen);
	if (rc == 0 && m.version < upto) {
		char ver[16];
		snprintf(ver, sizeof ver, "%d", upto);
		struct hv a = hv_text(ver);
		rc = st->exec(st, "UPDATE cbench_meta SET value = ? WHERE key = "
			      "'version'", &a, 1, NULL, NULL, err, errlen);
	}
	if (rc == 0)
		rc = st->exec(st, "COMMIT", NULL, 0, NULL, NULL, err, errlen);
	if (rc != 0)
		rollback(st);
	return rc;
}

/* Read-only: the schema must be this cbench's own. */
static int check_readonly(struct hist_store *st, const char *target, char *err,
			  size_t errlen)
{
	struct meta m = {"", 0};
	int rc = check_meta(st, target, &m, err, errlen);
	if (rc == 0 && m.version != HISTORY_SCHEMA_VERSION) {
		snprintf(err, errlen, "the history %s has schema version %ld and is "
			 "read-only here, so it cannot be brought to version %d",
			 target, m.version, HISTORY_SCHEMA_VERSION);
		rc = HISTORY_EINPUT;
	}
	return rc;
}

/* Milliseconds from the environment variable name: digits only, at most
 * an hour, else def. */
static int env_ms(const char *name, int def)
{
	const char *e = getenv(name);
	if (e == NULL || !isdigit((unsigned char)e[0]))
		return def;
	char *end;
	errno = 0;
	long v = strtol(e, &end, 10);
	return *end == '\0' && errno == 0 && v <= 3600000 ? (int)v : def;
}

/* How long to wait for another writer of the history (SQLite's lock,
 * PostgreSQL's advisory lock). */
static int busy_ms(void)
{
	return env_ms("CBENCH_HISTORY_BUSY_MS", 10000);
}

/*
 * The --metric metrics the history holds samples of: each recorded in
 * cbench_meta as key "metric:NAME", value "UNIT\tlower" or "UNIT\thigher"
 * (which is better), and defined on open so their rows read like any other
 * metric's.  A name this invocation defines otherwise is an error.
 */
struct metric_rows {
	char why[DIAG_MSG_MAX];
	int rc;
};

static int define_metric_row(void *ctx, const struct hv *c, int n)
{
	struct metric_rows *mr = ctx;
	if (n < 2 || c[0].t != HV_TEXT || c[1].t != HV_TEXT)
		return 0;
	const char *tab = strchr(c[1].s, '\t');
	if (tab == NULL)
		return 0;
	char *unit = xstrndup(c[1].s, (size_t)(tab - c[1].s));
	char why[DIAG_MSG_MAX];
	if (metric_define(c[0].s + 7, unit, strcmp(tab + 1, "higher") == 0, NULL,
			  why, sizeof why) < 0) {
		snprintf(mr->why, sizeof mr->why, "%s", why);
		mr->rc = HISTORY_EINPUT;
	}
	free(unit);
	return mr->rc != 0;
}

static int define_metrics(struct hist_store *st, const char *target, char *err,
			  size_t errlen)
{
	struct metric_rows mr = {"", 0};
	int rc = st->exec(st, "SELECT key, value FROM cbench_meta WHERE key LIKE "
			  "'metric:%'", NULL, 0, define_metric_row, &mr, err, errlen);
	if (mr.rc)
		snprintf(err, errlen, "history %s: %s (the history keeps its own "
			 "definition)", target, mr.why);
	return mr.rc ? mr.rc : rc;
}

/* Record the definitions of the custom metrics of set (see above). */
static int record_metrics(struct hist_store *st, const struct cmp_set *set,
			  char *err, size_t errlen)
{
	int rc = 0;
	for (int m = MET_CUSTOM_FIRST; rc == 0 && m < MET_COUNT; m++) {
		const struct metric_info *mi = metric_info((enum metric_id)m);
		bool used = false;
		for (size_t i = 0; i < set->n && !used; i++)
			used = set->bench[i].col[m] != NULL;
		if (!used)
			continue;
		char *key = xasprintf("metric:%s", mi->key);
		char *val = xasprintf("%s\t%s", mi->unit_text,
				      mi->higher_is_better ? "higher" : "lower");
		struct hv a[] = {hv_text(key), hv_text(val)};
		rc = st->exec(st, "INSERT INTO cbench_meta (key, value) VALUES (?, ?) "
			      "ON CONFLICT (key) DO NOTHING", a, 2, NULL, NULL,
			      err, errlen);
		free(key);
		free(val);
	}
	return rc;
}

/* A SQLite file this open created, and its companions, removed after the
 * open failed: nothing half-made is left (a file-size limit, a full disk). */
static void drop_new_file(const char *target)
{
	static const char *const ext[] = {"", "-wal", "-shm", "-journal"};
	for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
		char *p = xasprintf("%s%s", target, ext[i]);
		unlink(p);
		free(p);
	}
}

static int open_at(const char *target, bool create, int upto,
		   struct history **out, char *err, size_t errlen)
{
	*out = NULL;
	struct hist_store *st = NULL;
	bool url = history_is_url(target);
	int rc;
	bool rw = create || url;
	/* Made here, by this open (O_EXCL: not by a concurrent cbench), so
	 * removed again if the open fails. */
	bool made = false;
	if (!url && create && target[0]) {
		int fd = open(target, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
		if (fd >= 0) {
			made = true;
			close(fd);
		}
	}
	if (url) {
		rc = hist_pg_open(target, busy_ms(),
				  env_ms("CBENCH_HISTORY_TIMEOUT_MS", 30000),
				  &st, err, errlen);
	} else {
		if (target[0] == '\0') {
			snprintf(err, errlen, "the history target is empty");
			return HISTORY_EINPUT;
		}
		/* Reading an existing file that this user may write: open it
		 * writable, so an older schema can be migrated. */
		FILE *probe = create ? NULL : fopen(target, "r+b");
		if (probe) {
			fclose(probe);
			rw = true;
		}
		rc = hist_sqlite_open(target, rw, busy_ms(), create, &st, err, errlen);
	}
	if (rc == 0) {
		rc = rw ? migrate(st, target, upto, err, errlen)
			: check_readonly(st, target, err, errlen);
		if (rc == 0)
			rc = define_metrics(st, target, err, errlen);
		if (rc != 0)
			st->close(st);
	}
	if (rc != 0) {
		if (made)
			drop_new_file(target);
		return rc;
	}
	struct history *h = xcalloc(1, sizeof *h);
	h->st = st;
	struct stat sb;
	if (!url && stat(target, &sb) == 0) {
		h->file = true;
		h->dev = sb.st_dev;
		h->ino = sb.st_ino;
		h->path = xstrdup(target);
	}
	*out = h;
	return 0;
}

char *history_redact(const char *s)
{
	size_t n = strlen(s);
	char *out = xmalloc(n + 4 * (n / 9 + 2) + 1);   /* each secret, "***" */
	size_t o = 0;
	const char *p = s;
	const char *scheme = strstr(s, "://");
	if (scheme && (strncmp(s, "postgres", 8) == 0 || strstr(s, "=postgres"))) {
		/* the user part: after "://", before the first '@' that comes
		 * before any '/', '?' or '#' */
		const char *a = scheme + 3, *end = a + strcspn(a, "/?#");
		const char *at = memchr(a, '@', (size_t)(end - a));
		const char *colon = at ? memchr(a, ':', (size_t)(at - a)) : NULL;
		if (colon) {
			memcpy(out, s, (size_t)(colon + 1 - s));
			o = (size_t)(colon + 1 - s);
			memcpy(out + o, "***", 3);
			o += 3;
			p = at;
		}
	}
	while (*p) {
		/* password= at the start, or after '?', '&', ' ' or '=' (a
		 * --history=... word) */
		bool start = p == s || strchr("?& =", p[-1]) != NULL;
		if (start && strncmp(p, "password=", 9) == 0) {
			memcpy(out + o, p, 9);
			o += 9;
			p += 9;
			memcpy(out + o, "***", 3);
			o += 3;
			p += strcspn(p, "& ");
			continue;
		}
		out[o++] = *p++;
	}
	out[o] = '\0';
	return out;
}

bool history_replaced(const struct history *h)
{
	struct stat sb;
	return h->file && (stat(h->path, &sb) != 0 || sb.st_dev != h->dev ||
			   sb.st_ino != h->ino);
}

int history_open(const char *target, bool write, struct history **out,
		 char *err, size_t errlen)
{
	return open_at(target, write, HISTORY_SCHEMA_VERSION, out, err, errlen);
}

int history_create_version(const char *path, int version, char *err,
			   size_t errlen)
{
	if (version < 1 || version > HISTORY_SCHEMA_VERSION) {
		snprintf(err, errlen, "no schema version %d", version);
		return HISTORY_EINPUT;
	}
	struct history *h;
	int rc = open_at(path, true, version, &h, err, errlen);
	history_close(h);
	return rc;
}

void history_close(struct history *h)
{
	if (h == NULL)
		return;
	h->st->close(h->st);
	free(h->path);
	free(h);
}

/* ---- context ---- */

/* FNV-1a, 64 bits (Fowler, Noll, Vo): a stable hash, not a secure one. */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h ^ 0xff;   /* field separator */
}

void history_fingerprint(const struct machine_info *m, char out[17])
{
	char num[96];
	uint64_t h = 0xcbf29ce484222325ULL;
	h = fnv1a(h, m->cpu_model);
	snprintf(num, sizeof num, "%ld %lld %d", m->cpus,
		 (long long)(m->mem_total > 0 ? m->mem_total >> 20 : -1), m->pmu);
	h = fnv1a(h, num);
	h = fnv1a(h, m->kernel);
	h = fnv1a(h, m->governor);
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

int history_label_check(const char *label, char *err, size_t errlen)
{
	const char *eq = strchr(label, '=');
	bool ok = eq && eq != label;
	for (const char *p = label; ok && p < eq; p++)
		ok = isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '-';
	if (!ok) {
		snprintf(err, errlen, "--history-label '%s': expected KEY=VALUE "
			 "(KEY of letters, digits, _ . -)", label);
		return HISTORY_EINPUT;
	}
	if (strncmp(label, "dirty=", 6) == 0 && strcmp(eq + 1, "0") != 0 &&
	    strcmp(eq + 1, "1") != 0) {
		snprintf(err, errlen, "--history-label '%s': dirty is 0 or 1", label);
		return HISTORY_EINPUT;
	}
	return 0;
}

/* The source state with the labels commit=, branch= and dirty= applied. */
static struct source_state labelled(const struct history_context *c)
{
	struct source_state s = c->source;
	for (size_t i = 0; i < c->n_labels; i++) {
		const char *l = c->labels[i], *v = strchr(l, '=') + 1;
		if (strncmp(l, "commit=", 7) == 0)
			snprintf(s.commit, sizeof s.commit, "%s", v);
		else if (strncmp(l, "branch=", 7) == 0)
			snprintf(s.branch, sizeof s.branch, "%s", v);
		else if (strncmp(l, "dirty=", 6) == 0)
			s.dirty = strcmp(v, "1") == 0;
		else
			continue;
		snprintf(s.from, sizeof s.from, "label");
	}
	return s;
}

static char *machine_json(const struct machine_info *m)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "hostname", m->hostname);
	cJSON_AddStringToObject(j, "kernel", m->kernel);
	cJSON_AddStringToObject(j, "os_release", m->os_release);
	cJSON_AddStringToObject(j, "cpu_model", m->cpu_model);
	cJSON_AddNumberToObject(j, "cpus", (double)m->cpus);
	cJSON_AddNumberToObject(j, "mem_total", (double)m->mem_total);
	cJSON_AddStringToObject(j, "governor", m->governor);
	cJSON_AddNumberToObject(j, "boost", m->boost);
	cJSON_AddNumberToObject(j, "smt", m->smt);
	cJSON_AddNumberToObject(j, "pmu", m->pmu);
	cJSON_AddStringToObject(j, "compiler", m->compiler);
	/* The machine's state, not its identity (not in the fingerprint):
	 * `history detect` tells a busier machine from a regression by it. */
	if (m->loadavg[0] >= 0 && m->loadavg[1] >= 0 && m->loadavg[2] >= 0) {
		cJSON *l = cJSON_AddArrayToObject(j, "load_average");
		for (int k = 0; k < 3; k++)
			cJSON_AddItemToArray(l, cJSON_CreateNumber(m->loadavg[k]));
	}
	char *s = numfmt_json_exact(j) == 0 ? cJSON_PrintUnformatted(j) : NULL;
	cJSON_Delete(j);
	char *out = xstrdup(s ? s : "{}");
	cJSON_free(s);
	return out;
}

static char *argv_json(int argc, char *const *argv)
{
	cJSON *j = cJSON_CreateArray();
	for (int i = 0; argv && i < argc; i++)
		cJSON_AddItemToArray(j, cJSON_CreateString(argv[i]));
	char *s = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	char *out = xstrdup(s ? s : "[]");
	cJSON_free(s);
	return out;
}

static char *params_json(const struct cmp_bench *b)
{
	cJSON *j = cJSON_CreateObject();
	for (size_t k = 0; k < b->n_params; k++)
		cJSON_AddStringToObject(j, b->params[k].name, b->params[k].value);
	char *s = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	char *out = xstrdup(s ? s : "{}");
	cJSON_free(s);
	return out;
}

/* ---- recording ---- */

static int take_id(void *ctx, const struct hv *c, int n)
{
	if (n < 1 || c[0].t != HV_INT)
		return 1;
	*(int64_t *)ctx = c[0].i;
	return 0;
}

static int insert_invocation(struct hist_store *st, const struct history_context *c,
			     int64_t *id, char *err, size_t errlen)
{
	struct source_state s = labelled(c);
	struct machine_info none;
	memset(&none, 0, sizeof none);
	none.pmu = -1;
	const struct machine_info *m = c->machine ? c->machine : &none;
	char fp[17], when[32];
	if (c->machine_name)
		snprintf(fp, sizeof fp, "%s", c->machine_name);
	else if (c->machine)
		history_fingerprint(m, fp);
	else
		snprintf(fp, sizeof fp, "unknown");
	struct tm tm;
	gmtime_r(&c->when, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	char *argv = argv_json(c->argc, c->argv);
	char *mj = c->machine ? machine_json(m) : NULL;
	struct hv a[] = {
		hv_text(when), hv_int((int64_t)c->when), hv_text(CBENCH_VERSION),
		hv_text(c->origin), hv_text(argv),
		hv_text(s.commit[0] ? s.commit : NULL),
		hv_text(s.branch[0] ? s.branch : NULL), hv_int(s.dirty),
		hv_text(s.from[0] ? s.from : NULL), hv_text(fp),
		hv_text(c->machine ? m->hostname : NULL), hv_text(mj),
	};
	int rc = st->exec(st, "INSERT INTO cbench_invocation (recorded_at, "
			  "unix_time, cbench_version, origin, argv, commit_sha, "
			  "branch, dirty, source_from, machine, hostname, "
			  "machine_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
			  "RETURNING id", a, 12, take_id, id, err, errlen);
	free(argv);
	free(mj);
	for (size_t i = 0; rc == 0 && i < c->n_labels; i++) {
		const char *l = c->labels[i], *eq = strchr(l, '=');
		char *key = xasprintf("%.*s", (int)(eq - l), l);
		struct hv b[] = {hv_int(*id), hv_text(key), hv_text(eq + 1)};
		/* A key given twice: the last one counts. */
		rc = st->exec(st, "DELETE FROM cbench_label WHERE invocation_id = ? "
			      "AND key = ?", b, 2, NULL, NULL, err, errlen);
		if (rc == 0)
			rc = st->exec(st, "INSERT INTO cbench_label (invocation_id, "
				      "key, value) VALUES (?, ?, ?)", b, 3, NULL,
				      NULL, err, errlen);
		free(key);
	}
	return rc;
}

/* n doubles as little-endian IEEE 754 bytes. */
static unsigned char *encode(const double *x, size_t n)
{
	unsigned char *b = xmalloc(n * 8 + 1);
	for (size_t i = 0; i < n; i++) {
		uint64_t u;
		memcpy(&u, &x[i], 8);
		for (int k = 0; k < 8; k++)
			b[i * 8 + k] = (unsigned char)(u >> (8 * k));
	}
	return b;
}

/* Test hook: CBENCH_HISTORY_FAULT=kill kills cbench in the middle of the
 * transaction, after the first benchmark's rows, as a crash or a SIGKILL
 * would (tests/e2e/history.sh checks that nothing of it is kept). */
static void fault_point(void)
{
	const char *f = getenv("CBENCH_HISTORY_FAULT");
	if (f && strcmp(f, "kill") == 0)
		raise(SIGKILL);
}

static int insert_metric(struct hist_store *st, int64_t bid, int m,
			 const struct cmp_bench *b, const struct stats_summary *given,
			 char *err, size_t errlen)
{
	const char *key = metric_info((enum metric_id)m)->key;
	unsigned char *blob = encode(b->col[m], b->n_runs);
	struct hv a[] = {hv_int(bid), hv_text(key), hv_int((int64_t)b->n_runs),
			 hv_blob(blob, b->n_runs * 8)};
	int rc = st->exec(st, "INSERT INTO cbench_samples (benchmark_id, metric, "
			  "n, vals) VALUES (?, ?, ?, ?)", a, 4, NULL, NULL, err, errlen);
	free(blob);
	struct stats_summary s;
	if (rc != 0)
		return rc;
	if (given && given->n > 0)
		s = *given;
	else if (stats_summarize(b->col[m], b->n_runs, 0.95, &s) != 0)
		return 0;    /* nothing counted: samples only */
	struct hv v[] = {hv_int(bid), hv_text(key), hv_int((int64_t)s.n),
			 hv_real(s.mean), hv_real(s.stddev), hv_real(s.median),
			 hv_real(s.min), hv_real(s.max), hv_real(s.mean_ci_lo),
			 hv_real(s.mean_ci_hi), hv_real(s.confidence)};
	for (int k = 3; k < 11; k++)
		if (!isfinite(v[k].d))
			v[k] = (struct hv){.t = HV_NULL};
	return st->exec(st, "INSERT INTO cbench_summary (benchmark_id, metric, n, "
			"mean, stddev, median, min, max, ci_lo, ci_hi, confidence) "
			"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", v, 11, NULL, NULL,
			err, errlen);
}

static int insert_bench(struct hist_store *st, int64_t inv, size_t pos,
			const struct cmp_bench *b, const struct analysis_bench *ab,
			char *err, size_t errlen)
{
	char *params = params_json(b);
	struct hv a[] = {hv_int(inv), hv_int((int64_t)pos), hv_text(b->name),
			 hv_text(b->command), hv_text(params),
			 hv_int((int64_t)b->n_runs), hv_int((int64_t)b->failed_runs),
			 hv_int(b->interrupted)};
	int64_t bid = 0;
	int rc = st->exec(st, "INSERT INTO cbench_benchmark (invocation_id, "
			  "position, name, command, params, n_runs, failed_runs, "
			  "interrupted) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
			  a, 8, take_id, &bid, err, errlen);
	free(params);
	for (int m = 0; rc == 0 && m < MET_COUNT; m++)
		if (b->col[m])
			rc = insert_metric(st, bid, m, b, ab ? &ab->sum[m] : NULL,
					   err, errlen);
	return rc;
}

int history_record(struct history *h, const struct history_context *ctx,
		   const struct cmp_set *set, const struct analysis *an,
		   int64_t *id, char *err, size_t errlen)
{
	struct hist_store *st = h->st;
	int rc = st->begin(st, err, errlen);
	if (rc != 0)
		return rc;
	*id = 0;
	rc = record_metrics(st, set, err, errlen);
	if (rc == 0)
		rc = insert_invocation(st, ctx, id, err, errlen);
	for (size_t i = 0; rc == 0 && i < set->n; i++) {
		const struct analysis_bench *ab =
			an && i < an->n && an->bench[i].n_runs == set->bench[i].n_runs
			? &an->bench[i] : NULL;
		rc = insert_bench(st, *id, i, &set->bench[i], ab, err, errlen);
		if (i == 0 && rc == 0)
			fault_point();
	}
	if (rc == 0)
		rc = st->exec(st, "COMMIT", NULL, 0, NULL, NULL, err, errlen);
	if (rc != 0)
		rollback(st);
	return rc;
}
