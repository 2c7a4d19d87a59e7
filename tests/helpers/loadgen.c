/* loadgen: a background load that switches on and off, for `make verdicts`
 * (tests/verdicts/run.sh).  THREADS busy threads (default: one per online
 * CPU) all spin for the on-part of each period, then all sleep for the
 * rest, so a benchmark run beside it sees the machine's speed drift in
 * steps, as it does on a shared runner.  Phase lengths can be jittered
 * (each drawn uniformly within +-JITTER % of its nominal length).
 *
 * It never outlives its caller: it exits after MAX seconds, and when its
 * parent dies (PR_SET_PDEATHSIG, SIGKILL); with -P PID it also exits at
 * once if its parent is no longer PID when it starts (the parent died
 * before the death signal was armed).
 *
 *   loadgen [-t THREADS] [-p PERIOD_MS] [-d DUTY_PCT] [-j JITTER_PCT]
 *           [-m MAX_S] [-s SEED] [-P PID]
 *
 * Defaults: one thread per CPU, period 300 ms, duty 50 % (150 ms on,
 * 150 ms off), no jitter, at most 600 s.  Exit 0 at the time limit, 2 on a
 * bad option, 1 if a thread cannot be started. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

struct options {
	long threads;
	long period_ms;
	long duty_pct;
	long jitter_pct;
	long max_s;
	long seed;
	long parent;
};

static atomic_int load_on;
static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static uint64_t rng_state;

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void sleep_ns(int64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };
	while (ns > 0 && nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift
 * generators, scrambled", 2016): a uniform double in [0, 1). */
static double rng_uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

/* A phase of nominal length ns, jittered by +-jitter_pct %. */
static int64_t jittered(int64_t ns, long jitter_pct)
{
	if (jitter_pct == 0)
		return ns;
	double f = 1.0 + (2.0 * rng_uniform() - 1.0) * (double)jitter_pct / 100.0;
	return (int64_t)((double)ns * f);
}

/* Spin while the load is on; block on the condition variable while off. */
static void *worker(void *arg)
{
	(void)arg;
	volatile uint64_t x = 0;
	for (;;) {
		pthread_mutex_lock(&gate_lock);
		while (!atomic_load(&load_on))
			pthread_cond_wait(&gate_cond, &gate_lock);
		pthread_mutex_unlock(&gate_lock);
		while (atomic_load_explicit(&load_on, memory_order_relaxed))
			for (int i = 0; i < 10000; i++)
				x += (uint64_t)i;
	}
	return NULL;
}

static void set_load(int on)
{
	pthread_mutex_lock(&gate_lock);
	atomic_store(&load_on, on);
	if (on)
		pthread_cond_broadcast(&gate_cond);
	pthread_mutex_unlock(&gate_lock);
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int parse_options(int argc, char **argv, struct options *o)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	*o = (struct options){ cpus > 0 ? cpus : 1, 300, 50, 0, 600, 0, 0 };
	int c;
	while ((c = getopt(argc, argv, "t:p:d:j:m:s:P:")) != -1) {
		int bad = 0;
		switch (c) {
		case 't': bad = parse_long(optarg, 1, 1024, &o->threads); break;
		case 'p': bad = parse_long(optarg, 2, 3600000, &o->period_ms); break;
		case 'd': bad = parse_long(optarg, 0, 100, &o->duty_pct); break;
		case 'j': bad = parse_long(optarg, 0, 100, &o->jitter_pct); break;
		case 'm': bad = parse_long(optarg, 1, 86400, &o->max_s); break;
		case 's': bad = parse_long(optarg, 0, INT32_MAX, &o->seed); break;
		case 'P': bad = parse_long(optarg, 1, INT32_MAX, &o->parent); break;
		default: bad = -1; break;
		}
		if (bad) {
			fprintf(stderr, "usage: loadgen [-t THREADS] [-p PERIOD_MS] [-d DUTY_PCT]"
				" [-j JITTER_PCT] [-m MAX_S] [-s SEED] [-P PID]\n");
			return -1;
		}
	}
	return optind == argc ? 0 : -1;
}

int main(int argc, char **argv)
{
	struct options o;
	if (parse_options(argc, argv, &o) != 0)
		return 2;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 ||
	    (o.parent != 0 && getppid() != (pid_t)o.parent) || getppid() == 1)
		return 0;
	rng_state = (uint64_t)(o.seed != 0 ? o.seed : now_ns()) | 1;
	for (long i = 0; i < o.threads; i++) {
		pthread_t t;
		int err = pthread_create(&t, NULL, worker, NULL);
		if (err != 0) {
			fprintf(stderr, "loadgen: cannot start a thread: %s\n", strerror(err));
			return 1;
		}
		pthread_detach(t);
	}
	int64_t period_ns = o.period_ms * 1000000;
	int64_t on_ns = period_ns * o.duty_pct / 100;
	int64_t end_ns = now_ns() + (int64_t)o.max_s * 1000000000;
	for (;;) {
		int64_t t = now_ns();
		if (t >= end_ns)
			break;
		int64_t on = jittered(on_ns, o.jitter_pct);
		int64_t off = jittered(period_ns - on_ns, o.jitter_pct);
		if (on > 0) {
			set_load(1);
			sleep_ns(on < end_ns - t ? on : end_ns - t);
		}
		set_load(0);
		t = now_ns();
		if (off > 0 && t < end_ns)
			sleep_ns(off < end_ns - t ? off : end_ns - t);
	}
	return 0;
}
