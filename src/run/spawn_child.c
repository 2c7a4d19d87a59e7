/*
 * spawn_child.c: the command's process between clone/fork and exec.
 *
 * Both launches start here.  The traced child (cloned vfork-style by the
 * launcher or by cbench) takes its own process group, default signal
 * dispositions and an empty mask, its stdio, then PTRACE_TRACEME and
 * execve; the fallback child (forked when ptrace is refused) parks on a
 * pipe instead of PTRACE_TRACEME until cbench has opened its counters.
 *
 * An executable without a #! line (ENOEXEC) is run with /bin/sh, as
 * execvp does, unless it is a binary.
 *
 * A vfork-style child shares the memory of the process that cloned it and
 * never returns: it makes only plain system calls, touches no libc state
 * (errno is its parent's, which sleeps and does not read it before the
 * child has exec'd or died), and keeps sanitizer bookkeeping out (CHILD_CODE).
 */
#include "spawn_int.h"

#include <errno.h>
#include <fcntl.h>
#include <paths.h>
#include <sched.h>
#include <stdbool.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <unistd.h>

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

/*
 * An executable without a #! line fails to exec with ENOEXEC; execvp, sh,
 * GNU make and hyperfine then run it with /bin/sh, and so does cbench,
 * unless it is a binary (bash's rule in check_binary_file: an ELF header,
 * or a NUL byte in its first line), which /bin/sh could only misread.
 * An empty file is an empty script.
 */
CHILD_CODE
static bool is_script(const char *path)
{
	unsigned char buf[128];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	ssize_t n = read(fd, buf, sizeof buf);
	close(fd);
	if (n < 0 || (n >= 4 && memcmp(buf, "\177ELF", 4) == 0))
		return false;
	for (ssize_t i = 0; i < n && buf[i] != '\n'; i++)
		if (buf[i] == '\0')
			return false;
	return true;
}

/* Most words a script's command line may have to be run by /bin/sh: the
 * new argv is built on the child's stack (CHILD_STACK_SIZE in spawn.c). */
#define SH_MAX_ARGS 8192

/* execve("/bin/sh", {"/bin/sh", path, argv[1], ...}) as glibc's execvp
 * does for ENOEXEC.  Still traced (PTRACE_TRACEME holds across the failed
 * exec), so the run starts at /bin/sh's first instruction.  Returns only
 * when that exec fails too. */
CHILD_CODE
static void exec_sh(const struct spawn_cmd *cmd)
{
	size_t argc = 0;
	while (cmd->argv[argc] && argc < SH_MAX_ARGS)
		argc++;
	if (argc == SH_MAX_ARGS || argc == 0)
		return;
	char *argv[argc + 2];
	argv[0] = (char *)_PATH_BSHELL;
	argv[1] = (char *)cmd->path;
	for (size_t i = 1; i <= argc; i++)
		argv[i + 1] = cmd->argv[i];   /* argv[argc] is the NULL */
	execve(_PATH_BSHELL, argv, cmd->envp);
}

/* Only async-signal-safe calls, and nothing that touches libc state. */
CHILD_CODE __attribute__((noreturn))
void spawn_child_main(const struct child_args *a)
{
	const struct spawn_cmd *cmd = a->cmd;
	const struct spawn_child_env *env = a->env;
	setpgid(0, 0);
	/* Default dispositions first, with every signal still blocked (as it
	 * was around fork/clone), so no handler of cbench's can run here. */
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++)
		if (sigismember(&env->reset_set, s) == 1)
			sigaction(s, &dfl, NULL);
	/* An inherited mask (a blocked SIGTRAP above all) must not reach the
	 * command: a blocked SIGTRAP would suppress the exec stop. */
	sigset_t empty;
	sigemptyset(&empty);
	sigprocmask(SIG_SETMASK, &empty, NULL);

	/* --pin and --aslr: both kept across exec, so the command starts on
	 * its CPUs with its layout; nothing is done when they are not asked. */
	if (cmd->cpus && sched_setaffinity(0, sizeof *cmd->cpus, cmd->cpus) != 0)
		report_and_die(a, STAGE_SETUP, errno);
	if (cmd->aslr != SPAWN_ASLR_INHERIT) {
		int p = personality(0xffffffff);
		if (p == -1 || personality(cmd->aslr == SPAWN_ASLR_OFF
					   ? (unsigned long)p | ADDR_NO_RANDOMIZE
					   : (unsigned long)p & ~(unsigned long)ADDR_NO_RANDOMIZE) == -1)
			report_and_die(a, STAGE_SETUP, errno);
	}

	int in = cmd->stdin_fd >= 0 ? cmd->stdin_fd : env->devnull_fd;
	if (dup2(in, 0) < 0)
		report_and_die(a, STAGE_SETUP, errno);
	if (cmd->output != SPAWN_OUT_INHERIT) {
		int o = cmd->output == SPAWN_OUT_NULL ? env->devnull_fd : a->out_fd;
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
	int e = errno;
	if (e == ENOEXEC && is_script(cmd->path))
		exec_sh(cmd);   /* returns only if /bin/sh cannot be run */
	report_and_die(a, STAGE_EXEC, e);
}

CHILD_CODE
static int clone_entry(void *arg)
{
	spawn_child_main(arg);
}

pid_t spawn_child_clone(struct child_args *a, int extra_flags, int *pidfd)
{
	void *top = (char *)a->env->stack + a->env->stack_size;
	int flags = CLONE_VM | CLONE_VFORK | SIGCHLD | extra_flags;
	if (pidfd)
		return clone(clone_entry, top, flags, a, pidfd);
	return clone(clone_entry, top, flags, a);
}
