/*
 * Unit tests for the frozen-exec engine (spawn.c, spawn_child.c,
 * spawn_launcher.c): real commands run through spawn_run, and what comes
 * back is checked against what the command did.
 *
 * The same tests run in each of the engine's three launches: traced through
 * the launcher, traced with the child cloned from this process
 * (CBENCH_TEST_NO_LAUNCHER), and the fallback without ptrace
 * (CBENCH_TEST_NO_PTRACE).  The traced modes are skipped, with the reason,
 * where this kernel refuses ptrace; the counter test where it refuses
 * perf_event_open.  The stop request (which cannot be undone) runs last.
 */
#include "counters.h"
#include "sideband.h"
#include "spawn.h"
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *test_env[] = {"CBENCH_UNIT=hello", "PATH=/usr/bin:/bin", NULL};

/* The mode the tests run in (see main). */
static const char *mode_name;
static bool mode_traced;     /* exec-exact expected */
static const char *ptrace_refused; /* why traced modes are skipped, or NULL */

/* A run of argv with the defaults (stdin and output /dev/null, no
 * counters, no timeout) unless cmd_in gives others. */
static int run_argv(char *const *argv, const struct spawn_cmd *cmd_in,
		    struct spawn_result *res, char *err, size_t errlen)
{
	struct spawn_cmd cmd = {.stdin_fd = -1, .output = SPAWN_OUT_NULL,
				.stdout_fd = -1};
	if (cmd_in)
		cmd = *cmd_in;
	cmd.path = argv[0];
	cmd.argv = argv;
	if (!cmd.envp)
		cmd.envp = test_env;
	err[0] = '\0';
	return spawn_run(&cmd, res, err, errlen);
}

#define RUN_OK(argv, cmd, res)                                               \
	do {                                                                 \
		char err_[256];                                              \
		int rc_ = run_argv(argv, cmd, res, err_, sizeof err_);       \
		if (rc_ != 0) {                                              \
			printf("FAIL %s: %s:%d: spawn_run returned %d: %s\n", \
			       unit_name, __FILE__, __LINE__, rc_, err_);    \
			unit_state = 1;                                      \
			return;                                              \
		}                                                            \
	} while (0)

#define SKIP_UNLESS_MODE_WORKS()                                             \
	do {                                                                 \
		if (mode_traced && ptrace_refused)                           \
			SKIP(ptrace_refused);                                \
	} while (0)

/* A temporary file, open read-write, unlinked already. */
static int temp_fd(void)
{
	char path[] = "/tmp/cbench-test-spawn-XXXXXX";
	int fd = mkstemp(path);
	if (fd >= 0)
		unlink(path);
	return fd;
}

