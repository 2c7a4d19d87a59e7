/*
 * export_json.c: --export-json.  A superset of hyperfine's JSON export
 * (hyperfine 1.15, src/export/json.rs, and 1.20's per-run
 * "memory_usage_byte"): each item of "results" carries
 * hyperfine's fields unchanged ("command" is the display name without
 * the parameters it does not show, as hyperfine's get_name(); times in
 * seconds; "stddev" null for one run; "exit_codes" 128 + N for a run
 * killed by signal N; "parameters" only when parameterised, values as
 * strings), so
 * scripts written for hyperfine keep working.  cbench adds, beside them,
 * the real command line, per-run arrays for every metric, every statistic
 * of every metric, the comparisons against the reference, and a context
 * block saying when, where and how the benchmarks ran.  The README's
 * "Exports" section is the schema's documentation; "schema_version" changes
 * whenever a field changes meaning or disappears.
 *
 * The per-run arrays (a million runs are tens of millions of values) are
 * not cJSON nodes: the tree holds a raw placeholder for each, and
 * export_json_write streams the arrays into cJSON's printed text in the
 * layout cJSON would print them ("[a, b, c]").  Every number is written
 * by numfmt_json: the shortest of 15 to 17 digits that reads back as the
 * same double, as the CSV writes it (cJSON's own printing may be one unit
 * in the last place off).
 *
 * Values that were not counted are null, never 0.  Strings are checked for
 * UTF-8: an invalid byte (a command line is bytes, JSON is text) becomes
 * U+FFFD so that strict parsers still read the file.
 */
#include "between.h"
#include "profile.h"
#include "simcpu.h"
#include "export.h"
#include "cpulist.h"
#include "multitest.h"
#include "numfmt.h"
#include "planner.h"
#include "spawn.h"
#include "utf8.h"
#include "xalloc.h"

#include <cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SCHEMA_VERSION 2

static cJSON *str(const char *s)
{
	if (s == NULL)
		return cJSON_CreateNull();
	if (utf8_valid(s))
		return cJSON_CreateString(s);
	char *clean = utf8_clean(s);
	cJSON *j = cJSON_CreateString(clean);
	free(clean);
	return j;
}

/* A number as numfmt_json writes it, made a raw node: exact where
 * cJSON's own printing is not, and cJSON's sprintf and sscanf were most
 * of a large export's cost. */
static cJSON *num(double v)
{
	if (!isfinite(v))
		return cJSON_CreateNull();
	char buf[NUMFMT_MAX + 1];
	buf[numfmt_json(buf, v)] = '\0';
	return cJSON_CreateRaw(buf);
}

static cJSON *pair(double lo, double hi)
{
	cJSON *a = cJSON_CreateArray();
	cJSON_AddItemToArray(a, num(lo));
	cJSON_AddItemToArray(a, num(hi));
	return a;
}

static const char *unit_symbol(enum metric_unit u)
{
	switch (u) {
	case UNIT_SECONDS:
		return "s";
	case UNIT_BYTES:
		return "bytes";
	default:
		return "count";
	}
}

static const char *order_name(enum run_order o)
{
	switch (o) {
	case ORDER_INTERLEAVED:
		return "interleaved";
	case ORDER_SHUFFLED:
		return "shuffled";
	default:
		return "sequential";
	}
}

static cJSON *options(const struct export_doc *d)
{
	const struct export_options *eo = d->ctx->opts;
	const struct bench_options *run = &eo->run;
	const struct plan_stop *stop = &run->stop;
	const struct bench_outcome *o = d->outcome;
	cJSON *j = cJSON_CreateObject();
	cJSON_AddItemToObjectCS(j, "confidence", num(eo->analysis.confidence));
	cJSON_AddItemToObjectCS(j, "warmup", num((double)run->warmup));
	cJSON_AddItemToObjectCS(j, "runs", stop->runs > 0 ? num((double)stop->runs)
						       : cJSON_CreateNull());
	cJSON_AddItemToObjectCS(j, "min_runs", num((double)stop->min_runs));
	cJSON_AddItemToObjectCS(j, "max_runs", stop->max_runs > 0
			      ? num((double)stop->max_runs) : cJSON_CreateNull());
	cJSON_AddItemToObjectCS(j, "min_time_s", num(stop->min_time_s));
	cJSON_AddItemToObjectCS(j, "max_time_s", stop->max_time_s > 0
			      ? num(stop->max_time_s) : cJSON_CreateNull());
	cJSON_AddItemToObjectCS(j, "precision", stop->precision > 0
			      ? num(stop->precision) : cJSON_CreateNull());
	cJSON_AddItemToObjectCS(j, "order", str(order_name(o->order)));
	/* The seed used: given, or drawn for --order=shuffled (bench.c).
	 * A seed beyond 2^53 would lose digits as a JSON number. */
	bool drawn = !run->seed_given && eo->order == ORDER_SHUFFLED;
	uint64_t seed = drawn ? o->order_seed : run->seed;
	if (!run->seed_given && !drawn)
		cJSON_AddItemToObjectCS(j, "seed", cJSON_CreateNull());
	else if (seed <= (UINT64_C(1) << 53))
		cJSON_AddItemToObjectCS(j, "seed", num((double)seed));
	else {
		char buf[32];
		snprintf(buf, sizeof buf, "%llu", (unsigned long long)seed);
		cJSON_AddItemToObjectCS(j, "seed", str(buf));
	}
	/* The bootstrap behind the intervals (stats_robust.h). */
	cJSON_AddItemToObjectCS(j, "bootstrap_resamples", num(STATS_ROBUST_B));
	cJSON_AddItemToObjectCS(j, "bootstrap_seed", num((double)d->an->opt.seed));
	cJSON_AddItemToObjectCS(j, "timeout_s", run->timeout_s > 0
			      ? num(run->timeout_s) : cJSON_CreateNull());
	cJSON_AddBoolToObject(j, "ignore_failure", run->ignore_failure);
	cJSON *ctr = cJSON_AddArrayToObject(j, "counters");
	for (int k = 0; k < CTR_MAX; k++) {
		bool any = false;
		for (size_t i = 0; i < o->n && !any; i++)
			any = o->results[i]->has[MET_CTR_FIRST + k];
		if (any)
			cJSON_AddItemToArray(ctr, str(counters_info((enum counter_id)k)->key));
	}
	return j;
}

