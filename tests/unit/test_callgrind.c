/*
 * Unit tests: callgrind.c (callgrind output files into profiles) and
 * profile_diff.c (the diff, the flame trees).
 *
 * Real files are Valgrind 3.19's callgrind of tests/fixtures/valgrind/
 * prog.c (make-fixtures.sh there says how): cl-base/ and cl-slow/ hold the
 * three processes of a traced `sh -c 'prog | cat'` for the plain build
 * and a build whose parse_line does more work (cg.20024 and cg.20027 are
 * prog's); cl-instr.out is prog alone with positions "instr line" and the
 * nine cache events.  The independent numbers are callgrind_annotate's
 * listings of the same files in annotate/ (with and without
 * --inclusive=yes), each use named beside it, and hand computations of
 * the small texts written here.
 */
#include "profile.h"
#include "unit.h"
#include "xalloc.h"

#include <stdlib.h>
#include <unistd.h>

#define FIX "tests/fixtures/valgrind/"
#define BASE_PROG FIX "cl-base/cg.20024"

static char err[512];

static const struct profile_func *find(const struct profile *p, const char *name,
				       const char *object)
{
	for (size_t f = 0; f < p->n_funcs; f++)
		if (strcmp(p->funcs[f].name, name) == 0 &&
		    (object == NULL || strcmp(p->funcs[f].object, object) == 0))
			return &p->funcs[f];
	return NULL;
}

static size_t find_index(const struct profile *p, const char *name)
{
	const struct profile_func *f = find(p, name, NULL);
	return f ? (size_t)(f - p->funcs) : PROFILE_NONE;
}

static struct profile *read_file(const char *path)
{
	struct profile *p = profile_new();
	if (profile_add_file(p, path, err, sizeof err) < 0) {
		printf("# %s\n", err);
		profile_free(p);
		return NULL;
	}
	return p;
}

static struct profile *read_dir(const char *dir)
{
	struct profile *p = profile_new();
	size_t n;
	if (profile_add_dir(p, dir, "cg.", &n, err, sizeof err) < 0 || n != 3) {
		printf("# %s\n", err);
		profile_free(p);
		return NULL;
	}
	return p;
}

static struct profile *read_text(const char *text)
{
	struct profile *p = profile_new();
	if (profile_add_text(p, text, strlen(text), "t.out", err, sizeof err) < 0) {
		printf("# %s\n", err);
		profile_free(p);
		return NULL;
	}
	return p;
}

/* ---- callgrind_annotate's listings ---- */

struct listed {
	char key[512];      /* "file:function" */
	char object[256];   /* "" for callgrind_annotate's lines of inlined code */
	double cost;        /* the first event's */
};

/* The function lines of a callgrind_annotate listing (after its last
 * "file:function" heading). */
static struct listed *read_listing(const char *path, size_t *n)
{
	FILE *f = fopen(path, "r");
	struct listed *out = NULL;
	size_t cap = 0;
	char line[2048];
	bool body = false;
	*n = 0;
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strstr(line, "file:function") != NULL) {
			body = true;
			continue;
		}
		char *close = strstr(line, "%)");
		if (!body || close == NULL)
			continue;
		xgrow((void **)&out, &cap, *n + 1, sizeof *out);
		struct listed *l = &out[(*n)++];
		l->cost = 0;
		for (char *s = line; *s && s < close; s++)
			if (*s >= '0' && *s <= '9')
				l->cost = l->cost * 10 + (*s - '0');
			else if (*s == ' ' && l->cost > 0)
				break;   /* the percentage follows */
		char *name = close + 2;
		while (*name == ' ')
			name++;
		char *obj = strstr(name, " [");
		l->object[0] = '\0';
		if (obj != NULL && obj[strlen(obj) - 1] == ']') {
			snprintf(l->object, sizeof l->object, "%.*s", (int)strlen(obj + 2) - 1, obj + 2);
			*obj = '\0';
		}
		snprintf(l->key, sizeof l->key, "%s", name);
	}
	if (f != NULL)
		fclose(f);
	return out;
}

/* The sum of self or incl over p's functions with this file:name key
 * (callgrind_annotate adds up the objects of one file:function). */
static double sum_key(const struct profile *p, const char *key, bool incl, bool any_file)
{
	const char *colon = strchr(key, ':');
	double s = 0;
	for (size_t f = 0; f < p->n_funcs; f++) {
		const struct profile_func *fn = &p->funcs[f];
		size_t flen = strlen(fn->file);
		bool same_file = (size_t)(colon - key) == flen && strncmp(key, fn->file, flen) == 0;
		if (strcmp(fn->name, colon + 1) == 0 && (any_file || same_file))
			s += incl ? fn->incl[VG_IR] : fn->self[VG_IR];
	}
	return s;
}

/* Self costs: the profile's total is the file's totals: line, and each
 * function's self cost is callgrind_annotate's.  callgrind_annotate lists
 * inlined code (fi=/fe= lines) as functions "file:name" of their own, so
 * self costs are compared by name: the profile's functions of that name
 * against every line of the listing with that name. */
