/*
 * test_syscheck.c: `cbench system check`'s judgement over the fixture
 * trees of tests/fixtures/sys/ (machines unlike this one: a laptop on
 * battery, a tuned server with isolated CPUs, a container in a VM), an
 * empty tree (every reading missing: "unknown", never a guess), the
 * busiest-process arithmetic, the likely cause the report names, the
 * CPU lists of --pin, and tune/reset on a copy of a fixture tree.
 * Run from the repository's top directory (tests/run.sh does).
 */
#include "analysis.h"
#include "cpulist.h"
#include "noise.h"
#include "syscheck.h"
#include "systune.h"
#include "unit.h"

#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIX "tests/fixtures/sys/"

static char tmp[256];

static void drop_tmp(void)
{
	char cmd[300];
	if (tmp[0] == '\0')
		return;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", tmp);
	tmp[0] = '\0';
}

/* A fresh copy of fixture tree `name` in tmp (or an empty tree: NULL). */
static int copy_tree(const char *name)
{
	snprintf(tmp, sizeof tmp, "/tmp/cbench-syscheck-XXXXXX");
	if (mkdtemp(tmp) == NULL)
		return -1;
	if (name == NULL)
		return 0;
	char cmd[600];
	snprintf(cmd, sizeof cmd, "cp -a '" FIX "%s/.' '%s/'", name, tmp);
	return system(cmd) == 0 ? 0 : -1;
}

static enum check_verdict verdict(const struct syscheck *c, const char *key)
{
	const struct check_item *it = syscheck_find(c, key);
	return it ? it->verdict : (enum check_verdict)-1;
}

static const char *reading(const struct syscheck *c, const char *key)
{
	const struct check_item *it = syscheck_find(c, key);
	return it ? it->reading : NULL;
}

/* Readings of a fixture, the processes looked at once. */
static void judge_tree(const char *root, struct check_readings *r, struct syscheck *c)
{
	syscheck_read(root, 0, r);
	syscheck_judge(r, c);
}

static void test_laptop_on_battery(void)
{
	struct check_readings r;
	struct syscheck c;
	judge_tree(FIX "laptop", &r, &c);
	CHECK(verdict(&c, "governor") == CHECK_RISK);
	CHECK_STR(reading(&c, "governor"), "powersave (driver intel_pstate)");
	CHECK(strstr(syscheck_find(&c, "governor")->fix, "cbench system tune") != NULL);
	CHECK(verdict(&c, "boost") == CHECK_RISK);      /* no_turbo 0 */
	CHECK(verdict(&c, "smt") == CHECK_RISK);
	CHECK(verdict(&c, "isolation") == CHECK_RISK);  /* the file is empty */
	CHECK_STR(reading(&c, "isolation"), "none");
	CHECK(verdict(&c, "load") == CHECK_FINE);       /* 0.20 on 4 cores */
	CHECK_STR(reading(&c, "load"), "0.20 0.15 0.10 on 4 cores");
	CHECK(verdict(&c, "swap") == CHECK_RISK);
	CHECK_STR(reading(&c, "swap"), "1024.0 MiB used"); /* 2097148 - 1048574 kB */
	CHECK(verdict(&c, "thp") == CHECK_RISK);
	CHECK(verdict(&c, "aslr") == CHECK_RISK);
	CHECK(verdict(&c, "perf_event_paranoid") == CHECK_FINE);
	CHECK(verdict(&c, "pmu") == CHECK_FINE);
	CHECK(verdict(&c, "virtualization") == CHECK_FINE);
	CHECK(verdict(&c, "clocksource") == CHECK_FINE);
	CHECK(verdict(&c, "power") == CHECK_RISK);
	CHECK_STR(reading(&c, "power"), "on battery");
	/* One look at the processes: their use is not measured. */
	CHECK(verdict(&c, "processes") == CHECK_UNKNOWN);
	CHECK(r.perf_max_sample_rate == 100000);
	/* The likeliest cause of drift here: the battery (no busy process
	 * was measured, the load is low). */
	char cause[256];
	CHECK(syscheck_likely_cause(&c, cause, sizeof cause));
	CHECK_STR(cause, "Power supply: on battery");
}

