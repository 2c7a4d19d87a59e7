/*
 * system_text.h: the terminal (and --json) output of `cbench system
 * check`, `tune` and `reset`.
 */
#ifndef CBENCH_SYSTEM_TEXT_H
#define CBENCH_SYSTEM_TEXT_H

#include "noise.h"
#include "syscheck.h"
#include "systune.h"

#include <stdbool.h>
#include <stdio.h>

/* The check's items, then the noise (NULL: not measured) to f. */
void system_text_check(FILE *f, const struct syscheck *c,
		       const struct noise_result *noise, bool color);
/* The same as one JSON document; -1 on out of memory. */
int system_text_check_json(FILE *f, const char *root, const struct syscheck *c,
			   const struct noise_result *noise);
/* What tune changed or reset restored ("tune" / "reset" in verb). */
void system_text_tune(FILE *f, const char *verb, const char *root,
		      const struct systune_log *log);

#endif
