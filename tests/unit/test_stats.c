/*
 * Unit tests: stats.c against independently computed values.
 *
 * - Mean and standard deviation: NIST StRD univariate datasets
 *   (https://www.itl.nist.gov/div898/strd/univ/), certified values typed in
 *   below.  The data of Mavro, Michelso and Lew are typed in too; they
 *   reproduce the certified values exactly in rational arithmetic (a Python
 *   fractions.Fraction check).  NumAcc1-4 follow their published pattern.
 * - Everything else: SciPy 1.10.1 / NumPy 1.24.2 (Debian's python3-scipy),
 *   the exact call beside each expected value.
 */
#include "results.h"
#include "stats.h"
#include "unit.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_rng.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* NIST StRD Mavro (lower difficulty), 50 values. */
static const double mavro[] = {
	2.00180, 2.00170, 2.00180, 2.00190, 2.00180, 2.00170, 2.00150, 2.00140,
	2.00150, 2.00150, 2.00170, 2.00180, 2.00180, 2.00190, 2.00190, 2.00210,
	2.00200, 2.00160, 2.00140, 2.00130, 2.00130, 2.00150, 2.00150, 2.00160,
	2.00150, 2.00140, 2.00130, 2.00140, 2.00150, 2.00140, 2.00150, 2.00160,
	2.00150, 2.00160, 2.00190, 2.00200, 2.00200, 2.00210, 2.00220, 2.00230,
	2.00240, 2.00250, 2.00270, 2.00260, 2.00260, 2.00260, 2.00270, 2.00260,
	2.00250, 2.00240,
};

/* NIST StRD Michelso (lower difficulty), 100 values. */
static const double michelso[] = {
	299.85, 299.74, 299.90, 300.07, 299.93, 299.85, 299.95, 299.98, 299.98,
	299.88, 300.00, 299.98, 299.93, 299.65, 299.76, 299.81, 300.00, 300.00,
	299.96, 299.96, 299.96, 299.94, 299.96, 299.94, 299.88, 299.80, 299.85,
	299.88, 299.90, 299.84, 299.83, 299.79, 299.81, 299.88, 299.88, 299.83,
	299.80, 299.79, 299.76, 299.80, 299.88, 299.88, 299.88, 299.86, 299.72,
	299.62, 299.86, 299.97, 299.95, 299.88, 299.91, 299.85, 299.87, 299.84,
	299.84, 299.85, 299.84, 299.84, 299.84, 299.89, 299.81, 299.81, 299.82,
	299.80, 299.77, 299.76, 299.74, 299.75, 299.76, 299.91, 299.92, 299.89,
	299.86, 299.88, 299.72, 299.84, 299.85, 299.85, 299.78, 299.89, 299.84,
	299.78, 299.81, 299.76, 299.81, 299.79, 299.81, 299.82, 299.85, 299.87,
	299.87, 299.81, 299.74, 299.81, 299.94, 299.95, 299.80, 299.81, 299.87,
	299.72,
};

/* NIST StRD Lew (lower difficulty), 200 values. */
static const double lew[] = {
	-213, -564, -35, -15, 141, 115, -420, -360, 203, -338, -431, 194, -220,
	-513, 154, -125, -559, 92, -21, -579, -52, 99, -543, -175, 162, -457,
	-346, 204, -300, -474, 164, -107, -572, -8, 83, -541, -224, 180, -420,
	-374, 201, -236, -531, 83, 27, -564, -112, 131, -507, -254, 199, -311,
	-495, 143, -46, -579, -90, 136, -472, -338, 202, -287, -477, 169, -124,
	-568, 17, 48, -568, -135, 162, -430, -422, 172, -74, -577, -13, 92,
	-534, -243, 194, -355, -465, 156, -81, -578, -64, 139, -449, -384, 193,
	-198, -538, 110, -44, -577, -6, 66, -552, -164, 161, -460, -344, 205,
	-281, -504, 134, -28, -576, -118, 156, -437, -381, 200, -220, -540, 83,
	11, -568, -160, 172, -414, -408, 188, -125, -572, -32, 139, -492, -321,
	205, -262, -504, 142, -83, -574, 0, 48, -571, -106, 137, -501, -266,
	190, -391, -406, 194, -186, -553, 83, -13, -577, -49, 103, -515, -280,
	201, 300, -506, 131, -45, -578, -80, 138, -462, -361, 201, -211, -554,
	32, 74, -533, -235, 187, -372, -442, 182, -147, -566, 25, 68, -535,
	-244, 194, -351, -463, 174, -125, -570, 15, 72, -550, -190, 172, -424,
	-385, 198, -218, -536, 96,
};

/* Samples for the SciPy checks. */
static const double A[] = {1.83, 1.91, 2.07, 1.95, 2.12, 1.88, 2.03, 1.99, 2.21, 1.94};
static const double B[] = {2.15, 2.31, 2.08, 2.42, 2.27, 2.19, 2.36, 2.22, 2.50,
			   2.11, 2.29, 2.33};
static const double C[] = {1, 2, 2, 3, 3, 3, 4, 5, 5, 6};
static const double D[] = {2, 3, 4, 4, 5, 6, 6, 6, 7, 8, 9};

static void check_nist(const double *x, size_t n, double mean, double sd,
		       double rel)
{
	struct stats_summary s;
	CHECK(stats_summarize(x, n, 0.95, &s) == 0);
	CHECK(s.n == n);
	CHECK_REL(s.mean, mean, rel);
	CHECK_REL(s.stddev, sd, rel);
}

static void nist_lower_difficulty(void)
{
	/* Certified: mean 2.00185600000000, sd 0.000429123454003053. */
	check_nist(mavro, N(mavro), 2.00185600000000, 0.000429123454003053, 1e-9);
	if (unit_state)
		return;
	/* Certified: mean 299.852400000000, sd 0.0790105478190518. */
	check_nist(michelso, N(michelso), 299.852400000000, 0.0790105478190518, 1e-12);
	if (unit_state)
		return;
	/* Certified: mean -177.435000000000, sd 277.332168044316. */
	check_nist(lew, N(lew), -177.435000000000, 277.332168044316, 1e-13);
}

/* NumAcc1: 10000001, 10000003, 10000002: certified mean 10000002, sd 1.
 * NumAcc2-4: 1001 values, c then c-0.1, c+0.1 alternating 500 times, for
 * c = 1.2, 1000000.2, 10000000.2: certified mean c, sd 0.1. */
