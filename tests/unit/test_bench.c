/*
 * Unit tests: the runner (bench.c) on small plans, with a recording events
 * sink instead of the terminal: the sequence of events, the structured
 * error values, the exit codes, and that nothing at all is written to
 * descriptors 1 and 2 while it runs (they point at a temp file around the
 * call, checked empty beside the positive checks on the events).
 */
#include "bench.h"
#include "cli.h"
#include "cli_layers.h"
#include "diag.h"
#include "planner.h"
#include "stats.h"
#include "unit.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#define MAX_EVENTS 64

/* What the sink saw: one line per event, and the messages' fields. */
struct rec {
	char ev[MAX_EVENTS][160];
	size_t n;
	struct bench_message msg[MAX_EVENTS];
	char msg_text[MAX_EVENTS][512];
	char msg_hook[MAX_EVENTS][16];
	size_t n_msg;
	int results_calls;
	long captured;            /* bytes written to fds 1 and 2, -1 unknown */
};

__attribute__((format(printf, 2, 3)))
static void add(struct rec *r, const char *fmt, ...)
{
	if (r->n >= MAX_EVENTS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->ev[r->n++], sizeof r->ev[0], fmt, ap);
	va_end(ap);
}

static void on_start(void *arg, size_t i, const struct bench_result *res)
{
	add(arg, "start %zu %s", i, res->name);
}

static void on_progress(void *arg, const struct bench_progress *p)
{
	static const char *const k[] = {"Warmup", "Current", "Runs"};
	add(arg, "%s %zu %zu/%zu", k[p->kind], p->bench, p->done, p->total_hint);
}

static void on_runs_end(void *arg, size_t i)
{
	add(arg, "runs_end %zu", i);
}

static void on_done(void *arg, size_t i, const struct bench_result *res,
		    bool due)
{
	add(arg, "done %zu %s runs=%zu", i, due ? "report" : "failed",
	    res->n_runs);
}

static void on_results(void *arg, const struct bench_outcome *o)
{
	struct rec *r = arg;
	r->results_calls++;
	add(r, "results n=%zu", o->n);
}

/* Notes and warnings that depend on the machine (no PMU, ptrace refused)
 * are left out of the sequence; everything else is recorded. */
static void on_message(void *arg, const struct bench_message *m)
{
	struct rec *r = arg;
	if (m->kind == BENCH_MSG_COUNTERS_DROPPED ||
	    m->kind == BENCH_MSG_PTRACE_FALLBACK)
		return;
	add(r, "message %d", (int)m->kind);
	if (r->n_msg >= MAX_EVENTS)
		return;
	size_t k = r->n_msg++;
	r->msg[k] = *m;
	snprintf(r->msg_text[k], sizeof r->msg_text[k], "%s", m->text);
	snprintf(r->msg_hook[k], sizeof r->msg_hook[k], "%s",
		 m->hook ? m->hook : "");
	r->msg[k].text = r->msg_text[k];
	r->msg[k].hook = m->hook ? r->msg_hook[k] : NULL;
}

/*
 * Parse args, plan, and run with fds 1 and 2 on a temp file.  Returns
 * bench_open's exit code; out holds the outcome (freed by the caller).
 */
static int run_args(const char **args, struct rec *r, struct bench_outcome *out)
{
	struct config cfg;
	struct plan plan;
	char err[DIAG_MSG_MAX];
	int argc = 0, code;
	while (args[argc])
		argc++;
	memset(r, 0, sizeof *r);
	r->captured = -1;
	bench_outcome_init(out, -1);
	if (cli_parse(argc, (char **)args, &cfg, &code) != 0)
		return -100;
	struct plan_options po = cli_plan_options(&cfg);
	if (planner_build(&po, &plan, err, sizeof err) != 0) {
		cli_free(&cfg);
		return -101;
	}
	struct bench_events ev = {
		.arg = r, .bench_start = on_start, .progress = on_progress,
		.runs_end = on_runs_end, .bench_done = on_done,
		.results = on_results, .message = on_message,
	};
	char tmpl[] = "/tmp/cbench-test-bench-XXXXXX";
	int tmp = mkstemp(tmpl);
	fflush(stdout);
	fflush(stderr);
	int save1 = dup(1), save2 = dup(2);
	dup2(tmp, 1);
	dup2(tmp, 2);

	struct bench_runner *br;
	struct bench_options bo = cli_bench_options(&cfg);
	int rc = bench_open(&bo, &plan, &ev, &br);
	if (rc == CBENCH_EXIT_OK)
		bench_run(br, out);
	else
		bench_outcome_init(out, rc);
	bench_close(br);

	fflush(stdout);
	fflush(stderr);
	dup2(save1, 1);
	dup2(save2, 2);
	close(save1);
	close(save2);
	r->captured = lseek(tmp, 0, SEEK_END);
	close(tmp);
	unlink(tmpl);
	planner_free(&plan);
	cli_free(&cfg);
	return rc;
}