static void test_tuned_server(void)
{
	struct check_readings r;
	struct syscheck c;
	judge_tree(FIX "server", &r, &c);
	const char *fine[] = {"governor", "boost", "smt", "isolation", "load",
			      "swap", "thp", "aslr", "perf_event_paranoid", "pmu",
			      "virtualization", "clocksource", NULL};
	for (size_t i = 0; fine[i]; i++) {
		if (verdict(&c, fine[i]) != CHECK_FINE)
			printf("    %s: %s\n", fine[i], reading(&c, fine[i]));
		CHECK(verdict(&c, fine[i]) == CHECK_FINE);
	}
	/* Mains power and no battery. */
	CHECK(verdict(&c, "power") == CHECK_FINE);
	CHECK_STR(reading(&c, "power"), "on mains");
	CHECK_STR(reading(&c, "isolation"), "isolcpus 2-3, nohz_full 2-3");
	CHECK_STR(syscheck_find(&c, "isolation")->fix, "--pin 2-3");
	CHECK_STR(reading(&c, "swap"), "no swap");
	CHECK_STR(reading(&c, "virtualization"), "bare metal, no container seen");
	char cause[256];
	CHECK(!syscheck_likely_cause(&c, cause, sizeof cause));
	CHECK_STR(cause, "");
}

static void test_container_in_a_vm(void)
{
	struct check_readings r;
	struct syscheck c;
	judge_tree(FIX "container", &r, &c);
	CHECK(verdict(&c, "virtualization") == CHECK_RISK);
	CHECK_STR(reading(&c, "virtualization"), "a virtual machine, in a container (docker)");
	CHECK(verdict(&c, "governor") == CHECK_UNKNOWN);  /* no cpufreq */
	CHECK(verdict(&c, "boost") == CHECK_UNKNOWN);
	CHECK(verdict(&c, "smt") == CHECK_UNKNOWN);
	CHECK(verdict(&c, "isolation") == CHECK_UNKNOWN);
	CHECK(verdict(&c, "pmu") == CHECK_RISK);          /* software only */
	CHECK(verdict(&c, "perf_event_paranoid") == CHECK_RISK); /* 4 */
	CHECK(verdict(&c, "clocksource") == CHECK_RISK);  /* hpet */
	CHECK(verdict(&c, "load") == CHECK_RISK);         /* 3.5 on 2 */
	CHECK(verdict(&c, "thp") == CHECK_FINE);          /* never */
	CHECK(verdict(&c, "power") == CHECK_UNKNOWN);     /* no power-supply class */
	char cause[256];
	CHECK(syscheck_likely_cause(&c, cause, sizeof cause));
	CHECK_STR(cause, "Load average: 3.50 2.00 1.00 on 2 cores");
}

static void test_empty_tree_is_unknown(void)
{
	CHECK(copy_tree(NULL) == 0);
	struct check_readings r;
	struct syscheck c;
	judge_tree(tmp, &r, &c);
	CHECK(c.n == 14);
	for (size_t i = 0; i < c.n; i++) {
		if (c.item[i].verdict != CHECK_UNKNOWN)
			printf("    %s: %s\n", c.item[i].key, c.item[i].reading);
		CHECK(c.item[i].verdict == CHECK_UNKNOWN);
	}
	CHECK(r.perf_max_sample_rate == -1);
	char cause[256];
	CHECK(!syscheck_likely_cause(&c, cause, sizeof cause));
}

/* Two looks at the processes, 2 s apart, built by hand: 100 ticks a
 * second (sysconf(_SC_CLK_TCK) is 100 on Linux). */
