/*
 * export_compare.c: what a CI gate shows.  The same rows (regressions
 * first) go to three places: an aligned table on the terminal, a Markdown
 * report meant to be posted as a pull-request comment as it is (a one-line
 * verdict first, so the notification says it all), and GitHub Actions
 * workflow commands (::error:: / ::warning::) that pin regressions on the
 * run's summary page.  The decision itself is gate.c's.
 */
#include "export_compare.h"
#include "diag.h"   /* DIAG_MSG_MAX */
#include "export.h"
#include "xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define C_BOLD "\033[1m"
#define C_RED "\033[31m"
#define C_GREEN "\033[32m"
#define C_YELLOW "\033[33m"
#define C_DIM "\033[2m"
#define C_RESET "\033[0m"

enum { COL_NAME, COL_BASE, COL_NEW, COL_CHANGE, COL_CI, COL_P, COL_VERDICT,
       N_COLS };

static enum metric_unit unit_of(int metric)
{
	if (metric == CMP_CPU_TIME)
		return UNIT_SECONDS;
	return metric_info((enum metric_id)metric)->unit;
}

/* "12.35 ± 0.12 ms", "1.9 MiB ± 12.0 KiB", "4048.0 ± 0.0"; mean only when
 * there is no spread (one run). */
static void fmt_value(char *buf, size_t len, int metric, double mean, double sd,
		      enum time_unit unit)
{
	if (!isfinite(mean)) {
		snprintf(buf, len, "n/a");
		return;
	}
	char m[32], s[32];
	switch (unit_of(metric)) {
	case UNIT_SECONDS: {
		double vm = text_in_unit(mean, unit), vs = text_in_unit(sd, unit);
		const char *f = fabs(vm) >= 100 ? "%.1f" : fabs(vm) >= 10 ? "%.2f" : "%.3f";
		snprintf(m, sizeof m, f, vm);
		snprintf(s, sizeof s, f, vs);
		if (isfinite(sd))
			snprintf(buf, len, "%s ± %s %s", m, s, text_unit_name(unit));
		else
			snprintf(buf, len, "%s %s", m, text_unit_name(unit));
		return;
	}
	case UNIT_BYTES:
		text_bytes(mean, m, sizeof m);
		text_bytes(sd, s, sizeof s);
		break;
	default:
		text_count(mean, m, sizeof m);
		text_count(sd, s, sizeof s);
		break;
	}
	if (isfinite(sd))
		snprintf(buf, len, "%s ± %s", m, s);
	else
		snprintf(buf, len, "%s", m);
}

/* A relative change in percent, "+12.3 %", never "-0.0 %". */
static void fmt_pct(char *buf, size_t len, double ratio)
{
	if (!isfinite(ratio)) {
		snprintf(buf, len, "n/a");
		return;
	}
	double v = round((ratio - 1.0) * 1000.0) / 10.0;
	if (v == 0)
		v = 0;
	snprintf(buf, len, "%+.1f %%", v);
}

static void fmt_ci(char *buf, size_t len, const struct stats_comparison *c)
{
	char lo[24], hi[24];
	if (!isfinite(c->ratio_lo) || !isfinite(c->ratio_hi)) {
		snprintf(buf, len, "n/a");
		return;
	}
	fmt_pct(lo, sizeof lo, c->ratio_lo);
	fmt_pct(hi, sizeof hi, c->ratio_hi);
	snprintf(buf, len, "%s … %s", lo, hi);
}

static void fmt_p(char *buf, size_t len, double p)
{
	if (!isfinite(p))
		snprintf(buf, len, "n/a");
	else if (p < 0.001)
		snprintf(buf, len, "< 0.001");
	else
		snprintf(buf, len, "%.3f", p);
}

/* Never rounded up to "100 %" (99.9999999 stays itself). */
static void fmt_conf(char *buf, size_t len, double c)
{
	double pct = c * 100.0;
	snprintf(buf, len, pct == floor(pct) ? "%.0f %%" : "%.4g %%", pct);
	for (int digits = 4; pct < 100.0 && strtod(buf, NULL) >= 100.0
	     && digits <= 17; digits++)
		snprintf(buf, len, "%.*g %%", digits, pct);
}

/* The level of each row's interval: the confidence, or in a family of
 * rows its Bonferroni level, "98.75 %" (four significant digits, more
 * only where they would round it up to 100 %). */
