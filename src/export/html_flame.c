/*
 * html_flame.c: where two simulated profiles differ, for the HTML report
 * (see html_flame.h): the functions whose own cost moved most, as a
 * table, and a differential flame graph as inline SVG.
 *
 * The flame graph is Brendan Gregg's red/blue differential flame graph
 * ("Differential Flame Graphs", 2014,
 * https://www.brendangregg.com/blog/2014-11-09/differential-flame-graphs.html):
 * the graph of the second profile, frames as wide as their cost there,
 * coloured red where a frame grew and blue where it shrank.  Two
 * departures, both to make one picture readable on its own: a frame's
 * shade is its own relative change (base -> candidate), bounded (20 %
 * and beyond saturate), where flamegraph.pl scales each delta by the
 * largest of the graph, so that the same shade means the same change on
 * every page; and the paths that vanished in the candidate, which such a
 * graph cannot show (they have no width; Gregg draws a second, negated
 * graph for them), are listed under it.
 *
 * Colours are classes of the page's style sheet (html_svg.c), five shades
 * each side of a neutral grey, after ColorBrewer's RdBu scheme (Cynthia
 * Brewer), which is marked safe for colour-blind readers: red and blue
 * differ in lightness and along the blue-yellow axis that protan and
 * deutan vision keep.  Each shade holds the page's text colour at 4.5:1
 * or more in both schemes, and every frame's tooltip gives its numbers,
 * so nothing depends on telling shades apart.
 *
 * Labels are cut to the frame's width, counting CHAR_W units a character
 * of the 11 px monospace font (6.6 px in DejaVu Sans Mono), so they never
 * overflow without a clip path; the viewBox scales with the page, text
 * and frames together.
 */
#include "html_flame.h"
#include "html_svg.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TOP_ROWS 10         /* rows of the table by default */
#define NAME_CHARS 60       /* a function's name in the table */
#define FLAME_W 960.0       /* the viewBox's width */
#define FRAME_H 16.0        /* a level's height, its frame 1 less */
#define PAD_TOP 4.0
#define PAD_BOTTOM 2.0
#define FLAME_LEVELS 40     /* levels drawn, the root's included */
#define MIN_W 0.5           /* narrower frames are not drawn */
#define CHAR_W 7.0          /* a label's character, in viewBox units */
#define LABEL_MIN 3         /* fewer characters fit: no label */
#define SHADES 5            /* shades of red, and of blue */
#define SATURATE_PCT 20.0   /* the last shade: this change and beyond */
#define SHADE_PCT (SATURATE_PCT / (SHADES - 1))   /* the others' steps */
#define SAME_PCT 0.1        /* a smaller change is drawn grey */
#define VANISHED_MAX 12     /* vanished paths listed by name */

/* What each event counts, as the captions say it. */
static const char *const event_words[] = {
	"instructions", "data reads", "data writes",
	"L1 instruction-fetch misses", "L1 data-read misses",
	"L1 data-write misses", "LL instruction-fetch misses",
	"LL data-read misses", "LL data-write misses",
};
_Static_assert(sizeof event_words / sizeof *event_words == VG_EVENTS,
	       "an event without its words in the HTML report");

static const char *event_word(const struct html_flame_options *o)
{
	unsigned ev = o ? (unsigned)o->ev : VG_IR;
	return ev < VG_EVENTS ? event_words[ev] : "events";
}

/* A name as text: escaped, bytes that are not UTF-8 replaced, cut to
 * max_chars characters (0: whole). */
static void name_text(FILE *f, const char *s, size_t max_chars)
{
	if (max_chars)
		html_text_cut(f, s, max_chars);
	else
		html_text(f, s);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

/* v rounded to a whole number, with thousands separators ("264,800"),
 * and its sign when signed ("+264,800", "-5,812", "0"). */
static void count_text(char *buf, size_t len, double v, bool with_sign)
{
	char digits[32];
	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	snprintf(digits, sizeof digits, "%.0f", fmin(fabs(v), 1e30));
	bool zero = strcmp(digits, "0") == 0;
	size_t n = strlen(digits), o = 0;
	if (with_sign && !zero && len > 1)
		buf[o++] = v > 0 ? '+' : '-';
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o < len ? o : len - 1] = '\0';
}

