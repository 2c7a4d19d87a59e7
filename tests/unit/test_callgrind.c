/*
 * Unit tests: callgrind.c, callgrind output files into profiles.
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
#define SLOW_PROG FIX "cl-slow/cg.20027"

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

static void free_null(void)
{
	profile_free(NULL);
	struct profile *p = profile_new();
	CHECK(p->files == 0 && p->n_funcs == 0);
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
	RUN(free_null);
	UNIT_EXIT();
}
