/*
 * gate.h: baselines and CI gates.  Reads saved results (cbench's JSON,
 * or hyperfine's), or takes the results of the run that just finished,
 * matches the benchmarks of two sets measured by the same tool, compares
 * each pair on one metric and decides: regression, improvement, within
 * noise.
 *
 * The decision, per matched pair (b = new, a = base, r = mean(b)/mean(a)
 * with its confidence interval [lo, hi] from stats_compare):
 *
 *   regression   the change is significant at the confidence level
 *                (p < 1 - confidence) AND lo - 1 > threshold
 *   improvement  significant AND 1 - hi > threshold
 *   within noise otherwise
 *   undecided    no interval or p-value: too few runs, or a baseline too
 *                noisy for the ratio's interval to be bounded
 *
 * so a noisy "1.15 +- 0.45" never fails a gate, and a tiny but certain
 * change below the threshold does not either (poop's rule of "the whole
 * interval beyond the threshold", with a significance test in front as
 * Google Benchmark's compare.py does with Mann-Whitney U).
 *
 * With several pairs on one metric (a family of m, multitest.h), the
 * p-values are Holm-adjusted over the family and the intervals are at
 * 1 - (1 - confidence) / m (Bonferroni): the chance that any unchanged
 * benchmark is called a regression or an improvement stays at most
 * 1 - confidence.
 *
 * Two parts: the loader (gate_load.c: gate_load, gate_parse,
 * gate_from_results, gate_from_plan) builds sets; the decision (gate.c:
 * gate_compare, gate_run) reads only sets.  Library-style: nothing here
 * prints or exits; errors come back as -1 with one line in err.
 * Ownership: the loader's sets are freed with gate_set_free();
 * gate_compare() fills a report freed with gate_report_free(), and
 * gate_run() a result freed with gate_result_free().  A report points into
 * the two sets it was made from: free it first.
 */
#ifndef CBENCH_GATE_H
#define CBENCH_GATE_H

#include "diag.h"      /* DIAG_MSG_MAX, CBENCH_EXIT_* */
#include "results.h"
#include "stats.h"

#include <stdbool.h>
#include <stddef.h>

/* Metrics a gate can use: every metric_id, plus CPU time = user + system
 * per run. */
#define CMP_CPU_TIME MET_COUNT
#define CMP_N_METRICS (MET_COUNT + 1)

/* --match-by: how the benchmarks of two sets are paired. */
enum match_by { MATCH_COMMAND, MATCH_NAME };

enum cmp_format {
	CMP_FMT_CBENCH,      /* cbench-results JSON */
	CMP_FMT_HYPERFINE,   /* hyperfine --export-json: per-run wall time only */
	CMP_FMT_RUN,         /* the results of this run (--baseline) */
};

struct cmp_bench {
	char *name;          /* display name */
	char *command;       /* real command line (hyperfine: its "command") */
	struct param_value *params;
	size_t n_params;
	size_t n_runs;
	double *col[CMP_N_METRICS];  /* n_runs values, NaN = not counted;
					NULL = not recorded per run */
	size_t failed_runs;  /* runs with a non-zero exit code */
	bool interrupted;
	size_t group;        /* state group (results.h); 0 if not recorded */
	double *run_index;   /* n_runs places among the invocation's runs
				(runs.run_index), or NULL when not recorded */
};

struct cmp_set {
	char *origin;        /* file name as given, or "this run" */
	enum cmp_format format;
	struct cmp_bench *bench;
	size_t n;
	/* cbench's "complete": false: written while its run was going, or
	 * left by a run that was killed, interrupted or failed; n_pending
	 * benchmarks of that run are not in it. */
	bool incomplete;
	size_t n_pending;
	/* To be measured under Valgrind (--counters sim): known of a planned
	 * run before it has any counts (gate_from_plan). */
	bool simulated;
};

/* Read and validate a results file.  Returns 0, or -1 with a message that
 * names the file and, for malformed JSON, the line and column. */
int gate_load(const char *path, struct cmp_set **out, char *err, size_t errlen);
/* The same from text in memory; origin names it in messages. */
int gate_parse(const char *text, size_t len, const char *origin,
		  struct cmp_set **out, char *err, size_t errlen);
/* A set from in-memory results (copied). */
struct cmp_set *gate_from_results(struct bench_result *const *rs, size_t n,
				     const char *origin);
/* The benchmarks a plan will run, without runs: to check a baseline
 * against them before anything runs. */
struct plan;
struct cmp_set *gate_from_plan(const struct plan *plan, const char *origin,
				bool simulated);