/* The whole content of fd (from offset 0) into buf, NUL-terminated. */
static const char *slurp(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- the tests, run once per mode ---- */

static void test_true_exits_zero(void)
{
	SKIP_UNLESS_MODE_WORKS();
	char *argv[] = {"/bin/true", NULL};
	struct spawn_result res;
	RUN_OK(argv, NULL, &res);
	CHECK(res.outcome == SPAWN_EXITED);
	CHECK(res.code == 0);
	CHECK(res.exec_exact == mode_traced);
	CHECK(spawn_ptrace_errno() == (mode_traced ? 0 : EPERM));
	CHECK(res.wall_s > 0 && res.wall_s < 60);
	CHECK(res.user_s >= 0 && res.system_s >= 0);
	CHECK(res.user_s + res.system_s > 0);
	/* /bin/true maps at least its own pages and libc's. */
	CHECK(res.max_rss_bytes >= 100 * 1024);
	CHECK(res.minflt > 0);
	/* The exec stop or the parked read is at least one voluntary switch
	 * (README "How cbench measures"). */
	CHECK(res.nvcsw >= 1);
	CHECK(res.majflt >= 0 && res.nivcsw >= 0);
	CHECK(!res.left_running);
	/* No counters attached: every counter "not counted" (see
	 * test_counters_attached for the counted case). */
	for (int i = 0; i < CTR_MAX; i++)
		CHECK(isnan(res.ctr.value[i]));
}

static void test_false_exits_one(void)
{
	SKIP_UNLESS_MODE_WORKS();
	char *argv[] = {"/bin/false", NULL};
	struct spawn_result res;
	RUN_OK(argv, NULL, &res);
	CHECK(res.outcome == SPAWN_EXITED);
	CHECK(res.code == 1);
	char *argv42[] = {"/bin/sh", "-c", "exit 42", NULL};
	RUN_OK(argv42, NULL, &res);
	CHECK(res.outcome == SPAWN_EXITED);
	CHECK(res.code == 42);
}

static void test_signal_reported(void)
{
	SKIP_UNLESS_MODE_WORKS();
	char *argv[] = {"/bin/sh", "-c", "kill -SEGV $$", NULL};
	struct spawn_result res;
	RUN_OK(argv, NULL, &res);
	CHECK(res.outcome == SPAWN_SIGNALED);
	CHECK(res.code == SIGSEGV);
	CHECK_STR(spawn_signal_name(res.code), "SIGSEGV");
	char *argv_term[] = {"/bin/sh", "-c", "kill -TERM $$", NULL};
	RUN_OK(argv_term, NULL, &res);
	CHECK(res.outcome == SPAWN_SIGNALED);
	CHECK(res.code == SIGTERM);
}

/* Under valgrind the vfork-style clone runs as a fork, so the traced
 * child's report in shared memory is lost (tests/e2e/exec.sh skips the
 * same way).  valgrind preloads its vgpreload_*.so into the program it
 * runs; `make test VALGRIND=1` runs only cbench under it, not this test. */
static bool under_valgrind(void)
{
	const char *pre = getenv("LD_PRELOAD");
	return pre && strstr(pre, "vgpreload");
}

static void test_exec_failure_reported(void)
{
	SKIP_UNLESS_MODE_WORKS();
	if (mode_traced && under_valgrind())
		SKIP("valgrind runs CLONE_VM|CLONE_VFORK as fork: no shared-memory exec report");
	char *argv[] = {"/nonexistent/cbench-no-such-program", NULL};
	struct spawn_result res;
	RUN_OK(argv, NULL, &res);
	CHECK(res.outcome == SPAWN_EXEC_FAILED);
	CHECK(res.exec_errno == ENOENT);
	CHECK(res.wall_s == 0);

	/* A file without execute permission: EACCES, not ENOENT. */
	char path[] = "/tmp/cbench-test-spawn-noexec-XXXXXX";
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, "#!/bin/sh\n", 10) == 10);
	close(fd);
	chmod(path, 0644);
	char *argv_noexec[] = {path, NULL};
	RUN_OK(argv_noexec, NULL, &res);
	unlink(path);
	CHECK(res.outcome == SPAWN_EXEC_FAILED);
	CHECK(res.exec_errno == EACCES);
}

/* A file of mode 0755 holding len bytes of text, its path in path. */
static void make_exec(char *path, const char *text, size_t len)
{
	int fd = mkstemp(path);
	CHECK(fd >= 0);
	CHECK(write(fd, text, len) == (ssize_t)len);
	close(fd);
	chmod(path, 0755);
}

/* An executable without #! (ENOEXEC) runs as /bin/sh FILE ARGS..., as
 * glibc's execvp runs it; a binary (a NUL in its first line, or an ELF
 * header) stays an exec format error. */
