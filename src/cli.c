/*
 * cli.c: cbench's option table, its parser and --help.
 *
 * The table below is the single source of truth for options: the parser
 * walks it, --help prints it (and the man page is generated from --help),
 * and tests/e2e/sync.sh checks that the README and every completion file
 * mention each entry.  The parser is hand-written rather than getopt_long
 * because -P and -L take several words and options may follow commands.
 */
#include "cli.h"
#include "cmdline.h"
#include "counters.h"
#include "planner.h"
#include "xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct cli_option cli_options[] = {
	{OPT_WARMUP, "warmup", 'w', ARG_ONE, "NUM", NULL, NULL, SCOPE_RUN,
	 "Run each benchmark NUM times before measuring (default: 0)."},
	{OPT_RUNS, "runs", 'r', ARG_ONE, "NUM", NULL, NULL, SCOPE_RUN,
	 "Measure exactly NUM runs (conflicts with -m, -M, --max-time and "
	 "--precision)."},
	{OPT_MIN_RUNS, "min-runs", 'm', ARG_ONE, "NUM", NULL, NULL, SCOPE_RUN,
	 "Measure at least NUM runs (default: 10)."},
	{OPT_MAX_RUNS, "max-runs", 'M', ARG_ONE, "NUM", NULL, NULL, SCOPE_RUN,
	 "Measure at most NUM runs (default: no limit)."},
	{OPT_MIN_TIME, "min-time", 0, ARG_ONE, "SECONDS", NULL, NULL, SCOPE_RUN,
	 "Without -r, keep running until SECONDS of measured time (default: 3)."},
	{OPT_MAX_TIME, "max-time", 0, ARG_ONE, "SECONDS", NULL, NULL, SCOPE_RUN,
	 "Stop a benchmark after SECONDS of measured time (default: none)."},
	{OPT_PARAM_SCAN, "parameter-scan", 'P', ARG_THREE, "NAME MIN MAX", NULL, NULL,
	 SCOPE_RUN, "Benchmark for each value NAME from MIN to MAX; {NAME} in "
	 "commands is replaced. Repeatable."},
	{OPT_PARAM_STEP, "parameter-step-size", 'D', ARG_ONE, "STEP", NULL, NULL,
	 SCOPE_RUN, "Step of the preceding -P (default: 1; decimals allowed)."},
	{OPT_PARAM_LIST, "parameter-list", 'L', ARG_TWO, "NAME VALUES", NULL, NULL,
	 SCOPE_RUN, "Benchmark for each of the comma-separated VALUES (\\, escapes "
	 "a comma). Repeatable; combines with -P as a Cartesian product."},
	{OPT_SETUP, "setup", 's', ARG_ONE, "CMD", NULL, "command", SCOPE_RUN,
	 "Run CMD once before each benchmark (once, or once per command)."},
	{OPT_PREPARE, "prepare", 'p', ARG_ONE, "CMD", NULL, "command", SCOPE_RUN,
	 "Run CMD before every run, warmups included (unmeasured)."},
	{OPT_CONCLUDE, "conclude", 'C', ARG_ONE, "CMD", NULL, "command", SCOPE_RUN,
	 "Run CMD after every run (unmeasured)."},
	{OPT_CLEANUP, "cleanup", 'c', ARG_ONE, "CMD", NULL, "command", SCOPE_RUN,
	 "Run CMD once after each benchmark."},
	{OPT_SHELL, "shell", 'S', ARG_ONE, "SHELL", NULL, "command", SCOPE_RUN,
	 "Run every command with SHELL -c; SHELL may have arguments ('bash "
	 "--norc'), 'default' is sh, 'none' runs commands directly (default: "
	 "a shell only for lines with shell syntax)."},
	{OPT_NO_SHELL, "no-shell", 'N', ARG_NONE, NULL, NULL, NULL, SCOPE_RUN,
	 "Same as --shell=none: split commands into words and exec them."},
	{OPT_IGNORE_FAILURE, "ignore-failure", 'i', ARG_OPTIONAL, "CODES", NULL, NULL,
	 SCOPE_RUN, "Keep going when a command fails; with =CODES (comma list) "
	 "only for those exit codes."},
	{OPT_TIMEOUT, "timeout", 0, ARG_ONE, "SECONDS", NULL, NULL, SCOPE_RUN,
	 "Kill a run (its whole process group) after SECONDS (default: none)."},
	{OPT_COMMAND_NAME, "command-name", 'n', ARG_ONE, "NAME", NULL, NULL,
	 SCOPE_RUN, "Display name of a command: names go to the commands in "
	 "order, the --reference first, wherever -n stands (the first -n "
	 "names the first command); at most one per command."},
	{OPT_REFERENCE, "reference", 0, ARG_ONE, "CMD", NULL, "command", SCOPE_RUN,
	 "Benchmark CMD first and compare every other command with it."},
	{OPT_ORDER, "order", 0, ARG_ONE, "ORDER", "sequential|interleaved|shuffled",
	 NULL, SCOPE_RUN, "Run order across benchmarks: sequential (all runs "
	 "of one, then the next), interleaved (one run of each in turn) or "
	 "shuffled (rounds in a random order) (default: sequential)."},
	{OPT_SEED, "seed", 0, ARG_ONE, "NUM", NULL, NULL, SCOPE_BOTH,
	 "Seed for --order=shuffled and bootstrap resampling (default: from "
	 "the clock, printed)."},
	{OPT_SORT, "sort", 0, ARG_ONE, "HOW", "auto|command|mean-time", NULL,
	 SCOPE_RUN, "Order of the summary and tables (default: auto)."},
	{OPT_INPUT, "input", 0, ARG_ONE, "FILE", NULL, "file", SCOPE_RUN,
	 "Feed FILE to the command's stdin (default: /dev/null)."},
	{OPT_OUTPUT, "output", 0, ARG_ONE, "WHERE", "null|pipe|inherit", "file",
	 SCOPE_RUN, "Command output: null, pipe (read and discarded), inherit "
	 "(or -: cbench's stdout and stderr), or a FILE; once or once per "
	 "command (default: null)."},
	{OPT_SHOW_OUTPUT, "show-output", 0, ARG_NONE, NULL, NULL, NULL, SCOPE_RUN,
	 "Same as --output=inherit."},
	{OPT_STYLE, "style", 0, ARG_ONE, "STYLE",
	 "auto|basic|full|nocolor|color|none", NULL, SCOPE_BOTH,
	 "Terminal output style (default: auto: on a terminal, colour unless "
	 "NO_COLOR is set, and a progress bar unless the command's output is "
	 "shown)."},
	{OPT_TIME_UNIT, "time-unit", 'u', ARG_ONE, "UNIT",
	 "microsecond|millisecond|second", NULL, SCOPE_BOTH,
	 "Unit for times (default: chosen from the values)."},
	{OPT_COUNTERS, "counters", 0, ARG_ONE, "LIST", NULL, "counter", SCOPE_RUN,
	 "Counters to measure: a comma list of task-clock, page-faults, "
	 "instructions, cycles, cache-references, cache-misses, branches, "
	 "branch-misses; or none (default: what the machine can count of "
	 "task-clock, page-faults, instructions, cycles, cache-misses, "
	 "branch-misses)."},
	{OPT_CONFIDENCE, "confidence", 0, ARG_ONE, "PCT", NULL, NULL, SCOPE_BOTH,
	 "Confidence level of intervals and tests (default: 95)."},
	{OPT_PRECISION, "precision", 0, ARG_ONE, "PCT", NULL, NULL, SCOPE_RUN,
	 "Run until the mean's confidence interval is within PCT % of the mean "
	 "(or --max-runs / --max-time; without either, a default cap of 60 s "
	 "of measured time per benchmark)."},
	{OPT_EXPORT_JSON, "export-json", 0, ARG_ONE, "FILE", NULL, "file",
	 SCOPE_RUN, "Write all results as JSON (- for stdout)."},
	{OPT_EXPORT_MARKDOWN, "export-markdown", 0, ARG_ONE, "FILE", NULL, "file",
	 SCOPE_BOTH, "Write a Markdown table (- for stdout); in 'cbench compare', "
	 "the pull-request report."},
	{OPT_EXPORT_ASCIIDOC, "export-asciidoc", 0, ARG_ONE, "FILE", NULL, "file",
	 SCOPE_RUN, "Write an AsciiDoc table (- for stdout)."},
	{OPT_EXPORT_ORGMODE, "export-orgmode", 0, ARG_ONE, "FILE", NULL, "file",
	 SCOPE_RUN, "Write an Org-mode table (- for stdout)."},
	{OPT_EXPORT_CSV, "export-csv", 0, ARG_ONE, "FILE", NULL, "file",
	 SCOPE_RUN, "Write summary statistics as CSV, one row per benchmark."},
	{OPT_EXPORT_CSV_RUNS, "export-csv-runs", 0, ARG_ONE, "FILE", NULL, "file",
	 SCOPE_RUN, "Write every run as CSV, one row per run and every metric."},
	{OPT_BASELINE, "baseline", 0, ARG_ONE, "FILE", NULL, "file", SCOPE_RUN,
	 "After benchmarking, compare with the saved results in FILE and gate."},
	{OPT_SAVE_BASELINE, "save-baseline", 0, ARG_ONE, "FILE", NULL, "file",
	 SCOPE_RUN, "Save results as a baseline (same as --export-json FILE)."},
	{OPT_FAIL_IF_SLOWER, "fail-if-slower", 0, ARG_ONE, "PCT", NULL, NULL,
	 SCOPE_BOTH, "Regression threshold for gates (default: 5)."},
	{OPT_GATE_METRIC, "gate-metric", 0, ARG_ONE, "METRIC",
	 "wall_time|cpu_time|user_time|system_time|peak_rss|task_clock|"
	 "page_faults|instructions|cycles|cache_misses|branch_misses", NULL,
	 SCOPE_BOTH, "Metric the gate decides on (default: instructions when "
	 "both sides have them, else wall_time)."},
	{OPT_REQUIRE_ALL, "require-all", 0, ARG_NONE, NULL, NULL, NULL, SCOPE_BOTH,
	 "Fail (exit 2) when a benchmark is missing from either side."},
	{OPT_MATCH_BY, "match-by", 0, ARG_ONE, "KEY", "command|name", NULL,
	 SCOPE_BOTH, "Match benchmarks by command line and parameters, or by "
	 "display name (default: command)."},
	{OPT_HELP, "help", 'h', ARG_NONE, NULL, NULL, NULL, SCOPE_BOTH,
	 "Print this help and exit."},
	{OPT_VERSION, "version", 'V', ARG_NONE, NULL, NULL, NULL, SCOPE_BOTH,
	 "Print the version and exit."},
};
const size_t cli_n_options = sizeof cli_options / sizeof cli_options[0];

