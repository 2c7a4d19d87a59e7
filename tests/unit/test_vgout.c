/*
 * Unit tests: vgout.c, cachegrind output files and estimated cycles.
 *
 * The files are real outputs of Valgrind 3.19's cachegrind in
 * tests/fixtures/valgrind/ (make-fixtures.sh there says how they were
 * made): `sh -c 'cd /tmp/cbench-vg && ./base/prog | cat'` traced, so three
 * processes (sh, prog, cat), with --cache-sim=yes (cg-cache/) and without
 * (cg-nocache/).  Expected totals are cg_annotate's PROGRAM TOTALS line of
 * annotate/cg-cache-cg.PID.txt; the summary: line read by vgout.c is also
 * checked against this file's own sum of the files' cost lines.
 */
#include "vgout.h"
#include "unit.h"
#include "xalloc.h"

#include <stdlib.h>
#include <unistd.h>

#define FIX "tests/fixtures/valgrind/"

/* cg_annotate's PROGRAM TOTALS of the three processes (sh, prog, cat), in
 * the order of struct sim_counts: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw. */
static const char *const cache_files[3] = {
	FIX "cg-cache/cg.19996", FIX "cg-cache/cg.19997", FIX "cg-cache/cg.19998",
};
static const double annotate_totals[3][9] = {
	{193065, 48433, 19939, 1639, 1789, 482, 1601, 1497, 451},
	{188700, 41098, 20783, 1269, 1147, 371, 1248, 999, 348},
	{136445, 34050, 14097, 1387, 1313, 394, 1358, 1120, 366},
};

static double field(const struct sim_counts *c, int e)
{
	const double v[VG_EVENTS] = {c->ir, c->dr, c->dw, c->i1mr, c->d1mr,
				     c->d1mw, c->ilmr, c->dlmr, c->dlmw};
	return v[e];
}

static void totals_match_cg_annotate(void)
{
	char err[512];
	for (int i = 0; i < 3; i++) {
		struct sim_counts c = {0};
		CHECK(vgout_add_file(&c, cache_files[i], err, sizeof err) == 0);
		CHECK(c.cache);
		for (int e = 0; e < VG_EVENTS; e++)
			CHECK(field(&c, e) == annotate_totals[i][e]);
	}
}

/* The sum of a cachegrind file's cost lines per event, computed here
 * line by line, independently of vgout.c's reading of summary:. */
static int sum_cost_lines(const char *path, double sum[VG_EVENTS])
{
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return -1;
	int col[64], ncol = 0;
	char *line = NULL;
	size_t cap = 0;
	for (int e = 0; e < VG_EVENTS; e++)
		sum[e] = 0;
	while (getline(&line, &cap, f) > 0) {
		if (strncmp(line, "events:", 7) == 0) {
			for (char *t = strtok(line + 7, " \n"); t && ncol < 64; t = strtok(NULL, " \n"))
				col[ncol++] = vgout_event_find(t, strlen(t));
		} else if (line[0] >= '0' && line[0] <= '9') {
			char *s = line, *end;
			strtoull(s, &end, 10);        /* the line number */
			for (int i = 0; i < ncol; i++, s = end) {
				unsigned long long v = strtoull(end, &end, 10);
				if (col[i] >= 0)
					sum[col[i]] += (double)v;
			}
		}
	}
	free(line);
	fclose(f);
	return ncol > 0 ? 0 : -1;
}

static void summary_is_sum_of_cost_lines(void)
{
	const char *files[] = {
		cache_files[0], cache_files[1], cache_files[2],
		FIX "cg-nocache/cg.20020", FIX "cg-nocache/cg.20021",
		FIX "cg-nocache/cg.20022",
	};
	char err[512];
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		double sum[VG_EVENTS];
		struct sim_counts c = {0};
		CHECK(sum_cost_lines(files[i], sum) == 0);
		CHECK(vgout_add_file(&c, files[i], err, sizeof err) == 0);
		CHECK(c.ir == sum[VG_IR] && c.ir > 100000);
		for (int e = 1; e < VG_EVENTS; e++)
			CHECK(i >= 3 ? isnan(field(&c, e)) : field(&c, e) == sum[e]);
	}
}

/* Several processes of one run are summed: the three files of a traced
 * `sh -c 'prog | cat'`. */
