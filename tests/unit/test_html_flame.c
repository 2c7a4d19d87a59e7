/*
 * Unit tests: html_flame.c, the table of the functions whose own cost
 * moved and the differential flame graph of the HTML report.
 *
 * Profiles are the callgrind fixtures of tests/fixtures/valgrind/ (see
 * make-fixtures.sh there): cl-base/ holds the three processes of a
 * traced `sh -c 'prog | cat'`, cl-slow/ the same with a build whose
 * parse_line does more work of its own (5,812 -> 270,612 instructions,
 * the totals 516,355 -> 781,136; test_callgrind.c checks those numbers
 * against callgrind_annotate).  Small profiles and trees are written
 * here by hand.
 *
 * The SVG is checked as a reader sees it: frames parsed back from the
 * output (position, width, class, the name in the tooltip), checked for
 * XML well-formedness here and by xmllint when installed, its colours
 * read from the page's style sheet.  The fixtures' fragment is compared
 * with tests/golden/flame-fragment.html; UPDATE_GOLDEN=1 rewrites it
 * (review with git diff).
 *
 * With an argument, the binary writes a standalone demo page there
 * instead of testing (a look in a browser):
 *     make build/tests/test_html_flame && build/tests/test_html_flame /tmp/flame.html
 */
#include "html_flame.h"
#include "html_svg.h"
#include "unit.h"
#include "xalloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <unistd.h>

#define FIX "tests/fixtures/valgrind/"
#define GOLDEN "tests/golden/flame-fragment.html"

static char err[512];

/* The profile of the files of dir ("cg.*"), or else of text. */
static struct profile *profile_of(const char *dir, const char *text)
{
	struct profile *p = profile_new();
	size_t n;
	int rc = dir ? profile_add_dir(p, dir, "cg.", &n, err, sizeof err)
		     : profile_add_text(p, text, strlen(text), "t.out", err, sizeof err);
	if (rc < 0) {
		printf("# %s\n", err);
		profile_free(p);
		return NULL;
	}
	return p;
}

/* Two profiles, their diff and their differential tree. */
struct pair {
	struct profile *base, *cand;
	struct profile_diff diff;
	struct flame_diff flame;
};

static bool pair_of(struct pair *x, struct profile *base, struct profile *cand)
{
	memset(x, 0, sizeof *x);
	x->base = base;
	x->cand = cand;
	if (base == NULL || cand == NULL)
		return false;
	if (profile_diff(base, cand, VG_IR, &x->diff, err, sizeof err) < 0 ||
	    profile_flame_diff(base, cand, VG_IR, NULL, &x->flame, err, sizeof err) < 0) {
		printf("# %s\n", err);
		return false;
	}
	return true;
}

static void pair_free(struct pair *x)
{
	profile_flame_diff_free(&x->flame);
	profile_diff_free(&x->diff);
	profile_free(x->base);
	profile_free(x->cand);
}

static bool fixtures(struct pair *x)
{
	return pair_of(x, profile_of(FIX "cl-base", NULL), profile_of(FIX "cl-slow", NULL));
}

