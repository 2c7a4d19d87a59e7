/*
 * test_metric_output.c: --metric definitions (metric_output_define and
 * metric_define) and reading a value from a run's output.
 */
#include "metric_output.h"
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>

static void reset(void)
{
	metric_undefine_all();
}

static void define_full_spec(void)
{
	char err[256];
	int id = metric_output_define("speed=([0-9.]+) MB/s,unit=MB/s,higher-is-better",
				      err, sizeof err);
	CHECK(id == MET_CUSTOM_FIRST);
	const struct metric_info *mi = metric_info((enum metric_id)id);
	CHECK_STR(mi->key, "speed");
	CHECK_STR(mi->label, "speed");
	CHECK_STR(mi->unit_text, "MB/s");
	CHECK_STR(mi->pattern, "([0-9.]+) MB/s");
	CHECK(mi->unit == UNIT_CUSTOM && mi->custom && mi->higher_is_better);
	CHECK(!mi->shell_corrected);
	CHECK(metric_defined((enum metric_id)id));
	CHECK(!metric_defined((enum metric_id)(id + 1)));
	CHECK(metric_lookup("speed") == id);
	CHECK(metric_lookup("SPEED") == id);
	/* the options in the other order, and none */
	id = metric_output_define("items=n=([0-9]+),higher-is-better,unit=", err,
				  sizeof err);
	CHECK(id == MET_CUSTOM_FIRST + 1);
	CHECK_STR(metric_info((enum metric_id)id)->pattern, "n=([0-9]+)");
	CHECK_STR(metric_info((enum metric_id)id)->unit_text, "");
	CHECK(metric_info((enum metric_id)id)->higher_is_better);
	id = metric_output_define("lat=a,b", err, sizeof err);
	CHECK(id == MET_CUSTOM_FIRST + 2);
	/* a comma that does not start an option belongs to the pattern */
	CHECK_STR(metric_info((enum metric_id)id)->pattern, "a,b");
	CHECK(!metric_info((enum metric_id)id)->higher_is_better);
}

static void define_refuses(void)
{
	char err[256];
	CHECK(metric_output_define("speed", err, sizeof err) == -1);
	CHECK(strstr(err, "NAME=REGEX") != NULL);
	CHECK(metric_output_define("=x", err, sizeof err) == -1);
	CHECK(metric_output_define("speed=", err, sizeof err) == -1);
	CHECK(metric_output_define("speed=,unit=s", err, sizeof err) == -1);
	CHECK(strstr(err, "empty") != NULL);
	CHECK(metric_output_define("speed=([0-9]", err, sizeof err) == -1);
	CHECK(strstr(err, "does not compile") != NULL);
	CHECK(metric_output_define("9lives=x", err, sizeof err) == -1);
	CHECK(strstr(err, "not a metric name") != NULL);
	CHECK(metric_output_define("a-b=x", err, sizeof err) == -1);
	CHECK(metric_output_define("wall_time=x", err, sizeof err) == -1);
	CHECK(strstr(err, "built-in") != NULL);
	CHECK(metric_output_define("instructions=x", err, sizeof err) == -1);
	/* per-run columns and the gate's cpu_time */
	CHECK(metric_output_define("exit_code=x", err, sizeof err) == -1);
	CHECK(strstr(err, "per-run column") != NULL);
	CHECK(metric_output_define("cpu_time=x", err, sizeof err) == -1);
	CHECK(metric_output_define("Run_Index=x", err, sizeof err) == -1);
	/* labels and aliases of built-in metrics too */
	CHECK(metric_output_define("rss=x", err, sizeof err) == -1);
	CHECK(metric_output_define("speed=x", err, sizeof err) == MET_CUSTOM_FIRST);
	CHECK(metric_output_define("speed=y", err, sizeof err) == -1);
	CHECK(strstr(err, "given twice") != NULL);
	CHECK(metric_output_define("speed=x,unit=s", err, sizeof err) == -1);
	CHECK(strstr(err, "defined twice") != NULL);
	/* the same definition read back from a file (no pattern) is fine */
	CHECK(metric_define("speed", "", false, NULL, err, sizeof err) ==
	      MET_CUSTOM_FIRST);
	CHECK(metric_define("speed", "", true, NULL, err, sizeof err) == -1);
	for (int k = 1; k < MET_CUSTOM_MAX; k++) {
		char spec[32];
		snprintf(spec, sizeof spec, "m%d=x", k);
		CHECK(metric_output_define(spec, err, sizeof err) == MET_CUSTOM_FIRST + k);
	}
	CHECK(metric_output_define("onemore=x", err, sizeof err) == -1);
	CHECK(strstr(err, "at most 8") != NULL);
	metric_undefine_all();
	CHECK(metric_lookup("speed") == -1);
	CHECK(!metric_defined(MET_CUSTOM_FIRST));
	CHECK_STR(metric_info(MET_CUSTOM_FIRST)->key, "");
}

