/* with_sigmask SIG... -- PROG ARGS: exec PROG with the named signals
 * blocked (e.g. TRAP), as a careless parent process might. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	sigset_t set;
	sigemptyset(&set);
	int i = 1;
	for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strcmp(argv[i], "TRAP") == 0)
			sigaddset(&set, SIGTRAP);
		else if (strcmp(argv[i], "CHLD") == 0)
			sigaddset(&set, SIGCHLD);
		else if (strcmp(argv[i], "INT") == 0)
			sigaddset(&set, SIGINT);
	}
	if (i + 1 >= argc) {
		fprintf(stderr, "usage: with_sigmask SIG... -- PROG ARGS\n");
		return 2;
	}
	sigprocmask(SIG_BLOCK, &set, NULL);
	execvp(argv[i + 1], argv + i + 1);
	perror("execvp");
	return 127;
}
