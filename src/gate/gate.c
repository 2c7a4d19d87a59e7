/*
 * gate.c: the CI gate (see gate.h for the rule): matches the benchmarks of
 * two sets, compares each pair on one metric, decides regression,
 * improvement or noise, and turns the outcome into cbench's exit code.
 * Sets come from the loader (gate_load.c); nothing here reads a file,
 * prints or exits.
 */
#include "gate.h"
#include "analysis.h"
#include "multitest.h"
#include "stats_quantile.h"
#include "stats_robust.h"
#include "xalloc.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- matching and deciding ---- */

const char *gate_verdict_name(enum cmp_verdict v)
{
	static const char *const names[CMP__COUNT] = {
		[CMP_REGRESSION] = "regression",
		[CMP_IMPROVEMENT] = "improvement",
		[CMP_NOISE] = "within noise",
		[CMP_UNDECIDED] = "undecided",
		[CMP_ONLY_BASE] = "missing in new",
		[CMP_ONLY_NEW] = "not in baseline",
	};
	return (unsigned)v < CMP__COUNT ? names[v] : "?";
}

/* alpha at a confidence level: 1 - 0.95 is 0.050000000000000044 in
 * binary, rounded so that p = 0.05 is not significant at 95 %. */
static double alpha_of(double confidence)
{
	return round((1.0 - confidence) * 1e12) / 1e12;
}

/* The rule of gate.h with the p-value given (a row's own, or adjusted for
 * the family of rows) at level alpha. */
static enum cmp_verdict decide_p(const struct stats_comparison *c,
				 double threshold, double p, double alpha)
{
	if (!isfinite(p) || !isfinite(c->ratio_lo) || !isfinite(c->ratio_hi))
		return CMP_UNDECIDED;
	if (!(p < alpha))
		return CMP_NOISE;
	if (c->ratio_lo - 1.0 > threshold)
		return CMP_REGRESSION;
	if (1.0 - c->ratio_hi > threshold)
		return CMP_IMPROVEMENT;
	return CMP_NOISE;
}

enum cmp_verdict gate_decide(const struct stats_comparison *c,
				double threshold, double *p_used)
{
	/* Mann-Whitney U first: rank-based, so one slow run on a busy CI
	 * machine does not make or break significance (Google Benchmark's
	 * tools/compare.py uses it for the same reason). */
	double p = isfinite(c->p_mann_whitney) && !c->mw_underpowered
		   ? c->p_mann_whitney : c->p_welch;
	*p_used = p;
	return decide_p(c, threshold, p, alpha_of(c->confidence));
}

/* A custom metric where higher is better (throughput): a fall by more
 * than the threshold is the regression. */
static enum cmp_verdict oriented(int m, enum cmp_verdict v)
{
	const struct metric_info *mi = m < MET_COUNT ? metric_info((enum metric_id)m)
						     : NULL;
	if (mi && mi->higher_is_better && v == CMP_REGRESSION)
		return CMP_IMPROVEMENT;
	if (mi && mi->higher_is_better && v == CMP_IMPROVEMENT)
		return CMP_REGRESSION;
	return v;
}

/* Do a and b have the same parameters (in any order)? */
static bool same_params(const struct cmp_bench *a, const struct cmp_bench *b)
{
	if (a->n_params != b->n_params)
		return false;
	for (size_t i = 0; i < a->n_params; i++) {
		bool found = false;
		for (size_t k = 0; k < b->n_params && !found; k++)
			found = strcmp(a->params[i].name, b->params[k].name) == 0 &&
				strcmp(a->params[i].value, b->params[k].value) == 0;
		if (!found)
			return false;
	}
	return true;
}

static bool same_bench(const struct cmp_bench *a, const struct cmp_bench *b,
		       enum match_by by)
{
	const char *x = by == MATCH_NAME ? a->name : a->command;
	const char *y = by == MATCH_NAME ? b->name : b->command;
	return strcmp(x, y) == 0 && same_params(a, b);
}

/* Regressions first, then improvements, noise, undecided, one-sided;
 * file order within each group (a stable counting sort). */
static void order_rows(struct cmp_row *rows, size_t n)
{
	struct cmp_row *sorted = xcalloc(n + 1, sizeof *sorted);
	size_t k = 0;
	for (int v = 0; v < CMP__COUNT; v++)
		for (size_t i = 0; i < n; i++)
			if ((int)rows[i].verdict == v)
				sorted[k++] = rows[i];
	memcpy(rows, sorted, n * sizeof *rows);
	free(sorted);
}

/* The first side that lacks metric m in a row with both sides, or NULL
 * when every such row has it on both. */
