/*
 * gate_load.c: the gate's loader (see gate.h): reads saved results, or
 * takes this run's results or plan, into sets of benchmarks that the
 * decision (gate.c) compares.
 *
 * Two input formats are accepted on either side.  cbench's JSON (schema
 * "cbench-results", version 1) records every metric per run under
 * results[].runs.<metric key>; hyperfine's (1.15) records only per-run wall
 * time (results[].times) and the means of user and system time, so a
 * comparison of hyperfine files can only gate on wall time.  The two tools'
 * wall times differ by design (hyperfine's include fork and exec, cbench's
 * start at the exec), so a hyperfine file is compared only with another
 * one: against cbench's results the offset alone would fail or pass a gate.
 * Both formats are validated strictly: a gate that silently compared half
 * a file would be worse than none.
 */
#include "gate.h"
#include "readfile.h"
#include "planner.h"
#include "xalloc.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- sets ---- */

static void bench_clear(struct cmp_bench *b)
{
	free(b->name);
	free(b->command);
	param_values_free(b->params, b->n_params);
	for (int m = 0; m < CMP_N_METRICS; m++)
		free(b->col[m]);
	free(b->run_index);
}

void gate_set_free(struct cmp_set *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->n; i++)
		bench_clear(&s->bench[i]);
	free(s->bench);
	free(s->origin);
	free(s);
}

const char *gate_format_name(enum cmp_format f)
{
	switch (f) {
	case CMP_FMT_CBENCH:
		return "cbench file";
	case CMP_FMT_HYPERFINE:
		return "hyperfine file";
	default:
		return "this run";
	}
}

const char *gate_metric_key(int metric)
{
	if (metric == CMP_CPU_TIME)
		return "cpu_time";
	const struct metric_info *mi = metric_info((enum metric_id)metric);
	return mi ? mi->key : "?";
}

int gate_metric_lookup(const char *key)
{
	if (strcmp(key, "cpu_time") == 0)
		return CMP_CPU_TIME;
	for (int m = 0; m < MET_COUNT; m++)
		if (metric_defined((enum metric_id)m) &&
		    strcmp(key, metric_info((enum metric_id)m)->key) == 0)
			return m;
	return -1;
}

bool gate_bench_has(const struct cmp_bench *b, int metric)
{
	if (metric < 0 || metric >= CMP_N_METRICS || b->col[metric] == NULL)
		return false;
	for (size_t i = 0; i < b->n_runs; i++)
		if (isfinite(b->col[metric][i]))
			return true;
	return false;
}

bool gate_set_has(const struct cmp_set *s, int metric, bool any)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++)
		k += gate_bench_has(&s->bench[i], metric);
	return any ? k > 0 : s->n > 0 && k == s->n;
}

static void copy_params(struct cmp_bench *b, const struct param_value *p,
			size_t n)
{
	if (n == 0)
		return;
	b->params = xcalloc(n, sizeof *b->params);
	for (size_t k = 0; k < n; k++) {
		b->params[k].name = xstrdup(p[k].name);
		b->params[k].value = xstrdup(p[k].value);
	}
	b->n_params = n;
}

/* user + system, run by run, when both are recorded. */
static void derive_cpu_time(struct cmp_bench *b)
{
	const double *u = b->col[MET_USER], *s = b->col[MET_SYSTEM];
	if (u == NULL || s == NULL)
		return;
	b->col[CMP_CPU_TIME] = xcalloc(b->n_runs ? b->n_runs : 1, sizeof(double));
	for (size_t i = 0; i < b->n_runs; i++)
		b->col[CMP_CPU_TIME][i] = u[i] + s[i];
}

