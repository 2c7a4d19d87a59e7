/*
 * analysis.c: the one analysis document (see analysis.h).
 *
 * A benchmark is summarised again only when its runs changed (a new
 * result, more runs, or its interruption), and compared again only then or
 * when the comparison base changed, so keeping the document current while
 * benchmarks finish costs each benchmark's statistics once.
 */
#include "analysis.h"
#include "multitest.h"
#include "profile.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct analysis *analysis_new(const struct analysis_options *opt)
{
	struct analysis *a = xcalloc(1, sizeof *a);
	a->opt = *opt;
	a->base = -1;
	return a;
}

static void bench_release(struct analysis_bench *b)
{
	free(b->outlier);
	free(b->cmps);
	profile_diff_free(b->where);
	free(b->where);
	memset(b, 0, sizeof *b);
	b->cmp_base = -1;
}

void analysis_free(struct analysis *a)
{
	if (a == NULL)
		return;
	for (size_t i = 0; i < a->n; i++)
		bench_release(&a->bench[i]);
	free(a->bench);
	free(a->cmps);
	free(a->wall_cmp);
	free(a->order);
	free(a->summary_order);
	free(a);
}

/*
 * The mean's interval, robust: for wall time (right-skewed, and what the
 * verdicts read) the bootstrap-t interval, for the other metrics the
 * t-interval (a bootstrap of every metric of every benchmark of a
 * 2000-value sweep would cost seconds); both widened for the serial
 * dependence of consecutive runs (stats_robust.h).
 */
static void robust_mean_ci(struct stats_summary *s, const double *x, size_t n,
			   enum metric_id m, const struct analysis_options *opt)
{
	if (s->n < 2)
		return;
	if (m == MET_WALL) {
		double lo, hi;
		if (stats_mean_ci_robust(x, n, opt->confidence, opt->seed, &lo, &hi,
					 NULL) == 0) {
			s->mean_ci_lo = lo;
			s->mean_ci_hi = hi;
		}
		return;
	}
	double h = stats_mean_halfwidth_dependent(x, n, opt->confidence, NULL);
	if (isfinite(h)) {
		s->mean_ci_lo = s->mean - h;
		s->mean_ci_hi = s->mean + h;
	}
}

static void summarize(const struct bench_result *r,
		      const struct analysis_options *opt,
		      struct stats_summary sum[MET_COUNT])
{
	/* Every measured metric in one call: the columns' running sums
	 * overlap (stats.h). */
	const double *cols[MET_COUNT];
	int ids[MET_COUNT], nm = 0;
	struct stats_summary got[MET_COUNT];
	memset(sum, 0, MET_COUNT * sizeof *sum);
	for (int m = 0; m < MET_COUNT; m++)
		if (r->has[m] && r->n_runs > 0) {
			cols[nm] = r->col[m];
			ids[nm++] = m;
		}
	stats_summarize_columns(cols, r->n_runs, (size_t)nm, opt->confidence, got);
	for (int c = 0; c < nm; c++) {
		enum metric_id m = (enum metric_id)ids[c];
		robust_mean_ci(&got[c], cols[c], r->n_runs, m, opt);
		/* The shell's start-up subtracted from every run: its own
		 * uncertainty is part of the mean's. */
		if (r->via_shell && got[c].n > 0)
			stats_widen_mean_ci(&got[c], r->shell_se[m], r->shell_pairs);
		if (got[c].n > 0) /* every metric is a time, size or count */
			stats_clamp_nonnegative(&got[c]);
		sum[m] = got[c];
	}
}

/* Runs after its own against runs after another benchmark's: a warning
 * when the difference is both clear (the rank test at the document's
 * level) and large enough to matter (STATS_CARRYOVER_REL). */
