/*
 * spawn.c: the frozen-exec engine (see spawn.h and DESIGN.md): its public
 * API, its one state struct, and a run.
 *
 * The child asks to be traced and execs; the kernel stops it after a
 * successful exec, before its first user instruction.  The parent opens the
 * counters on the stopped child, reads the clock and detaches, so counts and
 * wall time start exactly at the command's first instruction.  It then waits
 * on a pidfd together with a self-pipe written by the signal handlers (so a
 * Ctrl-C can never slip in between a check and a blocking wait), the output
 * pipe when output is drained, and the --timeout deadline.  The command
 * runs in its own (background) process group, so one that touches the
 * terminal is stopped by SIGTTOU or SIGTTIN for good: the wait wakes every
 * 250 ms to look for such a stop, kills the group and says so.
 *
 * A run, in run_once's order: run_setup (pipes), traced_launch or
 * fallback_launch, run_wait, run_collect.
 *
 * The traced launch starts the child vfork-style: clone(CLONE_VM |
 * CLONE_VFORK) on a stack of its own, as glibc's posix_spawn does.  Nothing
 * is copied (no page tables, no copy-on-write faults afterwards), the
 * cloning process sleeps until the child has exec'd, and the child reports
 * a failure before exec by writing into the memory it shares, so no pipe is
 * needed (spawn_child.c).  On the development VM this made a run of
 * /bin/true about 0.23 ms cheaper than fork() (1.46x -> 1.08x a posix_spawn
 * loop).  The clone is made by a small launcher process (spawn_launcher.c)
 * with CLONE_PARENT, so the command is still cbench's child but its peak RSS
 * is not inflated to cbench's own size; without the launcher cbench clones
 * the child itself.
 *
 * When the kernel refuses ptrace (seccomp, Yama ptrace_scope 3) the engine
 * falls back to perf stat's method (fallback_launch): the child is forked
 * and parks on a pipe, counters are opened on it with enable_on_exec, and it
 * is released to exec.  Counters are still exec-exact then; the wall clock
 * includes the exec itself.
 *
 * With shell_sideband (a shell's runs), two side-band perf events are
 * opened on the frozen child beside the counters (sideband.c) and read
 * once the run is reaped, off the clock: the shell's own time around its
 * program and on a CPU, and how long after the shell's exit it was reaped
 * (spawn_result.reap_s), which bench.c takes off.
 *
 * cbench is a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so whatever a
 * command leaves behind is re-parented to cbench rather than to init: after
 * a kill, the killed group's members are reaped (no zombie is left), and
 * after every run one waitid() tells whether a daemon or background job is
 * still running, whose work the counters and rusage cannot include.
 */
#include "sideband.h"
#include "spawn.h"
#include "spawn_int.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Stack of the vfork-style child (see spawn_child_clone). */
#define CHILD_STACK_SIZE (256 * 1024)
/* Leftover processes remembered from one run to the next. */
#define KNOWN_LEFTOVERS 64

/* Everything the engine keeps between runs: set up by spawn_init, read by
 * every run, torn down by spawn_shutdown. */
