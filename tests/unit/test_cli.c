/* Unit tests for option parsing (cli.c).  Error cases print their message
 * on stderr: parse() throws it away, parse_err() keeps its first line so
 * that the kind handlers' messages are checked byte for byte. */
#include "cli.h"
#include "unit.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define ARGV(...) ((char *[]){"cbench", __VA_ARGS__, NULL})
static int ARGC(char **a)
{
	int n = 0;
	while (a[n])
		n++;
	return n;
}

static int parse(int argc, char **argv, struct config *cfg, int *code)
{
	/* Keep error messages off the test output. */
	fflush(stderr);
	int saved = dup(2);
	FILE *null = freopen("/dev/null", "w", stderr);
	(void)null;
	int r = cli_parse(argc, argv, cfg, code);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	return r;
}

/* cli_parse with stderr captured: the first line of what it printed in msg
 * (empty if nothing).  Returns cli_parse's result. */
static int parse_err(char **argv, struct config *cfg, int *code, char *msg,
		     size_t n)
{
	int argc = ARGC(argv);
	fflush(stderr);
	int saved = dup(2);
	FILE *tmp = tmpfile();
	dup2(fileno(tmp), 2);
	int r = cli_parse(argc, argv, cfg, code);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	msg[0] = '\0';
	if (fgets(msg, (int)n, tmp))
		msg[strcspn(msg, "\n")] = '\0';
	fclose(tmp);
	return r;
}

/* argv must be rejected with exit code 2 and exactly this message. */
#define CHECK_REJECTS(expected, ...)                                         \
	do {                                                                 \
		struct config c_;                                            \
		int code_;                                                   \
		char m_[1024];                                               \
		int r_ = parse_err(ARGV(__VA_ARGS__), &c_, &code_, m_, sizeof m_); \
		cli_free(&c_);                                               \
		CHECK(r_ == -1 && code_ == 2);                               \
		CHECK_STR(m_, "cbench: error: " expected);                   \
	} while (0)

static void defaults(void)
{
	struct config cfg;
	int code;
	char **a = ARGV("true");
	CHECK(parse(2, a, &cfg, &code) == 0);
	CHECK(code == 0);
	CHECK(cfg.commands.n == 1);
	CHECK_STR(cfg.commands.v[0], "true");
	CHECK(cfg.min_runs == 10);
	CHECK(cfg.runs == 0);
	CHECK(cfg.max_runs == 0);
	CHECK_NEAR(cfg.min_time_s, 3.0, 0);
	CHECK_NEAR(cfg.confidence, 0.95, 1e-12);
	CHECK_NEAR(cfg.fail_if_slower, 0.05, 1e-12);
	CHECK(cfg.shell_mode == SHELL_AUTO);
	CHECK(cfg.warmup == 0);
	cli_free(&cfg);
}

static void value_forms(void)
{
	struct config cfg;
	int code;
	char **a = ARGV("-r", "5", "a");
	CHECK(parse(4, a, &cfg, &code) == 0 && cfg.runs == 5);
	cli_free(&cfg);
	char **b = ARGV("--runs=7", "a");
	CHECK(parse(3, b, &cfg, &code) == 0 && cfg.runs == 7);
	cli_free(&cfg);
	char **c = ARGV("-r9", "a", "--warmup", "3", "b");
	CHECK(parse(6, c, &cfg, &code) == 0 && cfg.runs == 9 && cfg.warmup == 3);
	CHECK(cfg.commands.n == 2);
	CHECK_STR(cfg.commands.v[1], "b");
	cli_free(&cfg);
	/* Bundled flags: -N then -i. */
	char **d = ARGV("-Ni", "a");
	CHECK(parse(3, d, &cfg, &code) == 0);
	CHECK(cfg.shell_mode == SHELL_NONE && cfg.ignore_failure);
	CHECK(cfg.ignore_codes == NULL);
	cli_free(&cfg);
	/* -- ends options: "-r" is then a command. */
	char **e = ARGV("--", "-r");
	CHECK(parse(3, e, &cfg, &code) == 0 && cfg.commands.n == 1);
	CHECK_STR(cfg.commands.v[0], "-r");
	cli_free(&cfg);
}

