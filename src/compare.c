/*
 * compare.c: reading saved results, matching benchmarks and deciding
 * regressions for CI gates (see compare.h for the rule).
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
#include "compare.h"
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
}

void compare_set_free(struct cmp_set *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < s->n; i++)
		bench_clear(&s->bench[i]);
	free(s->bench);
	free(s->origin);
	free(s);
}

const char *compare_format_name(enum cmp_format f)
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

const char *compare_metric_key(int metric)
{
	if (metric == CMP_CPU_TIME)
		return "cpu_time";
	const struct metric_info *mi = metric_info((enum metric_id)metric);
	return mi ? mi->key : "?";
}

int compare_metric_lookup(const char *key)
{
	if (strcmp(key, "cpu_time") == 0)
		return CMP_CPU_TIME;
	for (int m = 0; m < MET_COUNT; m++)
		if (strcmp(key, metric_info((enum metric_id)m)->key) == 0)
			return m;
	return -1;
}

bool compare_bench_has(const struct cmp_bench *b, int metric)
{
	if (metric < 0 || metric >= CMP_N_METRICS || b->col[metric] == NULL)
		return false;
	for (size_t i = 0; i < b->n_runs; i++)
		if (isfinite(b->col[metric][i]))
			return true;
	return false;
}

bool compare_set_has(const struct cmp_set *s, int metric, bool any)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++)
		k += compare_bench_has(&s->bench[i], metric);
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

struct cmp_set *compare_from_results(struct bench_result *const *rs, size_t n,
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
		for (size_t k = 0; k < r->n_runs; k++)
			b->failed_runs += r->exit_codes[k] != 0;
		b->interrupted = r->interrupted;
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

/* A per-run array of numbers (null = not counted) into a new column.
 * want: expected length, or (size_t)-1 to take the array's own. */
static int read_column(struct reader *rd, const cJSON *arr, size_t idx,
		       const char *what, size_t *want, double **out)
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
		if (read_column(rd, wall, idx, "runs.wall_time", &n, &b->col[MET_WALL]))
			return -1;
	} else {
		const cJSON *times = cJSON_GetObjectItemCaseSensitive(item, "times");
		if (times == NULL)
			return fail(rd, "results[%zu]: no \"times\" array (per-run wall "
				    "time)", idx);
		if (read_column(rd, times, idx, "times", &n, &b->col[MET_WALL]))
			return -1;
	}
	b->n_runs = n;
	if (fmt == CMP_FMT_CBENCH) {
		for (int m = 0; m < MET_COUNT; m++) {
			if (m == MET_WALL)
				continue;
			const char *key = metric_info((enum metric_id)m)->key;
			const cJSON *c = cJSON_GetObjectItemCaseSensitive(runs, key);
			if (c == NULL || cJSON_IsNull(c))
				continue;
			char what[80];
			snprintf(what, sizeof what, "runs.%s", key);
			if (read_column(rd, c, idx, what, &n, &b->col[m]))
				return -1;
		}
		derive_cpu_time(b);
		const cJSON *intr = cJSON_GetObjectItemCaseSensitive(item, "interrupted");
		b->interrupted = cJSON_IsTrue(intr);
	}
	const cJSON *codes = cJSON_GetObjectItemCaseSensitive(item, "exit_codes");
	if (cJSON_IsArray(codes)) {
		const cJSON *v;
		cJSON_ArrayForEach(v, codes)
			b->failed_runs += !(cJSON_IsNumber(v) && v->valuedouble == 0);
	}
	return 0;
}

int compare_parse(const char *text, size_t len, const char *origin,
		  struct cmp_set **out, char *err, size_t errlen)
{
	struct reader rd = {origin, err, errlen};
	*out = NULL;