static double scan(const char *pattern, const char *text, enum metric_scan *how)
{
	char why[160] = "";
	double v = NAN;
	*how = metric_output_scan(pattern, text, strlen(text), &v, why, sizeof why);
	return v;
}

static void scan_lines(void)
{
	enum metric_scan how;
	/* the first group of the first matching line */
	CHECK(scan("rate: ([0-9.]+)", "start\nrate: 12.5 op/s\nrate: 99\n", &how) == 12.5);
	CHECK(how == METRIC_FOUND);
	/* no group: the whole match */
	CHECK(scan("[0-9]+e[0-9]+", "x 3e6 y\n", &how) == 3e6);
	/* anchors are per line */
	CHECK(scan("^([0-9]+)$", "a 1\n42\n", &how) == 42);
	/* a last line without its newline, a CR before it */
	CHECK(scan("t=(.*)", "t=-0.25\r\n", &how) == -0.25);
	CHECK(scan("t=(.*)", "x\nt=7", &how) == 7);
	/* blanks around the number are allowed */
	CHECK(scan("v:(.*)$", "v:  8 \n", &how) == 8);
	scan("speed: ([0-9.]+)", "nothing here\n", &how);
	CHECK(how == METRIC_NO_MATCH);
	scan("speed: ([0-9.]+)", "", &how);
	CHECK(how == METRIC_NO_MATCH);
	scan("v=(.*)", "v=fast\n", &how);
	CHECK(how == METRIC_NOT_NUMBER);
	scan("v=(.*)", "v=12abc\n", &how);
	CHECK(how == METRIC_NOT_NUMBER);
	scan("v=(.*)", "v=inf\n", &how);
	CHECK(how == METRIC_NOT_NUMBER);
	scan("v=(.*)", "v=\n", &how);
	CHECK(how == METRIC_NOT_NUMBER);
	/* a NUL in the output does not end the search */
	double v = 0;
	char why[160];
	CHECK(metric_output_scan("n=([0-9]+)", "a\0n=5\n", 6, &v, why, sizeof why) ==
	      METRIC_FOUND);
	CHECK(v == 5);
	/* Perl syntax: \d, lazy quantifiers; an optional group that did not
	 * take part gives the whole match */
	CHECK(scan("took (\\d+?) ms", "took 17 ms\n", &how) == 17);
	CHECK(scan("(y)?[0-9]+", "n 42\n", &how) == 42 && how == METRIC_FOUND);
}

/* The memory file and an --output file read from an offset. */
static void read_runs(void)
{
	char err[256], why[200];
	int rc = 0, missing = -1;
	CHECK(metric_output_define("a=a=([0-9]+)", err, sizeof err) >= 0);
	CHECK(metric_output_define("b=b=([0-9]+)", err, sizeof err) >= 0);
	struct metric_output *mo = metric_output_open(&rc, err, sizeof err);
	CHECK(mo != NULL && rc == 0);
	int fd = metric_output_fd(mo);
	double v[MET_COUNT];
	CHECK(write(fd, "a=1\nb=2\n", 8) == 8);
	CHECK(metric_output_read(mo, fd, 0, v, &missing, why, sizeof why) == 0);
	CHECK(v[MET_CUSTOM_FIRST] == 1 && v[MET_CUSTOM_FIRST + 1] == 2);
	metric_output_rewind(mo);
	CHECK(write(fd, "b=3\n", 4) == 4);
	CHECK(metric_output_read(mo, fd, 0, v, &missing, why, sizeof why) == -1);
	CHECK(missing == MET_CUSTOM_FIRST);
	CHECK(isnan(v[MET_CUSTOM_FIRST]) && v[MET_CUSTOM_FIRST + 1] == 3);
	CHECK(strstr(why, "no line") != NULL);
	/* from an offset: only what the run wrote */
	CHECK(write(fd, "a=4\nb=5\n", 8) == 8);
	CHECK(metric_output_read(mo, fd, 4, v, &missing, why, sizeof why) == 0);
	CHECK(v[MET_CUSTOM_FIRST] == 4 && v[MET_CUSTOM_FIRST + 1] == 5);
	metric_output_free(mo);
	metric_undefine_all();
	CHECK(metric_output_open(&rc, err, sizeof err) == NULL && rc == 0);
}

