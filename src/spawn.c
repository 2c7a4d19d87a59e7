/*
 * spawn.c: the frozen-exec engine (see spawn.h and DESIGN.md).
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
 * The child is started vfork-style: clone(CLONE_VM | CLONE_VFORK) on a
 * stack of its own, as glibc's posix_spawn does.  Nothing is copied (no page
 * tables, no copy-on-write faults afterwards), the cloning process sleeps
 * until the child has exec'd, and the child reports a failure before exec by
 * writing into the memory it shares, so no pipe is needed.  In that shared
 * address space the child makes only plain system calls (sanitizers kept
 * out) and never returns.  On the development VM this made a run of
 * /bin/true about 0.23 ms cheaper than fork() (1.46x -> 1.08x a posix_spawn
 * loop).  The clone is made by a small launcher process (see zygote_main)
 * with CLONE_PARENT, so the command is still cbench's child but its peak RSS
 * is not inflated to cbench's own size; without the launcher cbench clones
 * the child itself.
 *
 * When the kernel refuses ptrace (seccomp, Yama ptrace_scope 3) the engine
 * falls back to perf stat's method: the child parks on a pipe, counters are
 * opened on it with enable_on_exec, and it is released to exec.  Counters are
 * still exec-exact then; the wall clock includes the exec itself.
 *
 * cbench is a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so whatever a
 * command leaves behind is re-parented to cbench rather than to init: after
 * a kill, the killed group's members are reaped (no zombie is left), and
 * after every run one waitid() tells whether a daemon or background job is
 * still running, whose work the counters and rusage cannot include.
 */
#include "spawn.h"
#include "xalloc.h"

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
#include <sys/socket.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What a child reports on the error pipe before it dies. */
enum child_stage { STAGE_SETUP = 1, STAGE_TRACEME = 2, STAGE_EXEC = 3 };
struct child_report {
	int stage;
	int err;
};

static int devnull_fd = -1;
static int stop_pipe[2] = {-1, -1};
static volatile sig_atomic_t stop_sig;
static sigset_t reset_set;   /* signals the child sets back to SIG_DFL */
static bool use_ptrace = true;
static bool have_pidfd = true;     /* pidfd_open works here */
static bool sigchld_wakes;        /* our SIGCHLD handler is installed */
static int ptrace_errno;     /* why ptrace was given up, 0 if it was not */
/* Leftover processes already reported (see reap_leftovers), so a daemon
 * started by a --setup command is not blamed on every later run. */
#define KNOWN_LEFTOVERS 64
static pid_t known_left[KNOWN_LEFTOVERS];
static size_t n_known_left;
static int children_fd = -1; /* /proc/self/task/TID/children, kept open */

static void zygote_start(void);
static void zygote_stop(void);

/* Stack of the vfork-style child (see clone_child). */
#define CHILD_STACK_SIZE (256 * 1024)
static void *child_stack;
static bool use_clone_pidfd = true;

/* Without pidfd_open: a child's end wakes wait_child's poll. */
static void on_sigchld(int sig)
{
	(void)sig;
	int saved = errno;
	if (stop_pipe[1] >= 0) {
		ssize_t r = write(stop_pipe[1], "c", 1);
		(void)r;
	}
	errno = saved;
}

/* Let SIGCHLD wake wait_child's poll (when a pidfd cannot). */
static bool install_sigchld(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_sigchld;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	return sigaction(SIGCHLD, &sa, NULL) == 0;
}