static void self_costs_match_annotate(void)
{
	struct profile *p = read_file(BASE_PROG);
	CHECK(p != NULL);
	CHECK(p->files == 1 && p->has[VG_IR] && !p->has[VG_DR]);
	CHECK(isnan(p->total[VG_DR]));
	CHECK(p->total[VG_IR] == 188129);      /* its totals: line */
	size_t n;
	struct listed *l = read_listing(FIX "annotate/cl-base-cg.20024.txt", &n);
	CHECK(n > 300);
	double listed_total = 0;
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		listed_total += l[i].cost;
		double want = 0;
		const char *name = strchr(l[i].key, ':') + 1;
		for (size_t j = 0; j < n; j++)
			if (strcmp(strchr(l[j].key, ':') + 1, name) == 0)
				want += l[j].cost;
		char key[600];
		snprintf(key, sizeof key, "?:%s", name);
		if (sum_key(p, key, false, true) != want && bad++ < 5)
			printf("# self of %s: %.0f, callgrind_annotate %.0f\n", name,
			       sum_key(p, key, false, true), want);
	}
	free(l);
	CHECK(bad == 0);
	CHECK(listed_total == 188129);
	/* prog's own functions, from the listing (no inlined code in them) */
	static const struct { const char *name; double self; } want[] = {
		{"main", 791}, {"parse_line", 5812}, {"checksum", 10260}, {"fib", 18},
		{"fib'2", 28587}, {"is_even", 8}, {"is_odd", 8}, {"is_even'2", 400},
		{"is_odd'2", 396},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct profile_func *f = find(p, want[i].name, "/tmp/cbench-vg/base/prog");
		CHECK(f != NULL && f->self[VG_IR] == want[i].self);
		CHECK_STR(f->file, "/tmp/cbench-vg/prog.c");
	}
	profile_free(p);
}

/*
 * Inclusive costs against callgrind_annotate --inclusive=yes, every
 * function it lists except those of a recursion ("fib'2": callgrind names
 * the levels of a recursion apart), where it adds a function's calls to
 * itself on top of the calls into it and passes 100 %:
 *   fib'2:     callgrind_annotate 261,029 (138.8 % of the process); here
 *              28,587, its self cost (it calls only itself), which is
 *              also what fib's calls to it cost (17,672 + 10,915).
 *   is_even'2, is_odd'2 (a cycle: each calls the other): callgrind_annotate
 *              20,200 and 19,800; here both 796, the whole cycle's cost
 *              (their self costs 400 + 396, nothing called outside it),
 *              which is is_odd's one call into it (804 - 8).
 */
static void inclusive_costs_match_annotate(void)
{
	struct profile *p = read_file(BASE_PROG);
	CHECK(p != NULL);
	size_t n, checked = 0;
	struct listed *l = read_listing(FIX "annotate/cl-base-cg.20024.inclusive.txt", &n);
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		if (l[i].object[0] == '\0' || strchr(l[i].key, '\'') != NULL)
			continue;
		checked++;
		if (sum_key(p, l[i].key, true, false) != l[i].cost && bad++ < 5)
			printf("# incl of %s: %.0f, callgrind_annotate %.0f\n", l[i].key,
			       sum_key(p, l[i].key, true, false), l[i].cost);
	}
	free(l);
	CHECK(bad == 0);
	CHECK(checked > 240);
	static const struct { const char *name; double incl; } want[] = {
		{"main", 81472}, {"parse_line", 47909}, {"checksum", 10260},
		{"fib", 28605}, {"is_even", 812}, {"is_odd", 804},
		{"fib'2", 28587}, {"is_even'2", 796}, {"is_odd'2", 796},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		CHECK(find(p, want[i].name, NULL)->incl[VG_IR] == want[i].incl);
	/* no function's inclusive cost passes the total or falls below self */
	for (size_t f = 0; f < p->n_funcs; f++)
		CHECK(p->funcs[f].incl[VG_IR] >= p->funcs[f].self[VG_IR] &&
		      p->funcs[f].incl[VG_IR] <= p->total[VG_IR]);
	profile_free(p);
}

/* positions: instr line, nine events; numbers from callgrind_annotate
 * (annotate/cl-instr.out.txt and .inclusive.txt; "." read as 0).  Its
 * PROGRAM TOTALS line shows the file's summary: line (187,204 Ir), which
 * callgrind wrote 2 above its totals: line and the cost lines (187,202). */
static void instr_positions_nine_events(void)
{
	struct profile *p = read_file(FIX "cl-instr.out");
	CHECK(p != NULL);
	static const double total[9] = {187202, 39436, 22268, 1269, 914, 604, 1248, 767, 580};
	static const double main_self[9] = {791, 10, 212, 4, 0, 0, 4, 0, 0};
	static const double main_incl[9] = {81526, 15981, 10802, 178, 62, 46, 177, 42, 45};
	static const double parse_self[9] = {5812, 1406, 1406, 3, 0, 0, 3, 0, 0};
	static const double parse_incl[9] = {47909, 9325, 3982, 19, 21, 2, 18, 17, 1};
	const struct profile_func *m = find(p, "main", "/tmp/cbench-vg/base/prog");
	const struct profile_func *pl = find(p, "parse_line", NULL);
	CHECK(m != NULL && pl != NULL);
	for (int e = 0; e < VG_EVENTS; e++) {
		CHECK(p->has[e]);
		CHECK(p->total[e] == total[e]);
		CHECK(m->self[e] == main_self[e] && m->incl[e] == main_incl[e]);
		CHECK(pl->self[e] == parse_self[e] && pl->incl[e] == parse_incl[e]);
	}
	profile_free(p);
}