static struct spawn_state {
	/* What every child needs: /dev/null (opened by spawn_init), the
	 * signals it resets to SIG_DFL, the vfork-style child's stack. */
	struct spawn_child_env child;
	/* Self-pipe (non-blocking, close-on-exec): spawn_request_stop and,
	 * without pidfd_open, the SIGCHLD handler write it; wait_poll polls
	 * its read end. */
	int stop_pipe[2];
	/* The first signal that asked the engine to stop, 0 if none. */
	volatile sig_atomic_t stop_sig;
	/* Traced launch; false once ptrace was refused (or
	 * CBENCH_TEST_NO_PTRACE): every later run uses the fallback. */
	bool use_ptrace;
	/* errno of the refused PTRACE_TRACEME, 0 if ptrace was not given up. */
	int ptrace_errno;
	/* pidfd_open works here (not on Linux < 5.3 or under valgrind). */
	bool have_pidfd;
	/* clone takes CLONE_PIDFD (Linux 5.2); cleared at its first EINVAL. */
	bool use_clone_pidfd;
	/* on_sigchld is installed: SIGCHLD wakes wait_poll when no pidfd can. */
	bool sigchld_wakes;
	/* perf_event_open refused the side-band events (sideband.h) once. */
	bool sideband_refused;
	/* /proc/self/task/TID/children, kept open (reap_leftovers), or -1. */
	int children_fd;
	/* Leftover processes already reported (see reap_leftovers), so a
	 * daemon started by a --setup command is not blamed on every later
	 * run. */
	pid_t known_left[KNOWN_LEFTOVERS];
	size_t n_known_left;
	/* The launcher (spawn_launcher.c); sock -1 when there is none. */
	struct spawn_launcher launcher;
} state = {
	.child = {.devnull_fd = -1, .stack_size = CHILD_STACK_SIZE},
	.stop_pipe = {-1, -1},
	.use_ptrace = true,
	.have_pidfd = true,
	.use_clone_pidfd = true,
	.children_fd = -1,
	.launcher = {.sock = -1, .pid = -1},
};

/* ---- set-up, shutdown and the small public calls ---- */

/* Without pidfd_open: a child's end wakes wait_poll. */
static void on_sigchld(int sig)
{
	(void)sig;
	int saved = errno;
	if (state.stop_pipe[1] >= 0) {
		ssize_t r = write(state.stop_pipe[1], "c", 1);
		(void)r;
	}
	errno = saved;
}

/* Let SIGCHLD wake wait_poll (when a pidfd cannot). */
static bool install_sigchld(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigchld;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	return sigaction(SIGCHLD, &sa, NULL) == 0;
}

/* The command gets default dispositions: every signal that whoever started
 * cbench ignored, and those cbench itself handles. */
