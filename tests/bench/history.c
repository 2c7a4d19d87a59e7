/*
 * history.c: `make bench`'s timing of the results history (src/history/)
 * on an SQLite file in a temporary directory, linked with cbench's modules.
 *
 *   history DIR
 *
 * Prints "phase SECONDS" for:
 *   insert_100000_runs   one invocation of one benchmark with 100,000 runs
 *                        of wall, user and system time, peak RSS and four
 *                        fault and switch counts (8 metrics), recorded in
 *                        its transaction (samples and summaries)
 *   list_10000           listing 10,000 invocations (with their benchmark
 *                        names), after recording them
 *   detect_10000         reading a 10,000-point series and detecting its
 *                        change points (t-test), two steps planted
 * and "changes K" for the detection; "summaries_100000_runs" is the
 * time of the eight summaries the analysis of such a run hands over (not
 * part of recording).
 */
#include "analysis.h"
#include "changepoint.h"
#include "history.h"
#include "xalloc.h"

#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static struct cmp_set *make_set(size_t n, double level, int metrics)
{
	struct cmp_set *s = xcalloc(1, sizeof *s);
	s->origin = xstrdup("bench");
	s->format = CMP_FMT_RUN;
	s->n = 1;
	s->bench = xcalloc(1, sizeof *s->bench);
	struct cmp_bench *b = &s->bench[0];
	b->name = xstrdup("work");
	b->command = xstrdup("./work");
	b->n_runs = n;
	for (int m = 0; m < metrics; m++) {
		b->col[m] = xcalloc(n, sizeof(double));
		for (size_t i = 0; i < n; i++)
			b->col[m][i] = level * (1 + 0.01 * (uniform() - 0.5)) * (m + 1);
	}
	return s;
}

static int record(struct history *h, const struct cmp_set *s, time_t when,
		  const struct analysis *an, char *err)
{
	struct history_context c = {.when = when, .origin = "run",
				    .machine_name = "benchmachine"};
	snprintf(c.source.commit, sizeof c.source.commit, "c%ld", (long)when);
	snprintf(c.source.branch, sizeof c.source.branch, "main");
	int64_t id;
	return history_record(h, &c, s, an, &id, err, DIAG_MSG_MAX);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: history DIR\n");
		return 2;
	}
	stats_init();
	char path[4096], err[DIAG_MSG_MAX];
	struct history *h;
	snprintf(path, sizeof path, "%s/big.db", argv[1]);
	if (history_open(path, true, &h, err, sizeof err) != 0)
		goto fail;
	struct cmp_set *big = make_set(100000, 0.01, 8);
	/* The analysis a run hands over (its summaries), made here. */
	static struct analysis_bench ab;
	struct analysis an = {.n = 1, .bench = &ab};
	ab.n_runs = big->bench[0].n_runs;
	double t0 = now_s();
	for (int m = 0; m < 8; m++)
		stats_summarize(big->bench[0].col[m], ab.n_runs, 0.95, &ab.sum[m]);
	printf("summaries_100000_runs %.4f\n", now_s() - t0);
	t0 = now_s();
	int rc = record(h, big, 1, &an, err);
	printf("insert_100000_runs %.4f\n", now_s() - t0);
	gate_set_free(big);
	history_close(h);
	if (rc != 0)
		goto fail;

	snprintf(path, sizeof path, "%s/many.db", argv[1]);
	if (history_open(path, true, &h, err, sizeof err) != 0)
		goto fail;
	for (int k = 0; k < 10000; k++) {
		double level = k < 4000 ? 0.010 : k < 7000 ? 0.012 : 0.011;
		struct cmp_set *s = make_set(3, level, 1);
		rc = record(h, s, 1000 + k, NULL, err);
		gate_set_free(s);
		if (rc != 0)
			goto fail;
	}
	struct history_inv *v;
	size_t n;
	t0 = now_s();
	rc = history_list(h, NULL, &v, &n, err, sizeof err);
	printf("list_%zu %.4f\n", n, now_s() - t0);
	history_invs_free(v, n);
	if (rc != 0)
		goto fail;

	struct history_filter f = {.bench = "work", .machine = "benchmachine"};
	struct history_point *p;
	t0 = now_s();
	rc = history_series(h, &f, false, MET_WALL, &p, &n, err, sizeof err);
	double *x = xcalloc(n + 1, sizeof *x);
	for (size_t k = 0; k < n; k++)
		x[k] = p[k].mean;
	struct cp_options o = cp_default_options();
	struct cp_change *ch = NULL;
	size_t nch = 0;
	if (rc == 0)
		rc = cp_detect(x, n, &o, &ch, &nch, err, sizeof err);
	printf("detect_%zu %.4f\n", n, now_s() - t0);
	printf("changes %zu\n", nch);
	free(ch);
	free(x);
	free(p);
	history_close(h);
	if (rc != 0)
		goto fail;
	return 0;
fail:
	fprintf(stderr, "history bench: %s\n", err);
	return 1;
}