/*
 * The format's features on a small text, costs computed by hand: name
 * compression across specifications (an id defined by cfn= used by fn=,
 * by fi= used by fl=, by cob= used by ob=), a callee's file and object
 * defaulting to the current ones (the latest fi= included) for one call
 * only, relative and hex positions, calls= not moving the positions,
 * jumps read past, the same function name in another object kept apart,
 * missing trailing costs as 0, CRLF line ends.
 *
 *   self: main [prog] 20 + 5 = 25 Ir, 2 Dr; func1 100; func2 700 + 3
 *   (inlined) + 4 = 707 Ir, 9 Dr; helper [inl.h] 50; memcpy [libc] 60;
 *   main [libc] 11: total 953 Ir, 11 Dr.
 *   incl: main 25 + 400 + 400 + 60 = 885 Ir, 2 + 40 = 42 Dr; func1
 *   100 + 300 = 400 Ir, 7 Dr; func2 707 + 50 = 757; the rest their self.
 */
static const char small[] =
	"# callgrind format\nversion: 1\ncreator: by hand\n"
	"positions: instr line\nevent: Ir : Instruction Fetches\nevents: Ir Dr\n\n"
	"ob=(1) /bin/prog\nfl=(1) file1.c\nfn=(1) main\n"
	"0x10 16 20 2\n+2 * 5\n"
	"cfn=(2) func1\ncalls=1 0x50 50\n* * 400 40\n"
	"cfi=(2) file2.c\ncfn=(3) func2\ncalls=3 0x20 20\n+1 +1 400\n"
	"cob=(2) /lib/libc.so\ncfn=(5) memcpy\ncalls=4 0x800 3\n* * 60\r\n"
	"jump=1 +3 *\njcnd=1 2 +3 *\n\n"
	"fn=(2)\n0x50 51 100\ncfl=(2)\ncfn=(3)\ncalls=2 0x20 20\n* * 300 7\n\n"
	"fl=(2)\nfn=(3)\n0x20 20 700 9\nfi=(3) inl.h\n+4 -10 3\n"
	"cfn=(4) helper\ncalls=1 0x90 5\n* * 50\nfe=(2)\n+1 +10 4\n\n"
	"fl=(3)\nfn=(4)\n0x90 5 50\n\n"
	"ob=(2)\nfl=(1)\nfn=(5)\n0x800 3 60\nfn=(1)\n0x900 7 11\n"
	"totals: 953 11\n";

static void compression_by_hand(void)
{
	struct profile *p = read_text(small);
	CHECK(p != NULL);
	CHECK(p->n_funcs == 6 && p->n_calls == 5);
	CHECK(p->total[VG_IR] == 953 && p->total[VG_DR] == 11 && !p->has[VG_DW]);
	const struct profile_func *m = find(p, "main", "/bin/prog");
	const struct profile_func *m2 = find(p, "main", "/lib/libc.so");
	const struct profile_func *f1 = find(p, "func1", NULL);
	const struct profile_func *f2 = find(p, "func2", NULL);
	const struct profile_func *h = find(p, "helper", NULL);
	const struct profile_func *mc = find(p, "memcpy", NULL);
	CHECK(m && m2 && f1 && f2 && h && mc);
	CHECK(m->self[VG_IR] == 25 && m->self[VG_DR] == 2);
	CHECK(m->incl[VG_IR] == 885 && m->incl[VG_DR] == 42);
	CHECK(f1->self[VG_IR] == 100 && f1->incl[VG_IR] == 400 && f1->incl[VG_DR] == 7);
	CHECK_STR(f1->file, "file1.c");
	CHECK(f2->self[VG_IR] == 707 && f2->self[VG_DR] == 9 && f2->incl[VG_IR] == 757);
	CHECK_STR(f2->file, "file2.c");
	CHECK_STR(h->file, "inl.h");
	CHECK_STR(h->object, "/bin/prog");
	CHECK(h->self[VG_IR] == 50 && h->incl[VG_IR] == 50);
	CHECK_STR(mc->file, "file1.c");
	CHECK_STR(mc->object, "/lib/libc.so");
	CHECK(mc->self[VG_IR] == 60 && m2->self[VG_IR] == 11);
	CHECK(isnan(m->self[VG_DW]) && isnan(p->total[VG_DW]));
	/* the calls, with their counts */
	double calls = 0, incl = 0;
	for (size_t c = 0; c < p->n_calls; c++) {
		calls += p->calls[c].calls;
		incl += p->calls[c].incl[VG_IR];
		if (p->calls[c].caller == (size_t)(m - p->funcs) &&
		    p->calls[c].callee == (size_t)(f2 - p->funcs))
			CHECK(p->calls[c].calls == 3 && p->calls[c].incl[VG_IR] == 400);
	}
	CHECK(calls == 1 + 3 + 4 + 2 + 1 && incl == 400 + 400 + 60 + 300 + 50);
	profile_free(p);
}