	size_t k = 0;
	while (k < len && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' ||
			   text[k] == '\r'))
		k++;
	if (k == len)
		return fail(&rd, "empty file, expected cbench or hyperfine JSON");

	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (root == NULL) {
		int line, col;
		locate(text, end ? end : text, &line, &col);
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
		if (ver->valuedouble > 1) {
			fail(&rd, "schema_version %.0f was written by a newer cbench; "
			     "this one reads version 1", ver->valuedouble);
			goto out;
		}
		s->format = CMP_FMT_CBENCH;
	} else {
		s->format = CMP_FMT_HYPERFINE;
	}
	const cJSON *results = cJSON_GetObjectItemCaseSensitive(root, "results");
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
		compare_set_free(s);
	return rc;
}

int compare_load(const char *path, struct cmp_set **out, char *err, size_t errlen)
{
	*out = NULL;
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (f == NULL) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		return -1;
	}
	/* fopen() opens a directory for reading; only read() fails, with
	 * EISDIR.  Say what the user did. */
	struct stat sb;
	if (fstat(fileno(f), &sb) == 0 && S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "cannot read '%s': it is a directory, not a "
			 "results file", path);
		if (f != stdin)
			fclose(f);
		return -1;
	}
	size_t cap = 1 << 16, len = 0;
	char *buf = xmalloc(cap);
	errno = 0;
	for (;;) {
		if (len == cap)
			xgrow((void **)&buf, &cap, len + 1, 1);
		size_t got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (got == 0)
			break;
	}
	int rd_err = ferror(f) ? (errno ? errno : EIO) : 0;
	if (f != stdin)
		fclose(f);
	if (rd_err) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(rd_err));
		free(buf);
		return -1;
	}
	int rc = compare_parse(buf, len, path, out, err, errlen);
	free(buf);
	return rc;
}

/* ---- matching and deciding ---- */

const char *compare_verdict_name(enum cmp_verdict v)
{
	static const char *const names[CMP__COUNT] = {
		[CMP_REGRESSION] = "regression",
		[CMP_IMPROVEMENT] = "improvement",
		[CMP_NOISE] = "within noise",
		[CMP_UNDECIDED] = "undecided",
		[CMP_ONLY_BASE] = "missing in new",
		[CMP_ONLY_NEW] = "not in baseline",
	};
	return (unsigned)v < CMP__COUNT ? names[v] : "?";
}

enum cmp_verdict compare_decide(const struct stats_comparison *c,
				double threshold, double *p_used)
{
	/* Mann-Whitney U first: rank-based, so one slow run on a busy CI
	 * machine does not make or break significance (Google Benchmark's
	 * tools/compare.py uses it for the same reason). */
	double p = isfinite(c->p_mann_whitney) && !c->mw_underpowered
		   ? c->p_mann_whitney : c->p_welch;
	*p_used = p;
	if (!isfinite(p) || !isfinite(c->ratio_lo) || !isfinite(c->ratio_hi))
		return CMP_UNDECIDED;
	/* 1 - 0.95 is 0.050000000000000044 in binary: round alpha so that
	 * p = 0.05 is not significant at 95 %. */
	double alpha = round((1.0 - c->confidence) * 1e12) / 1e12;
	if (!(p < alpha))
		return CMP_NOISE;
	if (c->ratio_lo - 1.0 > threshold)
		return CMP_REGRESSION;
	if (1.0 - c->ratio_hi > threshold)
		return CMP_IMPROVEMENT;
	return CMP_NOISE;
}

/* Do a and b have the same parameters (in any order)? */
static bool same_params(const struct cmp_bench *a, const struct cmp_bench *b)
{
	if (a->n_params != b->n_params)
		return false;
	for (size_t i = 0; i < a->n_params; i++) {
		bool found = false;
		for (size_t k = 0; k < b->n_params && !found; k++)
			found = strcmp(a->params[i].name, b->params[k].name) == 0 &&
				strcmp(a->params[i].value, b->params[k].value) == 0;
		if (!found)
			return false;
	}
	return true;
}

static bool same_bench(const struct cmp_bench *a, const struct cmp_bench *b,
		       enum match_by by)
{
	const char *x = by == MATCH_NAME ? a->name : a->command;
	const char *y = by == MATCH_NAME ? b->name : b->command;
	return strcmp(x, y) == 0 && same_params(a, b);
}

