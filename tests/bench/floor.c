/*
 * floor.c: the cheapest ways to run a program N times, against which `make
 * bench` measures cbench's per-run cost.  Usage:
 *
 *   floor N PROGRAM [ARGS...]                   posix_spawn + wait4
 *   floor --frozen N PROGRAM [ARGS...]          + the frozen-exec stop
 *   floor --frozen-counters N PROGRAM [ARGS...] + two software counters
 *
 * The first is the floor of the targets: posix_spawn + wait4 in a
 * loop, stdio to /dev/null (opened once), the rusage read by wait4 and
 * nothing recorded.  The other two measure what the kernel charges for an
 * exec-exact measurement, with no harness around it: the child is started
 * with vfork(), asks to be traced and execs; the parent waits for the exec
 * stop, detaches and reaps (--frozen), and with --frozen-counters also
 * opens task-clock and page-faults as one group on the stopped child, reads
 * them after the reap and closes them (cbench's default counters on a
 * machine without a PMU).  cbench's cost over these is its own.
 */
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static int open_counter(uint64_t config, pid_t pid, int group)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, group,
			    PERF_FLAG_FD_CLOEXEC);
}

/* One run through the exec stop; 0 or -1 (message printed). */
static int frozen_run(char **argv, int null, int counters)
{
	pid_t pid = vfork();
	if (pid == 0) {
		for (int fd = 0; fd < 3; fd++)
			dup2(null, fd);
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execve(argv[0], argv, environ);
		_exit(127);
	}
	if (pid < 0) {
		perror("floor: vfork");
		return -1;
	}
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFSTOPPED(st)) {
		fprintf(stderr, "floor: %s did not stop at exec\n", argv[0]);
		return -1;
	}
	int fd[2] = {-1, -1};
	if (counters) {
		fd[0] = open_counter(PERF_COUNT_SW_TASK_CLOCK, pid, -1);
		fd[1] = open_counter(PERF_COUNT_SW_PAGE_FAULTS, pid, fd[0]);
		if (fd[0] < 0 || fd[1] < 0) {
			perror("floor: perf_event_open");
			kill(pid, SIGKILL);
			return -1;
		}
	}
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	struct rusage ru;
	if (wait4(pid, &st, 0, &ru) != pid)
		return -1;
	if (counters) {
		uint64_t buf[5];
		if (read(fd[0], buf, sizeof buf) != (ssize_t)sizeof buf) {
			fprintf(stderr, "floor: reading the counters failed\n");
			return -1;
		}
		close(fd[1]);
		close(fd[0]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int frozen = 0, counters = 0;
	if (argc > 1 && strcmp(argv[1], "--frozen") == 0)
		frozen = 1, argv++, argc--;
	else if (argc > 1 && strcmp(argv[1], "--frozen-counters") == 0)
		frozen = counters = 1, argv++, argc--;
	if (argc < 3) {
		fprintf(stderr, "usage: floor [--frozen|--frozen-counters] N PROGRAM [ARGS...]\n");
		return 2;
	}
	long n = strtol(argv[1], NULL, 10);
	/* /dev/null opened once, as a harness does, then three dup2 per run. */
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		return 1;
	if (frozen) {
		for (long i = 0; i < n; i++)
			if (frozen_run(argv + 2, null, counters) != 0)
				return 1;
		return 0;
	}
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	for (int fd = 0; fd < 3; fd++)
		posix_spawn_file_actions_adddup2(&fa, null, fd);
	for (long i = 0; i < n; i++) {
		pid_t pid;
		int e = posix_spawn(&pid, argv[2], &fa, NULL, argv + 2, environ);
		if (e != 0) {
			fprintf(stderr, "floor: posix_spawn %s failed (%d)\n", argv[2], e);
			return 1;
		}
		int st;
		struct rusage ru;
		if (wait4(pid, &st, 0, &ru) != pid)
			return 1;
	}
	posix_spawn_file_actions_destroy(&fa);
	return 0;
}
