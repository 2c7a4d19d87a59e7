/*
 * sideband.h: how long a shell took around its program and on a CPU, and
 * how long cbench then waited to reap it (perf_event_open's side-band
 * records), so that a shell command's runs can be corrected for them one
 * by one (bench.c; README, "Shells").
 *
 * Two software "dummy" events are opened on the frozen command: one on its
 * own task that records its context switches, and one inherited by every
 * process it starts that records their forks, execs and exits, redirected into the first
 * one's ring buffer (PERF_EVENT_IOC_SET_OUTPUT: an inherited per-task event
 * cannot be mapped itself).  A third counts the page faults of the
 * command and of its children up to their exec (the shell's, without its
 * programs'); before the command's exec (the fallback launch) or on a
 * kernel before 5.13 (no remove_on_exec), of the command alone.  The buffer is written backward in overwrite
 * mode, so that it always holds the newest records, which are the ones
 * read.  Timestamps are CLOCK_MONOTONIC (use_clockid).
 */
#ifndef CBENCH_SIDEBAND_H
#define CBENCH_SIDEBAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sideband {
	int switch_fd;           /* the command's own context switches */
	int exit_fd;             /* its descendants' exits, into switch_fd's buffer */
	void *map;               /* switch_fd's ring buffer, or NULL */
	int fault_fd;            /* its own page faults (not its programs'), or -1 */
	bool faults_at_exec;     /* fault_fd also counts its children up to
				    their exec, and itself up to one in place */
	int execs_before;        /* execs of its own still to come at the open */
};

/* A closed sideband (nothing to release). */
void sideband_init(struct sideband *sb);

/* Open the events on pid, which must not run yet: stopped after its exec,
 * or (before_exec) parked before it (its page faults are then counted
 * from its exec on).  user_only: count only the page faults taken in user
 * mode, as the command's counters do at perf_event_paranoid 2
 * (counters_user_only).  Returns 0, or -1 with errno (perf_event_open
 * refused, no memory): the run goes on without it; the page-fault counter
 * alone refused leaves its count unknown. */
int sideband_open(struct sideband *sb, pid_t pid, bool before_exec,
		  bool user_only);

/* Once pid has ended (its exit record is written; the buffer outlives
 * the reap), with start_s and end_s the CLOCK_MONOTONIC times its run
 * started and it was reaped:
 * *wake_s, the shell's wake-up after its program and any sleep of it
 * after that (sideband_wake_from; it stays in the time, as a direct
 * run's reap does).
 * *reap_s, from its own exit (its PERF_RECORD_EXIT, emitted in the
 * kernel's exit path after its memory and files are released) to end_s:
 * the rest of its exit and cbench's wake-up to reap it, which a command
 * run directly has once, after its program, and a shell run has twice:
 * the shell's wait to reap its program (kept: it is the program's, like
 * a direct run's) and then this.  0 when it exec'd a program in place
 * or ran none (builtins only): then it is the program, and its reap a
 * direct run's.  NaN when the records cannot tell (the events were not
 * opened, or records were overwritten, which may hide an exec in
 * place).
 * *serial_s, the shell's own time around its program: from when it
 * first ran at or after start_s (its first switch in: its wait to be
 * scheduled is not its start-up, as a direct command keeps its own) to
 * the program's exec (the first exec of another process) and from the
 * last exit of its own children to its own exit, less its wake-up and
 * sleeps there (*wake_s: it keeps them, as a direct run keeps its
 * parent's wake-up);
 * for an exec in place, from then to that exec.  NaN when the records
 * cannot tell or there is no program (builtins only).  *cpu_s, the
 * shell's own time on a CPU (its switch records), up to its exit or its
 * exec in place; NaN likewise.  In seconds.  *faults, the shell's own
 * page faults and its children's before their exec (its vfork child's),
 * a whole number: NaN where its program's cannot be told from them (an
 * exec in place where the count does not end there, or records
 * overwritten), where it ran no program (builtins only: they are the
 * line's), or where the counter was refused.  Disables the events: call once. */
void sideband_read(const struct sideband *sb, pid_t pid, double start_s,
		   double end_s, double *wake_s, double *reap_s,
		   double *serial_s, double *cpu_s, double *faults);

void sideband_close(struct sideband *sb);

/* The same from a ring buffer image: size bytes of data (a power of two)
 * written backward, the newest record at offset head (mod size), holding
 * PERF_RECORD_SWITCH, _COMM, _EXIT and _FORK records with sample_id_all
 * (pid, tid, time); execs_before of the command's own execs are not an
 * exec in place (1 when the events were opened before its exec).  For the
 * unit tests.  *reap_s, end_ns the time it was reaped: */
double sideband_reap_from(const unsigned char *data, size_t size,
			  uint64_t head, uint32_t tid, int execs_before,
			  uint64_t end_ns);
/* The shell's wake-up after its program: from the exit of the last of
 * its own children (before its own exit) to it running again, when it
 * was asleep then, and every later sleep before its own exit (a switch
 * out that was no preemption, to its next switch in: stopped, or
 * blocked); 0 when it started none, was running or preempted then and
 * did not sleep, or exec'd in place; NaN when the records cannot tell
 * (lost, or it was asleep when its exit record came).  serial_s's part
 * after the program is the rest: the shell on a CPU or runnable. */
double sideband_wake_from(const unsigned char *data, size_t size,
			  uint64_t head, uint32_t tid, int execs_before);
/* *cpu_s from the same. */
double sideband_cpu_from(const unsigned char *data, size_t size,
			 uint64_t head, uint32_t tid, int execs_before);
/* *serial_s from the same, start_ns the run's start (CLOCK_MONOTONIC). */
double sideband_serial_from(const unsigned char *data, size_t size,
			    uint64_t head, uint32_t tid, int execs_before,
			    uint64_t start_ns);

#endif
