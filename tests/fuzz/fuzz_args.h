/*
 * fuzz_args.h: shared by the fuzz targets: turn a fuzzer's bytes into an
 * argument vector.  Arguments are separated by NUL bytes; argv[0] is
 * "cbench".  The strings live in one copy of the data, freed with
 * fuzz_args_free().
 */
#ifndef CBENCH_FUZZ_ARGS_H
#define CBENCH_FUZZ_ARGS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_MAX_ARGS 64

struct fuzz_args {
	int argc;
	char *argv[FUZZ_MAX_ARGS + 2];
	char *buf;
};

static inline void fuzz_args_make(struct fuzz_args *a, const uint8_t *data,
				  size_t size)
{
	a->buf = malloc(size + 1);
	memcpy(a->buf, data, size);
	a->buf[size] = '\0';
	a->argc = 0;
	a->argv[a->argc++] = (char *)"cbench";
	for (size_t i = 0; i < size && a->argc <= FUZZ_MAX_ARGS;) {
		a->argv[a->argc++] = a->buf + i;
		i += strlen(a->buf + i) + 1;
	}
	a->argv[a->argc] = NULL;
}

static inline void fuzz_args_free(struct fuzz_args *a)
{
	free(a->buf);
}

#endif
