/*
 * html_flame.h: where two simulated profiles differ, drawn for the HTML
 * report: a table of the functions whose own cost moved most (from a
 * profile_diff) and a differential flame graph as inline SVG (from a
 * flame_diff; profile.h makes both from callgrind's files).
 *
 * Like the rest of the page (html_svg.h): no script, no external
 * reference, colours as CSS classes of the page's style sheet so they
 * follow prefers-color-scheme, details in SVG <title> tooltips.  Every
 * name is escaped (C++ names hold <, >, & and quotes) and bytes that are
 * not UTF-8 are replaced.
 *
 * Ownership: both functions borrow what they are given and keep nothing.
 * Library-style: they write to the FILE given, never print elsewhere and
 * never exit; they return 0, or -1 when f has an error (or f or d is
 * NULL).
 */
#ifndef CBENCH_HTML_FLAME_H
#define CBENCH_HTML_FLAME_H

#include "profile.h"

#include <stdio.h>

/* 0 or NULL in a field means its default; a NULL options pointer, all of
 * them. */
struct html_flame_options {
	enum vg_event ev;    /* what the profiles count: VG_IR (0), the
			      * default, reads "instructions" */
	size_t top;          /* rows of the table; default 10 */
	const char *title;   /* the SVG's <title>; default "Differential
			      * flame graph" */
};

/*
 * A <table> of the top functions of d by |points| (d's own order), with
 * the total's change in its <caption> ("+51.3 % instructions
 * (simulated)"): each function's name, its file (the base name; the path
 * in a title attribute; the object's when the file is unknown), its self
 * cost in the base and the candidate, the change (with the relative one,
 * "new" or "vanished") and its points of the base's total ("+51.28
 * points").  Growth is marked in the page's "bad" colour, shrinkage in
 * its "good" one.  Functions whose cost did not move are left out; a last
 * row sums the changes of the functions beyond the top.
 */
int html_flame_table(FILE *f, const struct profile_diff *d,
		     const struct html_flame_options *o);

/*
 * A <figure> holding the differential flame graph of d as inline SVG and
 * a <figcaption> that says how to read it.  Flame layout, the root at
 * the bottom and callees above their callers; each frame as wide as its
 * value in the candidate (960 units of a viewBox scaled to the page's
 * width), so a frame that vanished in the candidate has no width: those
 * are listed under the graph.  A frame's colour is its value's relative
 * change from the base, in five shades of red (growth) or blue
 * (shrinkage) of 5 % each (20 % and beyond saturate), grey within
 * 0.1 %; its tooltip has the name, both values, the change and its
 * points.  At most 40 levels are drawn; a frame narrower than half a
 * unit is not drawn (its value stays in its parent's width).
 */
int html_flame_svg(FILE *f, const struct flame_diff *d,
		   const struct html_flame_options *o);

#endif
