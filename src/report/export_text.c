/*
 * export_text.c: the terminal report, in hyperfine's layout so its users
 * feel at home, with lines for peak RSS and every counter, and a progress
 * bar on stderr.  Colour and the bar only go to terminals; NO_COLOR
 * (https://no-color.org) and a dumb terminal remove every escape sequence
 * (the bar then redraws with a carriage return and spaces), not the bar.
 */
#include "profile.h"
#include "export_text.h"
#include "between.h"
#include "multitest.h"
#include "spawn.h"
#include "stats.h"
#include "xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#define C_BOLD "\033[1m"
#define C_GREEN "\033[32m"
#define C_YELLOW "\033[33m"
#define C_CYAN "\033[36m"
#define C_MAGENTA "\033[35m"
#define C_DIM "\033[2m"
#define C_BLUE_OR_DIM "\033[34m"
#define C_RESET "\033[0m"

/* Columns of the terminal on stderr (TIOCGWINSZ), else $COLUMNS, else 80. */
static int text_terminal_width(void);

/* A terminal that takes no escape sequences: TERM unset, "dumb" or
 * "unknown" (hyperfine's test in src/options.rs). */
static bool term_is_dumb(void)
{
	const char *t = getenv("TERM");
	return t == NULL || *t == '\0' || strcmp(t, "dumb") == 0 ||
	       strcmp(t, "unknown") == 0;
}

struct text_style text_style_from(const struct report_options *o)
{
	struct text_style st = {0};
	bool out_tty = isatty(STDOUT_FILENO);
	bool err_tty = isatty(STDERR_FILENO);
	const char *nc = getenv("NO_COLOR");
	/* One decision for every escape sequence cbench writes (colours on
	 * stdout and stderr, the bar's erase-line), hyperfine's: auto on a
	 * dumb terminal or with a non-empty NO_COLOR is its NoColor, which
	 * writes none, as nocolor and basic never do; full and color are
	 * what they say, as an explicit choice should be
	 * (https://no-color.org lets options override NO_COLOR). */
	bool plain = term_is_dumb() || (nc != NULL && nc[0] != '\0');

	st.unit = o->unit;
	st.verbose = o->verbose;
	st.by_command = o->by_command;
	st.has_reference = o->has_reference;
	st.confidence = o->confidence;
	st.precision = o->precision;
	/* The command's output on the terminal would mix with the bar. */
	if (o->output_shown)
		err_tty = false;
	/* Warnings go to stderr: coloured and wrapped when it is a terminal
	 * (or $COLUMNS asks for a width). */
	bool err_term = isatty(STDERR_FILENO);
	if (err_term || (getenv("COLUMNS") && *getenv("COLUMNS")))
		st.wrap_width = text_terminal_width();
	switch (o->style) {
	case STYLE_AUTO:
		st.color = out_tty && !plain;
		st.err_color = err_term && !plain;
		st.progress = err_tty;
		st.erase = !plain;
		break;
	case STYLE_FULL:        /* asked for: colours and erase codes */
		st.color = true;
		st.err_color = true;
		st.progress = err_tty;
		st.erase = true;
		break;
	case STYLE_COLOR:
		st.color = true;
		st.err_color = true;
		break;
	case STYLE_NOCOLOR:
		st.progress = err_tty;
		break;
	case STYLE_BASIC:
		break;
	case STYLE_NONE:
		st.quiet = true;
		break;
	}
	return st;
}

/* The shell-noise warning: the mean left after subtracting the shell's
 * start-up is below this many of the start-up's standard deviations. */
#define SHELL_NOISE_SDS 3.0

static const char *c(const struct text_style *st, const char *code)
{
	return st->color ? code : "";
}

/* Columns the first n bytes of a UTF-8 string take (one per character). */
static size_t display_width_n(const char *s, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xC0) != 0x80;
	return w;
}

const char *text_unit_name(enum time_unit u)
{
	switch (u) {
	case UNIT_US:
		return "µs";
	case UNIT_MS:
		return "ms";
	default:
		return "s";
	}
}

enum time_unit text_pick_unit(double ref_s)
{
	if (!(ref_s >= 1e-3))
		return UNIT_US;
	if (ref_s < 1.0)
		return UNIT_MS;
	return UNIT_S;
}

/* A time value with about four significant digits: 1.234, 12.34, 123.4. */
static const char *tfmt(double v)
{
	double a = fabs(v);
	return a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : "%.3f";
}

double text_in_unit(double s, enum time_unit u);

static void ftime(char *buf, size_t len, double s, enum time_unit u)
{
	double v = text_in_unit(s, u);
	snprintf(buf, len, tfmt(v), v);
}

double text_in_unit(double s, enum time_unit u)
{
	switch (u) {
	case UNIT_US:
		return s * 1e6;
	case UNIT_MS:
		return s * 1e3;
	default:
		return s;
	}
}