/* ---- value parsing ---- */

int cli_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (s[0] == '\0' || *end != '\0' || errno == ERANGE || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (s[0] == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v) ||
	    v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int cli_parse_percent(const char *s, double *out_fraction)
{
	size_t n = strlen(s);
	char buf[64];
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n + 1);
	if (buf[n - 1] == '%')
		buf[n - 1] = '\0';
	double v;
	if (cli_parse_double(buf, 0, 1e6, &v) != 0)
		return -1;
	*out_fraction = v / 100.0;
	return 0;
}

static void strlist_push(struct strlist *l, const char *s)
{
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = s;
}

/* Is value one of the '|'-separated words in set? */
static int in_set(const char *value, const char *set)
{
	size_t n = strlen(value);
	int idx = 0;
	for (const char *p = set;; idx++) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);
		if (len == n && strncmp(p, value, n) == 0)
			return idx;
		if (!bar)
			return -1;
		p = bar + 1;
	}
}

/* ---- parser ---- */

struct parse_state {
	struct config *cfg;
	bool runs_given;
	bool step_pending;       /* a -D seen before any -P */
	const char *pending_step;
	bool shell_given, no_shell_given;
	/* The option whose value was the last word of the command line, and
	 * that word: when no command is left, the message points at it. */
	const struct cli_option *last_opt;
	const char *last_word;
};

