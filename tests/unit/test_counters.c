/*
 * Unit tests for counters.c.  The perf_event_open and read system calls are
 * replaced (counters_set_ops) by fakes that act as a machine with a PMU, one
 * without, one that multiplexes, one whose paranoid level refuses kernel
 * counting, so the hardware path is exercised on machines that have none.
 */
#include "counters.h"
#include "unit.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

/* ---- a fake kernel ---- */

#define FAKE_FD_BASE 900000  /* far above any real descriptor: close() fails harmlessly */
#define MAX_OPEN 64

static struct {
	bool pmu;              /* hardware events exist */
	bool kernel_refused;   /* EACCES unless exclude_kernel */
	int sw_errno;          /* errno for software events, 0 = ok */
	uint64_t enabled, running[MAX_OPEN]; /* per leader fd index */
	uint64_t value[MAX_OPEN];
	int n_open;
	struct perf_event_attr attr[MAX_OPEN];
	int group_fd[MAX_OPEN];
	pid_t pid[MAX_OPEN];
	int reads;
} fk;

static void fake_reset(bool pmu)
{
	memset(&fk, 0, sizeof fk);
	fk.pmu = pmu;
	fk.enabled = 1000;
	for (int i = 0; i < MAX_OPEN; i++) {
		fk.running[i] = 1000;
		fk.value[i] = (uint64_t)(100 * (i + 1));
	}
}

static int fake_open(void *attrp, pid_t pid, int cpu, int group_fd,
		     unsigned long flags)
{
	struct perf_event_attr *a = attrp;
	(void)cpu;
	(void)flags;
	if (a->type == PERF_TYPE_HARDWARE && !fk.pmu) {
		errno = ENOENT;
		return -1;
	}
	if (a->type == PERF_TYPE_SOFTWARE && fk.sw_errno) {
		errno = fk.sw_errno;
		return -1;
	}
	if (fk.kernel_refused && !a->exclude_kernel) {
		errno = EACCES;
		return -1;
	}
	if (pid == 0)  /* the start-up probe on ourselves */
		return FAKE_FD_BASE + MAX_OPEN;
	int i = fk.n_open++;
	fk.attr[i] = *a;
	fk.group_fd[i] = group_fd;
	fk.pid[i] = pid;
	return FAKE_FD_BASE + i;
}

/* A group read: {nr, enabled, running, values...}; the group's members are
 * the events opened with this leader. */
static ssize_t fake_read(int fd, void *buf, size_t len)
{
	int leader = fd - FAKE_FD_BASE;
	uint64_t *out = buf;
	uint64_t nr = 0;
	fk.reads++;
	for (int i = 0; i < fk.n_open; i++)
		if (i == leader || fk.group_fd[i] == fd)
			out[3 + nr++] = fk.value[i];
	out[0] = nr;
	out[1] = fk.enabled;
	out[2] = fk.running[leader];
	size_t want = (3 + nr) * sizeof(uint64_t);
	return want <= len ? (ssize_t)want : -1;
}

static int fake_paranoid(void)
{
	return 2;
}

static const struct counters_ops fake_ops = {fake_open, fake_read, fake_paranoid};

/* ---- tests ---- */

static void scale_arithmetic(void)
{
	CHECK_NEAR(counters_scale(100, 1000, 1000), 100, 0);
	/* Counted half the time: extrapolated to twice the count. */
	CHECK_NEAR(counters_scale(100, 1000, 500), 200, 1e-9);
	CHECK_NEAR(counters_scale(3, 10, 4), 7.5, 1e-12);
	/* Never scheduled: not counted, not zero. */
	CHECK(isnan(counters_scale(0, 1000, 0)));
	CHECK(isnan(counters_scale(0, 0, 0)));
}

static void explain_errnos(void)
{
	char b[256];
	counters_explain(ENOENT, true, 2, b, sizeof b);
	CHECK(strstr(b, "no hardware PMU") != NULL);
	counters_explain(EACCES, false, 3, b, sizeof b);
	CHECK(strstr(b, "perf_event_paranoid is 3") != NULL);
	CHECK(strstr(b, "sysctl kernel.perf_event_paranoid=2") != NULL);
	counters_explain(EPERM, true, 2, b, sizeof b);
	CHECK(strstr(b, "seccomp") != NULL);
	counters_explain(ENOSYS, true, 2, b, sizeof b);
	CHECK(strstr(b, "no perf_event_open") != NULL);
}

