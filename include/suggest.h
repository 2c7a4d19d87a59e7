/*
 * suggest.h: "did you mean" for a mistyped name.
 *
 * The distance is Damerau-Levenshtein's (optimal string alignment: an
 * insertion, a deletion, a substitution or a swap of two neighbours each
 * cost 1), the measure git and clap use for the same purpose.  Library-
 * style: nothing here prints or exits.
 */
#ifndef CBENCH_SUGGEST_H
#define CBENCH_SUGGEST_H

#include <stddef.h>

/* The edit distance between a[0..na) and b[0..nb). */
size_t suggest_distance(const char *a, size_t na, const char *b, size_t nb);

/*
 * The one of names[0..n) (NULLs skipped) closest to word[0..len), when it
 * is close enough to be what was meant: at most a third of the longer
 * name's length away (and at least 1), or word is its prefix of at least
 * 3 characters.  NULL when none is, or when two are equally close.
 */
const char *suggest_name(const char *word, size_t len, const char *const *names,
			 size_t n);

#endif
