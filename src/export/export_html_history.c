/*
 * export_html_history.c: the history page (export_html_history.h): the
 * series plot with error bars and change points, the table of the points
 * and the table of the changes.
 */
#include "export_html_history.h"
#include "html_svg.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first ten hex digits, as `cbench history trend` shows them, a "+"
 * after them when dirty; "-" when unknown. */
static void commit_text(const struct history_point *p, char *buf, size_t len)
{
	if (p->commit[0] == '\0')
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.10s%s", p->commit, p->dirty == 1 ? "+" : "");
}

static void value_range(const struct html_history *h, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t k = 0; k < h->n; k++) {
		const struct history_point *q = &h->p[k];
		double a = isfinite(q->ci_lo) ? q->ci_lo : q->mean;
		double b = isfinite(q->ci_hi) ? q->ci_hi : q->mean;
		*lo = fmin(*lo, fmin(a, q->mean));
		*hi = fmax(*hi, fmax(b, q->mean));
	}
	if (*hi <= *lo) {
		double d = *lo != 0 ? fabs(*lo) * 0.05 : 1;
		*lo -= d;
		*hi += d;
	}
	double pad = (*hi - *lo) * 0.08;
	*lo = *lo >= 0 && *lo - pad < 0 ? 0 : *lo - pad;
	*hi += pad;
}

/* The commit labels under the x axis: every step-th, so that the longest
 * (about 7 px a character at 12 px) never overlaps its neighbour. */
static void x_labels(struct html_plot *pl, const struct html_history *h)
{
	size_t longest = 1;
	for (size_t k = 0; k < h->n; k++) {
		char c[16];
		commit_text(&h->p[k], c, sizeof c);
		longest = strlen(c) > longest ? strlen(c) : longest;
	}
	double room = (pl->w - pl->ml - pl->mr) / (double)(longest * 7 + 12);
	size_t fit = room >= 1 ? (size_t)room : 1;
	size_t step = h->n > fit ? (h->n + fit - 1) / fit : 1;
	for (size_t k = 0; k < h->n; k += step) {
		char c[16];
		commit_text(&h->p[k], c, sizeof c);
		fprintf(pl->f, "<text class=\"lbl\" x=\"");
		html_num(pl->f, html_px(pl, (double)k));
		fprintf(pl->f, "\" y=\"%g\" text-anchor=\"middle\">", pl->h - pl->mb + 15);
		html_text(pl->f, c);
		fputs("</text>\n", pl->f);
	}
	fprintf(pl->f, "<text class=\"lbl\" x=\"%g\" y=\"%g\" text-anchor=\"middle\">"
		"commit (oldest first)</text>\n", (pl->ml + pl->w - pl->mr) / 2,
		pl->h - 6);
}

/* A dashed vertical line between the two points of each change. */
static void changes(struct html_plot *pl, const struct html_history *h)
{
	FILE *f = pl->f;
	for (size_t k = 0; k < h->nch; k++) {
		const struct cp_change *c = &h->ch[k];
		double x = html_px(pl, (double)c->index - 0.5);
		fputs("<line class=\"thr\" x1=\"", f);
		html_num(f, x);
		fputs("\" x2=\"", f);
		html_num(f, x);
		fprintf(f, "\" y1=\"%g\" y2=\"%g\"><title>change %zu: %+.1f %% "
			"(p = %.2g)</title></line>\n", pl->mt, pl->h - pl->mb, k + 1,
			(c->ratio - 1) * 100, c->p_value);
	}
}