static cJSON *text_or_null(const char *s)
{
	return s[0] ? str(s) : cJSON_CreateNull();
}

static cJSON *tristate(int v)
{
	return v < 0 ? cJSON_CreateNull() : cJSON_CreateBool(v != 0);
}

/* The context for notebooks and dashboards (sysinfo.h): memory, CPU
 * frequency policy, load at the start, OS, compiler, and the git state of
 * the working directory; null for whatever could not be read. */
static void machine_more(cJSON *j, const struct export_context *c)
{
	const struct machine_info *m = &c->machine;
	cJSON_AddItemToObject(j, "memory_total_bytes", m->mem_total > 0
			      ? num((double)m->mem_total) : cJSON_CreateNull());
	cJSON_AddItemToObject(j, "swap_total_bytes", m->swap_total >= 0
			      ? num((double)m->swap_total) : cJSON_CreateNull());
	cJSON_AddItemToObject(j, "swap_used_bytes", m->swap_used >= 0
			      ? num((double)m->swap_used) : cJSON_CreateNull());
	if (m->loadavg[0] >= 0 && m->loadavg[1] >= 0 && m->loadavg[2] >= 0) {
		cJSON *l = cJSON_AddArrayToObject(j, "load_average");
		for (int k = 0; k < 3; k++)
			cJSON_AddItemToArray(l, num(m->loadavg[k]));
	} else {
		cJSON_AddNullToObject(j, "load_average");
	}
	cJSON_AddItemToObject(j, "os_release", text_or_null(m->os_release));
	cJSON_AddItemToObject(j, "cpu_governor", text_or_null(m->governor));
	cJSON_AddItemToObject(j, "cpufreq_driver", text_or_null(m->cpufreq_driver));
	cJSON_AddItemToObject(j, "cpu_boost", tristate(m->boost));
	cJSON_AddItemToObject(j, "compiler", text_or_null(m->compiler));
	const struct source_state *s = &c->source;
	cJSON *src = cJSON_AddObjectToObject(j, "source");
	cJSON_AddItemToObject(src, "commit", text_or_null(s->commit));
	cJSON_AddItemToObject(src, "branch", text_or_null(s->branch));
	cJSON_AddItemToObject(src, "dirty", tristate(s->dirty));
	cJSON_AddItemToObject(src, "from", text_or_null(s->from));
}

/* --pin, --pin-hooks, --pin-self (canonical lists, null when not given),
 * --aslr ("on", "off", or null: as the system has it),
 * --randomize-layout and the system check (syscheck_json, null when
 * none), added to the context. */
static void noise_context(cJSON *j, const struct export_context *ctx)
{
	const struct bench_options *run = &ctx->opts->run;
	const struct {
		const char *key, *list;
	} pins[] = {{"pin", run->pin},
		    {"pin_hooks", run->pin_hooks ? run->pin_hooks : run->pin},
		    {"pin_self", run->pin_self}};
	for (size_t i = 0; i < sizeof pins / sizeof pins[0]; i++) {
		char buf[1024], why[256];
		cpu_set_t set;
		if (pins[i].list && strcmp(pins[i].list, "none") != 0 &&
		    cpulist_parse(pins[i].list, &set, why, sizeof why) == 0) {
			cpulist_format(&set, buf, sizeof buf);
			cJSON_AddItemToObject(j, pins[i].key, str(buf));
		} else {
			cJSON_AddItemToObject(j, pins[i].key, cJSON_CreateNull());
		}
	}
	cJSON_AddItemToObject(j, "aslr", run->aslr == ASLR_SYSTEM
			      ? cJSON_CreateNull()
			      : str(run->aslr == ASLR_OFF ? "off" : "on"));
	cJSON_AddBoolToObject(j, "randomize_layout", run->randomize_layout);
	cJSON *check = ctx->check ? syscheck_json(ctx->check) : NULL;
	cJSON_AddItemToObject(j, "system_check", check ? check : cJSON_CreateNull());
}