/* A stream into memory: open, write, then close for the string. */
struct sink {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *sink_open(struct sink *s)
{
	s->buf = NULL;
	s->len = 0;
	return s->f = open_memstream(&s->buf, &s->len);
}

/* The string written (the caller frees it). */
static char *sink_close(struct sink *s)
{
	fclose(s->f);
	return s->buf;
}

/* What each function writes, as a string; *rc its return value. */
static char *table_of(const struct profile_diff *d, const struct html_flame_options *o,
		      int *rc)
{
	struct sink s;
	*rc = html_flame_table(sink_open(&s), d, o);
	return sink_close(&s);
}

static char *svg_of(const struct flame_diff *d, const struct html_flame_options *o,
		    int *rc)
{
	struct sink s;
	*rc = html_flame_svg(sink_open(&s), d, o);
	return sink_close(&s);
}

/* ---- reading the output back ---- */

/*
 * Is s[0..n) well-formed XML (one element)?  Tags nest and match,
 * attribute values are quoted, '<' and '&' only start markup and
 * references (the five predefined entities and character references).
 * Enough for what the renderer writes: no comments, CDATA or doctype.
 */
static bool xml_ok(const char *s, size_t n, char *why, size_t whylen)
{
	char stack[64][32];
	size_t depth = 0, roots = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '&') {
			static const char *const ent[] = {"amp;", "lt;", "gt;", "quot;", "apos;"};
			bool ok = s[i + 1] == '#' && (isdigit((unsigned char)s[i + 2]) ||
						      s[i + 2] == 'x');
			for (size_t e = 0; e < 5; e++)
				ok |= strncmp(s + i + 1, ent[e], strlen(ent[e])) == 0;
			if (!ok || memchr(s + i, ';', n - i) == NULL) {
				snprintf(why, whylen, "bad reference at %zu: %.20s", i, s + i);
				return false;
			}
			continue;
		}
		if (s[i] == '>') {
			snprintf(why, whylen, "stray '>' at %zu", i);
			return false;
		}
		if (s[i] != '<')
			continue;
		bool close = s[i + 1] == '/';
		size_t j = i + 1 + close, k = j;
		while (k < n && (isalnum((unsigned char)s[k]) || s[k] == '-' || s[k] == ':'))
			k++;
		if (k == j || k - j >= sizeof stack[0]) {
			snprintf(why, whylen, "bad tag name at %zu: %.20s", i, s + i);
			return false;
		}
		/* attributes: name="value" with no '<' and only references for '&' */
		while (k < n && s[k] != '>' && !(s[k] == '/' && s[k + 1] == '>')) {
			if (s[k] == '"' || s[k] == '\'') {
				char q = s[k++];
				while (k < n && s[k] != q) {
					if (s[k] == '<' || (s[k] == '&' && !(isalpha((unsigned char)s[k + 1]) ||
									     s[k + 1] == '#'))) {
						snprintf(why, whylen, "bad attribute value at %zu", k);
						return false;
					}
					k++;
				}
			} else if (s[k] == '=' && s[k + 1] != '"' && s[k + 1] != '\'') {
				snprintf(why, whylen, "unquoted attribute at %zu", k);
				return false;
			}
			k++;
		}
		if (k >= n) {
			snprintf(why, whylen, "tag not closed at %zu", i);
			return false;
		}
		size_t m = strcspn(s + j, " \t\n/>");
		if (close) {
			if (depth == 0 || m != strlen(stack[depth - 1]) ||
			    strncmp(stack[depth - 1], s + j, m) != 0) {
				snprintf(why, whylen, "</%.*s> closes <%s> at %zu",
					 (int)strcspn(s + j, ">"), s + j, depth ? stack[depth - 1] : "", i);
				return false;
			}
			depth--;
		} else if (s[k] != '/') {
			if (depth == 0)
				roots++;
			if (depth == sizeof stack / sizeof stack[0]) {
				snprintf(why, whylen, "nested too deep");
				return false;
			}
			snprintf(stack[depth++], sizeof stack[0], "%.*s", (int)m, s + j);
		} else if (depth == 0) {
			roots++;
		}
		i = s[k] == '/' ? k + 1 : k;
	}
	if (depth != 0 || roots != 1) {
		snprintf(why, whylen, "%zu elements open at the end, %zu roots", depth, roots);
		return false;
	}
	return true;
}

/* The <svg> element of a rendering, as a new string. */
static char *svg_part(const char *html)
{
	const char *a = strstr(html, "<svg"), *b = strstr(html, "</svg>");
	return a && b && b > a ? xstrndup(a, (size_t)(b + 6 - a)) : NULL;
}

/* A frame as drawn: where, its class and the name its tooltip starts with
 * (escaped, as written). */
struct frame {
	double x, y, w, h;
	char cls[16];
	char name[256];
	char title[512];
};

static size_t frames_of(const char *svg, struct frame *out, size_t max)
{
	size_t n = 0;
	for (const char *p = strstr(svg, "<g><title>"); p && n < max;
	     p = strstr(p + 1, "<g><title>")) {
		struct frame *fr = &out[n];
		const char *t = p + strlen("<g><title>"), *end = strstr(t, "</title>");
		if (end == NULL)
			break;
		snprintf(fr->title, sizeof fr->title, "%.*s", (int)(end - t), t);
		const char *nl = strstr(t, "&#10;");
		size_t len = (size_t)((nl && nl < end ? nl : end) - t);
		len = len < sizeof fr->name ? len : sizeof fr->name - 1;
		memcpy(fr->name, t, len);
		fr->name[len] = '\0';
		if (sscanf(end, "</title><rect class=\"%15[^\"]\" x=\"%lf\" y=\"%lf\" "
			   "width=\"%lf\" height=\"%lf\"", fr->cls, &fr->x, &fr->y,
			   &fr->w, &fr->h) == 5)
			n++;
	}
	return n;
}

static const struct frame *frame_named(const struct frame *fr, size_t n,
				       const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(fr[i].name, name) == 0)
			return &fr[i];
	return NULL;
}

/* Every frame but the root stands on one below it, within its edges, and
 * the frames on one frame do not overlap: together never wider than it. */
