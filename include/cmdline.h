/*
 * cmdline.h: deciding whether a command line needs a shell, and splitting
 * one that does not into words, the way GNU make does for recipe lines.
 *
 * Ownership: cmdline_split() returns a NULL-terminated vector the caller
 * frees with cmdline_free().
 */
#ifndef CBENCH_CMDLINE_H
#define CBENCH_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

/* True when the line uses syntax only a shell understands: operators,
 * redirections, expansions, globbing, comments, assignments, compound
 * commands or shell builtins. */
bool cmdline_needs_shell(const char *line);

/* Split a line with no shell syntax into words.  Single and double quotes
 * and backslash escapes are honoured as sh would.  Returns NULL (with a
 * message in err) for an unterminated quote or an empty line. */
char **cmdline_split(const char *line, char *err, size_t errlen);

void cmdline_free(char **argv);

/* Find prog on PATH (or take it as a path if it has a '/').  Returns a new
 * string, or NULL with errno set (ENOENT, EACCES, ...). */
char *cmdline_resolve(const char *prog);

#endif
