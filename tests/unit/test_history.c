/*
 * test_history.c: the results history's storage (history.h) on SQLite
 * files in a temporary directory, through the real library: recording
 * and reading back every value, listing and filters, series, pruning,
 * migration from an older schema, and the refusals (a file that is not a
 * database, another program's database, a newer schema), each of which
 * must leave the file byte for byte as it was.
 */
#include "history.h"
#include "unit.h"
#include "xalloc.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256];
static char path[300];
static char err[DIAG_MSG_MAX];

/* A set of one benchmark with wall time and page faults for n runs: wall
 * time base + k * step, page faults 100 + k, run 1's faults not counted. */
static struct cmp_set *make_set(const char *name, size_t n, double base,
				double step)
{
	struct cmp_set *s = xcalloc(1, sizeof *s);
	s->origin = xstrdup("test");
	s->format = CMP_FMT_RUN;
	s->n = 1;
	s->bench = xcalloc(1, sizeof *s->bench);
	struct cmp_bench *b = &s->bench[0];
	b->name = xstrdup(name);
	b->command = xasprintf("./%s --fast", name);
	b->params = xcalloc(1, sizeof *b->params);
	b->params[0].name = xstrdup("n");
	b->params[0].value = xstrdup("4");
	b->n_params = 1;
	b->n_runs = n;
	b->col[MET_WALL] = xcalloc(n, sizeof(double));
	b->col[MET_MINFLT] = xcalloc(n, sizeof(double));
	for (size_t k = 0; k < n; k++) {
		b->col[MET_WALL][k] = base + (double)k * step;
		b->col[MET_MINFLT][k] = k == 1 ? NAN : 100.0 + (double)k;
	}
	return s;
}

static struct history_context context(time_t when, const char *commit,
				      const char *branch)
{
	static struct machine_info m;
	memset(&m, 0, sizeof m);
	snprintf(m.hostname, sizeof m.hostname, "testhost");
	snprintf(m.cpu_model, sizeof m.cpu_model, "Test CPU");
	m.cpus = 4;
	m.pmu = 1;
	struct history_context c = {.when = when, .origin = "run",
				    .machine = &m};
	snprintf(c.source.commit, sizeof c.source.commit, "%s", commit);
	snprintf(c.source.branch, sizeof c.source.branch, "%s", branch);
	c.source.dirty = 0;
	snprintf(c.source.from, sizeof c.source.from, "git");
	return c;
}

static int record(struct history *h, time_t when, const char *commit,
		  const char *branch, double base)
{
	struct cmp_set *s = make_set("sort", 5, base, 0.001);
	struct history_context c = context(when, commit, branch);
	int64_t id;
	int rc = history_record(h, &c, s, NULL, &id, err, sizeof err);
	gate_set_free(s);
	return rc == 0 ? (int)id : -1;
}

