/*
 * xalloc.c: allocation wrappers that end cbench on out-of-memory (through
 * the diagnostics module), in the manner of tmux's xmalloc.c.  Callers
 * never check for NULL.
 */
#include "xalloc.h"
#include "diag.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(void)
{
	diag_out_of_memory();
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (p == NULL)
		oom();
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (p == NULL)
		oom();
	return p;
}

void *xreallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size != 0 && nmemb > SIZE_MAX / size)
		oom();
	size_t bytes = nmemb * size;
	void *p = realloc(ptr, bytes ? bytes : 1);
	if (p == NULL)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	return s;
}

void xgrow(void **ptr, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return;
	size_t ncap = *cap ? *cap : 8;
	while (ncap < need)
		ncap *= 2;
	*ptr = xreallocarray(*ptr, ncap, elem);
	*cap = ncap;
}