#define USAGE(...) do { diag_usage(__VA_ARGS__); return -1; } while (0)

static const struct cli_option *find_long(const char *name, size_t len)
{
	for (size_t i = 0; i < cli_n_options; i++)
		if (strlen(cli_options[i].long_name) == len &&
		    strncmp(cli_options[i].long_name, name, len) == 0)
			return &cli_options[i];
	return NULL;
}

static const struct cli_option *find_short(char c)
{
	for (size_t i = 0; i < cli_n_options; i++)
		if (cli_options[i].short_name == c)
			return &cli_options[i];
	return NULL;
}

static void add_export(struct config *cfg, enum export_format f, const char *path,
		       const char *option)
{
	cfg->exports = xreallocarray(cfg->exports, cfg->n_exports + 1,
				     sizeof *cfg->exports);
	cfg->exports[cfg->n_exports++] = (struct export_req){f, path, option};
}

static int bad_value(const struct cli_option *o, const char *v, const char *what)
{
	diag_usage("invalid value '%s' for --%s: %s", v, o->long_name, what);
	return -1;
}

/* --counters LIST: known names only (counters_lookup), checked here so a
 * typo is a usage error before anything starts; none/default alone. */
static int check_counters(const char *spec)
{
	if (strcmp(spec, "none") == 0 || strcmp(spec, "default") == 0)
		return 0;
	char *copy = xstrdup(spec), *rest = copy;
	int rc = 0;
	for (char *t = strsep(&rest, ","); t && rc == 0; t = strsep(&rest, ",")) {
		if (t[0] == '\0') {
			diag_usage("--counters '%s': empty counter name", spec);
			rc = -1;
		} else if (strcmp(t, "none") == 0 || strcmp(t, "default") == 0) {
			diag_usage("--counters '%s': '%s' cannot be combined with "
				   "counter names", spec, t);
			rc = -1;
		} else if (counters_lookup(t) < 0) {
			diag_usage("unknown counter '%s' in --counters (known: "
				   "task-clock, page-faults, instructions, cycles, "
				   "cache-references, cache-misses, branches, "
				   "branch-misses; or none alone)", t);
			rc = -1;
		}
	}
	free(copy);
	return rc;
}

