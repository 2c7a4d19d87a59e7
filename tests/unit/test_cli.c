/* Unit tests for option parsing (cli.c).  Error cases print their message
 * on stderr, which the harness ignores; the return value and exit code are
 * what is checked here (tests/e2e checks the messages). */
#include "cli.h"
#include "unit.h"

#include <stdio.h>
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

static void table_is_consistent(void)
{
	/* Every option has a help text and a unique long name and letter. */
	for (size_t i = 0; i < cli_n_options; i++) {
		CHECK(cli_options[i].help && cli_options[i].help[0]);
		CHECK((cli_options[i].kind == ARG_NONE) == (cli_options[i].arg_name == NULL));
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
	RUN(table_is_consistent);
	UNIT_EXIT();
}