/* The format specification's own example (Valgrind manual 3.1.5, "Name
 * Compression"): "Inclusive cost of main is 820 ... 400 for the single
 * call to func1 and 400 as sum for the three calls to func2". */
static void specification_example(void)
{
	struct profile *p = read_text(
		"# callgrind format\nevents: Instructions\n\n"
		"fl=(1) file1.c\nfn=(1) main\n16 20\ncfn=(2) func1\ncalls=1 50\n16 400\n"
		"cfi=(2) file2.c\ncfn=(3) func2\ncalls=3 20\n16 400\n\n"
		"fn=(2)\n51 100\ncfi=(2)\ncfn=(3)\ncalls=2 20\n51 300\n\n"
		"fl=(2)\nfn=(3)\n20 700\n");
	CHECK(p != NULL);
	/* "Instructions" is none of Valgrind's events: nothing is counted */
	CHECK(!p->has[VG_IR] && p->n_funcs == 3);
	profile_free(p);
	p = read_text(
		"events: Ir\n"
		"fl=(1) file1.c\nfn=(1) main\n16 20\ncfn=(2) func1\ncalls=1 50\n16 400\n"
		"cfi=(2) file2.c\ncfn=(3) func2\ncalls=3 20\n16 400\n\n"
		"fn=(2)\n51 100\ncfi=(2)\ncfn=(3)\ncalls=2 20\n51 300\n\n"
		"fl=(2)\nfn=(3)\n20 700\n");
	CHECK(p != NULL);
	CHECK(find(p, "main", NULL)->incl[VG_IR] == 820);
	CHECK(find(p, "func1", NULL)->incl[VG_IR] == 400);
	CHECK(find(p, "func2", NULL)->incl[VG_IR] == 700);
	CHECK(p->total[VG_IR] == 820);
	CHECK_STR(find(p, "main", NULL)->object, "???");
	profile_free(p);
}

/* One profile of the three processes: totals add up (their totals:
 * lines), each part is its file, prog's functions are there once. */
static void merge_processes(void)
{
	struct profile *p = read_dir(FIX "cl-base");
	CHECK(p != NULL);
	CHECK(p->files == 3);
	CHECK(p->total[VG_IR] == 192387 + 188129 + 135839);
	static const double part_totals[3] = {192387, 188129, 135839};
	const size_t *map;
	for (size_t i = 0; i < 3; i++) {
		const struct profile *part = profile_part(p, i, &map);
		CHECK(part->total[VG_IR] == part_totals[i]);
		for (size_t f = 0; f < part->n_funcs; f++)
			CHECK(strcmp(p->funcs[map[f]].name, part->funcs[f].name) == 0);
	}
	const struct profile_func *m = find(p, "main", "/tmp/cbench-vg/base/prog");
	CHECK(m != NULL && m->self[VG_IR] == 791 && m->incl[VG_IR] == 81472);
	/* a libc function of all three: its self costs added */
	const struct profile_func *lsm = find(p, "__libc_start_main@@GLIBC_2.34", NULL);
	double sum = 0;
	for (size_t i = 0; i < 3; i++)
		sum += find(profile_part(p, i, NULL), "__libc_start_main@@GLIBC_2.34", NULL)->self[VG_IR];
	CHECK(lsm != NULL && lsm->self[VG_IR] == sum && sum == 3 * 74);
	/* the same files one by one, in another order: the same profile */
	struct profile *q = profile_new();
	static const char *const files[3] = {
		FIX "cl-base/cg.20025", BASE_PROG, FIX "cl-base/cg.20023",
	};
	for (size_t i = 0; i < 3; i++)
		CHECK(profile_add_file(q, files[i], err, sizeof err) == 0);
	CHECK(q->files == 3 && q->n_funcs == p->n_funcs && q->n_calls == p->n_calls);
	CHECK(q->total[VG_IR] == p->total[VG_IR]);
	for (size_t f = 0; f < p->n_funcs; f++) {
		const struct profile_func *a = &p->funcs[f], *b = NULL;
		for (size_t g = 0; g < q->n_funcs && b == NULL; g++)
			if (strcmp(a->name, q->funcs[g].name) == 0 &&
			    strcmp(a->file, q->funcs[g].file) == 0 &&
			    strcmp(a->object, q->funcs[g].object) == 0)
				b = &q->funcs[g];
		CHECK(b != NULL && b->self[VG_IR] == a->self[VG_IR] && b->incl[VG_IR] == a->incl[VG_IR]);
	}
	/* a file with the cache events and one without: Ir only */
	CHECK(profile_add_file(q, FIX "cl-instr.out", err, sizeof err) == 0);
	CHECK(q->has[VG_IR] && !q->has[VG_DR] && isnan(q->funcs[0].self[VG_DR]));
	CHECK(q->total[VG_IR] == p->total[VG_IR] + 187202);
	profile_free(q);
	profile_free(p);
}

/* A file cut short or corrupt is an error naming it and its line, and
 * the profile is left as it was. */