static void test_busiest_processes(void)
{
	long hz = sysconf(_SC_CLK_TCK);
	struct proc_entry av[] = {
		{1, "init", 10, 0}, {50, "quiet", 100, 0}, {60, "busy", 1000, 0},
		{70, "self", 0, 0}, {80, "gone", 5, 0},
	}, bv[] = {
		{1, "init", 10, 0}, {50, "quiet", 100 + (uint64_t)hz / 50, 0},
		{60, "busy", 1000 + (uint64_t)hz * 3 / 2, 0},
		{70, "self", (uint64_t)hz * 2, 0}, {90, "new", (uint64_t)hz / 2, 0},
	};
	struct proc_snapshot a = {av, 5, 10.0, true}, b = {bv, 5, 12.0, true};
	struct check_readings r;
	memset(&r, 0, sizeof r);
	syscheck_busiest(&a, &b, 70, &r);
	CHECK(r.procs_known);
	CHECK_NEAR(r.busy_interval_s, 2.0, 1e-12);
	CHECK(r.n_busy == 3);               /* init did nothing, self excluded */
	CHECK_STR(r.busy[0].comm, "busy");  /* 1.5 s of CPU in 2 s */
	CHECK_NEAR(r.busy[0].cpu, 0.75, 1e-12);
	CHECK_STR(r.busy[1].comm, "new");   /* started since: all its 0.5 s */
	CHECK_NEAR(r.busy[1].cpu, 0.25, 1e-12);
	CHECK_STR(r.busy[2].comm, "quiet"); /* 0.02 s */
	CHECK_NEAR(r.busy[2].cpu, 0.01, 1e-12);
	struct syscheck c;
	syscheck_judge(&r, &c);
	CHECK(verdict(&c, "processes") == CHECK_RISK);
	CHECK_STR(reading(&c, "processes"),
		  "busy (pid 60) 75 %, new (pid 90) 25 %, quiet (pid 50) 1 %");
	CHECK_STR(syscheck_find(&c, "processes")->fix, "stop it, or renice -n 19 -p 60");
	char cause[256];
	CHECK(syscheck_likely_cause(&c, cause, sizeof cause));
	CHECK(strncmp(cause, "Busiest other processes: busy (pid 60) 75 %", 43) == 0);
	/* cbench's own tree is left out: its child (the launcher) and the
	 * launcher's child (a measured command). */
	bv[1].ppid = 70;
	bv[4].ppid = 50;
	syscheck_busiest(&a, &b, 70, &r);
	CHECK(r.n_busy == 1);
	CHECK_STR(r.busy[0].comm, "busy");
	bv[1].ppid = bv[4].ppid = 0;
	/* Below 10 % of a CPU: fine. */
	bv[2].ticks = 1000 + (uint64_t)hz / 20;    /* 0.05 s in 2 s */
	bv[4].ticks = 0;
	bv[3].ticks = 0;
	syscheck_busiest(&a, &b, 70, &r);
	syscheck_judge(&r, &c);
	CHECK(verdict(&c, "processes") == CHECK_FINE);
}

/* Around a run: the others' share is the machine's busy time less
 * cbench's own, over the interval; judged without listing processes. */
static void test_others_from_the_cpu_account(void)
{
	struct cpu_account a = {100.0, 3.0, 10.0, true},
			   b = {104.5, 5.0, 12.0, true};
	/* 4.5 s busy in 2 s, 2 s of it cbench's: 1.25 CPUs of others. */
	CHECK_NEAR(cpu_account_others(&a, &b), 1.25, 1e-12);
	b.own_s = 9.0;               /* ticks lag rusage: never below 0 */
	CHECK(cpu_account_others(&a, &b) == 0);
	b.at_s = 10.4;               /* too short for 10 ms ticks */
	CHECK(isnan(cpu_account_others(&a, &b)));
	b.at_s = 12.0;
	b.known = false;
	CHECK(isnan(cpu_account_others(&a, &b)));

	struct check_readings r;
	memset(&r, 0, sizeof r);
	r.watched = r.procs_known = true;
	r.busy_interval_s = 2.0;
	r.others_cpu = 0.04;
	struct syscheck c;
	syscheck_judge(&r, &c);
	CHECK(verdict(&c, "processes") == CHECK_FINE);
	CHECK_STR(reading(&c, "processes"), "4 % of a CPU used by others over 2.0 s");
	r.others_cpu = 1.25;
	r.n_busy = 1;
	r.busy[0] = (struct check_proc){60, "loadgen", 0.98};
	syscheck_judge(&r, &c);
	CHECK(verdict(&c, "processes") == CHECK_RISK);
	CHECK_STR(reading(&c, "processes"),
		  "125 % of a CPU used by others over 2.0 s; now loadgen (pid 60) 98 %");
	CHECK_STR(syscheck_find(&c, "processes")->fix, "stop it, or renice -n 19 -p 60");
	r.n_busy = 0;                /* busy, but no one busy any more */
	syscheck_judge(&r, &c);
	CHECK(verdict(&c, "processes") == CHECK_RISK);
	CHECK_STR(syscheck_find(&c, "processes")->fix,
		  "stop other work, or run when the machine is idle");
	r.others_cpu = NAN;
	syscheck_judge(&r, &c);
	CHECK(verdict(&c, "processes") == CHECK_UNKNOWN);
	CHECK_STR(reading(&c, "processes"), "not measured (the run took under 0.5 s)");
}

/* The machine's busy time from a fixture's proc/stat: user, nice and
 * system; not idle, iowait, irq, softirq or steal. */