/* Apply one option with its argument words a[0..]. */
static int apply(struct parse_state *st, const struct cli_option *o,
		 const char *const *a, int *exit_code)
{
	struct config *cfg = st->cfg;
	double d;
	long l;

	if (cfg->compare_mode && !(o->scope & SCOPE_COMPARE))
		USAGE("--%s cannot be used with 'cbench compare'", o->long_name);
	if (!cfg->compare_mode && o->scope == SCOPE_COMPARE)
		USAGE("--%s only applies to 'cbench compare'", o->long_name);

	switch (o->id) {
	case OPT_HELP:
		cli_print_help(cfg->compare_mode);
		*exit_code = CBENCH_EXIT_OK;
		return 1;
	case OPT_VERSION:
		cli_print_version();
		*exit_code = CBENCH_EXIT_OK;
		return 1;
	case OPT_WARMUP:
		if (cli_parse_long(a[0], 0, 1000000000L, &cfg->warmup))
			return bad_value(o, a[0], "expected a whole number >= 0");
		break;
	case OPT_RUNS:
		if (cli_parse_long(a[0], 1, 1000000000L, &cfg->runs))
			return bad_value(o, a[0], "expected a whole number >= 1");
		st->runs_given = true;
		break;
	case OPT_MIN_RUNS:
		if (cli_parse_long(a[0], 1, 1000000000L, &cfg->min_runs))
			return bad_value(o, a[0], "expected a whole number >= 1");
		cfg->min_runs_given = true;
		break;
	case OPT_MAX_RUNS:
		if (cli_parse_long(a[0], 1, 1000000000L, &cfg->max_runs))
			return bad_value(o, a[0], "expected a whole number >= 1");
		cfg->max_runs_given = true;
		break;
	case OPT_MIN_TIME:
		if (cli_parse_double(a[0], 0, 1e7, &cfg->min_time_s))
			return bad_value(o, a[0], "expected seconds >= 0");
		break;
	case OPT_MAX_TIME:
		if (cli_parse_double(a[0], 0, 1e7, &d) || d <= 0)
			return bad_value(o, a[0], "expected seconds > 0");
		cfg->max_time_s = d;
		break;
	case OPT_PARAM_SCAN:
	case OPT_PARAM_LIST: {
		cfg->params = xreallocarray(cfg->params, cfg->n_params + 1,
					    sizeof *cfg->params);
		struct param_spec *p = &cfg->params[cfg->n_params++];
		memset(p, 0, sizeof *p);
		p->name = a[0];
		if (o->id == OPT_PARAM_SCAN) {
			p->is_scan = true;
			p->min = a[1];
			p->max = a[2];
			if (st->step_pending) {
				p->step = st->pending_step;
				st->step_pending = false;
			}
		} else {
			p->list = a[1];
		}
		break;
	}
	case OPT_PARAM_STEP: {
		struct param_spec *last = NULL;
		for (size_t i = cfg->n_params; i-- > 0;)
			if (cfg->params[i].is_scan) {
				last = &cfg->params[i];
				break;
			}
		if (last == NULL) {
			if (st->step_pending)
				USAGE("-D/--parameter-step-size given twice before -P");
			st->step_pending = true;
			st->pending_step = a[0];
		} else {
			if (last->step)
				USAGE("-D/--parameter-step-size given twice for "
				      "parameter '%s'", last->name);
			last->step = a[0];
		}
		break;
	}
	case OPT_SETUP:
		strlist_push(&cfg->setup, a[0]);
		break;
	case OPT_PREPARE:
		strlist_push(&cfg->prepare, a[0]);
		break;
	case OPT_CONCLUDE:
		strlist_push(&cfg->conclude, a[0]);
		break;
	case OPT_CLEANUP:
		strlist_push(&cfg->cleanup, a[0]);
		break;
	case OPT_SHELL:
		if (a[0][0] == '\0')
			return bad_value(o, a[0], "expected a shell, or none");
		if (strcmp(a[0], "none") == 0) {
			st->no_shell_given = true;
			cfg->shell_mode = SHELL_NONE;
		} else {
			if (st->shell_given)
				USAGE("--shell given twice");
			st->shell_given = true;
			cfg->shell_mode = SHELL_FORCE;
			/* hyperfine's forms: "default" (sh), or a command line
			 * with arguments ("bash --norc"), split like a command. */
			char err[DIAG_MSG_MAX];
			char **w = cmdline_split(strcmp(a[0], "default") == 0 ? "sh"
						 : a[0], err, sizeof err);
			if (w == NULL)
				return bad_value(o, a[0], err);
			cfg->shell_words = w;
			cfg->shell = w[0];
			cfg->shell_args = (const char *const *)w + 1;
		}
		break;
	case OPT_NO_SHELL:
		st->no_shell_given = true;
		cfg->shell_mode = SHELL_NONE;
		break;
	case OPT_IGNORE_FAILURE:
		cfg->ignore_failure = true;
		if (a[0]) {
			/* strtok_r would skip the empty code in "1,,2". */
			char *copy = xstrdup(a[0]), *rest = copy;
			for (char *t = strsep(&rest, ","); t; t = strsep(&rest, ",")) {
				if (cli_parse_long(t, 1, 255, &l)) {
					free(copy);
					return bad_value(o, a[0], "expected exit codes "
							 "1-255, comma-separated");
				}
				cfg->ignore_codes = xreallocarray(cfg->ignore_codes,
					cfg->n_ignore_codes + 1, sizeof(int));
				cfg->ignore_codes[cfg->n_ignore_codes++] = (int)l;
			}
			free(copy);
			if (cfg->n_ignore_codes == 0)
				return bad_value(o, a[0], "expected exit codes 1-255");
		}
		break;
	case OPT_TIMEOUT:
		if (cli_parse_double(a[0], 0, 1e7, &d) || d <= 0)
			return bad_value(o, a[0], "expected seconds > 0");
		cfg->timeout_s = d;
		break;
	case OPT_COMMAND_NAME:
		strlist_push(&cfg->names, a[0]);
		break;
	case OPT_REFERENCE:
		if (a[0][0] == '\0')
			return bad_value(o, a[0], "expected a command");
		cfg->reference = a[0];
		break;
	case OPT_ORDER: {
		int i = in_set(a[0], o->values);
		if (i < 0)
			return bad_value(o, a[0], "expected sequential, interleaved "
					 "or shuffled");
		cfg->order = (enum run_order)i;
		break;
	}
	case OPT_SEED: {
		char *end;
		errno = 0;
		unsigned long long v = strtoull(a[0], &end, 10);
		if (a[0][0] == '\0' || a[0][0] == '-' || *end || errno)
			return bad_value(o, a[0], "expected a whole number >= 0");
		cfg->seed = v;
		cfg->seed_given = true;
		break;
	}
	case OPT_SORT: {
		int i = in_set(a[0], o->values);
		if (i < 0)
			return bad_value(o, a[0], "expected auto, command or mean-time");
		cfg->sort = (enum sort_mode)i;
		break;
	}
	case OPT_INPUT:
		if (a[0][0] == '\0')
			return bad_value(o, a[0], "expected a file");
		cfg->input = a[0];
		break;
	case OPT_OUTPUT:
		if (a[0][0] == '\0')
			return bad_value(o, a[0], "expected null, pipe, inherit or a file");
		/* "-" is cbench's own stdout, as for the exports. */
		strlist_push(&cfg->outputs, strcmp(a[0], "-") == 0 ? "inherit" : a[0]);
		break;
	case OPT_SHOW_OUTPUT:
		cfg->show_output = true;
		break;
	case OPT_STYLE: {
		int i = in_set(a[0], o->values);
		if (i < 0)
			return bad_value(o, a[0], "expected auto, basic, full, nocolor, "
					 "color or none");
		cfg->style = (enum style)i;
		break;
	}
	case OPT_TIME_UNIT: {
		int i = in_set(a[0], o->values);
		if (i < 0) {
			/* Accept the short forms too. */
			if (strcmp(a[0], "us") == 0)
				i = 0;
			else if (strcmp(a[0], "ms") == 0)
				i = 1;
			else if (strcmp(a[0], "s") == 0)
				i = 2;
			else
				return bad_value(o, a[0], "expected microsecond, "
						 "millisecond or second");
		}
		cfg->time_unit = (enum time_unit)(i + 1);
		break;
	}
	case OPT_COUNTERS:
		if (check_counters(a[0]) != 0)
			return -1;
		cfg->counters = a[0];
		break;
	case OPT_CONFIDENCE:
		if (cli_parse_percent(a[0], &d) || d <= 0.5 || d >= 1)
			return bad_value(o, a[0], "expected a percentage above 50 "
					 "and below 100");
		cfg->confidence = d;
		break;
	case OPT_PRECISION:
		if (cli_parse_percent(a[0], &d) || d <= 0 || d >= 1)
			return bad_value(o, a[0], "expected a percentage above 0 "
					 "and below 100");
		cfg->precision = d;
		break;
	case OPT_EXPORT_JSON:
	case OPT_EXPORT_MARKDOWN:
	case OPT_EXPORT_ASCIIDOC:
	case OPT_EXPORT_ORGMODE:
	case OPT_EXPORT_CSV:
	case OPT_EXPORT_CSV_RUNS:
	case OPT_SAVE_BASELINE:
		if (a[0][0] == '\0')
			return bad_value(o, a[0], "expected a file name, or - for stdout");
		add_export(cfg, o->id == OPT_SAVE_BASELINE ? EXPORT_JSON
			   : (enum export_format)(o->id - OPT_EXPORT_JSON), a[0],
			   o->id == OPT_SAVE_BASELINE ? "--save-baseline" : NULL);
		break;
	case OPT_BASELINE:
		if (a[0][0] == '\0')
			return bad_value(o, a[0], "expected a file");
		cfg->baseline = a[0];
		break;
	case OPT_FAIL_IF_SLOWER:
		/* A fraction: 10 is 1000 %, ten times slower. */
		if (cli_parse_percent(a[0], &d) || d < 0 || d > 10)
			return bad_value(o, a[0], "expected a percentage from 0 "
					 "to 1000");
		cfg->fail_if_slower = d;
		break;
	case OPT_GATE_METRIC:
		if (in_set(a[0], o->values) < 0)
			return bad_value(o, a[0], "expected one of wall_time, cpu_time, "
					 "user_time, system_time, peak_rss, task_clock, "
					 "page_faults, instructions, cycles, cache_misses, "
					 "branch_misses");
		cfg->gate_metric = a[0];
		break;
	case OPT_REQUIRE_ALL:
		cfg->require_all = true;
		break;
	case OPT_MATCH_BY: {
		int i = in_set(a[0], o->values);
		if (i < 0)
			return bad_value(o, a[0], "expected command or name");
		cfg->match_by = (enum match_by)i;
		break;
	}
	case OPT__COUNT:
		break;
	}
	return 0;
}

