/*
 * utf8.h: text every export can read back (see utf8.c).  Library-style: no
 * output; strings returned are malloc'd and freed by the caller.
 */
#ifndef CBENCH_UTF8_H
#define CBENCH_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Is s valid UTF-8 throughout? */
bool utf8_valid(const char *s);
/* A copy of s with every byte that does not start a valid UTF-8 sequence
 * replaced by U+FFFD (the replacement character). */
char *utf8_clean(const char *s);

#endif