static void ignore_codes(void)
{
	struct config cfg;
	int code;
	char **a = ARGV("-i=2,3", "a");
	CHECK(parse(3, a, &cfg, &code) == 0);
	CHECK(cfg.n_ignore_codes == 2);
	CHECK(cfg.ignore_codes[0] == 2 && cfg.ignore_codes[1] == 3);
	cli_free(&cfg);
	char **b = ARGV("--ignore-failure=1", "a");
	CHECK(parse(3, b, &cfg, &code) == 0 && cfg.n_ignore_codes == 1);
	cli_free(&cfg);
	char **c = ARGV("-i=0", "a");
	CHECK(parse(3, c, &cfg, &code) == -1 && code == 2);
	cli_free(&cfg);
	char **d = ARGV("-i=x", "a");
	CHECK(parse(3, d, &cfg, &code) == -1 && code == 2);
	cli_free(&cfg);
}

static void multi_word_options(void)
{
	struct config cfg;
	int code;
	char **a = ARGV("-D", "0.5", "-P", "n", "1", "3", "-L", "cc", "gcc,clang",
			"-P", "m", "0", "1", "--parameter-step-size", "0.1", "x {n}");
	CHECK(parse(ARGC(a), a, &cfg, &code) == 0);
	CHECK(cfg.n_params == 3);
	CHECK_STR(cfg.params[0].name, "n");
	CHECK(cfg.params[0].is_scan);
	CHECK_STR(cfg.params[0].min, "1");
	CHECK_STR(cfg.params[0].max, "3");
	CHECK_STR(cfg.params[0].step, "0.5");   /* -D before -P applies to it */
	CHECK(!cfg.params[1].is_scan);
	CHECK_STR(cfg.params[1].list, "gcc,clang");
	CHECK_STR(cfg.params[2].step, "0.1");   /* -D after -P applies to it */
	cli_free(&cfg);
	char **b = ARGV("-P", "n", "1");
	CHECK(parse(ARGC(b), b, &cfg, &code) == -1 && code == 2);
	cli_free(&cfg);
}

static void conflicts_and_ranges(void)
{
	struct config cfg;
	int code;
	char **bad[] = {
		ARGV("-r", "5", "-m", "3", "a"),
		ARGV("-r", "5", "-M", "30", "a"),
		ARGV("-m", "5", "-M", "3", "a"),
		ARGV("-N", "--shell", "bash", "a"),
		ARGV("-r", "0", "a"),
		ARGV("-r", "-3", "a"),
		ARGV("-r", "1e3", "a"),
		ARGV("-w", "x", "a"),
		ARGV("--style", "fancy", "a"),
		ARGV("--confidence", "100", "a"),
		ARGV("--confidence", "40", "a"),
		ARGV("--bogus", "a"),
		ARGV("-Z", "a"),
		ARGV("--timeout", "0", "a"),
		ARGV("--export-json", "-", "--export-csv", "-", "a"),
		ARGV("-r"),
		ARGV("-n", "x", "-n", "y", "a"),
		ARGV("-p", "x", "-p", "y", "a", "b", "c"),
		ARGV("--help=yes"),
		ARGV("-D", "1", "a"),
		ARGV(""),
		ARGV("   "),
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int argc = 0;
		while (bad[i][argc])
			argc++;
		if (parse(argc, bad[i], &cfg, &code) != -1 || code != 2) {
			printf("FAIL %s: case %zu (%s %s) accepted\n", unit_name, i,
			       bad[i][1], argc > 2 ? bad[i][2] : "");
			unit_state = 1;
			cli_free(&cfg);
			return;
		}
		cli_free(&cfg);
	}
	char **none = ARGV("-r", "3");
	CHECK(parse(3, none, &cfg, &code) == -1 && code == 2); /* no command */
	cli_free(&cfg);
}

static void percent_and_sets(void)
{
	double f;
	CHECK(cli_parse_percent("5", &f) == 0);
	CHECK_NEAR(f, 0.05, 1e-15);
	CHECK(cli_parse_percent("2.5%", &f) == 0);
	CHECK_NEAR(f, 0.025, 1e-15);
	CHECK(cli_parse_percent("%", &f) == -1);
	CHECK(cli_parse_percent("abc", &f) == -1);
	CHECK(cli_parse_percent("-1", &f) == -1);

	struct config cfg;
	int code;
	char **a = ARGV("--style", "none", "-u", "ms", "--order", "shuffled",
			"--seed", "42", "--sort", "mean-time", "a");
	CHECK(parse(ARGC(a), a, &cfg, &code) == 0);
	CHECK(cfg.style == STYLE_NONE);
	CHECK(cfg.time_unit == UNIT_MS);
	CHECK(cfg.order == ORDER_SHUFFLED);
	CHECK(cfg.seed_given && cfg.seed == 42);
	CHECK(cfg.sort == SORT_MEAN_TIME);
	cli_free(&cfg);
}