static char *slurp(const char *p, size_t *len)
{
	FILE *f = fopen(p, "rb");
	if (f == NULL)
		return NULL;
	char *buf = xmalloc(1 << 20);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

static void test_record_and_show_roundtrip(void)
{
	struct history *h;
	CHECK(history_open(path, true, &h, err, sizeof err) == 0);
	CHECK_STR(history_backend(h), "SQLite");
	CHECK(record(h, 1000, "aaaa1111", "main", 0.010) == 1);
	struct history_detail *d;
	CHECK(history_show(h, 1, true, &d, err, sizeof err) == 0);
	CHECK(d->n_bench == 1);
	CHECK_STR(d->inv.commit, "aaaa1111");
	CHECK_STR(d->inv.branch, "main");
	CHECK_STR(d->inv.recorded_at, "1970-01-01T00:16:40Z");
	const struct history_bench *b = &d->bench[0];
	CHECK_STR(b->command, "./sort --fast");
	CHECK(b->n_params == 1);
	CHECK_STR(b->params[0].value, "4");
	CHECK(b->n_runs == 5);
	/* Every value back exactly, NaN (not counted) included. */
	for (size_t k = 0; k < 5; k++)
		CHECK(b->col[MET_WALL][k] == 0.010 + (double)k * 0.001);
	CHECK(isnan(b->col[MET_MINFLT][1]));
	CHECK(b->col[MET_MINFLT][4] == 104.0);
	CHECK(b->col[MET_USER] == NULL);
	/* The summary computed from the runs: mean of 0.010 .. 0.014 is
	 * 0.012, and of the faults 100, 102, 103, 104 (one not counted)
	 * 102.25 with n 4 (by hand). */
	bool wall = false, faults = false;
	for (size_t k = 0; k < b->n_sum; k++) {
		if (b->sum[k].metric == MET_WALL) {
			CHECK_NEAR(b->sum[k].mean, 0.012, 1e-15);
			CHECK(b->sum[k].n == 5);
			wall = true;
		} else if (b->sum[k].metric == MET_MINFLT) {
			CHECK_NEAR(b->sum[k].mean, 102.25, 1e-12);
			CHECK(b->sum[k].n == 4);
			faults = true;
		}
	}
	CHECK(wall && faults);
	history_detail_free(d);
	CHECK(history_show(h, 7, false, &d, err, sizeof err) == HISTORY_EINPUT);
	CHECK(strstr(err, "no invocation 7") != NULL);
	history_close(h);
}

static void test_list_filters_newest_first(void)
{
	struct history *h;
	CHECK(history_open(path, true, &h, err, sizeof err) == 0);
	CHECK(record(h, 1000, "c1", "main", 0.010) == 1);
	CHECK(record(h, 3000, "c3", "feature", 0.010) == 2);
	CHECK(record(h, 2000, "c2", "main", 0.010) == 3);
	struct history_inv *v;
	size_t n;
	CHECK(history_list(h, NULL, &v, &n, err, sizeof err) == 0);
	CHECK(n == 3);
	CHECK_STR(v[0].commit, "c3");   /* by time, not by id */
	CHECK_STR(v[1].commit, "c2");
	CHECK_STR(v[2].commit, "c1");
	CHECK_STR(v[0].benches, "sort");
	history_invs_free(v, n);
	struct history_filter f = {.branch = "main"};
	CHECK(history_list(h, &f, &v, &n, err, sizeof err) == 0);
	CHECK(n == 2 && v[0].id == 3 && v[1].id == 1);
	history_invs_free(v, n);
	f = (struct history_filter){.bench = "nosuch"};
	CHECK(history_list(h, &f, &v, &n, err, sizeof err) == 0);
	CHECK(n == 0);
	history_invs_free(v, n);
	f = (struct history_filter){.bench = "./sort --fast", .machine = "testhost",
				    .limit = 1};
	CHECK(history_list(h, &f, &v, &n, err, sizeof err) == 0);
	CHECK(n == 1 && v[0].id == 2);
	history_invs_free(v, n);
	history_close(h);
}

static void test_series_and_prune(void)
{
	struct history *h;
	CHECK(history_open(path, true, &h, err, sizeof err) == 0);
	for (int k = 0; k < 6; k++)
		CHECK(record(h, 1000 + k, "c", "main", k < 3 ? 0.010 : 0.020) == k + 1);
	struct history_point *p;
	size_t n;
	struct history_filter f = {.bench = "sort"};
	CHECK(history_series(h, &f, false, MET_WALL, &p, &n, err, sizeof err) == 0);
	CHECK(n == 6);
	CHECK(p[0].inv == 1 && p[5].inv == 6);   /* oldest first */
	CHECK_NEAR(p[0].mean, 0.012, 1e-15);
	CHECK_NEAR(p[5].mean, 0.022, 1e-15);
	free(p);
	f.limit = 2;
	CHECK(history_series(h, &f, false, MET_WALL, &p, &n, err, sizeof err) == 0);
	CHECK(n == 2 && p[0].inv == 5 && p[1].inv == 6);
	free(p);
	int64_t *ids;
	CHECK(history_prune(h, NULL, 1002, 0, &ids, &n, err, sizeof err) == 0);
	CHECK(n == 2 && ids[0] == 1 && ids[1] == 2);
	free(ids);
	CHECK(history_prune(h, NULL, 0, 3, &ids, &n, err, sizeof err) == 0);
	CHECK(n == 1 && ids[0] == 3);
	free(ids);
	struct history_detail *d;
	CHECK(history_show(h, 3, false, &d, err, sizeof err) == HISTORY_EINPUT);
	CHECK(history_show(h, 4, true, &d, err, sizeof err) == 0);
	history_detail_free(d);
	history_close(h);
	/* The samples and summaries went with their invocations. */
	sqlite3 *db;
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	sqlite3_stmt *st;
	CHECK(sqlite3_prepare_v2(db, "SELECT count(*) FROM cbench_samples", -1,
				 &st, NULL) == SQLITE_OK);
	CHECK(sqlite3_step(st) == SQLITE_ROW);
	int left = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	CHECK(left == 3 * 2);   /* 3 invocations, wall time and faults */
}

static void test_migrates_older_schema_keeping_rows(void)
{
	CHECK(history_create_version(path, 1, err, sizeof err) == 0);
	/* A row as cbench at schema 1 wrote it (no labels table then). */
	sqlite3 *db;
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "INSERT INTO cbench_invocation (recorded_at, "
			   "unix_time, cbench_version, origin, argv, dirty, machine) "
			   "VALUES ('1970-01-01T00:00:05Z', 5, '0.0.9', 'run', '[]', "
			   "-1, 'old')", NULL, NULL, NULL) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "SELECT 1 FROM cbench_label", NULL, NULL, NULL)
	      != SQLITE_OK);
	sqlite3_close(db);
	struct history *h;
	CHECK(history_open(path, true, &h, err, sizeof err) == 0);
	CHECK(record(h, 10, "new", "main", 0.01) == 2);
	struct history_inv *v;
	size_t n;
	CHECK(history_list(h, NULL, &v, &n, err, sizeof err) == 0);
	CHECK(n == 2);
	CHECK_STR(v[1].version, "0.0.9");
	CHECK_STR(v[1].machine, "old");
	history_invs_free(v, n);
	history_close(h);
}

