/*
 * main.c: wires the modules together: parse options, plan, run, report.
 * Kept thin on purpose (curl's tool_main.c calls operate()).
 */
#include "simcpu.h"
#include "bench.h"
#include "cli.h"
#include "cli_layers.h"
#include "gate.h"
#include "counters.h"
#include "cpulist.h"
#include "diag.h"
#include "export.h"
#include "export_compare.h"
#include "export_inputs.h"
#include "export_junit.h"
#include "export_text.h"
#include "gate.h"
#include "history.h"
#include "history_text.h"
#include "planner.h"
#include "report.h"
#include "report_page.h"
#include "spawn.h"
#include "stats.h"
#include "syscheck.h"
#include "system_text.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The exports of this invocation, rewritten by bench_run's callback. */
/* argv with secrets masked (shown_argv), for the exports and the history. */
static char **shown;

struct exports {
	const struct config *cfg;   /* the exports asked for */
	struct export_context ctx;
	struct analysis *an;   /* the invocation's analysis document */
	bool failed;
	size_t written;    /* outcome_size() at the last rewrite of the files */
	/* The system check around the run: readings from before the first
	 * run, judged afresh (other processes' use so far) for each export
	 * and each warning that names a likely cause. */
	struct syscheck_watch watch;
	struct syscheck check;
	double last_write_s;   /* monotonic clock after it, 0: none yet */
	double interval_s;     /* the least time between two rewrites */
	/* --precision with a history: the spread between invocations per
	 * benchmark (bench_options.between_tau), or NULL. */
	double *between_tau;
	size_t *between_k;
};

/* Files are rewritten during the run at most every EXPORT_INTERVAL_S, or
 * EXPORT_COST_FACTOR times as long as the last rewrite took if that is
 * longer: keeping them current then costs at most about 1/FACTOR of the
 * run however large they grow (a rewrite after every benchmark of a
 * 2000-value sweep made it quadratic).  The final write comes at the end. */
#define EXPORT_INTERVAL_S 1.0
#define EXPORT_COST_FACTOR 10.0

static double monotonic_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Grows with every benchmark, run and interruption recorded. */
static size_t outcome_size(const struct bench_outcome *o)
{
	size_t n = o->n;
	for (size_t i = 0; i < o->n; i++)
		n += o->results[i]->n_runs + o->results[i]->interrupted;
	return n;
}

/* Did the run finish every planned benchmark (none failed or
 * interrupted)? */
static bool outcome_complete(const struct exports *e,
			     const struct bench_outcome *o)
{
	if (o->exit_code != CBENCH_EXIT_OK ||
	    (e->ctx.plan && o->n < e->ctx.plan->n))
		return false;
	for (size_t i = 0; i < o->n; i++)
		if (o->results[i]->interrupted)
			return false;
	return true;
}

/* Write the exports: files after each benchmark, and at the end if
 * something was recorded since (whatever path bench_run took to get
 * there); streams (stdout, pipes, devices) only at the end.  A failure is reported and remembered, and the
 * previous file stays as it was. */
static void write_exports(struct exports *e, const struct bench_outcome *o,
			  bool at_end)
{
	const struct config *cfg = e->cfg;
	if (cfg->n_exports == 0 || o->n == 0)
		return;
	/* At the end, files already holding this outcome, marked as
	 * complete as it is, are left alone. */
	bool incomplete = !at_end || !outcome_complete(e, o);
	bool files = !at_end || outcome_size(o) != e->written ||
		     incomplete != e->ctx.incomplete;
	e->written = outcome_size(o);
	e->ctx.incomplete = incomplete;
	analysis_update(e->an, o->results, o->n, o->reference);
	syscheck_watch_check(&e->watch, "/", &e->check);
	e->ctx.check = &e->check;
	struct export_doc *d = export_doc_new(&e->ctx, o, e->an);
	for (size_t i = 0; i < cfg->n_exports; i++) {
		const struct export_req *x = &cfg->exports[i];
		char err[DIAG_MSG_MAX];
		if (x->format == EXPORT_JUNIT ||   /* the gate writes it */
		    (export_is_stream(x->path) ? !at_end : !files))
			continue;
		if (export_write_req(x, d, err, sizeof err) != 0) {
			/* Cut short by a signal, the exit status is the
			 * signal's (run()): 143 for SIGTERM, and a reader of
			 * stdout that went away is the quiet 141. */
			int sig = spawn_stop_signal();
			if (sig == SIGPIPE && export_is_stream(x->path))
				continue;
			diag_error("%s", err);
			e->failed |= sig == 0;
		}
	}
	export_doc_free(d);
}

/* Say so when --export-bmf had to shorten a name to Bencher's limit. */
static void note_bmf_names(const struct config *cfg, const struct bench_outcome *o)
{
	bool bmf = false;
	for (size_t i = 0; i < cfg->n_exports; i++)
		bmf |= cfg->exports[i].format == EXPORT_BMF;
	size_t n = bmf ? export_bmf_cut(o) : 0;
	if (n)
		diag_note("--export-bmf: %zu benchmark name%s over Bencher's %d "
			  "bytes, cut and ended with a hash of the whole (the "
			  "JSON export keeps %s)", n, n == 1 ? "" : "s",
			  EXPORT_BMF_NAME_MAX, n == 1 ? "it" : "them");
}

/* The results changed during the run: rewrite the files if the interval
 * since the last rewrite is over (the first change is written at once). */
static void on_bench_done(void *arg, const struct bench_outcome *so_far)
{
	struct exports *e = arg;
	double now = monotonic_s();
	if (e->last_write_s > 0 && now - e->last_write_s < e->interval_s)
		return;
	write_exports(e, so_far, false);
	e->last_write_s = monotonic_s();
	double cost = e->last_write_s - now;
	e->interval_s = EXPORT_INTERVAL_S > EXPORT_COST_FACTOR * cost
			? EXPORT_INTERVAL_S : EXPORT_COST_FACTOR * cost;
}

/* The report's likely cause of drift or spread (export_text.h). */
static bool likely_cause(void *arg, char *buf, size_t len)
{
	struct exports *e = arg;
	struct syscheck c;
	syscheck_watch_check(&e->watch, "/", &c);
	return syscheck_likely_cause(&c, buf, len);
}

/* The terminal report's style for cfg, resolved against the terminal now. */
static struct text_style terminal_style(const struct config *cfg)
{
	struct report_options ro = cli_report_options(cfg);
	return text_style_from(&ro);
}

/* The pre-run checks, then the run, reported on the terminal; the exports
 * rewritten after each benchmark. */
