/*
 * test_analysis.c: the analysis document (analysis.h): one base for the
 * summary and every export, the row orders, and updates that recompute
 * exactly what changed.
 */
#include "analysis.h"
#include "results.h"
#include "stats.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>

static struct bench_result *rs[4];

static void add_runs(struct bench_result *r, const double *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		double v[MET_COUNT];
		for (int m = 0; m < MET_COUNT; m++)
			v[m] = NAN;
		v[MET_WALL] = t[i];
		results_add_run(r, v, 0, 0);
	}
}

static struct bench_result *with_times(const char *name, const double *t, size_t n)
{
	struct bench_result *r = results_new(name, name, NULL, 0);
	results_enable(r, MET_WALL);
	add_runs(r, t, n);
	return r;
}

static void release(struct analysis *an)
{
	analysis_free(an);
	for (int i = 0; i < 4; i++) {
		results_free(rs[i]);
		rs[i] = NULL;
	}
}

static const struct analysis_options opt = {.confidence = 0.95,
					    .summary_by_mean = true};

/* One base for the summary and the exports: the reference, else the
 * fastest, never the first in command order. */
static void base_is_reference_or_fastest(void)
{
	const double a[] = {0.03, 0.031}, b[] = {0.01, 0.011}, c[] = {0.02, 0.021};
	rs[0] = with_times("a", a, 2);
	rs[1] = with_times("b", b, 2);
	rs[2] = with_times("c", c, 2);
	rs[3] = results_new("none", "none", NULL, 0);
	struct analysis *an = analysis_new(&opt);
	analysis_update(an, rs, 3, -1);
	int base_fastest = an->base == 1;
	analysis_update(an, rs, 3, 2);
	int base_ref = an->base == 2;
	/* A reference without runs: the fastest. */
	analysis_update(an, rs, 4, 3);
	int base_norun = an->base == 1;
	release(an);
	CHECK(base_fastest);
	CHECK(base_ref);
	CHECK(base_norun);

	rs[0] = results_new("none", "none", NULL, 0);
	an = analysis_new(&opt);
	analysis_update(an, rs, 1, -1);
	int none = an->base == -1 && an->n_cmps == 0 && an->n_summary == 0;
	release(an);
	CHECK(none);
}

/* Interleaved runs are compared by rounds: the verdict's comparison is
 * the paired one over the first min(na, nb) runs. */
static void interleaved_runs_are_paired(void)
{
	double a[12], b[12];
	for (int i = 0; i < 12; i++) {
		/* A shared drift, and b 10 % above a in every round. */
		a[i] = 0.010 * (1 + 0.3 * (i % 4));
		b[i] = 1.1 * a[i] * (1 + 0.001 * (i % 3));
	}
	rs[0] = with_times("a", a, 12);
	rs[1] = with_times("b", b, 10);   /* two rounds short */
	struct analysis_options o = opt;
	o.paired = true;
	struct analysis *an = analysis_new(&o);
	analysis_update(an, rs, 2, 0);
	const struct analysis_cmp *c = analysis_find_cmp(an, 1, MET_WALL);
	struct stats_robust_cmp want;
	stats_compare_robust(a, 10, b, 10, true, 0.95, 0, &want);
	int paired = c && c->robust.paired && c->robust.na == 10 &&
		     c->cmp.ratio == want.ratio && c->cmp.ratio_lo == want.ratio_lo &&
		     c->cmp.verdict == VERDICT_SLOWER && c->unpaired.nb == 10 &&
		     c->unpaired.na == 12;
	release(an);
	CHECK(paired);
}

/* Summary lines by mean (the default), tables in input order unless
 * --sort=mean-time; the base's own row has no comparison. */
