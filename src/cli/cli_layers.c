/*
 * cli_layers.c: each layer's options from the parsed command line (see
 * cli_layers.h).  Only copies and derives: every value was checked by
 * cli_parse.
 */
#include "simcpu.h"
#include "cli_layers.h"
#include "history.h"

#include <string.h>

struct report_options cli_report_options(const struct config *cfg)
{
	struct report_options o = {
		.style = cfg->style,
		.unit = cfg->time_unit,
		.by_command = cfg->sort == SORT_COMMAND,
		.has_reference = cfg->reference != NULL,
		.confidence = cfg->confidence,
		.precision = cfg->precision,
		.output_shown = cfg->show_output,
		.quiet = cfg->quiet,
		.verbose = cfg->verbose,
	};
	for (size_t i = 0; i < cfg->outputs.n; i++)
		if (strcmp(cfg->outputs.v[i], "inherit") == 0)
			o.output_shown = true;
	return o;
}

struct plan_options cli_plan_options(const struct config *cfg)
{
	return (struct plan_options){
		.commands = cfg->commands,
		.names = cfg->names,
		.params = cfg->params,
		.n_params = cfg->n_params,
		.setup = cfg->setup,
		.prepare = cfg->prepare,
		.conclude = cfg->conclude,
		.cleanup = cfg->cleanup,
		.reference = cfg->reference,
		.reference_name = cfg->reference_name,
		.order = cfg->order,
		.outputs = cfg->outputs,
		.show_output = cfg->show_output,
	};
}

/* --counters sim: runs of a deterministic count are exact, and each
 * costs 20-100 times the command: 3 unless a count is asked for. */
#define SIM_DEFAULT_RUNS 3

struct plan_stop cli_plan_stop(const struct config *cfg)
{
	struct plan_stop st = {
		.runs = cfg->runs,
		.min_runs = cfg->min_runs,
		.max_runs = cfg->max_runs,
		.min_time_s = cfg->min_time_s,
		.max_time_s = cfg->max_time_s,
		.precision = cfg->precision,
	};
	if (simcpu_mode(cfg->counters) != SIM_OFF && !cfg->runs_given &&
	    !cfg->min_runs_given && !cfg->max_runs_given && !cfg->min_time_given &&
	    cfg->precision == 0 && cfg->max_time_s == 0)
		st.runs = SIM_DEFAULT_RUNS;
	return st;
}

struct bench_options cli_bench_options(const struct config *cfg)
{
	return (struct bench_options){
		.stop = cli_plan_stop(cfg),
		.warmup = cfg->warmup,
		.commands = cfg->commands,
		.shell_mode = cfg->shell_mode,
		.shell = cfg->shell,
		.shell_args = cfg->shell_args,
		.ignore_failure = cfg->ignore_failure,
		.ignore_codes = cfg->ignore_codes,
		.n_ignore_codes = cfg->n_ignore_codes,
		.timeout_s = cfg->timeout_s,
		.keep_background = cfg->keep_background,
		.confidence = cfg->confidence,
		.seed = cfg->seed,
		.seed_given = cfg->seed_given,
		.input = cfg->input,
		.counters = cfg->counters,
		.pin = cfg->pin,
		.pin_hooks = cfg->pin_hooks,
		.pin_self = cfg->pin_self,
		.aslr = cfg->aslr,
		.randomize_layout = cfg->randomize_layout,
		.profile = cfg->profile,
	};
}

struct export_options cli_export_options(const struct config *cfg)
{
	struct export_options o = {
		.analysis = {
			.confidence = cfg->confidence,
			.seed = (unsigned long)cfg->seed,
			.tables_by_mean = cfg->sort == SORT_MEAN_TIME,
			.summary_by_mean = cfg->sort != SORT_COMMAND,
			.paired = cfg->order != ORDER_SEQUENTIAL,
		},
		.time_unit = cfg->time_unit,
		.order = cfg->order,
		.run = cli_bench_options(cfg),
	};
	char names[32][32], err[DIAG_MSG_MAX];
	int n = cfg->export_metrics ? cli_parse_metric_list(cfg->export_metrics,
					names, 32, err, sizeof err) : 0;
	for (int k = 0; k < n; k++) {
		int m = metric_lookup(names[k]);
		if (m >= 0)
			o.ci_metric[m] = true;
	}
	return o;
}

struct export_files cli_export_files(const struct config *cfg)
{
	return (struct export_files){
		.exports = cfg->exports,
		.n_exports = cfg->n_exports,
		.input = cfg->input,
		.baseline = cfg->baseline,
		.compare_base = cfg->compare_base,
		.compare_new = cfg->compare_new,
		.history = cfg->history && !history_is_url(cfg->history)
			   ? cfg->history : NULL,
		.history_option = cfg->history_from_env ? "CBENCH_HISTORY"
							: "--history",
		.plan = cli_plan_options(cfg),
	};
}

struct report_page_options cli_report_page_options(const struct config *cfg)
{
	return (struct report_page_options){
		.inputs = cfg->commands,
		.out = cfg->report_out,
		.compare = cfg->report_compare,
		.title = cfg->report_title,
		.confidence_given = cfg->report_confidence_given,
		.confidence = cfg->confidence,
		.fail_if_slower = cfg->fail_if_slower,
		.match_by = cfg->match_by,
		.exports = cli_export_options(cfg),
	};
}
