/*
 * sysinfo.c: collects the machine description that exports, the results
 * history and `cbench system check` carry (see sysinfo.h).  Every reading
 * is a file under a root directory: "/" for this machine, a fixture tree in
 * tests, so machines unlike this one (a laptop on battery, a container,
 * boost on) are tested without one.  Anything that cannot be read is left
 * unknown ("" or -1) rather than failing or guessing: a benchmark is worth
 * more than a complete description of where it ran.
 *
 * sysinfo_source_state() asks git (never parses .git by hand: worktrees,
 * packed refs and submodules make that a project of its own) with
 * GIT_OPTIONAL_LOCKS=0, so that `git status` never writes the index of the
 * user's work tree, and lets the usual CI variables override it.
 */
#include "sysinfo.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Copy s into a buffer of len bytes, trimming surrounding white space. */
static void copy_trimmed(char *dst, size_t len, const char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* root + "/" + rel, without doubling the slash of root "/". */
static void join(char *dst, size_t len, const char *root, const char *rel)
{
	size_t r = strlen(root);
	while (r > 0 && root[r - 1] == '/')
		r--;
	snprintf(dst, len, "%.*s/%s", (int)r, root, rel);
}

/* The first line of root/rel, trimmed, into dst; 0, or -1 if unreadable. */
static int read_line_at(const char *root, const char *rel, char *dst,
			size_t len)
{
	char path[PATH_MAX];
	join(path, sizeof path, root, rel);
	dst[0] = '\0';
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return -1;
	char line[1024];
	int rc = fgets(line, sizeof line, f) ? 0 : -1;
	fclose(f);
	if (rc == 0)
		copy_trimmed(dst, len, line);
	return rc;
}

/* A whole number from the first line of root/rel, or def. */
static long read_long_at(const char *root, const char *rel, long def)
{
	char buf[64], *end;
	if (read_line_at(root, rel, buf, sizeof buf) != 0)
		return def;
	errno = 0;
	long v = strtol(buf, &end, 10);
	return errno == 0 && end != buf ? v : def;
}


static int path_exists(const char *root, const char *rel)
{
	char path[PATH_MAX];
	struct stat st;
	join(path, sizeof path, root, rel);
	return stat(path, &st) == 0;
}

/* The number of CPUs in a kernel CPU list ("0-3,6"), or 0 if malformed. */
static long count_cpu_list(const char *s)
{
	long n = 0;
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s || a < 0)
			return 0;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				return 0;
		}
		n += b - a + 1;
		s = end;
		if (*s == ',')
			s++;
		else if (*s != '\0')
			return 0;
	}
	return n;
}

static long read_cpu_count(const char *root, const char *rel)
{
	char buf[256];
	if (read_line_at(root, rel, buf, sizeof buf) != 0)
		return 0;
	return count_cpu_list(buf);
}

/*
 * /proc/cpuinfo: the CPU model (the "model name" line on x86, "Model"/"cpu
 * model"/"Processor" on some other architectures) and whether the flags
 * name a hypervisor (x86 only; elsewhere unknown).
 */
static void read_cpuinfo(const char *root, struct machine_info *m)
{
	static const char *const keys[] = {"model name", "cpu model", "Model",
					   "Processor", "cpu"};
	char path[PATH_MAX];
	join(path, sizeof path, root, "proc/cpuinfo");
	m->hypervisor = -1;
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return;
	char line[4096];
	int best = (int)(sizeof keys / sizeof keys[0]);
	while (fgets(line, sizeof line, f)) {
		char *colon = strchr(line, ':');
		if (colon == NULL)
			continue;
		*colon = '\0';
		char key[64];
		copy_trimmed(key, sizeof key, line);
		if (strcmp(key, "flags") == 0 && m->hypervisor < 0) {
			char *flags = colon + 1;
			m->hypervisor = strstr(flags, " hypervisor") != NULL;
			continue;
		}
		for (int k = 0; k < best; k++) {
			if (strcasecmp(key, keys[k]) == 0) {
				copy_trimmed(m->cpu_model, sizeof m->cpu_model,
					     colon + 1);
				best = k;
				break;
			}
		}
	}
	fclose(f);
}

