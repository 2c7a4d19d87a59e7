/*
 * export_csv.c: --export-csv (one row per benchmark) and --export-csv-runs
 * (one row per run).
 *
 * The summary starts with hyperfine's columns (hyperfine 1.15,
 * src/export/csv.rs: command, mean, stddev, median, user, system, min, max,
 * then parameter_<name> per parameter), so its readers keep working, and
 * goes on with cbench's: the real command line, run count, interrupted
 * flag, stop reason (JSON's: "failed" for a benchmark whose command
 * failed), the wall time's quartiles and confidence intervals, the ratio
 * and verdict against the reference, and mean, median and standard deviation
 * of every other metric measured.
 *
 * The per-run file is "wide": a row per run with a column per metric.
 * Each row is one observation (a run) and each column one variable, which
 * is what pandas.read_csv, R's read.csv and Julia's CSV.read turn directly
 * into a data frame to group by command or parameter.
 *
 * Quoting follows RFC 4180: a field holding a comma, a double quote or a
 * line break is enclosed in double quotes, quotes doubled.  Lines end with
 * LF.  Numbers are in seconds, bytes and counts, printed with the fewest
 * digits that read back to the same double; not counted is an empty field
 * (NaN in pandas).
 */
#include "export.h"
#include "numfmt.h"
#include "spawn.h"
#include "utf8.h"
#include "xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void field_text(FILE *f, const char *s);

/* One field: invalid UTF-8 replaced as in every export (utf8.h), quoted
 * when it holds a comma, a quote or a line break (RFC 4180); NULL is an
 * empty field.  The history's CSV export writes its fields with it too. */
void export_csv_field(FILE *f, const char *s)
{
	if (s == NULL)
		s = "";
	if (!utf8_valid(s)) {
		char *clean = utf8_clean(s);
		field_text(f, clean);
		free(clean);
		return;
	}
	field_text(f, s);
}

static void field(FILE *f, const char *s, bool first)
{
	if (!first)
		fputc(',', f);
	export_csv_field(f, s);
}

