/*
 * vgout.h: Valgrind's cachegrind output files read into simulated counts,
 * and the estimated cycles derived from them (--counters sim, sim-cache).
 *
 * A measured run under `valgrind --tool=cachegrind --trace-children=yes
 * --cachegrind-out-file=DIR/cg.%p` leaves one file per process; the run's
 * counts are the sum of the files' totals (vgout_add_dir).  Each file is
 * taken from its `events:` header line and its final `summary:` line, the
 * totals in the `events:` order (cachegrind writes that line last, so a
 * file without it was cut short: an error).
 *
 * Beware of a process that forks and does not exec (a shell's subshell or
 * command substitution): its file holds its parent's counts up to the
 * fork as well as its own, so summing the files counts that part twice.
 * Nothing in the files tells such a process from a separate one.
 *
 * Ownership: strings and arrays returned are the caller's, freed with
 * free().  Library-style: nothing here prints or exits; a failing function
 * returns -1 with a one-line message in err (errlen bytes).
 */
#ifndef CBENCH_VGOUT_H
#define CBENCH_VGOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The nine events of a cache simulation, as Valgrind names them ("Ir",
 * "I1mr", "DLmw", ...), in the order of struct sim_counts. */
enum vg_event {
	VG_IR, VG_DR, VG_DW, VG_I1MR, VG_D1MR, VG_D1MW, VG_ILMR, VG_DLMR,
	VG_DLMW, VG_EVENTS
};

/*
 * Simulated event counts.  Without --cache-sim=yes a file holds Ir only:
 * the other counts are NaN and cache is false.  Counts are added, never
 * set: start from a zeroed struct ({0}); after each file cache is true
 * when all eight cache counts are numbers (every file added had them).
 */
struct sim_counts {
	double ir, dr, dw;          /* instructions, data reads, data writes */
	double i1mr, d1mr, d1mw;    /* first-level misses of each */
	double ilmr, dlmr, dlmw;    /* last-level misses of each */
	bool cache;                 /* the cache-simulation events are there */
};

/* Add the totals of one cachegrind out file.  On error *c is unchanged
 * and err names the file. */
int vgout_add_file(struct sim_counts *c, const char *path, char *err,
		   size_t errlen);

/* The same for a file's text already in memory (text[0..len), no NUL
 * needed); name is the file's name in messages. */
int vgout_add_text(struct sim_counts *c, const char *text, size_t len,
		   const char *name, char *err, size_t errlen);

/* Add every file of dir whose name starts with prefix ("cg."), in name
 * order; *files is how many it found (one per process).  No such file,
 * or one that cannot be read, is an error, and then *c is unchanged. */
int vgout_add_dir(struct sim_counts *c, const char *dir, const char *prefix,
		  size_t *files, char *err, size_t errlen);

/* Estimated cycles: L1 hits + 5 x LL hits + 35 x RAM hits (Itamar
 * Turner-Trauring's formula, as iai-callgrind and Gungraun compute it; see
 * vgout.c).  NaN without the cache events. */
double vgout_estimated_cycles(const struct sim_counts *c);

/*
 * For the other Valgrind readers (callgrind.c).
 *
 * vgout_event_name: Valgrind's name of e.  vgout_event_find: the event
 * named name[0..len), or -1 for any other name (Bc, Ge, ...).
 * vgout_number: the unsigned number at *p (decimal, or hex after "0x"),
 * *p moved past it; false when there is none or it overflows.
 * vgout_read_file: the whole file, NUL-terminated, its length in *len;
 * NULL with a message when it cannot be read.
 * vgout_each_file: fn(arg, "dir/name", ...) for each regular file of dir
 * whose name starts with prefix, in name order, until one returns -1
 * (then -1); *files is how many there are, and none is an error.
 */
const char *vgout_event_name(enum vg_event e);
int vgout_event_find(const char *name, size_t len);
bool vgout_number(const char **p, const char *end, uint64_t *v);
char *vgout_read_file(const char *path, size_t *len, char *err, size_t errlen);
int vgout_each_file(const char *dir, const char *prefix,
		    int (*fn)(void *arg, const char *path, char *err, size_t errlen),
		    void *arg, size_t *files, char *err, size_t errlen);

#endif