/* Points, as HTML: one decimal from 1 up, two below, "+<0.01" below
 * that. */
static void points_text(char *buf, size_t len, double p)
{
	if (p == 0 || !isfinite(p))
		snprintf(buf, len, "0");
	else if (fabs(p) < 0.005)
		snprintf(buf, len, "%s&lt;0.01", p > 0 ? "+" : "-");
	else
		snprintf(buf, len, fabs(p) < 1 ? "%+.2f" : "%+.1f", p);
}

/* A relative change in percent: "+552.7 %", "+4556 %". */
static void pct_text(char *buf, size_t len, double pct)
{
	snprintf(buf, len, fabs(pct) < 100 ? "%+.1f %%" : "%+.0f %%", pct);
}

static const char *sign_class(double v)
{
	return v > 0 ? "bad" : v < 0 ? "good" : "";
}

/* ---- the table ---- */

/* The file's base name, its path in a title; the object's when the file
 * is unknown (a library without debug information). */
static void file_cell(FILE *f, const struct profile_delta *x)
{
	bool known = strcmp(x->file, "???") != 0;
	const char *path = known ? x->file : x->object;
	fputs("<td class=\"l\" title=\"", f);
	if (!known)
		fputs(strcmp(path, "???") ? "file unknown; object " : "file and object "
		      "unknown", f);
	if (strcmp(path, "???") != 0)
		name_text(f, path, 0);
	fputs(known ? "\">" : "\"><span class=\"muted\">", f);
	name_text(f, base_name(path), 0);
	fputs(known ? "</td>" : "</span></td>", f);
}

/* The change cell and the points cell, coloured by the change's sign. */
static void change_cells(FILE *f, double delta, const char *rel, double points)
{
	char d[48], p[48];
	count_text(d, sizeof d, delta, true);
	points_text(p, sizeof p, points);
	const char *cls = sign_class(delta);
	fprintf(f, "<td class=\"%s\">%s%s%s%s</td><td class=\"%s\">%s points</td>",
		cls, d, rel[0] ? " (" : "", rel, rel[0] ? ")" : "", cls, p);
}

static void table_row(FILE *f, const struct profile_delta *x)
{
	char b[48], c[48], rel[48] = "";
	fputs("<tr><td><code", f);
	if (strlen(x->name) > NAME_CHARS) {
		fputs(" title=\"", f);
		name_text(f, x->name, 0);
		fputs("\"", f);
	}
	fputs(">", f);
	name_text(f, x->name, NAME_CHARS);
	fputs("</code></td>", f);
	file_cell(f, x);
	count_text(b, sizeof b, x->base_self, false);
	count_text(c, sizeof c, x->cand_self, false);
	fprintf(f, "<td>%s</td><td>%s</td>", x->base == PROFILE_NONE ? "–" : b,
		x->cand == PROFILE_NONE ? "–" : c);
	if (x->base == PROFILE_NONE)
		snprintf(rel, sizeof rel, "new");
	else if (x->cand == PROFILE_NONE)
		snprintf(rel, sizeof rel, "vanished");
	else if (x->base_self > 0)
		pct_text(rel, sizeof rel, x->self_delta / x->base_self * 100);
	change_cells(f, x->self_delta, rel, x->points);
	fputs("</tr>\n", f);
}

/* The functions beyond the top that changed, summed in one row. */
static void rest_row(FILE *f, const struct profile_diff *d, size_t from)
{
	size_t k = 0;
	double base = 0, cand = 0, delta = 0, points = 0;
	for (size_t i = from; i < d->n; i++) {
		if (d->d[i].self_delta == 0)
			continue;
		k++;
		base += d->d[i].base_self;
		cand += d->d[i].cand_self;
		delta += d->d[i].self_delta;
		points += d->d[i].points;
	}
	if (k == 0)
		return;
	char b[48], c[48];
	count_text(b, sizeof b, base, false);
	count_text(c, sizeof c, cand, false);
	fprintf(f, "<tr><td class=\"muted\">%zu more function%s that changed</td>"
		"<td class=\"l\"></td><td>%s</td><td>%s</td>", k, k == 1 ? "" : "s",
		b, c);
	change_cells(f, delta, "", points);
	fputs("</tr>\n", f);
}

