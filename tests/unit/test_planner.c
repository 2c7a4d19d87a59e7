/*
 * Unit tests: the plan produced from command lines (planner.c), without
 * running anything: parameter values, Cartesian order, substitution, names,
 * hooks, errors, and the run-order sequences.
 */
#include "cli.h"
#include "cli_layers.h"
#include "planner.h"
#include "unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Parse a NULL-terminated argument list (program name first) into cfg. */
static int parse(struct config *cfg, const char **args)
{
	int argc = 0;
	while (args[argc])
		argc++;
	int code;
	return cli_parse(argc, (char **)args, cfg, &code);
}

/* Build the plan of args; returns planner_build's result, err filled. */
static int build(const char **args, struct config *cfg, struct plan *plan,
		 char *err, size_t errlen)
{
	err[0] = '\0';
	if (parse(cfg, args) != 0)
		return -2;
	struct plan_options po = cli_plan_options(cfg);
	return planner_build(&po, plan, err, errlen);
}

/* Values of one scan joined with spaces into buf; -1 on error. */
static long scan(const char *min, const char *max, const char *step,
		 char *buf, size_t len, char *err, size_t errlen)
{
	char **v;
	long n = planner_scan_values("x", min, max, step, &v, err, errlen);
	if (n < 0)
		return n;
	buf[0] = '\0';
	size_t used = 0;
	for (long i = 0; i < n; i++) {
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 i ? " " : "", v[i]);
		free(v[i]);
	}
	free(v);
	return n;
}

static void scan_integers(void)
{
	char buf[256], err[256];
	CHECK(scan("1", "5", NULL, buf, sizeof buf, err, sizeof err) == 5);
	CHECK_STR(buf, "1 2 3 4 5");
	CHECK(scan("-2", "2", "2", buf, sizeof buf, err, sizeof err) == 3);
	CHECK_STR(buf, "-2 0 2");
	CHECK(scan("7", "7", NULL, buf, sizeof buf, err, sizeof err) == 1);
	CHECK_STR(buf, "7");
	/* A step that does not divide the range stops at or below MAX. */
	CHECK(scan("0", "10", "3", buf, sizeof buf, err, sizeof err) == 4);
	CHECK_STR(buf, "0 3 6 9");
}

/* Expected values are exact decimal arithmetic (what Python's
 * [Decimal("0.1") * k for k in range(1, 11)] prints), not binary floats. */
static void scan_decimals_without_drift(void)
{
	char buf[512], err[256];
	CHECK(scan("0.1", "1.0", "0.1", buf, sizeof buf, err, sizeof err) == 10);
	CHECK_STR(buf, "0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0");
	CHECK(scan("0", "1", "0.1", buf, sizeof buf, err, sizeof err) == 11);
	CHECK_STR(buf, "0.0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1.0");
	CHECK(scan("1", "2", "0.25", buf, sizeof buf, err, sizeof err) == 5);
	CHECK_STR(buf, "1.00 1.25 1.50 1.75 2.00");
	CHECK(scan("-1", "1", "0.5", buf, sizeof buf, err, sizeof err) == 5);
	CHECK_STR(buf, "-1.0 -0.5 0.0 0.5 1.0");
	CHECK(scan("-0.3", "-0.1", "0.1", buf, sizeof buf, err, sizeof err) == 3);
	CHECK_STR(buf, "-0.3 -0.2 -0.1");
	/* 0.7 + 0.1 + 0.1 + 0.1 in doubles is 0.9999999999999999 < 1. */
	CHECK(scan("0.7", "1", "0.1", buf, sizeof buf, err, sizeof err) == 4);
	CHECK_STR(buf, "0.7 0.8 0.9 1.0");
	CHECK(scan("0.000000001", "0.000000003", "0.000000001", buf, sizeof buf,
		   err, sizeof err) == 3);
	CHECK_STR(buf, "0.000000001 0.000000002 0.000000003");
	/* 100000 values is the limit, not beyond. */
	CHECK(scan("0.00001", "1", "0.00001", buf, sizeof buf, err, sizeof err) ==
	      100000);
}