static void points(struct html_plot *pl, const struct html_history *h)
{
	FILE *f = pl->f;
	fputs("<path class=\"line s0\" d=\"", f);
	for (size_t k = 0; k < h->n; k++) {
		fputs(k ? " L" : "M", f);
		html_num(f, html_px(pl, (double)k));
		fputc(',', f);
		html_num(f, html_py(pl, h->p[k].mean));
	}
	fputs("\"/>\n", f);
	for (size_t k = 0; k < h->n; k++) {
		const struct history_point *q = &h->p[k];
		double x = html_px(pl, (double)k);
		char m[48], c[16];
		html_value(m, sizeof m, q->mean, &pl->yu);
		commit_text(q, c, sizeof c);
		fputs("<g>", f);
		if (isfinite(q->ci_lo) && isfinite(q->ci_hi)) {
			fputs("<line class=\"ci s0\" x1=\"", f);
			html_num(f, x);
			fputs("\" x2=\"", f);
			html_num(f, x);
			fputs("\" y1=\"", f);
			html_num(f, html_py(pl, q->ci_lo));
			fputs("\" y2=\"", f);
			html_num(f, html_py(pl, q->ci_hi));
			fputs("\"/>", f);
		}
		fputs("<circle class=\"f0\" r=\"3.5\" cx=\"", f);
		html_num(f, x);
		fputs("\" cy=\"", f);
		html_num(f, html_py(pl, q->mean));
		fprintf(f, "\"/><title>#%lld, commit ", (long long)q->inv);
		html_text(f, c);
		fputs(": ", f);
		html_text(f, m);
		fputs("</title></g>\n", f);
	}
}

static void series_plot(FILE *f, const struct html_history *h, const char *label)
{
	double lo, hi;
	value_range(h, &lo, &hi);
	struct html_axis xa = {.lo = -0.5, .hi = (double)h->n - 0.5,
			       .categorical = true, .label = NULL,
			       .unit = {.kind = PLOT_COUNT, .name = "", .div = 1}};
	struct html_axis ya = {.lo = lo, .hi = hi, .label = label,
			       .unit = html_unit_for(html_metric_kind((enum metric_id)h->metric),
						     fmax(fabs(lo), fabs(hi)))};
	char *title = xasprintf("Mean %s of %s per invocation", label, h->bench);
	struct html_plot pl = {.mb = 40};
	fputs("<figure class=\"wide\">\n", f);
	html_plot_begin(&pl, f, 760, 300, &xa, &ya, title,
			"One point per recorded invocation, oldest first, the bar "
			"its confidence interval; a dashed line marks each detected "
			"change point.");
	x_labels(&pl, h);
	changes(&pl, h);
	points(&pl, h);
	html_plot_end(&pl);
	fputs("<figcaption class=\"muted\">", f);
	html_text(f, title);
	fputs("; bars: confidence interval of the mean; dashed lines: change "
	      "points.</figcaption>\n</figure>\n", f);
	free(title);
}

