/*
 * history_query.c: reading the history back (see history.h): listings,
 * one invocation with its benchmarks, summaries and samples, the series of
 * one benchmark's metric, and pruning.  Each is one or a few statements
 * whose rows the callbacks below copy into plain structs.
 */
#include "history.h"
#include "history_int.h"
#include "xalloc.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static char *dup_text(const struct hv *v)
{
	return v->t == HV_TEXT ? xstrdup(v->s) : NULL;
}

static void copy_text(char *dst, size_t len, const struct hv *v)
{
	snprintf(dst, len, "%s", v->t == HV_TEXT ? v->s : "");
}

static double real_of(const struct hv *v)
{
	return v->t == HV_INT || v->t == HV_REAL ? v->d
	       : v->t == HV_TEXT ? strtod(v->s, NULL) : NAN;
}

/* ---- filters ---- */

/* The WHERE clause of f (on cbench_invocation i) and its arguments. */
struct where {
	char sql[512];
	struct hv args[8];
	int n;
};

static void where_add(struct where *w, const char *cond, const char *arg,
		      int times)
{
	size_t len = strlen(w->sql);
	snprintf(w->sql + len, sizeof w->sql - len, "%s%s",
		 len ? " AND " : " WHERE ", cond);
	for (int k = 0; k < times; k++)
		w->args[w->n++] = hv_text(arg);
}

static void where_of(const struct history_filter *f, int64_t id, struct where *w)
{
	memset(w, 0, sizeof *w);
	if (f && f->bench)
		where_add(w, "EXISTS (SELECT 1 FROM cbench_benchmark b WHERE "
			  "b.invocation_id = i.id AND (b.name = ? OR b.command = ?))",
			  f->bench, 2);
	if (f && f->branch)
		where_add(w, "i.branch = ?", f->branch, 1);
	if (f && f->machine)
		where_add(w, "(i.machine LIKE (? || '%') OR i.hostname = ?)",
			  f->machine, 2);
	if (f && f->commit)
		where_add(w, "i.commit_sha LIKE (? || '%')", f->commit, 1);
	if (id > 0) {
		where_add(w, "i.id = ?", NULL, 0);
		w->args[w->n++] = hv_int(id);
	}
}

/* ---- invocations ---- */

#define INV_COLS "i.id, i.recorded_at, i.unix_time, i.cbench_version, " \
	"i.origin, i.argv, i.commit_sha, i.branch, i.dirty, i.source_from, " \
	"i.machine, i.hostname, i.machine_json"

struct inv_list {
	struct history_inv *v;
	size_t n, cap;
};

static int take_inv(void *ctx, const struct hv *c, int n)
{
	struct inv_list *l = ctx;
	if (n < 13)
		return 1;
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
	struct history_inv *v = &l->v[l->n++];
	memset(v, 0, sizeof *v);
	v->id = c[0].i;
	copy_text(v->recorded_at, sizeof v->recorded_at, &c[1]);
	v->unix_time = c[2].i;
	v->version = dup_text(&c[3]);
	v->origin = dup_text(&c[4]);
	v->argv = dup_text(&c[5]);
	v->commit = dup_text(&c[6]);
	v->branch = dup_text(&c[7]);
	v->dirty = (int)c[8].i;
	v->source_from = dup_text(&c[9]);
	copy_text(v->machine, sizeof v->machine, &c[10]);
	v->hostname = dup_text(&c[11]);
	v->machine_json = dup_text(&c[12]);
	return 0;
}

/* Append text to a growing string s with a separator. */
static void append(char **s, const char *sep, const char *text)
{
	char *old = *s;
	*s = old ? xasprintf("%s%s%s", old, sep, text) : xstrdup(text);
	free(old);
}

static struct history_inv *find_inv(struct inv_list *l, int64_t id)
{
	/* Newest first: ids mostly descending, so bisect on that order and
	 * fall back to a scan when imports broke it. */
	size_t lo = 0, hi = l->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (l->v[mid].id == id)
			return &l->v[mid];
		if (l->v[mid].id > id)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t k = 0; k < l->n; k++)
		if (l->v[k].id == id)
			return &l->v[k];
	return NULL;
}

static int take_name(void *ctx, const struct hv *c, int n)
{
	struct history_inv *v = find_inv(ctx, c[0].i);
	if (n < 2 || v == NULL)
		return 0;
	append(&v->benches, ", ", c[1].t == HV_TEXT ? c[1].s : "?");
	v->n_bench++;
	return 0;
}

