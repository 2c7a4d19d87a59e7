/*
 * bench.c: executes a plan with the frozen-exec engine (see bench.h).
 *
 * Commands without shell syntax are split into words and executed directly
 * (GNU make's rule); the others run under a shell whose start-up cost is
 * calibrated once, by running `SHELL -c ''`, and subtracted from time and
 * from every counter of those runs, never below zero.
 */
#include "bench.h"
#include "cmdline.h"
#include "diag.h"
#include "export_text.h"
#include "spawn.h"
#include "stats.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

/* Runs used to calibrate the shell's start-up cost (after 3 warmups). */
#define SHELL_CALIBRATION_RUNS 20

struct prepared {
	char *path;
	char **argv;
	bool via_shell;
};

struct ctx {
	const struct config *cfg;
	struct counters *ctr;
	struct text_style style;
	char *shell_path;
	const char *shell_name;
	bool calibrated;
	double overhead[MET_COUNT];
	char **envp;
	char iter_slot[64];
	int stdin_fd;
	bool told_fallback;
	char err[DIAG_MSG_MAX];
};

static void prepared_free(struct prepared *p)
{
	free(p->path);
	cmdline_free(p->argv);
	memset(p, 0, sizeof *p);
}

/* Describe an exec failure the way a user wants to read it. */
static void exec_error(const char *what, const char *prog, int e)
{
	switch (e) {
	case ENOENT:
		diag_error("%scommand '%s' not found", what, prog);
		break;
	case EACCES:
		diag_error("%scommand '%s': permission denied", what, prog);
		break;
	case ENOEXEC:
		diag_error("%scommand '%s' is not an executable (exec format error)",
			   what, prog);
		break;
	default:
		diag_error("%scommand '%s' cannot be executed: %s", what, prog,
			   strerror(e));
		break;
	}
}

static int prepare(struct ctx *x, const char *line, bool force_shell,
		   struct prepared *p, const char *what)
{
	const struct config *cfg = x->cfg;
	bool shell = cfg->shell_mode == SHELL_FORCE || force_shell ||
		     (cfg->shell_mode == SHELL_AUTO && cmdline_needs_shell(line));
	memset(p, 0, sizeof *p);
	if (cfg->shell_mode == SHELL_NONE && !force_shell) {
		p->argv = cmdline_split(line, x->err, sizeof x->err);
		if (p->argv == NULL) {
			diag_error("%scannot split '%s' into words (--shell=none): %s",
				   what, line, x->err);
			return -1;
		}
	} else if (shell) {
		p->via_shell = true;
		p->argv = xcalloc(4, sizeof *p->argv);
		p->argv[0] = xstrdup(x->shell_name);
		p->argv[1] = xstrdup("-c");
		p->argv[2] = xstrdup(line);
		p->path = xstrdup(x->shell_path);
		return 0;
	} else {
		p->argv = cmdline_split(line, x->err, sizeof x->err);
		if (p->argv == NULL) {
			diag_error("%scommand is empty", what);
			return -1;
		}
	}
	p->path = cmdline_resolve(p->argv[0]);
	if (p->path == NULL) {
		exec_error(what, p->argv[0], errno);
		prepared_free(p);
		return -1;
	}
	return 0;
}

static void set_iteration(struct ctx *x, const char *fmt, size_t k)
{
	snprintf(x->iter_slot, sizeof x->iter_slot, fmt, k);
}

/* Environment: ours, with CBENCH_ITERATION in a slot rewritten per run. */
static void build_env(struct ctx *x)
{
	size_t n = 0;
	for (char **e = environ; *e; e++)
		n++;
	x->envp = xcalloc(n + 2, sizeof *x->envp);
	size_t k = 0;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "CBENCH_ITERATION=", 17) != 0)
			x->envp[k++] = *e;
	x->envp[k++] = x->iter_slot;
	x->envp[k] = NULL;
	set_iteration(x, "CBENCH_ITERATION=%zu", 0);
}

static enum spawn_output output_mode(const char *o, int *fd, const char **path)
{
	*fd = -1;
	*path = NULL;
	if (o == NULL || strcmp(o, "null") == 0)
		return SPAWN_OUT_NULL;
	if (strcmp(o, "pipe") == 0)
		return SPAWN_OUT_PIPE;
	if (strcmp(o, "inherit") == 0)
		return SPAWN_OUT_INHERIT;
	*path = o;
	return SPAWN_OUT_FD;
}

