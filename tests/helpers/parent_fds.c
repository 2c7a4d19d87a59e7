/* parent_fds: a benchmarked command that inspects the process running it.
 *
 *   parent_fds DIR ITER...
 *
 * When $CBENCH_ITERATION equals one of ITER, writes DIR/ITER with one line
 * "fds=N perf=N children=N zombies=N": the number of descriptors its parent
 * (cbench, waiting for this run) holds apart from perf events, the perf
 * event descriptors (the previous run's may still be being closed), how
 * many children the parent has, and how many of those are zombies.  Taken while the run is in progress,
 * so it sees cbench exactly in its steady state: no polling, no sleeps. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void count_fds(pid_t pid, int *other, int *perf)
{
	char path[64];
	*other = *perf = -1;
	snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return;
	*other = *perf = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		char link[600], target[256];
		snprintf(link, sizeof link, "%s/%s", path, e->d_name);
		ssize_t n = readlink(link, target, sizeof target - 1);
		target[n > 0 ? n : 0] = '\0';
		if (strcmp(target, "anon_inode:[perf_event]") == 0)
			(*perf)++;
		else
			(*other)++;
	}
	closedir(d);
}

/* Children of pid, and how many are zombies, from /proc/<pid>/stat. */
static void count_children(pid_t parent, int *children, int *zombies)
{
	*children = *zombies = 0;
	DIR *d = opendir("/proc");
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		char path[300], buf[512];
		snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		size_t n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		buf[n] = '\0';
		/* pid (comm) state ppid ...; comm may hold spaces and ')'. */
		char *close = strrchr(buf, ')');
		char state;
		int ppid;
		if (!close || sscanf(close + 1, " %c %d", &state, &ppid) != 2)
			continue;
		if (ppid == (int)parent) {
			(*children)++;
			if (state == 'Z')
				(*zombies)++;
		}
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	const char *iter = getenv("CBENCH_ITERATION");
	if (argc < 3 || !iter)
		return argc < 3 ? 2 : 0;
	for (int i = 2; i < argc; i++) {
		if (strcmp(argv[i], iter) != 0)
			continue;
		pid_t parent = getppid();
		int children, zombies, fds, perf;
		count_children(parent, &children, &zombies);
		count_fds(parent, &fds, &perf);
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", argv[1], iter);
		FILE *f = fopen(path, "w");
		if (!f)
			return 1;
		fprintf(f, "fds=%d perf=%d children=%d zombies=%d\n", fds, perf,
			children, zombies);
		return fclose(f) == 0 ? 0 : 1;
	}
	return 0;
}
