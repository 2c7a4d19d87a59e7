/* probe: does this kernel allow what a test needs?  Exit 0 if yes.
 *   probe ptrace   - can a child be traced (PTRACE_TRACEME + exec stop)?
 *   probe pmu      - can a hardware counter (instructions) be opened?
 *   probe sideband - can the shell correction's side-band events be opened
 *                    (src/run/sideband.c, linked in: see the Makefile)? */
#include "sideband.h"

#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "ptrace") == 0) {
		pid_t pid = fork();
		if (pid == 0) {
			if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0)
				_exit(3);
			execl("/bin/true", "true", (char *)NULL);
			_exit(4);
		}
		int st;
		waitpid(pid, &st, 0);
		if (WIFSTOPPED(st)) {
			ptrace(PTRACE_DETACH, pid, NULL, NULL);
			waitpid(pid, &st, 0);
			return 0;
		}
		return 1;
	}
	if (argc == 2 && strcmp(argv[1], "pmu") == 0) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof a);
		a.size = sizeof a;
		a.type = PERF_TYPE_HARDWARE;
		a.config = PERF_COUNT_HW_INSTRUCTIONS;
		a.exclude_kernel = 1;
		a.exclude_hv = 1;
		a.disabled = 1;
		int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
		if (fd < 0) {
			perror("perf_event_open(instructions)");
			return 1;
		}
		close(fd);
		return 0;
	}
	if (argc == 2 && strcmp(argv[1], "sideband") == 0) {
		struct sideband sb;   /* src/run/sideband.c, on this process */
		if (sideband_open(&sb, getpid(), false, true) != 0) {
			perror("perf_event_open side-band records");
			return 1;
		}
		sideband_close(&sb);
		return 0;
	}
	fprintf(stderr, "usage: probe ptrace|pmu|sideband\n");
	return 2;
}
