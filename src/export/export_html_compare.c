/*
 * export_html_compare.c: the page of `cbench report --compare BASE NEW`
 * (see export_html.h): every matched benchmark's ratio new / base with
 * its confidence interval, regressions first, the gate's threshold drawn
 * on both sides of 1; then base against new, each pair's distributions
 * overlaid.  The numbers are the gate's (gate.h): the page shows the
 * decision `cbench compare` would make on the same two files.
 */
#include "export_html.h"
#include "html_svg.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PAIRS_MAX 24    /* pairs drawn one by one */

static const char *row_name(const struct cmp_row *r)
{
	return r->new ? r->new->name : r->base->name;
}

static enum plot_unit_kind metric_kind(int metric)
{
	return metric < MET_COUNT ? html_metric_kind((enum metric_id)metric)
				  : PLOT_SECONDS;
}

static const char *verdict_class(enum cmp_verdict v)
{
	return v == CMP_REGRESSION ? "bad" : v == CMP_IMPROVEMENT ? "good" : "";
}

static void header(FILE *f, const struct cmp_report *r, const struct html_meta *m)
{
	fputs("<header>\n<h1>", f);
	html_text(f, m->title ? m->title : "cbench comparison");
	fputs("</h1>\n<dl class=\"ctx\">\n<dt>Base → new</dt><dd><code>", f);
	html_text(f, m->sources);
	fputs("</code></dd>\n", f);
	const struct machine_info *mi = m->have_machine ? m->machine : NULL;
	if (mi && mi->started_at[0]) {
		fputs("<dt>New measured</dt><dd>", f);
		html_text(f, mi->started_at);
		if (mi->hostname[0]) {
			fputs(" on ", f);
			html_text(f, mi->hostname);
		}
		fputs("</dd>\n", f);
	}
	if (mi && mi->kernel[0]) {
		fputs("<dt>Kernel</dt><dd>", f);
		html_text(f, mi->kernel);
		fputs("</dd>\n", f);
	}
	fputs("<dt>Measured by</dt><dd>", f);
	html_text(f, m->measured_by);
	fputs("</dd>\n<dt>Metric</dt><dd>", f);
	html_text(f, gate_metric_key(r->metric));
	if (r->why[0]) {
		fputs(" (", f);
		html_text(f, r->why);
		fputs(")", f);
	}
	fprintf(f, "</dd>\n<dt>Threshold</dt><dd>%g %% at %g %% confidence</dd>\n",
		r->threshold * 100, r->confidence * 100);
	if (r->family_size > 1)
		fprintf(f, "<dt>Family</dt><dd>%zu benchmarks: p-values Holm-adjusted, "
			"each interval at %.4g %% so that all hold together at %g %% "
			"(Bonferroni)</dd>\n", r->family_size, r->ci_level * 100,
			r->confidence * 100);
	fprintf(f, "<dt>Verdicts</dt><dd><span class=\"%s\">%zu regressed</span>, "
		"<span class=\"%s\">%zu improved</span>, %zu within noise, %zu "
		"undecided, %zu only in one file</dd>\n</dl>\n</header>\n",
		r->count[CMP_REGRESSION] ? "bad" : "", r->count[CMP_REGRESSION],
		r->count[CMP_IMPROVEMENT] ? "good" : "", r->count[CMP_IMPROVEMENT],
		r->count[CMP_NOISE], r->count[CMP_UNDECIDED],
		r->count[CMP_ONLY_BASE] + r->count[CMP_ONLY_NEW]);
}

static void ratio_plot(FILE *f, const struct cmp_report *r)
{
	struct html_forest_row *rows = xcalloc(r->n_rows ? r->n_rows : 1, sizeof *rows);
	size_t n = 0;
	double lo = 1 - r->threshold, hi = 1 + r->threshold;
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct cmp_row *w = &r->rows[i];
		if (!w->base || !w->new)
			continue;
		const struct stats_comparison *c = &w->st;
		rows[n++] = (struct html_forest_row){row_name(w), c->ratio, c->ratio_lo,
			c->ratio_hi, w->verdict == CMP_REGRESSION ? -1
				     : w->verdict == CMP_IMPROVEMENT ? 2 : 0};
		double l = isfinite(c->ratio_lo) ? c->ratio_lo : c->ratio;
		double h = isfinite(c->ratio_hi) ? c->ratio_hi : c->ratio;
		lo = isfinite(l) ? fmin(lo, l) : lo;
		hi = isfinite(h) ? fmax(hi, h) : hi;
	}
	if (n) {
		double thr[2] = {1 - r->threshold, 1 + r->threshold};
		struct html_axis x = {.lo = lo, .hi = hi, .label = "ratio new / base",
				      .unit = {.kind = PLOT_COUNT, .name = "", .div = 1}};
		fputs("<figure class=\"wide\">\n", f);
		html_forest(f, rows, n, &x, 1, thr, 2, "Ratio new / base of every "
			    "matched benchmark with its confidence interval",
			    "Forest plot, regressions first: each ratio of means new / "
			    "base with its confidence interval; the dashed line is 1, "
			    "the two orange dashed lines the gate's threshold.");
		fputs("<figcaption class=\"muted\">Above 1: slower.  Orange dashed "
		      "lines: the threshold; a regression is significant with its "
		      "whole interval beyond the upper one.</figcaption>\n</figure>\n", f);
	}
	free(rows);
}

