/*
 * export_ci.c: the formats continuous-benchmarking services read, so that
 * cbench's results go to them without a jq filter:
 *
 *   --export-bmf FILE               Bencher Metric Format (BMF), as
 *       documented at bencher.dev/docs/reference/bencher-metric-format and
 *       its JSON schema bencher.dev/bmf.json: an object keyed by benchmark
 *       name, each an object keyed by measure, each {"value": number,
 *       "lower_value": number, "upper_value": number} (the bounds
 *       optional).
 *   --export-github-benchmark FILE  github-action-benchmark's
 *       "customSmallerIsBetter" input, as its README documents it: an
 *       array of {"name": string, "unit": string, "value": number,
 *       "range": string, "extra": string} ("range" and "extra" optional,
 *       free text shown in the chart's tooltip).
 *
 * Both carry, of the metrics measured (sum[m].n > 0 in the analysis
 * document), those of --export-metrics, or else those a gate decides on
 * (wall time, instructions, simulated instructions, and the task-clock of
 * a CPU-bound command) and the ones --metric defines: a service applies
 * one threshold to every series, and a count that is 0 in one run and 0.1
 * in the next (major faults) is an infinite ratio to it.  The value is the
 * mean, the bounds (BMF) and the range
 * (github-action-benchmark) the mean's confidence interval, all read from
 * the analysis (analysis.h), nothing recomputed; units are cbench's
 * (seconds, bytes, counts) and measure names its metric keys
 * ("wall_time", "peak_rss", "instructions").  Every metric cbench measures
 * is smaller-is-better, which is the one direction customSmallerIsBetter
 * takes.
 *
 * Names stay the same from one run to the next, whatever the timing or the
 * order: the display name, then the parameters as " [n=1, m=x]" for a
 * parameterised benchmark, then " #2", " #3", ... for a name seen again in
 * the same invocation (the services key their history on the name).
 */
#include "export.h"
#include "numfmt.h"
#include "xalloc.h"

#include <cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *export_ci_name(const char *name, const struct param_value *params,
		     size_t n_params)
{
	char *s = xstrdup(name);
	for (size_t k = 0; k < n_params; k++) {
		char *t = xasprintf("%s%s%s=%s%s", s, k == 0 ? " [" : ", ",
				    params[k].name, params[k].value,
				    k + 1 == n_params ? "]" : "");
		free(s);
		s = t;
	}
	return s;
}

/* Do a and b have the same parameters, with the same values? */
static bool same_params(const struct bench_result *a,
			const struct bench_result *b)
{
	if (a->n_params != b->n_params)
		return false;
	for (size_t k = 0; k < a->n_params; k++)
		if (strcmp(a->params[k].name, b->params[k].name) != 0 ||
		    strcmp(a->params[k].value, b->params[k].value) != 0)
			return false;
	return true;
}