static void table_caption(FILE *f, const struct profile_diff *d, const char *what)
{
	char pct[48], b[48], c[48];
	count_text(b, sizeof b, d->base_total, false);
	count_text(c, sizeof c, d->cand_total, false);
	if (d->change_pct == 0 || !isfinite(d->change_pct))
		snprintf(pct, sizeof pct, "No change");
	else
		snprintf(pct, sizeof pct, "%+.1f %%", d->change_pct);
	fprintf(f, "<caption><span class=\"%s\">%s</span> %s (simulated): %s → %s"
		"<br><span class=\"muted\">Self: a function's own %s, not its "
		"callees'. A point is 1 %% of the base's total; the points of "
		"every function add up to the total's change.</span></caption>\n",
		sign_class(d->change_pct), pct, what, b, c, what);
}

int html_flame_table(FILE *f, const struct profile_diff *d,
		     const struct html_flame_options *o)
{
	if (f == NULL || d == NULL)
		return -1;
	size_t top = o && o->top ? o->top : TOP_ROWS, rows = 0;
	fputs("<table class=\"profile\">\n", f);
	table_caption(f, d, event_word(o));
	fputs("<thead><tr><th>function</th><th class=\"l\">file</th><th>base</th>"
	      "<th>candidate</th><th>change</th><th>points</th></tr></thead>\n"
	      "<tbody>\n", f);
	/* ranked by |points|: the first that did not move ends the list */
	while (rows < top && rows < d->n && d->d[rows].self_delta != 0)
		table_row(f, &d->d[rows++]);
	if (rows == 0)
		fputs("<tr><td colspan=\"6\" class=\"muted\">No function's own cost "
		      "moved.</td></tr>\n", f);
	rest_row(f, d, rows);
	fputs("</tbody></table>\n", f);
	return ferror(f) ? -1 : 0;
}

/* ---- the flame graph ---- */

/* Where each frame is, in viewBox units. */
struct layout {
	double *x, *w;       /* per node */
	size_t *order;       /* the nodes drawn, parents first */
	size_t n_order;
	size_t levels;       /* levels drawn */
	size_t narrow;       /* frames of some value too narrow to draw */
	bool cut;            /* a frame deeper than FLAME_LEVELS was left out */
	size_t *vanished;    /* paths of no value in the candidate whose
			      * caller has some (their callees left out) */
	size_t n_vanished;
};

/* Children side by side from their parent's left edge, in d's order, as
 * wide as their candidate value and never past their parent's right edge
 * (the profiles' children add up to at most their parent). */
static void place_children(const struct flame_diff *d, size_t i, double scale,
			   struct layout *L, size_t *stack, size_t *top)
{
	const struct flame_diff_node *p = &d->nodes[i];
	double at = L->x[i], end = L->x[i] + L->w[i];
	for (size_t k = 0; k < p->n_children; k++) {
		size_t c = p->first_child + k;
		if (c >= d->n || *top >= d->n)
			break;      /* not a tree */
		if (!(d->nodes[c].cand > 0))
			continue;
		L->x[c] = at;
		L->w[c] = fmin(d->nodes[c].cand * scale, fmax(end - at, 0));
		at += L->w[c];
		stack[(*top)++] = c;
	}
}

static void lay_out(const struct flame_diff *d, struct layout *L)
{
	L->x = xcalloc(d->n, sizeof *L->x);
	L->w = xcalloc(d->n, sizeof *L->w);
	L->order = xcalloc(d->n, sizeof *L->order);
	L->vanished = xcalloc(d->n, sizeof *L->vanished);
	size_t *stack = xcalloc(d->n, sizeof *stack), top = 0;
	double scale = FLAME_W / d->nodes[0].cand;
	L->w[0] = FLAME_W;
	stack[top++] = 0;
	while (top > 0) {
		size_t i = stack[--top];
		if (L->w[i] < MIN_W) {
			L->narrow++;
			continue;
		}
		if (d->nodes[i].depth >= FLAME_LEVELS) {
			L->cut = true;
			continue;
		}
		L->order[L->n_order++] = i;
		if (d->nodes[i].depth + 1 > L->levels)
			L->levels = d->nodes[i].depth + 1;
		place_children(d, i, scale, L, stack, &top);
	}
	free(stack);
	for (size_t i = 1; i < d->n; i++) {
		const struct flame_diff_node *x = &d->nodes[i];
		if (!(x->cand > 0) && x->base > 0 && x->parent < d->n &&
		    d->nodes[x->parent].cand > 0)
			L->vanished[L->n_vanished++] = i;
	}
}

