/*
 * noise.c: the machine's own noise (noise.h), measured with the engine
 * and the analysis every benchmark uses, so the figure it prints is the
 * one a benchmark on this machine would see.
 */
#include "noise.h"
#include "analysis.h"
#include "bench.h"
#include "planner.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

unsigned long noise_spin(void)
{
	/* xorshift64 (Marsaglia 2003): integer work the compiler cannot fold. */
	unsigned long long x = 88172645463325252ULL;
	for (long i = 0; i < 6000000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
	}
	return (unsigned long)x;
}

/* The mean of x[lo..hi). */
static double mean_of(const double *x, size_t lo, size_t hi)
{
	double s = 0;
	for (size_t i = lo; i < hi; i++)
		s += x[i];
	return hi > lo ? s / (double)(hi - lo) : NAN;
}

void noise_summarise(const struct analysis *an, const struct bench_result *r,
		     struct noise_result *out)
{
	const struct analysis_bench *ab = &an->bench[0];
	const struct stats_summary *w = &ab->sum[MET_WALL];
	out->runs = w->n;
	out->confidence = an->opt.confidence;
	out->mean_s = w->mean;
	out->stddev_s = w->stddev;
	out->cv = w->stddev / w->mean;
	out->ci_lo_s = w->mean_ci_lo;
	out->ci_hi_s = w->mean_ci_hi;
	out->resolvable = sqrt(2.0) * (w->mean_ci_hi - w->mean_ci_lo) / 2 / w->mean;
	out->acf1 = ab->acf1;
	out->dependence = ab->dependence;
	out->drift = (ab->warnings & STATS_WARN_DRIFT) != 0;
	size_t third = r->n_runs / 3;
	out->first_last = third ? mean_of(r->col[MET_WALL], r->n_runs - third, r->n_runs) /
				  mean_of(r->col[MET_WALL], 0, third) - 1 : NAN;
}

int noise_measure(const char *exe, long runs, double confidence,
		  struct noise_result *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	char line[4200];
	if (strchr(exe, '\'')) {
		snprintf(err, errlen, "cbench's path '%s' has a quote in it", exe);
		return -1;
	}
	snprintf(line, sizeof line, "'%.4096s' system spin", exe);
	/* As `cbench -r RUNS -w 3 -N --counters none --confidence C LINE`
	 * would run it: the defaults of the rest. */
	const char *cmds[] = {line};
	struct plan_options popt = {.commands = {.v = cmds, .n = 1},
				    .order = ORDER_SEQUENTIAL};
	struct bench_options bopt = {
		.stop = {.runs = runs, .min_runs = 10, .min_time_s = 3},
		.warmup = 3, .commands = popt.commands, .shell_mode = SHELL_NONE,
		.confidence = confidence, .counters = "none"};
	struct plan plan;
	if (planner_build(&popt, &plan, err, errlen) != 0)
		return -1;
	struct bench_runner *br;
	struct bench_outcome o;
	int rc = bench_open(&bopt, &plan, NULL, &br);
	if (rc == 0)
		bench_run(br, &o);
	else
		bench_outcome_init(&o, rc);
	bench_close(br);
	if (o.exit_code != 0 || o.n != 1 || o.results[0]->n_runs < 2) {
		snprintf(err, errlen, "the noise loop did not run (exit %d)", o.exit_code);
		rc = -1;
	} else {
		/* one benchmark, run in sequence: nothing to sort or pair */
		struct analysis_options aopt = {.confidence = confidence,
						.summary_by_mean = true};
		struct analysis *an = analysis_new(&aopt);
		analysis_update(an, o.results, o.n, -1);
		noise_summarise(an, o.results[0], out);
		analysis_free(an);
		rc = 0;
	}
	bench_free_outcome(&o);
	planner_free(&plan);
	return rc;
}

/* A number, or null when it is not finite. */
static void add_num(cJSON *j, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(j, key, v);
	else
		cJSON_AddNullToObject(j, key);
}

void *noise_json(const struct noise_result *n)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddNumberToObject(j, "runs", (double)n->runs);
	add_num(j, "confidence", n->confidence);
	add_num(j, "mean_s", n->mean_s);
	add_num(j, "stddev_s", n->stddev_s);
	add_num(j, "cv", n->cv);
	add_num(j, "mean_ci_lo_s", n->ci_lo_s);
	add_num(j, "mean_ci_hi_s", n->ci_hi_s);
	add_num(j, "resolvable", n->resolvable);
	add_num(j, "acf1", n->acf1);
	add_num(j, "dependence", n->dependence);
	cJSON_AddBoolToObject(j, "drift", n->drift);
	add_num(j, "last_vs_first_third", n->first_last);
	return j;
}
