/*
 * test_multitest.c: Holm's adjustment and Bonferroni's level
 * (multitest.h) against statsmodels' multipletests(p, method="holm")
 * (tests/unit/multitest_expected.py prints the arrays below), and the
 * family-wise error of the analysis' verdicts among identical benchmarks,
 * by seeded simulation (no real runs).
 */
#include "analysis.h"
#include "multitest.h"
#include "results.h"
#include "stats.h"
#include "stats_robust.h"
#include "unit.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

/* From multitest_expected.py (statsmodels 0.13.5). */
/* wiki: rejected at 0.05: [1, 0, 0, 1] */
static const double wiki_p[] = {0.01, 0.04, 0.03, 0.005};
static const double wiki_adj[] = {0.03, 0.06, 0.06, 0.02};
/* ties: rejected at 0.05: [0, 0, 0, 0, 1] */
static const double ties_p[] = {0.02, 0.5, 0.02, 0.02, 0.001};
static const double ties_adj[] = {0.08, 0.5, 0.08, 0.08, 0.005};
/* caps: rejected at 0.05: [0, 0, 0, 1, 0] */
static const double caps_p[] = {0.3, 0.6, 0.9, 0.01, 0.45};
static const double caps_adj[] = {1.0, 1.0, 1.0, 0.05, 1.0};
/* monotone: rejected at 0.05: [1, 0, 0, 0, 0] */
static const double monotone_p[] = {0.001, 0.013, 0.014, 0.02, 0.5};
static const double monotone_adj[] = {0.005, 0.052, 0.052, 0.052, 0.5};
/* one: rejected at 0.05: [1] */
static const double one_p[] = {0.037};
static const double one_adj[] = {0.037};
/* nan_as_one: rejected at 0.05: [1, 0, 1] */
static const double nan_as_one_p[] = {0.01, 1.0, 0.02};
static const double nan_as_one_adj[] = {0.03, 1.0, 0.04};
/* random12: rejected at 0.05: [0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0] */
static const double random12_p[] = {0.017019773124806067, 7.665115838795582e-05, 1.6047374014072006e-05, 0.028171110345793303, 0.013789478333239723, 0.0020196976192345542, 0.022607664798647804, 0.002781343000438967, 0.0070552577859858325, 0.008137172482405764, 0.03650503781090601, 0.031819543499659916};
static const double random12_adj[] = {0.08509886562403034, 0.000843162742267514, 0.00019256848816886406, 0.09043065919459121, 0.08273686999943834, 0.02019697619234554, 0.09043065919459121, 0.025032087003950702, 0.05644206228788666, 0.05696020737684035, 0.09043065919459121, 0.09043065919459121};

#define N_OF(a) (sizeof(a) / sizeof *(a))

/* multitest_holm(p) == adj within rounding, out of place and in place. */
static int holm_matches(const double *p, const double *adj, size_t m)
{
	double out[16], same[16];
	multitest_holm(p, m, out);
	for (size_t i = 0; i < m; i++)
		same[i] = p[i];
	multitest_holm(same, m, same);
	for (size_t i = 0; i < m; i++)
		if (!(fabs(out[i] - adj[i]) <= 1e-15 * fmax(1, adj[i])) ||
		    out[i] != same[i])
			return 0;
	return 1;
}

static void holm_against_statsmodels(void)
{
	CHECK(holm_matches(wiki_p, wiki_adj, N_OF(wiki_p)));
	CHECK(holm_matches(ties_p, ties_adj, N_OF(ties_p)));
	CHECK(holm_matches(caps_p, caps_adj, N_OF(caps_p)));
	CHECK(holm_matches(monotone_p, monotone_adj, N_OF(monotone_p)));
	CHECK(holm_matches(one_p, one_adj, N_OF(one_p)));
	CHECK(holm_matches(random12_p, random12_adj, N_OF(random12_p)));
}

/* Wikipedia's worked example, as the procedure reads: H4 (0.005 <
 * 0.05/4) and H1 (0.01 < 0.05/3) rejected, then H3 (0.03 > 0.05/2) is
 * not, which stops it. */
static void holm_worked_example(void)
{
	double adj[4];
	multitest_holm(wiki_p, 4, adj);
	CHECK(adj[3] < 0.05 && adj[0] < 0.05);
	CHECK(adj[2] >= 0.05 && adj[1] >= 0.05);
}

/* A NaN (a test that could not be made) counts as p = 1 in the family and
 * stays NaN; an empty family is fine. */
