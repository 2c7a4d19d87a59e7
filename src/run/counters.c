/*
 * counters.c: everything cbench does with perf_event_open(2).
 *
 * For each run a fresh set of counters is opened on the child while it is
 * frozen at exec (reusing one set across runs miscounts), so the counts start
 * at the command's first instruction.  Events are opened as groups and read
 * with one read(2) per group: software events (task-clock, page faults) in
 * one group, hardware events in one group when at most four are asked for
 * (they then fit the PMU together on current x86 and arm64 parts) and one
 * group each otherwise, so the kernel can multiplex them; every count is
 * scaled by time_enabled / time_running and a counter that never ran is
 * reported as not counted (NaN).
 *
 * Kernel facts this relies on (measured, see DESIGN.md): without a PMU,
 * hardware events fail with ENOENT; at perf_event_paranoid 2 an unprivileged
 * caller must set exclude_kernel or every event fails with EACCES; with
 * exclude_kernel the kernel zeroes context switches and migrations, so those
 * are never offered here (they come from wait4's rusage instead).
 */
#include "counters.h"
#include "xalloc.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct counter_info infos[CTR_MAX] = {
	[CTR_TASK_CLOCK] = {"task-clock", "task_clock",
			    "CPU time of the command and its children (kernel task clock)",
			    false, true, true},
	[CTR_PAGE_FAULTS] = {"page-faults", "page_faults",
			     "page faults taken by the command and its children",
			     false, true, false},
	[CTR_INSTRUCTIONS] = {"instructions", "instructions",
			      "instructions retired", true, true, false},
	[CTR_CYCLES] = {"cycles", "cycles", "CPU cycles", true, true, false},
	[CTR_CACHE_REFERENCES] = {"cache-references", "cache_references",
				  "last-level cache references", true, false, false},
	[CTR_CACHE_MISSES] = {"cache-misses", "cache_misses",
			      "last-level cache misses", true, true, false},
	[CTR_BRANCHES] = {"branches", "branches", "branch instructions",
			  true, false, false},
	[CTR_BRANCH_MISSES] = {"branch-misses", "branch_misses",
			       "mispredicted branches", true, true, false},
};