static void defaults_with_pmu(void)
{
	struct counters *c;
	bool usage;
	char err[256];
	fake_reset(true);
	counters_set_ops(&fake_ops);
	CHECK(counters_new(&c, NULL, &usage, err, sizeof err) == 0);
	CHECK(counters_have_pmu(c));
	CHECK(counters_dropped_reason(c) == NULL);
	CHECK(counters_count(c) == 6);
	CHECK(counters_enabled(c, CTR_INSTRUCTIONS));
	CHECK(counters_enabled(c, CTR_BRANCH_MISSES));
	CHECK(!counters_enabled(c, CTR_BRANCHES));

	CHECK(counters_open(c, 4242, false, err, sizeof err) == 0);
	CHECK(fk.n_open == 6);
	/* Two groups: software (task-clock leader, page-faults) and hardware
	 * (instructions leader + 3), every event on the child, inherited,
	 * with both time fields for scaling. */
	CHECK(fk.group_fd[0] == -1);
	CHECK(fk.attr[0].config == PERF_COUNT_SW_TASK_CLOCK);
	CHECK(fk.group_fd[1] == FAKE_FD_BASE + 0);
	CHECK(fk.group_fd[2] == -1);
	CHECK(fk.attr[2].config == PERF_COUNT_HW_INSTRUCTIONS);
	for (int i = 3; i < 6; i++)
		CHECK(fk.group_fd[i] == FAKE_FD_BASE + 2);
	for (int i = 0; i < 6; i++) {
		CHECK(fk.pid[i] == 4242);
		CHECK(fk.attr[i].inherit == 1);
		CHECK(fk.attr[i].disabled == 0);
		CHECK((fk.attr[i].read_format & PERF_FORMAT_TOTAL_TIME_RUNNING) != 0);
		CHECK((fk.attr[i].read_format & PERF_FORMAT_GROUP) != 0);
	}

	/* The hardware group was multiplexed: scheduled 1/4 of the time. */
	fk.running[2] = 250;
	struct counter_values v;
	CHECK(counters_read(c, &v, err, sizeof err) == 0);
	CHECK(fk.reads == 2); /* one read per group */
	CHECK_NEAR(v.value[CTR_TASK_CLOCK], 100e-9, 1e-15); /* ns -> s */
	CHECK_NEAR(v.value[CTR_PAGE_FAULTS], 200, 0);
	CHECK_NEAR(v.value[CTR_INSTRUCTIONS], 300 * 4.0, 1e-9);
	CHECK_NEAR(v.value[CTR_CYCLES], 400 * 4.0, 1e-9);
	CHECK_NEAR(v.running_fraction[CTR_CYCLES], 0.25, 1e-12);
	CHECK_NEAR(v.running_fraction[CTR_PAGE_FAULTS], 1.0, 0);
	counters_free(c);
	counters_set_ops(NULL);
}

static void hardware_not_counted_is_nan(void)
{
	struct counters *c;
	bool usage;
	char err[256];
	fake_reset(true);
	counters_set_ops(&fake_ops);
	CHECK(counters_new(&c, "instructions,page-faults", &usage, err, sizeof err) == 0);
	CHECK(counters_open(c, 77, false, err, sizeof err) == 0);
	fk.running[1] = 0; /* the hardware group never got the PMU */
	struct counter_values v;
	CHECK(counters_read(c, &v, err, sizeof err) == 0);
	CHECK(isnan(v.value[CTR_INSTRUCTIONS]));
	CHECK(!isnan(v.value[CTR_PAGE_FAULTS]));
	CHECK(isnan(v.value[CTR_CYCLES])); /* not selected */
	counters_free(c);
	counters_set_ops(NULL);
}

static void many_hardware_events_get_own_groups(void)
{
	struct counters *c;
	bool usage;
	char err[256];
	fake_reset(true);
	counters_set_ops(&fake_ops);
	CHECK(counters_new(&c, "instructions,cycles,cache-references,cache-misses,"
			   "branches,branch-misses", &usage, err, sizeof err) == 0);
	CHECK(counters_open(c, 5, false, err, sizeof err) == 0);
	CHECK(fk.n_open == 6);
	/* More than four hardware events: each alone, so the kernel can
	 * multiplex them and scaling applies to each. */
	for (int i = 0; i < 6; i++)
		CHECK(fk.group_fd[i] == -1);
	struct counter_values v;
	CHECK(counters_read(c, &v, err, sizeof err) == 0);
	CHECK(fk.reads == 6);
	counters_free(c);
	counters_set_ops(NULL);
}

static void no_pmu_drops_hardware_with_reason(void)
{
	struct counters *c;
	bool usage;
	char err[256];
	fake_reset(false);
	counters_set_ops(&fake_ops);
	CHECK(counters_new(&c, NULL, &usage, err, sizeof err) == 0);
	CHECK(!counters_have_pmu(c));
	CHECK(counters_count(c) == 2);
	CHECK(counters_enabled(c, CTR_TASK_CLOCK));
	CHECK(!counters_enabled(c, CTR_INSTRUCTIONS));
	CHECK(counters_dropped_reason(c) != NULL);
	CHECK(strstr(counters_dropped_reason(c), "no hardware PMU") != NULL);
	counters_free(c);

	/* Asked for explicitly: an error naming the event and the reason. */
	CHECK(counters_new(&c, "task-clock,cycles", &usage, err, sizeof err) == -1);
	CHECK(!usage);
	CHECK(strstr(err, "cannot count cycles: ") != NULL);
	CHECK(strstr(err, "no hardware PMU") != NULL);
	counters_set_ops(NULL);
}

