/*
 * numfmt.c: printf's "%.Ng" without printf (see numfmt.h).
 *
 * A finite double is m 2^q with an integer m < 2^53.  Its first N decimal
 * digits are the integer part of S = m 2^q 10^p for p = N-1-k, k the
 * decimal exponent of the leading digit.  For |p| <= 27 (5^27 < 2^64) S is
 * computed exactly in 128-bit integers as a quotient num/den with a
 * remainder, so the rounding (to nearest, ties to even, as glibc's printf
 * rounds the exact binary value) and the question "does this decimal read
 * back as the same double" (is it inside the interval of reals that round
 * to v, see Clinger 1990, "How to read floating point numbers accurately")
 * are both decided exactly.  Everything else falls back to snprintf and
 * strtod, so the output is always the C library's.
 */
#include "numfmt.h"

#include <cJSON.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__extension__ typedef unsigned __int128 u128;

static const uint64_t pow5[28] = {
	UINT64_C(1), UINT64_C(5), UINT64_C(25), UINT64_C(125), UINT64_C(625),
	UINT64_C(3125), UINT64_C(15625), UINT64_C(78125), UINT64_C(390625),
	UINT64_C(1953125), UINT64_C(9765625), UINT64_C(48828125),
	UINT64_C(244140625), UINT64_C(1220703125), UINT64_C(6103515625),
	UINT64_C(30517578125), UINT64_C(152587890625), UINT64_C(762939453125),
	UINT64_C(3814697265625), UINT64_C(19073486328125),
	UINT64_C(95367431640625), UINT64_C(476837158203125),
	UINT64_C(2384185791015625), UINT64_C(11920928955078125),
	UINT64_C(59604644775390625), UINT64_C(298023223876953125),
	UINT64_C(1490116119384765625), UINT64_C(7450580596923828125),
};

static const uint64_t pow10[19] = {
	UINT64_C(1), UINT64_C(10), UINT64_C(100), UINT64_C(1000),
	UINT64_C(10000), UINT64_C(100000), UINT64_C(1000000),
	UINT64_C(10000000), UINT64_C(100000000), UINT64_C(1000000000),
	UINT64_C(10000000000), UINT64_C(100000000000),
	UINT64_C(1000000000000), UINT64_C(10000000000000),
	UINT64_C(100000000000000), UINT64_C(1000000000000000),
	UINT64_C(10000000000000000), UINT64_C(100000000000000000),
	UINT64_C(1000000000000000000),
};

/* Powers of ten that are exact doubles (Clinger's fast path). */
struct decimal {
	uint64_t x;   /* exactly n digits: 10^(n-1) <= x < 10^n */
	int k;        /* |v| ~ x * 10^(k-n+1) */
	bool exact_rt; /* x * 10^(k-n+1) reads back (strtod) as |v| */
};

/* S = |v| 10^(16-k) = quo + rem/den exactly, 10^16 <= quo < 10^17; a
 * decimal D reads back as v when 2 |D - S| den < gap (4 |D - S| den below S
 * when the gap halves there), or equals it with tie_ok. */
struct scaled {
	u128 quo, rem, den, gap;
	int k;
	bool halve_below, tie_ok;
};

/* Rough log2 of 1 + f for 0 <= f < 1 (within 0.01): only a first guess. */
static double log2_1p(double f)
{
	return f * (1.3466 - 0.3466 * f);
}