static void nist_numacc(void)
{
	const double a1[] = {10000001, 10000003, 10000002};
	check_nist(a1, 3, 10000002, 1, 1e-15);
	if (unit_state)
		return;
	const double centre[] = {1.2, 1000000.2, 10000000.2};
	const double lo[] = {1.1, 1000000.1, 10000000.1};
	const double hi[] = {1.3, 1000000.3, 10000000.3};
	/* GSL's two-pass algorithm: NumAcc4's sd is exact to about 1e-8
	 * (NIST's "higher difficulty"; the data's own representation error). */
	const double rel[] = {1e-13, 1e-9, 1e-7};
	double x[1001];
	for (int k = 0; k < 3; k++) {
		x[0] = centre[k];
		for (int i = 1; i < 1001; i++)
			x[i] = i % 2 ? lo[k] : hi[k];
		check_nist(x, 1001, centre[k], 0.1, rel[k]);
		if (unit_state)
			return;
	}
}

static void quantiles_type7(void)
{
	struct stats_summary s;
	CHECK(stats_summarize(A, N(A), 0.95, &s) == 0);
	/* numpy.quantile(A, [0.25, 0.5, 0.75]) (method='linear' = type 7):
	 * 1.9175 1.97 2.0599999999999996 */
	CHECK_NEAR(s.q1, 1.9175, 1e-12);
	CHECK_NEAR(s.median, 1.97, 1e-12);
	CHECK_NEAR(s.q3, 2.06, 1e-12);
	CHECK_NEAR(s.iqr, 2.06 - 1.9175, 1e-12);
	CHECK_NEAR(s.min, 1.83, 0);
	CHECK_NEAR(s.max, 2.21, 0);
	CHECK(stats_summarize(B, N(B), 0.95, &s) == 0);
	/* numpy.quantile(B, [0.25, 0.5, 0.75]): 2.18 2.28 2.3375 */
	CHECK_NEAR(s.q1, 2.18, 1e-12);
	CHECK_NEAR(s.median, 2.28, 1e-12);
	CHECK_NEAR(s.q3, 2.3375, 1e-12);
}

static void mad_unscaled(void)
{
	struct stats_summary s;
	CHECK(stats_summarize(A, N(A), 0.95, &s) == 0);
	/* scipy.stats.median_abs_deviation(A) (scale=1.0): 0.075 */
	CHECK_NEAR(s.mad, 0.075, 1e-12);
	CHECK(stats_summarize(C, N(C), 0.95, &s) == 0);
	/* scipy.stats.median_abs_deviation(C): 1.0 */
	CHECK_NEAR(s.mad, 1.0, 0);
}

static void mean_ci_student(void)
{
	struct stats_summary s;
	CHECK(stats_summarize(A, N(A), 0.95, &s) == 0);
	/* mean(A) -+ t sd/sqrt(10), t the 0.975 quantile of Student's t with
	 * 9 df solved in mpmath (40 digits; mpmath.betainc survival function
	 * and mpmath.findroot): 1.9099138282601144 2.0760861717398856.
	 * (scipy.stats.t.interval(0.95, 9, ...) in SciPy 1.10.1 gives
	 * 1.9099138282622157: its t.ppf is off by 6e-11.) */
	CHECK_NEAR(s.mean_ci_lo, 1.9099138282601144, 1e-13);
	CHECK_NEAR(s.mean_ci_hi, 2.0760861717398856, 1e-13);
	CHECK(stats_summarize(A, N(A), 0.99, &s) == 0);
	/* The same at 99 % (mpmath): 1.8736376504799927 2.1123623495200073 */
	CHECK_NEAR(s.mean_ci_lo, 1.8736376504799927, 1e-13);
	CHECK_NEAR(s.mean_ci_hi, 2.1123623495200073, 1e-13);
	CHECK_NEAR(stats_mean_halfwidth(&s, 0.99), 2.1123623495200073 - s.mean, 1e-13);
}

/* Order statistics [k, n-k+1] for the median at 95 %: largest k with
 * 2 * scipy.stats.binom.cdf(k-1, n, 0.5) <= 0.05:
 * n=5 none, n=6 [1,6] 0.96875, n=10 [2,9] 0.978515625,
 * n=20 [6,15] 0.9586105346679688, n=100 [40,61] 0.9647997997822951. */
static void median_ci_order_statistics(void)
{
	const size_t ns[] = {5, 6, 10, 20, 100};
	const size_t ks[] = {0, 1, 2, 6, 40};
	const double cov[] = {NAN, 0.96875, 0.978515625, 0.9586105346679688,
			      0.9647997997822951};
	double x[100];
	for (size_t t = 0; t < N(ns); t++) {
		size_t n = ns[t];
		/* Values 1..n in a scrambled order: x_(k) is k. */
		for (size_t i = 0; i < n; i++)
			x[i] = (double)((i * 7) % n + 1);
		struct stats_summary s;
		CHECK(stats_summarize(x, n, 0.95, &s) == 0);
		if (ks[t] == 0) {
			CHECK(isnan(s.median_ci_lo) && isnan(s.median_ci_hi));
			CHECK(isnan(s.median_ci_level));
			continue;
		}
		CHECK_NEAR(s.median_ci_lo, (double)ks[t], 0);
		CHECK_NEAR(s.median_ci_hi, (double)(n - ks[t] + 1), 0);
		CHECK_NEAR(s.median_ci_level, cov[t], 1e-12);
	}
}

static void tukey_outliers(void)
{
	const double x[] = {1, 2, 3, 4, 5, 6, 7, 8, 14, 21, NAN, -5};
	struct stats_summary s;
	CHECK(stats_summarize(x, N(x), 0.95, &s) == 0);
	CHECK(s.n == 11);
	/* numpy.quantile([1,2,3,4,5,6,7,8,14,21,-5], [0.25, 0.75]): 2.5 7.5 */
	CHECK_NEAR(s.q1, 2.5, 1e-12);
	CHECK_NEAR(s.q3, 7.5, 1e-12);
	/* IQR 5: mild beyond -5 / 15, severe beyond -12.5 / 22.5:
	 * 21 is mild, -5 is on the fence (not an outlier). */
	CHECK(s.outliers_mild == 1);
	CHECK(s.outliers_severe == 0);
	const double y[] = {1, 2, 3, 4, 5, 6, 7, 8, 16, 30};
	CHECK(stats_summarize(y, N(y), 0.95, &s) == 0);
	/* Q1 3.25, Q3 7.75, IQR 4.5: mild > 14.5, severe > 21.25. */
	CHECK(s.outliers_mild == 1 && s.outliers_severe == 1);
	unsigned char flags[N(y)];
	memset(flags, RUN_FAILED | RUN_OUTLIER_SEVERE, sizeof flags);
	stats_flag_outliers(y, N(y), &s, flags);
	for (size_t i = 0; i < 8; i++)
		CHECK(flags[i] == RUN_FAILED);
	CHECK(flags[8] == (RUN_FAILED | RUN_OUTLIER_MILD));
	CHECK(flags[9] == (RUN_FAILED | RUN_OUTLIER_SEVERE));
}