static void run_benchmarks(const struct config *cfg, const struct plan *plan,
			   struct exports *ex, struct bench_outcome *out)
{
	struct report_options ro = cli_report_options(cfg);
	struct report *rep = report_new(&ro, plan, ex->an);
	report_set_cause(rep, likely_cause, ex);
	struct bench_events ev = report_events(rep, on_bench_done, ex);
	struct bench_runner *br;
	struct bench_options bopt = cli_bench_options(cfg);
	bopt.between_tau = ex->between_tau;
	bopt.between_k = ex->between_k;
	int rc = bench_open(&bopt, plan, &ev, &br);
	if (rc == CBENCH_EXIT_OK)
		bench_run(br, out);
	else
		bench_outcome_init(out, rc);
	bench_close(br);
	report_free(rep);
}

static void on_signal(int sig)
{
	spawn_request_stop(sig);
}

static void on_continue(int sig)
{
	(void)sig;
	spawn_note_continued();
}

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: a blocking wait4 must return */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* Output closed early (`cbench ... | head -1`): stop like an
	 * interrupt (the running command's group is killed, results so far
	 * are exported) instead of dying in the middle of a run. */
	sigaction(SIGPIPE, &sa, NULL);
	/* Resumed after a stop (SIGSTOP, Ctrl-Z): the run in progress is
	 * not a measurement (bench.c discards it). */
	sa.sa_handler = on_continue;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGCONT, &sa, NULL);
	sa.sa_handler = on_signal;
	sa.sa_flags = 0;
	/* SIGXFSZ is ignored from main() on; commands still get the default
	 * disposition (spawn resets what cbench ignores). */
	/* A mask inherited from whoever started cbench must not hold back
	 * Ctrl-C or the child notifications the engine waits for. */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGPIPE);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/*
 * Make sure descriptors 0, 1 and 2 are open before anything else is: a
 * closed one (`cbench ... >&-`) would otherwise be taken by the next
 * open(), and the report would land in a command's --output file.  Like
 * coreutils, open /dev/null the other way round (stdout read-only), so
 * that writing the report to a closed stdout still fails and is reported.
 */
static void ensure_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		int got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (got != fd)
			_exit(CBENCH_EXIT_FAILURE);
	}
}

/* Compare mode's report to stdout (--export-markdown -) reports its own
 * write errors: finish_stdout does not repeat them. */
static bool stdout_checked;

/* The real stdout while an export is written there and the report goes
 * to stderr; NULL otherwise. */
static FILE *export_stdout;

/*
 * An export to stdout (`--export-json -`, /dev/stdout) must be the only
 * thing there, so that `| jq` works: keep the real stdout for the exports
 * and point descriptor 1 at stderr, where the report, the summary, the
 * gate's table and GitHub annotations then go (compare mode leaves its
 * table out instead).  Returns 0, or -1 (message printed).
 */
static int report_to_stderr(const struct config *cfg)
{
	bool any = false;
	for (size_t i = 0; i < cfg->n_exports; i++)
		any |= export_is_stdout(cfg->exports[i].path);
	if (!any)
		return 0;
	fflush(stdout);
	int fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
	if (f == NULL || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		diag_error("cannot redirect the report to stderr: %s",
			   strerror(errno));
		if (f)
			fclose(f);
		else if (fd >= 0)
			close(fd);
		return -1;
	}
	export_stdout = f;
	export_set_stdout(f);
	return 0;
}

/*
 * Before exiting: a report, --help or compare table that could not be
 * written (a full disk, a read-only stdout) is an I/O error, exit 1.  A
 * closed pipe (`| head`) keeps its quiet 141 (SIGPIPE).
 */
static int finish_stdout(int rc)
{
	FILE *f = export_stdout ? export_stdout : stdout;
	const char *what = export_stdout ? "the export to standard output"
					 : "standard output";
	errno = 0;
	bool bad = fflush(f) != 0 || ferror(f);
	int e = errno;
	/* An earlier failed write left only the error flag: an empty write
	 * tells why (ENOSPC on a full disk, EBADF on a read-only stdout). */
	if (bad && e == 0 && write(fileno(f), "", 0) < 0)
		e = errno;
	if (e == 0)
		e = EIO;
	if (export_stdout) {
		/* Write errors were reported by export_write; close it now. */
		bad = false;
		if (fclose(export_stdout) != 0) {
			bad = true;
			e = errno;
		}
		export_stdout = NULL;
		export_set_stdout(NULL);
		fflush(stdout);   /* the report, now on stderr */
	} else if (!bad && close(STDOUT_FILENO) != 0 && errno != EBADF) {
		bad = true;
		e = errno;
	}
	if (!bad || (stdout_checked && rc != CBENCH_EXIT_OK))
		return rc;
	if (e == EPIPE || spawn_stop_signal() == SIGPIPE)
		return rc != CBENCH_EXIT_OK ? rc : 128 + SIGPIPE;
	diag_error("cannot write to %s: %s", what, strerror(e));
	return rc == CBENCH_EXIT_OK || rc == CBENCH_EXIT_REGRESSION
	       ? CBENCH_EXIT_FAILURE : rc;
}

/* What the gates decide on: the metrics of --gate-metric (or those that
 * --fail-if-slower names, or one chosen automatically: -1), with the
 * thresholds of --fail-if-slower METRIC=PCT and --fail-if-slower-for. */
#define MAX_GATES 32
static struct {
	int metric[MAX_GATES];
	char name[MAX_GATES][32];
	size_t n;
	struct gate_threshold *t;
	size_t n_t;
} gates;

/* Add the items of spec (for benchmark bench, or NULL) to the thresholds. */
static int add_thresholds(const char *spec, const char *bench, const char *opt)
{
	struct cli_threshold t[MAX_GATES + 1];
	char err[DIAG_MSG_MAX];
	int n = cli_parse_thresholds(spec, t, MAX_GATES + 1, err, sizeof err);
	if (n < 0) {
		diag_usage("%s '%s': %s", opt, spec, err);
		return -1;
	}
	for (int k = 0; k < n; k++) {
		int m = t[k].metric[0] ? gate_metric_lookup(t[k].metric) : -1;
		if (t[k].metric[0] && m < 0) {
			diag_usage("%s '%s': unknown metric '%s' (neither built "
				   "in nor defined with --metric in the files)",
				   opt, spec, t[k].metric);
			return -1;
		}
		if (bench == NULL && m < 0)
			continue;    /* the bare PCT: cfg->fail_if_slower */
		gates.t = xreallocarray(gates.t, gates.n_t + 1, sizeof *gates.t);
		gates.t[gates.n_t++] = (struct gate_threshold){bench, m, t[k].fraction};
	}
	return 0;
}

