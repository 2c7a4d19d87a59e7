/*
 * Unit tests: cp_detect_otava against Apache Otava's own tests.
 *
 * tests/fixtures/otava/cases.txt holds, one per line, an assertion of
 * Otava 0.8's test suite (apache/otava at 1ceb153): its file and test,
 * window_len, max_pvalue, min_magnitude, the change-point indices it
 * asserts ("-": none) and the series ("@FILE": one value a line, the 365
 * points of tests/tigerbeetle_test.py).  The other checks below name
 * their source beside the expected value.  The series are Otava's test
 * data (Apache License 2.0, see tests/fixtures/otava/README.md).
 */
#include "changepoint.h"
#include "unit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIX "tests/fixtures/otava/"

/* tests/change_point_divisive_test.py SEQUENCE. */
static const double sequence[] = {0.3, 2.4, 1.5, -0.9, -0.5, 99.7, 98.3, 99.1,
				  149.0, 149.7, 149.5, 149.1, 148.8, 150.0};

static size_t parse_list(const char *s, double *v, size_t max)
{
	size_t n = 0;
	if (s[0] == '@') {
		char path[256];
		snprintf(path, sizeof path, FIX "%s", s + 1);
		FILE *f = fopen(path, "r");
		while (f && n < max && fscanf(f, "%lf", &v[n]) == 1)
			n++;
		if (f)
			fclose(f);
		return n;
	}
	if (strcmp(s, "-") == 0)
		return 0;
	for (const char *p = s; *p && n < max; p = strchr(p, ',') ? strchr(p, ',') + 1 : "")
		v[n++] = strtod(p, NULL);
	return n;
}

/* cp_detect with Otava's method and parameters; 0 changes on an error
 * (printed). */
static size_t detect(const double *x, size_t n, size_t window, double alpha,
		     double min_magnitude, struct cp_change **ch)
{
	struct cp_options o = cp_default_options();
	o.test = CP_TEST_OTAVA;
	o.window = window;
	o.alpha = alpha;
	o.min_magnitude = min_magnitude;
	size_t k = 0;
	char err[256];
	*ch = NULL;
	if (cp_detect(x, n, &o, ch, &k, err, sizeof err) != 0) {
		printf("  %s\n", err);
		return 0;
	}
	return k;
}

static void otava_test_cases(void)
{
	FILE *f = fopen(FIX "cases.txt", "r");
	CHECK(f != NULL);
	char line[8192], name[160], exp[2048], ser[4096];
	size_t window, cases = 0;
	double alpha, mag;
	static double x[1000], want[400];
	while (f && fgets(line, sizeof line, f)) {
		if (sscanf(line, "%159s %zu %lf %lf %2047s %4095s", name, &window,
			   &alpha, &mag, exp, ser) != 6)
			continue;
		size_t n = parse_list(ser, x, 1000), nw = parse_list(exp, want, 400);
		struct cp_change *ch = NULL;
		size_t k = detect(x, n, window, alpha, mag, &ch);
		bool same = k == nw;
		for (size_t i = 0; same && i < k; i++)
			same = ch[i].index == (size_t)want[i];
		if (!same) {
			printf("  %s: got", name);
			for (size_t i = 0; i < k; i++)
				printf(" %zu", ch[i].index);
			printf(", Otava asserts %s\n", exp);
		}
		CHECK(same);
		free(ch);
		cases++;
	}
	if (f)
		fclose(f);
	CHECK(cases == 21);
}

/* test_calculator_candidate: index 5, qhat 761.2821428571428 over the
 * whole SEQUENCE. */
static void candidate_of_sequence(void)
{
	size_t tau;
	double q = cp_otava_candidate(sequence, 0, 14, &tau);
	CHECK(tau == 5);
	CHECK_NEAR(q, 761.2821428571428, 1e-9);
}

/* test_ttest: the detector at p 0.01 over the whole SEQUENCE gives [5, 8]
 * (here as the relaxed level of alpha 0.001, one window of 14). */
