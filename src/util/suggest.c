/*
 * suggest.c: "did you mean" for a mistyped name (see suggest.h).
 */
#include "suggest.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define SUGGEST_MAX 64   /* longer words are not corrected */

size_t suggest_distance(const char *a, size_t na, const char *b, size_t nb)
{
	if (na > SUGGEST_MAX || nb > SUGGEST_MAX)
		return (size_t)-1;
	/* Three rows of the dynamic programme: i - 2, i - 1 and i. */
	size_t rows[3][SUGGEST_MAX + 1];
	size_t *pp = rows[0], *p = rows[1], *c = rows[2];
	for (size_t j = 0; j <= nb; j++)
		p[j] = j;
	for (size_t i = 1; i <= na; i++) {
		c[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t d = p[j] + 1;
			if (c[j - 1] + 1 < d)
				d = c[j - 1] + 1;
			if (p[j - 1] + cost < d)
				d = p[j - 1] + cost;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && pp[j - 2] + 1 < d)
				d = pp[j - 2] + 1;
			c[j] = d;
		}
		size_t *t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[nb];
}

const char *suggest_name(const char *word, size_t len, const char *const *names,
			 size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	bool tie = false;
	for (size_t k = 0; k < n; k++) {
		if (names[k] == NULL)
			continue;
		size_t nl = strlen(names[k]);
		size_t d = suggest_distance(word, len, names[k], nl);
		if (len >= 3 && len < nl && strncmp(word, names[k], len) == 0)
			d = 1;   /* a prefix: --warm for --warmup */
		size_t longer = nl > len ? nl : len, limit = longer / 3;
		if (limit < 1)
			limit = 1;
		if (d > limit)
			continue;
		if (d < best_d) {
			best = names[k];
			best_d = d;
			tie = false;
		} else if (d == best_d && strcmp(names[k], best) != 0) {
			tie = true;
		}
	}
	return tie ? NULL : best;
}