static void compare_mode(void)
{
	struct config cfg;
	int code;
	char **a = ARGV("compare", "--fail-if-slower", "3%", "a.json", "b.json");
	CHECK(parse(ARGC(a), a, &cfg, &code) == 0);
	CHECK(cfg.compare_mode);
	CHECK_STR(cfg.compare_base, "a.json");
	CHECK_STR(cfg.compare_new, "b.json");
	CHECK_NEAR(cfg.fail_if_slower, 0.03, 1e-15);
	cli_free(&cfg);
	char **b = ARGV("compare", "a.json");
	CHECK(parse(ARGC(b), b, &cfg, &code) == -1 && code == 2);
	cli_free(&cfg);
	/* Options of a benchmark run make no sense for compare. */
	char **c = ARGV("compare", "-r", "3", "a.json", "b.json");
	CHECK(parse(ARGC(c), c, &cfg, &code) == -1 && code == 2);
	cli_free(&cfg);
}


/* Every COUNT, SECONDS, PERCENT and ENUM default of the table is in the
 * config before any option, and the ones that matter have the documented
 * values. */
static void table_defaults_applied(void)
{
	struct config cfg;
	int code;
	char **a = ARGV("true");
	CHECK(parse(ARGC(a), a, &cfg, &code) == 0);
	for (size_t i = 0; i < cli_n_options; i++) {
		const struct cli_option *o = &cli_options[i];
		const char *t = (const char *)&cfg + o->off;
		if (o->kind == KIND_COUNT)
			CHECK(*(const long *)t == (long)o->def);
		else if (o->kind == KIND_SECONDS || o->kind == KIND_PERCENT)
			CHECK(*(const double *)t == o->def);
		else if (o->kind == KIND_ENUM)
			CHECK(*(const int *)t == (int)o->def);
	}
	CHECK(cfg.order == ORDER_INTERLEAVED && cfg.sort == SORT_AUTO);
	CHECK(cfg.style == STYLE_AUTO && cfg.time_unit == UNIT_AUTO);
	CHECK(cfg.match_by == MATCH_COMMAND);
	CHECK(cfg.max_time_s == 0 && cfg.timeout_s == 0 && cfg.precision == 0);
	CHECK(!cfg.runs_given && !cfg.min_runs_given && !cfg.seed_given);
	cli_free(&cfg);
}

static void count_kind(void)
{
	struct config cfg;
	int code;
	char **a = ARGV("-w", "1000000000", "-m", "1", "--max-runs=7", "x");
	CHECK(parse(ARGC(a), a, &cfg, &code) == 0);
	CHECK(cfg.warmup == 1000000000L && cfg.min_runs == 1 && cfg.max_runs == 7);
	CHECK(cfg.min_runs_given && cfg.max_runs_given && !cfg.runs_given);
	cli_free(&cfg);
	char **b = ARGV("-r", "3", "x");
	CHECK(parse(ARGC(b), b, &cfg, &code) == 0 && cfg.runs == 3 && cfg.runs_given);
	cli_free(&cfg);
	/* The limit is named (issue #20). */
	CHECK_REJECTS("invalid value '1000000001' for --warmup: expected a whole "
		      "number from 0 to 1000000000", "-w", "1000000001", "x");
	CHECK_REJECTS("invalid value '-1' for --warmup: expected a whole number "
		      "from 0 to 1000000000", "-w", "-1", "x");
	CHECK_REJECTS("invalid value '0' for --runs: expected a whole number "
		      "from 1 to 1000000000", "-r", "0", "x");
	CHECK_REJECTS("invalid value '2.5' for --min-runs: expected a whole "
		      "number from 1 to 1000000000", "-m", "2.5", "x");
	CHECK_REJECTS("invalid value '' for --max-runs: expected a whole number "
		      "from 1 to 1000000000", "--max-runs=", "x");
}

