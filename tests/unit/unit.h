/*
 * unit.h: a tiny unit-test harness.  Each test is a void function run with
 * RUN(); it prints "PASS name", "FAIL name: where: what" or
 * "SKIP name: reason", which tests/run.sh counts.
 *
 * A failed CHECK returns from the test at once, before any cleanup at its
 * end: state a test file shares between tests (a fake kernel, replaced
 * operations) is put back by UNIT_AFTER_EACH(fn), which RUN calls after
 * every test, passed or not.
 */
#ifndef CBENCH_UNIT_H
#define CBENCH_UNIT_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *unit_name;
static int unit_state; /* 0 ok, 1 failed, 2 skipped */
static int unit_failures;
static void (*unit_after_each)(void);

/* Call fn after every test (set once, in main, before the first RUN). */
#define UNIT_AFTER_EACH(fn) (unit_after_each = (fn))

#define CHECK(cond)                                                          \
	do {                                                                 \
		if (!(cond)) {                                               \
			printf("FAIL %s: %s:%d: %s\n", unit_name, __FILE__,  \
			       __LINE__, #cond);                             \
			unit_state = 1;                                      \
			return;                                              \
		}                                                            \
	} while (0)

/* |a - b| <= tol, printing both values on failure. */
#define CHECK_NEAR(a, b, tol)                                                \
	do {                                                                 \
		double ua_ = (a), ub_ = (b), ut_ = (tol);                    \
		if (!(fabs(ua_ - ub_) <= ut_)) {                             \
			printf("FAIL %s: %s:%d: %s = %.17g, expected %.17g " \
			       "(tolerance %g)\n", unit_name, __FILE__,      \
			       __LINE__, #a, ua_, ub_, ut_);                 \
			unit_state = 1;                                      \
			return;                                              \
		}                                                            \
	} while (0)

/* lo < a < hi, printing a when it is not. */
#define CHECK_BETWEEN(a, lo, hi)                                             \
	do {                                                                 \
		double ua_ = (a), ul_ = (lo), uh_ = (hi);                    \
		if (!(ua_ > ul_ && ua_ < uh_)) {                             \
			printf("FAIL %s: %s:%d: %s = %.17g, expected "       \
			       "between %g and %g\n", unit_name, __FILE__,   \
			       __LINE__, #a, ua_, ul_, uh_);                 \
			unit_state = 1;                                      \
			return;                                              \
		}                                                            \
	} while (0)

/* Relative tolerance: |a - b| <= rel * |b|. */
#define CHECK_REL(a, b, rel) CHECK_NEAR(a, b, fabs((double)(b)) * (rel))

#define CHECK_STR(a, b)                                                      \
	do {                                                                 \
		const char *ua_ = (a), *ub_ = (b);                           \
		if (ua_ == NULL || strcmp(ua_, ub_) != 0) {                  \
			printf("FAIL %s: %s:%d: %s = \"%s\", expected \"%s\"\n", \
			       unit_name, __FILE__, __LINE__, #a,            \
			       ua_ ? ua_ : "(null)", ub_);                   \
			unit_state = 1;                                      \
			return;                                              \
		}                                                            \
	} while (0)

#define SKIP(reason)                                                         \
	do {                                                                 \
		printf("SKIP %s: %s\n", unit_name, reason);                  \
		unit_state = 2;                                              \
		return;                                                      \
	} while (0)

#define RUN(fn)                                                              \
	do {                                                                 \
		unit_name = #fn;                                             \
		unit_state = 0;                                              \
		fn();                                                        \
		if (unit_after_each)                                         \
			unit_after_each();                                   \
		if (unit_state == 0)                                         \
			printf("PASS %s\n", #fn);                            \
		else if (unit_state == 1)                                    \
			unit_failures++;                                     \
		fflush(stdout);                                              \
	} while (0)

#define UNIT_EXIT() return unit_failures ? 1 : 0

#endif