static int run(struct ctx *x, const struct prepared *p, enum spawn_output out,
	       int out_fd, bool measured, struct spawn_result *res)
{
	if (x->stdin_fd >= 0)
		lseek(x->stdin_fd, 0, SEEK_SET);
	struct spawn_cmd cmd = {
		.path = p->path,
		.argv = p->argv,
		.envp = x->envp,
		.stdin_fd = x->stdin_fd,
		.output = out,
		.stdout_fd = out_fd,
		.timeout_s = x->cfg->timeout_s,
		.counters = measured ? x->ctr : NULL,
	};
	if (spawn_run(&cmd, res, x->err, sizeof x->err) != 0) {
		diag_error("%s", x->err);
		return -1;
	}
	if (!x->told_fallback && spawn_ptrace_errno()) {
		x->told_fallback = true;
		diag_warning("ptrace is refused here (%s): counters still start at "
			     "exec (enable_on_exec), but wall time now includes the "
			     "exec itself", strerror(spawn_ptrace_errno()));
	}
	return 0;
}

/* Run an unmeasured helper command (setup, prepare, ...).  0 on success. */
static int run_hook(struct ctx *x, const char *kind, const char *line,
		    enum spawn_output out, int out_fd)
{
	struct prepared p;
	char what[64];
	snprintf(what, sizeof what, "--%s: ", kind);
	if (prepare(x, line, false, &p, what) != 0)
		return -1;
	struct spawn_result res;
	int rc = run(x, &p, out, out_fd, false, &res);
	prepared_free(&p);
	if (rc != 0)
		return -1;
	switch (res.outcome) {
	case SPAWN_EXITED:
		if (res.code == 0)
			return 0;
		diag_error("the --%s command '%s' failed with exit code %d; append "
			   "' || true' to it to ignore its failure", kind, line, res.code);
		return -1;
	case SPAWN_SIGNALED:
		diag_error("the --%s command '%s' was terminated by signal %s (%s)",
			   kind, line, spawn_signal_name(res.code), strsignal(res.code));
		return -1;
	case SPAWN_TIMED_OUT:
		diag_error("the --%s command '%s' timed out", kind, line);
		return -1;
	case SPAWN_INTERRUPTED:
		return -2;
	case SPAWN_EXEC_FAILED:
		exec_error(what, line, res.exec_errno);
		return -1;
	}
	return -1;
}

/* Is this exit status one the user asked to ignore? */
static bool ignored(const struct config *cfg, const struct spawn_result *r)
{
	if (!cfg->ignore_failure)
		return false;
	if (cfg->ignore_codes == NULL)
		return true;
	if (r->outcome != SPAWN_EXITED)
		return false;
	for (size_t i = 0; i < cfg->n_ignore_codes; i++)
		if (cfg->ignore_codes[i] == r->code)
			return true;
	return false;
}

/*
 * Check a measured (or warmup) run.  Returns 0 to record it, 1 to record it
 * as failed-but-ignored, -1 to stop with exit 1, -2 when interrupted.
 */
static int check_run(struct ctx *x, const struct plan_bench *b,
		     const struct spawn_result *r, const char *run_name)
{
	switch (r->outcome) {
	case SPAWN_INTERRUPTED:
		return -2;
	case SPAWN_EXEC_FAILED:
		exec_error("", b->command, r->exec_errno);
		return -1;
	case SPAWN_EXITED:
		if (r->code == 0)
			return 0;
		if (ignored(x->cfg, r))
			return 1;
		diag_error("command '%s' exited with code %d in %s; use "
			   "-i/--ignore-failure to keep going", b->command, r->code,
			   run_name);
		return -1;
	case SPAWN_SIGNALED:
		if (ignored(x->cfg, r))
			return 1;
		diag_error("command '%s' terminated by signal %s (%s) in %s",
			   b->command, spawn_signal_name(r->code), strsignal(r->code),
			   run_name);
		return -1;
	case SPAWN_TIMED_OUT:
		if (x->cfg->ignore_failure)
			return 1;
		diag_error("command '%s' timed out after %g s in %s (its process "
			   "group was killed); use -i/--ignore-failure to keep going",
			   b->command, x->cfg->timeout_s, run_name);
		return -1;
	}
	return -1;
}

static void enable_metrics(struct ctx *x, struct bench_result *r)
{
	for (int m = 0; m < MET_CTR_FIRST; m++)
		results_enable(r, (enum metric_id)m);
	for (int k = 0; k < CTR_MAX; k++)
		if (counters_enabled(x->ctr, (enum counter_id)k))
			results_enable(r, (enum metric_id)(MET_CTR_FIRST + k));
}