/* proc/meminfo: total memory and swap, in bytes. */
static void read_meminfo(const char *root, struct machine_info *m)
{
	char path[PATH_MAX];
	join(path, sizeof path, root, "proc/meminfo");
	m->mem_total = m->swap_total = m->swap_used = -1;
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return;
	char line[256];
	long long kb, swap_free = -1;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "MemTotal: %lld kB", &kb) == 1)
			m->mem_total = (int64_t)kb * 1024;
		else if (sscanf(line, "SwapTotal: %lld kB", &kb) == 1)
			m->swap_total = (int64_t)kb * 1024;
		else if (sscanf(line, "SwapFree: %lld kB", &kb) == 1)
			swap_free = kb * 1024;
	}
	fclose(f);
	if (m->swap_total >= 0 && swap_free >= 0 && swap_free <= m->swap_total)
		m->swap_used = m->swap_total - swap_free;
}

/* etc/os-release (or usr/lib/os-release): PRETTY_NAME, unquoted. */
static void read_os_release(const char *root, char *dst, size_t len)
{
	static const char *const files[] = {"etc/os-release",
					    "usr/lib/os-release"};
	dst[0] = '\0';
	for (size_t i = 0; i < 2 && dst[0] == '\0'; i++) {
		char path[PATH_MAX], line[512];
		join(path, sizeof path, root, files[i]);
		FILE *f = fopen(path, "r");
		if (f == NULL)
			continue;
		while (fgets(line, sizeof line, f)) {
			if (strncmp(line, "PRETTY_NAME=", 12) != 0)
				continue;
			char *v = line + 12;
			v[strcspn(v, "\n")] = '\0';
			size_t n = strlen(v);
			if (n >= 2 && (v[0] == '"' || v[0] == '\'') &&
			    v[n - 1] == v[0]) {
				v[n - 1] = '\0';
				v++;
			}
			copy_trimmed(dst, len, v);
			break;
		}
		fclose(f);
	}
}

/* The word in brackets of a sysfs choice ("always [madvise] never"). */
static void read_selected(const char *root, const char *rel, char *dst,
			  size_t len)
{
	char buf[256];
	dst[0] = '\0';
	if (read_line_at(root, rel, buf, sizeof buf) != 0)
		return;
	char *open = strchr(buf, '['), *close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		copy_trimmed(dst, len, open + 1);
	} else {
		copy_trimmed(dst, len, buf);
	}
}

/* Boost/turbo: cpufreq's global switch, else intel_pstate's (inverted). */
static int read_boost(const char *root)
{
	long v = read_long_at(root, "sys/devices/system/cpu/cpufreq/boost", -1);
	if (v == 0 || v == 1)
		return (int)v;
	v = read_long_at(root, "sys/devices/system/cpu/intel_pstate/no_turbo", -1);
	if (v == 0 || v == 1)
		return (int)!v;
	return -1;
}

/* A CPU PMU in sys/bus/event_source/devices: "cpu", "cpu_core"/"cpu_atom"
 * on hybrid x86, "armv8_pmuv3..." and the like on Arm. */
static int read_pmu(const char *root)
{
	char path[PATH_MAX];
	join(path, sizeof path, root, "sys/bus/event_source/devices");
	DIR *d = opendir(path);
	if (d == NULL)
		return -1;
	int found = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && !found)
		found = strcmp(e->d_name, "cpu") == 0 ||
			strncmp(e->d_name, "cpu_", 4) == 0 ||
			strncmp(e->d_name, "armv", 4) == 0;
	closedir(d);
	return found;
}

/* The container runtime, from the marks runtimes leave in the root. */
static void read_container(const char *root, char *dst, size_t len)
{
	static const struct { const char *word, *name; } marks[] = {
		{"docker", "docker"}, {"kubepods", "kubernetes"},
		{"lxc", "lxc"}, {"libpod", "podman"},
	};
	dst[0] = '\0';
	if (path_exists(root, ".dockerenv")) {
		snprintf(dst, len, "docker");
		return;
	}
	if (path_exists(root, "run/.containerenv")) {
		snprintf(dst, len, "podman");
		return;
	}
	char path[PATH_MAX], line[512];
	join(path, sizeof path, root, "proc/1/cgroup");
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return;
	while (dst[0] == '\0' && fgets(line, sizeof line, f))
		for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++)
			if (strstr(line, marks[i].word)) {
				snprintf(dst, len, "%s", marks[i].name);
				break;
			}
	fclose(f);
}

/* A laptop: a battery that is discharging.  A readable power-supply
 * class without a battery (a desktop, a server, most VMs) is on mains;
 * an unreadable one is unknown. */
