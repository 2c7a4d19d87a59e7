/*
 * sideband.c: a shell's time around its program and on a CPU, and
 * cbench's wait to reap it, from perf_event_open's side-band records (see
 * sideband.h).
 *
 * Why: Debian's sh does not exec a single command in place; it vforks, the
 * child execs the program, and the shell sleeps in wait4.  When the program
 * exits, the shell has to be scheduled again to reap it and exit, and then
 * cbench to reap the shell.  A command run directly has one such reap, the
 * shell's run two, and each takes a wake-up of a sleeping process (on an
 * idle CPU of a VM about 0.1 ms; behind other load it queues, for up to
 * milliseconds) after the exit of a process, whose own exit takes longer
 * after a longer run (measured with perf sched tracing on the 2-core VM,
 * from the exit tracepoint to the last switch: 53 us after 0.5 ms of CPU,
 * 106 us after 5 ms).  The first one, the shell's reap of its program, is
 * the one a direct run has (the program's exit, a parent's wake-up); the
 * second, from the shell's own exit record to cbench's reap, is measured
 * here per run and taken off (bench.c).  A constant calibrated with
 * `true` would take off the typical one, never one that queued.
 *
 * The records (include/uapi/linux/perf_event.h): PERF_RECORD_SWITCH is a
 * header and the sample_id (with PERF_SAMPLE_TID | PERF_SAMPLE_TIME: u32
 * pid, u32 tid, u64 time), PERF_RECORD_SWITCH_OUT in misc for a switch out,
 * PERF_RECORD_MISC_SWITCH_OUT_PREEMPT when the task was still runnable;
 * PERF_RECORD_EXIT and PERF_RECORD_FORK are a header, u32 pid, ppid, tid,
 * ptid, u64 time, then the sample_id; PERF_RECORD_COMM (with
 * PERF_RECORD_MISC_COMM_EXEC at an exec) is u32 pid, tid, the name padded
 * to 8 bytes, then the sample_id.  A backward ring buffer holds the
 * newest record at data_head and older ones after it; bytes never written
 * are zero (perf's own reader, tools/lib/perf/mmap.c, stops at a zero
 * header the same way).
 */
#include "sideband.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Data pages of the ring buffer: 16 KiB hold over 300 records (a shell
 * running one program writes about 10: switches, a fork, two execs, two
 * exits).  The start-up, the CPU time and the reap need all of them (the
 * reap, to rule out an exec in place), so a line that starts more than
 * about 100 processes has those unknown (the calibration's median is
 * used).  The children's records reach this ring through inherited
 * events, written from whichever CPU they run on; when the shell and its
 * child write at once (its wake-up from vfork, the child's exec) the
 * kernel can lose every later record, the shell's exit with them: then
 * all is unknown too (under load on 2 CPUs, about 1 run in 200). */
#define DATA_PAGES 4

static size_t page_size(void)
{
	long p = sysconf(_SC_PAGESIZE);
	return p > 0 ? (size_t)p : 4096;
}

static size_t map_bytes(void)
{
	return (DATA_PAGES + 1) * page_size();
}

void sideband_init(struct sideband *sb)
{
	sb->switch_fd = sb->exit_fd = sb->fault_fd = -1;
	sb->faults_at_exec = false;
	sb->map = NULL;
	sb->execs_before = 0;
}

/* One dummy software event on pid: its own context switches, or (exits)
 * the exits of every process it starts. */
static int open_event(pid_t pid, bool exits)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.sample_id_all = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.use_clockid = 1;
	a.clockid = CLOCK_MONOTONIC;
	a.write_backward = 1;
	/* perf_event_paranoid 2 refuses events that count in the kernel;
	 * side-band records are written all the same. */
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	if (exits) {
		a.inherit = 1;
		a.task = 1;
		/* every exec of it and its descendants
		 * (PERF_RECORD_MISC_COMM_EXEC): its own in place, and when
		 * its program started */
		a.comm = 1;
		a.comm_exec = 1;
	} else {
		a.context_switch = 1;
	}
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

/* A counting (not sampling) page-fault event on pid: what the shell
 * itself faults, without its programs.  Opened after its exec (the
 * traced launch), it is inherited by the processes it starts and removed
 * from each at its exec (remove_on_exec, Linux 5.13), which adds a
 * child's count so far to it: the shell's own, and its children's until
 * they become programs (its vfork child before the exec, subshells);
 * its own ends at an exec in place.  Where that is refused (an older
 * kernel), or before its exec (the fallback launch: it would be removed
 * at the shell's own exec), its own task's only, from its exec on
 * (*at_exec false: its program's after an exec in place). */
static int open_faults(pid_t pid, bool before_exec, bool user_only,
		       bool *at_exec)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_PAGE_FAULTS;
	a.exclude_kernel = user_only;
	a.exclude_hv = 1;
	static bool no_remove_on_exec;   /* refused once: not tried again */
	int fd = -1;
	if (!before_exec && !no_remove_on_exec) {
		a.inherit = 1;
		a.remove_on_exec = 1;
		fd = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1,
				  PERF_FLAG_FD_CLOEXEC);
		no_remove_on_exec = fd < 0 && errno == EINVAL;
		a.inherit = a.remove_on_exec = 0;
	}
	*at_exec = fd >= 0;
	if (fd < 0) {
		a.disabled = before_exec;
		a.enable_on_exec = before_exec;
		fd = (int)syscall(SYS_perf_event_open, &a, pid, -1, -1,
				  PERF_FLAG_FD_CLOEXEC);
	}
	return fd;
}

