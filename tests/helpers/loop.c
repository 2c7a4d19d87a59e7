/*
 * loop N: N iterations of a tight loop, nothing else: its instruction
 * count grows by the same amount with each iteration, so N sets a
 * program's work to the per mille (tests/e2e/sim.sh, make verdicts).
 */
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	volatile unsigned long x = 0;
	for (long i = 0; i < n; i++)
		x += (unsigned long)i;
	return 0;
}
