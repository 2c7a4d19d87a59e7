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
	regex_t re;
	char why[128] = "";
	double v = NAN;
	if (regcomp(&re, pattern, REG_EXTENDED) != 0)
		return -12345;
	*how = metric_output_scan(&re, text, strlen(text), &v, why, sizeof why);
	regfree(&re);
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
	/* a NUL in the output ends a line, it does not end the search */
	regex_t re;
	double v = 0;
	char why[64];
	CHECK(regcomp(&re, "n=([0-9]+)", REG_EXTENDED) == 0);
	CHECK(metric_output_scan(&re, "a\0n=5\n", 6, &v, why, sizeof why) ==
	      METRIC_FOUND);
	regfree(&re);
	CHECK(v == 5);
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

/* Patterns glibc's regcomp would unroll into gigabytes are refused
 * before it sees them (found by fuzz_cli: "a" then 50 '+' ran it out of
 * memory); ordinary ones, and operators inside brackets, are not. */
static void pathological_patterns_refused(void)
{
	char err[256], spec[2048];
	const char *refused[] = {
		"v=a+++++++++++++++++++++++++++++++++++++++++++++++++",
		"v=a{2}{2}{2}{2}{2}{2}{2}{2}{2}{2}{2}{2}{2}{2}{2}{2}",
		"v=(a{100}){100}{100}",
		"v=((((((((((((((((((((a)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+",
		"v=x{30000}",
		/* no atom at all: each empty group and bar is a node */
		"v=(((((((((((((((((((((()+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+",
		"v=(((((((((((((((((((((|)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+",
		/* repetitions of what can match "", nested 3 deep: regcomp's
		 * time grows exponentially with that nesting (fuzz_cli found
		 * the last one: minutes) */
		"v=((($)+)+)+", "v=((($)*)*)*", "v=(((a*)+)+)+", "v=(((\\b)?)?)?",
		"v=((((|a)+){2})*)", "v=(((()*)*)*)",
		"v=(((((((($)+)+)+)+)+)+)+)+)+)+)+))+)+)+)+",
		/* a repetition of what matches "" holding more than two
		 * anchors or empty alternatives: seconds to minutes */
		"v=((\\b|()){0,4})+", "v=(\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b)*",
		"v=(x(\\b\\b\\b\\b\\b\\b\\b\\b\\b\\b)*)", "v=(a|\\b\\b\\b\\b\\b\\b\\b\\b\\b)*",
		"v=(($|^)($|^)($|^)($|^)($|^)($|^)($|^)($|^)($|^)($|^))*",
		"v=((\\b|)(\\b|)(\\b|)(\\b|)(\\b|)(\\b|))*", "v=(a|$|^|\\b)*",
	};
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		CHECK(metric_output_define(refused[i], err, sizeof err) == -1);
		CHECK(strstr(err, "is refused") != NULL);
		CHECK(strstr(err, "unroll") != NULL || strstr(err, "empty") != NULL);
	}
	memset(spec, 'a', sizeof spec);
	memcpy(spec, "v=", 2);
	spec[sizeof spec - 1] = '\0';
	CHECK(metric_output_define(spec, err, sizeof err) == -1);
	CHECK(strstr(err, "longer than") != NULL);
	const char *accepted[] = {
		"a=([0-9.]+) MB/s", "b=(a{20}){20}", "c=[+*{]+x", "d=(x|y)+z*",
		"e=\\++", "f=([0-9]+(\\.[0-9]+)?)(e[0-9]+)?",
		/* at most 8 defined at once: the rest after undefining */
		"g=((a*)*)*x", "h=((a|b|c|d)(e|f)){10}", "i=(([0-9]+)?,?)*;",
		"j=(^|,)([0-9]+)($|,)", "k=((a*b)+c)+", "l=(a|$|^)*x",
		"m=(\\b|$)*", "n=((^|,)[0-9]+)*", "o=(x\\b\\b\\b\\b\\b\\b)*",
	};
	for (size_t i = 0; i < sizeof accepted / sizeof *accepted; i++) {
		if (i == MET_CUSTOM_MAX)
			metric_undefine_all();
		CHECK(metric_output_define(accepted[i], err, sizeof err) ==
		      MET_CUSTOM_FIRST + (int)(i % MET_CUSTOM_MAX));
	}
}

int main(void)
{
	UNIT_AFTER_EACH(reset);
	RUN(define_full_spec);
	RUN(define_refuses);
	RUN(scan_lines);
	RUN(read_runs);
	RUN(pathological_patterns_refused);
	UNIT_EXIT();
}