static void fmt_ci_level(char *buf, size_t len, const struct cmp_report *rep)
{
	if (rep->family_size <= 1) {
		fmt_conf(buf, len, rep->confidence);
		return;
	}
	double pct = rep->ci_level * 100.0;
	for (int digits = 4; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g %%", digits, pct);
		if (strtod(buf, NULL) < 100.0)
			return;
	}
}

/* A row is named by its benchmark: in a gate against the reference, the
 * candidate (the base is the reference on every row). */
static const char *row_name(const struct cmp_row *r)
{
	return text_shown(r->by_reference ? r->new->name
			  : r->base ? r->base->name : r->new->name);
}

/* The cells of one row, each written into cell[col]; the name, which may
 * be long, is left empty: use row_name(). */
static void row_cells(const struct cmp_report *rep, const struct cmp_row *r,
		      enum time_unit fixed, char cell[N_COLS][96])
{
	const struct cmp_bench *any = r->base ? r->base : r->new;
	for (int c = 0; c < N_COLS; c++)
		snprintf(cell[c], 96, "%s", "");
	snprintf(cell[COL_VERDICT], 96, "%s", gate_verdict_name(r->verdict));
	if (r->base == NULL || r->new == NULL) {
		snprintf(cell[r->base ? COL_NEW : COL_BASE], 96, "-");
		snprintf(cell[r->base ? COL_BASE : COL_NEW], 96, "%zu runs",
			 any->n_runs);
		return;
	}
	enum time_unit u = fixed;
	if (u == UNIT_AUTO)
		u = text_pick_unit(isfinite(r->base_mean) ? r->base_mean : r->new_mean);
	if (r->st.exact) {
		/* Simulated counts, the same in every run: the numbers
		 * themselves, no interval and no p. */
		text_grouped(r->base_mean, cell[COL_BASE], 96);
		text_grouped(r->new_mean, cell[COL_NEW], 96);
		snprintf(cell[COL_CHANGE], 96, "%+.3g %%", (r->st.ratio - 1) * 100);
		snprintf(cell[COL_CI], 96, "exact");
		snprintf(cell[COL_P], 96, "-");
		if (r->verdict == CMP_NOISE)
			snprintf(cell[COL_VERDICT], 96, "below threshold");
		return;
	}
	fmt_value(cell[COL_BASE], 96, rep->metric, r->base_mean, r->base_sd, u);
	fmt_value(cell[COL_NEW], 96, rep->metric, r->new_mean, r->new_sd, u);
	fmt_pct(cell[COL_CHANGE], 96, r->st.ratio);
	fmt_ci(cell[COL_CI], 96, &r->st);
	fmt_p(cell[COL_P], 96, r->p);
	if (gate_row_unresolved(rep, r) > 0) {  /* passed, but blind there */
		char how[48];
		gate_row_blind_text(rep, r, how, sizeof how);
		snprintf(cell[COL_VERDICT], 96, "within noise (%s)", how);
	}
}

/* Columns as wide as their widest cell, counted in characters (UTF-8). */
static size_t display_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80;
	return w;
}

static void pad(size_t n)
{
	while (n-- > 0)
		putchar(' ');
}

static const char *verdict_color(enum cmp_verdict v)
{
	switch (v) {
	case CMP_REGRESSION:
		return C_RED C_BOLD;
	case CMP_IMPROVEMENT:
		return C_GREEN;
	case CMP_NOISE:
		return "";
	default:
		return C_YELLOW;
	}
}