static int take_label(void *ctx, const struct hv *c, int n)
{
	struct history_inv *v = find_inv(ctx, c[0].i);
	if (n < 3 || v == NULL || c[1].t != HV_TEXT || c[2].t != HV_TEXT)
		return 0;
	char *kv = xasprintf("%s=%s", c[1].s, c[2].s);
	append(&v->labels, " ", kv);
	v->label_kv = xreallocarray(v->label_kv, v->n_labels + 1, sizeof *v->label_kv);
	v->label_kv[v->n_labels++] = kv;
	return 0;
}

/* Benchmark names and labels of the invocations listed. */
static int decorate(struct hist_store *st, struct inv_list *l, char *err,
		    size_t errlen)
{
	if (l->n == 0)
		return 0;
	int64_t lo = l->v[0].id, hi = l->v[0].id;
	for (size_t k = 1; k < l->n; k++) {
		lo = l->v[k].id < lo ? l->v[k].id : lo;
		hi = l->v[k].id > hi ? l->v[k].id : hi;
	}
	struct hv a[] = {hv_int(lo), hv_int(hi)};
	int rc = st->exec(st, "SELECT invocation_id, name FROM cbench_benchmark "
			  "WHERE invocation_id BETWEEN ? AND ? ORDER BY "
			  "invocation_id, position", a, 2, take_name, l, err, errlen);
	if (rc == 0)
		rc = st->exec(st, "SELECT invocation_id, key, value FROM "
			      "cbench_label WHERE invocation_id BETWEEN ? AND ? "
			      "ORDER BY invocation_id, key", a, 2, take_label, l,
			      err, errlen);
	return rc;
}

static int list_where(struct history *h, const struct history_filter *f,
		      int64_t id, struct inv_list *l, char *err, size_t errlen)
{
	struct hist_store *st = history_store(h);
	struct where w;
	where_of(f, id, &w);
	char sql[1024];
	snprintf(sql, sizeof sql, "SELECT " INV_COLS " FROM cbench_invocation i%s "
		 "ORDER BY i.unix_time DESC, i.id DESC%s", w.sql,
		 f && f->limit ? " LIMIT ?" : "");
	if (f && f->limit)
		w.args[w.n++] = hv_int((int64_t)f->limit);
	int rc = st->exec(st, sql, w.args, w.n, take_inv, l, err, errlen);
	if (rc == 0)
		rc = decorate(st, l, err, errlen);
	return rc;
}

int history_list(struct history *h, const struct history_filter *f,
		 struct history_inv **out, size_t *n, char *err, size_t errlen)
{
	struct inv_list l = {0};
	int rc = list_where(h, f, 0, &l, err, errlen);
	if (rc != 0) {
		history_invs_free(l.v, l.n);
		l.v = NULL;
		l.n = 0;
	}
	*out = l.v;
	*n = l.n;
	return rc;
}

static void inv_clear(struct history_inv *v)
{
	free(v->version);
	free(v->origin);
	free(v->argv);
	free(v->commit);
	free(v->branch);
	free(v->source_from);
	free(v->hostname);
	free(v->machine_json);
	free(v->benches);
	free(v->labels);
	for (size_t k = 0; k < v->n_labels; k++)
		free(v->label_kv[k]);
	free(v->label_kv);
}

void history_invs_free(struct history_inv *v, size_t n)
{
	for (size_t k = 0; v && k < n; k++)
		inv_clear(&v[k]);
	free(v);
}

/* ---- one invocation ---- */

struct bench_list {
	struct history_detail *d;
	size_t cap;
};

static void parse_params(struct history_bench *b, const char *json)
{
	cJSON *j = json ? cJSON_Parse(json) : NULL;
	size_t n = cJSON_IsObject(j) ? (size_t)cJSON_GetArraySize(j) : 0;
	if (n) {
		b->params = xcalloc(n, sizeof *b->params);
		const cJSON *v;
		cJSON_ArrayForEach(v, j) {
			if (!cJSON_IsString(v))
				continue;
			b->params[b->n_params].name = xstrdup(v->string);
			b->params[b->n_params].value = xstrdup(v->valuestring);
			b->n_params++;
		}
	}
	cJSON_Delete(j);
}