static void carryover(struct analysis_bench *b, const struct bench_result *r,
		      const struct analysis_options *opt)
{
	memset(&b->carry, 0, sizeof b->carry);
	b->carry.after_self = b->carry.after_other = NAN;
	b->carry.change = b->carry.p = NAN;
	if (b->sum[MET_WALL].n == 0 || r->run_index == NULL)
		return;
	stats_carryover(r->col[MET_WALL], r->run_index, r->n_runs, &b->carry);
	const struct stats_carryover *c = &b->carry;
	if (c->n_self >= STATS_CARRYOVER_MIN_N &&
	    c->n_other >= STATS_CARRYOVER_MIN_N && c->p < 1 - opt->confidence &&
	    fabs(c->change) >= STATS_CARRYOVER_REL)
		b->warnings |= STATS_WARN_CARRYOVER;
}

/* Summaries, outliers and warnings of one benchmark. */
static void bench_compute(struct analysis_bench *b, const struct bench_result *r,
			  const struct analysis_options *opt)
{
	free(b->outlier);
	summarize(r, opt, b->sum);
	const struct stats_summary *w = &b->sum[MET_WALL];
	b->outlier = xcalloc(r->n_runs ? r->n_runs : 1, 1);
	for (size_t k = 0; k < r->n_runs; k++)
		b->outlier[k] = r->flags[k] & (RUN_OUTLIER_MILD | RUN_OUTLIER_SEVERE);
	b->warnings = 0;
	b->bimodality = NAN;
	b->acf1 = NAN;
	b->dependence = 1;
	b->clamped = 0;
	if (w->n > 0) {
		stats_flag_outliers(r->col[MET_WALL], r->n_runs, w, b->outlier);
		b->warnings = stats_warnings(r->col[MET_WALL], r->n_runs, w,
					     &b->sum[MET_USER], &b->sum[MET_SYSTEM]);
		b->dependence = stats_dependence_factor(r->col[MET_WALL], r->n_runs,
							&b->acf1, NULL);
		if (b->dependence >= STATS_DRIFT_FACTOR)
			b->warnings |= STATS_WARN_DRIFT;
		if (b->warnings & STATS_WARN_BIMODAL)
			b->bimodality = stats_bimodality_coefficient(r->col[MET_WALL],
								     r->n_runs);
	}
	carryover(b, r, opt);
	if (r->via_shell && r->has[MET_WALL])
		for (size_t k = 0; k < r->n_runs; k++)
			b->clamped += r->col[MET_WALL][k] == 0;
	b->of = r;
	b->n_runs = r->n_runs;
	b->interrupted = r->interrupted;
}

/* Base a against candidate b on metric m, every interval at level: the
 * independent-samples comparison, and the robust one (paired by rounds
 * when the runs were interleaved, which only benchmarks of one state group
 * are: run k of each was in round k, so the first min(na, nb) pair up)
 * that the verdict rests on.  Returns 0, or -1 when a side has no
 * value. */
static int compare_one(const struct analysis *an, const struct bench_result *a,
		       const struct bench_result *b, enum metric_id m,
		       double level, struct analysis_cmp *out)
{
	const struct analysis_options *o = &an->opt;
	/* A simulated CPU's counts, the same in every run: exact. */
	if (metric_info(m)->simulated &&
	    stats_compare_exact(a->col[m], a->n_runs, b->col[m], b->n_runs,
				o->confidence, &out->cmp) == 0) {
		out->unpaired = out->cmp;
		memset(&out->robust, 0, sizeof out->robust);
		return 0;
	}
	if (stats_compare(a->col[m], a->n_runs, b->col[m], b->n_runs,
			  level, o->seed, &out->unpaired) != 0)
		return -1;
	/* The bootstrap for wall time, which the verdict and the gate read
	 * and whose runs are the most skewed; the other metrics' ratio
	 * intervals are widened t-intervals of the log ratio, at O(n): a
	 * 2000-value sweep compares 2000 benchmarks on every metric. */
	size_t k = a->n_runs < b->n_runs ? a->n_runs : b->n_runs;
	size_t B = m == MET_WALL ? STATS_ROBUST_B : 0;
	int rc = o->paired && a->group == b->group
		 ? stats_compare_robust_b(a->col[m], k, b->col[m], k, true,
					  level, o->seed, B, &out->robust)
		 : stats_compare_robust_b(a->col[m], a->n_runs, b->col[m],
					  b->n_runs, false, level, o->seed,
					  B, &out->robust);
	if (rc != 0) {
		/* No complete round: the independent comparison decides. */
		memset(&out->robust, 0, sizeof out->robust);
		out->cmp = out->unpaired;
		return 0;
	}
	out->cmp = out->unpaired;
	stats_robust_as_comparison(&out->robust, &out->cmp);
	return 0;
}