static void orders_and_comparisons(void)
{
	const double a[] = {0.03, 0.031, 0.032}, b[] = {0.01, 0.011, 0.012};
	const double c[] = {0.02, 0.021, 0.022};
	rs[0] = with_times("a", a, 3);
	rs[1] = with_times("b", b, 3);
	rs[2] = with_times("c", c, 3);
	struct analysis_options o = opt;
	o.tables_by_mean = false;
	struct analysis *an = analysis_new(&o);
	analysis_update(an, rs, 3, -1);
	int ok = an->order[0] == 0 && an->order[1] == 1 && an->order[2] == 2 &&
		 an->n_summary == 3 && an->summary_order[0] == 1 &&
		 an->summary_order[1] == 2 && an->summary_order[2] == 0 &&
		 an->wall_cmp[1] == -1 && an->wall_cmp[0] >= 0 &&
		 an->wall_cmp[2] >= 0 && an->n_cmps == 2;
	const struct analysis_cmp *ca = analysis_find_cmp(an, 0, MET_WALL);
	/* The independent comparison is stats_compare's of base b and
	 * candidate a, the verdict's is stats_compare_robust's (unpaired:
	 * these options do not say the runs were interleaved), both at the
	 * Bonferroni level of a family of two, the verdict on the p-value
	 * Holm-adjusted over the two (multitest.h). */
	double level = 1 - 0.05 / 2;
	struct stats_comparison want;
	stats_compare(b, 3, a, 3, level, 0, &want);
	struct stats_robust_cmp rob;
	stats_compare_robust(b, 3, a, 3, false, level, 0, &rob);
	int same = ca && ca->reference == 1 && ca->candidate == 0 &&
		   ca->family_size == 2 && ca->cmp.confidence == level &&
		   ca->unpaired.ratio == want.ratio &&
		   ca->unpaired.ratio_lo == want.ratio_lo &&
		   ca->unpaired.p_welch == want.p_welch &&
		   !ca->robust.paired && ca->cmp.ratio == rob.ratio &&
		   ca->cmp.ratio_lo == rob.ratio_lo && ca->cmp.p_welch == rob.p_t &&
		   ca->cmp.p_mann_whitney == rob.p_rank &&
		   ca->cmp.verdict == stats_robust_verdict_adjusted(&rob,
					ca->p_adjusted, 1 - 0.95) &&
		   analysis_find_cmp(an, 1, MET_WALL) == NULL;
	analysis_free(an);
	o.tables_by_mean = true;
	an = analysis_new(&o);
	analysis_update(an, rs, 3, -1);
	int sorted = an->order[0] == 1 && an->order[1] == 2 && an->order[2] == 0;
	release(an);
	CHECK(ok);
	CHECK(same);
	CHECK(sorted);
}

/* An update recomputes a benchmark that got runs, a result replaced at
 * its index, and every comparison when the base changes, and nothing
 * else: an entry is never stale. */