static void dir_sums_processes(void)
{
	char err[512];
	struct sim_counts c = {0};
	size_t n = 0;
	CHECK(vgout_add_dir(&c, FIX "cg-cache", "cg.", &n, err, sizeof err) == 0);
	CHECK(n == 3);
	CHECK(c.cache);
	for (int e = 0; e < VG_EVENTS; e++)
		CHECK(field(&c, e) == annotate_totals[0][e] + annotate_totals[1][e] +
				      annotate_totals[2][e]);
	/* Without --cache-sim=yes: Ir only, the same instructions */
	struct sim_counts ir = {0};
	CHECK(vgout_add_dir(&ir, FIX "cg-nocache", "cg.", &n, err, sizeof err) == 0);
	CHECK(n == 3);
	CHECK(!ir.cache);
	CHECK(ir.ir == c.ir);
	CHECK(isnan(ir.dr) && isnan(ir.dlmw));
	CHECK(isnan(vgout_estimated_cycles(&ir)));
	/* A file without the cache events added to counts with them */
	CHECK(vgout_add_file(&c, FIX "cg-nocache/cg.20021", err, sizeof err) == 0);
	CHECK(!c.cache && isnan(c.d1mr) && c.ir == ir.ir + annotate_totals[1][0]);
	/* The prefix selects: no file starts with "x." */
	CHECK(vgout_add_dir(&c, FIX "cg-cache", "x.", &n, err, sizeof err) == -1);
	CHECK(n == 0 && strstr(err, "cg-cache/x.*") != NULL);
	CHECK(vgout_add_dir(&c, FIX "no-such-dir", "cg.", &n, err, sizeof err) == -1);
	CHECK(strstr(err, "no-such-dir") != NULL);
}

static int add(struct sim_counts *c, const char *text, char *err, size_t errlen)
{
	return vgout_add_text(c, text, strlen(text), "t.out", err, errlen);
}

/* Events in any order, some missing, some unknown (branch simulation). */
static void events_any_order(void)
{
	char err[512];
	struct sim_counts c = {0};
	CHECK(add(&c, "desc: x\ncmd: a b\nevents: Bc Dw Ir Bcm\nfl=a.c\nfn=f\n"
		  "3 1 2 3 4\nsummary: 10 20 30 40\n", err, sizeof err) == 0);
	CHECK(c.ir == 30 && c.dw == 20);
	CHECK(isnan(c.dr) && isnan(c.i1mr) && !c.cache);
	struct sim_counts d = {0};
	CHECK(add(&d, "events: DLmw DLmr ILmr D1mw D1mr I1mr Dw Dr Ir\n"
		  "summary: 9 8 7 6 5 4 3 2 1\n", err, sizeof err) == 0);
	CHECK(d.cache && d.ir == 1 && d.dr == 2 && d.dw == 3 && d.i1mr == 4);
	CHECK(d.d1mr == 5 && d.d1mw == 6 && d.ilmr == 7 && d.dlmr == 8 && d.dlmw == 9);
	/* trailing blanks on the events: line (cachegrind writes one), hex */
	struct sim_counts e = {0};
	CHECK(add(&e, "events: Ir \nsummary: 0x10 \n\n", err, sizeof err) == 0);
	CHECK(e.ir == 16);
}

/* A cut or corrupt file is an error naming it, and leaves c alone. */
static void truncated_and_corrupt(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{"", "empty"},
		{"events: Ir\nfl=a.c\nfn=f\n3 1\n", "cut short"},
		{"events: Ir\nfl=a.c\nfn=f\n3 1\nsummary: 12", "cut short"},
		{"desc: x\nfl=a.c\n3 1\nsummary: 1\n", "no events: line"},
		{"events:\nsummary: 1\n", "names no event"},
		{"events: Ir Ir\nsummary: 1 2\n", "named twice"},
		{"events: Ir Dr\nsummary: 1\n", "1 counts where the events: line names 2"},
		{"events: Ir\nsummary: 1 2\n", "more counts"},
		{"events: Ir\nsummary: -1\n", "0 counts"},
		{"events: Ir\nsummary: 99999999999999999999999\n", "0 counts"},
	};
	char err[512];
	struct sim_counts c = {.ir = 5};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		CHECK(add(&c, bad[i].text, err, sizeof err) == -1);
		if (strstr(err, "t.out: ") != err || strstr(err, bad[i].why) == NULL) {
			printf("FAIL %s: case %zu: \"%s\"\n", unit_name, i, err);
			unit_state = 1;
			return;
		}
		CHECK(c.ir == 5 && c.dr == 0);
	}
	CHECK(vgout_add_file(&c, FIX "no-such-file", err, sizeof err) == -1);
	CHECK(strstr(err, "no-such-file") != NULL);
	CHECK(vgout_add_file(&c, FIX "cg-cache", err, sizeof err) == -1);
	CHECK(strstr(err, "not a regular file") != NULL);
	/* A real file cut in half, written out: the path is in the message */
	size_t len;
	char *text = vgout_read_file(cache_files[1], &len, err, sizeof err);
	CHECK(text != NULL);
	char path[] = "/tmp/cbench-unit-vgout-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	bool wrote = write(fd, text, len / 2) == (ssize_t)(len / 2);
	close(fd);
	free(text);
	int rc = vgout_add_file(&c, path, err, sizeof err);
	unlink(path);
	CHECK(wrote && rc == -1);
	CHECK(strstr(err, path) != NULL && strstr(err, "cut short") != NULL);
	CHECK(c.ir == 5);
}