int sideband_open(struct sideband *sb, pid_t pid, bool before_exec,
		  bool user_only)
{
	sideband_init(sb);
	sb->execs_before = before_exec ? 1 : 0;
	sb->switch_fd = open_event(pid, false);
	if (sb->switch_fd < 0)
		return -1;
	/* Read-only: overwrite mode, the newest records kept. */
	void *m = mmap(NULL, map_bytes(), PROT_READ, MAP_SHARED, sb->switch_fd, 0);
	if (m != MAP_FAILED) {
		sb->map = m;
		sb->exit_fd = open_event(pid, true);
	}
	if (sb->exit_fd < 0 ||
	    ioctl(sb->exit_fd, PERF_EVENT_IOC_SET_OUTPUT, sb->switch_fd) != 0) {
		int e = errno;
		sideband_close(sb);
		errno = e;
		return -1;
	}
	sb->fault_fd = open_faults(pid, before_exec, user_only,
				   &sb->faults_at_exec);
	return 0;
}

void sideband_close(struct sideband *sb)
{
	if (sb->map)
		munmap(sb->map, map_bytes());
	if (sb->exit_fd >= 0)
		close(sb->exit_fd);
	if (sb->fault_fd >= 0)
		close(sb->fault_fd);
	if (sb->switch_fd >= 0)
		close(sb->switch_fd);
	sideband_init(sb);
}

/* ---- reading the records ---- */

struct rec {
	uint32_t type;
	uint16_t misc;
	uint32_t pid, ppid, tid;  /* ppid: EXIT and FORK only */
	uint64_t time;
};

struct ring {
	const unsigned char *data;
	size_t size;             /* a power of two */
	uint64_t head;           /* the newest record */
};

static void copy_out(const struct ring *r, uint64_t at, void *dst, size_t n)
{
	unsigned char *d = dst;
	for (size_t i = 0; i < n; i++)
		d[i] = r->data[(at + i) & (r->size - 1)];
}

/* The record at *pos bytes from the newest (older ones follow), advancing
 * *pos.  False at the end: *complete is then true when the end is bytes
 * never written (every record ever written was seen). */
