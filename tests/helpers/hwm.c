/* hwm FILE [KIB]: touch KIB KiB of fresh memory (default 0), then append
 * this process's own peak RSS (VmHWM from /proc/self/status, in KiB) as
 * one line to FILE.  The truth that a harness's reported peak RSS is
 * checked against. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	long kib = argc > 2 ? strtol(argv[2], NULL, 10) : 0;
	if (kib > 0) {
		char *p = mmap(NULL, (size_t)kib * 1024, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return 2;
		for (long i = 0; i < kib * 1024; i += 4096)
			p[i] = 1;
	}
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long hwm = -1;
	while (f && fgets(line, sizeof line, f))
		if (strncmp(line, "VmHWM:", 6) == 0)
			hwm = strtol(line + 6, NULL, 10);
	if (f)
		fclose(f);
	FILE *o = fopen(argv[1], "a");
	if (o == NULL)
		return 2;
	fprintf(o, "%ld\n", hwm);
	return fclose(o) == 0 ? 0 : 2;
}