static const struct cmp_set *lacking_side(const struct cmp_set *base,
					  const struct cmp_set *new,
					  const struct cmp_row *rows,
					  size_t n_rows, int m)
{
	for (size_t i = 0; i < n_rows; i++) {
		const struct cmp_row *r = &rows[i];
		if (r->base == NULL || r->new == NULL)
			continue;
		if (!gate_bench_has(r->base, m))
			return base;
		if (!gate_bench_has(r->new, m))
			return new;
	}
	return NULL;
}

/* The largest share of CPU time in wall time among b's runs: the run the
 * machine disturbed least says whether the command computes or waits (a
 * CPU-bound one comes near 1 in some run however busy the machine; one
 * that sleeps or reads never does).  NaN when not known. */
static double best_cpu_share(const struct cmp_bench *b, int t)
{
	double best = NAN;
	for (size_t k = 0; b->col[t] && b->col[MET_WALL] && k < b->n_runs; k++) {
		double c = b->col[t][k], w = b->col[MET_WALL][k];
		if (isfinite(c) && w > 0 && !(c / w <= best))
			best = c / w;
	}
	return best;
}

/* The smallest best_cpu_share of task-clock over every side of every row
 * with both sides; 0 when a side lacks it. */
static double cpu_bound_share(const struct cmp_set *base, const struct cmp_set *new,
			      const struct cmp_row *rows, size_t n_rows)
{
	const int t = MET_CTR_FIRST + CTR_TASK_CLOCK;
	double least = INFINITY;
	if (base->format == CMP_FMT_HYPERFINE || new->format == CMP_FMT_HYPERFINE)
		return 0;
	for (size_t i = 0; i < n_rows; i++) {
		const struct cmp_bench *side[2] = {rows[i].base, rows[i].new};
		if (side[0] == NULL || side[1] == NULL)
			continue;
		for (int k = 0; k < 2; k++) {
			double s = best_cpu_share(side[k], t);
			if (!(s > 0))
				return 0;
			if (s < least)
				least = s;
		}
	}
	return isfinite(least) ? least : 0;
}

/* Choose the gate metric and say why. */
static int choose_metric(const struct cmp_set *base, const struct cmp_set *new,
			 const struct cmp_row *rows, size_t n_rows,
			 const struct cmp_options *opt, struct cmp_report *rep,
			 char *err, size_t errlen)
{
	if (opt->metric >= 0) {
		int m = opt->metric;
		rep->metric = m;
		snprintf(rep->why, sizeof rep->why, "chosen with --gate-metric");
		for (size_t i = 0; i < n_rows; i++) {
			const struct cmp_row *r = &rows[i];
			if (r->base == NULL || r->new == NULL)
				continue;
			const struct cmp_set *lacking = !gate_bench_has(r->base, m)
				? base : !gate_bench_has(r->new, m) ? new : NULL;
			if (lacking == NULL)
				continue;
			const struct cmp_bench *b = lacking == base ? r->base : r->new;
			if (lacking->format == CMP_FMT_HYPERFINE)
				snprintf(err, errlen, "--gate-metric %s: %s is a hyperfine "
					 "file, which records only wall time per run "
					 "(use --gate-metric wall_time)",
					 gate_metric_key(m), lacking->origin);
			else
				snprintf(err, errlen, "--gate-metric %s: not counted in "
					 "%s for '%s'", gate_metric_key(m),
					 lacking->origin, b->name);
			return -1;
		}
		return 0;
	}
	rep->metric_auto = true;
	/* Under Valgrind every other metric is Valgrind's own: a benchmark
	 * without a count is left undecided, never judged by those. */
	if (gate_set_has(base, MET_SIM_INSTRUCTIONS, true) ||
	    gate_set_has(new, MET_SIM_INSTRUCTIONS, true)) {
		rep->metric = MET_SIM_INSTRUCTIONS;
		snprintf(rep->why, sizeof rep->why, "simulated on both sides");
		return 0;
	}
	const struct cmp_set *lacking = lacking_side(base, new, rows, n_rows,
						     MET_CTR_FIRST + CTR_INSTRUCTIONS);
	double busy;
	if (lacking == NULL) {
		rep->metric = MET_CTR_FIRST + CTR_INSTRUCTIONS;
		snprintf(rep->why, sizeof rep->why, "counted on both sides");
	} else if ((busy = cpu_bound_share(base, new, rows, n_rows)) >= CPU_BOUND_SHARE) {
		/* Without instructions, the CPU time of a CPU-bound command
		 * leaves out its waits for a CPU on a busy machine, which the
		 * wall time takes in (README, "Counters or wall time?"). */
		rep->metric = MET_CTR_FIRST + CTR_TASK_CLOCK;
		/* Against a history's invocation means, means are compared. */
		rep->low_quantile = !opt->between;
		snprintf(rep->why, sizeof rep->why, "instructions not counted in "
			 "%s; the commands are CPU-bound (CPU time %.0f %% of wall "
			 "time): their CPU time%s", lacking->format == CMP_FMT_RUN
			 ? "this run" : lacking->origin, busy * 100,
			 rep->low_quantile ? " at its 10th percentile, which a busy "
			 "machine moves least" : ", without the waits for a CPU");
	} else {
		rep->metric = MET_WALL;
		if (lacking->format == CMP_FMT_HYPERFINE)
			snprintf(rep->why, sizeof rep->why, "%s is a hyperfine file, "
				 "without counters", lacking->origin);
		else
			snprintf(rep->why, sizeof rep->why, "instructions not counted "
				 "in %s", lacking->format == CMP_FMT_RUN
				 ? "this run" : lacking->origin);
	}
	return 0;
}

