/*
 * bench_util.h: what make bench's drivers (backend.c, changepoint.c,
 * history.c) share: a monotonic clock in seconds and a reproducible
 * uniform generator (xorshift64*, no libc state), one per program.
 */
#ifndef CBENCH_BENCH_UTIL_H
#define CBENCH_BENCH_UTIL_H

#include <stdint.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng = 0x9E3779B97F4A7C15u;
static double uniform(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (double)((rng * 2685821657736338717u) >> 11) * 0x1.0p-53;
}

#endif
