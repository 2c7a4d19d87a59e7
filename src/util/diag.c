/*
 * diag.c: the one place that formats cbench's own messages on stderr.
 * Library-style modules fill a message buffer instead (see DIAG_MSG_MAX) and
 * let main.c decide what to print, as curl's tool_msgs.c does.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned warnings;
static bool quiet;        /* --style none: no warnings, no notes */
static bool no_notes;     /* --quiet */

static void vsay(const char *kind, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "cbench: %s", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void diag_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay("error: ", fmt, ap);
	va_end(ap);
}

void diag_warning(const char *fmt, ...)
{
	va_list ap;
	warnings++;
	if (quiet)
		return;
	va_start(ap, fmt);
	vsay("warning: ", fmt, ap);
	va_end(ap);
}

void diag_note(const char *fmt, ...)
{
	va_list ap;
	if (quiet || no_notes)
		return;
	va_start(ap, fmt);
	vsay("note: ", fmt, ap);
	va_end(ap);
}

void diag_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay("error: ", fmt, ap);
	va_end(ap);
	fputs("try 'cbench --help' for more information\n", stderr);
}

unsigned diag_warning_count(void)
{
	return warnings;
}

void diag_set_quiet(bool q)
{
	quiet = q;
}

void diag_set_notes(bool show)
{
	no_notes = !show;
}

void diag_out_of_memory(void)
{
	fputs("cbench: error: out of memory\n", stderr);
	exit(CBENCH_EXIT_FAILURE);
}
