/*
 * history_export.c: `cbench history export` and `import` (history.h).
 *
 * JSON: {"schema": "cbench-history", "schema_version": 1, "invocations":
 * [...]}, newest first, where each invocation is a document in cbench's
 * own results format (schema "cbench-results", the fields gate_load.c
 * reads: results[] with command, name, command_line, parameters, the
 * hyperfine summary fields and times, and runs.<metric> per run) plus a
 * "history" object (id, time, source state, machine, labels).  So
 * `jq '.invocations[0]'` is a results file that `cbench compare` and
 * `--baseline` read, and an export imports into another history.
 * CSV: one row per run, RFC 4180 quoting, the context columns then one
 * column per metric recorded anywhere in the history (empty: not counted).
 *
 * Import reads cbench results, cbench history exports and hyperfine
 * exports through gate_parse (gate_load.c); hyperfine's wall times
 * include process start-up, so its files get the machine "hyperfine" and
 * stay out of cbench's series unless asked for.
 */
#include "export.h"
#include "history.h"
#include "history_int.h"
#include "numfmt.h"
#include "readfile.h"
#include "xalloc.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static cJSON *num(double v)
{
	return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull();
}

static cJSON *text_or_null(const char *s)
{
	return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static const struct history_summary *summary_of(const struct history_bench *b, int m)
{
	for (size_t k = 0; k < b->n_sum; k++)
		if (b->sum[k].metric == m)
			return &b->sum[k];
	return NULL;
}

static cJSON *column(const double *x, size_t n)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++)
		cJSON_AddItemToArray(a, num(x[i]));
	return a;
}

static cJSON *result_json(const struct history_bench *b)
{
	cJSON *j = cJSON_CreateObject();
	const struct history_summary *w = summary_of(b, MET_WALL);
	const struct history_summary *u = summary_of(b, MET_USER);
	const struct history_summary *s = summary_of(b, MET_SYSTEM);
	cJSON_AddStringToObject(j, "command", b->name);
	cJSON_AddItemToObject(j, "mean", num(w ? w->mean : NAN));
	cJSON_AddItemToObject(j, "stddev", num(w ? w->stddev : NAN));
	cJSON_AddItemToObject(j, "median", num(w ? w->median : NAN));
	cJSON_AddItemToObject(j, "user", num(u ? u->mean : NAN));
	cJSON_AddItemToObject(j, "system", num(s ? s->mean : NAN));
	cJSON_AddItemToObject(j, "min", num(w ? w->min : NAN));
	cJSON_AddItemToObject(j, "max", num(w ? w->max : NAN));
	cJSON_AddItemToObject(j, "times", b->col[MET_WALL]
			      ? column(b->col[MET_WALL], b->n_runs) : cJSON_CreateArray());
	if (b->n_params) {
		cJSON *p = cJSON_AddObjectToObject(j, "parameters");
		for (size_t k = 0; k < b->n_params; k++)
			cJSON_AddStringToObject(p, b->params[k].name, b->params[k].value);
	}
	cJSON_AddStringToObject(j, "name", b->name);
	cJSON_AddStringToObject(j, "command_line", b->command);
	cJSON_AddBoolToObject(j, "interrupted", b->interrupted);
	cJSON_AddNumberToObject(j, "failed_runs", (double)b->failed_runs);
	cJSON *runs = cJSON_AddObjectToObject(j, "runs");
	for (int m = 0; m < MET_COUNT; m++)
		if (b->col[m])
			cJSON_AddItemToObject(runs, metric_info((enum metric_id)m)->key,
					      column(b->col[m], b->n_runs));
	return j;
}