static void welch_t_test(void)
{
	double t, df;
	/* scipy.stats.ttest_ind(A, B, equal_var=False):
	 * statistic -5.346732006600678, pvalue 3.24342127681232e-05.
	 * Ours is b - a, hence the sign. */
	double p = stats_welch_p(A, N(A), B, N(B), &t, &df);
	CHECK_NEAR(t, 5.346732006600678, 1e-12);
	CHECK_REL(p, 3.24342127681232e-05, 1e-8);
	/* scipy.stats.ttest_ind(C, D, equal_var=False):
	 * statistic -2.537635574082195, pvalue 0.020426990233717704 */
	p = stats_welch_p(C, N(C), D, N(D), &t, NULL);
	CHECK_NEAR(t, 2.537635574082195, 1e-12);
	CHECK_REL(p, 0.020426990233717704, 1e-8);
	/* One value on a side: no test. */
	CHECK(isnan(stats_welch_p(A, 1, B, N(B), NULL, NULL)));
}

static void mann_whitney(void)
{
	double u;
	bool exact;
	/* scipy.stats.mannwhitneyu(B, A, alternative='two-sided',
	 * method='exact'): statistic 114.0, pvalue 9.278647049544882e-05 */
	double p = stats_mann_whitney_p(A, N(A), B, N(B), &u, &exact);
	CHECK(exact);
	CHECK_NEAR(u, 114.0, 0);
	CHECK_REL(p, 9.278647049544882e-05, 1e-12);
	/* scipy.stats.mannwhitneyu(G, E, alternative='two-sided',
	 * method='exact'): statistic 24.0, pvalue 0.12554112554112554 */
	const double E[] = {3.1, 4.7, 2.2, 5.9, 4.1};
	const double G[] = {4.4, 6.3, 5.2, 3.6, 7.5, 6.8};
	p = stats_mann_whitney_p(E, N(E), G, N(G), &u, &exact);
	CHECK(exact);
	CHECK_NEAR(u, 24.0, 0);
	CHECK_REL(p, 0.12554112554112554, 1e-12);
	/* Larger exact cases, up to R's limit of 49 per side:
	 * x = [((i*7919) % 1009)/7 for i in range(30)],
	 * y = [((i*104729) % 1013)/7 + 20 for i in range(40)] (no ties),
	 * scipy.stats.mannwhitneyu(y, x, alternative='two-sided',
	 * method='exact'): statistic 707.0, pvalue 0.20769170372972837;
	 * the same with range(49), range(49) and + 30:
	 * statistic 1559.0, pvalue 0.01053469237489877 */
	double x[49], y[49];
	for (int i = 0; i < 49; i++) {
		x[i] = ((i * 7919) % 1009) / 7.0;
		y[i] = ((i * 104729L) % 1013) / 7.0 + 20;
	}
	p = stats_mann_whitney_p(x, 30, y, 40, &u, &exact);
	CHECK(exact);
	CHECK_NEAR(u, 707.0, 0);
	CHECK_REL(p, 0.20769170372972837, 1e-10);
	for (int i = 0; i < 49; i++)
		y[i] += 10;
	p = stats_mann_whitney_p(x, 49, y, 49, &u, &exact);
	CHECK(exact);
	CHECK_NEAR(u, 1559.0, 0);
	CHECK_REL(p, 0.01053469237489877, 1e-10);
	/* Ties: scipy.stats.mannwhitneyu(D, C, alternative='two-sided',
	 * method='asymptotic'): statistic 86.0, pvalue 0.02997553994391964 */
	p = stats_mann_whitney_p(C, N(C), D, N(D), &u, &exact);
	CHECK(!exact);
	CHECK_NEAR(u, 86.0, 0);
	CHECK_REL(p, 0.02997553994391964, 1e-9);
	/* 60 values each (too many for the exact count):
	 * L1 = [10 + ((i*37) % 101)/10 for i in range(60)],
	 * L2 = [10.5 + ((i*53) % 97)/10 for i in range(60)],
	 * scipy.stats.mannwhitneyu(L2, L1, alternative='two-sided',
	 * method='asymptotic'): statistic 1837.5, pvalue 0.8460103269827736 */
	double l1[60], l2[60];
	for (int i = 0; i < 60; i++) {
		l1[i] = 10 + ((i * 37) % 101) / 10.0;
		l2[i] = 10.5 + ((i * 53) % 97) / 10.0;
	}
	p = stats_mann_whitney_p(l1, 60, l2, 60, &u, &exact);
	CHECK(!exact);
	CHECK_NEAR(u, 1837.5, 0);
	CHECK_REL(p, 0.8460103269827736, 1e-9);
	/* All equal: no evidence of a difference. */
	const double same[] = {5, 5, 5, 5};
	CHECK_NEAR(stats_mann_whitney_p(same, 4, same, 4, NULL, NULL), 1.0, 0);
}

static void compare_fieller(void)
{
	struct stats_comparison c;
	CHECK(stats_compare(A, N(A), B, N(B), 0.95, 1, &c) == 0);
	/* Fieller's interval for mean(B)/mean(A), Welch df at the estimate:
	 * the roots of (mb - x ma)^2 - t^2 (vb + x^2 va), solved in mpmath
	 * (40 digits, mpmath.findroot) with t the 0.975 quantile of Student's
	 * t with df = (vb + r^2 va)^2 / (vb^2/11 + r^4 va^2/9):
	 * ratio 1.1385683224619502, CI 1.0820109713669081 ..
	 * 1.1985211104445588, df 18.89917346256716.  (SciPy's brentq with
	 * scipy.stats.t.ppf agrees to 1e-13.) */
	CHECK_NEAR(c.ratio, 1.1385683224619502, 1e-14);
	CHECK_NEAR(c.ratio_lo, 1.0820109713669081, 1e-12);
	CHECK_NEAR(c.ratio_hi, 1.1985211104445588, 1e-12);
	CHECK_REL(c.p_welch, 3.24342127681232e-05, 1e-8);
	CHECK_REL(c.p_mann_whitney, 9.278647049544882e-05, 1e-12);
	CHECK(c.verdict == VERDICT_SLOWER);
	CHECK_STR(stats_verdict_name(c.verdict), "slower");
	/* Swapped: the reciprocal interval, faster. */
	struct stats_comparison d;
	CHECK(stats_compare(B, N(B), A, N(A), 0.95, 1, &d) == 0);
	CHECK(d.verdict == VERDICT_FASTER);
	CHECK_NEAR(d.ratio, 1 / c.ratio, 1e-12);
	/* Fieller's set for 1/theta is the reciprocal set (the plug-in df
	 * is the same both ways round). */
	CHECK_NEAR(d.ratio_lo, 1 / c.ratio_hi, 1e-13);
	CHECK_NEAR(d.ratio_hi, 1 / c.ratio_lo, 1e-13);
}

