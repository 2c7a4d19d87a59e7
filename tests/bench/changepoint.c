/*
 * changepoint.c: `make bench`'s timing of change-point detection
 * (src/analysis/changepoint.c), linked with cbench's modules.
 *
 *   changepoint N     a series of N points (three steps in noise)
 *
 * Prints "phase SECONDS CHANGES" for the t-test (the default options) and
 * for the permutation test with 199 shuffles, each the fastest of five
 * detections.
 */
#include "changepoint.h"

#include "bench_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int timed(const char *phase, const double *x, size_t n,
		 const struct cp_options *o)
{
	double best = -1;
	size_t k = 0;
	for (int r = 0; r < 5; r++) {
		struct cp_change *c;
		char err[256];
		double t0 = now_s();
		if (cp_detect(x, n, o, &c, &k, err, sizeof err) != 0) {
			fprintf(stderr, "changepoint: %s\n", err);
			return -1;
		}
		double t = now_s() - t0;
		free(c);
		if (best < 0 || t < best)
			best = t;
	}
	printf("%s %.6f %zu\n", phase, best, k);
	return 0;
}

int main(int argc, char **argv)
{
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 10000;
	double *x = malloc((n ? n : 1) * sizeof *x);
	if (!x)
		return 1;
	/* About 1 ms with 5 % noise, 10 % slower from 30 % of the way, 5 %
	 * faster again at 60 %, 20 % slower at 85 %. */
	for (size_t i = 0; i < n; i++) {
		double level = 1.0 + (i >= n * 3 / 10 ? 0.1 : 0) -
			       (i >= n * 6 / 10 ? 0.05 : 0) + (i >= n * 85 / 100 ? 0.2 : 0);
		x[i] = 1e-3 * (level + 0.05 * (uniform() - 0.5) * 3.46);
	}
	struct cp_options o = cp_default_options();
	int rc = timed("t-test", x, n, &o);
	o.test = CP_TEST_PERMUTATION;
	o.permutations = 199;
	if (rc == 0)
		rc = timed("permutation", x, n, &o);
	free(x);
	return rc ? 1 : 0;
}
