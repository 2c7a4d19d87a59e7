/*
 * syscheck.c: the readings and the judgement of `cbench system check`
 * (syscheck.h).  The machine description comes from sysinfo_collect_at,
 * the one reader of those files; this file reads only what the check
 * alone needs: the processes' CPU ticks (ROOT/proc/PID/stat, fields 14 and
 * 15, see proc(5)) and perf_event_max_sample_rate.
 *
 * The thresholds, and why (the README's "Quiet machine" section shows
 * them to users):
 *   other processes  a risk from 10 % of a CPU: a process that busy takes
 *                    the benchmark's core now and then;
 *   load average     a risk from a quarter of the cores (1-minute load);
 *   governor         fine only for "performance": every other governor
 *                    changes the clock with the load, so speed drifts;
 *   boost, SMT       a risk when on: turbo depends on temperature and on
 *                    the other cores, a sibling thread shares the core;
 *   isolation        a risk when no CPU is isolated (isolcpus/nohz_full);
 *   swap             a risk when any is in use;
 *   THP              a risk when "always" (khugepaged and fault-time
 *                    compaction stall runs at random);
 *   ASLR             a risk when on (counts vary run to run; --aslr off);
 *   perf             a risk when perf_event_paranoid > 2 (no counters)
 *                    and when there is no PMU (no hardware counters);
 *   VM or container  a risk: other guests take the host's CPU (steal),
 *                    cgroup limits throttle;
 *   clock source     fine for tsc and its VM and ARM equivalents, a risk
 *                    for hpet, acpi_pm and jiffies (slow or coarse);
 *   power            a risk on battery (power saving lowers the clock).
 * A reading that is missing makes its item "unknown", never a guess.
 */
#include "syscheck.h"
#include "xalloc.h"

#include <cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

/* Process use that is a risk, in CPUs. */
#define BUSY_RISK 0.10
/* Load average per core that is a risk. */
#define LOAD_RISK 0.25

static void at(char *buf, size_t len, const char *root, const char *rel)
{
	snprintf(buf, len, "%s/%s", strcmp(root, "/") == 0 ? "" : root, rel);
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One ROOT/proc/PID/stat: comm, ppid and utime + stime.  0, or -1. */
static int read_stat(const char *path, char *comm, size_t comm_len,
		     pid_t *ppid, uint64_t *ticks)
{
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return -1;
	char line[2048];
	bool ok = fgets(line, sizeof line, f) != NULL;
	fclose(f);
	char *open = ok ? strchr(line, '(') : NULL;
	char *close = ok ? strrchr(line, ')') : NULL;
	if (open == NULL || close == NULL || close < open)
		return -1;
	size_t n = (size_t)(close - open - 1);
	if (n >= comm_len)
		n = comm_len - 1;
	memcpy(comm, open + 1, n);
	comm[n] = '\0';
	/* After ") ": state (field 3), ppid (4), ...; utime is 14, stime 15. */
	unsigned long long ut, st;
	int pp;
	if (sscanf(close + 2, "%*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
		   &pp, &ut, &st) != 3)
		return -1;
	*ppid = (pid_t)pp;
	*ticks = ut + st;
	return 0;
}

void proc_snapshot_take(const char *root, struct proc_snapshot *s)
{
	memset(s, 0, sizeof *s);
	char dir[4096];
	at(dir, sizeof dir, root, "proc");
	DIR *d = opendir(dir);
	s->at_s = mono_s();
	if (d == NULL)
		return;
	s->known = true;
	size_t cap = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		char path[4400];
		snprintf(path, sizeof path, "%.4096s/%.256s/stat", dir, e->d_name);
		xgrow((void **)&s->v, &cap, s->n + 1, sizeof *s->v);
		if (read_stat(path, s->v[s->n].comm, sizeof s->v[s->n].comm,
			      &s->v[s->n].ppid, &s->v[s->n].ticks) == 0)
			s->v[s->n++].pid = (pid_t)strtol(e->d_name, NULL, 10);
	}
	closedir(d);
}