static cJSON *context(const struct export_doc *d)
{
	const struct machine_info *m = &d->ctx->machine;
	const struct bench_outcome *o = d->outcome;
	cJSON *j = cJSON_CreateObject();
	cJSON_AddItemToObjectCS(j, "started_at", str(m->started_at));
	cJSON_AddItemToObjectCS(j, "hostname", str(m->hostname));
	cJSON_AddItemToObjectCS(j, "kernel", str(m->kernel));
	cJSON_AddItemToObjectCS(j, "cpu_model", m->cpu_model[0] ? str(m->cpu_model)
							       : cJSON_CreateNull());
	cJSON_AddItemToObjectCS(j, "cpus", m->cpus > 0 ? num((double)m->cpus)
						     : cJSON_CreateNull());
	cJSON_AddBoolToObject(j, "pmu", o->pmu);
	cJSON_AddBoolToObject(j, "counters_user_only", o->user_only);
	cJSON_AddBoolToObject(j, "exec_exact", o->exec_exact);
	/* --counters sim: the sim_* metrics are Valgrind's simulated CPU's,
	 * the times and memory Valgrind's own (README, "Simulated counts"). */
	if (o->sim) {
		cJSON *s = cJSON_AddObjectToObject(j, "simulated");
		cJSON_AddItemToObjectCS(s, "tool", str("valgrind cachegrind"));
		cJSON_AddItemToObjectCS(s, "valgrind_version", o->sim_version[0]
				      ? str(o->sim_version) : cJSON_CreateNull());
		cJSON_AddBoolToObject(s, "cache_simulation", o->sim == SIM_CACHE);
		cJSON_AddBoolToObject(s, "children_counted", true);
	} else {
		cJSON_AddItemToObjectCS(j, "simulated", cJSON_CreateNull());
	}
	cJSON_AddItemToObjectCS(j, "shell", str(o->shell));
	cJSON_AddItemToObjectCS(j, "shell_overhead_s", o->shell
			      ? num(o->shell_overhead_s) : cJSON_CreateNull());
	cJSON_AddItemToObjectCS(j, "shell_wake_s", o->shell && isfinite(o->shell_wake_s)
			      ? num(o->shell_wake_s) : cJSON_CreateNull());
	cJSON_AddItemToObjectCS(j, "shell_reap_s", o->shell && isfinite(o->shell_reap_s)
			      ? num(o->shell_reap_s) : cJSON_CreateNull());
	machine_more(j, d->ctx);
	noise_context(j, d->ctx);
	cJSON_AddItemToObjectCS(j, "options", options(d));
	cJSON *argv = cJSON_AddArrayToObject(j, "argv");
	for (int i = 0; i < d->ctx->argc; i++)
		cJSON_AddItemToArray(argv, str(d->ctx->argv[i]));
	return j;
}

static cJSON *units(void)
{
	cJSON *j = cJSON_CreateObject();
	for (int m = 0; m < MET_COUNT; m++) {
		const struct metric_info *mi = metric_info((enum metric_id)m);
		if (metric_defined((enum metric_id)m))
			cJSON_AddItemToObjectCS(j, mi->key, str(mi->unit == UNIT_CUSTOM
						? mi->unit_text : unit_symbol(mi->unit)));
	}
	return j;
}

/* The --metric definitions (their keys are in "units" and "metrics" like
 * every other metric's), or NULL when there are none. */
static cJSON *custom_metrics(void)
{
	cJSON *j = NULL;
	for (int m = MET_CUSTOM_FIRST; m < MET_COUNT; m++) {
		const struct metric_info *mi = metric_info((enum metric_id)m);
		if (!metric_defined((enum metric_id)m))
			continue;
		if (j == NULL)
			j = cJSON_CreateObject();
		cJSON *d = cJSON_CreateObject();
		cJSON_AddItemToObjectCS(d, "pattern", str(mi->pattern));
		cJSON_AddItemToObjectCS(d, "unit", str(mi->unit_text));
		cJSON_AddBoolToObject(d, "higher_is_better", mi->higher_is_better);
		cJSON_AddItemToObjectCS(j, mi->key, d);
	}
	return j;
}

/* A per-run array, printed after the tree (see the top). */
enum lazy_kind { LAZY_COLUMN, LAZY_CODES, LAZY_HF_CODES, LAZY_SIGNALS,
		 LAZY_TIMED_OUT, LAZY_FAILED, LAZY_OUTLIERS, LAZY_ENV_PAD };

struct lazy {
	enum lazy_kind kind;
	const double *col;
	const struct bench_result *r;
	const unsigned char *outlier;
	size_t n;
	bool repeated;   /* a later placeholder prints the same column */
};

/* first: the first placeholder of the result being built; a column is
 * only ever repeated within one result ("times" and runs.wall_time), so
 * later() looks back no further, and the writer needs no search. */
struct lazies {
	struct lazy *v;
	size_t n, cap, first;
};

/* Placeholders are "\x01<index>\x02": cJSON escapes control characters in
 * strings, so these bytes appear nowhere else in its output. */
static cJSON *later(struct lazies *lz, struct lazy l)
{
	char mark[32];
	xgrow((void **)&lz->v, &lz->cap, lz->n + 1, sizeof *lz->v);
	snprintf(mark, sizeof mark, "\x01%zu\x02", lz->n);
	for (size_t j = lz->first; l.kind == LAZY_COLUMN && j < lz->n; j++)
		if (lz->v[j].kind == LAZY_COLUMN && lz->v[j].col == l.col &&
		    lz->v[j].n == l.n)
			lz->v[j].repeated = true;
	lz->v[lz->n++] = l;
	return cJSON_CreateRaw(mark);
}

static cJSON *column(struct lazies *lz, const double *x, size_t n)
{
	return later(lz, (struct lazy){.kind = LAZY_COLUMN, .col = x, .n = n});
}