static void holm_nan_and_empty(void)
{
	const double p[] = {0.01, NAN, 0.02};
	double adj[3];
	CHECK(holm_matches(nan_as_one_p, nan_as_one_adj, 3));
	multitest_holm(p, 3, adj);
	CHECK(isnan(adj[1]));
	CHECK_NEAR(adj[0], nan_as_one_adj[0], 1e-15);
	CHECK_NEAR(adj[2], nan_as_one_adj[2], 1e-15);
	multitest_holm(p, 0, adj);
	CHECK(isnan(adj[1]));
}

/* Adjusted p-values never fall below the raw ones, keep their order, and
 * never exceed 1 or m times the raw p (Bonferroni's). */
static void holm_properties(void)
{
	uint64_t state = 7;
	struct stats_rng rng;
	stats_rng_seed(&rng, state);
	for (int trial = 0; trial < 200; trial++) {
		double p[12], adj[12];
		size_t m = 1 + (size_t)trial % 12;
		for (size_t i = 0; i < m; i++)
			p[i] = (double)(stats_rng_next(&rng) >> 11) * 0x1p-53;
		multitest_holm(p, m, adj);
		for (size_t i = 0; i < m; i++) {
			CHECK(adj[i] >= p[i] && adj[i] <= 1);
			CHECK(adj[i] <= fmin(1, (double)m * p[i]) + 1e-15);
			for (size_t j = 0; j < m; j++)
				CHECK(!(p[i] < p[j]) || adj[i] <= adj[j]);
		}
	}
}

static void bonferroni_level(void)
{
	CHECK(multitest_level(0.95, 0) == 0.95);
	CHECK(multitest_level(0.95, 1) == 0.95);
	CHECK_NEAR(multitest_level(0.95, 4), 0.9875, 1e-15);
	CHECK_NEAR(multitest_level(0.99, 5), 0.998, 1e-15);
}

/* ---- the analysis: identical benchmarks ---- */