static bool nested(const struct frame *fr, size_t n, char *why, size_t whylen)
{
	for (size_t i = 0; i < n; i++) {
		const struct frame *parent = NULL;
		double used = 0;
		for (size_t j = 0; j < n; j++) {
			if (fr[j].y == fr[i].y + 16 && fr[j].x <= fr[i].x + 1e-9 &&
			    fr[i].x + fr[i].w <= fr[j].x + fr[j].w + 1e-9)
				parent = &fr[j];
			if (fr[j].y == fr[i].y - 16 && fr[j].x >= fr[i].x - 1e-9 &&
			    fr[j].x + fr[j].w <= fr[i].x + fr[i].w + 1e-9)
				used += fr[j].w;
		}
		if (used > fr[i].w + 1e-6) {
			snprintf(why, whylen, "%.60s: children %.1f wide on %.1f", fr[i].name,
				 used, fr[i].w);
			return false;
		}
		bool root = strcmp(fr[i].name, "all") == 0;
		if (root != (parent == NULL)) {
			snprintf(why, whylen, "%.60s at x %.1f, y %.1f: %s", fr[i].name, fr[i].x,
				 fr[i].y, root ? "stands on a frame" : "stands on none");
			return false;
		}
	}
	/* no two frames of one level overlap */
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (fr[i].y == fr[j].y && fr[i].x < fr[j].x + fr[j].w - 1e-9 &&
			    fr[j].x < fr[i].x + fr[i].w - 1e-9) {
				snprintf(why, whylen, "%.60s and %.60s overlap", fr[i].name,
					 fr[j].name);
				return false;
			}
	return true;
}

/* The colour a variable of the style sheet has in the light scheme
 * (dark = false) or the dark one, as red, green and blue. */
static bool css_colour(const char *var, bool dark, int rgb[3])
{
	struct sink sk;
	html_head(sink_open(&sk), "t");
	char *css = sink_close(&sk);
	const char *from = css;
	if (dark)
		from = strstr(css, "@media screen and (prefers-color-scheme:dark){:root{--same");
	char key[32];
	snprintf(key, sizeof key, "--%s:#", var);
	const char *p = from ? strstr(from, key) : NULL;
	bool ok = p && sscanf(p + strlen(key), "%2x%2x%2x", (unsigned *)&rgb[0],
			      (unsigned *)&rgb[1], (unsigned *)&rgb[2]) == 3;
	free(css);
	return ok;
}

/* ---- the table ---- */

/* parse_line first, its numbers (callgrind_annotate's, see the top), the
 * total's change in the caption; growth in the "bad" class. */
static void table_ranks_parse_line_first(void)
{
	struct pair x;
	CHECK(fixtures(&x));
	int rc;
	char *t = table_of(&x.diff, NULL, &rc);
	CHECK(rc == 0 && t != NULL);
	/* (781,136 - 516,355) / 516,355 = +51.28 % */
	CHECK(strstr(t, "<caption><span class=\"bad\">+51.3 %</span> instructions "
		      "(simulated): 516,355 → 781,136") != NULL);
	const char *row = strstr(strstr(t, "<tbody>"), "<tr>");
	static const char first[] =
		"<tr><td><code>parse_line</code></td><td class=\"l\" "
		"title=\"/tmp/cbench-vg/prog.c\">prog.c</td><td>5,812</td>"
		"<td>270,612</td><td class=\"bad\">+264,800 (+4556 %)</td>"
		"<td class=\"bad\">+51.3 points</td></tr>\n";
	CHECK(row != NULL);
	if (strncmp(row, first, strlen(first)) != 0)
		printf("# first row: %.*s\n", (int)strcspn(row, "\n"), row);
	CHECK(strncmp(row, first, strlen(first)) == 0);
	/* at most ten functions, then one row for the rest */
	size_t rows = 0;
	for (const char *p = row; (p = strstr(p, "<tr>")) != NULL; p++)
		rows++;
	CHECK(rows <= 11);
	CHECK(strstr(t, "more functions that changed") != NULL || rows < 11);
	free(t);
	/* three rows asked for */
	struct html_flame_options o = {.top = 3};
	t = table_of(&x.diff, &o, &rc);
	rows = 0;
	for (const char *p = strstr(t, "<tbody>"); (p = strstr(p, "<tr>")) != NULL; p++)
		rows++;
	CHECK(rc == 0 && rows == 4 && strstr(t, "more functions that changed") != NULL);
	free(t);
	pair_free(&x);
}

/* Hand-made: shrinkage in "good", new and vanished functions, a file
 * unknown (the object named instead), unchanged functions left out, the
 * rest summed, points with two decimals below 1. */