/* Regressions first, then improvements, noise, undecided, one-sided;
 * file order within each group (a stable counting sort). */
static void order_rows(struct cmp_row *rows, size_t n)
{
	struct cmp_row *sorted = xcalloc(n + 1, sizeof *sorted);
	size_t k = 0;
	for (int v = 0; v < CMP__COUNT; v++)
		for (size_t i = 0; i < n; i++)
			if ((int)rows[i].verdict == v)
				sorted[k++] = rows[i];
	memcpy(rows, sorted, n * sizeof *rows);
	free(sorted);
}

/* Choose the gate metric and say why. */
static int choose_metric(const struct cmp_set *base, const struct cmp_set *new,
			 const struct cmp_row *rows, size_t n_rows,
			 const struct cmp_options *opt, struct cmp_report *rep,
			 char *err, size_t errlen)
{
	if (opt->metric >= 0) {
		int m = opt->metric;
		rep->metric = m;
		snprintf(rep->why, sizeof rep->why, "chosen with --gate-metric");
		for (size_t i = 0; i < n_rows; i++) {
			const struct cmp_row *r = &rows[i];
			if (r->base == NULL || r->new == NULL)
				continue;
			const struct cmp_set *lacking = !compare_bench_has(r->base, m)
				? base : !compare_bench_has(r->new, m) ? new : NULL;
			if (lacking == NULL)
				continue;
			const struct cmp_bench *b = lacking == base ? r->base : r->new;
			if (lacking->format == CMP_FMT_HYPERFINE)
				snprintf(err, errlen, "--gate-metric %s: %s is a hyperfine "
					 "file, which records only wall time per run "
					 "(use --gate-metric wall_time)",
					 compare_metric_key(m), lacking->origin);
			else
				snprintf(err, errlen, "--gate-metric %s: not counted in "
					 "%s for '%s'", compare_metric_key(m),
					 lacking->origin, b->name);
			return -1;
		}
		return 0;
	}
	rep->metric_auto = true;
	const struct cmp_set *lacking = NULL;
	for (size_t i = 0; i < n_rows && lacking == NULL; i++) {
		const struct cmp_row *r = &rows[i];
		if (r->base == NULL || r->new == NULL)
			continue;
		if (!compare_bench_has(r->base, MET_CTR_FIRST + CTR_INSTRUCTIONS))
			lacking = base;
		else if (!compare_bench_has(r->new, MET_CTR_FIRST + CTR_INSTRUCTIONS))
			lacking = new;
	}
	if (lacking == NULL) {
		rep->metric = MET_CTR_FIRST + CTR_INSTRUCTIONS;
		snprintf(rep->why, sizeof rep->why, "counted on both sides");
	} else {
		rep->metric = MET_WALL;
		if (lacking->format == CMP_FMT_HYPERFINE)
			snprintf(rep->why, sizeof rep->why, "%s is a hyperfine file, "
				 "without counters", lacking->origin);
		else
			snprintf(rep->why, sizeof rep->why, "instructions not counted "
				 "in %s", lacking->format == CMP_FMT_RUN
				 ? "this run" : lacking->origin);
	}
	return 0;
}

