/*
 * spawn_launcher.c: the launcher, a small process forked from cbench once
 * at start-up that starts every traced command for it with
 * clone(CLONE_VM | CLONE_VFORK | CLONE_PARENT).
 *
 * The command is cbench's child (ptrace, wait4 and its rusage work as
 * before) but was cloned from the launcher's memory, not cbench's.  This
 * matters for peak RSS: at exec the kernel folds the high-water mark of the
 * memory the process had before into its ru_maxrss (exec_mmap), so a
 * command cloned from cbench itself would report at least cbench's own
 * resident size (about 2.7 MB, growing with the runs kept), while the
 * launcher's is a fraction of a megabyte and never grows.
 *
 * Per run, cbench sends the path, argv and environment (and stdin/stdout as
 * SCM_RIGHTS) over a socket pair, with the CPU set first in the blob when
 * the command is pinned; the launcher replies with the pid, or why
 * the child died before exec.  The cbench side keeps its state in the
 * struct spawn_launcher it is given (spawn.c owns it); the launcher
 * process's buffers are its own.
 */
#include "spawn_int.h"
#include "xalloc.h"

#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

struct zy_req {
	uint32_t argc, envc, blob_len;
	int32_t output;          /* enum spawn_output */
	int32_t fd_mask;         /* 1: stdin sent, 2: stdout sent (in that
				    order); else the launcher's /dev/null */
	int32_t aslr;            /* spawn_cmd.aslr */
	int32_t pinned;          /* 1: the blob starts with a cpu_set_t */
};
struct zy_rep {
	int32_t pid;             /* or -errno of the clone */
	int32_t stage, err;      /* child_report */
};

#define ZY_BLOB_MAX (1u << 20)
#define ZY_PTRS_MAX 32768

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

/* ---- the launcher process ---- */

/*
 * Receive one request: the header with its descriptors (fds[0] stdin,
 * fds[1] stdout, -1 where none was sent), then the rest of the blob.
 * Returns 0, 1 when cbench has gone, or -1 on a malformed request.
 */
static int zy_receive(int sock, struct zy_req *q, int fds[2], char *blob)
{
	int got[2] = {-1, -1};
	char cbuf[CMSG_SPACE(sizeof got)];
	struct iovec iov = {q, sizeof *q};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1,
			   .msg_control = cbuf, .msg_controllen = sizeof cbuf};
	ssize_t n = recvmsg(sock, &m, MSG_WAITALL | MSG_CMSG_CLOEXEC);
	if (n != (ssize_t)sizeof *q)
		return 1;
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	if (c && c->cmsg_type == SCM_RIGHTS &&
	    c->cmsg_len - CMSG_LEN(0) <= sizeof got)
		memcpy(got, CMSG_DATA(c), c->cmsg_len - CMSG_LEN(0));
	int k = 0;
	fds[0] = fds[1] = -1;
	if (q->fd_mask & 1)
		fds[0] = got[k++];
	if (q->fd_mask & 2)
		fds[1] = got[k];
	if (q->blob_len > ZY_BLOB_MAX || q->argc + q->envc + 3 > ZY_PTRS_MAX ||
	    !full_io(sock, blob, q->blob_len, false))
		return -1;
	return 0;
}

/* Point ptrs into blob (path, argv[0..argc), envp[0..envc), each
 * NUL-terminated): ptrs[0] the path, then argv and its NULL, then envp and
 * its NULL. */
static void zy_unpack(const struct zy_req *q, char *blob, char **ptrs)
{
	char *p = blob, *end = blob + q->blob_len;
	size_t k = 0;
	for (uint32_t i = 0; i < 1 + q->argc + q->envc && p < end; i++) {
		ptrs[k++] = p;
		p += strlen(p) + 1;
		if (i == q->argc) /* after argv: its NULL, then envp */
			ptrs[k++] = NULL;
	}
	if (q->envc == 0)
		ptrs[k++] = NULL;
	ptrs[k] = NULL;
}

/* The launcher's loop; never returns. */
__attribute__((noreturn))
static void zygote_main(int sock, const struct spawn_child_env *env)
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
		int fds[2];
		int rc = zy_receive(sock, &q, fds, blob);
		if (rc != 0)
			_exit(rc > 0 ? 0 : 1); /* 0: cbench has gone */
		cpu_set_t cpus;
		size_t skip = q.pinned ? sizeof cpus : 0;
		if (skip > q.blob_len)
			_exit(1);
		if (skip)
			memcpy(&cpus, blob, sizeof cpus);
		q.blob_len -= (uint32_t)skip;
		zy_unpack(&q, blob + skip, ptrs);
		struct spawn_cmd cmd = {
			.path = ptrs[0],
			.argv = ptrs + 1,
			.envp = ptrs + 2 + q.argc,
			.stdin_fd = fds[0], /* -1: /dev/null */
			.output = (enum spawn_output)q.output,
			.stdout_fd = fds[1],
			.cpus = skip ? &cpus : NULL,
			.aslr = q.aslr,
		};
		struct child_report shared = {0, 0};
		struct child_args a = {.env = env, .cmd = &cmd, .out_fd = fds[1],
				       .go_fd = -1, .report_fd = -1,
				       .shared = &shared};
		pid_t pid = spawn_child_clone(&a, CLONE_PARENT, NULL);
		struct zy_rep r = {pid < 0 ? -errno : pid, shared.stage, shared.err};
		for (int i = 0; i < 2; i++)
			if (fds[i] >= 0)
				close(fds[i]);
		if (!full_io(sock, &r, sizeof r, true))
			_exit(0);
	}
}