static void table_by_hand(void)
{
	struct pair x;
	CHECK(pair_of(&x, profile_of(NULL,
		"events: Ir\nob=/a/prog\nfl=/src/m.c\nfn=main\n1 1000\nfn=small\n1 200\n"
		"fn=gone\n1 30\nfn=same\n1 500\nob=/usr/lib/libc.so.6\nfl=???\nfn=memcpy\n1 100\n"),
		profile_of(NULL,
		"events: Ir\nob=/a/prog\nfl=/src/m.c\nfn=main\n1 1000\nfn=small\n1 150\n"
		"fn=fresh\n1 2\nfn=same\n1 500\nob=/usr/lib/libc.so.6\nfl=???\nfn=memcpy\n1 101\n")));
	int rc;
	struct html_flame_options o = {.top = 3};
	char *t = table_of(&x.diff, &o, &rc);
	CHECK(rc == 0);
	/* total 1830 -> 1753: -4.2 % */
	CHECK(strstr(t, "<span class=\"good\">-4.2 %</span> instructions (simulated): "
		      "1,830 → 1,753") != NULL);
	CHECK(strstr(t, "<td>200</td><td>150</td><td class=\"good\">-50 (-25.0 %)</td>"
		      "<td class=\"good\">-2.7 points</td>") != NULL);
	CHECK(strstr(t, "<td>30</td><td>–</td><td class=\"good\">-30 (vanished)</td>") != NULL);
	CHECK(strstr(t, "<td>–</td><td>2</td><td class=\"bad\">+2 (new)</td>"
		      "<td class=\"bad\">+0.11 points</td>") != NULL);
	CHECK(strstr(t, "<td>1 more function that changed</td>") == NULL);
	CHECK(strstr(t, "<td class=\"muted\">1 more function that changed</td><td "
		      "class=\"l\"></td><td>100</td><td>101</td><td class=\"bad\">+1</td>"
		      "<td class=\"bad\">+0.05 points</td>") != NULL);
	CHECK(strstr(t, ">main<") == NULL && strstr(t, ">same<") == NULL);
	free(t);
	/* every row that changed: memcpy's file unknown, its object named */
	t = table_of(&x.diff, NULL, &rc);
	CHECK(rc == 0 && strstr(t, "more function") == NULL);
	CHECK(strstr(t, "<tr><td><code>memcpy</code></td><td class=\"l\" title=\"file "
		      "unknown; object /usr/lib/libc.so.6\"><span class=\"muted\">"
		      "libc.so.6</span></td>") != NULL);
	free(t);
	/* nothing moved */
	struct profile_diff none = {.base_total = 10, .cand_total = 10};
	t = table_of(&none, NULL, &rc);
	CHECK(rc == 0 && strstr(t, "No change</span>") != NULL &&
	      strstr(t, "No function's own cost moved.") != NULL);
	free(t);
	pair_free(&x);
}

/* ---- the flame graph ---- */

/* parse_line's frame (and its callers') saturated red, the frames of sh
 * and cat (the same in both runs) grey; widths in the candidate's
 * proportion; children within their parents. */