/* Calibrate the shell's start-up cost: mean of each metric over
 * `SHELL -c ''` runs.  Returns 0, -1 on error, -2 if interrupted. */
static int calibrate_shell(struct ctx *x)
{
	struct prepared p = {0};
	p.path = xstrdup(x->shell_path);
	p.argv = xcalloc(4, sizeof *p.argv);
	p.argv[0] = xstrdup(x->shell_name);
	p.argv[1] = xstrdup("-c");
	p.argv[2] = xstrdup("");
	p.via_shell = true;

	double sum[MET_COUNT] = {0};
	size_t cnt[MET_COUNT] = {0};
	int rc = 0;
	for (int i = 0; i < 3 + SHELL_CALIBRATION_RUNS; i++) {
		struct spawn_result res;
		set_iteration(x, "CBENCH_ITERATION=calibration-%zu", (size_t)i + 1);
		if (run(x, &p, SPAWN_OUT_NULL, -1, true, &res) != 0) {
			rc = -1;
			break;
		}
		if (res.outcome == SPAWN_INTERRUPTED) {
			rc = -2;
			break;
		}
		if (res.outcome != SPAWN_EXITED || res.code != 0) {
			diag_error("the shell '%s' failed to run an empty command "
				   "(calibration)", x->shell_path);
			rc = -1;
			break;
		}
		if (i < 3)
			continue;
		double v[MET_COUNT];
		results_values_from_spawn(&res, v);
		for (int m = 0; m < MET_COUNT; m++)
			if (isfinite(v[m])) {
				sum[m] += v[m];
				cnt[m]++;
			}
	}
	prepared_free(&p);
	if (rc != 0)
		return rc;
	for (int m = 0; m < MET_COUNT; m++)
		x->overhead[m] = cnt[m] && metric_info((enum metric_id)m)->shell_corrected
				 ? sum[m] / (double)cnt[m] : 0;
	x->calibrated = true;
	char faults[32];
	text_count(x->overhead[MET_CTR_FIRST + CTR_PAGE_FAULTS], faults, sizeof faults);
	diag_note("shell syntax: running such commands under '%s'; its start-up "
		  "(%.3f ms wall, %s page faults, calibrated over %d runs) is "
		  "subtracted", x->shell_path, x->overhead[MET_WALL] * 1e3,
		  faults, SHELL_CALIBRATION_RUNS);
	return 0;
}

static void warn_setuid(const struct prepared *p)
{
	struct stat st;
	if (geteuid() == 0 || p->via_shell || stat(p->path, &st) != 0)
		return;
	if (st.st_mode & (S_ISUID | S_ISGID))
		diag_warning("'%s' is set%s; under the frozen-exec engine (ptrace) it "
			     "runs without that privilege", p->path,
			     (st.st_mode & S_ISUID) ? "uid" : "gid");
}

static size_t progress_total(const struct config *cfg, const struct bench_result *r)
{
	if (cfg->runs > 0)
		return (size_t)cfg->runs;
	size_t want = (size_t)cfg->min_runs;
	if (r->n_runs > 0 && cfg->precision <= 0) {
		double mean = r->total_wall_s / (double)r->n_runs;
		if (mean > 0) {
			double by_time = ceil(cfg->min_time_s / mean);
			if (by_time > (double)want)
				want = by_time > 1e9 ? 1000000000 : (size_t)by_time;
		}
	}
	if (cfg->max_runs > 0 && want > (size_t)cfg->max_runs)
		want = (size_t)cfg->max_runs;
	return want;
}

static const char *stop_text(enum stop_reason s, const struct config *cfg,
			     char *buf, size_t len)
{
	switch (s) {
	case STOP_MAX_RUNS:
		snprintf(buf, len, "stopped at --max-runs %ld before reaching %s",
			 cfg->max_runs, cfg->precision > 0 ? "--precision" : "--min-time");
		return buf;
	case STOP_MAX_TIME:
		snprintf(buf, len, "stopped at --max-time %g s before reaching %s",
			 cfg->max_time_s, cfg->precision > 0 ? "--precision" : "--min-runs");
		return buf;
	default:
		return NULL;
	}
}

/* Relative half-width of the mean's CI from the wall-time column. */
static double rel_halfwidth(const struct config *cfg, const struct bench_result *r)
{
	if (cfg->precision <= 0 || r->n_runs < 2)
		return NAN;
	struct stats_summary s;
	if (stats_summarize(r->col[MET_WALL], r->n_runs, cfg->confidence, &s) != 0 || s.mean <= 0)
		return NAN;
	return stats_mean_halfwidth(&s, cfg->confidence) / s.mean;
}