void gate_set_free(struct cmp_set *s);

/* Were both sets measured by the same tool?  hyperfine's wall time
 * includes starting the process (fork, exec), cbench's starts at the exec,
 * so a hyperfine file against cbench results (a file or this run) would
 * gate on that offset: -1 with a message saying so.  Two hyperfine files,
 * or two cbench ones, are fine. */
int gate_check_tools(const struct cmp_set *base, const struct cmp_set *new,
			char *err, size_t errlen);

/* Can new be compared with base: does anything match, were both measured
 * by the same tool (gate_check_tools), and, with require_all, is every
 * benchmark on both sides?  Returns 0, or -1 with a one-line message
 * naming the problem (with require_all, the one-sided benchmarks of both
 * sides by name). */
int gate_check_match(const struct cmp_set *base, const struct cmp_set *new,
			enum match_by by, bool require_all, char *err, size_t errlen);

/* "wall_time", ..., "cpu_time"; and the reverse (-1 if unknown). */
const char *gate_metric_key(int metric);
int gate_metric_lookup(const char *key);
/* Is the metric recorded, with at least one counted value, in every
 * benchmark of the set (any = in at least one)? */
bool gate_bench_has(const struct cmp_bench *b, int metric);
bool gate_set_has(const struct cmp_set *s, int metric, bool any);
/* "cbench file", "hyperfine file", "this run". */
const char *gate_format_name(enum cmp_format f);

enum cmp_verdict {
	CMP_REGRESSION,
	CMP_IMPROVEMENT,
	CMP_NOISE,          /* within noise (or below the threshold) */
	CMP_UNDECIDED,      /* too few runs, or too noisy to bound the ratio */
	CMP_ONLY_BASE,      /* missing from the new results */
	CMP_ONLY_NEW,       /* missing from the baseline */
	CMP__COUNT
};

const char *gate_verdict_name(enum cmp_verdict v);

/*
 * The decision on one compared pair (see the top of this file).  threshold
 * is relative (0.05 = 5 %).  *p_used gets the p-value it relied on:
 * Mann-Whitney's, or Welch's when that one is not available.
 */
enum cmp_verdict gate_decide(const struct stats_comparison *c,
				double threshold, double *p_used);

struct cmp_row {
	const struct cmp_bench *base, *new;   /* one is NULL when one-sided */
	enum cmp_verdict verdict;
	struct stats_comparison st;           /* meaningful when both sides */
	double p;                             /* p-value used by the decision:
						 Holm-adjusted over the
						 report's family of rows */
	double p_raw;                         /* the same before adjustment */
	size_t family_size;                   /* rows in that family; 0 when
						 this one is not (fewer than 2
						 values a side) */
	double base_mean, new_mean;           /* of the gate metric */
	double base_sd, new_sd;
	size_t base_n, new_n;                 /* counted runs */
	bool by_reference;                    /* base is the --reference of
						 this run, new another command */
	double threshold;                     /* the threshold the verdict
						 used (a per-benchmark one,
						 or the report's) */
};

/* A threshold for one benchmark, one metric, or both (--fail-if-slower
 * METRIC=PCT, --fail-if-slower-for NAME SPEC).  A row takes the most
 * specific that applies: benchmark and metric, then benchmark, then
 * metric, then the options' threshold. */
struct gate_threshold {
	const char *bench;      /* display name or command line; NULL: any */
	int metric;             /* CMP metric; -1: any */
	double threshold;       /* relative */
};

/* The threshold for benchmark b on metric m (see above). */
double gate_threshold_for(const struct gate_threshold *t, size_t n, double def,
			  const struct cmp_bench *b, int metric);

struct cmp_options {
	int metric;             /* CMP metric, or -1: automatic */
	double threshold;       /* relative, e.g. 0.05 */
	double confidence;      /* e.g. 0.95 */
	unsigned long seed;     /* for the bootstrap (stats_robust.h) */
	enum match_by match_by;
	bool paired;            /* the two sides' runs were interleaved in
				   one invocation: compare by rounds */
	bool between;           /* base "runs" are the means of earlier
				   invocations (the history): compare this
				   invocation's mean with their spread */
	bool low_quantile;      /* compare at the 10th percentile
				   (stats_quantile.h); set by the gate for
				   the CPU time it chose itself */
	const struct gate_threshold *thresholds;  /* overrides, or NULL */
	size_t n_thresholds;
};

