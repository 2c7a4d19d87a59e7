/*
 * export_html_sweep.c: the sweep section of the HTML report (-P, -L):
 * every metric's mean against the numeric parameter, its confidence
 * interval as a band, one line per value of the other parameters (and per
 * command, when several commands share the sweep), logarithmic axes where
 * the values span two decades or more.
 *
 * The lines: benchmarks with the same values of the other parameters form
 * a group; within a group, the k-th benchmark with a given value of the
 * swept parameter belongs to the k-th line, which separates the commands
 * of `cbench -L n 1,2 'a {n}' 'b {n}'` without knowing their templates.
 */
#include "export_html.h"
#include "html_svg.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINES 8
#define POINT_TITLES_MAX 200   /* points with a hover text, per line */

struct line {
	char *label;
	size_t *idx;      /* benchmarks, by increasing parameter value */
	size_t n;
};

struct sweep {
	const char *param;
	double *x;        /* per benchmark, NaN when it has none */
	struct line lines[MAX_LINES];
	size_t n_lines;
	bool xlog;
};

static const char *param_value(const struct bench_result *r, const char *name)
{
	for (size_t k = 0; k < r->n_params; k++)
		if (strcmp(r->params[k].name, name) == 0)
			return r->params[k].value;
	return NULL;
}

static bool numeric(const char *s, double *out)
{
	char *end;
	if (s == NULL || *s == '\0')
		return false;
	*out = strtod(s, &end);
	return *end == '\0' && isfinite(*out);
}

/* The first parameter that every parameterised benchmark has as a number. */
static const char *swept_param(const struct bench_outcome *o)
{
	const struct bench_result *first = NULL;
	for (size_t i = 0; i < o->n && first == NULL; i++)
		if (o->results[i]->n_params)
			first = o->results[i];
	for (size_t k = 0; first && k < first->n_params; k++) {
		const char *name = first->params[k].name;
		bool ok = true;
		double v;
		for (size_t i = 0; i < o->n && ok; i++)
			ok = o->results[i]->n_params == 0 ||
			     numeric(param_value(o->results[i], name), &v);
		if (ok)
			return name;
	}
	return NULL;
}

/* "threads=4, mode=fast" of the other parameters, then the ordinal. */
static char *group_label(const struct bench_result *r, const char *param,
			 size_t ordinal)
{
	char *s = xstrdup("");
	for (size_t k = 0; k < r->n_params; k++) {
		if (strcmp(r->params[k].name, param) == 0)
			continue;
		char *t = xasprintf("%s%s%s=%s", s, s[0] ? ", " : "",
				    r->params[k].name, r->params[k].value);
		free(s);
		s = t;
	}
	if (ordinal) {
		char *t = xasprintf("%s%scommand %zu", s, s[0] ? ", " : "", ordinal + 1);
		free(s);
		s = t;
	}
	return s;
}

/* The benchmark's name with the swept value as "{param}" ("sort -S {n}K"),
 * or NULL when the value is not in the name. */
static char *name_template(const struct bench_result *r, const char *param)
{
	const char *v = param_value(r, param);
	const char *at = v && v[0] ? strstr(r->name, v) : NULL;
	if (at == NULL)
		return NULL;
	return xasprintf("%.*s{%s}%s", (int)(at - r->name), r->name, param,
			 at + strlen(v));
}

static void add_to_line(struct sweep *sw, const char *label, size_t i)
{
	size_t l = 0;
	while (l < sw->n_lines && strcmp(sw->lines[l].label, label) != 0)
		l++;
	if (l == sw->n_lines) {
		if (sw->n_lines == MAX_LINES)
			return;
		sw->lines[sw->n_lines++] = (struct line){
			.label = xstrdup(label),
			.idx = xcalloc(1, sizeof(size_t))};
	}
	struct line *ln = &sw->lines[l];
	ln->idx = xreallocarray(ln->idx, ln->n + 1, sizeof *ln->idx);
	/* Insert by parameter value. */
	size_t at = ln->n++;
	while (at > 0 && sw->x[ln->idx[at - 1]] > sw->x[i]) {
		ln->idx[at] = ln->idx[at - 1];
		at--;
	}
	ln->idx[at] = i;
}

/* The lines, or false when the benchmarks do not form a sweep. */
static bool build(const struct bench_outcome *o, struct sweep *sw)
{
	memset(sw, 0, sizeof *sw);
	sw->param = swept_param(o);
	if (sw->param == NULL)
		return false;
	sw->x = xcalloc(o->n, sizeof *sw->x);
	char **others = xcalloc(o->n, sizeof *others);
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < o->n; i++) {
		sw->x[i] = NAN;
		numeric(param_value(o->results[i], sw->param), &sw->x[i]);
		others[i] = group_label(o->results[i], sw->param, 0);
		if (!isfinite(sw->x[i]))
			continue;
		lo = fmin(lo, sw->x[i]);
		hi = fmax(hi, sw->x[i]);
		char *label = name_template(o->results[i], sw->param);
		if (label == NULL) {
			/* The k-th benchmark with this x among the same others. */
			size_t ordinal = 0;
			for (size_t j = 0; j < i; j++)
				ordinal += sw->x[j] == sw->x[i] &&
					   strcmp(others[j], others[i]) == 0;
			label = group_label(o->results[i], sw->param, ordinal);
		} else if (others[i][0]) {
			char *t = xasprintf("%s (%s)", label, others[i]);
			free(label);
			label = t;
		}
		add_to_line(sw, label, i);
		free(label);
	}
	for (size_t i = 0; i < o->n; i++)
		free(others[i]);
	free(others);
	sw->xlog = plot_wants_log(lo, hi);
	return sw->n_lines > 0 && hi > lo;
}

