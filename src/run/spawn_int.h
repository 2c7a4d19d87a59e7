/*
 * spawn_int.h: what the three parts of the frozen-exec engine share, and
 * nothing else includes.
 *
 *   spawn.c          the public API (spawn.h), the engine's one state struct,
 *                    and a run: pipes, the traced or fallback launch, the
 *                    wait, the results.
 *   spawn_child.c    the child between clone/fork and exec.
 *   spawn_launcher.c the launcher (zygote) process that clones traced
 *                    children so a command's peak RSS is its own.
 *
 * The header lives beside the sources, not in include/: no other module may
 * use it.  The launcher's and the child's code keep no state of their own;
 * spawn.c owns every mutable field and passes the parts they need.
 */
#ifndef CBENCH_SPAWN_INT_H
#define CBENCH_SPAWN_INT_H

#include "spawn.h"

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Where a child died before exec, as it reports it. */
enum child_stage { STAGE_SETUP = 1, STAGE_TRACEME = 2, STAGE_EXEC = 3 };
struct child_report {
	int stage;               /* 0: no failure before exec */
	int err;                 /* errno of the failed call */
};

/* What every child needs from the engine; fixed by spawn_init and
 * inherited, unchanged, by the launcher's fork. */
struct spawn_child_env {
	int devnull_fd;          /* stdin, and stdout/stderr for SPAWN_OUT_NULL */
	sigset_t reset_set;      /* signals the child sets back to SIG_DFL */
	void *stack;             /* the vfork-style child's stack, mapped once */
	size_t stack_size;
};

/*
 * One child's instructions.  In a vfork-style child (shared memory) a
 * failure is written straight into *shared; after fork() it goes down
 * report_fd.
 */
struct child_args {
	const struct spawn_child_env *env;
	const struct spawn_cmd *cmd;
	int out_fd;              /* stdout/stderr for SPAWN_OUT_PIPE and _FD */
	int go_fd;               /* fallback: wait for a byte, no ptrace */
	int report_fd;           /* fork(): close-on-exec error pipe */
	volatile struct child_report *shared; /* clone(CLONE_VM): error slot */
};

/* The child after fork(): redirect, park or PTRACE_TRACEME, exec. */
__attribute__((noreturn))
void spawn_child_main(const struct child_args *a);

/*
 * Clone the child vfork-style on a->env->stack with
 * CLONE_VM | CLONE_VFORK | SIGCHLD | extra_flags: the caller sleeps until
 * the child has exec'd or died.  With CLONE_PIDFD in extra_flags the pidfd
 * goes to *pidfd.  Returns the pid or -1 with errno.
 */
pid_t spawn_child_clone(struct child_args *a, int extra_flags, int *pidfd);

/* The launcher's end, held by cbench (a member of spawn.c's state). */
struct spawn_launcher {
	int sock;                /* socket to the launcher, -1: none */
	pid_t pid;               /* the launcher, -1: none */
	char *blob;              /* request buffer, reused from run to run */
	size_t blob_cap;
};

/* Fork the launcher (unless CBENCH_TEST_NO_LAUNCHER is set); without one
 * l->sock stays -1 and commands are cloned from cbench. */
void spawn_launcher_start(struct spawn_launcher *l,
			  const struct spawn_child_env *env);
/* Stop and reap the launcher and free the request buffer; a no-op
 * without one. */
void spawn_launcher_stop(struct spawn_launcher *l);
/*
 * Start the traced child described by a through the launcher.  Returns its
 * pid, -1 with errno when the clone failed, or -2 when the launcher cannot
 * be used (it is stopped then; the caller clones from cbench).  *rep
 * receives a failure before exec.
 */
pid_t spawn_launcher_spawn(struct spawn_launcher *l,
			   const struct child_args *a, struct child_report *rep);

#endif