/* hyperfine's σ of the shown ratio (see ratio_sd in analysis.h). */
static double ratio_sd(const struct stats_summary *a, const struct stats_summary *b,
		       double ratio)
{
	if (a->n < 2 || b->n < 2 || !(a->mean != 0) || !(b->mean != 0) ||
	    !isfinite(ratio) || ratio == 0)
		return NAN;
	double r = ratio >= 1 ? ratio : 1 / ratio;
	double ca = a->stddev / a->mean, cb = b->stddev / b->mean;
	return r * sqrt(ca * ca + cb * cb);
}

/* Is the comparison of benchmark i with the base on metric m in its
 * family: at least 2 runs a side? */
static bool in_family(const struct analysis *a, size_t i, int m)
{
	return a->bench[a->base].sum[m].n >= 2 && a->bench[i].sum[m].n >= 2;
}

/*
 * Benchmark i against the base on every metric both measured, each at the
 * level of its family (multitest_level).  A comparison already made at
 * that level is kept, unless force (the benchmark's runs or the base
 * changed).
 */
static void compare_bench(struct analysis *a, struct bench_result *const *rs,
			  size_t i, bool force)
{
	struct analysis_bench *b = &a->bench[i];
	struct analysis_cmp *old = b->cmps;
	size_t n_old = b->n_cmps;
	b->cmps = NULL;
	b->n_cmps = 0;
	profile_diff_free(b->where);
	free(b->where);
	b->where = NULL;
	b->cmp_base = a->base;
	if (a->base < 0 || (size_t)a->base == i) {
		free(old);
		return;
	}
	size_t base = (size_t)a->base, cap = 0, k = 0;
	/* --profile: where the instructions moved, function by function. */
	if (rs[base]->profile && rs[i]->profile) {
		char err[256];
		b->where = xcalloc(1, sizeof *b->where);
		if (profile_diff(rs[base]->profile, rs[i]->profile, VG_IR, b->where,
				 err, sizeof err) != 0) {
			free(b->where);
			b->where = NULL;
		}
	}
	const struct analysis_bench *ab = &a->bench[base];
	for (int m = 0; m < MET_COUNT; m++) {
		if (ab->sum[m].n == 0 || b->sum[m].n == 0)
			continue;
		double level = multitest_level(a->opt.confidence, in_family(a, i, m)
					       ? a->family[m] : 1);
		while (k < n_old && (int)old[k].metric < m)
			k++;
		struct analysis_cmp c;
		if (!force && k < n_old && (int)old[k].metric == m &&
		    old[k].cmp.confidence == level) {
			c = old[k];
		} else {
			memset(&c, 0, sizeof c);
			c.reference = base;
			c.candidate = i;
			c.metric = (enum metric_id)m;
			if (compare_one(a, rs[base], rs[i], (enum metric_id)m, level,
					&c) != 0)
				continue;
			c.ratio_sd = ratio_sd(&ab->sum[m], &b->sum[m], c.cmp.ratio);
		}
		xgrow((void **)&b->cmps, &cap, b->n_cmps + 1, sizeof *b->cmps);
		b->cmps[b->n_cmps++] = c;
	}
	free(old);
}

/* The p-value c's verdict rests on: both tests must reject, so the larger
 * of their p-values, or the t-test's when the rank test abstains; NaN when
 * a test that takes part could not be made. */
static double verdict_p(const struct stats_comparison *c)
{
	if (c->mw_underpowered)
		return c->p_welch;
	if (isnan(c->p_welch) || isnan(c->p_mann_whitney))
		return NAN;
	return fmax(c->p_welch, c->p_mann_whitney);
}