/* The robust comparison of a row's two sides (stats_robust.h): by rounds
 * when opt->paired and both are of one state group (the first min(na, nb)
 * runs), else independent.
 * Returns 0, or -1 when a side has no value. */
/* A row's two sides are compared by rounds: interleaved, one state group. */
static bool by_rounds(const struct cmp_row *r, const struct cmp_options *opt)
{
	return opt->paired && r->base->group == r->new->group;
}

static int robust_pair(const struct cmp_row *r, int m, const struct cmp_options *opt,
		       struct stats_comparison *st)
{
	size_t na = r->base->n_runs, nb = r->new->n_runs;
	bool paired = by_rounds(r, opt);
	if (paired)
		na = nb = na < nb ? na : nb;
	struct stats_robust_cmp rob;
	if (stats_compare_robust(r->base->col[m], na, r->new->col[m], nb,
				 paired, opt->confidence, opt->seed, &rob) != 0)
		return -1;
	memset(st, 0, sizeof *st);
	stats_robust_as_comparison(&rob, st);
	return 0;
}

/*
 * The comparison against the history (opt->between): base a[0..na) holds
 * the means of na earlier invocations, b this invocation's runs.  The new
 * mean x is one more draw from the invocations' distribution, so the
 * difference x - m from their mean m has the standard error
 * s * sqrt(1 + 1/na), s the invocations' standard deviation, and a
 * Student t with na - 1 degrees of freedom: the prediction interval of a
 * new observation (Hahn and Meeker, "Statistical Intervals", 1991, ch. 4).
 * The ratio's interval is that of the difference divided by m.  Only the
 * t-test decides (no rank test: p_mann_whitney NaN, underpowered).
 */
static int between_pair(const struct cmp_row *r, int m, const struct cmp_options *opt,
			struct stats_comparison *st)
{
	struct stats_summary sa, sb;
	if (stats_summarize(r->base->col[m], r->base->n_runs, opt->confidence, &sa) != 0 ||
	    stats_summarize(r->new->col[m], r->new->n_runs, opt->confidence, &sb) != 0 ||
	    sa.n < 2 || sa.mean == 0)
		return -1;
	memset(st, 0, sizeof *st);
	st->confidence = opt->confidence;
	st->na = sa.n;
	st->nb = sb.n;
	st->ratio = sb.mean / sa.mean;
	st->p_mann_whitney = NAN;
	st->mw_underpowered = true;
	double se = sa.stddev * sqrt(1.0 + 1.0 / (double)sa.n);
	double df = (double)sa.n - 1;
	st->welch_df = df;
	if (!(se > 0)) {   /* constant history: decided by the exact difference */
		st->ratio_lo = st->ratio_hi = st->ratio;
		st->p_welch = sb.mean == sa.mean ? 1.0 : 0.0;
		st->welch_t = NAN;
		return 0;
	}
	double t = (sb.mean - sa.mean) / se;
	double q = gsl_cdf_tdist_Qinv((1 - opt->confidence) / 2, df);
	st->welch_t = t;
	st->p_welch = 2 * gsl_cdf_tdist_Q(fabs(t), df);
	st->ratio_lo = 1 + (sb.mean - sa.mean - q * se) / sa.mean;
	st->ratio_hi = 1 + (sb.mean - sa.mean + q * se) / sa.mean;
	if (st->ratio_lo < 0)
		st->ratio_lo = 0;
	return 0;
}

double gate_threshold_for(const struct gate_threshold *t, size_t n, double def,
			  const struct cmp_bench *b, int metric)
{
	int best = -1;
	double v = def;
	for (size_t i = 0; i < n; i++) {
		bool bench = t[i].bench != NULL;
		if (bench && strcmp(t[i].bench, b->name) != 0 &&
		    (b->command == NULL || strcmp(t[i].bench, b->command) != 0))
			continue;
		if (t[i].metric >= 0 && t[i].metric != metric)
			continue;
		int rank = 2 * bench + (t[i].metric >= 0);
		if (rank > best) {
			best = rank;
			v = t[i].threshold;
		}
	}
	return v;
}