static void sweep_free(struct sweep *sw)
{
	for (size_t l = 0; l < sw->n_lines; l++) {
		free(sw->lines[l].label);
		free(sw->lines[l].idx);
	}
	free(sw->x);
}

static void band_and_line(FILE *f, const struct html_plot *p, const struct sweep *sw,
			  const struct line *ln, const struct analysis *an,
			  int m, int colour)
{
	fprintf(f, "<path class=\"band f%d\" d=\"", colour);
	size_t drawn = 0;
	for (size_t k = 0; k < ln->n; k++) {
		const struct stats_summary *s = &an->bench[ln->idx[k]].sum[m];
		if (s->n == 0 || !isfinite(s->mean_ci_hi))
			continue;
		fputc(drawn++ ? 'L' : 'M', f);
		html_num(f, html_px(p, sw->x[ln->idx[k]]));
		fputc(',', f);
		html_num(f, html_py(p, s->mean_ci_hi));
	}
	for (size_t k = ln->n; drawn && k-- > 0;) {
		const struct stats_summary *s = &an->bench[ln->idx[k]].sum[m];
		if (s->n == 0 || !isfinite(s->mean_ci_lo))
			continue;
		fputc('L', f);
		html_num(f, html_px(p, sw->x[ln->idx[k]]));
		fputc(',', f);
		html_num(f, html_py(p, s->mean_ci_lo));
	}
	fputs(drawn ? "Z\"/>\n" : "\"/>\n", f);
	fprintf(f, "<path class=\"line s%d\" d=\"", colour);
	drawn = 0;
	for (size_t k = 0; k < ln->n; k++) {
		const struct stats_summary *s = &an->bench[ln->idx[k]].sum[m];
		if (s->n == 0)
			continue;
		fputc(drawn++ ? 'L' : 'M', f);
		html_num(f, html_px(p, sw->x[ln->idx[k]]));
		fputc(',', f);
		html_num(f, html_py(p, s->mean));
	}
	fputs("\"/>\n", f);
}

static void points(FILE *f, const struct html_plot *p, const struct sweep *sw,
		   const struct line *ln, const struct analysis *an, int m, int colour)
{
	if (ln->n > POINT_TITLES_MAX)
		return;
	for (size_t k = 0; k < ln->n; k++) {
		const struct stats_summary *s = &an->bench[ln->idx[k]].sum[m];
		if (s->n == 0)
			continue;
		char v[48];
		html_value(v, sizeof v, s->mean, &p->yu);
		fprintf(f, "<circle class=\"f%d\" r=\"3\" cx=\"", colour);
		html_num(f, html_px(p, sw->x[ln->idx[k]]));
		fputs("\" cy=\"", f);
		html_num(f, html_py(p, s->mean));
		fprintf(f, "\"><title>%s = %g: %s</title></circle>\n", sw->param,
			sw->x[ln->idx[k]], v);
	}
}

static void metric_plot(FILE *f, const struct sweep *sw, const struct analysis *an,
			int m, double xlo, double xhi)
{
	/* The axis covers the means, and the bands as far as half the means'
	 * span beyond them: one noisy point's wide interval must not squeeze
	 * a thousand means into a flat line (the band is clipped). */
	double lo = INFINITY, hi = -INFINITY, blo = INFINITY, bhi = -INFINITY;
	for (size_t i = 0; i < an->n; i++) {
		const struct stats_summary *s = &an->bench[i].sum[m];
		if (s->n == 0 || !isfinite(sw->x[i]))
			continue;
		lo = fmin(lo, s->mean);
		hi = fmax(hi, s->mean);
		blo = fmin(blo, isfinite(s->mean_ci_lo) ? s->mean_ci_lo : s->mean);
		bhi = fmax(bhi, isfinite(s->mean_ci_hi) ? s->mean_ci_hi : s->mean);
	}
	if (!isfinite(lo))
		return;
	double span = hi - lo;
	lo = span > 0 ? fmax(blo, lo - span / 2) : blo;
	hi = span > 0 ? fmin(bhi, hi + span / 2) : bhi;
	const char *label = html_metric_label((enum metric_id)m);
	struct html_axis xa = {.lo = xlo, .hi = xhi, .log = sw->xlog, .label = sw->param,
			       .unit = {.kind = PLOT_COUNT, .name = "", .div = 1}};
	struct html_axis ya = {.lo = lo, .hi = hi, .log = plot_wants_log(lo, hi),
			       .label = label,
			       .unit = html_unit_for(html_metric_kind((enum metric_id)m),
						     fmax(fabs(lo), fabs(hi)))};
	char *title = xasprintf("Mean %s against %s", label, sw->param);
	struct html_plot p = {0};
	fputs("<figure>\n", f);
	html_plot_begin(&p, f, 560, 280, &xa, &ya, title,
			"Each line is the mean for one group of benchmarks, the "
			"band its confidence interval.");
	for (size_t l = 0; l < sw->n_lines; l++) {
		band_and_line(f, &p, sw, &sw->lines[l], an, m, (int)l);
		points(f, &p, sw, &sw->lines[l], an, m, (int)l);
	}
	html_plot_end(&p);
	fputs("<figcaption class=\"muted\">", f);
	html_text(f, title);
	fputs("; band: confidence interval of the mean.</figcaption>\n</figure>\n", f);
	free(title);
}