static void layout_free(struct layout *L)
{
	free(L->x);
	free(L->w);
	free(L->order);
	free(L->vanished);
}

/* The class of a frame's fill: its value's relative change from the
 * base: a shade for each SHADE_PCT, the last from SATURATE_PCT on. */
static const char *shade(double base, double cand)
{
	static const char *const grow[SHADES] = {"grow1", "grow2", "grow3", "grow4", "grow5"};
	static const char *const shrink[SHADES] = {"shrink1", "shrink2", "shrink3",
						   "shrink4", "shrink5"};
	double pct = base > 0 ? fabs(cand - base) * 100 / base : INFINITY;
	if (cand == base || pct < SAME_PCT)
		return "same";
	int k = pct >= SATURATE_PCT ? SHADES - 1 : (int)(pct / SHADE_PCT);
	return cand > base ? grow[k] : shrink[k];
}

/* The tooltip: the whole name, both values, the change and its points. */
static void frame_title(FILE *f, const struct flame_diff *d,
			const struct flame_diff_node *x, const char *what)
{
	char b[48], c[48], pct[48], pts[48];
	count_text(b, sizeof b, x->base, false);
	count_text(c, sizeof c, x->cand, false);
	points_text(pts, sizeof pts, d->base_total > 0
		    ? (x->cand - x->base) / d->base_total * 100 : 0);
	if (x->cand == x->base)
		snprintf(pct, sizeof pct, "unchanged");
	else if (x->base > 0)
		pct_text(pct, sizeof pct, (x->cand - x->base) / x->base * 100);
	fputs("<title>", f);
	name_text(f, x->name, 0);
	if (x->base > 0)
		fprintf(f, "&#10;base %s, candidate %s %s&#10;%s, %s points", b, c,
			what, pct, pts);
	else
		fprintf(f, "&#10;candidate %s %s&#10;new: not in the base's tree, "
			"%s points", c, what, pts);
	fputs("</title>", f);
}

static void frame(FILE *f, const struct flame_diff *d, size_t i,
		  const struct layout *L, double h, const char *what)
{
	const struct flame_diff_node *x = &d->nodes[i];
	double x0 = round(L->x[i] * 10) / 10;
	double x1 = round((L->x[i] + L->w[i]) * 10) / 10;
	double y = h - PAD_BOTTOM - (double)(x->depth + 1) * FRAME_H;
	fputs("<g>", f);
	frame_title(f, d, x, what);
	fprintf(f, "<rect class=\"%s\" x=\"", shade(x->base, x->cand));
	html_num(f, x0);
	fputs("\" y=\"", f);
	html_num(f, y);
	fputs("\" width=\"", f);
	html_num(f, x1 - x0);
	fprintf(f, "\" height=\"%g\"/>", FRAME_H - 1);
	double fit = floor((x1 - x0 - 6) / CHAR_W);
	if (fit >= LABEL_MIN) {
		fputs("<text x=\"", f);
		html_num(f, x0 + 3);
		fputs("\" y=\"", f);
		html_num(f, y + 11.5);
		fputs("\">", f);
		name_text(f, x->name, (size_t)fit);
		fputs("</text>", f);
	}
	fputs("</g>\n", f);
}

static void swatch(FILE *f, const char *shade)
{
	fprintf(f, "<span class=\"key\" style=\"background:var(--%s)\">&#160;</span>",
		shade);
}