static void truncated_and_corrupt(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{"", "empty"},
		{"creator: callgrind-3.19.0\nevents: Ir\nfn=f\n1 2\n", "cut short"},
		{"events: Ir\nfn=f\ncfn=g\ncalls=1 2\n", "ends after a calls= line"},
		{"events: Ir\nfn=f\ncfn=g\ncalls=1 2\nfn=h\n", "not followed by its cost line"},
		{"events: Ir\n1 2\n", "before any fn= line"},
		{"fn=f\n1 2\n", "before the events: line"},
		{"events: Ir\nfn=(3)\n", "used before it is defined"},
		{"events: Ir\nfn=(3 f\n", "(number) name"},
		{"events: Ir\nfn=f\n1 2 3\n", "more costs than the 1 events"},
		{"events: Ir\nfn=f\n1 x\n", "not a number"},
		{"events: Ir\nfn=f\n1 99999999999999999999999\n", "not a number"},
		{"events: Ir\nfn=f\n+ 2\n", "without its 1 position"},
		{"events: Ir\nfn=f\n1a 2\n", "position that is not a number"},
		{"events: Ir\nfn=f\n1 2\ntotals: 3\n", "add up to 2 Ir, the totals: line says 3"},
		{"events: Ir\nfoo=bar\n", "unknown specification"},
		{"events: Ir\n!!\n", "not a line of the callgrind format"},
		{"version: 2\nevents: Ir\n", "only version 1"},
		{"events: Ir Ir\n", "named twice"},
		{"events:\n", "names no event"},
		{"positions: instr col\nevents: Ir\n", "unknown position"},
		{"events: Ir\ncalls=1 2\n", "without a cfn= line"},
		{"events: Ir\nfn=f\ncfn=g\ncalls=x\n", "without its count"},
		{"desc: x\ncmd: y\n", "no events: line"},
	};
	struct profile *p = read_text("events: Ir\nfn=f\n1 5\n");
	CHECK(p != NULL);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		int rc = profile_add_text(p, bad[i].text, strlen(bad[i].text), "t.out",
					  err, sizeof err);
		if (rc != -1 || strncmp(err, "t.out:", 6) != 0 || strstr(err, bad[i].why) == NULL) {
			printf("FAIL %s: case %zu: rc %d, \"%s\"\n", unit_name, i, rc, err);
			unit_state = 1;
			break;
		}
		CHECK(p->files == 1 && p->n_funcs == 1 && p->total[VG_IR] == 5);
	}
	/* the real file cut anywhere: an error every time, never a crash */
	size_t len;
	char *text = vgout_read_file(BASE_PROG, &len, err, sizeof err);
	CHECK(text != NULL);
	for (size_t cut = 1; cut < len; cut += 997) {
		if (profile_add_text(p, text, cut, "cut.out", err, sizeof err) != -1) {
			printf("FAIL %s: cut at %zu read\n", unit_name, cut);
			unit_state = 1;
			break;
		}
	}
	/* cut just before its totals: line */
	char *totals = strstr(text, "\ntotals:");
	CHECK(totals != NULL);
	CHECK(profile_add_text(p, text, (size_t)(totals - text) + 1, "cut.out", err, sizeof err) == -1);
	CHECK(strstr(err, "cut.out:") == err && strstr(err, "cut short") != NULL);
	/* a directory with a cut file: nothing added */
	char dir[] = "/tmp/cbench-unit-callgrind-XXXXXX";
	CHECK(mkdtemp(dir) != NULL);
	char *good = xasprintf("%s/cg.1", dir), *cut = xasprintf("%s/cg.2", dir);
	FILE *f = fopen(good, "w"), *g = fopen(cut, "w");
	bool wrote = f && g && fwrite(text, 1, len, f) == len && fwrite(text, 1, len / 2, g) == len / 2;
	if (f)
		fclose(f);
	if (g)
		fclose(g);
	size_t n;
	int rc = profile_add_dir(p, dir, "cg.", &n, err, sizeof err);
	unlink(good);
	unlink(cut);
	rmdir(dir);
	CHECK(wrote && rc == -1 && n == 2);
	CHECK(strstr(err, cut) != NULL);
	free(good);
	free(cut);
	free(text);
	CHECK(p->files == 1 && p->n_funcs == 1 && p->total[VG_IR] == 5);
	CHECK(profile_add_dir(p, FIX "cl-base", "none.", &n, err, sizeof err) == -1 && n == 0);
	CHECK(profile_add_file(p, FIX "no-such-file", err, sizeof err) == -1);
	CHECK(strstr(err, "no-such-file") != NULL);
	profile_free(p);
}

/* ---- the diff ---- */

/*
 * The slower build's diff names parse_line first.  callgrind_annotate's
 * self costs of parse_line: 5,812 (annotate/cl-base-cg.20024.txt) and
 * 270,612 (cl-slow-cg.20027.txt); the base total is the three files'
 * totals: lines, 192,387 + 188,129 + 135,839 = 516,355, and the slower
 * one's 192,387 + 452,910 + 135,839 = 781,136.  The two builds are in
 * other directories (base/prog, slow/prog): matched by base names.
 */