static int nargs(enum arg_kind k)
{
	switch (k) {
	case ARG_ONE:
		return 1;
	case ARG_TWO:
		return 2;
	case ARG_THREE:
		return 3;
	default:
		return 0;
	}
}

/* Remember the option just applied, and its last value word, when it
 * takes several words (-P, -L): one of them may have been the command. */
static void note_last(struct parse_state *st, const struct cli_option *o,
		      int need, const char *const *words)
{
	st->last_opt = need > 1 ? o : NULL;
	st->last_word = need > 1 ? words[need - 1] : NULL;
}

/*
 * No command is left.  The usual cause is an option that took the command
 * as one of its values (-P takes exactly three words, -L two): say which,
 * and check the scan bounds first so that `-P n 1 echo` reports MAX 'echo'
 * as not a number.
 */
static int no_command(const struct parse_state *st)
{
	const struct config *cfg = st->cfg;
	char err[DIAG_MSG_MAX];
	for (size_t i = 0; i < cfg->n_params; i++) {
		const struct param_spec *p = &cfg->params[i];
		char **v = NULL;
		long n = p->is_scan ? planner_scan_values(p->name, p->min, p->max,
							  p->step, &v, err,
							  sizeof err) : 0;
		for (long k = 0; k < n; k++)
			free(v[k]);
		free(v);
		if (n < 0)
			USAGE("%s", err);
	}
	const struct cli_option *o = st->last_opt;
	if (o == NULL)
		USAGE("no command to benchmark");
	const char *arg = strrchr(o->arg_name, ' ');
	arg = arg ? arg + 1 : o->arg_name;
	char opt[64];
	if (o->short_name)
		snprintf(opt, sizeof opt, "-%c/--%s", o->short_name, o->long_name);
	else
		snprintf(opt, sizeof opt, "--%s", o->long_name);
	USAGE("no command to benchmark: '%s' was taken as the %s of %s %s",
	      st->last_word, arg, opt, o->arg_name);
}

