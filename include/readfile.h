/*
 * readfile.h: a whole input file into memory, bounded.  Library-style:
 * no output.
 */
#ifndef CBENCH_READFILE_H
#define CBENCH_READFILE_H

#include <stddef.h>

/* The most an input file (a baseline, a results file, a history export)
 * may hold: a million runs of every metric is about 200 MiB. */
#define READFILE_MAX_BYTES ((size_t)1 << 30)

/*
 * The bytes of path ("-": standard input), NUL-terminated, their count in
 * *len.  A directory, a device (/dev/zero, /dev/urandom never end) or a
 * socket is refused; a pipe or FIFO is read up to READFILE_MAX_BYTES.
 * what names what the file should hold ("results": "it is a directory,
 * not a results file", "not a regular file of results").  NULL on failure,
 * with "cannot read 'PATH': WHY" in err.
 */
char *readfile_all(const char *path, const char *what, size_t *len, char *err,
		   size_t errlen);

#endif
