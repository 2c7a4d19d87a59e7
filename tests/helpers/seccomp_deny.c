/* seccomp_deny: run a program with one system call refused.
 *
 *   seccomp_deny SYSCALL ERRNO -- PROG [ARGS...]
 *
 * SYSCALL is ptrace, perf_event_open or pidfd_open, ERRNO is EPERM, EACCES,
 * ENOENT or ENOSYS (pidfd_open refused with ENOSYS acts like a kernel
 * older than 5.3).
 * Installs a seccomp BPF filter (raw, no libseccomp) that makes SYSCALL
 * fail with ERRNO in this process and every descendant, then execs PROG:
 * the tests use it to show what cbench does when a container's policy, the
 * paranoid level or a missing PMU refuses what it asks for.  Exit 125 when
 * the filter cannot be installed (the test then skips). */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define ARCH AUDIT_ARCH_I386
#else
#error "seccomp_deny: add this architecture's AUDIT_ARCH value"
#endif

static int usage(void)
{
	fprintf(stderr, "usage: seccomp_deny ptrace|perf_event_open|pidfd_open "
		"EPERM|EACCES|ENOENT|ENOSYS -- PROG [ARGS...]\n");
	return 2;
}

int main(int argc, char **argv)
{
	if (argc < 5 || strcmp(argv[3], "--") != 0)
		return usage();
	long nr;
	if (strcmp(argv[1], "ptrace") == 0)
		nr = SYS_ptrace;
	else if (strcmp(argv[1], "perf_event_open") == 0)
		nr = SYS_perf_event_open;
	else if (strcmp(argv[1], "pidfd_open") == 0)
		nr = SYS_pidfd_open;
	else
		return usage();
	unsigned e;
	if (strcmp(argv[2], "EPERM") == 0)
		e = EPERM;
	else if (strcmp(argv[2], "EACCES") == 0)
		e = EACCES;
	else if (strcmp(argv[2], "ENOENT") == 0)
		e = ENOENT;
	else if (strcmp(argv[2], "ENOSYS") == 0)
		e = ENOSYS;
	else
		return usage();

	struct sock_filter prog[] = {
		/* Another architecture's syscall numbers mean other calls:
		 * refuse them all rather than guess. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (e & SECCOMP_RET_DATA)),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog fprog = {
		.len = (unsigned short)(sizeof prog / sizeof prog[0]),
		.filter = prog,
	};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		perror("seccomp_deny: PR_SET_NO_NEW_PRIVS");
		return 125;
	}
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog) != 0) {
		perror("seccomp_deny: PR_SET_SECCOMP");
		return 125;
	}
	execvp(argv[4], argv + 4);
	fprintf(stderr, "seccomp_deny: %s: %s\n", argv[4], strerror(errno));
	return 127;
}