struct cmp_report {
	const struct cmp_set *base, *new;
	int metric;
	bool metric_auto;
	bool low_quantile;      /* CPU time chosen for CPU-bound commands:
				   compared at its 10th percentile */
	char why[256];          /* why this metric, one phrase */
	double threshold, confidence;
	/* The family of rows compared (2 values a side or more): its size,
	 * and the level of each row's interval, 1 - (1 - confidence) /
	 * family_size (Bonferroni, multitest.h), so that all hold together
	 * at confidence; confidence itself with one row. */
	size_t family_size;
	double ci_level;
	enum match_by match_by;
	bool by_reference;      /* gate_run_reference: base is this run's
				   --reference */
	bool paired;            /* compared by rounds */
	struct cmp_row *rows;   /* regressions first, then improvements, noise,
				   undecided, one-sided; file order within */
	size_t n_rows;
	size_t count[CMP__COUNT];
	/* Metrics recorded per run on one side only, so not comparable. */
	int uncompared[CMP_N_METRICS];
	size_t n_uncompared;
};

/*
 * Match and compare.  Returns 0, or -1 with a message for an input error:
 * nothing matches, the sets come from different tools, the gate metric is
 * missing from a matched benchmark.
 */
int gate_compare(const struct cmp_set *base, const struct cmp_set *new,
		const struct cmp_options *opt, struct cmp_report *out,
		char *err, size_t errlen);
void gate_report_free(struct cmp_report *r);

/* Seed of the comparison's resampling when --seed is not given: a gate
 * must give the same verdict on the same two files every time. */
#define GATE_DEFAULT_SEED 1UL

struct gate_options {
	int metric;             /* CMP metric, or -1: automatic */
	double threshold;       /* relative, e.g. 0.05 */
	double confidence;
	unsigned long seed;
	enum match_by match_by;
	bool require_all;       /* a one-sided benchmark is an input error */
	bool between;           /* base from the history (cmp_options) */
	const struct gate_threshold *thresholds;  /* overrides, or NULL */
	size_t n_thresholds;
};

/* What the gate decided, with what the user should hear about it. */
struct gate_result {
	int exit_code;          /* CBENCH_EXIT_OK, _REGRESSION or _USAGE */
	char error[512];        /* with _USAGE: the one-line reason */
	struct cmp_report rep;  /* the comparison (rows empty on _USAGE) */
	/* Warnings, one line each: those about the baseline come before the
	 * report (n_early of them), the others after it. */
	char **warnings;
	size_t n_warnings, n_early;
	/* Rows within noise that could hide a regression past their
	 * threshold (gate_row_unresolved; --require-resolution fails on
	 * them). */
	size_t unresolved;
	/* gate_run_reference: the two sides rep points to (the reference, and
	 * the other commands), views into the caller's set. */
	struct cmp_set sides[2];
};

/* Within noise, but blind at its threshold: its resolution is coarser
 * than the threshold, or its interval reaches past the threshold on the
 * side of a regression (gate_result.unresolved).  0 when resolved, else
 * the largest regression that could have passed it (0.25: +25 %). */
double gate_row_unresolved(const struct cmp_report *rep, const struct cmp_row *row);
/* How an unresolved row is shown: "±19 %" (its resolution), or, when that
 * is within the threshold, how far its interval reaches: "up to +8.1 %". */
void gate_row_blind_text(const struct cmp_report *rep, const struct cmp_row *row,
			 char *buf, size_t len);

/*
 * The whole decision: check that base and new can be compared
 * (gate_check_match), compare them (gate_compare) and set the exit code:
 * _REGRESSION when any matched benchmark regressed, _USAGE for an input
 * error (nothing in common, two tools, the metric missing, --require-all
 * with a one-sided benchmark), _OK otherwise.  Returns the exit code.
 */
int gate_run(const struct gate_options *opt, const struct cmp_set *base,
	     const struct cmp_set *new, struct gate_result *out);
void gate_result_free(struct gate_result *r);

/*
 * The gate inside one invocation: every other benchmark of this run (set,
 * from gate_from_results) against the reference, benchmark ref, measured
 * in the same invocation (interleaved: paired by rounds).  Comparisons come
 * from the run's analysis document an, where it has them on the gate
 * metric against ref, so the report and the gate agree to the digit; the
 * others (CPU time) are computed here the same way.  Same rule, reports
 * and exit codes as gate_run; base->origin reads "the reference 'NAME'".
 */
struct analysis;
int gate_run_reference(const struct gate_options *opt, const struct cmp_set *set,
		       size_t ref, const struct analysis *an, bool paired,
		       struct gate_result *out);

#endif