static void record_reset_set(sigset_t *set)
{
	sigemptyset(set);
	for (int s = 1; s < NSIG; s++) {
		struct sigaction sa;
		if (sigaction(s, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			sigaddset(set, s);
	}
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGPIPE);
	sigaddset(set, SIGCHLD);
}

int spawn_init(char *err, size_t errlen)
{
	state.child.devnull_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (state.child.devnull_fd < 0) {
		snprintf(err, errlen, "cannot open /dev/null: %s", strerror(errno));
		return -1;
	}
	if (pipe2(state.stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		spawn_shutdown();
		return -1;
	}
	record_reset_set(&state.child.reset_set);
	/* An ignored SIGCHLD (inherited through exec) makes the kernel reap
	 * our children itself: wait4 would find none. */
	signal(SIGCHLD, SIG_DFL);
	int self = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (self >= 0) {
		close(self);
	} else {
		state.have_pidfd = false;
		state.sigchld_wakes = install_sigchld();
	}
	state.sideband_refused = false;
	/* Adopt orphans: see reap_leftovers().  Failure only loses that. */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
	state.children_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (getenv("CBENCH_TEST_NO_PTRACE"))
		state.use_ptrace = false, state.ptrace_errno = EPERM;
	/* Only the pages the child touches are ever backed. */
	state.child.stack = mmap(NULL, CHILD_STACK_SIZE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
				 MAP_STACK, -1, 0);
	if (state.child.stack == MAP_FAILED) {
		state.child.stack = NULL;
		snprintf(err, errlen, "cannot map a stack for the child: %s",
			 strerror(errno));
		spawn_shutdown();
		return -1;
	}
	if (state.use_ptrace)
		spawn_launcher_start(&state.launcher, &state.child);
	return 0;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void spawn_shutdown(void)
{
	if (state.sigchld_wakes) {
		signal(SIGCHLD, SIG_DFL);
		state.sigchld_wakes = false;
	}
	close_fd(&state.child.devnull_fd);
	close_fd(&state.stop_pipe[0]);
	close_fd(&state.stop_pipe[1]);
	close_fd(&state.children_fd);
	state.n_known_left = 0;
	spawn_launcher_stop(&state.launcher);
	if (state.child.stack)
		munmap(state.child.stack, CHILD_STACK_SIZE);
	state.child.stack = NULL;
}

/* SIGCONTs received: cbench was stopped (SIGSTOP, Ctrl-Z) and resumed. */
static volatile sig_atomic_t continued;

void spawn_note_continued(void)
{
	continued++;
}

void spawn_request_stop(int sig)
{
	int saved = errno;
	if (state.stop_sig == 0)
		state.stop_sig = sig;
	if (state.stop_pipe[1] >= 0) {
		ssize_t r = write(state.stop_pipe[1], "x", 1);
		(void)r;
	}
	errno = saved;
}

int spawn_stop_signal(void)
{
	return state.stop_sig;
}

int spawn_ptrace_errno(void)
{
	return state.ptrace_errno;
}

const char *spawn_signal_name(int sig)
{
	static char buf[32];
	const char *abbrev = sigabbrev_np(sig);
	if (abbrev)
		snprintf(buf, sizeof buf, "SIG%s", abbrev);
	else
		snprintf(buf, sizeof buf, "signal %d", sig);
	return buf;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

static void kill_group(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
}

/* ---- one run ---- */

/* One run: its pipes, its child and what was measured, from run_setup to
 * run_close. */
struct run {
	const struct spawn_cmd *cmd;
	bool traced;                 /* traced launch, else the fallback */
	/* The traced child is started vfork-style and reports a failure
	 * before exec in shared memory; the fallback child must park before
	 * exec, which a vfork-style parent cannot wait for, so it is forked
	 * and reports on a close-on-exec pipe. */
	int report[2];               /* fallback: the child's error pipe */
	int out[2];                  /* SPAWN_OUT_PIPE: output cbench drains */
	int go[2];                   /* fallback: one byte releases the child */
	struct child_report shared;  /* traced: the child's failure before exec */
	struct child_args args;
	pid_t pid;
	int pidfd;                   /* the child's pidfd, or -1 */
	struct sideband sb;          /* shell_sideband: opened at the release */
	bool reaped;                 /* traced child died before the exec stop */
	double start, end;           /* clock at the release and at the reap */
	int status;                  /* wait status */
	int stopsig;                 /* SPAWN_STOPPED: the job-control signal */
	struct rusage ru;
};

/* Open this run's pipes and fill the child's instructions.  Returns 0 or
 * -1 with a message; run_close closes what was opened either way. */
static int run_setup(struct run *r, const struct spawn_cmd *cmd, bool traced,
		     char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	r->cmd = cmd;
	r->traced = traced;
	r->report[0] = r->report[1] = r->out[0] = r->out[1] = -1;
	r->go[0] = r->go[1] = -1;
	r->pid = -1;
	r->pidfd = -1;
	sideband_init(&r->sb);
	if ((!traced && pipe2(r->report, O_CLOEXEC) != 0) ||
	    (cmd->output == SPAWN_OUT_PIPE && pipe2(r->out, O_CLOEXEC) != 0) ||
	    (!traced && pipe2(r->go, O_CLOEXEC) != 0)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	r->args = (struct child_args){
		.env = &state.child,
		.cmd = cmd,
		.out_fd = cmd->output == SPAWN_OUT_PIPE ? r->out[1] : cmd->stdout_fd,
		.go_fd = r->go[0],
		.report_fd = r->report[1],
		.shared = traced ? &r->shared : NULL,
	};
	return 0;
}

/* After the fork or clone: close the child's ends of the pipes. */
static void close_child_ends(struct run *r)
{
	close_fd(&r->report[1]);
	close_fd(&r->out[1]);
	close_fd(&r->go[0]);
}

static void run_close(struct run *r)
{
	close_fd(&r->pidfd);
	sideband_close(&r->sb);
	for (int i = 0; i < 2; i++) {
		close_fd(&r->report[i]);
		close_fd(&r->out[i]);
		close_fd(&r->go[i]);
	}
}

/* The side-band events of a shell_sideband run, on the frozen child (before
 * the clock starts).  Where perf_event_open refuses them once, they are
 * not tried again: the runs go on without (spawn_result.reap_s NaN). */
static void side_open(struct run *r, bool before_exec)
{
	if (!r->cmd->shell_sideband || state.sideband_refused)
		return;
	/* its own page faults as its counters count them (without
	 * counters, user mode only: allowed at any perf_event_paranoid) */
	const struct counters *c = r->cmd->counters;
	if (sideband_open(&r->sb, r->pid, before_exec,
			  c == NULL || counters_user_only(c)) != 0 &&
	    errno != ENOMEM &&
	    errno != EMFILE && errno != ENFILE)
		state.sideband_refused = true;
}

/* Block every signal around fork/clone so no handler of ours runs in the
 * child (tmux job.c does the same); *old receives the mask to restore. */
static void block_signals(sigset_t *old)
{
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, old);
}

/* Clone the traced child from cbench itself (no launcher): with a pidfd
 * when the kernel gives one with the clone (CLONE_PIDFD, Linux 5.2). */
static pid_t clone_from_cbench(struct child_args *a, int *pidfd)
{
	*pidfd = -1;
	pid_t pid = -1;
	if (state.use_clone_pidfd) {
		pid = spawn_child_clone(a, CLONE_PIDFD, pidfd);
		if (pid < 0 && errno == EINVAL) {
			state.use_clone_pidfd = false;
			*pidfd = -1;
		}
	}
	if (!state.use_clone_pidfd)
		pid = spawn_child_clone(a, 0, NULL);
	return pid;
}

/*
 * Wait for the traced child's exec stop (a SIGTRAP stop), passing any
 * other signal on.  Sets r->reaped when it died before the stop (its
 * report says why).  Returns 0, or -1 with a message (the child killed).
 */
static int wait_exec_stop(struct run *r, char *err, size_t errlen)
{
	for (;;) {
		pid_t w = waitpid(r->pid, &r->status, 0);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			snprintf(err, errlen, "waitpid: %s", strerror(errno));
			kill_group(r->pid);
			waitpid(r->pid, &r->status, 0);
			return -1;
		}
		if (WIFSTOPPED(r->status) && WSTOPSIG(r->status) == SIGTRAP)
			return 0;
		if (!WIFSTOPPED(r->status)) {
			r->reaped = true; /* died before the exec stop */
			return 0;
		}
		/* Some other signal before exec: pass it on. */
		ptrace(PTRACE_CONT, r->pid, NULL, (void *)(long)WSTOPSIG(r->status));
	}
}

/*
 * The traced launch: clone vfork-style (through the launcher when there is
 * one), wait for the exec stop, open the counters on the frozen child,
 * open its pidfd, read the clock, detach.  Returns 0 (the command runs, or
 * r->reaped: it died before exec) or -1 with a message.
 */
static int traced_launch(struct run *r, char *err, size_t errlen)
{
	sigset_t old;
	block_signals(&old);
	pid_t pid = state.launcher.sock >= 0
		    ? spawn_launcher_spawn(&state.launcher, &r->args, &r->shared)
		    : -2;
	if (pid == -2)
		pid = clone_from_cbench(&r->args, &r->pidfd);
	int clone_errno = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close_child_ends(r);
	if (pid < 0) {
		snprintf(err, errlen, "clone: %s", strerror(clone_errno));
		return -1;
	}
	r->pid = pid; /* already exec'd (or died) in its own group */

	if (wait_exec_stop(r, err, errlen) != 0)
		return -1;
	if (r->reaped)
		return 0;
	if (counters_open(r->cmd->counters, pid, false, err, errlen) != 0) {
		kill_group(pid);
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
		waitpid(pid, &r->status, 0);
		return -1;
	}
	/* The pidfd is opened while the child is still frozen, so nothing of
	 * ours changes once it runs. */
	if (r->pidfd < 0 && state.have_pidfd)
		r->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	side_open(r, false);
	r->start = now_s();
	if (ptrace(PTRACE_DETACH, pid, NULL, NULL) != 0) {
		snprintf(err, errlen, "ptrace(PTRACE_DETACH): %s", strerror(errno));
		counters_close(r->cmd->counters);
		kill_group(pid);
		waitpid(pid, &r->status, 0);
		return -1;
	}
	/* The previous run's counters, closed while this command runs on
	 * another CPU. */
	counters_release(r->cmd->counters);
	return 0;
}

/*
 * The fallback launch (ptrace refused): fork a child that parks on the go
 * pipe, open the counters on it with enable_on_exec, read the clock and
 * release it to exec.  Returns 0 or -1 with a message.
 */
static int fallback_launch(struct run *r, char *err, size_t errlen)
{
	sigset_t old;
	block_signals(&old);
	pid_t pid = fork();
	if (pid == 0)
		spawn_child_main(&r->args);
	int fork_errno = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close_child_ends(r);
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(fork_errno));
		return -1;
	}
	r->pid = pid;
	setpgid(pid, pid);

	if (counters_open(r->cmd->counters, pid, true, err, errlen) != 0) {
		kill_group(pid);
		close_fd(&r->go[1]);
		waitpid(pid, &r->status, 0);
		return -1;
	}
	side_open(r, true);
	r->start = now_s();
	ssize_t w = write(r->go[1], "g", 1);
	(void)w;
	close_fd(&r->go[1]);
	counters_release(r->cmd->counters);
	return 0;
}

/* ---- waiting for the command ---- */

/* Read what is waiting in fd (non-blocking), at most max_chunks reads: a
 * daemon that keeps writing must not keep us here forever. */
static bool drain(int fd, int max_chunks)
{
	static char sink[65536];
	for (int i = 0; i < max_chunks; i++) {
		ssize_t n = read(fd, sink, sizeof sink);
		if (n == 0)
			return true; /* EOF */
		if (n < 0)
			break;
	}
	return false;
}

/* Has pid ended (without reaping it)?  An error counts as ended: the
 * blocking wait4 that follows then reports it. */
static bool child_ended(pid_t pid)
{
	siginfo_t si;
	si.si_pid = 0;
	return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0 ||
	       si.si_pid != 0;
}

/* How often wait_poll looks for a command stopped by job control: it
 * sleeps in poll, so a run shorter than this costs nothing more. */
#define STOP_CHECK_MS 250

static bool job_control_signal(int sig)
{
	return sig == SIGTTOU || sig == SIGTTIN || sig == SIGTSTP;
}

/*
 * Is pid stopped by job control?  The command runs in a process group of
 * its own, which never owns the terminal: touching it (tcsetattr, a read,
 * a write under `stty tostop`) stops the command for good, and a pidfd or
 * SIGCHLD (SA_NOCLDSTOP) only report its end.  Returns the signal or 0;
 * the stop stays reportable (WNOWAIT).
 */
static int job_control_stop(pid_t pid)
{
	siginfo_t si;
	si.si_pid = 0;
	if (waitid(P_PID, (id_t)pid, &si, WSTOPPED | WNOHANG | WNOWAIT) != 0 ||
	    si.si_pid != pid || si.si_code != CLD_STOPPED)
		return 0;
	return job_control_signal(si.si_status) ? si.si_status : 0;
}

/* poll's timeout: STOP_CHECK_MS, or less when the deadline is nearer.
 * Only a shorter time left is cast to int (a long --timeout would
 * overflow it). */
static int poll_timeout_ms(double deadline)
{
	int ms = STOP_CHECK_MS;
	if (deadline > 0) {
		double left = deadline - now_s();
		if (left * 1000 < ms)
			ms = left <= 0 ? 0 : (int)ceil(left * 1000);
	}
	return ms;
}

/*
 * Sleep until pid ends: on its pidfd, or (pidfd -1) on SIGCHLD through the
 * self-pipe, waitid telling whether it has ended.  Meanwhile drain *out_fd
 * (set to -1 at EOF), honour the deadline and stop requests, and look for
 * a job-control stop.  Returns SPAWN_TIMED_OUT, SPAWN_INTERRUPTED or
 * SPAWN_STOPPED (signal in *stopsig) after killing the group, or -1 when
 * the command ended by itself (or poll failed: wait4 tells).
 */
static int wait_poll(pid_t pid, int pidfd, int *out_fd, double deadline,
		     int *stopsig)
{
	for (;;) {
		/* Checked before sleeping: the child may have ended before the
		 * handler was there to say so. */
		if (pidfd < 0 && child_ended(pid))
			return -1;
		struct pollfd p[3] = {
			{pidfd, POLLIN, 0},
			{state.stop_pipe[0], POLLIN, 0},
			{*out_fd, POLLIN, 0},
		};
		int nfds = *out_fd >= 0 ? 3 : 2;
		int r = poll(p, (nfds_t)nfds, poll_timeout_ms(deadline));
		if (r < 0 && errno != EINTR)
			return -1;
		if (r == 0 && deadline > 0 && now_s() >= deadline) {
			kill_group(pid);
			return SPAWN_TIMED_OUT;
		}
		/* On a quiet wake, or while output flows (a stopped command
		 * writes nothing, but a helper may). */
		if (r == 0 || (nfds == 3 && p[2].revents)) {
			int sig = job_control_stop(pid);
			if (sig) {
				*stopsig = sig;
				kill_group(pid);
				return SPAWN_STOPPED;
			}
		}
		if (r > 0 && (p[1].revents & POLLIN)) {
			drain(state.stop_pipe[0], 64);
			if (state.stop_sig) {
				kill_group(pid);
				return SPAWN_INTERRUPTED;
			}
		}
		if (nfds == 3 && (p[2].revents & (POLLIN | POLLHUP)) &&
		    drain(*out_fd, 1))
			*out_fd = -1; /* EOF: stop polling it */
		if (pidfd >= 0 && r > 0 && (p[0].revents & POLLIN))
			return -1;
	}
}

/*
 * Reap pid with its rusage (at once if wait_poll saw the end).  Should
 * wait_poll be unavailable, wait4 blocks; the signal handlers interrupt it
 * (no SA_RESTART), and a job-control stop or a stop request is acted on
 * here, setting *override as wait_poll would have.  Returns 0, or -1 with
 * errno from wait4.
 */
static int reap_child(pid_t pid, int *status, struct rusage *ru,
		      int *override, int *stopsig)
{
	for (;;) {
		pid_t w = wait4(pid, status, WUNTRACED, ru);
		if (w == pid && WIFSTOPPED(*status)) {
			if (job_control_signal(WSTOPSIG(*status)) && *override < 0) {
				*override = SPAWN_STOPPED;
				*stopsig = WSTOPSIG(*status);
				kill_group(pid);
			}
			continue;
		}
		if (w == pid)
			return 0;
		if (w < 0 && errno == EINTR) {
			if (state.stop_sig && *override < 0) {
				*override = SPAWN_INTERRUPTED;
				kill_group(pid);
			}
			continue;
		}
		if (w < 0)
			return -1;
	}
}

/*
 * Wait for the command to end and reap it (r->status, r->ru, r->end),
 * draining its output pipe; r->pidfd is used (or one opened) and closed
 * here.  Returns the outcome override (SPAWN_TIMED_OUT, SPAWN_INTERRUPTED,
 * SPAWN_STOPPED), -1 if the command simply ended, or -2 when wait4 failed
 * (errno says why).
 */
static int wait_child(struct run *r, double deadline)
{
	int override = -1;
	int pidfd = r->pidfd;
	r->pidfd = -1;
	if (pidfd < 0 && state.have_pidfd)
		pidfd = (int)syscall(SYS_pidfd_open, r->pid, 0);
	if (pidfd < 0 && !state.sigchld_wakes)
		state.sigchld_wakes = install_sigchld();

	/* Without pidfd_open (Linux < 5.3, valgrind), SIGCHLD wakes the poll
	 * through the self-pipe (see spawn_init) and waitid says whether the
	 * command has ended: the output pipe is drained either way. */
	int out_fd = r->out[0];
	if (pidfd >= 0 || state.sigchld_wakes) {
		override = wait_poll(r->pid, pidfd, &out_fd, deadline, &r->stopsig);
		if (pidfd >= 0)
			close(pidfd);
	}
	if (reap_child(r->pid, &r->status, &r->ru, &override, &r->stopsig) != 0)
		return -2;
	r->end = now_s();
	if (out_fd >= 0) {
		/* Whatever the command left in the pipe; don't wait for EOF,
		 * a daemonised grandchild may hold the pipe open forever. */
		int fl = fcntl(out_fd, F_GETFL);
		fcntl(out_fd, F_SETFL, fl | O_NONBLOCK);
		drain(out_fd, 64);
	}
	return override;
}

/* Is pid the launcher, or one of the leftovers reported before? */
static bool known_leftover(pid_t pid)
{
	if (pid == state.launcher.pid)
		return true;
	for (size_t i = 0; i < state.n_known_left; i++)
		if (state.known_left[i] == pid)
			return true;
	return false;
}

/*
 * Called once the command (process group leader pgid) is reaped.  After a
 * kill, wait for every member of its group (re-parented to us as their
 * parents die), so no zombie is left.  Then reap leftovers that have ended
 * and report whether one is still running that was not running after the
 * previous run: the command left a daemon or background job.  Without a
 * launcher and with nothing left this costs one waitid(); with the launcher
 * (always running) one pread() more.
 */
static bool reap_leftovers(pid_t pgid, bool killed)
{
	siginfo_t si;
	if (killed)
		while (waitid(P_PGID, (id_t)pgid, &si, WEXITED) == 0 || errno == EINTR)
			;
	for (;;) {
		si.si_pid = 0;
		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG) != 0) {
			if (errno == EINTR)
				continue;
			state.n_known_left = 0; /* ECHILD: nothing left at all */
			return false;
		}
		if (si.si_pid == 0)
			break; /* some child still running */
	}
	/* Which children are these (the launcher is one)?  /proc lists them;
	 * a pread of the file kept open costs well under a microsecond. */
	char buf[4096];
	ssize_t n = state.children_fd >= 0
		    ? pread(state.children_fd, buf, sizeof buf - 1, 0) : -1;
	if (n < 0) /* cannot tell: say so, unless it may be the launcher */
		return state.launcher.pid < 0;
	buf[n] = '\0';
	bool fresh = false;
	pid_t now[KNOWN_LEFTOVERS];
	size_t k = 0;
	for (char *p = buf, *end; *p; p = end) {
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		if (!known_leftover((pid_t)v))
			fresh = true;
		if (k < KNOWN_LEFTOVERS)
			now[k++] = (pid_t)v;
	}
	memcpy(state.known_left, now, k * sizeof *now);
	state.n_known_left = k;
	return fresh;
}