void proc_snapshot_free(struct proc_snapshot *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

/* pid is self, a child of self or a grandchild (the launcher's commands). */
static bool own_process(const struct proc_snapshot *s, size_t i, pid_t self)
{
	pid_t pp = s->v[i].ppid;
	if (s->v[i].pid == self || pp == self)
		return true;
	for (size_t k = 0; k < s->n; k++)
		if (s->v[k].pid == pp)
			return s->v[k].ppid == self;
	return false;
}

void syscheck_busiest(const struct proc_snapshot *a, const struct proc_snapshot *b,
		      pid_t self, struct check_readings *r)
{
	r->n_busy = 0;
	r->procs_known = a->known && b->known;
	r->busy_interval_s = b->at_s - a->at_s;
	long hz = sysconf(_SC_CLK_TCK);
	if (!r->procs_known || r->busy_interval_s <= 0 || hz <= 0)
		return;
	for (size_t i = 0; i < b->n; i++) {
		if (own_process(b, i, self))
			continue;
		uint64_t before = 0;  /* a process started since: all its ticks */
		for (size_t k = 0; k < a->n; k++)
			if (a->v[k].pid == b->v[i].pid) {
				before = a->v[k].ticks;
				break;
			}
		if (b->v[i].ticks <= before)
			continue;
		double cpu = (double)(b->v[i].ticks - before) / (double)hz /
			     r->busy_interval_s;
		/* Insert into the top CHECK_PROCS, busiest first. */
		size_t k = r->n_busy < CHECK_PROCS ? r->n_busy++ : CHECK_PROCS;
		if (k == CHECK_PROCS && cpu <= r->busy[CHECK_PROCS - 1].cpu)
			continue;
		if (k == CHECK_PROCS)
			k = CHECK_PROCS - 1;
		while (k > 0 && r->busy[k - 1].cpu < cpu) {
			r->busy[k] = r->busy[k - 1];
			k--;
		}
		r->busy[k].pid = b->v[i].pid;
		r->busy[k].cpu = cpu;
		snprintf(r->busy[k].comm, sizeof r->busy[k].comm, "%s", b->v[i].comm);
	}
}

static int64_t read_number(const char *root, const char *rel)
{
	char path[4096];
	at(path, sizeof path, root, rel);
	FILE *f = fopen(path, "r");
	long long v;
	int ok = f ? fscanf(f, "%lld", &v) : 0;
	if (f)
		fclose(f);
	return ok == 1 ? (int64_t)v : -1;
}

void syscheck_read(const char *root, double interval_s, struct check_readings *r)
{
	memset(r, 0, sizeof *r);
	struct proc_snapshot a, b;
	proc_snapshot_take(root, &a);
	sysinfo_collect_at(root, &r->m, time(NULL));
	r->perf_max_sample_rate = read_number(root,
		"proc/sys/kernel/perf_event_max_sample_rate");
	if (interval_s > 0) {
		struct timespec ts = {(time_t)interval_s,
				      (long)((interval_s - (double)(time_t)interval_s) * 1e9)};
		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
	}
	proc_snapshot_take(root, &b);
	if (interval_s <= 0)
		b.at_s = a.at_s; /* one look: no interval to measure use over */
	syscheck_busiest(&a, &b, getpid(), r);
	r->procs_known = a.known && b.known;
	r->others_cpu = NAN;
	proc_snapshot_free(&a);
	proc_snapshot_free(&b);
}

/* The whole machine's busy time from ROOT/proc/stat's "cpu" line: user,
 * nice and system (not idle or iowait; not steal, another guest's; not
 * irq and softirq, much of which the benchmark's own I/O causes); guest
 * time is already inside user.  Seconds, or -1. */
static double machine_busy_s(const char *root)
{
	char path[4096];
	at(path, sizeof path, root, "proc/stat");
	FILE *f = fopen(path, "r");
	unsigned long long us, ni, sy, id, io, irq, sirq;
	int got = f ? fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu",
			     &us, &ni, &sy, &id, &io, &irq, &sirq) : 0;
	if (f)
		fclose(f);
	long hz = sysconf(_SC_CLK_TCK);
	if (got != 7 || hz <= 0)
		return -1;
	return (double)(us + ni + sy) / (double)hz;
}

