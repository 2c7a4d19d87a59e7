/*
 * html_svg.c: the page frame and the plot frame of the HTML reports (see
 * html_svg.h).
 *
 * The style sheet carries everything a reader's setting changes: the
 * colours of light and dark mode (prefers-color-scheme), the print layout
 * (white paper, no page break inside a plot, every folded table open).
 * SVG text and lines take their colours from it through classes, because
 * presentation attributes cannot read CSS variables.
 */
#include "html_svg.h"
#include "utf8.h"
#include "version.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* s[0..n) escaped. */
static void text_n(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* Control characters are not allowed in HTML text. */
			if ((unsigned char)s[i] < 0x20 && s[i] != '\n' && s[i] != '\t')
				fputc(' ', f);
			else
				fputc(s[i], f);
		}
	}
}

/* Every text of a page is valid UTF-8: bytes that are not (a name, a
 * command or a label given so) are written as U+FFFD, as in the JSON. */
void html_text(FILE *f, const char *s)
{
	if (s == NULL)
		return;
	char *clean = utf8_valid(s) ? NULL : utf8_clean(s);
	const char *t = clean ? clean : s;
	text_n(f, t, strlen(t));
	free(clean);
}

static bool text_cut(FILE *f, const char *s, size_t max_chars);

bool html_text_cut(FILE *f, const char *s, size_t max_chars)
{
	char *clean = utf8_valid(s) ? NULL : utf8_clean(s);
	bool cut = text_cut(f, clean ? clean : s, max_chars);
	free(clean);
	return cut;
}

static bool text_cut(FILE *f, const char *s, size_t max_chars)
{
	size_t chars = 0, keep = 0, i = 0;
	for (; s[i]; i++) {
		if (((unsigned char)s[i] & 0xC0) == 0x80)
			continue;      /* a UTF-8 continuation byte */
		if (chars + 1 == max_chars)
			keep = i;      /* where the cut goes if there is one */
		if (++chars > max_chars)
			break;
	}
	if (s[i] == '\0') {
		text_n(f, s, i);
		return false;
	}
	text_n(f, s, keep);
	fputs("…", f);
	return true;
}