static void seconds_and_uint_kinds(void)
{
	struct config cfg;
	int code;
	char **a = ARGV("--min-time", "0", "--max-time", "0.25", "--timeout",
			"10000000", "--seed", "18446744073709551615", "x");
	CHECK(parse(ARGC(a), a, &cfg, &code) == 0);
	CHECK(cfg.min_time_s == 0 && cfg.max_time_s == 0.25);
	CHECK(cfg.timeout_s == 1e7);
	CHECK(cfg.seed_given && cfg.seed == UINT64_MAX);
	cli_free(&cfg);
	CHECK_REJECTS("invalid value '0' for --max-time: expected seconds > 0",
		      "--max-time", "0", "x");
	CHECK_REJECTS("invalid value '10000001' for --timeout: expected seconds > 0",
		      "--timeout", "10000001", "x");
	CHECK_REJECTS("invalid value '-1' for --min-time: expected seconds >= 0",
		      "--min-time", "-1", "x");
	CHECK_REJECTS("invalid value 'inf' for --min-time: expected seconds >= 0",
		      "--min-time", "inf", "x");
	CHECK_REJECTS("invalid value '-1' for --seed: expected a whole number >= 0",
		      "--seed", "-1", "x");
	CHECK_REJECTS("invalid value '18446744073709551616' for --seed: expected a "
		      "whole number >= 0", "--seed", "18446744073709551616", "x");
}

static void percent_kind(void)
{
	struct config cfg;
	int code;
	char **a = ARGV("--confidence", "99.9%", "--precision", "2",
			"--fail-if-slower", "1000", "--baseline", "b.json", "x");
	CHECK(parse(ARGC(a), a, &cfg, &code) == 0);
	CHECK_NEAR(cfg.confidence, 0.999, 1e-15);
	CHECK_NEAR(cfg.precision, 0.02, 1e-15);
	CHECK_NEAR(cfg.fail_if_slower, 10, 0);
	cli_free(&cfg);
	char **b = ARGV("--fail-if-slower", "0", "--reference", "y", "x");
	CHECK(parse(ARGC(b), b, &cfg, &code) == 0 && cfg.fail_if_slower == 0);
	cli_free(&cfg);
	/* Open ranges exclude their ends, closed ones include them. */
	CHECK_REJECTS("invalid value '50' for --confidence: expected a percentage "
		      "above 50 and below 100", "--confidence", "50", "x");
	CHECK_REJECTS("invalid value '100%' for --confidence: expected a "
		      "percentage above 50 and below 100", "--confidence", "100%", "x");
	CHECK_REJECTS("invalid value '0' for --precision: expected a percentage "
		      "above 0 and below 100", "--precision", "0", "x");
	CHECK_REJECTS("invalid value '1000.5' for --fail-if-slower: expected a "
		      "percentage from 0 to 1000", "--fail-if-slower", "1000.5", "x");
	CHECK_REJECTS("invalid value 'x' for --fail-if-slower: expected a "
		      "percentage from 0 to 1000", "compare", "--fail-if-slower",
		      "x", "a.json", "b.json");
}

/* Every word of every ENUM set parses to its value; the messages list the
 * set (without aliases). */
static void enum_and_choice_kinds(void)
{
	struct config cfg;
	int code;
	for (size_t i = 0; i < cli_n_options; i++) {
		const struct cli_option *o = &cli_options[i];
		if (o->kind != KIND_ENUM && o->kind != KIND_CHOICE)
			continue;
		CHECK(o->values != NULL && o->values[0].name != NULL);
		for (const struct cli_value *v = o->values; v->name; v++) {
			char opt[64];
			snprintf(opt, sizeof opt, "--%s=%s", o->long_name, v->name);
			/* --gate-metric needs a gate to be meaningful,
			 * --export-metrics an export that carries them. */
			char **a = ARGV(opt, "--baseline", "b.json",
					"--export-bmf", "o.json", "x");
			CHECK(parse(ARGC(a), a, &cfg, &code) == 0);
			const char *t = (const char *)&cfg + o->off;
			if (o->kind == KIND_ENUM)
				CHECK(*(const int *)t == v->value);
			else
				CHECK_STR(*(const char *const *)t, v->name);
			cli_free(&cfg);
		}
	}
	char **a = ARGV("-u", "us", "x");
	CHECK(parse(ARGC(a), a, &cfg, &code) == 0 && cfg.time_unit == UNIT_US);
	cli_free(&cfg);
	CHECK_REJECTS("invalid value 'fancy' for --style: expected auto, basic, "
		      "full, nocolor, color or none", "--style", "fancy", "x");
	CHECK_REJECTS("invalid value 'Auto' for --sort: expected auto, command or "
		      "mean-time", "--sort", "Auto", "x");
	CHECK_REJECTS("invalid value 'random' for --order: expected sequential, "
		      "interleaved or shuffled", "--order", "random", "x");
	CHECK_REJECTS("invalid value 'ns' for --time-unit: expected microsecond, "
		      "millisecond or second", "-u", "ns", "x");
	CHECK_REJECTS("invalid value 'id' for --match-by: expected command or name",
		      "--match-by", "id", "x");
	CHECK_REJECTS("invalid value 'rss' for --gate-metric: expected one of "
		      "wall_time, cpu_time, user_time, system_time, peak_rss, "
		      "task_clock, page_faults, instructions, cycles, cache_misses, "
		      "branch_misses, sim_instructions, sim_cycles, sim_i1_misses, "
		      "sim_d1_read_misses, sim_d1_write_misses, sim_ll_instr_misses, "
		      "sim_ll_read_misses, sim_ll_write_misses, or a name defined "
		      "with --metric", "--gate-metric",
		      "rss", "x");
	CHECK_REJECTS("invalid value '' for --output: expected null, pipe, inherit "
		      "or a file", "--output", "", "x");
}