static void ttest_of_sequence(void)
{
	struct cp_change *ch = NULL;
	size_t k = detect(sequence, 14, 14, 0.001, 0, &ch);
	CHECK(k == 2 && ch[0].index == 5 && ch[1].index == 8);
	free(ch);
}

/* test_significance_tester's second series: significant, with p
 * 8.867907052957251e-06 (scipy.stats.ttest_ind_from_stats given the
 * population standard deviations, as Otava computes it). */
static void significance(void)
{
	const double x[] = {1.00, 1.02, 1.05, 0.95, 0.98, 0.80, 0.82, 0.85, 0.79, 0.77};
	struct cp_change *ch = NULL;
	size_t k = detect(x, 10, 10, 0.001, 0, &ch);
	CHECK(k == 1 && ch[0].index == 5);
	if (k == 1)
		CHECK_NEAR(ch[0].p_value, 8.867907052957251e-06, 1e-15);
	free(ch);
}

/* test_incremental_otava, last step: series2 with 1.97, 33.33, 46.46
 * appended (2 new points), its earlier change [4] kept: [4, 12]; the same
 * 14 points from scratch: [12]. */
static void incremental(void)
{
	const double x[] = {2.02, 2.03, 2.01, 2.04, 1.82, 1.85, 1.79, 1.81, 1.80,
			    1.76, 1.78, 1.97, 33.33, 46.46};
	struct cp_options o = cp_default_options();
	o.test = CP_TEST_OTAVA;
	o.alpha = 0.001;
	size_t old[] = {4}, k;
	struct cp_change *ch = NULL;
	char err[256];
	CHECK(cp_detect_otava(x, 14, &o, old, 1, 2, &ch, &k, err, sizeof err) == 0);
	CHECK(k == 2 && ch[0].index == 4 && ch[1].index == 12);
	free(ch);
	k = detect(x, 14, 50, 0.001, 0, &ch);
	CHECK(k == 1 && ch[0].index == 12);
	free(ch);
}

/* The outlier before a step (issue 39): 40 points near 100, x 0.88 from
 * index 15, one value of 60 at index 10.  The step is placed at 15; the
 * outlier, if reported, is its own one-point segment (10 and 11), never
 * a step of its own. */
static void outlier_before_step(void)
{
	double x[40];
	for (int i = 0; i < 40; i++)
		x[i] = (100 + 0.6 * (((i * 37) % 61 - 30) / 30.0)) * (i >= 15 ? 0.88 : 1);
	x[10] = 60;
	struct cp_change *ch = NULL;
	size_t k = detect(x, 40, 50, 0.001, 0, &ch);
	bool at15 = false, at10 = false, at11 = false;
	for (size_t i = 0; i < k; i++) {
		at15 |= ch[i].index == 15;
		at10 |= ch[i].index == 10;
		at11 |= ch[i].index == 11;
		CHECK(ch[i].index == 15 || ch[i].index == 10 || ch[i].index == 11);
	}
	CHECK(at15);
	CHECK(at10 == at11);
	free(ch);
}

static void bad_options(void)
{
	struct cp_options o = cp_default_options();
	o.test = CP_TEST_OTAVA;
	o.window = 1;
	struct cp_change *ch = NULL;
	size_t k;
	char err[256];
	CHECK(cp_detect(sequence, 14, &o, &ch, &k, err, sizeof err) == -1);
	CHECK(strstr(err, "window 1") != NULL);
	o.window = 50;
	size_t old[] = {9, 3};
	CHECK(cp_detect_otava(sequence, 14, &o, old, 2, 1, &ch, &k, err, sizeof err) == -1);
}

int main(void)
{
	RUN(otava_test_cases);
	RUN(candidate_of_sequence);
	RUN(ttest_of_sequence);
	RUN(significance);
	RUN(incremental);
	RUN(outlier_before_step);
	RUN(bad_options);
	UNIT_EXIT();
}