static int read_on_battery(const char *root)
{
	char path[PATH_MAX], rel[PATH_MAX], buf[64];
	join(path, sizeof path, root, "sys/class/power_supply");
	DIR *d = opendir(path);
	if (d == NULL)
		return -1;
	int state = -1;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof rel, "sys/class/power_supply/%s/type",
			 e->d_name);
		if (read_line_at(root, rel, buf, sizeof buf) != 0 ||
		    strcmp(buf, "Battery") != 0)
			continue;
		snprintf(rel, sizeof rel, "sys/class/power_supply/%s/status",
			 e->d_name);
		if (read_line_at(root, rel, buf, sizeof buf) != 0)
			continue;
		if (strcmp(buf, "Discharging") == 0)
			state = 1;
		else if (state < 0)
			state = 0;
	}
	closedir(d);
	return state < 0 ? 0 : state;
}

static void read_loadavg(const char *root, double la[3])
{
	char buf[256];
	la[0] = la[1] = la[2] = -1;
	if (read_line_at(root, "proc/loadavg", buf, sizeof buf) == 0 &&
	    sscanf(buf, "%lf %lf %lf", &la[0], &la[1], &la[2]) != 3)
		la[0] = la[1] = la[2] = -1;
}

void sysinfo_loadavg(double la[3])
{
	read_loadavg("/", la);
}

static void read_compiler(char *dst, size_t len)
{
#if defined(__clang__)
	snprintf(dst, len, "clang %d.%d.%d", __clang_major__, __clang_minor__,
		 __clang_patchlevel__);
#elif defined(__GNUC__)
	snprintf(dst, len, "gcc %d.%d.%d", __GNUC__, __GNUC_MINOR__,
		 __GNUC_PATCHLEVEL__);
#else
	dst[0] = '\0';
#endif
}

/* The scheduler and kernel settings that decide how steady a run is. */
static void read_cpu_settings(const char *root, struct machine_info *m)
{
	const char *cf = "sys/devices/system/cpu/cpu0/cpufreq/";
	char rel[256];
	snprintf(rel, sizeof rel, "%sscaling_governor", cf);
	read_line_at(root, rel, m->governor, sizeof m->governor);
	snprintf(rel, sizeof rel, "%sscaling_driver", cf);
	read_line_at(root, rel, m->cpufreq_driver, sizeof m->cpufreq_driver);
	m->boost = read_boost(root);
	long smt = read_long_at(root, "sys/devices/system/cpu/smt/active", -1);
	m->smt = smt == 0 || smt == 1 ? (int)smt : -1;
	m->isolation_known = read_line_at(root, "sys/devices/system/cpu/isolated",
					  m->isolated, sizeof m->isolated) == 0;
	read_line_at(root, "sys/devices/system/cpu/nohz_full", m->nohz_full,
		     sizeof m->nohz_full);
	if (strcmp(m->nohz_full, "(null)") == 0)
		m->nohz_full[0] = '\0';
	read_line_at(root,
		     "sys/devices/system/clocksource/clocksource0/current_clocksource",
		     m->clocksource, sizeof m->clocksource);
	read_selected(root, "sys/kernel/mm/transparent_hugepage/enabled", m->thp,
		      sizeof m->thp);
	long aslr = read_long_at(root, "proc/sys/kernel/randomize_va_space", -1);
	m->aslr = aslr >= 0 && aslr <= 2 ? (int)aslr : -1;
	m->perf_paranoid = (int)read_long_at(root,
					     "proc/sys/kernel/perf_event_paranoid",
					     -99);
	m->pmu = read_pmu(root);
}

void sysinfo_collect_at(const char *root, struct machine_info *out, time_t now)
{
	memset(out, 0, sizeof *out);
	struct tm tm;
	if (gmtime_r(&now, &tm))
		strftime(out->started_at, sizeof out->started_at,
			 "%Y-%m-%dT%H:%M:%SZ", &tm);
	read_line_at(root, "proc/sys/kernel/hostname", out->hostname,
		     sizeof out->hostname);
	char os[64], rel[192];
	if (read_line_at(root, "proc/sys/kernel/ostype", os, sizeof os) == 0 &&
	    read_line_at(root, "proc/sys/kernel/osrelease", rel, sizeof rel) == 0)
		snprintf(out->kernel, sizeof out->kernel, "%s %s", os, rel);
	read_cpuinfo(root, out);
	out->cpus = read_cpu_count(root, "sys/devices/system/cpu/online");
	out->cpus_configured = read_cpu_count(root, "sys/devices/system/cpu/present");
	read_meminfo(root, out);
	read_loadavg(root, out->loadavg);
	read_os_release(root, out->os_release, sizeof out->os_release);
	read_cpu_settings(root, out);
	read_container(root, out->container, sizeof out->container);
	out->on_battery = read_on_battery(root);
	read_compiler(out->compiler, sizeof out->compiler);
}