static cJSON *history_block(const struct history_inv *v)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "id", (double)v->id);
	cJSON_AddStringToObject(j, "recorded_at", v->recorded_at);
	cJSON_AddItemToObject(j, "origin", text_or_null(v->origin));
	cJSON_AddItemToObject(j, "commit", text_or_null(v->commit));
	cJSON_AddItemToObject(j, "branch", text_or_null(v->branch));
	cJSON_AddItemToObject(j, "dirty", v->dirty < 0 ? cJSON_CreateNull()
			      : cJSON_CreateBool(v->dirty));
	cJSON_AddItemToObject(j, "source_from", text_or_null(v->source_from));
	cJSON_AddStringToObject(j, "machine", v->machine);
	cJSON_AddItemToObject(j, "hostname", text_or_null(v->hostname));
	cJSON *m = v->machine_json ? cJSON_Parse(v->machine_json) : NULL;
	cJSON_AddItemToObject(j, "machine_info", m ? m : cJSON_CreateNull());
	cJSON *argv = v->argv ? cJSON_Parse(v->argv) : NULL;
	cJSON_AddItemToObject(j, "argv", argv ? argv : cJSON_CreateArray());
	cJSON *labels = cJSON_AddObjectToObject(j, "labels");
	for (size_t k = 0; k < v->n_labels; k++) {
		/* keys have no '=' (history_label_check); values may */
		const char *kv = v->label_kv[k], *eq = strchr(kv, '=');
		if (eq) {
			char *key = xasprintf("%.*s", (int)(eq - kv), kv);
			cJSON_AddStringToObject(labels, key, eq + 1);
			free(key);
		}
	}
	return j;
}

static cJSON *invocation_json(const struct history_detail *d)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "schema", "cbench-results");
	cJSON_AddNumberToObject(j, "schema_version", 2);
	cJSON_AddItemToObject(j, "cbench_version", text_or_null(d->inv.version));
	cJSON_AddItemToObject(j, "history", history_block(&d->inv));
	cJSON *ctx = cJSON_AddObjectToObject(j, "context");
	cJSON_AddStringToObject(ctx, "started_at", d->inv.recorded_at);
	/* The machine as cbench's results files describe it. */
	cJSON *mj = d->inv.machine_json ? cJSON_Parse(d->inv.machine_json) : NULL;
	static const char *const keys[] = {"hostname", "kernel", "cpu_model", "cpus",
					   "load_average"};
	for (size_t k = 0; mj && k < sizeof keys / sizeof keys[0]; k++) {
		cJSON *v = cJSON_GetObjectItemCaseSensitive(mj, keys[k]);
		if (v)
			cJSON_AddItemToObject(ctx, keys[k], cJSON_Duplicate(v, 1));
	}
	cJSON_Delete(mj);
	/* The --metric definitions, as a results file has them (the
	 * pattern is not kept in the history). */
	cJSON *cm = NULL;
	for (int m = MET_CUSTOM_FIRST; m < MET_COUNT; m++) {
		bool used = false;
		for (size_t k = 0; k < d->n_bench && !used; k++)
			used = d->bench[k].col[m] != NULL;
		if (!used)
			continue;
		const struct metric_info *mi = metric_info((enum metric_id)m);
		if (cm == NULL)
			cm = cJSON_AddObjectToObject(j, "custom_metrics");
		cJSON *def = cJSON_AddObjectToObject(cm, mi->key);
		cJSON_AddNullToObject(def, "pattern");
		cJSON_AddStringToObject(def, "unit", mi->unit_text);
		cJSON_AddBoolToObject(def, "higher_is_better", mi->higher_is_better);
	}
	cJSON *res = cJSON_AddArrayToObject(j, "results");
	for (size_t k = 0; k < d->n_bench; k++)
		cJSON_AddItemToArray(res, result_json(&d->bench[k]));
	return j;
}

/* ---- CSV ---- */

static int take_metric(void *ctx, const struct hv *c, int n)
{
	int m = n > 0 && c[0].t == HV_TEXT ? metric_lookup(c[0].s) : -1;
	if (m >= 0)
		((bool *)ctx)[m] = true;
	return 0;
}

static void csv_header(FILE *f, const bool *have)
{
	fputs("invocation,recorded_at,commit,branch,machine,benchmark,command,run", f);
	for (int m = 0; m < MET_COUNT; m++)
		if (have[m])
			fprintf(f, ",%s", metric_info((enum metric_id)m)->key);
	fputc('\n', f);
}

static void csv_rows(FILE *f, const struct history_detail *d, const bool *have)
{
	for (size_t k = 0; k < d->n_bench; k++) {
		const struct history_bench *b = &d->bench[k];
		for (size_t r = 0; r < b->n_runs; r++) {
			fprintf(f, "%lld,%s,", (long long)d->inv.id, d->inv.recorded_at);
			export_csv_field(f, d->inv.commit);
			fputc(',', f);
			export_csv_field(f, d->inv.branch);
			fprintf(f, ",%s,", d->inv.machine);
			export_csv_field(f, b->name);
			fputc(',', f);
			export_csv_field(f, b->command);
			fprintf(f, ",%zu", r + 1);
			for (int m = 0; m < MET_COUNT; m++) {
				if (!have[m])
					continue;
				double v = b->col[m] ? b->col[m][r] : NAN;
				char num[NUMFMT_MAX];
				numfmt_shortest(num, v);   /* "" when not finite */
				fprintf(f, ",%s", num);
			}
			fputc('\n', f);
		}
	}
}