static void flame_of_fixtures(void)
{
	struct pair x;
	CHECK(fixtures(&x));
	int rc;
	char *out = svg_of(&x.flame, NULL, &rc);
	CHECK(rc == 0 && out != NULL);
	char *svg = svg_part(out), why[300] = "";
	CHECK(svg != NULL);
	bool ok = xml_ok(svg, strlen(svg), why, sizeof why);
	if (!ok)
		printf("# %s\n", why);
	CHECK(ok);
	static struct frame fr[4096];
	size_t n = frames_of(svg, fr, 4096);
	CHECK(n > 20);
	const struct frame *root = frame_named(fr, n, "all");
	const struct frame *parse = frame_named(fr, n, "parse_line");
	CHECK(root != NULL && root->x == 0 && root->w == 960);
	CHECK(parse != NULL && strcmp(parse->cls, "grow5") == 0);
	CHECK(strcmp(frame_named(fr, n, "main")->cls, "grow5") == 0);
	/* 312,709 of 781,136 instructions: 384.3 units of 960 */
	CHECK_NEAR(parse->w, 312709.0 / 781136 * 960, 0.1);
	CHECK(strstr(parse->title, "base 47,909, candidate 312,709 instructions&#10;"
		     "+553 %, +51.3 points") != NULL);
	/* every frame whose values read the same is grey (from 1,000 up, where
	 * the rounding to whole numbers is below the 0.1 % drawn grey), and
	 * there are some: sh's and cat's */
	size_t same = 0;
	for (size_t i = 0; i < n; i++) {
		char bs[64], cs[64];
		const char *nl = strstr(fr[i].title, "&#10;");
		if (nl == NULL || sscanf(nl, "&#10;base %63[^ ] candidate %63[0-9,]",
					 bs, cs) != 2)
			continue;
		if (bs[strlen(bs) - 1] == ',')
			bs[strlen(bs) - 1] = '\0';
		if (strcmp(bs, cs) != 0 || strlen(bs) < 5)
			continue;
		if (strcmp(fr[i].cls, "same") != 0)
			printf("# %s: %s, base and candidate %s\n", fr[i].name, fr[i].cls, bs);
		CHECK(strcmp(fr[i].cls, "same") == 0);
		same++;
	}
	CHECK(same > 5);
	ok = nested(fr, n, why, sizeof why);
	if (!ok)
		printf("# %s\n", why);
	CHECK(ok);
	/* labels fit their frames: 7 units a character, 3 of padding */
	for (const char *p = strstr(svg, "<text x=\""); p; p = strstr(p + 1, "<text x=\"")) {
		double tx;
		CHECK(sscanf(p, "<text x=\"%lf\"", &tx) == 1);
		const char *g = p;
		while (g > svg && strncmp(g, "<rect", 5) != 0)
			g--;
		double rx, rw;
		CHECK(sscanf(g, "<rect class=\"%*[^\"]\" x=\"%lf\" y=\"%*f\" width=\"%lf\"",
			     &rx, &rw) == 2);
		const char *s = strchr(p, '>') + 1, *e = strstr(s, "</text>");
		size_t chars = 0;
		for (const char *c = s; c < e; c++) {
			if (*c == '&')
				c = strchr(c, ';');
			chars += ((unsigned char)*c & 0xC0) != 0x80;
		}
		CHECK(tx == rx + 3 && chars * 7.0 + 6 <= rw + 1e-9);
	}
	CHECK(strstr(out, "<figcaption") != NULL && strstr(out, "Vanished") == NULL);
	free(svg);
	free(out);
	pair_free(&x);
}

/* The colours: the shades' variables of the style sheet, red for growth,
 * blue for shrinkage and grey for none, in both schemes. */
static void flame_colours_in_style_sheet(void)
{
	for (int dark = 0; dark <= 1; dark++) {
		int g[3], s[3], n[3];
		CHECK(css_colour("grow5", dark, g) && css_colour("shrink5", dark, s) &&
		      css_colour("same", dark, n));
		CHECK(g[0] > g[2] + 0x40 && g[0] > g[1] + 0x40);   /* red-ish */
		CHECK(s[2] > s[0] + 0x40);                         /* blue-ish */
		CHECK(abs(n[0] - n[2]) < 0x10 && abs(n[0] - n[1]) < 0x10);   /* grey */
		for (int k = 1; k <= 4; k++) {
			char v[16];
			int a[3], b[3];
			snprintf(v, sizeof v, "grow%d", k);
			CHECK(css_colour(v, dark, a));
			snprintf(v, sizeof v, "grow%d", k + 1);
			CHECK(css_colour(v, dark, b));
			CHECK(b[0] - b[2] > a[0] - a[2]);   /* redder with each shade */
		}
	}
}

static struct flame_diff_node node(const char *name, size_t parent, size_t depth,
				   double base, double cand)
{
	return (struct flame_diff_node){.name = name, .parent = parent, .depth = depth,
		.first_child = PROFILE_NONE, .base = base, .cand = cand};
}

/* A tree written by hand: the scale's steps (5 % a shade from 0.1 %,
 * saturated at 20 %; new frames saturated), a vanished path listed and
 * not drawn, a frame too narrow to draw, a chain cut at 40 levels. */
