/*
 * test_report_waits.c: the terminal report's "waits" diagnosis and its
 * length.  A command whose wall time is far above its CPU time either
 * waited for a CPU (preempted more often than it gave the CPU up: other
 * programs ran) or slept, read or locked; only the first is a warning by
 * default, the second only with -v (a sleep being a sleep is no news).
 * The runs are synthetic: 20 ms of wall time, 1 ms of CPU time.
 */
#include "analysis.h"
#include "export_text.h"
#include "results.h"
#include "report_capture.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* text_bench_report of 20 such runs into a string (stdout and stderr). */
static char *report(double vcsw, double ivcsw, bool verbose)
{
	struct bench_result *r = results_new("x", "x", NULL, 0);
	int ms[] = {MET_WALL, MET_USER, MET_SYSTEM, MET_VCSW, MET_IVCSW, MET_MAX_RSS};
	for (size_t k = 0; k < sizeof ms / sizeof *ms; k++)
		results_enable(r, (enum metric_id)ms[k]);
	for (int k = 0; k < 20; k++) {
		double v[MET_COUNT];
		for (int m = 0; m < MET_COUNT; m++)
			v[m] = NAN;
		v[MET_WALL] = 0.020 + 1e-5 * (k % 3);
		v[MET_USER] = 0.0006;
		v[MET_SYSTEM] = 0.0004;
		v[MET_VCSW] = vcsw;
		v[MET_IVCSW] = ivcsw;
		v[MET_MAX_RSS] = 2e6;
		results_add_run(r, v, 0, 0);
	}
	struct analysis_options opt = {.confidence = 0.95};
	struct analysis *an = analysis_new(&opt);
	analysis_update_bench(an, 0, r);
	struct text_style st = {.confidence = 0.95, .verbose = verbose};
	char *text = capture_report(&st, r, &an->bench[0]);
	analysis_free(an);
	results_free(r);
	return text;
}

static int lines(const char *t)
{
	int n = 0;
	for (; *t; t++)
		n += *t == '\n';
	return n;
}

static void slept(void)
{
	char *t = report(2, 0, false);
	CHECK(strstr(t, "Warning") == NULL);
	CHECK(strstr(t, "[Peak RSS: 1.9 MiB]") != NULL);   /* the one line */
	if (lines(t) != 4)
		printf("%s", t);
	CHECK(lines(t) == 4);   /* Time, Range, Mean CI, blank */
	free(t);
	t = report(2, 0, true);
	CHECK(strstr(t, "Warning: wall time (20.01 ms) is far above CPU time "
			"(user + system 1.000 ms): the command mostly waits") != NULL);
	CHECK(strstr(t, "  Peak RSS:") != NULL);
	free(t);
}

static void waited_for_a_cpu(void)
{
	char *t = report(0, 6, false);
	CHECK(strstr(t, "Warning: it waited for a CPU (20.01 ms of wall time for "
			"1.000 ms of CPU, preempted 6 times a run).\n") != NULL);
	CHECK(strstr(t, "mostly waits") == NULL);
	free(t);
}

int main(void)
{
	RUN(slept);
	RUN(waited_for_a_cpu);
	UNIT_EXIT();
}