static void test_cpu_account_of_fixture(void)
{
	CHECK(copy_tree("laptop") == 0);
	char path[300];
	snprintf(path, sizeof path, "%s/proc/stat", tmp);
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	long hz = sysconf(_SC_CLK_TCK);
	/* user nice system idle iowait irq softirq steal guest guest_nice */
	fprintf(f, "cpu  %ld %ld %ld 999999 5000 %ld %ld 7000 0 0\ncpu0 1 2 3\n",
		hz * 10, hz * 2, hz * 3, hz * 1, hz * 4);
	fclose(f);
	struct cpu_account a;
	cpu_account_read(tmp, &a);
	CHECK(a.known);
	CHECK_NEAR(a.busy_s, 15.0, 1e-9);   /* 10 + 2 + 3 */
	CHECK(a.own_s > 0);          /* this test's own CPU time so far */
	cpu_account_read(FIX "laptop", &a);   /* no proc/stat there */
	CHECK(!a.known);
}

static void test_process_snapshot_of_fixture(void)
{
	struct proc_snapshot s;
	proc_snapshot_take(FIX "laptop", &s);
	CHECK(s.known && s.n == 2);
	size_t k = s.v[0].pid == 4242 ? 0 : 1;
	CHECK(s.v[k].pid == 4242);
	CHECK_STR(s.v[k].comm, "my browser");     /* a space in the name */
	CHECK(s.v[k].ticks == 15000);             /* utime 12000 + stime 3000 */
	CHECK(s.v[1 - k].ticks == 500);           /* systemd: 150 + 350 */
	proc_snapshot_free(&s);
}

static void test_cpu_lists(void)
{
	cpu_set_t s;
	char err[256], buf[64];
	CHECK(cpulist_parse("2", &s, err, sizeof err) == 0);
	CHECK(CPU_COUNT(&s) == 1 && CPU_ISSET(2, &s));
	CHECK(cpulist_parse("6,2-3,0", &s, err, sizeof err) == 0);
	cpulist_format(&s, buf, sizeof buf);
	CHECK_STR(buf, "0,2-3,6");
	CHECK(cpulist_parse("0-1,1", &s, err, sizeof err) == 0);
	cpulist_format(&s, buf, sizeof buf);
	CHECK_STR(buf, "0-1");
	const char *bad[] = {"", "a", "1-", "-1", "1,", "3-2", "1 2", "1024", NULL};
	for (size_t i = 0; bad[i]; i++)
		CHECK(cpulist_parse(bad[i], &s, err, sizeof err) == -1);
	/* Online CPUs of a fixture: 0-3 on the laptop. */
	CHECK(cpulist_parse("3", &s, err, sizeof err) == 0);
	CHECK(cpulist_check_online(FIX "laptop", &s, err, sizeof err) == 0);
	CHECK(cpulist_check_online(FIX "container", &s, err, sizeof err) == -1);
	CHECK_STR(err, "CPU 3 is not online (online: 0-1)");
}

/* The value of ROOT(tmp)/rel, or "" when unreadable. */
static const char *value(const char *rel)
{
	static char buf[128];
	char path[512];
	snprintf(path, sizeof path, "%s/%s", tmp, rel);
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (f) {
		if (fgets(buf, sizeof buf, f))
			buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
	}
	return buf;
}