/* The names of an outcome's benchmarks, made unique (see the top). */
static char **outcome_names(const struct bench_outcome *o)
{
	size_t n = o->n;
	char **names = xcalloc(n ? n : 1, sizeof *names);
	for (size_t i = 0; i < n; i++) {
		const struct bench_result *r = o->results[i];
		names[i] = export_ci_name(r->name, r->params, r->n_params);
		size_t seen = 1;
		for (size_t j = 0; j < i; j++)
			seen += strcmp(o->results[j]->name, r->name) == 0 &&
				same_params(o->results[j], r);
		if (seen > 1) {
			char *t = xasprintf("%s #%zu", names[i], seen);
			free(names[i]);
			names[i] = t;
		}
	}
	return names;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* The largest share of CPU time (task-clock) in wall time among b's runs
 * (the gate's rule for a CPU-bound command, results.h). */
static double best_cpu_share(const struct bench_result *b)
{
	const double *c = b->col[MET_CTR_FIRST + CTR_TASK_CLOCK], *w = b->col[MET_WALL];
	double best = 0;
	for (size_t k = 0; c && w && k < b->n_runs; k++)
		if (isfinite(c[k]) && w[k] > 0 && c[k] / w[k] > best)
			best = c[k] / w[k];
	return best;
}

/* Without --export-metrics: the metrics a gate may decide on (gate.c's
 * choose_metric), as measured: the wall time, the counts, and the
 * task-clock of a CPU-bound command (a command that waits spends little
 * CPU, whose small value moves by more than a threshold from run to
 * run).  A command that becomes CPU-bound gains a series; the others keep
 * their names. */
static bool gate_metric(const struct analysis_bench *b, int m)
{
	if (m == MET_CTR_FIRST + CTR_TASK_CLOCK)
		return b->of && best_cpu_share(b->of) >= CPU_BOUND_SHARE;
	return m == MET_WALL || m == MET_CTR_FIRST + CTR_INSTRUCTIONS ||
	       m == MET_SIM_INSTRUCTIONS;
}

/* Does the export carry metric m of b? */
static bool carried(const struct export_doc *d, const struct analysis_bench *b,
		    int m)
{
	const struct stats_summary *s = &b->sum[m];
	if (s->n == 0 || !isfinite(s->mean))
		return false;
	const bool *asked = d->ctx->opts ? d->ctx->opts->ci_metric : NULL;
	bool any = false;
	for (int k = 0; asked && k < MET_COUNT; k++)
		any |= asked[k];
	/* The metrics --metric defines are the user's own choice. */
	return any ? asked[m] : m >= MET_CUSTOM_FIRST || gate_metric(b, m);
}

size_t export_bmf_cut(const struct bench_outcome *o)
{
	char **names = outcome_names(o);
	size_t cut = 0;
	for (size_t i = 0; i < o->n; i++) {
		cJSON *key = export_json_text(names[i]);   /* as the file has it */
		cut += strlen(key->valuestring) > EXPORT_BMF_NAME_MAX;
		cJSON_Delete(key);
	}
	free_names(names, o->n);
	return cut;
}

char *export_bmf_name(const char *name)
{
	size_t len = strlen(name);
	if (len <= EXPORT_BMF_NAME_MAX)
		return xstrdup(name);
	uint64_t h = 0xcbf29ce484222325u;   /* FNV-1a, 64 bits */
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 0x100000001b3u;
	char tail[32];
	int t = snprintf(tail, sizeof tail, " ~%016llx", (unsigned long long)h);
	size_t keep = EXPORT_BMF_NAME_MAX - (size_t)t;
	while (keep > 0 && ((unsigned char)name[keep] & 0xC0) == 0x80)
		keep--;     /* not inside a character */
	return xasprintf("%.*s%s", (int)keep, name, tail);
}

static const char *unit_name(const struct metric_info *mi)
{
	enum metric_unit u = mi->unit;
	return u == UNIT_SECONDS ? "s" : u == UNIT_BYTES ? "bytes"
	       : u == UNIT_CUSTOM ? mi->unit_text : "count";
}

static int print_tree(FILE *f, cJSON *root)
{
	char *text = numfmt_json_exact(root) == 0 ? cJSON_Print(root) : NULL;
	cJSON_Delete(root);
	if (text == NULL)
		return -1;
	fputs(text, f);
	fputc('\n', f);
	cJSON_free(text);
	return ferror(f) ? -1 : 0;
}

int export_bmf_write(FILE *f, const struct export_doc *d)
{
	char **names = outcome_names(d->outcome);
	cJSON *root = cJSON_CreateObject();
	for (size_t i = 0; i < d->outcome->n && i < d->an->n; i++) {
		const struct analysis_bench *b = &d->an->bench[i];
		cJSON *bench = NULL;
		for (int m = 0; m < MET_COUNT; m++) {
			const struct stats_summary *s = &b->sum[m];
			if (!carried(d, b, m))
				continue;
			if (bench == NULL) {
				/* The key, valid UTF-8 like every string,
				 * within Bencher's limit. */
				cJSON *key = export_json_text(names[i]);
				char *fit = export_bmf_name(key->valuestring);
				bench = cJSON_CreateObject();
				cJSON_AddItemToObject(root, fit, bench);
				free(fit);
				cJSON_Delete(key);
			}
			cJSON *v = cJSON_CreateObject();
			cJSON_AddNumberToObject(v, "value", s->mean);
			if (isfinite(s->mean_ci_lo) && isfinite(s->mean_ci_hi)) {
				cJSON_AddNumberToObject(v, "lower_value", s->mean_ci_lo);
				cJSON_AddNumberToObject(v, "upper_value", s->mean_ci_hi);
			}
			cJSON_AddItemToObject(bench, metric_info((enum metric_id)m)->key, v);
		}
	}
	free_names(names, d->outcome->n);
	return print_tree(f, root);
}

/* The tooltip's lines: runs, median, standard deviation. */
static char *extra_text(const struct stats_summary *s, const char *unit)
{
	char *t = xasprintf("%zu runs\nmedian: %.6g %s", s->n, s->median, unit);
	if (isfinite(s->stddev)) {
		char *u = xasprintf("%s\nstddev: %.6g %s", t, s->stddev, unit);
		free(t);
		t = u;
	}
	return t;
}

static int github_write(FILE *f, const struct export_doc *d, bool bigger)
{
	char **names = outcome_names(d->outcome);
	cJSON *root = cJSON_CreateArray();
	for (size_t i = 0; i < d->outcome->n && i < d->an->n; i++) {
		const struct analysis_bench *b = &d->an->bench[i];
		for (int m = 0; m < MET_COUNT; m++) {
			const struct stats_summary *s = &b->sum[m];
			const struct metric_info *mi = metric_info((enum metric_id)m);
			if (!carried(d, b, m) || mi->higher_is_better != bigger)
				continue;
			const char *unit = unit_name(mi);
			cJSON *e = cJSON_CreateObject();
			char *name = xasprintf("%s - %s", names[i], mi->key);
			cJSON_AddItemToObject(e, "name", export_json_text(name));
			free(name);
			cJSON_AddStringToObject(e, "unit", unit);
			cJSON_AddNumberToObject(e, "value", s->mean);
			if (isfinite(s->mean_ci_lo) && isfinite(s->mean_ci_hi)) {
				char *r = xasprintf("%g%% CI %.6g to %.6g",
						    s->confidence * 100,
						    s->mean_ci_lo, s->mean_ci_hi);
				cJSON_AddStringToObject(e, "range", r);
				free(r);
			}
			char *x = extra_text(s, unit);
			cJSON_AddStringToObject(e, "extra", x);
			free(x);
			cJSON_AddItemToArray(root, e);
		}
	}
	free_names(names, d->outcome->n);
	return print_tree(f, root);
}

int export_github_benchmark_write(FILE *f, const struct export_doc *d)
{
	return github_write(f, d, false);
}

int export_github_benchmark_bigger_write(FILE *f, const struct export_doc *d)
{
	return github_write(f, d, true);
}
