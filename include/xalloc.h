/*
 * xalloc.h: allocation helpers that never return NULL.
 *
 * Ownership rule for the whole project: a function that returns a pointer
 * from one of these hands ownership to the caller, who frees it with free()
 * (or the matching module_free()).  Out of memory prints one line and exits
 * with CBENCH_EXIT_FAILURE; there is no sensible recovery in a benchmark tool.
 */
#ifndef CBENCH_XALLOC_H
#define CBENCH_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xreallocarray(void *ptr, size_t nmemb, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow *ptr (of *cap elements of size elem) so that it holds at least need. */
void xgrow(void **ptr, size_t *cap, size_t need, size_t elem);

#endif