static const char style[] =
	":root{color-scheme:light dark;--fg:#1d1f23;--bg:#ffffff;--muted:#5f6670;"
	"--grid:#e4e6ea;--axis:#8a9099;--band:#0072b2;--panel:#f6f7f9;"
	"--c0:#0072b2;--c1:#d55e00;--c2:#009e73;--c3:#cc79a7;--c4:#e69f00;"
	"--c5:#56b4e9;--c6:#b8a200;--c7:#555555;--bad:#d55e00;--good:#009e73}\n"
	"@media (prefers-color-scheme:dark){:root{--fg:#e6e8eb;--bg:#15171a;"
	"--muted:#a3a9b2;--grid:#2c3036;--axis:#6f7680;--panel:#1d2024;"
	"--c0:#56b4e9;--c1:#e69f00;--c2:#2fc39a;--c3:#e09cc4;--c4:#f0e442;"
	"--c5:#8fd0f5;--c6:#d5c43a;--c7:#b0b0b0;--bad:#f08a4b;--good:#2fc39a}}\n"
	"body{font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;"
	"color:var(--fg);background:var(--bg);max-width:1180px;margin:0 auto;"
	"padding:1.5em 1.2em 3em}\n"
	"h1{font-size:1.6em;margin:.2em 0 .1em}h2{font-size:1.25em;margin-top:2em;"
	"border-bottom:1px solid var(--grid);padding-bottom:.2em}"
	"h3{font-size:1.05em;margin:1.6em 0 .4em}\n"
	"code{font-family:ui-monospace,'DejaVu Sans Mono',monospace;font-size:.92em;"
	"overflow-wrap:anywhere}\n"
	".muted{color:var(--muted)}.bad{color:var(--bad);font-weight:600}"
	".good{color:var(--good);font-weight:600}\n"
	"dl.ctx{display:grid;grid-template-columns:max-content 1fr;gap:.1em 1em;"
	"margin:.8em 0;padding:.7em 1em;background:var(--panel);border-radius:6px}"
	"dl.ctx dt{color:var(--muted)}dl.ctx dd{margin:0}\n"
	".row{display:flex;flex-wrap:wrap;gap:1em 2em;align-items:flex-start}"
	"figure{margin:0;flex:1 1 520px;min-width:0}"
	"figure.wide{flex-basis:100%}\n"
	"svg{display:block;width:100%;height:auto;max-width:760px}"
	"svg text{fill:var(--fg);font-size:12px}svg .lbl{fill:var(--muted)}\n"
	".grid{stroke:var(--grid);stroke-width:1}.axis{stroke:var(--axis);"
	"stroke-width:1}.ref{stroke:var(--fg);stroke-dasharray:4 3;opacity:.7}"
	".thr{stroke:var(--bad);stroke-dasharray:6 3}\n"
	".s0{stroke:var(--c0)}.s1{stroke:var(--c1)}.s2{stroke:var(--c2)}"
	".s3{stroke:var(--c3)}.s4{stroke:var(--c4)}.s5{stroke:var(--c5)}"
	".s6{stroke:var(--c6)}.s7{stroke:var(--c7)}\n"
	".f0{fill:var(--c0)}.f1{fill:var(--c1)}.f2{fill:var(--c2)}"
	".f3{fill:var(--c3)}.f4{fill:var(--c4)}.f5{fill:var(--c5)}"
	".f6{fill:var(--c6)}.f7{fill:var(--c7)}.fbad{fill:var(--bad)}"
	".fg{fill:var(--fg)}\n"
	".line{fill:none;stroke-width:1.6}.band{opacity:.22}.bar{opacity:.45}"
	".ci{stroke-width:2.5}.dash{stroke-dasharray:5 3}\n"
	"table{border-collapse:collapse;font-variant-numeric:tabular-nums;"
	"font-size:.9em;margin:.3em 0}th,td{padding:.15em .7em;text-align:right;"
	"border-bottom:1px solid var(--grid);vertical-align:top}"
	"th:first-child,td:first-child{text-align:left}th{font-weight:600}\n"
	"details{margin:.4em 0}summary{cursor:pointer;color:var(--muted)}\n"
	/* differential flame graphs (html_flame.c): grey, then five shades of
	 * red (grew) and blue (shrank); every shade keeps --fg text above 4.5:1
	 * (WCAG AA), and print stays light */
	":root{--same:#d3d6db;--grow1:#d6bebf;--grow2:#d8a7a2;--grow3:#db8f86;"
	"--grow4:#dd7869;--grow5:#e0604d;--shrink1:#b9cad7;--shrink2:#9ebdd3;"
	"--shrink3:#84b1d0;--shrink4:#69a4cc;--shrink5:#4f98c8}\n"
	"@media screen and (prefers-color-scheme:dark){:root{--same:#3c4148;"
	"--grow1:#543942;--grow2:#6b313c;--grow3:#832837;--grow4:#9a2031;"
	"--grow5:#b2182b;--shrink1:#37485c;--shrink2:#315070;--shrink3:#2c5784;"
	"--shrink4:#265f98;--shrink5:#2166ac}}\n"
	"svg.flame{max-width:none}.flame rect{stroke:var(--bg);stroke-width:.5}"
	".flame text{font:11px ui-monospace,'DejaVu Sans Mono',monospace}"
	"td.l,th.l,caption{text-align:left}\n"
	".same{fill:var(--same)}.grow1{fill:var(--grow1)}.grow2{fill:var(--grow2)}"
	".grow3{fill:var(--grow3)}.grow4{fill:var(--grow4)}.grow5{fill:var(--grow5)}"
	".shrink1{fill:var(--shrink1)}.shrink2{fill:var(--shrink2)}"
	".shrink3{fill:var(--shrink3)}.shrink4{fill:var(--shrink4)}"
	".shrink5{fill:var(--shrink5)}\n"
	".key{display:inline-block;width:.9em;height:.9em;border-radius:2px;"
	"vertical-align:-.1em;margin-right:.35em}\n"
	"@media print{:root{color-scheme:light;--fg:#000;--bg:#fff;--panel:#f3f3f3}"
	"body{max-width:none;padding:0;font-size:11pt}figure,table,.bench{"
	"break-inside:avoid}h2{break-after:avoid}details>*{display:block}"
	"summary{display:none}}\n";