/*
 * Nonnegative samples whose candidate mean is not significantly above 0:
 * Fieller's lower root is negative, impossible for a ratio of nonnegative
 * means, so it is clamped at 0; the upper root is kept.  Upper root checked
 * against the quadratic (mb - x ma)^2 = t^2 (vb + x^2 va) solved here with
 * GSL's Student t quantile at the Welch df evaluated at the estimate.
 */
static void compare_ratio_ci_clamped_at_zero(void)
{
	const double a[] = {1.0, 1.1, 0.9, 1.05, 0.95};
	const double b[] = {0, 0, 0, 3, 0};
	struct stats_comparison c;
	CHECK(stats_compare(a, N(a), b, N(b), 0.95, 1, &c) == 0);
	double ma = 1.0, va = 0.00625 / 5, mb = 0.6, vb = 1.8 / 5;
	double r = mb / ma;
	double df = (vb + r * r * va) * (vb + r * r * va) /
		    (vb * vb / 4 + r * r * r * r * va * va / 4);
	double t = gsl_cdf_tdist_Pinv(0.975, df);
	double qa = ma * ma - t * t * va, qb = -2 * mb * ma,
	       qc = mb * mb - t * t * vb;
	double disc = sqrt(qb * qb - 4 * qa * qc);
	double lo = (-qb - disc) / (2 * qa), hi = (-qb + disc) / (2 * qa);
	CHECK(lo < 0);                  /* the unclamped root */
	CHECK_NEAR(c.ratio, 0.6, 1e-15);
	CHECK_NEAR(c.ratio_lo, 0.0, 0);
	CHECK_REL(c.ratio_hi, hi, 1e-10);
	CHECK(c.verdict == VERDICT_SAME);
	/* Negative values allowed (not a time or a count): unclamped. */
	const double an[] = {1.0, 1.1, 0.9, 1.05, 0.95};
	const double bn[] = {-1, 0, 0, 3, 1};
	CHECK(stats_compare(an, N(an), bn, N(bn), 0.95, 1, &c) == 0);
	CHECK(c.ratio_lo < 0);
}

/* The interval shrinks with more runs, unlike hyperfine's spread. */
static void compare_ci_shrinks(void)
{
	double a[400], b[400];
	for (int i = 0; i < 400; i++) {
		a[i] = A[i % N(A)];
		b[i] = B[i % N(B)];
	}
	struct stats_comparison c10, c400;
	CHECK(stats_compare(a, 40, b, 40, 0.95, 1, &c10) == 0);
	CHECK(stats_compare(a, 400, b, 400, 0.95, 1, &c400) == 0);
	double w10 = c10.ratio_hi - c10.ratio_lo, w400 = c400.ratio_hi - c400.ratio_lo;
	CHECK(w400 < w10 / 2.5); /* ~ sqrt(10) */
}

/*
 * A/A calibration by simulation (seeded, so deterministic): two samples of
 * 10 from the same distribution must be called different in at most about
 * 1 - confidence of trials (and not far less, or the test would be
 * blind).  2000 trials: the binomial standard deviation of
 * a 5 % rate is 0.49 %, so 6.5 % is three of them above.  A real 1.5x
 * shift must be found nearly always.
 */
static void compare_aa_calibration(void)
{
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 12345);
	const int trials = 2000;
	int fp_normal = 0, fp_lognormal = 0, found = 0;
	double a[10], b[10];
	struct stats_comparison c;
	for (int t = 0; t < trials; t++) {
		for (int i = 0; i < 10; i++) {
			a[i] = 10 + gsl_ran_gaussian(rng, 1);
			b[i] = 10 + gsl_ran_gaussian(rng, 1);
		}
		stats_compare(a, 10, b, 10, 0.95, 0, &c);
		fp_normal += c.verdict != VERDICT_SAME;
		/* Right-skewed like run times. */
		for (int i = 0; i < 10; i++) {
			a[i] = gsl_ran_lognormal(rng, 0, 0.5);
			b[i] = gsl_ran_lognormal(rng, 0, 0.5);
		}
		stats_compare(a, 10, b, 10, 0.95, 0, &c);
		fp_lognormal += c.verdict != VERDICT_SAME;
		for (int i = 0; i < 10; i++)
			b[i] = 1.5 * gsl_ran_lognormal(rng, 0, 0.1);
		for (int i = 0; i < 10; i++)
			a[i] = gsl_ran_lognormal(rng, 0, 0.1);
		stats_compare(a, 10, b, 10, 0.95, 0, &c);
		found += c.verdict == VERDICT_SLOWER;
	}
	gsl_rng_free(rng);
	/* With this seed: 65 (3.3 %) and 51 (2.6 %) false positives, and the
	 * shift found 2000 times: requiring the interval and both tests
	 * to agree makes the verdict a little conservative, not blind. */
	CHECK(fp_normal < trials * 0.065 && fp_normal > trials * 0.01);
	CHECK(fp_lognormal < trials * 0.065 && fp_lognormal > trials * 0.01);
	CHECK(found > trials * 0.99);
}