void text_count(double v, char *buf, size_t len)
{
	static const char *const pre[] = {"", " k", " M", " G", " T", " P"};
	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	int i = 0;
	double a = fabs(v);
	if (a < 1e6) {
		snprintf(buf, len, "%.1f", v);
		return;
	}
	/* Past 999 P: in scientific notation, as printf would not fit it. */
	if (a >= 1e18) {
		snprintf(buf, len, "%.4g", v);
		return;
	}
	while (a >= 1000.0 && i < 5) {
		a /= 1000.0;
		v /= 1000.0;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.3f%s", v, pre[i]);
}

void text_custom(double v, const char *unit_text, char *buf, size_t len)
{
	double a = fabs(v);
	char num[40];
	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	if (a >= 1e6)
		text_count(v, num, sizeof num);
	else
		snprintf(num, sizeof num, a >= 100 ? "%.1f" : a >= 1 ? "%.3f"
			 : a == 0 ? "%.0f" : "%.3g", v);
	snprintf(buf, len, "%s%s%s", num, unit_text && *unit_text ? " " : "",
		 unit_text ? unit_text : "");
}

void text_bytes(double v, char *buf, size_t len)
{
	static const char *const pre[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	if (!isfinite(v)) {
		snprintf(buf, len, "n/a");
		return;
	}
	/* Binary units, but switched at 1000 (as ls -h does) so there are
	 * never four digits before the point: 1015.8 KiB is 0.99 MiB. */
	int i = 0;
	while (fabs(v) >= 1000.0 && i < 4) {
		v /= 1024.0;
		i++;
	}
	snprintf(buf, len, i == 0 ? "%.0f %s" : fabs(v) < 1 ? "%.2f %s" : "%.1f %s",
		 v, pre[i]);
}

void text_bench_header(const struct text_style *st, size_t index,
		       const struct bench_result *r)
{
	if (st->quiet)
		return;
	printf("%sBenchmark %zu:%s %s", c(st, C_BOLD), index + 1, c(st, C_RESET),
	       text_shown(r->name));
	/* Parameters that the display name does not show. */
	bool first = true;
	for (size_t i = 0; i < r->n_params; i++) {
		if (strstr(r->name, r->params[i].value) == NULL) {
			printf("%s%s = %s", first ? " (" : ", ", r->params[i].name,
			       text_shown(r->params[i].value));
			first = false;
		}
	}
	if (!first)
		putchar(')');
	putchar('\n');
	fflush(stdout);
}

/* One "label: mean ± sd" line for a metric. */
void text_grouped(double v, char *buf, size_t len)
{
	char digits[32];
	/* More digits than a count can hold exactly: scientific notation. */
	if (!isfinite(v) || fabs(v) >= 1e21) {
		snprintf(buf, len, isfinite(v) ? "%.6g" : "n/a", v);
		return;
	}
	snprintf(digits, sizeof digits, "%.0f", fabs(v));
	size_t n = strlen(digits), k = 0;
	if (v < 0 && k + 1 < len)
		buf[k++] = '-';
	for (size_t i = 0; i < n && k + 2 < len; i++) {
		buf[k++] = digits[i];
		if ((n - i - 1) % 3 == 0 && i + 1 < n)
			buf[k++] = ',';
	}
	buf[k] = '\0';
}

/* A value of metric m in its unit ("2.286 ms", "1.6 MiB", "71.4"); whole:
 * a count written in full ("1,234,567"). */
static void metric_value(double v, enum metric_id m, enum time_unit unit,
			 bool whole, char *buf, size_t len)
{
	const struct metric_info *mi = metric_info(m);
	char a[32];
	switch (mi->unit) {
	case UNIT_SECONDS:
		ftime(a, sizeof a, v, unit);
		snprintf(buf, len, "%s %s", a, text_unit_name(unit));
		break;
	case UNIT_BYTES:
		text_bytes(v, buf, len);
		break;
	case UNIT_COUNT:
		if (whole)
			text_grouped(v, buf, len);
		else
			text_count(v, buf, len);
		break;
	case UNIT_CUSTOM:
		text_custom(v, mi->unit_text, buf, len);
		break;
	}
}

/* A simulated count the same in every run: the number, exactly. */
static bool exact_line(const struct text_style *st, const struct analysis_bench *ab,
		       enum metric_id m)
{
	const struct stats_summary *s = &ab->sum[m];
	if (!metric_info(m)->simulated || s->n < 2 || s->min != s->max)
		return false;
	char label[48], v[40], runs[32] = "both runs";
	snprintf(label, sizeof label, "%s:", metric_info(m)->label);
	text_grouped(s->mean, v, sizeof v);
	if (s->n > 2)
		snprintf(runs, sizeof runs, "all %zu runs", s->n);
	printf("  %-19s %s%12s%s  %s(exact: the same in %s)%s\n", label,
	       c(st, C_GREEN), v, c(st, C_RESET), c(st, C_DIM), runs,
	       c(st, C_RESET));
	return true;
}

static void metric_line(const struct text_style *st, const struct bench_result *r,
			const struct analysis_bench *ab, enum metric_id m,
			enum time_unit unit)
{
	if (r->has[m] && exact_line(st, ab, m))
		return;
	const struct stats_summary s = ab->sum[m];
	if (!r->has[m] || s.n == 0) {
		if (r->has[m])
			printf("  %-19s %snot counted%s\n",
			       metric_info(m)->label, c(st, C_DIM), c(st, C_RESET));
		return;
	}
	const struct metric_info *mi = metric_info(m);
	char label[48], mean[48], sd[48];
	snprintf(label, sizeof label, "%s:", mi->label);
	/* A whole count for a simulated one, as exact_line; a time's spread
	 * 0 when not finite, a size's "n/a" (text_bytes) if it overflowed. */
	metric_value(s.mean, m, unit, mi->simulated && s.n == 1, mean, sizeof mean);
	metric_value(mi->unit == UNIT_SECONDS && !isfinite(s.stddev) ? 0.0 : s.stddev,
		     m, unit, false, sd, sizeof sd);
	bool partial = s.n < r->n_runs;
	printf("  %-19s %s%12s%s", label, c(st, C_GREEN), mean, c(st, C_RESET));
	/* One value has no spread: no "± 0" (hyperfine's "abs ≡"). */
	if (s.n >= 2)
		printf(" ± %s%*s%s", c(st, C_GREEN), partial ? -12 : 0, sd,
		       c(st, C_RESET));
	else if (partial)
		printf("%15s", "");
	if (partial)
		printf(" %s(counted in %zu of %zu run%s)%s", c(st, C_DIM), s.n,
		       r->n_runs, r->n_runs == 1 ? "" : "s", c(st, C_RESET));
	putchar('\n');
}

const char *text_shown(const char *s)
{
	static char bufs[8][4096];
	static unsigned next;
	const unsigned char *u = (const unsigned char *)s;
	while (*u && *u >= 0x20 && *u != 0x7f)
		u++;
	if (*u == '\0')
		return s;
	char *b = bufs[next++ % 8];
	size_t k = 0;
	for (u = (const unsigned char *)s; *u && k + 5 < sizeof bufs[0]; u++) {
		if (*u == '\n')
			k += (size_t)snprintf(b + k, 5, "\\n");
		else if (*u == '\t')
			k += (size_t)snprintf(b + k, 5, "\\t");
		else if (*u < 0x20 || *u == 0x7f)
			k += (size_t)snprintf(b + k, 5, "\\x%02x", *u);
		else
			b[k++] = (char)*u;
	}
	b[k] = '\0';
	return b;
}

/* "95 %" for the confidence level, with as many digits as it takes not to
 * round a level below 100 % up to "100 %" (99.9999999 stays itself). */
static void level_text(double confidence, char *buf, size_t len)
{
	double pct = confidence * 100.0;
	for (int digits = 6; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g %%", digits, pct);
		if (pct >= 100.0 || strtod(buf, NULL) < 100.0)
			return;
	}
}

/*
 * Wall-time statistics beyond hyperfine's two lines: the Student-t interval
 * of the mean, the median with its order-statistic interval, and Tukey
 * outlier counts (see stats.c for the methods).
 */
static void stats_block(const struct text_style *st,
			const struct stats_summary *w, enum time_unit unit)
{
	const char *un = text_unit_name(unit);
	char lvl[32], lo[24], hi[24], med[24], label[56];
	level_text(st->confidence, lvl, sizeof lvl);
	ftime(med, sizeof med, w->median, unit);
	if (w->n < 2) {
		printf("  %s(one run: no standard deviation, no confidence "
		       "interval)%s\n", c(st, C_DIM), c(st, C_RESET));
		return;
	}
	ftime(lo, sizeof lo, w->mean_ci_lo, unit);
	ftime(hi, sizeof hi, w->mean_ci_hi, unit);
	snprintf(label, sizeof label, "Mean %s CI:", lvl);
	printf("  %-20s %8s %s … %8s %s", label, lo, un, hi, un);
	if (isfinite(w->median_ci_lo)) {
		ftime(lo, sizeof lo, w->median_ci_lo, unit);
		ftime(hi, sizeof hi, w->median_ci_hi, unit);
		printf("    [Median: %s %s, CI %s … %s %s]\n", med, un, lo, hi, un);
	} else {
		printf("    [Median: %s %s, too few runs for its CI]\n", med, un);
	}
	size_t out = w->outliers_mild + w->outliers_severe;
	if (out > 0)
		printf("  %-20s %s%8zu mild, %zu severe%s of %zu runs (Tukey fences; "
		       "kept)\n", "Outliers:", c(st, C_YELLOW), w->outliers_mild,
		       w->outliers_severe, c(st, C_RESET), w->n);
}

/* The metrics the one line shows, most telling first (-v: all of them,
 * a line each). */
#define ADDS_MAX 4

/*
 * Without -v: what cbench adds to hyperfine's two lines, on one line: the
 * mean's interval, then the means of the metrics that tell most (the
 * --metric ones, simulated and counted instructions, the task-clock, the
 * peak RSS).
 */
static void adds_line(const struct text_style *st, const struct bench_result *r,
		      const struct analysis_bench *ab, enum time_unit unit)
{
	const struct stats_summary *w = &ab->sum[MET_WALL];
	const char *un = text_unit_name(unit);
	char lvl[32], label[56], lo[24], hi[24];
	level_text(st->confidence, lvl, sizeof lvl);
	if (w->n >= 2) {
		ftime(lo, sizeof lo, w->mean_ci_lo, unit);
		ftime(hi, sizeof hi, w->mean_ci_hi, unit);
		snprintf(label, sizeof label, "Mean %s CI:", lvl);
		printf("  %-20s %8s %s … %8s %s", label, lo, un, hi, un);
	} else {
		printf("  %s(one run: no standard deviation, no confidence "
		       "interval)%s", c(st, C_DIM),
		       c(st, C_RESET));
	}
	int order[MET_COUNT], n = 0;
	for (int m = MET_CUSTOM_FIRST; m < MET_COUNT; m++)
		order[n++] = m;
	order[n++] = MET_SIM_INSTRUCTIONS;
	order[n++] = MET_CTR_FIRST + CTR_INSTRUCTIONS;
	order[n++] = MET_CTR_FIRST + CTR_TASK_CLOCK;
	order[n++] = MET_MAX_RSS;
	size_t shown = 0;
	for (int k = 0; k < n && shown < ADDS_MAX; k++) {
		enum metric_id m = (enum metric_id)order[k];
		const struct stats_summary *s = &ab->sum[m];
		if (!r->has[m] || (s->n > 0 && !isfinite(s->mean)) ||
		    (s->n == 0 && m < MET_CUSTOM_FIRST))
			continue;
		char v[48] = "not counted";   /* a --metric no run printed */
		if (s->n > 0)
			metric_value(s->mean, m, unit, metric_info(m)->simulated &&
				     s->min == s->max, v, sizeof v);
		bool exact = metric_info(m)->simulated && s->n >= 2 && s->min == s->max;
		printf("%s%s: %s%s%s%s", shown ? ", " : "    [", metric_info(m)->label,
		       c(st, C_GREEN), v, c(st, C_RESET), exact ? " (exact)" : "");
		shown++;
	}
	printf("%s\n", shown ? "]" : "");
}

/* Two significant digits, without an exponent. */
static void pct2(char *buf, size_t len, double v)
{
	snprintf(buf, len, v >= 10 ? "%.0f" : v >= 1 ? "%.1f" : "%.2g", v);
}

/* --precision with a history (between.h): the interval across
 * invocations, and when the spread between them alone is wider than the
 * goal, that it cannot be reached here. */
static void between_line(const struct text_style *st, const struct bench_result *r,
			 const char *lvl, double own)
{
	double tot = between_halfwidth(own, r->between_tau, r->between_k,
				       st->confidence) * 100;
	double floor = between_halfwidth(0, r->between_tau, r->between_k,
					 st->confidence) * 100;
	char t[32], f[32];
	pct2(t, sizeof t, tot);
	pct2(f, sizeof f, floor);
	if (floor >= st->precision * 100)
		printf("  %sNote: the mean moves ±%s %% between invocations here "
		       "(%zu earlier in the history): --precision %g %% cannot be "
		       "reached; its %s CI across invocations is ±%s %% after %zu "
		       "runs%s\n", c(st, C_YELLOW), f, r->between_k,
		       st->precision * 100, lvl, t, r->n_runs, c(st, C_RESET));
	else if (!r->stop_reason && !r->interrupted)
		printf("  %sPrecision reached: the mean's %s CI across invocations "
		       "is ±%s %% of it (--precision %g %%; ±%s %% from the spread "
		       "between %zu earlier ones) after %zu runs%s\n", c(st, C_DIM),
		       lvl, t, st->precision * 100, f, r->between_k, r->n_runs,
		       c(st, C_RESET));
}

/* Why adaptive running stopped, when that is news to the user. */
static void stop_line(const struct text_style *st, const struct bench_result *r,
		      const struct stats_summary *w)
{
	char lvl[32], pct[32];
	level_text(st->confidence, lvl, sizeof lvl);
	/* The interval shown (drift-widened, and bootstrap-t for times):
	 * half its width, as --precision measures it. */
	double h = w->n >= 2 ? (w->mean_ci_hi - w->mean_ci_lo) / 2 : NAN;
	double rel = isfinite(h) && w->mean > 0 ? h / w->mean : NAN;
	bool between = st->precision > 0 && r->between_tau >= 0 && r->between_k > 0;
	if (between && isfinite(rel) && !r->stop_reason) {
		between_line(st, r, lvl, rel);
		return;
	}
	if (between)   /* stopped by a cap: the goal was the wider interval */
		rel = between_halfwidth(rel, r->between_tau, r->between_k,
					st->confidence);
	rel *= 100;
	pct2(pct, sizeof pct, rel);
	if (r->stop_reason) {
		printf("  %sNote: %s", c(st, C_YELLOW), r->stop_reason);
		if (st->precision > 0 && isfinite(rel) && rel <= st->precision * 100)
			printf("; the mean's %s CI is ±%s %% of it, within ±%g %% "
			       "but from too few runs to allow for drift", lvl, pct,
			       st->precision * 100);
		else if (st->precision > 0 && isfinite(rel))
			printf("; the mean's %s CI%s is ±%s %% of it, not ±%g %%",
			       lvl, between ? " across invocations" : "", pct,
			       st->precision * 100);
		printf("%s\n", c(st, C_RESET));
	} else if (st->precision > 0 && isfinite(rel) && !r->interrupted) {
		printf("  %sPrecision reached: the mean's %s CI is ±%s %% of it "
		       "(--precision %g %%) after %zu runs%s\n", c(st, C_DIM), lvl,
		       pct, st->precision * 100, w->n, c(st, C_RESET));
	}
}

/* Print text to f from column col, wrapped at spaces before width (a word
 * longer than a line stands alone), later lines indented by indent
 * columns; ends with a newline. */
static void text_wrap(FILE *f, const char *text, int col, int indent, int width)
{
	const char *p = text;
	while (*p) {
		const char *sp = strchr(p, ' ');
		size_t len = sp ? (size_t)(sp - p) : strlen(p);
		int w = (int)display_width_n(p, len);
		if (col > indent && col + 1 + w > width - 1) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)len, p);
		col += w;
		p += len;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

static void warn(const struct text_style *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * A benchmark's warning, on stderr as hyperfine writes its warnings (so
 * that stdout holds only the results), after the report lines before it.
 * On a terminal, wrapped to its width at spaces, the continuation lines
 * indented under the text; elsewhere one line, for grep.
 */
static void warn(const struct text_style *st, const char *fmt, ...)
{
	char text[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	fflush(stdout);
	fprintf(stderr, "  %sWarning:%s ", st->err_color ? C_YELLOW : "",
		st->err_color ? C_RESET : "");
	int width = st->wrap_width;
	if (width <= 0) {
		fprintf(stderr, "%s\n", text);
		return;
	}
	text_wrap(stderr, text, 11, 11, width);
}

/* Runs after another benchmark's took longer (or less) than after its own
 * (STATS_WARN_CARRYOVER). */
static void carryover_warning(const struct text_style *st,
			      const struct stats_carryover *c, enum time_unit unit)
{
	char a[24], b[24];
	ftime(a, sizeof a, c->after_other, unit);
	ftime(b, sizeof b, c->after_self, unit);
	if (!st->verbose) {
		warn(st, "it ran %.0f %% %s right after another benchmark's run "
		     "than after its own.", fabs(c->change) * 100,
		     c->change > 0 ? "slower" : "faster");
		return;
	}
	warn(st, "its runs took %.0f %% %s after another benchmark's run than "
	     "after one of its own (medians %s and %s %s, %zu and %zu runs, "
	     "Mann-Whitney p = %.2g): what ran just before changes its time, "
	     "so beside the others it does not take what it takes alone. "
	     "Compare commands of similar length, or benchmark it on its own "
	     "for its own time.",
	     fabs(c->change) * 100, c->change > 0 ? "longer" : "less time", a, b,
	     text_unit_name(unit), c->n_other, c->n_self, c->p);
}

/* "1 run", "3 runs". */
static const char *runs_word(size_t n)
{
	return n == 1 ? "run" : "runs";
}

/*
 * Runs that -i let through: how many failed, with which exit codes or
 * signals, and how many timed out (their time is the timeout's, not the
 * command's).  Like hyperfine's "Ignoring non-zero exit code" warning, but
 * with the counts.
 */
static void failure_lines(const struct text_style *st, const struct bench_result *r)
{
	size_t failed = 0, timed_out = 0;
	for (size_t i = 0; i < r->n_runs; i++)
		if (r->flags[i] & RUN_TIMED_OUT)
			timed_out++;
		else if (r->flags[i] & RUN_FAILED)
			failed++;
	if (failed > 0) {
		/* Distinct codes in order of first appearance, with counts. */
		char list[256] = "";
		size_t used = 0, shown = 0;
		for (size_t i = 0; i < r->n_runs; i++) {
			if (!(r->flags[i] & RUN_FAILED) || (r->flags[i] & RUN_TIMED_OUT))
				continue;
			int code = r->exit_codes[i];
			bool seen = false;
			for (size_t k = 0; k < i && !seen; k++)
				seen = (r->flags[k] & RUN_FAILED) &&
				       !(r->flags[k] & RUN_TIMED_OUT) &&
				       r->exit_codes[k] == code;
			if (seen)
				continue;
			size_t cnt = 0;
			for (size_t k = i; k < r->n_runs; k++)
				cnt += (r->flags[k] & RUN_FAILED) &&
				       !(r->flags[k] & RUN_TIMED_OUT) &&
				       r->exit_codes[k] == code;
			char one[64];
			if (code < 0)
				snprintf(one, sizeof one, "signal %s",
					 spawn_signal_name(-code));
			else
				snprintf(one, sizeof one, "exit code %d", code);
			if (cnt > 1 || failed > 1)
				snprintf(one + strlen(one), sizeof one - strlen(one),
					 " ×%zu", cnt);
			if (used < sizeof list - 1) {
				int w = snprintf(list + used, sizeof list - used, "%s%s",
						 shown ? ", " : "", one);
				used += w > 0 ? (size_t)w : 0;
				if (used >= sizeof list)
					used = sizeof list - 1;
			}
			shown++;
		}
		if (st->verbose)
			warn(st, "%zu of %zu %s failed (%s), ignored by -i: their "
			     "times are in the statistics, but may not measure the "
			     "work you meant.", failed, r->n_runs,
			     runs_word(r->n_runs), list);
		else
			warn(st, "%zu of %zu %s failed (%s), ignored by -i; their "
			     "times are in the statistics.", failed, r->n_runs,
			     runs_word(r->n_runs), list);
	}
	if (timed_out > 0 && st->verbose)
		warn(st, "%zu of %zu %s timed out (killed by --timeout), ignored "
		     "by -i: their times are the timeout, not the command's, and "
		     "are in the statistics.", timed_out, r->n_runs,
		     runs_word(r->n_runs));
	else if (timed_out > 0)
		warn(st, "%zu of %zu %s timed out, ignored by -i; the timeout is "
		     "their time.", timed_out, r->n_runs, runs_word(r->n_runs));
}

/* Simulated counts that differ between runs: not exact, and why. */
static void sim_varies_line(const struct text_style *st, const struct bench_result *r,
			    const struct analysis_bench *ab)
{
	const struct stats_summary *si = &ab->sum[MET_SIM_INSTRUCTIONS];
	if (!r->has[MET_SIM_INSTRUCTIONS] || si->n < 2 || si->min == si->max)
		return;
	char lo[40], hi[40];
	text_grouped(si->min, lo, sizeof lo);
	text_grouped(si->max, hi, sizeof hi);
	if (st->verbose)
		warn(st, "its sim instructions differ between runs (%s to %s, "
		     "%.2g %%), so they are not exact: the program does not do "
		     "the same work each time (usual causes: a hash seed, e.g. "
		     "PYTHONHASHSEED=0 fixes Python's; threads or pipes whose "
		     "timing changes the work; the clock or random numbers); its "
		     "comparisons use the statistics",
		     lo, hi, (si->max - si->min) / si->min * 100);
	else
		warn(st, "its sim instructions differ between runs (%s to %s): "
		     "not the same work each time (-v: why)", lo, hi);
}

/*
 * Shell start-up subtracted from a command that takes about as long as the
 * start-up's own run-to-run noise: what is left is mostly noise.  The
 * rule: mean below 3 standard deviations of the calibrated start-up, or at
 * least 10 % of the runs clamped at 0.  Returns true when runs were
 * clamped (the first run is then no news).
 */
static bool shell_noise_warning(const struct text_style *st,
				const struct bench_result *r,
				const struct analysis_bench *ab)
{
	const struct stats_summary *w = &ab->sum[MET_WALL];
	char a[24], b[24];
	size_t clamped = ab->clamped;
	if (!(r->via_shell && st->shell_overhead_s > 0 &&
	      (w->mean < SHELL_NOISE_SDS * st->shell_overhead_sd ||
	       (clamped > 0 && (double)clamped >= 0.1 * (double)w->n))))
		return false;
	enum time_unit u2 = st->unit != UNIT_AUTO ? st->unit
		: text_pick_unit(st->shell_overhead_s);
	ftime(a, sizeof a, st->shell_overhead_s, u2);
	ftime(b, sizeof b, st->shell_overhead_sd, u2);
	char cl[64] = "";
	if (clamped > 0)
		snprintf(cl, sizeof cl, "; %zu of %zu %s clamped at 0", clamped,
			 w->n, runs_word(w->n));
	char mn[24];
	ftime(mn, sizeof mn, w->mean, u2);
	if (st->verbose)
		warn(st, "the mean left after subtracting the shell's start-up "
		     "(%s %s) is within that start-up's own noise (%s ± %s %s)%s: "
		     "these times say little. Run the command without a shell "
		     "(-N/--shell=none) or give it more work.", mn,
		     text_unit_name(u2), a, b, text_unit_name(u2), cl);
	else
		warn(st, "its time is within the shell's start-up noise: run it "
		     "without a shell (-N) or give it more work.");
	return clamped > 0;
}

/* Wall time far above CPU time (STATS_WARN_WAITS): a wait for a CPU is
 * a warning; a sleep, a read or a lock is said only with -v. */
static void waits_warning(const struct text_style *st,
			  const struct analysis_bench *ab, enum time_unit unit)
{
	const struct stats_summary *w = &ab->sum[MET_WALL];
	const char *un = text_unit_name(unit);
	char a[24], b[24];
	double cpu = 0;
	if (ab->sum[MET_USER].n)
		cpu += ab->sum[MET_USER].mean;
	if (ab->sum[MET_SYSTEM].n)
		cpu += ab->sum[MET_SYSTEM].mean;
	ftime(a, sizeof a, w->mean, unit);
	ftime(b, sizeof b, cpu, unit);
	/* Preempted more often than it gave the CPU up itself: it waited
	 * for a CPU, not for I/O or a timer. */
	const struct stats_summary *iv = &ab->sum[MET_IVCSW], *vo = &ab->sum[MET_VCSW];
	if (iv->n && vo->n && iv->mean >= 1 && iv->mean > vo->mean)
		warn(st, "it waited for a CPU (%s %s of wall time for %s %s of "
		     "CPU, preempted %.0f times a run).", a, un, b, un, iv->mean);
	else if (st->verbose)
		warn(st, "wall time (%s %s) is far above CPU time (user + system "
		     "%s %s): the command mostly waits (I/O, sleep, network, a "
		     "lock), so its time measures what it waits for.", a, un, b, un);
}

/* hyperfine-style warnings, each with what to do about it.  The checks are
 * pure functions in stats.c, where their thresholds are explained. */
static void warning_lines(const struct text_style *st, const struct bench_result *r,
			  const struct analysis_bench *ab, enum time_unit unit)
{
	const struct stats_summary *w = &ab->sum[MET_WALL];
	/* Under Valgrind (--counters sim) the times are Valgrind's: what
	 * they show says nothing of the command. */
	unsigned m = r->has[MET_SIM_INSTRUCTIONS] ? 0 : ab->warnings;
	const char *un = text_unit_name(unit);
	char a[24], b[24];
	failure_lines(st, r);
	sim_varies_line(st, r, ab);
	/* With clamped values the first run is no news. */
	if (shell_noise_warning(st, r, ab))
		m &= ~(unsigned)STATS_WARN_FIRST_SLOW;
	if (m & STATS_WARN_FIRST_SLOW) {
		size_t i = 0;
		while (i < r->n_runs && !isfinite(r->col[MET_WALL][i]))
			i++;
		ftime(a, sizeof a, r->col[MET_WALL][i], unit);
		ftime(b, sizeof b, w->median, unit);
		if (st->verbose)
			warn(st, "the first run (%s %s) was much slower than the "
			     "rest (median %s %s), e.g. cold caches. Use --warmup N "
			     "(or --prepare) so every measured run starts in the "
			     "same state.", a, un, b, un);
		else
			warn(st, "the first run (%s %s) was much slower than the "
			     "rest (median %s %s): use --warmup N.", a, un, b, un);
	}
	if ((m & STATS_WARN_OUTLIERS) && st->verbose)
		warn(st, "%zu of %zu runs are statistical outliers (%zu beyond 3 "
		     "IQR): other programs or the system interfered. Use a quieter "
		     "system (close other programs, no power saving) or more "
		     "runs; they are kept in the statistics.",
		     w->outliers_mild + w->outliers_severe, w->n, w->outliers_severe);
	else if (m & STATS_WARN_OUTLIERS)
		warn(st, "%zu of %zu runs are outliers: something else on the "
		     "machine interfered (they are kept).",
		     w->outliers_mild + w->outliers_severe, w->n);
	if ((m & STATS_WARN_TOO_FAST) && st->verbose)
		warn(st, "runs take under %g ms on average: process start-up and "
		     "scheduling noise are a large part of each one. Give the "
		     "command more work, or compare CPU counters (--counters), "
		     "which are steadier than time.",
		     STATS_TOO_FAST_S * 1e3);
	else if (m & STATS_WARN_TOO_FAST)
		warn(st, "runs under %g ms are mostly start-up noise: give it more "
		     "work, or compare counters.", STATS_TOO_FAST_S * 1e3);
	if (m & STATS_WARN_WAITS)
		waits_warning(st, ab, unit);
	if ((m & STATS_WARN_DRIFT) && st->verbose)
		warn(st, "the machine's speed changed during the benchmark: "
		     "consecutive runs are alike (lag-1 autocorrelation %.2f), so "
		     "the runs are not independent and the interval is %.1fx as "
		     "wide as they would make it. Compare commands in one "
		     "invocation, interleaved (the default), keep other work off "
		     "the machine, or take more runs.", ab->acf1, ab->dependence);
	else if (m & STATS_WARN_DRIFT)
		warn(st, "the machine's speed changed during the runs; the "
		     "interval allows for it (%.1fx as wide).", ab->dependence);
	if (m & STATS_WARN_CARRYOVER)
		carryover_warning(st, &ab->carry, unit);
	if ((m & STATS_WARN_BIMODAL) && st->verbose)
		warn(st, "the run times form two groups (bimodality coefficient "
		     "%.2f > 5/9): e.g. CPU frequency changes, cache effects or two "
		     "code paths. Look at the per-run times (--export-json) before "
		     "trusting the mean.",
		     ab->bimodality);
	else if (m & STATS_WARN_BIMODAL)
		warn(st, "the run times form two groups: look at them "
		     "(--export-json) before trusting the mean.");
	char cause[512];
	/* what ran before explains the clusters and outliers, not the machine */
	if ((m & (STATS_WARN_DRIFT | STATS_WARN_OUTLIERS | STATS_WARN_BIMODAL)) &&
	    !(m & STATS_WARN_CARRYOVER) && st->likely_cause &&
	    st->likely_cause(st->cause_arg, cause, sizeof cause))
		warn(st, st->verbose ? "the likely cause on this machine: %s "
		     "('cbench system check' lists every item)"
		     : "the likely cause: %s", cause);
}

/* The largest time the report shows for r: its unit suits them all, so no
 * value reads "1763.2 µs". */
static double largest_shown(const struct bench_result *r, const struct analysis_bench *ab)
{
	const struct stats_summary *w = &ab->sum[MET_WALL], *u = &ab->sum[MET_USER];
	const struct stats_summary *sy = &ab->sum[MET_SYSTEM];
	double big = w->max;
	if (w->n >= 2 && w->mean_ci_hi > big)
		big = w->mean_ci_hi;
	if (u->n > 0 && u->mean > big)
		big = u->mean;
	if (sy->n > 0 && sy->mean > big)
		big = sy->mean;
	for (int k = 0; k < CTR_MAX; k++) {
		enum metric_id m = (enum metric_id)(MET_CTR_FIRST + k);
		const struct stats_summary *s = &ab->sum[m];
		if (r->has[m] && metric_info(m)->unit == UNIT_SECONDS && s->n > 0 &&
		    s->mean > big)
			big = s->mean;
	}
	return big;
}

void text_bench_report(const struct text_style *st, const struct bench_result *r,
		       const struct analysis_bench *ab)
{
	if (st->quiet)
		return;
	const struct stats_summary w = ab->sum[MET_WALL], u = ab->sum[MET_USER];
	const struct stats_summary sy = ab->sum[MET_SYSTEM];
	if (r->n_runs == 0 || w.n == 0) {
		printf("  no completed runs\n\n");
		return;
	}
	enum time_unit unit = st->unit != UNIT_AUTO ? st->unit
		: text_pick_unit(largest_shown(r, ab));
	const char *un = text_unit_name(unit);

	char mean[24], sd[24], us[24], sys[24], lo[24], hi[24];
	ftime(mean, sizeof mean, w.mean, unit);
	ftime(sd, sizeof sd, isfinite(w.stddev) ? w.stddev : 0, unit);
	ftime(us, sizeof us, u.n ? u.mean : NAN, unit);
	ftime(sys, sizeof sys, sy.n ? sy.mean : NAN, unit);
	ftime(lo, sizeof lo, w.min, unit);
	ftime(hi, sizeof hi, w.max, unit);
	if (w.n >= 2)
		printf("  Time (%smean%s ± %sσ%s):     %s%8s %s%s ± %s%7s %s%s",
		       c(st, C_GREEN), c(st, C_RESET), c(st, C_GREEN), c(st, C_RESET),
		       c(st, C_GREEN C_BOLD), mean, un, c(st, C_RESET),
		       c(st, C_GREEN), sd, un, c(st, C_RESET));
	else
		printf("  Time (%sabs%s ≡):         %s%8s %s%s             ",
		       c(st, C_GREEN), c(st, C_RESET), c(st, C_GREEN C_BOLD), mean, un,
		       c(st, C_RESET));
	printf("    [User: %s%s %s%s, System: %s%s %s%s]\n", c(st, C_BLUE_OR_DIM),
	       us, un, c(st, C_RESET), c(st, C_BLUE_OR_DIM), sys, un, c(st, C_RESET));
	printf("  Range (%smin%s … %smax%s):   %s%8s %s%s … %s%8s %s%s    "
	       "%s%zu %s%s\n", c(st, C_CYAN), c(st, C_RESET), c(st, C_MAGENTA),
	       c(st, C_RESET), c(st, C_CYAN), lo, un, c(st, C_RESET),
	       c(st, C_MAGENTA), hi, un, c(st, C_RESET), c(st, C_DIM), w.n,
	       runs_word(w.n), c(st, C_RESET));

	if (st->verbose) {
		stats_block(st, &w, unit);
		metric_line(st, r, ab, MET_MAX_RSS, unit);
		/* The counters, then the --metric values read from the
		 * output. */
		for (int m = MET_CTR_FIRST; m < MET_COUNT; m++)
			if (r->has[m])
				metric_line(st, r, ab, (enum metric_id)m, unit);
	} else {
		adds_line(st, r, ab, unit);
	}
	if (r->interrupted)
		printf("  %sinterrupted after %zu %s%s\n", c(st, C_YELLOW),
		       r->n_runs, runs_word(r->n_runs), c(st, C_RESET));
	stop_line(st, r, &w);
	warning_lines(st, r, ab, unit);
	putchar('\n');
	fflush(stdout);
}

/* "p < 0.001", "p = 0.042", "p n/a". */
static void p_value_text(double p, char *buf, size_t len)
{
	if (!isfinite(p))
		snprintf(buf, len, "p n/a");
	else if (p < 0.001)
		snprintf(buf, len, "p < 0.001");
	else
		snprintf(buf, len, "p = %.3f", p);
}

/* The larger of the Welch and Mann-Whitney p-values, since a verdict
 * needs both (Welch's alone when there are too few runs for the rank test
 * to take part). */
static void p_text(const struct stats_comparison *cmp, char *buf, size_t len)
{
	p_value_text(cmp->mw_underpowered ? cmp->p_welch
		     : fmax(cmp->p_welch, cmp->p_mann_whitney), buf, len);
}

/* The level of each of a family's intervals, "98.75 %": four significant
 * digits, more only where they would round it up to 100 %. */
static void family_level_text(double level, char *buf, size_t len)
{
	double pct = level * 100.0;
	for (int digits = 4; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g %%", digits, pct);
		if (strtod(buf, NULL) < 100.0)
			return;
	}
}

/* The interval and p-value that follow a ratio: " (95 % CI 1.90–1.92,
 * p = 0.002)", with d decimals, and what a non-significant one means.  In
 * a family of comparisons, the interval's own level and the adjusted p. */
static void ci_tail(const struct text_style *st, const struct analysis_cmp *ac,
		    int d)
{
	const struct stats_comparison *cmp = &ac->cmp;
	char lvl[32], p[24];
	if (ac->family_size > 1) {
		family_level_text(cmp->confidence, lvl, sizeof lvl);
		p_value_text(ac->p_adjusted, p, sizeof p);
	} else {
		level_text(st->confidence, lvl, sizeof lvl);
		p_text(cmp, p, sizeof p);
	}
	bool up = cmp->ratio >= 1;
	double lo = up ? cmp->ratio_lo : 1 / cmp->ratio_hi;
	double hi = up ? cmp->ratio_hi : 1 / cmp->ratio_lo;
	bool sig = cmp->verdict == VERDICT_FASTER || cmp->verdict == VERDICT_SLOWER;
	double pct = (cmp->ratio - 1) * 100;
	if (cmp->exact)
		printf(" (exact: each the same in every run, %+.*f %%)\n",
		       fabs(pct) >= 100 ? 0 : fabs(pct) >= 1 ? 2 : 3, pct);
	else if (cmp->verdict == VERDICT_UNKNOWN)
		printf(" (too few runs for a confidence interval)\n");
	else if (!isfinite(lo) || !isfinite(hi))
		printf(" (%s CI unbounded, %s)%s\n", lvl, p,
		       sig ? "" : ": no significant difference");
	else if (!sig) { /* and how large a change it could have seen */
		double res = stats_resolution(cmp) * 100;
		printf(" (%s CI %.*f–%.*f, %s): no significant difference "
		       "(resolution ±%.*f %%)\n", lvl, d, lo, d, hi, p,
		       res >= 10 ? 0 : res >= 1 ? 1 : 2, res);
	}
	else
		printf(" (%s CI %.*f–%.*f, %s)\n", lvl, d, lo, d, hi, p);
}

/*
 * The comparison of the base with one other benchmark on one metric, from
 * the base's side: "1.62 times faster than B (95 % CI 1.58–1.66, p < 0.001)".
 * more/less are the words for a ratio other/base above and below 1; vs
 * names the other side when the ratio is undefined (" to B"), same says
 * an exact tie ("exactly as many sim instructions as B"; NULL: "the same").
 */
static void compare_text(const struct text_style *st,
			 const struct analysis_cmp *ac, double sd,
			 const char *more, const char *less, const char *what,
			 const char *vs, const char *same)
{
	const struct stats_comparison *cmp = &ac->cmp;
	if (cmp->exact && cmp->ratio == 1) {
		printf("%s (exact: each the same in every run)\n",
		       same ? same : "the same");
		return;
	}
	/* A ratio with a zero mean (both means 0 is possible once the
	 * shell's start-up is subtracted) is undefined, not "nan times". */
	if (!isfinite(cmp->ratio) || cmp->ratio == 0) {
		printf("ratio%s undefined (%s)\n", vs,
		       isnan(cmp->ratio) ? "both means are 0" : "one mean is 0");
		return;
	}
	bool up = cmp->ratio >= 1;
	double r = up ? cmp->ratio : 1 / cmp->ratio;
	bool sig = cmp->verdict == VERDICT_FASTER || cmp->verdict == VERDICT_SLOWER;
	const char *col = !sig ? "" : up ? C_GREEN C_BOLD : C_YELLOW C_BOLD;
	/* Enough decimals that a small real difference does not read as
	 * "1.00 times": 3524 vs 3529 page faults is 1.0014. */
	int d = 2;
	while (d < 5 && r != 1 && fabs(r - 1) * pow(10, d) < 1)
		d++;
	printf("%s%.*f%s", c(st, col), d, r, c(st, C_RESET));
	/* hyperfine's "± σ" (analysis.h, ratio_sd), for the eyes and scripts
	 * that look for it; the interval and p-value follow. */
	if (isfinite(sd))
		printf(" ± %s%.*f%s", c(st, C_GREEN), d, sd, c(st, C_RESET));
	printf(" times %s%s", up ? more : less, what);
	ci_tail(st, ac, d);
}

/* Under a summary of more than one comparison: how the family changed
 * the numbers (analysis.h), after the wall time's family. */
static void family_note(const struct text_style *st, const struct analysis *an)
{
	size_t m = an->family[an->primary];
	if (m < 2)
		return;
	char each[32], all[32], which[32] = "both";
	family_level_text(multitest_level(st->confidence, m), each, sizeof each);
	level_text(st->confidence, all, sizeof all);
	if (m > 2)
		snprintf(which, sizeof which, "all %zu", m);
	printf("  %zu comparisons: p-values Holm-adjusted, each interval at %s so "
	       "that %s hold together at %s (Bonferroni)\n", m, each, which, all);
}

/*
 * --sort=command: hyperfine's "Relative speed comparison", one line per
 * benchmark in command order, the base at 1.00 and every other at its
 * ratio (the slower over the faster) with hyperfine's "± σ"; with
 * --reference each line says (reference), (faster) or (slower), as
 * hyperfine's does.  cbench's interval and p-value follow each line.
 */
static void summary_by_command(const struct text_style *st,
			       const struct analysis *an,
			       struct bench_result *const *rs)
{
	size_t base = (size_t)an->base;
	printf("%sRelative speed comparison%s\n", c(st, C_BOLD), c(st, C_RESET));
	for (size_t k = 0; k < an->n_summary; k++) {
		size_t i = an->summary_order[k];
		const struct analysis_cmp *wc = analysis_find_cmp(an, i, MET_WALL);
		const char *label = "";
		if (i == base) {
			printf("  %s%10.2f%s          %s%s\n", c(st, C_GREEN C_BOLD), 1.0,
			       c(st, C_RESET), text_shown(rs[i]->name),
			       st->has_reference ? " (reference)" : "");
			continue;
		}
		if (wc == NULL || !isfinite(wc->cmp.ratio) || wc->cmp.ratio == 0) {
			printf("  %10s          %s (ratio undefined)\n", "", text_shown(rs[i]->name));
			continue;
		}
		double q = wc->cmp.ratio;
		if (st->has_reference)
			label = q < 1 ? " (faster)" : q > 1 ? " (slower)" : " (same speed)";
		printf("  %s%10.2f%s", c(st, C_GREEN C_BOLD), q >= 1 ? q : 1 / q,
		       c(st, C_RESET));
		if (isfinite(wc->ratio_sd))
			printf(" ± %s%5.2f%s", c(st, C_GREEN), wc->ratio_sd, c(st, C_RESET));
		else
			printf("        ");
		printf("  %s%s", text_shown(rs[i]->name), label);
		ci_tail(st, wc, 2);
	}
	family_note(st, an);
	fflush(stdout);
}

/* --profile: the functions that explain most of a difference in
 * instructions, "+9.10 points in parse_line (prog.c), ...": a point is a
 * per cent of the base's total, so they add up to the change. */
#define TEXT_WHERE_TOP 5

static void where_line(const struct text_style *st, const struct profile_diff *w)
{
	if (w == NULL || w->n == 0)
		return;
	printf("      where: ");
	size_t shown = 0;
	for (size_t k = 0; k < w->n && shown < TEXT_WHERE_TOP; k++) {
		const struct profile_delta *d = &w->d[k];
		if (fabs(d->points) < 0.005)
			break;
		const char *file = strrchr(d->file, '/');
		file = file ? file + 1 : d->file;
		bool known = strcmp(file, "???") != 0;
		printf("%s%s%+.2f%s%s %s", shown ? ", " : "",
		       c(st, d->points > 0 ? C_YELLOW : C_GREEN), d->points,
		       c(st, C_RESET), shown ? " in" : " points in",
		       text_shown(d->name));
		if (known)
			printf(" (%s)", file);
		shown++;
	}
	if (shown == 0)
		printf("no function moved by 0.005 points or more");
	putchar('\n');
}

void text_summary(const struct text_style *st, const struct analysis *an,
		  struct bench_result *const *rs)
{
	if (st->quiet || an->n < 2 || an->n_summary < 2 || an->base < 0)
		return;
	if (st->by_command) {
		summary_by_command(st, an, rs);
		return;
	}
	size_t base = (size_t)an->base;
	const struct bench_result *a = rs[base];
	enum metric_id lead = an->primary;
	bool sim = lead != MET_WALL;
	printf("%sSummary%s\n", c(st, C_BOLD), c(st, C_RESET));
	printf("  %s%s%s %s\n", c(st, C_CYAN), text_shown(a->name),
	       c(st, C_RESET), "ran");
	for (size_t k = 0; k < an->n_summary; k++) {
		size_t i = an->summary_order[k];
		const struct analysis_cmp *wc = analysis_find_cmp(an, i, lead);
		if (i == base || wc == NULL)
			continue;
		const struct bench_result *b = rs[i];
		char what[512], vs[512];
		snprintf(what, sizeof what, " than %s%s%s", c(st, C_MAGENTA),
			 text_shown(b->name), c(st, C_RESET));
		snprintf(vs, sizeof vs, " to %s%s%s", c(st, C_MAGENTA),
			 text_shown(b->name),
			 c(st, C_RESET));
		printf("    ");
		if (sim) {  /* exact counts need no hyperfine σ */
			char same[512];
			snprintf(same, sizeof same, "exactly as many sim "
				 "instructions as %s%s%s", c(st, C_MAGENTA),
				 text_shown(b->name), c(st, C_RESET));
			compare_text(st, wc, NAN, "fewer sim instructions",
				     "more sim instructions", what, vs, same);
			where_line(st, an->bench[i].where);
		} else
			compare_text(st, wc, wc->ratio_sd, "faster", "slower",
				     what, vs, NULL);
		/* Counters (often a far steadier signal than time), then
		 * the --metric values; under Valgrind, its time first. */
		for (int mk = sim ? MET_WALL : MET_CTR_FIRST; mk < MET_COUNT;
		     mk = mk == MET_WALL ? MET_CTR_FIRST : mk + 1) {
			enum metric_id m = (enum metric_id)mk;
			if (m == lead)
				continue;
			const struct analysis_cmp *cc = analysis_find_cmp(an, i, m);
			if (!a->has[m] || !b->has[m] || cc == NULL ||
			    !isfinite(cc->cmp.ratio))
				continue;
			/* Without -v, only the counts that differ. */
			bool differ = cc->cmp.verdict == VERDICT_FASTER ||
				      cc->cmp.verdict == VERDICT_SLOWER ||
				      (cc->cmp.exact && cc->cmp.ratio != 1);
			if (!st->verbose && !differ)
				continue;
			char label[40];
			snprintf(label, sizeof label, "%s:", metric_info(m)->label);
			printf("      %-13s ", label);
			compare_text(st, cc, NAN, "lower", "higher", "", "", NULL);
		}
	}
	family_note(st, an);
	fflush(stdout);
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool bar_shown;
static int bar_cols;         /* columns of the bar's last line */
static double bar_started;   /* when the bar of this phase first showed */

/* Seconds as m:ss, or h:mm:ss from an hour. */
static void clock_text(double s, char *buf, size_t len)
{
	long v = isfinite(s) && s > 0 ? (long)(fmin(s, 3.6e8) + 0.5) : 0;
	if (v >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", v / 3600, v / 60 % 60, v % 60);
	else
		snprintf(buf, len, "%ld:%02ld", v / 60, v % 60);
}

/* Columns a UTF-8 string takes (every character one column: the labels
 * are ASCII but for "µs"). */
static size_t display_width(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

static int text_terminal_width(void)
{
	struct winsize ws;
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	const char *env = getenv("COLUMNS");
	if (env && *env) {
		char *end;
		long v = strtol(env, &end, 10);
		if (*end == '\0' && v > 0 && v <= 10000)
			return (int)v;
	}
	return 80;
}

void text_progress(const struct text_style *st, const char *what, size_t done,
		   size_t total_hint, double estimate_s, long bench)
{
	static double last;
	if (!st->progress)
		return;
	double t = mono_s();
	if (bar_shown && t - last < 0.05)
		return;
	last = t;
	char est[48] = "";
	if (isfinite(estimate_s) && estimate_s > 0) {
		enum time_unit u = st->unit != UNIT_AUTO ? st->unit
			: text_pick_unit(estimate_s);
		char who[32] = "";
		if (bench >= 0)
			snprintf(who, sizeof who, " (#%ld)", bench + 1);
		snprintf(est, sizeof est, "Current estimate%s: %.3f %s", who,
			 text_in_unit(estimate_s, u), text_unit_name(u));
	}
	/* Fit the terminal, one column short of its width so the cursor
	 * never wraps (each redraw would leave a line behind): the bar
	 * shrinks from 30 cells, and below 10 the label goes first. */
	const char *label = est[0] ? est : what;
	char count[128], el[32], eta[32];
	if (bar_started == 0)
		bar_started = t;
	double elapsed = t - bar_started;
	clock_text(elapsed, el, sizeof el);
	snprintf(count, sizeof count, "%zu/%zu, %s elapsed", done, total_hint, el);
	/* The time left at the pace so far, as hyperfine's bar shows it. */
	if (done > 0 && total_hint > done) {
		clock_text(elapsed * (double)(total_hint - done) / (double)done,
			   eta, sizeof eta);
		snprintf(count + strlen(count), sizeof count - strlen(count),
			 ", ETA %s", eta);
	}
	int avail = text_terminal_width() - 1;
	int lw = (int)display_width(label), cw = (int)strlen(count);
	int width = avail - lw - 2 - cw;
	if (width < 10) {
		label = "";
		lw = 0;
		width = avail - 1 - cw;
	}
	if (width > 30)
		width = 30;
	if (width < 0)
		width = 0;
	int filled = total_hint ? (int)((double)width * (double)done /
					 (double)total_hint) : 0;
	if (filled > width)
		filled = width;
	char bar[30 * 3 + 1];
	size_t b = 0;
	for (int i = 0; i < width; i++) {
		const char *g = i < filled ? "█" : "░";
		size_t gl = strlen(g);
		memcpy(bar + b, g, gl);
		b += gl;
	}
	bar[b] = '\0';
	int cols;               /* columns written */
	fputs(st->erase ? "\r\033[K" : "\r", stderr);
	if (avail < cw) {       /* not even the count fits: what does */
		cols = avail > 0 ? avail : 0;
		fprintf(stderr, "%.*s", cols, count);
	} else {
		cols = lw + (lw ? 1 : 0) + width + (width ? 1 : 0) + cw;
		fprintf(stderr, "%s%s%s%s%s", label, lw ? " " : "", bar,
			width ? " " : "", count);
	}
	/* Without escapes, spaces blank what a longer line left. */
	if (!st->erase && bar_cols > cols)
		fprintf(stderr, "%*s", bar_cols - cols, "");
	bar_cols = cols;
	fflush(stderr);
	bar_shown = true;
}

void text_progress_clear(const struct text_style *st)
{
	if (!st->progress || !bar_shown)
		return;
	if (st->erase)
		fputs("\r\033[K", stderr);
	else
		fprintf(stderr, "\r%*s\r", bar_cols, "");
	fflush(stderr);
	bar_shown = false;
	bar_started = 0;
	bar_cols = 0;
}