int spawn_init(char *err, size_t errlen)
{
	devnull_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (devnull_fd < 0) {
		snprintf(err, errlen, "cannot open /dev/null: %s", strerror(errno));
		return -1;
	}
	if (pipe2(stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		spawn_shutdown();
		return -1;
	}
	/* The command gets default dispositions: every signal that whoever
	 * started cbench ignored, and those cbench itself handles. */
	sigemptyset(&reset_set);
	for (int s = 1; s < NSIG; s++) {
		struct sigaction sa;
		if (sigaction(s, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN)
			sigaddset(&reset_set, s);
	}
	sigaddset(&reset_set, SIGINT);
	sigaddset(&reset_set, SIGTERM);
	sigaddset(&reset_set, SIGHUP);
	sigaddset(&reset_set, SIGPIPE);
	sigaddset(&reset_set, SIGCHLD);
	/* An ignored SIGCHLD (inherited through exec) makes the kernel reap
	 * our children itself: wait4 would find none. */
	signal(SIGCHLD, SIG_DFL);
	int self = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (self >= 0) {
		close(self);
	} else {
		have_pidfd = false;
		sigchld_wakes = install_sigchld();
	}
	/* Adopt orphans: see reap_leftovers().  Failure only loses that. */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
	children_fd = open(path, O_RDONLY | O_CLOEXEC);
	if (getenv("CBENCH_TEST_NO_PTRACE"))
		use_ptrace = false, ptrace_errno = EPERM;
	/* Only the pages the child touches are ever backed. */
	child_stack = mmap(NULL, CHILD_STACK_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
			   -1, 0);
	if (child_stack == MAP_FAILED) {
		child_stack = NULL;
		snprintf(err, errlen, "cannot map a stack for the child: %s",
			 strerror(errno));
		spawn_shutdown();
		return -1;
	}
	if (use_ptrace)
		zygote_start();
	return 0;
}

void spawn_shutdown(void)
{
	if (sigchld_wakes) {
		signal(SIGCHLD, SIG_DFL);
		sigchld_wakes = false;
	}
	if (devnull_fd >= 0)
		close(devnull_fd);
	if (stop_pipe[0] >= 0) {
		close(stop_pipe[0]);
		close(stop_pipe[1]);
	}
	devnull_fd = stop_pipe[0] = stop_pipe[1] = -1;
	if (children_fd >= 0)
		close(children_fd);
	children_fd = -1;
	n_known_left = 0;
	zygote_stop();
	if (child_stack)
		munmap(child_stack, CHILD_STACK_SIZE);
	child_stack = NULL;
}

void spawn_request_stop(int sig)
{
	int saved = errno;
	if (stop_sig == 0)
		stop_sig = sig;
	if (stop_pipe[1] >= 0) {
		ssize_t r = write(stop_pipe[1], "x", 1);
		(void)r;
	}
	errno = saved;
}

int spawn_stop_signal(void)
{
	return stop_sig;
}

int spawn_ptrace_errno(void)
{
	return ptrace_errno;
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

/*
 * What the child needs.  In a vfork-style child (shared memory) a failure
 * is written straight into *shared; after fork() it goes down report_fd.
 */
struct child_args {
	const struct spawn_cmd *cmd;
	int out_fd;
	int go_fd;                       /* fallback: wait for a byte, no ptrace */
	int report_fd;                   /* fork(): close-on-exec error pipe */
	volatile struct child_report *shared; /* clone(CLONE_VM): error slot */
};

/* Code run by the child before exec shares cbench's memory when started
 * vfork-style: keep sanitizer bookkeeping (shadow poisoning of a stack that
 * is never unwound) out of it. */
#if defined(__GNUC__)
#define CHILD_CODE __attribute__((no_sanitize("address", "undefined"), noinline))
#else
#define CHILD_CODE
#endif

CHILD_CODE __attribute__((noreturn))
static void report_and_die(const struct child_args *a, int stage, int e)
{
	if (a->shared) {
		a->shared->err = e;
		a->shared->stage = stage;
	} else {
		struct child_report r = {stage, e};
		ssize_t w = write(a->report_fd, &r, sizeof r);
		(void)w;
	}
	_exit(127);
}

/* In the child, between fork/clone and exec.  Only async-signal-safe calls,
 * and nothing that touches libc state: in a vfork-style child the memory is
 * cbench's own (errno is the parent's; it is suspended and does not read it
 * before the child has exec'd or died). */
CHILD_CODE __attribute__((noreturn))
static void child_main(const struct child_args *a)
{
	const struct spawn_cmd *cmd = a->cmd;
	setpgid(0, 0);
	/* Default dispositions first, with every signal still blocked (as it
	 * was around fork/clone), so no handler of cbench's can run here. */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++)
		if (sigismember(&reset_set, s) == 1)
			sigaction(s, &dfl, NULL);
	/* An inherited mask (a blocked SIGTRAP above all) must not reach the
	 * command: a blocked SIGTRAP would suppress the exec stop. */
	sigset_t empty;
	sigemptyset(&empty);
	sigprocmask(SIG_SETMASK, &empty, NULL);

	int in = cmd->stdin_fd >= 0 ? cmd->stdin_fd : devnull_fd;
	if (dup2(in, 0) < 0)
		report_and_die(a, STAGE_SETUP, errno);
	if (cmd->output != SPAWN_OUT_INHERIT) {
		int o = cmd->output == SPAWN_OUT_NULL ? devnull_fd : a->out_fd;
		if (dup2(o, 1) < 0 || dup2(o, 2) < 0)
			report_and_die(a, STAGE_SETUP, errno);
	}
	if (a->go_fd >= 0) {
		char c;
		ssize_t n;
		while ((n = read(a->go_fd, &c, 1)) < 0 && errno == EINTR)
			;
		if (n != 1)
			_exit(127); /* cbench died before releasing us: never run unmeasured */
	} else if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0) {
		report_and_die(a, STAGE_TRACEME, errno);
	}
	execve(cmd->path, cmd->argv, cmd->envp);
	report_and_die(a, STAGE_EXEC, errno);
}

CHILD_CODE
static int clone_entry(void *arg)
{
	child_main(arg);
}

/*
 * Start the traced child vfork-style: returns its pid (cbench resumes once
 * the child has exec'd or died) or -1 with errno.  *pidfd receives a pidfd
 * when the kernel gives one with the clone (CLONE_PIDFD, Linux 5.2), else -1.
 */
static pid_t clone_child(struct child_args *a, int *pidfd)
{
	*pidfd = -1;
	void *top = (char *)child_stack + CHILD_STACK_SIZE;
	int flags = CLONE_VM | CLONE_VFORK | SIGCHLD;
	pid_t pid = -1;
	if (use_clone_pidfd) {
		pid = clone(clone_entry, top, flags | CLONE_PIDFD, a, pidfd);
		if (pid < 0 && errno == EINVAL) {
			use_clone_pidfd = false;
			*pidfd = -1;
		}
	}
	if (!use_clone_pidfd)
		pid = clone(clone_entry, top, flags, a);
	return pid;
}


/*
 * The launcher: a small process, forked from cbench once at start-up, that
 * starts every traced command for it with
 * clone(CLONE_VM | CLONE_VFORK | CLONE_PARENT).  The command is cbench's
 * child (ptrace, wait4 and its rusage work as before) but was cloned from
 * the launcher's memory, not cbench's.  This matters for peak RSS: at exec
 * the kernel folds the high-water mark of the memory the process had before
 * into its ru_maxrss (exec_mmap), so a command cloned from cbench itself
 * would report at least cbench's own resident size (about 2.7 MB, growing
 * with the runs kept), while the launcher's is a fraction of a megabyte and
 * never grows.  Per run, cbench sends the path, argv and environment (and
 * stdin/stdout as SCM_RIGHTS) over a socket; the launcher replies with the
 * pid, or why the child died before exec.
 */
struct zy_req {
	uint32_t argc, envc, blob_len;
	int32_t output;          /* enum spawn_output */
	int32_t fd_mask;         /* 1: stdin sent, 2: stdout sent (in that
				    order); else the launcher's /dev/null */
};
struct zy_rep {
	int32_t pid;             /* or -errno of the clone */
	int32_t stage, err;      /* child_report */
};

#define ZY_BLOB_MAX (1u << 20)
#define ZY_PTRS_MAX 32768
static int zy_sock = -1;
static pid_t zy_pid = -1;

static bool full_io(int fd, void *buf, size_t len, bool writing)
{
	char *p = buf;
	while (len > 0) {
		ssize_t n = writing ? send(fd, p, len, MSG_NOSIGNAL) : read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* The launcher's loop; never returns. */
__attribute__((noreturn))
static void zygote_main(int sock)
{
	static char blob[ZY_BLOB_MAX];
	static char *ptrs[ZY_PTRS_MAX];
	sigset_t all;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	prctl(PR_SET_NAME, "cbench-launch", 0, 0, 0);
	for (;;) {
		struct zy_req q;
		int fds[2] = {-1, -1};
		char cbuf[CMSG_SPACE(sizeof fds)];
		struct iovec iov = {&q, sizeof q};
		struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1,
				   .msg_control = cbuf, .msg_controllen = sizeof cbuf};
		ssize_t n = recvmsg(sock, &m, MSG_WAITALL | MSG_CMSG_CLOEXEC);
		if (n != (ssize_t)sizeof q)
			_exit(0); /* cbench has gone */
		int got[2] = {-1, -1};
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		if (c && c->cmsg_type == SCM_RIGHTS &&
		    c->cmsg_len - CMSG_LEN(0) <= sizeof got)
			memcpy(got, CMSG_DATA(c), c->cmsg_len - CMSG_LEN(0));
		int k0 = 0;
		if (q.fd_mask & 1)
			fds[0] = got[k0++];
		if (q.fd_mask & 2)
			fds[1] = got[k0];
		if (q.blob_len > ZY_BLOB_MAX || q.argc + q.envc + 3 > ZY_PTRS_MAX ||
		    !full_io(sock, blob, q.blob_len, false))
			_exit(1);
		/* blob: path, argv[0..argc), envp[0..envc), each NUL-terminated */
		char *p = blob, *end = blob + q.blob_len;
		size_t k = 0;
		for (uint32_t i = 0; i < 1 + q.argc + q.envc && p < end; i++) {
			ptrs[k++] = p;
			p += strlen(p) + 1;
			if (i == q.argc) /* after argv: its NULL, then envp */
				ptrs[k++] = NULL;
		}
		if (q.envc == 0)
			ptrs[k++] = NULL;
		ptrs[k] = NULL;
		struct spawn_cmd cmd = {
			.path = ptrs[0],
			.argv = ptrs + 1,
			.envp = ptrs + 2 + q.argc,
			.stdin_fd = fds[0], /* -1: /dev/null */
			.output = (enum spawn_output)q.output,
			.stdout_fd = fds[1],
		};
		struct child_report shared = {0, 0};
		struct child_args a = {.cmd = &cmd, .out_fd = fds[1], .go_fd = -1,
				       .report_fd = -1, .shared = &shared};
		pid_t pid = clone(clone_entry, (char *)child_stack + CHILD_STACK_SIZE,
				  CLONE_VM | CLONE_VFORK | CLONE_PARENT | SIGCHLD, &a);
		struct zy_rep r = {pid < 0 ? -errno : pid, shared.stage, shared.err};
		for (int i = 0; i < 2; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		if (!full_io(sock, &r, sizeof r, true))
			_exit(0);
	}
}

/* Fork the launcher; without one, commands are cloned from cbench. */
static void zygote_start(void)
{
	int sv[2];
	if (getenv("CBENCH_TEST_NO_LAUNCHER") ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		zygote_main(sv[1]);
	}
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return;
	}
	zy_pid = pid;
	zy_sock = sv[0];
}

static void zygote_stop(void)
{
	if (zy_sock < 0)
		return;
	close(zy_sock);
	zy_sock = -1;
	int st;
	while (waitpid(zy_pid, &st, 0) < 0 && errno == EINTR)
		;
	zy_pid = -1;
}

/*
 * Start the traced child through the launcher.  Returns its pid, -1 with
 * errno when the clone failed, or -2 when the launcher cannot be used
 * (then it is stopped and the caller clones from cbench).  *rep receives a
 * failure before exec.
 */
static pid_t zygote_spawn(const struct child_args *a, struct child_report *rep)
{
	const struct spawn_cmd *cmd = a->cmd;
	static char *blob;
	static size_t blob_cap;
	size_t len = strlen(cmd->path) + 1;
	uint32_t argc = 0, envc = 0;
	for (char *const *v = cmd->argv; *v; v++, argc++)
		len += strlen(*v) + 1;
	for (char *const *v = cmd->envp; v && *v; v++, envc++)
		len += strlen(*v) + 1;
	if (len > ZY_BLOB_MAX || argc + envc + 3 > ZY_PTRS_MAX)
		return -2;
	if (len > blob_cap) {
		blob_cap = len * 2;
		blob = xreallocarray(blob, blob_cap, 1);
	}
	char *p = blob;
	size_t n = strlen(cmd->path) + 1;
	memcpy(p, cmd->path, n);
	p += n;
	for (char *const *v = cmd->argv; *v; v++) {
		n = strlen(*v) + 1;
		memcpy(p, *v, n);
		p += n;
	}
	for (char *const *v = cmd->envp; v && *v; v++) {
		n = strlen(*v) + 1;
		memcpy(p, *v, n);
		p += n;
	}

	/* Descriptors travel only when there are some: /dev/null is the
	 * launcher's own. */
	int fds[2], n_fds = 0, mask = 0;
	if (cmd->stdin_fd >= 0)
		fds[n_fds++] = cmd->stdin_fd, mask |= 1;
	if ((cmd->output == SPAWN_OUT_PIPE || cmd->output == SPAWN_OUT_FD) &&
	    a->out_fd >= 0)
		fds[n_fds++] = a->out_fd, mask |= 2;
	struct zy_req q = {argc, envc, (uint32_t)len, (int32_t)cmd->output, mask};
	char cbuf[CMSG_SPACE(sizeof fds)];
	memset(cbuf, 0, sizeof cbuf);
	/* One sendmsg for the request, the descriptors and (usually) the
	 * whole blob. */
	struct iovec iov[2] = {{&q, sizeof q}, {blob, len}};
	struct msghdr m = {.msg_iov = iov, .msg_iovlen = 2};
	if (n_fds > 0) {
		m.msg_control = cbuf;
		m.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)n_fds);
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)n_fds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)n_fds);
	}
	struct zy_rep r;
	ssize_t sent;
	while ((sent = sendmsg(zy_sock, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	size_t done = sent > (ssize_t)sizeof q ? (size_t)sent - sizeof q : 0;
	if (sent < (ssize_t)sizeof q ||
	    !full_io(zy_sock, blob + done, len - done, true) ||
	    !full_io(zy_sock, &r, sizeof r, false)) {
		/* The launcher is gone: clone from cbench from now on. */
		zygote_stop();
		return -2;
	}
	if (r.pid == -EINVAL || r.pid == -EPERM) {
		/* CLONE_PARENT refused (a sandbox?): never will work. */
		zygote_stop();
		return -2;
	}
	if (r.pid < 0) {
		/* EAGAIN (pids limit), ENOMEM: this run's error, as a
		 * fork from cbench would have had. */
		errno = -r.pid;
		return -1;
	}
	rep->stage = r.stage;
	rep->err = r.err;
	return r.pid;
}

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

static void kill_group(pid_t pid)
{
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
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

/* How often wait_child looks for a command stopped by job control: it
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

/*
 * Wait for pid to end, draining out_fd, honouring the deadline and stop
 * requests.  pidfd (closed here) is pid's, or -1 to open one.  Returns
 * the outcome override (SPAWN_TIMED_OUT, SPAWN_INTERRUPTED or
 * SPAWN_STOPPED with the signal in *stopsig) or -1 if the command simply
 * ended; fills status/ru.
 */
static int wait_child(pid_t pid, int pidfd, int out_fd, double deadline,
		      int *status, struct rusage *ru, double *end, int *stopsig)
{
	int override = -1;
	if (pidfd < 0 && have_pidfd)
		pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0 && !sigchld_wakes)
		sigchld_wakes = install_sigchld();

	/* Without pidfd_open (Linux < 5.3, valgrind), SIGCHLD wakes the poll
	 * through the self-pipe (see spawn_init) and waitid says whether the
	 * command has ended: the output pipe is drained either way. */
	if (pidfd >= 0 || sigchld_wakes) {
		for (;;) {
			/* Checked before sleeping: the child may have ended
			 * before the handler was there to say so. */
			if (pidfd < 0 && child_ended(pid))
				break;
			struct pollfd p[3] = {
				{pidfd, POLLIN, 0},
				{stop_pipe[0], POLLIN, 0},
				{out_fd, POLLIN, 0},
			};
			int nfds = out_fd >= 0 ? 3 : 2;
			/* Wake every STOP_CHECK_MS to look for a stop.
			 * Only a shorter time left is cast to int (a long
			 * --timeout would overflow it). */
			int ms = STOP_CHECK_MS;
			if (deadline > 0) {
				double left = deadline - now_s();
				if (left * 1000 < ms)
					ms = left <= 0 ? 0 : (int)ceil(left * 1000);
			}
			int r = poll(p, (nfds_t)nfds, ms);
			if (r < 0 && errno != EINTR)
				break;
			if (r == 0 && deadline > 0 && now_s() >= deadline) {
				override = SPAWN_TIMED_OUT;
				kill_group(pid);
				break;
			}
			/* On a quiet wake, or while output flows (a stopped
			 * command writes nothing, but a helper may). */
			if (r == 0 || (nfds == 3 && p[2].revents)) {
				int sig = job_control_stop(pid);
				if (sig) {
					override = SPAWN_STOPPED;
					*stopsig = sig;
					kill_group(pid);
					break;
				}
			}
			if (r > 0 && (p[1].revents & POLLIN)) {
				drain(stop_pipe[0], 64);
				if (stop_sig) {
					override = SPAWN_INTERRUPTED;
					kill_group(pid);
					break;
				}
			}
			if (nfds == 3 && (p[2].revents & (POLLIN | POLLHUP)) &&
			    drain(out_fd, 1))
				out_fd = -1; /* EOF: stop polling it */
			if (pidfd >= 0 && r > 0 && (p[0].revents & POLLIN))
				break;
		}
		if (pidfd >= 0)
			close(pidfd);
	}
	/* Reap (at once if the loop saw the end).  Should the loop be
	 * unavailable, wait4 blocks; the signal handlers interrupt it (no
	 * SA_RESTART). */
	for (;;) {
		pid_t w = wait4(pid, status, WUNTRACED, ru);
		if (w == pid && WIFSTOPPED(*status)) {
			/* Without the loop: the same job-control check. */
			if (job_control_signal(WSTOPSIG(*status)) && override < 0) {
				override = SPAWN_STOPPED;
				*stopsig = WSTOPSIG(*status);
				kill_group(pid);
			}
			continue;
		}
		if (w == pid)
			break;
		if (w < 0 && errno == EINTR) {
			if (stop_sig && override < 0) {
				override = SPAWN_INTERRUPTED;
				kill_group(pid);
			}
			continue;
		}
		if (w < 0)
			return -2;
	}
	*end = now_s();
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
	if (pid == zy_pid)
		return true;
	for (size_t i = 0; i < n_known_left; i++)
		if (known_left[i] == pid)
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
			n_known_left = 0; /* ECHILD: nothing left at all */
			return false;
		}
		if (si.si_pid == 0)
			break; /* some child still running */
	}
	/* Which children are these (the launcher is one)?  /proc lists them;
	 * a pread of the file kept open costs well under a microsecond. */
	char buf[4096];
	ssize_t n = children_fd >= 0 ? pread(children_fd, buf, sizeof buf - 1, 0) : -1;
	if (n < 0)
		return zy_pid < 0; /* cannot tell: say so, unless it may be the launcher */
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
	memcpy(known_left, now, k * sizeof *now);
	n_known_left = k;
	return fresh;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Close whatever is still open of run_once's three pipes. */
static void close_pipes(int report[2], int out[2], int go[2])
{
	for (int i = 0; i < 2; i++) {
		close_fd(&report[i]);
		close_fd(&out[i]);
		close_fd(&go[i]);
	}
}

static int run_once(const struct spawn_cmd *cmd, struct spawn_result *res,
		    bool traced, char *err, size_t errlen)
{
	/* The traced child is started vfork-style and reports a failure
	 * before exec in shared memory; the fallback child must park before
	 * exec, which a vfork-style parent cannot wait for, so it is forked
	 * and reports on a close-on-exec pipe. */
	int report[2] = {-1, -1}, out[2] = {-1, -1}, go[2] = {-1, -1};
	struct child_report shared = {0, 0};

	if (!traced && pipe2(report, O_CLOEXEC) != 0) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	if ((cmd->output == SPAWN_OUT_PIPE && pipe2(out, O_CLOEXEC) != 0) ||
	    (!traced && pipe2(go, O_CLOEXEC) != 0)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		close_pipes(report, out, go);
		return -1;
	}
	struct child_args args = {
		.cmd = cmd,
		.out_fd = cmd->output == SPAWN_OUT_PIPE ? out[1] : cmd->stdout_fd,
		.go_fd = go[0],
		.report_fd = report[1],
		.shared = traced ? &shared : NULL,
	};

	/* Block signals around fork/clone so no handler of ours runs in the
	 * child (tmux job.c does the same). */
	sigset_t all, old;
	sigfillset(&all);
	sigprocmask(SIG_SETMASK, &all, &old);
	int pidfd = -1;
	pid_t pid;
	if (traced) {
		pid = zy_sock >= 0 ? zygote_spawn(&args, &shared) : -2;
		if (pid == -2)
			pid = clone_child(&args, &pidfd);
	} else {
		pid = fork();
		if (pid == 0)
			child_main(&args);
	}
	int fork_errno = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);

	/* The child's ends. */
	close_fd(&report[1]);
	close_fd(&out[1]);
	close_fd(&go[0]);
	if (pid < 0) {
		snprintf(err, errlen, "%s: %s", traced ? "clone" : "fork",
			 strerror(fork_errno));
		close_pipes(report, out, go);
		return -1;
	}
	/* A vfork-style child has already exec'd (or died) in its own group. */
	if (!traced)
		setpgid(pid, pid);

	int status = 0, stopsig = 0;
	struct rusage ru;
	double start = 0, end = 0;
	int rc = 0;
	bool reaped = false;

	if (traced) {
		for (;;) {
			pid_t w = waitpid(pid, &status, 0);
			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0) {
				snprintf(err, errlen, "waitpid: %s", strerror(errno));
				rc = -1;
				kill_group(pid);
				waitpid(pid, &status, 0);
				goto out;
			}
			if (WIFSTOPPED(status) && WSTOPSIG(status) == SIGTRAP)
				break;
			if (WIFSTOPPED(status)) {
				/* Some other signal before exec: pass it on. */
				ptrace(PTRACE_CONT, pid, NULL,
				       (void *)(long)WSTOPSIG(status));
				continue;
			}
			reaped = true; /* died before the exec stop */
			break;
		}
		if (!reaped) {
			if (counters_open(cmd->counters, pid, false, err, errlen) != 0) {
				kill_group(pid);
				ptrace(PTRACE_DETACH, pid, NULL, NULL);
				waitpid(pid, &status, 0);
				rc = -1;
				goto out;
			}
			/* The pidfd is opened while the child is still frozen,
			 * so nothing of ours changes once it runs. */
			if (pidfd < 0 && have_pidfd)
				pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
			start = now_s();
			if (ptrace(PTRACE_DETACH, pid, NULL, NULL) != 0) {
				snprintf(err, errlen, "ptrace(PTRACE_DETACH): %s",
					 strerror(errno));
				counters_close(cmd->counters);
				kill_group(pid);
				waitpid(pid, &status, 0);
				rc = -1;
				goto out;
			}
			/* The previous run's counters, closed while this
			 * command runs on another CPU. */
			counters_release(cmd->counters);
		}
	} else {
		if (counters_open(cmd->counters, pid, true, err, errlen) != 0) {
			kill_group(pid);
			close_fd(&go[1]);
			waitpid(pid, &status, 0);
			rc = -1;
			goto out;
		}
		start = now_s();
		ssize_t w = write(go[1], "g", 1);
		(void)w;
		close_fd(&go[1]);
		counters_release(cmd->counters);
	}

	if (!reaped) {
		double deadline = cmd->timeout_s > 0 ? start + cmd->timeout_s : 0;
		int ov = wait_child(pid, pidfd, out[0], deadline, &status, &ru,
				    &end, &stopsig);
		pidfd = -1; /* closed by wait_child */
		if (ov == -2) {
			snprintf(err, errlen, "wait4: %s", strerror(errno));
			counters_close(cmd->counters);
			rc = -1;
			goto out;
		}
		res->left_running = reap_leftovers(pid, ov >= 0);
		if (ov >= 0)
			res->outcome = (enum spawn_outcome)ov;
		else if (WIFSIGNALED(status))
			res->outcome = SPAWN_SIGNALED;
		else
			res->outcome = SPAWN_EXITED;
	}

	/* Did the child die before exec? */
	struct child_report rep = {0, 0};
	if (traced) {
		rep = shared;
	} else if (reaped || (WIFEXITED(status) && WEXITSTATUS(status) == 127)) {
		ssize_t n = read(report[0], &rep, sizeof rep);
		if (n != (ssize_t)sizeof rep)
			rep.stage = 0;
	}
	if (rep.stage == STAGE_TRACEME) {
		counters_close(cmd->counters);
		rc = 1; /* caller retries without ptrace */
		ptrace_errno = rep.err;
		goto out;
	}
	if (rep.stage != 0) {
		counters_close(cmd->counters);
		res->outcome = SPAWN_EXEC_FAILED;
		res->exec_errno = rep.err;
		goto out;
	}
	if (reaped) {
		snprintf(err, errlen, "the command died before exec");
		rc = -1;
		goto out;
	}

	res->exec_exact = traced;
	res->wall_s = end - start;
	res->code = res->outcome == SPAWN_STOPPED ? stopsig
		    : WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status);
	res->user_s = tv_s(ru.ru_utime);
	res->system_s = tv_s(ru.ru_stime);
	res->max_rss_bytes = (double)ru.ru_maxrss * 1024.0;
	res->minflt = (double)ru.ru_minflt;
	res->majflt = (double)ru.ru_majflt;
	res->nvcsw = (double)ru.ru_nvcsw;
	res->nivcsw = (double)ru.ru_nivcsw;
	if (counters_read(cmd->counters, &res->ctr, err, errlen) != 0)
		rc = -1;
out:
	close_fd(&pidfd);
	close_pipes(report, out, go);
	return rc;
}

/* An empty result: every counter "not counted" until read. */
static void result_clear(struct spawn_result *res)
{
	memset(res, 0, sizeof *res);
	for (int i = 0; i < CTR_MAX; i++)
		res->ctr.value[i] = NAN;
}

int spawn_run(const struct spawn_cmd *cmd, struct spawn_result *res,
	      char *err, size_t errlen)
{
	result_clear(res);
	if (stop_sig) {
		res->outcome = SPAWN_INTERRUPTED;
		return 0;
	}
	int rc = run_once(cmd, res, use_ptrace, err, errlen);
	if (rc == 1) {
		/* ptrace refused: fall back for this and every later run. */
		use_ptrace = false;
		zygote_stop(); /* only traced children come from the launcher */
		result_clear(res);
		rc = run_once(cmd, res, false, err, errlen);
	}
	return rc;
}