/* The event line of a message of this kind (one at a time). */
static const char *msg_ev(enum bench_msg_kind kind)
{
	static char buf[32];
	snprintf(buf, sizeof buf, "message %d", (int)kind);
	return buf;
}

/* Is event k of r exactly s? */
static bool ev_is(const struct rec *r, size_t k, const char *s)
{
	if (k >= r->n || strcmp(r->ev[k], s) != 0) {
		printf("  event %zu: \"%s\", expected \"%s\"\n", k,
		       k < r->n ? r->ev[k] : "(none)", s);
		return false;
	}
	return true;
}

static void true_runs_in_order(void)
{
	const char *a[] = {"cbench", "-r", "3", "-w", "2", "-n", "t", "/bin/true",
			   NULL};
	struct rec r;
	struct bench_outcome o;
	CHECK(run_args(a, &r, &o) == CBENCH_EXIT_OK);
	CHECK(r.captured == 0);
	/* results after every run but the last (issue #20: exports kept
	 * current), whose benchmark's end is reported after its cleanup. */
	const char *want[] = {"start 0 t", "Warmup 0 1/2", "Warmup 0 2/2",
			      "Current 0 1/3", "results n=1", "Current 0 2/3",
			      "results n=1", "Current 0 3/3",
			      "runs_end 0", "done 0 report runs=3",
			      "results n=1"};
	for (size_t k = 0; k < sizeof want / sizeof *want; k++)
		CHECK(ev_is(&r, k, want[k]));
	CHECK(r.n == sizeof want / sizeof *want);
	CHECK(r.n_msg == 0);
	CHECK(o.exit_code == CBENCH_EXIT_OK);
	CHECK(o.n == 1 && o.results[0]->n_runs == 3);
	CHECK(o.reference == -1 && o.shell == NULL);
	bench_free_outcome(&o);
}

static void failing_command(void)
{
	const char *a[] = {"cbench", "-r", "3", "false", NULL};
	struct rec r;
	struct bench_outcome o;
	CHECK(run_args(a, &r, &o) == CBENCH_EXIT_OK);
	CHECK(r.captured == 0);
	CHECK(ev_is(&r, 0, "start 0 false"));
	CHECK(ev_is(&r, 1, msg_ev(BENCH_MSG_RUN_FAILED)));
	CHECK(ev_is(&r, 2, "runs_end 0"));
	CHECK(ev_is(&r, 3, "done 0 failed runs=0"));
	CHECK(ev_is(&r, 4, "results n=1"));
	CHECK(r.n == 5);
	CHECK(r.n_msg == 1);
	const struct bench_message *m = &r.msg[0];
	CHECK(m->kind == BENCH_MSG_RUN_FAILED && m->severity == BENCH_ERROR);
	CHECK(m->bench == 0 && m->exit_code == CBENCH_EXIT_FAILURE);
	CHECK(m->status == 1 && m->hook == NULL);
	CHECK_STR(m->text, "command 'false' exited with code 1 in run 1; use "
		  "-i/--ignore-failure to keep going, or --show-output to see "
		  "its error output");
	CHECK(o.exit_code == CBENCH_EXIT_FAILURE);
	CHECK(o.n == 1);
	CHECK_STR(o.results[0]->stop_reason, "failed");
	bench_free_outcome(&o);
}

static void missing_command_before_any_run(void)
{
	const char *a[] = {"cbench", "-r", "1", "true",
			   "/nonexistent-cbench-dir/prog", NULL};
	struct rec r;
	struct bench_outcome o;
	CHECK(run_args(a, &r, &o) == CBENCH_EXIT_FAILURE);
	CHECK(r.captured == 0);
	/* Nothing ran, not even the first benchmark. */
	CHECK(r.n == 1 && ev_is(&r, 0, msg_ev(BENCH_MSG_EXEC_NOT_FOUND)));
	const struct bench_message *m = &r.msg[0];
	CHECK(m->kind == BENCH_MSG_EXEC_NOT_FOUND && m->severity == BENCH_ERROR);
	CHECK(m->bench == 1 && m->exit_code == CBENCH_EXIT_FAILURE);
	CHECK(m->sys_errno == ENOENT && m->hook == NULL);
	CHECK_STR(m->text, "command '/nonexistent-cbench-dir/prog' not found");
	CHECK(o.exit_code == CBENCH_EXIT_FAILURE && o.n == 0);
	bench_free_outcome(&o);
}