/* A colour key: shrank, the blue shades, grey, the red shades, grew. */
static void legend(FILE *f)
{
	char name[16];
	fprintf(f, "<br>Shrank by %g %% or more ", SATURATE_PCT);
	for (int k = SHADES; k >= 1; k--) {
		snprintf(name, sizeof name, "shrink%d", k);
		swatch(f, name);
	}
	swatch(f, "same");
	for (int k = 1; k <= SHADES; k++) {
		snprintf(name, sizeof name, "grow%d", k);
		swatch(f, name);
	}
	fprintf(f, " grew by %g %% or more (a shade for each %g %%; grey: "
		"within %g %%).", SATURATE_PCT, SHADE_PCT, SAME_PCT);
}

static int by_base(const void *a, const void *b, void *arg)
{
	const struct flame_diff *d = arg;
	double x = d->nodes[*(const size_t *)a].base, y = d->nodes[*(const size_t *)b].base;
	return x < y ? 1 : x > y ? -1 : 0;
}

/* The paths that vanished, largest first. */
static void vanished_list(FILE *f, const struct flame_diff *d, struct layout *L,
			  const char *what)
{
	if (L->n_vanished == 0)
		return;
	qsort_r(L->vanished, L->n_vanished, sizeof *L->vanished, by_base, (void *)d);
	fprintf(f, "<br>Vanished in the candidate (no width): ");
	for (size_t k = 0; k < L->n_vanished && k < VANISHED_MAX; k++) {
		const struct flame_diff_node *x = &d->nodes[L->vanished[k]];
		char b[48], pts[48];
		count_text(b, sizeof b, x->base, false);
		points_text(pts, sizeof pts, d->base_total > 0
			    ? -x->base / d->base_total * 100 : 0);
		fputs(k ? "; <code>" : "<code>", f);
		name_text(f, x->name, NAME_CHARS);
		fprintf(f, "</code> (base %s %s, %s points, called from <code>", b,
			what, pts);
		name_text(f, d->nodes[x->parent].name, NAME_CHARS);
		fputs("</code>)", f);
	}
	if (L->n_vanished > VANISHED_MAX)
		fprintf(f, "; and %zu more", L->n_vanished - VANISHED_MAX);
	fputs(".", f);
}

static void flame_caption(FILE *f, const struct flame_diff *d, struct layout *L,
			  const char *what)
{
	fprintf(f, "<figcaption class=\"muted\">Differential flame graph: each "
		"frame is a call path, its callees above it, and as wide as its "
		"%s in the candidate; its colour is how they changed from the "
		"base, red where they grew, blue where they shrank (hover over a "
		"frame for its numbers).", what);
	legend(f);
	vanished_list(f, d, L, what);
	if (L->narrow)
		fputs("<br>Frames too narrow to see are not drawn; their cost is "
		      "in their callers' width.", f);
	if (L->cut)
		fprintf(f, "<br>Call paths deeper than %d levels are cut there.",
			FLAME_LEVELS);
	fputs("<br>Red and blue stay distinct with the common colour-vision "
	      "deficiencies, and each frame's tooltip carries its numbers."
	      "</figcaption>\n", f);
}

int html_flame_svg(FILE *f, const struct flame_diff *d,
		   const struct html_flame_options *o)
{
	if (f == NULL || d == NULL)
		return -1;
	const char *what = event_word(o);
	if (d->n == 0 || !(d->nodes[0].cand > 0)) {
		fprintf(f, "<p class=\"muted\">No flame graph: the candidate counts "
			"no %s.</p>\n", what);
		return ferror(f) ? -1 : 0;
	}
	struct layout L = {0};
	lay_out(d, &L);
	double h = PAD_TOP + (double)L.levels * FRAME_H + PAD_BOTTOM;
	fprintf(f, "<figure class=\"wide\">\n<svg viewBox=\"0 0 %g %g\" class=\"flame\" "
		"role=\"img\">\n<title>", FLAME_W, h);
	html_text(f, o && o->title ? o->title : "Differential flame graph");
	fprintf(f, "</title>\n<desc>Call paths of the candidate as frames, callers "
		"below callees, each as wide as its %s; red frames grew from the "
		"base, blue ones shrank, grey ones did not change.</desc>\n", what);
	for (size_t k = 0; k < L.n_order; k++)
		frame(f, d, L.order[k], &L, h, what);
	fputs("</svg>\n", f);
	flame_caption(f, d, &L, what);
	fputs("</figure>\n", f);
	layout_free(&L);
	return ferror(f) ? -1 : 0;
}
