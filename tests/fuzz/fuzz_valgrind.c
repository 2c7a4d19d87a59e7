/*
 * fuzz_valgrind: libFuzzer target for the Valgrind output readers.  The
 * input is one file's text, read as a cachegrind file (vgout_add_text)
 * and as a callgrind file (profile_add_text); a profile that reads is
 * then diffed against itself and made into a flame tree and a
 * differential one, which walks every function, call and path of it.
 * Besides not crashing: a rejection always says why, a diff of a profile
 * against itself changes nothing, and a flame tree's children never
 * exceed their parent.
 */
#include "profile.h"
#include "vgout.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_tree(const struct flame_tree *t)
{
	for (size_t n = 0; n < t->n; n++) {
		double sum = 0;
		for (size_t i = 0; i < t->nodes[n].n_children; i++)
			sum += t->nodes[t->nodes[n].first_child + i].value;
		if (sum > t->nodes[n].value * (1 + 1e-9) + 1e-9)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	/* Not NUL-terminated on purpose: the readers are given a length. */
	char *text = malloc(size ? size : 1);
	memcpy(text, data, size);
	struct sim_counts c = {0};
	err[0] = '\0';
	if (vgout_add_text(&c, text, size, "fuzz.out", err, sizeof err) < 0 && err[0] == '\0')
		abort();
	(void)vgout_estimated_cycles(&c);
	struct profile *p = profile_new();
	err[0] = '\0';
	if (profile_add_text(p, text, size, "fuzz.out", err, sizeof err) == 0) {
		struct profile_diff d;
		if (profile_diff(p, p, VG_IR, &d, err, sizeof err) == 0) {
			for (size_t i = 0; i < d.n; i++)
				if (d.d[i].points != 0 && !isnan(d.d[i].points))
					abort();
			profile_diff_free(&d);
		}
		struct flame_tree t;
		if (profile_flame(p, VG_IR, NULL, &t, err, sizeof err) == 0) {
			check_tree(&t);
			profile_flame_free(&t);
		}
		struct flame_diff fd;
		if (profile_flame_diff(p, p, VG_IR, NULL, &fd, err, sizeof err) == 0)
			profile_flame_diff_free(&fd);
	} else if (err[0] == '\0') {
		abort();
	}
	profile_free(p);
	free(text);
	return 0;
}