int history_export(struct history *h, const struct history_filter *f, bool csv,
		   FILE *out, char *err, size_t errlen)
{
	int64_t *ids;
	size_t n;
	int rc = history_ids(h, f, &ids, &n, err, errlen);
	if (rc != 0)
		return rc;
	bool have[MET_COUNT] = {false};
	struct hist_store *st = history_store(h);
	if (csv) {
		rc = st->exec(st, "SELECT DISTINCT metric FROM cbench_samples", NULL, 0,
			      take_metric, have, err, errlen);
		if (rc == 0)
			csv_header(out, have);
	} else {
		fputs("{\"schema\": \"cbench-history\", \"schema_version\": 1, "
		      "\"invocations\": [", out);
	}
	for (size_t k = 0; rc == 0 && k < n; k++) {
		struct history_detail *d;
		rc = history_show(h, ids[k], true, &d, err, errlen);
		if (rc != 0)
			break;
		if (csv) {
			csv_rows(out, d, have);
		} else {
			cJSON *j = invocation_json(d);
			char *s = numfmt_json_exact(j) == 0 ? cJSON_Print(j) : NULL;
			fprintf(out, "%s\n%s", k ? "," : "", s ? s : "null");
			cJSON_free(s);
			cJSON_Delete(j);
		}
		history_detail_free(d);
	}
	if (!csv && rc == 0)
		fputs("]}\n", out);
	free(ids);
	return rc;
}

/* ---- import ---- */

static time_t parse_time(const char *s, time_t fallback)
{
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	const char *end = s ? strptime(s, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
	return end && *end == '\0' ? timegm(&tm) : fallback;
}

static const char *jstr(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The context of one results document: time, machine, and (from a history
 * export) its source state. */
static void doc_context(const cJSON *doc, time_t mtime, struct history_context *c,
			struct machine_info *m, bool *have_machine, char fp[17])
{
	const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(doc, "context");
	const cJSON *hb = cJSON_GetObjectItemCaseSensitive(doc, "history");
	c->when = parse_time(jstr(ctx, "started_at"), mtime);
	memset(m, 0, sizeof *m);
	*have_machine = false;
	const char *host = jstr(ctx, "hostname"), *cpu = jstr(ctx, "cpu_model");
	if (host || cpu) {
		snprintf(m->hostname, sizeof m->hostname, "%s", host ? host : "");
		snprintf(m->cpu_model, sizeof m->cpu_model, "%s", cpu ? cpu : "");
		snprintf(m->kernel, sizeof m->kernel, "%s", jstr(ctx, "kernel")
			 ? jstr(ctx, "kernel") : "");
		const cJSON *cpus = cJSON_GetObjectItemCaseSensitive(ctx, "cpus");
		m->cpus = cJSON_IsNumber(cpus) ? (long)cpus->valuedouble : 0;
		m->mem_total = -1;
		m->pmu = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ctx, "pmu"));
		const cJSON *la = cJSON_GetObjectItemCaseSensitive(ctx, "load_average");
		for (int k = 0; k < 3; k++) {
			const cJSON *v = cJSON_GetArrayItem(la, k);
			m->loadavg[k] = cJSON_IsNumber(v) ? v->valuedouble : -1;
		}
		*have_machine = true;
	}
	if (cJSON_IsObject(hb)) {
		const char *commit = jstr(hb, "commit"), *branch = jstr(hb, "branch");
		snprintf(c->source.commit, sizeof c->source.commit, "%s",
			 commit ? commit : "");
		snprintf(c->source.branch, sizeof c->source.branch, "%s",
			 branch ? branch : "");
		const cJSON *dirty = cJSON_GetObjectItemCaseSensitive(hb, "dirty");
		c->source.dirty = cJSON_IsBool(dirty) ? cJSON_IsTrue(dirty) : -1;
		snprintf(c->source.from, sizeof c->source.from, "import");
		/* A history export keeps its machine's fingerprint. */
		const char *machine = jstr(hb, "machine");
		if (machine) {
			snprintf(fp, 17, "%s", machine);
			c->machine_name = fp;
		}
	}
}

