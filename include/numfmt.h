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

/* What cJSON 1.7's print_number writes for cJSON_CreateNumber(v): "null"
 * for NaN and infinities, else "%1.15g" unless reading that back differs
 * from v by more than cJSON's relative tolerance (DBL_EPSILON), then
 * "%1.17g".  Not NUL-terminated. */
size_t numfmt_cjson(char *buf, double v);

#endif