void html_head(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"color-scheme\" content=\"light dark\">\n<title>", f);
	html_text(f, title);
	fputs("</title>\n<style>\n", f);
	fputs(style, f);
	fputs("</style>\n</head>\n<body>\n", f);
}

int html_tail(FILE *f, const char *how)
{
	char made[256];
	snprintf(made, sizeof made, "Made by cbench %s%s", CBENCH_VERSION, how);
	fputs("<footer class=\"muted\"><p>", f);
	html_text(f, made);
	fputs("</p></footer>\n</body>\n</html>\n", f);
	return ferror(f) ? -1 : 0;
}

struct html_unit html_unit_for(enum plot_unit_kind kind, double max_abs)
{
	struct html_unit u = {.kind = kind};
	u.name = plot_unit(kind, max_abs, &u.div);
	return u;
}

enum plot_unit_kind html_metric_kind(enum metric_id m)
{
	switch (metric_info(m)->unit) {
	case UNIT_SECONDS: return PLOT_SECONDS;
	case UNIT_BYTES: return PLOT_BYTES;
	default: return PLOT_COUNT;
	}
}

const char *html_metric_label(enum metric_id m)
{
	switch (m) {
	case MET_WALL: return "wall time";
	case MET_USER: return "user time";
	case MET_SYSTEM: return "system time";
	default: return metric_info(m)->label;
	}
}

void html_value(char *buf, size_t len, double v, const struct html_unit *u)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	double s = v / u->div;
	if (fabs(s) >= 1e4 && u->kind != PLOT_BYTES)
		snprintf(buf, len, "%.0f%s%s", s, u->name[0] ? " " : "", u->name);
	else
		snprintf(buf, len, "%.4g%s%s", s, u->name[0] ? " " : "", u->name);
}

void html_metric_value(char *buf, size_t len, double v, enum plot_unit_kind k)
{
	struct html_unit u = html_unit_for(k, v);
	html_value(buf, len, v, &u);
}

void html_num(FILE *f, double v)
{
	if (!isfinite(v))
		v = 0;
	double r = round(v * 10) / 10;
	if (r == (double)(long)r)
		fprintf(f, "%ld", (long)r);
	else
		fprintf(f, "%.1f", r);
}

double html_px(const struct html_plot *p, double x)
{
	return plot_scale_map(&p->x, x / p->xu.div);
}

double html_py(const struct html_plot *p, double y)
{
	return plot_scale_map(&p->y, y / p->yu.div);
}

/* Ticks and scale of one axis, in its unit. */
static void axis_setup(const struct html_axis *a, struct plot_ticks *t,
		       struct plot_scale *s, double r0, double r1)
{
	double lo = a->lo / a->unit.div, hi = a->hi / a->unit.div;
	if (a->categorical) {
		t->n = 0;
		plot_scale_init(s, a->lo, a->hi, r0, r1, false);
		return;
	}
	if (a->log && plot_ticks_log(lo, hi, t) > 0) {
		plot_scale_init(s, t->lo, t->hi, r0, r1, true);
		return;
	}
	plot_ticks_linear(lo, hi, 6, t);
	plot_scale_init(s, t->lo, t->hi, r0, r1, false);
}

static void tick_label(char *buf, size_t len, const struct plot_ticks *t,
		       bool log, double v)
{
	if (log)
		snprintf(buf, len, "%g", v);
	else
		snprintf(buf, len, "%.*f", t->decimals, v);
}

/* The axis label with its unit: "wall time (ms)". */
static void axis_label(FILE *f, const struct html_axis *a)
{
	html_text(f, a->label);
	if (!a->categorical && a->unit.name[0]) {
		fputs(" (", f);
		html_text(f, a->unit.name);
		fputs(")", f);
	}
}