/* The threshold of --fail-if-slower METRIC=PCT for m, else def. */
static double metric_threshold(int m, double def)
{
	for (size_t k = 0; k < gates.n_t; k++)
		if (gates.t[k].bench == NULL && gates.t[k].metric == m)
			return gates.t[k].threshold;
	return def;
}

static bool gated_metric(int m)
{
	for (size_t i = 0; i < gates.n; i++)
		if (gates.metric[i] == m)
			return true;
	return false;
}

/* Fill gates from cfg; -1 after a usage error (printed). */
static void gates_free(void);

static int gates_from(const struct config *cfg)
{
	char err[DIAG_MSG_MAX];
	gates.n = 0;
	atexit(gates_free);     /* the thresholds live until cbench exits */
	if (cfg->gate_metric) {
		int n = cli_parse_metric_list(cfg->gate_metric, gates.name, MAX_GATES,
					      err, sizeof err);
		if (n < 0) {
			diag_usage("--gate-metric '%s': %s", cfg->gate_metric, err);
			return -1;
		}
		gates.n = (size_t)n;
	}
	if (cfg->fail_if_slower_spec &&
	    add_thresholds(cfg->fail_if_slower_spec, NULL, "--fail-if-slower") != 0)
		return -1;
	for (size_t i = 0; i < gates.n; i++)
		if ((gates.metric[i] = gate_metric_lookup(gates.name[i])) < 0) {
			diag_usage("--gate-metric: unknown metric '%s' (neither "
				   "built in nor defined with --metric in the "
				   "files)", gates.name[i]);
			return -1;
		}
	for (size_t k = 0; k < gates.n_t; k++) {
		int m = gates.t[k].metric;
		if (cfg->gate_metric && !gated_metric(m)) {
			diag_usage("--fail-if-slower %s=...: not a --gate-metric (%s)",
				   gate_metric_key(m), cfg->gate_metric);
			return -1;
		}
		if (!cfg->gate_metric && !gated_metric(m) && gates.n < MAX_GATES) {
			snprintf(gates.name[gates.n], sizeof gates.name[0], "%s",
				 gate_metric_key(m));
			gates.metric[gates.n++] = m;
		}
	}
	if (gates.n == 0) {
		gates.metric[0] = -1;
		gates.n = 1;
	}
	for (size_t i = 0; i < cfg->fail_for_names.n; i++)
		if (add_thresholds(cfg->fail_for_specs.v[i], cfg->fail_for_names.v[i],
				   "--fail-if-slower-for") != 0)
			return -1;
	return 0;
}

static void gates_free(void)
{
	free(gates.t);
	gates.t = NULL;
	gates.n_t = 0;
}

/* The gate's options, as cfg says (the metric: the first gate's). */
static struct gate_options gate_options_from(const struct config *cfg)
{
	return (struct gate_options){
		.metric = gates.metric[0],
		.thresholds = gates.t,
		.n_thresholds = gates.n_t,
		.threshold = cfg->fail_if_slower,
		.confidence = cfg->confidence,
		.seed = cfg->seed_given ? (unsigned long)cfg->seed : GATE_DEFAULT_SEED,
		.match_by = cfg->match_by,
		.require_all = cfg->require_all,
		.between = cfg->baseline_history,
	};
}

/*
 * Decide the gate (gate.c) and show what it decided: warnings about the
 * baseline, the table on stdout (left out when an export takes stdout), in
 * `cbench compare` the --export-markdown pull-request reports, GitHub
 * Actions annotations when GITHUB_ACTIONS=true, then the remaining
 * warnings.  Returns the exit code.
 */
static int show_gate(const struct config *cfg, struct gate_result *g)
{
	int rc = g->exit_code;
	if (rc == CBENCH_EXIT_USAGE) {
		diag_error("%s", g->error);
		return rc;
	}
	for (size_t i = 0; i < g->n_early; i++)
		diag_warning("%s", g->warnings[i]);
	bool export_to_stdout = false;
	for (size_t i = 0; i < cfg->n_exports; i++)
		export_to_stdout |= strcmp(cfg->exports[i].path, "-") == 0;
	struct text_style st = terminal_style(cfg);
	if (!export_to_stdout)
		export_compare_text(&st, &g->rep);
	/* --export-markdown is the pull-request report in compare mode; after
	 * a run (--baseline) it is the results table, written elsewhere. */
	for (size_t i = 0; cfg->compare_mode && i < cfg->n_exports; i++) {
		char err[DIAG_MSG_MAX];
		if (cfg->exports[i].format == EXPORT_MARKDOWN &&
		    export_compare_write_markdown(cfg->exports[i].path, &g->rep,
						  cfg->time_unit, err, sizeof err) != 0) {
			diag_error("%s", err);
			rc = CBENCH_EXIT_FAILURE;
		}
	}
	const char *gha = getenv("GITHUB_ACTIONS");
	if (gha && strcmp(gha, "true") == 0)
		export_compare_github(export_to_stdout ? stderr : stdout, &g->rep);
	for (size_t i = g->n_early; i < g->n_warnings; i++)
		diag_warning("%s", g->warnings[i]);
	return rc;
}

/* Worst first: an input error, a failure (an export), a regression. */
static int worse(int a, int b)
{
	static const int rank[] = {CBENCH_EXIT_USAGE, CBENCH_EXIT_FAILURE,
				   CBENCH_EXIT_REGRESSION};
	for (size_t i = 0; i < sizeof rank / sizeof *rank; i++)
		if (a == rank[i] || b == rank[i])
			return rank[i];
	return a;
}

/* A --fail-if-slower-for NAME that no compared benchmark has would set
 * nothing: say so. */
static void warn_unmatched_thresholds(const struct config *cfg,
				      const struct cmp_report *const *reps, size_t n)
{
	for (size_t k = 0; k < cfg->fail_for_names.n; k++) {
		const char *name = cfg->fail_for_names.v[k];
		bool found = false;
		for (size_t i = 0; i < n && !found; i++)
			for (size_t r = 0; r < reps[i]->n_rows && !found; r++) {
				const struct cmp_bench *b = reps[i]->rows[r].new;
				found = b && (strcmp(b->name, name) == 0 ||
					      (b->command && strcmp(b->command, name) == 0));
			}
		if (!found && n > 0)
			diag_warning("--fail-if-slower-for '%s': no compared benchmark "
				     "has that name or command line, so its threshold "
				     "applied to none", name);
	}
}