static double tv_s(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec * 1e-6;
}

/* CPU time of cbench's live children and their reaped ones (fields 14
 * to 17 of /proc/PID/stat), from /proc/self/task/PID/children. */
static double live_children_s(void)
{
	char path[64], list[4096];
	snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, list, sizeof list - 1);
	close(fd);
	list[n > 0 ? n : 0] = '\0';
	/* A list that filled the buffer may end in half a pid: drop it. */
	char *last = n == (ssize_t)sizeof list - 1 ? strrchr(list, ' ') : NULL;
	if (last)
		*last = '\0';
	long hz = sysconf(_SC_CLK_TCK);
	double total = 0;
	char *save = NULL;
	for (char *tok = strtok_r(list, " \n", &save); tok && hz > 0;
	     tok = strtok_r(NULL, " \n", &save)) {
		char stat[64], line[1024];
		snprintf(stat, sizeof stat, "/proc/%.20s/stat", tok);
		FILE *f = fopen(stat, "r");
		bool ok = f && fgets(line, sizeof line, f);
		if (f)
			fclose(f);
		char *close = ok ? strrchr(line, ')') : NULL;
		unsigned long long u, s, cu, cs;
		if (close && sscanf(close + 2, "%*c %*d %*d %*d %*d %*d %*u %*u "
				    "%*u %*u %*u %llu %llu %llu %llu",
				    &u, &s, &cu, &cs) == 4)
			total += (double)(u + s + cu + cs) / (double)hz;
	}
	return total;
}

void cpu_account_read(const char *root, struct cpu_account *a)
{
	memset(a, 0, sizeof *a);
	struct rusage self, kids;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	a->own_s = tv_s(self.ru_utime) + tv_s(self.ru_stime) +
		   tv_s(kids.ru_utime) + tv_s(kids.ru_stime) + live_children_s();
	a->busy_s = machine_busy_s(root);
	a->at_s = mono_s();
	a->known = a->busy_s >= 0;
}

/* Below this interval the clock ticks of /proc/stat (10 ms a CPU) are too
 * coarse for a 10 %-of-a-CPU threshold. */
#define OTHERS_MIN_S 0.5

double cpu_account_others(const struct cpu_account *a, const struct cpu_account *b)
{
	double dt = b->at_s - a->at_s;
	if (!a->known || !b->known || dt < OTHERS_MIN_S)
		return NAN;
	double others = (b->busy_s - a->busy_s - (b->own_s - a->own_s)) / dt;
	return others > 0 ? others : 0;
}

void syscheck_watch_start(struct syscheck_watch *w, const char *root,
			  const struct machine_info *m)
{
	memset(w, 0, sizeof *w);
	if (m)
		w->r.m = *m;
	else
		sysinfo_collect_at(root, &w->r.m, time(NULL));
	w->r.perf_max_sample_rate = read_number(root,
		"proc/sys/kernel/perf_event_max_sample_rate");
	cpu_account_read(root, &w->start);
	w->r.others_cpu = NAN;
	w->r.watched = true;
}

/* Seconds between two namings of the busiest processes. */
#define NAME_EVERY_S 5.0
/* The look that names them. */
#define NAME_LOOK_S 0.1