static void compare_pair(struct cmp_row *r, int m, const struct cmp_options *opt)
{
	const double *a = r->base->col[m], *b = r->new->col[m];
	struct stats_summary sa, sb;
	bool ok_a = stats_summarize(a, r->base->n_runs, opt->confidence, &sa) == 0;
	bool ok_b = stats_summarize(b, r->new->n_runs, opt->confidence, &sb) == 0;
	r->base_mean = ok_a ? sa.mean : NAN;
	r->base_sd = ok_a ? sa.stddev : NAN;
	r->base_n = ok_a ? sa.n : 0;
	r->new_mean = ok_b ? sb.mean : NAN;
	r->new_sd = ok_b ? sb.stddev : NAN;
	r->new_n = ok_b ? sb.n : 0;
	r->p = NAN;
	if (!ok_a || !ok_b ||
	    stats_compare(a, r->base->n_runs, b, r->new->n_runs, opt->confidence,
			  opt->seed, &r->st) != 0) {
		memset(&r->st, 0, sizeof r->st);
		r->st.ratio = r->st.ratio_lo = r->st.ratio_hi = NAN;
		r->st.p_welch = r->st.p_mann_whitney = NAN;
		r->st.confidence = opt->confidence;
		r->verdict = CMP_UNDECIDED;
		return;
	}
	/*
	 * Constant samples (deterministic counters such as page faults of a
	 * program that touches a fixed number of pages): the t statistic is
	 * 0/0 or x/0 and the rank test has no variance when all values tie,
	 * so both p-values may be undefined.  The difference, if any, is then
	 * exact: decide on it as on a certain one.
	 */
	struct stats_comparison c = r->st;
	if (!isfinite(c.p_mann_whitney) && !isfinite(c.p_welch) &&
	    sa.n >= 2 && sb.n >= 2 && sa.stddev == 0 && sb.stddev == 0) {
		c.p_welch = sa.mean == sb.mean ? 1.0 : 0.0;
		if (!isfinite(c.ratio_lo) || !isfinite(c.ratio_hi))
			c.ratio_lo = c.ratio_hi = c.ratio;
		r->st = c;
	}
	r->verdict = compare_decide(&c, opt->threshold, &r->p);
}

/* Pair each benchmark of base with the first unpaired one of new that has
 * the same key: rows in base's order, then new's unpaired ones. */
static struct cmp_row *match(const struct cmp_set *base, const struct cmp_set *new,
			     enum match_by by, size_t *n_rows, size_t *matched)
{
	struct cmp_row *rows = xcalloc(base->n + new->n + 1, sizeof *rows);
	bool *taken = xcalloc(new->n + 1, sizeof *taken);
	size_t n = 0;
	*matched = 0;
	for (size_t i = 0; i < base->n; i++) {
		struct cmp_row *r = &rows[n++];
		r->base = &base->bench[i];
		for (size_t k = 0; k < new->n; k++) {
			if (!taken[k] && same_bench(r->base, &new->bench[k], by)) {
				taken[k] = true;
				r->new = &new->bench[k];
				(*matched)++;
				break;
			}
		}
		if (r->new == NULL)
			r->verdict = CMP_ONLY_BASE;
	}
	for (size_t k = 0; k < new->n; k++) {
		if (taken[k])
			continue;
		rows[n].new = &new->bench[k];
		rows[n].verdict = CMP_ONLY_NEW;
		n++;
	}
	free(taken);
	*n_rows = n;
	return rows;
}

static int no_match(const struct cmp_set *base, const struct cmp_set *new,
		    enum match_by by, char *err, size_t errlen)
{
	snprintf(err, errlen, "no benchmark in %s matches one in %s (matching by "
		 "%s)", new->origin, base->origin, by == MATCH_NAME
		 ? "display name; try --match-by command"
		 : "command line; try --match-by name");
	return -1;
}

int compare_check_tools(const struct cmp_set *base, const struct cmp_set *new,
			char *err, size_t errlen)
{
	bool hf_base = base->format == CMP_FMT_HYPERFINE;
	bool hf_new = new->format == CMP_FMT_HYPERFINE;
	if (hf_base == hf_new)
		return 0;
	const struct cmp_set *hf = hf_base ? base : new;
	const struct cmp_set *cb = hf_base ? new : base;
	snprintf(err, errlen, "%s is a hyperfine file and %s is cbench's: their "
		 "wall times are not comparable (hyperfine's include starting the "
		 "process, cbench's start at its exec), so the offset would read "
		 "as a regression or an improvement; measure %s with cbench too "
		 "(--save-baseline), or compare two hyperfine files", hf->origin,
		 cb->format == CMP_FMT_RUN ? "this run" : cb->origin,
		 hf_base ? "the baseline" : hf->origin);
	return -1;
}

