/*
 * results.c: the per-benchmark store of runs (see results.h), and the table
 * of metrics shared by the terminal, exporters and comparisons.
 */
#include "results.h"
#include "profile.h"
#include "xalloc.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static struct metric_info infos[MET_COUNT] = {
	[MET_WALL] = {.key = "wall_time", .label = "Time",
		.unit = UNIT_SECONDS, .shell_corrected = true},
	[MET_USER] = {.key = "user_time", .label = "User",
		.unit = UNIT_SECONDS, .shell_corrected = true},
	[MET_SYSTEM] = {.key = "system_time", .label = "System",
		.unit = UNIT_SECONDS, .shell_corrected = true},
	[MET_MAX_RSS] = {.key = "peak_rss", .label = "Peak RSS",
		.unit = UNIT_BYTES, .shell_corrected = false},
	[MET_MINFLT] = {.key = "minor_faults", .label = "minor faults",
		.unit = UNIT_COUNT, .shell_corrected = true},
	[MET_MAJFLT] = {.key = "major_faults", .label = "major faults",
		.unit = UNIT_COUNT, .shell_corrected = true},
	[MET_VCSW] = {.key = "voluntary_context_switches", .label = "voluntary ctx switches",
		.unit = UNIT_COUNT, .shell_corrected = true},
	[MET_IVCSW] = {.key = "involuntary_context_switches", .label = "involuntary ctx switches",
		.unit = UNIT_COUNT, .shell_corrected = true},
#define SIM(id, k, l) [id] = {.key = k, .label = l, .unit = UNIT_COUNT, .simulated = true}
	SIM(MET_SIM_INSTRUCTIONS, "sim_instructions", "sim instructions"),
	SIM(MET_SIM_CYCLES, "sim_cycles", "sim est. cycles"),
	SIM(MET_SIM_I1_MISSES, "sim_i1_misses", "sim I1 misses"),
	SIM(MET_SIM_D1_READ_MISSES, "sim_d1_read_misses", "sim D1 rd misses"),
	SIM(MET_SIM_D1_WRITE_MISSES, "sim_d1_write_misses", "sim D1 wr misses"),
	SIM(MET_SIM_LL_INSTR_MISSES, "sim_ll_instr_misses", "sim LL-i misses"),
	SIM(MET_SIM_LL_READ_MISSES, "sim_ll_read_misses", "sim LL rd misses"),
	SIM(MET_SIM_LL_WRITE_MISSES, "sim_ll_write_misses", "sim LL wr misses"),
#undef SIM
};
static bool infos_ready;
/* The custom metrics' strings (key, unit text, pattern), owned here. */
static char *custom_str[MET_CUSTOM_MAX][3];
static int n_custom;

const struct metric_info *metric_info(enum metric_id id)
{
	if (!infos_ready) {
		for (int c = 0; c < CTR_MAX; c++) {
			const struct counter_info *ci = counters_info((enum counter_id)c);
			infos[MET_CTR_FIRST + c] = (struct metric_info){
				.key = ci->key, .label = ci->name,
				.unit = ci->is_time ? UNIT_SECONDS : UNIT_COUNT,
				.shell_corrected = true};
		}
		for (int k = MET_CUSTOM_FIRST; k < MET_COUNT; k++)
			infos[k] = (struct metric_info){.key = "", .label = "",
				.unit = UNIT_CUSTOM, .custom = true, .unit_text = ""};
		infos_ready = true;
	}
	return (unsigned)id < MET_COUNT ? &infos[id] : NULL;
}

bool metric_defined(enum metric_id id)
{
	return (unsigned)id < MET_COUNT &&
	       ((int)id < MET_CUSTOM_FIRST || (int)id - MET_CUSTOM_FIRST < n_custom);
}

int metric_lookup(const char *name)
{
	for (int i = 0; i < MET_CUSTOM_FIRST + n_custom; i++) {
		const struct metric_info *m = metric_info((enum metric_id)i);
		if (strcasecmp(name, m->key) == 0 || strcasecmp(name, m->label) == 0)
			return i;
	}
	if (strcasecmp(name, "wall") == 0 || strcasecmp(name, "time") == 0 ||
	    strcasecmp(name, "mean") == 0)
		return MET_WALL;
	if (strcasecmp(name, "rss") == 0 || strcasecmp(name, "max_rss") == 0)
		return MET_MAX_RSS;
	return -1;
}

