/*
 * profile.h: per-function profiles from callgrind's output files
 * (src/run/callgrind.c), where a difference between two of them is, and
 * the call trees of flame graphs (src/analysis/profile_diff.c).
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
 * every string its functions point to, by profile_free; the flame trees
 * and the diff borrow the profiles' strings, so free them first.  Each
 * _free(NULL) is a no-op.  Library-style: nothing here prints or exits; a
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

/* ---- where a difference is (profile_diff.c) ---- */

/* One function of either profile and how its cost moved. */
struct profile_delta {
	const char *name, *file, *object;  /* the candidate's, else the base's */
	size_t base, cand;         /* indices in each profile, PROFILE_NONE
				    * when it is not there (new, vanished) */
	double base_self, cand_self, self_delta;  /* 0 where it is not there */
	double base_incl, cand_incl, incl_delta;
	/* self_delta / base total x 100: the points of the total's change
	 * this function explains; all of them add up to change_pct. */
	double points;
};

struct profile_diff {
	struct profile_delta *d;   /* ranked by |points|, largest first */
	size_t n;
	double base_total, cand_total;
	double change_pct;         /* (cand_total - base_total) / base_total x 100 */
};

/*
 * Every function of base and cand, matched one to one in three passes:
 * the same (name, file, object); then the same name with the same base
 * names of file and object (a build in another directory, a library at
 * another path); then the same name when exactly one function of that
 * name is left unmatched on each side (a build without debug information,
 * whose file is "???").  The rest are new or vanished.  Ranked by the
 * points of event ev.  -1 when a profile lacks ev or base's total is 0.
 */
int profile_diff(const struct profile *base, const struct profile *cand,
		 enum vg_event ev, struct profile_diff *out, char *err,
		 size_t errlen);
void profile_diff_free(struct profile_diff *d);

/* ---- call trees for flame graphs (profile_diff.c) ---- */

/*
 * A node is one call path (a sequence of function names).  Node 0 is the
 * root, "all", worth the profile's total; its children are the functions
 * nothing calls (the processes' entry points).  Children of node i are
 * nodes[first_child .. first_child + n_children), largest first; their
 * values add up to at most their parent's, the rest being the parent's
 * self.
 */
struct flame_node {
	const char *name;      /* borrowed from the profile; "all" for the root */
	size_t func;           /* a function of that name on this path (the
				* first met), index in the profile's funcs;
				* PROFILE_NONE for the root */
	size_t parent;         /* PROFILE_NONE for the root */
	size_t depth;          /* 0 for the root */
	size_t first_child, n_children;
	double value;          /* the frame's width: this path's cost */
	double self;           /* value less the children's */
};

struct flame_tree {
	struct flame_node *nodes;
	size_t n;
	double total;
};

/* 0 in a field means its default. */
struct flame_options {
	size_t max_depth;      /* deepest node (the root is 0); default 64,
				* at most 1024 */
	double min_fraction;   /* a node worth less than this share of the
				* total stays in its parent's self; default 0.001 */
};

/*
 * The call tree of p for event ev, from its call edges.  A function's
 * children are its callees, each worth the call's inclusive cost; a
 * function reached through several callers is scaled by the share of its
 * inclusive cost the path brings (a node worth v of a function of
 * inclusive cost I has children worth v / I of each of its calls), since
 * callgrind counts costs per call edge, not per call path: exact for a
 * function with one caller, and the frames never add up to more than the
 * total (iai-callgrind's flame graphs, flamegraph_parser.rs, repeat a
 * function's whole cost under each of its callers instead).  A call to a
 * function already on the path (recursion) is not followed; its cost
 * stays in the caller's self.  Each process (part) gets a tree of its own
 * calls, and the trees are merged by path, as folded stacks of several
 * processes are: merged into one call graph first, processes share their
 * libraries' functions (libc's __libc_start_main calls every program's
 * main) and one program's costs would hang under another's.  A path is
 * cut where it falls below the threshold in its process, even if it
 * passes it added over the processes.  -1 when p lacks ev.
 */
int profile_flame(const struct profile *p, enum vg_event ev,
		  const struct flame_options *opt, struct flame_tree *out,
		  char *err, size_t errlen);
void profile_flame_free(struct flame_tree *t);

/* A node of a differential flame graph: one path (a sequence of names)
 * and its value in each profile's tree, 0 where it is not there. */
struct flame_diff_node {
	const char *name;      /* borrowed from the profiles; "all" for the root */
	size_t parent, depth, first_child, n_children;
	double base, cand;
};

struct flame_diff {
	struct flame_diff_node *nodes;
	size_t n;
	double base_total, cand_total;
};

/*
 * The trees of base and cand (as profile_flame makes them) merged by
 * path: nodes of one parent with the same name are one node, their values
 * added.  A path is kept when it passes the threshold (min_fraction of the
 * larger total) on either side; its value on the other side is then kept
 * down to a tenth of the threshold (below that it reads 0).  Children in
 * decreasing max(base, cand).  -1 when a profile lacks ev.
 */
int profile_flame_diff(const struct profile *base, const struct profile *cand,
		       enum vg_event ev, const struct flame_options *opt,
		       struct flame_diff *out, char *err, size_t errlen);
void profile_flame_diff_free(struct flame_diff *d);

#endif
