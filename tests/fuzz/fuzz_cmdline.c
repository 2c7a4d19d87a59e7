/*
 * fuzz_cmdline: libFuzzer target for the shell-syntax detector and the
 * word splitter.  Besides not crashing, it checks their contract: a line
 * that needs no shell and is not blank must split into at least one word.
 */
#include "cmdline.h"
#include "diag.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	memcpy(line, data, size);
	line[size] = '\0';
	bool shell = cmdline_needs_shell(line);
	char err[DIAG_MSG_MAX];
	char **argv = cmdline_split(line, err, sizeof err);
	bool blank = line[strspn(line, " \t")] == '\0';
	if (!shell && !blank && argv == NULL)
		abort();
	if (argv && argv[0] == NULL)
		abort();
	cmdline_free(argv);
	free(line);
	return 0;
}