/* Decide a row on metric m: from the comparison given (the run's analysis
 * made it), or one computed here. */
static void compare_pair(struct cmp_row *r, int m, const struct cmp_options *opt,
			 const struct stats_comparison *given)
{
	const double *a = r->base->col[m], *b = r->new->col[m];
	struct stats_summary sa, sb;
	bool ok_a = stats_summarize(a, r->base->n_runs, opt->confidence, &sa) == 0;
	bool ok_b = stats_summarize(b, r->new->n_runs, opt->confidence, &sb) == 0;
	r->base_mean = ok_a ? sa.mean : NAN;
	r->base_sd = ok_a ? sa.stddev : NAN;
	r->base_n = ok_a ? sa.n : 0;
	r->new_mean = ok_b ? sb.mean : NAN;
	r->new_sd = ok_b ? sb.stddev : NAN;
	r->new_n = ok_b ? sb.n : 0;
	r->p = NAN;
	if (ok_a && ok_b && given && !opt->low_quantile)
		r->st = *given;
	else
		given = NULL;
	/* CPU time chosen by the gate: at its 10th percentile, by rounds as
	 * robust_pair pairs them. */
	if (ok_a && ok_b && opt->low_quantile &&
	    stats_compare_quantile(a, r->base->n_runs, b, r->new->n_runs,
				   by_rounds(r, opt),
				   STATS_LOW_QUANTILE, opt->confidence, STATS_ROBUST_B,
				   opt->seed, &r->st) == 0)
		given = &r->st;
	/* A simulated CPU's counts, the same in every run: exact. */
	if (ok_a && ok_b && !given && m < MET_COUNT &&
	    metric_info((enum metric_id)m)->simulated &&
	    stats_compare_exact(a, r->base->n_runs, b, r->new->n_runs,
				opt->confidence, &r->st) == 0)
		given = &r->st;
	if (!ok_a || !ok_b || (!given && opt->between &&
			       between_pair(r, m, opt, &r->st) != 0) ||
	    (!given && !opt->between && robust_pair(r, m, opt, &r->st) != 0)) {
		memset(&r->st, 0, sizeof r->st);
		r->st.ratio = r->st.ratio_lo = r->st.ratio_hi = NAN;
		r->st.p_welch = r->st.p_mann_whitney = NAN;
		r->st.confidence = opt->confidence;
		r->verdict = CMP_UNDECIDED;
		return;
	}
	/*
	 * Constant samples (deterministic counters such as page faults of a
	 * program that touches a fixed number of pages): the t statistic is
	 * 0/0 or x/0 and the rank test has no variance when all values tie,
	 * so both p-values may be undefined.  The difference, if any, is then
	 * exact: decide on it as on a certain one.
	 */
	struct stats_comparison c = r->st;
	if (!isfinite(c.p_mann_whitney) && !isfinite(c.p_welch) &&
	    sa.n >= 2 && sb.n >= 2 && sa.stddev == 0 && sb.stddev == 0) {
		c.p_welch = sa.mean == sb.mean ? 1.0 : 0.0;
		if (!isfinite(c.ratio_lo) || !isfinite(c.ratio_hi))
			c.ratio_lo = c.ratio_hi = c.ratio;
		r->st = c;
	}
	r->threshold = gate_threshold_for(opt->thresholds, opt->n_thresholds,
					  opt->threshold, r->new, m);
	r->verdict = oriented(m, gate_decide(&c, r->threshold, &r->p));
}

/* Values of metric m that b counted (not NaN). */
static size_t counted(const struct cmp_bench *b, int m)
{
	size_t k = 0;
	for (size_t i = 0; b->col[m] && i < b->n_runs; i++)
		k += !isnan(b->col[m][i]);
	return k;
}

/* Is row r in the family of rows on metric m: both sides, 2 values each? */
static bool row_in_family(const struct cmp_row *r, int m)
{
	return r->base && r->new && counted(r->base, m) >= 2 &&
	       counted(r->new, m) >= 2;
}

/*
 * Compare every matched row of rep on its metric (given[k]: row k's
 * comparison from the run's analysis, or NULL; given itself may be NULL),
 * then control the family's error (multitest.h): the rows with 2 values a
 * side are a family of m, whose intervals are at the Bonferroni level and
 * whose significance is Holm's over the p-values the decisions use.  With
 * m = 1, each row is decided as gate_decide() decides it.
 */