static void compare_same_and_unknown(void)
{
	struct stats_comparison c;
	/* A against itself: p = 1, no significant difference. */
	CHECK(stats_compare(A, N(A), A, N(A), 0.95, 1, &c) == 0);
	CHECK(c.verdict == VERDICT_SAME);
	CHECK_NEAR(c.ratio, 1.0, 1e-15);
	CHECK(c.ratio_lo < 1 && c.ratio_hi > 1);
	CHECK_STR(stats_verdict_name(c.verdict), "no significant difference");
	/* One run: unknown. */
	CHECK(stats_compare(A, 1, B, N(B), 0.95, 1, &c) == 0);
	CHECK(c.verdict == VERDICT_UNKNOWN);
	CHECK(isnan(c.ratio_lo) && isnan(c.p_welch));
	CHECK_STR(stats_verdict_name(c.verdict), "unknown");
	/* No finite value: error. */
	const double nan2[] = {NAN, NAN};
	CHECK(stats_compare(nan2, 2, B, N(B), 0.95, 1, &c) == -1);
	/* Deterministic counters: constant 2048 vs constant 4096 faults. */
	double k1[10], k2[10];
	for (int i = 0; i < 10; i++) {
		k1[i] = 2048;
		k2[i] = 4096;
	}
	CHECK(stats_compare(k1, 10, k2, 10, 0.95, 1, &c) == 0);
	CHECK(c.verdict == VERDICT_SLOWER);
	CHECK_NEAR(c.ratio_lo, 2.0, 0);
	CHECK_NEAR(c.ratio_hi, 2.0, 0);
	CHECK_NEAR(c.p_welch, 0.0, 0);
	CHECK(stats_compare(k1, 10, k1, 10, 0.95, 1, &c) == 0);
	CHECK(c.verdict == VERDICT_SAME);
	CHECK_NEAR(c.p_welch, 1.0, 0);
	CHECK_NEAR(c.p_mann_whitney, 1.0, 0);
	/* Two runs each can never reach 95 % with the rank test (exact
	 * minimum p is 2/6): it abstains, and the exact interval [2, 2]
	 * with Welch's p = 0 decides. */
	CHECK(stats_compare(k1, 2, k2, 2, 0.95, 1, &c) == 0);
	CHECK(c.mw_underpowered);
	CHECK(c.verdict == VERDICT_SLOWER);
	/* One run each: nothing to decide. */
	CHECK(stats_compare(k1, 1, k2, 1, 0.95, 1, &c) == 0);
	CHECK(c.verdict == VERDICT_UNKNOWN);
}

static void edge_one_run_and_equal(void)
{
	struct stats_summary s;
	const double one[] = {NAN, 0.5, NAN};
	CHECK(stats_summarize(one, 3, 0.95, &s) == 0);
	CHECK(s.n == 1);
	CHECK_NEAR(s.mean, 0.5, 0);
	CHECK_NEAR(s.median, 0.5, 0);
	CHECK(isnan(s.stddev));
	CHECK(isnan(s.mean_ci_lo) && isnan(s.mean_ci_hi));
	CHECK(isnan(stats_mean_halfwidth(&s, 0.95)));
	CHECK_NEAR(s.mad, 0, 0);
	CHECK(s.outliers_mild == 0 && s.outliers_severe == 0);

	const double eq[] = {7, 7, 7, 7, 7, 7, 7};
	CHECK(stats_summarize(eq, N(eq), 0.95, &s) == 0);
	CHECK_NEAR(s.stddev, 0, 0);
	CHECK_NEAR(s.mad, 0, 0);
	CHECK_NEAR(s.iqr, 0, 0);
	CHECK_NEAR(s.mean_ci_lo, 7, 0);
	CHECK_NEAR(s.mean_ci_hi, 7, 0);
	CHECK(s.outliers_mild == 0 && s.outliers_severe == 0);
	CHECK(isnan(stats_bimodality_coefficient(eq, N(eq))));
	CHECK(!stats_looks_bimodal(eq, N(eq)));

	const double none[] = {NAN, INFINITY};
	CHECK(stats_summarize(none, 2, 0.95, &s) == -1);
	CHECK(s.n == 0 && isnan(s.mean));
	CHECK(stats_summarize(NULL, 0, 0.95, &s) == -1);
}

/* Scaling by a power of two is exact, so the results scale exactly. */
static void edge_magnitudes(void)
{
	const double scales[] = {0x1p-1000, 0x1p-40, 0x1p40, 0x1p1000};
	struct stats_summary ref, s;
	CHECK(stats_summarize(A, N(A), 0.95, &ref) == 0);
	struct stats_comparison cref, c;
	CHECK(stats_compare(A, N(A), B, N(B), 0.95, 1, &cref) == 0);
	for (size_t k = 0; k < N(scales); k++) {
		double a[N(A)], b[N(B)];
		for (size_t i = 0; i < N(A); i++)
			a[i] = A[i] * scales[k];
		for (size_t i = 0; i < N(B); i++)
			b[i] = B[i] * scales[k];
		CHECK(stats_summarize(a, N(a), 0.95, &s) == 0);
		CHECK_REL(s.mean, ref.mean * scales[k], 1e-15);
		CHECK_REL(s.stddev, ref.stddev * scales[k], 1e-15);
		CHECK_REL(s.mean_ci_hi, ref.mean_ci_hi * scales[k], 1e-15);
		CHECK_REL(s.mad, ref.mad * scales[k], 1e-15);
		CHECK(stats_compare(a, N(a), b, N(b), 0.95, 1, &c) == 0);
		CHECK_REL(c.ratio_lo, cref.ratio_lo, 1e-14);
		CHECK_REL(c.ratio_hi, cref.ratio_hi, 1e-14);
		CHECK_REL(c.p_welch, cref.p_welch, 1e-12);
		CHECK(c.verdict == VERDICT_SLOWER);
	}
}

