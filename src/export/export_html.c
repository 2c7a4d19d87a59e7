/*
 * export_html.c: --export-html, the report page of a run (see
 * export_html.h): the context, a summary (a forest plot of every mean
 * with its interval against the comparison base, the verdicts), then per
 * benchmark its distribution, its runs in order and every metric, the
 * comparisons with the base, and the sweep plots.
 *
 * Each plot has its numbers in a table beside it.  A page stays readable
 * and small at any size: beyond DETAIL_MAX benchmarks (a long sweep) the
 * per-benchmark and per-pair plots are left out, with a note, and the
 * sweep plots carry the picture; long tables are folded (<details>).
 */
#include "export_text.h"
#include "profile.h"
#include "html_flame.h"
#include "export_html.h"
#include "html_svg.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DETAIL_MAX 24      /* benchmarks with their own plots */
#define FOREST_MAX 60      /* rows of the summary's forest plot */
#define SHARED_MAX 8       /* benchmarks on one shared progression */
#define RUNS_TABLE_MAX 200 /* runs listed in a progression's table */

static const char *const warning_text[] = {
	"the first run was far slower than the others",
	"many outliers",
	"too fast to time reliably",
	"mostly waiting (wall time far above CPU time)",
	"two clusters of run times",
	"the machine's speed drifted (consecutive runs correlated)",
	"what ran before changed its time (its runs after another "
	"benchmark's differ from its runs after its own)",
};
/* one text per enum stats_warning bit, STATS_WARN_CARRYOVER the last */
_Static_assert(1u << (sizeof warning_text / sizeof *warning_text - 1) ==
	       STATS_WARN_CARRYOVER,
	       "a warning without its text in the HTML report");

static void cell(FILE *f, const char *s)
{
	fputs("<td>", f);
	html_text(f, s);
	fputs("</td>", f);
}

static void value_cell(FILE *f, double v, const struct html_unit *u)
{
	char b[48];
	html_value(b, sizeof b, v, u);
	cell(f, b);
}

static void interval_cell(FILE *f, double lo, double hi, const struct html_unit *u)
{
	char a[48], b[48], s[100];
	if (!isfinite(lo) || !isfinite(hi)) {
		cell(f, "n/a");
		return;
	}
	html_value(a, sizeof a, lo, u);
	html_value(b, sizeof b, hi, u);
	snprintf(s, sizeof s, "%s – %s", a, b);
	cell(f, s);
}

static const char *bench_name(const struct export_doc *d, size_t i)
{
	return d->outcome->results[i]->name;
}

static void context_block(FILE *f, const struct export_doc *d,
			  const struct html_meta *m)
{
	fputs("<header>\n<h1>", f);
	html_text(f, m->title ? m->title : "cbench report");
	fputs("</h1>\n<dl class=\"ctx\">\n", f);
	const struct machine_info *mi = m->have_machine ? m->machine : NULL;
	struct { const char *k, *v; bool code; } rows[] = {
		{"Date", mi ? mi->started_at : NULL, false},
		{"Machine", mi && mi->hostname[0] ? mi->hostname : NULL, false},
		{"CPU", mi && mi->cpu_model[0] ? mi->cpu_model : NULL, false},
		{"Kernel", mi && mi->kernel[0] ? mi->kernel : NULL, false},
		{"Measured by", m->measured_by, false},
		{"Command", m->command_line, true},
		{"Options", m->options, false},
		{"From", m->sources, true},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		if (rows[i].v == NULL || rows[i].v[0] == '\0')
			continue;
		fprintf(f, "<dt>%s</dt><dd>%s", rows[i].k, rows[i].code ? "<code>" : "");
		html_text(f, rows[i].v);
		if (i == 2 && mi && mi->cpus > 0)
			fprintf(f, " × %ld", mi->cpus);
		fprintf(f, "%s</dd>\n", rows[i].code ? "</code>" : "");
	}
	fprintf(f, "<dt>Benchmarks</dt><dd>%zu</dd>\n</dl>\n</header>\n",
		d->outcome->n);
}

/* The verdict of benchmark i against the base, as a word and a class. */
static const char *verdict_of(const struct export_doc *d, size_t i, const char **cls)
{
	*cls = "";
	if ((long)i == d->an->base)
		return "comparison base";
	const struct analysis_cmp *c = analysis_find_cmp(d->an, i, MET_WALL);
	if (c == NULL)
		return "n/a";
	if (c->cmp.verdict == VERDICT_SLOWER)
		*cls = "bad";
	else if (c->cmp.verdict == VERDICT_FASTER)
		*cls = "good";
	return stats_verdict_name(c->cmp.verdict);
}