void sysinfo_collect(struct machine_info *out, time_t now)
{
	sysinfo_collect_at("/", out, now);
	/* Where /proc or /sys is not mounted (some sandboxes), the C
	 * library still knows the core count. */
	if (out->cpus == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		out->cpus = n > 0 ? n : 0;
	}
}

/*
 * Runs `git -C dir ARGS...` with its output into buf (trimmed); stderr and
 * stdin go to /dev/null.  Returns git's exit status, or -1 when it could
 * not run.
 */
static int run_git(const char *dir, const char *const *args, char *buf,
		   size_t len)
{
	const char *argv[12] = {"git", "-C", dir ? dir : "."};
	size_t n = 3;
	for (size_t i = 0; args[i] && n < 11; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	int fd[2];
	buf[0] = '\0';
	if (pipe2(fd, O_CLOEXEC) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		dup2(fd[1], 1);
		setenv("GIT_OPTIONAL_LOCKS", "0", 1);
		execvp("git", (char *const *)argv);
		_exit(127);
	}
	close(fd[1]);
	size_t got = 0;
	char chunk[512];
	ssize_t r;
	while ((r = read(fd[0], chunk, sizeof chunk)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		size_t take = (size_t)r < len - 1 - got ? (size_t)r : len - 1 - got;
		memcpy(buf + got, chunk, take);
		got += take;
	}
	buf[got] = '\0';
	close(fd[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	char tmp[1024];
	copy_trimmed(tmp, sizeof tmp, buf);
	snprintf(buf, len, "%s", tmp);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The CI variables that name the commit and branch under test. */
static void source_from_ci(struct source_state *s)
{
	static const struct { const char *sha, *branch, *branch2; } ci[] = {
		{"GITHUB_SHA", "GITHUB_HEAD_REF", "GITHUB_REF_NAME"},
		{"CI_COMMIT_SHA", "CI_COMMIT_REF_NAME", NULL},
		{"BUILDKITE_COMMIT", "BUILDKITE_BRANCH", NULL},
		{"GIT_COMMIT", "GIT_BRANCH", NULL},
	};
	for (size_t i = 0; i < sizeof ci / sizeof ci[0]; i++) {
		const char *sha = getenv(ci[i].sha);
		if (sha == NULL || *sha == '\0')
			continue;
		snprintf(s->commit, sizeof s->commit, "%s", sha);
		snprintf(s->from, sizeof s->from, "%s", ci[i].sha);
		const char *b = getenv(ci[i].branch);
		if ((b == NULL || *b == '\0') && ci[i].branch2)
			b = getenv(ci[i].branch2);
		if (b && *b)
			snprintf(s->branch, sizeof s->branch, "%s", b);
		return;
	}
}

void sysinfo_source_state(const char *dir, struct source_state *out)
{
	static const char *const head[] = {"rev-parse", "--verify", "-q",
					   "HEAD", NULL};
	static const char *const branch[] = {"symbolic-ref", "--short", "-q",
					     "HEAD", NULL};
	static const char *const status[] = {"status", "--porcelain",
					     "--untracked-files=no", NULL};
	char buf[1024];
	memset(out, 0, sizeof *out);
	out->dirty = -1;
	if (run_git(dir, head, buf, sizeof buf) == 0 && buf[0]) {
		copy_trimmed(out->commit, sizeof out->commit, buf);
		snprintf(out->from, sizeof out->from, "git");
		if (run_git(dir, branch, buf, sizeof buf) == 0)
			copy_trimmed(out->branch, sizeof out->branch, buf);
		if (run_git(dir, status, buf, sizeof buf) == 0)
			out->dirty = buf[0] != '\0';
	}
	struct source_state ci = {.dirty = -1};
	source_from_ci(&ci);
	if (ci.commit[0]) {
		/* The dirty flag still comes from the work tree when the
		 * CI's commit is the one checked out. */
		int dirty = strcmp(ci.commit, out->commit) == 0 ? out->dirty : -1;
		if (ci.branch[0] == '\0' && strcmp(ci.commit, out->commit) == 0)
			snprintf(ci.branch, sizeof ci.branch, "%s", out->branch);
		*out = ci;
		out->dirty = dirty;
	}
}