static bool next_rec(const struct ring *r, uint64_t *pos, struct rec *out,
		     bool *complete)
{
	struct perf_event_header h;
	*complete = false;
	if (*pos + sizeof h > r->size)
		return false;
	copy_out(r, r->head + *pos, &h, sizeof h);
	if (h.size == 0 && h.type == 0) {
		*complete = true;
		return false;
	}
	/* Records are 8-byte aligned; one cut by the wrap is not read. */
	if (h.size < sizeof h || h.size % 8 != 0 || *pos + h.size > r->size)
		return false;
	unsigned char b[64];
	memset(out, 0, sizeof *out);
	out->type = h.type;
	out->misc = h.misc;
	if (h.size <= sizeof b) {
		copy_out(r, r->head + *pos, b, h.size);
		if ((h.type == PERF_RECORD_EXIT || h.type == PERF_RECORD_FORK) &&
		    h.size >= sizeof h + 24) {
			memcpy(&out->pid, b + sizeof h, 4);
			memcpy(&out->ppid, b + sizeof h + 4, 4);
			memcpy(&out->tid, b + sizeof h + 8, 4);
			memcpy(&out->time, b + sizeof h + 16, 8);
		} else if ((h.type == PERF_RECORD_SWITCH ||
			    h.type == PERF_RECORD_COMM) && h.size >= sizeof h + 16) {
			memcpy(&out->pid, b + h.size - 16, 4);
			memcpy(&out->tid, b + h.size - 12, 4);
			memcpy(&out->time, b + h.size - 8, 8);
		}
	}
	*pos += h.size;
	return true;
}

/* What the whole buffer says of the command tid: its own exit (false
 * when it is not there), the newest exit of any thread of its process
 * (when it could be reaped), how many execs of its own it holds, whether
 * another process exec'd (a program started), and whether every record
 * ever written was seen (*complete). */
struct own_summary {
	uint64_t exit, process_exit;
	int execs;
	bool other_exec, complete;
};

static bool own_summary(const struct ring *r, uint32_t tid,
			struct own_summary *o)
{
	struct rec x;
	bool have = false;
	memset(o, 0, sizeof *o);
	for (uint64_t pos = 0; next_rec(r, &pos, &x, &o->complete);) {
		if (x.type == PERF_RECORD_EXIT && x.tid == tid && !have) {
			o->exit = x.time;   /* the newest: its last */
			have = true;
		}
		if (x.type == PERF_RECORD_EXIT && x.pid == tid &&
		    x.time > o->process_exit)
			o->process_exit = x.time;
		if (x.type == PERF_RECORD_COMM && (x.misc & PERF_RECORD_MISC_COMM_EXEC)) {
			o->execs += x.tid == tid;
			o->other_exec = o->other_exec || x.pid != tid;
		}
	}
	return have;
}