static void test_tune_and_reset_on_a_copy(void)
{
	CHECK(copy_tree("laptop") == 0);
	/* cpu2 cannot run performance: left alone. */
	char p[512];
	snprintf(p, sizeof p, "%s/sys/devices/system/cpu/cpu2/cpufreq/"
		 "scaling_available_governors", tmp);
	FILE *f = fopen(p, "w");
	CHECK(f != NULL);
	fputs("powersave\n", f);
	fclose(f);
	struct systune_log log;
	char err[512];
	CHECK(systune_apply(tmp, &log, err, sizeof err) == 0);
	CHECK(log.n == 5);  /* 3 governors, no_turbo, the sample rate */
	systune_log_free(&log);
	const char *cpu = "sys/devices/system/cpu/";
	char rel[256];
	for (int c = 0; c < 4; c++) {
		snprintf(rel, sizeof rel, "%scpu%d/cpufreq/scaling_governor", cpu, c);
		CHECK_STR(value(rel), c == 2 ? "powersave" : "performance");
	}
	CHECK_STR(value("sys/devices/system/cpu/intel_pstate/no_turbo"), "1");
	CHECK_STR(value("proc/sys/kernel/perf_event_max_sample_rate"), "1");
	/* The check now finds the governor (cpu0) and boost fine. */
	struct check_readings r;
	struct syscheck c;
	judge_tree(tmp, &r, &c);
	CHECK(verdict(&c, "governor") == CHECK_FINE);
	CHECK(verdict(&c, "boost") == CHECK_FINE);
	/* Tuning twice would save the tuned values: refused. */
	CHECK(systune_apply(tmp, &log, err, sizeof err) == -1);
	CHECK(strstr(err, "already tuned") != NULL);
	systune_log_free(&log);
	CHECK(systune_reset(tmp, &log, err, sizeof err) == 0);
	CHECK(log.n == 5);
	systune_log_free(&log);
	for (int k = 0; k < 4; k++) {
		snprintf(rel, sizeof rel, "%scpu%d/cpufreq/scaling_governor", cpu, k);
		CHECK_STR(value(rel), "powersave");
	}
	CHECK_STR(value("sys/devices/system/cpu/intel_pstate/no_turbo"), "0");
	CHECK_STR(value("proc/sys/kernel/perf_event_max_sample_rate"), "100000");
	CHECK(access(value(SYSTUNE_SAVED), F_OK) != 0);
	snprintf(p, sizeof p, "%s/" SYSTUNE_SAVED, tmp);
	CHECK(access(p, F_OK) != 0);
	/* Nothing saved: reset says so. */
	CHECK(systune_reset(tmp, &log, err, sizeof err) == 1);
	systune_log_free(&log);
}

static void test_tune_nothing_to_do(void)
{
	CHECK(copy_tree("server") == 0);
	struct systune_log log;
	char err[512], p[512];
	CHECK(systune_apply(tmp, &log, err, sizeof err) == 0);
	CHECK(log.n == 0);
	systune_log_free(&log);
	snprintf(p, sizeof p, "%s/" SYSTUNE_SAVED, tmp);
	CHECK(access(p, F_OK) != 0);  /* nothing changed, nothing saved */
}

/* The noise figures of a made-up loop of 9 runs. */
static void test_noise_figures(void)
{
	static const double x[] = {0.010, 0.011, 0.012, 0.010, 0.013, 0.011,
				   0.015, 0.014, 0.016};
	struct bench_result *r = results_new("loop", "loop", NULL, 0);
	results_enable(r, MET_WALL);
	for (size_t k = 0; k < 9; k++) {
		double v[MET_COUNT];
		for (int m = 0; m < MET_COUNT; m++)
			v[m] = NAN;
		v[MET_WALL] = x[k];
		results_add_run(r, v, 0, 0);
	}
	struct analysis_options opt = {.confidence = 0.95};
	struct analysis *an = analysis_new(&opt);
	analysis_update_bench(an, 0, r);
	struct noise_result n;
	noise_summarise(an, r, &n);
	CHECK(n.runs == 9);
	CHECK_NEAR(n.confidence, 0.95, 0);
	/* numpy: np.std(x, ddof=1) / np.mean(x) */
	CHECK_REL(n.cv, 0.1756456747580893, 1e-12);
	/* numpy: x[-3:].mean() / x[:3].mean() - 1 */
	CHECK_REL(n.first_last, 0.36363636363636354, 1e-12);
	/* X: sqrt(2) x the analysis's interval's half-width over the mean. */
	const struct stats_summary *w = &an->bench[0].sum[MET_WALL];
	CHECK(w->mean_ci_hi > w->mean_ci_lo);
	CHECK_REL(n.resolvable, sqrt(2.0) * (w->mean_ci_hi - w->mean_ci_lo) / 2 / w->mean,
		  1e-15);
	CHECK_REL(n.mean_s, 0.112 / 9, 1e-12);  /* the sum of x is 0.112 */
	analysis_free(an);
	results_free(r);
}

int main(void)
{
	UNIT_AFTER_EACH(drop_tmp);
	RUN(test_laptop_on_battery);
	RUN(test_tuned_server);
	RUN(test_container_in_a_vm);
	RUN(test_empty_tree_is_unknown);
	RUN(test_busiest_processes);
	RUN(test_others_from_the_cpu_account);
	RUN(test_cpu_account_of_fixture);
	RUN(test_process_snapshot_of_fixture);
	RUN(test_cpu_lists);
	RUN(test_tune_and_reset_on_a_copy);
	RUN(test_tune_nothing_to_do);
	RUN(test_noise_figures);
	UNIT_EXIT();
}
