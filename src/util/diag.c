/*
 * diag.c: the one place that formats cbench's own messages on stderr.
 * Library-style modules fill a message buffer instead (see DIAG_MSG_MAX) and
 * let main.c decide what to print, as curl's tool_msgs.c does.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static bool quiet;        /* --style none: no warnings, no notes */
static bool no_notes;     /* --quiet */

/* Columns of stderr when it is a terminal, else 0. */
static int term_width(void)
{
	struct winsize ws;
	if (isatty(STDERR_FILENO) && ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0)
		return ws.ws_col;
	return 0;
}

/*
 * "cbench: KIND text": on a terminal wrapped at spaces to its width (a
 * word longer than a line stands alone), the continuation lines indented
 * under the text; elsewhere one line, for grep and logs.
 */
static void vsay(const char *kind, const char *fmt, va_list ap)
{
	char raw[4 * DIAG_MSG_MAX], text[4 * DIAG_MSG_MAX];
	vsnprintf(raw, sizeof raw, fmt, ap);
	/* Control characters (from a command line, a name) shown escaped: no
	 * line of a message starts with a "::error" workflow command. */
	size_t k = 0;
	for (const unsigned char *u = (const unsigned char *)raw;
	     *u && k + 5 < sizeof text; u++) {
		if (*u == '\n')
			k += (size_t)snprintf(text + k, 5, "\\n");
		else if (*u == '\t')
			k += (size_t)snprintf(text + k, 5, "\\t");
		else if (*u < 0x20 || *u == 0x7f)
			k += (size_t)snprintf(text + k, 5, "\\x%02x", *u);
		else
			text[k++] = (char)*u;
	}
	text[k] = '\0';
	fflush(stdout);
	int indent = fprintf(stderr, "cbench: %s", kind);
	int width = term_width();
	if (width <= indent + 20) {
		fprintf(stderr, "%s\n", text);
		return;
	}
	int col = indent;
	for (const char *p = text; *p;) {
		size_t len = strcspn(p, " ");
		int w = 0;
		for (size_t i = 0; i < len; i++)
			w += ((unsigned char)p[i] & 0xC0) != 0x80;
		if (col > indent && col + 1 + w > width - 1) {
			fprintf(stderr, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', stderr);
			col++;
		}
		fprintf(stderr, "%.*s", (int)len, p);
		col += w;
		p += len;
		while (*p == ' ')
			p++;
	}
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

void diag_usage_sub(const char *sub, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay("error: ", fmt, ap);
	va_end(ap);
	fprintf(stderr, "try 'cbench %s --help' for more information\n", sub);
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