static int take_bench(void *ctx, const struct hv *c, int n)
{
	struct bench_list *l = ctx;
	if (n < 7)
		return 1;
	xgrow((void **)&l->d->bench, &l->cap, l->d->n_bench + 1, sizeof *l->d->bench);
	struct history_bench *b = &l->d->bench[l->d->n_bench++];
	memset(b, 0, sizeof *b);
	b->id = c[0].i;
	b->name = dup_text(&c[1]);
	b->command = dup_text(&c[2]);
	parse_params(b, c[3].t == HV_TEXT ? c[3].s : NULL);
	b->n_runs = (size_t)c[4].i;
	b->failed_runs = (size_t)c[5].i;
	b->interrupted = c[6].i != 0;
	return 0;
}

static struct history_bench *find_bench(struct history_detail *d, int64_t id)
{
	for (size_t k = 0; k < d->n_bench; k++)
		if (d->bench[k].id == id)
			return &d->bench[k];
	return NULL;
}

static int take_summary(void *ctx, const struct hv *c, int n)
{
	struct history_bench *b = find_bench(ctx, c[0].i);
	int m = c[1].t == HV_TEXT ? metric_lookup(c[1].s) : -1;
	if (n < 11 || b == NULL || m < 0)
		return 0;
	b->sum = xreallocarray(b->sum, b->n_sum + 1, sizeof *b->sum);
	struct history_summary *s = &b->sum[b->n_sum++];
	*s = (struct history_summary){.metric = m, .n = (size_t)c[2].i,
		.mean = real_of(&c[3]), .stddev = real_of(&c[4]),
		.median = real_of(&c[5]), .min = real_of(&c[6]),
		.max = real_of(&c[7]), .ci_lo = real_of(&c[8]),
		.ci_hi = real_of(&c[9]), .confidence = real_of(&c[10])};
	return 0;
}

static int take_samples(void *ctx, const struct hv *c, int n)
{
	struct history_bench *b = find_bench(ctx, c[0].i);
	int m = c[1].t == HV_TEXT ? metric_lookup(c[1].s) : -1;
	if (n < 4 || b == NULL || m < 0 || c[3].t != HV_BLOB)
		return 0;
	if (c[3].len != b->n_runs * 8)
		return 1;   /* a blob that does not hold n_runs doubles */
	free(b->col[m]);
	b->col[m] = xcalloc(b->n_runs ? b->n_runs : 1, sizeof(double));
	const unsigned char *p = c[3].b;
	for (size_t i = 0; i < b->n_runs; i++) {
		uint64_t u = 0;
		for (int k = 7; k >= 0; k--)
			u = (u << 8) | p[i * 8 + (size_t)k];
		memcpy(&b->col[m][i], &u, 8);
	}
	return 0;
}

int history_show(struct history *h, int64_t id, bool with_samples,
		 struct history_detail **out, char *err, size_t errlen)
{
	struct hist_store *st = history_store(h);
	*out = NULL;
	struct inv_list l = {0};
	int rc = list_where(h, NULL, id, &l, err, errlen);
	if (rc == 0 && l.n == 0) {
		snprintf(err, errlen, "no invocation %lld in the history (see "
			 "'cbench history list')", (long long)id);
		rc = HISTORY_EINPUT;
	}
	if (rc != 0) {
		history_invs_free(l.v, l.n);
		return rc;
	}
	struct history_detail *d = xcalloc(1, sizeof *d);
	d->inv = l.v[0];
	free(l.v);
	struct bench_list bl = {d, 0};
	struct hv a = hv_int(id);
	rc = st->exec(st, "SELECT id, name, command, params, n_runs, failed_runs, "
		      "interrupted FROM cbench_benchmark WHERE invocation_id = ? "
		      "ORDER BY position", &a, 1, take_bench, &bl, err, errlen);
	if (rc == 0)
		rc = st->exec(st, "SELECT s.benchmark_id, s.metric, s.n, s.mean, "
			      "s.stddev, s.median, s.min, s.max, s.ci_lo, s.ci_hi, "
			      "s.confidence FROM cbench_summary s JOIN "
			      "cbench_benchmark b ON b.id = s.benchmark_id WHERE "
			      "b.invocation_id = ? ORDER BY s.benchmark_id, s.metric",
			      &a, 1, take_summary, d, err,
			      errlen);
	if (rc == 0 && with_samples)
		rc = st->exec(st, "SELECT s.benchmark_id, s.metric, s.n, s.vals "
			      "FROM cbench_samples s JOIN cbench_benchmark b ON "
			      "b.id = s.benchmark_id WHERE b.invocation_id = ?", &a,
			      1, take_samples, d, err, errlen);
	if (rc != 0) {
		history_detail_free(d);
		return rc;
	}
	*out = d;
	return 0;
}