struct cmp_set *compare_from_plan(const struct plan *plan, const char *origin)
{
	struct cmp_set *s = xcalloc(1, sizeof *s);
	s->origin = xstrdup(origin);
	s->format = CMP_FMT_RUN;
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

void compare_names(const struct cmp_row *rows, size_t n, enum cmp_verdict v,
		   char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (rows[i].verdict != v)
			continue;
		const struct cmp_bench *b = rows[i].base ? rows[i].base : rows[i].new;
		int w = snprintf(buf + off, len - off, "%s'%s'", off ? ", " : "", b->name);
		if (w < 0 || (size_t)w >= len - off) {
			if (len > 4)
				snprintf(buf + len - 4, 4, "...");
			return;
		}
		off += (size_t)w;
	}
}

int compare_check_match(const struct cmp_set *base, const struct cmp_set *new,
			enum match_by by, bool require_all, char *err, size_t errlen)
{
	size_t n, matched;
	struct cmp_row *rows = match(base, new, by, &n, &matched);
	int rc = 0;
	/* A hyperfine file against a cbench one is refused whatever matches,
	 * so say that first: "no match, try --match-by" would only lead to
	 * this error next. */
	if (compare_check_tools(base, new, err, errlen) != 0) {
		rc = -1;
	} else if (matched == 0) {
		rc = no_match(base, new, by, err, errlen);
	} else if (require_all && matched < n) {
		/* One line naming the one-sided benchmarks of both sides. */
		size_t off = 0;
		err[0] = '\0';
		for (int v = CMP_ONLY_BASE; v <= CMP_ONLY_NEW; v++) {
			size_t k = 0;
			for (size_t i = 0; i < n; i++)
				k += rows[i].verdict == (enum cmp_verdict)v;
			if (k == 0 || off >= errlen)
				continue;
			const struct cmp_set *from = v == CMP_ONLY_BASE ? base : new;
			const struct cmp_set *in = v == CMP_ONLY_BASE ? new : base;
			char names[DIAG_MSG_MAX / 2];
			compare_names(rows, n, (enum cmp_verdict)v, names, sizeof names);
			int w = snprintf(err + off, errlen - off, "%s%zu benchmark%s "
					 "of %s %s not in %s: %s",
					 off ? "; " : "--require-all: ", k,
					 k == 1 ? "" : "s", from->origin,
					 k == 1 ? "is" : "are", in->origin, names);
			off = w < 0 ? errlen : off + (size_t)w;
		}
		rc = -1;
	}
	free(rows);
	return rc;
}

int compare_run(const struct cmp_set *base, const struct cmp_set *new,
		const struct cmp_options *opt, struct cmp_report *out,
		char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	out->base = base;
	out->new = new;
	out->threshold = opt->threshold;
	out->confidence = opt->confidence;
	out->match_by = opt->match_by;

	size_t n, matched;
	struct cmp_row *rows = match(base, new, opt->match_by, &n, &matched);
	out->rows = rows;
	out->n_rows = n;
	if (matched == 0)
		return no_match(base, new, opt->match_by, err, errlen);
	if (compare_check_tools(base, new, err, errlen) != 0)
		return -1;
	if (choose_metric(base, new, rows, n, opt, out, err, errlen) != 0)
		return -1;

	for (size_t i = 0; i < n; i++)
		if (rows[i].base && rows[i].new)
			compare_pair(&rows[i], out->metric, opt);
	order_rows(rows, n);
	for (size_t i = 0; i < n; i++)
		out->count[rows[i].verdict]++;

	/* Metrics one side recorded per run and the other did not. */
	for (int m = 0; m < MET_COUNT; m++) {
		bool in_base = compare_set_has(base, m, true);
		bool in_new = compare_set_has(new, m, true);
		if (in_base != in_new)
			out->uncompared[out->n_uncompared++] = m;
	}
	return 0;
}

void compare_report_free(struct cmp_report *r)
{
	if (r == NULL)
		return;
	free(r->rows);
	r->rows = NULL;
	r->n_rows = 0;
}
