/*
 * cli.c: cbench's option table, its parser and --help.
 *
 * The table below is the single source of truth for options.  Each entry
 * says what its value is (its kind), the range or value set it must lie
 * in, its default and where it goes in struct config; the parser checks and
 * stores every value with the one handler of its kind, and the few options
 * with several words or side effects (-P, -L, -D, -S, -N, -i, --output,
 * --counters, the exports) have a short handler of their own.  --help
 * prints the table, defaults included (the man page is generated from
 * --help), and the hidden --list-options prints it for tests/e2e/sync.sh,
 * which checks that the README, every completion file and some e2e test
 * mention each entry.  The parser is hand-written rather than getopt_long
 * because -P and -L take several words and options may follow commands.
 */
#include "suggest.h"
#include "simcpu.h"
#include "cli.h"
#include "metric_output.h"
#include "results.h"
#include "cmdline.h"
#include "counters.h"
#include "cpulist.h"
#include "xalloc.h"

#include <dirent.h>
#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(enum style) == sizeof(int) &&
	       sizeof(enum time_unit) == sizeof(int) &&
	       sizeof(enum run_order) == sizeof(int) &&
	       sizeof(enum sort_mode) == sizeof(int) &&
	       sizeof(enum match_by) == sizeof(int) &&
	       sizeof(enum aslr_mode) == sizeof(int),
	       "KIND_ENUM stores an int");

static cli_handler do_help, do_version, do_fail_for, do_param, do_step, do_shell,
	do_no_shell, do_ignore, do_output, do_counters, do_cpus,
	do_reference_name;

static const struct cli_value order_values[] = {
	{"sequential", ORDER_SEQUENTIAL, false},
	{"interleaved", ORDER_INTERLEAVED, false},
	{"shuffled", ORDER_SHUFFLED, false}, {NULL, 0, false}};
static const struct cli_value sort_values[] = {
	{"auto", SORT_AUTO, false}, {"command", SORT_COMMAND, false},
	{"mean-time", SORT_MEAN_TIME, false}, {NULL, 0, false}};
static const struct cli_value output_values[] = {
	{"null", 0, false}, {"pipe", 0, false}, {"inherit", 0, false},
	{NULL, 0, false}};
static const struct cli_value style_values[] = {
	{"auto", STYLE_AUTO, false}, {"basic", STYLE_BASIC, false},
	{"full", STYLE_FULL, false}, {"nocolor", STYLE_NOCOLOR, false},
	{"color", STYLE_COLOR, false}, {"none", STYLE_NONE, false},
	{NULL, 0, false}};
static const struct cli_value unit_values[] = {
	{"microsecond", UNIT_US, false}, {"millisecond", UNIT_MS, false},
	{"second", UNIT_S, false}, {"us", UNIT_US, true}, {"ms", UNIT_MS, true},
	{"s", UNIT_S, true}, {NULL, 0, false}};
static const struct cli_value metric_values[] = {
	{"wall_time", 0, false}, {"cpu_time", 0, false}, {"user_time", 0, false},
	{"system_time", 0, false}, {"peak_rss", 0, false},
	{"task_clock", 0, false}, {"page_faults", 0, false},
	{"instructions", 0, false}, {"cycles", 0, false},
	{"cache_misses", 0, false}, {"branch_misses", 0, false},
	{"sim_instructions", 0, false}, {"sim_cycles", 0, false},
	{"sim_i1_misses", 0, false}, {"sim_d1_read_misses", 0, false},
	{"sim_d1_write_misses", 0, false}, {"sim_ll_instr_misses", 0, false},
	{"sim_ll_read_misses", 0, false}, {"sim_ll_write_misses", 0, false},
	{NULL, 0, false}};
/* What an export can carry: the metrics of a run (no cpu_time, which is
 * the gate's sum of two). */
static const struct cli_value export_metric_values[] = {
	{"wall_time", 0, false}, {"user_time", 0, false},
	{"system_time", 0, false}, {"peak_rss", 0, false},
	{"minor_faults", 0, false}, {"major_faults", 0, false},
	{"voluntary_context_switches", 0, false},
	{"involuntary_context_switches", 0, false},
	{"task_clock", 0, false}, {"page_faults", 0, false},
	{"instructions", 0, false}, {"cycles", 0, false},
	{"cache_references", 0, false}, {"cache_misses", 0, false},
	{"branches", 0, false}, {"branch_misses", 0, false},
	{"sim_instructions", 0, false}, {"sim_cycles", 0, false},
	{"sim_i1_misses", 0, false}, {"sim_d1_read_misses", 0, false},
	{"sim_d1_write_misses", 0, false}, {"sim_ll_instr_misses", 0, false},
	{"sim_ll_read_misses", 0, false}, {"sim_ll_write_misses", 0, false},
	{NULL, 0, false}};
static const struct cli_value aslr_values[] = {
	{"on", ASLR_ON, false}, {"off", ASLR_OFF, false}, {NULL, 0, false}};
static const struct cli_value match_values[] = {
	{"command", MATCH_COMMAND, false}, {"name", MATCH_NAME, false},
	{NULL, 0, false}};

#define OFF(field) offsetof(struct config, field)
#define MAX_COUNT 1e9           /* largest -w, -r, -m, -M */
#define MAX_SECONDS 1e7         /* largest --min-time, --max-time, --timeout */

#define EXPORT(id_, name, fmt, scope_, text) \
	{.id = id_, .long_name = name, .arity = ARG_ONE, .kind = KIND_EXPORT, \
	 .arg_name = "FILE", .completion = "file", .scope = scope_, \
	 .help = text, .aux = fmt}
#define CMD_LIST(id_, name, letter, field, text) \
	{.id = id_, .long_name = name, .short_name = letter, .arity = ARG_ONE, \
	 .kind = KIND_LIST, .arg_name = "CMD", .completion = "command", \
	 .scope = SCOPE_RUN, .help = text, .off = OFF(field)}

