/* stopparent MS: stop the parent (a shell waiting for this program) with
 * SIGSTOP, wait until the kernel says it is stopped, leave behind a
 * process that continues it MS milliseconds later, and exit.  The shell
 * is then asleep when its child exits and runs again only MS later: a
 * wake-up of the shell after its program whose length the caller knows
 * (tests/e2e/shell_correction.sh). */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The state letter of /proc/PID/stat, after the command's ')' */
static char state_of(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return '?';
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 200;
	pid_t parent = getppid();
	if (kill(parent, SIGSTOP) != 0)
		return 1;
	while (state_of(parent) != 'T')   /* the stop is asynchronous */
		sched_yield();
	pid_t mid = fork();
	if (mid < 0)
		return 1;
	if (mid == 0) {
		/* A grandchild, re-parented when mid exits: not the shell's. */
		if (fork() == 0) {
			struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
			nanosleep(&t, NULL);
			kill(parent, SIGCONT);
			_exit(0);
		}
		_exit(0);
	}
	waitpid(mid, NULL, 0);
	return 0;
}