static void header_lines(FILE *f, const struct cmp_report *rep, bool md)
{
	char conf[32], thr[32], all[32];
	fmt_ci_level(conf, sizeof conf, rep);
	fmt_conf(all, sizeof all, rep->confidence);
	fmt_conf(thr, sizeof thr, rep->threshold);
	const char *code = md ? "`" : "'";
	bool higher = rep->metric >= 0 && rep->metric < MET_COUNT &&
		      metric_info((enum metric_id)rep->metric)->higher_is_better;
	fprintf(f, "Gate on %s%s%s (%s%s): a regression is a significant %s "
		"whose whole %s confidence interval lies %s %s%s.\n",
		md ? "**" : "", gate_metric_key(rep->metric), md ? "**" : "",
		rep->why, higher ? "; higher is better" : "",
		higher ? "decrease" : "increase", conf, higher ? "below" : "above",
		higher ? "-" : "+", thr);
	if (rep->family_size > 1) {
		char which[32] = "both";
		if (rep->family_size > 2)
			snprintf(which, sizeof which, "all %zu", rep->family_size);
		fprintf(f, "%s%zu benchmarks compared: p-values Holm-adjusted, each "
			"interval at %s so that %s hold together at %s "
			"(Bonferroni).\n", md ? "\n" : "", rep->family_size, conf,
			which, all);
	}
	if (rep->by_reference) {
		fprintf(f, "%sBase: %s, measured interleaved with the others in "
			"this run%s.\n", md ? "\n" : "", text_shown(rep->base->origin),
			rep->paired ? " (compared by rounds)" : "");
		return;
	}
	fprintf(f, "%sBase: ", md ? "\n" : "");
	for (int side = 0; side < 2; side++) {
		const struct cmp_set *s = side ? rep->new : rep->base;
		if (s->format == CMP_FMT_RUN)
			fprintf(f, "this run");
		else
			fprintf(f, "%s%s%s (%s)", code, text_shown(s->origin), code,
				gate_format_name(s->format));
		fputs(side ? "" : ", new: ", f);
	}
	fprintf(f, "; matched by %s.\n", rep->match_by == MATCH_NAME
		? "display name" : "command line and parameters");
	if (rep->n_uncompared == 0)
		return;
	/* Say which metrics only one side has, and which side. */
	for (int side = 0; side < 2; side++) {
		const struct cmp_set *has = side == 0 ? rep->base : rep->new;
		const struct cmp_set *lacks = side == 0 ? rep->new : rep->base;
		bool first = true;
		for (size_t i = 0; i < rep->n_uncompared; i++) {
			int m = rep->uncompared[i];
			if (!gate_set_has(has, m, true))
				continue;
			if (first)
				fprintf(f, "%sNot compared (%s %s): ", md ? "\n" : "",
					lacks->format == CMP_FMT_HYPERFINE
					? "per-run wall time only in"
					: "not recorded in", text_shown(lacks->origin));
			fprintf(f, "%s%s", first ? "" : ", ", gate_metric_key(m));
			first = false;
		}
		if (!first)
			fputs(".\n", f);
	}
}

/* "1 regression, 2 within noise, 1 missing in new" */
static void counts_phrase(char *buf, size_t len, const struct cmp_report *rep,
			  bool skip_regressions)
{
	static const char *const plural[CMP__COUNT][2] = {
		[CMP_REGRESSION] = {"regression", "regressions"},
		[CMP_IMPROVEMENT] = {"improvement", "improvements"},
		[CMP_NOISE] = {"within noise", "within noise"},
		[CMP_UNDECIDED] = {"undecided", "undecided"},
		[CMP_ONLY_BASE] = {"missing in new", "missing in new"},
		[CMP_ONLY_NEW] = {"not in baseline", "not in baseline"},
	};
	size_t off = 0;
	buf[0] = '\0';
	for (int v = 0; v < CMP__COUNT; v++) {
		size_t k = rep->count[v];
		if (k == 0 || (skip_regressions && v == CMP_REGRESSION))
			continue;
		int w = snprintf(buf + off, len - off, "%s%zu %s", off ? ", " : "", k,
				 plural[v][k != 1]);
		if (w < 0 || (size_t)w >= len - off)
			return;
		off += (size_t)w;
	}
}