/* A standard normal from the generator (Box-Muller). */
static double normal(struct stats_rng *r)
{
	double u = ((double)(stats_rng_next(r) >> 11) + 0.5) * 0x1p-53;
	double v = (double)(stats_rng_next(r) >> 11) * 0x1p-53;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static struct bench_result *identical(struct stats_rng *rng, size_t runs)
{
	struct bench_result *r = results_new("same", "same", NULL, 0);
	results_enable(r, MET_WALL);
	for (size_t k = 0; k < runs; k++) {
		double v[MET_COUNT];
		for (int m = 0; m < MET_COUNT; m++)
			v[m] = NAN;
		/* lognormal run times around 10 ms, sigma 0.1: right-skewed */
		v[MET_WALL] = 0.01 * exp(0.1 * normal(rng));
		results_add_run(r, v, 0, 0);
	}
	return r;
}

/* Was any of the four comparisons called significant? */
static bool any_significant(const struct analysis *an)
{
	for (size_t k = 0; k < an->n_cmps; k++)
		if (an->cmps[k].metric == MET_WALL &&
		    (an->cmps[k].cmp.verdict == VERDICT_FASTER ||
		     an->cmps[k].cmp.verdict == VERDICT_SLOWER))
			return true;
	return false;
}

/* The largest count of successes x with P(X >= x) >= tail for X ~
 * Binomial(n, p): a count above it has probability below tail. */
static unsigned binom_upper(double p, unsigned n, double tail)
{
	unsigned x = 0;
	while (x < n && gsl_cdf_binomial_Q(x, p, n) >= tail)   /* P(X > x) */
		x++;
	return x;
}

/*
 * Five identical benchmarks, runs drawn from one distribution (seeded),
 * compared with the fastest as cbench does after an interleaved run: how
 * often is any of the four called different?  With Holm (the analysis)
 * at most alpha, up to the binomial's sampling error; each comparison at
 * alpha on its own (a family of one, the same runs) far more often.  The
 * fastest of five is the base, which leans every comparison one way, so
 * the per-comparison error is not alpha either.
 */
static void five_identical_family_error(void)
{
	enum { TRIALS = 400, BENCH = 5, RUNS = 20 };
	struct analysis_options o = {.confidence = 0.95, .paired = true,
				     .seed = 1};
	unsigned holm = 0, plain = 0;
	for (unsigned t = 0; t < TRIALS; t++) {
		struct stats_rng rng;
		stats_rng_seed(&rng, 1000 + t);
		struct bench_result *rs[BENCH];
		for (int i = 0; i < BENCH; i++)
			rs[i] = identical(&rng, RUNS);
		struct analysis *an = analysis_new(&o);
		analysis_update(an, rs, BENCH, -1);
		holm += any_significant(an);
		/* Without the adjustment: each candidate alone with the base. */
		bool any = false;
		for (int i = 0; i < BENCH; i++) {
			if (i == an->base)
				continue;
			struct bench_result *two[2] = {rs[an->base], rs[i]};
			struct analysis *one = analysis_new(&o);
			analysis_update(one, two, 2, 0);
			any |= any_significant(one);
			analysis_free(one);
		}
		plain += any;
		analysis_free(an);
		for (int i = 0; i < BENCH; i++)
			results_free(rs[i]);
	}
	/* At most alpha: above the binomial's upper 0.1 % point of
	 * Binomial(TRIALS, 0.05) would be a failure of the method. */
	unsigned bound = binom_upper(0.05, TRIALS, 0.001);
	printf("  five identical: any false positive in %u of %u with Holm "
	       "(bound %u), %u without\n", holm, TRIALS, bound, plain);
	CHECK(holm <= bound);
	/* Without: clearly more, beyond that bound too. */
	CHECK(plain > bound);
	CHECK(plain >= 2 * holm);
}

/* Two benchmarks: a family of one, the plain comparison (nothing
 * adjusted, the interval at the confidence level). */
static void two_benchmarks_unchanged(void)
{
	struct stats_rng rng;
	stats_rng_seed(&rng, 5);
	struct bench_result *rs[2] = {identical(&rng, 12), identical(&rng, 12)};
	struct analysis_options o = {.confidence = 0.95, .paired = true};
	struct analysis *an = analysis_new(&o);
	analysis_update(an, rs, 2, 0);
	const struct analysis_cmp *c = analysis_find_cmp(an, 1, MET_WALL);
	int ok = c && c->family_size == 1 && c->cmp.confidence == 0.95 &&
		 c->p == c->p_adjusted && c->cmp.verdict == c->robust.verdict;
	struct stats_robust_cmp r;
	int same = stats_compare_robust(rs[0]->col[MET_WALL], 12,
					rs[1]->col[MET_WALL], 12, true, 0.95, 0,
					&r) == 0 && c &&
		   r.ratio_lo == c->cmp.ratio_lo && r.ratio_hi == c->cmp.ratio_hi;
	analysis_free(an);
	results_free(rs[0]);
	results_free(rs[1]);
	CHECK(ok);
	CHECK(same);
}

/* A family of three: intervals at 1 - 0.05/3, p_adjusted Holm's of the
 * three p's, and a verdict only where the adjusted p is below alpha. */
static void family_of_three(void)
{
	struct stats_rng rng;
	stats_rng_seed(&rng, 9);
	struct bench_result *rs[4];
	for (int i = 0; i < 4; i++)
		rs[i] = identical(&rng, 15);
	/* the fourth 30 % slower: a clear difference */
	for (size_t k = 0; k < rs[3]->n_runs; k++)
		rs[3]->col[MET_WALL][k] *= 1.3;
	struct analysis_options o = {.confidence = 0.95, .paired = true};
	struct analysis *an = analysis_new(&o);
	analysis_update(an, rs, 4, 0);
	double p[3], adj[3];
	int ok = 1;
	for (size_t i = 1; i < 4; i++) {
		const struct analysis_cmp *c = analysis_find_cmp(an, i, MET_WALL);
		ok &= c && c->family_size == 3 &&
		      fabs(c->cmp.confidence - (1 - 0.05 / 3)) < 1e-15;
		p[i - 1] = c ? c->p : NAN;
	}
	multitest_holm(p, 3, adj);
	for (size_t i = 1; i < 4 && ok; i++) {
		const struct analysis_cmp *c = analysis_find_cmp(an, i, MET_WALL);
		bool sig = c->cmp.verdict == VERDICT_FASTER ||
			   c->cmp.verdict == VERDICT_SLOWER;
		ok &= c->p_adjusted == adj[i - 1];
		ok &= !sig || (c->p_adjusted < 0.05 &&
			       (c->cmp.ratio_lo > 1 || c->cmp.ratio_hi < 1));
	}
	const struct analysis_cmp *slow = analysis_find_cmp(an, 3, MET_WALL);
	int found = slow && slow->cmp.verdict == VERDICT_SLOWER;
	analysis_free(an);
	for (int i = 0; i < 4; i++)
		results_free(rs[i]);
	CHECK(ok);
	CHECK(found);
}

int main(void)
{
	stats_init();
	RUN(holm_against_statsmodels);
	RUN(holm_worked_example);
	RUN(holm_nan_and_empty);
	RUN(holm_properties);
	RUN(bonferroni_level);
	RUN(two_benchmarks_unchanged);
	RUN(family_of_three);
	RUN(five_identical_family_error);
	return unit_failures ? 1 : 0;
}