/* Record one results document (a cJSON object) of file path. */
static int import_doc(struct history *h, const cJSON *doc, const char *path,
		      time_t mtime, struct history_context *base, int64_t *id,
		      char *err, size_t errlen)
{
	/* Printed again for the loader: exactly, or a value would be
	 * recorded a unit in the last place off. */
	cJSON *copy = cJSON_Duplicate(doc, 1);
	char *text = copy && numfmt_json_exact(copy) == 0
		     ? cJSON_PrintUnformatted(copy) : NULL;
	cJSON_Delete(copy);
	if (text == NULL) {
		snprintf(err, errlen, "out of memory");
		return HISTORY_EFAIL;
	}
	struct cmp_set *set = NULL;
	int rc = gate_parse(text, strlen(text), path, &set, err, errlen);
	cJSON_free(text);
	if (rc != 0)
		return HISTORY_EINPUT;
	struct history_context c = *base;
	struct machine_info m;
	bool have_machine;
	char fp[17];
	c.machine_name = NULL;
	doc_context(doc, mtime, &c, &m, &have_machine, fp);
	bool hyperfine = set->format == CMP_FMT_HYPERFINE;
	char *origin = xasprintf("import %s%s", hyperfine ? "hyperfine " : "", path);
	c.origin = origin;
	c.machine = have_machine ? &m : NULL;
	if (hyperfine)
		c.machine_name = "hyperfine";
	/* A history export's labels, then the command line's (which win). */
	const cJSON *hl = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(doc, "history"), "labels");
	size_t nl = 0, cap = (size_t)cJSON_GetArraySize(hl) + base->n_labels + 1;
	char **labels = xcalloc(cap, sizeof *labels);
	const cJSON *l;
	cJSON_ArrayForEach(l, hl)
		if (cJSON_IsString(l) && nl < cap)
			labels[nl++] = xasprintf("%s=%s", l->string, l->valuestring);
	for (size_t k = 0; k < base->n_labels; k++)
		labels[nl++] = xstrdup(base->labels[k]);
	c.labels = (const char *const *)labels;
	c.n_labels = nl;
	rc = history_record(h, &c, set, NULL, id, err, errlen);
	for (size_t k = 0; k < nl; k++)
		free(labels[k]);
	free(labels);
	free(origin);
	gate_set_free(set);
	return rc;
}

int history_import(struct history *h, const char *path,
		   const struct history_context *base, int64_t **ids, size_t *n,
		   char *err, size_t errlen)
{
	*ids = NULL;
	*n = 0;
	size_t len;
	char *text = readfile_all(path, "results", &len, err, errlen);
	if (text == NULL)
		return HISTORY_EINPUT;
	struct stat sb;
	time_t mtime = stat(path, &sb) == 0 ? sb.st_mtime : base->when;
	cJSON *root = cJSON_ParseWithLength(text, len);
	int rc = 0;
	if (root == NULL) {
		/* gate_parse says where the JSON went wrong. */
		struct cmp_set *s = NULL;
		rc = gate_parse(text, len, path, &s, err, errlen) != 0 ? HISTORY_EINPUT : 0;
		gate_set_free(s);
		free(text);
		return rc ? rc : HISTORY_EINPUT;
	}
	free(text);
	const char *schema = jstr(root, "schema");
	const cJSON *invs = cJSON_GetObjectItemCaseSensitive(root, "invocations");
	bool many = schema && strcmp(schema, "cbench-history") == 0;
	if (many && !cJSON_IsArray(invs)) {
		snprintf(err, errlen, "%s: a cbench-history file without an "
			 "\"invocations\" array", path);
		cJSON_Delete(root);
		return HISTORY_EINPUT;
	}
	size_t total = many ? (size_t)cJSON_GetArraySize(invs) : 1;
	*ids = xcalloc(total + 1, sizeof **ids);
	/* Oldest first, so ids follow time as in the exporting history. */
	for (size_t k = total; rc == 0 && k-- > 0;) {
		const cJSON *doc = many ? cJSON_GetArrayItem(invs, (int)k) : root;
		rc = import_doc(h, doc, path, mtime, (struct history_context *)base,
				&(*ids)[*n], err, errlen);
		if (rc == 0)
			(*n)++;
	}
	cJSON_Delete(root);
	return rc;
}
