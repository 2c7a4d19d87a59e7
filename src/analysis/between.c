/*
 * between.c: the spread of a benchmark's mean between invocations
 * (between.h).
 */
#include "between.h"

#include <math.h>
#include <stdbool.h>

#include <gsl/gsl_cdf.h>

static bool usable(double mean, double lo, double hi)
{
	return mean > 0 && lo > 0 && hi >= lo && isfinite(hi);
}

double between_sd(const double *mean, const double *lo, const double *hi,
		  size_t k, double confidence, size_t *used)
{
	double z = gsl_cdf_ugaussian_Pinv(0.5 + confidence / 2);
	double s = 0, within = 0;
	size_t n = 0;
	for (size_t i = 0; i < k; i++) {
		if (!usable(mean[i], lo[i], hi[i]))
			continue;
		double se = (log(hi[i]) - log(lo[i])) / (2 * z);
		s += log(mean[i]);
		within += se * se;
		n++;
	}
	*used = n;
	if (n < BETWEEN_MIN_INVOCATIONS)
		return NAN;
	double m = s / (double)n, ss = 0;
	for (size_t i = 0; i < k; i++)
		if (usable(mean[i], lo[i], hi[i]))
			ss += (log(mean[i]) - m) * (log(mean[i]) - m);
	double tau2 = ss / (double)(n - 1) - within / (double)n;
	return tau2 > 0 ? sqrt(tau2) : 0;
}

double between_halfwidth(double own, double tau, size_t k, double confidence)
{
	if (!(tau > 0) || k < 2)
		return own;
	double t = gsl_cdf_tdist_Pinv(0.5 + confidence / 2, (double)(k - 1));
	return sqrt(own * own + t * tau * t * tau);
}