static void points_table(FILE *f, const struct html_history *h,
			 const struct html_unit *u)
{
	fputs("<h2>The points</h2>\n<p class=\"muted\">With the machine's state "
	      "as each invocation ended: its load average over one minute, and "
	      "the benchmark's CPU time as a share of its wall time (a busy "
	      "machine raises the first and, for a command that computes, "
	      "lowers the second).</p>\n<table><thead><tr><th>Invocation</th>"
	      "<th>Recorded (UTC)</th><th>Commit</th><th>Branch</th><th>Mean</th>"
	      "<th>CI of the mean</th><th>Runs</th><th>Load</th><th>CPU time / "
	      "wall</th></tr></thead><tbody>\n", f);
	for (size_t k = 0; k < h->n; k++) {
		const struct history_point *q = &h->p[k];
		char m[48], a[48], b[48], c[16];
		html_value(m, sizeof m, q->mean, u);
		html_value(a, sizeof a, q->ci_lo, u);
		html_value(b, sizeof b, q->ci_hi, u);
		commit_text(q, c, sizeof c);
		fprintf(f, "<tr><td>#%lld</td><td>", (long long)q->inv);
		html_text(f, q->recorded_at);
		fputs("</td><td><code>", f);
		html_text(f, c);
		fputs("</code></td><td>", f);
		html_text(f, q->branch[0] ? q->branch : "-");
		fprintf(f, "</td><td>%s</td><td>%s – %s</td><td>%zu</td>", m, a, b,
			q->n);
		if (isfinite(q->load))
			fprintf(f, "<td>%.2f</td>", q->load);
		else
			fputs("<td>–</td>", f);
		if (isfinite(q->cpu_share))
			fprintf(f, "<td>%.0f %%</td></tr>\n", q->cpu_share * 100);
		else
			fputs("<td>–</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void changes_table(FILE *f, const struct html_history *h,
			  const struct html_unit *u)
{
	fputs("<h2>Change points</h2>\n<p class=\"muted\">E-divisive, ", f);
	html_text(f, h->test);
	fputs(", as <code>cbench history detect</code> reports them.</p>\n", f);
	if (h->nch == 0) {
		if (h->n < 2 * h->min_size)
			fputs("<p>No change (too few points to tell).</p>\n", f);
		else if (h->resolution > 0)
			fprintf(f, "<p>No change (a step under ±%.*f %% would "
				"likely be missed).</p>\n", h->resolution < 0.1 ? 1 : 0,
				h->resolution * 100);
		else
			fputs("<p>No change.</p>\n", f);
		return;
	}
	fputs("<table><thead><tr><th>Between</th><th>Commits</th><th>Before</th>"
	      "<th>After</th><th>Change</th><th>CI of the change</th><th>p</th>"
	      "<th>Not the code's</th></tr></thead><tbody>\n", f);
	for (size_t k = 0; k < h->nch; k++) {
		const struct cp_change *c = &h->ch[k];
		const struct history_point *a = &h->p[c->index - 1], *b = &h->p[c->index];
		char ca[16], cb[16], mb[48], ma[48];
		commit_text(a, ca, sizeof ca);
		commit_text(b, cb, sizeof cb);
		html_value(mb, sizeof mb, c->mean_before, u);
		html_value(ma, sizeof ma, c->mean_after, u);
		fprintf(f, "<tr><td>#%lld and #%lld</td><td><code>", (long long)a->inv,
			(long long)b->inv);
		html_text(f, ca);
		fputs("</code> → <code>", f);
		html_text(f, cb);
		fprintf(f, "</code></td><td>%s</td><td>%s</td><td class=\"%s\">%+.1f %%"
			"</td><td>%+.1f %% – %+.1f %%</td><td>%.2g</td><td>", mb, ma,
			c->ratio > 1 ? "bad" : "good", (c->ratio - 1) * 100,
			(c->ratio_lo - 1) * 100, (c->ratio_hi - 1) * 100, c->p_value);
		html_text(f, h->cause && h->cause[k][0] ? h->cause[k] : "–");
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

int export_html_history(FILE *f, const struct html_history *h)
{
	const char *label = html_metric_label((enum metric_id)h->metric);
	char *title = h->title ? xstrdup(h->title) : xasprintf("History of %s", h->bench);
	html_head(f, title);
	fputs("<h1>", f);
	html_text(f, title);
	fputs("</h1>\n<dl class=\"ctx\"><dt>Benchmark</dt><dd><code>", f);
	html_text(f, h->bench);
	fputs("</code></dd><dt>Metric</dt><dd>", f);
	html_text(f, label);
	if (h->metric_why && h->metric_why[0]) {
		fputs(", ", f);
		html_text(f, h->metric_why);
	}
	fputs("</dd><dt>Machine</dt><dd>", f);
	html_text(f, h->machine ? h->machine : "all machines");
	fprintf(f, "</dd><dt>Invocations</dt><dd>%zu</dd><dt>Change points</dt>"
		"<dd>%zu</dd></dl>\n", h->n, h->nch);
	free(title);
	double mx = 0;
	for (size_t k = 0; k < h->n; k++)
		mx = fmax(mx, fabs(h->p[k].mean));
	struct html_unit u = html_unit_for(html_metric_kind((enum metric_id)h->metric), mx);
	fputs("<section id=\"series\">\n<div class=\"row\">\n", f);
	series_plot(f, h, label);
	fputs("</div>\n", f);
	changes_table(f, h, &u);
	points_table(f, h, &u);
	fputs("</section>\n", f);
	return html_tail(f, " from its results history: one self-contained page.");
}