static void updates_follow_the_results(void)
{
	const double a[] = {0.03, 0.031, 0.032}, b[] = {0.01, 0.011, 0.012};
	rs[0] = with_times("a", a, 3);
	rs[1] = with_times("b", b, 3);
	struct analysis *an = analysis_new(&opt);
	analysis_update(an, rs, 2, -1);
	double mean_a = an->bench[0].sum[MET_WALL].mean;
	const struct analysis_cmp *before = analysis_find_cmp(an, 0, MET_WALL);
	double ratio_before = before ? before->cmp.ratio : NAN;
	/* Unchanged results: the same entries (their comparisons kept). */
	const struct analysis_cmp *kept = an->bench[0].cmps;
	analysis_update(an, rs, 2, -1);
	int unchanged = an->bench[0].cmps == kept &&
			an->bench[0].sum[MET_WALL].mean == mean_a;
	/* More runs of a: summarised and compared again. */
	const double more[] = {0.06, 0.06, 0.06};
	add_runs(rs[0], more, 3);
	analysis_update(an, rs, 2, -1);
	double mean_a2 = an->bench[0].sum[MET_WALL].mean;
	const struct analysis_cmp *after = analysis_find_cmp(an, 0, MET_WALL);
	int redone = an->bench[0].sum[MET_WALL].n == 6 && mean_a2 > mean_a &&
		     after && after->cmp.ratio > ratio_before;
	/* b slows down past a: a becomes the base, b is compared with it. */
	const double slow[] = {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5};
	add_runs(rs[1], slow, 8);
	analysis_update(an, rs, 2, -1);
	const struct analysis_cmp *cb = analysis_find_cmp(an, 1, MET_WALL);
	int rebased = an->base == 0 && cb && cb->reference == 0 &&
		      analysis_find_cmp(an, 0, MET_WALL) == NULL;
	/* A new, faster benchmark at a new index: the new base. */
	const double c[] = {0.02, 0.021};
	rs[2] = with_times("c", c, 2);
	analysis_update(an, rs, 3, -1);
	const struct analysis_cmp *c0 = analysis_find_cmp(an, 0, MET_WALL);
	int grown = an->n == 3 && an->bench[2].sum[MET_WALL].n == 2 &&
		    an->base == 2 && c0 && c0->reference == 2 &&
		    analysis_find_cmp(an, 2, MET_WALL) == NULL;
	release(an);
	CHECK(unchanged);
	CHECK(redone);
	CHECK(rebased);
	CHECK(grown);
}

/* The per-benchmark entry: summaries with intervals clamped at 0, the
 * outlier flags of the wall-time fences and the warnings, as the stats
 * functions give them. */
static void bench_entry_matches_stats(void)
{
	double t[20];
	for (int i = 0; i < 20; i++)
		t[i] = 0.010 + 0.0001 * (i % 5);
	t[7] = 0.050;   /* a severe outlier */
	rs[0] = with_times("a", t, 20);
	struct analysis *an = analysis_new(&opt);
	analysis_update(an, rs, 1, -1);
	struct stats_summary want;
	stats_summarize(t, 20, 0.95, &want);
	const struct analysis_bench *b = &an->bench[0];
	/* The mean's interval is stats_mean_ci_robust's (a time: bootstrap-t,
	 * widened for serial dependence), clamped at 0. */
	double lo, hi;
	stats_mean_ci_robust(t, 20, 0.95, 0, &lo, &hi, NULL);
	int sums = b->sum[MET_WALL].n == 20 && b->sum[MET_WALL].mean == want.mean &&
		   b->sum[MET_WALL].mean_ci_lo == (lo > 0 ? lo : 0) &&
		   b->sum[MET_WALL].mean_ci_hi == hi &&
		   b->sum[MET_USER].n == 0;
	int flags = (b->outlier[7] & RUN_OUTLIER_SEVERE) && b->outlier[0] == 0;
	int warned = (b->warnings & STATS_WARN_OUTLIERS) != 0 &&
		     b->warnings == stats_warnings(t, 20, &want, NULL, NULL);
	release(an);
	CHECK(sums);
	CHECK(flags);
	CHECK(warned);
}

/* A benchmark whose runs alternate between following its own run and
 * following another benchmark's (run_index gaps), m of each after a
 * first run (which follows nothing): self[i] right after its own run,
 * other[i] after a gap.  Scaled by 10 ms. */
static struct bench_result *with_carry(const char *name, const double *self,
				       const double *other, size_t m)
{
	struct bench_result *r = results_new(name, name, NULL, 0);
	results_enable(r, MET_WALL);
	double idx = 1, v[MET_COUNT];
	for (int k = 0; k < MET_COUNT; k++)
		v[k] = NAN;
	v[MET_WALL] = 0.010;
	results_add_run(r, v, 0, 0);
	results_set_run_info(r, NAN, idx);
	for (size_t i = 0; i < m; i++) {
		v[MET_WALL] = 0.010 * self[i];
		results_add_run(r, v, 0, 0);
		results_set_run_info(r, NAN, idx += 1);
		v[MET_WALL] = 0.010 * other[i];
		results_add_run(r, v, 0, 0);
		results_set_run_info(r, NAN, idx += 2);
	}
	return r;
}