/* Show every gate's result g[0..n) (one per gate metric), write
 * --export-junit from them, free them; returns the exit code. */
static int show_gates(const struct config *cfg, struct gate_result *g, size_t n)
{
	int rc = CBENCH_EXIT_OK;
	const struct cmp_report *reps[MAX_GATES];
	size_t n_reps = 0;
	for (size_t i = 0; i < n; i++) {
		rc = worse(rc, show_gate(cfg, &g[i]));
		if (g[i].exit_code != CBENCH_EXIT_USAGE)
			reps[n_reps++] = &g[i].rep;
	}
	for (size_t i = 0; rc != CBENCH_EXIT_USAGE && i < cfg->n_exports; i++) {
		char err[DIAG_MSG_MAX];
		const struct export_req *x = &cfg->exports[i];
		if (x->format == EXPORT_JUNIT &&
		    export_junit_write(x->path, export_req_option(x), reps, n_reps,
				       cfg->require_resolution, err, sizeof err) != 0) {
			diag_error("%s", err);
			rc = worse(rc, CBENCH_EXIT_FAILURE);
		}
	}
	warn_unmatched_thresholds(cfg, reps, n_reps);
	/* --require-resolution: a pass that could not see a regression of
	 * the threshold is not a pass (a regression's 3 comes first). */
	for (size_t i = 0; cfg->require_resolution && i < n; i++)
		if (g[i].exit_code == CBENCH_EXIT_OK && g[i].unresolved &&
		    rc == CBENCH_EXIT_OK)
			rc = CBENCH_EXIT_UNRESOLVED;
	for (size_t i = 0; i < n; i++)
		gate_result_free(&g[i]);
	return rc;
}

/* The gate against a baseline (a file, or in `cbench compare` the first
 * file), shown.  Returns the exit code. */
static int gate(const struct config *cfg, const struct cmp_set *base,
		const struct cmp_set *new)
{
	struct gate_options opt = gate_options_from(cfg);
	struct gate_result g[MAX_GATES];
	for (size_t i = 0; i < gates.n; i++) {
		opt.metric = gates.metric[i];
		opt.threshold = metric_threshold(opt.metric, cfg->fail_if_slower);
		gate_run(&opt, base, new, &g[i]);
	}
	return show_gates(cfg, g, gates.n);
}

/* --reference CMD --fail-if-slower PCT without --baseline: the other
 * commands against the reference, measured in this invocation. */
static int gate_reference(const struct config *cfg, const struct bench_outcome *out,
			  const struct analysis *an)
{
	struct gate_options opt = gate_options_from(cfg);
	struct cmp_set *now = gate_from_results(out->results, out->n, "this run");
	now->simulated = simcpu_mode(cfg->counters) != SIM_OFF;
	struct gate_result g[MAX_GATES];
	for (size_t i = 0; i < gates.n; i++) {
		opt.metric = gates.metric[i];
		opt.threshold = metric_threshold(opt.metric, cfg->fail_if_slower);
		gate_run_reference(&opt, now, (size_t)out->reference, an,
				   out->order != ORDER_SEQUENTIAL, &g[i]);
	}
	int rc = show_gates(cfg, g, gates.n);
	gate_set_free(now);
	return rc;
}

/*
 * A results file marked "complete": false (its run was still going, or
 * was killed, interrupted or failed) is compared with a warning; with
 * --require-all it is refused.  Returns 0, or -1 (error printed).
 */
static int check_complete(const struct config *cfg, const struct cmp_set *s)
{
	if (s == NULL || !s->incomplete)
		return 0;
	char pending[64] = "";
	if (s->n_pending)
		snprintf(pending, sizeof pending, "; %zu benchmark%s still to come",
			 s->n_pending, s->n_pending == 1 ? "" : "s");
	if (cfg->require_all) {
		diag_error("%s is incomplete (its run was still going, or was "
			   "killed or interrupted%s): --require-all refuses it",
			   s->origin, pending);
		return -1;
	}
	diag_warning("%s is incomplete (its run was still going, or was killed "
		     "or interrupted%s): compared as it is", s->origin, pending);
	return 0;
}

/* After the run: the gate against the baseline or the reference, if
 * asked and the benchmarks completed.  Returns the exit code. */
static int gate_after_run(const struct config *cfg, const struct cmp_set *baseline,
			  const struct bench_outcome *out, const struct analysis *an)
{
	int exit_code = out->exit_code;
	if (baseline && exit_code == CBENCH_EXIT_OK) {
		struct cmp_set *now = gate_from_results(out->results, out->n, "this run");
		now->simulated = simcpu_mode(cfg->counters) != SIM_OFF;
		exit_code = gate(cfg, baseline, now);
		gate_set_free(now);
	} else if (baseline) {
		diag_note("not compared with the baseline: the benchmarks did not "
			  "complete");
	} else if (cfg->fail_if_slower_given && out->reference >= 0 &&
		   exit_code == CBENCH_EXIT_OK) {
		exit_code = gate_reference(cfg, out, an);
	} else if (cfg->fail_if_slower_given && out->reference >= 0) {
		diag_note("not gated against the reference: the benchmarks did "
			  "not complete");
	}
	return exit_code;
}

/* github-action-benchmark reads one direction per file: say where the
 * --metric metrics where higher is better went, rather than drop them. */
static void note_bigger_metrics(const struct config *cfg)
{
	bool small = false, big = false;
	for (size_t i = 0; i < cfg->n_exports; i++) {
		small |= cfg->exports[i].format == EXPORT_GITHUB_BENCHMARK;
		big |= cfg->exports[i].format == EXPORT_GITHUB_BENCHMARK_BIGGER;
	}
	for (int m = MET_CUSTOM_FIRST; small && !big && m < MET_COUNT; m++)
		if (metric_defined((enum metric_id)m) &&
		    metric_info((enum metric_id)m)->higher_is_better)
			diag_note("--export-github-benchmark holds the metrics where "
				  "lower is better; '%s' (higher is better) goes "
				  "in --export-github-benchmark-bigger FILE",
				  metric_info((enum metric_id)m)->key);
}

/* `cbench compare BASE NEW`: both files are read and checked, and the
 * report's destinations too, before anything is printed. */
