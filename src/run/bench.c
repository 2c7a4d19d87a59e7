/*
 * bench.c: executes a plan with the frozen-exec engine (see bench.h).
 *
 * Commands without shell syntax are split into words and executed directly
 * (GNU make's rule); the others run under a shell whose start-up cost is
 * calibrated, by running `SHELL -c /path/to/true` against `true` run
 * directly (calibrate_shell), and subtracted from time and from every
 * counter of those runs, never below zero; each shell run's own wait to
 * be reaped after the shell exits is measured and taken off its wall time.
 *
 * Silent: every warning, note and error is a struct bench_message sent
 * through the caller's events, as are progress, starts and ends.
 */
#include "bench.h"
#include "between.h"
#include "cmdline.h"
#include "cpulist.h"
#include "diag.h"
#include "fileid.h"
#include "metric_output.h"
#include "simcpu.h"
#include "profile.h"
#include "export_text.h"
#include "spawn.h"
#include "stats.h"
#include "stats_robust.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* --randomize-layout: the variable hyperfine pads the environment with,
 * and the padding's range (hyperfine's: 0 to 4095 bytes). */
#define PAD_VAR "HYPERFINE_RANDOMIZED_ENVIRONMENT_OFFSET"
#define PAD_MAX 4096
/* --counters sim: the variable that keeps the environment's size. */
#define SIM_PAD_VAR "CBENCH_SIM_PAD"
#define SIM_PAD_WIDTH 96

/* Runs used to calibrate the shell's start-up cost (after 3 warmups). */
#define SHELL_CALIBRATION_RUNS 20

struct prepared {
	char *path;
	char **argv;
	bool via_shell;
	char **sim_argv;         /* --counters sim: a measured run's argv
				    under Valgrind, else NULL */
};

/* What a shell run's side band measured of the shell itself, NaN where
 * unknown (spawn_result.wake_s, reap_s, serial_s, shell_cpu_s): its
 * wake-up and later sleeps after its program (kept), cbench's wait to reap
 * it after it exited, its own time around the program, and its own time
 * on a CPU, and its own page faults. */
struct shell_own {
	double wake, reap, serial, cpu, faults;
};

static struct shell_own own_of(const struct spawn_result *res)
{
	return (struct shell_own){res->wake_s, res->reap_s, res->serial_s,
				  res->shell_cpu_s, res->shell_faults};
}

struct ctx {
	const struct bench_options *cfg;
	struct bench_events ev;
	struct counters *ctr;
	char *shell_path;
	const char *shell_name;
	/* Some benchmark's command runs under the shell: the shell is then
	 * calibrated when the first benchmark of all starts (begin), so that
	 * every measured run follows a calibration pair (bstate.pair_due). */
	bool shell_bench;
	bool calibrated;
	double overhead[MET_COUNT];
	double overhead_sd;      /* of the calibration's wall-time differences,
				    0 if unknown */
	double overhead_se[MET_COUNT];  /* standard error of overhead[] */
	size_t overhead_n;       /* calibration pairs */
	/* Every calibration pair's differences (shell minus direct) per
	 * metric, the 20 up front and one after each run, and the
	 * two no-op commands they run. */
	struct {
		double *d[MET_COUNT];
		size_t n[MET_COUNT], cap[MET_COUNT];
		struct prepared sh, direct;
		bool have_direct;
		size_t pairs;
		/* Each kept pair's wait to reap its shell
		 * (spawn_result.reap_s, NaN where unknown) and the shell's
		 * own times, beside its wall difference in d[MET_WALL],
		 * which still holds them: the estimate takes them off
		 * (without_reap), as from the runs. */
		struct shell_own *own;
		size_t cap_own;
		/* its shell's CPU time, beside its task-clock difference */
		double *task_cpu;
		size_t cap_task_cpu;
		/* its shell's own page faults, beside its page-fault
		 * difference */
		double *pf_own;
		size_t cap_pf_own;
		size_t n_faults;         /* of them measured */
		size_t n_reap, n_wake;   /* of them measured */
		size_t n_serial, n_cpu;
	} cal;
	double wake_med;         /* median of the pairs' wake (the JSON's) */
	double reap_med;         /* median of the pairs' reap (0: none measured): taken
				    off a shell run whose own is unknown */
	double serial_med;       /* median of the pairs' shell_own.serial (0:
				    none measured), and their spread (1.4826
				    MAD; 0: unknown) */
	double serial_sd;
	double cpu_med, cpu_sd;  /* the same of shell_own.cpu */
	double faults_med;       /* the median of the pairs' shell_own.faults,
				    rounded: taken off a shell run whose own
				    are unknown; and their spread */
	double faults_sd;
	bool faults_known;       /* faults_med holds measured pairs (set with
				    it, so that a run is never corrected
				    with a constant that still holds them) */
	char **envp;
	char iter_slot[64];
	char hf_slot[64];        /* HYPERFINE_ITERATION=..., at envp[hf_at] */
	size_t hf_at;
	int stdin_fd;
	struct outfile {
		const char *path;
		int fd;
	} *outs;                 /* --output files, each opened once */
	size_t n_outs;
	bool told_fallback;
	/* --pin / --pin-hooks / --pin-self and --aslr (see noise_setup):
	 * the sets the command and the hooks get, NULL to inherit cbench's. */
	cpu_set_t cmd_cpus, hook_cpus;
	const cpu_set_t *cmd_pin, *hook_pin;
	bool in_hook;            /* run() is starting a hook */
	int aslr;                /* SPAWN_ASLR_* */
	/* --randomize-layout: the padding variable (an envp slot), its
	 * generator and the size drawn for the last command run. */
	char *pad_slot;
	uint64_t pad_rng;
	int32_t pad;
	/* --counters sim, sim-cache: the simulated CPU, and an environment
	 * variable that keeps the environment's size the same in every run
	 * (its padding makes up for the iteration numbers' lengths). */
	struct simcpu *sim;
	enum sim_mode cfg_sim;
	char sim_pad[SIM_PAD_WIDTH + sizeof SIM_PAD_VAR + 1];
	char sim_version[32];
	bool keep_group;         /* this run is --setup's: keep its group */
	bool default_cap;        /* bench_default_cap() set cfg->max_time_s */
	size_t run_seq;          /* measured runs so far, all benchmarks */
	struct metric_output *mo;  /* --metric patterns and the memory file
				      outputs go to; NULL without --metric */
	char err[DIAG_MSG_MAX];
};

static void prepared_free(struct prepared *p)
{
	free(p->path);
	cmdline_free(p->argv);
	simcpu_argv_free(p->sim_argv);
	memset(p, 0, sizeof *p);
}

/*
 * Send a message: m's fields as given, text from fmt.  An error without an
 * exit code implies CBENCH_EXIT_FAILURE.
 */
__attribute__((format(printf, 3, 4)))
static void say(struct ctx *x, struct bench_message m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	size_t size = len > 0 ? (size_t)len + 1 : 1;
	char *text = xmalloc(size);
	va_start(ap, fmt);
	vsnprintf(text, size, fmt, ap);
	va_end(ap);
	m.text = text;
	if (m.severity >= BENCH_ERROR && m.exit_code == 0)
		m.exit_code = CBENCH_EXIT_FAILURE;
	if (x->ev.message)
		x->ev.message(x->ev.arg, &m);
	free(text);
}

/* An error message's fields, for say(). */
static struct bench_message error_of(enum bench_msg_kind kind, long bench,
				     const char *hook)
{
	return (struct bench_message){.severity = BENCH_ERROR, .kind = kind,
				      .bench = bench, .hook = hook};
}

/* Why a command was stopped by job control (SPAWN_STOPPED), for a message
 * that goes on "was stopped by SIGTTOU". */
static const char *stop_reason_text(int sig)
{
	return sig == SIGTSTP
	       ? "it suspended itself, and nothing would resume it"
	       : "it tried to use the terminal, which a benchmarked command "
		 "does not own (it runs in a process group of its own); "
		 "use --input FILE and --output FILE instead";
}

/* "--setup: " before a hook's messages, "" before the command's. */
static const char *hook_prefix(const char *hook, char *buf, size_t len)
{
	if (hook == NULL)
		return "";
	snprintf(buf, len, "--%s: ", hook);
	return buf;
}

/*
 * `cbench sleep 0.1` benchmarks 'sleep' and '0.1': when a command that is
 * not found is a whole one-word argument after another command, say that
 * each command is one argument and show the two quoted as one (empty
 * hint otherwise).
 */
static void unquoted_hint(const struct ctx *x, const char *hook,
			  const char *prog, char *hint, size_t len)
{
	const struct strlist *c = &x->cfg->commands;
	hint[0] = '\0';
	if (hook != NULL || strpbrk(prog, " \t'/"))
		return;
	for (size_t k = 1; k < c->n; k++)
		if (strcmp(c->v[k], prog) == 0 && !strchr(c->v[k - 1], '\'')) {
			snprintf(hint, len, " (each command is one argument: to "
				 "benchmark '%s %s', quote it: cbench '%s %s')",
				 c->v[k - 1], prog, c->v[k - 1], prog);
			return;
		}
}

/* Describe an exec failure the way a user wants to read it. */
static void exec_error(struct ctx *x, long bench, const char *hook,
		       const char *prog, int e)
{
	char buf[64];
	const char *what = hook_prefix(hook, buf, sizeof buf);
	struct bench_message m = error_of(BENCH_MSG_EXEC_FAILED, bench, hook);
	m.sys_errno = e;
	switch (e) {
	case ENOENT: {
		m.kind = BENCH_MSG_EXEC_NOT_FOUND;
		char hint[256];
		unquoted_hint(x, hook, prog, hint, sizeof hint);
		say(x, m, "%scommand '%s' not found%s", what, prog, hint);
		break;
	}
	case EACCES:
		m.kind = BENCH_MSG_EXEC_DENIED;
		say(x, m, "%scommand '%s': permission denied", what, prog);
		break;
	case ENOEXEC:
		m.kind = BENCH_MSG_EXEC_FORMAT;
		say(x, m, "%scommand '%s' is not an executable (exec format error): "
		    "a binary for another machine, or data, not a script "
		    "/bin/sh could run", what, prog);
		break;
	default:
		say(x, m, "%scommand '%s' cannot be executed: %s", what, prog,
		    strerror(e));
		break;
	}
}

/*
 * A script whose #! interpreter is missing fails to exec with ENOENT, which
 * would read "command './x' not found" although the file is there.  Returns
 * the missing interpreter's path (malloc'd) or NULL.
 */
static char *missing_interpreter(const char *path)
{
	char buf[256];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n < 2 || buf[0] != '#' || buf[1] != '!')
		return NULL;
	buf[n] = '\0';
	char *p = buf + 2;
	p += strspn(p, " \t");
	size_t len = strcspn(p, " \t\r\n");
	if (len == 0 || (p[len] == '\0' && n == (ssize_t)sizeof buf - 1))
		return NULL;  /* no interpreter, or a line too long to judge */
	p[len] = '\0';
	if (access(p, X_OK) == 0 || errno != ENOENT)
		return NULL;
	return xstrdup(p);
}

/*
 * Turn a command line into what spawn runs: its words and resolved path,
 * or the shell's.  bench and hook (NULL: the command itself) say whose it
 * is in a message.  0, or -1 with the error sent.
 */
static int prepare(struct ctx *x, const char *line, bool force_shell,
		   struct prepared *p, long bench, const char *hook)
{
	const struct bench_options *cfg = x->cfg;
	char buf[64];
	const char *what = hook_prefix(hook, buf, sizeof buf);
	struct bench_message m = error_of(BENCH_MSG_SPLIT_FAILED, bench, hook);
	bool shell = cfg->shell_mode == SHELL_FORCE || force_shell ||
		     (cfg->shell_mode == SHELL_AUTO && cmdline_needs_shell(line));
	memset(p, 0, sizeof *p);
	if (cfg->shell_mode == SHELL_NONE && !force_shell) {
		p->argv = cmdline_split(line, x->err, sizeof x->err);
		if (p->argv == NULL) {
			say(x, m, "%scannot split '%s' into words (--shell=none): %s",
			    what, line, x->err);
			return -1;
		}
	} else if (shell) {
		if (x->shell_path == NULL) {
			/* bench_run checks first; never a NULL path. */
			m.kind = BENCH_MSG_SHELL_NOT_FOUND;
			say(x, m, "%sshell '%s' not found", what, x->shell_name);
			return -1;
		}
		/* -S 'bash --norc': the shell's own words go before -c. */
		const char *const *args = cfg->shell_mode == SHELL_FORCE
					  ? cfg->shell_args : NULL;
		size_t na = 0;
		while (args && args[na])
			na++;
		p->via_shell = true;
		p->argv = xcalloc(na + 4, sizeof *p->argv);
		size_t k = 0;
		p->argv[k++] = xstrdup(x->shell_name);
		for (size_t i = 0; i < na; i++)
			p->argv[k++] = xstrdup(args[i]);
		p->argv[k++] = xstrdup("-c");
		p->argv[k++] = xstrdup(line);
		p->path = xstrdup(x->shell_path);
		return 0;
	} else {
		p->argv = cmdline_split(line, x->err, sizeof x->err);
		if (p->argv == NULL) {
			m.kind = BENCH_MSG_EMPTY_COMMAND;
			say(x, m, "%scommand is empty", what);
			return -1;
		}
	}
	p->path = cmdline_resolve(p->argv[0]);
	if (p->path == NULL) {
		exec_error(x, bench, hook, p->argv[0], errno);
		prepared_free(p);
		return -1;
	}
	return 0;
}

static void set_iteration(struct ctx *x, const char *fmt, size_t k)
{
	snprintf(x->iter_slot, sizeof x->iter_slot, fmt, k);
}

/*
 * HYPERFINE_ITERATION, for scripts written for hyperfine: its values
 * (hyperfine's BenchmarkIteration): warmup-0, warmup-1, ... for warmups,
 * 0, 1, ... for measured runs, and not set at all for anything else
 * (setup, prepare, conclude, cleanup, the shell's calibration).  It is the last variable of
 * the environment, so leaving it out is ending the array one earlier.
 */
static void set_hyperfine_iteration(struct ctx *x, bool set, const char *fmt,
				    size_t k)
{
	if (set)
		snprintf(x->hf_slot, sizeof x->hf_slot, fmt, k);
	x->envp[x->hf_at] = set ? x->hf_slot : NULL;
}

static bool env_is(const char *e, const char *name)
{
	size_t n = strlen(name);
	return strncmp(e, name, n) == 0 && e[n] == '=';
}

/* Environment: ours, with CBENCH_ITERATION and HYPERFINE_ITERATION in
 * slots rewritten per run. */