/* Checks that need the whole command line. */
static int validate(struct parse_state *st)
{
	struct config *cfg = st->cfg;

	if (cfg->compare_mode) {
		if (cfg->commands.n != 2)
			USAGE("'cbench compare' takes two files: BASE.json NEW.json");
		cfg->compare_base = cfg->commands.v[0];
		cfg->compare_new = cfg->commands.v[1];
		return 0;
	}
	if (cfg->commands.n == 0 && cfg->reference == NULL)
		return no_command(st);
	for (size_t i = 0; i < cfg->commands.n; i++) {
		const char *c = cfg->commands.v[i];
		while (*c == ' ' || *c == '\t')
			c++;
		if (*c == '\0')
			USAGE("command %zu is empty", i + 1);
	}
	if (st->runs_given && (cfg->min_runs_given || cfg->max_runs_given))
		USAGE("--runs cannot be combined with --min-runs or --max-runs");
	if (st->runs_given && cfg->precision > 0)
		USAGE("--runs cannot be combined with --precision");
	if (st->runs_given && cfg->max_time_s > 0)
		USAGE("--runs cannot be combined with --max-time");
	if (cfg->min_runs_given && cfg->max_runs_given &&
	    cfg->min_runs > cfg->max_runs)
		USAGE("--min-runs (%ld) is larger than --max-runs (%ld)",
		      cfg->min_runs, cfg->max_runs);
	if (st->shell_given && st->no_shell_given)
		USAGE("--shell=SHELL cannot be combined with -N/--shell=none");
	if (st->step_pending)
		USAGE("-D/--parameter-step-size needs a -P/--parameter-scan");
	size_t ncmd = cfg->commands.n + (cfg->reference ? 1 : 0);
	if (cfg->names.n > ncmd)
		USAGE("%zu command names (-n) given for %zu command%s",
		      cfg->names.n, ncmd, ncmd == 1 ? "" : "s");
	const struct {
		const struct strlist *l;
		const char *opt;
	} per_cmd[] = {
		{&cfg->setup, "--setup"}, {&cfg->prepare, "--prepare"},
		{&cfg->conclude, "--conclude"}, {&cfg->cleanup, "--cleanup"},
		{&cfg->outputs, "--output"},
	};
	for (size_t i = 0; i < sizeof per_cmd / sizeof per_cmd[0]; i++) {
		size_t n = per_cmd[i].l->n;
		if (n > 1 && n != ncmd)
			USAGE("%s given %zu times for %zu command%s: give it once for "
			      "all commands or once per command", per_cmd[i].opt, n,
			      ncmd, ncmd == 1 ? "" : "s");
	}
	if (cfg->show_output && cfg->outputs.n)
		USAGE("--show-output cannot be combined with --output");
	/* Two exports to stdout would interleave. */
	int to_stdout = 0;
	for (size_t i = 0; i < cfg->n_exports; i++)
		to_stdout += strcmp(cfg->exports[i].path, "-") == 0;
	if (to_stdout > 1)
		USAGE("only one export can go to stdout (-)");
	return 0;
}