bool metric_name_valid(const char *key)
{
	size_t n = strlen(key);
	if (n == 0 || n > 40 || !(isalpha((unsigned char)key[0]) || key[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!(isalnum((unsigned char)key[i]) || key[i] == '_'))
			return false;
	return true;
}

int metric_define(const char *key, const char *unit_text, bool higher_is_better,
		  const char *pattern, char *err, size_t errlen)
{
	if (unit_text == NULL)
		unit_text = "";
	if (!metric_name_valid(key)) {
		snprintf(err, errlen, "'%s' is not a metric name (letters, digits "
			 "and '_', not starting with a digit, at most 40)", key);
		return -1;
	}
	/* The per-run columns beside the metrics (JSON "runs", the per-run
	 * CSV) and the gate's cpu_time would clash with such a name. */
	static const char *const taken[] = {"benchmark", "command",
		"command_line", "run", "exit_code", "signal", "timed_out", "failed",
		"outlier", "started_at", "run_index", "env_pad", "cpu_time"};
	for (size_t i = 0; i < sizeof taken / sizeof *taken; i++)
		if (strcasecmp(key, taken[i]) == 0) {
			snprintf(err, errlen, "'%s' is the name of a per-run column "
				 "or of cpu_time; choose another name", key);
			return -1;
		}
	int m = metric_lookup(key);
	if (m >= 0 && m < MET_CUSTOM_FIRST) {
		snprintf(err, errlen, "'%s' is the name of a built-in metric (%s)",
			 key, metric_info((enum metric_id)m)->key);
		return -1;
	}
	if (m >= 0) {
		const struct metric_info *mi = metric_info((enum metric_id)m);
		if (strcmp(mi->key, key) == 0 && strcmp(mi->unit_text, unit_text) == 0 &&
		    mi->higher_is_better == higher_is_better)
			return m;
		snprintf(err, errlen, "metric '%s' is defined twice, differently "
			 "(unit '%s', %s is better, against unit '%s', %s)", key,
			 unit_text, higher_is_better ? "higher" : "lower",
			 mi->unit_text, mi->higher_is_better ? "higher" : "lower");
		return -1;
	}
	if (n_custom == MET_CUSTOM_MAX) {
		snprintf(err, errlen, "at most %d custom metrics", MET_CUSTOM_MAX);
		return -1;
	}
	metric_info(MET_WALL);   /* the table is set up */
	int k = n_custom++;
	custom_str[k][0] = xstrdup(key);
	custom_str[k][1] = xstrdup(unit_text);
	custom_str[k][2] = pattern ? xstrdup(pattern) : NULL;
	infos[MET_CUSTOM_FIRST + k] = (struct metric_info){
		.key = custom_str[k][0], .label = custom_str[k][0],
		.unit = UNIT_CUSTOM, .custom = true,
		.higher_is_better = higher_is_better,
		.unit_text = custom_str[k][1], .pattern = custom_str[k][2]};
	return MET_CUSTOM_FIRST + k;
}

void metric_undefine_all(void)
{
	for (int k = 0; k < n_custom; k++) {
		for (int j = 0; j < 3; j++) {
			free(custom_str[k][j]);
			custom_str[k][j] = NULL;
		}
		infos[MET_CUSTOM_FIRST + k] = (struct metric_info){
			.key = "", .label = "", .unit = UNIT_CUSTOM, .custom = true,
			.unit_text = ""};
	}
	n_custom = 0;
}

void param_values_free(struct param_value *params, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(params[i].name);
		free(params[i].value);
	}
	free(params);
}

struct bench_result *results_new(const char *name, const char *command,
				 const struct param_value *params, size_t n_params)
{
	struct bench_result *r = xcalloc(1, sizeof *r);
	r->name = xstrdup(name);
	r->command = xstrdup(command);
	if (n_params) {
		r->params = xcalloc(n_params, sizeof *r->params);
		for (size_t i = 0; i < n_params; i++) {
			r->params[i].name = xstrdup(params[i].name);
			r->params[i].value = xstrdup(params[i].value);
		}
		r->n_params = n_params;
	}
	r->exec_exact = true;
	r->between_tau = NAN;
	return r;
}

void results_free(struct bench_result *r)
{
	if (r == NULL)
		return;
	free(r->name);
	free(r->short_name);
	free(r->command);
	param_values_free(r->params, r->n_params);
	for (int m = 0; m < MET_COUNT; m++)
		free(r->col[m]);
	free(r->exit_codes);
	free(r->env_pad);
	free(r->flags);
	profile_free(r->profile);
	free(r->profile_file);
	free(r->started_s);
	free(r->run_index);
	free(r->stop_reason);
	free(r);
}

void results_set_short_name(struct bench_result *r, const char *short_name)
{
	free(r->short_name);
	r->short_name = short_name ? xstrdup(short_name) : NULL;
}

const char *results_short_name(const struct bench_result *r)
{
	return r->short_name ? r->short_name : r->name;
}

void results_enable(struct bench_result *r, enum metric_id id)
{
	r->has[id] = true;
}

void results_add_run(struct bench_result *r, const double value[MET_COUNT],
		     int exit_code, uint8_t flags)
{
	if (r->n_runs == r->cap) {
		size_t ncap = r->cap ? r->cap * 2 : 16;
		for (int m = 0; m < MET_COUNT; m++)
			if (r->has[m])
				r->col[m] = xreallocarray(r->col[m], ncap, sizeof(double));
		r->exit_codes = xreallocarray(r->exit_codes, ncap, sizeof(int));
		r->flags = xreallocarray(r->flags, ncap, 1);
		r->started_s = xreallocarray(r->started_s, ncap, sizeof(double));
		r->run_index = xreallocarray(r->run_index, ncap, sizeof(double));
		if (r->env_pad)
			r->env_pad = xreallocarray(r->env_pad, ncap, sizeof *r->env_pad);
		r->cap = ncap;
	}
	for (int m = 0; m < MET_COUNT; m++)
		if (r->has[m])
			r->col[m][r->n_runs] = value[m];
	if (r->has[MET_WALL] && value[MET_WALL] == value[MET_WALL])
		r->total_wall_s += value[MET_WALL];
	r->exit_codes[r->n_runs] = exit_code;
	r->flags[r->n_runs] = flags;
	r->started_s[r->n_runs] = NAN;
	r->run_index[r->n_runs] = NAN;
	r->n_runs++;
}

void results_set_run_info(struct bench_result *r, double started_s,
			  double run_index)
{
	if (r->n_runs == 0)
		return;
	r->started_s[r->n_runs - 1] = started_s;
	r->run_index[r->n_runs - 1] = run_index;
}

void results_set_env_pad(struct bench_result *r, size_t k, int32_t pad)
{
	if (k >= r->cap)
		return;
	if (r->env_pad == NULL) { /* the runs before had none: -1 */
		r->env_pad = xreallocarray(NULL, r->cap, sizeof *r->env_pad);
		for (size_t i = 0; i < r->cap; i++)
			r->env_pad[i] = -1;
	}
	r->env_pad[k] = pad;
}

void results_values_from_spawn(const struct spawn_result *s,
			       double value[MET_COUNT])
{
	value[MET_WALL] = s->wall_s;
	value[MET_USER] = s->user_s;
	value[MET_SYSTEM] = s->system_s;
	value[MET_MAX_RSS] = s->max_rss_bytes;
	value[MET_MINFLT] = s->minflt;
	value[MET_MAJFLT] = s->majflt;
	value[MET_VCSW] = s->nvcsw;
	value[MET_IVCSW] = s->nivcsw;
	for (int c = 0; c < CTR_MAX; c++)
		value[MET_CTR_FIRST + c] = s->ctr.value[c];
	for (int m = MET_SIM_FIRST; m < MET_COUNT; m++)
		value[m] = NAN;  /* simulated or read from the output: the runner's */
}

double results_total_wall(const struct bench_result *r)
{
	return r->total_wall_s;
}