static void compare_rows(struct cmp_report *rep, const struct cmp_options *opt,
			 const struct stats_comparison *const *given)
{
	int m = rep->metric;
	size_t fam = 0;
	for (size_t k = 0; k < rep->n_rows; k++)
		fam += row_in_family(&rep->rows[k], m);
	struct cmp_options own = *opt;
	own.low_quantile = rep->low_quantile;
	struct cmp_options at = own;
	at.confidence = multitest_level(opt->confidence, fam);
	rep->family_size = fam;
	rep->ci_level = at.confidence;
	struct cmp_row **in = xcalloc(fam + 1, sizeof *in);
	double *p = xcalloc(fam + 1, sizeof *p);
	size_t n = 0;
	for (size_t k = 0; k < rep->n_rows; k++) {
		struct cmp_row *r = &rep->rows[k];
		if (r->base == NULL || r->new == NULL)
			continue;
		bool family = row_in_family(r, m);
		compare_pair(r, m, family ? &at : &own, given ? given[k] : NULL);
		r->p_raw = r->p;
		if (family) {
			p[n] = r->p;
			in[n++] = r;
		}
	}
	multitest_holm(p, n, p);
	for (size_t k = 0; k < n; k++) {
		struct cmp_row *r = in[k];
		r->p = p[k];
		r->family_size = n;
		if (n > 1)
			r->verdict = oriented(m, decide_p(&r->st, r->threshold, r->p,
							  alpha_of(opt->confidence)));
	}
	free(p);
	free(in);
}

/* Pair each benchmark of base with the first unpaired one of new that has
 * the same key: rows in base's order, then new's unpaired ones. */
static struct cmp_row *match(const struct cmp_set *base, const struct cmp_set *new,
			     enum match_by by, size_t *n_rows, size_t *matched)
{
	struct cmp_row *rows = xcalloc(base->n + new->n + 1, sizeof *rows);
	bool *taken = xcalloc(new->n + 1, sizeof *taken);
	size_t n = 0;
	*matched = 0;
	for (size_t i = 0; i < base->n; i++) {
		struct cmp_row *r = &rows[n++];
		r->base = &base->bench[i];
		for (size_t k = 0; k < new->n; k++) {
			if (!taken[k] && same_bench(r->base, &new->bench[k], by)) {
				taken[k] = true;
				r->new = &new->bench[k];
				(*matched)++;
				break;
			}
		}
		if (r->new == NULL)
			r->verdict = CMP_ONLY_BASE;
	}
	for (size_t k = 0; k < new->n; k++) {
		if (taken[k])
			continue;
		rows[n].new = &new->bench[k];
		rows[n].verdict = CMP_ONLY_NEW;
		n++;
	}
	free(taken);
	*n_rows = n;
	return rows;
}

static int no_match(const struct cmp_set *base, const struct cmp_set *new,
		    enum match_by by, char *err, size_t errlen)
{
	snprintf(err, errlen, "no benchmark in %s matches one in %s (matching by "
		 "%s)", new->origin, base->origin, by == MATCH_NAME
		 ? "display name; try --match-by command"
		 : "command line; try --match-by name");
	return -1;
}

int gate_check_tools(const struct cmp_set *base, const struct cmp_set *new,
			char *err, size_t errlen)
{
	bool hf_base = base->format == CMP_FMT_HYPERFINE;
	bool hf_new = new->format == CMP_FMT_HYPERFINE;
	/* Under Valgrind (--counters sim) every time and size is Valgrind's:
	 * against a native run, any metric would read as a change. */
	bool sim_base = base->simulated || gate_set_has(base, MET_SIM_INSTRUCTIONS, true);
	bool sim_new = new->simulated || gate_set_has(new, MET_SIM_INSTRUCTIONS, true);
	if (hf_base == hf_new && sim_base != sim_new) {
		const struct cmp_set *s = sim_base ? base : new;
		const struct cmp_set *o = sim_base ? new : base;
		snprintf(err, errlen, "%s was measured under Valgrind (--counters "
			 "sim) and %s natively: no metric of one compares with the "
			 "other's; measure both with --counters sim, or neither",
			 s->format == CMP_FMT_RUN ? "this run" : s->origin,
			 o->format == CMP_FMT_RUN ? "this run" : o->origin);
		return -1;
	}
	if (hf_base == hf_new)
		return 0;
	const struct cmp_set *hf = hf_base ? base : new;
	const struct cmp_set *cb = hf_base ? new : base;
	snprintf(err, errlen, "%s is a hyperfine file and %s is cbench's: their "
		 "wall times are not comparable (hyperfine's include starting the "
		 "process, cbench's start at its exec), so the offset would read "
		 "as a regression or an improvement; measure %s with cbench too "
		 "(--save-baseline), or compare two hyperfine files", hf->origin,
		 cb->format == CMP_FMT_RUN ? "this run" : cb->origin,
		 hf_base ? "the baseline" : hf->origin);
	return -1;
}

