/*
 * test_likely_cause.c: a benchmark report whose runs spread widely (many
 * outliers) names the likely cause the system check gives (export_text.c
 * with text_style.likely_cause), and says nothing of it when the check
 * finds none or the runs are steady.
 */
#include "analysis.h"
#include "export_text.h"
#include "results.h"
#include "syscheck.h"
#include "report_capture.h"
#include "unit.h"

#include <stdlib.h>
#include <unistd.h>

/* The check's answer, from a judged set of readings: load 2.1 on 2. */
static bool loaded(void *arg, char *buf, size_t len)
{
	struct check_readings r;
	memset(&r, 0, sizeof r);
	r.m.loadavg[0] = 2.1, r.m.loadavg[1] = 1.0, r.m.loadavg[2] = 0.5;
	r.m.cpus = 2;
	r.m.boost = r.m.smt = r.m.aslr = r.m.pmu = r.m.hypervisor = -1;
	r.m.on_battery = -1, r.m.swap_total = -1, r.m.perf_paranoid = -99;
	struct syscheck c;
	syscheck_judge(&r, &c);
	(*(int *)arg)++;
	return syscheck_likely_cause(&c, buf, len);
}

static bool nothing(void *arg, char *buf, size_t len)
{
	(void)arg;
	buf[0] = '\0';
	(void)len;
	return false;
}

/* text_bench_report of 30 runs (outliers when spread) into a string. */
static char *report(bool spread, bool (*cause)(void *, char *, size_t), int *calls)
{
	struct bench_result *r = results_new("x", "x", NULL, 0);
	results_enable(r, MET_WALL);
	for (int k = 0; k < 30; k++) {
		double v[MET_COUNT];
		for (int m = 0; m < MET_COUNT; m++)
			v[m] = NAN;
		/* Steady: 10 ms plus a little; spread: every fifth run 4x. */
		v[MET_WALL] = 0.010 + 1e-5 * (k % 3) + (spread && k % 5 == 4 ? 0.030 : 0);
		results_add_run(r, v, 0, 0);
	}
	struct analysis_options opt = {.confidence = 0.95};
	struct analysis *an = analysis_new(&opt);
	analysis_update_bench(an, 0, r);
	struct text_style st = {.confidence = 0.95, .verbose = true, .likely_cause = cause,
				.cause_arg = calls};
	char *text = capture_report(&st, r, &an->bench[0]);
	analysis_free(an);
	results_free(r);
	return text;
}

static void test_spread_names_the_cause(void)
{
	int calls = 0;
	char *t = report(true, loaded, &calls);
	int ok = strstr(t, "Warning: 6 of 30 runs are statistical outliers") != NULL &&
		 strstr(t, "Warning: the likely cause on this machine: Load average: "
			"2.10 1.00 0.50 on 2 cores ('cbench system check' lists every "
			"item)") != NULL;
	if (!ok)
		printf("%s", t);
	free(t);
	CHECK(ok);
	CHECK(calls == 1);
}

static void test_no_cause_no_line(void)
{
	int calls = 0;
	char *t = report(true, nothing, &calls);
	int ok = strstr(t, "statistical outliers") != NULL &&
		 strstr(t, "likely cause") == NULL;
	free(t);
	CHECK(ok);
	/* Steady runs: the check is not even asked. */
	t = report(false, loaded, &calls);
	ok = strstr(t, "Warning") == NULL && strstr(t, "Time (mean") != NULL;
	free(t);
	CHECK(ok);
	CHECK(calls == 0);
}

int main(void)
{
	RUN(test_spread_names_the_cause);
	RUN(test_no_cause_no_line);
	UNIT_EXIT();
}