static void rows_table(FILE *f, const struct cmp_report *r)
{
	struct html_unit u = {.kind = PLOT_COUNT, .name = "", .div = 1};
	fputs("<table><thead><tr><th>benchmark</th><th>base mean</th><th>new mean"
	      "</th><th>ratio</th><th>CI of the ratio</th><th>p</th><th>verdict</th>"
	      "</tr></thead><tbody>\n", f);
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct cmp_row *w = &r->rows[i];
		char a[48], b[48], ratio[32], lo[48], hi[48], p[32];
		enum plot_unit_kind k = metric_kind(r->metric);
		html_metric_value(a, sizeof a, w->base ? w->base_mean : NAN, k);
		html_metric_value(b, sizeof b, w->new ? w->new_mean : NAN, k);
		bool both = w->base && w->new;
		snprintf(ratio, sizeof ratio, both && isfinite(w->st.ratio) ? "%.4g" : "n/a",
			 w->st.ratio);
		html_value(lo, sizeof lo, both ? w->st.ratio_lo : NAN, &u);
		html_value(hi, sizeof hi, both ? w->st.ratio_hi : NAN, &u);
		snprintf(p, sizeof p, both && isfinite(w->p) ? "%.3g" : "n/a", w->p);
		fputs("<tr><td>", f);
		html_text(f, row_name(w));
		fprintf(f, "</td><td>%s</td><td>%s</td><td>%s</td><td>%s – %s</td>"
			"<td>%s</td><td class=\"%s\">%s</td></tr>\n", a, b, ratio, lo, hi,
			p, verdict_class(w->verdict), gate_verdict_name(w->verdict));
	}
	fputs("</tbody></table>\n", f);
}

static void pair(FILE *f, const struct cmp_report *r, const struct cmp_row *w)
{
	const char *key = gate_metric_key(r->metric);
	/* Only the means are the gate's: the plot finds the spread itself. */
	struct stats_summary sa = {.mean = w->base_mean, .mean_ci_lo = NAN,
				   .mean_ci_hi = NAN, .n = w->base_n, .stddev = NAN};
	struct stats_summary sb = {.mean = w->new_mean, .mean_ci_lo = NAN,
				   .mean_ci_hi = NAN, .n = w->new_n, .stddev = NAN};
	struct html_series s[2] = {
		{"base", w->base->col[r->metric], w->base->n_runs, &sa, 0},
		{"new", w->new->col[r->metric], w->new->n_runs, &sb, 1},
	};
	fputs("<h3>", f);
	html_text(f, row_name(w));
	fprintf(f, " <span class=\"%s\">", verdict_class(w->verdict));
	html_text(f, gate_verdict_name(w->verdict));
	fputs("</span></h3>\n<div class=\"row bench\">\n<figure>\n", f);
	if (s[0].x && s[1].x)
		html_distribution(f, s, 2, metric_kind(r->metric), key, row_name(w), false);
	fputs("</figure>\n<div>\n<table><tbody>\n", f);
	char a[48], b[48];
	html_metric_value(a, sizeof a, w->base_mean, metric_kind(r->metric));
	html_metric_value(b, sizeof b, w->new_mean, metric_kind(r->metric));
	fprintf(f, "<tr><td>base: runs, mean</td><td>%zu</td><td>%s</td></tr>\n",
		w->base_n, a);
	fprintf(f, "<tr><td>new: runs, mean</td><td>%zu</td><td>%s</td></tr>\n",
		w->new_n, b);
	fprintf(f, "<tr><td>ratio [CI]</td><td colspan=\"2\">%.4g [%.4g, %.4g]</td></tr>\n",
		w->st.ratio, w->st.ratio_lo, w->st.ratio_hi);
	fputs("</tbody></table>\n</div>\n</div>\n", f);
}

int export_html_compare(FILE *f, const struct cmp_report *r, const struct html_meta *m)
{
	html_head(f, m->title ? m->title : "cbench comparison");
	header(f, r, m);
	fputs("<section id=\"summary\">\n<h2>Every matched benchmark</h2>\n", f);
	ratio_plot(f, r);
	rows_table(f, r);
	fputs("</section>\n", f);
	size_t matched = 0;
	for (size_t i = 0; i < r->n_rows; i++)
		matched += r->rows[i].base && r->rows[i].new;
	if (matched <= PAIRS_MAX) {
		fputs("<section id=\"pairs\">\n<h2>Base against new</h2>\n", f);
		for (size_t i = 0; i < r->n_rows; i++)
			if (r->rows[i].base && r->rows[i].new)
				pair(f, r, &r->rows[i]);
		fputs("</section>\n", f);
	}
	return html_tail(f, " report --compare: the decision cbench compare makes "
			 "on these two files.");
}
