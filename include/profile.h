/*
 * profile.h: per-function profiles from callgrind's output files
 * (src/run/callgrind.c).
 *
 * A measured run under `valgrind --tool=callgrind --trace-children=yes
 * --callgrind-out-file=DIR/cg.%p` leaves one file per process; their
 * functions merge into one profile, matched by (name, file, object).
 * Function names are kept as callgrind writes them: C++ names demangled,
 * unknown ones as an address ("0x0000000000001160"), and the levels of a
 * recursion apart ("fib" calls "fib'2", which calls itself), as callgrind
 * separates them by default (--separate-recs=2).  A forked child that
 * does not exec writes its parent's costs up to the fork too (vgout.h).
 *
 * Ownership: a struct profile is made by profile_new and freed, with
 * every string its functions point to, by profile_free, which is a no-op
 * for NULL.  Library-style: nothing here prints or exits; a
 * failing function returns -1 with a one-line message in err (errlen
 * bytes) and leaves what it was given unchanged.
 */
#ifndef CBENCH_PROFILE_H
#define CBENCH_PROFILE_H

#include "vgout.h"

#include <stdbool.h>
#include <stddef.h>

#define PROFILE_NONE ((size_t)-1)

/* One function: its own cost (self) and with what it calls (incl), for
 * each event of enum vg_event (NaN for an event the files lack). */
struct profile_func {
	const char *name;     /* as callgrind writes it */
	const char *file;     /* its source file, "???" when unknown */
	const char *object;   /* its ELF object, "???" when unknown */
	double self[VG_EVENTS];
	/* self plus the inclusive cost of its calls to other functions (a
	 * call to itself is inside already).  In a cycle of mutual recursion
	 * (a strongly connected part of the call graph of more than one
	 * function: a calls b calls a) the calls' costs nest inside each
	 * other and their sum over-counts, so a member's incl is capped at the
	 * whole cycle's cost (its members' self costs plus the calls leaving
	 * it): an upper bound, exact where there is no such cycle.  (Where a
	 * function calls itself callgrind_annotate --inclusive=yes adds
	 * those calls again and can pass 100 %; this does not.) */
	double incl[VG_EVENTS];
};

/* Every call from caller to callee, summed over the files. */
struct profile_call {
	size_t caller, callee;   /* indices in funcs */
	double calls;            /* how many times */
	double incl[VG_EVENTS];  /* the inclusive cost of those calls */
};

struct profile_pool;         /* strings and lookups, private */

struct profile {
	struct profile_func *funcs;
	size_t n_funcs;
	struct profile_call *calls;
	size_t n_calls;
	double total[VG_EVENTS];  /* the sum of every function's self cost */
	bool has[VG_EVENTS];      /* events every file had (the rest are NaN) */
	size_t files;             /* out files merged: its parts */
	struct profile_pool *pool;
};

struct profile *profile_new(void);
void profile_free(struct profile *p);

/* Part i (i < p->files) of a profile read from files: the profile of the
 * i-th file alone (one process), which p owns, and in *map (unless map
 * is NULL) the index in p->funcs of each of the part's functions. */
const struct profile *profile_part(const struct profile *p, size_t i,
				   const size_t **map);

/* The calls each function makes to another function (not to itself): those
 * of funcs[f] are calls[(*idx)[k]] for k from (*off)[f] to (*off)[f + 1].
 * Both arrays are the caller's. */
void profile_out_calls(const struct profile *p, size_t **off, size_t **idx);

/*
 * Read a callgrind out file (Callgrind Format Specification, Valgrind's
 * manual chapter 3: name compression, relative positions, positions
 * "line" or "instr line", calls= lines, fi=/fe= for inlined code) and
 * merge its functions into p.  A file cut short (no totals: line at the
 * end, a calls= line without its cost line), costs that do not add up to
 * its totals: line, or anything that is not of the format is an error
 * naming the file and the line.
 */
int profile_add_file(struct profile *p, const char *path, char *err,
		     size_t errlen);

/* The same from text[0..len) (no NUL needed); name is used in messages. */
int profile_add_text(struct profile *p, const char *text, size_t len,
		     const char *name, char *err, size_t errlen);

/* Every file of dir whose name starts with prefix ("cg."), in name order;
 * *files is how many it found.  No such file is an error; so is one bad
 * file, and then p is unchanged. */
int profile_add_dir(struct profile *p, const char *dir, const char *prefix,
		    size_t *files, char *err, size_t errlen);

#endif