/* Wait for the launched command and say how it ended (res->outcome,
 * res->left_running).  Returns 0 or -1 with a message. */
static int run_wait(struct run *r, struct spawn_result *res,
		    char *err, size_t errlen)
{
	double deadline = r->cmd->timeout_s > 0 ? r->start + r->cmd->timeout_s : 0;
	int ov = wait_child(r, deadline);
	if (ov == -2) {
		snprintf(err, errlen, "wait4: %s", strerror(errno));
		counters_close(r->cmd->counters);
		return -1;
	}
	/* What the command started in its own process group (background
	 * jobs) ends with it, unless asked otherwise; the clock and the
	 * counters have stopped. */
	bool kill_bg = !r->cmd->keep_group && ov < 0;
	if (kill_bg)
		kill(-r->pid, SIGKILL);
	res->left_running = reap_leftovers(r->pid, ov >= 0 || kill_bg);
	if (ov >= 0)
		res->outcome = (enum spawn_outcome)ov;
	else if (WIFSIGNALED(r->status))
		res->outcome = SPAWN_SIGNALED;
	else
		res->outcome = SPAWN_EXITED;
	return 0;
}

/* ---- the results ---- */

/* What the child reported about a failure before exec ({0, 0}: none). */
static struct child_report child_failure(const struct run *r)
{
	struct child_report rep = {0, 0};
	if (r->traced)
		return r->shared;
	if (r->reaped || (WIFEXITED(r->status) && WEXITSTATUS(r->status) == 127)) {
		ssize_t n = read(r->report[0], &rep, sizeof rep);
		if (n != (ssize_t)sizeof rep)
			rep.stage = 0;
	}
	return rep;
}