struct cmp_set *gate_from_results(struct bench_result *const *rs, size_t n,
				     const char *origin)
{
	struct cmp_set *s = xcalloc(1, sizeof *s);
	s->origin = xstrdup(origin);
	s->format = CMP_FMT_RUN;
	s->bench = xcalloc(n ? n : 1, sizeof *s->bench);
	s->n = n;
	for (size_t i = 0; i < n; i++) {
		const struct bench_result *r = rs[i];
		struct cmp_bench *b = &s->bench[i];
		b->name = xstrdup(r->name);
		b->command = xstrdup(r->command);
		copy_params(b, r->params, r->n_params);
		b->n_runs = r->n_runs;
		for (int m = 0; m < MET_COUNT; m++) {
			if (!r->has[m])
				continue;
			b->col[m] = xcalloc(r->n_runs ? r->n_runs : 1, sizeof(double));
			if (r->n_runs)
				memcpy(b->col[m], r->col[m], r->n_runs * sizeof(double));
		}
		derive_cpu_time(b);
		if (r->run_index) {
			b->run_index = xcalloc(r->n_runs ? r->n_runs : 1, sizeof(double));
			if (r->n_runs)
				memcpy(b->run_index, r->run_index,
				       r->n_runs * sizeof(double));
		}
		for (size_t k = 0; k < r->n_runs; k++)
			b->failed_runs += r->exit_codes[k] != 0;
		b->interrupted = r->interrupted;
		b->group = r->group;
	}
	return s;
}

/* ---- reading JSON ---- */

struct reader {
	const char *origin;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 2, 3)))
