/*
 * export_table.c: --export-markdown, --export-asciidoc, --export-orgmode.
 *
 * The tables hyperfine writes (hyperfine 1.15, src/export/markup.rs):
 * Command | Mean [unit] (mean ± σ) | Min | Max | Relative, one time unit for
 * the whole table (--time-unit, else the one that suits the fastest mean),
 * three decimals for seconds and one for ms and µs, rows in input order
 * unless --sort=mean-time.  cbench adds a column per main counter present
 * (task-clock, page faults, instructions), and the significance verdict of
 * each benchmark's wall time against the reference (or the fastest).
 *
 * The cells are built once, as plain text, then each markup writes them
 * with its own escaping: `|` would end a cell in all three, so Markdown and
 * AsciiDoc get `\|`, Org-mode gets the \vert{} entity.  Line breaks inside
 * a command become spaces.  Non-ASCII text is written as it is (UTF-8).
 */
#include "export.h"
#include "export_text.h"
#include "utf8.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { COL_COMMAND = 0 };

/* Counter columns, when some benchmark counted them. */
static const enum metric_id counter_cols[] = {
	MET_CTR_FIRST + CTR_TASK_CLOCK,
	MET_CTR_FIRST + CTR_PAGE_FAULTS,
	MET_CTR_FIRST + CTR_INSTRUCTIONS,
	MET_SIM_INSTRUCTIONS,
};

struct table {
	size_t ncols, nrows;
	char **head;       /* ncols */
	bool *right;       /* ncols: right-aligned */
	char **cells;      /* nrows * ncols; column 0 is the raw display name */
	bool *interrupted; /* nrows */
};

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->ncols; i++)
		free(t->head[i]);
	for (size_t i = 0; i < t->ncols * t->nrows; i++)
		free(t->cells[i]);
	free(t->head);
	free(t->right);
	free(t->cells);
	free(t->interrupted);
}

static void add_col(struct table *t, char *head, bool right)
{
	t->head[t->ncols] = head;
	t->right[t->ncols] = right;
	t->ncols++;
}

/* hyperfine's precision: three decimals in seconds, one otherwise. */
static char *time_cell(double s, enum time_unit u)
{
	if (!isfinite(s))
		return xstrdup("n/a");
	return xasprintf(u == UNIT_S ? "%.3f" : "%.1f", text_in_unit(s, u));
}

/* The Significance column: the verdict on the summary's metric (under
 * Valgrind the simulated count, not its time). */
static char *significance_cell(const struct analysis *an, size_t i)
{
	const struct analysis_cmp *vc = an->primary == MET_WALL
		? NULL : analysis_find_cmp(an, i, an->primary);
	if ((long)i == an->base)
		return xstrdup("reference");
	if (vc)
		return xstrdup(stats_verdict_name(vc->cmp.verdict));
	if (an->wall_cmp[i] >= 0)
		return xstrdup(stats_verdict_name(an->cmps[an->wall_cmp[i]].cmp.verdict));
	return xstrdup("n/a");
}

static char *count_cell(double v)
{
	char buf[32];
	if (!isfinite(v))
		return xstrdup("n/a");
	text_count(v, buf, sizeof buf);
	return xstrdup(buf);
}

static char *custom_cell(double v)
{
	char buf[48];
	if (!isfinite(v))
		return xstrdup("n/a");
	text_custom(v, "", buf, sizeof buf);
	return xstrdup(buf);
}

/* The Relative column: the ratio of means to the base, with hyperfine's
 * propagated spread. */
static char *relative_cell(const struct export_doc *d, size_t i)
{
	const struct stats_summary *w = &d->an->bench[i].sum[MET_WALL];
	if (w->n == 0 || d->an->base < 0)
		return xstrdup("n/a");
	if ((long)i == d->an->base)
		return xstrdup("1.00");
	double ratio, spread;
	const struct stats_summary *b = &d->an->bench[d->an->base].sum[MET_WALL];
	stats_ratio(b, w, &ratio, &spread);
	/* Both means 0 (possible once the shell's start-up is subtracted),
	 * or the base's alone: no ratio. */
	if (!isfinite(ratio))
		return xstrdup("n/a");
	/* One run on each side: no spread to show ("± 0.00"). */
	if ((w->n >= 2 || b->n >= 2) && isfinite(spread))
		return xasprintf("%.2f ± %.2f", ratio, spread);
	return xasprintf("%.2f", ratio);
}

