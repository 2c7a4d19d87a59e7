/*
 * export_inputs.h: nothing cbench reads is a file it writes (see
 * export_inputs.c).  Library-style: no output.
 */
#ifndef CBENCH_EXPORT_INPUTS_H
#define CBENCH_EXPORT_INPUTS_H

#include "cli.h"

#include <stddef.h>

/*
 * Before anything runs: no path cbench reads (--baseline, the two files of
 * `cbench compare`, --input, a command or hook whose first word is an
 * existing file) is one of the files it writes (the exports and the
 * --output files), by file identity (fileid.h).  Returns 0, or -1 with
 * the first clash in err.
 */
int export_check_inputs(const struct config *cfg, char *err, size_t errlen);

#endif
