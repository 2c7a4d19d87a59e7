/*
 * report_load.h: saved results for `cbench report`: a results file read
 * through the gate's loader (gate_load: cbench's JSON, schema 1 and 2, and
 * hyperfine's), with what the file says about where it was measured (the
 * tool and its version, the command line, the machine, the confidence
 * level and the order of the runs), and the benchmarks turned back into
 * results (results.h) so the analysis (analysis.h) summarises them as it
 * does a run's.
 *
 * Library-style: nothing here prints or exits.  Ownership: report_load()
 * fills an input freed by report_input_free(); report_results() returns
 * results the caller frees (results_free each, then the array).
 */
#ifndef CBENCH_REPORT_LOAD_H
#define CBENCH_REPORT_LOAD_H

#include "gate.h"
#include "planner.h"   /* enum run_order */
#include "results.h"
#include "sysinfo.h"

#include <stdbool.h>
#include <stddef.h>

struct report_input {
	struct cmp_set *set;
	char measured_by[96];         /* "cbench 0.1.0", "hyperfine" */
	char *command_line;           /* from the file's argv, or NULL */
	struct machine_info machine;
	bool have_machine;            /* the file has a context block */
	double confidence;            /* of the run, NaN if not recorded */
	enum run_order order;         /* sequential when not recorded */
};

/* Read path.  Returns 0, or -1 with one line in err naming the file. */
int report_load(const char *path, struct report_input *out, char *err,
		size_t errlen);
void report_input_free(struct report_input *in);

/* The benchmarks of every input, in order, as results; *n their count. */
struct bench_result **report_results(const struct report_input *in, size_t n_in,
				     size_t *n);

#endif
