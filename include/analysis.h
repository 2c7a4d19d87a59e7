/*
 * analysis.h: every statistic a user sees, computed once, in one document
 * that the terminal report, every exporter and the gate read.
 *
 * The document follows the results of an invocation as they grow:
 * analysis_update() summarises each benchmark whose runs changed since the
 * last update (every metric, Tukey outliers, the warnings) and compares it
 * with the comparison base, and leaves the others as they were.  What a
 * benchmark's entry was computed from is kept beside it (the result and its
 * run count), so an entry is never stale: there is no cache keyed on
 * addresses or hashes.
 *
 * Library-style: nothing here prints or exits.  Ownership: analysis_new()
 * returns a document freed by analysis_free(); it does not own the results
 * it reads, which must outlive every update that read them.
 */
#ifndef CBENCH_ANALYSIS_H
#define CBENCH_ANALYSIS_H

#include "results.h"
#include "stats.h"
#include "stats_robust.h"

#include <stdbool.h>
#include <stddef.h>

struct analysis_options {
	double confidence;       /* level of every interval and test */
	unsigned long seed;      /* for the bootstrap (stats_robust.h) */
	bool paired;             /* runs were interleaved or shuffled: run k
				    of every benchmark was in round k, so
				    comparisons pair the rounds */
	bool tables_by_mean;     /* tables and CSV rows by mean time (else
				    input order) */
	bool summary_by_mean;    /* summary lines by mean time (else input
				    order) */
};

/* Candidate vs reference on one metric. */
struct analysis_cmp {
	size_t reference, candidate;     /* indices into the results */
	enum metric_id metric;
	/* What the verdict rests on, in stats_comparison's terms (p_welch is
	 * the t-test's p: paired t or widened Welch; p_mann_whitney the rank
	 * test's: Wilcoxon signed-rank or Mann-Whitney), from robust. */
	struct stats_comparison cmp;
	struct stats_robust_cmp robust;  /* the drift- and skew-robust
					    comparison, paired by rounds when
					    opt.paired */
	struct stats_comparison unpaired;  /* the independent-samples
					      comparison (Fieller, Welch,
					      Mann-Whitney), for reference */
	/* hyperfine's "± σ" of the ratio as the summary shows it (the larger
	 * of cmp.ratio and its inverse, r): first-order propagation of the
	 * two sides' sample standard deviations with the covariance taken
	 * as 0, r * sqrt((sd_a / mean_a)^2 + (sd_b / mean_b)^2) (hyperfine,
	 * src/benchmark/relative_speed.rs, after Wikipedia's "Propagation of
	 * uncertainty", example formulas).  NaN when a side has fewer than
	 * 2 runs or a mean or the ratio is 0. */
	double ratio_sd;
	/* Multiplicity (multitest.h; README, "Comparisons").  The family is
	 * every comparison with the base on this metric that has at least 2
	 * runs a side; family_size counts it (0: this one has too few runs to
	 * be in it).  p is the p-value the verdict rests on, unadjusted: the
	 * larger of the two tests' (the t-test's when the rank test abstains),
	 * NaN when a test could not be made; p_adjusted is Holm's adjustment
	 * of it over the family.  Every interval of the comparison (cmp,
	 * robust, unpaired) is at the Bonferroni level for the family
	 * (cmp.confidence), and cmp.verdict is the adjusted decision: the
	 * interval excludes 1 and p_adjusted < 1 - the document's confidence.
	 * With a family of one, all of it is the plain comparison. */
	double p, p_adjusted;
	size_t family_size;
};

/* One benchmark. */
struct analysis_bench {
	/* sum[m]: summary of metric m; sum[m].n == 0 when the metric is not
	 * measured or not counted in any run.  The mean's interval allows
	 * for serial dependence (and, for times, skew: bootstrap-t), and for
	 * the shell correction's own error; intervals clamped at 0. */
	struct stats_summary sum[MET_COUNT];
	unsigned char *outlier;   /* per run: RUN_OUTLIER_* from the wall-time
				     fences (n_runs entries) */
	unsigned warnings;        /* enum stats_warning mask */
	double acf1;              /* lag-1 autocorrelation of the wall times */
	double dependence;        /* its factor on the mean's standard error */
	double bimodality;        /* of the wall times, NaN if undefined */
	/* What the run before changed in the wall time: runs after one of
	 * its own against runs after another benchmark's (stats.h); the
	 * warning STATS_WARN_CARRYOVER when they differ (STATS_CARRYOVER_*,
	 * at the document's level). */
	struct stats_carryover carry;
	size_t clamped;           /* shell runs whose wall time was clamped
				     at 0 when the start-up was subtracted */
	/* Comparisons with the base on every metric both measured (none for
	 * the base itself). */
	struct analysis_cmp *cmps;
	size_t n_cmps;
	/* --profile: the functions whose instructions moved against the
	 * base, ranked (profile.h); NULL unless both sides were profiled. */
	struct profile_diff *where;
	/* What the entry was computed from. */
	const struct bench_result *of;
	size_t n_runs;
	bool interrupted;
	long cmp_base;            /* base the comparisons were made against */
};

struct analysis {
	struct analysis_options opt;
	size_t n;                 /* benchmarks */
	struct analysis_bench *bench;
	/* The metric the summary leads with and orders by: the wall time,
	 * or the simulated instructions when every benchmark with runs has
	 * them (--counters sim: the time is then Valgrind's). */
	enum metric_id primary;
	/* Comparison base: the reference benchmark if it has a value of the
	 * primary metric, else the one with its lowest mean; -1 when none
	 * has a run.  --sort never changes it. */
	long base;
	/* Every comparison, benchmark by benchmark; wall_cmp[i] indexes
	 * benchmark i's wall-time entry, or -1. */
	struct analysis_cmp *cmps;
	size_t n_cmps;
	long *wall_cmp;
	/* family[m]: the comparisons on metric m that have at least 2 runs
	 * a side (analysis_cmp.family_size). */
	size_t family[MET_COUNT];
	/* Row order of the tables and CSV (all benchmarks). */
	size_t *order;
	/* The benchmarks with a value of the primary metric, in the
	 * summary's order. */
	size_t *summary_order;
	size_t n_summary;
	size_t cap;
};

struct analysis *analysis_new(const struct analysis_options *opt);
void analysis_free(struct analysis *a);

/* Bring the document up to date with results rs[0..n) (n never shrinks
 * between calls; rs[i] may be a new result for index i).  reference is
 * the --reference benchmark's index, or -1. */
void analysis_update(struct analysis *a, struct bench_result *const *rs,
		     size_t n, long reference);

/* Bring benchmark i's own entry (summaries, outliers, warnings; not its
 * comparisons) up to date with its result r, growing the document to i + 1
 * benchmarks if needed: for a benchmark's report as it finishes.  The
 * next analysis_update() finds it current and only compares it. */
void analysis_update_bench(struct analysis *a, size_t i,
			   const struct bench_result *r);

/* The comparison of benchmark i on metric m, or NULL. */
const struct analysis_cmp *analysis_find_cmp(const struct analysis *a,
					     size_t i, enum metric_id m);

#endif