/* The carry-over warning's thresholds (stats.h): both groups at least
 * STATS_CARRYOVER_MIN_N runs, p below 1 - confidence, and a change of at
 * least STATS_CARRYOVER_REL either way.  Each p is
 * scipy.stats.mannwhitneyu(other, self, alternative='two-sided',
 * method='exact').pvalue (SciPy 1.10). */
static void carryover_thresholds(void)
{
	const double s[6] = {1.000, 1.002, 1.004, 1.006, 1.008, 1.010};
	double up10[6], up4[6], down10[6];
	for (int i = 0; i < 6; i++) {
		up10[i] = s[i] * 1.10;
		up4[i] = s[i] * 1.04;
		down10[i] = s[i] * 0.90;
	}
	/* overlapping groups whose medians differ by 6.8 % */
	const double ov_s[6] = {1.00, 1.01, 1.02, 1.03, 1.30, 1.31};
	const double ov_o[6] = {0.99, 1.08, 1.09, 1.10, 1.32, 1.33};
	struct {
		const double *self, *other;
		size_t m;
		double change, p;
		bool warned;
	} c[] = {
		{s, up10, 6, 0.10, 0.0021645021645021645, true},
		{s, up4, 6, 0.04, 0.0021645021645021645, false},  /* too small */
		{s, down10, 6, -0.10, 0.0021645021645021645, true}, /* faster */
		{s, up10, 4, 0.10, 0.02857142857142857, false},   /* 4 runs */
		{ov_s, ov_o, 6, 0.06829268292682955, 0.3939393939393939, false},
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		rs[0] = with_carry("a", c[i].self, c[i].other, c[i].m);
		struct analysis *an = analysis_new(&opt);
		analysis_update(an, rs, 1, -1);
		const struct analysis_bench *b = &an->bench[0];
		int groups = b->carry.n_self == c[i].m && b->carry.n_other == c[i].m;
		int change = fabs(b->carry.change - c[i].change) < 1e-9;
		int p = fabs(b->carry.p - c[i].p) < 1e-9;
		int warned = ((b->warnings & STATS_WARN_CARRYOVER) != 0) == c[i].warned;
		release(an);
		CHECK(groups);
		CHECK(change);
		CHECK(p);
		CHECK(warned);
	}
	/* the level is the document's: at 99 % the bar is p < 0.01, which
	 * 5 runs of each cleanly apart pass (p = 2/C(10, 5) = 0.0079365,
	 * the same scipy call) */
	struct analysis_options o99 = opt;
	o99.confidence = 0.99;
	rs[0] = with_carry("a", s, up10, 5);
	struct analysis *an = analysis_new(&o99);
	analysis_update(an, rs, 1, -1);
	int p5 = fabs(an->bench[0].carry.p - 0.007936507936507936) < 1e-9;
	int warned5 = (an->bench[0].warnings & STATS_WARN_CARRYOVER) != 0;
	release(an);
	CHECK(p5);
	CHECK(warned5);
}

/* An update with no benchmark yet (everything failed before the first
 * one started) is a document with nothing in it, and fine to free. */
static void empty_update(void)
{
	struct analysis_options o = opt;
	o.tables_by_mean = true;
	struct analysis *an = analysis_new(&o);
	analysis_update(an, NULL, 0, -1);
	int empty = an->n == 0 && an->base == -1 && an->n_cmps == 0 &&
		    an->n_summary == 0;
	analysis_free(an);
	CHECK(empty);
}

int main(void)
{
	stats_init();
	RUN(empty_update);
	RUN(base_is_reference_or_fastest);
	RUN(orders_and_comparisons);
	RUN(interleaved_runs_are_paired);
	RUN(updates_follow_the_results);
	RUN(bench_entry_matches_stats);
	RUN(carryover_thresholds);
	UNIT_EXIT();
}