int cli_parse(int argc, char **argv, struct config *cfg, int *exit_code)
{
	struct parse_state st = {.cfg = cfg};
	memset(cfg, 0, sizeof *cfg);
	cfg->min_runs = 10;
	cfg->min_time_s = 3.0;
	cfg->confidence = 0.95;
	cfg->fail_if_slower = 0.05;
	*exit_code = CBENCH_EXIT_USAGE;

	int i = 1;
	if (argc > 1 && strcmp(argv[1], "compare") == 0) {
		cfg->compare_mode = true;
		i = 2;
	}
	bool only_positional = false;
	for (; i < argc; i++) {
		const char *arg = argv[i];
		if (only_positional || arg[0] != '-' || arg[1] == '\0') {
			strlist_push(&cfg->commands, arg);
			st.last_opt = NULL;
			continue;
		}
		if (strcmp(arg, "--") == 0) {
			only_positional = true;
			continue;
		}
		const char *words[3] = {NULL, NULL, NULL};
		const struct cli_option *o;
		if (arg[1] == '-') {
			const char *name = arg + 2;
			const char *eq = strchr(name, '=');
			size_t len = eq ? (size_t)(eq - name) : strlen(name);
			o = find_long(name, len);
			if (o == NULL)
				USAGE("unknown option '--%.*s'", (int)len, name);
			int need = nargs(o->kind);
			if (o->kind == ARG_NONE && eq)
				USAGE("--%s takes no value", o->long_name);
			int have = 0;
			if (eq && o->kind != ARG_NONE)
				words[have++] = eq + 1;
			while (have < need) {
				if (i + 1 >= argc)
					USAGE("--%s needs %s", o->long_name, o->arg_name);
				words[have++] = argv[++i];
			}
			int r = apply(&st, o, words, exit_code);
			if (r != 0)
				return -1;
			note_last(&st, o, need, words);
			continue;
		}
		/* Short options, possibly bundled: -Ni, -r5, -r 5. */
		for (const char *p = arg + 1; *p; p++) {
			o = find_short(*p);
			if (o == NULL)
				USAGE("unknown option '-%c'", *p);
			if (o->scope == SCOPE_RUN && cfg->compare_mode && o->kind == ARG_NONE)
				USAGE("-%c cannot be used with 'cbench compare'", *p);
			int need = nargs(o->kind);
			int have = 0;
			if (o->kind == ARG_OPTIONAL) {
				if (p[1] == '=')
					words[have++] = p + 2;
				else if (p[1] != '\0')
					USAGE("-%c takes its value as -%c=VALUE", *p, *p);
				int r = apply(&st, o, words, exit_code);
				if (r != 0)
					return -1;
				note_last(&st, o, 0, words);
				break;
			}
			if (need > 0) {
				if (p[1] != '\0')
					words[have++] = p[1] == '=' ? p + 2 : p + 1;
				while (have < need) {
					if (i + 1 >= argc)
						USAGE("-%c needs %s", o->short_name, o->arg_name);
					words[have++] = argv[++i];
				}
				int r = apply(&st, o, words, exit_code);
				if (r != 0)
					return -1;
				note_last(&st, o, need, words);
				break;
			}
			int r = apply(&st, o, words, exit_code);
			if (r != 0)
				return -1;
			note_last(&st, o, 0, words);
		}
	}
	if (validate(&st) != 0)
		return -1;
	*exit_code = CBENCH_EXIT_OK;
	return 0;
}