const struct cli_option cli_options[] = {
	{.id = OPT_WARMUP, .long_name = "warmup", .short_name = 'w',
	 .arity = ARG_ONE, .kind = KIND_COUNT, .arg_name = "NUM",
	 .scope = SCOPE_RUN, .min = 0, .max = MAX_COUNT, .def = 0,
	 .show_def = DEF_VALUE, .off = OFF(warmup),
	 .help = "Run each benchmark NUM times before measuring"},
	{.id = OPT_RUNS, .long_name = "runs", .short_name = 'r',
	 .arity = ARG_ONE, .kind = KIND_COUNT, .arg_name = "NUM",
	 .scope = SCOPE_RUN, .min = 1, .max = MAX_COUNT, .off = OFF(runs),
	 .given_off = OFF(runs_given),
	 .help = "Measure exactly NUM runs (conflicts with -m, -M, --max-time "
		 "and --precision)."},
	{.id = OPT_MIN_RUNS, .long_name = "min-runs", .short_name = 'm',
	 .arity = ARG_ONE, .kind = KIND_COUNT, .arg_name = "NUM",
	 .scope = SCOPE_RUN, .min = 1, .max = MAX_COUNT, .def = 10,
	 .show_def = DEF_VALUE, .off = OFF(min_runs),
	 .given_off = OFF(min_runs_given),
	 .help = "Measure at least NUM runs"},
	{.id = OPT_MAX_RUNS, .long_name = "max-runs", .short_name = 'M',
	 .arity = ARG_ONE, .kind = KIND_COUNT, .arg_name = "NUM",
	 .scope = SCOPE_RUN, .min = 1, .max = MAX_COUNT,
	 .show_def = DEF_TEXT, .def_text = "no limit", .off = OFF(max_runs),
	 .given_off = OFF(max_runs_given),
	 .help = "Measure at most NUM runs"},
	{.id = OPT_MIN_TIME, .long_name = "min-time", .arity = ARG_ONE,
	 .kind = KIND_SECONDS, .arg_name = "SECONDS", .scope = SCOPE_RUN,
	 .min = 0, .max = MAX_SECONDS, .def = 3, .show_def = DEF_VALUE,
	 .off = OFF(min_time_s), .given_off = OFF(min_time_given),
	 .help = "Without -r, keep running until the runs have cost SECONDS of "
		 "wall-clock time (prepare, run with its start-up, conclude)"},
	{.id = OPT_MAX_TIME, .long_name = "max-time", .arity = ARG_ONE,
	 .kind = KIND_SECONDS, .arg_name = "SECONDS", .scope = SCOPE_RUN,
	 .min = 0, .max = MAX_SECONDS, .open = true, .show_def = DEF_TEXT,
	 .def_text = "none", .off = OFF(max_time_s),
	 .help = "Stop a benchmark once its runs have cost SECONDS of "
		 "wall-clock time"},
	{.id = OPT_PARAM_SCAN, .long_name = "parameter-scan", .many = true, .short_name = 'P',
	 .arity = ARG_THREE, .kind = KIND_SPECIAL, .arg_name = "NAME MIN MAX",
	 .scope = SCOPE_RUN, .handler = do_param,
	 .help = "Benchmark for each value NAME from MIN to MAX; {NAME} in "
		 "commands is replaced. Repeatable."},
	{.id = OPT_PARAM_STEP, .long_name = "parameter-step-size", .many = true,
	 .short_name = 'D', .arity = ARG_ONE, .kind = KIND_SPECIAL,
	 .arg_name = "STEP", .scope = SCOPE_RUN, .show_def = DEF_TEXT,
	 .def_text = "1; decimals allowed", .handler = do_step,
	 .help = "Step of the preceding -P"},
	{.id = OPT_PARAM_LIST, .long_name = "parameter-list", .many = true, .short_name = 'L',
	 .arity = ARG_TWO, .kind = KIND_SPECIAL, .arg_name = "NAME VALUES",
	 .scope = SCOPE_RUN, .handler = do_param,
	 .help = "Benchmark for each of the comma-separated VALUES (\\, escapes "
		 "a comma). Repeatable; combines with -P as a Cartesian product."},
	CMD_LIST(OPT_SETUP, "setup", 's', setup,
		 "Run CMD once before each benchmark (once, or once per command)."),
	CMD_LIST(OPT_PREPARE, "prepare", 'p', prepare,
		 "Run CMD before every run, warmups included (unmeasured)."),
	CMD_LIST(OPT_CONCLUDE, "conclude", 'C', conclude,
		 "Run CMD after every run (unmeasured)."),
	CMD_LIST(OPT_CLEANUP, "cleanup", 'c', cleanup,
		 "Run CMD once after each benchmark."),
	{.id = OPT_SHELL, .long_name = "shell", .short_name = 'S',
	 .arity = ARG_ONE, .kind = KIND_SPECIAL, .arg_name = "SHELL",
	 .completion = "command", .scope = SCOPE_RUN, .show_def = DEF_TEXT,
	 .def_text = "a shell only for lines with shell syntax",
	 .handler = do_shell,
	 .help = "Run every command with SHELL -c; SHELL may have arguments "
		 "('bash --norc'), 'default' is sh, 'none' runs commands "
		 "directly"},
	{.id = OPT_NO_SHELL, .long_name = "no-shell", .short_name = 'N',
	 .arity = ARG_NONE, .kind = KIND_SPECIAL, .scope = SCOPE_RUN,
	 .handler = do_no_shell,
	 .help = "Same as --shell=none: split commands into words and exec them."},
	{.id = OPT_IGNORE_FAILURE, .long_name = "ignore-failure",
	 .short_name = 'i', .arity = ARG_OPTIONAL, .kind = KIND_SPECIAL,
	 .arg_name = "CODES", .scope = SCOPE_RUN, .min = 1, .max = 255,
	 .handler = do_ignore,
	 .help = "Keep going when a command fails; with =CODES (comma list) "
		 "only for those exit codes; =all-non-zero is the bare -i."},
	{.id = OPT_TIMEOUT, .long_name = "timeout", .arity = ARG_ONE,
	 .kind = KIND_SECONDS, .arg_name = "SECONDS", .scope = SCOPE_RUN,
	 .min = 0, .max = MAX_SECONDS, .open = true, .show_def = DEF_TEXT,
	 .def_text = "none", .off = OFF(timeout_s),
	 .help = "Kill a run (its whole process group) after SECONDS"},
	{.id = OPT_COMMAND_NAME, .long_name = "command-name", .short_name = 'n',
	 .arity = ARG_ONE, .kind = KIND_LIST, .arg_name = "NAME",
	 .scope = SCOPE_RUN, .off = OFF(names),
	 .help = "Display name of a command: names go to the commands in "
		 "order, wherever -n stands (the first -n names the first "
		 "command; never the --reference, which --reference-name "
		 "names); at most one per command."},
	{.id = OPT_REFERENCE, .long_name = "reference", .arity = ARG_ONE,
	 .kind = KIND_COMMAND, .arg_name = "CMD", .completion = "command",
	 .scope = SCOPE_RUN, .off = OFF(reference),
	 .help = "Benchmark CMD first and compare every other command with it."},
	{.id = OPT_ORDER, .long_name = "order", .arity = ARG_ONE,
	 .kind = KIND_ENUM, .arg_name = "ORDER", .values = order_values,
	 .scope = SCOPE_RUN, .def = ORDER_INTERLEAVED, .show_def = DEF_VALUE,
	 .off = OFF(order),
	 .help = "Run order across benchmarks: sequential (all runs of one, "
		 "then the next), interleaved (one run of each in turn, every "
		 "other round in reverse, so a change in the machine's speed "
		 "affects every command alike) or shuffled (rounds in a random "
		 "order)"},
	{.id = OPT_SEED, .long_name = "seed", .arity = ARG_ONE,
	 .kind = KIND_UINT, .arg_name = "NUM", .scope = SCOPE_BOTH,
	 .show_def = DEF_TEXT,
	 .def_text = "for --order=shuffled from the clock, printed; for the "
		     "bootstrap 0",
	 .off = OFF(seed), .given_off = OFF(seed_given),
	 .help = "Seed for --order=shuffled and for the bootstrap intervals "
		 "(recorded in the JSON)"},
	{.id = OPT_SORT, .long_name = "sort", .arity = ARG_ONE,
	 .kind = KIND_ENUM, .arg_name = "HOW", .values = sort_values,
	 .scope = SCOPE_RUN, .def = SORT_AUTO, .show_def = DEF_VALUE,
	 .off = OFF(sort), .help = "Order of the summary and tables"},
	{.id = OPT_INPUT, .long_name = "input", .arity = ARG_ONE,
	 .kind = KIND_FILE, .arg_name = "FILE", .completion = "file",
	 .scope = SCOPE_RUN, .show_def = DEF_TEXT, .def_text = "/dev/null",
	 .off = OFF(input), .help = "Feed FILE to the command's stdin; null "
				    "(hyperfine's keyword) is /dev/null, ./null "
				    "a file named null"},
	{.id = OPT_OUTPUT, .long_name = "output", .many = true, .arity = ARG_ONE,
	 .kind = KIND_SPECIAL, .arg_name = "WHERE", .values = output_values,
	 .completion = "file", .scope = SCOPE_RUN, .show_def = DEF_TEXT,
	 .def_text = "null", .handler = do_output,
	 .help = "Command output: null, pipe (read and discarded), inherit "
		 "(or -: cbench's stdout and stderr), or a FILE; once or once "
		 "per command"},
	{.id = OPT_SHOW_OUTPUT, .long_name = "show-output", .arity = ARG_NONE,
	 .kind = KIND_FLAG, .scope = SCOPE_RUN, .off = OFF(show_output),
	 .help = "Same as --output=inherit."},
	{.id = OPT_STYLE, .long_name = "style", .arity = ARG_ONE,
	 .kind = KIND_ENUM, .arg_name = "STYLE", .values = style_values,
	 .scope = SCOPE_BOTH, .def = STYLE_AUTO, .show_def = DEF_VALUE_TEXT,
	 .def_text = ": on a terminal, colour unless NO_COLOR is set or TERM "
		     "is dumb, and a progress bar unless the command's output "
		     "is shown",
	 .off = OFF(style), .help = "Terminal output style"},
	{.id = OPT_TIME_UNIT, .long_name = "time-unit", .short_name = 'u',
	 .arity = ARG_ONE, .kind = KIND_ENUM, .arg_name = "UNIT",
	 .values = unit_values, .scope = SCOPE_BOTH, .def = UNIT_AUTO,
	 .show_def = DEF_TEXT, .def_text = "chosen from the values",
	 .off = OFF(time_unit), .help = "Unit for times"},
	/* help and def_text are completed with counters.c's event names. */
	{.id = OPT_COUNTERS, .long_name = "counters", .arity = ARG_ONE,
	 .kind = KIND_SPECIAL, .arg_name = "LIST", .completion = "counter",
	 .scope = SCOPE_RUN, .show_def = DEF_TEXT,
	 .def_text = "what the machine can count of ",
	 .off = OFF(counters), .handler = do_counters,
	 .help = "Counters to measure: a comma list of "},
	{.id = OPT_CONFIDENCE, .long_name = "confidence", .arity = ARG_ONE,
	 .kind = KIND_PERCENT, .arg_name = "PCT", .scope = SCOPE_BOTH,
	 .min = 0.5, .max = 1, .open = true, .def = 0.95,
	 .show_def = DEF_VALUE, .off = OFF(confidence),
	 .help = "Confidence level of intervals and tests"},
	{.id = OPT_PRECISION, .long_name = "precision", .arity = ARG_ONE,
	 .kind = KIND_PERCENT, .arg_name = "PCT", .scope = SCOPE_RUN,
	 .min = 0, .max = 1, .open = true, .off = OFF(precision),
	 .help = "Run until the mean's confidence interval is within PCT % of "
		 "the mean (or --max-runs / --max-time; without either, a "
		 "default cap of 60 s of wall-clock time per benchmark)."},
	EXPORT(OPT_EXPORT_JSON, "export-json", EXPORT_JSON, SCOPE_RUN,
	       "Write all results as JSON (- for stdout)."),
	EXPORT(OPT_EXPORT_MARKDOWN, "export-markdown", EXPORT_MARKDOWN,
	       SCOPE_BOTH, "Write a Markdown table (- for stdout); in 'cbench "
	       "compare', the pull-request report."),
	EXPORT(OPT_EXPORT_ASCIIDOC, "export-asciidoc", EXPORT_ASCIIDOC,
	       SCOPE_RUN, "Write an AsciiDoc table (- for stdout)."),
	EXPORT(OPT_EXPORT_ORGMODE, "export-orgmode", EXPORT_ORGMODE, SCOPE_RUN,
	       "Write an Org-mode table (- for stdout)."),
	EXPORT(OPT_EXPORT_CSV, "export-csv", EXPORT_CSV, SCOPE_RUN,
	       "Write summary statistics as CSV, one row per benchmark."),
	EXPORT(OPT_EXPORT_CSV_RUNS, "export-csv-runs", EXPORT_CSV_RUNS,
	       SCOPE_RUN, "Write every run as CSV, one row per run and every "
	       "metric."),
	{.id = OPT_BASELINE, .long_name = "baseline", .arity = ARG_ONE,
	 .kind = KIND_FILE, .arg_name = "FILE", .completion = "file",
	 .scope = SCOPE_RUN, .off = OFF(baseline),
	 .help = "After benchmarking, compare with the saved results in FILE "
		 "and gate."},
	EXPORT(OPT_SAVE_BASELINE, "save-baseline", EXPORT_JSON, SCOPE_RUN,
	       "Save results as a baseline (same as --export-json FILE)."),
	{.id = OPT_FAIL_IF_SLOWER, .long_name = "fail-if-slower",
	 .arity = ARG_ONE, .kind = KIND_PERCENT, .arg_name = "PCT",
	 .scope = SCOPE_BOTH, .min = 0, .max = 10, .def = 0.05,
	 .show_def = DEF_VALUE, .off = OFF(fail_if_slower),
	 .given_off = OFF(fail_if_slower_given),
	 .help = "Regression threshold for gates: --baseline FILE, or without "
		 "one the other commands against --reference CMD, measured "
		 "in the same invocation; METRIC=PCT,... gives each gate "
		 "metric its own (and gates on those named, without "
		 "--gate-metric)"},
	{.id = OPT_GATE_METRIC, .long_name = "gate-metric", .arity = ARG_ONE,
	 .kind = KIND_CHOICE, .arg_name = "METRIC", .values = metric_values,
	 .scope = SCOPE_BOTH, .show_def = DEF_TEXT,
	 .def_text = "sim_instructions, else instructions, when both sides have them; else task_clock (at its 10th percentile) for CPU-bound commands; else wall_time",
	 .off = OFF(gate_metric), .help = "Metric the gate decides on (with "
	 "--baseline, or --reference and --fail-if-slower); a comma list "
	 "gates on each, and any regression fails"},
	{.id = OPT_REQUIRE_ALL, .long_name = "require-all", .arity = ARG_NONE,
	 .kind = KIND_FLAG, .scope = SCOPE_BOTH, .off = OFF(require_all),
	 .help = "Fail (exit 2) when a benchmark is missing from either side."},
	{.id = OPT_REQUIRE_RESOLUTION, .long_name = "require-resolution",
	 .arity = ARG_NONE, .kind = KIND_FLAG, .scope = SCOPE_BOTH,
	 .off = OFF(require_resolution),
	 .help = "Fail (exit 4) when the gate passes a benchmark it could not "
		 "resolve: its confidence interval too wide to see a regression "
		 "of the threshold, or reaching past it."},
	{.id = OPT_MATCH_BY, .long_name = "match-by", .arity = ARG_ONE,
	 .kind = KIND_ENUM, .arg_name = "KEY", .values = match_values,
	 .scope = SCOPE_BOTH, .def = MATCH_COMMAND, .show_def = DEF_VALUE,
	 .off = OFF(match_by),
	 .help = "Match benchmarks by command line and parameters, or by "
		 "display name"},
	{.id = OPT_HELP, .long_name = "help", .short_name = 'h',
	 .arity = ARG_NONE, .kind = KIND_SPECIAL, .scope = SCOPE_BOTH,
	 .handler = do_help, .help = "Print this help and exit."},
	{.id = OPT_VERSION, .long_name = "version", .short_name = 'V',
	 .arity = ARG_NONE, .kind = KIND_SPECIAL, .scope = SCOPE_BOTH,
	 .handler = do_version, .help = "Print the version and exit."},
	{.id = OPT_PIN, .long_name = "pin", .arity = ARG_ONE,
	 .kind = KIND_SPECIAL, .arg_name = "CPUS", .scope = SCOPE_RUN,
	 .show_def = DEF_TEXT, .def_text = "where cbench may run",
	 .off = OFF(pin), .handler = do_cpus,
	 .help = "Run the command (and its hooks, see --pin-hooks) on these "
		 "CPUs: a list like 2 or 2-3,6, every CPU online"},
	{.id = OPT_PIN_HOOKS, .long_name = "pin-hooks", .arity = ARG_ONE,
	 .kind = KIND_SPECIAL, .arg_name = "CPUS", .scope = SCOPE_RUN,
	 .show_def = DEF_TEXT, .def_text = "the --pin CPUS",
	 .off = OFF(pin_hooks), .handler = do_cpus,
	 .help = "Run --setup, --prepare, --conclude and --cleanup on these "
		 "CPUs, or 'none' to leave them where cbench may run"},
	{.id = OPT_PIN_SELF, .long_name = "pin-self", .arity = ARG_ONE,
	 .kind = KIND_SPECIAL, .arg_name = "CPUS", .scope = SCOPE_RUN,
	 .show_def = DEF_TEXT, .def_text = "not pinned",
	 .off = OFF(pin_self), .handler = do_cpus,
	 .help = "Run cbench itself on these CPUs (the commands keep the CPUs "
		 "they had unless --pin says otherwise)"},
	{.id = OPT_ASLR, .long_name = "aslr", .arity = ARG_ONE,
	 .kind = KIND_ENUM, .arg_name = "MODE", .values = aslr_values,
	 .scope = SCOPE_RUN, .def = ASLR_SYSTEM, .show_def = DEF_TEXT,
	 .def_text = "as the system has it", .off = OFF(aslr),
	 .help = "Address-space layout randomisation of the command: off "
		 "gives the same addresses in every run (repeatable counts), on "
		 "randomises them"},
	{.id = OPT_RANDOMIZE_LAYOUT, .long_name = "randomize-layout",
	 .arity = ARG_NONE, .kind = KIND_FLAG, .scope = SCOPE_RUN,
	 .off = OFF(randomize_layout),
	 .help = "Pad the command's environment by a random 0-4095 bytes per "
		 "run (HYPERFINE_RANDOMIZED_ENVIRONMENT_OFFSET, seeded by --seed, "
		 "recorded per run), so no result rests on one stack alignment"},
	{.id = OPT_PROFILE, .long_name = "profile", .arity = ARG_ONE,
	 .kind = KIND_FILE, .arg_name = "DIR", .completion = "file",
	 .scope = SCOPE_RUN, .off = OFF(profile),
	 .help = "Profile each benchmark once more under Valgrind's callgrind "
		 "(implies --counters sim): per-function instructions, where a "
		 "comparison's difference is, and callgrind's files kept in DIR "
		 "(made; it must not exist or be empty) for KCachegrind"},
	{.id = OPT_REFERENCE_NAME, .long_name = "reference-name",
	 .arity = ARG_ONE, .kind = KIND_SPECIAL, .arg_name = "NAME",
	 .scope = SCOPE_RUN, .handler = do_reference_name,
	 .help = "Display name of the --reference command (hyperfine 1.20's "
		 "option; -n names only the other commands)."},
	/* hyperfine's hidden name of --min-time: listed here, since --help
	 * lists every hyperfine option cbench accepts. */
	{.id = OPT_MIN_BENCH_TIME, .long_name = "min-benchmarking-time",
	 .arity = ARG_ONE, .kind = KIND_SECONDS, .arg_name = "SECONDS",
	 .scope = SCOPE_RUN, .min = 0, .max = MAX_SECONDS, .def = 3,
	 .off = OFF(min_time_s), .given_off = OFF(min_time_given),
	 .help = "Same as --min-time (hyperfine's hidden name for it)."},
	{.id = OPT_QUIET, .long_name = "quiet", .arity = ARG_NONE,
	 .kind = KIND_FLAG, .scope = SCOPE_BOTH, .off = OFF(quiet),
	 .help = "No notes on stderr (warnings and errors still show)."},
	{.id = OPT_VERBOSE, .short_name = 'v', .long_name = "verbose",
	 .arity = ARG_NONE, .kind = KIND_FLAG, .scope = SCOPE_BOTH,
	 .off = OFF(verbose),
	 .help = "Every statistic (the median, outliers, each counter with its "
		 "spread, every counter's comparison) and each warning's full "
		 "explanation; by default hyperfine's lines, one line of what "
		 "cbench adds and one short line per warning."},
	{.id = OPT_HISTORY, .long_name = "history", .arity = ARG_ONE,
	 .kind = KIND_FILE, .arg_name = "TARGET", .completion = "file",
	 .scope = SCOPE_RUN, .show_def = DEF_TEXT, .def_text = "$CBENCH_HISTORY",
	 .off = OFF(history),
	 .help = "Record this invocation in the results history TARGET: an "
		 "SQLite file (created if missing) or a postgresql:// URL"},
	{.id = OPT_HISTORY_LABEL, .long_name = "history-label", .arity = ARG_ONE,
	 .kind = KIND_LIST, .arg_name = "KEY=VALUE", .scope = SCOPE_RUN,
	 .off = OFF(history_labels),
	 .help = "Record KEY=VALUE with the invocation (commit=, branch= and "
		 "dirty= override the git state). Repeatable."},
	{.id = OPT_BASELINE_HISTORY, .long_name = "baseline-history",
	 .arity = ARG_NONE, .kind = KIND_FLAG, .scope = SCOPE_RUN,
	 .off = OFF(baseline_history),
	 .help = "Gate against the recent history of each benchmark on this "
		 "machine, using the variation between invocations."},
	{.id = OPT_HISTORY_WINDOW, .long_name = "history-window",
	 .arity = ARG_ONE, .kind = KIND_COUNT, .arg_name = "NUM",
	 .scope = SCOPE_RUN, .min = 2, .max = 100000, .def = 10,
	 .show_def = DEF_VALUE, .off = OFF(history_window),
	 .given_off = OFF(history_window_given),
	 .help = "With --baseline-history, the newest NUM invocations"},
	{.id = OPT_HISTORY_BRANCH, .long_name = "history-branch",
	 .arity = ARG_ONE, .kind = KIND_FILE, .arg_name = "BRANCH",
	 .scope = SCOPE_RUN, .show_def = DEF_TEXT, .def_text = "any branch",
	 .off = OFF(history_branch),
	 .help = "With --baseline-history, only invocations of BRANCH (the "
		 "base branch)"},
	EXPORT(OPT_EXPORT_HTML, "export-html", EXPORT_HTML, SCOPE_RUN,
	       "Write a self-contained HTML report with plots (- for stdout)."),
	{.id = OPT_KEEP_BACKGROUND, .long_name = "keep-background",
	 .arity = ARG_NONE, .kind = KIND_FLAG, .scope = SCOPE_RUN,
	 .off = OFF(keep_background),
	 .help = "Leave running what a run (the command, --prepare, --conclude, "
		 "--cleanup) started in the background; by default its process "
		 "group is killed when it ends (--setup's is always kept)."},
	EXPORT(OPT_EXPORT_BMF, "export-bmf", EXPORT_BMF, SCOPE_RUN,
	       "Write the means and confidence intervals of the gate's metrics "
	       "(or --export-metrics) in Bencher Metric Format (bencher run "
	       "--adapter json)."),
	EXPORT(OPT_EXPORT_GITHUB_BENCHMARK, "export-github-benchmark",
	       EXPORT_GITHUB_BENCHMARK, SCOPE_RUN,
	       "Write the means of the gate's metrics (or --export-metrics) as "
	       "github-action-benchmark's customSmallerIsBetter input."),
	{.id = OPT_FAIL_IF_SLOWER_FOR, .long_name = "fail-if-slower-for", .many = true,
	 .arity = ARG_TWO, .kind = KIND_SPECIAL, .arg_name = "NAME SPEC",
	 .scope = SCOPE_BOTH, .handler = do_fail_for,
	 .help = "The threshold for one benchmark (its display name or "
		 "command line): SPEC as for --fail-if-slower (PCT, or "
		 "METRIC=PCT,...); repeatable."},
	EXPORT(OPT_EXPORT_JUNIT, "export-junit", EXPORT_JUNIT, SCOPE_BOTH,
	       "Write the gate's verdicts as JUnit XML, a regression as a "
	       "failing test case (with --baseline, --reference and "
	       "--fail-if-slower, or in 'cbench compare')."),
	{.id = OPT_METRIC, .long_name = "metric", .arity = ARG_ONE,
	 .kind = KIND_LIST, .arg_name = "NAME=REGEX", .scope = SCOPE_RUN,
	 .off = OFF(metrics),
	 .help = "Also measure NAME, a number read from each run's output "
		 "(stdout and stderr): the first line matching the Perl-compatible "
		 "regular expression REGEX (PCRE2), its first group if it has one. "
		 "Append ,unit=UNIT and ,higher-is-better as needed. "
		 "Repeatable (up to 8)."},
	EXPORT(OPT_EXPORT_GITHUB_BENCHMARK_BIGGER, "export-github-benchmark-bigger",
	       EXPORT_GITHUB_BENCHMARK_BIGGER, SCOPE_RUN,
	       "Write the means of the --metric metrics where higher is better "
	       "as github-action-benchmark's customBiggerIsBetter input."),
	{.id = OPT_EXPORT_METRICS, .long_name = "export-metrics", .arity = ARG_ONE,
	 .kind = KIND_CHOICE, .arg_name = "LIST", .values = export_metric_values,
	 .scope = SCOPE_RUN, .show_def = DEF_TEXT,
	 .def_text = "those a gate decides on, as measured: wall_time, "
		     "instructions, sim_instructions, task_clock for a CPU-bound "
		     "command; and the --metric ones",
	 .off = OFF(export_metrics),
	 .help = "The metrics the CI exports (--export-bmf, "
		 "--export-github-benchmark and its -bigger) carry: a comma list"},
};
const size_t cli_n_options = sizeof cli_options / sizeof cli_options[0];