static void diff_names_slowed_function(void)
{
	struct profile *a = read_dir(FIX "cl-base"), *b = read_dir(FIX "cl-slow");
	CHECK(a != NULL && b != NULL);
	struct profile_diff d;
	CHECK(profile_diff(a, b, VG_IR, &d, err, sizeof err) == 0);
	CHECK(d.base_total == 516355 && d.cand_total == 781136);
	CHECK_NEAR(d.change_pct, (781136.0 - 516355) / 516355 * 100, 1e-9);
	CHECK_STR(d.d[0].name, "parse_line");
	CHECK(d.d[0].base != PROFILE_NONE && d.d[0].cand != PROFILE_NONE);
	CHECK_STR(a->funcs[d.d[0].base].object, "/tmp/cbench-vg/base/prog");
	CHECK_STR(d.d[0].object, "/tmp/cbench-vg/slow/prog");
	CHECK(d.d[0].base_self == 5812 && d.d[0].cand_self == 270612);
	CHECK_NEAR(d.d[0].points, (270612.0 - 5812) / 516355 * 100, 1e-9);
	/* its inclusive cost: 47,909 and 312,709 (the --inclusive listings) */
	CHECK(d.d[0].base_incl == 47909 && d.d[0].cand_incl == 312709);
	CHECK(fabs(d.d[1].points) < 0.01);
	double sum = 0;
	size_t vanished = 0, added = 0, cand_only = 0;
	for (size_t i = 0; i < d.n; i++) {
		sum += d.d[i].points;
		vanished += d.d[i].cand == PROFILE_NONE;
		added += d.d[i].base == PROFILE_NONE;
		if (i > 0)
			CHECK(fabs(d.d[i].points) <= fabs(d.d[i - 1].points));
	}
	CHECK_NEAR(sum, d.change_pct, 1e-9);
	CHECK(vanished > 0 && added > 0);
	for (size_t i = 0; i < d.n; i++)
		cand_only += d.d[i].base == PROFILE_NONE;
	CHECK(d.n == a->n_funcs + cand_only);
	profile_diff_free(&d);
	profile_diff_free(&d);   /* emptied: a no-op */
	profile_free(a);
	profile_free(b);
}

/*
 * The matching rules, by hand: "same" matches exactly; the two f (static
 * functions of x.c and y.c) by base names (builds in /a and /b), which
 * the name alone could not pair; g by name alone (its file unknown in the
 * base); the two "amb" of each side stay apart (several of one name, no
 * base names in common); gone and new are only on one side.  Totals 75
 * and 85: +13.333 %.  Points: gone -7/75, f of x.c and g +5/75, new
 * +4/75, amb c.c and d.c +3/75, amb b.c -2/75, amb a.c -1/75, f of y.c
 * and same 0.
 */
static void diff_matching_rules(void)
{
	struct profile *a = read_text(
		"events: Ir\nob=/a/build/prog\nfl=/a/src/x.c\nfn=f\n1 10\nfl=/a/src/y.c\nfn=f\n1 5\n"
		"fl=???\nfn=g\n1 20\nob=/usr/lib/libc.so.6\nfl=s.c\nfn=same\n1 30\n"
		"fn=gone\n1 7\nfl=a.c\nfn=amb\n1 1\nfl=b.c\nfn=amb\n1 2\n");
	struct profile *b = read_text(
		"events: Ir\nob=/b/build/prog\nfl=/b/src/x.c\nfn=f\n1 15\nfl=/b/src/y.c\nfn=f\n1 5\n"
		"fl=g.c\nfn=g\n1 25\nob=/usr/lib/libc.so.6\nfl=s.c\nfn=same\n1 30\n"
		"fn=new\n1 4\nfl=c.c\nfn=amb\n1 3\nfl=d.c\nfn=amb\n1 3\n");
	CHECK(a != NULL && b != NULL);
	struct profile_diff d;
	CHECK(profile_diff(a, b, VG_IR, &d, err, sizeof err) == 0);
	CHECK(d.n == 10);
	static const struct {
		const char *name, *file;
		bool in_base, in_cand;
		double points;
	} want[] = {
		{"gone", "s.c", true, false, -7}, {"f", "/b/src/x.c", true, true, 5},
		{"g", "g.c", true, true, 5}, {"new", "s.c", false, true, 4},
		{"amb", "c.c", false, true, 3}, {"amb", "d.c", false, true, 3},
		{"amb", "b.c", true, false, -2}, {"amb", "a.c", true, false, -1},
		{"f", "/b/src/y.c", true, true, 0}, {"same", "s.c", true, true, 0},
	};
	for (size_t i = 0; i < d.n; i++) {
		CHECK_STR(d.d[i].name, want[i].name);
		CHECK_STR(d.d[i].file, want[i].file);
		CHECK((d.d[i].base != PROFILE_NONE) == want[i].in_base);
		CHECK((d.d[i].cand != PROFILE_NONE) == want[i].in_cand);
		CHECK_NEAR(d.d[i].points, want[i].points / 75 * 100, 1e-12);
	}
	CHECK_NEAR(d.change_pct, 10.0 / 75 * 100, 1e-12);
	profile_diff_free(&d);
	/* an event the profiles lack; a base that counts nothing */
	CHECK(profile_diff(a, b, VG_DR, &d, err, sizeof err) == -1);
	CHECK(strstr(err, "no Dr counts") != NULL);
	struct profile *z = read_text("events: Ir\nfn=f\n1 0\n");
	CHECK(profile_diff(z, b, VG_IR, &d, err, sizeof err) == -1);
	CHECK(strstr(err, "counts no Ir") != NULL);
	profile_free(z);
	profile_free(a);
	profile_free(b);
}

