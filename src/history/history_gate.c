/*
 * history_gate.c: the history as a gate's base (history_base_set, see
 * history.h).  Each benchmark's base is the series of its means over the
 * newest invocations, so the gate (gate.c, with between set) sees the
 * variation between invocations (other days, other builds of the base
 * branch, other states of the machine), not only the noise within one.
 */
#include "between.h"
#include "history.h"
#include "history_int.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The mean of metric m in each of the invocations ids[0..n), NaN where
 * the metric was not recorded; NULL when it never was. */
static double *metric_column(struct history *h, const struct history_filter *f,
			     bool by_command, int m, const int64_t *ids, size_t n,
			     int *rc, char *err, size_t errlen)
{
	struct history_point *p;
	size_t np;
	struct history_filter g = *f;
	g.limit = 0;
	*rc = history_series(h, &g, by_command, m, &p, &np, err, errlen);
	if (*rc != 0 || np == 0) {
		free(p);
		return NULL;
	}
	double *col = xcalloc(n, sizeof *col);
	size_t found = 0;
	for (size_t k = 0; k < n; k++) {
		col[k] = NAN;
		for (size_t j = np; j-- > 0;) {
			if (p[j].inv == ids[k]) {
				col[k] = p[j].mean;
				found++;
				break;
			}
		}
	}
	free(p);
	if (found == 0) {
		free(col);
		return NULL;
	}
	return col;
}

/* One benchmark's base from its history; false when it has < 2 points. */
static bool base_bench(struct history *h, const struct cmp_bench *want,
		       bool by_command, const struct history_filter *f,
		       struct cmp_bench *b, int *rc, char *err, size_t errlen)
{
	struct history_filter g = *f;
	g.bench = by_command ? want->command : want->name;
	struct history_point *p;
	size_t n;
	*rc = history_series(h, &g, by_command, MET_WALL, &p, &n, err, errlen);
	if (*rc != 0 || n < 2) {
		free(p);
		return false;
	}
	int64_t *ids = xcalloc(n, sizeof *ids);
	memset(b, 0, sizeof *b);
	b->name = xstrdup(want->name);
	b->command = xstrdup(want->command);
	b->n_runs = n;
	if (want->n_params) {
		b->params = xcalloc(want->n_params, sizeof *b->params);
		for (size_t k = 0; k < want->n_params; k++) {
			b->params[k].name = xstrdup(want->params[k].name);
			b->params[k].value = xstrdup(want->params[k].value);
		}
		b->n_params = want->n_params;
	}
	b->col[MET_WALL] = xcalloc(n, sizeof(double));
	for (size_t k = 0; k < n; k++) {
		ids[k] = p[k].inv;
		b->col[MET_WALL][k] = p[k].mean;
	}
	free(p);
	for (int m = 0; *rc == 0 && m < MET_COUNT; m++)
		if (m != MET_WALL)
			b->col[m] = metric_column(h, &g, by_command, m, ids, n, rc,
						  err, errlen);
	if (b->col[MET_USER] && b->col[MET_SYSTEM]) {
		b->col[CMP_CPU_TIME] = xcalloc(n, sizeof(double));
		for (size_t k = 0; k < n; k++)
			b->col[CMP_CPU_TIME][k] = b->col[MET_USER][k] +
						  b->col[MET_SYSTEM][k];
	}
	free(ids);
	return true;
}

int history_base_set(struct history *h, const struct cmp_set *planned,
		     bool by_command, const char *machine, const char *branch,
		     size_t window, struct cmp_set **out, char *err,
		     size_t errlen)
{
	*out = NULL;
	struct history_filter f = {.machine = machine, .branch = branch,
				   .limit = window};
	struct cmp_set *s = xcalloc(1, sizeof *s);
	s->format = CMP_FMT_CBENCH;
	s->bench = xcalloc(planned->n + 1, sizeof *s->bench);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < planned->n; i++)
		if (base_bench(h, &planned->bench[i], by_command, &f,
			       &s->bench[s->n], &rc, err, errlen))
			s->n++;
	if (rc == 0 && s->n == 0) {
		snprintf(err, errlen, "the history has fewer than 2 invocations of "
			 "%s on this machine (fingerprint %s%s%s): record the base "
			 "branch first (--history TARGET)", planned->n == 1
			 ? "this benchmark" : "any of these benchmarks", machine,
			 branch ? ", branch " : "", branch ? branch : "");
		rc = HISTORY_EINPUT;
	}
	if (rc != 0) {
		gate_set_free(s);
		return rc;
	}
	size_t most = 0;
	for (size_t i = 0; i < s->n; i++)
		most = s->bench[i].n_runs > most ? s->bench[i].n_runs : most;
	s->origin = xasprintf("the history (%s%zu invocation%s%s%s)",
			      most < window ? "" : "newest ", most,
			      most == 1 ? "" : "s", branch ? " of " : "",
			      branch ? branch : "");
	*out = s;
	return 0;
}

struct names {
	char **v;
	size_t n, cap;
};

static int take_name(void *ctx, const struct hv *c, int n)
{
	struct names *l = ctx;
	if (n < 1 || c[0].t != HV_TEXT)
		return 0;
	xgrow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
	l->v[l->n++] = xstrdup(c[0].s);
	return 0;
}

int history_bench_names(struct history *h, char ***names, size_t *n,
			char *err, size_t errlen)
{
	struct hist_store *st = history_store(h);
	struct names l = {0};
	int rc = st->exec(st, "SELECT name FROM cbench_benchmark GROUP BY name "
			  "ORDER BY min(id)", NULL, 0, take_name, &l, err, errlen);
	*names = l.v;
	*n = l.n;
	return rc;
}

int history_between(struct history *h, const struct cmp_set *planned,
		    bool by_command, const char *machine, const char *commit,
		    double *tau, size_t *k, char *err, size_t errlen)
{
	for (size_t i = 0; i < planned->n; i++) {
		const struct cmp_bench *b = &planned->bench[i];
		struct history_filter f = {.bench = by_command ? b->command : b->name,
					   .machine = machine, .commit = commit,
					   .limit = BETWEEN_WINDOW};
		struct history_point *p;
		size_t n;
		tau[i] = NAN;
		k[i] = 0;
		int rc = history_series(h, &f, by_command, MET_WALL, &p, &n, err, errlen);
		if (rc != 0)
			return rc;
		/* The intervals' level: the newest's; invocations at another
		 * (an earlier --confidence) are left out. */
		double conf = n > 0 ? p[n - 1].confidence : NAN;
		double *col = xcalloc(3 * n + 1, sizeof *col);
		size_t m = 0;
		for (size_t j = 0; j < n; j++)
			if (p[j].confidence == conf)
				m++;
		for (size_t j = 0, q = 0; j < n; j++) {
			if (p[j].confidence != conf)
				continue;
			col[q] = p[j].mean;
			col[m + q] = p[j].ci_lo;
			col[2 * m + q] = p[j].ci_hi;
			q++;
		}
		if (conf > 0 && conf < 1)
			tau[i] = between_sd(col, col + m, col + 2 * m, m, conf, &k[i]);
		free(col);
		free(p);
	}
	return 0;
}