/* The 17-digit scaling of a > 0; false outside the fast path's range. */
static bool scale17(double a, struct scaled *sc)
{
	uint64_t bits;
	memcpy(&bits, &a, sizeof bits);
	int be = (int)((bits >> 52) & 0x7ff);
	if (be == 0 || be == 0x7ff)
		return false; /* subnormal, infinite or NaN */
	uint64_t frac = bits & ((UINT64_C(1) << 52) - 1);
	uint64_t m = frac | (UINT64_C(1) << 52);
	int q = be - 1075;
	double l2 = (double)(be - 1023) + log2_1p((double)frac * 0x1.0p-52);
	double kf = l2 * 0.30102999566398119521;
	int k = (int)kf - (kf < 0 && kf != (int)kf); /* floor */
	for (int tries = 0; tries < 4; tries++) {
		int p = 16 - k;
		u128 quo, rem, den, gap;
		if (p > 27 || p < -27)
			return false;
		if (p >= 0) {
			u128 num = (u128)m * pow5[p];
			int s = q + p;
			if (s >= 0) {
				if (s > 60)
					return false;
				quo = num << s;
				rem = 0;
				den = 1;
				gap = (u128)pow5[p] << s;
			} else {
				int t = -s;
				if (t > 120)
					return false;
				den = (u128)1 << t;
				quo = num >> t;
				rem = num & (den - 1);
				gap = pow5[p];
			}
		} else {
			int s = q + p; /* S = m 2^s / 5^-p */
			if (s >= 0) {
				if (s > 70)
					return false;
				u128 num = (u128)m << s;
				den = pow5[-p];
				quo = num / den;
				rem = num % den;
				gap = (u128)1 << s;
			} else {
				if (-s > 63)
					return false;
				den = (u128)pow5[-p] << -s;
				quo = m / den;
				rem = m % den;
				gap = 1;
			}
		}
		if (quo >= pow10[17]) {
			k++;
			continue;
		}
		if (quo < pow10[16]) {
			k--;
			continue;
		}
		sc->quo = quo;
		sc->rem = rem;
		sc->den = den;
		sc->gap = gap;
		sc->k = k;
		sc->halve_below = m == (UINT64_C(1) << 52) && be > 1;
		sc->tie_ok = (m & 1) == 0;
		return true;
	}
	return false;
}

/* The n (1..17) digit decimal of S, rounded to nearest, ties to even (as
 * glibc's printf rounds the exact value), and whether it reads back. */
static void round_to(const struct scaled *sc, int n, struct decimal *out)
{
	uint64_t quo = (uint64_t)sc->quo;
	/* constant divisors: the compiler multiplies instead of dividing */
	uint64_t pj, xt, r;
	switch (n) {
	case 17:
		pj = 1, xt = quo, r = 0;
		break;
	case 16:
		pj = 10, xt = quo / 10, r = quo % 10;
		break;
	case 15:
		pj = 100, xt = quo / 100, r = quo % 100;
		break;
	default:
		pj = pow10[17 - n], xt = quo / pj, r = quo % pj;
	}
	bool up;
	if (n == 17) {
		u128 other = sc->den - sc->rem;
		up = sc->rem > other || (sc->rem == other && (xt & 1));
	} else {
		uint64_t half = pj / 2;
		up = r > half || (r == half && (sc->rem > 0 || (xt & 1)));
	}
	uint64_t x = xt + up;
	/* D - S = R - rem/den in units of the 17th digit */
	int64_t R = up ? (int64_t)(pj - r) : -(int64_t)r;
	bool rt;
	if (R == 0 && sc->rem == 0) {
		rt = true;
	} else if ((R >= 2 || R <= -1) && sc->den >= sc->gap) {
		rt = false; /* |D - S| den >= den >= gap */
	} else {
		bool below = R <= 0;
		u128 dd = R > 0 ? (u128)R * sc->den - sc->rem
				: (u128)(-R) * sc->den + sc->rem;
		if (dd >= sc->gap) {
			rt = false;
		} else {
			u128 d = below && sc->halve_below ? 4 * dd : 2 * dd;
			rt = d < sc->gap || (d == sc->gap && sc->tie_ok);
		}
	}
	out->k = sc->k;
	if (x == pow10[n]) {
		x = pow10[n - 1];
		out->k++;
	}
	out->x = x;
	out->exact_rt = rt;
}

static bool to_decimal(double a, int n, struct decimal *out)
{
	struct scaled sc;
	if (!scale17(a, &sc))
		return false;
	round_to(&sc, n, out);
	return true;
}

static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"68697071727374757677787980818283848586878889909192939495969798"
	"99";

/* The n (<= 9) digits of x < 10^9 into d[0..n). */
static void put_digits32(char *d, uint32_t x, int n)
{
	int i = n;
	while (i >= 2) {
		unsigned r = x % 100;
		x /= 100;
		d[--i] = digit_pairs[2 * r + 1];
		d[--i] = digit_pairs[2 * r];
	}
	if (i == 1)
		d[0] = (char)('0' + x);
}

/* The n (<= 18) digits of x into d[0..n): two halves in 32-bit
 * arithmetic. */
static void put_digits(char *d, uint64_t x, int n)
{
	if (n <= 9) {
		put_digits32(d, (uint32_t)x, n);
		return;
	}
	put_digits32(d + n - 9, (uint32_t)(x % 1000000000), 9);
	put_digits32(d, (uint32_t)(x / 1000000000), n - 9);
}