/* ---- flame trees ---- */

static size_t child(const struct flame_tree *t, size_t n, const char *name)
{
	for (size_t i = 0; i < t->nodes[n].n_children; i++)
		if (strcmp(t->nodes[t->nodes[n].first_child + i].name, name) == 0)
			return t->nodes[n].first_child + i;
	return PROFILE_NONE;
}

/* The tree's invariants: children are their parent's, never worth more
 * than it together, largest first; self is what they leave. */
static bool tree_ok(const struct flame_tree *t, size_t max_depth, double min)
{
	for (size_t n = 0; n < t->n; n++) {
		const struct flame_node *x = &t->nodes[n];
		double sum = 0;
		for (size_t i = 0; i < x->n_children; i++) {
			const struct flame_node *c = &t->nodes[x->first_child + i];
			if (c->parent != n || c->depth != x->depth + 1 || c->value < min ||
			    (i > 0 && c->value > t->nodes[x->first_child + i - 1].value))
				return false;
			sum += c->value;
		}
		if (sum > x->value * (1 + 1e-12) || x->depth > max_depth ||
		    fabs(x->self - fmax(0, x->value - sum)) > 1e-9 * t->total)
			return false;
	}
	return true;
}

/* Hand-computed: main (self 10) calls a (60) and b (40); both call c (30
 * and 20), whose inclusive cost 50 is its self 10 and its calls to d (40).
 * Under a, c is worth 30 and d 30 x 40 / 50 = 24; under b, 20 and 16. */
static void flame_scaled_by_hand(void)
{
	struct profile *p = read_text(
		"events: Ir\nfn=main\n1 10\ncfn=a\ncalls=1 1\n1 60\ncfn=b\ncalls=1 1\n1 40\n"
		"fn=a\n1 30\ncfn=c\ncalls=1 1\n1 30\nfn=b\n1 20\ncfn=c\ncalls=1 1\n1 20\n"
		"fn=c\n1 10\ncfn=d\ncalls=2 1\n1 40\nfn=d\n1 40\n");
	CHECK(p != NULL);
	struct flame_tree t;
	CHECK(profile_flame(p, VG_IR, NULL, &t, err, sizeof err) == 0);
	CHECK(t.n == 8 && t.total == 110 && t.nodes[0].value == 110);
	CHECK(tree_ok(&t, 64, 0.11));
	size_t m = child(&t, 0, "main"), a = child(&t, m, "a"), b = child(&t, m, "b");
	CHECK(m != PROFILE_NONE && a != PROFILE_NONE && b != PROFILE_NONE);
	CHECK(t.nodes[m].first_child == a && t.nodes[a].value == 60 && t.nodes[b].value == 40);
	size_t ca = child(&t, a, "c"), cb = child(&t, b, "c");
	CHECK(t.nodes[ca].value == 30 && t.nodes[cb].value == 20);
	CHECK(t.nodes[child(&t, ca, "d")].value == 24 && t.nodes[child(&t, cb, "d")].value == 16);
	CHECK(t.nodes[ca].self == 6 && t.nodes[m].self == 10 && t.nodes[0].self == 0);
	CHECK(t.nodes[child(&t, ca, "d")].func == find_index(p, "d"));
	profile_flame_free(&t);
	/* depth and threshold */
	struct flame_options o = {.max_depth = 2};
	CHECK(profile_flame(p, VG_IR, &o, &t, err, sizeof err) == 0);
	CHECK(t.n == 4 && tree_ok(&t, 2, 0) && t.nodes[a].self == 60);
	profile_flame_free(&t);
	o = (struct flame_options){.min_fraction = 0.25};
	CHECK(profile_flame(p, VG_IR, &o, &t, err, sizeof err) == 0);
	CHECK(tree_ok(&t, 64, 27.5) && t.n == 5);   /* all main a b c(30) */
	profile_flame_free(&t);
	CHECK(profile_flame(p, VG_DR, NULL, &t, err, sizeof err) == -1);
	CHECK(strstr(err, "no Dr counts") != NULL);
	profile_free(p);
}

/* The three processes' tree: prog's path from ld.so's entry point to
 * parse_line, each call the only one to its callee in that process, so
 * exact (callgrind_annotate --inclusive: main 81,472, parse_line 47,909);
 * recursion cut (fib'2 under fib'2, is_even'2 under is_odd'2). */