/*
 * Fill res from the reaped child: a failure before exec, or the clock,
 * exit status, rusage and counters.  Returns 0, 1 when PTRACE_TRACEME was
 * refused (the caller retries without ptrace), or -1 with a message.
 */
static int run_collect(struct run *r, struct spawn_result *res,
		       char *err, size_t errlen)
{
	struct child_report rep = child_failure(r);
	if (rep.stage == STAGE_TRACEME) {
		counters_close(r->cmd->counters);
		state.ptrace_errno = rep.err;
		return 1;
	}
	if (rep.stage != 0) {
		counters_close(r->cmd->counters);
		res->outcome = SPAWN_EXEC_FAILED;
		res->exec_errno = rep.err;
		return 0;
	}
	if (r->reaped) {
		snprintf(err, errlen, "the command died before exec");
		return -1;
	}

	const struct rusage *ru = &r->ru;
	res->exec_exact = r->traced;
	res->wall_s = r->end - r->start;
	/* Read off the clock: the buffer outlives the reap.  A run cut short
	 * (timeout, stop, Ctrl-C) has nothing taken off. */
	if (r->cmd->shell_sideband) {
		if (res->outcome == SPAWN_EXITED || res->outcome == SPAWN_SIGNALED)
			sideband_read(&r->sb, r->pid, r->start, r->end,
				      &res->wake_s, &res->reap_s,
				      &res->serial_s, &res->shell_cpu_s,
				      &res->shell_faults);
		else
			res->wake_s = res->reap_s = 0;
	}
	res->code = res->outcome == SPAWN_STOPPED ? r->stopsig
		    : WIFEXITED(r->status) ? WEXITSTATUS(r->status)
		    : WTERMSIG(r->status);
	res->user_s = tv_s(ru->ru_utime);
	res->system_s = tv_s(ru->ru_stime);
	res->max_rss_bytes = (double)ru->ru_maxrss * 1024.0;
	res->minflt = (double)ru->ru_minflt;
	res->majflt = (double)ru->ru_majflt;
	res->nvcsw = (double)ru->ru_nvcsw;
	res->nivcsw = (double)ru->ru_nivcsw;
	if (counters_read(r->cmd->counters, &res->ctr, err, errlen) != 0)
		return -1;
	return 0;
}