/* A file larger than the head and tail read: the events: line from its
 * first MiB, the summary: line from its last 64 KiB. */
static void large_file(void)
{
	char path[] = "/tmp/cbench-unit-vgout-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fprintf(f, "cmd: x\nevents: Ir Dr\nfl=a.c\nfn=f\n");
	for (int i = 0; i < 300000; i++)
		fprintf(f, "%d 1 2\n", i);
	fprintf(f, "summary: 300000 600000\n");
	fclose(f);
	char err[512];
	struct sim_counts c = {0};
	int rc = vgout_add_file(&c, path, err, sizeof err);
	unlink(path);
	CHECK(rc == 0);
	CHECK(c.ir == 300000 && c.dr == 600000 && isnan(c.dw));
}

/*
 * Estimated cycles.  Hand-computed for the process that ran prog
 * (cg-cache/cg.19997, counts above):
 *   accesses = Ir + Dr + Dw        = 188700 + 41098 + 20783 = 250581
 *   L1 misses = I1mr + D1mr + D1mw = 1269 + 1147 + 371      = 2787
 *   RAM hits = ILmr + DLmr + DLmw  = 1248 + 999 + 348       = 2595
 *   LL hits = 2787 - 2595 = 192;  L1 hits = 250581 - 2787   = 247794
 *   cycles = 247794 + 5 x 192 + 35 x 2595 = 247794 + 960 + 90825 = 339579
 * and iai-callgrind's own test cases (iai-callgrind-runner/src/runner/
 * callgrind/mod.rs, test_cycles_estimator): "real_world" counts
 * [1353, 255, 233, 51, 12, 0, 50, 3, 0] give 3683, "artificial" counts
 * 1..9 (misses above the accesses: its subtractions saturate at 0) 840.
 * Its counts are in the order Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw.
 */
static void estimated_cycles(void)
{
	char err[512];
	struct sim_counts c = {0};
	CHECK(vgout_add_file(&c, cache_files[1], err, sizeof err) == 0);
	CHECK(vgout_estimated_cycles(&c) == 339579);
	struct sim_counts real = {1353, 255, 233, 51, 12, 0, 50, 3, 0, true};
	CHECK(vgout_estimated_cycles(&real) == 3683);
	struct sim_counts art = {1, 2, 3, 4, 5, 6, 7, 8, 9, true};
	CHECK(vgout_estimated_cycles(&art) == 840);
	/* all L1 hits: one cycle each */
	struct sim_counts hits = {100, 20, 10, 0, 0, 0, 0, 0, 0, true};
	CHECK(vgout_estimated_cycles(&hits) == 130);
	struct sim_counts none = {100, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, false};
	CHECK(isnan(vgout_estimated_cycles(&none)));
}

static void numbers_and_names(void)
{
	const char *s = "0x1fZ", *t = "18446744073709551615 ", *u = "18446744073709551616";
	const char *x = "0x";
	uint64_t v;
	CHECK(vgout_number(&s, s + 5, &v) && v == 31 && *s == 'Z');
	CHECK(vgout_number(&t, t + 21, &v) && v == UINT64_MAX && *t == ' ');
	CHECK(!vgout_number(&u, u + 20, &v));
	CHECK(vgout_number(&x, x + 2, &v) && v == 0 && *x == 'x');   /* "0", then x */
	CHECK(vgout_event_find("DLmw", 4) == VG_DLMW);
	CHECK(vgout_event_find("DLmwx", 4) == VG_DLMW);
	CHECK(vgout_event_find("Bc", 2) == -1);
	CHECK_STR(vgout_event_name(VG_I1MR), "I1mr");
}

int main(void)
{
	RUN(totals_match_cg_annotate);
	RUN(summary_is_sum_of_cost_lines);
	RUN(dir_sums_processes);
	RUN(events_any_order);
	RUN(truncated_and_corrupt);
	RUN(large_file);
	RUN(estimated_cycles);
	RUN(numbers_and_names);
	UNIT_EXIT();
}