/* Run one benchmark.  Returns 0, -1 (stop, exit 1), -2 (interrupted). */
static int run_bench(struct ctx *x, const struct plan_bench *b, size_t index,
		     struct bench_result *r)
{
	const struct config *cfg = x->cfg;
	struct prepared p;
	int rc = 0;

	if (prepare(x, b->command, false, &p, "") != 0)
		return -1;
	r->via_shell = p.via_shell;
	warn_setuid(&p);
	if (p.via_shell && !x->calibrated) {
		rc = calibrate_shell(x);
		if (rc != 0) {
			prepared_free(&p);
			return rc;
		}
	}

	const char *out_path;
	int out_fd;
	enum spawn_output out = output_mode(b->output, &out_fd, &out_path);
	if (out == SPAWN_OUT_FD) {
		out_fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (out_fd < 0) {
			diag_error("cannot open --output file '%s': %s", out_path,
				   strerror(errno));
			prepared_free(&p);
			return -1;
		}
	}
	enum spawn_output hook_out = out == SPAWN_OUT_INHERIT ? out : SPAWN_OUT_NULL;

	text_bench_header(&x->style, index, r);
	if (b->setup && (rc = run_hook(x, "setup", b->setup, hook_out, -1)) != 0)
		goto done;

	char run_name[64];
	for (long k = 1; k <= cfg->warmup; k++) {
		if (b->prepare &&
		    (rc = run_hook(x, "prepare", b->prepare, hook_out, -1)) != 0)
			goto done;
		set_iteration(x, "CBENCH_ITERATION=warmup-%zu", (size_t)k);
		struct spawn_result res;
		if ((rc = run(x, &p, out, out_fd, false, &res)) != 0)
			goto done;
		snprintf(run_name, sizeof run_name, "warmup run %ld", k);
		int c = check_run(x, b, &res, run_name);
		if (c < 0) {
			rc = c;
			goto done;
		}
		if (b->conclude &&
		    (rc = run_hook(x, "conclude", b->conclude, hook_out, -1)) != 0)
			goto done;
		text_progress(&x->style, "Warmup", (size_t)k, (size_t)cfg->warmup, NAN);
	}

	enum stop_reason why;
	while ((why = planner_next(cfg, r->n_runs, r->total_wall_s,
				   rel_halfwidth(cfg, r))) == STOP_CONTINUE) {
		if (b->prepare &&
		    (rc = run_hook(x, "prepare", b->prepare, hook_out, -1)) != 0)
			break;
		set_iteration(x, "CBENCH_ITERATION=%zu", r->n_runs);
		struct spawn_result res;
		if ((rc = run(x, &p, out, out_fd, true, &res)) != 0)
			break;
		snprintf(run_name, sizeof run_name, "run %zu", r->n_runs + 1);
		int c = check_run(x, b, &res, run_name);
		if (c < 0) {
			rc = c;
			break;
		}
		double v[MET_COUNT];
		results_values_from_spawn(&res, v);
		if (p.via_shell)
			for (int m = 0; m < MET_COUNT; m++)
				if (isfinite(v[m]) && x->overhead[m] > 0)
					v[m] = v[m] > x->overhead[m] ? v[m] - x->overhead[m] : 0;
		uint8_t flags = 0;
		if (c == 1)
			flags |= res.outcome == SPAWN_TIMED_OUT ? RUN_TIMED_OUT | RUN_FAILED
								: RUN_FAILED;
		if (!res.exec_exact)
			r->exec_exact = false;
		int code = res.outcome == SPAWN_SIGNALED ? -res.code
			   : res.outcome == SPAWN_TIMED_OUT ? -9 : res.code;
		results_add_run(r, v, code, flags);
		if (b->conclude &&
		    (rc = run_hook(x, "conclude", b->conclude, hook_out, -1)) != 0)
			break;
		text_progress(&x->style, "Current", r->n_runs, progress_total(cfg, r),
			      r->total_wall_s / (double)r->n_runs);
	}
	if (rc == 0) {
		char buf[160];
		const char *t = stop_text(why, cfg, buf, sizeof buf);
		if (t)
			r->stop_reason = xstrdup(t);
	}
	text_progress_clear(&x->style);
	if (rc == -2)
		r->interrupted = true;
	if (rc != -2 && b->cleanup) {
		int c = run_hook(x, "cleanup", b->cleanup, hook_out, -1);
		if (c != 0 && rc == 0)
			rc = c;
	}
done:
	text_progress_clear(&x->style);
	if (rc != -1)
		text_bench_report(&x->style, r);
	if (out_fd >= 0 && out == SPAWN_OUT_FD)
		close(out_fd);
	prepared_free(&p);
	return rc;
}

