/*
 * export.h: result files for notebooks and reports: JSON (a superset of
 * hyperfine's), Markdown, AsciiDoc and Org-mode tables, CSV summaries and
 * per-run CSV.  One table of exporters, one function each
 * (export_function); they all format the same export_doc, which reads
 * the invocation's one analysis document (analysis.h).
 *
 * Files are written atomically (a temporary file in the same directory,
 * fsync, rename), so a crash or kill never leaves a truncated file, and
 * main.c keeps them current during the run (at most once a second, or ten
 * times the last rewrite's cost) and writes them a last time at the end.  Destinations that are not
 * regular files ("-" for stdout, /dev/..., /proc/...) are streamed once, at
 * the end.
 *
 * Library-style: nothing here prints to the terminal or exits; errors come
 * back as -1 with a one-line message in err.
 *
 * Ownership: export_doc_new() returns a document freed by
 * export_doc_free(); it borrows the context, outcome and analysis it was
 * built from, which must outlive it.
 */
#ifndef CBENCH_EXPORT_H
#define CBENCH_EXPORT_H

#include "analysis.h"
#include "bench.h"
#include "export_text.h"   /* enum time_unit */
#include "results.h"
#include "stats.h"
#include "syscheck.h"
#include "sysinfo.h"
#include "version.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct plan;

/* The formats, one per --export-* option (export_function). */
enum export_format { EXPORT_JSON, EXPORT_MARKDOWN, EXPORT_ASCIIDOC,
		     EXPORT_ORGMODE, EXPORT_CSV, EXPORT_CSV_RUNS,
		     EXPORT_HTML, EXPORT_BMF, EXPORT_GITHUB_BENCHMARK, EXPORT_JUNIT,
		     EXPORT_GITHUB_BENCHMARK_BIGGER, EXPORT__COUNT };

/* One export asked for. */
struct export_req {
	enum export_format format;
	const char *path;         /* "-" for stdout */
	const char *option;       /* as typed: "--export-json", "--save-baseline" */
};

/* What the exports are asked for on the command line and record of it
 * (main.c fills it through cli_export_options, cli_layers.h). */
struct export_options {
	/* the analysis the documents read (paired set from the outcome's
	 * order when export_doc_new analyses an outcome itself) */
	struct analysis_options analysis;
	enum time_unit time_unit;      /* the tables' unit (--time-unit) */
	enum run_order order;          /* --order, as given */
	/* the run's settings: the JSON records them under "options", and
	 * the noise controls in its context */
	struct bench_options run;
	/* --export-metrics: what the CI exports (BMF, github-action-
	 * benchmark) carry; none set: those a gate decides on (export_ci.c) */
	bool ci_metric[MET_COUNT];
};

/* What an export says about the invocation, besides the results. */
struct export_context {
	const struct export_options *opts;
	int argc;
	char *const *argv;
	struct machine_info machine;
	struct source_state source;   /* git state of the working directory */
	/* The system check around the run (syscheck.h), embedded in the
	 * JSON context as "system_check"; NULL: none (null). */
	const struct syscheck *check;
	/* The run is still going (or did not finish every benchmark): JSON
	 * says "complete": false, with the planned benchmarks not yet in
	 * "results" (plan, if not NULL) as "pending". */
	bool incomplete;
	const struct plan *plan;
};

/* What every exporter formats: the invocation, its results and their
 * analysis (analysis.h), so every format agrees on every number. */
struct export_doc {
	const struct export_context *ctx;
	const struct bench_outcome *outcome;
	const struct analysis *an;
	struct analysis *owned;   /* an, when export_doc_new made it */
};

/* A document over outcome, read through the analysis an (up to date with
 * it); an == NULL: analyse the outcome here (tests and tools that have no
 * document of their own). */
struct export_doc *export_doc_new(const struct export_context *ctx,
				  const struct bench_outcome *outcome,
				  const struct analysis *an);
void export_doc_free(struct export_doc *d);

/* An exporter prints the whole document to f; returns 0, or -1 (I/O
 * errors are also seen through ferror(f)). */
typedef int (*export_fn)(FILE *f, const struct export_doc *d);

int export_json_write(FILE *f, const struct export_doc *d);
int export_markdown_write(FILE *f, const struct export_doc *d);
int export_asciidoc_write(FILE *f, const struct export_doc *d);
int export_orgmode_write(FILE *f, const struct export_doc *d);
int export_csv_write(FILE *f, const struct export_doc *d);
int export_csv_runs_write(FILE *f, const struct export_doc *d);
/* One CSV field (RFC 4180 quoting, invalid UTF-8 replaced as in every
 * export; NULL: empty), without the separator (export_csv.c). */
