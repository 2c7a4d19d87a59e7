/*
 * spin N [--report]: a deterministic CPU loop of N million iterations.
 * With --report it prints "loop_ns T": the CPU time of the loop alone
 * (CLOCK_THREAD_CPUTIME_ID around it), so that a benchmark can tell a
 * program that computed slower from time added around it
 * (tests/verdicts/shell_residue.sh reads it with --metric).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long long cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 10;
	int report = argc > 2 && strcmp(argv[2], "--report") == 0;
	long long t0 = report ? cpu_ns() : 0;
	volatile unsigned long x = 0;
	for (long i = 0; i < n * 1000000L; i++)
		x += (unsigned long)i;
	if (report)
		printf("loop_ns %lld\n", cpu_ns() - t0);
	return 0;
}