static void warnings_pure(void)
{
	/* First run far slower than the rest. */
	double w[12] = {0.050, 0.010, 0.011, 0.010, 0.012, 0.010, 0.011, 0.010,
			0.011, 0.010, 0.011, 0.012};
	CHECK(stats_first_run_slow(w, 12));
	w[0] = 0.0115;
	CHECK(!stats_first_run_slow(w, 12));
	/* Deterministic counts with one more: beyond the fence but < 20 %. */
	const double k[] = {101, 100, 100, 100, 100, 100};
	CHECK(!stats_first_run_slow(k, 6));

	/* Outliers. */
	struct stats_summary s;
	const double o[] = {1, 2, 3, 4, 5, 6, 7, 8, 16, 30};
	CHECK(stats_summarize(o, N(o), 0.95, &s) == 0);
	CHECK(stats_many_outliers(&s));
	CHECK(stats_summarize(A, N(A), 0.95, &s) == 0);
	CHECK(!stats_many_outliers(&s));
	/* One mild outlier in 10 runs happens by chance. */
	const double o1[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 17};
	CHECK(stats_summarize(o1, N(o1), 0.95, &s) == 0);
	CHECK(s.outliers_mild == 1 && s.outliers_severe == 0);
	CHECK(!stats_many_outliers(&s));
	/* Very tight runs (sleep 0.02 within 0.8 %): a severe Tukey outlier,
	 * counted, but too close to the median to be worth a warning. */
	const double tight[] = {20.00, 20.01, 20.00, 20.01, 20.00, 20.01, 20.00,
				20.01, 20.00, 20.16};
	CHECK(stats_summarize(tight, N(tight), 0.95, &s) == 0);
	CHECK(s.outliers_severe == 1);
	CHECK(!stats_many_outliers(&s));
	CHECK(stats_summarize(tight, N(tight), 0.95, &s) == 0);
	CHECK(!(stats_warnings(tight, N(tight), &s, NULL, NULL) & STATS_WARN_OUTLIERS));
	/* The same shape 10 % away does warn. */
	double tight2[N(tight)];
	memcpy(tight2, tight, sizeof tight);
	tight2[9] = 22.5;
	CHECK(stats_summarize(tight2, N(tight2), 0.95, &s) == 0);
	CHECK(stats_many_outliers(&s));
	/* Clamping an interval at 0: cat with --input, two runs. */
	const double two[] = {0.0001, 0.0027};
	CHECK(stats_summarize(two, 2, 0.95, &s) == 0);
	CHECK(s.mean_ci_lo < 0);
	stats_clamp_nonnegative(&s);
	CHECK(s.mean_ci_lo == 0 && s.mean_ci_hi > 0.0027);

	/* Bimodality coefficient: scipy.stats.skew(x, bias=False),
	 * scipy.stats.kurtosis(x, bias=False) into (g^2+1)/(k+3(n-1)^2/
	 * ((n-2)(n-3))): A 0.31538883432499976, bim 0.5906218613115957. */
	const double bim[] = {1.0, 1.1, 0.9, 1.05, 0.95, 1.02, 2.0, 2.1, 1.9,
			      2.05, 1.95, 2.02};
	CHECK_NEAR(stats_bimodality_coefficient(A, N(A)), 0.31538883432499976, 1e-12);
	CHECK_NEAR(stats_bimodality_coefficient(bim, N(bim)), 0.5906218613115957, 1e-12);
	CHECK(!stats_looks_bimodal(bim, N(bim))); /* 12 runs: too few */
	double bim20[20];
	for (int i = 0; i < 20; i++)
		bim20[i] = bim[i % 6 + (i < 10 ? 0 : 6)] + 0.001 * i;
	CHECK(stats_looks_bimodal(bim20, 20));
	CHECK(!stats_looks_bimodal(A, N(A)));
	/* A tight fast group and a widely spread slow one (a loaded machine):
	 * the largest gap is inside the slow group, the groups are still
	 * found. */
	const double wide[] = {0.40, 0.41, 0.39, 0.42, 0.40, 0.38, 0.40, 0.41,
			       0.39, 0.40, 25, 40, 60, 134, 30, 45, 33, 28, 52, 38};
	CHECK(stats_bimodality_coefficient(wide, N(wide)) > 5.0 / 9.0);
	CHECK(stats_looks_bimodal(wide, N(wide)));
	/* One straggler: high coefficient, but not two groups. */
	double strag[20];
	for (int i = 0; i < 19; i++)
		strag[i] = 1 + 0.01 * (i % 5) - 0.02;
	strag[19] = 5;
	CHECK(stats_bimodality_coefficient(strag, N(strag)) > 5.0 / 9.0);
	CHECK(!stats_looks_bimodal(strag, N(strag)));
	/* Two tight groups 2 % apart (20.70 and 21.12 ms): twice each group's
	 * spread, but too small a gap to warn about. */
	double close2[20];
	for (int i = 0; i < 20; i++)
		close2[i] = (i < 18 ? 20.70 + 0.001 * (i % 9) : 21.12 + 0.001 * i) * 1e-3;
	for (int i = 10; i < 18; i++)
		close2[i] = 21.12e-3 + 0.001e-3 * i;
	CHECK(stats_bimodality_coefficient(close2, N(close2)) > 5.0 / 9.0);
	CHECK(!stats_looks_bimodal(close2, N(close2)));

	/* Waiting: 10 ms wall, 1 ms CPU. */
	const double wall[] = {0.010, 0.011, 0.010};
	const double usr[] = {0.0006, 0.0006, 0.0006};
	const double sys[] = {0.0004, 0.0004, 0.0004};
	CHECK(stats_mostly_waiting(wall, usr, sys, 3));
	CHECK(!stats_mostly_waiting(wall, wall, NULL, 3));

	struct stats_summary sw, su, ss;
	CHECK(stats_summarize(wall, 3, 0.95, &sw) == 0);
	CHECK(stats_summarize(usr, 3, 0.95, &su) == 0);
	CHECK(stats_summarize(sys, 3, 0.95, &ss) == 0);
	unsigned m = stats_warnings(wall, 3, &sw, &su, &ss);
	CHECK(m == STATS_WARN_WAITS);
	const double fast[] = {0.001, 0.0011, 0.001};
	CHECK(stats_summarize(fast, 3, 0.95, &sw) == 0);
	m = stats_warnings(fast, 3, &sw, &sw, NULL);
	CHECK(m == STATS_WARN_TOO_FAST);
}

/* With 3 + 3 runs the exact Mann-Whitney test cannot go below
 * p = 2 / C(6, 3) = 0.1, so at 95 % it abstains and a clear, Welch- and
 * Fieller-significant difference is still called (it used to be vetoed as
 * "no significant difference").  With 4 + 4 (2 / 70 = 0.029) it votes. */
static void rank_test_abstains_with_few_runs(void)
{
	const double a[] = {1.00, 1.01, 0.99}, b[] = {2.00, 2.02, 1.98};
	struct stats_comparison c;
	CHECK(stats_compare(a, 3, b, 3, 0.95, 1, &c) == 0);
	CHECK(c.mw_underpowered);
	CHECK_NEAR(c.p_mann_whitney, 0.1, 1e-12);
	CHECK(c.p_welch < 0.001);
	CHECK(c.verdict == VERDICT_SLOWER);

	const double a4[] = {1.00, 1.01, 0.99, 1.00}, b4[] = {2.00, 2.02, 1.98, 2.0};
	CHECK(stats_compare(a4, 4, b4, 4, 0.95, 1, &c) == 0);
	CHECK(!c.mw_underpowered);
	CHECK(c.verdict == VERDICT_SLOWER);
	/* At 99 % even 4 + 4 cannot reach it (0.029 > 0.01). */
	CHECK(stats_compare(a4, 4, b4, 4, 0.99, 1, &c) == 0);
	CHECK(c.mw_underpowered);
}