static void flame_tree_of_processes(void)
{
	struct profile *p = read_dir(FIX "cl-base");
	CHECK(p != NULL);
	struct flame_tree t;
	CHECK(profile_flame(p, VG_IR, NULL, &t, err, sizeof err) == 0);
	CHECK(t.nodes[0].value == p->total[VG_IR] && t.total == 516355);
	CHECK(tree_ok(&t, 64, 0.001 * 516355));
	static const char *const path[] = {
		"0x000000000001ab70", "(below main)", "__libc_start_main@@GLIBC_2.34",
		"(below main)", "main",
	};
	size_t n = 0;
	for (size_t i = 0; i < sizeof path / sizeof path[0] && n != PROFILE_NONE; i++)
		n = child(&t, n, path[i]);
	CHECK(n != PROFILE_NONE && t.nodes[n].value == 81472);
	CHECK_STR(p->funcs[t.nodes[n].func].object, "/tmp/cbench-vg/base/prog");
	size_t parse = child(&t, n, "parse_line"), fib = child(&t, n, "fib");
	CHECK(parse != PROFILE_NONE && t.nodes[parse].value == 47909);
	size_t fib2 = child(&t, fib, "fib'2");
	CHECK(fib2 != PROFILE_NONE && child(&t, fib2, "fib'2") == PROFILE_NONE);
	size_t odd2 = child(&t, child(&t, child(&t, child(&t, n, "is_even"), "is_odd"),
				      "is_even'2"), "is_odd'2");
	CHECK(odd2 != PROFILE_NONE && t.nodes[odd2].n_children == 0);
	/* ld.so's entry point, in every process: their sum */
	size_t entry = child(&t, 0, "0x000000000001ab70");
	double sum = 0;
	for (size_t i = 0; i < 3; i++)
		sum += find(profile_part(p, i, NULL), "0x000000000001ab70", NULL)->incl[VG_IR];
	CHECK(t.nodes[entry].value == sum);
	profile_flame_free(&t);
	profile_free(p);
}

/* The differential tree of the two builds: the totals at the root, the
 * path to parse_line with callgrind_annotate's inclusive costs (47,909 and
 * 312,709), siblings of distinct names. */
static void flame_diff_of_builds(void)
{
	struct profile *a = read_dir(FIX "cl-base"), *b = read_dir(FIX "cl-slow");
	CHECK(a != NULL && b != NULL);
	struct flame_diff d;
	CHECK(profile_flame_diff(a, b, VG_IR, NULL, &d, err, sizeof err) == 0);
	CHECK(d.nodes[0].base == 516355 && d.nodes[0].cand == 781136);
	CHECK(d.base_total == 516355 && d.cand_total == 781136);
	static const char *const path[] = {
		"0x000000000001ab70", "(below main)", "__libc_start_main@@GLIBC_2.34",
		"(below main)", "main", "parse_line",
	};
	size_t n = 0;
	for (size_t i = 0; i < sizeof path / sizeof path[0] && n != PROFILE_NONE; i++) {
		size_t next = PROFILE_NONE;
		for (size_t c = 0; c < d.nodes[n].n_children; c++)
			if (strcmp(d.nodes[d.nodes[n].first_child + c].name, path[i]) == 0)
				next = d.nodes[n].first_child + c;
		n = next;
	}
	CHECK(n != PROFILE_NONE);
	CHECK(d.nodes[n].base == 47909 && d.nodes[n].cand == 312709);
	for (size_t i = 0; i < d.n; i++) {
		const struct flame_diff_node *x = &d.nodes[i];
		double sb = 0, sc = 0;
		for (size_t c = 0; c < x->n_children; c++) {
			const struct flame_diff_node *y = &d.nodes[x->first_child + c];
			CHECK(y->parent == i && y->depth == x->depth + 1);
			CHECK(fmax(y->base, y->cand) >= 0.001 * 781136);
			for (size_t k = 0; k < c; k++)
				CHECK(strcmp(d.nodes[x->first_child + k].name, y->name) != 0);
			sb += y->base;
			sc += y->cand;
		}
		CHECK(sb <= x->base * (1 + 1e-12) && sc <= x->cand * (1 + 1e-12));
	}
	profile_flame_diff_free(&d);
	profile_flame_diff_free(NULL);
	struct profile *dr = read_text("events: Dr\nfn=f\n1 1\n");
	int rc = profile_flame_diff(a, dr, VG_IR, NULL, &d, err, sizeof err);
	profile_free(dr);
	CHECK(rc == -1 && strstr(err, "candidate profile has no Ir") != NULL);
	profile_free(a);
	profile_free(b);
}

static void free_null(void)
{
	profile_free(NULL);
	profile_diff_free(NULL);
	profile_flame_free(NULL);
	profile_flame_diff_free(NULL);
	struct profile *p = profile_new();
	CHECK(p->files == 0 && p->n_funcs == 0);
	struct flame_tree t;
	CHECK(profile_flame(p, VG_IR, NULL, &t, err, sizeof err) == 0);
	CHECK(t.n == 1 && t.total == 0);
	profile_flame_free(&t);
	profile_free(p);
}

int main(void)
{
	RUN(self_costs_match_annotate);
	RUN(inclusive_costs_match_annotate);
	RUN(instr_positions_nine_events);
	RUN(compression_by_hand);
	RUN(specification_example);
	RUN(merge_processes);
	RUN(truncated_and_corrupt);
	RUN(diff_names_slowed_function);
	RUN(diff_matching_rules);
	RUN(flame_scaled_by_hand);
	RUN(flame_tree_of_processes);
	RUN(flame_diff_of_builds);
	RUN(free_null);
	UNIT_EXIT();
}