static cJSON *runs(const struct export_doc *d, size_t i, struct lazies *lz)
{
	const struct bench_result *r = d->outcome->results[i];
	cJSON *j = cJSON_CreateObject();
	for (int m = 0; m < MET_COUNT; m++)
		if (r->has[m])
			cJSON_AddItemToObjectCS(j, metric_info((enum metric_id)m)->key,
					      column(lz, r->col[m], r->n_runs));
	static const struct {
		const char *key;
		enum lazy_kind kind;
	} per_run[] = {
		{"exit_code", LAZY_CODES}, {"signal", LAZY_SIGNALS},
		{"timed_out", LAZY_TIMED_OUT}, {"failed", LAZY_FAILED},
		{"outlier", LAZY_OUTLIERS},
	};
	for (size_t k = 0; k < sizeof per_run / sizeof per_run[0]; k++)
		cJSON_AddItemToObjectCS(j, per_run[k].key,
				      later(lz, (struct lazy){.kind = per_run[k].kind,
						.r = r, .outlier = d->an->bench[i].outlier,
						.n = r->n_runs}));
	/* When each run started (Unix seconds) and its place in the whole
	 * invocation, to plot drift against time. */
	cJSON_AddItemToObject(j, "started_at", column(lz, r->started_s, r->n_runs));
	cJSON_AddItemToObject(j, "run_index", column(lz, r->run_index, r->n_runs));
	if (r->env_pad)
		cJSON_AddItemToObject(j, "env_pad",
				      later(lz, (struct lazy){.kind = LAZY_ENV_PAD,
						.r = r, .n = r->n_runs}));
	return j;
}

static cJSON *metric(const struct stats_summary *s, enum metric_id m)
{
	cJSON *j = cJSON_CreateObject();
	bool ok = s->n > 0;
	double nan = NAN;
	const struct metric_info *mi = metric_info(m);
	cJSON_AddItemToObjectCS(j, "unit", str(mi->unit == UNIT_CUSTOM ? mi->unit_text
						: unit_symbol(mi->unit)));
	cJSON_AddItemToObjectCS(j, "n", num((double)s->n));
#define F(name, field) cJSON_AddItemToObjectCS(j, name, num(ok ? s->field : nan))
	F("mean", mean);
	F("stddev", stddev);
	F("median", median);
	F("min", min);
	F("max", max);
	F("q1", q1);
	F("q3", q3);
	F("iqr", iqr);
	F("mad", mad);
#undef F
	cJSON_AddItemToObjectCS(j, "mean_ci", ok ? pair(s->mean_ci_lo, s->mean_ci_hi)
					       : pair(nan, nan));
	cJSON_AddItemToObjectCS(j, "median_ci", ok ? pair(s->median_ci_lo, s->median_ci_hi)
						 : pair(nan, nan));
	cJSON *o = cJSON_AddObjectToObject(j, "outliers");
	cJSON_AddItemToObjectCS(o, "mild", num(ok ? (double)s->outliers_mild : 0));
	cJSON_AddItemToObjectCS(o, "severe", num(ok ? (double)s->outliers_severe : 0));
	/* A simulated CPU's count: exact when the same in every run. */
	if (mi->simulated) {
		cJSON_AddBoolToObject(j, "simulated", true);
		cJSON_AddBoolToObject(j, "exact", ok && s->n >= 2 && s->min == s->max);
	}
	return j;
}

/* Is s a decimal number as written by people ("8", "-0.5", "1e6"; not
 * "0x10", "inf", " 8")?  strtod alone would take hex and infinities. */
static bool decimal_number(const char *s, double *out)
{
	const char *p = s;
	p += *p == '-' || *p == '+';
	size_t digits = strspn(p, "0123456789");
	p += digits;
	if (*p == '.') {
		size_t frac = strspn(p + 1, "0123456789");
		digits += frac;
		p += 1 + frac;
	}
	if (digits == 0)
		return false;
	if (*p == 'e' || *p == 'E') {
		const char *q = p + 1;
		q += *q == '-' || *q == '+';
		size_t e = strspn(q, "0123456789");
		if (e == 0)
			return false;
		p = q + e;
	}
	if (*p != '\0')
		return false;
	*out = strtod(s, NULL);
	return isfinite(*out);
}

/* "parameter_values": each parameter as a number when its text is a
 * decimal number, else the text ("parameters" keeps hyperfine's strings). */
static cJSON *parameter_values(const struct bench_result *r)
{
	cJSON *p = cJSON_CreateObject();
	for (size_t k = 0; k < r->n_params; k++) {
		double v;
		cJSON_AddItemToObject(p, r->params[k].name,
				      decimal_number(r->params[k].value, &v)
				      ? num(v) : str(r->params[k].value));
	}
	return p;
}

/* --precision with a history: how far the wall-time mean moved between
 * earlier invocations, and the mean's interval widened by it, the one
 * that is to hold across reruns (between.h). */
static void between_json(cJSON *j, const struct bench_result *r,
			 const struct stats_summary *ws, double confidence)
{
	double own = ws->n >= 2 && ws->mean > 0
		     ? (ws->mean_ci_hi - ws->mean_ci_lo) / 2 / ws->mean : NAN;
	double h = between_halfwidth(own, r->between_tau, r->between_k,
				     confidence) * ws->mean;
	cJSON *b = cJSON_AddObjectToObject(j, "between_invocations");
	cJSON_AddItemToObjectCS(b, "sd", num(r->between_tau));
	cJSON_AddItemToObjectCS(b, "invocations", num((double)r->between_k));
	cJSON_AddItemToObjectCS(b, "mean_ci", pair(ws->mean - h, ws->mean + h));
}

