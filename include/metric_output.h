/*
 * metric_output.h: custom metrics read from a command's output
 * (--metric NAME=REGEX[,unit=U][,higher-is-better]).
 *
 * The definition is parsed and the metric defined once (metric_define in
 * results.h, where its name, unit, direction and pattern then live for the
 * process).  While benchmarks run, each command's output (stdout and
 * stderr, which cbench sends to one place) goes to a memory file, or to the
 * --output FILE, and after every measured run the first line that matches
 * each pattern gives that metric's value: the first parenthesised group if
 * the pattern has one, else the whole match, which must read as a number.
 *
 * Patterns are PCRE2's (Perl-compatible regular expressions), matched
 * against each line without its newline, within PCRE2's match, depth and
 * heap limits; the output is read a block at a time (a line is searched in
 * its first MiB), so memory stays bounded.  Library-style: nothing here
 * prints or exits.
 */
#ifndef CBENCH_METRIC_OUTPUT_H
#define CBENCH_METRIC_OUTPUT_H

#include "results.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Parse "NAME=REGEX[,unit=U][,higher-is-better|,lower-is-better]", check
 * that REGEX compiles and define the metric.  Returns its id, or -1 with a
 * message. */
int metric_output_define(const char *spec, char *err, size_t errlen);

/* How a line search ended. */
enum metric_scan {
	METRIC_FOUND,
	METRIC_NO_MATCH,     /* no line matches the pattern */
	METRIC_NOT_NUMBER,   /* the first match is not a number (in why) */
	METRIC_LIMIT,        /* PCRE2's limits stopped the search (in why),
				or the pattern does not compile */
};

/* The value of the first line of text[0..len) that pattern matches. */
enum metric_scan metric_output_scan(const char *pattern, const char *text,
				    size_t len, double *value, char *why,
				    size_t whylen);

/* The compiled patterns of every custom metric that has one. */
struct metric_output;

/* NULL when no custom metric is defined; -1 in *rc with a message when a
 * pattern does not compile or the memory file cannot be made. */
struct metric_output *metric_output_open(int *rc, char *err, size_t errlen);
void metric_output_free(struct metric_output *mo);

/* The memory file commands write their output to (truncated by
 * metric_output_rewind before each run). */
int metric_output_fd(const struct metric_output *mo);
void metric_output_rewind(struct metric_output *mo);

/*
 * Read what fd received from offset from on (the memory file, or an
 * --output FILE opened for reading too) and fill v[m] for every custom
 * metric.  Returns -1 when a metric has no value: *missing is its id and
 * why says what was wrong (the value is NaN); 0 when all were found; -2
 * with why on a read error.
 */
int metric_output_read(struct metric_output *mo, int fd, off_t from,
		       double v[MET_COUNT], int *missing, char *why,
		       size_t whylen);

#endif