/* Count each metric's family (in_family). */
static bool count_families(struct analysis *a)
{
	size_t fam[MET_COUNT] = {0};
	if (a->base >= 0)
		for (size_t i = 0; i < a->n; i++)
			for (int m = 0; m < MET_COUNT && i != (size_t)a->base; m++)
				fam[m] += in_family(a, i, m);
	bool changed = memcmp(fam, a->family, sizeof fam) != 0;
	memcpy(a->family, fam, sizeof fam);
	return changed;
}

/*
 * Holm over each metric's family: every comparison's p and p_adjusted,
 * and, in a family of more than one, the verdict on p_adjusted (a family
 * of one keeps the comparison's own verdict: the plain test).  The
 * comparison with no complete round (cmp is the independent one, robust
 * empty) keeps its verdict: made at the Bonferroni level, it is
 * significant only where Holm's is too.
 */
static void adjust_families(struct analysis *a)
{
	size_t total = 0, start[MET_COUNT + 1];
	for (int m = 0; m < MET_COUNT; m++) {
		start[m] = total;
		total += a->family[m];
	}
	start[MET_COUNT] = total;
	struct analysis_cmp **fam = xcalloc(total ? total : 1, sizeof *fam);
	double *p = xcalloc(total ? total : 1, sizeof *p);
	size_t fill[MET_COUNT] = {0};
	for (size_t i = 0; i < a->n; i++)
		for (size_t k = 0; k < a->bench[i].n_cmps; k++) {
			struct analysis_cmp *c = &a->bench[i].cmps[k];
			int m = (int)c->metric;
			c->p = c->p_adjusted = verdict_p(&c->cmp);
			c->family_size = 0;
			if (in_family(a, i, m) && fill[m] < a->family[m])
				fam[start[m] + fill[m]++] = c;
		}
	for (int m = 0; m < MET_COUNT; m++) {
		size_t n = fill[m];
		struct analysis_cmp **f = fam + start[m];
		for (size_t j = 0; j < n; j++)
			p[j] = f[j]->p;
		multitest_holm(p, n, p);
		for (size_t j = 0; j < n; j++) {
			struct analysis_cmp *c = f[j];
			c->p_adjusted = p[j];
			c->family_size = n;
			if (n > 1 && c->robust.ci_method != NULL)
				c->cmp.verdict = stats_robust_verdict_adjusted(
					&c->robust, c->p_adjusted, 1 - a->opt.confidence);
		}
	}
	free(p);
	free(fam);
}

/* The summary's metric: simulated instructions when every benchmark
 * with runs counted them (--counters sim: the time is Valgrind's), else
 * the wall time. */
static enum metric_id pick_primary(const struct analysis *a)
{
	size_t with = 0, sim = 0;
	for (size_t i = 0; i < a->n; i++) {
		with += a->bench[i].n_runs > 0;
		sim += a->bench[i].n_runs > 0 &&
		       a->bench[i].sum[MET_SIM_INSTRUCTIONS].n > 0;
	}
	return sim > 0 && sim == with ? MET_SIM_INSTRUCTIONS : MET_WALL;
}

/* hyperfine's rule for the base: the reference if it has a value of the
 * primary metric, else the lowest mean. */
static long pick_base(const struct analysis *a, long reference)
{
	enum metric_id m = a->primary;
	if (reference >= 0 && (size_t)reference < a->n &&
	    a->bench[reference].sum[m].n > 0)
		return reference;
	long base = -1;
	for (size_t i = 0; i < a->n; i++) {
		const struct stats_summary *s = &a->bench[i].sum[m];
		if (s->n > 0 && (base < 0 || s->mean < a->bench[base].sum[m].mean))
			base = (long)i;
	}
	return base;
}

static int cmp_by_mean(const void *p, const void *q, void *arg)
{
	const struct analysis *a = arg;
	size_t i = *(const size_t *)p, j = *(const size_t *)q;
	const struct stats_summary *si = &a->bench[i].sum[a->primary];
	const struct stats_summary *sj = &a->bench[j].sum[a->primary];
	double mi = si->n ? si->mean : INFINITY;
	double mj = sj->n ? sj->mean : INFINITY;
	if (mi != mj)
		return mi < mj ? -1 : 1;
	return (i > j) - (i < j);
}