static cJSON *result(const struct export_doc *d, size_t i, struct lazies *lz)
{
	const struct bench_result *r = d->outcome->results[i];
	const struct stats_summary *w = &d->an->bench[i].sum[MET_WALL];
	const struct stats_summary *u = &d->an->bench[i].sum[MET_USER];
	const struct stats_summary *sy = &d->an->bench[i].sum[MET_SYSTEM];
	double nan = NAN;
	cJSON *j = cJSON_CreateObject();
	lz->first = lz->n;

	/* hyperfine's fields, in hyperfine's order. */
	/* hyperfine's get_name(): without the unused parameters, which its
	 * JSON has in "parameters" (cbench's "name" keeps them). */
	cJSON_AddItemToObjectCS(j, "command", str(results_short_name(r)));
	cJSON_AddItemToObjectCS(j, "mean", num(w->n ? w->mean : nan));
	cJSON_AddItemToObjectCS(j, "stddev", num(w->n ? w->stddev : nan));
	cJSON_AddItemToObjectCS(j, "median", num(w->n ? w->median : nan));
	cJSON_AddItemToObjectCS(j, "user", num(u->n ? u->mean : nan));
	cJSON_AddItemToObjectCS(j, "system", num(sy->n ? sy->mean : nan));
	cJSON_AddItemToObjectCS(j, "min", num(w->n ? w->min : nan));
	cJSON_AddItemToObjectCS(j, "max", num(w->n ? w->max : nan));
	cJSON_AddItemToObjectCS(j, "times", r->has[MET_WALL]
			      ? column(lz, r->col[MET_WALL], r->n_runs)
			      : cJSON_CreateArray());
	/* hyperfine 1.20's per-run peak RSS in bytes (its "memory_usage_byte",
	 * between "times" and "exit_codes"); the same values as
	 * runs.peak_rss. */
	if (r->has[MET_MAX_RSS])
		cJSON_AddItemToObjectCS(j, "memory_usage_byte",
					column(lz, r->col[MET_MAX_RSS], r->n_runs));
	cJSON_AddItemToObjectCS(j, "exit_codes",
			      later(lz, (struct lazy){.kind = LAZY_HF_CODES, .r = r,
						     .n = r->n_runs}));
	if (r->n_params) {
		cJSON *p = cJSON_AddObjectToObject(j, "parameters");
		for (size_t k = 0; k < r->n_params; k++)
			cJSON_AddItemToObjectCS(p, r->params[k].name,
					      str(r->params[k].value));
	}

	/* cbench's. */
	if (r->n_params)
		cJSON_AddItemToObjectCS(j, "parameter_values", parameter_values(r));
	cJSON_AddItemToObjectCS(j, "command_line", str(r->command));
	cJSON_AddItemToObjectCS(j, "name", str(r->name));
	cJSON_AddBoolToObject(j, "interrupted", r->interrupted);
	/* Only the benchmarks of one state group took turns (README, "Run
	 * order"): said when there were several. */
	if (d->outcome->split_by_state)
		cJSON_AddItemToObjectCS(j, "state_group", num((double)r->group));
	cJSON_AddBoolToObject(j, "exec_exact", r->exec_exact);
	cJSON_AddBoolToObject(j, "via_shell", r->via_shell);
	/* The calibration pairs its correction used (20 up front, one after
	 * every run of the invocation since the calibration, up to its end). */
	if (r->via_shell && r->shell_pairs)
		cJSON_AddItemToObjectCS(j, "shell_calibration_pairs",
				      num((double)r->shell_pairs));
	/* Whether the line runs shell code of its own around its program
	 * (README, "Shells"). */
	if (r->via_shell && r->shell_own_decided) {
		cJSON *oc = cJSON_AddObjectToObject(j, "shell_own_code");
		cJSON_AddBoolToObject(oc, "wall_time", r->shell_own_code[0]);
		cJSON_AddBoolToObject(oc, "task_clock", r->shell_own_code[1]);
	}
	cJSON_AddItemToObjectCS(j, "stop_reason", str(r->stop_reason));
	if (r->between_tau >= 0 && r->between_k > 0)
		between_json(j, r, &d->an->bench[i].sum[MET_WALL], d->an->opt.confidence);
	if (r->profile_file)   /* --profile: callgrind's own file, kept */
		cJSON_AddItemToObjectCS(j, "profile_file", str(r->profile_file));
	/* How far consecutive runs depend on each other (the machine's
	 * drift), and the factor the mean's standard error was widened by. */
	cJSON_AddItemToObjectCS(j, "autocorrelation", num(d->an->bench[i].acf1));
	cJSON_AddItemToObjectCS(j, "dependence_factor", num(d->an->bench[i].dependence));
	/* What the run before changed: wall times after one of its own runs
	 * against after another benchmark's (README, "Run order"). */
	const struct stats_carryover *c = &d->an->bench[i].carry;
	cJSON *co = cJSON_AddObjectToObject(j, "carryover");
	cJSON_AddItemToObjectCS(co, "after_itself", num(c->after_self));
	cJSON_AddItemToObjectCS(co, "after_others", num(c->after_other));
	cJSON_AddItemToObjectCS(co, "runs_after_itself", num((double)c->n_self));
	cJSON_AddItemToObjectCS(co, "runs_after_others", num((double)c->n_other));
	cJSON_AddItemToObjectCS(co, "change", num(c->change));
	cJSON_AddItemToObjectCS(co, "p_value", num(c->p));
	cJSON_AddItemToObjectCS(j, "runs", runs(d, i, lz));
	cJSON *ms = cJSON_AddObjectToObject(j, "metrics");
	for (int m = 0; m < MET_COUNT; m++)
		if (r->has[m])
			cJSON_AddItemToObjectCS(ms, metric_info((enum metric_id)m)->key,
					      metric(&d->an->bench[i].sum[m], (enum metric_id)m));
	return j;
}