static void flame_scale_by_hand(void)
{
	struct flame_diff_node n[80];
	size_t k = 0;
	n[k++] = node("all", PROFILE_NONE, 0, 1000, 1000);
	static const struct { const char *name; double base, cand; const char *cls; } kids[] = {
		{"deep", 200, 200, "same"}, {"c20", 100, 120, "grow5"},
		{"c199", 100, 119.9, "grow4"}, {"c5", 100, 105, "grow2"},
		{"c49", 100, 104.9, "grow1"}, {"c005", 100, 100.05, "same"},
		{"m30", 100, 70, "shrink5"}, {"m6", 100, 94, "shrink2"},
		{"fresh", 0, 10, "grow5"}, {"gone", 50, 0, NULL}, {"tiny", 1, 0.1, NULL},
	};
	size_t nk = sizeof kids / sizeof kids[0];
	n[0].first_child = 1;
	n[0].n_children = nk;
	for (size_t i = 0; i < nk; i++)
		n[k++] = node(kids[i].name, 0, 1, kids[i].base, kids[i].cand);
	/* under "gone", a callee: vanished with it, not listed on its own */
	n[10].first_child = k;
	n[10].n_children = 1;
	n[k++] = node("gone_callee", 10, 2, 40, 0);
	/* a chain of 60 under "deep" */
	n[1].first_child = k;
	n[1].n_children = 1;
	for (size_t d = 2; d < 62; d++) {
		n[k] = node(d % 2 ? "odd" : "even", d == 2 ? 1 : k - 1, d, 200, 200);
		if (d + 1 < 62) {
			n[k].first_child = k + 1;
			n[k].n_children = 1;
		}
		k++;
	}
	struct flame_diff fd = {.nodes = n, .n = k, .base_total = 1000, .cand_total = 1000};
	int rc;
	char *out = svg_of(&fd, NULL, &rc);
	CHECK(rc == 0);
	static struct frame fr[200];
	size_t nf = frames_of(out, fr, 200);
	for (size_t i = 0; i < nk; i++) {
		const struct frame *f = frame_named(fr, nf, kids[i].name);
		if (kids[i].cls == NULL) {
			CHECK(f == NULL);
			continue;
		}
		CHECK(f != NULL);
		if (strcmp(f->cls, kids[i].cls) != 0)
			printf("# %s: %s, expected %s\n", kids[i].name, f->cls, kids[i].cls);
		CHECK(strcmp(f->cls, kids[i].cls) == 0);
		CHECK_NEAR(f->w, kids[i].cand * 0.96, 0.1);
	}
	CHECK(strstr(frame_named(fr, nf, "fresh")->title,
		     "candidate 10 instructions&#10;new: not in the base's tree, +1.0 points") != NULL);
	/* 40 levels: the root, "deep" and 38 of the chain */
	size_t chain = 0;
	for (size_t i = 0; i < nf; i++)
		chain += strcmp(fr[i].name, "odd") == 0 || strcmp(fr[i].name, "even") == 0;
	CHECK(chain == 38);
	CHECK(strstr(out, "viewBox=\"0 0 960 646\" class=\"flame\"") != NULL);   /* 4 + 40 x 16 + 2 */
	CHECK(strstr(out, "Call paths deeper than 40 levels are cut there.") != NULL);
	CHECK(strstr(out, "Frames too narrow to see are not drawn") != NULL);
	CHECK(strstr(out, "Vanished in the candidate (no width): <code>gone</code> "
		      "(base 50 instructions, -5.0 points, called from <code>all</code>).") != NULL);
	CHECK(strstr(out, "gone_callee") == NULL);
	char why[300];
	CHECK(nested(fr, nf, why, sizeof why));
	free(out);
	/* a candidate that counts nothing */
	struct flame_diff_node z = node("all", PROFILE_NONE, 0, 10, 0);
	struct flame_diff zd = {.nodes = &z, .n = 1, .base_total = 10};
	out = svg_of(&zd, NULL, &rc);
	CHECK(rc == 0 && strcmp(out, "<p class=\"muted\">No flame graph: the candidate "
				"counts no instructions.</p>\n") == 0);
	free(out);
}

/* ---- names ---- */

/* A name with every character HTML and XML reserve, one with a byte that
 * is not UTF-8, and a long C++ one: escaped, replaced, cut with the whole
 * name in a tooltip. */