static void build(const struct export_doc *d, struct table *t)
{
	const struct bench_outcome *o = d->outcome;
	const struct export_options *eo = d->ctx->opts;
	memset(t, 0, sizeof *t);

	enum time_unit unit = eo->time_unit;
	if (unit == UNIT_AUTO) {
		double fastest = NAN;
		for (size_t i = 0; i < o->n; i++)
			if (d->an->bench[i].sum[MET_WALL].n &&
			    !(d->an->bench[i].sum[MET_WALL].mean >= fastest))
				fastest = d->an->bench[i].sum[MET_WALL].mean;
		unit = text_pick_unit(isfinite(fastest) ? fastest : 1.0);
	}
	const char *un = text_unit_name(unit);

	/* The counter columns some benchmark counted, then the --metric
	 * ones some benchmark has a value of. */
	enum metric_id show[sizeof counter_cols / sizeof counter_cols[0] +
			    MET_CUSTOM_MAX];
	size_t nshow = 0;
	for (size_t c = 0; c < sizeof show / sizeof show[0]; c++) {
		enum metric_id m = c < sizeof counter_cols / sizeof counter_cols[0]
			? counter_cols[c]
			: (enum metric_id)(MET_CUSTOM_FIRST + (int)(c - sizeof counter_cols /
							      sizeof counter_cols[0]));
		bool any = false;
		for (size_t i = 0; i < o->n && !any; i++)
			any = d->an->bench[i].sum[m].n > 0;
		if (any)
			show[nshow++] = m;
	}

	size_t maxcols = 6 + nshow;
	t->head = xcalloc(maxcols, sizeof *t->head);
	t->right = xcalloc(maxcols, sizeof *t->right);
	add_col(t, xstrdup("Command"), false);
	add_col(t, xasprintf("Mean [%s]", un), true);
	add_col(t, xasprintf("Min [%s]", un), true);
	add_col(t, xasprintf("Max [%s]", un), true);
	add_col(t, xstrdup("Relative"), true);
	for (size_t c = 0; c < nshow; c++) {
		const struct metric_info *mi = metric_info(show[c]);
		add_col(t, mi->unit == UNIT_SECONDS ? xasprintf("%s [%s]", mi->label, un)
			: mi->unit == UNIT_CUSTOM && mi->unit_text[0]
			? xasprintf("%s [%s]", mi->label, mi->unit_text)
			: xstrdup(mi->label), true);
	}
	add_col(t, xstrdup("Significance"), false);

	t->nrows = o->n;
	t->cells = xcalloc(t->nrows * t->ncols + 1, sizeof *t->cells);
	t->interrupted = xcalloc(t->nrows + 1, sizeof *t->interrupted);
	for (size_t row = 0; row < o->n; row++) {
		size_t i = d->an->order[row];
		const struct bench_result *r = o->results[i];
		const struct stats_summary *w = &d->an->bench[i].sum[MET_WALL];
		char **cell = &t->cells[row * t->ncols];
		size_t k = 0;
		t->interrupted[row] = r->interrupted;
		cell[k++] = utf8_clean(r->name);   /* as JSON has it */
		if (w->n == 0) {
			cell[k++] = xstrdup("n/a");
		} else {
			char *mean = time_cell(w->mean, unit);
			if (w->n >= 2 && isfinite(w->stddev)) {
				char *sd = time_cell(w->stddev, unit);
				cell[k++] = xasprintf("%s ± %s", mean, sd);
				free(sd);
				free(mean);
			} else {
				cell[k++] = mean;
			}
		}
		cell[k++] = time_cell(w->n ? w->min : NAN, unit);
		cell[k++] = time_cell(w->n ? w->max : NAN, unit);
		cell[k++] = relative_cell(d, i);
		for (size_t c = 0; c < nshow; c++) {
			const struct stats_summary *s = &d->an->bench[i].sum[show[c]];
			double v = s->n ? s->mean : NAN;
			enum metric_unit mu = metric_info(show[c])->unit;
			bool whole = metric_info(show[c])->simulated && v == floor(v);
			cell[k++] = mu == UNIT_SECONDS ? time_cell(v, unit)
				    : mu == UNIT_CUSTOM ? custom_cell(v)
				    : whole ? xasprintf("%.0f", v) : count_cell(v);
		}
		cell[k++] = significance_cell(d->an, i);
	}
}

/* Write s with `|` as bar and line breaks as spaces. */
static void put_escaped(FILE *f, const char *s, const char *bar)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs(bar, f);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

/* Longest run of c in s. */
static size_t longest_run(const char *s, char c)
{
	size_t best = 0, cur = 0;
	for (; *s; s++) {
		cur = *s == c ? cur + 1 : 0;
		if (cur > best)
			best = cur;
	}
	return best;
}