static int run_compare(const struct config *cfg)
{
	struct cmp_set *base = NULL, *new = NULL;
	char err[DIAG_MSG_MAX];
	int rc = CBENCH_EXIT_USAGE;
	for (size_t i = 0; i < cfg->n_exports; i++)
		stdout_checked |= strcmp(cfg->exports[i].path, "-") == 0;
	struct export_files xf = cli_export_files(cfg);
	if (export_check_inputs(&xf, err, sizeof err) != 0 ||
	    export_check_stdout(&xf, err, sizeof err) != 0 ||
	    gate_load(cfg->compare_base, &base, err, sizeof err) != 0 ||
	    gate_load(cfg->compare_new, &new, err, sizeof err) != 0 ||
	    export_check_destinations(&xf, err, sizeof err) != 0)
		diag_error("%s", err);
	else if (gates_from(cfg) == 0 && check_complete(cfg, base) == 0 &&
		 check_complete(cfg, new) == 0)
		rc = gate(cfg, base, new);
	gate_set_free(base);
	gate_set_free(new);
	return rc;
}

/* `cbench report IN.json... -o OUT.html`: the page, or one error line.
 * Frees cfg. */
static int run_report(struct config *cfg)
{
	char err[DIAG_MSG_MAX];
	struct report_page_options po = cli_report_page_options(cfg);
	int rc = report_page_build(&po, err, sizeof err);
	if (rc != CBENCH_EXIT_OK)
		diag_error("%s", err);
	cli_free(cfg);
	return rc;
}

/* --baseline FILE: read and check it before anything runs. */
static int load_baseline(const struct config *cfg, struct cmp_set **base)
{
	char err[DIAG_MSG_MAX];
	if (gate_load(cfg->baseline, base, err, sizeof err) != 0) {
		diag_error("%s", err);
		return -1;
	}
	if (check_complete(cfg, *base) != 0) {
		gate_set_free(*base);
		*base = NULL;
		return -1;
	}
	for (size_t i = 0; i < gates.n; i++) {
		int m = gates.metric[i];
		if (m < 0 || gate_set_has(*base, m, true))
			continue;
		diag_error("--gate-metric %s: the baseline %s has no per-run %s%s",
			   gates.name[i], cfg->baseline, gates.name[i],
			   (*base)->format == CMP_FMT_HYPERFINE
			   ? " (a hyperfine file records only wall time)" : "");
		gate_set_free(*base);
		*base = NULL;
		return -1;
	}
	return 0;
}

/*
 * A gate's or an export's metric on a counter (task_clock, instructions,
 * ...): will this run count it?  Known from --counters and a probe of the
 * machine, before the first run, instead of after all of them.  opt: the
 * option that names it.
 */
static int check_one_counted(const struct config *cfg, const char *opt,
			     const char *name)
{
	int m = metric_lookup(name);
	if (m >= MET_SIM_FIRST && m < MET_SIM_END) {
		enum sim_mode sim = simcpu_mode(cfg->counters);
		if (sim == SIM_CACHE || (sim == SIM_COUNTS && m == MET_SIM_INSTRUCTIONS))
			return 0;
		diag_usage("%s %s: counted only with --counters %s (Valgrind's "
			   "simulated CPU%s)", opt, name,
			   m == MET_SIM_INSTRUCTIONS ? "sim" : "sim-cache",
			   m == MET_SIM_INSTRUCTIONS ? "" : " and caches");
		return -1;
	}
	int id = counters_lookup(name);
	if (id < 0)
		return 0;     /* wall, CPU, user, system time, peak RSS: always */
	struct counters *c = NULL;
	bool usage;
	char err[DIAG_MSG_MAX];
	if (counters_new(&c, cfg->counters, &usage, err, sizeof err) != 0)
		return 0;     /* bench_run reports it */
	bool counted = counters_enabled(c, (enum counter_id)id);
	const char *why = counters_dropped_reason(c);
	if (!counted) {
		if (cfg->counters)
			diag_usage("%s %s: not counted in this run "
				   "(--counters %s)", opt, name, cfg->counters);
		else
			diag_usage("%s %s: this machine cannot count it%s%s",
				   opt, name, why ? ": " : "", why ? why : "");
	}
	counters_free(c);
	return counted ? 0 : -1;
}

static int check_gate_counted(const struct config *cfg)
{
	const char *opt = cfg->gate_metric ? "--gate-metric" : "--fail-if-slower";
	for (size_t i = 0; i < gates.n; i++)
		if (gates.metric[i] >= 0 &&
		    check_one_counted(cfg, opt, gates.name[i]) != 0)
			return -1;
	if (cfg->export_metrics == NULL)
		return 0;
	char names[32][32], err[DIAG_MSG_MAX];
	int n = cli_parse_metric_list(cfg->export_metrics, names, 32, err, sizeof err);
	for (int k = 0; k < n; k++)
		if (check_one_counted(cfg, "--export-metrics", names[k]) != 0)
			return -1;
	return 0;
}

/* Does the baseline hold what is about to run?  Checked before running. */
static int check_baseline(const struct config *cfg, const struct cmp_set *base,
			  const struct plan *plan)
{
	char err[DIAG_MSG_MAX];
	struct cmp_set *planned = gate_from_plan(plan, "this run",
						 simcpu_mode(cfg->counters) != SIM_OFF);
	int rc = gate_check_match(base, planned, cfg->match_by, cfg->require_all,
				     err, sizeof err);
	if (rc != 0)
		diag_error("%s", err);
	gate_set_free(planned);
	return rc;
}

/* Every CPU of --pin, --pin-hooks and --pin-self is online (the lists'
 * syntax was checked by cli_parse).  0, or -1 with the message printed. */
static int check_cpus(const struct config *cfg)
{
	const struct {
		const char *list, *opt;
	} lists[] = {{cfg->pin, "--pin"}, {cfg->pin_hooks, "--pin-hooks"},
		     {cfg->pin_self, "--pin-self"}};
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		char err[DIAG_MSG_MAX];
		cpu_set_t set;
		if (lists[i].list == NULL || strcmp(lists[i].list, "none") == 0)
			continue;
		if (cpulist_parse(lists[i].list, &set, err, sizeof err) != 0 ||
		    cpulist_check_online("/", &set, err, sizeof err) != 0) {
			diag_error("%s %s: %s", lists[i].opt, lists[i].list, err);
			return -1;
		}
	}
	return 0;
}

/*
 * Everything checked once the plan is known and before the first run, so
 * that a mistake does not cost the user a whole run: the baseline holds
 * what is about to run and its gate metric will be counted; no file is
 * named twice and every --output can be created (usage errors, with the
 * --help hint); every export's destination takes the file.  Then the
 * report moves to stderr if an export takes stdout.  Returns
 * CBENCH_EXIT_OK or the exit code (message printed).
 */
