/*
 * test_sysinfo.c: the machine readings from fixture trees standing in for
 * "/" (machines unlike this one: a laptop on battery, boost on, isolated
 * CPUs, a container), the unknowns of an empty tree, this machine's own
 * readings against the C library, and the source state of a real git work
 * tree with and without CI variables.
 */
#include "sysinfo.h"
#include "unit.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[256];

/* Writes root/rel (creating its directories) with the given text. */
static void put(const char *rel, const char *text)
{
	char path[512], cmd[1200];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	snprintf(cmd, sizeof cmd, "mkdir -p \"$(dirname '%s')\"", path);
	if (system(cmd) != 0)
		return;
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int new_root(void)
{
	snprintf(root, sizeof root, "/tmp/cbench-sysinfo-XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static void drop_root(void)
{
	char cmd[300];
	if (root[0] == '\0')
		return;
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", root);
	root[0] = '\0';
}

/* A laptop: powersave governor, boost on, SMT on, isolated CPUs, on
 * battery, a PMU, THP always, ASLR 2. */
static void test_laptop_fixture(void)
{
	CHECK(new_root() == 0);
	put("proc/sys/kernel/hostname", "lap\n");
	put("proc/sys/kernel/ostype", "Linux\n");
	put("proc/sys/kernel/osrelease", "6.5.0-1-amd64\n");
	put("proc/cpuinfo", "processor\t: 0\nmodel name\t: Fake CPU 3000\n"
	    "flags\t\t: fpu vme sse2\n\nprocessor\t: 1\n");
	put("proc/meminfo", "MemTotal:       16318412 kB\nMemFree: 1 kB\n"
	    "SwapTotal:       2097148 kB\nSwapFree:        1048574 kB\n");
	put("proc/loadavg", "0.52 0.40 0.31 1/300 4242\n");
	put("etc/os-release", "NAME=\"Fake\"\nPRETTY_NAME=\"Fake Linux 1.0\"\n");
	put("sys/devices/system/cpu/online", "0-3,6\n");
	put("sys/devices/system/cpu/present", "0-7\n");
	put("sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "powersave\n");
	put("sys/devices/system/cpu/cpu0/cpufreq/scaling_driver", "intel_pstate\n");
	put("sys/devices/system/cpu/intel_pstate/no_turbo", "0\n");
	put("sys/devices/system/cpu/smt/active", "1\n");
	put("sys/devices/system/cpu/isolated", "2-3\n");
	put("sys/devices/system/cpu/nohz_full", "2-3\n");
	put("sys/devices/system/clocksource/clocksource0/current_clocksource",
	    "hpet\n");
	put("sys/kernel/mm/transparent_hugepage/enabled",
	    "[always] madvise never\n");
	put("proc/sys/kernel/randomize_va_space", "2\n");
	put("proc/sys/kernel/perf_event_paranoid", "4\n");
	put("sys/bus/event_source/devices/cpu/type", "4\n");
	put("sys/class/power_supply/AC/type", "Mains\n");
	put("sys/class/power_supply/AC/online", "0\n");
	put("sys/class/power_supply/BAT0/type", "Battery\n");
	put("sys/class/power_supply/BAT0/status", "Discharging\n");

	struct machine_info m;
	sysinfo_collect_at(root, &m, 0);
	CHECK_STR(m.started_at, "1970-01-01T00:00:00Z");
	CHECK_STR(m.hostname, "lap");
	CHECK_STR(m.kernel, "Linux 6.5.0-1-amd64");
	CHECK_STR(m.cpu_model, "Fake CPU 3000");
	CHECK(m.hypervisor == 0);
	CHECK(m.cpus == 5);            /* 0-3 and 6 */
	CHECK(m.cpus_configured == 8);
	CHECK(m.mem_total == 16318412LL * 1024);
	CHECK(m.swap_total == 2097148LL * 1024);
	CHECK(m.swap_used == (2097148LL - 1048574LL) * 1024);
	CHECK_NEAR(m.loadavg[0], 0.52, 1e-12);
	CHECK_NEAR(m.loadavg[2], 0.31, 1e-12);
	CHECK_STR(m.os_release, "Fake Linux 1.0");
	CHECK_STR(m.governor, "powersave");
	CHECK_STR(m.cpufreq_driver, "intel_pstate");
	CHECK(m.boost == 1);           /* no_turbo 0: turbo on */
	CHECK(m.smt == 1);
	CHECK(m.isolation_known == 1);
	CHECK_STR(m.isolated, "2-3");
	CHECK_STR(m.nohz_full, "2-3");
	CHECK_STR(m.clocksource, "hpet");
	CHECK_STR(m.thp, "always");
	CHECK(m.aslr == 2);
	CHECK(m.perf_paranoid == 4);
	CHECK(m.pmu == 1);
	CHECK(m.on_battery == 1);
	CHECK_STR(m.container, "");
	CHECK(m.compiler[0] != '\0');
	drop_root();
}

/* A container in a VM without a PMU, on mains, boost off via cpufreq. */
static void test_container_fixture(void)
{
	CHECK(new_root() == 0);
	put("proc/cpuinfo", "model name\t: V\nflags\t\t: fpu hypervisor sse\n");
	put("sys/devices/system/cpu/cpufreq/boost", "0\n");
	put("sys/devices/system/cpu/isolated", "\n");
	put("sys/bus/event_source/devices/software/type", "1\n");
	put("sys/class/power_supply/BAT1/type", "Battery\n");
	put("sys/class/power_supply/BAT1/status", "Full\n");
	put("proc/1/cgroup", "0::/kubepods/burstable/pod1\n");
	put("etc/os-release", "PRETTY_NAME='Single quoted'\n");

	struct machine_info m;
	sysinfo_collect_at(root, &m, 0);
	CHECK(m.hypervisor == 1);
	CHECK(m.boost == 0);
	CHECK(m.isolation_known == 1);
	CHECK_STR(m.isolated, "");
	CHECK(m.pmu == 0);
	CHECK(m.on_battery == 0);
	CHECK_STR(m.container, "kubernetes");
	CHECK_STR(m.os_release, "Single quoted");
	put(".dockerenv", "");
	sysinfo_collect_at(root, &m, 0);
	CHECK_STR(m.container, "docker");
	drop_root();
}

/* An empty tree: everything unknown, nothing guessed. */
static void test_empty_tree_is_unknown(void)
{
	CHECK(new_root() == 0);
	struct machine_info m;
	sysinfo_collect_at(root, &m, 0);
	CHECK_STR(m.hostname, "");
	CHECK_STR(m.kernel, "");
	CHECK_STR(m.cpu_model, "");
	CHECK(m.cpus == 0);
	CHECK(m.mem_total == -1 && m.swap_total == -1 && m.swap_used == -1);
	CHECK(m.loadavg[0] == -1 && m.loadavg[1] == -1);
	CHECK_STR(m.governor, "");
	CHECK(m.boost == -1 && m.smt == -1 && m.aslr == -1);
	CHECK(m.isolation_known == 0);
	CHECK(m.perf_paranoid == -99);
	CHECK(m.pmu == -1 && m.hypervisor == -1 && m.on_battery == -1);
	CHECK_STR(m.thp, "");
	CHECK_STR(m.container, "");
	drop_root();
}

/* This machine: the readings agree with what the C library says. */
static void test_this_machine(void)
{
	struct machine_info m;
	sysinfo_collect(&m, 0);
	CHECK(m.cpus == sysconf(_SC_NPROCESSORS_ONLN));
	char host[256] = "";
	CHECK(gethostname(host, sizeof host) == 0);
	CHECK_STR(m.hostname, host);
	CHECK(m.mem_total == (int64_t)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE));
	CHECK(strncmp(m.kernel, "Linux ", 6) == 0);
	CHECK(m.perf_paranoid != -99);
}

static int sh(const char *cmd)
{
	char full[1024];
	snprintf(full, sizeof full, "cd '%s' && (%s) >/dev/null 2>&1", root, cmd);
	return system(full);
}

/* A real git work tree: commit, branch, dirty flag; CI variables win. */
static void test_source_state_of_git_tree(void)
{
	if (system("git --version >/dev/null 2>&1") != 0)
		SKIP("git is not installed");
	CHECK(new_root() == 0);
	unsetenv("GITHUB_SHA");
	unsetenv("CI_COMMIT_SHA");
	unsetenv("BUILDKITE_COMMIT");
	unsetenv("GIT_COMMIT");
	CHECK(sh("git init -q -b feature-x . && echo a > f && git add f && "
		 "git -c user.name=t -c user.email=t@t commit -qm one") == 0);
	char expect[128] = "", cmd[400];
	snprintf(cmd, sizeof cmd, "git -C '%s' rev-parse HEAD", root);
	FILE *p = popen(cmd, "r");
	CHECK(p != NULL);
	CHECK(fgets(expect, sizeof expect, p) != NULL);
	pclose(p);
	expect[strcspn(expect, "\n")] = '\0';

	struct source_state s;
	sysinfo_source_state(root, &s);
	CHECK_STR(s.commit, expect);
	CHECK_STR(s.branch, "feature-x");
	CHECK(s.dirty == 0);
	CHECK_STR(s.from, "git");
	CHECK(sh("echo b >> f") == 0);
	sysinfo_source_state(root, &s);
	CHECK(s.dirty == 1);

	/* GitLab's variables name another commit: no dirty flag then. */
	setenv("CI_COMMIT_SHA", "0123abcd", 1);
	setenv("CI_COMMIT_REF_NAME", "mr-7", 1);
	sysinfo_source_state(root, &s);
	unsetenv("CI_COMMIT_SHA");
	unsetenv("CI_COMMIT_REF_NAME");
	CHECK_STR(s.commit, "0123abcd");
	CHECK_STR(s.branch, "mr-7");
	CHECK_STR(s.from, "CI_COMMIT_SHA");
	CHECK(s.dirty == -1);
	/* GitHub's, naming the commit checked out: the work tree's flag. */
	setenv("GITHUB_SHA", expect, 1);
	setenv("GITHUB_REF_NAME", "main", 1);
	sysinfo_source_state(root, &s);
	unsetenv("GITHUB_SHA");
	unsetenv("GITHUB_REF_NAME");
	CHECK_STR(s.branch, "main");
	CHECK(s.dirty == 1);
	drop_root();
}

static void test_source_state_outside_git(void)
{
	CHECK(new_root() == 0);
	unsetenv("GITHUB_SHA");
	struct source_state s;
	sysinfo_source_state(root, &s);
	CHECK_STR(s.commit, "");
	CHECK_STR(s.branch, "");
	CHECK(s.dirty == -1);
	CHECK_STR(s.from, "");
	drop_root();
}

int main(void)
{
	UNIT_AFTER_EACH(drop_root);
	RUN(test_laptop_fixture);
	RUN(test_container_fixture);
	RUN(test_empty_tree_is_unknown);
	RUN(test_this_machine);
	RUN(test_source_state_of_git_tree);
	RUN(test_source_state_outside_git);
	UNIT_EXIT();
}