void syscheck_watch_check(struct syscheck_watch *w, const char *root,
			  struct syscheck *out)
{
	struct cpu_account now;
	cpu_account_read(root, &now);
	struct check_readings *r = &w->r;
	r->others_cpu = cpu_account_others(&w->start, &now);
	r->procs_known = now.known && w->start.known;
	r->busy_interval_s = now.at_s - w->start.at_s;
	if (!(r->others_cpu >= BUSY_RISK))
		r->n_busy = 0;
	else if (w->named_at_s == 0 || now.at_s - w->named_at_s >= NAME_EVERY_S) {
		struct proc_snapshot a, b;
		struct check_readings look = {0};
		proc_snapshot_take(root, &a);
		struct timespec ts = {0, (long)(NAME_LOOK_S * 1e9)};
		while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
			;
		proc_snapshot_take(root, &b);
		syscheck_busiest(&a, &b, getpid(), &look);
		memcpy(r->busy, look.busy, sizeof r->busy);
		r->n_busy = look.n_busy;
		proc_snapshot_free(&a);
		proc_snapshot_free(&b);
		w->named_at_s = mono_s();
	}
	syscheck_judge(r, out);
}


/* ---- the judgement ---- */

static struct check_item *item(struct syscheck *c, const char *key,
			       const char *label)
{
	struct check_item *it = &c->item[c->n++];
	memset(it, 0, sizeof *it);
	it->key = key;
	it->label = label;
	it->verdict = CHECK_UNKNOWN;
	return it;
}

#define SET(field, ...) snprintf(it->field, sizeof it->field, __VA_ARGS__)

static void judge_governor(const struct machine_info *m, struct syscheck *c)
{
	struct check_item *it = item(c, "governor", "CPU frequency governor");
	if (m->governor[0] == '\0') {
		SET(reading, "no cpufreq governor visible (a VM, or frequency "
		    "under the firmware's control)");
		SET(why, "the clock may still change with the load");
		return;
	}
	SET(reading, "%s%s%s%s", m->governor, m->cpufreq_driver[0] ? " (driver " : "",
	    m->cpufreq_driver, m->cpufreq_driver[0] ? ")" : "");
	if (strcmp(m->governor, "performance") == 0) {
		it->verdict = CHECK_FINE;
		return;
	}
	it->verdict = CHECK_RISK;
	SET(why, "the clock follows the load, so the speed drifts during a "
	    "benchmark");
	SET(fix, "sudo cbench system tune (or: sudo cpupower frequency-set "
	    "-g performance)");
}

static void judge_boost(const struct machine_info *m, struct syscheck *c)
{
	struct check_item *it = item(c, "boost", "Turbo / boost");
	if (m->boost < 0) {
		SET(reading, "not visible (no cpufreq/boost or intel_pstate/no_turbo)");
		return;
	}
	SET(reading, m->boost ? "on" : "off");
	it->verdict = m->boost ? CHECK_RISK : CHECK_FINE;
	if (m->boost) {
		SET(why, "the turbo clock depends on temperature and on how many "
		    "cores are busy");
		SET(fix, "sudo cbench system tune (or: echo 0 | sudo tee "
		    "/sys/devices/system/cpu/cpufreq/boost)");
	}
}

static void judge_smt(const struct machine_info *m, struct syscheck *c)
{
	struct check_item *it = item(c, "smt", "SMT (hyper-threading)");
	if (m->smt < 0) {
		SET(reading, "not visible (no /sys/devices/system/cpu/smt/active)");
		return;
	}
	SET(reading, m->smt ? "active: sibling threads share a core" : "off");
	it->verdict = m->smt ? CHECK_RISK : CHECK_FINE;
	if (m->smt) {
		SET(why, "work on the sibling thread slows the benchmark's core");
		SET(fix, "--pin one CPU per core (siblings: /sys/devices/system/cpu/"
		    "cpuN/topology/thread_siblings_list), or echo off | sudo tee "
		    "/sys/devices/system/cpu/smt/control");
	}
}

static void judge_isolation(const struct machine_info *m, struct syscheck *c)
{
	struct check_item *it = item(c, "isolation", "Isolated CPUs");
	if (!m->isolation_known) {
		SET(reading, "not visible (no /sys/devices/system/cpu/isolated)");
		return;
	}
	if (m->isolated[0] || m->nohz_full[0]) {
		it->verdict = CHECK_FINE;
		SET(reading, "isolcpus %.100s, nohz_full %.100s", m->isolated[0]
		    ? m->isolated : "none", m->nohz_full[0] ? m->nohz_full : "none");
		SET(fix, "--pin %.200s", m->isolated[0] ? m->isolated : m->nohz_full);
		return;
	}
	it->verdict = CHECK_RISK;
	SET(reading, "none");
	SET(why, "the scheduler may put any other task on the benchmark's CPU");
	SET(fix, "boot with isolcpus=N nohz_full=N rcu_nocbs=N, then --pin N");
}

