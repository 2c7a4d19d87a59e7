/*
 * floor.c: the cheapest way to run a program N times, against which `make
 * bench` measures cbench's per-run cost: posix_spawn + wait4 in a loop,
 * stdio to /dev/null (opened once), the rusage read by wait4 and nothing
 * recorded.  Usage: floor N PROGRAM [ARGS...]
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: floor N PROGRAM [ARGS...]\n");
		return 2;
	}
	long n = strtol(argv[1], NULL, 10);
	/* /dev/null opened once, as a harness does, then three dup2 per run. */
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		return 1;
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
