/*
 * spawn.h: the frozen-exec engine.  One call runs one command once and
 * returns one measurement.
 *
 *   vfork-style clone (by a small launcher process, see spawn_launcher.c) ->
 *   child: own process group, default signals, empty mask, stdio,
 *           PTRACE_TRACEME, execve (errno sent back in shared memory)
 *   parent: wait for the exec stop -> open counters on the frozen child ->
 *           read the clock -> PTRACE_DETACH -> wait4 -> read the clock,
 *           rusage and counters.
 *
 * Wall time therefore runs from the detach to the reap: process creation,
 * exec and cbench's own bookkeeping are outside it.
 */
#ifndef CBENCH_SPAWN_H
#define CBENCH_SPAWN_H

#include "counters.h"

#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

enum spawn_outcome {
	SPAWN_EXITED,       /* code holds the exit status */
	SPAWN_SIGNALED,     /* code holds the signal number */
	SPAWN_TIMED_OUT,    /* killed by cbench after --timeout */
	SPAWN_INTERRUPTED,  /* killed by cbench on SIGINT/SIGTERM/SIGHUP */
	SPAWN_EXEC_FAILED,  /* exec failed; exec_errno says why */
	SPAWN_STOPPED,      /* stopped by job control (SIGTTOU, SIGTTIN,
			       SIGTSTP: code holds it), then killed by
			       cbench: it would never have gone on */
};

/* Where the command's stdout/stderr go. */
enum spawn_output {
	SPAWN_OUT_NULL,     /* /dev/null */
	SPAWN_OUT_PIPE,     /* a pipe cbench drains and discards */
	SPAWN_OUT_INHERIT,  /* cbench's own */
	SPAWN_OUT_FD,       /* an open file (stdout_fd) */
};

struct spawn_cmd {
	const char *path;          /* resolved executable */
	char *const *argv;
	char *const *envp;
	int stdin_fd;              /* -1: /dev/null */
	enum spawn_output output;
	int stdout_fd;             /* for SPAWN_OUT_FD */
	double timeout_s;          /* 0: none */
	struct counters *counters; /* NULL: none */
	const cpu_set_t *cpus;     /* sched_setaffinity before exec; NULL: inherit */
	int aslr;                  /* SPAWN_ASLR_*: personality before exec */
	bool keep_group;           /* leave the command's process group
				      running when it ends (else killed) */
	bool shell_sideband;       /* measure spawn_result.wake_s, reap_s,
				      serial_s, shell_cpu_s and shell_faults
				      (a shell's runs: sideband.h) */
};

/* Address-space randomisation of the command (spawn_cmd.aslr). */
enum { SPAWN_ASLR_INHERIT = 0, SPAWN_ASLR_ON = 1, SPAWN_ASLR_OFF = 2 };

struct spawn_result {
	enum spawn_outcome outcome;
	int code;
	int exec_errno;
	bool exec_exact;           /* counters and clock started at the exec stop */
	bool left_running;         /* the command left a process running (a
				      daemon, a background job) that this run
				      had not seen before: counts incomplete */
	double wall_s;
	double user_s, system_s;
	double max_rss_bytes;
	double minflt, majflt, nvcsw, nivcsw;
	struct counter_values ctr;
	bool self_stopped;         /* cbench itself was stopped (SIGSTOP,
				      Ctrl-Z) during the run: its wall time
				      and timeout are not the command's */
	double wake_s;             /* spawn_cmd.shell_sideband: the
				      command's sleeps from the exit of the
				      last of its own children to its own
				      exit: its wake-up then, a stop (0:
				      none, it did not sleep, it exec'd in
				      place, or the run was cut short); NaN
				      unknown (records lost) */
	double reap_s;             /* spawn_cmd.shell_sideband: from the
				      command's own exit to its reap (the
				      rest of its exit, cbench's wake-up;
				      0: it exec'd a program in place, or
				      the run was cut short); NaN unknown */
	double serial_s;           /* spawn_cmd.shell_sideband: the shell's
				      own time before its program's exec
				      and after its last child's exit, from
				      when it ran again (sideband_read);
				      NaN unknown, cut short or no program */
	double shell_cpu_s;        /* spawn_cmd.shell_sideband: the shell's own
				      time on a CPU, up to its exit or exec
				      in place; NaN likewise */
	double shell_faults;       /* spawn_cmd.shell_sideband: the shell's own
				      page faults and its children's before
				      their exec, without its programs'
				      (sideband_read); NaN unknown, cut
				      short or no program, and an exec in
				      place where the count is the shell's
				      alone */
};

/* Call once before the first run (records inherited signal dispositions,
 * opens /dev/null).  Returns 0 or -1 with a message. */
int spawn_init(char *err, size_t errlen);
void spawn_shutdown(void);

/* Run once.  Returns 0 when a result was produced (even a failing command)
 * or -1 on an internal error with a message in err. */
int spawn_run(const struct spawn_cmd *cmd, struct spawn_result *res,
	      char *err, size_t errlen);

/* Async-signal-safe: ask the engine to stop the running command (its whole
 * process group) and return SPAWN_INTERRUPTED. */
void spawn_request_stop(int sig);
/* The signal that stopped us, or 0. */
int spawn_stop_signal(void);
/* Async-signal-safe, for a SIGCONT handler: cbench itself was stopped and
 * has been resumed (a run in progress reads self_stopped). */
void spawn_note_continued(void);

/* errno of the refused PTRACE_TRACEME once the engine fell back to
 * enable_on_exec (counters exec-exact, wall clock includes exec), else 0. */
int spawn_ptrace_errno(void);

/* "SIGSEGV" style name of a signal. */
const char *spawn_signal_name(int sig);

#endif