static void judge_load(const struct machine_info *m, struct syscheck *c)
{
	struct check_item *it = item(c, "load", "Load average");
	if (m->loadavg[0] < 0 || m->cpus <= 0) {
		SET(reading, "not visible (proc/loadavg or the core count unknown)");
		return;
	}
	SET(reading, "%.2f %.2f %.2f on %ld core%s", m->loadavg[0], m->loadavg[1],
	    m->loadavg[2], m->cpus, m->cpus == 1 ? "" : "s");
	bool risk = m->loadavg[0] >= LOAD_RISK * (double)m->cpus;
	it->verdict = risk ? CHECK_RISK : CHECK_FINE;
	if (risk) {
		SET(why, "other work competes with the benchmark for the cores");
		SET(fix, "stop other work (see the busiest processes), or wait "
		    "for the load to fall");
	}
}

/* "name (pid N) 75 %, ..." for the busiest, into buf. */
static void busy_list(const struct check_readings *r, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < r->n_busy && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s (pid %d) %.0f %%",
				 i ? ", " : "", r->busy[i].comm,
				 (int)r->busy[i].pid, 100 * r->busy[i].cpu);
		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* Around a benchmark: the others' use over the run, from the machine's
 * account; the busiest named (now) only when that use is a risk. */
static void judge_others(const struct check_readings *r, struct check_item *it)
{
	if (isnan(r->others_cpu)) {
		SET(reading, "not measured (the run took under %.1f s)", OTHERS_MIN_S);
		return;
	}
	bool risk = r->others_cpu >= BUSY_RISK;
	it->verdict = risk ? CHECK_RISK : CHECK_FINE;
	char list[CHECK_TEXT];
	busy_list(r, list, sizeof list);
	SET(reading, "%.0f %% of a CPU used by others over %.1f s%s%.150s",
	    100 * r->others_cpu, r->busy_interval_s, list[0] ? "; now " : "", list);
	if (risk) {
		SET(why, "other work takes the benchmark's core now and then");
		if (r->n_busy)
			SET(fix, "stop it, or renice -n 19 -p %d", (int)r->busy[0].pid);
		else
			SET(fix, "stop other work, or run when the machine is idle");
	}
}

static void judge_procs(const struct check_readings *r, struct syscheck *c)
{
	struct check_item *it = item(c, "processes", "Busiest other processes");
	if (!r->procs_known) {
		SET(reading, "not visible (proc unreadable)");
		return;
	}
	if (r->watched) {
		judge_others(r, it);
		return;
	}
	if (r->busy_interval_s <= 0) {
		SET(reading, "not measured (no interval)");
		return;
	}
	if (r->n_busy == 0) {
		it->verdict = CHECK_FINE;
		SET(reading, "none used the CPU in %.1f s", r->busy_interval_s);
		return;
	}
	busy_list(r, it->reading, sizeof it->reading);
	bool risk = r->busy[0].cpu >= BUSY_RISK;
	it->verdict = risk ? CHECK_RISK : CHECK_FINE;
	if (risk) {
		SET(why, "a busy process takes the benchmark's core now and then");
		SET(fix, "stop it, or renice -n 19 -p %d", (int)r->busy[0].pid);
	}
}