/* A Markdown code span (CommonMark 6.1): a fence longer than any run of
 * backticks inside, padded with a space when the text touches a backtick. */
static void md_command(FILE *f, const char *s, bool interrupted)
{
	size_t fence = longest_run(s, '`') + 1;
	size_t len = strlen(s);
	bool pad = len && (s[0] == '`' || s[len - 1] == '`');
	for (size_t i = 0; i < fence; i++)
		fputc('`', f);
	if (pad)
		fputc(' ', f);
	put_escaped(f, s, "\\|");
	if (pad)
		fputc(' ', f);
	for (size_t i = 0; i < fence; i++)
		fputc('`', f);
	if (interrupted)
		fputs(" (interrupted)", f);
}

/* A cell of a Markdown table: the command as a code span. */
static void md_cell(FILE *f, const struct table *t, size_t r, size_t c)
{
	if (c == COL_COMMAND)
		md_command(f, t->cells[r * t->ncols + c], t->interrupted[r]);
	else
		put_escaped(f, t->cells[r * t->ncols + c], "\\|");
}

/* Markdown's rule under the header: the column's alignment. */
static const char *md_rule(const struct table *t, size_t c)
{
	return t->right[c] ? "|---:" : "|:---";
}

/* A cell of an Org-mode table: the command verbatim when it can be. */
static void org_cell(FILE *f, const struct table *t, size_t r, size_t c)
{
	const char *s = t->cells[r * t->ncols + c];
	/* Verbatim =...= cannot hold the \vert{} entity. */
	bool verb = c == COL_COMMAND && strchr(s, '|') == NULL;
	if (verb)
		fputc('=', f);
	put_escaped(f, s, "\\vert{}");
	if (verb)
		fputc('=', f);
	if (c == COL_COMMAND && t->interrupted[r])
		fputs(" (interrupted)", f);
}

/* Org-mode's rule under the header. */
static const char *org_rule(const struct table *t, size_t c)
{
	(void)t;
	return c ? "+--" : "|--";
}

/* A pipe table (Markdown, Org-mode): "| a | b |" rows, the header first
 * with rule() of each column under it, each cell written by cell(). */
static int pipe_table(FILE *f, const struct export_doc *d,
		      const char *(*rule)(const struct table *t, size_t c),
		      void (*cell)(FILE *f, const struct table *t, size_t r,
				   size_t c))
{
	struct table t;
	build(d, &t);
	for (size_t c = 0; c < t.ncols; c++)
		fprintf(f, "| %s ", t.head[c]);
	fputs("|\n", f);
	for (size_t c = 0; c < t.ncols; c++)
		fputs(rule(&t, c), f);
	fputs("|\n", f);
	for (size_t r = 0; r < t.nrows; r++) {
		for (size_t c = 0; c < t.ncols; c++) {
			fputs("| ", f);
			cell(f, &t, r, c);
			fputc(' ', f);
		}
		fputs("|\n", f);
	}
	table_free(&t);
	return 0;
}

int export_markdown_write(FILE *f, const struct export_doc *d)
{
	return pipe_table(f, d, md_rule, md_cell);
}

int export_asciidoc_write(FILE *f, const struct export_doc *d)
{
	struct table t;
	build(d, &t);
	fputs("[cols=\"", f);
	for (size_t c = 0; c < t.ncols; c++)
		fprintf(f, "%s%s", c ? "," : "", t.right[c] ? ">" : "<");
	fputs("\"]\n|===\n", f);
	for (size_t c = 0; c < t.ncols; c++)
		fprintf(f, "| %s\n", t.head[c]);
	for (size_t r = 0; r < t.nrows; r++) {
		fputc('\n', f);
		for (size_t c = 0; c < t.ncols; c++) {
			fputs("| ", f);
			if (c == COL_COMMAND) {
				/* `+...+` is literal monospace (no inline markup),
				 * but a `+` inside would end it early. */
				const char *s = t.cells[r * t.ncols + c];
				bool lit = strchr(s, '+') == NULL;
				fputs(lit ? "`+" : "`", f);
				put_escaped(f, s, "\\|");
				fputs(lit ? "+`" : "`", f);
				if (t.interrupted[r])
					fputs(" (interrupted)", f);
			} else {
				put_escaped(f, t.cells[r * t.ncols + c], "\\|");
			}
			fputc('\n', f);
		}
	}
	fputs("|===\n", f);
	table_free(&t);
	return 0;
}

int export_orgmode_write(FILE *f, const struct export_doc *d)
{
	return pipe_table(f, d, org_rule, org_cell);
}