static void draw_x_ticks(struct html_plot *p, const struct html_axis *x)
{
	FILE *f = p->f;
	double y0 = p->h - p->mb;
	for (size_t i = 0; i < p->xt.n; i++) {
		char buf[64];
		double px = plot_scale_map(&p->x, p->xt.v[i]);
		fputs("<line class=\"grid\" x1=\"", f);
		html_num(f, px);
		fputs("\" x2=\"", f);
		html_num(f, px);
		fprintf(f, "\" y1=\"%g\" y2=\"%g\"/>", p->mt, y0);
		tick_label(buf, sizeof buf, &p->xt, p->x.log, p->xt.v[i]);
		fputs("<text x=\"", f);
		html_num(f, px);
		fprintf(f, "\" y=\"%g\" text-anchor=\"middle\">%s</text>\n", y0 + 15, buf);
	}
	if (x->label) {
		fprintf(f, "<text class=\"lbl\" x=\"%g\" y=\"%g\" text-anchor=\"middle\">",
			p->ml + (p->w - p->ml - p->mr) / 2, p->h - 6);
		axis_label(f, x);
		fputs("</text>\n", f);
	}
}

static void draw_y_ticks(struct html_plot *p, const struct html_axis *y)
{
	FILE *f = p->f;
	for (size_t i = 0; i < p->yt.n; i++) {
		char buf[64];
		double py = plot_scale_map(&p->y, p->yt.v[i]);
		fprintf(f, "<line class=\"grid\" x1=\"%g\" x2=\"%g\" y1=\"", p->ml,
			p->w - p->mr);
		html_num(f, py);
		fputs("\" y2=\"", f);
		html_num(f, py);
		fputs("\"/>", f);
		tick_label(buf, sizeof buf, &p->yt, p->y.log, p->yt.v[i]);
		fprintf(f, "<text x=\"%g\" y=\"", p->ml - 6);
		html_num(f, py + 4);
		fprintf(f, "\" text-anchor=\"end\">%s</text>\n", buf);
	}
	if (y->label && !y->categorical) {
		double cy = p->mt + (p->h - p->mt - p->mb) / 2;
		fprintf(f, "<text class=\"lbl\" x=\"14\" y=\"%g\" text-anchor=\"middle\" "
			"transform=\"rotate(-90 14 %g)\">", cy, cy);
		axis_label(f, y);
		fputs("</text>\n", f);
	}
}

void html_plot_begin(struct html_plot *p, FILE *f, double w, double h,
		     const struct html_axis *x, const struct html_axis *y,
		     const char *title, const char *desc)
{
	p->f = f;
	p->w = w;
	p->h = h;
	if (p->ml == 0)
		p->ml = 62;
	if (p->mr == 0)
		p->mr = 16;
	if (p->mt == 0)
		p->mt = 12;
	if (p->mb == 0)
		p->mb = x->label ? 42 : 26;
	p->xu = x->unit;
	p->yu = y->unit;
	axis_setup(x, &p->xt, &p->x, p->ml, w - p->mr);
	axis_setup(y, &p->yt, &p->y, h - p->mb, p->mt);
	fprintf(f, "<svg viewBox=\"0 0 %g %g\" "
		"role=\"img\">\n<title>", w, h);
	html_text(f, title);
	fputs("</title>\n<desc>", f);
	html_text(f, desc);
	fputs("</desc>\n", f);
	draw_x_ticks(p, x);
	draw_y_ticks(p, y);
	fprintf(f, "<line class=\"axis\" x1=\"%g\" x2=\"%g\" y1=\"%g\" y2=\"%g\"/>\n",
		p->ml, w - p->mr, h - p->mb, h - p->mb);
	if (!y->categorical)
		fprintf(f, "<line class=\"axis\" x1=\"%g\" x2=\"%g\" y1=\"%g\" "
			"y2=\"%g\"/>\n", p->ml, p->ml, p->mt, h - p->mb);
}

void html_plot_end(struct html_plot *p)
{
	fputs("</svg>\n", p->f);
}