static void hostile_names_escaped(void)
{
	static const char *const fmt =
		"events: Ir\nob=/a/prog\nfl=/src/<x>&\"y'.c\nfn=main\n1 10\n"
		"cfn=a<b>&\"c'\ncalls=1 1\n1 %d\n"
		"cfn=bad\xff" "byte\ncalls=1 1\n1 %d\n"
		"cfn=std::vector<std::pair<int, std::string>, std::allocator<std::pair<int, "
		"std::string> > >::push_back(std::pair<int, std::string> const&)\n"
		"calls=1 1\n1 %d\n"
		"fn=a<b>&\"c'\n1 %d\nfn=bad\xff" "byte\n1 %d\n"
		"fn=std::vector<std::pair<int, std::string>, std::allocator<std::pair<int, "
		"std::string> > >::push_back(std::pair<int, std::string> const&)\n1 %d\n";
	char a[2048], b[2048];
	snprintf(a, sizeof a, fmt, 100, 50, 400, 100, 50, 400);
	snprintf(b, sizeof b, fmt, 300, 40, 400, 300, 40, 400);
	struct pair x;
	CHECK(pair_of(&x, profile_of(NULL, a), profile_of(NULL, b)));
	int rc;
	char *t = table_of(&x.diff, NULL, &rc), *s = svg_of(&x.flame, NULL, &rc);
	CHECK(rc == 0 && t != NULL && s != NULL);
	CHECK(strstr(t, "<code>a&lt;b&gt;&amp;&quot;c&#39;</code>") != NULL);
	CHECK(strstr(t, "title=\"/src/&lt;x&gt;&amp;&quot;y&#39;.c\">&lt;x&gt;&amp;"
		      "&quot;y&#39;.c</td>") != NULL);
	CHECK(strstr(t, "bad\xef\xbf\xbd" "byte") != NULL && strstr(t, "\xff") == NULL);
	CHECK(strstr(t, "a<b") == NULL && strstr(s, "a<b") == NULL);
	CHECK(strstr(s, "<title>a&lt;b&gt;&amp;&quot;c&#39;&#10;base 100, candidate 300") != NULL);
	CHECK(strstr(s, "\xff") == NULL);
	char *svg = svg_part(s), why[300] = "";
	bool ok = svg && xml_ok(svg, strlen(svg), why, sizeof why);
	if (!ok)
		printf("# %s\n", why);
	CHECK(ok);
	/* the C++ name: cut to its frame in the graph, whole in its tooltip;
	 * unchanged, so not in the table */
	CHECK(strstr(s, "<title>std::vector&lt;std::pair&lt;int, std::string&gt;, "
		      "std::allocator") != NULL);
	const char *cxx = strstr(s, "<title>std::vector");
	const char *label = cxx ? strstr(cxx, "<text") : NULL;
	const char *end = label ? strstr(label, "</text>") : NULL;
	CHECK(end != NULL && strncmp(end - strlen("…"), "…", strlen("…")) == 0);
	CHECK(strstr(cxx, "const&amp;)&#10;base 400, candidate 400") != NULL);
	CHECK(strstr(t, "push_back") == NULL);
	free(svg);
	free(t);
	free(s);
	pair_free(&x);
}

/* ---- files and streams ---- */

/* The fixtures' table and graph, as the report page would hold them. */
static char *fragment(const struct pair *x)
{
	int rc1, rc2;
	char *t = table_of(&x->diff, NULL, &rc1), *s = svg_of(&x->flame, NULL, &rc2);
	char *all = rc1 == 0 && rc2 == 0 ? xasprintf("%s%s", t, s) : NULL;
	free(t);
	free(s);
	return all;
}

static void golden_fragment(void)
{
	struct pair x;
	CHECK(fixtures(&x));
	char *got = fragment(&x);
	pair_free(&x);
	CHECK(got != NULL);
	const char *upd = getenv("UPDATE_GOLDEN");
	if (upd && strcmp(upd, "1") == 0) {
		FILE *f = fopen(GOLDEN, "wb");
		CHECK(f != NULL);
		fputs(got, f);
		CHECK(fclose(f) == 0);
	}
	size_t len;
	char *want = vgout_read_file(GOLDEN, &len, err, sizeof err);
	if (want == NULL)
		printf("# %s (UPDATE_GOLDEN=1 creates it)\n", err);
	bool same = want && strcmp(got, want) == 0;
	if (want && !same) {
		size_t i = 0, line = 1;
		for (; got[i] && got[i] == want[i]; i++)
			line += got[i] == '\n';
		printf("# %s differs at line %zu (UPDATE_GOLDEN=1 rewrites it)\n", GOLDEN, line);
	}
	free(want);
	free(got);
	CHECK(same);
}

/* xmllint, libxml2's parser, agrees that the SVG is well-formed. */
static void xmllint_agrees(void)
{
	if (system("xmllint --version >/dev/null 2>&1") != 0)
		SKIP("xmllint not installed (libxml2-utils)");
	struct pair x;
	CHECK(fixtures(&x));
	int rc;
	char *out = svg_of(&x.flame, NULL, &rc), *svg = svg_part(out);
	pair_free(&x);
	char path[] = "/tmp/cbench-flame-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0 && svg != NULL);
	FILE *f = fdopen(fd, "w");
	fputs(svg, f);
	fclose(f);
	char *cmd = xasprintf("xmllint --noout %s 2>&1", path);
	int st = system(cmd);
	unlink(path);
	free(cmd);
	free(svg);
	free(out);
	CHECK(st == 0);
}

