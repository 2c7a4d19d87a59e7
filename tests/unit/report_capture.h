/*
 * report_capture.h: for unit tests of the terminal report, what
 * text_bench_report writes to stdout and stderr, as one string.
 */
#ifndef CBENCH_TEST_REPORT_CAPTURE_H
#define CBENCH_TEST_REPORT_CAPTURE_H

#include "analysis.h"
#include "export_text.h"
#include "results.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The report of r into a string the caller frees ("" if it cannot be
 * read back). */
static inline char *capture_report(const struct text_style *st,
				   const struct bench_result *r,
				   const struct analysis_bench *ab)
{
	char path[] = "/tmp/cbench-report-XXXXXX";
	int fd = mkstemp(path);
	fflush(stdout);
	fflush(stderr);
	int saved = dup(1), saved2 = dup(2);
	dup2(fd, 1);
	dup2(fd, 2);
	text_bench_report(st, r, ab);
	fflush(stdout);
	fflush(stderr);
	dup2(saved, 1);
	dup2(saved2, 2);
	close(saved);
	close(saved2);
	off_t n = lseek(fd, 0, SEEK_END);
	char *text = calloc(1, n > 0 ? (size_t)n + 1 : 1);
	if (n > 0 && pread(fd, text, (size_t)n, 0) != n)
		text[0] = '\0';
	close(fd);
	unlink(path);
	return text;
}

#endif
