/*
 * numfmt.h: fast, exact decimal formatting of doubles for the exporters.
 *
 * Each function writes exactly the bytes a printf-based original writes
 * (documented on each), only faster: a million-run export prints tens of
 * millions of numbers, and glibc's printf/strtod pair costs about a
 * microsecond each.  Values outside the fast path's range (below about
 * 1e-11 or above 1e38, subnormals) go through printf itself.
 *
 * buf must hold NUMFMT_MAX bytes; the functions return the length written
 * (no terminating NUL unless said).
 */
#ifndef CBENCH_NUMFMT_H
#define CBENCH_NUMFMT_H

#include <stddef.h>

#define NUMFMT_MAX 32

/* snprintf(buf, NUMFMT_MAX, "%.<prec>g", v) for 1 <= prec <= 17 and any v;
 * NUL-terminated. */
size_t numfmt_g(char *buf, double v, int prec);

/* The shortest of "%.15g", "%.16g", "%.17g" that strtod reads back as v;
 * "" for NaN and infinities (export_number's format); NUL-terminated. */
size_t numfmt_shortest(char *buf, double v);

/* numfmt_shortest for JSON: "null" for NaN and infinities.
 * NUL-terminated. */
size_t numfmt_json(char *buf, double v);

/* Make every number of a cJSON tree print as numfmt_json would: each
 * number node becomes a raw node with that text.  cJSON's own printing
 * accepts a decimal that reads back within DBL_EPSILON of the value, one
 * unit in the last place off about one time in twenty; this reads back
 * exactly.  Returns 0, or -1 when out of memory (the tree still prints,
 * the nodes not yet made raw as cJSON would). */
struct cJSON;
int numfmt_json_exact(struct cJSON *root);

#endif