static const struct {
	uint32_t type;
	uint64_t config;
} events[CTR_MAX] = {
	[CTR_TASK_CLOCK] = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK},
	[CTR_PAGE_FAULTS] = {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
	[CTR_INSTRUCTIONS] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
	[CTR_CYCLES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
	[CTR_CACHE_REFERENCES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
	[CTR_CACHE_MISSES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
	[CTR_BRANCHES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS},
	[CTR_BRANCH_MISSES] = {PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
};

/* Hardware events beyond this many are opened as separate groups. */
#define HW_GROUP_MAX 4

struct group {
	size_t n;
	enum counter_id ids[CTR_MAX];
	int fds[CTR_MAX];
};

struct counters {
	bool enabled[CTR_MAX];
	size_t n_enabled;
	bool exclude_kernel;
	bool have_pmu;
	char *dropped;           /* why default events were dropped, or NULL */
	size_t n_groups;
	struct group groups[CTR_MAX];
	bool open;
	/* Descriptors of the last run, read but not yet closed (see
	 * counters_release). */
	size_t n_retired;
	int retired[CTR_MAX];
};

/* ---- system-call layer (replaceable by tests) ---- */

static int sys_open(void *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

static int sys_paranoid(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level = 2;
	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2;
		fclose(f);
	}
	return level;
}

static const struct counters_ops sys_ops = {sys_open, read, sys_paranoid};
static const struct counters_ops *ops = &sys_ops;

void counters_set_ops(const struct counters_ops *o)
{
	ops = o ? o : &sys_ops;
}

/* ---- tables ---- */

const struct counter_info *counters_info(enum counter_id id)
{
	return (unsigned)id < CTR_MAX ? &infos[id] : NULL;
}

int counters_lookup(const char *name)
{
	for (int i = 0; i < CTR_MAX; i++)
		if (strcmp(name, infos[i].name) == 0 || strcmp(name, infos[i].key) == 0)
			return i;
	return -1;
}

double counters_scale(uint64_t raw, uint64_t enabled, uint64_t running)
{
	if (running == 0)
		return NAN;
	if (running >= enabled)
		return (double)raw;
	/* The kernel counted only part of the time: extrapolate, as perf stat. */
	return (double)raw * ((double)enabled / (double)running);
}

void counters_explain(int err, bool hardware, int paranoid, char *buf,
		      size_t buflen)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
		if (hardware)
			snprintf(buf, buflen, "this machine has no hardware PMU "
				 "(a VM without PMU passthrough?)");
		else
			snprintf(buf, buflen, "the kernel does not offer this event "
				 "(ENOENT: built without perf events, or hidden by a "
				 "sandbox)");
		break;
	case EACCES:
		if (paranoid > 2)
			snprintf(buf, buflen, "perf_event_paranoid is %d; "
				 "'sysctl kernel.perf_event_paranoid=2' (as root) "
				 "allows user-space counting", paranoid);
		else
			snprintf(buf, buflen, "perf_event_open was refused (EACCES) "
				 "although perf_event_paranoid is %d: a seccomp or LSM "
				 "policy forbids it; allow perf_event_open in that "
				 "policy", paranoid);
		break;
	case EPERM:
		snprintf(buf, buflen, "perf_event_open was refused (EPERM) by a "
			 "seccomp or LSM policy (a container?); allow "
			 "perf_event_open in its profile");
		break;
	case ENOSYS:
		snprintf(buf, buflen, "this kernel has no perf_event_open");
		break;
	case EMFILE:
	case ENFILE:
		snprintf(buf, buflen, "out of file descriptors");
		break;
	default:
		snprintf(buf, buflen, "perf_event_open failed: %s", strerror(err));
		break;
	}
}

static void fill_attr(struct perf_event_attr *attr, enum counter_id id,
		      bool exclude_kernel, bool leader, bool enable_on_exec)
{
	memset(attr, 0, sizeof *attr);
	attr->size = sizeof *attr;
	attr->type = events[id].type;
	attr->config = events[id].config;
	attr->read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			    PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr->inherit = 1;
	attr->exclude_kernel = exclude_kernel;
	attr->exclude_hv = 1;
	if (enable_on_exec && leader) {
		attr->disabled = 1;
		attr->enable_on_exec = 1;
	}
}

/* Try one event on ourselves; returns 0 or an errno. */
static int probe(enum counter_id id, bool exclude_kernel)
{
	struct perf_event_attr attr;
	fill_attr(&attr, id, exclude_kernel, true, false);
	attr.disabled = 1;
	int fd = ops->open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno ? errno : EINVAL;
	close(fd);
	return 0;
}

static void build_groups(struct counters *c)
{
	size_t n_hw = 0;
	for (int i = 0; i < CTR_MAX; i++)
		if (c->enabled[i] && infos[i].hardware)
			n_hw++;
	c->n_groups = 0;
	struct group *sw = NULL, *hw = NULL;
	for (int i = 0; i < CTR_MAX; i++) {
		if (!c->enabled[i])
			continue;
		struct group **slot = infos[i].hardware ? &hw : &sw;
		if (*slot == NULL || (infos[i].hardware && n_hw > HW_GROUP_MAX)) {
			*slot = &c->groups[c->n_groups++];
			(*slot)->n = 0;
		}
		(*slot)->ids[(*slot)->n] = (enum counter_id)i;
		(*slot)->fds[(*slot)->n] = -1;
		(*slot)->n++;
	}
}

int counters_new(struct counters **out, const char *spec, bool *usage,
		 char *err, size_t errlen)
{
	struct counters *c = xcalloc(1, sizeof *c);
	bool requested[CTR_MAX] = {0};
	bool explicit_list = spec != NULL && strcmp(spec, "default") != 0;

	*usage = false;
	*out = NULL;
	if (spec == NULL || strcmp(spec, "default") == 0) {
		for (int i = 0; i < CTR_MAX; i++)
			requested[i] = infos[i].is_default;
	} else if (strcmp(spec, "none") != 0) {
		char *copy = xstrdup(spec), *save = NULL;
		for (char *tok = strtok_r(copy, ",", &save); tok;
		     tok = strtok_r(NULL, ",", &save)) {
			int id = counters_lookup(tok);
			if (id < 0) {
				snprintf(err, errlen, "unknown counter '%s' "
					 "(known: task-clock, page-faults, instructions, "
					 "cycles, cache-references, cache-misses, branches, "
					 "branch-misses, or none)", tok);
				free(copy);
				free(c);
				*usage = true;
				return -1;
			}
			requested[id] = true;
		}
		free(copy);
		bool any = false;
		for (int i = 0; i < CTR_MAX; i++)
			any |= requested[i];
		if (!any) {
			snprintf(err, errlen, "empty --counters list");
			free(c);
			*usage = true;
			return -1;
		}
	}

	int paranoid = ops->paranoid();
	/* Count kernel mode too only when the kernel lets us: root, or a
	 * paranoid level below 2.  Retry user-only if that is refused. */
	c->exclude_kernel = !(geteuid() == 0 || paranoid < 2);

	int errs[CTR_MAX] = {0};
	for (int i = 0; i < CTR_MAX; i++) {
		if (!requested[i])
			continue;
		errs[i] = probe((enum counter_id)i, c->exclude_kernel);
		if ((errs[i] == EACCES || errs[i] == EPERM) && !c->exclude_kernel &&
		    probe((enum counter_id)i, true) == 0) {
			c->exclude_kernel = true;
			/* Start again user-only so every event agrees. */
			memset(errs, 0, sizeof errs);
			i = -1;
		}
	}

	/* Hardware availability is probed even when not requested, for the
	 * JSON's "pmu" field: instructions is the canonical event. */
	c->have_pmu = (requested[CTR_INSTRUCTIONS] ? errs[CTR_INSTRUCTIONS]
			: probe(CTR_INSTRUCTIONS, c->exclude_kernel)) == 0;

	char why[DIAG_WHY_MAX];
	for (int i = 0; i < CTR_MAX; i++) {
		if (!requested[i])
			continue;
		if (errs[i] == 0) {
			c->enabled[i] = true;
			c->n_enabled++;
			continue;
		}
		counters_explain(errs[i], infos[i].hardware, paranoid, why, sizeof why);
		if (explicit_list) {
			snprintf(err, errlen, "cannot count %s: %s", infos[i].name, why);
			free(c);
			return -1;
		}
		if (c->dropped == NULL) {
			bool hw_only = true;
			for (int j = 0; j < CTR_MAX; j++)
				if (requested[j] && errs[j] && !infos[j].hardware)
					hw_only = false;
			c->dropped = xasprintf("%s unavailable: %s; "
					       "measuring time, rusage%s",
					       hw_only ? "hardware counters" : "counters",
					       why, hw_only ? " and software counters" : " only");
		}
	}
	build_groups(c);
	*out = c;
	return 0;
}

void counters_free(struct counters *c)
{
	if (c == NULL)
		return;
	counters_close(c);
	free(c->dropped);
	free(c);
}

bool counters_enabled(const struct counters *c, enum counter_id id)
{
	return c != NULL && (unsigned)id < CTR_MAX && c->enabled[id];
}

size_t counters_count(const struct counters *c)
{
	return c ? c->n_enabled : 0;
}

const char *counters_dropped_reason(const struct counters *c)
{
	return c ? c->dropped : NULL;
}

bool counters_have_pmu(const struct counters *c)
{
	return c && c->have_pmu;
}

bool counters_user_only(const struct counters *c)
{
	return c && c->exclude_kernel;
}

int counters_open(struct counters *c, pid_t pid, bool enable_on_exec,
		  char *err, size_t errlen)
{
	if (c == NULL || c->n_enabled == 0)
		return 0;
	for (size_t g = 0; g < c->n_groups; g++) {
		struct group *gr = &c->groups[g];
		for (size_t k = 0; k < gr->n; k++) {
			struct perf_event_attr attr;
			fill_attr(&attr, gr->ids[k], c->exclude_kernel, k == 0,
				  enable_on_exec);
			int fd = ops->open(&attr, pid, -1, k == 0 ? -1 : gr->fds[0],
					   PERF_FLAG_FD_CLOEXEC);
			if (fd < 0) {
				int e = errno;
				char why[DIAG_WHY_MAX];
				counters_explain(e, infos[gr->ids[k]].hardware,
						 ops->paranoid(), why, sizeof why);
				snprintf(err, errlen, "cannot open %s: %s",
					 infos[gr->ids[k]].name, why);
				c->open = true;
				counters_close(c);
				errno = e;
				return -1;
			}
			gr->fds[k] = fd;
		}
	}
	c->open = true;
	return 0;
}

int counters_read(struct counters *c, struct counter_values *out,
		  char *err, size_t errlen)
{
	for (int i = 0; i < CTR_MAX; i++) {
		out->value[i] = NAN;
		out->running_fraction[i] = 0;
	}
	if (c == NULL || !c->open)
		return 0;
	int rc = 0;
	for (size_t g = 0; g < c->n_groups; g++) {
		struct group *gr = &c->groups[g];
		uint64_t buf[3 + CTR_MAX];
		size_t want = (3 + gr->n) * sizeof(uint64_t);
		ssize_t got = ops->read(gr->fds[0], buf, want);
		if (got != (ssize_t)want || buf[0] != gr->n) {
			if (rc == 0)
				snprintf(err, errlen, "reading %s failed: %s",
					 infos[gr->ids[0]].name,
					 got < 0 ? strerror(errno) : "short read");
			rc = -1;
			continue;
		}
		uint64_t enabled = buf[1], running = buf[2];
		for (size_t k = 0; k < gr->n; k++) {
			enum counter_id id = gr->ids[k];
			double v = counters_scale(buf[3 + k], enabled, running);
			if (infos[id].is_time)
				v /= 1e9; /* task-clock counts nanoseconds */
			out->value[id] = v;
			out->running_fraction[id] =
				enabled ? (double)running / (double)enabled : 0;
		}
	}
	/* Closing a perf event costs about as much as opening one: keep the
	 * descriptors for counters_release(), which the engine calls while the
	 * next command runs, off the path between two runs. */
	counters_release(c);
	for (size_t g = 0; g < c->n_groups; g++) {
		struct group *gr = &c->groups[g];
		for (size_t k = gr->n; k-- > 0;) {
			if (gr->fds[k] >= 0)
				c->retired[c->n_retired++] = gr->fds[k];
			gr->fds[k] = -1;
		}
	}
	c->open = false;
	return rc;
}

void counters_release(struct counters *c)
{
	if (c == NULL)
		return;
	for (size_t i = 0; i < c->n_retired; i++)
		close(c->retired[i]);
	c->n_retired = 0;
}

void counters_close(struct counters *c)
{
	counters_release(c);
	if (c == NULL || !c->open)
		return;
	for (size_t g = 0; g < c->n_groups; g++) {
		struct group *gr = &c->groups[g];
		/* Siblings first, then the leader. */
		for (size_t k = gr->n; k-- > 0;) {
			if (gr->fds[k] >= 0)
				close(gr->fds[k]);
			gr->fds[k] = -1;
		}
	}
	c->open = false;
}