/*
 * The summary as stats.c first computed it, straight from GSL: heapsort
 * (gsl_sort), gsl_stats_mean and gsl_stats_sd_m on the sorted values scaled
 * by a power of two, a second sort for the MAD, a scan for the median CI.
 * The fast version (radix sort, its own long double running sums, merge,
 * bisection) must agree with it bit for bit.
 */
static void reference_summary(const double *x, size_t n, double c,
			      struct stats_summary *o)
{
	double *v = malloc((n ? n : 1) * sizeof *v);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			v[k++] = x[i];
	gsl_sort(v, 1, k);
	memset(o, 0, sizeof *o);
	o->n = k;
	int e;
	frexp(fmax(fabs(v[0]), fabs(v[k - 1])), &e);
	for (size_t i = 0; i < k; i++)
		v[i] = ldexp(v[i], -e);
	double mean = gsl_stats_mean(v, 1, k);
	o->mean = ldexp(mean, e);
	o->stddev = k >= 2 ? ldexp(gsl_stats_sd_m(v, 1, k, mean), e) : NAN;
	for (size_t i = 0; i < k; i++)
		v[i] = ldexp(v[i], e);
	o->median = gsl_stats_quantile_from_sorted_data(v, 1, k, 0.5);
	o->q1 = gsl_stats_quantile_from_sorted_data(v, 1, k, 0.25);
	o->q3 = gsl_stats_quantile_from_sorted_data(v, 1, k, 0.75);
	o->iqr = o->q3 - o->q1;
	o->median_ci_lo = o->median_ci_hi = o->median_ci_level = NAN;
	size_t best = 0;
	double cover = NAN;
	for (size_t j = 1; j <= k / 2; j++) {
		double tail = gsl_cdf_binomial_P((unsigned)(j - 1), 0.5, (unsigned)k);
		if (2.0 * tail > 1.0 - c)
			break;
		best = j;
		cover = 1.0 - 2.0 * tail;
	}
	if (best) {
		o->median_ci_lo = v[best - 1];
		o->median_ci_hi = v[k - best];
		o->median_ci_level = cover;
	}
	for (size_t i = 0; i < k; i++) {
		if (v[i] < o->q1 - 3.0 * o->iqr || v[i] > o->q3 + 3.0 * o->iqr)
			o->outliers_severe++;
		else if (v[i] < o->q1 - 1.5 * o->iqr || v[i] > o->q3 + 1.5 * o->iqr)
			o->outliers_mild++;
	}
	for (size_t i = 0; i < k; i++)
		v[i] = fabs(v[i] - o->median);
	gsl_sort(v, 1, k);
	o->mad = gsl_stats_quantile_from_sorted_data(v, 1, k, 0.5);
	free(v);
}

/* Same double, NaN included. */
static int same(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

static void same_as_reference_summary(void)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 11);
	static const size_t sizes[] = {1, 2, 3, 5, 10, 63, 64, 65, 100, 1000, 5000, 30001};
	double *x[4];
	for (int c = 0; c < 4; c++)
		x[c] = malloc(30001 * sizeof *x[c]);
	for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
		size_t n = sizes[si];
		for (size_t i = 0; i < n; i++) {
			double u = gsl_rng_uniform(r);
			x[0][i] = 1e-3 * (1 + 0.05 * u + (u > 0.99 ? 2 * u : 0));
			x[1][i] = 45 + floor(3 * gsl_rng_uniform(r));
			x[2][i] = gsl_ran_gaussian(r, 1e6) * (i % 7 ? 1 : -1);
			x[3][i] = i % 5 == 3 ? NAN : exp(gsl_ran_gaussian(r, 20));
			if (si % 3 == 1)	/* one value: no running sums */
				x[1][i] = 7.25;
			if (si % 3 == 2)	/* GSL's mean of -0s is +0 */
				x[1][i] = -0.0;
		}
		struct stats_summary got[4], want;
		const double *cols[4] = {x[0], x[1], x[2], x[3]};
		stats_summarize_columns(cols, n, 4, 0.95, got);
		for (int c = 0; c < 4; c++) {
			/* One column on its own, from a copy. */
			struct stats_summary one;
			double *copy = malloc(n * sizeof *copy);
			memcpy(copy, x[c], n * sizeof *copy);
			stats_summarize(copy, n, 0.95, &one);
			free(copy);
			reference_summary(x[c], n, 0.95, &want);
			const struct stats_summary *g[2] = {&got[c], &one};
			for (int w = 0; w < 2; w++) {
				CHECK(g[w]->n == want.n);
				CHECK(same(g[w]->mean, want.mean));
				CHECK(same(g[w]->stddev, want.stddev));
				CHECK(same(g[w]->median, want.median));
				CHECK(same(g[w]->q1, want.q1));
				CHECK(same(g[w]->q3, want.q3));
				CHECK(same(g[w]->mad, want.mad));
				CHECK(same(g[w]->median_ci_lo, want.median_ci_lo));
				CHECK(same(g[w]->median_ci_hi, want.median_ci_hi));
				CHECK(same(g[w]->median_ci_level, want.median_ci_level));
				CHECK(g[w]->outliers_mild == want.outliers_mild);
				CHECK(g[w]->outliers_severe == want.outliers_severe);
			}
		}
	}
	for (int c = 0; c < 4; c++)
		free(x[c]);
	gsl_rng_free(r);
}

/* Summaries are computed afresh: a column changed in place, or read at
 * another level or length, is never answered from an earlier summary. */
static void summary_never_stale(void)
{
	double x[100];
	for (int i = 0; i < 100; i++)
		x[i] = i;
	struct stats_summary a, b;
	stats_summarize(x, 100, 0.95, &a);
	stats_summarize(x, 100, 0.95, &b);
	CHECK(a.mean == 49.5 && b.mean == 49.5);
	x[0] = 100;
	stats_summarize(x, 100, 0.95, &b);
	CHECK(b.mean == 50.5 && b.min == 1);
	stats_summarize(x, 100, 0.99, &b);
	CHECK(b.confidence == 0.99);
	stats_summarize(x, 99, 0.95, &b);
	CHECK(b.n == 99 && b.max == 100);
}

/* A calibrated overhead subtracted from every run widens the mean's
 * interval: variance s^2/n + se^2 with Welch-Satterthwaite df.  Expected
 * from SciPy 1.10: x = [1..5], se 0.5 from 20 pairs: v1 = x.var(ddof=1)/5,
 * v2 = 0.25, df = (v1+v2)**2/(v1**2/4 + v2**2/19) = 8.55,
 * 3 -+ scipy.stats.t.ppf(0.975, df) * sqrt(v1 + v2)
 * = [1.0250836018065703, 4.97491639819343]. */