static void test_script_without_shebang(void)
{
	SKIP_UNLESS_MODE_WORKS();
	char path[] = "/tmp/cbench-test-spawn-script-XXXXXX";
	const char script[] = "echo \"$1|$2|$CBENCH_UNIT\"; exit 7\n";
	make_exec(path, script, sizeof script - 1);
	int fd = temp_fd();
	CHECK(fd >= 0);
	char *argv[] = {path, "a", "b c", NULL};
	struct spawn_cmd cmd = {.stdin_fd = -1, .output = SPAWN_OUT_FD,
				.stdout_fd = fd};
	struct spawn_result res;
	char buf[256];
	RUN_OK(argv, &cmd, &res);
	unlink(path);
	CHECK(res.outcome == SPAWN_EXITED && res.code == 7);
	CHECK(res.exec_exact == mode_traced);
	CHECK_STR(slurp(fd, buf, sizeof buf), "a|b c|hello\n");
	close(fd);

	if (mode_traced && under_valgrind())
		SKIP("valgrind runs CLONE_VM|CLONE_VFORK as fork: no shared-memory exec report");
	char bin[] = "/tmp/cbench-test-spawn-bin-XXXXXX";
	make_exec(bin, "echo\0x\n", 7);
	char *argv_bin[] = {bin, NULL};
	RUN_OK(argv_bin, NULL, &res);
	unlink(bin);
	CHECK(res.outcome == SPAWN_EXEC_FAILED);
	CHECK(res.exec_errno == ENOEXEC);
}

static void test_timeout_stops_command(void)
{
	SKIP_UNLESS_MODE_WORKS();
	char *argv[] = {"/bin/sleep", "5", NULL};
	struct spawn_cmd cmd = {.stdin_fd = -1, .output = SPAWN_OUT_NULL,
				.stdout_fd = -1, .timeout_s = 0.05};
	struct spawn_result res;
	double t0 = mono_s();
	RUN_OK(argv, &cmd, &res);
	double took = mono_s() - t0;
	CHECK(res.outcome == SPAWN_TIMED_OUT);
	CHECK(took < 5.0);
	CHECK(res.wall_s < 5.0);
	/* A command that ends within its limit is not timed out. */
	char *argv_true[] = {"/bin/true", NULL};
	cmd.timeout_s = 30;
	RUN_OK(argv_true, &cmd, &res);
	CHECK(res.outcome == SPAWN_EXITED);
	CHECK(res.code == 0);
}

static void test_output_to_fd(void)
{
	SKIP_UNLESS_MODE_WORKS();
	int fd = temp_fd();
	CHECK(fd >= 0);
	char *argv[] = {"/bin/sh", "-c", "echo out; echo err >&2", NULL};
	struct spawn_cmd cmd = {.stdin_fd = -1, .output = SPAWN_OUT_FD,
				.stdout_fd = fd};
	struct spawn_result res;
	char buf[256];
	RUN_OK(argv, &cmd, &res);
	const char *got = slurp(fd, buf, sizeof buf);
	close(fd);
	CHECK(res.outcome == SPAWN_EXITED && res.code == 0);
	CHECK_STR(got, "out\nerr\n");
}

static void test_output_null_and_stdin_null(void)
{
	SKIP_UNLESS_MODE_WORKS();
	/* The shell's own descriptors, read from outside it ($$). */
	char *argv[] = {"/bin/sh", "-c",
			"[ \"$(readlink /proc/$$/fd/0)\" = /dev/null ] && "
			"[ \"$(readlink /proc/$$/fd/1)\" = /dev/null ] && "
			"[ \"$(readlink /proc/$$/fd/2)\" = /dev/null ]", NULL};
	struct spawn_result res;
	RUN_OK(argv, NULL, &res);
	CHECK(res.outcome == SPAWN_EXITED);
	CHECK(res.code == 0);
	/* And the same check fails where stdout is a file. */
	int fd = temp_fd();
	CHECK(fd >= 0);
	struct spawn_cmd cmd = {.stdin_fd = -1, .output = SPAWN_OUT_FD,
				.stdout_fd = fd};
	RUN_OK(argv, &cmd, &res);
	close(fd);
	CHECK(res.outcome == SPAWN_EXITED);
	CHECK(res.code == 1);
}