const struct cli_option *cli_option(enum opt_id id)
{
	for (size_t i = 0; i < cli_n_options; i++)
		if (cli_options[i].id == id)
			return &cli_options[i];
	return NULL;
}

/* ---- value parsing ---- */

int cli_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	errno = 0;
	/* strtol skips leading white space; trailing white space is an
	 * error: neither is accepted (a sign is). */
	if (isspace((unsigned char)s[0]))
		return -1;
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
	if (isspace((unsigned char)s[0]))
		return -1;
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

/* ---- value sets ---- */

/* The word of the set, aliases included, or NULL. */
static const struct cli_value *set_lookup(const struct cli_value *set,
					  const char *word)
{
	for (; set->name; set++)
		if (strcmp(set->name, word) == 0)
			return set;
	return NULL;
}

/* Up to this many choices read "a, b or c"; more, "one of a, b, c". */
#define SET_OR_MAX 6

/* The set's words for a message: "a, b or c", with extra ("a file") as
 * the last choice if not NULL; "one of a, b, c" when there are many. */
static void set_text(const struct cli_value *set, const char *extra,
		     char *buf, size_t n)
{
	const char *w[32];
	size_t count = 0, len = 0;
	for (; set->name && count < 31; set++)
		if (!set->alias)
			w[count++] = set->name;
	if (extra)
		w[count++] = extra;
	buf[0] = '\0';
	if (count > SET_OR_MAX)
		len = (size_t)snprintf(buf, n, "one of ");
	for (size_t k = 0; k < count && len < n; k++) {
		const char *sep = k == 0 ? "" : k + 1 < count || count > SET_OR_MAX
				  ? ", " : " or ";
		len += (size_t)snprintf(buf + len, n - len, "%s%s", sep, w[k]);
	}
}

/* The set's words as "a|b|c" (no aliases). */
static void set_bars(const struct cli_value *set, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (; set->name; set++)
		if (!set->alias && len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s",
						len ? "|" : "", set->name);
}

/* counters.c's event names, joined by sep; only the default set if
 * only_default. */
static void counter_names(bool only_default, const char *sep, char *buf,
			  size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (int id = 0; id < CTR_MAX; id++) {
		const struct counter_info *ci = counters_info((enum counter_id)id);
		if ((!only_default || ci->is_default) && len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s",
						len ? sep : "", ci->name);
	}
}

/* ---- parser ---- */