static void scan_errors(void)
{
	char buf[64], err[256];
	CHECK(scan("5", "1", NULL, buf, sizeof buf, err, sizeof err) == -1);
	CHECK(strstr(err, "reversed (MIN 5 is greater than MAX 1)"));
	CHECK(scan("1", "5", "0", buf, sizeof buf, err, sizeof err) == -1);
	CHECK(strstr(err, "must be greater than 0, not '0'"));
	CHECK(scan("1", "5", "-1", buf, sizeof buf, err, sizeof err) == -1);
	CHECK(strstr(err, "greater than 0"));
	CHECK(scan("1", "5", "0.0", buf, sizeof buf, err, sizeof err) == -1);
	CHECK(scan("a", "5", NULL, buf, sizeof buf, err, sizeof err) == -1);
	CHECK(strstr(err, "MIN 'a' is not a number"));
	CHECK(scan("1", "", NULL, buf, sizeof buf, err, sizeof err) == -1);
	CHECK(strstr(err, "MAX '' is not a number"));
	const char *bad[] = {"1e3", "0x10", "1.2.3", "-", ".", "+", " 1", "1 ",
			     "inf", "nan", "1,5"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK(scan("0", bad[i], "1", buf, sizeof buf, err, sizeof err) == -1);
	CHECK(scan("1.5", "3", NULL, buf, sizeof buf, err, sizeof err) == -1);
	CHECK(strstr(err, "need a step"));
	CHECK(scan("1", "200000", NULL, buf, sizeof buf, err, sizeof err) == -1);
	CHECK(strstr(err, "200000 values"));
	CHECK(scan("0", "1", "0.0000000001", buf, sizeof buf, err, sizeof err) == -1);
	CHECK(strstr(err, "more than 9 decimals"));
	CHECK(scan("-9000000000000000000", "9000000000000000000", NULL, buf,
		   sizeof buf, err, sizeof err) == -1);
	CHECK(scan("0", "99999999999999999999", NULL, buf, sizeof buf, err,
		   sizeof err) == -1);
}

static void no_parameters(void)
{
	const char *a[] = {"cbench", "-n", "first", "true", "sleep 1", NULL};
	struct config cfg;
	struct plan p;
	char err[256];
	CHECK(build(a, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n == 2);
	CHECK_STR(p.bench[0].name, "first");
	CHECK_STR(p.bench[0].command, "true");
	CHECK_STR(p.bench[1].name, "sleep 1");
	CHECK(p.bench[0].n_params == 0 && p.bench[0].params == NULL);
	CHECK(p.bench[0].setup == NULL && p.bench[0].cleanup == NULL);
	CHECK_STR(p.bench[0].output, "null");
	CHECK(!p.bench[0].is_reference);
	planner_free(&p);
	cli_free(&cfg);
}

/* As hyperfine (src/command.rs, test_build_commands_cross_product): the
 * commands vary fastest, then the first parameter given, then the next. */
static void cartesian_order(void)
{
	const char *a[] = {"cbench", "-P", "a", "1", "2", "-L", "b", "x,y",
			   "echo A{a}{b}", "echo B{a}{b}", NULL};
	const char *want[] = {"echo A1x", "echo B1x", "echo A2x", "echo B2x",
			      "echo A1y", "echo B1y", "echo A2y", "echo B2y"};
	struct config cfg;
	struct plan p;
	char err[256];
	CHECK(build(a, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n == 8);
	for (size_t i = 0; i < 8; i++) {
		CHECK_STR(p.bench[i].command, want[i]);
		CHECK_STR(p.bench[i].name, want[i]);
		CHECK(p.bench[i].n_params == 2);
		CHECK_STR(p.bench[i].params[0].name, "a");
		CHECK_STR(p.bench[i].params[1].name, "b");
	}
	CHECK_STR(p.bench[5].params[0].value, "1");
	CHECK_STR(p.bench[5].params[1].value, "y");
	planner_free(&p);
	cli_free(&cfg);
}

static void three_parameters_and_decimal_step(void)
{
	const char *a[] = {"cbench", "-L", "c", "gcc,clang", "-P", "o", "0", "1",
			   "-P", "f", "0.5", "1.0", "-D", "0.5", "cc -O{o} -f{f} {c}",
			   NULL};
	struct config cfg;
	struct plan p;
	char err[256];
	CHECK(build(a, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n == 8);
	CHECK_STR(p.bench[0].command, "cc -O0 -f0.5 gcc");
	CHECK_STR(p.bench[1].command, "cc -O0 -f0.5 clang");
	CHECK_STR(p.bench[2].command, "cc -O1 -f0.5 gcc");
	CHECK_STR(p.bench[7].command, "cc -O1 -f1.0 clang");
	planner_free(&p);
	cli_free(&cfg);
}

static void list_escapes(void)
{
	const char *a[] = {"cbench", "-L", "s", "a\\,b,c,d\\", "x {s}", NULL};
	struct config cfg;
	struct plan p;
	char err[256];
	CHECK(build(a, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n == 3);
	CHECK_STR(p.bench[0].command, "x a,b");
	CHECK_STR(p.bench[1].command, "x c");
	CHECK_STR(p.bench[2].command, "x d\\");
	planner_free(&p);
	cli_free(&cfg);
}

/* Check planner_list_values(list) against want, NULL-terminated. */
static void check_tokens(const char *list, const char *const *want)
{
	char **v;
	size_t n = planner_list_values(list, &v), k = 0;
	for (; want[k] && k < n; k++)
		if (strcmp(v[k], want[k]) != 0)
			break;
	if (want[k] != NULL || k != n) {
		printf("FAIL %s: '%s': value %zu is '%s', expected '%s' (%zu values)\n",
		       unit_name, list, k, k < n ? v[k] : "(none)",
		       want[k] ? want[k] : "(none)", n);
		unit_state = 1;
	}
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* hyperfine 1.20's tokenize, its own unit tests (src/parameter/
 * tokenize.rs: test_tokenize_single_value, _multiple_values,
 * _empty_values), one for one. */
static void list_values_as_hyperfine(void)
{
	check_tokens("", (const char *[]){"", NULL});
	check_tokens("foo", (const char *[]){"foo", NULL});
	check_tokens(" ", (const char *[]){" ", NULL});
	check_tokens("hello\\, world!", (const char *[]){"hello, world!", NULL});
	check_tokens("\\,", (const char *[]){",", NULL});
	check_tokens("\\,\\,\\,", (const char *[]){",,,", NULL});
	check_tokens("\\n", (const char *[]){"\\n", NULL});
	check_tokens("\\\\", (const char *[]){"\\", NULL});
	check_tokens("\\\\\\,", (const char *[]){"\\,", NULL});
	check_tokens("foo,bar,baz", (const char *[]){"foo", "bar", "baz", NULL});
	check_tokens("hello world,foo", (const char *[]){"hello world", "foo", NULL});
	check_tokens("hello\\,world!,baz", (const char *[]){"hello,world!", "baz", NULL});
	check_tokens("foo,,bar", (const char *[]){"foo", "", "bar", NULL});
	check_tokens(",bar", (const char *[]){"", "bar", NULL});
	check_tokens("bar,", (const char *[]){"bar", "", NULL});
	check_tokens(",,", (const char *[]){"", "", "", NULL});
	/* A backslash at the end is kept (hyperfine's None arm). */
	check_tokens("d\\", (const char *[]){"d\\", NULL});
}

/* An empty value is a benchmark of its own, its name showing it; a list
 * that repeats a value is still refused (build_errors). */
static void list_empty_value(void)
{
	const char *a[] = {"cbench", "-L", "v", "a,,b", "echo [{v}]", "true",
			   NULL};
	struct config cfg;
	struct plan p;
	char err[256];
	CHECK(build(a, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n == 6);
	CHECK_STR(p.bench[2].command, "echo []");
	CHECK_STR(p.bench[2].name, "echo []");
	CHECK_STR(p.bench[3].name, "true (v = )");
	CHECK_STR(p.bench[3].params[0].value, "");
	CHECK(p.bench[3].base_name == NULL);
	planner_free(&p);
	cli_free(&cfg);
}

static void substitution_everywhere(void)
{
	const char *a[] = {"cbench", "-L", "n", "4", "-n", "make {n} {x}",
			   "-s", "setup {n}", "-p", "prep {n}", "-C", "conc {n}",
			   "-c", "clean {n} {{n}} {n", "make -j{n} {x} ${n}", NULL};
	struct config cfg;
	struct plan p;
	char err[256];
	CHECK(build(a, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n == 1);
	struct plan_bench *b = &p.bench[0];
	CHECK_STR(b->command, "make -j4 {x} $4");
	CHECK_STR(b->name, "make 4 {x}");
	CHECK_STR(b->setup, "setup 4");
	CHECK_STR(b->prepare, "prep 4");
	CHECK_STR(b->conclude, "conc 4");
	CHECK_STR(b->cleanup, "clean 4 {4} {n");
	planner_free(&p);
	cli_free(&cfg);
}

/* A value that itself looks like {NAME} is not substituted again. */
static void substitution_single_pass(void)
{
	const char *a[] = {"cbench", "-L", "a", "{b}", "-L", "b", "B", "x {a} {b}",
			   NULL};
	struct config cfg;
	struct plan p;
	char err[256];
	CHECK(build(a, &cfg, &p, err, sizeof err) == 0);
	CHECK_STR(p.bench[0].command, "x {b} B");
	planner_free(&p);
	cli_free(&cfg);
}

static void unused_parameter_shown_in_name(void)
{
	const char *a[] = {"cbench", "-L", "rep", "1,2", "-P", "n", "1", "1",
			   "-n", "fast", "sleep {n}", "sleep 0", NULL};
	struct config cfg;
	struct plan p;
	char err[256];
	CHECK(build(a, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n == 4);
	/* -n "fast" shows neither parameter; "sleep 0" does not use them. */
	CHECK_STR(p.bench[0].name, "fast (rep = 1, n = 1)");
	CHECK_STR(p.bench[0].command, "sleep 1");
	CHECK_STR(p.bench[1].name, "sleep 0 (rep = 1, n = 1)");
	CHECK_STR(p.bench[3].name, "sleep 0 (rep = 2, n = 1)");
	planner_free(&p);

	const char *b[] = {"cbench", "-L", "rep", "1,2", "-L", "n", "5",
			   "sleep {n}", NULL};
	cli_free(&cfg);
	CHECK(build(b, &cfg, &p, err, sizeof err) == 0);
	CHECK_STR(p.bench[1].name, "sleep 5 (rep = 2)");
	planner_free(&p);
	cli_free(&cfg);
}

static void hooks_per_command_and_outputs(void)
{
	const char *a[] = {"cbench", "-L", "v", "1,2", "-s", "sa {v}", "-s", "sb",
			   "--output", "pipe", "--output", "out-{v}.txt",
			   "-c", "clean", "a {v}", "b {v}", NULL};
	struct config cfg;
	struct plan p;
	char err[256];
	CHECK(build(a, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n == 4);
	CHECK_STR(p.bench[0].setup, "sa 1");
	CHECK_STR(p.bench[1].setup, "sb");
	CHECK_STR(p.bench[2].setup, "sa 2");
	CHECK_STR(p.bench[3].cleanup, "clean");
	CHECK_STR(p.bench[0].output, "pipe");
	/* --output is a file name as given: not substituted. */
	CHECK_STR(p.bench[1].output, "out-{v}.txt");
	planner_free(&p);
	cli_free(&cfg);

	const char *b[] = {"cbench", "--show-output", "a", "b", NULL};
	CHECK(build(b, &cfg, &p, err, sizeof err) == 0);
	CHECK_STR(p.bench[0].output, "inherit");
	CHECK_STR(p.bench[1].output, "inherit");
	planner_free(&p);
	cli_free(&cfg);
}

/* The reference comes first, takes the first of each per-command hook,
 * and is not parameterised; -n names only the other commands and
 * --reference-name the reference (hyperfine 1.19's rule). */
static void reference_first(void)
{
	const char *a[] = {"cbench", "--reference", "old", "-n", "new {k}",
			   "-s", "s0", "-s", "s1 {k}", "-L", "k", "1,2",
			   "new {k}", NULL};
	struct config cfg;
	struct plan p;
	char err[256];
	CHECK(build(a, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n == 3);
	CHECK(p.bench[0].is_reference);
	CHECK_STR(p.bench[0].name, "old");
	CHECK_STR(p.bench[0].command, "old");
	CHECK_STR(p.bench[0].setup, "s0");
	CHECK(p.bench[0].n_params == 0);
	CHECK(!p.bench[1].is_reference);
	CHECK_STR(p.bench[1].name, "new 1");
	CHECK_STR(p.bench[2].setup, "s1 2");
	planner_free(&p);
	cli_free(&cfg);

	const char *b[] = {"cbench", "--reference", "old", "-n", "A",
			   "--reference-name", "OLD", "-n", "B", "c1", "c2", NULL};
	CHECK(build(b, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n == 3);
	CHECK_STR(p.bench[0].name, "OLD");
	CHECK_STR(p.bench[1].name, "A");
	CHECK_STR(p.bench[2].name, "B");
	planner_free(&p);
	cli_free(&cfg);
}

static void build_errors(void)
{
	struct {
		const char *args[12];
		const char *msg;
	} t[] = {
		{{"cbench", "-L", "n", "1", "-P", "n", "1", "2", "x", NULL},
		 "parameter 'n' is defined twice"},
		/* Repeated values would give benchmarks that look alike (two
		 * empty values too). */
		{{"cbench", "-L", "n", "a,b,a", "x", NULL},
		 "-L/--parameter-list n: value 'a' is given twice"},
		{{"cbench", "-L", "n", ",", "x", NULL},
		 "-L/--parameter-list n: value '' is given twice"},
		{{"cbench", "-L", "", "1", "x", NULL}, "invalid parameter name ''"},
		{{"cbench", "-L", "a{", "1", "x", NULL}, "invalid parameter name"},
		{{"cbench", "-P", "a", "1", "1000", "-P", "b", "1", "101", "x", NULL},
		 "more than 100000 combinations"},
		{{"cbench", "-P", "a", "1", "50000", "x", "y", "z", NULL},
		 "50000 parameter combinations x 3 commands make 150000"},
		{{"cbench", "-P", "a", "3", "1", "x", NULL}, "reversed"},
		{{"cbench", "-P", "a", "1", "3", "-D", "0", "x", NULL},
		 "greater than 0"},
		{{"cbench", "-P", "a", "one", "3", "x", NULL}, "not a number"},
		{{"cbench", "--reference", "r {a}", "-L", "a", "1", "x", NULL},
		 "its command 'r {a}' uses {a}"},
		{{"cbench", "--reference", "r", "-p", "p {a}", "-L", "a", "1", "x",
		  NULL}, "its --prepare 'p {a}' uses {a}: give that option once per"},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct config cfg;
		struct plan p;
		char err[256];
		int rc = build(t[i].args, &cfg, &p, err, sizeof err);
		if (rc != -1 || strstr(err, t[i].msg) == NULL) {
			printf("FAIL %s: case %zu: rc %d, err '%s', expected '%s'\n",
			       unit_name, i, rc, err, t[i].msg);
			unit_state = 1;
			cli_free(&cfg);
			return;
		}
		CHECK(p.n == 0 && p.bench == NULL);
		CHECK(strchr(err, '\n') == NULL);
		cli_free(&cfg);
	}
}

/* Drive the order iterator with each benchmark wanting runs[i] runs;
 * write the sequence of benchmark indexes into seq. */
static size_t drive(enum run_order order, uint64_t seed, const size_t *runs,
		    size_t n, long *seq, size_t max)
{
	bool active[16];
	size_t done[16] = {0}, len = 0;
	for (size_t i = 0; i < n; i++)
		active[i] = runs[i] > 0;
	struct planner_order *o = planner_order_new(order, n, NULL, seed);
	long i;
	while (len < max && (i = planner_order_next(o, active)) >= 0) {
		seq[len++] = i;
		if (++done[i] >= runs[i])
			active[i] = false;
	}
	planner_order_free(o);
	return len;
}

static bool seq_is(const long *seq, size_t len, const long *want, size_t wlen)
{
	if (len != wlen)
		return false;
	for (size_t i = 0; i < len; i++)
		if (seq[i] != want[i])
			return false;
	return true;
}

static void order_sequential(void)
{
	long seq[64];
	size_t runs[] = {2, 3, 1};
	size_t len = drive(ORDER_SEQUENTIAL, 0, runs, 3, seq, 64);
	const long want[] = {0, 0, 1, 1, 1, 2};
	CHECK(seq_is(seq, len, want, 6));
}

/* Every other round in reverse; adaptive counts: a round skips
 * benchmarks that have enough runs (rounds 0 1 2 | 2 0 | 0 2 | 2). */
static void order_interleaved(void)
{
	long seq[64];
	size_t runs[] = {3, 1, 4};
	size_t len = drive(ORDER_INTERLEAVED, 0, runs, 3, seq, 64);
	const long want[] = {0, 1, 2, 2, 0, 0, 2, 2};
	CHECK(seq_is(seq, len, want, 8));

	/* Two: each follows itself as often as the other (A B B A A B). */
	size_t two[] = {3, 3};
	len = drive(ORDER_INTERLEAVED, 0, two, 2, seq, 64);
	const long ab[] = {0, 1, 1, 0, 0, 1};
	CHECK(seq_is(seq, len, ab, 6));

	size_t three[] = {2, 2, 2};
	len = drive(ORDER_INTERLEAVED, 0, three, 3, seq, 64);
	const long abc[] = {0, 1, 2, 2, 1, 0};
	CHECK(seq_is(seq, len, abc, 6));
}

/*
 * Expected sequences computed independently with a Python transcription of
 * SplitMix64 (Steele et al. 2014; first output for seed 0 is
 * 0xe220a8397b1dcdaf) and Fisher-Yates from the last slot down, with
 * rejection below 2^64 - 1 - (2^64 - 1) % bound.
 */
static void order_shuffled(void)
{
	long seq[64];
	size_t four[] = {3, 3, 3, 3};
	size_t len = drive(ORDER_SHUFFLED, 42, four, 4, seq, 64);
	const long want42[] = {2, 0, 3, 1, 2, 3, 1, 0, 0, 3, 2, 1};
	CHECK(seq_is(seq, len, want42, 12));

	size_t three[] = {4, 4, 4};
	len = drive(ORDER_SHUFFLED, 1, three, 3, seq, 64);
	const long want1[] = {0, 1, 2, 2, 1, 0, 1, 2, 0, 2, 1, 0};
	CHECK(seq_is(seq, len, want1, 12));

	/* Same seed, same order; every round is a permutation. */
	long again[64];
	CHECK(drive(ORDER_SHUFFLED, 1, three, 3, again, 64) == 12);
	CHECK(seq_is(again, 12, want1, 12));
	size_t big[8] = {5, 5, 5, 5, 5, 5, 5, 5};
	len = drive(ORDER_SHUFFLED, 12345, big, 8, seq, 64);
	CHECK(len == 40);
	for (size_t r = 0; r < 5; r++) {
		unsigned seen = 0;
		for (size_t k = 0; k < 8; k++)
			seen |= 1u << seq[r * 8 + k];
		CHECK(seen == 0xff);
	}
	/* A different seed gives a different order. */
	long other[64];
	drive(ORDER_SHUFFLED, 12346, big, 8, other, 64);
	CHECK(!seq_is(seq, 40, other, 40));
}

static void order_shuffled_skips_finished(void)
{
	long seq[64];
	size_t runs[] = {1, 3, 2};
	size_t len = drive(ORDER_SHUFFLED, 7, runs, 3, seq, 64);
	CHECK(len == 6);
	size_t count[3] = {0};
	for (size_t i = 0; i < len; i++)
		count[seq[i]]++;
	CHECK(count[0] == 1 && count[1] == 3 && count[2] == 2);
	/* Rounds: the last run of a benchmark ends its participation. */
	bool none[3] = {false, false, false};
	struct planner_order *o = planner_order_new(ORDER_SHUFFLED, 3, NULL, 7);
	CHECK(planner_order_next(o, none) == -1);
	planner_order_free(o);
	planner_order_free(NULL);
}

static void stop_rules(void)
{
	struct config cfg;
	const char *a[] = {"cbench", "-r", "3", "x", NULL};
	CHECK(parse(&cfg, a) == 0);
	struct plan_stop stop = cli_plan_stop(&cfg);
	CHECK(planner_next(&stop, 2, 10, NAN) == STOP_CONTINUE);
	CHECK(planner_next(&stop, 3, 0, NAN) == STOP_RUNS);
	cli_free(&cfg);
	const char *b[] = {"cbench", "-m", "2", "-M", "5", "--min-time", "1", "x",
			   NULL};
	CHECK(parse(&cfg, b) == 0);
	stop = cli_plan_stop(&cfg);
	CHECK(planner_next(&stop, 1, 5, NAN) == STOP_CONTINUE);
	CHECK(planner_next(&stop, 2, 0.5, NAN) == STOP_CONTINUE);
	CHECK(planner_next(&stop, 2, 1.0, NAN) == STOP_ENOUGH);
	CHECK(planner_next(&stop, 5, 0.1, NAN) == STOP_MAX_RUNS);
	cli_free(&cfg);
}

/* A state group taking turns with adaptive counts: a member stops on its
 * own only at a cap; the group's round end decides the rest. */
static void group_stop_rules(void)
{
	struct plan_stop st = {.min_runs = 3, .min_time_s = 1.0};
	/* Its own goal reached: it waits for the group. */
	CHECK(planner_next_member(&st, 5, 2.0, NAN) == STOP_CONTINUE);
	st.max_runs = 5;
	CHECK(planner_next_member(&st, 5, 0.5, NAN) == STOP_MAX_RUNS);
	CHECK(planner_next_member(&st, 5, 2.0, NAN) == STOP_ENOUGH);
	st.max_runs = 0;
	st.max_time_s = 0.8;
	CHECK(planner_next_member(&st, 4, 0.9, NAN) == STOP_MAX_TIME);
	st.max_time_s = 0;
	/* -r: each its own, as planner_next. */
	struct plan_stop fixed = {.runs = 4};
	CHECK(planner_next_member(&fixed, 4, 0, NAN) == STOP_RUNS);

	/* --min-time: the budgets pooled, k * min-time together. */
	struct planner_member m[2] = {{.n = 10, .cost_s = 0.1, .active = true},
				      {.n = 10, .cost_s = 1.5, .active = true}};
	CHECK(!planner_group_done(&st, m, 2));   /* 1.6 s < 2 s */
	m[0].cost_s = 0.5;
	CHECK(planner_group_done(&st, m, 2));    /* 2.0 s */
	m[0].n = m[1].n = 2;                     /* --min-runs 3 not reached */
	CHECK(!planner_group_done(&st, m, 2));
	/* A member a cap stopped: its cost counts, its runs do not. */
	m[0] = (struct planner_member){.n = 1, .cost_s = 1.9, .active = false};
	m[1] = (struct planner_member){.n = 3, .cost_s = 0.1, .active = true};
	CHECK(planner_group_done(&st, m, 2));
	/* Every member at its own goal: done. */
	m[0] = (struct planner_member){.n = 3, .cost_s = 1.0, .active = true};
	m[1] = (struct planner_member){.n = 3, .cost_s = 1.0, .active = true};
	CHECK(planner_group_done(&st, m, 2));

	/* --precision: every member still taking runs at its goal. */
	struct plan_stop pr = {.min_runs = 3, .precision = 0.01};
	m[0] = (struct planner_member){.n = 9, .rel_halfwidth = 0.005, .active = true};
	m[1] = (struct planner_member){.n = 9, .rel_halfwidth = 0.02, .active = true};
	CHECK(!planner_group_done(&pr, m, 2));
	m[1].rel_halfwidth = 0.01;
	CHECK(planner_group_done(&pr, m, 2));
	m[1] = (struct planner_member){.n = 4, .rel_halfwidth = 0.5, .active = false};
	CHECK(planner_group_done(&pr, m, 2));
}

/*
 * The runner's loop (bench.c run_all) over simulated runs: two benchmarks
 * of one group, interleaved, one run of A costing a_s and one of B b_s,
 * with stop (no -r).  Each run asks planner_next_member; at the end of
 * each round of the group planner_group_done decides for all.  n[] gets
 * the runs each took, *cost their cost together.
 */
static void simulate_group(const struct plan_stop *stop, double a_s, double b_s,
			   size_t n[2], double *cost)
{
	struct planner_order *o = planner_order_new(ORDER_INTERLEAVED, 2, NULL, 0);
	bool active[2] = {true, true};
	double c[2] = {0, 0}, each[2] = {a_s, b_s};
	size_t left = 2;
	n[0] = n[1] = 0;
	long i;
	while ((i = planner_order_next(o, active)) >= 0) {
		n[i]++;
		c[i] += each[i];
		if (planner_next_member(stop, n[i], c[i], NAN) != STOP_CONTINUE)
			active[i] = false;
		if (--left > 0)
			continue;
		struct planner_member m[2] = {{n[0], c[0], NAN, active[0]},
					      {n[1], c[1], NAN, active[1]}};
		if (planner_group_done(stop, m, 2))
			active[0] = active[1] = false;
		left = (size_t)active[0] + active[1];
	}
	planner_order_free(o);
	*cost = c[0] + c[1];
}

/* Very different costs stop together, with the time the two would take
 * alone (2 x --min-time), not the costly one's runs stretched to the
 * cheap one's count; --max-runs caps both alike. */
static void group_stops_together(void)
{
	struct plan_stop st = {.min_runs = 10, .min_time_s = 3.0};
	size_t n[2];
	double cost;
	simulate_group(&st, 0.01, 0.1, n, &cost);
	CHECK(n[0] == n[1]);
	CHECK(n[0] == 55);                 /* 55 x 0.11 s >= 6 s > 54 x 0.11 s */
	CHECK(cost >= 6.0 && cost < 6.0 + 0.11);
	/* Alone, A would take 300 runs and B 30: min(300, 30) rounds pair. */
	CHECK(planner_next(&st, 300, 3.0, NAN) == STOP_ENOUGH);
	st.max_runs = 40;
	simulate_group(&st, 0.01, 0.1, n, &cost);
	CHECK(n[0] == 40 && n[1] == 40);
	st.max_runs = 0;
	/* --min-runs binds: a slow pair. */
	simulate_group(&st, 1.0, 2.0, n, &cost);
	CHECK(n[0] == 10 && n[1] == 10);
}

/* ---- one benchmark's steps ---- */

/* A step as a short word: "P(w1)" prepare before warmup 1, "M0" measured
 * run 0, "RE0" its turn's end, "WE1" warmup 1's end. */
static void step_word(struct planner_step st, char *buf, size_t len)
{
	static const char *const name[] = {
		[PLANNER_STEP_START] = "START", [PLANNER_STEP_SETUP] = "SETUP",
		[PLANNER_STEP_PREPARE] = "P", [PLANNER_STEP_WARMUP] = "W",
		[PLANNER_STEP_MEASURE] = "M", [PLANNER_STEP_CONCLUDE] = "C",
		[PLANNER_STEP_WARMUP_END] = "WE", [PLANNER_STEP_RUN_END] = "RE",
		[PLANNER_STEP_CLEANUP] = "CLEANUP", [PLANNER_STEP_DONE] = "DONE",
	};
	switch (st.kind) {
	case PLANNER_STEP_PREPARE:
	case PLANNER_STEP_CONCLUDE:
		snprintf(buf, len, "%s(%s%zu)", name[st.kind], st.warmup ? "w" : "",
			 st.k);
		break;
	case PLANNER_STEP_WARMUP:
	case PLANNER_STEP_MEASURE:
	case PLANNER_STEP_WARMUP_END:
	case PLANNER_STEP_RUN_END:
		snprintf(buf, len, "%s%zu", name[st.kind], st.k);
		break;
	default:
		snprintf(buf, len, "%s", name[st.kind]);
		break;
	}
}

/*
 * Walk the steps of benchmark 0 of args as the runner does: every step
 * goes well except the one numbered fail_at (0-based; -1 none), which
 * stops the benchmark with cleanup wanted unless interrupted; otherwise it
 * stops after `runs` RUN_END steps.  The words joined with spaces in buf.
 */
static int walk(const char **args, long fail_at, bool interrupted, size_t runs,
		char *buf, size_t len)
{
	struct config cfg;
	struct plan p;
	char err[256];
	if (build(args, &cfg, &p, err, sizeof err) != 0)
		return -1;
	struct planner_steps it;
	planner_steps_init(&it, cfg.warmup, &p.bench[0]);
	size_t used = 0, ends = 0;
	buf[0] = '\0';
	for (long i = 0; i < 100; i++) {
		struct planner_step st = planner_steps_next(&it);
		char w[32];
		step_word(st, w, sizeof w);
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 i ? " " : "", w);
		if (st.kind == PLANNER_STEP_DONE)
			break;
		if (i == fail_at)
			planner_steps_stop(&it, !interrupted);
		else if (st.kind == PLANNER_STEP_RUN_END && ++ends == runs)
			planner_steps_stop(&it, true);
	}
	planner_free(&p);
	cli_free(&cfg);
	return 0;
}

static void steps_without_hooks(void)
{
	const char *a[] = {"cbench", "true", NULL};
	char buf[512];
	CHECK(walk(a, -1, false, 3, buf, sizeof buf) == 0);
	CHECK_STR(buf, "START M0 RE0 M1 RE1 M2 RE2 DONE");
	/* DONE stays DONE. */
	const char *w[] = {"cbench", "-w", "1", "true", NULL};
	CHECK(walk(w, -1, false, 1, buf, sizeof buf) == 0);
	CHECK_STR(buf, "START W1 WE1 M0 RE0 DONE");
}

static void steps_with_every_hook(void)
{
	const char *a[] = {"cbench", "-w", "2", "--setup", "s", "--prepare", "p",
			   "--conclude", "c", "--cleanup", "x", "true", NULL};
	char buf[512];
	CHECK(walk(a, -1, false, 2, buf, sizeof buf) == 0);
	CHECK_STR(buf, "START SETUP P(w1) W1 C(w1) WE1 P(w2) W2 C(w2) WE2 "
		  "P(0) M0 C(0) RE0 P(1) M1 C(1) RE1 CLEANUP DONE");
}

/* Cleanup follows a failure once the setup is done, never before it, and
 * never after an interrupt. */
static void steps_stopped_early(void)
{
	const char *a[] = {"cbench", "-w", "1", "--setup", "s", "--cleanup", "x",
			   "true", NULL};
	char buf[512];
	CHECK(walk(a, 0, false, 9, buf, sizeof buf) == 0);   /* START fails */
	CHECK_STR(buf, "START DONE");
	CHECK(walk(a, 1, false, 9, buf, sizeof buf) == 0);   /* SETUP fails */
	CHECK_STR(buf, "START SETUP DONE");
	CHECK(walk(a, 2, false, 9, buf, sizeof buf) == 0);   /* a warmup */
	CHECK_STR(buf, "START SETUP W1 CLEANUP DONE");
	CHECK(walk(a, 4, false, 9, buf, sizeof buf) == 0);   /* a run */
	CHECK_STR(buf, "START SETUP W1 WE1 M0 CLEANUP DONE");
	CHECK(walk(a, 4, true, 9, buf, sizeof buf) == 0);    /* interrupted */
	CHECK_STR(buf, "START SETUP W1 WE1 M0 DONE");
	/* No --setup: the cleanup is due once START went well. */
	const char *b[] = {"cbench", "--cleanup", "x", "true", NULL};
	CHECK(walk(b, 0, false, 9, buf, sizeof buf) == 0);
	CHECK_STR(buf, "START DONE");
	CHECK(walk(b, 1, false, 9, buf, sizeof buf) == 0);
	CHECK_STR(buf, "START M0 CLEANUP DONE");
}

/* Steps and run order together, the way bench.c drives them: two
 * benchmarks of two runs, interleaved, each taking one turn at a time. */
static void steps_interleaved(void)
{
	const char *a[] = {"cbench", "-r", "2", "--order", "interleaved", "a", "b",
			   NULL};
	struct config cfg;
	struct plan p;
	char err[256], buf[512] = "", w[32];
	CHECK(build(a, &cfg, &p, err, sizeof err) == 0);
	struct planner_steps it[2];
	bool active[2] = {true, true};
	size_t runs[2] = {0, 0}, used = 0;
	struct plan_stop stop = cli_plan_stop(&cfg);
	for (size_t i = 0; i < 2; i++)
		planner_steps_init(&it[i], cfg.warmup, &p.bench[i]);
	struct planner_order *o = planner_order_new(cfg.order, 2, NULL, 0);
	long i;
	while ((i = planner_order_next(o, active)) >= 0) {
		struct planner_step st;
		do {
			st = planner_steps_next(&it[i]);
			step_word(st, w, sizeof w);
			used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%ld:%s",
						 used ? " " : "", i, w);
			if (st.kind == PLANNER_STEP_RUN_END &&
			    planner_next(&stop, ++runs[i], 0, NAN) != STOP_CONTINUE) {
				planner_steps_stop(&it[i], true);
				active[i] = false;
			}
		} while (st.kind != PLANNER_STEP_RUN_END && st.kind != PLANNER_STEP_DONE);
		if (!active[i])   /* its last turn: on to DONE */
			while (planner_steps_next(&it[i]).kind != PLANNER_STEP_DONE)
				;
	}
	planner_order_free(o);
	/* the second round in reverse */
	CHECK_STR(buf, "0:START 0:M0 0:RE0 1:START 1:M0 1:RE0 1:M1 1:RE1 "
		  "0:M1 0:RE1");
	CHECK(planner_steps_next(&it[0]).kind == PLANNER_STEP_DONE);
	planner_free(&p);
	cli_free(&cfg);
}

/* State groups: benchmarks with the same --setup and --cleanup after
 * substitution share one, numbered by their first benchmark; with several
 * groups the order is split (all different: sequential). */
static void state_groups(void)
{
	struct config cfg;
	struct plan p;
	char err[256];
	/* -s per command: x, y, x; the groups are {0, 2} and {1}. */
	const char *a[] = {"cbench", "-s", "x", "-s", "y", "-s", "x", "a", "b", "c",
			   NULL};
	CHECK(build(a, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n_groups == 2 && p.split_by_state);
	CHECK(p.bench[0].group == 0 && p.bench[1].group == 1 && p.bench[2].group == 0);
	CHECK(p.order == ORDER_INTERLEAVED);
	planner_free(&p);
	cli_free(&cfg);
	/* The setup uses the parameter: one group per value, so the
	 * benchmarks run one after another. */
	const char *b[] = {"cbench", "-L", "v", "1,2", "-s", "make V={v}", "-c",
			   "rm x", "prog", NULL};
	CHECK(build(b, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n_groups == 2 && p.split_by_state);
	CHECK(p.order == ORDER_SEQUENTIAL);
	planner_free(&p);
	cli_free(&cfg);
	/* Same setup, cleanups differ: the cleanup tells them apart. */
	const char *c[] = {"cbench", "-s", "s", "-c", "c1", "-c", "c2", "a", "b", NULL};
	CHECK(build(c, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n_groups == 2);
	planner_free(&p);
	cli_free(&cfg);
	/* One setup for every command: one group, interleaved as before. */
	const char *d[] = {"cbench", "-L", "v", "1,2", "-s", "make", "prog {v}",
			   "other {v}", NULL};
	CHECK(build(d, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n_groups == 1 && !p.split_by_state && p.order == ORDER_INTERLEAVED);
	planner_free(&p);
	cli_free(&cfg);
	/* --order sequential asked for: nothing split. */
	const char *e[] = {"cbench", "--order", "sequential", "-s", "x", "-s", "y",
			   "a", "b", NULL};
	CHECK(build(e, &cfg, &p, err, sizeof err) == 0);
	CHECK(p.n_groups == 2 && !p.split_by_state && p.order == ORDER_SEQUENTIAL);
	planner_free(&p);
	cli_free(&cfg);
}

/* The order iterator with groups: a group's benchmarks take turns, the
 * next group starts (with a fresh round) when the last of one ends. */
static void order_grouped(void)
{
	const size_t group[] = {0, 1, 0, 1};
	const enum run_order orders[] = {ORDER_INTERLEAVED, ORDER_SHUFFLED};
	for (size_t k = 0; k < 2; k++) {
		bool active[4] = {true, true, true, true};
		size_t done[4] = {0}, runs[4] = {2, 3, 3, 1};
		long seq[16];
		size_t len = 0;
		struct planner_order *o = planner_order_new(orders[k], 4, group, 5);
		long i;
		while (len < 16 && (i = planner_order_next(o, active)) >= 0) {
			seq[len++] = i;
			if (++done[i] >= runs[i])
				active[i] = false;
		}
		planner_order_free(o);
		CHECK(len == 9);
		/* group 0 (benchmarks 0 and 2: 5 runs) entirely first */
		for (size_t j = 0; j < len; j++)
			CHECK(group[seq[j]] == (j < 5 ? 0 : 1));
		if (k == 0) {
			const long want[] = {0, 2, 2, 0, 2, 1, 3, 1, 1};
			CHECK(seq_is(seq, len, want, 9));
		}
	}
	/* Sequential ignores the groups: plan order. */
	bool active[3] = {true, true, true};
	const size_t g3[] = {0, 1, 0};
	struct planner_order *o = planner_order_new(ORDER_SEQUENTIAL, 3, g3, 0);
	CHECK(planner_order_next(o, active) == 0);
	active[0] = false;
	CHECK(planner_order_next(o, active) == 1);
	planner_order_free(o);
}

int main(void)
{
	RUN(scan_integers);
	RUN(scan_decimals_without_drift);
	RUN(scan_errors);
	RUN(no_parameters);
	RUN(cartesian_order);
	RUN(three_parameters_and_decimal_step);
	RUN(list_escapes);
	RUN(list_values_as_hyperfine);
	RUN(list_empty_value);
	RUN(substitution_everywhere);
	RUN(substitution_single_pass);
	RUN(unused_parameter_shown_in_name);
	RUN(hooks_per_command_and_outputs);
	RUN(reference_first);
	RUN(build_errors);
	RUN(order_sequential);
	RUN(order_interleaved);
	RUN(order_shuffled);
	RUN(order_shuffled_skips_finished);
	RUN(state_groups);
	RUN(order_grouped);
	RUN(stop_rules);
	RUN(steps_without_hooks);
	RUN(steps_with_every_hook);
	RUN(steps_stopped_early);
	RUN(steps_interleaved);
	RUN(group_stop_rules);
	RUN(group_stops_together);
	UNIT_EXIT();
}