static void gate_names(const struct cmp_row *rows, size_t n, enum cmp_verdict v,
		   char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (rows[i].verdict != v)
			continue;
		const struct cmp_bench *b = rows[i].base ? rows[i].base : rows[i].new;
		int w = snprintf(buf + off, len - off, "%s'%s'", off ? ", " : "", b->name);
		if (w < 0 || (size_t)w >= len - off) {
			if (len > 4)
				snprintf(buf + len - 4, 4, "...");
			return;
		}
		off += (size_t)w;
	}
}

int gate_check_match(const struct cmp_set *base, const struct cmp_set *new,
			enum match_by by, bool require_all, char *err, size_t errlen)
{
	size_t n, matched;
	struct cmp_row *rows = match(base, new, by, &n, &matched);
	int rc = 0;
	/* A hyperfine file against a cbench one is refused whatever matches,
	 * so say that first: "no match, try --match-by" would only lead to
	 * this error next. */
	if (gate_check_tools(base, new, err, errlen) != 0) {
		rc = -1;
	} else if (matched == 0) {
		rc = no_match(base, new, by, err, errlen);
	} else if (require_all && matched < n) {
		/* One line naming the one-sided benchmarks of both sides. */
		size_t off = 0;
		err[0] = '\0';
		for (int v = CMP_ONLY_BASE; v <= CMP_ONLY_NEW; v++) {
			size_t k = 0;
			for (size_t i = 0; i < n; i++)
				k += rows[i].verdict == (enum cmp_verdict)v;
			if (k == 0 || off >= errlen)
				continue;
			const struct cmp_set *from = v == CMP_ONLY_BASE ? base : new;
			const struct cmp_set *in = v == CMP_ONLY_BASE ? new : base;
			char names[DIAG_MSG_MAX / 2];
			gate_names(rows, n, (enum cmp_verdict)v, names, sizeof names);
			int w = snprintf(err + off, errlen - off, "%s%zu benchmark%s "
					 "of %s %s not in %s: %s",
					 off ? "; " : "--require-all: ", k,
					 k == 1 ? "" : "s", from->origin,
					 k == 1 ? "is" : "are", in->origin, names);
			off = w < 0 ? errlen : off + (size_t)w;
		}
		rc = -1;
	}
	free(rows);
	return rc;
}

int gate_compare(const struct cmp_set *base, const struct cmp_set *new,
		const struct cmp_options *opt, struct cmp_report *out,
		char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	out->base = base;
	out->new = new;
	out->threshold = opt->threshold;
	out->confidence = opt->confidence;
	out->match_by = opt->match_by;

	size_t n, matched;
	struct cmp_row *rows = match(base, new, opt->match_by, &n, &matched);
	out->rows = rows;
	out->n_rows = n;
	if (matched == 0)
		return no_match(base, new, opt->match_by, err, errlen);
	if (gate_check_tools(base, new, err, errlen) != 0)
		return -1;
	if (choose_metric(base, new, rows, n, opt, out, err, errlen) != 0)
		return -1;

	compare_rows(out, opt, NULL);
	order_rows(rows, n);
	for (size_t i = 0; i < n; i++)
		out->count[rows[i].verdict]++;

	/* Metrics one side recorded per run and the other did not. */
	for (int m = 0; m < MET_COUNT; m++) {
		bool in_base = gate_set_has(base, m, true);
		bool in_new = gate_set_has(new, m, true);
		if (in_base != in_new)
			out->uncompared[out->n_uncompared++] = m;
	}
	return 0;
}

void gate_report_free(struct cmp_report *r)
{
	if (r == NULL)
		return;
	free(r->rows);
	r->rows = NULL;
	r->n_rows = 0;
}