static void build_env(struct ctx *x)
{
	size_t n = 0;
	for (char **e = environ; *e; e++)
		n++;
	x->envp = xcalloc(n + 5, sizeof *x->envp);
	size_t k = 0;
	for (char **e = environ; *e; e++)
		if (!env_is(*e, "CBENCH_ITERATION") &&
		    !env_is(*e, "HYPERFINE_ITERATION") &&
		    !(x->pad_slot && env_is(*e, PAD_VAR)) &&
		    !(x->sim && env_is(*e, SIM_PAD_VAR)))
			x->envp[k++] = *e;
	x->envp[k++] = x->iter_slot;
	if (x->pad_slot)
		x->envp[k++] = x->pad_slot;
	if (x->sim)
		x->envp[k++] = x->sim_pad;
	/* HYPERFINE_ITERATION last: leaving it out ends the array there. */
	x->hf_at = k;
	x->envp[k + 1] = NULL;
	set_iteration(x, "CBENCH_ITERATION=%zu", 0);
	set_hyperfine_iteration(x, false, NULL, 0);
}

/*
 * Every run reads --input from its start, rewound with lseek.  A pipe or
 * FIFO cannot be rewound: its content is copied once into a memfd, which
 * can.  Returns the memfd, or -1 with a message in err.
 */
static int input_to_memfd(int fd, char *err, size_t errlen)
{
	int m = memfd_create("cbench-input", MFD_CLOEXEC);
	if (m < 0) {
		snprintf(err, errlen, "memfd_create: %s", strerror(errno));
		return -1;
	}
	static char buf[65536];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(err, errlen, "%s", strerror(errno));
			close(m);
			return -1;
		}
		if (n == 0)
			return m;
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(m, buf + done, (size_t)(n - done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				snprintf(err, errlen, "copying it into memory: %s",
					 strerror(errno));
				close(m);
				return -1;
			}
			done += w;
		}
	}
}

/* The engine's failure in x->err, sent as an error; one that is the
 * machine's limit on descriptors or processes names the limit: it is not
 * the command's failure. */
static void engine_error(struct ctx *x, long bench)
{
	struct rlimit rl;
	struct bench_message m = error_of(BENCH_MSG_ENGINE, bench, NULL);
	if (strstr(x->err, strerror(EMFILE)) &&
	    getrlimit(RLIMIT_NOFILE, &rl) == 0)
		say(x, m, "%s: too few file descriptors (the limit, RLIMIT_NOFILE, "
		    "ulimit -n, is %llu); raise it with ulimit -n", x->err,
		    (unsigned long long)rl.rlim_cur);
	else if (strstr(x->err, strerror(EAGAIN)) &&
		 getrlimit(RLIMIT_NPROC, &rl) == 0)
		say(x, m, "%s: cannot start another process (the limit on "
		    "processes, RLIMIT_NPROC, ulimit -u, is %llu, or the "
		    "machine's); raise it with ulimit -u", x->err,
		    (unsigned long long)rl.rlim_cur);
	else
		say(x, m, "%s", x->err);
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

/* SplitMix64 (Steele, Lea and Flood 2014), the generator of the padding. */
static uint64_t pad_next(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* --randomize-layout: a new padding of 0 to PAD_MAX - 1 bytes ('X's, as
 * hyperfine does) for the next command run. */
static void repad(struct ctx *x)
{
	x->pad = (int32_t)(pad_next(&x->pad_rng) % PAD_MAX);
	size_t at = sizeof PAD_VAR;  /* after "NAME=" */
	memset(x->pad_slot + at, 'X', (size_t)x->pad);
	x->pad_slot[at + (size_t)x->pad] = '\0';
}

/* --counters sim: the padding that brings the iteration variables and
 * itself to the same size in every run, so that a program's start-up,
 * which reads the environment, counts the same. */
static void sim_repad(struct ctx *x)
{
	size_t used = strlen(x->iter_slot) +
		      (x->envp[x->hf_at] ? strlen(x->hf_slot) : 0);
	size_t pad = used < SIM_PAD_WIDTH ? SIM_PAD_WIDTH - used : 0;
	size_t at = sizeof SIM_PAD_VAR;   /* after "NAME=" */
	memcpy(x->sim_pad, SIM_PAD_VAR "=", at);
	memset(x->sim_pad + at, 'X', pad);
	x->sim_pad[at + pad] = '\0';
}

/* Run p once: 0 with *res filled, -1 on an engine error (sent). */
static int run(struct ctx *x, long bench, const struct prepared *p,
	       enum spawn_output out, int out_fd, bool measured,
	       struct spawn_result *res)
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
		.cpus = x->in_hook ? x->hook_pin : x->cmd_pin,
		.aslr = x->aslr,
		.keep_group = x->cfg->keep_background || x->keep_group,
		.shell_sideband = measured && p->via_shell,
	};
	if (x->pad_slot && !x->in_hook)
		repad(x);
	if (x->sim)
		sim_repad(x);
	if (measured && p->sim_argv) {
		cmd.path = simcpu_path(x->sim);
		cmd.argv = p->sim_argv;
	}
	if (x->mo && out == SPAWN_OUT_FD && out_fd == metric_output_fd(x->mo))
		metric_output_rewind(x->mo);
	if (spawn_run(&cmd, res, x->err, sizeof x->err) != 0) {
		engine_error(x, bench);
		return -1;
	}
	if (!x->told_fallback && spawn_ptrace_errno()) {
		x->told_fallback = true;
		struct bench_message m = {.severity = BENCH_WARNING,
					  .kind = BENCH_MSG_PTRACE_FALLBACK,
					  .bench = bench,
					  .sys_errno = spawn_ptrace_errno()};
		if (x->ctr && counters_count(x->ctr) > 0)
			say(x, m, "ptrace is refused here (%s): counters still "
			    "start at exec (enable_on_exec), but wall time now "
			    "includes the exec itself",
			    strerror(spawn_ptrace_errno()));
		else   /* no counter open: say only what changed */
			say(x, m, "ptrace is refused here (%s): wall time now "
			    "includes the exec itself (no counters are open)",
			    strerror(spawn_ptrace_errno()));
	}
	return 0;
}

/*
 * Run an unmeasured helper command (setup, prepare, ...) of benchmark
 * bench.  0 on success, -1 on failure (sent), -2 when interrupted.
 */
static int run_hook(struct ctx *x, long bench, const char *kind,
		    const char *line, enum spawn_output out, int out_fd)
{
	struct prepared p;
	if (prepare(x, line, false, &p, bench, kind) != 0)
		return -1;
	struct spawn_result res;
	/* A server --setup starts in the background is what the benchmark
	 * needs: its group is left running. */
	x->keep_group = strcmp(kind, "setup") == 0;
	x->in_hook = true;
	int rc = run(x, bench, &p, out, out_fd, false, &res);
	x->in_hook = false;
	x->keep_group = false;
	prepared_free(&p);
	if (rc != 0)
		return -1;
	struct bench_message m = error_of(BENCH_MSG_HOOK_FAILED, bench, kind);
	m.status = res.code;
	switch (res.outcome) {
	case SPAWN_EXITED:
		if (res.code == 0)
			return 0;
		say(x, m, "the --%s command '%s' failed with exit code %d; append "
		    "' || true' to it to ignore its failure", kind, line, res.code);
		return -1;
	case SPAWN_SIGNALED:
		m.kind = BENCH_MSG_HOOK_SIGNALED;
		say(x, m, "the --%s command '%s' was terminated by signal %s (%s); "
		    "append ' || true' to it to ignore its failure", kind, line,
		    spawn_signal_name(res.code), strsignal(res.code));
		return -1;
	case SPAWN_TIMED_OUT:
		m.kind = BENCH_MSG_HOOK_TIMED_OUT;
		m.status = 0;
		say(x, m, "the --%s command '%s' timed out", kind, line);
		return -1;
	case SPAWN_INTERRUPTED:
		return -2;
	case SPAWN_EXEC_FAILED:
		exec_error(x, bench, kind, line, res.exec_errno);
		return -1;
	case SPAWN_STOPPED:
		m.kind = BENCH_MSG_HOOK_STOPPED;
		say(x, m, "the --%s command '%s' was stopped by %s and killed: %s",
		    kind, line, spawn_signal_name(res.code),
		    stop_reason_text(res.code));
		return -1;
	}
	return -1;
}

/* Is this exit status one the user asked to ignore?  A run killed by
 * signal N has hyperfine's exit code 128 + N (its -i=137 ignores a
 * SIGKILL). */
static bool ignored(const struct bench_options *cfg, const struct spawn_result *r)
{
	if (!cfg->ignore_failure)
		return false;
	if (cfg->ignore_codes == NULL)
		return true;
	if (r->outcome != SPAWN_EXITED && r->outcome != SPAWN_SIGNALED)
		return false;
	int code = r->outcome == SPAWN_SIGNALED ? 128 + r->code : r->code;
	for (size_t i = 0; i < cfg->n_ignore_codes; i++)
		if (cfg->ignore_codes[i] == code)
			return true;
	return false;
}

/* After a failure, where to see what the command said (as hyperfine
 * points to --show-output): nothing when its output is already shown or
 * kept in a file. */
static const char *output_hint(const struct plan_bench *b)
{
	if (strcmp(b->output, "null") == 0 || strcmp(b->output, "pipe") == 0)
		return ", or --show-output to see its error output";
	return "";
}

/*
 * A command writing to cbench's own stdout (--show-output) that died of
 * SIGPIPE, or failed, because that stdout is a pipe whose reader has gone
 * (`cbench --show-output | head`): cbench's own closed pipe, not the
 * command's failure.  A pipe without a reader polls POLLERR.
 */
static bool stdout_reader_gone(const struct plan_bench *b,
			       const struct spawn_result *r)
{
	if (strcmp(b->output, "inherit") != 0 ||
	    (r->outcome != SPAWN_SIGNALED && r->outcome != SPAWN_EXITED))
		return false;
	struct pollfd pfd = {.fd = STDOUT_FILENO, .events = POLLOUT};
	return poll(&pfd, 1, 0) == 1 && (pfd.revents & POLLERR);
}

/*
 * Check a measured (or warmup) run of benchmark bench.  Returns 0 to
 * record it, 1 to record it as failed-but-ignored, -1 to stop with exit 1
 * (error sent), -2 when interrupted.
 */