static int before_running(const struct config *cfg,
			  const struct cmp_set *baseline, const struct plan *plan)
{
	char err[DIAG_MSG_MAX];
	if (check_cpus(cfg) != 0)
		return CBENCH_EXIT_USAGE;
	/* A native baseline against runs under Valgrind, or the reverse,
	 * compares nothing: said before the runs. */
	bool sim = simcpu_mode(cfg->counters) != SIM_OFF;
	if (baseline && baseline->n &&
	    gate_set_has(baseline, MET_SIM_INSTRUCTIONS, true) != sim) {
		diag_usage("%s%s was measured %s and this run would be %s: no "
			   "metric of one compares with the other's; %s",
			   cfg->baseline ? "the baseline " : "", baseline->origin, sim ? "natively" : "under Valgrind "
			   "(--counters sim)", sim ? "under Valgrind" : "native",
			   sim ? "measure the baseline with --counters sim too"
			   : "add --counters sim");
		return CBENCH_EXIT_USAGE;
	}
	if ((baseline && check_baseline(cfg, baseline, plan) != 0) ||
	    check_gate_counted(cfg) != 0)
		return CBENCH_EXIT_USAGE;
	struct export_files xf = cli_export_files(cfg);
	if (export_check_files(&xf, err, sizeof err) != 0) {
		diag_usage("%s", err);
		return CBENCH_EXIT_USAGE;
	}
	if (export_check_destinations(&xf, err, sizeof err) != 0) {
		diag_error("%s", err);
		return CBENCH_EXIT_USAGE;
	}
	for (size_t i = 0; i < cfg->n_exports; i++) {
		size_t links = export_hard_links(cfg->exports[i].path);
		if (links)
			diag_warning("%s '%s' has %zu other hard link%s: the file is "
				     "replaced by a new one, so %s keep%s the old "
				     "contents", export_req_option(&cfg->exports[i]),
				     cfg->exports[i].path, links, links == 1 ? "" : "s",
				     links == 1 ? "that link" : "those links",
				     links == 1 ? "s" : "");
	}
	if (report_to_stderr(cfg) != 0)
		return CBENCH_EXIT_FAILURE;
	return CBENCH_EXIT_OK;
}

/*
 * --history TARGET: opened (the file and its directory created if
 * missing, an older schema migrated) before anything runs, so that a
 * wrong target costs nothing (mi gets this machine's description, for
 * the exports too); with --baseline-history the gate's base is
 * read from it now too, from this machine's invocations.  Returns
 * CBENCH_EXIT_OK or the exit code (message printed).
 */
static int open_history(const struct config *cfg, const struct plan *plan,
			time_t started, struct machine_info *mi, struct history **h,
			struct cmp_set **base)
{
	char err[DIAG_MSG_MAX];
	sysinfo_collect(mi, started);
	*h = NULL;
	if (cfg->history == NULL)
		return CBENCH_EXIT_OK;
	int rc = history_open(cfg->history, true, h, err, sizeof err);
	if (rc == 0 && cfg->baseline_history) {
		struct cmp_set *planned = gate_from_plan(plan, "this run",
						 simcpu_mode(cfg->counters) != SIM_OFF);
		char fp[17];
		history_fingerprint(mi, fp);
		rc = history_base_set(*h, planned, cfg->match_by == MATCH_COMMAND,
				      fp, cfg->history_branch,
				      (size_t)cfg->history_window, base, err,
				      sizeof err);
		gate_set_free(planned);
	}
	if (rc == 0)
		return CBENCH_EXIT_OK;
	diag_error("%s", err);
	history_close(*h);
	*h = NULL;
	return rc == HISTORY_EINPUT ? CBENCH_EXIT_USAGE : CBENCH_EXIT_FAILURE;
}

/* What struct exports holds beside the caller's. */
static void exports_free(struct exports *ex)
{
	analysis_free(ex->an);
	free(ex->between_tau);
	free(ex->between_k);
}

/*
 * --precision with --history: how far each benchmark's mean moved between
 * its earlier invocations of this machine and commit (any commit outside
 * git), so that the goal is an interval that holds across reruns
 * (between.h).  Nothing learned is no error: the goal is then the
 * invocation's own interval, as without a history.
 */
static void learn_between(const struct config *cfg, const struct plan *plan,
			  struct history *h, const struct machine_info *mi,
			  struct exports *ex)
{
	if (h == NULL || !(cfg->precision > 0) ||
	    simcpu_mode(cfg->counters) != SIM_OFF)
		return;
	struct source_state src;
	sysinfo_source_state(NULL, &src);
	char fp[17], err[DIAG_MSG_MAX];
	history_fingerprint(mi, fp);
	struct cmp_set *planned = gate_from_plan(plan, "this run", false);
	ex->between_tau = xcalloc(plan->n, sizeof *ex->between_tau);
	ex->between_k = xcalloc(plan->n, sizeof *ex->between_k);
	if (history_between(h, planned, cfg->match_by == MATCH_COMMAND, fp,
			    src.commit[0] ? src.commit : NULL, ex->between_tau,
			    ex->between_k, err, sizeof err) != 0) {
		diag_warning("--precision: the history's earlier invocations "
			     "could not be read (%s): each benchmark's own "
			     "interval decides", err);
		for (size_t i = 0; i < plan->n; i++)
			ex->between_tau[i] = NAN;
	}
	gate_set_free(planned);
}

/* Record the invocation in the history, after its analysis: all of it in
 * one transaction, or (interrupted, or the store failing) nothing.
 * Returns 0, or -1 (message printed). */
static int record_history(const struct config *cfg, struct history **hp,
			  const struct exports *ex, const struct bench_outcome *out,
			  time_t started)
{
	struct history *h = *hp;
	if (h == NULL)
		return 0;
	size_t runs = 0;
	for (size_t i = 0; i < out->n; i++)
		runs += out->results[i]->n_runs;
	if (runs == 0 || spawn_stop_signal()) {
		diag_note("not recorded in the history: the benchmarks did not "
			  "complete");
		return 0;
	}
	/* The load average as the runs end, which covers their last minute
	 * (the one read at the start covers the minute before them). */
	struct machine_info m = ex->ctx.machine;
	double la[3];
	sysinfo_loadavg(la);
	if (la[0] >= 0)
		memcpy(m.loadavg, la, sizeof la);
	struct history_context c = {.when = started, .origin = "run",
		.argc = ex->ctx.argc, .argv = ex->ctx.argv,
		.machine = &m, .labels = cfg->history_labels.v,
		.n_labels = cfg->history_labels.n};
	sysinfo_source_state(NULL, &c.source);
	char err[DIAG_MSG_MAX];
	if (history_replaced(h)) {   /* deleted while the runs went on */
		diag_warning("the history %s was deleted or replaced during the "
			     "run: recording into the file now at that path",
			     cfg->history);   /* a file: nothing to mask */
		history_close(h);
		*hp = NULL;
		if (history_open(cfg->history, true, hp, err, sizeof err) != 0) {
			diag_error("%s", err);
			return -1;
		}
		h = *hp;
	}
	struct cmp_set *now = gate_from_results(out->results, out->n, "this run");
	now->simulated = simcpu_mode(cfg->counters) != SIM_OFF;
	int64_t id;
	int rc = history_record(h, &c, now, ex->an, &id, err, sizeof err);
	gate_set_free(now);
	if (rc != 0) {
		diag_error("%s", err);
		return -1;
	}
	char *target = history_redact(cfg->history);
	diag_note("recorded in the history %s as invocation %lld", target,
		  (long long)id);
	free(target);
	return 0;
}