static void summary_table(FILE *f, const struct export_doc *d,
			  const struct html_unit *u)
{
	const struct analysis *an = d->an;
	fputs("<table><thead><tr><th>Benchmark</th><th>runs</th><th>mean</th>"
	      "<th>CI of the mean</th><th>median</th><th>ratio to base</th>"
	      "<th>CI of the ratio</th><th>verdict</th></tr></thead><tbody>\n", f);
	for (size_t k = 0; k < an->n_summary; k++) {
		size_t i = an->summary_order[k];
		const struct stats_summary *s = &an->bench[i].sum[MET_WALL];
		const struct analysis_cmp *c = analysis_find_cmp(an, i, MET_WALL);
		char runs[32], r[32];
		fputs("<tr>", f);
		cell(f, bench_name(d, i));
		snprintf(runs, sizeof runs, "%zu%s", s->n,
			 an->bench[i].interrupted ? " (interrupted)" : "");
		cell(f, runs);
		value_cell(f, s->mean, u);
		interval_cell(f, s->mean_ci_lo, s->mean_ci_hi, u);
		value_cell(f, s->median, u);
		if (c && isfinite(c->cmp.ratio)) {
			snprintf(r, sizeof r, "%.3f", c->cmp.ratio);
			cell(f, r);
			struct html_unit one = {.kind = PLOT_COUNT, .name = "", .div = 1};
			interval_cell(f, c->cmp.ratio_lo, c->cmp.ratio_hi, &one);
		} else {
			cell(f, (long)i == an->base ? "1" : "n/a");
			cell(f, "");
		}
		const char *cls, *v = verdict_of(d, i, &cls);
		fprintf(f, "<td class=\"%s\">", cls);
		html_text(f, v);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* --counters sim: the simulated instructions lead, each exact when the
 * same in every run; the wall times below are Valgrind's. */
static void sim_table(FILE *f, const struct export_doc *d)
{
	const struct analysis *an = d->an;
	fputs("<p>Counted on Valgrind's simulated CPU (<code>--counters "
	      "sim</code>): the instructions are the command's and, when the "
	      "same in every run, exact; the times below are Valgrind's.</p>\n"
	      "<table><thead><tr><th>Benchmark</th><th>runs</th>"
	      "<th>sim instructions</th><th>ratio to base</th><th>change</th>"
	      "</tr></thead><tbody>\n", f);
	for (size_t k = 0; k < an->n_summary; k++) {
		size_t i = an->summary_order[k];
		const struct stats_summary *s = &an->bench[i].sum[MET_SIM_INSTRUCTIONS];
		const struct analysis_cmp *c = analysis_find_cmp(an, i,
							       MET_SIM_INSTRUCTIONS);
		char buf[64], v[48];
		fputs("<tr>", f);
		cell(f, bench_name(d, i));
		snprintf(buf, sizeof buf, "%zu", s->n);
		cell(f, buf);
		text_grouped(s->mean, v, sizeof v);
		bool exact = s->n >= 2 && s->min == s->max;
		snprintf(buf, sizeof buf, "%s%s", v, exact ? " (exact)" : "");
		cell(f, buf);
		if ((long)i == an->base || c == NULL || !isfinite(c->cmp.ratio)) {
			cell(f, (long)i == an->base ? "1 (base)" : "n/a");
			cell(f, "");
		} else {
			snprintf(buf, sizeof buf, "%.4f", c->cmp.ratio);
			cell(f, buf);
			snprintf(buf, sizeof buf, "%+.3g %%%s", (c->cmp.ratio - 1) * 100,
				 c->cmp.exact ? ", exact" : "");
			fprintf(f, "<td class=\"%s\">", c->cmp.ratio > 1 ? "bad"
				: c->cmp.ratio < 1 ? "good" : "");
			html_text(f, buf);
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void summary_section(FILE *f, const struct export_doc *d)
{
	const struct analysis *an = d->an;
	fputs("<section id=\"summary\">\n<h2>Summary</h2>\n", f);
	if (an->n_summary > 0 && an->primary == MET_SIM_INSTRUCTIONS)
		sim_table(f, d);
	if (an->n_summary == 0) {
		fputs("<p class=\"muted\">No benchmark has a measured run.</p>\n"
		      "</section>\n", f);
		return;
	}
	double lo = INFINITY, hi = -INFINITY;
	for (size_t k = 0; k < an->n_summary; k++) {
		const struct stats_summary *s = &an->bench[an->summary_order[k]].sum[MET_WALL];
		lo = fmin(lo, isfinite(s->mean_ci_lo) ? s->mean_ci_lo : s->mean);
		hi = fmax(hi, isfinite(s->mean_ci_hi) ? s->mean_ci_hi : s->mean);
	}
	struct html_unit u = html_unit_for(PLOT_SECONDS, fmax(fabs(lo), fabs(hi)));
	bool plot = an->n_summary <= FOREST_MAX;
	fputs("<div class=\"row\">\n", f);
	if (plot) {
		struct html_forest_row *rows = xcalloc(an->n_summary, sizeof *rows);
		for (size_t k = 0; k < an->n_summary; k++) {
			size_t i = an->summary_order[k];
			const struct stats_summary *s = &an->bench[i].sum[MET_WALL];
			const char *cls;
			verdict_of(d, i, &cls);
			rows[k] = (struct html_forest_row){bench_name(d, i), s->mean,
				s->mean_ci_lo, s->mean_ci_hi, cls[0] == 'b' ? -1 : 0};
		}
		double ref = an->base >= 0 ? an->bench[an->base].sum[MET_WALL].mean : NAN;
		struct html_axis x = {.lo = lo, .hi = hi, .unit = u,
				      .log = plot_wants_log(lo, hi),
				      .label = "mean wall time"};
		fputs("<figure class=\"wide\">\n", f);
		html_forest(f, rows, an->n_summary, &x, ref, NULL, 0,
			    "Mean wall time of every benchmark with its confidence "
			    "interval",
			    "Forest plot: each benchmark's mean wall time as a dot, its "
			    "confidence interval as a bar; the dashed line is the "
			    "comparison base's mean.");
		fputs("<figcaption class=\"muted\">Dots: means; bars: their "
		      "confidence intervals; dashed line: the comparison base "
		      "(slower benchmarks in orange).</figcaption>\n</figure>\n", f);
		free(rows);
	} else {
		fprintf(f, "<p class=\"muted\">%zu benchmarks: the sweep plots below "
			"show them; the table is folded.</p>\n", an->n_summary);
	}
	fputs(plot ? "<div>\n" : "<details><summary>Every benchmark</summary>\n", f);
	summary_table(f, d, &u);
	fputs(plot ? "</div>\n" : "</details>\n", f);
	fputs("</div>\n</section>\n", f);
}

/* Every metric the benchmark measured. */
static void metrics_table(FILE *f, const struct analysis_bench *b)
{
	fputs("<table><thead><tr><th>metric</th><th>mean</th><th>CI of the mean</th>"
	      "<th>median</th><th>σ</th><th>min</th><th>max</th></tr></thead>"
	      "<tbody>\n", f);
	for (int m = 0; m < MET_COUNT; m++) {
		const struct stats_summary *s = &b->sum[m];
		if (s->n == 0)
			continue;
		struct html_unit u = html_unit_for(html_metric_kind((enum metric_id)m),
						   fmax(fabs(s->max), fabs(s->min)));
		const struct metric_info *mi = metric_info((enum metric_id)m);
		if (mi->unit == UNIT_CUSTOM)   /* its own unit, unscaled */
			u = (struct html_unit){PLOT_COUNT, mi->unit_text, 1};
		fputs("<tr>", f);
		cell(f, html_metric_label((enum metric_id)m));
		value_cell(f, s->mean, &u);
		interval_cell(f, s->mean_ci_lo, s->mean_ci_hi, &u);
		value_cell(f, s->median, &u);
		value_cell(f, s->stddev, &u);
		value_cell(f, s->min, &u);
		value_cell(f, s->max, &u);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* The wall-time summary beside the histogram. */
static void wall_table(FILE *f, const struct analysis_bench *b)
{
	const struct stats_summary *s = &b->sum[MET_WALL];
	struct html_unit u = html_unit_for(PLOT_SECONDS, fmax(fabs(s->max), fabs(s->min)));
	char n[32], o[64];
	snprintf(n, sizeof n, "%zu", s->n);
	snprintf(o, sizeof o, "%zu mild, %zu severe", s->outliers_mild,
		 s->outliers_severe);
	fprintf(f, "<table><tbody>\n<tr><td>runs</td><td>%s</td></tr>\n", n);
	fputs("<tr><td>mean</td>", f);
	value_cell(f, s->mean, &u);
	fprintf(f, "</tr>\n<tr><td>%g %% CI of the mean</td>", s->confidence * 100);
	interval_cell(f, s->mean_ci_lo, s->mean_ci_hi, &u);
	fputs("</tr>\n<tr><td>median</td>", f);
	value_cell(f, s->median, &u);
	fputs("</tr>\n<tr><td>CI of the median</td>", f);
	interval_cell(f, s->median_ci_lo, s->median_ci_hi, &u);
	fputs("</tr>\n<tr><td>σ</td>", f);
	value_cell(f, s->stddev, &u);
	fputs("</tr>\n<tr><td>min – max</td>", f);
	interval_cell(f, s->min, s->max, &u);
	fputs("</tr>\n<tr><td>outliers</td>", f);
	cell(f, o);
	fputs("</tr>\n</tbody></table>\n", f);
	for (size_t w = 0; w < sizeof warning_text / sizeof *warning_text; w++)
		if (b->warnings & (1u << w))
			fprintf(f, "<p class=\"bad\">Warning: %s.</p>\n", warning_text[w]);
}

/* The runs in order, in a folded table (decimated beyond RUNS_TABLE_MAX). */
static void runs_table(FILE *f, const struct bench_result *r,
		       const unsigned char *outlier)
{
	const double *x = r->col[MET_WALL];
	struct html_unit u = html_unit_for(PLOT_SECONDS, x && r->n_runs ? x[0] : 1);
	if (x == NULL || r->n_runs == 0)
		return;
	if (r->n_runs <= RUNS_TABLE_MAX) {
		fprintf(f, "<details><summary>The %zu runs</summary><table><thead><tr>"
			"<th>run</th><th>wall time</th><th>outlier</th></tr></thead>"
			"<tbody>\n", r->n_runs);
		for (size_t i = 0; i < r->n_runs; i++) {
			unsigned o = outlier ? outlier[i] : 0;
			fprintf(f, "<tr><td>%zu</td>", i + 1);
			value_cell(f, x[i], &u);
			cell(f, o & RUN_OUTLIER_SEVERE ? "severe" : o & RUN_OUTLIER_MILD ? "mild" : "");
			fputs("</tr>\n", f);
		}
	} else {
		struct plot_bucket b[100];
		size_t nb = plot_decimate(x, r->n_runs, 100, b);
		fprintf(f, "<details><summary>The %zu runs in %zu stretches</summary>"
			"<table><thead><tr><th>runs</th><th>fastest</th><th>slowest</th>"
			"</tr></thead><tbody>\n", r->n_runs, nb);
		for (size_t k = 0; k < nb; k++) {
			fprintf(f, "<tr><td>%zu – %zu</td>", b[k].first + 1,
				b[k].first + b[k].count);
			value_cell(f, b[k].count_finite ? b[k].lo : NAN, &u);
			value_cell(f, b[k].count_finite ? b[k].hi : NAN, &u);
			fputs("</tr>\n", f);
		}
	}
	fputs("</tbody></table></details>\n", f);
}

static void bench_section(FILE *f, const struct export_doc *d, size_t i,
			  bool own_progression)
{
	const struct bench_result *r = d->outcome->results[i];
	const struct analysis_bench *b = &d->an->bench[i];
	fprintf(f, "<section class=\"bench\" id=\"bench-%zu\">\n<h3>", i + 1);
	html_text(f, r->name);
	fputs("</h3>\n", f);
	if (strcmp(r->name, r->command) != 0) {
		fputs("<p><code>", f);
		html_text(f, r->command);
		fputs("</code></p>\n", f);
	}
	if (b->sum[MET_WALL].n == 0) {
		fputs("<p class=\"muted\">No measured run.</p>\n</section>\n", f);
		return;
	}
	struct html_series s = {r->name, r->col[MET_WALL], r->n_runs,
				&b->sum[MET_WALL], 0};
	fputs("<div class=\"row\">\n<figure>\n", f);
	html_distribution(f, &s, 1, PLOT_SECONDS, "wall time",
			  "Distribution of the wall time", true);
	fputs("</figure>\n<div>\n", f);
	wall_table(f, b);
	fputs("</div>\n</div>\n", f);
	if (own_progression) {
		struct html_run_series rs = {r->name, r->col[MET_WALL], b->outlier,
					     r->n_runs, 0};
		fputs("<div class=\"row\">\n<figure>\n", f);
		html_progression(f, &rs, 1, PLOT_SECONDS, "wall time",
				 "Wall time run by run");
		fputs("</figure>\n<div>\n", f);
		runs_table(f, r, b->outlier);
		fputs("</div>\n</div>\n", f);
	}
	fputs("<h4>Every metric</h4>\n", f);
	metrics_table(f, b);
	fputs("</section>\n", f);
}

/* The runs of every benchmark, one row per round (up to RUNS_TABLE_MAX). */
static void rounds_table(FILE *f, const struct html_run_series *s, size_t n)
{
	size_t rounds = 0;
	double top = 0;
	for (size_t i = 0; i < n; i++) {
		rounds = s[i].n > rounds ? s[i].n : rounds;
		top = s[i].n ? fmax(top, fabs(s[i].x[0])) : top;
	}
	if (rounds == 0 || rounds > RUNS_TABLE_MAX)
		return;
	struct html_unit u = html_unit_for(PLOT_SECONDS, top);
	fprintf(f, "<details><summary>The %zu rounds</summary><table><thead><tr>"
		"<th>round</th>", rounds);
	for (size_t i = 0; i < n; i++) {
		fputs("<th>", f);
		html_text(f, s[i].name);
		fputs("</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (size_t k = 0; k < rounds; k++) {
		fprintf(f, "<tr><td>%zu</td>", k + 1);
		for (size_t i = 0; i < n; i++) {
			char v[64];
			unsigned o = k < s[i].n && s[i].outlier ? s[i].outlier[k] : 0;
			html_value(v, sizeof v, k < s[i].n ? s[i].x[k] : NAN, &u);
			fprintf(f, "<td>%s%s</td>", v, o & RUN_OUTLIER_SEVERE ? " (severe)"
				: o & RUN_OUTLIER_MILD ? " (mild)" : "");
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></details>\n", f);
}

/* Interleaved or shuffled runs: every benchmark's runs on one axis of
 * rounds. */
static void shared_progression(FILE *f, const struct export_doc *d)
{
	size_t n = d->outcome->n;
	struct html_run_series *s = xcalloc(n, sizeof *s);
	for (size_t i = 0; i < n; i++) {
		const struct bench_result *r = d->outcome->results[i];
		s[i] = (struct html_run_series){r->name, r->col[MET_WALL],
			d->an->bench[i].outlier, r->col[MET_WALL] ? r->n_runs : 0,
			(int)(i % HTML_COLOURS)};
	}
	fputs("<section id=\"rounds\">\n<h2>Runs in order</h2>\n<p>The runs were "
	      "interleaved: round <i>k</i> ran every benchmark once, so a change "
	      "of the machine's speed shows in every line at once.</p>\n"
	      "<div class=\"row\">\n<figure class=\"wide\">\n", f);
	html_progression(f, s, n, PLOT_SECONDS, "wall time",
			 "Wall time of every benchmark, round by round");
	fputs("</figure>\n</div>\n", f);
	rounds_table(f, s, n);
	fputs("</section>\n", f);
	free(s);
}

static void comparison_pair(FILE *f, const struct export_doc *d,
			    const struct analysis_cmp *c)
{
	const struct bench_result *a = d->outcome->results[c->reference];
	const struct bench_result *b = d->outcome->results[c->candidate];
	struct html_series s[2] = {
		{a->name, a->col[MET_WALL], a->n_runs,
		 &d->an->bench[c->reference].sum[MET_WALL], 0},
		{b->name, b->col[MET_WALL], b->n_runs,
		 &d->an->bench[c->candidate].sum[MET_WALL], 1},
	};
	fputs("<div class=\"row\">\n<figure>\n", f);
	html_distribution(f, s, 2, PLOT_SECONDS, "wall time", b->name, false);
	fputs("</figure>\n<div>\n<table><tbody>\n", f);
	char buf[160];
	snprintf(buf, sizeof buf, "%.4g", c->cmp.ratio);
	fputs("<tr><td>ratio of means</td>", f);
	cell(f, isfinite(c->cmp.ratio) ? buf : "n/a");
	if (c->family_size > 1)   /* its level, Bonferroni's (analysis.h) */
		fprintf(f, "</tr>\n<tr><td>%.4g %% CI of the ratio</td>",
			c->cmp.confidence * 100);
	else
		fputs("</tr>\n<tr><td>CI of the ratio</td>", f);
	struct html_unit one = {.kind = PLOT_COUNT, .name = "", .div = 1};
	interval_cell(f, c->cmp.ratio_lo, c->cmp.ratio_hi, &one);
	snprintf(buf, sizeof buf, "%.3g", c->cmp.p_welch);
	fputs("</tr>\n<tr><td>p (t-test)</td>", f);
	cell(f, isfinite(c->cmp.p_welch) ? buf : "n/a");
	snprintf(buf, sizeof buf, "%.3g", c->cmp.p_mann_whitney);
	fputs("</tr>\n<tr><td>p (rank test)</td>", f);
	cell(f, isfinite(c->cmp.p_mann_whitney) ? buf : "n/a");
	if (c->family_size > 1) {
		snprintf(buf, sizeof buf, "%.3g", c->p_adjusted);
		fprintf(f, "</tr>\n<tr><td>p, Holm-adjusted over %zu</td>",
			c->family_size);
		cell(f, isfinite(c->p_adjusted) ? buf : "n/a");
	}
	fputs("</tr>\n<tr><td>verdict</td>", f);
	cell(f, stats_verdict_name(c->cmp.verdict));
	fputs("</tr>\n</tbody></table>\n</div>\n</div>\n", f);
}

static void comparisons_section(FILE *f, const struct export_doc *d)
{
	const struct analysis *an = d->an;
	size_t n = 0;
	for (size_t i = 0; i < an->n; i++)
		n += an->wall_cmp[i] >= 0;
	if (n == 0 || an->base < 0)
		return;
	struct html_forest_row *rows = xcalloc(n, sizeof *rows);
	const struct analysis_cmp **cs = xcalloc(n, sizeof *cs);
	double lo = 1, hi = 1;
	size_t k = 0;
	for (size_t j = 0; j < an->n_summary; j++) {
		size_t i = an->summary_order[j];
		if (an->wall_cmp[i] < 0)
			continue;
		const struct analysis_cmp *c = cs[k] = &an->cmps[an->wall_cmp[i]];
		rows[k++] = (struct html_forest_row){bench_name(d, i), c->cmp.ratio,
			c->cmp.ratio_lo, c->cmp.ratio_hi,
			c->cmp.verdict == VERDICT_SLOWER ? -1 : 0};
		double l = isfinite(c->cmp.ratio_lo) ? c->cmp.ratio_lo : c->cmp.ratio;
		double h = isfinite(c->cmp.ratio_hi) ? c->cmp.ratio_hi : c->cmp.ratio;
		lo = isfinite(l) ? fmin(lo, l) : lo;
		hi = isfinite(h) ? fmax(hi, h) : hi;
	}
	fputs("<section id=\"comparisons\">\n<h2>Against the comparison base</h2>\n<p>", f);
	html_text(f, bench_name(d, (size_t)an->base));
	fputs(" is the base.  A ratio above 1 is slower.</p>\n<figure class=\"wide\">\n", f);
	struct html_axis x = {.lo = lo, .hi = hi, .log = plot_wants_log(lo, hi),
			      .label = "ratio of mean wall times "
			      "(candidate / base)", .unit = {.kind = PLOT_COUNT,
			      .name = "", .div = 1}};
	html_forest(f, rows, k, &x, 1, NULL, 0, "Ratio to the base with its "
		    "confidence interval", "Forest plot of each benchmark's ratio "
		    "of mean wall time to the base's, with its confidence interval; "
		    "the dashed line is 1 (no difference).");
	fputs("</figure>\n", f);
	for (size_t j = 0; k <= DETAIL_MAX && j < k; j++)
		comparison_pair(f, d, cs[j]);
	fputs("</section>\n", f);
	free(rows);
	free(cs);
}

/*
 * --profile: for each benchmark compared with the base, where its
 * simulated instructions moved: the functions that explain the change
 * (html_flame_table) and the differential flame graph of the two
 * profiles (html_flame_svg).
 */
static void profiles_section(FILE *f, const struct export_doc *d)
{
	const struct analysis *an = d->an;
	if (an->base < 0)
		return;
	const struct bench_result *base = d->outcome->results[an->base];
	size_t shown = 0;
	for (size_t j = 0; j < an->n_summary && shown < DETAIL_MAX; j++) {
		size_t i = an->summary_order[j];
		const struct bench_result *r = d->outcome->results[i];
		if ((long)i == an->base || an->bench[i].where == NULL ||
		    base->profile == NULL || r->profile == NULL)
			continue;
		if (shown++ == 0) {
			fputs("<section id=\"profiles\">\n<h2>Where the instructions "
			      "moved</h2>\n<p>Each benchmark ran once more under "
			      "Valgrind's callgrind (<code>--profile</code>): its "
			      "functions against those of the base, ", f);
			html_text(f, bench_name(d, (size_t)an->base));
			fputs(".</p>\n", f);
		}
		fputs("<h3>", f);
		html_text(f, bench_name(d, i));
		fputs("</h3>\n", f);
		html_flame_table(f, an->bench[i].where, NULL);
		struct flame_diff fd;
		char err[256];
		if (profile_flame_diff(base->profile, r->profile, VG_IR, NULL, &fd,
				       err, sizeof err) == 0) {
			html_flame_svg(f, &fd, NULL);
			profile_flame_diff_free(&fd);
		}
	}
	if (shown)
		fputs("</section>\n", f);
}

int export_html_page(FILE *f, const struct export_doc *d, const struct html_meta *m)
{
	const struct bench_outcome *o = d->outcome;
	html_head(f, m->title ? m->title : "cbench report");
	context_block(f, d, m);
	summary_section(f, d);
	export_html_sweep(f, d);
	comparisons_section(f, d);
	profiles_section(f, d);
	bool shared = o->order != ORDER_SEQUENTIAL && o->n > 1 && o->n <= SHARED_MAX;
	if (shared)
		shared_progression(f, d);
	if (o->n <= DETAIL_MAX) {
		fputs("<section id=\"benchmarks\">\n<h2>Benchmarks</h2>\n", f);
		for (size_t i = 0; i < o->n; i++)
			bench_section(f, d, i, !shared);
		fputs("</section>\n", f);
	} else {
		fprintf(f, "<p class=\"muted\">%zu benchmarks: the plots of each one "
			"are left out to keep the page readable.</p>\n", o->n);
	}
	return html_tail(f, ": one self-contained page; every number comes from "
			 "cbench's analysis.");
}

/* argv as one shell-like line: words with spaces or quotes in '...'. */
static char *join_argv(int argc, char *const *argv)
{
	size_t len = 1;
	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) * 4 + 3;
	char *s = xmalloc(len), *p = s;
	for (int i = 0; i < argc; i++) {
		const char *w = argv[i];
		bool q = w[0] == '\0' || strpbrk(w, " \t\n'\"\\$`*?{}|&;<>()") != NULL;
		if (i)
			*p++ = ' ';
		if (q)
			*p++ = '\'';
		for (; *w; w++) {
			if (q && *w == '\'') {
				memcpy(p, "'\\''", 4);
				p += 4;
			} else {
				*p++ = *w;
			}
		}
		if (q)
			*p++ = '\'';
	}
	*p = '\0';
	return s;
}

int export_html_write(FILE *f, const struct export_doc *d)
{
	const struct export_context *ctx = d->ctx;
	const struct export_options *eo = ctx->opts;
	static const char *const orders[] = {"sequential", "interleaved", "shuffled"};
	char by[64], opts[200];
	snprintf(by, sizeof by, "cbench %s", CBENCH_VERSION);
	snprintf(opts, sizeof opts, "confidence %g %%, order %s%s", eo->analysis.confidence * 100,
		 orders[d->outcome->order % 3],
		 d->outcome->exec_exact ? ", exec-exact timing" : "");
	char *line = join_argv(ctx->argc, ctx->argv);
	struct html_meta m = {.measured_by = by, .command_line = line,
			      .options = opts, .machine = &ctx->machine,
			      .have_machine = ctx->machine.started_at[0] != '\0'};
	int rc = export_html_page(f, d, &m);
	free(line);
	return rc;
}