void export_compare_text(const struct text_style *st, const struct cmp_report *rep)
{
	if (st->quiet)
		return;
	const char *bold = st->color ? C_BOLD : "", *reset = st->color ? C_RESET : "";
	const char *dim = st->color ? C_DIM : "";
	char conf[32];
	fmt_ci_level(conf, sizeof conf, rep);

	size_t n = rep->n_rows + 1;
	char (*cells)[N_COLS][96] = xcalloc(n, sizeof *cells);
	static const char *const head[N_COLS] = {"Benchmark", "Base", "New",
						 "Change", NULL, "p", "Verdict"};
	for (int c = 0; c < N_COLS; c++)
		snprintf(cells[0][c], 96, "%s", head[c] ? head[c] : "");
	snprintf(cells[0][COL_CI], 96, "%s CI", conf);
	for (size_t i = 0; i < rep->n_rows; i++)
		row_cells(rep, &rep->rows[i], st->unit, cells[i + 1]);
	size_t width[N_COLS] = {0};
	for (size_t i = 0; i < n; i++)
		for (int c = 0; c < N_COLS; c++) {
			size_t w = display_width(c == COL_NAME && i
				? row_name(&rep->rows[i - 1]) : cells[i][c]);
			if (w > width[c])
				width[c] = w;
		}

	printf("%sComparison%s of %s with %s\n", bold, reset,
	       text_shown(rep->new->origin), text_shown(rep->base->origin));
	header_lines(stdout, rep, false);
	putchar('\n');
	for (size_t i = 0; i < n; i++) {
		const struct cmp_row *r = i ? &rep->rows[i - 1] : NULL;
		fputs("  ", stdout);
		for (int c = 0; c < N_COLS; c++) {
			const char *s = c == COL_NAME && r ? row_name(r) : cells[i][c];
			size_t gap = width[c] - display_width(s);
			bool right = c != COL_NAME && c != COL_CI && c != COL_VERDICT;
			const char *on = i == 0 ? dim : c == COL_VERDICT && st->color
				? verdict_color(r->verdict) : "";
			if (right)
				pad(gap);
			printf("%s%s%s", on, s, *on ? reset : "");
			if (c + 1 < N_COLS) {
				if (!right)
					pad(gap);
				fputs("  ", stdout);
			}
		}
		putchar('\n');
	}
	char counts[256];
	counts_phrase(counts, sizeof counts, rep, false);
	if (rep->count[CMP_REGRESSION])
		printf("\n%sResult:%s %s%s%s\n", bold, reset,
		       st->color ? C_RED C_BOLD : "", counts, st->color ? C_RESET : "");
	else
		printf("\n%sResult:%s no regression (%s)\n", bold, reset, counts);
	free(cells);
	fflush(stdout);
}

/* A Markdown table cell: '|' escaped, newlines flattened. */
static void md_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

/* A command as inline code, unless it holds a backtick. */
static void md_code(FILE *f, const char *s)
{
	bool tick = strchr(s, '`') != NULL;
	if (!tick)
		fputc('`', f);
	md_text(f, s);
	if (!tick)
		fputc('`', f);
}

static void md_verdict_line(FILE *f, const struct cmp_report *rep)
{
	const char *key = gate_metric_key(rep->metric);
	size_t nreg = rep->count[CMP_REGRESSION];
	char counts[256];
	counts_phrase(counts, sizeof counts, rep, nreg > 0);
	if (nreg == 0) {
		fprintf(f, "**:white_check_mark: cbench: no regression** in %s (%s).\n",
			key, counts);
		return;
	}
	fprintf(f, "**:x: cbench: %zu regression%s** in %s: ", nreg,
		nreg == 1 ? "" : "s", key);
	size_t shown = 0;
	for (size_t i = 0; i < rep->n_rows && shown < 3; i++) {
		const struct cmp_row *r = &rep->rows[i];
		if (r->verdict != CMP_REGRESSION)
			continue;
		char pct[24];
		fmt_pct(pct, sizeof pct, r->st.ratio);
		fputs(shown ? ", " : "", f);
		md_code(f, r->new->name);
		fprintf(f, " %s", pct);
		shown++;
	}
	if (nreg > shown)
		fprintf(f, " and %zu more", nreg - shown);
	fprintf(f, counts[0] ? "; %s.\n" : ".\n", counts);
}

static void export_compare_markdown(FILE *f, const struct cmp_report *rep,
			     enum time_unit unit)
{
	char conf[32];
	fmt_ci_level(conf, sizeof conf, rep);
	md_verdict_line(f, rep);
	fprintf(f, "\n| Benchmark | Base | New | Change | %s CI | p | Verdict |\n"
		"|:---|---:|---:|---:|:---|---:|:---|\n", conf);
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct cmp_row *r = &rep->rows[i];
		char cell[N_COLS][96];
		row_cells(rep, r, unit, cell);
		fputs("| ", f);
		md_code(f, row_name(r));
		for (int c = COL_BASE; c < N_COLS; c++) {
			fputs(" | ", f);
			if (c == COL_VERDICT && r->verdict == CMP_REGRESSION)
				fputs(":x: **", f);
			md_text(f, cell[c]);
			if (c == COL_VERDICT && r->verdict == CMP_REGRESSION)
				fputs("**", f);
		}
		fputs(" |\n", f);
	}
	fputc('\n', f);
	header_lines(f, rep, true);
}

