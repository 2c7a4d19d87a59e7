/* layout: what the noise-control options change in the process, appended
 * as one line to FILE per run (the command's output is not kept):
 *   layout cpus FILE    its Cpus_allowed_list from /proc/self/status
 *   layout stack FILE   the address of a variable on its stack
 *   layout env FILE     the size of its environment in bytes (each
 *                       NAME=VALUE and its NUL), then the length of
 *                       HYPERFINE_RANDOMIZED_ENVIRONMENT_OFFSET (-1: unset) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	FILE *out = fopen(argv[2], "a");
	if (out == NULL)
		return 1;
	if (strcmp(argv[1], "cpus") == 0) {
		FILE *f = fopen("/proc/self/status", "r");
		char line[4096];
		while (f && fgets(line, sizeof line, f))
			if (strncmp(line, "Cpus_allowed_list:", 18) == 0)
				fprintf(out, "%s", line + 18 + strspn(line + 18, " \t"));
		if (f)
			fclose(f);
	} else if (strcmp(argv[1], "stack") == 0) {
		volatile int here = 0;
		fprintf(out, "%p\n", (void *)&here);
	} else if (strcmp(argv[1], "env") == 0) {
		size_t bytes = 0;
		for (char **e = environ; *e; e++)
			bytes += strlen(*e) + 1;
		const char *pad = getenv("HYPERFINE_RANDOMIZED_ENVIRONMENT_OFFSET");
		fprintf(out, "%zu %ld\n", bytes, pad ? (long)strlen(pad) : -1L);
	} else {
		return 2;
	}
	return fclose(out) == 0 ? 0 : 1;
}
