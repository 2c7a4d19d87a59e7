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
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* One ROOT/proc/PID/stat: comm and utime + stime.  0, or -1. */
static int read_stat(const char *path, char *comm, size_t comm_len,
		     uint64_t *ticks)
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
	/* After ") ": state (field 3), then fields 4..; utime is 14, stime 15. */
	unsigned long long ut, st;
	if (sscanf(close + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
		   &ut, &st) != 2)
		return -1;
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
			      &s->v[s->n].ticks) == 0)
			s->v[s->n++].pid = (pid_t)strtol(e->d_name, NULL, 10);
	}
	closedir(d);
}

void proc_snapshot_free(struct proc_snapshot *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
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
		if (b->v[i].pid == self)
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
		while (nanosleep(&ts, &ts) != 0)
			;
	}
	proc_snapshot_take(root, &b);
	if (interval_s <= 0)
		b.at_s = a.at_s; /* one look: no interval to measure use over */
	syscheck_busiest(&a, &b, getpid(), r);
	r->procs_known = a.known && b.known;
	proc_snapshot_free(&a);
	proc_snapshot_free(&b);
}

void syscheck_watch_start(struct syscheck_watch *w, const char *root)
{
	syscheck_read(root, 0, &w->r);
	proc_snapshot_take(root, &w->start);
}

void syscheck_watch_check(struct syscheck_watch *w, const char *root,
			  struct syscheck *out)
{
	struct proc_snapshot now;
	proc_snapshot_take(root, &now);
	syscheck_busiest(&w->start, &now, getpid(), &w->r);
	proc_snapshot_free(&now);
	syscheck_judge(&w->r, out);
}

void syscheck_watch_free(struct syscheck_watch *w)
{
	proc_snapshot_free(&w->start);
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

static void judge_procs(const struct check_readings *r, struct syscheck *c)
{
	struct check_item *it = item(c, "processes", "Busiest other processes");
	if (!r->procs_known) {
		SET(reading, "not visible (proc unreadable)");
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
	size_t used = 0;
	for (size_t i = 0; i < r->n_busy && used < sizeof it->reading; i++) {
		int n = snprintf(it->reading + used, sizeof it->reading - used,
				 "%s%s (pid %d) %.0f %%", i ? ", " : "",
				 r->busy[i].comm, (int)r->busy[i].pid,
				 100 * r->busy[i].cpu);
		if (n < 0)
			break;
		used += (size_t)n;
	}
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
		SET(reading, "no battery seen (a desktop, a server, or unreadable)");
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