static void judge_memory(const struct machine_info *m, struct syscheck *c)
{
	struct check_item *it = item(c, "swap", "Swap in use");
	if (m->swap_total < 0 || (m->swap_total > 0 && m->swap_used < 0)) {
		SET(reading, "not visible (proc/meminfo)");
	} else if (m->swap_total == 0 || m->swap_used == 0) {
		it->verdict = CHECK_FINE;
		SET(reading, m->swap_total == 0 ? "no swap" : "none used");
	} else {
		it->verdict = CHECK_RISK;
		SET(reading, "%.1f MiB used", (double)m->swap_used / 1048576.0);
		SET(why, "a page swapped out is read back during a run");
		SET(fix, "free memory, then sudo swapoff -a && sudo swapon -a");
	}
	it = item(c, "thp", "Transparent huge pages");
	if (m->thp[0] == '\0') {
		SET(reading, "not visible (sys/kernel/mm/transparent_hugepage)");
		return;
	}
	SET(reading, "%s", m->thp);
	bool risk = strcmp(m->thp, "always") == 0;
	it->verdict = risk ? CHECK_RISK : CHECK_FINE;
	if (risk) {
		SET(why, "compaction and khugepaged stall runs at random");
		SET(fix, "echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled");
	}
}

static void judge_aslr(const struct machine_info *m, struct syscheck *c)
{
	struct check_item *it = item(c, "aslr", "Address-space randomisation");
	if (m->aslr < 0) {
		SET(reading, "not visible (proc/sys/kernel/randomize_va_space)");
		return;
	}
	SET(reading, "randomize_va_space %d%s", m->aslr, m->aslr ? " (on)" : " (off)");
	it->verdict = m->aslr ? CHECK_RISK : CHECK_FINE;
	if (m->aslr) {
		SET(why, "addresses change from run to run, and counts with them");
		SET(fix, "--aslr off for repeatable counts, or --randomize-layout to "
		    "average over layouts");
	}
}

static void judge_perf(const struct machine_info *m, struct syscheck *c)
{
	struct check_item *it = item(c, "perf_event_paranoid", "perf_event_paranoid");
	if (m->perf_paranoid == -99) {
		SET(reading, "not visible (proc/sys/kernel/perf_event_paranoid)");
	} else {
		SET(reading, "%d%s", m->perf_paranoid, m->perf_paranoid >= 2
		    ? " (user-space counts only)" : "");
		it->verdict = m->perf_paranoid > 2 ? CHECK_RISK : CHECK_FINE;
		if (m->perf_paranoid > 2) {
			SET(why, "counters are refused to unprivileged users");
			SET(fix, "echo 2 | sudo tee /proc/sys/kernel/perf_event_paranoid");
		}
	}
	it = item(c, "pmu", "Hardware counters (PMU)");
	if (m->pmu < 0) {
		SET(reading, "not visible (sys/bus/event_source/devices)");
		return;
	}
	SET(reading, m->pmu ? "present" : "none (a VM without PMU passthrough?)");
	it->verdict = m->pmu ? CHECK_FINE : CHECK_RISK;
	if (!m->pmu) {
		SET(why, "no instructions or cycles: only time and software counters");
		SET(fix, "enable PMU passthrough in the hypervisor (QEMU: -cpu host)");
	}
}

static void judge_virt(const struct machine_info *m, struct syscheck *c)
{
	struct check_item *it = item(c, "virtualization", "VM or container");
	bool vm = m->hypervisor == 1, ct = m->container[0] != '\0';
	if (!vm && !ct && m->hypervisor < 0) {
		SET(reading, "not visible (no hypervisor flag readable)");
		return;
	}
	if (!vm && !ct) {
		it->verdict = CHECK_FINE;
		SET(reading, "bare metal, no container seen");
		return;
	}
	it->verdict = CHECK_RISK;
	if (vm && ct)
		SET(reading, "a virtual machine, in a container (%s)", m->container);
	else if (vm)
		SET(reading, "a virtual machine");
	else
		SET(reading, "a container (%s)", m->container);
	SET(why, vm ? "other guests take the host's CPU (steal time)"
	    : "cgroup CPU limits throttle the benchmark");
	SET(fix, "benchmark on a dedicated machine, or compare only within one "
	    "invocation (interleaved)");
}

