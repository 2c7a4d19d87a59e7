/* crash [segv|abort|exit N]: die the way a broken command does. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "abort") == 0)
		abort();
	if (argc > 2 && strcmp(argv[1], "exit") == 0)
		return atoi(argv[2]);
	raise(SIGSEGV);
	return 0;
}