/* The wake-up (sideband_wake_from) from r, whose summary is o. */
static double wake_in(const struct ring *r, uint32_t tid, int execs_before,
		      const struct own_summary *o)
{
	struct rec x;
	bool complete = false;
	/* Whether it exec'd in place (bash -c, `exec prog`): then it is the
	 * program, whose children and threads are its own work, and there
	 * is no shell to wake. */
	uint64_t own_exit = o->exit, last = 0;
	bool have_last = false;
	if (o->execs > execs_before)
		return 0.0;
	if (!o->complete && execs_before > 0 && o->execs == 0)
		return NAN;  /* its own exec's record overwritten: cannot tell */
	/* The last exit before it of a process it started itself: its wait4
	 * wakes for its own children, not for their children or its threads
	 * (processes left running exit later). */
	for (uint64_t pos = 0; next_rec(r, &pos, &x, &complete);)
		if (x.type == PERF_RECORD_EXIT && x.pid != tid && x.ppid == tid &&
		    x.time <= own_exit && (!have_last || x.time > last)) {
			last = x.time;
			have_last = true;
		}
	if (!have_last)
		return complete ? 0.0 : NAN;

	/* Its state at that exit (its last switch before it). */
	uint64_t before = 0;
	bool have_before = false, asleep = false;
	for (uint64_t pos = 0; next_rec(r, &pos, &x, &complete);)
		if (x.type == PERF_RECORD_SWITCH && x.tid == tid && x.time <= last &&
		    (!have_before || x.time > before)) {
			before = x.time;
			have_before = true;
			asleep = (x.misc & PERF_RECORD_MISC_SWITCH_OUT) &&
				 !(x.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
		}
	if (!have_before)
		return NAN;
	/* From then to its own exit, every time it slept: from the exit (if
	 * asleep then: its wake-up to reap) or a later switch out that was
	 * no preemption, to its next switch in.  A shell preempted when its
	 * program exited has no wake-up of its own, but one stopped after it
	 * (SIGSTOP) or blocked sleeps: that is not its work either.  The
	 * records come newest first, so the switch in seen last is the next
	 * one after a switch out. */
	uint64_t next_in = 0, slept = 0;
	bool have_in = false;
	for (uint64_t pos = 0; next_rec(r, &pos, &x, &complete);) {
		if (x.type != PERF_RECORD_SWITCH || x.tid != tid || x.time <= last ||
		    x.time > own_exit)
			continue;
		if (!(x.misc & PERF_RECORD_MISC_SWITCH_OUT)) {
			next_in = x.time;
			have_in = true;
		} else if (!(x.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)) {
			if (!have_in)
				return NAN;  /* exited asleep: records lost */
			slept += next_in - x.time;
		}
	}
	if (asleep) {
		if (!have_in)
			return NAN;
		slept += next_in - last;
	}
	return (double)slept * 1e-9;
}

/* cbench's wait to reap the command (sideband_reap_from), whose summary
 * is o: from its exit to end_ns.  A process is reaped when its last
 * thread has exited (o->process_exit: the shell is one thread; one given
 * with -S need not be). */
static double reap_in(int execs_before, uint64_t end_ns,
		      const struct own_summary *o)
{
	if (o->execs > execs_before)
		return 0.0;  /* exec'd in place: the program's own reap */
	/* Records overwritten: an exec in place among them cannot be ruled
	 * out (the reap is then the program's own). */
	if (!o->complete)
		return NAN;
	/* Builtins only: the shell is the line's program, and its reap the
	 * program's own, as a direct run's. */
	if (!o->other_exec)
		return 0.0;
	uint64_t last = o->process_exit;
	return end_ns > last ? (double)(end_ns - last) * 1e-9 : 0.0;
}

/* The time of the command's own exec number k (0: the oldest in the
 * buffer), or 0 when there is none. */
static uint64_t own_exec(const struct ring *r, uint32_t tid, int k)
{
	uint64_t t[64];
	int n = 0;
	struct rec x;
	bool complete;
	for (uint64_t pos = 0; next_rec(r, &pos, &x, &complete);)
		if (x.type == PERF_RECORD_COMM && x.tid == tid &&
		    (x.misc & PERF_RECORD_MISC_COMM_EXEC)) {
			if (n == 64)
				return 0;  /* more than it keeps: cannot tell */
			t[n++] = x.time;   /* newest first */
		}
	return k < n ? t[n - 1 - k] : 0;
}

/* When tid first ran at or after start_ns (its first switch in) and
 * before its program's exec at limit, or start_ns when no record says.
 * Released (ptrace detach, the go pipe), the command waits to be
 * scheduled: behind load a median 21 us but a mean of 33 and up to 4 ms
 * on the 2-core VM.  A command run directly keeps that wait in its time,
 * so the shell's run keeps its own: only what follows is the shell's
 * start-up.  A command still running at its release (the fallback
 * launch's child, not yet asleep on the go pipe) has no such switch: its
 * next one, after its vfork, is not its start. */
static uint64_t first_in(const struct ring *r, uint32_t tid, uint64_t start_ns,
			 uint64_t limit)
{
	struct rec x;
	bool complete;
	uint64_t t = 0;
	for (uint64_t pos = 0; next_rec(r, &pos, &x, &complete);)
		if (x.type == PERF_RECORD_SWITCH && x.tid == tid &&
		    !(x.misc & PERF_RECORD_MISC_SWITCH_OUT) && x.time >= start_ns &&
		    x.time < limit && (t == 0 || x.time < t))
			t = x.time;
	return t ? t : start_ns;
}

/* The shell's time around its program (sideband_serial_from) from r,
 * whose summary is o and wake-up after its program wake (not its own:
 * after the program's exit, the shell's time starts when it runs). */
static double serial_in(const struct ring *r, uint32_t tid, int execs_before,
			uint64_t start_ns, const struct own_summary *o,
			double wake)
{
	struct rec x;
	bool complete = false;
	/* The earliest records are the ones needed: all of them seen, or
	 * it cannot tell. */
	if (!isfinite(wake) || !o->complete)
		return NAN;
	/* The first exec of another process (the program starting) and the
	 * last exit of its own children, before its own exit. */
	uint64_t own_exit = o->exit, first = 0, last = 0;
	bool have_first = false, have_last = false;
	if (o->execs > execs_before) {   /* exec'd in place: it is the program */
		uint64_t t = own_exec(r, tid, execs_before);
		/* up to the first program, which may be a child before it
		 * (bash -c 'prog1; prog2' execs prog2 in place) */
		for (uint64_t pos = 0; t && next_rec(r, &pos, &x, &complete);)
			if (x.type == PERF_RECORD_COMM && x.pid != tid &&
			    (x.misc & PERF_RECORD_MISC_COMM_EXEC) && x.time < t)
				t = x.time;
		start_ns = first_in(r, tid, start_ns, t);
		return t && t >= start_ns ? (double)(t - start_ns) * 1e-9 : NAN;
	}
	for (uint64_t pos = 0; next_rec(r, &pos, &x, &complete);) {
		if (x.time > own_exit)
			continue;
		if (x.type == PERF_RECORD_COMM && x.pid != tid &&
		    (x.misc & PERF_RECORD_MISC_COMM_EXEC) &&
		    (!have_first || x.time < first)) {
			first = x.time;
			have_first = true;
		}
		if (x.type == PERF_RECORD_EXIT && x.pid != tid && x.ppid == tid &&
		    (!have_last || x.time > last)) {
			last = x.time;
			have_last = true;
		}
	}
	/* No program (builtins only): the shell's time is all there is. */
	if (!have_first || !have_last || first < start_ns || last < first)
		return NAN;
	start_ns = first_in(r, tid, start_ns, first);
	double after = (double)(own_exit - last) * 1e-9 - wake;
	return (double)(first - start_ns) * 1e-9 + (after > 0 ? after : 0);
}

/* The shell's own CPU time (sideband_cpu_from) from r, whose summary is
 * o. */
static double cpu_in(const struct ring *r, uint32_t tid, int execs_before,
		     const struct own_summary *o)
{
	struct rec x;
	bool complete = false;
	if (!o->complete)
		return NAN;
	uint64_t end = o->exit;
	if (o->execs > execs_before) {   /* the shell's part ends at its exec */
		end = own_exec(r, tid, execs_before);
		if (end == 0)
			return NAN;
	} else if (!o->other_exec) {
		return NAN;         /* builtins only: all of it is the line's */
	}
	/* Its on-CPU intervals, oldest first: from each switch in to the
	 * next switch out, the last one to the end. */
	uint64_t t[256];
	uint8_t in[256];
	int n = 0;
	for (uint64_t pos = 0; next_rec(r, &pos, &x, &complete);)
		if (x.type == PERF_RECORD_SWITCH && x.tid == tid && x.time <= end) {
			if (n == 256)
				return NAN;
			t[n] = x.time;
			in[n++] = !(x.misc & PERF_RECORD_MISC_SWITCH_OUT);
		}
	uint64_t on = 0, since = 0;
	bool running = false;
	for (int i = n - 1; i >= 0; i--) {
		if (in[i] && !running) {
			since = t[i];
			running = true;
		} else if (!in[i] && running) {
			on += t[i] - since;
			running = false;
		}
	}
	if (running)
		on += end - since;
	return (double)on * 1e-9;
}

/* The ring of data, and its summary of tid: false when the buffer is
 * not one or the command's exit is not in it (all unknown). */
static bool ring_of(const unsigned char *data, size_t size, uint64_t head,
		    uint32_t tid, struct ring *r, struct own_summary *o)
{
	if (data == NULL || size < 8 || (size & (size - 1)) != 0)
		return false;
	*r = (struct ring){data, size, head};
	return own_summary(r, tid, o);
}

double sideband_reap_from(const unsigned char *data, size_t size,
			  uint64_t head, uint32_t tid, int execs_before,
			  uint64_t end_ns)
{
	struct ring r;
	struct own_summary o;
	return ring_of(data, size, head, tid, &r, &o)
	       ? reap_in(execs_before, end_ns, &o) : NAN;
}

double sideband_wake_from(const unsigned char *data, size_t size,
			  uint64_t head, uint32_t tid, int execs_before)
{
	struct ring r;
	struct own_summary o;
	return ring_of(data, size, head, tid, &r, &o)
	       ? wake_in(&r, tid, execs_before, &o) : NAN;
}

double sideband_serial_from(const unsigned char *data, size_t size,
			    uint64_t head, uint32_t tid, int execs_before,
			    uint64_t start_ns)
{
	struct ring r;
	struct own_summary o;
	if (!ring_of(data, size, head, tid, &r, &o))
		return NAN;
	return serial_in(&r, tid, execs_before, start_ns, &o,
			 wake_in(&r, tid, execs_before, &o));
}

double sideband_cpu_from(const unsigned char *data, size_t size,
			 uint64_t head, uint32_t tid, int execs_before)
{
	struct ring r;
	struct own_summary o;
	return ring_of(data, size, head, tid, &r, &o)
	       ? cpu_in(&r, tid, execs_before, &o) : NAN;
}

/* A CLOCK_MONOTONIC time in seconds as the records' nanoseconds, 0 when
 * it is not one. */
static uint64_t ns_of(double s)
{
	double ns = s * 1e9;
	return ns > 0 && ns < 1.8e19 ? (uint64_t)ns : 0;
}

/* The count of the page-fault event fd (open_faults), NaN when there is
 * none or it cannot be read. */
static double fault_count(int fd)
{
	uint64_t v;
	if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v)
		return NAN;
	return (double)v;
}