static void everything_refused(void)
{
	struct counters *c;
	bool usage;
	char err[256];
	fake_reset(false);
	fk.sw_errno = EPERM;
	counters_set_ops(&fake_ops);
	CHECK(counters_new(&c, NULL, &usage, err, sizeof err) == 0);
	CHECK(counters_count(c) == 0);
	CHECK(strstr(counters_dropped_reason(c), "seccomp") != NULL);
	CHECK(strstr(counters_dropped_reason(c), "rusage only") != NULL);
	/* Opening nothing is fine; reading gives "not counted" everywhere. */
	CHECK(counters_open(c, 9, false, err, sizeof err) == 0);
	struct counter_values v;
	CHECK(counters_read(c, &v, err, sizeof err) == 0);
	CHECK(isnan(v.value[CTR_TASK_CLOCK]));
	counters_free(c);
	counters_set_ops(NULL);
}

static void kernel_refused_falls_back_to_user_only(void)
{
	struct counters *c;
	bool usage;
	char err[256];
	fake_reset(true);
	fk.kernel_refused = true;
	counters_set_ops(&fake_ops);
	CHECK(counters_new(&c, NULL, &usage, err, sizeof err) == 0);
	CHECK(counters_user_only(c));
	CHECK(counters_count(c) == 6);
	CHECK(counters_open(c, 3, false, err, sizeof err) == 0);
	for (int i = 0; i < fk.n_open; i++)
		CHECK(fk.attr[i].exclude_kernel == 1);
	counters_free(c);
	counters_set_ops(NULL);
}

static void enable_on_exec_mode(void)
{
	struct counters *c;
	bool usage;
	char err[256];
	fake_reset(false);
	counters_set_ops(&fake_ops);
	CHECK(counters_new(&c, "task-clock,page-faults", &usage, err, sizeof err) == 0);
	CHECK(counters_open(c, 3, true, err, sizeof err) == 0);
	/* perf stat's attach: the leader starts disabled, enabled by exec. */
	CHECK(fk.attr[0].disabled == 1 && fk.attr[0].enable_on_exec == 1);
	CHECK(fk.attr[1].disabled == 0);
	counters_free(c);
	counters_set_ops(NULL);
}

static void unknown_and_empty_names(void)
{
	struct counters *c;
	bool usage;
	char err[256];
	fake_reset(true);
	counters_set_ops(&fake_ops);
	CHECK(counters_new(&c, "instructions,bogus", &usage, err, sizeof err) == -1);
	CHECK(usage);
	CHECK(strstr(err, "unknown counter 'bogus'") != NULL);
	CHECK(counters_new(&c, ",", &usage, err, sizeof err) == -1);
	CHECK(usage);
	CHECK(counters_new(&c, "none", &usage, err, sizeof err) == 0);
	CHECK(counters_count(c) == 0);
	counters_free(c);
	CHECK(counters_lookup("branch_misses") == CTR_BRANCH_MISSES);
	CHECK(counters_lookup("task-clock") == CTR_TASK_CLOCK);
	CHECK(counters_lookup("nope") == -1);
	counters_set_ops(NULL);
}

static void real_kernel_software_counters(void)
{
	/* On the real kernel: the software defaults must be countable unless
	 * perf_event_open is refused outright here. */
	struct counters *c;
	bool usage;
	char err[256];
	if (counters_new(&c, "task-clock,page-faults", &usage, err, sizeof err) != 0)
		SKIP(err);
	CHECK(counters_count(c) == 2);
	counters_free(c);
}

/* Every test starts from the real kernel's operations and a fresh fake,
 * whether the previous one passed or stopped at a failed CHECK. */
static void restore_ops(void)
{
	counters_set_ops(NULL);
	fake_reset(true);
}

int main(void)
{
	UNIT_AFTER_EACH(restore_ops);
	RUN(scale_arithmetic);
	RUN(explain_errnos);
	RUN(defaults_with_pmu);
	RUN(hardware_not_counted_is_nan);
	RUN(many_hardware_events_get_own_groups);
	RUN(no_pmu_drops_hardware_with_reason);
	RUN(everything_refused);
	RUN(kernel_refused_falls_back_to_user_only);
	RUN(enable_on_exec_mode);
	RUN(unknown_and_empty_names);
	RUN(real_kernel_software_counters);
	UNIT_EXIT();
}