void bench_run(const struct config *cfg, const struct plan *plan,
	       bench_done_fn on_done, void *arg, struct bench_outcome *out)
{
	struct ctx x = {.cfg = cfg, .stdin_fd = -1};
	memset(out, 0, sizeof *out);
	out->reference = -1;
	out->exit_code = CBENCH_EXIT_OK;
	x.style = text_style_from(cfg);

	if (spawn_init(x.err, sizeof x.err) != 0) {
		diag_error("%s", x.err);
		out->exit_code = CBENCH_EXIT_FAILURE;
		return;
	}
	bool usage;
	if (counters_new(&x.ctr, cfg->counters, &usage, x.err, sizeof x.err) != 0) {
		diag_error("%s", x.err);
		out->exit_code = usage ? CBENCH_EXIT_USAGE : CBENCH_EXIT_FAILURE;
		spawn_shutdown();
		return;
	}
	if (counters_dropped_reason(x.ctr))
		diag_note("%s", counters_dropped_reason(x.ctr));
	out->pmu = counters_have_pmu(x.ctr);
	out->user_only = counters_user_only(x.ctr);

	x.shell_name = cfg->shell_mode == SHELL_FORCE ? cfg->shell : "sh";
	x.shell_path = cmdline_resolve(x.shell_name);
	bool need_shell = cfg->shell_mode == SHELL_FORCE;
	for (size_t i = 0; i < plan->n && !need_shell; i++)
		need_shell = cfg->shell_mode == SHELL_AUTO &&
			     cmdline_needs_shell(plan->bench[i].command);
	if (x.shell_path == NULL && need_shell) {
		diag_error("shell '%s' not found", x.shell_name);
		out->exit_code = cfg->shell_mode == SHELL_FORCE ? CBENCH_EXIT_USAGE
								 : CBENCH_EXIT_FAILURE;
		goto out;
	}
	if (cfg->input) {
		x.stdin_fd = open(cfg->input, O_RDONLY | O_CLOEXEC);
		if (x.stdin_fd < 0) {
			diag_usage("cannot read --input file '%s': %s", cfg->input,
				   strerror(errno));
			out->exit_code = CBENCH_EXIT_USAGE;
			goto out;
		}
	}
	build_env(&x);

	/* Resolve every command before the first run: a typo must not cost
	 * the user the benchmarks before it. */
	for (size_t i = 0; i < plan->n; i++) {
		struct prepared p;
		if (prepare(&x, plan->bench[i].command, false, &p, "") != 0) {
			out->exit_code = CBENCH_EXIT_FAILURE;
			goto out;
		}
		prepared_free(&p);
	}

	out->results = xcalloc(plan->n ? plan->n : 1, sizeof *out->results);
	for (size_t i = 0; i < plan->n; i++) {
		const struct plan_bench *b = &plan->bench[i];
		struct bench_result *r = results_new(b->name, b->command, b->params,
						     b->n_params);
		enable_metrics(&x, r);
		out->results[out->n++] = r;
		if (b->is_reference)
			out->reference = (long)i;
		int rc = run_bench(&x, b, i, r);
		if (x.calibrated && out->shell == NULL) {
			out->shell = xstrdup(x.shell_path);
			out->shell_overhead_s = x.overhead[MET_WALL];
		}
		out->exec_exact = spawn_ptrace_errno() == 0;
		if (on_done)
			on_done(arg, out);
		if (rc == -2) {
			int sig = spawn_stop_signal();
			out->exit_code = sig == SIGTERM ? CBENCH_EXIT_SIGTERM
							: CBENCH_EXIT_SIGINT;
			break;
		}
		if (rc != 0) {
			out->exit_code = CBENCH_EXIT_FAILURE;
			break;
		}
	}
out:
	if (x.stdin_fd >= 0)
		close(x.stdin_fd);
	free(x.envp);
	free(x.shell_path);
	counters_free(x.ctr);
	spawn_shutdown();
}

void bench_free_outcome(struct bench_outcome *out)
{
	for (size_t i = 0; i < out->n; i++)
		results_free(out->results[i]);
	free(out->results);
	free(out->shell);
	memset(out, 0, sizeof *out);
}