static int check_run(struct ctx *x, long bench, const struct plan_bench *b,
		     const struct spawn_result *r, const char *run_name)
{
	struct bench_message m = error_of(BENCH_MSG_RUN_FAILED, bench, NULL);
	m.status = r->code;
	if (!(r->outcome == SPAWN_EXITED && r->code == 0) &&
	    stdout_reader_gone(b, r)) {
		spawn_request_stop(SIGPIPE);   /* as if cbench had written */
		return -2;
	}
	switch (r->outcome) {
	case SPAWN_INTERRUPTED:
		return -2;
	case SPAWN_EXEC_FAILED:
		exec_error(x, bench, NULL, b->command, r->exec_errno);
		return -1;
	case SPAWN_EXITED:
		if (r->code == 0)
			return 0;
		if (ignored(x->cfg, r))
			return 1;
		say(x, m, "command '%s' exited with code %d in %s; use "
		    "-i/--ignore-failure to keep going%s", b->command, r->code,
		    run_name, output_hint(b));
		return -1;
	case SPAWN_SIGNALED:
		if (ignored(x->cfg, r))
			return 1;
		m.kind = BENCH_MSG_RUN_SIGNALED;
		say(x, m, "command '%s' terminated by signal %s (%s) in %s; "
		    "use -i/--ignore-failure to keep going%s", b->command,
		    spawn_signal_name(r->code), strsignal(r->code), run_name,
		    output_hint(b));
		return -1;
	case SPAWN_STOPPED:
		m.kind = BENCH_MSG_RUN_STOPPED;
		say(x, m, "command '%s' was stopped by %s in %s and killed: %s",
		    b->command, spawn_signal_name(r->code), run_name,
		    stop_reason_text(r->code));
		return -1;
	case SPAWN_TIMED_OUT:
		/* -i ignores timeouts too; -i=CODES only those exit codes. */
		if (x->cfg->ignore_failure && x->cfg->ignore_codes == NULL)
			return 1;
		m.kind = BENCH_MSG_TIMED_OUT;
		m.status = 0;
		say(x, m, "command '%s' timed out after %g s in %s (its process "
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
	if (x->sim) {
		results_enable(r, MET_SIM_INSTRUCTIONS);
		for (int m = MET_SIM_CYCLES; x->cfg_sim == SIM_CACHE &&
		     m < MET_SIM_END; m++)
			results_enable(r, (enum metric_id)m);
	}
	for (int m = MET_CUSTOM_FIRST; x->mo && m < MET_COUNT; m++)
		if (metric_defined((enum metric_id)m) &&
		    metric_info((enum metric_id)m)->pattern)
			results_enable(r, (enum metric_id)m);
}

/* The calibration's note: what is subtracted, as values and as text. */
static void calibrated_note(struct ctx *x, long bench)
{
	struct bench_message m = {
		.severity = BENCH_NOTE, .kind = BENCH_MSG_SHELL_CALIBRATED,
		.bench = bench, .shell_mean_s = x->overhead[MET_WALL],
		.shell_sd_s = x->overhead_sd,
		.shell_page_faults = x->overhead[MET_CTR_FIRST + CTR_PAGE_FAULTS] +
				     (x->faults_known ? x->faults_med : 0),
		.runs = SHELL_CALIBRATION_RUNS,
	};
	char faults[32], reap[256] = "";
	text_count(m.shell_page_faults, faults, sizeof faults);
	if (x->cal.n_reap)
		snprintf(reap, sizeof reap, ", and so is each run's wait to "
			 "be reaped after the shell exits (typically "
			 "%.3f ms)%s", x->reap_med * 1e3, x->cal.n_serial
			 ? "; each run's own start-up is measured, and what it "
			 "took more or less than typical taken off too" : "");
	say(x, m, "%s '%s'; its start-up (%.3f ± %.3f ms wall, %s page faults, "
	    "calibrated over %d runs, then again after each run) is "
	    "subtracted%s",
	    x->cfg->shell_mode == SHELL_FORCE
	    ? "--shell: running every command under"
	    : "shell syntax: running such commands under",
	    x->shell_path, m.shell_mean_s * 1e3, m.shell_sd_s * 1e3, faults,
	    SHELL_CALIBRATION_RUNS, reap);
}

/* What a shell run's wall time has taken off for its reap after the shell
 * exits: its own (spawn_result.reap_s), or the calibration's median when
 * unknown;
 * nothing when the calibration measured none (perf_event_open refused). */
static double reap_taken_off(const struct ctx *x, double reap)
{
	return isfinite(reap) ? reap : x->reap_med;
}

/* A shell run's own time around its program (shell_own.serial) or on a
 * CPU (.cpu) less the calibration's median med: what this run's start-up
 * and exit took more (or less) than the calibrated constant holds.  0 when
 * unknown (sd 0: none measured).  How much of it is start-up depends on
 * the line (enum own_rule).  A run's excess more than SERIAL_MAX_SDS of
 * the calibration's spread above may be shell code of the line's own
 * before or after its program (a loop of builtins, `x=$(...)` without a
 * program), which is the benchmark's, not start-up, and is kept: so while
 * the runs come in, and for a line whose typical run spends more than
 * SERIAL_CODE_SDS spreads longer there than the calibration pair made
 * right after it.  Otherwise (when the benchmark ends), the line has
 * no code of its own and all of every run's excess is start-up, a burst
 * of the machine's load inside it too: on the VM such bursts went past
 * the bound in up to 8 runs of 200, which kept 0 to 39 us per run in a
 * 4 ms program's mean (5 invocations).  The calibration's `true` has no
 * code of its own: all of its pairs' excess is start-up. */
#define SERIAL_MAX_SDS 4.0
#define SERIAL_CODE_SDS 2.0
/* ... or this fraction of the pairs' median, if more: a line's few
 * builtins (`[ -f x ] &&`, `cd dir &&`: tens of us) and what the shell's
 * reap and exit take more after a long program (24 us after a 4 ms one,
 * below) can be more than 2 spreads of a quiet machine's calibration;
 * they are taken off with the start-up. */
#define SERIAL_CODE_FRACTION 0.2

enum own_rule {
	OWN_BOUNDED,   /* may hold code of its own: up to SERIAL_MAX_SDS */
	OWN_STARTUP,   /* no code of its own: all of it */
};

/* The rule a finished benchmark's runs call for, from the median of
 * their values less those of the calibration pairs made right after
 * them (excess_med: the machine's load moves both from one minute, and
 * one run, to the next), the median of those pairs' (pair_med) and the
 * calibration's spread sd. */
static enum own_rule own_rule_of(double excess_med, double pair_med, double sd)
{
	double bound = fmax(SERIAL_CODE_SDS * sd, SERIAL_CODE_FRACTION * pair_med);
	return excess_med > bound ? OWN_BOUNDED : OWN_STARTUP;
}


static double own_excess(double v, double med, double sd, enum own_rule rule)
{
	if (!isfinite(v) || !(sd > 0))
		return 0;
	double e = v - med;
	return rule == OWN_BOUNDED && e > SERIAL_MAX_SDS * sd ? 0 : e;
}

/* How a shell benchmark's runs have their own time taken off: for the
 * wall time (from shell_own.serial), the task-clock (.cpu) and the page
 * faults (.faults). */
struct own_rules {
	enum own_rule wall, cpu, faults;
};

static double without_reap(const struct ctx *x, double wall,
			   const struct shell_own *o, enum own_rule rule)
{
	if (!x->cal.n_reap || !isfinite(wall))
		return wall;
	double w = wall - reap_taken_off(x, o->reap) -
		   own_excess(o->serial, x->serial_med, x->serial_sd, rule);
	return w > 0 ? w : 0;
}

/* Its task-clock less what its shell's own CPU time took more or less
 * than typical. */
static double without_cpu_excess(const struct ctx *x, double task,
				 const struct shell_own *o, enum own_rule rule)
{
	if (!isfinite(task))
		return task;
	double t = task - own_excess(o->cpu, x->cpu_med, x->cpu_sd, rule);
	return t > 0 ? t : 0;
}

/* Its page faults less its shell's own, counted in the run (the
 * calibration's median where unknown): the typical ones and, as for the
 * time, what the run's own took more or less (own_excess; a spread of at
 * least 1 fault, as whole numbers often have a MAD of 0).  Whole numbers,
 * as both are. */
static double without_own_faults(const struct ctx *x, double faults,
				 const struct shell_own *o, enum own_rule rule)
{
	if (!x->faults_known || !isfinite(faults))
		return faults;
	double f = faults - x->faults_med -
		   own_excess(o->faults, x->faults_med, fmax(x->faults_sd, 1),
			      rule);
	return f > 0 ? f : 0;
}

/* One calibration run of p into v[]: 0, -1 on error (sent), -2 if
 * interrupted. */
static int calibration_run(struct ctx *x, long bench, const struct prepared *p,
			   int i, double v[MET_COUNT], struct shell_own *o)
{
	struct spawn_result res;
	set_iteration(x, "CBENCH_ITERATION=calibration-%zu", (size_t)i + 1);
	set_hyperfine_iteration(x, false, NULL, 0);
	if (run(x, bench, p, SPAWN_OUT_NULL, -1, true, &res) != 0)
		return -1;
	if (res.outcome == SPAWN_INTERRUPTED)
		return -2;
	if (res.outcome == SPAWN_TIMED_OUT) {
		say(x, error_of(BENCH_MSG_CALIBRATION_FAILED, bench, NULL),
		    "the shell '%s' timed out (--timeout %g s) running %s "
		    "(calibration)", x->shell_path, x->cfg->timeout_s,
		    p->via_shell ? "a no-op program" : "the no-op program");
		return -1;
	}
	if (res.outcome != SPAWN_EXITED || res.code != 0) {
		say(x, error_of(BENCH_MSG_CALIBRATION_FAILED, bench, NULL),
		    "the shell '%s' failed to run %s (calibration)", x->shell_path,
		    p->via_shell ? "a no-op program" : "the no-op program");
		return -1;
	}
	results_values_from_spawn(&res, v);
	*o = own_of(&res);
	return 0;
}

/* One calibration pair, the shell first when k is even (so that a drift
 * of the machine's speed within pairs cancels over two), its differences
 * kept when keep.  0, -1 (error sent), -2 (interrupted). */
static int calibration_pair(struct ctx *x, long bench, size_t k, bool keep)
{
	double vs[MET_COUNT], vd[MET_COUNT];
	struct shell_own own = {NAN, NAN, NAN, NAN, NAN}, no_shell;
	for (int m = 0; m < MET_COUNT; m++)
		vd[m] = 0;
	int rc = 0;
	bool sh_first = k % 2 == 0 || !x->cal.have_direct;
	if (sh_first)
		rc = calibration_run(x, bench, &x->cal.sh, (int)k, vs, &own);
	if (rc == 0 && x->cal.have_direct)
		rc = calibration_run(x, bench, &x->cal.direct, (int)k, vd, &no_shell);
	if (rc == 0 && !sh_first)
		rc = calibration_run(x, bench, &x->cal.sh, (int)k, vs, &own);
	if (rc != 0 || !keep)
		return rc;
	for (int m = 0; m < MET_COUNT; m++) {
		if (!isfinite(vs[m]) || !isfinite(vd[m]))
			continue;
		if (m == MET_WALL) {   /* its shell's own beside its difference */
			xgrow((void **)&x->cal.own, &x->cal.cap_own,
			      x->cal.n[m] + 1, sizeof *x->cal.own);
			x->cal.own[x->cal.n[m]] = own;
			x->cal.n_reap += isfinite(own.reap);
			x->cal.n_wake += isfinite(own.wake);
			x->cal.n_serial += isfinite(own.serial);
			x->cal.n_cpu += isfinite(own.cpu);
		}
		if (m == MET_CTR_FIRST + CTR_TASK_CLOCK) {
			xgrow((void **)&x->cal.task_cpu, &x->cal.cap_task_cpu,
			      x->cal.n[m] + 1, sizeof(double));
			x->cal.task_cpu[x->cal.n[m]] = own.cpu;
		}
		if (m == MET_CTR_FIRST + CTR_PAGE_FAULTS) {
			xgrow((void **)&x->cal.pf_own, &x->cal.cap_pf_own,
			      x->cal.n[m] + 1, sizeof(double));
			x->cal.pf_own[x->cal.n[m]] = own.faults;
			x->cal.n_faults += isfinite(own.faults);
		}
		xgrow((void **)&x->cal.d[m], &x->cal.cap[m], x->cal.n[m] + 1,
		      sizeof(double));
		x->cal.d[m][x->cal.n[m]++] = vs[m] - vd[m];
	}
	x->cal.pairs++;
	return 0;
}

/* Field off (offsetof in struct shell_own) of o. */
static double own_field(const struct shell_own *o, size_t off)
{
	double v;
	memcpy(&v, (const char *)o + off, sizeof v);
	return v;
}

/* The median of w[0..k) (0: none), and their spread (*sd, 1.4826 MAD,
 * when sd is not NULL). */
static double median_of(const struct ctx *x, const double *w, size_t k,
			double *sd)
{
	double med = 0;
	if (sd)
		*sd = 0;
	struct stats_summary ws;
	if (k && stats_summarize(w, k, x->cfg->confidence, &ws) == 0) {
		med = ws.median;
		if (sd)
			*sd = 1.4826 * ws.mad;
	}
	return med;
}

/* The same of the finite values of field off of own[0..n). */
static double median_finite(const struct ctx *x, const struct shell_own *own,
			    size_t off, size_t n, double *sd)
{
	double *w = n ? xcalloc(n, sizeof *w) : NULL;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(own_field(&own[i], off)))
			w[k++] = own_field(&own[i], off);
	double med = median_of(x, w, k, sd);
	free(w);
	return med;
}

/* The overhead from every pair so far: per metric the median of the
 * differences (rounded for counts), never below 0, and its standard
 * error. */
static void calibration_estimate(struct ctx *x)
{
	/* The reaps first: the pairs' wall differences without them
	 * (without_reap: a pair whose own is unknown has their median taken
	 * off, as a run has), and without all their own excess: `true` runs
	 * no code of its own (own_excess). */
	size_t nw = x->cal.n[MET_WALL];
	double *walls = NULL;
	const struct shell_own *own = x->cal.own;
	x->wake_med = median_finite(x, own, offsetof(struct shell_own, wake), nw,
				    NULL);
	x->reap_med = median_finite(x, own, offsetof(struct shell_own, reap), nw,
				    NULL);
	x->serial_med = median_finite(x, own, offsetof(struct shell_own, serial),
				      nw, &x->serial_sd);
	x->cpu_med = median_finite(x, own, offsetof(struct shell_own, cpu), nw,
				   &x->cpu_sd);
	if (x->cal.n_reap) {
		walls = xcalloc(nw, sizeof *walls);
		for (size_t i = 0; i < nw; i++)
			walls[i] = x->cal.d[MET_WALL][i] -
				   reap_taken_off(x, x->cal.own[i].reap) -
				   own_excess(x->cal.own[i].serial, x->serial_med,
					      x->serial_sd, OWN_STARTUP);
	}
	const int task = MET_CTR_FIRST + CTR_TASK_CLOCK;
	size_t nt = x->cal.n[task];
	double *tasks = NULL;
	if (x->cal.n_cpu && nt) {
		tasks = xcalloc(nt, sizeof *tasks);
		for (size_t i = 0; i < nt; i++)
			tasks[i] = x->cal.d[task][i] -
				   own_excess(x->cal.task_cpu[i], x->cpu_med,
					      x->cpu_sd, OWN_STARTUP);
	}
	/* The shell's own page faults, counted in each run, are taken off
	 * each run whole (without_own_faults); the constant holds the rest
	 * (the exec's difference, and where the count is the shell's alone,
	 * its vfork child's before the exec). */
	const int pf = MET_CTR_FIRST + CTR_PAGE_FAULTS;
	size_t np = x->cal.n[pf];
	double *pfs = NULL;
	x->faults_med = round(median_finite(x, x->cal.own,
					    offsetof(struct shell_own, faults),
					    nw, &x->faults_sd));
	x->faults_known = x->cal.n_faults > 0;
	if (x->faults_known && np) {
		pfs = xcalloc(np, sizeof *pfs);
		for (size_t i = 0; i < np; i++)
			pfs[i] = x->cal.d[pf][i] -
				 (isfinite(x->cal.pf_own[i]) ? x->cal.pf_own[i]
				  : x->faults_med);
	}
	for (int m = 0; m < MET_COUNT; m++) {
		x->overhead[m] = x->overhead_se[m] = 0;
		size_t n = x->cal.n[m];
		if (!n || !metric_info((enum metric_id)m)->shell_corrected)
			continue;
		struct stats_summary s;
		const double *d = m == MET_WALL && walls ? walls
				  : m == task && tasks ? tasks
				  : m == pf && pfs ? pfs : x->cal.d[m];
		if (stats_summarize(d, n, x->cfg->confidence, &s) != 0)
			continue;
		/* The median: a load spike in one run of a pair is noise, not
		 * the shell's cost.  Its standard error from the MAD (1.4826
		 * MAD estimates sigma; the median's SE is sqrt(pi/2) sigma /
		 * sqrt(n) for normal data: Kendall & Stuart, 10.10). */
		bool count = metric_info((enum metric_id)m)->unit == UNIT_COUNT;
		x->overhead[m] = count ? round(s.median) : s.median;
		if (x->overhead[m] < 0)
			x->overhead[m] = 0;
		double sigma = 1.4826 * s.mad;
		if (s.n >= 2)
			x->overhead_se[m] = 1.2533 * sigma / sqrt((double)s.n);
		if (m == MET_WALL && s.n >= 2)
			x->overhead_sd = sigma;
	}
	x->overhead_n = x->cal.n[MET_WALL];
	free(walls);
	free(tasks);
	free(pfs);
}

/*
 * What the shell adds to running a program: `SHELL -c NOOP` (the shell
 * starting, then exec'ing the no-op program) minus NOOP run directly,
 * exec-exact, in alternating pairs so that a drift of the machine's speed
 * cancels: 20 up front (the note tells them), then one after each run
 * (pair_due), so that the pairs share the runs' conditions; when a
 * shell benchmark ends its runs are corrected again with every pair so
 * far (shell_recorrect).  Spread among the runs, the pairs took the median
 * residue of a 0.5 ms program from +47 +- 62 us (20 up front) to -2 +- 5
 * us (shell_residue.sh, 10 invocations of 200 rounds, load average 1).
 * NOOP is `true` from PATH; without one, `SHELL -c ''` alone
 * (which leaves the shell's exec of the command in the times).  Per metric:
 * the median of the pairs' differences, rounded to a whole number for
 * counts so that corrected counters stay whole, and its standard error,
 * which the analysis adds to the intervals of shell benchmarks.  The
 * page faults have the shell's own, counted in each run (sideband.c's
 * page-fault counter on the shell and its children up to their exec),
 * taken off first, the pairs' too (without_own_faults): dash's own faults
 * move with address-space randomisation (59 to 65 for `sh -c true`) and
 * with the line, and its vfork child's with the environment, which the
 * constant alone left in the runs (1.1 to 1.3 faults in one make
 * verdicts pass).
 *
 * What this path is: dash (Debian's sh, 0.5.12) does not exec a single
 * command in place; `strace -f sh -c /path/prog` shows vfork, execve in the
 * child and wait4 in the shell, for `true` as for any program.  So the
 * calibration measures the shell's start-up, its vfork and exec of the
 * program, and, once the program has exited, the shell scheduled again to
 * reap it and exit, and cbench to reap the shell.  A direct run has one
 * such reap (the program's exit, then cbench's wake-up), the shell's run
 * two, and a reap depends on the run: a process's exit takes longer after
 * a longer run (on the 2-core VM, from the exit tracepoint to its last
 * switch, 53 us after 0.5 ms of CPU, 106 us after 5 ms: perf sched
 * tracing), and behind other load the wake-up queues (a perf sched
 * trace: mean 208 vs 706 us for `true` and a 3.6 ms program).  The
 * shell's reap of its program is the one a direct run has, so it stays;
 * the second, from the shell's exit record to cbench's reap of it, is
 * not left to the constant: every shell run, the calibration's among
 * them, has its own measured (spawn_result.reap_s, from perf side-band
 * records: sideband.c) and taken off its wall time before anything else
 * (without_reap); a run whose records cannot tell has the calibration's
 * median taken off instead.  (Taking off the shell's wake-up after its
 * program instead, from the program's exit record, took off the rest of
 * the program's own exit too, and with it about 45 us too much after
 * programs of 4.5 and 9.6 ms: doc/shells.md.)  The shell's own time
 * around its program is measured the same way (spawn_result.serial_s:
 * from the shell's first run after the release to the program's exec,
 * and from the last child's exit to its own exit less its sleeps there,
 * the wake-up to reap among them):
 * the constant holds its median, and each run (pairs included) has what
 * its own took more or less than that median taken off too
 * (own_excess).  It also depends on the run: on the VM a shell run
 * that followed a 4 ms run spent 749 us up to its vfork against 692 us
 * after `true`, and reaped and exited 24 us slower after a 4 ms program.
 * A line whose typical run spends more than SERIAL_CODE_SDS of the
 * calibration's spread longer there may run shell code of its own: what
 * a run spends more than SERIAL_MAX_SDS spreads longer is left in
 * (own_rule_of).  A line the shell execs in place
 * (`exec prog`) has no fork and wait: its counters are over-corrected by
 * the vfork's context switches (README, "Shells").
 */
static int calibrate_shell(struct ctx *x, long bench)
{
	char *noop = cmdline_resolve("true");
	/* `SHELL -c LINE` never fails to prepare */
	prepare(x, noop ? noop : "", true, &x->cal.sh, bench, NULL);
	if (noop) {
		x->cal.direct.path = noop;
		x->cal.direct.argv = xcalloc(2, sizeof *x->cal.direct.argv);
		x->cal.direct.argv[0] = xstrdup("true");
		x->cal.have_direct = true;
	}
	int rc = 0;
	for (size_t i = 0; i < 3 + SHELL_CALIBRATION_RUNS && rc == 0; i++)
		rc = calibration_pair(x, bench, i, i >= 3);
	if (rc != 0)
		return rc;
	calibration_estimate(x);
	x->calibrated = true;
	calibrated_note(x, bench);
	return 0;
}

static void warn_setuid(struct ctx *x, long bench, const struct prepared *p)
{
	struct stat st;
	if (geteuid() == 0 || p->via_shell || stat(p->path, &st) != 0)
		return;
	struct bench_message m = {.severity = BENCH_WARNING,
				  .kind = BENCH_MSG_SETUID, .bench = bench};
	if (st.st_mode & (S_ISUID | S_ISGID))
		say(x, m, "'%s' is set%s; under the frozen-exec engine (ptrace) it "
		    "runs without that privilege", p->path,
		    (st.st_mode & S_ISUID) ? "uid" : "gid");
}

/* The runs benchmark r will take, from what its runs cost so far. */
static size_t progress_total(const struct plan_stop *cfg, const struct bench_result *r,
			     double cost_s)
{
	if (cfg->runs > 0)
		return (size_t)cfg->runs;
	size_t want = (size_t)cfg->min_runs;
	if (r->n_runs > 0 && cfg->precision <= 0) {
		double mean = cost_s / (double)r->n_runs;
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

bool bench_default_cap(struct plan_stop *cfg)
{
	if (cfg->precision <= 0 || cfg->runs > 0 || cfg->max_runs > 0 ||
	    cfg->max_time_s > 0)
		return false;
	cfg->max_time_s = BENCH_PRECISION_MAX_TIME_S;
	return true;
}

const char *bench_stop_text(enum stop_reason s, const struct plan_stop *cfg,
			    bool default_cap, size_t n, double total_wall_s,
			    double rel_halfwidth, char *buf, size_t len)
{
	char cap[96], goals[128] = "";
	if (s == STOP_MAX_RUNS)
		snprintf(cap, sizeof cap, "--max-runs %ld", cfg->max_runs);
	else if (s == STOP_MAX_TIME && default_cap)
		snprintf(cap, sizeof cap, "%g s (the default cap of --precision "
			 "without --max-runs or --max-time)", cfg->max_time_s);
	else if (s == STOP_MAX_TIME)
		snprintf(cap, sizeof cap, "--max-time %g s", cfg->max_time_s);
	else
		return NULL;
	/* The goals planner_next() checks, those not reached (--precision's
	 * needs STATS_ROBUST_DEP_MIN_N = 20 runs: rel_halfwidth). */
	_Static_assert(STATS_ROBUST_DEP_MIN_N == 20, "the text below says 20");
	size_t k = 0;
	if (n < (size_t)cfg->min_runs)
		k += (size_t)snprintf(goals + k, sizeof goals - k, "--min-runs %ld",
				      cfg->min_runs);
	if (cfg->precision > 0 ? !(rel_halfwidth <= cfg->precision)
			       : total_wall_s < cfg->min_time_s) {
		if (k > 0 && k < sizeof goals)
			k += (size_t)snprintf(goals + k, sizeof goals - k, " and ");
		if (k < sizeof goals) {
			if (cfg->precision > 0)
				snprintf(goals + k, sizeof goals - k, "--precision %g %%%s",
					 cfg->precision * 100, n < STATS_ROBUST_DEP_MIN_N
					 ? " (at least 20 runs)" : "");
			else
				snprintf(goals + k, sizeof goals - k, "--min-time %g s",
					 cfg->min_time_s);
		}
	}
	snprintf(buf, len, "stopped at %s before reaching %s", cap,
		 goals[0] ? goals : "its goal");
	return buf;
}

/* One benchmark while it runs; several are in flight when interleaved. */
struct bstate {
	const struct plan_bench *b;
	size_t index;
	struct bench_result *r;
	struct prepared p;
	enum spawn_output out, hook_out;
	int out_fd;              /* for SPAWN_OUT_FD; owned by the ctx */
	struct planner_steps steps;   /* where it is in setup, warmups, runs, ... */
	bool started;            /* its START step ran (p may need freeing) */
	bool ended;              /* bench_end ran */
	bool held;               /* ended, its cleanup waiting for the rest
				    of its state group */
	bool finished;           /* ended, or will never start */
	bool report;             /* ended with results worth a report */
	enum stop_reason why;
	size_t hint;             /* its share of the progress bar's total */
	/* Running wall-time mean and sum of squared deviations (Welford
	 * 1962) over the first `seen` runs of `of`, for --precision, and
	 * for the lag-1 autocorrelation the sums of y = x - first, y^2 and
	 * y_t y_{t+1} (shifted against cancellation). */
	struct {
		const struct bench_result *of;
		size_t seen, n;
		double mean, m2;
		double first, last, sy, syy, slag;
		size_t next_check;   /* runs before the next bootstrap check */
	} wall;
	bool told_leftover;      /* warned that the command leaves a daemon */
	bool told_forked;        /* warned of processes that fork without exec
				    (--counters sim) */
	/* What its measured runs cost in wall-clock time: each run's
	 * --prepare, the run with its start-up (fork, exec, a shell) and
	 * cbench's bookkeeping, its --conclude.  --min-time and --max-time
	 * count this, as hyperfine's budget does, so a 3 s budget takes
	 * about 3 s; the measurement itself stays exec-exact. */
	double cost_s;
	/* Under a shell: each run's values before the start-up was taken off
	 * (the shell-corrected metrics), to correct them again with the
	 * final calibration when the benchmark ends. */
	double *raw[MET_COUNT];
	size_t raw_cap;
	struct shell_own *own;   /* each run's (without_reap) */
	size_t own_cap;
	/* Each run's calibration pair, the one made right after it: its
	 * index in ctx.cal.own, SIZE_MAX when none was kept. */
	size_t *pair_after;
	size_t pair_cap;
	/* A calibration pair follows this run: after every run, of any
	 * benchmark, once the shell is calibrated.  A run computes at a
	 * speed that depends on what ran just before it, and with pairs after
	 * the shell runs alone a direct benchmark and a shell one had
	 * different predecessors (shuffled, with one of each: the direct run
	 * followed a pair in 3 rounds of 4, the shell run in 1; otherwise
	 * the direct one itself, the shell one the direct one).  On the
	 * 2-vCPU VM the same program's own loop (measured inside it) then ran
	 * 6-8 % slower under the shell than directly (doc/shells.md); after
	 * every run, and with the calibration made when the first benchmark
	 * of all starts (begin), every measured run follows a pair, whatever
	 * the order and the number of benchmarks. */
	bool pair_due;
};

/*
 * Relative half-width of the mean's CI from the wall-time column, updated
 * with the runs added since the last call: O(1) per run where summarising
 * the whole column every run was O(n^2) over a benchmark.  Welford's
 * update is accurate to a few ulps, plenty for a stopping rule.
 */
static double own_halfwidth(const struct bench_options *cfg, struct bstate *s)
{
	const struct bench_result *r = s->r;
	if (cfg->stop.precision <= 0 || !r->has[MET_WALL])
		return NAN;
	if (s->wall.of != r)
		memset(&s->wall, 0, sizeof s->wall);
	s->wall.of = r;
	for (; s->wall.seen < r->n_runs; s->wall.seen++) {
		double x = r->col[MET_WALL][s->wall.seen];
		if (!isfinite(x))
			continue;
		if (s->wall.n == 0)
			s->wall.first = x;
		double y = x - s->wall.first;
		if (s->wall.n > 0)
			s->wall.slag += (s->wall.last - s->wall.first) * y;
		s->wall.sy += y;
		s->wall.syy += y * y;
		s->wall.last = x;
		double delta = x - s->wall.mean;
		s->wall.mean += delta / (double)++s->wall.n;
		s->wall.m2 += delta * (x - s->wall.mean);
	}
	if (s->wall.n < 2 || s->wall.mean <= 0)
		return NAN;
	/* The interval the report will show allows for serial dependence:
	 * so does the stopping rule (stats_mean_halfwidth_r1).  The lag-1
	 * autocorrelation from the running sums, with m the mean of y:
	 * sum (y_t - m)(y_t+1 - m) = slag - m (2 sy - y_1 - y_n) + (n - 1) m^2
	 * over sum (y - m)^2 = m2. */
	double n = (double)s->wall.n, m = s->wall.sy / n;
	double yn = s->wall.last - s->wall.first;
	double num = s->wall.slag - m * (2 * s->wall.sy - yn) + (n - 1) * m * m;
	double r1 = s->wall.m2 > 0 ? num / s->wall.m2 : NAN;
	double sd = sqrt(s->wall.m2 / (n - 1));
	double rel = stats_mean_halfwidth_r1(sd, s->wall.n, r1, cfg->confidence) /
		     s->wall.mean;
	/* Times are shown with a bootstrap-t interval, which skewed runs
	 * make wider than the t-interval: once this says the goal is met,
	 * the interval the report will show decides (same runs, same seed,
	 * so the same numbers), checked again only after another 10 % of
	 * runs, which keeps the bootstrap's cost O(B n) over a benchmark. */
	if (!(rel <= cfg->stop.precision))
		return rel;
	/* Below STATS_ROBUST_DEP_MIN_N runs the interval cannot allow for
	 * drift (stats_robust.h): a burst of load then looks like a steady
	 * mean, so the goal is not taken as met before. */
	if (s->wall.n < STATS_ROBUST_DEP_MIN_N)
		return fmax(rel, cfg->stop.precision * 1.0000001);
	if (r->n_runs < s->wall.next_check)   /* the last check said no */
		return fmax(rel, cfg->stop.precision * 1.0000001);
	s->wall.next_check = r->n_runs + r->n_runs / 10 + 1;
	double lo, hi;
	if (stats_mean_ci_robust(r->col[MET_WALL], r->n_runs, cfg->confidence,
				 (unsigned long)cfg->seed, &lo, &hi, NULL) == 0)
		rel = fmax(rel, (hi - lo) / 2 / s->wall.mean);
	return rel;
}

/*
 * What --precision measures: the mean's own interval, widened by the
 * spread between invocations when the history taught one (between.h).
 * When that spread alone is wider than the goal, no number of runs
 * reaches it: the goal counts as met once the invocation's own part is
 * a third of that spread (more runs would narrow the whole by under
 * 5 %), after STATS_ROBUST_DEP_MIN_N runs, and the report says so.
 */
static double rel_halfwidth(const struct bench_options *cfg, struct bstate *s)
{
	double own = own_halfwidth(cfg, s);
	const struct bench_result *r = s->r;
	double tau = r->between_tau;
	if (!(tau > 0) || !isfinite(own))
		return own;
	double floor = between_halfwidth(0, tau, r->between_k, cfg->confidence);
	if (floor < cfg->stop.precision)
		return between_halfwidth(own, tau, r->between_k, cfg->confidence);
	if (s->wall.n >= STATS_ROBUST_DEP_MIN_N && own <= floor / 3)
		return cfg->stop.precision;
	return fmax(floor, cfg->stop.precision * 1.0000001);
}

/*
 * Open every --output FILE once, before anything runs (a FILE given once
 * for all commands is shared, so their outputs follow one another), and set
 * each benchmark's output mode.  Returns 0 or -1 (error sent).
 */
static int open_outputs(struct ctx *x, struct bstate *st, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *path;
		int fd;
		st[i].out = output_mode(st[i].b->output, &fd, &path);
		st[i].out_fd = -1;
		st[i].hook_out = st[i].out == SPAWN_OUT_INHERIT ? SPAWN_OUT_INHERIT
								: SPAWN_OUT_NULL;
		if (st[i].out == SPAWN_OUT_NULL && x->mo) {
			/* --metric reads it (cli refused inherit and pipe) */
			st[i].out = SPAWN_OUT_FD;
			st[i].out_fd = metric_output_fd(x->mo);
		}
		if (st[i].out != SPAWN_OUT_FD || st[i].out_fd >= 0)
			continue;
		/* One file under several spellings (a.txt, ./a.txt) is
		 * opened, and truncated, once and shared. */
		for (size_t k = 0; k < x->n_outs && st[i].out_fd < 0; k++)
			if (fileid_same(x->outs[k].path, path))
				st[i].out_fd = x->outs[k].fd;
		if (st[i].out_fd >= 0)
			continue;
		fd = open(path, (x->mo ? O_RDWR : O_WRONLY) | O_CREAT | O_TRUNC |
			  O_CLOEXEC, 0666);
		if (fd < 0) {
			struct bench_message m = error_of(BENCH_MSG_OUTPUT_UNOPENABLE,
							  (long)i, NULL);
			m.exit_code = CBENCH_EXIT_USAGE;
			m.sys_errno = errno;
			say(x, m, "cannot open --output file '%s': %s", path,
			    strerror(errno));
			return -1;
		}
		x->outs = xreallocarray(x->outs, x->n_outs + 1, sizeof *x->outs);
		x->outs[x->n_outs].path = path;
		x->outs[x->n_outs++].fd = fd;
		st[i].out_fd = fd;
	}
	return 0;
}

static void tell_progress(struct ctx *x, enum bench_progress_kind kind,
			  size_t index, size_t done, size_t total_hint,
			  double estimate_s)
{
	struct bench_progress p = {.kind = kind, .bench = index, .done = done,
				   .total_hint = total_hint,
				   .estimate_s = estimate_s};
	if (x->ev.progress)
		x->ev.progress(x->ev.arg, &p);
}

/* START: resolve the command, calibrate the shell if this is the first
 * benchmark to start and any runs under the shell (a direct one too: so
 * that its runs follow calibration pairs like every other's, in any order),
 * and say the benchmark starts.  0, -1, -2. */
static int begin(struct ctx *x, struct bstate *s)
{
	long i = (long)s->index;
	int rc;
	s->started = true;
	if (prepare(x, s->b->command, false, &s->p, i, NULL) != 0)
		return -1;
	if (x->sim) {
		/* The shell and all it starts are counted: no correction. */
		s->p.sim_argv = simcpu_argv(x->sim, s->p.path, s->p.argv);
		s->p.via_shell = false;
	}
	s->r->via_shell = s->p.via_shell;
	warn_setuid(x, i, &s->p);
	if (x->shell_bench && !x->sim && !x->calibrated &&
	    (rc = calibrate_shell(x, i)) != 0)
		return rc;
	if (s->p.via_shell) {
		memcpy(s->r->shell_se, x->overhead_se, sizeof s->r->shell_se);
		s->r->shell_pairs = x->overhead_n;
	}
	if (x->ev.bench_start)
		x->ev.bench_start(x->ev.arg, s->index, s->r);
	return 0;
}

/* Warmup k, unmeasured.  0 (also for an ignored failure), -1, -2. */
static int warmup(struct ctx *x, struct bstate *s, size_t k)
{
	long i = (long)s->index;
	struct spawn_result res;
	int rc = run(x, i, &s->p, s->out, s->out_fd, false, &res);
	if (rc != 0)
		return rc;
	char run_name[64];
	snprintf(run_name, sizeof run_name, "warmup run %zu", k);
	int c = check_run(x, i, s->b, &res, run_name);
	return c < 0 ? c : 0;
}

/* v less the shell's start-up for metric m, never below 0. */
static double shell_corrected(const struct ctx *x, int m, double v)
{
	if (!isfinite(v) || !(x->overhead[m] > 0))
		return v;
	return v > x->overhead[m] ? v - x->overhead[m] : 0;
}

/* Keep the raw values and the shell's own measures of the run about to
 * be added (run r->n_runs). */
static void keep_raw(struct bstate *s, const double v[MET_COUNT],
		     const struct shell_own *o)
{
	size_t k = s->r->n_runs, cap = s->raw_cap;
	for (int m = 0; m < MET_COUNT; m++) {
		if (!s->r->has[m] || !metric_info((enum metric_id)m)->shell_corrected)
			continue;
		cap = s->raw_cap;
		xgrow((void **)&s->raw[m], &cap, k + 1, sizeof(double));
		s->raw[m][k] = v[m];
	}
	s->raw_cap = cap;
	xgrow((void **)&s->own, &s->own_cap, k + 1, sizeof *s->own);
	s->own[k] = *o;
	xgrow((void **)&s->pair_after, &s->pair_cap, k + 1,
	      sizeof *s->pair_after);
	s->pair_after[k] = SIZE_MAX;   /* until its pair is made (take_turn) */
}

/* A shell run's value of metric m less the shell's part: its reap after
 * the shell's exit and its own start-up's excess (wall time) or its own
 * CPU time's (task-clock), then the calibrated start-up. */
static double shell_run_corrected(const struct ctx *x, int m, double v,
				  const struct shell_own *o,
				  const struct own_rules *rules)
{
	if (m == MET_WALL)
		v = without_reap(x, v, o, rules->wall);
	else if (m == MET_CTR_FIRST + CTR_TASK_CLOCK)
		v = without_cpu_excess(x, v, o, rules->cpu);
	else if (m == MET_CTR_FIRST + CTR_PAGE_FAULTS)
		v = without_own_faults(x, v, o, rules->faults);
	return shell_corrected(x, m, v);
}

/* The rule for field off of s's finished runs (own_rule_of): each run's
 * value less that of the calibration pair made right after it, and the
 * pairs' median over the same pairs, where both are known.  *known
 * false, and the bounded rule (the one while runs come in), when none
 * is: no evidence is not evidence of no code of its own. */
static enum own_rule own_rule_from(const struct ctx *x, const struct bstate *s,
				   size_t off, double sd, bool *known)
{
	size_t n = s->r->n_runs, k = 0;
	double *d = xcalloc(n ? n : 1, sizeof *d), *p = xcalloc(n ? n : 1, sizeof *p);
	for (size_t i = 0; i < n; i++) {
		size_t j = s->pair_after[i];
		if (j >= x->cal.n[MET_WALL])
			continue;
		double a = own_field(&s->own[i], off), b = own_field(&x->cal.own[j], off);
		if (isfinite(a) && isfinite(b)) {
			d[k] = a - b;
			p[k++] = b;
		}
	}
	*known = k > 0;
	enum own_rule rule = k ? own_rule_of(median_of(x, d, k, NULL),
					     median_of(x, p, k, NULL), sd)
			       : OWN_BOUNDED;
	free(d);
	free(p);
	return rule;
}

/*
 * When a shell benchmark ends: the overhead from every calibration pair so
 * far (the 20 up front and one after each run, so that the pairs
 * share the runs' conditions), and the runs corrected again with it.
 */
static void shell_recorrect(struct ctx *x, struct bstate *s)
{
	struct bench_result *r = s->r;
	if (r == NULL || !r->via_shell || !x->calibrated)
		return;
	calibration_estimate(x);
	/* Whether the line runs shell code of its own (own_excess), now
	 * that all its runs are in: each run's own less that of the
	 * calibration pair made right after it (a run and its pair a few ms
	 * apart, in the same load).  Each metric tells from its own values:
	 * the page faults are exact counts, where the time of a line near
	 * the bound (a 20 KB comment: 70 us of parsing, 5 faults) is called
	 * code in some invocations and not in others. */
	const size_t so = offsetof(struct shell_own, serial),
		     co = offsetof(struct shell_own, cpu),
		     fo = offsetof(struct shell_own, faults);
	bool known[3];
	struct own_rules rules = {
		own_rule_from(x, s, so, x->serial_sd, &known[0]),
		own_rule_from(x, s, co, x->cpu_sd, &known[1]),
		own_rule_from(x, s, fo, fmax(x->faults_sd, 1), &known[2]),
	};
	/* what the JSON says is decided only from evidence */
	if (x->cal.n_reap && known[0] && known[1]) {
		r->shell_own_code[0] = rules.wall == OWN_BOUNDED;
		r->shell_own_code[1] = rules.cpu == OWN_BOUNDED;
		r->shell_own_decided = true;
	}
	for (int m = 0; m < MET_COUNT; m++)
		if (r->has[m] && s->raw[m])
			for (size_t k = 0; k < r->n_runs; k++)
				r->col[m][k] = shell_run_corrected(x, m, s->raw[m][k],
								   &s->own[k], &rules);
	double total = 0;
	for (size_t k = 0; r->has[MET_WALL] && k < r->n_runs; k++)
		if (isfinite(r->col[MET_WALL][k]))
			total += r->col[MET_WALL][k];
	r->total_wall_s = total;
	memcpy(r->shell_se, x->overhead_se, sizeof r->shell_se);
	r->shell_pairs = x->overhead_n;
	/* The stopping rule's running sums held the values as they came in:
	 * rel_halfwidth sums the corrected column afresh. */
	s->wall.of = NULL;
}

/* A measured run's values (custom[] the --metric ones), the shell's
 * start-up taken off, and flags. */
static void record_run(struct ctx *x, struct bstate *s,
		       const struct spawn_result *res, int c, double started_s,
		       const double custom[MET_COUNT])
{
	struct bench_result *r = s->r;
	bool timed_out = res->outcome == SPAWN_TIMED_OUT;
	double v[MET_COUNT];
	results_values_from_spawn(res, v);
	for (int m = MET_SIM_FIRST; m < MET_COUNT; m++)
		v[m] = custom[m];   /* simulated and --metric values */
	if (s->p.via_shell) {
		struct shell_own o = own_of(res);
		keep_raw(s, v, &o);
		for (int m = 0; m < MET_COUNT; m++)
			v[m] = shell_run_corrected(x, m, v[m], &o,
						   &(struct own_rules){OWN_BOUNDED,
								       OWN_BOUNDED,
								       OWN_BOUNDED});
	}
	uint8_t flags = 0;
	if (c != 0)
		flags |= timed_out ? RUN_TIMED_OUT | RUN_FAILED : RUN_FAILED;
	if (!res->exec_exact)
		r->exec_exact = false;
	if (res->left_running && !s->told_leftover) {
		s->told_leftover = true;
		struct bench_message m = {.severity = BENCH_WARNING,
					  .kind = BENCH_MSG_LEFTOVER_PROCESS,
					  .bench = (long)s->index};
		say(x, m, "command '%s' left a process running after it exited "
		    "(a daemon or background job): what it does from then "
		    "on is missing from the counters and rusage, so its "
		    "counts are incomplete", s->b->command);
	}
	int code = res->outcome == SPAWN_SIGNALED ? -res->code
		   : timed_out ? -SIGKILL : res->code;
	results_add_run(r, v, code, flags);
	results_set_run_info(r, started_s, (double)++x->run_seq);
	if (x->pad_slot)
		results_set_env_pad(r, r->n_runs - 1, x->pad);
}

/*
 * --metric: the values this run printed into custom[] (NaN where none).
 * A successful run without one is an error (stops the benchmark, -1),
 * unless plain -i/--ignore-failure keeps it without that value; a failed
 * run (c != 0) keeps whatever it printed.
 */
static int read_metrics(struct ctx *x, struct bstate *s, off_t from, int c,
			const char *run_name, double custom[MET_COUNT])
{
	char why[200];
	int missing = -1;
	for (int m = MET_CUSTOM_FIRST; m < MET_COUNT; m++)
		custom[m] = NAN;
	int rc = metric_output_read(x->mo, s->out_fd, from, custom, &missing, why,
				    sizeof why);
	if (rc == 0 || c != 0 ||
	    (rc == -1 && x->cfg->ignore_failure && x->cfg->ignore_codes == NULL))
		return 0;
	struct bench_message m = error_of(BENCH_MSG_METRIC_MISSING,
					  (long)s->index, NULL);
	if (rc == -2)
		say(x, m, "--metric: %s in %s of '%s'", why, run_name, s->b->command);
	else
		say(x, m, "command '%s' printed no value for --metric %s in %s "
		    "(pattern '%s': %s); use -i/--ignore-failure to keep such "
		    "runs without it", s->b->command,
		    metric_info((enum metric_id)missing)->key, run_name,
		    metric_info((enum metric_id)missing)->pattern, why);
	return -1;
}

/*
 * --counters sim: what the run that just ended counted, into v's
 * simulated slots (NaN if nothing), its files removed.  A run that
 * Valgrind could not do is an error here (said in Valgrind's words
 * when it gave any); one that failed otherwise is check_run's to report.
 * Returns 0 or -1 (stop).
 */
static int sim_values(struct ctx *x, struct bstate *s, const struct spawn_result *res,
		      const char *run_name, double v[MET_COUNT])
{
	struct sim_run sr;
	char why[256];
	int rc = simcpu_collect(x->sim, &sr, why, sizeof why);
	if (sr.version[0] && !x->sim_version[0])
		snprintf(x->sim_version, sizeof x->sim_version, "%s", sr.version);
	bool ok = res->outcome == SPAWN_EXITED && res->code == 0;
	struct bench_message m = error_of(BENCH_MSG_SIM_FAILED, (long)s->index, NULL);
	if (res->left_running || sr.escaped) {
		/* Its files would come in later, into another run's. */
		say(x, m, "'%s' left a process running after it exited in %s (a "
		    "daemon or background job): its simulated count cannot be "
		    "complete, so --counters sim stops here", s->b->command,
		    run_name);
		return -1;
	}
	if (sr.complaint[0] && (rc != 0 || !ok)) {
		say(x, m, "Valgrind could not simulate '%s' in %s: %s (use wall "
		    "time or task-clock for it: --counters without sim)",
		    s->b->command, run_name, sr.complaint);
		return -1;
	}
	if (rc != 0) {
		if (ok) {
			say(x, m, "no simulated counts for '%s' in %s: %s",
			    s->b->command, run_name, why);
			return -1;
		}
		return 0;   /* failed, killed or timed out: check_run says */
	}
	v[MET_SIM_INSTRUCTIONS] = sr.c.ir;
	v[MET_SIM_CYCLES] = vgout_estimated_cycles(&sr.c);
	v[MET_SIM_I1_MISSES] = sr.c.i1mr;
	v[MET_SIM_D1_READ_MISSES] = sr.c.d1mr;
	v[MET_SIM_D1_WRITE_MISSES] = sr.c.d1mw;
	v[MET_SIM_LL_INSTR_MISSES] = sr.c.ilmr;
	v[MET_SIM_LL_READ_MISSES] = sr.c.dlmr;
	v[MET_SIM_LL_WRITE_MISSES] = sr.c.dlmw;
	if (sr.forked && !s->told_forked) {
		s->told_forked = true;
		struct bench_message w = {.severity = BENCH_WARNING,
					  .kind = BENCH_MSG_SIM_FORKED,
					  .bench = (long)s->index};
		say(x, w, "'%s' forks processes that do not exec (a subshell, "
		    "`$(...)`): Valgrind counts their parent's instructions "
		    "before the fork again in each of them (%zu of %zu "
		    "processes in %s)", s->b->command, sr.forked, sr.processes,
		    run_name);
	}
	return 0;
}

/*
 * Measured run k (0-based).  A run that timed out is recorded (flagged)
 * even when it stops the benchmark.  Returns 0, -1 (stop, exit 1), -2
 * (interrupted).
 */
static int measure(struct ctx *x, struct bstate *s, size_t k)
{
	long i = (long)s->index;
	struct spawn_result res;
	struct timespec t0;
	/* --metric: where this run's output starts in its file */
	off_t from = x->mo && s->out == SPAWN_OUT_FD && s->out_fd !=
		     metric_output_fd(x->mo) ? lseek(s->out_fd, 0, SEEK_CUR) : 0;
	clock_gettime(CLOCK_REALTIME, &t0);
	int rc = run(x, i, &s->p, s->out, s->out_fd, true, &res);
	if (rc != 0) {
		if (x->sim)
			simcpu_discard(x->sim);
		return rc;
	}
	char run_name[64];
	snprintf(run_name, sizeof run_name, "run %zu", k + 1);
	double extra[MET_COUNT];   /* simulated and --metric values */
	for (int m = 0; m < MET_COUNT; m++)
		extra[m] = NAN;
	if (x->sim && sim_values(x, s, &res, run_name, extra) != 0)
		return -1;
	if (res.self_stopped && res.outcome != SPAWN_INTERRUPTED) {
		/* Its time (and timeout) ran on while cbench was stopped:
		 * not recorded, so the planner asks for another run. */
		struct bench_message m = {.severity = BENCH_WARNING,
					  .kind = BENCH_MSG_SELF_STOPPED,
					  .bench = i};
		say(x, m, "cbench was stopped (SIGSTOP or Ctrl-Z) during %s of "
		    "'%s': that run is discarded and run again, since its time "
		    "includes the stop", run_name, s->b->command);
		return 0;
	}
	int c = check_run(x, i, s->b, &res, run_name);
	bool timed_out = res.outcome == SPAWN_TIMED_OUT;
	if (c == -2 || (c == -1 && !timed_out))
		return c;
	if (x->mo && read_metrics(x, s, from, c, run_name, extra) != 0)
		return -1;
	record_run(x, s, &res, c, (double)t0.tv_sec + t0.tv_nsec * 1e-9, extra);
	if (c == -1)
		return -1;
	s->pair_due = x->calibrated;   /* after its --conclude (take_turn) */
	return 0;
}

/* CBENCH_ITERATION (warmup-K or the run's index) for a run and its
 * prepare, and HYPERFINE_ITERATION for the run. */
static void run_iteration(struct ctx *x, struct planner_step st)
{
	set_iteration(x, st.warmup ? "CBENCH_ITERATION=warmup-%zu"
				   : "CBENCH_ITERATION=%zu", st.k);
	/* hyperfine counts warmups from 0, cbench from 1. */
	if (st.warmup)
		set_hyperfine_iteration(x, true, "HYPERFINE_ITERATION=warmup-%zu",
					st.k - 1);
	else
		set_hyperfine_iteration(x, true, "HYPERFINE_ITERATION=%zu", st.k);
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int do_step_timed(struct ctx *x, struct bstate *s, struct planner_step st);

/* Execute one step of the planner's sequence for s, adding a measured
 * run's prepare, run and conclude to its cost.  0, -1, -2. */
static int do_step(struct ctx *x, struct bstate *s, struct planner_step st)
{
	bool costs = !st.warmup && (st.kind == PLANNER_STEP_PREPARE ||
				    st.kind == PLANNER_STEP_MEASURE ||
				    st.kind == PLANNER_STEP_CONCLUDE);
	double t0 = costs ? mono_s() : 0;
	int rc = do_step_timed(x, s, st);
	if (costs)
		s->cost_s += mono_s() - t0;
	return rc;
}

static int do_step_timed(struct ctx *x, struct bstate *s, struct planner_step st)
{
	const struct plan_bench *b = s->b;
	long i = (long)s->index;
	switch (st.kind) {
	case PLANNER_STEP_START:
		return begin(x, s);
	case PLANNER_STEP_SETUP:
		set_iteration(x, "CBENCH_ITERATION=setup", 0);
		set_hyperfine_iteration(x, false, NULL, 0);
		return run_hook(x, i, "setup", b->setup, s->hook_out, -1);
	case PLANNER_STEP_PREPARE:
		run_iteration(x, st);
		/* hyperfine runs --prepare and --conclude as non-benchmark
		 * runs, without HYPERFINE_ITERATION; CBENCH_ITERATION stays. */
		set_hyperfine_iteration(x, false, NULL, 0);
		return run_hook(x, i, "prepare", b->prepare, s->hook_out, -1);
	case PLANNER_STEP_WARMUP:
		run_iteration(x, st);
		return warmup(x, s, st.k);
	case PLANNER_STEP_MEASURE:
		run_iteration(x, st);
		return measure(x, s, st.k);
	case PLANNER_STEP_CONCLUDE:
		/* The run's own CBENCH_ITERATION, set before it. */
		set_hyperfine_iteration(x, false, NULL, 0);
		return run_hook(x, i, "conclude", b->conclude, s->hook_out, -1);
	case PLANNER_STEP_WARMUP_END:
		tell_progress(x, BENCH_PROGRESS_WARMUP, s->index, st.k,
			      (size_t)x->cfg->warmup, NAN);
		return 0;
	case PLANNER_STEP_CLEANUP:
		set_iteration(x, "CBENCH_ITERATION=cleanup", 0);
		set_hyperfine_iteration(x, false, NULL, 0);
		return run_hook(x, i, "cleanup", b->cleanup, s->hook_out, -1);
	case PLANNER_STEP_RUN_END:
	case PLANNER_STEP_DONE:
		break;
	}
	return 0;
}

/*
 * s's next turn: its steps up to the end of its next measured run (with,
 * the first time, its start, setup and warmups).  Returns 0, -1 (stop,
 * exit 1), -2 (interrupted).
 */
static int take_turn(struct ctx *x, struct bstate *s)
{
	for (;;) {
		struct planner_step st = planner_steps_next(&s->steps);
		if (st.kind == PLANNER_STEP_RUN_END && s->pair_due) {
			/* A calibration pair among the runs, after the run's
			 * hooks (see shell_recorrect); in the run's budget. */
			double t0 = mono_s();
			size_t at = x->cal.n[MET_WALL];
			s->pair_due = false;
			int rc = calibration_pair(x, (long)s->index, x->cal.pairs + 3, true);
			if (rc == 0 && s->p.via_shell && s->r->n_runs > 0 &&
			    x->cal.n[MET_WALL] > at)
				s->pair_after[s->r->n_runs - 1] = at;
			s->cost_s += mono_s() - t0;
			return rc;
		}
		if (st.kind == PLANNER_STEP_RUN_END || st.kind == PLANNER_STEP_DONE)
			return 0;
		int rc = do_step(x, s, st);
		if (rc != 0)
			return rc;
	}
}

/*
 * --profile: one more run of s under callgrind, in its state (before its
 * cleanup, between its --prepare and --conclude), its profile kept with
 * its result and callgrind's files in the --profile directory (made now
 * if missing).  A profile that cannot be had is a warning: the measured
 * runs stand without it; a failing --prepare or --conclude stops the
 * benchmark as in any run.  Returns 0, -1 (the engine or a hook failed,
 * sent) or -2 (interrupted).
 */
static int profile_run(struct ctx *x, struct bstate *s)
{
	long i = (long)s->index;
	struct bench_message m = {.severity = BENCH_WARNING,
				  .kind = BENCH_MSG_SIM_FAILED, .bench = i};
	if (mkdir(x->cfg->profile, 0777) != 0 && errno != EEXIST) {
		say(x, m, "--profile %s: cannot make the directory (%s): no "
		    "profile of '%s'", x->cfg->profile, strerror(errno),
		    s->b->command);
		return 0;
	}
	struct prepared pp = {.path = xstrdup(simcpu_path(x->sim)),
			      .argv = simcpu_profile_argv(x->sim, s->p.path,
							  s->p.argv)};
	set_iteration(x, "CBENCH_ITERATION=profile", 0);
	set_hyperfine_iteration(x, false, NULL, 0);
	struct spawn_result res;
	int rc = s->b->prepare ? run_hook(x, i, "prepare", s->b->prepare,
					  s->hook_out, -1) : 0;
	if (rc == 0)
		rc = run(x, i, &pp, s->out, s->out_fd, false, &res);
	simcpu_argv_free(pp.argv);
	pp.argv = NULL;
	prepared_free(&pp);
	if (rc == 0 && res.outcome == SPAWN_INTERRUPTED)
		rc = -2;
	if (rc == 0 && s->b->conclude)
		rc = run_hook(x, i, "conclude", s->b->conclude, s->hook_out, -1);
	if (rc != 0) {
		simcpu_discard(x->sim);
		return rc;
	}
	char name[64], complaint[256], why[64] = "it did not exit with 0";
	if (res.outcome == SPAWN_TIMED_OUT)
		snprintf(why, sizeof why, "it timed out (--timeout %g s)",
			 x->cfg->timeout_s);
	snprintf(name, sizeof name, "callgrind.out.%ld", i + 1);
	struct profile *p = profile_new();
	bool ok = res.outcome == SPAWN_EXITED && (res.code == 0 ||
						  x->cfg->ignore_failure);
	if (!ok || simcpu_collect_profile(x->sim, p, x->cfg->profile, name,
					  complaint, sizeof complaint, x->err,
					  sizeof x->err) != 0) {
		if (!ok)
			simcpu_discard(x->sim);
		say(x, m, "the profiling run of '%s' under callgrind failed: %s; "
		    "its measured runs are kept", s->b->command, !ok ? why
		    : complaint[0] ? complaint : x->err);
		profile_free(p);
		return 0;
	}
	s->r->profile = p;
	s->r->profile_file = xasprintf("%s/%s", x->cfg->profile, name);
	return 0;
}

/*
 * After a benchmark's last run (or when it stops): its results are final
 * (why, if not NULL, becomes its stop reason) and no run of it follows.
 * Its cleanup and report come with bench_cleanup, at once (bench_finish)
 * or when the other benchmarks of its state group end too.  With
 * --profile, its profiling run comes first.  Returns rc, or what the
 * profiling run returned (-1: the engine failed; -2: interrupted).
 */
static int bench_end(struct ctx *x, struct bstate *s, int rc, const char *why)
{
	if (rc == 0 && why == NULL && x->sim && x->cfg->profile && s->r->n_runs > 0)
		rc = profile_run(x, s);
	struct bench_result *r = s->r;
	shell_recorrect(x, s);
	if (x->ev.runs_end)
		x->ev.runs_end(x->ev.arg, s->index);
	if (rc == 0 && why == NULL) {
		char buf[256];
		why = bench_stop_text(s->why, &x->cfg->stop, x->default_cap, r->n_runs,
				      s->cost_s, rel_halfwidth(x->cfg, s),
				      buf, sizeof buf);
		if (why)
			r->stop_reason = xstrdup(why);
	} else if (why) {
		r->stop_reason = xstrdup(why);
	} else if (rc == -1) {
		r->stop_reason = xstrdup("failed");
	}
	if (rc == -2)
		r->interrupted = true;
	s->report = rc != -1;
	planner_steps_stop(&s->steps, rc != -2);
	s->ended = true;
	return rc;
}

/* An ended benchmark's cleanup, unless interrupted (interrupted: none,
 * even if it was held), and its report (bench_done sent now when
 * report_now, else by send_done).  Returns rc, or the cleanup's
 * failure. */
static int bench_cleanup(struct ctx *x, struct bstate *s, int rc, bool report_now,
			 bool interrupted)
{
	if (interrupted)
		planner_steps_stop(&s->steps, false);
	struct planner_step st;
	while ((st = planner_steps_next(&s->steps)).kind != PLANNER_STEP_DONE) {
		int c = do_step(x, s, st);   /* the cleanup, if due */
		if (c != 0 && rc == 0)
			rc = c;
	}
	if (report_now && x->ev.bench_done)
		x->ev.bench_done(x->ev.arg, s->index, s->r, s->report);
	prepared_free(&s->p);
	s->held = false;
	s->finished = true;
	return rc;
}

/* bench_end and bench_cleanup at once.  Returns rc, or the cleanup's
 * failure. */
static int bench_finish(struct ctx *x, struct bstate *s, int rc, bool report_now,
			const char *why)
{
	rc = bench_end(x, s, rc, why);
	return bench_cleanup(x, s, rc, report_now, rc == -2);
}

/* Interleaved and shuffled: bench_done for the finished benchmarks in plan
 * order, as far as the first one still running. */
static void send_done(struct ctx *x, struct bstate *st, size_t n, size_t *next)
{
	for (; *next < n && st[*next].finished; ++*next)
		if (st[*next].ended && x->ev.bench_done)
			x->ev.bench_done(x->ev.arg, *next, st[*next].r,
					 st[*next].report);
}

/* A seed for --order=shuffled when --seed is not given. */
static uint64_t clock_seed(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t s = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	return s ^ ((uint64_t)getpid() << 32);
}

static void new_result(struct ctx *x, struct bench_outcome *out,
		       struct bstate *s)
{
	const struct plan_bench *b = s->b;
	s->r = results_new(b->name, b->command, b->params, b->n_params);
	s->r->group = b->group;
	if (x->cfg->between_tau && isfinite(x->cfg->between_tau[s->index])) {
		s->r->between_tau = x->cfg->between_tau[s->index];
		s->r->between_k = x->cfg->between_k[s->index];
	}
	results_set_short_name(s->r, b->short_name);
	enable_metrics(x, s->r);
	out->results[s->index] = s->r;
	out->n = s->index + 1;
	if (b->is_reference)
		out->reference = (long)s->index;
}

/* The loop's state across benchmarks (run_all and its helpers). */
struct loop {
	struct bstate *st;
	size_t n;
	bool seq;
	size_t done_runs, total_hint, next_done;
	struct bench_outcome *out;
	size_t n_active;              /* benchmarks still running */
	size_t round_runs, round_size; /* interleaved: runs into this round */
	size_t *group_left;           /* per state group: benchmarks not
					 ended yet */
	/* Adaptive counts (no -r), interleaved or shuffled: the benchmarks
	 * of a state group stop together (planner_group_done).  Per group:
	 * its members in plan order (gstart[g] .. gstart[g + 1] in member),
	 * the turns left in its round, and what its runs cost together. */
	bool together;
	size_t *gstart, *member;
	size_t *round_left;
	double *group_cost;
};

/*
 * After a measured run: the results changed.  Sequential: after every run;
 * interleaved and shuffled: when a round (one turn of every benchmark still
 * running) is complete, so what a front end writes holds whole rounds.
 * The front end decides how often it rewrites its files.  tell false: the
 * turn ended its benchmark, whose end is reported after the cleanup.
 */
static void after_turn(struct ctx *x, struct loop *l, bool tell)
{
	if (!l->seq) {
		if (++l->round_runs < l->round_size)
			return;
		l->round_runs = 0;
		l->round_size = l->n_active;
	}
	if (tell && x->ev.results)
		x->ev.results(x->ev.arg, l->out);
}

/* Does s take its runs in step with the other benchmarks of its state
 * group (adaptive counts, taking turns, a group of two or more)? */
static bool in_step(const struct loop *l, const struct bstate *s)
{
	size_t g = s->b->group;
	return l->together && l->gstart[g + 1] - l->gstart[g] > 1;
}

/* The runs s's group will take, from what its rounds cost so far: with
 * --min-time, until its members' runs together cost k times it. */
static size_t group_total(const struct bench_options *cfg, const struct loop *l,
			  const struct bstate *s)
{
	size_t g = s->b->group, want = (size_t)cfg->stop.min_runs;
	double k = (double)(l->gstart[g + 1] - l->gstart[g]);
	double round = l->group_cost[g] / (double)s->r->n_runs;
	if (cfg->stop.precision > 0)
		return progress_total(&cfg->stop, s->r, s->cost_s);
	if (round > 0) {
		double by_time = ceil(k * cfg->stop.min_time_s / round);
		if (by_time > (double)want)
			want = by_time > 1e9 ? 1000000000 : (size_t)by_time;
	}
	if (cfg->stop.max_runs > 0 && want > (size_t)cfg->stop.max_runs)
		want = (size_t)cfg->stop.max_runs;
	return want;
}

/*
 * After a measured run of s went well: advance the progress bar and ask
 * the planner whether s needs another.  True if it does.  A member of a
 * group in step stops here only at its own caps: the group's round end
 * decides the rest (group_round_end).
 */
static bool after_run(struct ctx *x, struct loop *l, struct bstate *s)
{
	const struct bench_options *cfg = x->cfg;
	struct bench_result *r = s->r;
	double mean = r->total_wall_s / (double)r->n_runs;
	if (l->seq) {
		tell_progress(x, BENCH_PROGRESS_CURRENT, s->index, r->n_runs,
			      progress_total(&cfg->stop, r, s->cost_s), mean);
	} else {
		size_t h = in_step(l, s) ? group_total(cfg, l, s)
					 : progress_total(&cfg->stop, r, s->cost_s);
		l->total_hint += h - s->hint;
		s->hint = h;
		tell_progress(x, BENCH_PROGRESS_RUNS, s->index, ++l->done_runs,
			      l->total_hint, mean);
	}
	double rhw = rel_halfwidth(cfg, s);
	s->why = planner_next(&cfg->stop, r->n_runs, s->cost_s, rhw);
	if (in_step(l, s))   /* its group decides, at the round's end */
		return planner_next_member(&cfg->stop, r->n_runs, s->cost_s,
					   rhw) == STOP_CONTINUE;
	return s->why == STOP_CONTINUE;
}

/* After a benchmark ended: its report in order, what the outcome says. */
static void after_bench(struct ctx *x, struct loop *l)
{
	struct bench_outcome *out = l->out;
	if (!l->seq)
		send_done(x, l->st, l->n, &l->next_done);
	if (x->calibrated) {   /* the estimate with every pair so far */
		if (out->shell == NULL)
			out->shell = xstrdup(x->shell_path);
		out->shell_overhead_s = x->overhead[MET_WALL];
		out->shell_overhead_sd = x->overhead_sd;
		out->shell_wake_s = x->cal.n_wake ? x->wake_med : NAN;
		out->shell_reap_s = x->cal.n_reap ? x->reap_med : NAN;
	}
	out->exec_exact = spawn_ptrace_errno() == 0;
}

/* A failure or an interrupt (rc) in benchmark failed stops everything:
 * bring the others that started to an end too. */
static void stop_all(struct ctx *x, struct loop *l, long failed, int rc)
{
	char why[96];
	snprintf(why, sizeof why, "stopped early: benchmark %ld failed",
		 failed + 1);
	for (size_t k = 0; k < l->n; k++)
		if (l->st[k].held)
			bench_cleanup(x, &l->st[k], 0, l->seq, rc == -2);
		else if (l->st[k].started && !l->st[k].finished)
			bench_finish(x, &l->st[k], rc == -2 ? -2 : 0, l->seq,
				     rc == -2 ? NULL : why);
	if (!l->seq) {
		/* Those that never started have nothing to report. */
		for (size_t k = 0; k < l->n; k++)
			l->st[k].finished = true;
		send_done(x, l->st, l->n, &l->next_done);
	}
	if (x->ev.results)
		x->ev.results(x->ev.arg, l->out);
}

/*
 * s ended (rc: how).  Its cleanup waits while other benchmarks of its
 * state group still take runs, since those runs must happen in the state
 * the group's setup made; the last of the group brings every held one's
 * cleanup, in plan order.  A failure or an interrupt does not wait
 * (stop_all ends the rest).  Returns rc, or a cleanup's failure.
 */
static int finish_in_group(struct ctx *x, struct loop *l, struct bstate *s,
			   int rc)
{
	size_t g = s->b->group;
	l->group_left[g]--;
	if (rc != 0 || l->seq)
		return bench_finish(x, s, rc, l->seq, NULL);
	if ((rc = bench_end(x, s, rc, NULL)) != 0)
		return bench_cleanup(x, s, rc, l->seq, false);
	s->held = true;
	if (l->group_left[g] > 0)
		return 0;
	for (size_t k = 0; k < l->n; k++)
		if (l->st[k].held && l->st[k].b->group == g) {
			int c = bench_cleanup(x, &l->st[k], 0, false, false);
			if (c != 0 && rc == 0)
				rc = c;
		}
	return rc;
}

/* The member lists of the state groups (counting sort by group), and
 * whether they take their runs in step. */
static void group_members(const struct bench_options *cfg, struct loop *l,
			  size_t n_groups)
{
	l->together = !l->seq && cfg->stop.runs == 0;
	l->gstart = xcalloc(n_groups + 2, sizeof *l->gstart);
	l->member = xcalloc(l->n ? l->n : 1, sizeof *l->member);
	l->round_left = xcalloc(n_groups + 1, sizeof *l->round_left);
	l->group_cost = xcalloc(n_groups + 1, sizeof *l->group_cost);
	for (size_t i = 0; i < l->n; i++)
		l->gstart[l->st[i].b->group + 1]++;
	for (size_t g = 0; g < n_groups; g++) {
		l->round_left[g] = l->gstart[g + 1];
		l->gstart[g + 1] += l->gstart[g];
	}
	size_t *fill = xcalloc(n_groups + 1, sizeof *fill);
	for (size_t i = 0; i < l->n; i++) {
		size_t g = l->st[i].b->group;
		l->member[l->gstart[g] + fill[g]++] = i;
	}
	free(fill);
}

/*
 * s took a turn (and ended, if a cap or a failure stopped it).  At the
 * end of its group's round, when the group has enough runs
 * (planner_group_done), every member still taking runs ends now, in plan
 * order, as after its last run.  Returns 0, or the failure of a cleanup
 * (*failed: that benchmark).
 */
static int group_round_end(struct ctx *x, struct loop *l, struct bstate *s,
			   bool *active, long *failed)
{
	const struct bench_options *cfg = x->cfg;
	size_t g = s->b->group;
	if (!in_step(l, s) || --l->round_left[g] > 0)
		return 0;
	l->round_left[g] = l->group_left[g];
	if (l->group_left[g] == 0)
		return 0;
	size_t k = l->gstart[g + 1] - l->gstart[g];
	struct planner_member *m = xcalloc(k, sizeof *m);
	for (size_t j = 0; j < k; j++) {
		size_t i = l->member[l->gstart[g] + j];
		struct bstate *t = &l->st[i];
		m[j].n = t->r ? t->r->n_runs : 0;
		m[j].cost_s = t->cost_s;
		m[j].rel_halfwidth = t->r ? rel_halfwidth(cfg, t) : NAN;
		m[j].active = active[i];
	}
	bool done = planner_group_done(&cfg->stop, m, k);
	free(m);
	if (!done)
		return 0;
	int rc = 0;
	for (size_t j = 0; j < k && rc == 0; j++) {
		size_t i = l->member[l->gstart[g] + j];
		struct bstate *t = &l->st[i];
		if (!active[i])
			continue;
		/* Its own goal, or the group's (--min-time pooled). */
		if (t->why == STOP_CONTINUE)
			t->why = STOP_ENOUGH;
		active[i] = false;
		l->n_active--;
		rc = finish_in_group(x, l, t, 0);
		after_bench(x, l);
		if (rc != 0)
			*failed = (long)i;
	}
	if (rc == 0 && x->ev.results)
		x->ev.results(x->ev.arg, l->out);
	return rc;
}

/*
 * Run every benchmark in the order --order asks for.  Sequential: each
 * benchmark from setup to cleanup before the next starts.  Interleaved and
 * shuffled: a benchmark starts (setup, warmups) when its first run comes up
 * and finishes (cleanup, report) after its last, with the other
 * benchmarks' runs in between.  Returns 0, -1 (failure), -2 (interrupted).
 */
static int run_all(struct ctx *x, struct loop *l, uint64_t seed)
{
	const struct bench_options *cfg = x->cfg;
	size_t n = l->n;
	bool *active = xcalloc(n ? n : 1, sizeof *active);
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		active[i] = true;
	l->n_active = l->round_size = n;
	l->out->results = xcalloc(n ? n : 1, sizeof *l->out->results);
	if (!l->seq)
		for (size_t i = 0; i < n; i++) {
			new_result(x, l->out, &l->st[i]);
			l->st[i].hint = progress_total(&cfg->stop, l->st[i].r, l->st[i].cost_s);
			l->total_hint += l->st[i].hint;
		}
	size_t *group = xcalloc(n ? n : 1, sizeof *group);
	l->group_left = xcalloc(n ? n : 1, sizeof *l->group_left);
	for (size_t i = 0; i < n; i++) {
		group[i] = l->st[i].b->group;
		l->group_left[group[i]]++;
	}
	size_t n_groups = 0;
	for (size_t i = 0; i < n; i++)
		if (group[i] + 1 > n_groups)
			n_groups = group[i] + 1;
	group_members(cfg, l, n_groups);
	struct planner_order *ord = planner_order_new(l->out->order, n, group, seed);
	free(group);
	long failed = -1;
	for (;;) {
		long i = planner_order_next(ord, active);
		if (i < 0)
			break;
		struct bstate *s = &l->st[i];
		if (l->seq && s->r == NULL)
			new_result(x, l->out, s);
		double cost0 = s->cost_s;
		rc = take_turn(x, s);
		l->group_cost[s->b->group] += s->cost_s - cost0;
		bool more = rc == 0 && after_run(x, l, s);
		if (!more)
			l->n_active--;
		/* (A benchmark that ends is reported after its cleanup.) */
		if (rc == 0)
			after_turn(x, l, more);
		if (!more) {
			active[i] = false;
			rc = finish_in_group(x, l, s, rc);
			after_bench(x, l);
			if (rc != 0) {
				failed = i;
				break;
			}
			if (x->ev.results)
				x->ev.results(x->ev.arg, l->out);
		}
		rc = group_round_end(x, l, s, active, &failed);
		if (rc != 0)
			break;
	}
	if (failed >= 0)
		stop_all(x, l, failed, rc);
	planner_order_free(ord);
	for (size_t i = 0; i < n; i++)
		if (l->st[i].started && !l->st[i].finished)
			prepared_free(&l->st[i].p);
	free(l->group_left);
	free(l->gstart);
	free(l->member);
	free(l->round_left);
	free(l->group_cost);
	free(active);
	return rc;
}

/* ---- the runner: pre-run checks, the run, the end ---- */

struct bench_runner {
	struct ctx x;
	struct bench_options capped;   /* cfg with bench_default_cap() applied */
	const struct plan *plan;
	struct bstate *st;
	uint64_t seed;
	bool engine;             /* spawn_init succeeded */
};

/* The --input file, opened (a pipe copied into memory).  CBENCH_EXIT_*. */
static int open_input(struct ctx *x)
{
	const char *in = x->cfg->input;
	struct bench_message m = error_of(BENCH_MSG_INPUT_UNREADABLE, -1, NULL);
	m.severity = BENCH_USAGE;
	m.exit_code = CBENCH_EXIT_USAGE;
	x->stdin_fd = open(in, O_RDONLY | O_CLOEXEC);
	if (x->stdin_fd < 0) {
		m.sys_errno = errno;
		say(x, m, "cannot read --input file '%s': %s", in, strerror(errno));
		return m.exit_code;
	}
	struct stat sb;
	if (fstat(x->stdin_fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		m.kind = BENCH_MSG_INPUT_DIRECTORY;
		say(x, m, "--input file '%s' is a directory", in);
		return m.exit_code;
	}
	if (lseek(x->stdin_fd, 0, SEEK_CUR) < 0 && errno == ESPIPE) {
		int fd = input_to_memfd(x->stdin_fd, x->err, sizeof x->err);
		if (fd < 0) {
			m.severity = BENCH_ERROR;
			m.exit_code = CBENCH_EXIT_FAILURE;
			say(x, m, "cannot read --input file '%s': %s", in, x->err);
			return m.exit_code;
		}
		close(x->stdin_fd);
		x->stdin_fd = fd;
	}
	return CBENCH_EXIT_OK;
}

/* The engine and the counters.  CBENCH_EXIT_*. */
static int open_engine(struct bench_runner *br)
{
	struct ctx *x = &br->x;
	if (spawn_init(x->err, sizeof x->err) != 0) {
		engine_error(x, -1);
		return CBENCH_EXIT_FAILURE;
	}
	br->engine = true;
	bool usage;
	x->cfg_sim = simcpu_mode(x->cfg->counters);
	if (x->cfg_sim != SIM_OFF &&
	    simcpu_new(&x->sim, x->cfg_sim, x->err, sizeof x->err) != 0) {
		struct bench_message m = error_of(BENCH_MSG_COUNTERS, -1, NULL);
		m.exit_code = CBENCH_EXIT_FAILURE;
		say(x, m, "%s", x->err);
		return m.exit_code;
	}
	/* Under Valgrind the kernel's counters would count Valgrind. */
	if (counters_new(&x->ctr, x->sim ? "none" : x->cfg->counters, &usage,
			 x->err, sizeof x->err) != 0) {
		struct bench_message m = error_of(BENCH_MSG_COUNTERS, -1, NULL);
		m.exit_code = usage ? CBENCH_EXIT_USAGE : CBENCH_EXIT_FAILURE;
		say(x, m, "%s", x->err);
		return m.exit_code;
	}
	return CBENCH_EXIT_OK;
}

/* Descriptors a run opens in cbench beyond those it holds before the first
 * run (the pipes are the launcher's, in its own process): the pidfd, plus
 * one per counter for this run and one per counter for the last run's,
 * closed while this one runs (counters_release) -- found with prlimit. */
#define RUN_FDS 1
/* Descriptors open below limit (new ones take the lowest free numbers;
 * one inherited above a lowered limit takes none of them), without the
 * directory's own; 0 if unknown. */
static size_t fds_open(size_t limit)
{
	DIR *d = opendir("/proc/self/fd");
	if (d == NULL)
		return 0;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		char *end;
		unsigned long fd = strtoul(e->d_name, &end, 10);
		if (e->d_name[0] != '.' && *end == '\0' && fd < limit &&
		    (int)fd != dirfd(d))
			n++;
	}
	closedir(d);
	return n;
}

/*
 * Enough file descriptors for a run, checked before the first one
 * (`prlimit --nofile=10`): the machine's limit, not the command, is to
 * blame.  Too few for the default counters: without them, with a note;
 * too few for counters asked for by name, or for any run: an error.
 */
static int check_fds(struct ctx *x)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return CBENCH_EXIT_OK;
	size_t limit = (size_t)rl.rlim_cur;
	size_t open = fds_open(limit);
	if (open == 0)
		return CBENCH_EXIT_OK;
	size_t free_fds = limit > open ? limit - open : 0;
	size_t n = counters_count(x->ctr);
	size_t need = n ? 2 * n : RUN_FDS;   /* the pidfd is the fallback's */
	if (free_fds >= need)
		return CBENCH_EXIT_OK;
	struct bench_message m = error_of(BENCH_MSG_ENGINE, -1, NULL);
	m.exit_code = CBENCH_EXIT_FAILURE;
	if (free_fds < RUN_FDS || (n && x->cfg->counters &&
				   strcmp(x->cfg->counters, "none") != 0)) {
		say(x, m, "too few file descriptors: the limit (RLIMIT_NOFILE, "
		    "ulimit -n) is %zu, %zu are open, and a run needs %zu more "
		    "(%zu for %zu counter%s); raise it with ulimit -n",
		    limit, open, need, 2 * n, n, n == 1 ? "" : "s");
		return m.exit_code;
	}
	counters_free(x->ctr);
	x->ctr = NULL;
	bool usage;
	if (counters_new(&x->ctr, "none", &usage, x->err, sizeof x->err) != 0) {
		say(x, m, "%s", x->err);
		return m.exit_code;
	}
	struct bench_message note = {.severity = BENCH_NOTE,
				     .kind = BENCH_MSG_COUNTERS_DROPPED,
				     .bench = -1};
	say(x, note, "counters dropped: too few file descriptors (the limit, "
	    "ulimit -n, is %zu, %zu are open; the %zu counters need %zu more); "
	    "measuring time, rusage only", limit, open, n, 2 * n);
	return CBENCH_EXIT_OK;
}

/* The shell, found if anything needs one.  CBENCH_EXIT_*. */
static int find_shell(struct ctx *x, const struct plan *plan)
{
	const struct bench_options *cfg = x->cfg;
	x->shell_name = cfg->shell_mode == SHELL_FORCE ? cfg->shell : "sh";
	x->shell_path = cmdline_resolve(x->shell_name);
	bool need_shell = cfg->shell_mode == SHELL_FORCE;
	x->shell_bench = need_shell;
	for (size_t i = 0; i < plan->n && cfg->shell_mode == SHELL_AUTO; i++) {
		const struct plan_bench *b = &plan->bench[i];
		const char *lines[] = {b->command, b->setup, b->prepare,
				       b->conclude, b->cleanup};
		for (size_t k = 0; k < sizeof lines / sizeof *lines; k++) {
			bool sh = lines[k] && cmdline_needs_shell(lines[k]);
			need_shell |= sh;
			/* lines[0], the command: prepare()'s rule (hooks
			 * under the shell are not calibrated for) */
			x->shell_bench |= sh && k == 0;
		}
	}
	if (x->shell_path == NULL && need_shell) {
		struct bench_message m = error_of(BENCH_MSG_SHELL_NOT_FOUND, -1, NULL);
		m.exit_code = cfg->shell_mode == SHELL_FORCE ? CBENCH_EXIT_USAGE
							     : CBENCH_EXIT_FAILURE;
		say(x, m, "shell '%s' not found", x->shell_name);
		return m.exit_code;
	}
	return CBENCH_EXIT_OK;
}

/* One command line of benchmark i resolved, its #! interpreter checked.
 * 0 or -1 (error sent). */
static int resolve_line(struct ctx *x, long i, const char *line,
			const char *hook)
{
	struct prepared p;
	if (prepare(x, line, false, &p, i, hook) != 0)
		return -1;
	/* A script's missing #! interpreter: said here, once, rather than
	 * read again for every hook run. */
	char *interp = p.via_shell ? NULL : missing_interpreter(p.path);
	if (interp) {
		char buf[64];
		struct bench_message m = error_of(BENCH_MSG_INTERPRETER_NOT_FOUND,
						  i, hook);
		m.sys_errno = ENOENT;
		say(x, m, "%scommand '%s': its interpreter '%s' (its #! line) is "
		    "not found", hook_prefix(hook, buf, sizeof buf), p.argv[0],
		    interp);
		free(interp);
	}
	prepared_free(&p);
	return interp ? -1 : 0;
}

/* Resolve every command and hook before the first run: a typo must not
 * cost the user the benchmarks before it.  CBENCH_EXIT_*. */
static int resolve_all(struct ctx *x, const struct plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		const struct plan_bench *b = &plan->bench[i];
		const struct {
			const char *line, *hook;
		} lines[] = {{b->setup, "setup"}, {b->prepare, "prepare"},
			     {b->command, NULL}, {b->conclude, "conclude"},
			     {b->cleanup, "cleanup"}};
		for (size_t k = 0; k < sizeof lines / sizeof *lines; k++)
			if (lines[k].line &&
			    resolve_line(x, (long)i, lines[k].line, lines[k].hook) != 0)
				return CBENCH_EXIT_FAILURE;
	}
	return CBENCH_EXIT_OK;
}

/*
 * --pin, --pin-hooks, --pin-self, --aslr and --randomize-layout, the
 * lists already checked (cli.c, and main.c that every CPU is online).
 * --pin-self moves cbench; a command not given --pin keeps the CPUs it
 * would have had without it.  CBENCH_EXIT_*.
 */
static int noise_setup(struct ctx *x)
{
	const struct bench_options *cfg = x->cfg;
	cpu_set_t before;
	bool self = cfg->pin_self && sched_getaffinity(0, sizeof before, &before) == 0;
	if (cfg->pin) {
		cpulist_parse(cfg->pin, &x->cmd_cpus, x->err, sizeof x->err);
		x->cmd_pin = &x->cmd_cpus;
	} else if (self) {
		x->cmd_cpus = before;
		x->cmd_pin = &x->cmd_cpus;
	}
	x->hook_pin = x->cmd_pin;
	x->hook_cpus = x->cmd_cpus;
	if (cfg->pin_hooks && strcmp(cfg->pin_hooks, "none") == 0) {
		x->hook_pin = self ? &x->hook_cpus : NULL;
		if (self)
			x->hook_cpus = before;
	} else if (cfg->pin_hooks) {
		cpulist_parse(cfg->pin_hooks, &x->hook_cpus, x->err, sizeof x->err);
		x->hook_pin = &x->hook_cpus;
	}
	if (cfg->pin_self) {
		cpu_set_t set;
		cpulist_parse(cfg->pin_self, &set, x->err, sizeof x->err);
		if (sched_setaffinity(0, sizeof set, &set) != 0) {
			struct bench_message m = error_of(BENCH_MSG_ENGINE, -1, NULL);
			m.sys_errno = errno;
			say(x, m, "--pin-self %s: %s", cfg->pin_self, strerror(errno));
			return CBENCH_EXIT_FAILURE;
		}
	}
	x->aslr = cfg->aslr == ASLR_ON ? SPAWN_ASLR_ON
		  : cfg->aslr == ASLR_OFF ? SPAWN_ASLR_OFF : SPAWN_ASLR_INHERIT;
	if (cfg->randomize_layout) {
		x->pad_slot = xcalloc(sizeof PAD_VAR + PAD_MAX, 1);
		memcpy(x->pad_slot, PAD_VAR "=", sizeof PAD_VAR);
		x->pad_rng = cfg->seed_given ? cfg->seed : clock_seed();
	}
	return CBENCH_EXIT_OK;
}

/* The checks of bench_open, in order; the first failure's exit code. */
static int open_checks(struct bench_runner *br)
{
	struct ctx *x = &br->x;
	const struct bench_options *cfg = x->cfg;
	const struct plan *plan = br->plan;
	int rc;
	/* Input and output files first: a bad path is a usage error that
	 * must show before anything else happens. */
	if (cfg->input && (rc = open_input(x)) != CBENCH_EXIT_OK)
		return rc;
	x->mo = metric_output_open(&rc, x->err, sizeof x->err);
	if (rc != 0) {
		engine_error(x, -1);
		return CBENCH_EXIT_FAILURE;
	}
	if (open_outputs(x, br->st, plan->n) != 0)
		return CBENCH_EXIT_USAGE;
	if ((rc = noise_setup(x)) != CBENCH_EXIT_OK ||
	    (rc = open_engine(br)) != CBENCH_EXIT_OK ||
	    (rc = check_fds(x)) != CBENCH_EXIT_OK ||
	    (rc = find_shell(x, plan)) != CBENCH_EXIT_OK)
		return rc;
	/* After the usage checks, so a bad invocation prints one line. */
	if (counters_dropped_reason(x->ctr)) {
		struct bench_message m = {.severity = BENCH_NOTE,
					  .kind = BENCH_MSG_COUNTERS_DROPPED,
					  .bench = -1};
		say(x, m, "%s", counters_dropped_reason(x->ctr));
	}
	build_env(x);
	if ((rc = resolve_all(x, plan)) != CBENCH_EXIT_OK)
		return rc;
	if (x->sim) {
		struct bench_message m = {.severity = BENCH_NOTE,
					  .kind = BENCH_MSG_SIM_NOTE, .bench = -1};
		say(x, m, "--counters %s: each run executes on Valgrind's "
		    "simulated CPU, 20-100 times slower; the times and memory "
		    "shown are Valgrind's, the (sim) counts the command's",
		    x->cfg_sim == SIM_CACHE ? "sim-cache" : "sim");
	}
	if (plan->order == ORDER_SHUFFLED) {
		br->seed = cfg->seed_given ? cfg->seed : clock_seed();
		struct bench_message m = {.severity = BENCH_NOTE,
					  .kind = BENCH_MSG_SHUFFLE_SEED,
					  .bench = -1};
		say(x, m, "--order=shuffled with seed %llu (--seed %llu repeats "
		    "this order)", (unsigned long long)br->seed,
		    (unsigned long long)br->seed);
	}
	return CBENCH_EXIT_OK;
}

int bench_open(const struct bench_options *cfg, const struct plan *plan,
	       const struct bench_events *ev, struct bench_runner **out)
{
	struct bench_runner *br = xcalloc(1, sizeof *br);
	br->x.cfg = cfg;
	br->x.stdin_fd = -1;
	if (ev)
		br->x.ev = *ev;
	/* --precision needs a cap: a copy of cfg with the default one. */
	br->capped = *cfg;
	if (bench_default_cap(&br->capped.stop)) {
		br->x.cfg = &br->capped;
		br->x.default_cap = true;
	}
	br->plan = plan;
	br->st = xcalloc(plan->n ? plan->n : 1, sizeof *br->st);
	for (size_t i = 0; i < plan->n; i++) {
		br->st[i].b = &plan->bench[i];
		br->st[i].index = i;
		planner_steps_init(&br->st[i].steps, br->x.cfg->warmup, &plan->bench[i]);
	}
	int rc = open_checks(br);
	if (rc != CBENCH_EXIT_OK) {
		bench_close(br);
		br = NULL;
	}
	*out = br;
	return rc;
}

void bench_outcome_init(struct bench_outcome *out, int exit_code)
{
	memset(out, 0, sizeof *out);
	out->reference = -1;
	out->exit_code = exit_code;
}

void bench_run(struct bench_runner *br, struct bench_outcome *out)
{
	struct ctx *x = &br->x;
	bench_outcome_init(out, CBENCH_EXIT_OK);
	out->pmu = counters_have_pmu(x->ctr);
	out->user_only = counters_user_only(x->ctr);
	out->order_seed = br->seed;
	struct loop l = {.st = br->st, .n = br->plan->n,
			 .seq = br->plan->order == ORDER_SEQUENTIAL, .out = out};
	out->order = br->plan->order;
	out->split_by_state = br->plan->split_by_state;
	out->sim = x->sim ? (int)x->cfg_sim : 0;
	int rc = run_all(x, &l, br->seed);
	snprintf(out->sim_version, sizeof out->sim_version, "%s", x->sim_version);
	if (rc == -2) {
		int sig = spawn_stop_signal();
		/* 130 SIGINT, 143 SIGTERM, 129 SIGHUP, 141 SIGPIPE. */
		out->exit_code = sig > 0 ? 128 + sig : CBENCH_EXIT_SIGINT;
	} else if (rc != 0) {
		out->exit_code = CBENCH_EXIT_FAILURE;
	}
}

void bench_close(struct bench_runner *br)
{
	if (br == NULL)
		return;
	struct ctx *x = &br->x;
	free(x->envp);
	free(x->pad_slot);
	free(x->shell_path);
	counters_free(x->ctr);
	simcpu_free(x->sim);
	metric_output_free(x->mo);
	prepared_free(&x->cal.sh);
	prepared_free(&x->cal.direct);
	for (int m = 0; m < MET_COUNT; m++)
		free(x->cal.d[m]);
	free(x->cal.own);
	free(x->cal.task_cpu);
	free(x->cal.pf_own);
	for (size_t i = 0; i < br->plan->n; i++) {
		for (int m = 0; m < MET_COUNT; m++)
			free(br->st[i].raw[m]);
		free(br->st[i].own);
		free(br->st[i].pair_after);
	}
	if (br->engine)
		spawn_shutdown();
	for (size_t i = 0; i < x->n_outs; i++)
		close(x->outs[i].fd);
	free(x->outs);
	if (x->stdin_fd >= 0)
		close(x->stdin_fd);
	free(br->st);
	free(br);
}

void bench_free_outcome(struct bench_outcome *out)
{
	for (size_t i = 0; i < out->n; i++)
		results_free(out->results[i]);
	free(out->results);
	free(out->shell);
	memset(out, 0, sizeof *out);
}