static void widened_mean_ci(void)
{
	const double x[] = {1, 2, 3, 4, 5};
	struct stats_summary s;
	CHECK(stats_summarize(x, 5, 0.95, &s) == 0);
	double lo = s.mean_ci_lo, hi = s.mean_ci_hi;
	stats_widen_mean_ci(&s, 0.5, 20);
	CHECK_NEAR(s.mean_ci_lo, 1.0250836018065703, 1e-9);
	CHECK_NEAR(s.mean_ci_hi, 4.97491639819343, 1e-9);
	CHECK(s.mean_ci_lo < lo && s.mean_ci_hi > hi);
	/* No estimate, or one value: unchanged. */
	struct stats_summary t = s;
	stats_widen_mean_ci(&t, 0, 20);
	CHECK(t.mean_ci_lo == s.mean_ci_lo && t.mean_ci_hi == s.mean_ci_hi);
}

/* A benchmark's runs after its own against after another's, in the
 * crossover order of two interleaved benchmarks (A B B A A B B A ...: A's
 * run indexes 1 4 5 8 9 12 13 16, then 17 without a value).  Expected by
 * hand and with SciPy 1.10 (/usr/bin/python3): the first run is left out;
 * after itself (5 9 13) [1.02, 0.98, 1.00], numpy.median 1.00; after the
 * other (4 8 12 16) [1.30, 1.25, 1.35, 1.28], median 1.29; change 0.29;
 * scipy.stats.mannwhitneyu(self, other, alternative='two-sided',
 * method='exact').pvalue = 0.05714285714285714 (2 / C(7, 3)). */
static void carryover_groups(void)
{
	const double x[] = {9.0, 1.30, 1.02, 1.25, 0.98, 1.35, 1.00, 1.28, NAN};
	const double idx[] = {1, 4, 5, 8, 9, 12, 13, 16, 17};
	struct stats_carryover c;
	stats_carryover(x, idx, 9, &c);
	CHECK(c.n_self == 3 && c.n_other == 4);
	CHECK_NEAR(c.after_self, 1.00, 1e-12);
	CHECK_NEAR(c.after_other, 1.29, 1e-12);
	CHECK_NEAR(c.change, 0.29, 1e-12);
	CHECK_NEAR(c.p, 0.05714285714285714, 1e-12);

	/* Sequential runs all follow their own: no other group, no test. */
	const double seq[] = {1, 2, 3, 4, 5};
	stats_carryover(x, seq, 5, &c);
	CHECK(c.n_self == 4 && c.n_other == 0);
	CHECK(isnan(c.after_other) && isnan(c.change) && isnan(c.p));
	CHECK_NEAR(c.after_self, (1.02 + 1.25) / 2, 1e-12);

	/* A run without a run index (a file from elsewhere) is left out, and
	 * so is the next one, whose predecessor is then unknown. */
	const double none[] = {1, NAN, 4, 5, 7};
	stats_carryover(x, none, 5, &c);
	CHECK(c.n_self == 1 && c.n_other == 1);
	CHECK_NEAR(c.after_self, 1.25, 1e-12);
	CHECK_NEAR(c.after_other, 0.98, 1e-12);

	/* Adaptive counts: once the other benchmark has finished, the runs
	 * after its own until the end (run indexes 8 9 10) are left out, so
	 * both groups come from the same stretch: after itself only run 5. */
	const double adaptive[] = {1, 3, 5, 6, 8, 9, 10};
	stats_carryover(x, adaptive, 7, &c);
	CHECK(c.n_self == 1 && c.n_other == 3);
	CHECK_NEAR(c.after_self, 1.25, 1e-12);
	CHECK_NEAR(c.after_other, 1.02, 1e-12);
	stats_carryover(x, idx, 0, &c);
	CHECK(c.n_self == 0 && c.n_other == 0 && isnan(c.after_self));
}

/* Exact comparisons (constant samples of a simulated count) and the
 * resolution of an interval: sqrt(hi / lo) - 1, computed by hand. */
static void exact_and_resolution(void)
{
	const double a[] = {6129305, 6129305, 6129305};
	const double b[] = {6165305, 6165305, 6165305};
	const double v[] = {1, 2, 3};
	struct stats_comparison c;
	CHECK(stats_compare_exact(a, 3, b, 3, 0.95, &c) == 0);
	CHECK(c.exact && c.verdict == VERDICT_SLOWER);
	CHECK_NEAR(c.ratio, 6165305.0 / 6129305.0, 1e-15);
	CHECK(c.ratio_lo == c.ratio && c.ratio_hi == c.ratio);
	CHECK(isnan(c.p_welch) && isnan(c.p_mann_whitney));
	CHECK(stats_resolution(&c) == 0);
	CHECK(stats_compare_exact(a, 3, a, 3, 0.95, &c) == 0 &&
	      c.verdict == VERDICT_SAME);
	/* A side that varies, or a single run, is not exact. */
	CHECK(stats_compare_exact(a, 3, v, 3, 0.95, &c) == -1);
	CHECK(stats_compare_exact(a, 1, b, 3, 0.95, &c) == -1);
	struct stats_comparison w = {.ratio = 1.05, .ratio_lo = 0.884,
				     .ratio_hi = 1.245};
	CHECK_NEAR(stats_resolution(&w), 0.18674, 1e-4);   /* sqrt(1.245/0.884)-1 */
	w.ratio_lo = NAN;
	CHECK(isnan(stats_resolution(&w)));
}

int main(void)
{
	stats_init();
	RUN(rank_test_abstains_with_few_runs);
	RUN(exact_and_resolution);
	RUN(nist_lower_difficulty);
	RUN(nist_numacc);
	RUN(quantiles_type7);
	RUN(mad_unscaled);
	RUN(mean_ci_student);
	RUN(median_ci_order_statistics);
	RUN(tukey_outliers);
	RUN(welch_t_test);
	RUN(mann_whitney);
	RUN(compare_fieller);
	RUN(compare_ratio_ci_clamped_at_zero);
	RUN(compare_ci_shrinks);
	RUN(compare_aa_calibration);
	RUN(compare_same_and_unknown);
	RUN(edge_one_run_and_equal);
	RUN(edge_magnitudes);
	RUN(warnings_pure);
	RUN(same_as_reference_summary);
	RUN(summary_never_stale);
	RUN(widened_mean_ci);
	RUN(carryover_groups);
	UNIT_EXIT();
}
