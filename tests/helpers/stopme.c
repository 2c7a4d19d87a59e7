/* stopme [ttou|ttin|tstp]: send ourselves a job-control stop signal, as a
 * command that touches the terminal from a background process group gets
 * (the default is SIGTTOU).  Exits 0 if it was not stopped. */
#include <signal.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int sig = SIGTTOU;
	if (argc > 1 && strcmp(argv[1], "ttin") == 0)
		sig = SIGTTIN;
	else if (argc > 1 && strcmp(argv[1], "tstp") == 0)
		sig = SIGTSTP;
	kill(getpid(), sig);
	return 0;
}