void export_csv_field(FILE *f, const char *s);
/* The HTML report page (export_html.h). */
int export_html_write(FILE *f, const struct export_doc *d);
/* export_ci.c: Bencher Metric Format, github-action-benchmark. */
int export_bmf_write(FILE *f, const struct export_doc *d);
/* github-action-benchmark takes one direction per file: the metrics where
 * lower is better (every built-in one) for customSmallerIsBetter, the
 * --metric ones where higher is better for customBiggerIsBetter. */
int export_github_benchmark_write(FILE *f, const struct export_doc *d);
int export_github_benchmark_bigger_write(FILE *f, const struct export_doc *d);
/* A benchmark's name for the CI formats, the same in every run: the
 * display name, then " [n=1, m=x]" when parameterised (caller frees). */
char *export_ci_name(const char *name, const struct param_value *params,
		     size_t n_params);
/* Bencher refuses a whole file with a benchmark name over this many
 * bytes (bencher_valid's MAX_BENCHMARK_NAME_LEN, a byte count). */
#define EXPORT_BMF_NAME_MAX 1024
/* name (valid UTF-8) as a BMF key: itself when it fits, else its first
 * bytes (cut between characters) then " ~" and 16 hex digits of a hash of
 * the whole, EXPORT_BMF_NAME_MAX bytes at most, the same in every run.
 * Caller frees. */
char *export_bmf_name(const char *name);
/* How many of o's benchmark names --export-bmf cuts so. */
size_t export_bmf_cut(const struct bench_outcome *o);
/* A cJSON string of s, invalid UTF-8 bytes as U+FFFD (export_json.c). */
struct cJSON *export_json_text(const char *s);
/* Write text (len bytes) to path as export_write does (atomically for a
 * regular file, once to a stream; "-": stdout); messages name opt. */
int export_write_text(const char *path, const char *opt, const char *text,
		      size_t len, char *err, size_t errlen);

export_fn export_function(enum export_format format);
/* The option that asks for the format: "--export-json", ... */
const char *export_option_name(enum export_format format);
/* The option the user typed for this export ("--save-baseline" too), for
 * messages. */
const char *export_req_option(const struct export_req *r);

/* The files an invocation writes and reads, for the checks before the
 * first run (main.c fills it through cli_export_files, cli_layers.h). */
struct export_files {
	const struct export_req *exports;
	size_t n_exports;
	const char *input;             /* --input, or NULL */
	/* read: --baseline and the two files of `cbench compare` (NULL: none) */
	const char *baseline, *compare_base, *compare_new;
	/* read and written, never an export: an SQLite history file (not a
	 * postgresql:// URL), and the option that named it */
	const char *history, *history_option;
	/* the --output files, and the commands and hooks, whose first word
	 * may name a script */
	struct plan_options plan;
};

/*
 * Before the first run: no two of the exports, the --output files and
 * --input are one file (compared by device and inode, or by canonical
 * directory and name for a file not yet there; only --output may be shared
 * by commands), and every --output FILE can be created.  Returns 0, or -1
 * with the first problem in err.
 */
int export_check_files(const struct export_files *xf, char *err, size_t errlen);

/*
 * Check every destination before the first run: its directory exists and
 * takes new files (probed by creating and removing a temporary file, so
 * nothing is left behind), it is not a directory, and no two name one
 * file (as in export_check_files).  Returns 0, or -1 with the first
 * problem in err.
 */
int export_check_destinations(const struct export_files *xf, char *err,
			      size_t errlen);

/* Is an --output value a file (not null, pipe or inherit)? */
bool export_output_is_file(const char *output);

/* Is the destination written only once, at the end ("-", a device, a
 * pipe, /dev/stdout)?  Regular files are rewritten after each benchmark. */
bool export_is_stream(const char *path);

/* Does the export go to cbench's stdout: "-", or a stream path
 * (/dev/stdout, /proc/self/fd/1) that is the file on descriptor 1? */
bool export_is_stdout(const char *path);

/* Where exports to stdout are written (main.c keeps the real stdout there
 * while the report goes to stderr); NULL: stdout. */
void export_set_stdout(FILE *f);

/* Write the document in one format to path ("-": stdout); atomically for
 * regular files.  Returns 0, or -1 with a message in err, leaving any
 * previous file untouched. */
int export_write(enum export_format format, const char *path,
		 const struct export_doc *d, char *err, size_t errlen);

/* The same for one requested export; messages name its option as typed. */
int export_write_req(const struct export_req *r, const struct export_doc *d,
		     char *err, size_t errlen);

/* The atomic primitive: fill(f, arg) writes the content into a temporary
 * file beside path, which then replaces path.  If fill returns non-zero or
 * any write, fsync or rename fails, the temporary file is removed and path
 * is left as it was. */
int export_write_atomic(const char *path, int (*fill)(FILE *f, void *arg),
			void *arg, char *err, size_t errlen);

/* Shared by the table and CSV exporters. */
/* Format seconds/bytes/counts as a plain number for CSV: "%.17g" trimmed
 * to the shortest form that reads back the same; "" for NaN. */
void export_number(char *buf, size_t len, double v);

#endif