/* The file is refused with an input error and left byte for byte. */
static int refused_unchanged(const char *needle)
{
	size_t len0, len1;
	char *before = slurp(path, &len0);
	struct history *h = NULL;
	int rc = history_open(path, true, &h, err, sizeof err);
	char *after = slurp(path, &len1);
	bool same = before && after && len0 == len1 && memcmp(before, after, len0) == 0;
	free(before);
	free(after);
	history_close(h);
	return rc == HISTORY_EINPUT && same && strstr(err, needle) != NULL;
}

static void test_refuses_foreign_files(void)
{
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	fputs("id,name\n1,not a database\n", f);
	fclose(f);
	CHECK(refused_unchanged("not an SQLite database"));
	unlink(path);
	sqlite3 *db;
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "CREATE TABLE songs (title TEXT); INSERT INTO "
			   "songs VALUES ('x')", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	CHECK(refused_unchanged("another program"));
}

static void test_refuses_newer_schema(void)
{
	struct history *h;
	CHECK(history_open(path, true, &h, err, sizeof err) == 0);
	history_close(h);
	sqlite3 *db;
	CHECK(sqlite3_open(path, &db) == SQLITE_OK);
	CHECK(sqlite3_exec(db, "UPDATE cbench_meta SET value = '99' WHERE key = "
			   "'version'", NULL, NULL, NULL) == SQLITE_OK);
	sqlite3_close(db);
	CHECK(refused_unchanged("schema version 99, made by a newer cbench"));
}

static void test_missing_file_for_reading(void)
{
	struct history *h;
	CHECK(history_open(path, false, &h, err, sizeof err) == HISTORY_EINPUT);
	CHECK(access(path, F_OK) != 0);   /* nothing created */
	char sub[400];
	snprintf(sub, sizeof sub, "%s/a/b/h.db", dir);
	CHECK(history_open(sub, true, &h, err, sizeof err) == 0);
	history_close(h);
	CHECK(access(sub, F_OK) == 0);
}

