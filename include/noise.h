/*
 * noise.h: how noisy this machine is, measured: a fixed CPU-bound loop
 * (`cbench system spin`, cbench re-executed) run N times through cbench's
 * own engine and analysed like any benchmark, for `cbench system check`.
 *
 * The resolvable difference X: the analysis gives the loop's mean wall
 * time a confidence interval (allowing for serial dependence and skew,
 * analysis.h); its half-width relative to the mean is h.  Two commands
 * measured with N runs each on this machine carry that uncertainty each,
 * so the interval of their difference is about sqrt(2) h wide on either
 * side: a difference below X = sqrt(2) h cannot be told from noise.
 */
#ifndef CBENCH_NOISE_H
#define CBENCH_NOISE_H

#include <stdbool.h>
#include <stddef.h>

struct noise_result {
	size_t runs;
	double confidence;       /* of the interval, e.g. 0.95 */
	double mean_s, stddev_s; /* of the loop's wall time */
	double cv;               /* stddev / mean */
	double ci_lo_s, ci_hi_s; /* the mean's interval (analysis) */
	double resolvable;       /* X as a fraction (0.012 = 1.2 %) */
	double acf1;             /* lag-1 autocorrelation of the runs */
	double dependence;       /* its factor on the mean's standard error */
	bool drift;              /* the analysis's drift warning */
	double first_last;       /* mean of the last third / first third - 1 */
};

/*
 * Run `exe system spin` runs times (after 3 warmups) through the engine
 * (bench.h) with the given confidence and analyse it.  Returns 0, or -1
 * with a message in err.
 */
int noise_measure(const char *exe, long runs, double confidence,
		  struct noise_result *out, char *err, size_t errlen);

struct analysis;
struct bench_result;
/* The figures of r, the loop's result, from its entry 0 in an (analysed
 * with an's confidence). */
void noise_summarise(const struct analysis *an, const struct bench_result *r,
		     struct noise_result *out);

/* The result as a cJSON object (void * so callers need not include
 * cJSON.h); NULL on out of memory. */
void *noise_json(const struct noise_result *n);

/* The loop itself (about 10 ms of integer work on a 2020s core, 6 million
 * xorshift steps); the
 * result only keeps the compiler from removing it. */
unsigned long noise_spin(void);

#endif
