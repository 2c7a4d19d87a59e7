/*
 * fileid.h: file identity by path (see fileid.c).  Library-style: no
 * output.  Strings returned are malloc'd; the caller frees them.
 */
#ifndef CBENCH_FILEID_H
#define CBENCH_FILEID_H

#include <stdbool.h>

/* Do the two paths name one file (another spelling, a symbolic link)? */
bool fileid_same(const char *a, const char *b);
/* The directory part of path (dirname(3) on a copy). */
char *fileid_dir(const char *path);
/* Where the bytes of path finally go: path itself, or for a symbolic link
 * (even a dangling one) the file it points to, so the link survives a
 * rename over it. */
char *fileid_target(const char *path);

#endif
