/* touch_pages N [THREADS]: touch N fresh pages (split across THREADS
 * threads), one write each, so the kernel takes N page faults. */
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static long per_thread;
static long page;

static void *touch(void *arg)
{
	(void)arg;
	char *p = mmap(NULL, (size_t)(per_thread * page), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		exit(2);
	for (long i = 0; i < per_thread; i++)
		p[i * page] = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	long t = argc > 2 ? strtol(argv[2], NULL, 10) : 1;
	page = sysconf(_SC_PAGESIZE);
	per_thread = n / t;
	if (t <= 1) {
		touch(NULL);
		return 0;
	}
	pthread_t th[64];
	for (long i = 0; i < t && i < 64; i++)
		pthread_create(&th[i], NULL, touch, NULL);
	for (long i = 0; i < t && i < 64; i++)
		pthread_join(th[i], NULL);
	return 0;
}