/* "%.<n>g" of the decimal, with sign; the digits are written in place
 * and moved by one where the point goes. */
static size_t print_g(char *buf, bool neg, const struct decimal *dec, int n)
{
	char *o = buf, *end;
	if (neg)
		*o++ = '-';
	int k = dec->k;
	if (k < -4 || k >= n) {
		put_digits(o + 1, dec->x, n);
		o[0] = o[1];
		o[1] = '.';
		end = o + n + 1;
		while (end > o + 2 && end[-1] == '0')
			end--;
		if (end == o + 2)
			end--; /* no fraction: no point */
		*end++ = 'e';
		*end++ = k < 0 ? '-' : '+';
		int ak = abs(k);
		if (ak >= 100)
			*end++ = (char)('0' + ak / 100);
		*end++ = (char)('0' + ak / 10 % 10);
		*end++ = (char)('0' + ak % 10);
	} else if (k >= 0) {
		/* k+1 integer digits, the point, the rest without trailing
		 * zeros */
		put_digits(o + 1, dec->x, n);
		for (int i = 0; i <= k; i++)
			o[i] = o[i + 1];
		o[k + 1] = '.';
		end = o + n + 1;
		while (end > o + k + 2 && end[-1] == '0')
			end--;
		if (end == o + k + 2)
			end--;
	} else {
		*o++ = '0';
		*o++ = '.';
		for (int z = -1; z > k; z--)
			*o++ = '0';
		put_digits(o, dec->x, n);
		end = o + n;
		while (end[-1] == '0') /* the first digit is not 0 */
			end--;
	}
	*end = '\0';
	return (size_t)(end - buf);
}

/* Integral |v| < 2^53: its digits (what %g prints when they fit in prec). */
static size_t print_integer(char *buf, double v)
{
	char *o = buf;
	if (signbit(v)) {
		*o++ = '-';
		v = -v;
	}
	uint64_t x = (uint64_t)v;
	int n = 1;
	while (n < 19 && x >= pow10[n])
		n++;
	put_digits(o, x, n);
	o[n] = '\0';
	return (size_t)(o + n - buf);
}

static bool small_integer(double v, int prec)
{
	return fabs(v) < (double)pow10[prec] && v == trunc(v);
}

size_t numfmt_g(char *buf, double v, int prec)
{
	struct decimal d;
	if (small_integer(v, prec))
		return print_integer(buf, v);
	if (prec < 1 || prec > 17 || !to_decimal(fabs(v), prec, &d))
		return (size_t)snprintf(buf, NUMFMT_MAX, "%.*g", prec, v);
	return print_g(buf, signbit(v), &d, prec);
}

size_t numfmt_shortest(char *buf, double v)
{
	if (!isfinite(v)) {
		buf[0] = '\0';
		return 0;
	}
	if (small_integer(v, 15))
		return print_integer(buf, v);
	struct scaled sc;
	if (scale17(fabs(v), &sc)) {
		struct decimal d;
		for (int prec = 15; prec <= 17; prec++) {
			round_to(&sc, prec, &d);
			if (d.exact_rt || prec == 17)
				return print_g(buf, signbit(v), &d, prec);
		}
	}
	size_t len = 0;
	for (int prec = 15; prec <= 17; prec++) {
		len = (size_t)snprintf(buf, NUMFMT_MAX, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return len;
}

size_t numfmt_json(char *buf, double v)
{
	if (!isfinite(v)) {
		memcpy(buf, "null", 5);
		return 4;
	}
	return numfmt_shortest(buf, v);
}

int numfmt_json_exact(cJSON *root)
{
	for (cJSON *c = root; c; c = c->next) {
		if (c->child && numfmt_json_exact(c->child) != 0)
			return -1;
		if (!cJSON_IsNumber(c))
			continue;
		char buf[NUMFMT_MAX];
		size_t len = numfmt_json(buf, c->valuedouble);
		/* cJSON frees it with its own hooks. */
		char *s = cJSON_malloc(len + 1);
		if (s == NULL)
			return -1;
		memcpy(s, buf, len + 1);
		/* Raw, keeping the flags of the node's key (a constant key
		 * must stay unfreed); a number holds no reference. */
		c->type = (c->type & cJSON_StringIsConst) | cJSON_Raw;
		c->valuestring = s;
	}
	return 0;
}
