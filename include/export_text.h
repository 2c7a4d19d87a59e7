/*
 * export_text.h: the terminal report (stdout) and the progress bar (stderr).
 * With diag.c, the only code that prints for the user.
 */
#ifndef CBENCH_EXPORT_TEXT_H
#define CBENCH_EXPORT_TEXT_H

#include "analysis.h"
#include "results.h"

#include <stdbool.h>
#include <stdio.h>

/* --style: how the report looks (resolved against the terminal by
 * text_style_from). */
enum style { STYLE_AUTO, STYLE_BASIC, STYLE_FULL, STYLE_NOCOLOR, STYLE_COLOR,
	     STYLE_NONE };
/* --time-unit: the unit times are shown in (AUTO: one picked per value). */
enum time_unit { UNIT_AUTO, UNIT_US, UNIT_MS, UNIT_S };

/* What the terminal report is asked for on the command line (main.c
 * fills it through cli_report_options, cli_layers.h). */
struct report_options {
	enum style style;
	enum time_unit unit;
	bool by_command;     /* --sort=command */
	bool has_reference;  /* --reference */
	double confidence;   /* --confidence */
	double precision;    /* --precision (relative), 0: off */
	bool output_shown;   /* a command's output goes to the terminal
				(--show-output, --output inherit) */
	bool quiet;          /* --quiet: no notes */
	bool verbose;        /* -v: every statistic, warnings in full */
};

struct text_style {
	bool color;          /* ANSI colours on stdout */
	bool progress;       /* progress bar on stderr */
	bool quiet;          /* --style=none: no report at all */
	bool verbose;        /* -v: every statistic, warnings in full */
	bool err_color;      /* colour on stderr (the warnings) */
	bool erase;          /* the bar may erase its line (ESC [K); else it
				is overwritten with spaces */
	int wrap_width;      /* wrap warnings at this width; 0: do not */
	bool by_command;     /* --sort=command: hyperfine's "Relative speed
				comparison" listing, in command order */
	bool has_reference;  /* --reference: the listing labels each line */
	enum time_unit unit;
	double confidence;   /* --confidence */
	double precision;    /* --precision (relative), 0: off */
	/* Calibrated shell start-up (wall time) subtracted from runs under a
	 * shell: its mean and standard deviation (0 until calibrated). */
	double shell_overhead_s, shell_overhead_sd;
	/* The likely cause of drift or a wide spread on this machine, in a
	 * few words into buf (syscheck_likely_cause), false if none; NULL:
	 * not asked. */
	bool (*likely_cause)(void *arg, char *buf, size_t len);
	void *cause_arg;
};

/* Resolve --style against the terminal, TERM and NO_COLOR, one decision
 * for every escape sequence (hyperfine's rule, src/options.rs): with auto,
 * a dumb TERM (unset, "dumb", "unknown") or a non-empty NO_COLOR
 * (https://no-color.org) removes colours and the bar's erase codes, not
 * the bar; --style nocolor likewise; --style basic writes neither; full
 * and color always colour.  No
 * progress bar when a command's output goes to the terminal
 * (--show-output, --output inherit): the two would mix. */
struct text_style text_style_from(const struct report_options *o);

/* Format seconds in a fixed unit (or one chosen for `ref`). */
const char *text_unit_name(enum time_unit u);
/* s as shown on the terminal: s itself, or, when it holds control
 * characters (a newline, an escape), a copy with them written as \n,
 * \t, \xNN, so that no name starts a line of its own (a "::error"
 * workflow command in CI).  The copy is one of 8 rotating static buffers:
 * valid until 8 more calls. */
const char *text_shown(const char *s);
enum time_unit text_pick_unit(double ref_s);
double text_in_unit(double s, enum time_unit u);
/* A whole count with thousands separators: "6,129,118". */
void text_grouped(double v, char *buf, size_t len);
/* "1.23 M", "456", "12.0 k" into buf. */
void text_count(double v, char *buf, size_t len);
/* "1.9 MiB" into buf. */
void text_bytes(double v, char *buf, size_t len);
/* A custom metric's value: about 4 significant digits, then its unit. */
void text_custom(double v, const char *unit_text, char *buf, size_t len);

void text_bench_header(const struct text_style *st, size_t index,
		       const struct bench_result *r);
/* Benchmark r's report, from its entry ab in the analysis document. */
void text_bench_report(const struct text_style *st, const struct bench_result *r,
		       const struct analysis_bench *ab);
/* Summary comparing all benchmarks with the document's base; its lines
 * in the document's summary order (--sort). */
void text_summary(const struct text_style *st, const struct analysis *an,
		  struct bench_result *const *rs);

/* Progress bar on stderr; redraws at most every 50 ms.  The line fits the
 * terminal (its width on stderr, else $COLUMNS, else 80, less one
 * column): the bar shrinks from 30
 * cells, and the label is dropped when fewer than 10 would remain.  bench
 * >= 0 names the benchmark whose estimate it is ("#2"), when benchmarks
 * take turns; -1: the one whose header was printed. */
void text_progress(const struct text_style *st, const char *what, size_t done,
		   size_t total_hint, double estimate_s, long bench);
void text_progress_clear(const struct text_style *st);

#endif