static void field_text(FILE *f, const char *s)
{
	if (strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void number(FILE *f, double v)
{
	char buf[NUMFMT_MAX];
	numfmt_shortest(buf, v);
	field(f, buf, false);
}

static void fieldf(FILE *f, const char *s)
{
	field(f, s, false);
}

/* Names of all parameters, in first-seen order (borrowed strings). */
static const char **param_names(const struct bench_outcome *o, size_t *n)
{
	const char **names = NULL;
	size_t cap = 0;
	*n = 0;
	for (size_t i = 0; i < o->n; i++)
		for (size_t k = 0; k < o->results[i]->n_params; k++) {
			const char *p = o->results[i]->params[k].name;
			bool seen = false;
			for (size_t j = 0; j < *n && !seen; j++)
				seen = strcmp(names[j], p) == 0;
			if (seen)
				continue;
			xgrow((void **)&names, &cap, *n + 1, sizeof *names);
			names[(*n)++] = p;
		}
	return names;
}

static const char *param_value(const struct bench_result *r, const char *name)
{
	for (size_t k = 0; k < r->n_params; k++)
		if (strcmp(r->params[k].name, name) == 0)
			return r->params[k].value;
	return "";
}

static bool any_has(const struct bench_outcome *o, int m)
{
	for (size_t i = 0; i < o->n; i++)
		if (o->results[i]->has[m])
			return true;
	return false;
}

int export_csv_write(FILE *f, const struct export_doc *d)
{
	const struct bench_outcome *o = d->outcome;
	size_t np;
	const char **params = param_names(o, &np);

	field(f, "command", true);
	static const char *const head[] = {"mean", "stddev", "median", "user",
					   "system", "min", "max"};
	for (size_t k = 0; k < sizeof head / sizeof head[0]; k++)
		fieldf(f, head[k]);
	for (size_t k = 0; k < np; k++) {
		char *h = xasprintf("parameter_%s", params[k]);
		fieldf(f, h);
		free(h);
	}
	static const char *const more[] = {
		"command_line", "runs", "interrupted", "stop_reason", "q1", "q3", "mean_ci_low",
		"mean_ci_high", "median_ci_low", "median_ci_high", "relative",
		"relative_stddev", "ratio_ci_low", "ratio_ci_high", "p_welch",
		"p_mann_whitney", "verdict"};
	for (size_t k = 0; k < sizeof more / sizeof more[0]; k++)
		fieldf(f, more[k]);
	for (int m = 1; m < MET_COUNT; m++) {
		if (!any_has(o, m))
			continue;
		const char *key = metric_info((enum metric_id)m)->key;
		static const char *const stat[] = {"mean", "median", "stddev"};
		for (size_t k = 0; k < 3; k++) {
			char *h = xasprintf("%s_%s", key, stat[k]);
			fieldf(f, h);
			free(h);
		}
	}
	fputc('\n', f);

	/* Rows in the tables' order (d->an->order: --sort=mean-time sorts). */
	for (size_t row = 0; row < o->n; row++) {
		size_t i = d->an->order[row];
		const struct bench_result *r = o->results[i];
		const struct stats_summary *w = &d->an->bench[i].sum[MET_WALL];
		const struct stats_summary *u = &d->an->bench[i].sum[MET_USER];
		const struct stats_summary *sy = &d->an->bench[i].sum[MET_SYSTEM];
		bool ok = w->n > 0;
		field(f, results_short_name(r), true);   /* hyperfine's */
		number(f, ok ? w->mean : NAN);
		number(f, ok ? w->stddev : NAN);
		number(f, ok ? w->median : NAN);
		number(f, u->n ? u->mean : NAN);
		number(f, sy->n ? sy->mean : NAN);
		number(f, ok ? w->min : NAN);
		number(f, ok ? w->max : NAN);
		for (size_t k = 0; k < np; k++)
			fieldf(f, param_value(r, params[k]));
		fieldf(f, r->command);
		number(f, (double)r->n_runs);
		fieldf(f, r->interrupted ? "true" : "false");
		fieldf(f, r->stop_reason ? r->stop_reason : "");
		number(f, ok ? w->q1 : NAN);
		number(f, ok ? w->q3 : NAN);
		number(f, ok ? w->mean_ci_lo : NAN);
		number(f, ok ? w->mean_ci_hi : NAN);
		number(f, ok ? w->median_ci_lo : NAN);
		number(f, ok ? w->median_ci_hi : NAN);
		double ratio = NAN, spread = NAN;
		if (ok && d->an->base >= 0) {
			if ((long)i == d->an->base)
				ratio = 1, spread = 0;
			else
				stats_ratio(&d->an->bench[d->an->base].sum[MET_WALL], w, &ratio, &spread);
		}
		number(f, ratio);
		number(f, spread);
		const struct analysis_cmp *c = d->an->wall_cmp[i] >= 0 ? &d->an->cmps[d->an->wall_cmp[i]]
								: NULL;
		number(f, c ? c->cmp.ratio_lo : NAN);
		number(f, c ? c->cmp.ratio_hi : NAN);
		number(f, c ? c->cmp.p_welch : NAN);
		number(f, c ? c->cmp.p_mann_whitney : NAN);
		fieldf(f, (long)i == d->an->base ? "reference"
			  : c ? stats_verdict_name(c->cmp.verdict) : "");
		for (int m = 1; m < MET_COUNT; m++) {
			if (!any_has(o, m))
				continue;
			const struct stats_summary *s = &d->an->bench[i].sum[m];
			number(f, s->n ? s->mean : NAN);
			number(f, s->n ? s->median : NAN);
			number(f, s->n ? s->stddev : NAN);
		}
		fputc('\n', f);
	}
	free(params);
	return 0;
}

/* A field as field() writes it, into a new string (for the per-run file,
 * where the same name and command line start every row). */
static char *quoted(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (m == NULL)
		return xstrdup(s);
	field(m, s, true);
	fclose(m);
	return buf;
}

/* Row buffer: a million rows of a dozen fields each through stdio would
 * take its lock per character. */
struct rowbuf {
	FILE *f;
	size_t len;
	char buf[1 << 16];
};

static void row_flush(struct rowbuf *b)
{
	if (b->len)
		fwrite(b->buf, 1, b->len, b->f);
	b->len = 0;
}

static void row_bytes(struct rowbuf *b, const char *s, size_t n)
{
	if (b->len + n > sizeof b->buf) {
		row_flush(b);
		if (n > sizeof b->buf) {
			fwrite(s, 1, n, b->f);
			return;
		}
	}
	memcpy(b->buf + b->len, s, n);
	b->len += n;
}

static void row_str(struct rowbuf *b, const char *s)
{
	row_bytes(b, s, strlen(s));
}

/* ",<number>" */
static void row_number(struct rowbuf *b, double v)
{
	if (b->len + NUMFMT_MAX + 1 > sizeof b->buf)
		row_flush(b);
	b->buf[b->len++] = ',';
	b->len += numfmt_shortest(b->buf + b->len, v);
}

int export_csv_runs_write(FILE *f, const struct export_doc *d)
{
	const struct bench_outcome *o = d->outcome;
	size_t np;
	const char **params = param_names(o, &np);

	field(f, "benchmark", true);
	fieldf(f, "command");
	fieldf(f, "command_line");
	for (size_t k = 0; k < np; k++) {
		char *h = xasprintf("parameter_%s", params[k]);
		fieldf(f, h);
		free(h);
	}
	static const char *const head[] = {"run", "exit_code", "signal",
					   "timed_out", "failed", "outlier"};
	for (size_t k = 0; k < sizeof head / sizeof head[0]; k++)
		fieldf(f, head[k]);
	bool has[MET_COUNT];
	for (int m = 0; m < MET_COUNT; m++) {
		has[m] = any_has(o, m);
		if (has[m])
			fieldf(f, metric_info((enum metric_id)m)->key);
	}
	/* The run's place in the whole invocation (1, 2, ... across
	 * benchmarks, in the order they ran) and its start (Unix seconds). */
	fieldf(f, "run_index");
	fieldf(f, "started_at");
	/* --randomize-layout: the environment padding of each run, last so
	 * the other columns keep their places (absent without it). */
	bool pads = false;
	for (size_t i = 0; i < o->n; i++)
		pads |= o->results[i]->env_pad != NULL;
	if (pads)
		fieldf(f, "env_pad");
	fputc('\n', f);

	struct rowbuf *b = xmalloc(sizeof *b);
	b->f = f;
	b->len = 0;
	for (size_t i = 0; i < o->n; i++) {
		const struct bench_result *r = o->results[i];
		/* What every row of this benchmark starts with, after its
		 * number: ",name,command,params..." */
		char *lead = NULL;
		size_t lead_len = 0;
		FILE *m = open_memstream(&lead, &lead_len);
		if (m == NULL) {
			free(b);
			free(params);
			return -1;
		}
		fieldf(m, r->name);
		fieldf(m, r->command);
		for (size_t p = 0; p < np; p++)
			fieldf(m, param_value(r, params[p]));
		fclose(m);
		char num[32];
		int num_len = snprintf(num, sizeof num, "%zu", i + 1);
		for (size_t k = 0; k < r->n_runs; k++) {
			int code = r->exit_codes[k];
			unsigned char out = d->an->bench[i].outlier[k];
			row_bytes(b, num, (size_t)num_len);
			row_bytes(b, lead, lead_len);
			row_number(b, (double)(k + 1));
			row_number(b, code >= 0 ? (double)code : NAN);
			row_str(b, ",");
			if (code < 0) {
				char *sig = quoted(spawn_signal_name(-code));
				row_str(b, sig);
				free(sig);
			}
			row_str(b, r->flags[k] & RUN_TIMED_OUT ? ",true" : ",false");
			row_str(b, r->flags[k] & RUN_FAILED ? ",true" : ",false");
			row_str(b, out & RUN_OUTLIER_SEVERE ? ",severe"
				   : out & RUN_OUTLIER_MILD ? ",mild" : ",none");
			for (int mi = 0; mi < MET_COUNT; mi++)
				if (has[mi])
					row_number(b, r->has[mi] ? r->col[mi][k] : NAN);
			row_number(b, r->run_index[k]);
			row_number(b, r->started_s[k]);
			if (pads)
				row_number(b, r->env_pad && r->env_pad[k] >= 0
					   ? (double)r->env_pad[k] : NAN);
			row_str(b, "\n");
		}
		free(lead);
	}
	row_flush(b);
	free(b);
	free(params);
	return 0;
}
