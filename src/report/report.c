/*
 * report.c: prints a run on the terminal from the runner's events.
 *
 * Sequential order prints a benchmark's header when it starts (before its
 * setup and warmups) and its report when it is done; interleaved and
 * shuffled orders print header and report together as each report falls
 * due (the runner sends them in plan order).  The shell calibration's note
 * carries the start-up cost the report shows beside times under a shell.
 */
#include "report.h"
#include "diag.h"
#include "export_text.h"
#include "xalloc.h"

#include <stdlib.h>

struct report {
	struct text_style style;
	struct analysis *an;      /* the invocation's analysis document */
	bool seq;                 /* --order=sequential */
	bench_done_fn results;    /* the exports' callback, or NULL */
	void *results_arg;
};

struct report *report_new(const struct config *cfg, const struct plan *plan,
			  struct analysis *an)
{
	struct report *rep = xcalloc(1, sizeof *rep);
	rep->an = an;
	rep->style = text_style_from(cfg);
	rep->seq = plan->order == ORDER_SEQUENTIAL;
	return rep;
}

void report_set_cause(struct report *rep,
		      bool (*fn)(void *arg, char *buf, size_t len), void *arg)
{
	rep->style.likely_cause = fn;
	rep->style.cause_arg = arg;
}

void report_free(struct report *rep)
{
	free(rep);
}

/* One runner message, the way diag prints cbench's own. */
static void print_message(const struct bench_message *m)
{
	switch (m->severity) {
	case BENCH_NOTE:
		diag_note("%s", m->text);
		break;
	case BENCH_WARNING:
		diag_warning("%s", m->text);
		break;
	case BENCH_ERROR:
		diag_error("%s", m->text);
		break;
	case BENCH_USAGE:
		diag_usage("%s", m->text);
		break;
	}
}

static void on_message(void *arg, const struct bench_message *m)
{
	struct report *rep = arg;
	if (m->kind == BENCH_MSG_SHELL_CALIBRATED) {
		rep->style.shell_overhead_s = m->shell_mean_s;
		rep->style.shell_overhead_sd = m->shell_sd_s;
	}
	print_message(m);
}

static void on_start(void *arg, size_t index, const struct bench_result *r)
{
	struct report *rep = arg;
	if (rep->seq)
		text_bench_header(&rep->style, index, r);
}

static void on_progress(void *arg, const struct bench_progress *p)
{
	static const char *const label[] = {
		[BENCH_PROGRESS_WARMUP] = "Warmup",
		[BENCH_PROGRESS_CURRENT] = "Current",
		[BENCH_PROGRESS_RUNS] = "Runs",
	};
	struct report *rep = arg;
	text_progress(&rep->style, label[p->kind], p->done, p->total_hint,
		      p->estimate_s);
}

static void on_runs_end(void *arg, size_t index)
{
	struct report *rep = arg;
	(void)index;
	text_progress_clear(&rep->style);
}

static void on_done(void *arg, size_t index, const struct bench_result *r,
		    bool report_due)
{
	struct report *rep = arg;
	if (!report_due)
		return;
	if (!rep->seq)
		text_bench_header(&rep->style, index, r);
	analysis_update_bench(rep->an, index, r);
	text_bench_report(&rep->style, r, &rep->an->bench[index]);
}

static void on_results(void *arg, const struct bench_outcome *so_far)
{
	struct report *rep = arg;
	if (rep->results)
		rep->results(rep->results_arg, so_far);
}

struct bench_events report_events(struct report *rep, bench_done_fn results,
				  void *arg)
{
	rep->results = results;
	rep->results_arg = arg;
	return (struct bench_events){
		.arg = rep,
		.bench_start = on_start,
		.progress = on_progress,
		.runs_end = on_runs_end,
		.bench_done = on_done,
		.results = on_results,
		.message = on_message,
	};
}