static void word_list_and_export_kinds(void)
{
	struct config cfg;
	int code;
	char **a = ARGV("--input", "in", "--reference", "ref", "-s", "s1", "-s",
			"s2", "--save-baseline", "b.json", "--export-csv", "-",
			"--baseline", "old.json", "c1");
	CHECK(parse(ARGC(a), a, &cfg, &code) == 0);
	CHECK_STR(cfg.input, "in");
	CHECK_STR(cfg.reference, "ref");
	CHECK_STR(cfg.baseline, "old.json");
	CHECK(cfg.setup.n == 2);
	CHECK_STR(cfg.setup.v[1], "s2");
	CHECK(cfg.n_exports == 2);
	CHECK(cfg.exports[0].format == EXPORT_JSON);
	CHECK_STR(cfg.exports[0].option, "--save-baseline");
	CHECK(cfg.exports[1].format == EXPORT_CSV && cfg.exports[1].option == NULL);
	CHECK_STR(cfg.exports[1].path, "-");
	cli_free(&cfg);
	CHECK_REJECTS("invalid value '' for --input: expected a file", "--input=",
		      "x");
	CHECK_REJECTS("invalid value '' for --reference: expected a command",
		      "--reference", "");
	CHECK_REJECTS("invalid value '' for --export-orgmode: expected a file "
		      "name, or - for stdout", "--export-orgmode=", "x");
}

static void special_messages(void)
{
	CHECK_REJECTS("invalid value '1,256' for --ignore-failure: expected exit "
		      "codes 1-255, comma-separated", "-i=1,256", "x");
	CHECK_REJECTS("unknown counter 'cycle' in --counters (known: task-clock, "
		      "page-faults, instructions, cycles, cache-references, "
		      "cache-misses, branches, branch-misses; or none, sim or sim-cache "
		      "alone)",
		      "--counters", "cycles,cycle", "x");
	CHECK_REJECTS("--counters 'none,cycles': 'none' cannot be combined with "
		      "counter names", "--counters", "none,cycles", "x");
	/* With no command left, a -P bound that is no number is named first. */
	CHECK_REJECTS("-P/--parameter-scan n: MAX 'echo' is not a number "
		      "(expected e.g. 10, -3 or 0.25)", "-P", "n", "1", "echo");
	CHECK_REJECTS("-P/--parameter-scan n: STEP (-D) 'x' is not a number "
		      "(expected e.g. 10, -3 or 0.25)", "-D", "x", "-P", "n", "1",
		      "2");
	CHECK_REJECTS("no command to benchmark: '2' was taken as the MAX of "
		      "-P/--parameter-scan NAME MIN MAX", "-P", "n", "-1.5", "2");
	CHECK_REJECTS("--require-all takes no value", "--require-all=1", "x");
	CHECK_REJECTS("-r needs NUM", "-r");
}