void cli_free(struct config *cfg)
{
	free(cfg->commands.v);
	free(cfg->names.v);
	free(cfg->setup.v);
	free(cfg->prepare.v);
	free(cfg->conclude.v);
	free(cfg->cleanup.v);
	free(cfg->outputs.v);
	free(cfg->params);
	free(cfg->ignore_codes);
	free(cfg->exports);
	cmdline_free(cfg->shell_words);
	memset(cfg, 0, sizeof *cfg);
}

/* ---- help ---- */

static void print_wrapped(const char *text, int indent, int width)
{
	int col = indent;
	const char *p = text;
	while (*p) {
		const char *sp = strchr(p, ' ');
		int len = sp ? (int)(sp - p) : (int)strlen(p);
		if (col > indent && col + 1 + len > width) {
			printf("\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			putchar(' ');
			col++;
		}
		printf("%.*s", len, p);
		col += len;
		p += len;
		while (*p == ' ')
			p++;
	}
	putchar('\n');
}

void cli_print_help(bool compare)
{
	if (compare) {
		puts("Usage: cbench compare [OPTIONS] BASE.json NEW.json\n\n"
		     "Compare two saved result files (both cbench's JSON, or both\n"
		     "hyperfine's: their wall times differ by design) and decide whether\n"
		     "NEW is a significant regression over BASE.\n");
	} else {
		puts("Usage: cbench [OPTIONS] COMMAND...\n"
		     "  or:  cbench compare [OPTIONS] BASE.json NEW.json\n\n"
		     "Benchmark commands with exec-exact timing and counters.\n\n"
		     "Every run is measured by the frozen-exec engine: the child stops at\n"
		     "exec, counters are attached before its first instruction, and wall\n"
		     "time runs from the moment it is released to the moment it is\n"
		     "reaped, so fork, exec and cbench's bookkeeping are never counted.\n");
	}
	puts("Options:");
	for (size_t i = 0; i < cli_n_options; i++) {
		const struct cli_option *o = &cli_options[i];
		if (compare && !(o->scope & SCOPE_COMPARE))
			continue;
		char head[96];
		int n;
		if (o->short_name)
			n = snprintf(head, sizeof head, "  -%c, --%s", o->short_name,
				     o->long_name);
		else
			n = snprintf(head, sizeof head, "      --%s", o->long_name);
		if (o->arg_name && n > 0 && (size_t)n < sizeof head)
			snprintf(head + n, sizeof head - (size_t)n,
				 o->kind == ARG_OPTIONAL ? "[=%s]" : " %s", o->arg_name);
		printf("%s\n", head);
		printf("          ");
		print_wrapped(o->help, 10, 78);
	}
	puts("\nExit status:\n"
	     "  0    success (and no regression)\n"
	     "  1    a command failed, could not be run or timed out; or an I/O error\n"
	     "  2    usage error: bad option or value, unreadable or malformed input\n"
	     "  3    a performance gate found a significant regression\n"
	     "  130  interrupted by SIGINT (143: SIGTERM, 129: SIGHUP, 141: stdout\n"
	     "       closed); results so far are kept\n");
	puts("Environment:\n"
	     "  NO_COLOR           disable colours (not the progress bar)\n"
	     "  CBENCH_ITERATION   set for each run and its --prepare/--conclude:\n"
	     "                     warmup-K or the run index; setup, cleanup\n"
	     "  GITHUB_ACTIONS     true: gates also print ::error:: annotation lines\n");
}

void cli_print_version(void)
{
	printf("cbench %s\n", CBENCH_VERSION);
}