static void test_output_pipe_drained(void)
{
	SKIP_UNLESS_MODE_WORKS();
	/* 4 MB, far beyond a pipe's buffer: the command would block for
	 * good if cbench did not drain the pipe. */
	char *argv[] = {"/bin/sh", "-c", "head -c 4000000 /dev/zero", NULL};
	struct spawn_cmd cmd = {.stdin_fd = -1, .output = SPAWN_OUT_PIPE,
				.stdout_fd = -1, .timeout_s = 60};
	struct spawn_result res;
	RUN_OK(argv, &cmd, &res);
	CHECK(res.outcome == SPAWN_EXITED);
	CHECK(res.code == 0);
	/* stdout is a pipe there, not /dev/null. */
	char *argv_pipe[] = {"/bin/sh", "-c",
			     "case \"$(readlink /proc/$$/fd/1)\" in pipe:*) exit 0;; esac; exit 1",
			     NULL};
	RUN_OK(argv_pipe, &cmd, &res);
	CHECK(res.outcome == SPAWN_EXITED);
	CHECK(res.code == 0);
}

static void test_stdin_from_fd(void)
{
	SKIP_UNLESS_MODE_WORKS();
	int in = temp_fd(), out = temp_fd();
	CHECK(in >= 0 && out >= 0);
	const char text[] = "hello input\nsecond line\n";
	CHECK(write(in, text, sizeof text - 1) == (ssize_t)(sizeof text - 1));
	CHECK(lseek(in, 0, SEEK_SET) == 0);
	char *argv[] = {"/bin/cat", NULL};
	struct spawn_cmd cmd = {.stdin_fd = in, .output = SPAWN_OUT_FD,
				.stdout_fd = out};
	struct spawn_result res;
	char buf[256];
	RUN_OK(argv, &cmd, &res);
	const char *got = slurp(out, buf, sizeof buf);
	close(in);
	close(out);
	CHECK(res.outcome == SPAWN_EXITED && res.code == 0);
	CHECK_STR(got, text);
}

static void test_environment_passed(void)
{
	SKIP_UNLESS_MODE_WORKS();
	/* Only the given environment: not this process's own. */
	setenv("CBENCH_UNIT_PARENT_ONLY", "1", 1);
	int fd = temp_fd();
	CHECK(fd >= 0);
	char *argv[] = {"/usr/bin/env", NULL};
	struct spawn_cmd cmd = {.stdin_fd = -1, .output = SPAWN_OUT_FD,
				.stdout_fd = fd};
	struct spawn_result res;
	char buf[256];
	RUN_OK(argv, &cmd, &res);
	const char *got = slurp(fd, buf, sizeof buf);
	CHECK(res.outcome == SPAWN_EXITED && res.code == 0);
	CHECK_STR(got, "CBENCH_UNIT=hello\nPATH=/usr/bin:/bin\n");
	/* An empty environment is passed as empty. */
	char *empty[] = {NULL};
	cmd.envp = empty;
	CHECK(ftruncate(fd, 0) == 0);
	RUN_OK(argv, &cmd, &res);
	got = slurp(fd, buf, sizeof buf);
	close(fd);
	CHECK(res.outcome == SPAWN_EXITED && res.code == 0);
	CHECK_STR(got, "");
}

static void test_counters_attached(void)
{
	SKIP_UNLESS_MODE_WORKS();
	struct counters *c = NULL;
	bool usage = false;
	char e[256];
	if (counters_new(&c, "task-clock,page-faults", &usage, e, sizeof e) != 0) {
		static char why[300];
		snprintf(why, sizeof why, "perf_event_open refused: %s", e);
		SKIP(why);
	}
	char *argv[] = {"/bin/true", NULL};
	struct spawn_cmd cmd = {.stdin_fd = -1, .output = SPAWN_OUT_NULL,
				.stdout_fd = -1, .counters = c};
	struct spawn_result res;
	char err[256];
	int rc = run_argv(argv, &cmd, &res, err, sizeof err);
	counters_free(c);
	CHECK(rc == 0);
	CHECK(res.outcome == SPAWN_EXITED && res.code == 0);
	CHECK(res.ctr.value[CTR_TASK_CLOCK] > 0);
	CHECK(res.ctr.value[CTR_TASK_CLOCK] < 60);
	/* README "How cbench measures": rusage's minor faults include the
	 * exec itself, the counter starts after it. */
	CHECK(res.ctr.value[CTR_PAGE_FAULTS] > 0);
	CHECK(res.ctr.value[CTR_PAGE_FAULTS] <= res.minflt + res.majflt);
	/* Not requested: not counted. */
	CHECK(isnan(res.ctr.value[CTR_INSTRUCTIONS]));
}