static void judge_clock(const struct machine_info *m, struct syscheck *c)
{
	static const char *const good[] = {"tsc", "kvm-clock", "arch_sys_counter",
		"hyperv_clocksource_tsc_page", "xen", NULL};
	static const char *const bad[] = {"hpet", "acpi_pm", "jiffies", NULL};
	struct check_item *it = item(c, "clocksource", "Clock source");
	if (m->clocksource[0] == '\0') {
		SET(reading, "not visible (sys/devices/system/clocksource)");
		return;
	}
	SET(reading, "%s", m->clocksource);
	for (size_t i = 0; good[i]; i++)
		if (strcmp(m->clocksource, good[i]) == 0)
			it->verdict = CHECK_FINE;
	for (size_t i = 0; bad[i]; i++)
		if (strcmp(m->clocksource, bad[i]) == 0) {
			it->verdict = CHECK_RISK;
			SET(why, "reading the clock is slow or coarse");
			SET(fix, "echo tsc | sudo tee /sys/devices/system/clocksource/"
			    "clocksource0/current_clocksource (if available_clocksource "
			    "lists it)");
		}
	if (it->verdict == CHECK_UNKNOWN)
		SET(why, "a clock source cbench does not know");
}

static void judge_power(const struct machine_info *m, struct syscheck *c)
{
	struct check_item *it = item(c, "power", "Power supply");
	if (m->on_battery < 0) {
		SET(reading, "unreadable (no /sys/class/power_supply)");
		return;
	}
	SET(reading, m->on_battery ? "on battery" : "on mains");
	it->verdict = m->on_battery ? CHECK_RISK : CHECK_FINE;
	if (m->on_battery) {
		SET(why, "power saving lowers and varies the clock");
		SET(fix, "plug the charger in");
	}
}

void syscheck_judge(const struct check_readings *r, struct syscheck *out)
{
	memset(out, 0, sizeof *out);
	const struct machine_info *m = &r->m;
	judge_governor(m, out);
	judge_boost(m, out);
	judge_smt(m, out);
	judge_isolation(m, out);
	judge_load(m, out);
	judge_procs(r, out);
	judge_memory(m, out);
	judge_aslr(m, out);
	judge_perf(m, out);
	judge_virt(m, out);
	judge_clock(m, out);
	judge_power(m, out);
}

const struct check_item *syscheck_find(const struct syscheck *c, const char *key)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->item[i].key, key) == 0)
			return &c->item[i];
	return NULL;
}

const char *syscheck_verdict_name(enum check_verdict v)
{
	return v == CHECK_FINE ? "fine" : v == CHECK_RISK ? "risk" : "unknown";
}

bool syscheck_likely_cause(const struct syscheck *c, char *buf, size_t len)
{
	static const char *const order[] = {"processes", "load", "power",
		"governor", "boost", "smt", "virtualization", "swap", "thp", NULL};
	buf[0] = '\0';
	for (size_t i = 0; order[i]; i++) {
		const struct check_item *it = syscheck_find(c, order[i]);
		if (it && it->verdict == CHECK_RISK) {
			snprintf(buf, len, "%s: %s", it->label, it->reading);
			return true;
		}
	}
	return false;
}

void *syscheck_json(const struct syscheck *c)
{
	cJSON *j = cJSON_CreateObject();
	cJSON *items = cJSON_AddArrayToObject(j, "items");
	for (size_t i = 0; i < c->n; i++) {
		const struct check_item *it = &c->item[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "key", it->key);
		cJSON_AddStringToObject(o, "label", it->label);
		cJSON_AddStringToObject(o, "verdict", syscheck_verdict_name(it->verdict));
		cJSON_AddStringToObject(o, "reading", it->reading);
		if (it->why[0])
			cJSON_AddStringToObject(o, "why", it->why);
		else
			cJSON_AddNullToObject(o, "why");
		if (it->fix[0])
			cJSON_AddStringToObject(o, "fix", it->fix);
		else
			cJSON_AddNullToObject(o, "fix");
		cJSON_AddItemToArray(items, o);
	}
	return j;
}
