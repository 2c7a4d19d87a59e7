/* report_sigmask: print the blocked signal mask and ignored signals of this
 * process, to check that a command starts with a clean slate. */
#include <signal.h>
#include <stdio.h>

int main(void)
{
	sigset_t set;
	sigprocmask(SIG_BLOCK, NULL, &set);
	int blocked = 0, ignored = 0;
	for (int s = 1; s < NSIG; s++) {
		if (sigismember(&set, s) == 1)
			blocked++;
		struct sigaction sa;
		if (s != SIGKILL && s != SIGSTOP && sigaction(s, NULL, &sa) == 0 &&
		    sa.sa_handler == SIG_IGN)
			ignored++;
	}
	printf("blocked=%d ignored=%d\n", blocked, ignored);
	return 0;
}