/* --order sequential with several benchmarks is the user's choice, and a
 * risky one on a machine whose speed drifts: say so once, before anything
 * runs. */
static void warn_sequential(const struct plan *plan)
{
	/* Interleaving would run one benchmark in the state another's setup
	 * made (README, "Run order"). */
	if (plan->split_by_state && plan->order == ORDER_SEQUENTIAL)
		diag_note("each benchmark has its own --setup or --cleanup, so "
			  "each runs in turn, not interleaved with the others");
	else if (plan->split_by_state)
		diag_note("benchmarks with different --setup or --cleanup run in "
			  "%zu groups, one after another; only those of one group "
			  "are interleaved", plan->n_groups);
	else if (plan->n > 1 && plan->order == ORDER_SEQUENTIAL)
		diag_warning("--order sequential: each benchmark runs after the "
			     "other, so a change in the machine's speed during the "
			     "run reads as a difference between them; the intervals "
			     "allow for the drift they can see, but the default "
			     "(interleaved) is what makes a comparison fair");
}

/* How long `cbench system check` watches the other processes' CPU use. */
#define SYSTEM_BUSY_INTERVAL_S 0.5

/* The directory standing in for / in `cbench system`: CBENCH_SYSTEM_ROOT
 * (for tests: a fixture tree), else "/". */
static const char *system_root(void)
{
	const char *r = getenv("CBENCH_SYSTEM_ROOT");
	return r && r[0] ? r : "/";
}

/* `cbench system check`: read, judge, measure the noise, print.  The
 * check only informs: its exit status is 0 unless printing fails. */
static int system_check(const struct config *cfg, const char *root)
{
	struct check_readings r;
	struct syscheck c;
	syscheck_read(root, SYSTEM_BUSY_INTERVAL_S, &r);
	syscheck_judge(&r, &c);
	struct noise_result noise;
	bool measured = false;
	if (cfg->system_runs > 0) {
		char exe[4096], err[DIAG_MSG_MAX];
		ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
		exe[n > 0 ? n : 0] = '\0';
		install_signals();
		if (n <= 0)
			diag_warning("noise not measured: cannot find cbench itself "
				     "(/proc/self/exe: %s)", strerror(errno));
		else if (noise_measure(exe, cfg->system_runs, 0.95, &noise, err,
				       sizeof err) != 0)
			diag_warning("noise not measured: %s", err);
		else
			measured = true;
		if (spawn_stop_signal())
			return 128 + spawn_stop_signal();
	}
	if (cfg->system_json) {
		return system_text_check_json(stdout, root, &c, measured ? &noise : NULL)
		       == 0 ? CBENCH_EXIT_OK : CBENCH_EXIT_FAILURE;
	}
	system_text_check(stdout, &c, measured ? &noise : NULL,
			  terminal_style(cfg).color);
	return CBENCH_EXIT_OK;
}

/* `cbench system tune` and `reset`: root only on the real machine. */
static int system_tune(const struct config *cfg, const char *root)
{
	bool tune = cfg->system_action == SYSTEM_TUNE;
	const char *verb = tune ? "tune" : "reset";
	if (strcmp(root, "/") == 0 && geteuid() != 0) {
		diag_error("'cbench system %s' changes system settings: run it as "
			   "root (sudo cbench system %s)", verb, verb);
		return CBENCH_EXIT_FAILURE;
	}
	char err[DIAG_MSG_MAX];
	struct systune_log log;
	int rc = tune ? systune_apply(root, &log, err, sizeof err)
		      : systune_reset(root, &log, err, sizeof err);
	if (rc < 0) {
		diag_error("%s", err);
		systune_log_free(&log);
		return CBENCH_EXIT_FAILURE;
	}
	if (rc == 1)
		printf("reset: nothing saved, nothing to restore\n");
	else
		system_text_tune(stdout, verb, root, &log);
	systune_log_free(&log);
	return CBENCH_EXIT_OK;
}

static int run_system(const struct config *cfg)
{
	const char *root = system_root();
	switch (cfg->system_action) {
	case SYSTEM_SPIN: {
		volatile unsigned long sink = noise_spin();
		(void)sink;
		return CBENCH_EXIT_OK;
	}
	case SYSTEM_CHECK:
		return system_check(cfg, root);
	case SYSTEM_TUNE:
	case SYSTEM_RESET:
		return system_tune(cfg, root);
	default:
		return CBENCH_EXIT_USAGE;
	}
}

/* Interrupted before the last benchmarks started: say which never ran
 * (their report would otherwise just be missing). */
static void tell_never_ran(const struct plan *plan, const struct bench_outcome *out)
{
	if (!spawn_stop_signal() || out->n >= plan->n)
		return;
	size_t left = plan->n - out->n;
	char names[DIAG_MSG_MAX] = "";
	size_t len = 0;
	for (size_t i = out->n; i < plan->n && len < sizeof names - 1; i++) {
		int w = snprintf(names + len, sizeof names - len, "%s%zu: %s",
				 i > out->n ? "; " : "", i + 1, plan->bench[i].name);
		len += w > 0 ? (size_t)w : 0;
	}
	if (len >= sizeof names - 1)
		memcpy(names + sizeof names - 4, "...", 4);
	diag_warning("interrupted: %zu of %zu benchmark%s never ran (%s)", left,
		     plan->n, plan->n == 1 ? "" : "s", names);
}

/* Nothing cbench reads is one of the files it writes, and at most one
 * export goes to stdout: 0, or -1 after the usage error. */