static void failing_setup_hook(void)
{
	const char *a[] = {"cbench", "-r", "2", "--setup", "false", "--cleanup",
			   "true", "true", NULL};
	struct rec r;
	struct bench_outcome o;
	CHECK(run_args(a, &r, &o) == CBENCH_EXIT_OK);
	CHECK(r.captured == 0);
	CHECK(ev_is(&r, 0, "start 0 true"));
	CHECK(ev_is(&r, 1, msg_ev(BENCH_MSG_HOOK_FAILED)));
	CHECK(ev_is(&r, 2, "runs_end 0"));
	CHECK(ev_is(&r, 3, "done 0 failed runs=0"));
	CHECK(r.n == 5 && r.n_msg == 1);
	const struct bench_message *m = &r.msg[0];
	CHECK(m->kind == BENCH_MSG_HOOK_FAILED && m->severity == BENCH_ERROR);
	CHECK(m->bench == 0 && m->exit_code == CBENCH_EXIT_FAILURE);
	CHECK(m->status == 1);
	CHECK_STR(m->hook, "setup");
	CHECK_STR(m->text, "the --setup command 'false' failed with exit code 1; "
		  "append ' || true' to it to ignore its failure");
	CHECK(o.exit_code == CBENCH_EXIT_FAILURE);
	bench_free_outcome(&o);
}

/* Interleaved: benchmark 2 fails in its first run; benchmark 1, in
 * flight, is brought to an end and both are done in plan order. */
static void interleaved_failure_in_plan_order(void)
{
	const char *a[] = {"cbench", "-r", "3", "--order", "interleaved", "true",
			   "false", NULL};
	struct rec r;
	struct bench_outcome o;
	CHECK(run_args(a, &r, &o) == CBENCH_EXIT_OK);
	CHECK(r.captured == 0);
	const char *want[] = {"start 0 true", "Runs 0 1/6", "start 1 false",
			      msg_ev(BENCH_MSG_RUN_FAILED), "runs_end 1", "runs_end 0",
			      "done 0 report runs=1", "done 1 failed runs=0",
			      "results n=2"};
	for (size_t k = 0; k < sizeof want / sizeof *want; k++)
		CHECK(ev_is(&r, k, want[k]));
	CHECK(r.n == sizeof want / sizeof *want);
	CHECK(r.msg[0].bench == 1);
	CHECK_STR(o.results[0]->stop_reason, "stopped early: benchmark 2 failed");
	CHECK(o.exit_code == CBENCH_EXIT_FAILURE);
	bench_free_outcome(&o);
}

static void unreadable_input_is_usage_error(void)
{
	const char *a[] = {"cbench", "-r", "1", "--input",
			   "/nonexistent-cbench-dir/in", "true", NULL};
	struct rec r;
	struct bench_outcome o;
	CHECK(run_args(a, &r, &o) == CBENCH_EXIT_USAGE);
	CHECK(r.captured == 0);
	CHECK(r.n == 1 && r.n_msg == 1);
	const struct bench_message *m = &r.msg[0];
	CHECK(m->kind == BENCH_MSG_INPUT_UNREADABLE && m->severity == BENCH_USAGE);
	CHECK(m->bench == -1 && m->exit_code == CBENCH_EXIT_USAGE);
	CHECK(m->sys_errno == ENOENT);
	CHECK_STR(m->text, "cannot read --input file '/nonexistent-cbench-dir/in': "
		  "No such file or directory");
	CHECK(o.exit_code == CBENCH_EXIT_USAGE && o.n == 0);
	bench_free_outcome(&o);
}

/* Shell syntax: the calibration's note carries its values, and the final
 * estimate reaches the outcome. */
static void shell_calibration_values(void)
{
	const char *a[] = {"cbench", "-r", "2", "true && true", NULL};
	struct rec r;
	struct bench_outcome o;
	CHECK(run_args(a, &r, &o) == CBENCH_EXIT_OK);
	CHECK(r.captured == 0);
	CHECK(ev_is(&r, 0, msg_ev(BENCH_MSG_SHELL_CALIBRATED)));
	CHECK(ev_is(&r, 1, "start 0 true && true"));
	const struct bench_message *m = &r.msg[0];
	CHECK(m->kind == BENCH_MSG_SHELL_CALIBRATED && m->severity == BENCH_NOTE);
	CHECK(m->bench == 0 && m->exit_code == 0);
	CHECK(m->runs == 20);
	CHECK(m->shell_mean_s > 0 && m->shell_sd_s >= 0);
	CHECK(isfinite(m->shell_page_faults) || isnan(m->shell_page_faults));
	CHECK(strstr(m->text, "shell syntax: running such commands under '") ==
	      m->text);
	CHECK(strstr(m->text, "calibrated over 20 runs, then again after each run) is subtracted"));
	/* the outcome has the final estimate: the 20 pairs and one after
	 * each run */
	CHECK(o.shell != NULL && o.shell_overhead_s > 0 && o.shell_overhead_sd >= 0);
	CHECK(o.results[0]->shell_pairs == 22);
	CHECK(o.exit_code == CBENCH_EXIT_OK && o.results[0]->n_runs == 2);
	bench_free_outcome(&o);
}

int main(void)
{
	stats_init();
	RUN(true_runs_in_order);
	RUN(failing_command);
	RUN(missing_command_before_any_run);
	RUN(failing_setup_hook);
	RUN(interleaved_failure_in_plan_order);
	RUN(unreadable_input_is_usage_error);
	RUN(shell_calibration_values);
	UNIT_EXIT();
}