/* The serial dependence a comparison allowed for. */
static cJSON *dependence(const struct stats_robust_cmp *r)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddItemToObjectCS(j, "method", str(r->dependence_method));
	cJSON_AddItemToObjectCS(j, "autocorrelation", r->paired
			      ? num(r->acf_a) : pair(r->acf_a, r->acf_b));
	cJSON_AddItemToObjectCS(j, "factor", num(r->factor));
	cJSON_AddItemToObjectCS(j, "n_eff", num(r->n_eff));
	return j;
}

/*
 * ratio, ratio_ci and verdict are the verdict's: the robust comparison,
 * paired by rounds when the runs were interleaved (then the geometric mean
 * of the rounds' ratios; ratio_of_means beside it), p_t and p_rank its
 * tests; p_welch and p_mann_whitney are the independent-samples tests,
 * and "unpaired" that comparison's interval and verdict, for reference.
 * p and p_adjusted are the p-value the verdict rests on before and after
 * Holm's adjustment over the family_size comparisons of its metric, and
 * ci_level the level of every interval here.
 */
static cJSON *comparison(const struct analysis_cmp *c)
{
	const struct stats_robust_cmp *r = &c->robust;
	bool robust = r->ci_method != NULL;
	cJSON *j = cJSON_CreateObject();
	cJSON_AddItemToObjectCS(j, "reference", num((double)c->reference));
	cJSON_AddItemToObjectCS(j, "candidate", num((double)c->candidate));
	cJSON_AddItemToObjectCS(j, "metric", str(metric_info(c->metric)->key));
	cJSON_AddItemToObjectCS(j, "ratio", num(c->cmp.ratio));
	cJSON_AddItemToObjectCS(j, "ratio_ci", pair(c->cmp.ratio_lo, c->cmp.ratio_hi));
	cJSON_AddItemToObjectCS(j, "ratio_of_means", num(c->unpaired.ratio));
	cJSON_AddItemToObjectCS(j, "p_welch", num(c->unpaired.p_welch));
	cJSON_AddItemToObjectCS(j, "p_mann_whitney", num(c->unpaired.p_mann_whitney));
	cJSON_AddItemToObjectCS(j, "verdict", str(stats_verdict_name(c->cmp.verdict)));
	/* Simulated counts, each side the same in every run: the ratio is
	 * exact (no interval to speak of, p-values null). */
	cJSON_AddBoolToObject(j, "exact", c->cmp.exact);
	/* The smallest relative change it could have told from noise at
	 * its level (stats_resolution): 0.28 is ±28 %. */
	cJSON_AddItemToObjectCS(j, "resolution", num(stats_resolution(&c->cmp)));
	/* The multiplicity adjustment the verdict used (analysis.h). */
	cJSON_AddItemToObjectCS(j, "p", num(c->p));
	cJSON_AddItemToObjectCS(j, "p_adjusted", num(c->p_adjusted));
	cJSON_AddItemToObjectCS(j, "p_adjustment", str(MULTITEST_METHOD));
	cJSON_AddItemToObjectCS(j, "family_size", num((double)c->family_size));
	cJSON_AddItemToObjectCS(j, "ci_level", num(c->cmp.confidence));
	cJSON_AddBoolToObject(j, "paired", robust && r->paired);
	cJSON_AddItemToObjectCS(j, "rounds", robust && r->paired
			      ? num((double)r->na) : cJSON_CreateNull());
	cJSON_AddItemToObjectCS(j, "ci_method", str(robust ? r->ci_method
					      : "Fieller, independent samples"));
	cJSON_AddItemToObjectCS(j, "p_t", num(c->cmp.p_welch));
	cJSON_AddItemToObjectCS(j, "t_test", str(robust ? r->t_method : "Welch"));
	cJSON_AddItemToObjectCS(j, "p_rank", num(c->cmp.p_mann_whitney));
	cJSON_AddItemToObjectCS(j, "rank_test", str(robust ? r->rank_method
					      : "Mann-Whitney U"));
	cJSON_AddItemToObjectCS(j, "dependence", robust ? dependence(r)
			      : cJSON_CreateNull());
	cJSON *u = cJSON_AddObjectToObject(j, "unpaired");
	cJSON_AddItemToObjectCS(u, "ratio_ci", pair(c->unpaired.ratio_lo,
						  c->unpaired.ratio_hi));
	cJSON_AddItemToObjectCS(u, "verdict", str(stats_verdict_name(c->unpaired.verdict)));
	return j;
}

