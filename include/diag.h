/*
 * diag.h: every message cbench prints to the user about itself goes through
 * here, so the format is the same everywhere:
 *
 *     cbench: error: command 'nosuchprog' not found
 *     cbench: warning: ...
 *
 * The functions add the newline.  Exit codes live here too: one enum, listed
 * in --help and the README.
 */
#ifndef CBENCH_DIAG_H
#define CBENCH_DIAG_H

#include <stdbool.h>

enum cbench_exit {
	CBENCH_EXIT_OK = 0,
	CBENCH_EXIT_FAILURE = 1,     /* a command failed, could not run, or I/O failed */
	CBENCH_EXIT_USAGE = 2,       /* bad option, value or input file */
	CBENCH_EXIT_REGRESSION = 3,  /* a performance gate found a regression */
	CBENCH_EXIT_UNRESOLVED = 4,  /* --require-resolution: a gate passed a
					benchmark it could not resolve */
	CBENCH_EXIT_SIGINT = 130,    /* interrupted by SIGINT (results kept) */
	CBENCH_EXIT_SIGTERM = 143,   /* terminated by SIGTERM (results kept) */
};

/* Size of message buffers filled by library-style modules. */
#define DIAG_MSG_MAX 512

void diag_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void diag_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A usage error: the message, then a hint line pointing at --help. */
void diag_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for a subcommand: the hint points at 'cbench SUB --help'. */
void diag_usage_sub(const char *sub, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* "cbench: error: out of memory", then exit 1: the end of every failed
 * allocation (xalloc.c). */
void diag_out_of_memory(void) __attribute__((noreturn));

/* quiet: no warnings and no notes (--style none); errors always show. */
void diag_set_quiet(bool quiet);
/* show false: no notes (--quiet). */
void diag_set_notes(bool show);

#endif
