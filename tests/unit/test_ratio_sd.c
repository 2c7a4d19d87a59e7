/*
 * test_ratio_sd.c: hyperfine's "± σ" of the summary's ratio (ratio_sd in
 * analysis.h), against values computed by hand.
 */
#include "analysis.h"
#include "results.h"
#include "stats.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>

static struct bench_result *with_times(const char *name, const double *t, size_t n)
{
	struct bench_result *r = results_new(name, name, NULL, 0);
	results_enable(r, MET_WALL);
	for (size_t i = 0; i < n; i++) {
		double v[MET_COUNT];
		for (int m = 0; m < MET_COUNT; m++)
			v[m] = NAN;
		v[MET_WALL] = t[i];
		results_add_run(r, v, 0, 0);
	}
	return r;
}

static const struct analysis_options opt = {.confidence = 0.95};

/*
 * a = {1, 2, 3}: mean 2, sample sd 1; b = {2.5, 4, 5.5}: mean 4, sample sd
 * 1.5 (numpy.std(x, ddof=1)).  hyperfine's propagation
 * (src/benchmark/relative_speed.rs): r * sqrt((1/2)^2 + (1.5/4)^2)
 * = r * sqrt(0.390625) = 0.625 r, r the ratio shown (the larger of the
 * ratio and its inverse); whichever side is the base, the same.
 */
static void propagation_of_the_two_spreads(void)
{
	const double a[] = {1, 2, 3}, b[] = {2.5, 4, 5.5};
	struct bench_result *rs[2] = {with_times("a", a, 3), with_times("b", b, 3)};
	struct analysis *an = analysis_new(&opt);
	analysis_update(an, rs, 2, -1);
	const struct analysis_cmp *c = analysis_find_cmp(an, 1, MET_WALL);
	CHECK(c != NULL);
	if (c) {
		double r = c->cmp.ratio >= 1 ? c->cmp.ratio : 1 / c->cmp.ratio;
		CHECK(r > 1.5 && r < 2.5);
		CHECK(fabs(c->ratio_sd - 0.625 * r) < 1e-12);
	}
	/* With b as the reference, the ratio is below 1: σ of the shown one. */
	analysis_update(an, rs, 2, 1);
	c = analysis_find_cmp(an, 0, MET_WALL);
	CHECK(c != NULL);
	if (c) {
		double r = c->cmp.ratio >= 1 ? c->cmp.ratio : 1 / c->cmp.ratio;
		CHECK(c->cmp.ratio < 1);
		CHECK(fabs(c->ratio_sd - 0.625 * r) < 1e-12);
	}
	analysis_free(an);
	results_free(rs[0]);
	results_free(rs[1]);
}

/* One run has no standard deviation: no σ (hyperfine's None). */
static void one_run_has_none(void)
{
	const double a[] = {1}, b[] = {2.5, 4, 5.5};
	struct bench_result *rs[2] = {with_times("a", a, 1), with_times("b", b, 3)};
	struct analysis *an = analysis_new(&opt);
	analysis_update(an, rs, 2, -1);
	const struct analysis_cmp *c = analysis_find_cmp(an, 1, MET_WALL);
	CHECK(c == NULL || isnan(c->ratio_sd));
	analysis_free(an);
	results_free(rs[0]);
	results_free(rs[1]);
}

int main(void)
{
	stats_init();
	RUN(propagation_of_the_two_spreads);
	RUN(one_run_has_none);
	UNIT_EXIT();
}