/* The flat comparison list, wall_cmp and the two row orders. */
static void rebuild_views(struct analysis *a)
{
	size_t total = 0;
	for (size_t i = 0; i < a->n; i++)
		total += a->bench[i].n_cmps;
	free(a->cmps);
	a->cmps = xcalloc(total ? total : 1, sizeof *a->cmps);
	a->n_cmps = 0;
	for (size_t i = 0; i < a->n; i++) {
		const struct analysis_bench *b = &a->bench[i];
		a->wall_cmp[i] = -1;
		for (size_t k = 0; k < b->n_cmps; k++) {
			if (b->cmps[k].metric == MET_WALL)
				a->wall_cmp[i] = (long)a->n_cmps;
			a->cmps[a->n_cmps++] = b->cmps[k];
		}
	}
	a->n_summary = 0;
	for (size_t i = 0; i < a->n; i++) {
		a->order[i] = i;
		if (a->bench[i].sum[a->primary].n > 0)
			a->summary_order[a->n_summary++] = i;
	}
	/* (No benchmark yet: the arrays are not allocated.) */
	if (a->opt.tables_by_mean && a->n > 1)
		qsort_r(a->order, a->n, sizeof *a->order, cmp_by_mean, a);
	if (a->opt.summary_by_mean && a->n_summary > 1)
		qsort_r(a->summary_order, a->n_summary, sizeof *a->summary_order,
			cmp_by_mean, a);
}

/* Room for n benchmarks. */
static void grow(struct analysis *a, size_t n)
{
	if (n > a->cap) {
		a->bench = xreallocarray(a->bench, n, sizeof *a->bench);
		a->wall_cmp = xreallocarray(a->wall_cmp, n, sizeof *a->wall_cmp);
		a->order = xreallocarray(a->order, n, sizeof *a->order);
		a->summary_order = xreallocarray(a->summary_order, n,
						 sizeof *a->summary_order);
		for (size_t i = a->cap; i < n; i++) {
			memset(&a->bench[i], 0, sizeof a->bench[i]);
			a->bench[i].cmp_base = -1;
		}
		a->cap = n;
	}
	if (n > a->n)
		a->n = n;
}

/* Is benchmark i's entry computed from r as it is now? */
static bool current(const struct analysis_bench *b, const struct bench_result *r)
{
	return b->of == r && b->n_runs == r->n_runs && b->interrupted == r->interrupted;
}

void analysis_update_bench(struct analysis *a, size_t i,
			   const struct bench_result *r)
{
	grow(a, i + 1);
	if (!current(&a->bench[i], r)) {
		bench_compute(&a->bench[i], r, &a->opt);
		/* Its comparisons are due again. */
		a->bench[i].cmp_base = -2;
	}
}

void analysis_update(struct analysis *a, struct bench_result *const *rs,
		     size_t n, long reference)
{
	grow(a, n);
	bool *fresh = xcalloc(a->n ? a->n : 1, sizeof *fresh);
	for (size_t i = 0; i < a->n; i++) {
		struct analysis_bench *b = &a->bench[i];
		if (b->cmp_base == -2)
			fresh[i] = true;
		if (current(b, rs[i]))
			continue;
		bench_compute(b, rs[i], &a->opt);
		fresh[i] = true;
	}
	a->primary = pick_primary(a);
	a->base = pick_base(a, reference);
	/* A family that grew or shrank changes the level of its every
	 * comparison. */
	bool levels = count_families(a);
	for (size_t i = 0; i < a->n; i++) {
		bool force = fresh[i] || a->bench[i].cmp_base != a->base ||
			     (a->base >= 0 && fresh[a->base]);
		if (force || levels)
			compare_bench(a, rs, i, force);
	}
	free(fresh);
	adjust_families(a);
	rebuild_views(a);
}

const struct analysis_cmp *analysis_find_cmp(const struct analysis *a,
					     size_t i, enum metric_id m)
{
	if (i >= a->n)
		return NULL;
	const struct analysis_bench *b = &a->bench[i];
	for (size_t k = 0; k < b->n_cmps; k++)
		if (b->cmps[k].metric == m)
			return &b->cmps[k];
	return NULL;
}
