/*
 * readfile.c: a whole input file into memory, bounded (readfile.h).
 */
#include "readfile.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Why f cannot be read as a file of results, or NULL. */
static const char *not_a_file(FILE *f, char *buf, size_t len, const char *what)
{
	struct stat sb;
	if (fstat(fileno(f), &sb) != 0)
		return NULL;   /* the read will say */
	const char *kind = S_ISDIR(sb.st_mode) ? "directory"
			   : S_ISCHR(sb.st_mode) ? "character device"
			   : S_ISBLK(sb.st_mode) ? "block device"
			   : S_ISSOCK(sb.st_mode) ? "socket" : NULL;
	if (kind == NULL)
		return NULL;
	if (S_ISDIR(sb.st_mode))
		snprintf(buf, len, "it is a directory, not a %s file", what);
	else
		snprintf(buf, len, "it is a %s, not a regular file of %s", kind, what);
	return buf;
}

char *readfile_all(const char *path, const char *what, size_t *len, char *err,
		   size_t errlen)
{
	bool in = strcmp(path, "-") == 0;
	FILE *f = in ? stdin : fopen(path, "rb");
	if (f == NULL) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		return NULL;
	}
	char kind[128];
	const char *why = not_a_file(f, kind, sizeof kind, what);
	size_t cap = 1 << 16, n = 0;
	char *buf = why ? NULL : malloc(cap);
	if (!why && buf == NULL)
		why = "out of memory";
	errno = 0;
	while (why == NULL) {
		if (cap - n < 2) {
			if (cap >= READFILE_MAX_BYTES) {
				snprintf(kind, sizeof kind, "larger than 1 GiB, too "
					 "large for a %s file", what);
				why = kind;
				break;
			}
			char *bigger = realloc(buf, cap * 2);
			if (bigger == NULL) {
				snprintf(kind, sizeof kind, "out of memory after %zu "
					 "MiB of it", n >> 20);
				why = kind;
				break;
			}
			buf = bigger;
			cap *= 2;
		}
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	int rd_err = ferror(f) ? (errno ? errno : EIO) : 0;
	if (!in)
		fclose(f);
	if (why || rd_err) {
		snprintf(err, errlen, "cannot read '%s': %s", path,
			 why ? why : strerror(rd_err));
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}