void history_detail_free(struct history_detail *d)
{
	if (d == NULL)
		return;
	inv_clear(&d->inv);
	for (size_t k = 0; k < d->n_bench; k++) {
		struct history_bench *b = &d->bench[k];
		free(b->name);
		free(b->command);
		param_values_free(b->params, b->n_params);
		free(b->sum);
		for (int m = 0; m < MET_COUNT; m++)
			free(b->col[m]);
	}
	free(d->bench);
	free(d);
}

/* ---- series ---- */

struct point_list {
	struct history_point *v;
	size_t n, cap;
};

/* The 1-minute load average in an invocation's machine_json, or NaN. */
static double load_of(const struct hv *v)
{
	if (v->t != HV_TEXT)
		return NAN;
	cJSON *j = cJSON_Parse(v->s);
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(j, "load_average");
	const cJSON *one = cJSON_GetArrayItem(l, 0);
	double load = cJSON_IsNumber(one) && one->valuedouble >= 0 ? one->valuedouble
								  : NAN;
	cJSON_Delete(j);
	return load;
}

static int take_point(void *ctx, const struct hv *c, int n)
{
	struct point_list *l = ctx;
	if (n < 18)
		return 1;
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
	struct history_point *p = &l->v[l->n++];
	memset(p, 0, sizeof *p);
	p->inv = c[0].i;
	p->unix_time = c[1].i;
	copy_text(p->recorded_at, sizeof p->recorded_at, &c[2]);
	copy_text(p->commit, sizeof p->commit, &c[3]);
	copy_text(p->branch, sizeof p->branch, &c[4]);
	copy_text(p->machine, sizeof p->machine, &c[5]);
	p->dirty = (int)c[6].i;
	p->n = (size_t)c[7].i;
	p->mean = real_of(&c[8]);
	p->stddev = real_of(&c[9]);
	p->median = real_of(&c[10]);
	p->ci_lo = real_of(&c[11]);
	p->ci_hi = real_of(&c[12]);
	p->load = load_of(&c[13]);
	double wall = real_of(&c[16]);
	p->cpu_share = wall > 0 ? (real_of(&c[14]) + real_of(&c[15])) / wall : NAN;
	p->confidence = real_of(&c[17]);
	return 0;
}

int history_series(struct history *h, const struct history_filter *f,
		   bool by_command, int metric, struct history_point **out,
		   size_t *n, char *err, size_t errlen)
{
	struct hist_store *st = history_store(h);
	struct hv a[7];
	int na = 0;
	a[na++] = hv_text(metric_info((enum metric_id)metric)->key);
	a[na++] = hv_text(f->bench);
	char sql[2048];
	int len = snprintf(sql, sizeof sql, "SELECT i.id, i.unix_time, "
			   "i.recorded_at, i.commit_sha, i.branch, i.machine, i.dirty, "
			   "s.n, s.mean, s.stddev, s.median, s.ci_lo, s.ci_hi, "
			   "i.machine_json, (SELECT mean FROM cbench_summary WHERE "
			   "benchmark_id = b.id AND metric = 'user_time'), (SELECT "
			   "mean FROM cbench_summary WHERE benchmark_id = b.id AND "
			   "metric = 'system_time'), (SELECT mean FROM cbench_summary "
			   "WHERE benchmark_id = b.id AND metric = 'wall_time'), "
			   "s.confidence FROM "
			   "cbench_summary s JOIN cbench_benchmark b ON b.id = "
			   "s.benchmark_id JOIN cbench_invocation i ON i.id = "
			   "b.invocation_id WHERE s.metric = ? AND b.%s = ?",
			   by_command ? "command" : "name");
	if (f->machine) {
		len += snprintf(sql + len, sizeof sql - (size_t)len, " AND i.machine = ?");
		a[na++] = hv_text(f->machine);
	}
	if (f->branch) {
		len += snprintf(sql + len, sizeof sql - (size_t)len, " AND i.branch = ?");
		a[na++] = hv_text(f->branch);
	}
	if (f->commit) {
		len += snprintf(sql + len, sizeof sql - (size_t)len,
				" AND i.commit_sha LIKE (? || '%%')");
		a[na++] = hv_text(f->commit);
	}
	len += snprintf(sql + len, sizeof sql - (size_t)len,
			" ORDER BY i.unix_time DESC, i.id DESC");
	if (f->limit) {
		snprintf(sql + len, sizeof sql - (size_t)len, " LIMIT ?");
		a[na++] = hv_int((int64_t)f->limit);
	}
	struct point_list l = {0};
	int rc = st->exec(st, sql, a, na, take_point, &l, err, errlen);
	if (rc != 0) {
		free(l.v);
		l.v = NULL;
		l.n = 0;
	}
	for (size_t k = 0; k < l.n / 2; k++) {   /* oldest first */
		struct history_point t = l.v[k];
		l.v[k] = l.v[l.n - 1 - k];
		l.v[l.n - 1 - k] = t;
	}
	*out = l.v;
	*n = l.n;
	return rc;
}