static void add_warning(struct gate_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_warning(struct gate_result *r, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	r->warnings = xreallocarray(r->warnings, r->n_warnings + 1,
				    sizeof *r->warnings);
	r->warnings[r->n_warnings++] = xstrdup(buf);
}

/* A baseline with interrupted benchmarks is partial: fewer runs than it
 * was meant to have, so its intervals are wider than planned. */
static void warn_partial(struct gate_result *r, const struct cmp_set *base)
{
	char names[412];
	size_t n_intr = 0, off = 0;
	names[0] = '\0';
	for (size_t i = 0; i < base->n; i++) {
		if (!base->bench[i].interrupted)
			continue;
		n_intr++;
		if (off < sizeof names) {
			int w = snprintf(names + off, sizeof names - off, "%s'%s'",
					 off ? ", " : "", base->bench[i].name);
			off = w < 0 ? sizeof names : off + (size_t)w;
			if (off >= sizeof names)
				snprintf(names + sizeof names - 4, 4, "...");
		}
	}
	if (n_intr)
		add_warning(r, "the baseline %s is partial: %zu benchmark%s %s "
			    "interrupted (fewer runs than planned): %s", base->origin,
			    n_intr, n_intr == 1 ? "" : "s",
			    n_intr == 1 ? "was" : "were", names);
}

static bool higher_is_better(const struct cmp_report *rep)
{
	return rep->metric >= 0 && rep->metric < MET_COUNT &&
	       metric_info((enum metric_id)rep->metric)->higher_is_better;
}

void gate_row_blind_text(const struct cmp_report *rep, const struct cmp_row *row,
			 char *buf, size_t len)
{
	double res = stats_resolution(&row->st);
	if (res > row->threshold)
		snprintf(buf, len, "±%.0f %%", res * 100);
	else   /* a regression of a higher-is-better metric is a fall */
		snprintf(buf, len, "%s %c%.1f %%", higher_is_better(rep) ? "down to"
			 : "up to", higher_is_better(rep) ? '-' : '+',
			 gate_row_unresolved(rep, row) * 100);
}

double gate_row_unresolved(const struct cmp_report *rep, const struct cmp_row *row)
{
	const struct stats_comparison *c = &row->st;
	double res = stats_resolution(c);
	if (row->verdict != CMP_NOISE || !isfinite(res) || c->exact)
		return 0;
	bool higher = higher_is_better(rep);
	/* The interval's end on a regression's side: a true change there
	 * is as likely as the estimate, and it lies past the threshold. */
	double worse = higher ? 1 - c->ratio_lo : c->ratio_hi - 1;
	/* A row fails when its interval's near end passes the threshold:
	 * a true ratio under (1 + threshold)(1 + resolution) may not. */
	double blind = res > row->threshold
		       ? (1 + row->threshold) * (1 + res) - 1 : 0;
	if (!(worse > row->threshold) && blind == 0)
		return 0;
	return fmax(blind, worse);
}

/* One warning for the rows the gate passed without seeing as far as its
 * threshold: the regression that could have passed each, at most. */
static void warn_unresolved(struct gate_result *r)
{
	const struct cmp_report *rep = &r->rep;
	char names[412] = "";
	size_t len = 0;
	double worst = 0;
	r->unresolved = 0;
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct cmp_row *row = &rep->rows[i];
		double could = gate_row_unresolved(rep, row);
		if (could == 0)
			continue;
		worst = fmax(worst, could);
		char how[48];
		gate_row_blind_text(rep, row, how, sizeof how);
		if (len < sizeof names)
			len += (size_t)snprintf(names + len, sizeof names - len,
						"%s'%s' (%s)", r->unresolved ? ", " : "",
						row->new->name, how);
		r->unresolved++;
	}
	if (r->unresolved)
		add_warning(r, "the gate on %s could not resolve its threshold for "
			    "%zu benchmark%s: %s; a regression up to %c%.*f %% "
			    "could have passed (count simulated instructions with "
			    "--counters sim, take more runs, or fail on this with "
			    "--require-resolution)", gate_metric_key(rep->metric),
			    r->unresolved, r->unresolved == 1 ? "" : "s", names,
			    higher_is_better(rep) ? '-' : '+', worst < 0.1 ? 1 : 0,
			    worst * 100);
}

/* Rows that need a word: undecided, interrupted or failing benchmarks,
 * and the one-sided ones. */
static void warn_rows(struct gate_result *r, const struct cmp_set *base,
		      const struct cmp_set *new)
{
	const struct cmp_report *rep = &r->rep;
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct cmp_bench *b = rep->rows[i].new;
		if (rep->rows[i].verdict == CMP_UNDECIDED)
			add_warning(r, "'%s': %s could not be compared (too few runs, "
				    "or too noisy to bound the change): take more runs",
				    b->name, gate_metric_key(rep->metric));
		if (b && b->interrupted)
			add_warning(r, "'%s' was interrupted in %s: fewer runs than "
				    "planned", b->name, new->origin);
		if (b && b->failed_runs)
			add_warning(r, "'%s' has %zu failed run%s in %s (exit code not 0)",
				    b->name, b->failed_runs,
				    b->failed_runs == 1 ? "" : "s", new->origin);
	}
	warn_unresolved(r);
	char names[412];
	for (int v = CMP_ONLY_BASE; v <= CMP_ONLY_NEW; v++) {
		if (rep->count[v] == 0)
			continue;
		gate_names(rep->rows, rep->n_rows, (enum cmp_verdict)v, names,
			   sizeof names);
		const char *what = v == CMP_ONLY_BASE ? "missing in" : "not in the baseline";
		const char *where = v == CMP_ONLY_BASE ? new->origin : base->origin;
		add_warning(r, "%zu benchmark%s %s %s (not compared; --require-all "
			    "makes this an error): %s", rep->count[v],
			    rep->count[v] == 1 ? "" : "s", what, where, names);
	}
}

