/*
 * export_inputs.h: nothing cbench reads is a file it writes, and one
 * export at most goes to stdout (see export_inputs.c).  Library-style: no output.
 */
#ifndef CBENCH_EXPORT_INPUTS_H
#define CBENCH_EXPORT_INPUTS_H

#include "export.h"

#include <stddef.h>

/*
 * Before anything runs: no path cbench reads (--baseline, the two files of
 * `cbench compare`, --input, a command or hook whose first word is an
 * existing file, an SQLite history and its -wal, -shm and -journal files)
 * is one of the files it writes (the exports and the
 * --output files), by file identity (fileid.h).  Returns 0, or -1 with
 * the first clash in err.
 */
int export_check_inputs(const struct export_files *xf, char *err, size_t errlen);

/* At most one export goes to cbench's stdout, counting "-", /dev/stdout,
 * /proc/self/fd/N that is descriptor 1 and a regular file stdout was
 * redirected into.  Returns 0, or -1 with the two exports in err. */
int export_check_stdout(const struct export_files *xf, char *err, size_t errlen);

/* How many other hard links the existing file at an export's path has
 * (0: none, or not a regular file): they keep the old contents, since an
 * export is replaced by renaming a new file over the name. */
size_t export_hard_links(const char *path);

#endif