/* --profile: the functions where a comparison's instructions moved,
 * ranked (profile.h): "points" are per cent of the base's total. */
#define JSON_WHERE_TOP 20

static void where(cJSON *j, const struct profile_diff *w)
{
	if (w == NULL)
		return;
	cJSON *o = cJSON_AddObjectToObject(j, "where");
	cJSON_AddItemToObjectCS(o, "base_total", num(w->base_total));
	cJSON_AddItemToObjectCS(o, "candidate_total", num(w->cand_total));
	cJSON_AddItemToObjectCS(o, "change_pct", num(w->change_pct));
	cJSON *fs = cJSON_AddArrayToObject(o, "functions");
	for (size_t k = 0; k < w->n && k < JSON_WHERE_TOP; k++) {
		const struct profile_delta *d = &w->d[k];
		cJSON *f = cJSON_CreateObject();
		cJSON_AddItemToObjectCS(f, "function", str(d->name));
		cJSON_AddItemToObjectCS(f, "file", str(d->file));
		cJSON_AddItemToObjectCS(f, "object", str(d->object));
		cJSON_AddItemToObjectCS(f, "base_self", num(d->base_self));
		cJSON_AddItemToObjectCS(f, "candidate_self", num(d->cand_self));
		cJSON_AddItemToObjectCS(f, "base_inclusive", num(d->base_incl));
		cJSON_AddItemToObjectCS(f, "candidate_inclusive", num(d->cand_incl));
		cJSON_AddItemToObjectCS(f, "points", num(d->points));
		cJSON_AddItemToArray(fs, f);
	}
}

/* Buffered output: fputs per value would take the stream lock each time. */
struct out {
	FILE *f;
	size_t len;
	bool failed;
	char buf[1 << 16];
};

static void out_flush(struct out *o)
{
	if (o->len && fwrite(o->buf, 1, o->len, o->f) != o->len)
		o->failed = true;
	o->len = 0;
}