/* Patterns that made glibc's regcomp unroll into gigabytes or minutes
 * compile at once with PCRE2; one that backtracks without end on a long
 * line is stopped by the match limit and says so, and an ordinary pattern
 * stays linear on a 1 MiB line that does not match (glibc's regexec took
 * 30 s on 100 KB). */
static void hard_patterns_bounded(void)
{
	char err[256], spec[2048];
	/* Perl syntax has no repeated quantifier, and PCRE2 caps what a
	 * pattern compiles to: compile errors, at once */
	const char *rejected[][2] = {
		{"v=a+++++++++++++++++++++++++++++++++++++++++++++++++",
		 "quantifier does not follow a repeatable item"},
		{"v=a{2}{2}{2}{2}{2}{2}{2}{2}{2}{2}{2}{2}{2}{2}{2}{2}",
		 "quantifier does not follow a repeatable item"},
		{"v=((a{100}){100}){100}", "regular expression is too large"},
	};
	for (size_t i = 0; i < sizeof rejected / sizeof *rejected; i++) {
		CHECK(metric_output_define(rejected[i][0], err, sizeof err) == -1);
		CHECK(strstr(err, rejected[i][1]) != NULL);
	}
	const char *compiled[] = {
		"v=(a{100}){100}", "v=x{30000}",
		"v=((((((((((((((((((((a)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+",
		"v=(((((((((((((((((((((()+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+",
		"v=((($)+)+)+", "v=(((a*)+)+)+", "v=(a|$|^|\\b)*",
		"v=(($|^)($|^)($|^)($|^)($|^)($|^)($|^)($|^)($|^)($|^))*",
	};
	for (size_t i = 0; i < sizeof compiled / sizeof *compiled; i++) {
		metric_undefine_all();
		int id = metric_output_define(compiled[i], err, sizeof err);
		if (id != MET_CUSTOM_FIRST)
			printf("    %s: %s\n", compiled[i], err);
		CHECK(id == MET_CUSTOM_FIRST);
	}
	memset(spec, 'a', sizeof spec);
	memcpy(spec, "v=", 2);
	spec[sizeof spec - 1] = '\0';
	CHECK(metric_output_define(spec, err, sizeof err) == -1);
	CHECK(strstr(err, "longer than") != NULL);

	size_t n = 100000;
	char *line = malloc(n + 2);
	CHECK(line != NULL);
	memset(line, 'a', n);
	line[n] = 'b';
	line[n + 1] = '\n';
	double v;
	char why[160];
	/* (a|aa)+$ backtracks exponentially on "aaa...b" */
	CHECK(metric_output_scan("^(a|aa)+$", line, n + 2, &v, why, sizeof why) ==
	      METRIC_LIMIT);
	CHECK(strstr(why, "stopped on a line of 100001 bytes: ") != NULL);
	CHECK(strstr(why, "limit exceeded") != NULL);   /* depth or steps */
	/* an ordinary pattern that does not match: no line matches */
	CHECK(metric_output_scan("rate: ([0-9.]+)", line, n + 2, &v, why, sizeof why) ==
	      METRIC_NO_MATCH);
	/* a line longer than 1 MiB is searched in its first MiB */
	n = (size_t)1 << 20;
	char *two = malloc(3 * n);
	CHECK(two != NULL);
	memset(two, ' ', 3 * n);
	memcpy(two, "v=1", 3);
	memcpy(two + 2 * n, "w=2", 3);
	two[3 * n - 1] = '\n';
	CHECK(metric_output_scan("v=([0-9]+)", two, 3 * n, &v, why, sizeof why) ==
	      METRIC_FOUND && v == 1);
	CHECK(metric_output_scan("w=([0-9]+)", two, 3 * n, &v, why, sizeof why) ==
	      METRIC_NO_MATCH);
	free(two);
	free(line);
	/* a pattern that does not compile names PCRE2's reason */
	CHECK(metric_output_define("v=([0-9]", err, sizeof err) == -1);
	CHECK(strstr(err, "does not compile: missing closing parenthesis") != NULL);
}

int main(void)
{
	UNIT_AFTER_EACH(reset);
	RUN(define_full_spec);
	RUN(define_refuses);
	RUN(scan_lines);
	RUN(read_runs);
	RUN(hard_patterns_bounded);
	UNIT_EXIT();
}