static void test_labels_and_fingerprint(void)
{
	CHECK(history_label_check("commit=abc", err, sizeof err) == 0);
	CHECK(history_label_check("runner.os=linux-x64", err, sizeof err) == 0);
	CHECK(history_label_check("=x", err, sizeof err) == HISTORY_EINPUT);
	CHECK(history_label_check("nokey", err, sizeof err) == HISTORY_EINPUT);
	CHECK(history_label_check("dirty=maybe", err, sizeof err) == HISTORY_EINPUT);
	struct machine_info a, b;
	memset(&a, 0, sizeof a);
	snprintf(a.cpu_model, sizeof a.cpu_model, "X");
	b = a;
	char fa[17], fb[17];
	history_fingerprint(&a, fa);
	history_fingerprint(&b, fb);
	CHECK_STR(fa, fb);
	CHECK(strlen(fa) == 16);
	snprintf(b.hostname, sizeof b.hostname, "other");   /* not in it */
	history_fingerprint(&b, fb);
	CHECK_STR(fa, fb);
	b.cpus = 8;
	history_fingerprint(&b, fb);
	CHECK(strcmp(fa, fb) != 0);

	struct history *h;
	CHECK(history_open(path, true, &h, err, sizeof err) == 0);
	struct cmp_set *s = make_set("x", 3, 1, 0);
	struct history_context c = context(50, "from-git", "main");
	const char *labels[] = {"commit=from-label", "runner=ci-3", "runner=ci-4"};
	c.labels = labels;
	c.n_labels = 3;
	int64_t id;
	CHECK(history_record(h, &c, s, NULL, &id, err, sizeof err) == 0);
	gate_set_free(s);
	struct history_detail *d;
	CHECK(history_show(h, id, false, &d, err, sizeof err) == 0);
	CHECK_STR(d->inv.commit, "from-label");
	CHECK_STR(d->inv.source_from, "label");
	CHECK_STR(d->inv.labels, "commit=from-label runner=ci-4");
	history_detail_free(d);
	history_close(h);
}

/* gate.c's comparison against the history (cmp_options.between): base
 * "runs" are five invocations' means, new the three runs of this one.
 * Expected values from SciPy 1.10 (/usr/bin/python3):
 *   a = [1.00, 1.02, 0.98, 1.01, 0.99]; b = [1.05, 1.06, 1.04]
 *   se = a.std(ddof=1) * sqrt(1 + 1/5); t = (b.mean() - a.mean()) / se
 *   scipy.stats.t.sf(t, 4) * 2          -> 0.044708587279680606
 *   q = scipy.stats.t.ppf(0.975, 4); 1 + (b.mean() - a.mean() -+ q * se)
 *                                        -> 1.001910560133715, 1.098089439866285
 */
static struct cmp_set *one_bench_set(const double *x, size_t n)
{
	struct cmp_set *s = xcalloc(1, sizeof *s);
	s->origin = xstrdup("t");
	s->format = CMP_FMT_CBENCH;
	s->n = 1;
	s->bench = xcalloc(1, sizeof *s->bench);
	s->bench[0].name = xstrdup("b");
	s->bench[0].command = xstrdup("./b");
	s->bench[0].n_runs = n;
	s->bench[0].col[MET_WALL] = xcalloc(n, sizeof(double));
	memcpy(s->bench[0].col[MET_WALL], x, n * sizeof(double));
	return s;
}

static void test_gate_between_invocations(void)
{
	const double a[] = {1.00, 1.02, 0.98, 1.01, 0.99}, b[] = {1.05, 1.06, 1.04};
	struct cmp_set *base = one_bench_set(a, 5), *new = one_bench_set(b, 3);
	struct cmp_options o = {.metric = MET_WALL, .threshold = 0.001,
				.confidence = 0.95, .seed = 1, .between = true};
	struct cmp_report rep;
	CHECK(gate_compare(base, new, &o, &rep, err, sizeof err) == 0);
	const struct cmp_row *r = &rep.rows[0];
	CHECK_REL(r->st.p_welch, 0.044708587279680606, 1e-9);
	CHECK_REL(r->st.ratio, 1.05, 1e-12);
	CHECK_REL(r->st.ratio_lo, 1.001910560133715, 1e-9);
	CHECK_REL(r->st.ratio_hi, 1.098089439866285, 1e-9);
	CHECK(r->verdict == CMP_REGRESSION);   /* lo - 1 = 0.0019 > 0.001 */
	gate_report_free(&rep);
	o.threshold = 0.05;                     /* the interval reaches below 5 % */
	CHECK(gate_compare(base, new, &o, &rep, err, sizeof err) == 0);
	CHECK(rep.rows[0].verdict == CMP_NOISE);
	gate_report_free(&rep);
	gate_set_free(base);
	gate_set_free(new);
}