/* ---- ids and pruning ---- */

struct id_list {
	int64_t *v;
	int64_t *t;
	size_t n, cap, tcap;
};

static int take_id_time(void *ctx, const struct hv *c, int n)
{
	struct id_list *l = ctx;
	if (n < 2)
		return 1;
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
	xgrow((void **)&l->t, &l->tcap, l->n + 1, sizeof *l->t);
	l->v[l->n] = c[0].i;
	l->t[l->n++] = c[1].i;
	return 0;
}

static int ids_where(struct history *h, const struct history_filter *f,
		     struct id_list *l, char *err, size_t errlen)
{
	struct hist_store *st = history_store(h);
	struct where w;
	where_of(f, 0, &w);
	char sql[1024];
	snprintf(sql, sizeof sql, "SELECT i.id, i.unix_time FROM cbench_invocation "
		 "i%s ORDER BY i.unix_time DESC, i.id DESC%s", w.sql,
		 f && f->limit ? " LIMIT ?" : "");
	if (f && f->limit)
		w.args[w.n++] = hv_int((int64_t)f->limit);
	return st->exec(st, sql, w.args, w.n, take_id_time, l, err, errlen);
}

int history_ids(struct history *h, const struct history_filter *f,
		int64_t **ids, size_t *n, char *err, size_t errlen)
{
	struct id_list l = {0};
	int rc = ids_where(h, f, &l, err, errlen);
	free(l.t);
	if (rc != 0) {
		free(l.v);
		l.v = NULL;
		l.n = 0;
	}
	*ids = l.v;
	*n = l.n;
	return rc;
}

int history_prune(struct history *h, const struct history_filter *f,
		  time_t before, size_t keep, int64_t **ids, size_t *n,
		  char *err, size_t errlen)
{
	struct hist_store *st = history_store(h);
	*ids = NULL;
	*n = 0;
	int rc = st->begin(st, err, errlen);
	if (rc != 0)
		return rc;
	struct history_filter all = f ? *f : (struct history_filter){0};
	all.limit = 0;
	struct id_list l = {0};
	rc = ids_where(h, &all, &l, err, errlen);
	/* Newest first: keep the first `keep`, drop the rest and the old. */
	size_t gone = 0;
	int64_t *out = xcalloc(l.n + 1, sizeof *out);
	for (size_t k = l.n; rc == 0 && k-- > 0;) {
		bool drop = (keep && k >= keep) || (before && l.t[k] < (int64_t)before);
		if (!drop)
			continue;
		struct hv a = hv_int(l.v[k]);
		rc = st->exec(st, "DELETE FROM cbench_invocation WHERE id = ?", &a, 1,
			      NULL, NULL, err, errlen);
		out[gone++] = l.v[k];
	}
	if (rc == 0)
		rc = st->exec(st, "COMMIT", NULL, 0, NULL, NULL, err, errlen);
	if (rc != 0) {
		char ignore[256];
		st->exec(st, "ROLLBACK", NULL, 0, NULL, NULL, ignore, sizeof ignore);
		free(out);
		out = NULL;
		gone = 0;
	}
	free(l.v);
	free(l.t);
	*ids = out;
	*n = gone;
	return rc;
}
