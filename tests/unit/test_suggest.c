/*
 * Unit tests: suggest.c.  The distances are the textbook ones of the
 * optimal string alignment distance (Wikipedia, "Damerau-Levenshtein
 * distance": kitten/sitting 3, CA/ABC 3 where unrestricted
 * Damerau-Levenshtein gives 2, a swap of neighbours 1).
 */
#include "suggest.h"
#include "unit.h"

#include <string.h>

#define D(a, b) suggest_distance(a, strlen(a), b, strlen(b))

static void distances(void)
{
	CHECK(D("kitten", "sitting") == 3);
	CHECK(D("CA", "ABC") == 3);
	CHECK(D("ca", "ac") == 1);
	CHECK(D("", "abc") == 3);
	CHECK(D("abc", "") == 3);
	CHECK(D("warmup", "warmup") == 0);
	CHECK(D("warmups", "warmup") == 1);
	CHECK(D("exprot", "export") == 1);
}

static void names(void)
{
	const char *opts[] = {"warmup", "runs", "export-json", "export-csv",
			      "alpha", NULL, "min-runs"};
	size_t n = sizeof opts / sizeof *opts;
#define S(w) suggest_name(w, strlen(w), opts, n)
	CHECK(S("warmups") && strcmp(S("warmups"), "warmup") == 0);
	CHECK(S("runz") && strcmp(S("runz"), "runs") == 0);
	CHECK(S("warm") && strcmp(S("warm"), "warmup") == 0);       /* a prefix */
	CHECK(S("exprot-json") && strcmp(S("exprot-json"), "export-json") == 0);
	CHECK(S("export") == NULL);          /* a prefix of two: no guess */
	CHECK(S("colour") == NULL);          /* nothing near */
	CHECK(S("x") == NULL);
	CHECK(S("alhpa") && strcmp(S("alhpa"), "alpha") == 0);
#undef S
}

int main(void)
{
	RUN(distances);
	RUN(names);
	UNIT_EXIT();
}