/* Whether this mode's shell page-fault counter counts its children up
 * to their exec: opened after the shell's exec (the traced launch), on a
 * kernel with remove_on_exec (Linux 5.13). */
static bool counts_children_until_exec(void)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.inherit = 1;
	a.remove_on_exec = 1;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd >= 0)
		close(fd);
	return mode_traced && fd >= 0;
}

/* A shell run whose side band is whole.  The kernel can drop the records
 * written after a vfork when the shell and its child write to the shared
 * ring from two CPUs at once (the shell's wake-up and its child's exec):
 * then every side-band value is unknown (NaN), never a partial one, and
 * the run is taken again, up to 5 times (under load, about 1 run in 200
 * on two CPUs, none in 600 pinned to one). */
#define RUN_SIDEBAND(argv, cmd, res)                                         \
	do {                                                                 \
		for (int try_ = 0; try_ < 5; try_++) {                       \
			RUN_OK(argv, cmd, res);                              \
			if (!isnan((res)->reap_s))                           \
				break;                                       \
			CHECK(isnan((res)->wake_s) &&                        \
			      isnan((res)->serial_s) &&                      \
			      isnan((res)->shell_cpu_s) &&                   \
			      isnan((res)->shell_faults));                   \
		}                                                            \
		CHECK(!isnan((res)->reap_s));                                \
	} while (0)

/* What the side band measures of a shell (sideband.c), where
 * perf_event_open gives side-band records, checked against the run's own
 * wall time: measured when asked; the shell's wake-up after its program
 * positive when it slept in wait4 while its child ran (the command is
 * not the last, so no shell execs it in place); the wait to reap the
 * shell after its exit positive, 0 when it exec'd the program in place
 * or ran none (then it is the program) or the run was cut short; not
 * measured (NaN) when not asked. */