/* Workflow-command escaping: data escapes %, CR, LF; properties also : and ,;
 * other control characters (an escape sequence, DEL) are shown as \xNN. */
static void gh_data(FILE *f, const char *s, bool property)
{
	for (; *s; s++) {
		switch (*s) {
		case '%':
			fputs("%25", f);
			break;
		case '\r':
			fputs("%0D", f);
			break;
		case '\n':
			fputs("%0A", f);
			break;
		case ':':
			fputs(property ? "%3A" : ":", f);
			break;
		case ',':
			fputs(property ? "%2C" : ",", f);
			break;
		default:   /* other control characters as everywhere else */
			if ((unsigned char)*s < 0x20 || *s == 0x7f)
				fprintf(f, "\\x%02x", (unsigned char)*s);
			else
				fputc(*s, f);
		}
	}
}

void export_compare_github(FILE *f, const struct cmp_report *rep)
{
	const char *key = gate_metric_key(rep->metric);
	char conf[32], thr[32];
	fmt_ci_level(conf, sizeof conf, rep);
	fmt_conf(thr, sizeof thr, rep->threshold);
	for (size_t i = 0; i < rep->n_rows; i++) {
		const struct cmp_row *r = &rep->rows[i];
		const struct cmp_bench *b = r->new ? r->new : r->base;
		char msg[1024], pct[24], ci[64], p[24];
		const char *kind = "warning", *title = "cbench";
		switch (r->verdict) {
		case CMP_REGRESSION:
			fmt_pct(pct, sizeof pct, r->st.ratio);
			fmt_ci(ci, sizeof ci, &r->st);
			fmt_p(p, sizeof p, r->p);
			if (r->st.exact)
				snprintf(msg, sizeof msg, "'%s' regressed: %s %+.3g %% "
					 "(exact; threshold +%s)", b->name, key,
					 (r->st.ratio - 1) * 100, thr);
			else
				snprintf(msg, sizeof msg, "'%s' regressed: %s %s (%s "
					 "CI %s, p %s%s; threshold +%s)", b->name, key,
					 pct, conf, ci, isfinite(r->p) && r->p < 0.001
					 ? "" : "= ", p, thr);
			kind = "error";
			title = "cbench regression";
			break;
		case CMP_UNDECIDED:
			snprintf(msg, sizeof msg, "'%s': %s could not be compared (too "
				 "few runs, or too noisy to bound the change)", b->name, key);
			break;
		case CMP_ONLY_BASE:
			snprintf(msg, sizeof msg, "'%s' is in the baseline %s but was not "
				 "benchmarked", b->name, rep->base->origin);
			break;
		case CMP_ONLY_NEW:
			snprintf(msg, sizeof msg, "'%s' is not in the baseline %s",
				 b->name, rep->base->origin);
			break;
		default:
			continue;
		}
		fprintf(f, "::%s title=", kind);
		gh_data(f, title, true);
		fputs("::", f);
		gh_data(f, msg, false);
		fputc('\n', f);
	}
	fflush(f);
}

struct md_arg {
	const struct cmp_report *rep;
	enum time_unit unit;
};

static int fill_markdown(FILE *f, void *arg)
{
	const struct md_arg *a = arg;
	export_compare_markdown(f, a->rep, a->unit);
	return ferror(f) ? -1 : 0;
}

/* The report to path: "-" is stdout, other streams (a device, a pipe) are
 * written in place, regular files atomically through export.c's writer so
 * a failed write leaves the previous file as it was. */
int export_compare_write_markdown(const char *path, const struct cmp_report *rep,
				  enum time_unit unit, char *err, size_t errlen)
{
	struct md_arg a = {rep, unit};
	if (!export_is_stream(path)) {
		char why[DIAG_MSG_MAX];
		if (export_write_atomic(path, fill_markdown, &a, why, sizeof why) != 0) {
			snprintf(err, errlen, "--export-markdown: %s", why);
			return -1;
		}
		return 0;
	}
	bool to_stdout = strcmp(path, "-") == 0;
	FILE *f = to_stdout ? stdout : fopen(path, "w");
	if (f == NULL) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	fill_markdown(f, &a);
	int bad = ferror(f);
	if (to_stdout)
		bad |= fflush(f) != 0;
	else
		bad |= fclose(f) != 0;
	if (bad) {
		snprintf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	return 0;
}