int gate_run(const struct gate_options *opt, const struct cmp_set *base,
	     const struct cmp_set *new, struct gate_result *out)
{
	memset(out, 0, sizeof *out);
	out->exit_code = CBENCH_EXIT_USAGE;
	/* Nothing in common, two tools, or (--require-all) one-sided
	 * benchmarks: one error before any report. */
	if (gate_check_match(base, new, opt->match_by, opt->require_all,
			     out->error, sizeof out->error) != 0)
		return out->exit_code;
	warn_partial(out, base);
	out->n_early = out->n_warnings;
	struct cmp_options co = {
		.metric = opt->metric,
		.threshold = opt->threshold,
		.confidence = opt->confidence,
		.seed = opt->seed,
		.match_by = opt->match_by,
		.between = opt->between,
		.thresholds = opt->thresholds,
		.n_thresholds = opt->n_thresholds,
	};
	if (gate_compare(base, new, &co, &out->rep, out->error,
			 sizeof out->error) != 0) {
		gate_report_free(&out->rep);
		return out->exit_code;
	}
	warn_rows(out, base, new);
	out->exit_code = out->rep.count[CMP_REGRESSION] ? CBENCH_EXIT_REGRESSION
							 : CBENCH_EXIT_OK;
	return out->exit_code;
}

void gate_result_free(struct gate_result *r)
{
	if (r == NULL)
		return;
	gate_report_free(&r->rep);
	free(r->sides[0].origin);
	free(r->sides[1].origin);
	memset(r->sides, 0, sizeof r->sides);
	for (size_t i = 0; i < r->n_warnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	r->warnings = NULL;
	r->n_warnings = r->n_early = 0;
}

/* The comparison an holds of candidate i with reference ref on metric m,
 * or NULL. */
static const struct stats_comparison *analysed(const struct analysis *an,
					       size_t ref, size_t i, int m)
{
	if (an == NULL || m >= MET_COUNT)
		return NULL;
	const struct analysis_cmp *c = analysis_find_cmp(an, i, (enum metric_id)m);
	return c && c->reference == ref ? &c->cmp : NULL;
}

int gate_run_reference(const struct gate_options *opt, const struct cmp_set *set,
		       size_t ref, const struct analysis *an, bool paired,
		       struct gate_result *out)
{
	memset(out, 0, sizeof *out);
	struct cmp_set *base = &out->sides[0], *new = &out->sides[1];
	base->origin = xasprintf("the reference '%s'", set->bench[ref].name);
	base->format = set->format;
	base->bench = &set->bench[ref];
	base->n = 1;
	new->origin = xstrdup(set->origin);
	new->format = set->format;
	new->bench = set->bench;
	new->n = set->n;
	struct cmp_report *rep = &out->rep;
	rep->base = base;
	rep->new = new;
	rep->threshold = opt->threshold;
	rep->confidence = opt->confidence;
	rep->match_by = opt->match_by;
	rep->by_reference = true;
	rep->paired = paired;
	rep->rows = xcalloc(set->n, sizeof *rep->rows);
	for (size_t i = 0; i < set->n; i++)
		if (i != ref)
			rep->rows[rep->n_rows++] = (struct cmp_row){
				.base = base->bench, .new = &set->bench[i],
				.by_reference = true};
	struct cmp_options co = {.metric = opt->metric, .threshold = opt->threshold,
				 .confidence = opt->confidence, .seed = opt->seed,
				 .match_by = opt->match_by, .paired = paired,
				 .thresholds = opt->thresholds,
				 .n_thresholds = opt->n_thresholds};
	if (choose_metric(base, new, rep->rows, rep->n_rows, &co, rep, out->error,
			  sizeof out->error) != 0) {
		out->exit_code = CBENCH_EXIT_USAGE;
		return out->exit_code;
	}
	const struct stats_comparison **given = xcalloc(rep->n_rows + 1,
							sizeof *given);
	for (size_t k = 0; k < rep->n_rows; k++)
		given[k] = analysed(an, ref, (size_t)(rep->rows[k].new - set->bench),
				    rep->metric);
	compare_rows(rep, &co, given);
	free(given);
	order_rows(rep->rows, rep->n_rows);
	for (size_t k = 0; k < rep->n_rows; k++)
		rep->count[rep->rows[k].verdict]++;
	warn_rows(out, base, new);
	out->exit_code = rep->count[CMP_REGRESSION] ? CBENCH_EXIT_REGRESSION
						    : CBENCH_EXIT_OK;
	return out->exit_code;
}