/* --list-options: one line per entry, the fields as the table has them. */
static void list_options(void)
{
	FILE *tmp = tmpfile();
	cli_list_options(tmp);
	rewind(tmp);
	char line[1024];
	size_t n = 0;
	bool runs = false, style = false, counters = false, many = false;
	while (fgets(line, sizeof line, tmp)) {
		n++;
		runs |= strcmp(line, "runs\tr\tcount\t\t\trun\t\t[1,1000000000]"
			       "\tonce\n") == 0;
		style |= strcmp(line, "style\t\tenum\tauto|basic|full|nocolor|color|"
				"none\t\tboth\tauto\t\tonce\n") == 0;
		many |= strncmp(line, "export-json\t", 12) == 0 &&
			strstr(line, "\tmany\n") != NULL;
		counters |= strncmp(line, "counters\t\tspecial\ttask-clock|", 28) == 0 &&
			    strstr(line, "|branch-misses|none|sim|sim-cache\tcounter\trun\t") != NULL;
	}
	fclose(tmp);
	CHECK(n == cli_n_options);
	CHECK(runs);
	CHECK(style);
	CHECK(counters);
	CHECK(many);
}

static void table_is_consistent(void)
{
	/* Every option has a help text and a unique long name and letter, and
	 * its fields agree with its kind; every id has an entry. */
	CHECK(cli_n_options == OPT__COUNT);
	for (size_t i = 0; i < cli_n_options; i++) {
		CHECK(cli_options[i].help && cli_options[i].help[0]);
		const struct cli_option *o = &cli_options[i];
		CHECK((o->arity == ARG_NONE) == (o->arg_name == NULL));
		CHECK((o->kind == KIND_SPECIAL) == (o->handler != NULL));
		CHECK(o->kind != KIND_FLAG || o->arity == ARG_NONE);
		CHECK((o->kind == KIND_ENUM || o->kind == KIND_CHOICE) <= (o->values != NULL));
		CHECK(o->show_def != DEF_TEXT || o->def_text != NULL);
		CHECK(cli_option(o->id) == o);
		for (size_t j = i + 1; j < cli_n_options; j++) {
			CHECK(strcmp(cli_options[i].long_name, cli_options[j].long_name) != 0);
			CHECK(cli_options[i].short_name == 0 ||
			      cli_options[i].short_name != cli_options[j].short_name);
		}
	}
}

static void shell_forms(void)
{
	struct config cfg;
	int code;
	char **a = ARGV("-S", "bash --norc", "true");
	CHECK(parse(4, a, &cfg, &code) == 0);
	CHECK(cfg.shell_mode == SHELL_FORCE);
	CHECK_STR(cfg.shell, "bash");
	CHECK(cfg.shell_args && cfg.shell_args[0] && cfg.shell_args[1] == NULL);
	if (cfg.shell_args && cfg.shell_args[0])
		CHECK_STR(cfg.shell_args[0], "--norc");
	cli_free(&cfg);
	char **b = ARGV("--shell=default", "true");
	CHECK(parse(3, b, &cfg, &code) == 0);
	CHECK(cfg.shell_mode == SHELL_FORCE);
	CHECK_STR(cfg.shell, "sh");
	CHECK(cfg.shell_args && cfg.shell_args[0] == NULL);
	cli_free(&cfg);
	char **c = ARGV("-S", "zsh", "true");
	CHECK(parse(4, c, &cfg, &code) == 0);
	CHECK_STR(cfg.shell, "zsh");
	cli_free(&cfg);
	char **d = ARGV("-S", "bash 'x", "true");
	CHECK(parse(4, d, &cfg, &code) == -1 && code == 2);
	cli_free(&cfg);
}

/* Every option is in a section of --help, and every section heading
 * appears (the help is read the way the man page is made). */
static void help_sections(void)
{
	for (size_t i = 0; i < cli_n_options; i++)
		CHECK(cli_help_group[cli_options[i].id] != 0);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cli_print_help(f, false);
	fclose(f);
	CHECK(strstr(text, "\nHow many runs:\n  -w, --warmup NUM\n") != NULL);
	CHECK(strstr(text, "\nExports:\n      --export-json FILE\n") != NULL);
	CHECK(strstr(text, "\nHistory:\n      --history TARGET\n") != NULL);
	free(text);
}

int main(void)
{
	RUN(defaults);
	RUN(value_forms);
	RUN(ignore_codes);
	RUN(multi_word_options);
	RUN(conflicts_and_ranges);
	RUN(percent_and_sets);
	RUN(compare_mode);
	RUN(shell_forms);
	RUN(table_defaults_applied);
	RUN(count_kind);
	RUN(seconds_and_uint_kinds);
	RUN(percent_kind);
	RUN(enum_and_choice_kinds);
	RUN(word_list_and_export_kinds);
	RUN(special_messages);
	RUN(list_options);
	RUN(table_is_consistent);
	RUN(help_sections);
	UNIT_EXIT();
}