static void out_bytes(struct out *o, const char *s, size_t n)
{
	if (o->len + n > sizeof o->buf) {
		out_flush(o);
		if (n > sizeof o->buf) {
			if (fwrite(s, 1, n, o->f) != n)
				o->failed = true;
			return;
		}
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
}

#define OUT_LIT(o, s) out_bytes(o, s, sizeof s - 1)

/* One value of a per-run array, as cJSON prints the node the tree used
 * to hold for it. */
static void lazy_value(struct out *o, const struct lazy *l, size_t k)
{
	if (o->len + NUMFMT_MAX > sizeof o->buf)
		out_flush(o);
	char *p = o->buf + o->len;
	int c;
	switch (l->kind) {
	case LAZY_COLUMN:
		o->len += numfmt_json(p, l->col[k]);
		break;
	case LAZY_CODES:
		c = l->r->exit_codes[k];
		o->len += numfmt_json(p, c >= 0 ? (double)c : NAN);
		break;
	case LAZY_HF_CODES:
		/* hyperfine's exit_codes (src/util/exit_code.rs): a run
		 * killed by signal N is 128 + N, as a shell's $? says. */
		c = l->r->exit_codes[k];
		o->len += numfmt_json(p, c >= 0 ? (double)c : 128.0 - c);
		break;
	case LAZY_SIGNALS:
		c = l->r->exit_codes[k];
		if (c >= 0) {
			OUT_LIT(o, "null");
		} else {
			cJSON *j = str(spawn_signal_name(-c));
			char *t = cJSON_PrintUnformatted(j);
			if (t)
				out_bytes(o, t, strlen(t));
			else
				o->failed = true;
			cJSON_free(t);
			cJSON_Delete(j);
		}
		break;
	case LAZY_TIMED_OUT:
	case LAZY_FAILED:
		if (l->r->flags[k] & (l->kind == LAZY_FAILED ? RUN_FAILED : RUN_TIMED_OUT))
			OUT_LIT(o, "true");
		else
			OUT_LIT(o, "false");
		break;
	case LAZY_ENV_PAD:
		o->len += numfmt_json(p, l->r->env_pad[k] >= 0
				       ? (double)l->r->env_pad[k] : NAN);
		break;
	case LAZY_OUTLIERS:
		if (l->outlier[k] & RUN_OUTLIER_SEVERE)
			OUT_LIT(o, "\"severe\"");
		else if (l->outlier[k] & RUN_OUTLIER_MILD)
			OUT_LIT(o, "\"mild\"");
		else
			OUT_LIT(o, "\"none\"");
		break;
	}
}

static void lazy_array(struct out *o, const struct lazy *l)
{
	OUT_LIT(o, "[");
	for (size_t k = 0; k < l->n; k++) {
		if (k)
			OUT_LIT(o, ", ");
		lazy_value(o, l, k);
	}
	OUT_LIT(o, "]");
}

/* The planned benchmarks not yet in "results", by name: what a file
 * written during the run (or left by a killed one) still lacks. */
static cJSON *pending(const struct export_doc *d)
{
	cJSON *a = cJSON_CreateArray();
	const struct plan *p = d->ctx->plan;
	for (size_t i = d->outcome->n; p && i < p->n; i++)
		cJSON_AddItemToArray(a, str(p->bench[i].name));
	return a;
}

/*
 * While the document is built and printed, cJSON allocates from an arena
 * (cJSON_InitHooks): millions of nodes for a large sweep, freed at once at
 * the end instead of one by one (malloc and free were most of the cost of
 * a 2000-benchmark export).  Blocks of ARENA_BLOCK bytes; a larger request
 * gets a block of its own.
 */
#define ARENA_BLOCK ((size_t)1 << 20)

struct arena_block {
	struct arena_block *next;
	size_t used, size;
	max_align_t data[];
};

static struct arena_block *arena;

static void *arena_alloc(size_t n)
{
	n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
	if (arena == NULL || arena->size - arena->used < n) {
		size_t size = n > ARENA_BLOCK / 4 ? n : ARENA_BLOCK;
		struct arena_block *b = malloc(sizeof *b + size);
		if (b == NULL)
			return NULL;
		b->used = 0;
		b->size = size;
		if (arena && size != ARENA_BLOCK) {
			/* A large one goes behind the current block. */
			b->next = arena->next;
			arena->next = b;
			b->used = n;
			return b->data;
		}
		b->next = arena;
		arena = b;
	}
	void *p = (char *)arena->data + arena->used;
	arena->used += n;
	return p;
}

static void arena_free(void *p)
{
	(void)p;
}

static void arena_begin(void)
{
	cJSON_Hooks h = {arena_alloc, arena_free};
	cJSON_InitHooks(&h);
}

static void arena_end(void)
{
	cJSON_InitHooks(NULL);
	while (arena) {
		struct arena_block *next = arena->next;
		free(arena);
		arena = next;
	}
}

int export_json_write(FILE *f, const struct export_doc *d)
{
	/* The output buffers first: a large allocation after the tree's
	 * millions of small frees made malloc consolidate them all. */
	struct out *o = xmalloc(sizeof *o);
	struct out *mo = xmalloc(sizeof *mo);
	struct lazies lz = {0};
	arena_begin();
	cJSON *root = cJSON_CreateObject();
	cJSON_AddItemToObjectCS(root, "schema", str("cbench-results"));
	cJSON_AddItemToObjectCS(root, "schema_version", num(SCHEMA_VERSION));
	cJSON_AddItemToObjectCS(root, "cbench_version", str(CBENCH_VERSION));
	cJSON_AddBoolToObject(root, "complete", !d->ctx->incomplete);
	if (d->ctx->incomplete)
		cJSON_AddItemToObjectCS(root, "pending", pending(d));
	cJSON_AddItemToObjectCS(root, "context", context(d));
	cJSON_AddItemToObjectCS(root, "units", units());
	cJSON *cm = custom_metrics();
	if (cm)
		cJSON_AddItemToObjectCS(root, "custom_metrics", cm);
	cJSON *rs = cJSON_AddArrayToObject(root, "results");
	for (size_t i = 0; i < d->outcome->n; i++)
		cJSON_AddItemToArray(rs, result(d, i, &lz));
	cJSON *cs = cJSON_AddArrayToObject(root, "comparisons");
	for (size_t k = 0; k < d->an->n_cmps; k++) {
		const struct analysis_cmp *c = &d->an->cmps[k];
		cJSON *j = comparison(c);
		if (c->metric == MET_SIM_INSTRUCTIONS)
			where(j, d->an->bench[c->candidate].where);
		cJSON_AddItemToArray(cs, j);
	}

	/* One buffer of about the final size: growing it by doubling from
	 * 256 bytes (cJSON_Print) copied a large sweep's text many times.
	 * Pages not written to are never touched. */
	size_t guess = 65536 + 32768 * (d->outcome->n + d->an->n_cmps / 4);
	char *text = cJSON_PrintBuffered(root, guess > INT_MAX ? INT_MAX : (int)guess, 1);
	if (text == NULL) {
		arena_end();
		free(lz.v);
		free(o);
		free(mo);
		return -1;
	}
	o->f = f;
	o->len = 0;
	o->failed = false;
	/* "times" is the wall-time column again: print it once. */
	char *again = NULL;
	size_t again_len = 0;
	const double *again_col = NULL;
	const char *p = text;
	for (const char *mark; (mark = strchr(p, '\x01')) != NULL;) {
		out_bytes(o, p, (size_t)(mark - p));
		char *end;
		size_t idx = strtoul(mark + 1, &end, 10);
		if (*end != '\x02' || idx >= lz.n) { /* cannot happen */
			o->failed = true;
			break;
		}
		const struct lazy *l = &lz.v[idx];
		p = end + 1;
		if (l->kind == LAZY_COLUMN && again && l->col == again_col) {
			out_bytes(o, again, again_len);
			continue;
		}
		FILE *m = NULL;
		if (l->repeated) {
			free(again);
			again = NULL;
			again_col = NULL;
			m = open_memstream(&again, &again_len);
		}
		if (m != NULL) {
			mo->f = m;
			mo->len = 0;
			mo->failed = false;
			lazy_array(mo, l);
			out_flush(mo);
			if (fclose(m) != 0 || mo->failed)
				o->failed = true;
			again_col = l->col;
			out_bytes(o, again, again_len);
			continue;
		}
		lazy_array(o, l);
	}
	free(again);
	out_bytes(o, p, strlen(p));
	OUT_LIT(o, "\n");
	out_flush(o);
	int rc = o->failed ? -1 : 0;
	free(o);
	free(mo);
	arena_end();   /* the tree and text */
	free(lz.v);
	return rc;
}

cJSON *export_json_text(const char *s)
{
	return str(s);
}