struct cli_state {
	struct config *cfg;
	bool step_pending;       /* a -D seen before any -P */
	const char *pending_step;
	bool shell_given, no_shell_given;
	/* Each setting's first option and value (NULL for a flag), by the
	 * id of the first table entry with its target, once given. */
	const struct cli_option *first_opt[OPT__COUNT];
	const char *first[OPT__COUNT];
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

static int bad_value(const struct cli_option *o, const char *v, const char *what)
{
	/* Control characters shown escaped: a newline in the value must not
	 * start a line of its own (a "::error" workflow command in CI). */
	char shown[512];
	size_t k = 0;
	for (const unsigned char *c = (const unsigned char *)v;
	     *c && k + 5 < sizeof shown; c++) {
		if (*c == '\n')
			k += (size_t)snprintf(shown + k, sizeof shown - k, "\\n");
		else if (*c < 0x20 || *c == 0x7f)
			k += (size_t)snprintf(shown + k, sizeof shown - k, "\\x%02x", *c);
		else
			shown[k++] = (char)*c;
	}
	shown[k] = '\0';
	diag_usage("invalid value '%s' for --%s: %s", shown, o->long_name, what);
	return -1;
}

/* Where the option's value goes in the config. */
static void *target(struct cli_state *st, const struct cli_option *o)
{
	return (char *)st->cfg + o->off;
}

/* ---- one handler per kind ---- */

static int kind_flag(struct cli_state *st, const struct cli_option *o,
		     const char *const *a, int *exit_code)
{
	(void)a, (void)exit_code;
	*(bool *)target(st, o) = true;
	return 0;
}

static int kind_count(struct cli_state *st, const struct cli_option *o,
		      const char *const *a, int *exit_code)
{
	(void)exit_code;
	char what[64];
	if (cli_parse_long(a[0], (long)o->min, (long)o->max, target(st, o)) == 0)
		return 0;
	if ((long)o->max < LONG_MAX)
		snprintf(what, sizeof what, "expected a whole number from %ld to %ld",
			 (long)o->min, (long)o->max);
	else
		snprintf(what, sizeof what, "expected a whole number >= %ld",
			 (long)o->min);
	return bad_value(o, a[0], what);
}

static int kind_uint(struct cli_state *st, const struct cli_option *o,
		     const char *const *a, int *exit_code)
{
	(void)exit_code;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(a[0], &end, 10);
	if (a[0][0] == '\0' || a[0][0] == '-' || *end || errno)
		return bad_value(o, a[0], "expected a whole number >= 0");
	*(uint64_t *)target(st, o) = v;
	return 0;
}

static int kind_seconds(struct cli_state *st, const struct cli_option *o,
			const char *const *a, int *exit_code)
{
	(void)exit_code;
	double d;
	char what[64];
	if (cli_parse_double(a[0], o->min, o->max, &d) == 0 &&
	    !(o->open && d <= o->min)) {
		*(double *)target(st, o) = d;
		return 0;
	}
	snprintf(what, sizeof what, "expected seconds %s %g", o->open ? ">" : ">=",
		 o->min);
	return bad_value(o, a[0], what);
}

/* ---- gate thresholds and metric lists ---- */

#define CLI_MAX_GATE_METRICS 32

/* A built-in metric's key, or a name a --metric could define (checked
 * against the definitions in validate, or in compare mode against the
 * files' once they are read). */
static bool metric_word_ok(const char *w)
{
	return set_lookup(metric_values, w) != NULL || metric_name_valid(w);
}

int cli_parse_metric_list(const char *list, char names[][32], size_t max,
			  char *err, size_t errlen)
{
	size_t n = 0;
	const char *p = list;
	for (;;) {
		size_t len = strcspn(p, ",");
		char word[32];
		if (len == 0 || len >= sizeof word) {
			snprintf(err, errlen, "expected a comma list of metrics");
			return -1;
		}
		memcpy(word, p, len);
		word[len] = '\0';
		if (!metric_word_ok(word)) {
			char set[DIAG_MSG_MAX];
			set_text(metric_values, NULL, set, sizeof set);
			snprintf(err, errlen, "unknown metric '%s' (expected %s)",
				 word, set);
			return -1;
		}
		for (size_t k = 0; k < n; k++)
			if (strcmp(names[k], word) == 0) {
				snprintf(err, errlen, "metric '%s' given twice", word);
				return -1;
			}
		if (n == max) {
			snprintf(err, errlen, "too many metrics");
			return -1;
		}
		memcpy(names[n++], word, len + 1);
		if (p[len] == '\0')
			return (int)n;
		p += len + 1;
	}
}

int cli_parse_thresholds(const char *spec, struct cli_threshold *out,
			 size_t max, char *err, size_t errlen)
{
	const struct cli_option *o = cli_option(OPT_FAIL_IF_SLOWER);
	size_t n = 0;
	const char *p = spec;
	for (;;) {
		size_t len = strcspn(p, ",");
		char item[96];
		if (len == 0 || len >= sizeof item || n == max) {
			snprintf(err, errlen, "expected PCT or METRIC=PCT, comma-separated");
			return -1;
		}
		memcpy(item, p, len);
		item[len] = '\0';
		struct cli_threshold t = {"", 0};
		char *eq = strchr(item, '=');
		const char *pct = item;
		if (eq) {
			*eq = '\0';
			pct = eq + 1;
			if (!metric_word_ok(item) || strlen(item) >= sizeof t.metric) {
				snprintf(err, errlen, "unknown metric '%s'", item);
				return -1;
			}
			snprintf(t.metric, sizeof t.metric, "%s", item);
		}
		if (cli_parse_percent(pct, &t.fraction) != 0 ||
		    t.fraction < o->min || t.fraction > o->max) {
			snprintf(err, errlen, "expected a percentage from %g to %g "
				 "in '%s'", o->min * 100, o->max * 100, pct);
			return -1;
		}
		for (size_t k = 0; k < n; k++)
			if (strcmp(out[k].metric, t.metric) == 0) {
				snprintf(err, errlen, "%s given twice",
					 t.metric[0] ? t.metric : "a threshold for "
					 "every metric");
				return -1;
			}
		out[n++] = t;
		if (p[len] == '\0')
			return (int)n;
		p += len + 1;
	}
}

/* --fail-if-slower METRIC=PCT,...: checked, kept as text (the bare PCT,
 * if any, is the default threshold). */
static int threshold_spec(struct cli_state *st, const struct cli_option *o,
			  const char *v)
{
	struct cli_threshold t[CLI_MAX_GATE_METRICS + 1];
	char err[DIAG_MSG_MAX];
	int n = cli_parse_thresholds(v, t, CLI_MAX_GATE_METRICS + 1, err, sizeof err);
	if (n < 0)
		return bad_value(o, v, err);
	for (int k = 0; k < n; k++)
		if (t[k].metric[0] == '\0')
			st->cfg->fail_if_slower = t[k].fraction;
	st->cfg->fail_if_slower_spec = v;
	return 0;
}

/* --fail-if-slower-for NAME SPEC: a threshold for one benchmark. */
static int do_fail_for(struct cli_state *st, const struct cli_option *o,
		       const char *const *a, int *exit_code)
{
	(void)exit_code;
	struct cli_threshold t[CLI_MAX_GATE_METRICS + 1];
	char err[DIAG_MSG_MAX];
	if (a[0][0] == '\0')
		return bad_value(o, a[0], "expected a benchmark's name or command");
	if (cli_parse_thresholds(a[1], t, CLI_MAX_GATE_METRICS + 1, err,
				 sizeof err) < 0)
		return bad_value(o, a[1], err);
	strlist_push(&st->cfg->fail_for_names, a[0]);
	strlist_push(&st->cfg->fail_for_specs, a[1]);
	return 0;
}

static int kind_percent(struct cli_state *st, const struct cli_option *o,
			const char *const *a, int *exit_code)
{
	(void)exit_code;
	double d;
	char what[80];
	if (o->id == OPT_FAIL_IF_SLOWER && strpbrk(a[0], "=,"))
		return threshold_spec(st, o, a[0]);
	if (cli_parse_percent(a[0], &d) == 0 &&
	    (o->open ? d > o->min && d < o->max : d >= o->min && d <= o->max)) {
		*(double *)target(st, o) = d;
		return 0;
	}
	snprintf(what, sizeof what, o->open ? "expected a percentage above %g and "
		 "below %g" : "expected a percentage from %g to %g",
		 o->min * 100, o->max * 100);
	return bad_value(o, a[0], what);
}

/* ENUM stores the word's value, CHOICE the word itself. */
static int kind_set(struct cli_state *st, const struct cli_option *o,
		    const char *const *a, int *exit_code)
{
	(void)exit_code;
	if ((o->id == OPT_GATE_METRIC || o->id == OPT_EXPORT_METRICS) &&
	    (strchr(a[0], ',') || set_lookup(o->values, a[0]) == NULL)) {
		char names[CLI_MAX_GATE_METRICS][32], err[DIAG_MSG_MAX];
		if (cli_parse_metric_list(a[0], names, CLI_MAX_GATE_METRICS,
					  err, sizeof err) < 0)
			return bad_value(o, a[0], err);
		*(const char **)target(st, o) = a[0];
		return 0;
	}
	const struct cli_value *v = set_lookup(o->values, a[0]);
	char what[DIAG_MSG_MAX];
	if (v == NULL) {
		memcpy(what, "expected ", sizeof "expected ");
		set_text(o->values, NULL, what + strlen(what),
			 sizeof what - strlen(what));
		return bad_value(o, a[0], what);
	}
	if (o->kind == KIND_ENUM)
		*(int *)target(st, o) = v->value;
	else
		*(const char **)target(st, o) = a[0];
	return 0;
}

/* Empty, or white space only: a value with nothing in it (a command, a
 * name or a file of spaces is a mistake, refused as an empty one is). */
static bool blank(const char *s)
{
	return s[strspn(s, " \t\n\r\v\f")] == '\0';
}

/* FILE and COMMAND: any word that is not blank. */
static int kind_word(struct cli_state *st, const struct cli_option *o,
		     const char *const *a, int *exit_code)
{
	(void)exit_code;
	if (blank(a[0]))
		return bad_value(o, a[0], o->kind == KIND_FILE ? "expected a file"
				 : "expected a command");
	*(const char **)target(st, o) = a[0];
	return 0;
}

static int kind_list(struct cli_state *st, const struct cli_option *o,
		     const char *const *a, int *exit_code)
{
	(void)exit_code;
	const struct strlist *l = target(st, o);
	if (o->id == OPT_COMMAND_NAME) {
		if (blank(a[0]))
			return bad_value(o, a[0], "expected a name (an empty one "
					 "would show nothing)");
		for (const char *c = a[0]; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return bad_value(o, a[0], "a name cannot hold control "
						 "characters (a newline, a tab, an "
						 "escape)");
		for (size_t i = 0; i < l->n; i++)
			if (strcmp(l->v[i], a[0]) == 0)
				USAGE("--command-name '%s' given to two commands: a "
				      "name tells benchmarks apart", a[0]);
	} else if (blank(a[0])) {
		return bad_value(o, a[0], o->id == OPT_HISTORY_LABEL
				 ? "expected KEY=VALUE" : o->id == OPT_METRIC
				 ? "expected NAME=REGEX" : "expected a command");
	}
	strlist_push(target(st, o), a[0]);
	return 0;
}

static int kind_export(struct cli_state *st, const struct cli_option *o,
		       const char *const *a, int *exit_code)
{
	(void)exit_code;
	struct config *cfg = st->cfg;
	if (blank(a[0]))
		return bad_value(o, a[0], "expected a file name, or - for stdout");
	cfg->exports = xreallocarray(cfg->exports, cfg->n_exports + 1,
				     sizeof *cfg->exports);
	cfg->exports[cfg->n_exports++] = (struct export_req){
		(enum export_format)o->aux, a[0],
		o->id == OPT_SAVE_BASELINE ? "--save-baseline" : NULL};
	return 0;
}

static cli_handler *const kind_handlers[KIND__COUNT] = {
	[KIND_FLAG] = kind_flag, [KIND_COUNT] = kind_count,
	[KIND_UINT] = kind_uint, [KIND_SECONDS] = kind_seconds,
	[KIND_PERCENT] = kind_percent, [KIND_ENUM] = kind_set,
	[KIND_CHOICE] = kind_set, [KIND_FILE] = kind_word,
	[KIND_COMMAND] = kind_word, [KIND_LIST] = kind_list,
	[KIND_EXPORT] = kind_export,
};

/* ---- the options with a handler of their own ---- */

static int do_help(struct cli_state *st, const struct cli_option *o,
		   const char *const *a, int *exit_code)
{
	(void)o, (void)a;
	st->cfg->action = CLI_HELP;
	*exit_code = CBENCH_EXIT_OK;
	return 1;
}

static int do_version(struct cli_state *st, const struct cli_option *o,
		      const char *const *a, int *exit_code)
{
	(void)o, (void)a;
	st->cfg->action = CLI_VERSION;
	*exit_code = CBENCH_EXIT_OK;
	return 1;
}

/* -P NAME MIN MAX and -L NAME VALUES; a -D given before the -P is its step. */
static int do_param(struct cli_state *st, const struct cli_option *o,
		    const char *const *a, int *exit_code)
{
	(void)exit_code;
	struct config *cfg = st->cfg;
	cfg->params = xreallocarray(cfg->params, cfg->n_params + 1,
				    sizeof *cfg->params);
	struct param_spec *p = &cfg->params[cfg->n_params++];
	memset(p, 0, sizeof *p);
	p->name = a[0];
	if (o->id == OPT_PARAM_LIST) {
		p->list = a[1];
		return 0;
	}
	p->is_scan = true;
	p->min = a[1];
	p->max = a[2];
	if (st->step_pending) {
		p->step = st->pending_step;
		st->step_pending = false;
	}
	return 0;
}

/* -D STEP: the step of the last -P, or of the next one. */
static int do_step(struct cli_state *st, const struct cli_option *o,
		   const char *const *a, int *exit_code)
{
	(void)o, (void)exit_code;
	struct config *cfg = st->cfg;
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
	return 0;
}

static int do_no_shell(struct cli_state *st, const struct cli_option *o,
		       const char *const *a, int *exit_code)
{
	(void)o, (void)a, (void)exit_code;
	st->no_shell_given = true;
	st->cfg->shell_mode = SHELL_NONE;
	return 0;
}

/* -S SHELL: none, default (sh), or a program with arguments. */
static int do_shell(struct cli_state *st, const struct cli_option *o,
		    const char *const *a, int *exit_code)
{
	struct config *cfg = st->cfg;
	if (blank(a[0]))
		return bad_value(o, a[0], "expected a shell, or none");
	if (strcmp(a[0], "none") == 0)
		return do_no_shell(st, o, a, exit_code);
	st->shell_given = true;
	cfg->shell_mode = SHELL_FORCE;
	/* hyperfine's forms: "default" (sh), or a command line with
	 * arguments ("bash --norc"), split like a command. */
	char err[DIAG_MSG_MAX];
	char **w = cmdline_split(strcmp(a[0], "default") == 0 ? "sh" : a[0],
				 err, sizeof err);
	if (w == NULL)
		return bad_value(o, a[0], err);
	cfg->shell_words = w;
	cfg->shell = w[0];
	cfg->shell_args = (const char *const *)w + 1;
	return 0;
}

/* -i, or -i=CODES: exit codes in the entry's range, comma-separated. */
static int do_ignore(struct cli_state *st, const struct cli_option *o,
		     const char *const *a, int *exit_code)
{
	(void)exit_code;
	struct config *cfg = st->cfg;
	char what[64];
	long l;
	cfg->ignore_failure = true;
	/* hyperfine 1.20's spelling of the bare -i. */
	if (a[0] == NULL || strcmp(a[0], "all-non-zero") == 0)
		return 0;
	snprintf(what, sizeof what, "expected exit codes %g-%g, comma-separated",
		 o->min, o->max);
	/* strtok_r would skip the empty code in "1,,2". */
	char *copy = xstrdup(a[0]), *rest = copy;
	for (char *t = strsep(&rest, ","); t; t = strsep(&rest, ",")) {
		if (cli_parse_long(t, (long)o->min, (long)o->max, &l)) {
			free(copy);
			return bad_value(o, a[0], what);
		}
		cfg->ignore_codes = xreallocarray(cfg->ignore_codes,
						  cfg->n_ignore_codes + 1,
						  sizeof(int));
		cfg->ignore_codes[cfg->n_ignore_codes++] = (int)l;
	}
	free(copy);
	return 0;
}

/* --reference-name NAME: any non-empty name (needs --reference, checked
 * in validate). */
static int do_reference_name(struct cli_state *st, const struct cli_option *o,
			     const char *const *a, int *exit_code)
{
	(void)exit_code;
	if (blank(a[0]))
		return bad_value(o, a[0], "expected a name");
	st->cfg->reference_name = a[0];
	return 0;
}

/* --output WHERE: a word of the set or a file; "-" is cbench's own
 * stdout, as for the exports. */
static int do_output(struct cli_state *st, const struct cli_option *o,
		     const char *const *a, int *exit_code)
{
	(void)exit_code;
	char what[DIAG_MSG_MAX] = "expected ";
	if (blank(a[0])) {
		set_text(o->values, "a file", what + strlen(what),
			 sizeof what - strlen(what));
		return bad_value(o, a[0], what);
	}
	strlist_push(&st->cfg->outputs, strcmp(a[0], "-") == 0 ? "inherit" : a[0]);
	return 0;
}

/* --pin, --pin-hooks, --pin-self CPUS: a CPU list (cpulist.h); "none"
 * for --pin-hooks.  Whether each CPU is online is checked before the
 * first run (main.c). */
static int do_cpus(struct cli_state *st, const struct cli_option *o,
		   const char *const *a, int *exit_code)
{
	(void)exit_code;
	char why[DIAG_MSG_MAX];
	cpu_set_t set;
	if (!(o->id == OPT_PIN_HOOKS && strcmp(a[0], "none") == 0) &&
	    cpulist_parse(a[0], &set, why, sizeof why) != 0)
		return bad_value(o, a[0], why);
	*(const char **)target(st, o) = a[0];
	return 0;
}

/* --counters LIST: known names only (counters_lookup), checked here so a
 * typo is a usage error before anything starts; none/default alone. */
static int do_counters(struct cli_state *st, const struct cli_option *o,
		       const char *const *a, int *exit_code)
{
	(void)exit_code;
	const char *spec = a[0];
	*(const char **)target(st, o) = spec;
	if (strcmp(spec, "none") == 0 || strcmp(spec, "default") == 0 ||
	    strcmp(spec, "sim") == 0 || strcmp(spec, "sim-cache") == 0)
		return 0;
	char known[DIAG_MSG_MAX];
	char *copy = xstrdup(spec), *rest = copy;
	int rc = 0;
	for (char *t = strsep(&rest, ","); t && rc == 0; t = strsep(&rest, ",")) {
		if (t[0] == '\0') {
			diag_usage("--counters '%s': empty counter name", spec);
			rc = -1;
		} else if (strcmp(t, "none") == 0 || strcmp(t, "default") == 0 ||
			   strcmp(t, "sim") == 0 || strcmp(t, "sim-cache") == 0) {
			diag_usage("--counters '%s': '%s' cannot be combined with "
				   "counter names", spec, t);
			rc = -1;
		} else if (counters_lookup(t) < 0) {
			counter_names(false, ", ", known, sizeof known);
			diag_usage("unknown counter '%s' in --counters (known: %s; "
				   "or none, sim or sim-cache alone)", t, known);
			rc = -1;
		}
	}
	free(copy);
	return rc;   /* on an error cli_parse fails and the config is dropped */
}

/* The id of the first table entry that sets what o sets (an alias such
 * as --min-benchmarking-time for --min-time shares its target). */
static enum opt_id setting_of(const struct cli_option *o)
{
	if (o->kind == KIND_SPECIAL)
		return o->id;
	for (size_t i = 0; i < cli_n_options; i++)
		if (cli_options[i].kind == o->kind && cli_options[i].off == o->off)
			return cli_options[i].id;
	return o->id;
}

bool cli_option_many(const struct cli_option *o)
{
	return o->many || o->kind == KIND_LIST || o->kind == KIND_EXPORT;
}

/* Apply one option with its argument words a[0..]: the scope, then the
 * handler of its kind; returns 0, 1 (exit with *exit_code) or -1. */
static int apply(struct cli_state *st, const struct cli_option *o,
		 const char *const *a, int *exit_code)
{
	struct config *cfg = st->cfg;
	if (cfg->compare_mode && !(o->scope & SCOPE_COMPARE))
		USAGE("--%s cannot be used with 'cbench compare'", o->long_name);
	if (!cfg->compare_mode && o->scope == SCOPE_COMPARE)
		USAGE("--%s only applies to 'cbench compare'", o->long_name);
	/* Once each, unless the table says more: a second value must not
	 * win silently over the first. */
	const char *value = o->arity == ARG_NONE || a[0] == NULL ? NULL : a[0];
	if (!cli_option_many(o)) {
		enum opt_id k = setting_of(o);
		const struct cli_option *was = st->first_opt[k];
		const char *before = st->first[k];
		if (was && was != o)
			USAGE("--%s and --%s set the same thing: give one",
			      was->long_name, o->long_name);
		if (was && before && value)
			USAGE("--%s given twice ('%s' and '%s')", o->long_name,
			      before, value);
		if (was)
			USAGE("--%s given twice", o->long_name);
		st->first_opt[k] = o;
		st->first[k] = value;
	}
	cli_handler *h = o->kind == KIND_SPECIAL ? o->handler
			 : kind_handlers[o->kind];
	int r = h(st, o, a, exit_code);
	if (r == 0 && o->given_off)
		*(bool *)((char *)cfg + o->given_off) = true;
	return r;
}

/* The table's defaults, before any option. */
static void apply_defaults(struct config *cfg)
{
	for (size_t i = 0; i < cli_n_options; i++) {
		const struct cli_option *o = &cli_options[i];
		void *t = (char *)cfg + o->off;
		if (o->kind == KIND_COUNT)
			*(long *)t = (long)o->def;
		else if (o->kind == KIND_SECONDS || o->kind == KIND_PERCENT)
			*(double *)t = o->def;
		else if (o->kind == KIND_ENUM)
			*(int *)t = (int)o->def;
	}
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
static void note_last(struct cli_state *st, const struct cli_option *o,
		      int need, const char *const *words)
{
	st->last_opt = need > 1 ? o : NULL;
	st->last_word = need > 1 ? words[need - 1] : NULL;
}

/* Is s a decimal number as -P takes them: [+-]digits[.digits]? */
static bool is_decimal(const char *s)
{
	bool dot = false;
	int digits = 0;
	if (*s == '+' || *s == '-')
		s++;
	for (; *s; s++) {
		if (*s == '.' && !dot)
			dot = true;
		else if (*s >= '0' && *s <= '9')
			digits++;
		else
			return false;
	}
	return digits > 0;
}

/* A -P bound or step that is not a number: often the command, taken as MAX. */
static int check_scan_words(const struct config *cfg)
{
	for (size_t i = 0; i < cfg->n_params; i++) {
		const struct param_spec *p = &cfg->params[i];
		const char *what = NULL, *bad = NULL;
		if (!p->is_scan)
			continue;
		if (!is_decimal(p->min))
			what = "MIN", bad = p->min;
		else if (!is_decimal(p->max))
			what = "MAX", bad = p->max;
		else if (p->step && !is_decimal(p->step))
			what = "STEP (-D)", bad = p->step;
		if (what)
			USAGE("-P/--parameter-scan %s: %s '%s' is not a number "
			      "(expected e.g. 10, -3 or 0.25)", p->name, what, bad);
	}
	return 0;
}

/*
 * No command is left.  The usual cause is an option that took the command
 * as one of its values (-P takes exactly three words, -L two): say which,
 * and check the scan bounds first so that `-P n 1 echo` reports MAX 'echo'
 * as not a number.
 */
static int no_command(const struct cli_state *st)
{
	if (check_scan_words(st->cfg) != 0)
		return -1;
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
/* The history options: a target (or $CBENCH_HISTORY) for the gate, the
 * gate for its window and branch, labels of the right shape. */
static int validate_history(struct config *cfg)
{
	if (cfg->history == NULL) {
		const char *env = getenv("CBENCH_HISTORY");
		cfg->history = env && *env ? env : NULL;
		cfg->history_from_env = cfg->history != NULL;
	}
	if (cfg->baseline_history && cfg->history == NULL)
		USAGE("--baseline-history gates against a history: give --history "
		      "TARGET (or set CBENCH_HISTORY)");
	if (cfg->baseline_history && cfg->baseline)
		USAGE("--baseline-history cannot be combined with --baseline");
	if ((cfg->history_window_given || cfg->history_branch) &&
	    !cfg->baseline_history)
		USAGE("--%s is for the gate against the history: add "
		      "--baseline-history", cfg->history_branch
		      ? "history-branch" : "history-window");
	if (cfg->history_labels.n && cfg->history == NULL)
		USAGE("--history-label labels a recorded invocation: give "
		      "--history TARGET (or set CBENCH_HISTORY)");
	for (size_t i = 0; i < cfg->history_labels.n; i++) {
		const char *l = cfg->history_labels.v[i], *eq = strchr(l, '=');
		bool ok = eq && eq != l;
		for (const char *p = l; ok && p < eq; p++)
			ok = isalnum((unsigned char)*p) || *p == '_' || *p == '.' ||
			     *p == '-';
		if (!ok)
			USAGE("--history-label '%s': expected KEY=VALUE (KEY of "
			      "letters, digits, _ . -)", l);
	}
	return 0;
}

/* Checks that need the whole command line. */
/*
 * A parameter named like a per-run column of the JSON (a metric key such as
 * wall_time, exit_code, started_at, ...) or "command" would overwrite that
 * column, or clash with it, in the README's one-line data frame
 * (`pd.DataFrame(r["runs"]).assign(command=..., **parameters)`): refused.
 */
static int check_param_names(const struct config *cfg)
{
	static const char *const taken[] = {"command", "exit_code", "signal",
		"timed_out", "failed", "outlier", "started_at", "run_index"};
	for (size_t i = 0; i < cfg->n_params; i++) {
		const char *n = cfg->params[i].name;
		bool clash = false;
		for (int m = 0; m < MET_COUNT && !clash; m++)
			clash = metric_defined((enum metric_id)m) &&
				strcmp(n, metric_info((enum metric_id)m)->key) == 0;
		for (size_t k = 0; k < sizeof taken / sizeof *taken && !clash; k++)
			clash = strcmp(n, taken[k]) == 0;
		if (clash)
			USAGE("parameter name '%s' is the name of a per-run column "
			      "(a metric, command, exit_code, ...): in a data frame "
			      "of runs it would overwrite that column; choose "
			      "another name", n);
	}
	return 0;
}

/* Names of a gate's metrics that are neither built in nor defined by
 * --metric: for --gate-metric the list's, for --fail-if-slower SPEC the
 * METRIC= ones.  In compare mode the files may define them, so main checks
 * them once the files are read. */
static int check_gate_names(const struct config *cfg)
{
	char names[CLI_MAX_GATE_METRICS][32], err[DIAG_MSG_MAX];
	struct cli_threshold t[CLI_MAX_GATE_METRICS + 1];
	char set[DIAG_MSG_MAX];
	set_text(metric_values, NULL, set, sizeof set);
	if (cfg->compare_mode)
		return 0;
	int n = cfg->gate_metric ? cli_parse_metric_list(cfg->gate_metric, names,
					CLI_MAX_GATE_METRICS, err, sizeof err) : 0;
	for (int k = 0; k < n; k++) {
		if (set_lookup(metric_values, names[k]) != NULL ||
		    metric_lookup(names[k]) >= MET_CUSTOM_FIRST)
			continue;
		if (strchr(cfg->gate_metric, ','))
			USAGE("invalid value '%s' for --gate-metric: unknown metric "
			      "'%s' (expected %s, or a name defined with --metric)",
			      cfg->gate_metric, names[k], set);
		USAGE("invalid value '%s' for --gate-metric: expected %s, or a "
		      "name defined with --metric", names[k], set);
	}
	for (size_t i = 0; i <= cfg->fail_for_specs.n; i++) {
		const char *spec = i < cfg->fail_for_specs.n ? cfg->fail_for_specs.v[i]
			: cfg->fail_if_slower_spec;
		int k = spec == NULL ? 0 : cli_parse_thresholds(spec, t,
					CLI_MAX_GATE_METRICS + 1, err, sizeof err);
		for (int j = 0; j < k; j++)
			if (t[j].metric[0] && set_lookup(metric_values, t[j].metric) == NULL &&
			    metric_lookup(t[j].metric) < MET_CUSTOM_FIRST)
				USAGE("invalid value '%s' for %s: unknown metric '%s'",
				      spec, i < cfg->fail_for_specs.n
				      ? "--fail-if-slower-for" : "--fail-if-slower",
				      t[j].metric);
	}
	return 0;
}

/* --export-metrics: known metrics (or ones --metric defines), for an
 * export that carries them. */
static int check_export_metrics(const struct config *cfg)
{
	char names[CLI_MAX_GATE_METRICS][32], err[DIAG_MSG_MAX], set[DIAG_MSG_MAX];
	if (cfg->export_metrics == NULL)
		return 0;
	set_text(export_metric_values, NULL, set, sizeof set);
	int n = cli_parse_metric_list(cfg->export_metrics, names,
				      CLI_MAX_GATE_METRICS, err, sizeof err);
	for (int k = 0; k < n; k++)
		if (set_lookup(export_metric_values, names[k]) == NULL &&
		    metric_lookup(names[k]) < MET_CUSTOM_FIRST)
			USAGE("invalid value '%s' for --export-metrics: unknown "
			      "metric '%s' (expected %s, or a name defined with "
			      "--metric)", cfg->export_metrics, names[k], set);
	bool carried = false;
	for (size_t i = 0; i < cfg->n_exports; i++) {
		enum export_format f = cfg->exports[i].format;
		carried |= f == EXPORT_BMF || f == EXPORT_GITHUB_BENCHMARK ||
			   f == EXPORT_GITHUB_BENCHMARK_BIGGER;
	}
	if (!carried)
		USAGE("--export-metrics chooses what --export-bmf and "
		      "--export-github-benchmark carry: give one of them");
	return 0;
}

/* --metric: every definition checked and defined (metric_output.h); the
 * output must reach cbench, so not with --output=inherit/pipe. */
static int define_metrics(const struct config *cfg)
{
	char err[DIAG_MSG_MAX];
	metric_undefine_all();
	for (size_t i = 0; i < cfg->metrics.n; i++)
		if (metric_output_define(cfg->metrics.v[i], err, sizeof err) < 0)
			USAGE("--metric '%s': %s", cfg->metrics.v[i], err);
	if (cfg->metrics.n && cfg->show_output)
		USAGE("--metric reads each run's output, which --show-output "
		      "sends to the terminal; use --output FILE to keep it");
	for (size_t k = 0; cfg->metrics.n && k < cfg->outputs.n; k++)
		if (strcmp(cfg->outputs.v[k], "inherit") == 0 ||
		    strcmp(cfg->outputs.v[k], "pipe") == 0)
			USAGE("--metric reads each run's output, which "
			      "--output=%s does not keep; use --output FILE "
			      "to keep it", cfg->outputs.v[k]);
	return 0;
}

/* -n and the options given once or once per command: their counts. */
static int check_per_command(const struct config *cfg)
{
	size_t ncmd = cfg->commands.n + (cfg->reference ? 1 : 0);
	/* hyperfine 1.19's rule: -n names the commands other than the
	 * --reference, which only --reference-name names; its message. */
	if (cfg->names.n > cfg->commands.n)
		USAGE("too many --command-name options: expected %zu at most "
		      "(-n given %zu times for %zu command%s%s)", cfg->commands.n,
		      cfg->names.n, cfg->commands.n,
		      cfg->commands.n == 1 ? "" : "s", cfg->reference
		      ? " besides --reference, which --reference-name names" : "");
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
	return 0;
}

/* --profile DIR: under the simulated CPU, into a directory that holds
 * nothing yet (cbench never writes over a file). */
static int validate_profile(struct config *cfg)
{
	if (cfg->profile == NULL)
		return 0;
	if (cfg->counters == NULL)
		cfg->counters = "sim";
	else if (simcpu_mode(cfg->counters) == SIM_OFF)
		USAGE("--profile runs under Valgrind: it needs --counters sim or "
		      "sim-cache, not --counters %s", cfg->counters);
	DIR *d = opendir(cfg->profile);
	if (d == NULL && errno != ENOENT)
		USAGE("--profile %s: %s", cfg->profile, strerror(errno));
	if (d) {
		struct dirent *e;
		bool empty = true;
		while (empty && (e = readdir(d)) != NULL)
			empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
		closedir(d);
		if (!empty)
			USAGE("--profile %s: the directory is not empty (cbench "
			      "writes callgrind's files into a new or empty one)",
			      cfg->profile);
	}
	return 0;
}

static int validate(struct cli_state *st)
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
	if (cfg->runs_given && (cfg->min_runs_given || cfg->max_runs_given))
		USAGE("--runs cannot be combined with --min-runs or --max-runs");
	if (cfg->runs_given && cfg->precision > 0)
		USAGE("--runs cannot be combined with --precision");
	if (cfg->runs_given && cfg->max_time_s > 0)
		USAGE("--runs cannot be combined with --max-time");
	if (cfg->min_runs_given && cfg->max_runs_given &&
	    cfg->min_runs > cfg->max_runs)
		USAGE("--min-runs (%ld) is larger than --max-runs (%ld)",
		      cfg->min_runs, cfg->max_runs);
	if (st->shell_given && st->no_shell_given)
		USAGE("--shell=SHELL cannot be combined with -N/--shell=none");
	if (st->step_pending)
		USAGE("-D/--parameter-step-size needs a -P/--parameter-scan");
	/* hyperfine's --input null: the default, empty stdin. */
	if (cfg->input && strcmp(cfg->input, "null") == 0)
		cfg->input = NULL;
	if (cfg->reference_name && !cfg->reference)
		USAGE("--reference-name needs --reference CMD");
	if (check_per_command(cfg) != 0)
		return -1;
	if (cfg->show_output && cfg->outputs.n)
		USAGE("--show-output cannot be combined with --output");
	if (define_metrics(cfg) != 0 || check_gate_names(cfg) != 0 ||
	    check_export_metrics(cfg) != 0)
		return -1;
	/* A threshold with nothing to gate would be ignored silently. */
	if (cfg->fail_if_slower_given && !cfg->baseline && !cfg->reference &&
	    !cfg->baseline_history)
		USAGE("--fail-if-slower needs something to compare with: "
		      "--baseline FILE, or --reference CMD to gate the other "
		      "commands against it in this run");
	if (cfg->gate_metric && !cfg->baseline && !cfg->baseline_history &&
	    !(cfg->reference && cfg->fail_if_slower_given))
		USAGE("--gate-metric is for a gate: give --baseline FILE, or "
		      "--reference CMD with --fail-if-slower PCT");
	if (check_param_names(cfg) != 0)
		return -1;
	bool gated = cfg->baseline || (cfg->reference && cfg->fail_if_slower_given);
	/* Options of a comparison with a baseline, which would be ignored
	 * silently without one. */
	const char *matching = cfg->require_all ? "--require-all"
			       : st->first_opt[OPT_MATCH_BY] ? "--match-by" : NULL;
	if (matching && !cfg->baseline && !cfg->baseline_history)
		USAGE("%s matches this run's benchmarks with a baseline's: give "
		      "--baseline FILE or --baseline-history", matching);
	if (cfg->require_resolution && !gated && !cfg->baseline_history)
		USAGE("--require-resolution is for a gate: give --baseline FILE, "
		      "or --reference CMD with --fail-if-slower PCT");
	if (cfg->fail_for_names.n && !gated)
		USAGE("--fail-if-slower-for is for a gate: give --baseline FILE, "
		      "or --reference CMD with --fail-if-slower PCT");
	for (size_t i = 0; i < cfg->n_exports && !gated; i++)
		if (cfg->exports[i].format == EXPORT_JUNIT)
			USAGE("--export-junit writes a gate's verdicts: give "
			      "--baseline FILE, or --reference CMD with "
			      "--fail-if-slower PCT");
	if (cfg->reference && cfg->fail_if_slower_given && !cfg->baseline &&
	    !cfg->baseline_history && cfg->commands.n == 0)
		USAGE("--reference with --fail-if-slower gates the other commands "
		      "against the reference: give at least one command besides it");
	if (validate_history(cfg) != 0 || validate_profile(cfg) != 0)
		return -1;
	/* Two exports to stdout would interleave. */
	int to_stdout = 0;
	for (size_t i = 0; i < cfg->n_exports; i++)
		to_stdout += strcmp(cfg->exports[i].path, "-") == 0;
	if (to_stdout > 1)
		USAGE("only one export can go to stdout (-)");
	return 0;
}


/* Apply and remember one option whose words are complete. */
static int take(struct cli_state *st, const struct cli_option *o, int need,
		const char *const *words, int *exit_code)
{
	if (apply(st, o, words, exit_code) != 0)
		return -1;
	note_last(st, o, need, words);
	return 0;
}

/* --name, --name=VALUE or --name VALUE...: argv[*i], moving *i past the
 * words it takes. */
static int parse_long_opt(struct cli_state *st, int argc, char **argv, int *i,
			  int *exit_code)
{
	const char *words[3] = {NULL, NULL, NULL};
	const char *name = argv[*i] + 2;
	const char *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct cli_option *o = find_long(name, len);
	if (o == NULL) {
		const char *names[OPT__COUNT + 8];
		size_t n = 0;
		for (size_t k = 0; k < cli_n_options && n < sizeof names / sizeof *names; k++)
			names[n++] = cli_options[k].long_name;
		const char *near = suggest_name(name, len, names, n);
		if (near)
			USAGE("unknown option '--%.*s' (did you mean --%s?)", (int)len,
			      name, near);
		USAGE("unknown option '--%.*s'", (int)len, name);
	}
	int need = nargs(o->arity);
	if (o->arity == ARG_NONE && eq)
		USAGE("--%s takes no value", o->long_name);
	int have = 0;
	if (eq && o->arity != ARG_NONE)
		words[have++] = eq + 1;
	while (have < need) {
		if (*i + 1 >= argc)
			USAGE("--%s needs %s", o->long_name, o->arg_name);
		words[have++] = argv[++*i];
	}
	return take(st, o, need, words, exit_code);
}

/* Short options, possibly bundled: -Ni, -r5, -r 5, -i=CODES. */
static int parse_short_opts(struct cli_state *st, int argc, char **argv,
			    int *i, int *exit_code)
{
	for (const char *p = argv[*i] + 1; *p; p++) {
		const char *words[3] = {NULL, NULL, NULL};
		const struct cli_option *o = find_short(*p);
		if (o == NULL)
			USAGE("unknown option '-%c'", *p);
		if (o->scope == SCOPE_RUN && st->cfg->compare_mode &&
		    o->arity == ARG_NONE)
			USAGE("-%c cannot be used with 'cbench compare'", *p);
		int need = nargs(o->arity), have = 0;
		if (o->arity == ARG_OPTIONAL) {
			if (p[1] == '=')
				words[have++] = p + 2;
			else if (p[1] != '\0')
				USAGE("-%c takes its value as -%c=VALUE", *p, *p);
			return take(st, o, 0, words, exit_code);
		}
		if (need == 0) {
			if (take(st, o, 0, words, exit_code) != 0)
				return -1;
			continue;
		}
		if (p[1] != '\0')
			words[have++] = p[1] == '=' ? p + 2 : p + 1;
		while (have < need) {
			if (*i + 1 >= argc)
				USAGE("-%c needs %s", o->short_name, o->arg_name);
			words[have++] = argv[++*i];
		}
		return take(st, o, need, words, exit_code);
	}
	return 0;
}

/* The default number of noise-loop runs of `cbench system check`. */
#define SYSTEM_RUNS 40

/*
 * `cbench system check [--json] [--runs N] | tune | reset | --help`: a
 * subcommand with a handful of options of its own, parsed here rather
 * than through the benchmark option table.  Returns 0, or -1 (exit with
 * *exit_code).
 */
static int parse_system(int argc, char **argv, struct config *cfg, int *exit_code)
{
	static const struct {
		const char *name;
		enum system_action action;
	} actions[] = {{"check", SYSTEM_CHECK}, {"tune", SYSTEM_TUNE},
		       {"reset", SYSTEM_RESET}, {"spin", SYSTEM_SPIN}};
	cfg->system_mode = true;
	cfg->system_runs = SYSTEM_RUNS;
	if (argc > 2 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0)) {
		cfg->action = CLI_HELP;
		*exit_code = CBENCH_EXIT_OK;
		return -1;
	}
	for (size_t k = 0; argc > 2 && k < sizeof actions / sizeof *actions; k++)
		if (strcmp(argv[2], actions[k].name) == 0)
			cfg->system_action = actions[k].action;
	if (cfg->system_action == SYSTEM_NONE)
		USAGE("'cbench system' takes check, tune or reset%s%s%s",
		      argc > 2 ? " (not '" : "", argc > 2 ? argv[2] : "",
		      argc > 2 ? "')" : "");
	for (int i = 3; i < argc; i++) {
		bool check = cfg->system_action == SYSTEM_CHECK;
		if (check && strcmp(argv[i], "--json") == 0) {
			cfg->system_json = true;
		} else if (check && strncmp(argv[i], "--runs", 6) == 0 &&
			   (argv[i][6] == '=' || argv[i][6] == '\0')) {
			const char *v = argv[i][6] == '=' ? argv[i] + 7
					: i + 1 < argc ? argv[++i] : NULL;
			if (v == NULL)
				USAGE("'cbench system check --runs' needs N");
			if (cli_parse_long(v, 0, 100000, &cfg->system_runs) != 0 ||
			    (cfg->system_runs > 0 && cfg->system_runs < 5))
				USAGE("invalid value '%s' for 'cbench system check --runs': "
				      "expected 0 (no noise measurement) or 5 to 100000", v);
		} else {
			USAGE("'cbench system %s' does not take '%s'", argv[2], argv[i]);
		}
	}
	*exit_code = CBENCH_EXIT_OK;
	return 0;
}

/* A usage error of `cbench report`: its hint points at its own --help. */
#define RUSAGE(...) do { diag_usage_sub("report", __VA_ARGS__); return -1; } \
	while (0)

/* The value of a report option: "--opt VALUE", "--opt=VALUE", "-oVALUE". */
static const char *report_value(int argc, char **argv, int *i, const char *name)
{
	const char *a = argv[*i];
	size_t l = strlen(name);
	if (strncmp(a, name, l) == 0 && a[l] == '=')
		return a + l + 1;
	if (name[1] != '-' && strncmp(a, name, 2) == 0 && a[2] != '\0')
		return a + 2;
	if (*i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

static bool report_opt(const char *a, const char *name)
{
	size_t l = strlen(name);
	return strncmp(a, name, l) == 0 &&
	       (a[l] == '\0' || a[l] == '=' || (name[1] != '-' && a[l] != '\0'));
}

/* One option of `cbench report`; 0, or -1 after a usage error. */
static int report_option(int argc, char **argv, int *i, struct config *cfg)
{
	const char *a = argv[*i], *v;
	if (strcmp(a, "--compare") == 0) {
		cfg->report_compare = true;
	} else if (report_opt(a, "-o") || report_opt(a, "--output")) {
		v = report_value(argc, argv, i, a[1] == '-' ? "--output" : "-o");
		if (v == NULL || *v == '\0')
			RUSAGE("%s needs a file name: -o OUT.html", a);
		cfg->report_out = v;
	} else if (report_opt(a, "--title")) {
		if ((v = report_value(argc, argv, i, "--title")) == NULL)
			RUSAGE("--title needs a value");
		cfg->report_title = v;
	} else if (report_opt(a, "--fail-if-slower")) {
		if ((v = report_value(argc, argv, i, "--fail-if-slower")) == NULL ||
		    cli_parse_percent(v, &cfg->fail_if_slower) != 0 ||
		    cfg->fail_if_slower > 10)
			RUSAGE("--fail-if-slower needs a percentage from 0 to 1000");
		cfg->fail_if_slower_given = true;
	} else if (report_opt(a, "--confidence")) {
		if ((v = report_value(argc, argv, i, "--confidence")) == NULL ||
		    cli_parse_double(v, 0.5, 0.999999, &cfg->confidence) != 0)
			RUSAGE("--confidence needs a level between 0.5 and 1 (e.g. 0.95)");
		cfg->report_confidence_given = true;
	} else if (report_opt(a, "--match-by")) {
		v = report_value(argc, argv, i, "--match-by");
		if (v && strcmp(v, "command") == 0)
			cfg->match_by = MATCH_COMMAND;
		else if (v && strcmp(v, "name") == 0)
			cfg->match_by = MATCH_NAME;
		else
			RUSAGE("--match-by takes 'command' or 'name'");
	} else {
		RUSAGE("unknown option for 'cbench report': '%s'", a);
	}
	return 0;
}

/* `cbench report [OPTIONS] IN.json... -o OUT.html`. */
static int parse_report(int argc, char **argv, struct config *cfg, int *exit_code)
{
	cfg->report_mode = true;
	bool only_positional = false;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		if (only_positional || a[0] != '-' || a[1] == '\0') {
			strlist_push(&cfg->commands, a);
		} else if (strcmp(a, "--") == 0) {
			only_positional = true;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			cfg->action = CLI_HELP;
			*exit_code = CBENCH_EXIT_OK;
			return -1;
		} else if (report_option(argc, argv, &i, cfg) != 0) {
			return -1;
		}
	}
	if (cfg->commands.n == 0)
		RUSAGE("'cbench report' needs at least one results file: "
		      "cbench report IN.json... -o OUT.html");
	if (cfg->report_out == NULL)
		RUSAGE("'cbench report' needs -o OUT.html");
	if (cfg->report_compare && cfg->commands.n != 2)
		RUSAGE("'cbench report --compare' takes two files: BASE.json NEW.json");
	*exit_code = CBENCH_EXIT_OK;
	return 0;
}

int cli_parse(int argc, char **argv, struct config *cfg, int *exit_code)
{
	struct cli_state st = {.cfg = cfg};
	memset(cfg, 0, sizeof *cfg);
	apply_defaults(cfg);
	*exit_code = CBENCH_EXIT_USAGE;

	int i = 1;
	if (argc > 1 && strcmp(argv[1], "system") == 0)
		return parse_system(argc, argv, cfg, exit_code);
	if (argc > 1 && strcmp(argv[1], "history") == 0) {
		cfg->history_mode = true;
		cfg->history_argc = argc - 2;
		cfg->history_argv = argv + 2;
		*exit_code = CBENCH_EXIT_OK;
		return 0;
	}
	if (argc > 1 && strcmp(argv[1], "report") == 0)
		return parse_report(argc, argv, cfg, exit_code);
	if (argc > 1 && strcmp(argv[1], "compare") == 0) {
		cfg->compare_mode = true;
		i = 2;
	}
	bool only_positional = false;
	for (; i < argc; i++) {
		const char *arg = argv[i];
		int r;
		if (only_positional || arg[0] != '-' || arg[1] == '\0') {
			strlist_push(&cfg->commands, arg);
			st.last_opt = NULL;
			continue;
		}
		if (strcmp(arg, "--") == 0) {
			only_positional = true;
			continue;
		}
		if (strcmp(arg, "--list-options") == 0) {
			cfg->action = CLI_LIST_OPTIONS;
			*exit_code = CBENCH_EXIT_OK;
			return -1;
		}
		if (arg[1] == '-')
			r = parse_long_opt(&st, argc, argv, &i, exit_code);
		else
			r = parse_short_opts(&st, argc, argv, &i, exit_code);
		if (r != 0)
			return -1;
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
	free(cfg->history_labels.v);
	free(cfg->params);
	free(cfg->ignore_codes);
	free(cfg->exports);
	free(cfg->fail_for_names.v);
	free(cfg->fail_for_specs.v);
	free(cfg->metrics.v);
	metric_undefine_all();  /* the --metric definitions go with it */
	cmdline_free(cfg->shell_words);
	memset(cfg, 0, sizeof *cfg);
}

/* ---- help ---- */

static void print_wrapped(FILE *f, const char *text, int indent, int width)
{
	int col = indent;
	const char *p = text;
	while (*p) {
		const char *sp = strchr(p, ' ');
		int len = sp ? (int)(sp - p) : (int)strlen(p);
		if (col > indent && col + 1 + len > width) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", len, p);
		col += len;
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}


/* The default as a value: "10", "95" (a percentage), "sequential". */
static void default_value(const struct cli_option *o, char *buf, size_t n)
{
	buf[0] = '\0';
	if (o->show_def != DEF_VALUE && o->show_def != DEF_VALUE_TEXT)
		return;
	if (o->kind == KIND_ENUM) {
		for (const struct cli_value *v = o->values; v->name; v++)
			if (!v->alias && v->value == (int)o->def) {
				snprintf(buf, n, "%s", v->name);
				return;
			}
	}
	snprintf(buf, n, "%g", o->kind == KIND_PERCENT ? o->def * 100 : o->def);
}

/* The option's help text with its generated parts: "(default: ...)." and,
 * for --counters, counters.c's event names. */
static void help_text(const struct cli_option *o, char *buf, size_t n)
{
	char names[512] = "", defs[256] = "", value[64];
	if (o->id == OPT_COUNTERS) {
		counter_names(false, ", ", names, sizeof names);
		counter_names(true, ", ", defs, sizeof defs);
		strncat(names, "; or none; or sim: instructions counted exactly "
			"on Valgrind's simulated CPU, on any machine, each run "
			"20-100x slower (3 runs unless asked); or sim-cache: with "
			"its cache simulation too, about twice slower again",
			sizeof names - strlen(names) - 1);
	}
	if (o->show_def == DEF_NONE) {
		snprintf(buf, n, "%s%s", o->help, names);
		return;
	}
	default_value(o, value, sizeof value);
	snprintf(buf, n, "%s%s (default: %s%s%s).", o->help, names, value,
		 o->show_def == DEF_VALUE ? "" : o->def_text, defs);
}

void cli_print_system_help(FILE *f)
{
	fputs("Usage: cbench system check [--json] [--runs N]\n"
	      "  or:  cbench system tune\n"
	      "  or:  cbench system reset\n\n"
	      "check  reads, without changing anything, what on this machine will\n"
	      "       spoil measurements (CPU governor, boost, SMT, isolated CPUs, load\n"
	      "       and busy processes, swap, huge pages, ASLR, perf access and PMU,\n"
	      "       VM or container, clock source, battery): each item fine, a risk\n"
	      "       or unknown, with the command that fixes it; then measures the\n"
	      "       machine's noise with N runs of a fixed loop (default 40; 0: skip).\n"
	      "       --json prints the same as JSON.\n"
	      "tune   (root) applies what can be undone: governor performance, boost\n"
	      "       off, perf sample rate 1; the previous values are saved.\n"
	      "reset  (root) restores the values tune saved.\n", f);
}

void cli_print_report_help(FILE *f)
{
	fputs("Usage: cbench report [OPTIONS] IN.json... -o OUT.html\n"
	      "  or:  cbench report --compare [OPTIONS] BASE.json NEW.json -o OUT.html\n\n"
	      "Build a self-contained HTML report (inline SVG plots, no script, no\n"
	      "external reference) from saved results: cbench's JSON (schema 1 and 2)\n"
	      "or hyperfine's --export-json.  With --compare, every benchmark of NEW\n"
	      "against the same one in BASE, regressions first, the gate's threshold\n"
	      "drawn.  The inputs are never overwritten.\n\n"
	      "Options:\n"
	      "  -o, --output FILE        Write the page to FILE (required).\n"
	      "      --compare            Compare BASE.json with NEW.json.\n"
	      "      --title TEXT         The page's title.\n"
	      "      --fail-if-slower PCT Threshold drawn in a comparison (default: 5).\n"
	      "      --confidence LEVEL   Level of the intervals (default: the file's,\n"
	      "                           else 0.95).\n"
	      "      --match-by KEY       command or name (default: command).\n"
	      "  -h, --help               Print this help and exit.\n", f);
}

/* --help's sections, in their order (as hyperfine's and curl's). */
enum help_group { HG_NONE, HG_RUNS, HG_COMMANDS, HG_HOOKS, HG_PARAMS,
		  HG_MEASURE, HG_MACHINE, HG_TERMINAL, HG_EXPORTS, HG_GATES,
		  HG_HISTORY, HG__COUNT };
static const char *const help_groups[HG__COUNT] = {
	[HG_RUNS] = "How many runs", [HG_COMMANDS] = "The commands",
	[HG_HOOKS] = "Around each run", [HG_PARAMS] = "Parameter sweeps",
	[HG_MEASURE] = "What is measured and how it is judged",
	[HG_MACHINE] = "The machine", [HG_TERMINAL] = "Terminal output",
	[HG_EXPORTS] = "Exports", [HG_GATES] = "Gates",
	[HG_HISTORY] = "History",
};
const unsigned char cli_help_group[OPT__COUNT] = {
	[OPT_WARMUP] = HG_RUNS, [OPT_RUNS] = HG_RUNS, [OPT_MIN_RUNS] = HG_RUNS,
	[OPT_MAX_RUNS] = HG_RUNS, [OPT_MIN_TIME] = HG_RUNS,
	[OPT_MIN_BENCH_TIME] = HG_RUNS, [OPT_MAX_TIME] = HG_RUNS,
	[OPT_PRECISION] = HG_RUNS,
	[OPT_COMMAND_NAME] = HG_COMMANDS, [OPT_REFERENCE] = HG_COMMANDS,
	[OPT_REFERENCE_NAME] = HG_COMMANDS, [OPT_SHELL] = HG_COMMANDS,
	[OPT_NO_SHELL] = HG_COMMANDS, [OPT_IGNORE_FAILURE] = HG_COMMANDS,
	[OPT_TIMEOUT] = HG_COMMANDS, [OPT_ORDER] = HG_COMMANDS,
	[OPT_SEED] = HG_COMMANDS, [OPT_INPUT] = HG_COMMANDS,
	[OPT_OUTPUT] = HG_COMMANDS, [OPT_SHOW_OUTPUT] = HG_COMMANDS,
	[OPT_KEEP_BACKGROUND] = HG_COMMANDS,
	[OPT_SETUP] = HG_HOOKS, [OPT_PREPARE] = HG_HOOKS,
	[OPT_CONCLUDE] = HG_HOOKS, [OPT_CLEANUP] = HG_HOOKS,
	[OPT_PARAM_SCAN] = HG_PARAMS, [OPT_PARAM_STEP] = HG_PARAMS,
	[OPT_PARAM_LIST] = HG_PARAMS,
	[OPT_COUNTERS] = HG_MEASURE, [OPT_METRIC] = HG_MEASURE,
	[OPT_PROFILE] = HG_MEASURE, [OPT_CONFIDENCE] = HG_MEASURE,
	[OPT_PIN] = HG_MACHINE, [OPT_PIN_HOOKS] = HG_MACHINE,
	[OPT_PIN_SELF] = HG_MACHINE, [OPT_ASLR] = HG_MACHINE,
	[OPT_RANDOMIZE_LAYOUT] = HG_MACHINE,
	[OPT_STYLE] = HG_TERMINAL, [OPT_TIME_UNIT] = HG_TERMINAL,
	[OPT_SORT] = HG_TERMINAL, [OPT_VERBOSE] = HG_TERMINAL,
	[OPT_QUIET] = HG_TERMINAL, [OPT_HELP] = HG_TERMINAL,
	[OPT_VERSION] = HG_TERMINAL,
	[OPT_EXPORT_JSON] = HG_EXPORTS, [OPT_EXPORT_CSV] = HG_EXPORTS,
	[OPT_EXPORT_CSV_RUNS] = HG_EXPORTS, [OPT_EXPORT_MARKDOWN] = HG_EXPORTS,
	[OPT_EXPORT_ASCIIDOC] = HG_EXPORTS, [OPT_EXPORT_ORGMODE] = HG_EXPORTS,
	[OPT_EXPORT_HTML] = HG_EXPORTS, [OPT_EXPORT_BMF] = HG_EXPORTS,
	[OPT_EXPORT_GITHUB_BENCHMARK] = HG_EXPORTS,
	[OPT_EXPORT_GITHUB_BENCHMARK_BIGGER] = HG_EXPORTS,
	[OPT_EXPORT_METRICS] = HG_EXPORTS,
	[OPT_BASELINE] = HG_GATES, [OPT_SAVE_BASELINE] = HG_GATES,
	[OPT_FAIL_IF_SLOWER] = HG_GATES, [OPT_FAIL_IF_SLOWER_FOR] = HG_GATES,
	[OPT_GATE_METRIC] = HG_GATES, [OPT_REQUIRE_ALL] = HG_GATES,
	[OPT_REQUIRE_RESOLUTION] = HG_GATES, [OPT_MATCH_BY] = HG_GATES,
	[OPT_EXPORT_JUNIT] = HG_GATES, [OPT_BASELINE_HISTORY] = HG_GATES,
	[OPT_HISTORY_WINDOW] = HG_GATES, [OPT_HISTORY_BRANCH] = HG_GATES,
	[OPT_HISTORY] = HG_HISTORY, [OPT_HISTORY_LABEL] = HG_HISTORY,
};

static void print_option_help(FILE *f, const struct cli_option *o)
{
	char head[96], text[1024];
	int n;
	if (o->short_name)
		n = snprintf(head, sizeof head, "  -%c, --%s", o->short_name,
			     o->long_name);
	else
		n = snprintf(head, sizeof head, "      --%s", o->long_name);
	if (o->arg_name && n > 0 && (size_t)n < sizeof head)
		snprintf(head + n, sizeof head - (size_t)n,
			 o->arity == ARG_OPTIONAL ? "[=%s]" : " %s", o->arg_name);
	fprintf(f, "%s\n", head);
	fputs("          ", f);
	help_text(o, text, sizeof text);
	print_wrapped(f, text, 10, 78);
}

void cli_print_help(FILE *f, bool compare)
{
	if (compare) {
		fputs("Usage: cbench compare [OPTIONS] BASE.json NEW.json\n\n"
		     "Compare two saved result files (both cbench's JSON, or both\n"
		     "hyperfine's: their wall times differ by design) and decide whether\n"
		     "NEW is a significant regression over BASE.\n" "\n", f);
	} else {
		fputs("Usage: cbench [OPTIONS] COMMAND...\n"
		     "  or:  cbench compare [OPTIONS] BASE.json NEW.json\n"
		     "  or:  cbench system check|tune|reset (see cbench system --help)\n"
		     "  or:  cbench history SUBCOMMAND [OPTIONS] (see cbench history --help)\n"
		     "  or:  cbench report [OPTIONS] IN.json... -o OUT.html\n\n"
		     "Benchmark commands with exec-exact timing and counters.\n\n"
		     "Every run is measured by the frozen-exec engine: the child stops at\n"
		     "exec, counters are attached before its first instruction, and wall\n"
		     "time runs from the moment it is released to the moment it is\n"
		     "reaped, so fork, exec and cbench's bookkeeping are never counted.\n" "\n", f);
	}
	fputs("Options:\n"
	      "Each option is given once (a second is an error), except the\n"
	      "exports, the per-command -n, --setup, --prepare, --conclude,\n"
	      "--cleanup and --output, and those marked repeatable.\n", f);
	/* By section (cli_help_group), each in the table's order. */
	for (int g = HG_RUNS; g < HG__COUNT; g++) {
		bool heading = false;
		for (size_t i = 0; i < cli_n_options; i++) {
			const struct cli_option *o = &cli_options[i];
			if (cli_help_group[o->id] != g ||
			    (compare && !(o->scope & SCOPE_COMPARE)))
				continue;
			if (!heading)
				fprintf(f, "\n%s:\n", help_groups[g]);
			heading = true;
			print_option_help(f, o);
		}
	}
	fputs("\nExit status:\n"
	     "  0    success (and no regression)\n"
	     "  1    a command failed, could not be run or timed out; or an I/O error\n"
	     "  2    usage error: bad option or value, unreadable or malformed input\n"
	     "  3    a performance gate found a significant regression\n"
	     "  4    --require-resolution: a gate passed without resolving its\n"
	     "       threshold\n"
	     "  130  interrupted by SIGINT (143: SIGTERM, 129: SIGHUP, 141: stdout\n"
	     "       closed); results so far are kept\n" "\n", f);
	fputs("Environment:\n"
	     "  NO_COLOR           disable colours (not the progress bar)\n"
	     "  TERM               unset, dumb or unknown: likewise\n"
	     "  CBENCH_ITERATION   set for each run and its --prepare/--conclude:\n"
	     "                     warmup-K or the run index; setup, cleanup\n"
	     "  HYPERFINE_ITERATION  set beside it for runs, with hyperfine's\n"
	     "                     values: warmup-0.., then 0..; never for hooks\n"
	     "  XDG_CACHE_HOME     where the counters note is remembered\n"
	     "                     (cbench/, else ~/.cache/cbench/)\n"
	     "  GITHUB_ACTIONS     true: gates also print ::error:: annotation lines\n"
	     "  CBENCH_HISTORY     the results history when --history is not given\n"
	     "                     (recording, --baseline-history, cbench history)\n"
	     "  CBENCH_HISTORY_BUSY_MS  how long to wait for another writer of the\n"
	     "                     history (its lock), default 10000\n"
	     "  CBENCH_HISTORY_TIMEOUT_MS  PostgreSQL: how long to wait to connect\n"
	     "                     and for each answer, default 30000\n"
	     "\n", f);
}

void cli_print_version(FILE *f)
{
	fprintf(f, "cbench %s\n", CBENCH_VERSION);
}

static const char *const kind_names[KIND__COUNT] = {
	[KIND_FLAG] = "flag", [KIND_COUNT] = "count", [KIND_UINT] = "uint",
	[KIND_SECONDS] = "seconds", [KIND_PERCENT] = "percent",
	[KIND_ENUM] = "enum", [KIND_CHOICE] = "choice", [KIND_FILE] = "file",
	[KIND_COMMAND] = "command", [KIND_LIST] = "list",
	[KIND_EXPORT] = "export", [KIND_SPECIAL] = "special",
};

/* The range column: "[1,1000000000]", "(0,10000000]", "(50,100)" (percent). */
static void range_text(const struct cli_option *o, char *buf, size_t n)
{
	double k = o->kind == KIND_PERCENT ? 100 : 1;
	buf[0] = '\0';
	if (o->kind == KIND_COUNT || o->kind == KIND_SECONDS ||
	    o->kind == KIND_PERCENT || o->id == OPT_IGNORE_FAILURE)
		snprintf(buf, n, "%c%.15g,%.15g%c", o->open ? '(' : '[', o->min * k,
			 o->max * k, o->open && o->kind == KIND_PERCENT ? ')' : ']');
}

void cli_list_options(FILE *f)
{
	static const char *const scopes[] = {"", "run", "compare", "both"};
	for (size_t i = 0; i < cli_n_options; i++) {
		const struct cli_option *o = &cli_options[i];
		char values[512] = "", def[64], range[64];
		char letter[2] = {o->short_name, '\0'};
		if (o->values)
			set_bars(o->values, values, sizeof values);
		else if (o->id == OPT_COUNTERS) {
			counter_names(false, "|", values, sizeof values);
			strncat(values, "|none|sim|sim-cache",
				sizeof values - strlen(values) - 1);
		}
		default_value(o, def, sizeof def);
		range_text(o, range, sizeof range);
		fprintf(f, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", o->long_name,
			letter, kind_names[o->kind], values,
			o->completion ? o->completion : "", scopes[o->scope], def,
			range, cli_option_many(o) ? "many" : "once");
	}
}