static void test_shell_sideband_measured(void)
{
	SKIP_UNLESS_MODE_WORKS();
	struct sideband sb;
	if (sideband_open(&sb, getpid(), false, true) != 0) {
		static char why[300];
		snprintf(why, sizeof why, "perf_event_open refused: %s",
			 strerror(errno));
		SKIP(why);
	}
	sideband_close(&sb);
	char *waits[] = {"/bin/sh", "-c", "/bin/sleep 0.01; exit 0", NULL};
	char *none[] = {"/bin/sh", "-c", "exit 0", NULL};
	char *in_place[] = {"/bin/sh", "-c", "exec /bin/sleep 0.01", NULL};
	struct spawn_cmd cmd = {.stdin_fd = -1, .output = SPAWN_OUT_NULL,
				.stdout_fd = -1, .shell_sideband = true};
	struct spawn_result res;
	RUN_SIDEBAND(waits, &cmd, &res);
	CHECK(res.outcome == SPAWN_EXITED && res.code == 0);
	CHECK(res.wake_s > 0);
	CHECK(res.reap_s > 0);
	/* its own time around the program, its wake-up and its reap:
	 * positive, and the 10 ms sleep between its exec and exit is in
	 * none of them */
	CHECK(res.serial_s > 0);
	CHECK(res.serial_s + res.wake_s + res.reap_s < res.wall_s - 0.0095);
	CHECK(res.shell_cpu_s > 0);
	CHECK(res.shell_cpu_s < res.wall_s - 0.0095);
	/* its own page faults: a whole number */
	CHECK(res.shell_faults > 0 && res.shell_faults == floor(res.shell_faults));
	/* touch_pages takes 3000 faults in user mode, in rusage (the
	 * shell's and its children's) but not in the shell's count, which
	 * ends at its child's exec */
	const char *helpers = getenv("HELPERS");
	char touch[512], touch_in_place[512];
	snprintf(touch, sizeof touch, "%s/touch_pages 3000; exit 0",
		 helpers ? helpers : "/nonexistent");
	snprintf(touch_in_place, sizeof touch_in_place,
		 "exec %s/touch_pages 3000", helpers ? helpers : "/nonexistent");
	char *faults[] = {"/bin/sh", "-c", touch, NULL};
	CHECK(helpers != NULL);   /* set by make test */
	RUN_SIDEBAND(faults, &cmd, &res);
	CHECK(res.outcome == SPAWN_EXITED && res.code == 0);
	CHECK(res.minflt > 3000);
	CHECK_BETWEEN(res.shell_faults, 0, 500);
	/* a subshell's faults before its exec are the shell's: a 400 KB
	 * string built in it costs over 300 (perf stat -e page-faults:u
	 * sh -c ...: 130 without, 484 with), counted where the counter is
	 * inherited until exec, not where it counts the shell alone */
	char *sub[] = {"/bin/sh", "-c", "(exec /bin/true); exit 0", NULL};
	char *sub_big[] = {"/bin/sh", "-c",
			   "(x=$(printf '%0400000d' 0); exec /bin/true); exit 0",
			   NULL};
	RUN_SIDEBAND(sub, &cmd, &res);
	double base = res.shell_faults;
	RUN_SIDEBAND(sub_big, &cmd, &res);
	CHECK(res.outcome == SPAWN_EXITED && res.code == 0);
	if (counts_children_until_exec())
		CHECK(res.shell_faults - base > 200);
	else
		CHECK(fabs(res.shell_faults - base) < 50);
	RUN_OK(none, &cmd, &res);
	CHECK(res.outcome == SPAWN_EXITED && res.code == 0);
	CHECK(res.wake_s == 0);
	CHECK(res.reap_s == 0);       /* no program: the shell is the line's */
	CHECK(isnan(res.serial_s));   /* no program: all the shell's */
	CHECK(isnan(res.shell_cpu_s));
	CHECK(isnan(res.shell_faults)); /* the line's, not start-up */
	/* the shell replaced by the program: nothing of the shell's to wake
	 * or reap */
	RUN_OK(in_place, &cmd, &res);
	CHECK(res.outcome == SPAWN_EXITED && res.code == 0);
	CHECK(res.wake_s == 0);
	CHECK(res.reap_s == 0);
	CHECK(res.serial_s > 0);      /* up to the exec in place */
	CHECK(res.serial_s < res.wall_s - 0.0095);
	/* counted up to the exec in place, where the counter ends there
	 * (opened after the shell's exec, on Linux 5.13 or later); the
	 * fallback's, opened before it, would go on with the program's:
	 * unknown */
	char *touch_exec[] = {"/bin/sh", "-c", touch_in_place, NULL};
	RUN_OK(touch_exec, &cmd, &res);
	CHECK(res.outcome == SPAWN_EXITED && res.code == 0);
	CHECK(res.minflt > 3000);
	if (counts_children_until_exec())
		CHECK_BETWEEN(res.shell_faults, 0, 500);
	else
		CHECK(isnan(res.shell_faults));
	/* cut short by --timeout: nothing to take off */
	char *slow[] = {"/bin/sh", "-c", "/bin/sleep 5; exit 0", NULL};
	cmd.timeout_s = 0.05;
	RUN_OK(slow, &cmd, &res);
	CHECK(res.outcome == SPAWN_TIMED_OUT);
	CHECK(res.wake_s == 0);
	CHECK(res.reap_s == 0);
	CHECK(isnan(res.serial_s));
	CHECK(isnan(res.shell_faults));
	cmd.timeout_s = 0;
	cmd.shell_sideband = false;
	RUN_OK(waits, &cmd, &res);
	CHECK(isnan(res.wake_s));
	CHECK(isnan(res.reap_s));
	CHECK(isnan(res.serial_s));
	CHECK(isnan(res.shell_cpu_s));
	CHECK(isnan(res.shell_faults));
}

