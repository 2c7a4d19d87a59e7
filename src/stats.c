/*
 * stats.c: descriptive statistics with GSL.
 *
 * Mean and sample standard deviation: gsl_stats_mean / gsl_stats_sd, which
 * use the two-pass (mean, then sum of squared deviations) algorithm, accurate
 * on the NIST StRD datasets.  Median: gsl_stats_median_from_sorted_data on a
 * sorted copy.
 */
#include "stats.h"
#include "xalloc.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void stats_init(void)
{
	gsl_set_error_handler_off();
}

/* Copy the finite values of x; returns how many. */
static size_t finite_copy(const double *x, size_t n, double *out)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			out[k++] = x[i];
	return k;
}

int stats_summarize(const double *x, size_t n, double confidence,
		    struct stats_summary *out)
{
	double *v = xmalloc((n ? n : 1) * sizeof *v);
	size_t k = finite_copy(x, n, v);

	memset(out, 0, sizeof *out);
	out->n = k;
	out->confidence = confidence;
	out->q1 = out->q3 = out->iqr = out->mad = NAN;
	out->mean_ci_lo = out->mean_ci_hi = NAN;
	out->median_ci_lo = out->median_ci_hi = NAN;
	if (k == 0) {
		out->mean = out->stddev = out->median = out->min = out->max = NAN;
		free(v);
		return -1;
	}
	gsl_sort(v, 1, k);
	out->mean = gsl_stats_mean(v, 1, k);
	out->stddev = k >= 2 ? gsl_stats_sd_m(v, 1, k, out->mean) : NAN;
	out->median = gsl_stats_median_from_sorted_data(v, 1, k);
	out->min = v[0];
	out->max = v[k - 1];
	free(v);
	return 0;
}

void stats_ratio(const struct stats_summary *a, const struct stats_summary *b,
		 double *ratio, double *spread)
{
	*ratio = b->mean / a->mean;
	double ra = a->n >= 2 && a->mean != 0 ? a->stddev / a->mean : 0;
	double rb = b->n >= 2 && b->mean != 0 ? b->stddev / b->mean : 0;
	*spread = fabs(*ratio) * sqrt(ra * ra + rb * rb);
}

double stats_mean_halfwidth(const struct stats_summary *s, double confidence)
{
	if (s->n < 2 || !isfinite(s->stddev))
		return NAN;
	double t = gsl_cdf_tdist_Pinv(0.5 + confidence / 2.0, (double)(s->n - 1));
	return t * s->stddev / sqrt((double)s->n);
}

void stats_flag_outliers(const double *x, size_t n, const struct stats_summary *s,
			 unsigned char *flags)
{
	/* Not yet computed: no quartiles, no outliers. */
	(void)x;
	(void)s;
	for (size_t i = 0; i < n; i++)
		flags[i] &= (unsigned char)~(4u | 8u);
}

int stats_compare(const double *a, size_t na, const double *b, size_t nb,
		  double confidence, unsigned long seed,
		  struct stats_comparison *out)
{
	struct stats_summary sa, sb;
	(void)seed;
	memset(out, 0, sizeof *out);
	out->confidence = confidence;
	if (stats_summarize(a, na, confidence, &sa) != 0 ||
	    stats_summarize(b, nb, confidence, &sb) != 0)
		return -1;
	double spread;
	stats_ratio(&sa, &sb, &out->ratio, &spread);
	out->ratio_lo = out->ratio_hi = NAN;
	out->p_welch = out->p_mann_whitney = NAN;
	out->verdict = VERDICT_UNKNOWN;
	return 0;
}

const char *stats_verdict_name(enum stats_verdict v)
{
	switch (v) {
	case VERDICT_SAME:
		return "no significant difference";
	case VERDICT_FASTER:
		return "faster";
	case VERDICT_SLOWER:
		return "slower";
	default:
		return "unknown";
	}
}