void sideband_read(const struct sideband *sb, pid_t pid, double start_s,
		   double end_s, double *wake_s, double *reap_s,
		   double *serial_s, double *cpu_s, double *faults)
{
	*wake_s = *reap_s = *serial_s = *cpu_s = *faults = NAN;
	if (sb->map == NULL)
		return;
	/* Processes the command left running still write exits into the
	 * buffer; disabled (with the inherited copies), the events write
	 * nothing more.  (Not PERF_EVENT_IOC_PAUSE_OUTPUT, as perf pauses a
	 * backward buffer: declared _IOW, it takes its value, not a pointer,
	 * which valgrind's memcheck reports as an unaddressable argument.) */
	if (ioctl(sb->exit_fd, PERF_EVENT_IOC_DISABLE, 0) != 0 ||
	    ioctl(sb->switch_fd, PERF_EVENT_IOC_DISABLE, 0) != 0)
		return;
	const struct perf_event_mmap_page *pg = sb->map;
	size_t off = pg->data_offset ? (size_t)pg->data_offset : page_size();
	size_t size = pg->data_size ? (size_t)pg->data_size
		      : DATA_PAGES * page_size();
	if (off > map_bytes() || size > map_bytes() - off)
		return;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	struct ring r;
	struct own_summary o;
	uint32_t tid = (uint32_t)pid;
	if (!ring_of((const unsigned char *)sb->map + off, size, head, tid, &r, &o))
		return;
	uint64_t start_ns = ns_of(start_s), end_ns = ns_of(end_s);
	*wake_s = wake_in(&r, tid, sb->execs_before, &o);
	if (end_ns)
		*reap_s = reap_in(sb->execs_before, end_ns, &o);
	if (start_ns)
		*serial_s = serial_in(&r, tid, sb->execs_before, start_ns, &o,
				      *wake_s);
	*cpu_s = cpu_in(&r, tid, sb->execs_before, &o);
	/* The shell's while it is the shell: after an exec in place its
	 * program's, unless the count ended there; none when it ran no
	 * program (builtins only: they are the line's). */
	bool in_place = o.execs > sb->execs_before;
	if (o.complete && (in_place ? sb->faults_at_exec : o.other_exec))
		*faults = fault_count(sb->fault_fd);
}
