/*
 * Unit tests: between.c, the spread of a benchmark's mean between
 * invocations.  Expected values from tests/unit/between_expected.py
 * (NumPy, SciPy: DerSimonian and Laird's unweighted moment estimator
 * written from the paper), the call beside each; then what it is for,
 * over seeded synthetic invocations.
 */
#include "between.h"
#include "unit.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

static const double means[] = {4.1, 5.7, 4.6, 5.0, 4.4, 6.2, 4.9};
static const double half[] = {0.2, 0.4, 0.3, 0.25, 0.2, 0.5, 0.3};

static void test_against_the_script(void)
{
	double lo[7], hi[7];
	for (int i = 0; i < 7; i++) {
		lo[i] = means[i] - half[i];
		hi[i] = means[i] + half[i];
	}
	size_t used;
	double tau = between_sd(means, lo, hi, 7, 0.95, &used);
	CHECK(used == 7);
	CHECK_REL(tau, 0.14119859486656153, 1e-9);        /* tau(MEANS, 0.95) */
	CHECK_REL(between_halfwidth(0.04, tau, 7, 0.95),   /* halfwidth(...) */
		  0.34780828876719916, 1e-9);
	/* tau(flat): the means differ less than their own intervals say */
	double m2[] = {5.0, 5.1, 4.9}, l2[] = {4.0, 4.1, 3.9}, h2[] = {6.0, 6.1, 5.9};
	CHECK(between_sd(m2, l2, h2, 3, 0.95, &used) == 0 && used == 3);
	CHECK(between_halfwidth(0.04, 0, 3, 0.95) == 0.04);
}

static void test_too_few_and_unusable(void)
{
	double m[] = {5.0, 0, 5.5, NAN, 4.0}, lo[] = {4.9, 0, 5.4, 1, NAN},
	       hi[] = {5.1, 0, 5.6, 2, 4.1};
	size_t used = 99;
	/* Only the first and the third are usable: too few. */
	CHECK(isnan(between_sd(m, lo, hi, 5, 0.95, &used)));
	CHECK(used == 2);
	CHECK(between_halfwidth(0.05, NAN, 2, 0.95) == 0.05);
	/* A third usable one is enough. */
	double m3[] = {5.0, 5.5, 4.5}, l3[] = {4.9, 5.4, 4.4}, h3[] = {5.1, 5.6, 4.6};
	CHECK(between_sd(m3, l3, h3, 3, 0.95, &used) > 0.05 && used == 3);
}

/*
 * What it is for: invocations whose means move by a factor exp(b), b of
 * sd 0.10, each with its own standard error 0.03.  An invocation's own
 * 95 % interval then holds the true mean far less often than 95 %; the
 * interval widened by tau learned from 10 earlier invocations holds it
 * about 95 % of the time (400 seeded trials; bounds 3 binomial standard
 * errors below 95 % and well above the own interval's).
 */
static void test_coverage_across_invocations(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 43);
	const double sd_between = 0.10, se = 0.03, z = 1.959963984540054;
	int own = 0, across = 0, trials = 400;
	for (int t = 0; t < trials; t++) {
		double m[10], lo[10], hi[10];
		for (int i = 0; i < 10; i++) {
			m[i] = exp(gsl_ran_gaussian(r, sd_between) + gsl_ran_gaussian(r, se));
			lo[i] = m[i] * exp(-z * se);
			hi[i] = m[i] * exp(z * se);
		}
		size_t used;
		double tau = between_sd(m, lo, hi, 10, 0.95, &used);
		double now = exp(gsl_ran_gaussian(r, sd_between) + gsl_ran_gaussian(r, se));
		double h_own = z * se;   /* relative, as --precision measures it */
		double h = between_halfwidth(h_own, tau, used, 0.95);
		own += fabs(now - 1) <= h_own * now;
		across += fabs(now - 1) <= h * now;
	}
	gsl_rng_free(r);
	printf("  true mean held: own interval %d/%d, across invocations %d/%d\n",
	       own, trials, across, trials);
	CHECK(own < trials * 0.6);
	CHECK(across >= trials * (0.95 - 3 * sqrt(0.95 * 0.05 / trials)));
	CHECK(across < trials);   /* an interval, not a certainty */
}

int main(void)
{
	RUN(test_against_the_script);
	RUN(test_too_few_and_unusable);
	RUN(test_coverage_across_invocations);
	return unit_failures ? 1 : 0;
}