/* ---- run last: a stop request cannot be taken back ---- */

static void on_alarm(int sig)
{
	(void)sig;
	spawn_request_stop(SIGINT);
}

static void test_stop_request_interrupts(void)
{
	char *argv[] = {"/bin/sleep", "5", NULL};
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	CHECK(sigaction(SIGALRM, &sa, NULL) == 0);
	struct itimerval it = {{0, 0}, {0, 200000}}; /* 200 ms */
	CHECK(spawn_stop_signal() == 0);
	double t0 = mono_s();
	CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);
	struct spawn_result res;
	RUN_OK(argv, NULL, &res);
	double took = mono_s() - t0;
	signal(SIGALRM, SIG_DFL);
	CHECK(res.outcome == SPAWN_INTERRUPTED);
	CHECK(took < 5.0);
	CHECK(spawn_stop_signal() == SIGINT);
	/* Every later run is refused at once. */
	char *argv_true[] = {"/bin/true", NULL};
	RUN_OK(argv_true, NULL, &res);
	CHECK(res.outcome == SPAWN_INTERRUPTED);
}

/* ---- modes ---- */

/* Can a child of ours be traced?  NULL if so, else why not. */
static const char *probe_ptrace(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(ptrace(PTRACE_TRACEME, 0, NULL, NULL) == 0 ? 0 : 3);
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return "cannot fork to probe ptrace";
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return NULL;
	return "ptrace(PTRACE_TRACEME) refused here (seccomp or Yama ptrace_scope)";
}

/* RUN with the mode in the test's name. */
#define RUN_IN_MODE(fn)                                                      \
	do {                                                                 \
		static char name_[128];                                      \
		snprintf(name_, sizeof name_, "%s[%s]", #fn, mode_name);     \
		unit_name = name_;                                           \
		unit_state = 0;                                              \
		fn();                                                        \
		if (unit_state == 0)                                         \
			printf("PASS %s\n", name_);                          \
		else if (unit_state == 1)                                    \
			unit_failures++;                                     \
		fflush(stdout);                                              \
	} while (0)

static void run_mode(const char *name, bool traced, const char *env_var)
{
	char err[256];
	mode_name = name;
	mode_traced = traced;
	if (env_var)
		setenv(env_var, "1", 1);
	if (spawn_init(err, sizeof err) != 0) {
		printf("FAIL spawn_init[%s]: %s\n", name, err);
		unit_failures++;
		return;
	}
	RUN_IN_MODE(test_true_exits_zero);
	RUN_IN_MODE(test_false_exits_one);
	RUN_IN_MODE(test_signal_reported);
	RUN_IN_MODE(test_exec_failure_reported);
	RUN_IN_MODE(test_script_without_shebang);
	RUN_IN_MODE(test_timeout_stops_command);
	RUN_IN_MODE(test_output_to_fd);
	RUN_IN_MODE(test_output_null_and_stdin_null);
	RUN_IN_MODE(test_output_pipe_drained);
	RUN_IN_MODE(test_stdin_from_fd);
	RUN_IN_MODE(test_environment_passed);
	RUN_IN_MODE(test_counters_attached);
	RUN_IN_MODE(test_shell_sideband_measured);
	spawn_shutdown();
}

int main(void)
{
	ptrace_refused = probe_ptrace();
	unsetenv("CBENCH_TEST_NO_PTRACE");
	unsetenv("CBENCH_TEST_NO_LAUNCHER");
	run_mode("launcher", true, NULL);
	run_mode("no-launcher", true, "CBENCH_TEST_NO_LAUNCHER");
	/* The engine never goes back to ptrace once it fell back. */
	run_mode("no-ptrace", false, "CBENCH_TEST_NO_PTRACE");

	char err[256];
	if (spawn_init(err, sizeof err) != 0) {
		printf("FAIL spawn_init: %s\n", err);
		UNIT_EXIT();
	}
	RUN(test_stop_request_interrupts);
	spawn_shutdown();
	UNIT_EXIT();
}