static int check_paths(const struct config *cfg)
{
	char err[DIAG_MSG_MAX];
	struct export_files xf = cli_export_files(cfg);
	if (export_check_inputs(&xf, err, sizeof err) != 0 ||
	    export_check_stdout(&xf, err, sizeof err) != 0) {
		diag_usage("%s", err);
		return -1;
	}
	return 0;
}

/* What the command line asks for besides running: --help (of cbench or a
 * subcommand), --version, --list-options. */
static void print_action(const struct config *cfg)
{
	if (cfg->action == CLI_HELP && cfg->system_mode)
		cli_print_system_help(stdout);
	else if (cfg->action == CLI_HELP && cfg->report_mode)
		cli_print_report_help(stdout);
	else if (cfg->action == CLI_HELP)
		cli_print_help(stdout, cfg->compare_mode);
	else if (cfg->action == CLI_VERSION)
		cli_print_version(stdout);
	else if (cfg->action == CLI_LIST_OPTIONS)
		cli_list_options(stdout);
}

/* `cbench report|system|compare|history ...`: run it, free cfg and say
 * true (its exit code in *exit_code); false for a benchmark run. */
static bool run_subcommand(struct config *cfg, int *exit_code)
{
	if (cfg->report_mode) {
		*exit_code = run_report(cfg);
		return true;
	}
	if (cfg->system_mode)
		*exit_code = run_system(cfg);
	else if (cfg->compare_mode || cfg->history_mode) {
		for (size_t i = 0; i < cfg->n_exports; i++)
			stdout_checked |= strcmp(cfg->exports[i].path, "-") == 0;
		*exit_code = cfg->history_mode
			? history_text_main(cfg->history_argc, cfg->history_argv)
			: run_compare(cfg);
	} else {
		return false;
	}
	cli_free(cfg);
	return true;
}

static int run(int argc, char **argv)
{
	struct config cfg;
	int exit_code;

	time_t started = time(NULL);
	stats_init();
	if (cli_parse(argc, argv, &cfg, &exit_code) != 0) {
		print_action(&cfg);
		cli_free(&cfg);
		return exit_code;
	}
	/* hyperfine's --style none writes nothing but errors; --quiet
	 * leaves out the notes. */
	diag_set_quiet(cfg.style == STYLE_NONE);
	diag_set_notes(!cfg.quiet);
	note_bigger_metrics(&cfg);
	/* compare: after the files are read, which may define metrics */
	if (!cfg.compare_mode && gates_from(&cfg) != 0) {
		cli_free(&cfg);
		return CBENCH_EXIT_USAGE;
	}
	if (run_subcommand(&cfg, &exit_code))
		return exit_code;
	if (check_paths(&cfg) != 0) {
		cli_free(&cfg);
		return CBENCH_EXIT_USAGE;
	}
	struct cmp_set *baseline = NULL;
	if (cfg.baseline && load_baseline(&cfg, &baseline) != 0) {
		cli_free(&cfg);
		return CBENCH_EXIT_USAGE;
	}

	struct plan plan;
	char err[DIAG_MSG_MAX];
	struct plan_options popt = cli_plan_options(&cfg);
	if (planner_build(&popt, &plan, err, sizeof err) != 0) {
		diag_usage("%s", err);
		gate_set_free(baseline);
		cli_free(&cfg);
		return CBENCH_EXIT_USAGE;
	}
	warn_sequential(&plan);
	struct machine_info machine;
	struct history *hist;
	exit_code = open_history(&cfg, &plan, started, &machine, &hist, &baseline);
	if (exit_code == CBENCH_EXIT_OK)
		exit_code = before_running(&cfg, baseline, &plan);
	if (exit_code != CBENCH_EXIT_OK) {
		history_close(hist);
		gate_set_free(baseline);
		planner_free(&plan);
		cli_free(&cfg);
		return exit_code;
	}
	struct export_options xo = cli_export_options(&cfg);
	struct analysis_options aopt = xo.analysis;
	aopt.paired = plan.order != ORDER_SEQUENTIAL;
	struct exports ex = {.cfg = &cfg, .an = analysis_new(&aopt),
			     .ctx = {.opts = &xo, .argc = argc, .argv = shown,
				     .plan = &plan}};
	ex.ctx.machine = machine;
	learn_between(&cfg, &plan, hist, &machine, &ex);
	/* The git state is for the exports: read it (git runs) only for them. */
	if (cfg.n_exports)
		sysinfo_source_state(NULL, &ex.ctx.source);
	else
		ex.ctx.source.dirty = -1;
	syscheck_watch_start(&ex.watch, "/", &machine);

	install_signals();
	struct bench_outcome out;
	run_benchmarks(&cfg, &plan, &ex, &out);

	tell_never_ran(&plan, &out);
	struct text_style st = terminal_style(&cfg);
	analysis_update(ex.an, out.results, out.n, out.reference);
	if (out.n > 1)
		text_summary(&st, ex.an, out.results);
	write_exports(&ex, &out, true);
	note_bmf_names(&cfg, &out);
	exit_code = gate_after_run(&cfg, baseline, &out, ex.an);
	gate_set_free(baseline);
	ex.failed |= record_history(&cfg, &hist, &ex, &out, started) != 0;
	history_close(hist);
	if (ex.failed && (exit_code == CBENCH_EXIT_OK ||
			  exit_code == CBENCH_EXIT_REGRESSION))
		exit_code = CBENCH_EXIT_FAILURE;
	/* Interrupted after the last run (during the summary or the
	 * exports, which were finished): still say so. */
	if (exit_code == CBENCH_EXIT_OK && spawn_stop_signal())
		exit_code = 128 + spawn_stop_signal();

	exports_free(&ex);
	bench_free_outcome(&out);
	planner_free(&plan);
	cli_free(&cfg);
	return exit_code;
}

/* cbench's command line as exports and the history keep it: a
 * PostgreSQL password in a word masked (history_redact). */
static char **shown_argv(int argc, char **argv)
{
	char **v = xcalloc((size_t)argc + 1, sizeof *v);
	for (int i = 0; i < argc; i++)
		v[i] = strstr(argv[i], "postgres") ? history_redact(argv[i])
						   : xstrdup(argv[i]);
	return v;
}

int main(int argc, char **argv)
{
	ensure_std_fds();
	/* From the start: a file-size limit must fail a write (the history's
	 * opening too) with EFBIG, reported, not kill cbench. */
	signal(SIGXFSZ, SIG_IGN);
	shown = shown_argv(argc, argv);
	int rc = finish_stdout(run(argc, argv));
	for (int i = 0; i < argc; i++)
		free(shown[i]);
	free(shown);
	return rc;
}