/* -1 for a stream that fails and for nothing to draw. */
static void failures(void)
{
	CHECK(html_flame_table(NULL, NULL, NULL) == -1);
	CHECK(html_flame_svg(stdout, NULL, NULL) == -1);
	FILE *f = fopen("/dev/full", "w");
	if (f == NULL)
		SKIP("no /dev/full");
	setvbuf(f, NULL, _IONBF, 0);
	struct profile_diff d = {.base_total = 1, .cand_total = 1};
	struct flame_diff_node r = node("all", PROFILE_NONE, 0, 1, 1);
	struct flame_diff fd = {.nodes = &r, .n = 1, .base_total = 1, .cand_total = 1};
	CHECK(html_flame_table(f, &d, NULL) == -1);
	clearerr(f);
	CHECK(html_flame_svg(f, &fd, NULL) == -1);
	fclose(f);
}

/* ---- the demo page ---- */

static void demo_section(FILE *f, const char *heading, const struct pair *x,
			 const char *title)
{
	struct html_flame_options o = {.title = title};
	fputs("<section>\n<h2>", f);
	html_text(f, heading);
	fputs("</h2>\n", f);
	html_flame_table(f, &x->diff, &o);
	html_flame_svg(f, &x->flame, &o);
	fputs("</section>\n", f);
}

/* A page of three comparisons: the fixtures both ways, and a small one of
 * hostile names, new and vanished paths. */
static int demo_page(FILE *f)
{
	struct pair up = {0}, down = {0}, odd = {0};
	bool ok = fixtures(&up) &&
		  pair_of(&down, profile_of(FIX "cl-slow", NULL),
			  profile_of(FIX "cl-base", NULL)) &&
		  pair_of(&odd, profile_of(NULL,
			"events: Ir\nfl=m.c\nfn=main\n1 100\ncfn=a<b>&\"c'\ncalls=1 1\n1 400\n"
			"cfn=gone\ncalls=1 1\n1 300\ncfn=steady\ncalls=1 1\n1 200\n"
			"fn=a<b>&\"c'\n1 400\nfn=gone\n1 300\nfn=steady\n1 200\n"),
			profile_of(NULL,
			"events: Ir\nfl=m.c\nfn=main\n1 100\ncfn=a<b>&\"c'\ncalls=1 1\n1 440\n"
			"cfn=fresh\ncalls=1 1\n1 150\ncfn=steady\ncalls=1 1\n1 190\n"
			"fn=a<b>&\"c'\n1 440\nfn=fresh\n1 150\nfn=steady\n1 190\n"));
	if (!ok) {
		pair_free(&up);
		pair_free(&down);
		pair_free(&odd);
		return -1;
	}
	html_head(f, "cbench: differential profiles (demo)");
	fputs("<h1>Differential profiles</h1>\n<p>The Valgrind fixtures of "
	      "<code>tests/fixtures/valgrind/</code>, rendered by "
	      "<code>html_flame.c</code>.</p>\n", f);
	demo_section(f, "base → slower parse_line", &up, "The slower build against the base");
	demo_section(f, "slower → base (the fix)", &down, "The base against the slower build");
	demo_section(f, "Hand-made: a hostile name, new and vanished paths", &odd,
		     "A hand-made profile");
	pair_free(&up);
	pair_free(&down);
	pair_free(&odd);
	return html_tail(f, ": a demo of html_flame.c (tests/unit/test_html_flame.c).");
}

static void demo_page_renders(void)
{
	struct sink sk;
	int rc = demo_page(sink_open(&sk));
	char *buf = sink_close(&sk);
	size_t len = sk.len;
	CHECK(rc == 0);
	CHECK(strncmp(buf, "<!DOCTYPE html>", 15) == 0);
	CHECK(strstr(buf, "</html>\n") == buf + len - 8);
	CHECK(strstr(buf, "class=\"shrink5\"") != NULL && strstr(buf, "class=\"grow5\"") != NULL);
	CHECK(strstr(buf, "Vanished in the candidate (no width): <code>gone</code>") != NULL);
	CHECK(strstr(buf, "<script") == NULL && strstr(buf, "http") == NULL);
	free(buf);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		FILE *f = fopen(argv[1], "w");
		int rc = f ? demo_page(f) : -1;
		if (f && fclose(f) != 0)
			rc = -1;
		if (rc != 0)
			fprintf(stderr, "test_html_flame: cannot write %s (run it from the "
				"top of the tree: it reads tests/fixtures/)\n", argv[1]);
		return rc ? 1 : 0;
	}
	RUN(table_ranks_parse_line_first);
	RUN(table_by_hand);
	RUN(flame_of_fixtures);
	RUN(flame_colours_in_style_sheet);
	RUN(flame_scale_by_hand);
	RUN(hostile_names_escaped);
	RUN(golden_fragment);
	RUN(xmllint_agrees);
	RUN(failures);
	RUN(demo_page_renders);
	UNIT_EXIT();
}