/* Every metric measured somewhere, wall time first. */
static size_t sweep_metrics(const struct analysis *an, int *out)
{
	size_t n = 0;
	for (int m = 0; m < MET_COUNT; m++) {
		bool any = false;
		for (size_t i = 0; i < an->n && !any; i++)
			any = an->bench[i].sum[m].n > 0;
		if (any)
			out[n++] = m;
	}
	return n;
}

static void sweep_table(FILE *f, const struct export_doc *d, const struct sweep *sw,
			const int *ms, size_t nm)
{
	const struct analysis *an = d->an;
	fputs("<details><summary>The numbers of these plots</summary>\n<table>"
	      "<thead><tr><th>line</th>", f);
	fprintf(f, "<th>");
	html_text(f, sw->param);
	fputs("</th>", f);
	for (size_t j = 0; j < nm; j++) {
		fputs("<th>", f);
		html_text(f, html_metric_label((enum metric_id)ms[j]));
		fputs(j == 0 ? " (mean)</th><th>CI</th>" : "</th>", f);
	}
	fputs("</tr></thead><tbody>\n", f);
	for (size_t l = 0; l < sw->n_lines; l++) {
		for (size_t k = 0; k < sw->lines[l].n; k++) {
			size_t i = sw->lines[l].idx[k];
			fputs("<tr><td>", f);
			html_text(f, sw->lines[l].label[0] ? sw->lines[l].label : "—");
			fprintf(f, "</td><td>%s</td>", param_value(d->outcome->results[i],
								   sw->param));
			for (size_t j = 0; j < nm; j++) {
				const struct stats_summary *s = &an->bench[i].sum[ms[j]];
				char a[48], b[48], c[48];
				html_metric_value(a, sizeof a, s->n ? s->mean : NAN,
						  html_metric_kind((enum metric_id)ms[j]));
				fprintf(f, "<td>%s</td>", a);
				if (j == 0) {
					html_metric_value(b, sizeof b, s->mean_ci_lo, PLOT_SECONDS);
					html_metric_value(c, sizeof c, s->mean_ci_hi, PLOT_SECONDS);
					fprintf(f, "<td>%s – %s</td>", b, c);
				}
			}
			fputs("</tr>\n", f);
		}
	}
	fputs("</tbody></table></details>\n", f);
}

void export_html_sweep(FILE *f, const struct export_doc *d)
{
	struct sweep sw;
	if (!build(d->outcome, &sw)) {
		sweep_free(&sw);
		return;
	}
	double xlo = INFINITY, xhi = -INFINITY;
	for (size_t i = 0; i < d->outcome->n; i++)
		if (isfinite(sw.x[i])) {
			xlo = fmin(xlo, sw.x[i]);
			xhi = fmax(xhi, sw.x[i]);
		}
	fputs("<section id=\"sweep\">\n<h2>Sweep over ", f);
	html_text(f, sw.param);
	fputs("</h2>\n<p class=\"muted\">", f);
	for (size_t l = 0; sw.n_lines > 1 && l < sw.n_lines; l++) {
		fputs(l ? " &#160; " : "", f);
		html_key(f, (int)l, sw.lines[l].label);
	}
	fputs(sw.n_lines > 1 ? "<br>" : "", f);
	fputs("Lines: means; bands: their confidence intervals.", f);
	fputs(sw.xlog ? " The parameter axis is logarithmic." : "", f);
	fputs("</p>\n<div class=\"row\">\n", f);
	int ms[MET_COUNT];
	size_t nm = sweep_metrics(d->an, ms);
	for (size_t j = 0; j < nm; j++)
		metric_plot(f, &sw, d->an, ms[j], xlo, xhi);
	fputs("</div>\n", f);
	sweep_table(f, d, &sw, ms, nm);
	fputs("</section>\n", f);
	sweep_free(&sw);
}