static int fail(struct reader *rd, const char *fmt, ...)
{
	char msg[DIAG_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(rd->err, rd->errlen, "%s: %s", rd->origin, msg);
	return -1;
}

/* Did text[0..len) up to pos open more arrays and objects than cJSON
 * takes (CJSON_NESTING_LIMIT)?  Brackets inside strings do not count.  The
 * text need not end in a NUL (it is read by length). */
static bool too_deep(const char *text, size_t len, const char *pos)
{
	long depth = 0;
	bool in_str = false;
	const char *stop = pos < text + len ? pos + 1 : text + len;
	for (const char *p = text; p < stop && *p; p++) {
		if (in_str) {
			if (*p == '\\' && p + 1 < stop && p[1])
				p++;
			else if (*p == '"')
				in_str = false;
		} else if (*p == '"') {
			in_str = true;
		} else if (*p == '[' || *p == '{') {
			if (++depth > CJSON_NESTING_LIMIT)
				return true;
		} else if (*p == ']' || *p == '}') {
			depth--;
		}
	}
	return false;
}

/* Line and column (1-based) of pos in text. */
static void locate(const char *text, const char *pos, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (const char *p = text; p < pos && *p; p++) {
		if (*p == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* The longest time a run may have taken, in seconds (about 31 years):
 * beyond it a value is not a measurement (1e308 would overflow a mean). */
#define GATE_MAX_TIME_S 1e9

/* A measured value: finite and not negative (cbench never writes one:
 * the shell correction stops at 0), and for a time below GATE_MAX_TIME_S.
 * Else an input error naming the value's place. */
enum { COL_SIGNED = 2 };

static bool plausible(struct reader *rd, double v, size_t idx, const char *what,
		      size_t k, int seconds)
{
	const char *why = !isfinite(v) ? "not a finite number"
			  : v < 0 && seconds != COL_SIGNED ? "negative"
			  : seconds && v > GATE_MAX_TIME_S ? "above 1e9 seconds"
			  : NULL;
	if (why == NULL)
		return true;
	fail(rd, "results[%zu].%s[%zu] is %s (%g): not a measurement", idx,
	     what, k, why, v);
	return false;
}

/* A per-run array of numbers (null = not counted) into a new column.
 * want: expected length, or (size_t)-1 to take the array's own; seconds:
 * true when the values are times, COL_SIGNED for a custom metric's (any
 * sign). */
static int read_column(struct reader *rd, const cJSON *arr, size_t idx,
		       const char *what, size_t *want, int seconds, double **out)
{
	if (!cJSON_IsArray(arr))
		return fail(rd, "results[%zu].%s: expected an array of numbers", idx, what);
	size_t n = (size_t)cJSON_GetArraySize(arr);
	if (*want != (size_t)-1 && n != *want)
		return fail(rd, "results[%zu].%s has %zu values for %zu runs", idx,
			    what, n, *want);
	double *col = xcalloc(n ? n : 1, sizeof *col);
	size_t i = 0;
	const cJSON *v;
	cJSON_ArrayForEach(v, arr) {
		if (cJSON_IsNumber(v)) {
			col[i] = v->valuedouble;
			if (!plausible(rd, col[i], idx, what, i, seconds)) {
				free(col);
				return -1;
			}
		} else if (cJSON_IsNull(v)) {
			col[i] = NAN;
		} else {
			free(col);
			return fail(rd, "results[%zu].%s[%zu]: expected a number or "
				    "null", idx, what, i);
		}
		i++;
	}
	*want = n;
	*out = col;
	return 0;
}

static const char *get_string(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int read_params(struct reader *rd, const cJSON *item, size_t idx,
		       struct cmp_bench *b)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(item, "parameters");
	if (p == NULL || cJSON_IsNull(p))
		return 0;
	if (!cJSON_IsObject(p))
		return fail(rd, "results[%zu].parameters: expected an object", idx);
	size_t n = (size_t)cJSON_GetArraySize(p);
	b->params = xcalloc(n ? n : 1, sizeof *b->params);
	const cJSON *v;
	cJSON_ArrayForEach(v, p) {
		char *value;
		if (cJSON_IsString(v))
			value = xstrdup(v->valuestring);
		else if (cJSON_IsNumber(v))
			value = xasprintf("%.17g", v->valuedouble);
		else
			return fail(rd, "results[%zu].parameters.%s: expected a string",
				    idx, v->string);
		b->params[b->n_params].name = xstrdup(v->string);
		b->params[b->n_params].value = value;
		b->n_params++;
	}
	return 0;
}

static int read_bench(struct reader *rd, const cJSON *item, size_t idx,
		      enum cmp_format fmt, struct cmp_bench *b)
{
	if (!cJSON_IsObject(item))
		return fail(rd, "results[%zu]: expected an object", idx);
	const char *command = get_string(item, "command");
	if (command == NULL)
		return fail(rd, "results[%zu]: no \"command\" string", idx);
	const char *line = fmt == CMP_FMT_CBENCH ? get_string(item, "command_line") : NULL;
	const char *name = fmt == CMP_FMT_CBENCH ? get_string(item, "name") : NULL;
	b->name = xstrdup(name ? name : command);
	b->command = xstrdup(line ? line : command);
	if (read_params(rd, item, idx, b) != 0)
		return -1;

	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(item, "runs");
	if (fmt == CMP_FMT_CBENCH && !cJSON_IsObject(runs))
		return fail(rd, "results[%zu]: no \"runs\" object (per-run values)", idx);
	size_t n = (size_t)-1;
	const cJSON *wall = fmt == CMP_FMT_CBENCH
		? cJSON_GetObjectItemCaseSensitive(runs, "wall_time") : NULL;
	if (wall != NULL) {
		if (read_column(rd, wall, idx, "runs.wall_time", &n, true,
				&b->col[MET_WALL]))
			return -1;
	} else {
		const cJSON *times = cJSON_GetObjectItemCaseSensitive(item, "times");
		if (times == NULL)
			return fail(rd, "results[%zu]: no \"times\" array (per-run wall "
				    "time)", idx);
		if (read_column(rd, times, idx, "times", &n, true, &b->col[MET_WALL]))
			return -1;
	}
	b->n_runs = n;
	if (fmt == CMP_FMT_CBENCH) {
		for (int m = 0; m < MET_COUNT; m++) {
			if (m == MET_WALL)
				continue;
			const char *key = metric_info((enum metric_id)m)->key;
			if (!metric_defined((enum metric_id)m))
				continue;
			const cJSON *c = cJSON_GetObjectItemCaseSensitive(runs, key);
			if (c == NULL || cJSON_IsNull(c))
				continue;
			char what[80];
			snprintf(what, sizeof what, "runs.%s", key);
			enum metric_unit u = metric_info((enum metric_id)m)->unit;
			if (read_column(rd, c, idx, what, &n, u == UNIT_CUSTOM
					? COL_SIGNED : u == UNIT_SECONDS, &b->col[m]))
				return -1;
		}
		derive_cpu_time(b);
		/* where each run ran among the invocation's (what ran before it:
		 * the report's carry-over warning) */
		const cJSON *ri = cJSON_GetObjectItemCaseSensitive(runs, "run_index");
		if (ri != NULL && !cJSON_IsNull(ri) &&
		    read_column(rd, ri, idx, "runs.run_index", &n, false,
				&b->run_index))
			return -1;
		const cJSON *intr = cJSON_GetObjectItemCaseSensitive(item, "interrupted");
		b->interrupted = cJSON_IsTrue(intr);
		const cJSON *grp = cJSON_GetObjectItemCaseSensitive(item, "state_group");
		if (cJSON_IsNumber(grp) && grp->valuedouble >= 0 &&
		    grp->valuedouble < (double)PLANNER_MAX_BENCHMARKS)
			b->group = (size_t)grp->valuedouble;
	}
	const cJSON *codes = cJSON_GetObjectItemCaseSensitive(item, "exit_codes");
	if (cJSON_IsArray(codes)) {
		const cJSON *v;
		cJSON_ArrayForEach(v, codes)
			b->failed_runs += !(cJSON_IsNumber(v) && v->valuedouble == 0);
	}
	return 0;
}

/* The file's --metric definitions ("custom_metrics"), defined here as
 * they were there, so their columns are read and compared like the
 * built-in ones; a name defined otherwise in this invocation is an error. */
static int define_custom(struct reader *rd, const cJSON *root)
{
	const cJSON *cm = cJSON_GetObjectItemCaseSensitive(root, "custom_metrics");
	const cJSON *d;
	if (cm == NULL || cJSON_IsNull(cm))
		return 0;
	if (!cJSON_IsObject(cm))
		return fail(rd, "\"custom_metrics\" is not an object");
	cJSON_ArrayForEach(d, cm) {
		const cJSON *unit = cJSON_GetObjectItemCaseSensitive(d, "unit");
		const cJSON *hib = cJSON_GetObjectItemCaseSensitive(d, "higher_is_better");
		char why[160];
		if (!cJSON_IsObject(d) || !(unit == NULL || cJSON_IsString(unit)) ||
		    !(hib == NULL || cJSON_IsBool(hib)))
			return fail(rd, "custom_metrics.%s: expected {\"unit\": "
				    "TEXT, \"higher_is_better\": BOOL}", d->string);
		if (metric_define(d->string, unit ? unit->valuestring : "",
				  cJSON_IsTrue(hib), NULL, why, sizeof why) < 0)
			return fail(rd, "custom_metrics: %s", why);
	}
	return 0;
}

/* How many of text[0..len)'s first bytes are in set. */
static size_t strspn_len(const char *text, size_t len, const char *set)
{
	size_t k = 0;
	while (k < len && text[k] != '\0' && strchr(set, text[k]))
		k++;
	return k;
}

int gate_parse(const char *text, size_t len, const char *origin,
		  struct cmp_set **out, char *err, size_t errlen)
{
	struct reader rd = {origin, err, errlen};
	*out = NULL;

	if (strspn_len(text, len, " \t\n\r") == len)
		return fail(&rd, "empty file, expected cbench or hyperfine JSON");

	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (root == NULL) {
		int line, col;
		locate(text, end ? end : text, &line, &col);
		if (too_deep(text, len, end ? end : text))
			return fail(&rd, "JSON nested more than %d levels deep at line "
				    "%d, column %d (cbench reads up to that): not a "
				    "results file", CJSON_NESTING_LIMIT, line, col);
		return fail(&rd, "malformed JSON at line %d, column %d", line, col);
	}
	/* Anything but white space after the value is an error too. */
	while (end && (size_t)(end - text) < len &&
	       (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r'))
		end++;
	if (end && (size_t)(end - text) < len && *end != '\0') {
		int line, col;
		locate(text, end, &line, &col);
		cJSON_Delete(root);
		return fail(&rd, "malformed JSON at line %d, column %d: text after "
			    "the end of the results", line, col);
	}

	int rc = -1;
	struct cmp_set *s = xcalloc(1, sizeof *s);
	s->origin = xstrdup(origin);
	if (!cJSON_IsObject(root)) {
		fail(&rd, "expected a JSON object with a \"results\" array");
		goto out;
	}
	const cJSON *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
	if (schema != NULL) {
		if (!cJSON_IsString(schema) || strcmp(schema->valuestring,
						      "cbench-results") != 0) {
			fail(&rd, "not a cbench results file (\"schema\" is not "
			     "\"cbench-results\")");
			goto out;
		}
		const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "schema_version");
		if (!cJSON_IsNumber(ver) || ver->valuedouble < 1 ||
		    ver->valuedouble != floor(ver->valuedouble)) {
			fail(&rd, "\"schema_version\" missing or not a whole number");
			goto out;
		}
		if (ver->valuedouble > 2) {
			fail(&rd, "schema_version %.0f was written by a newer cbench; "
			     "this one reads versions 1 and 2", ver->valuedouble);
			goto out;
		}
		s->format = CMP_FMT_CBENCH;
		const cJSON *done = cJSON_GetObjectItemCaseSensitive(root, "complete");
		s->incomplete = cJSON_IsFalse(done);
		const cJSON *pend = cJSON_GetObjectItemCaseSensitive(root, "pending");
		if (s->incomplete && cJSON_IsArray(pend))
			s->n_pending = (size_t)cJSON_GetArraySize(pend);
	} else {
		s->format = CMP_FMT_HYPERFINE;
	}
	const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
	if (s->format == CMP_FMT_CBENCH && define_custom(&rd, root) != 0)
		goto out;
	if (!cJSON_IsArray(results)) {
		fail(&rd, "no \"results\" array: not a cbench or hyperfine "
		     "results file");
		goto out;
	}
	size_t n = (size_t)cJSON_GetArraySize(results);
	if (n == 0) {
		fail(&rd, "\"results\" is empty: no benchmark to compare");
		goto out;
	}
	s->bench = xcalloc(n, sizeof *s->bench);
	const cJSON *item;
	cJSON_ArrayForEach(item, results) {
		if (read_bench(&rd, item, s->n, s->format, &s->bench[s->n]) != 0) {
			s->n++;  /* free the partial one too */
			goto out;
		}
		s->n++;
	}
	rc = 0;
out:
	cJSON_Delete(root);
	if (rc == 0)
		*out = s;
	else
		gate_set_free(s);
	return rc;
}

int gate_load(const char *path, struct cmp_set **out, char *err, size_t errlen)
{
	*out = NULL;
	size_t len;
	char *buf = readfile_all(path, "results", &len, err, errlen);
	if (buf == NULL)
		return -1;
	int rc = gate_parse(buf, len, path, out, err, errlen);
	free(buf);
	return rc;
}

struct cmp_set *gate_from_plan(const struct plan *plan, const char *origin,
				bool simulated)
{
	struct cmp_set *s = xcalloc(1, sizeof *s);
	s->origin = xstrdup(origin);
	s->format = CMP_FMT_RUN;
	s->simulated = simulated;
	s->bench = xcalloc(plan->n ? plan->n : 1, sizeof *s->bench);
	s->n = plan->n;
	for (size_t i = 0; i < plan->n; i++) {
		const struct plan_bench *p = &plan->bench[i];
		struct cmp_bench *b = &s->bench[i];
		b->name = xstrdup(p->name);
		b->command = xstrdup(p->command);
		copy_params(b, p->params, p->n_params);
	}
	return s;
}