/* history_base_set: the newest invocations' means, this machine and
 * branch only, benchmarks with fewer than two left out. */
static void test_base_set_from_history(void)
{
	struct history *h;
	CHECK(history_open(path, true, &h, err, sizeof err) == 0);
	for (int k = 0; k < 4; k++)
		CHECK(record(h, 100 + k, "c", "main", 0.010 + 0.001 * k) > 0);
	CHECK(record(h, 200, "c", "feature", 0.5) > 0);
	struct cmp_set *planned = make_set("sort", 1, 0, 0);
	struct machine_info m = *context(0, "", "").machine;
	char fp[17];
	history_fingerprint(&m, fp);
	struct cmp_set *base;
	CHECK(history_base_set(h, planned, true, fp, "main", 3, &base, err,
			       sizeof err) == 0);
	CHECK(base->n == 1 && base->bench[0].n_runs == 3);
	/* Means of invocations 2..4: 0.013, 0.014, 0.015, oldest first. */
	CHECK_NEAR(base->bench[0].col[MET_WALL][0], 0.013, 1e-15);
	CHECK_NEAR(base->bench[0].col[MET_WALL][2], 0.015, 1e-15);
	CHECK_NEAR(base->bench[0].col[MET_MINFLT][0], 102.25, 1e-12);
	CHECK(strstr(base->origin, "newest 3 invocations of main") != NULL);
	gate_set_free(base);
	CHECK(history_base_set(h, planned, true, "0000000000000000", "main", 3,
			       &base, err, sizeof err) == HISTORY_EINPUT);
	CHECK(strstr(err, "fewer than 2 invocations") != NULL);
	gate_set_free(planned);
	history_close(h);
}

static void cleanup(void)
{
	char cmd[400];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'/*", dir);
	if (system(cmd) != 0)
		printf("# could not clean %s\n", dir);
}

/* Passwords masked, everything else as it was. */
static void test_redact(void)
{
	static const char *const cases[][2] = {
		{"postgresql://ci:s3cr%40t@db.example:5432/bench?sslmode=require",
		 "postgresql://ci:***@db.example:5432/bench?sslmode=require"},
		{"postgres://ci@db/bench?password=hunter2&sslmode=disable",
		 "postgres://ci@db/bench?password=***&sslmode=disable"},
		{"--history=postgresql://u:p@h/d", "--history=postgresql://u:***@h/d"},
		{"host=db user=ci password=x dbname=bench",
		 "host=db user=ci password=*** dbname=bench"},
		{"postgresql://ci@db/bench", "postgresql://ci@db/bench"},
		{"postgresql:///postgres?host=/tmp/sock&user=cbench",
		 "postgresql:///postgres?host=/tmp/sock&user=cbench"},
		{"h.db", "h.db"},
		{"./mypassword=1.db", "./mypassword=1.db"},
		{"http://u:p@web/x", "http://u:p@web/x"},
		{"", ""},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *got = history_redact(cases[i][0]);
		bool ok = strcmp(got, cases[i][1]) == 0;
		if (!ok)
			printf("  redact(%s) = %s\n", cases[i][0], got);
		free(got);
		CHECK(ok);
	}
}

int main(void)
{
	stats_init();
	snprintf(dir, sizeof dir, "%s/cbench-history.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path, sizeof path, "%s/history.db", dir);
	UNIT_AFTER_EACH(cleanup);
	RUN(test_record_and_show_roundtrip);
	RUN(test_list_filters_newest_first);
	RUN(test_series_and_prune);
	RUN(test_migrates_older_schema_keeping_rows);
	RUN(test_refuses_foreign_files);
	RUN(test_refuses_newer_schema);
	RUN(test_missing_file_for_reading);
	RUN(test_labels_and_fingerprint);
	RUN(test_gate_between_invocations);
	RUN(test_base_set_from_history);
	RUN(test_redact);
	rmdir(dir);
	return unit_failures ? 1 : 0;
}