/* One run, traced or not.  Returns 0, 1 (ptrace refused: retry with the
 * fallback) or -1 with a message. */
static int run_once(const struct spawn_cmd *cmd, struct spawn_result *res,
		    bool traced, char *err, size_t errlen)
{
	struct run r;
	int rc = run_setup(&r, cmd, traced, err, errlen);
	if (rc == 0)
		rc = traced ? traced_launch(&r, err, errlen)
			    : fallback_launch(&r, err, errlen);
	if (rc == 0 && !r.reaped)
		rc = run_wait(&r, res, err, errlen);
	if (rc == 0)
		rc = run_collect(&r, res, err, errlen);
	run_close(&r);
	return rc;
}

/* An empty result: every counter "not counted" until read. */
static void result_clear(struct spawn_result *res)
{
	memset(res, 0, sizeof *res);
	for (int i = 0; i < CTR_MAX; i++)
		res->ctr.value[i] = NAN;
	res->wake_s = res->reap_s = res->serial_s = res->shell_cpu_s = NAN;
	res->shell_faults = NAN;
}

int spawn_run(const struct spawn_cmd *cmd, struct spawn_result *res,
	      char *err, size_t errlen)
{
	result_clear(res);
	if (state.stop_sig) {
		res->outcome = SPAWN_INTERRUPTED;
		return 0;
	}
	sig_atomic_t conts = continued;
	int rc = run_once(cmd, res, state.use_ptrace, err, errlen);
	if (rc == 1) {
		/* ptrace refused: fall back for this and every later run. */
		state.use_ptrace = false;
		/* Only traced children come from the launcher. */
		spawn_launcher_stop(&state.launcher);
		result_clear(res);
		rc = run_once(cmd, res, false, err, errlen);
	}
	res->self_stopped = continued != conts;
	return rc;
}