/* ---- cbench's end ---- */

void spawn_launcher_start(struct spawn_launcher *l,
			  const struct spawn_child_env *env)
{
	int sv[2];
	if (getenv("CBENCH_TEST_NO_LAUNCHER") ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return;
	pid_t pid = fork();
	if (pid == 0) {
		close(sv[0]);
		zygote_main(sv[1], env);
	}
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return;
	}
	l->pid = pid;
	l->sock = sv[0];
}

void spawn_launcher_stop(struct spawn_launcher *l)
{
	free(l->blob);
	l->blob = NULL;
	l->blob_cap = 0;
	if (l->sock < 0)
		return;
	close(l->sock);
	l->sock = -1;
	int st;
	while (waitpid(l->pid, &st, 0) < 0 && errno == EINTR)
		;
	l->pid = -1;
}

/* Pack path, argv and envp into l->blob.  Returns the blob's length, or 0
 * when the command is too large for the launcher. */
static size_t zy_pack(struct spawn_launcher *l, const struct spawn_cmd *cmd,
		      uint32_t *argc_out, uint32_t *envc_out)
{
	size_t pre = cmd->cpus ? sizeof *cmd->cpus : 0;
	size_t len = pre + strlen(cmd->path) + 1;
	uint32_t argc = 0, envc = 0;
	for (char *const *v = cmd->argv; *v; v++, argc++)
		len += strlen(*v) + 1;
	for (char *const *v = cmd->envp; v && *v; v++, envc++)
		len += strlen(*v) + 1;
	if (len > ZY_BLOB_MAX || argc + envc + 3 > ZY_PTRS_MAX)
		return 0;
	if (len > l->blob_cap) {
		l->blob_cap = len * 2;
		l->blob = xreallocarray(l->blob, l->blob_cap, 1);
	}
	*argc_out = argc;
	*envc_out = envc;
	char *blob = l->blob, *p = blob;
	if (pre) {
		memcpy(p, cmd->cpus, pre);
		p += pre;
	}
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
	return (size_t)(p - blob);
}

/* Send the request (one sendmsg for the header, the descriptors and
 * usually the whole blob) and read the reply.  False: the launcher is gone. */
static bool zy_exchange(struct spawn_launcher *l, const struct child_args *a,
			struct zy_req *q, struct zy_rep *r)
{
	const struct spawn_cmd *cmd = a->cmd;
	/* Descriptors travel only when there are some: /dev/null is the
	 * launcher's own. */
	int fds[2], n_fds = 0;
	if (cmd->stdin_fd >= 0)
		fds[n_fds++] = cmd->stdin_fd, q->fd_mask |= 1;
	if ((cmd->output == SPAWN_OUT_PIPE || cmd->output == SPAWN_OUT_FD) &&
	    a->out_fd >= 0)
		fds[n_fds++] = a->out_fd, q->fd_mask |= 2;
	char cbuf[CMSG_SPACE(sizeof fds)];
	memset(cbuf, 0, sizeof cbuf);
	size_t len = q->blob_len;
	struct iovec iov[2] = {{q, sizeof *q}, {l->blob, len}};
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
	ssize_t sent;
	while ((sent = sendmsg(l->sock, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR)
		;
	size_t done = sent > (ssize_t)sizeof *q ? (size_t)sent - sizeof *q : 0;
	return sent >= (ssize_t)sizeof *q &&
	       full_io(l->sock, l->blob + done, len - done, true) &&
	       full_io(l->sock, r, sizeof *r, false);
}

pid_t spawn_launcher_spawn(struct spawn_launcher *l,
			   const struct child_args *a, struct child_report *rep)
{
	uint32_t argc, envc;
	size_t len = zy_pack(l, a->cmd, &argc, &envc);
	if (len == 0)
		return -2;
	struct zy_req q = {argc, envc, (uint32_t)len, (int32_t)a->cmd->output, 0,
			   a->cmd->aslr, a->cmd->cpus != NULL};
	struct zy_rep r;
	if (!zy_exchange(l, a, &q, &r)) {
		/* The launcher is gone: clone from cbench from now on. */
		spawn_launcher_stop(l);
		return -2;
	}
	if (r.pid == -EINVAL || r.pid == -EPERM) {
		/* CLONE_PARENT refused (a sandbox?): never will work. */
		spawn_launcher_stop(l);
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
