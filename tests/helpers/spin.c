/* spin N: a deterministic CPU loop of N million iterations. */
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 10;
	volatile unsigned long x = 0;
	for (long i = 0; i < n * 1000000L; i++)
		x += (unsigned long)i;
	return 0;
}
