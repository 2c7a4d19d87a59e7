/*
 * Unit tests: numfmt.c against the C library it replaces, and its exact
 * JSON numbers against cJSON's own.  Every
 * value is formatted both ways and the bytes compared: run times as the
 * engine makes them (nanoseconds and microseconds scaled to seconds), the
 * synthetic times of tests/bench/backend.c, random doubles of every
 * magnitude, integers, and decimal halfway cases (ties to even).
 */
#include "numfmt.h"
#include "unit.h"

#include <cJSON.h>
#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

static uint64_t rng = 0x2545F4914F6CDD1Du;
static uint64_t next(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717u;
}

static double uniform(void)
{
	return (double)(next() >> 11) * 0x1.0p-53;
}

/* The i-th test value: a mix of every kind above. */
static double sample(unsigned i)
{
	double u = uniform();
	switch (i % 9) {
	case 0:
		return (double)(next() % 100000000000u) * 1e-9;
	case 1:
		return (double)(next() % 100000000u) * 1e-6;
	case 2:
		return 1e-3 * (1 + 0.05 * u);
	case 3: {
		uint64_t bits = next();
		double v;
		memcpy(&v, &bits, sizeof v);
		return isfinite(v) ? v : u;
	}
	case 4:
		return ldexp(u, (int)(next() % 200) - 100);
	case 5:
		return (double)(next() % 5000000000u) - 1e9;
	case 6:
		/* d.ddd5 and similar exact binary halfway cases */
		return (double)(next() % 100000 * 2 + 1) / (double)(1u << (next() % 20));
	case 7:
		return -u * pow(10, (double)(next() % 40) - 20);
	default:
		return nextafter(pow(10, (double)(next() % 60) - 30), (next() & 1) ? 0 : 1e300);
	}
}

static void same_as_printf(void)
{
	for (unsigned i = 0; i < 300000; i++) {
		double v = sample(i);
		int prec = 1 + (int)(i % 17);
		char want[64], got[NUMFMT_MAX];
		snprintf(want, sizeof want, "%.*g", prec, v);
		size_t len = numfmt_g(got, v, prec);
		CHECK(len == strlen(want));
		CHECK_STR(got, want);
	}
}

static void same_as_export_number(void)
{
	for (unsigned i = 0; i < 300000; i++) {
		double v = sample(i);
		char want[64], got[NUMFMT_MAX];
		for (int prec = 15; prec <= 17; prec++) {
			snprintf(want, sizeof want, "%.*g", prec, v);
			if (strtod(want, NULL) == v)
				break;
		}
		size_t len = numfmt_shortest(got, v);
		if (len != strlen(want) || strcmp(got, want) != 0)
			printf("  %.17g: numfmt \"%s\", printf \"%s\"\n", v, got, want);
		CHECK(len == strlen(want));
		CHECK_STR(got, want);
	}
	char buf[NUMFMT_MAX];
	CHECK(numfmt_shortest(buf, NAN) == 0 && buf[0] == '\0');
	CHECK(numfmt_shortest(buf, -INFINITY) == 0 && buf[0] == '\0');
	numfmt_shortest(buf, -0.0);
	CHECK_STR(buf, "-0");
}

/* numfmt_json_exact: every number of a printed tree reads back as the
 * same double.  cJSON's own printing (a decimal of 15 digits that reads
 * back within DBL_EPSILON) misses some; the count is printed, and must be
 * above zero for this test to mean anything. */
static void json_numbers_read_back_exactly(void)
{
	size_t off_by_cjson = 0, n = 0;
	for (unsigned i = 0; i < 100000; i++) {
		double v = sample(i);
		if (!isfinite(v))
			continue;
		cJSON *plain = cJSON_CreateNumber(v), *exact = cJSON_CreateArray();
		cJSON_AddItemToArray(exact, cJSON_CreateNumber(v));
		cJSON_AddItemToArray(exact, cJSON_CreateNumber(NAN));
		CHECK(numfmt_json_exact(exact) == 0);
		char *a = cJSON_PrintUnformatted(plain), *b = cJSON_PrintUnformatted(exact);
		off_by_cjson += a && strtod(a, NULL) != v;
		char want[2 * NUMFMT_MAX + 8];
		char num[NUMFMT_MAX];
		numfmt_shortest(num, v);
		snprintf(want, sizeof want, "[%s,null]", num);
		bool ok = b && strcmp(b, want) == 0 && strtod(b + 1, NULL) == v;
		if (!ok)
			printf("  %.17g: \"%s\", want \"%s\"\n", v, b ? b : "(null)", want);
		CHECK(ok);
		n++;
		cJSON_free(a);
		cJSON_free(b);
		cJSON_Delete(plain);
		cJSON_Delete(exact);
	}
	printf("  %zu of %zu numbers read back otherwise from cJSON's printing\n",
	       off_by_cjson, n);
	CHECK(off_by_cjson > 0);
}

int main(void)
{
	RUN(same_as_printf);
	RUN(same_as_export_number);
	RUN(json_numbers_read_back_exactly);
	UNIT_EXIT();
}
