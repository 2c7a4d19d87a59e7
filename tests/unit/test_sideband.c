/*
 * Unit tests for the side-band reader (sideband.c): ring buffers written
 * here the way the kernel writes a backward one (each record below the
 * previous, the newest at data_head), with the record layouts of
 * include/uapi/linux/perf_event.h, and what is read from them checked
 * against the timestamps put in (the expected values are differences of
 * those timestamps, in nanoseconds, worked out beside each check).  The
 * engine's real records are checked in test_spawn.c.
 */
#include "sideband.h"
#include "unit.h"

#include <linux/perf_event.h>
#include <stdint.h>
#include <string.h>

#define SHELL 100u
#define NS 1e-9

struct ring {
	unsigned char data[4096];
	size_t size;
	uint64_t head;
};

static void ring_init(struct ring *r, size_t size)
{
	memset(r->data, 0, sizeof r->data);
	r->size = size;
	r->head = 0;
}

static void put(struct ring *r, const void *rec, size_t n)
{
	r->head -= n;
	for (size_t i = 0; i < n; i++)
		r->data[(r->head + i) & (r->size - 1)] = ((const unsigned char *)rec)[i];
}

/* PERF_RECORD_SWITCH with sample_id (u32 pid, u32 tid, u64 time). */
static void sw(struct ring *r, uint32_t tid, uint16_t misc, uint64_t t)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		uint64_t time;
	} x = {{PERF_RECORD_SWITCH, misc, sizeof x}, tid, tid, t};
	put(r, &x, sizeof x);
}

/* PERF_RECORD_EXIT or _FORK of a thread tid of process pid, whose
 * parent is ppid: u32 pid, ppid, tid, ptid, u64 time, then the
 * sample_id. */
static void thread(struct ring *r, uint32_t type, uint32_t pid, uint32_t tid,
		   uint32_t ppid, uint64_t t)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, ppid, tid, ptid;
		uint64_t time;
		uint32_t s_pid, s_tid;
		uint64_t s_time;
	} x = {{type, 0, sizeof x}, pid, ppid, tid, ppid, t, pid, tid, t};
	put(r, &x, sizeof x);
}

/* The same for a single-threaded process tid. */
static void task(struct ring *r, uint32_t type, uint32_t tid, uint32_t ppid,
		 uint64_t t)
{
	thread(r, type, tid, tid, ppid, t);
}

/* A fresh ring where the shell ran at 1000 and forked its program, 101,
 * at 1100. */
static void forked(struct ring *r)
{
	ring_init(r, 4096);
	sw(r, SHELL, 0, 1000);
	task(r, PERF_RECORD_FORK, 101, SHELL, 1100);
}

/* PERF_RECORD_COMM of an exec: u32 pid, tid, the name padded to 8 bytes,
 * then the sample_id. */
static void comm_exec(struct ring *r, uint32_t tid, uint64_t t)
{
	struct {
		struct perf_event_header h;
		uint32_t pid, tid;
		char comm[8];
		uint32_t s_pid, s_tid;
		uint64_t s_time;
	} x = {{PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC, sizeof x}, tid, tid,
	       "prog", tid, tid, t};
	put(r, &x, sizeof x);
}

#define OUT PERF_RECORD_MISC_SWITCH_OUT
#define PREEMPT (PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)

static double wake(const struct ring *r)
{
	return sideband_wake_from(r->data, r->size, r->head, SHELL, 0);
}

/* A shell's usual run: it starts, vforks, sleeps in wait4 while the child
 * runs; the child exits at 5000 ns, the shell runs again at 5090 ns. */
static void typical(struct ring *r)
{
	sw(r, SHELL, 0, 1000);
	task(r, PERF_RECORD_FORK, 101, SHELL, 1100);
	sw(r, SHELL, OUT, 1200);
	task(r, PERF_RECORD_EXIT, 101, SHELL, 5000);
	sw(r, SHELL, 0, 5090);
	task(r, PERF_RECORD_EXIT, SHELL, 1, 5120);
}

static void test_wake_after_the_program(void)
{
	struct ring r;
	ring_init(&r, 4096);
	typical(&r);
	CHECK_NEAR(wake(&r), 90 * NS, 1e-12);      /* 5090 - 5000 */
}

/* A process left running exits after the shell: not the shell's wait. */
static void test_later_exits_ignored(void)
{
	struct ring r;
	ring_init(&r, 4096);
	typical(&r);
	task(&r, PERF_RECORD_EXIT, 102, SHELL, 9000);
	CHECK_NEAR(wake(&r), 90 * NS, 1e-12);      /* still 5090 - 5000 */
}

/* A pipeline: the shell wakes after the first exit, sleeps again; the
 * wake-up that counts follows the last exit (8000 -> 8200). */
static void test_last_exit_counts(void)
{
	struct ring r;
	forked(&r);
	task(&r, PERF_RECORD_FORK, 102, SHELL, 1150);
	sw(&r, SHELL, OUT, 1200);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 4000);
	sw(&r, SHELL, 0, 4050);
	sw(&r, SHELL, OUT, 4060);
	task(&r, PERF_RECORD_EXIT, 102, SHELL, 8000);
	sw(&r, SHELL, 0, 8200);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 8230);
	CHECK_NEAR(wake(&r), 200 * NS, 1e-12);     /* 8200 - 8000 */
}

/* Running, or preempted but runnable, when the child exited: no wake-up
 * of the shell's own to take off. */
static void test_not_asleep_is_zero(void)
{
	struct ring r;
	forked(&r);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 1500);  /* shell still on CPU */
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 1600);
	CHECK(wake(&r) == 0);
	forked(&r);
	sw(&r, SHELL, PREEMPT, 1200);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 1500);
	sw(&r, SHELL, 0, 1700);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 1800);
	CHECK(wake(&r) == 0);
	/* the positive side: the same with a sleep is 1700 - 1500 */
	forked(&r);
	sw(&r, SHELL, OUT, 1200);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 1500);
	sw(&r, SHELL, 0, 1700);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 1800);
	CHECK_NEAR(wake(&r), 200 * NS, 1e-12);
}

/* Asleep after the exit in other ways: stopped (SIGSTOP) while it was
 * preempted, before it could sleep in wait4, it runs again only when
 * continued; or it wakes to reap and then sleeps once more.  Every sleep
 * from the program's exit to its own is its wait, not its work (a
 * preemption is not a sleep). */
static void test_sleeps_after_the_exit_count(void)
{
	struct ring r;
	forked(&r);
	comm_exec(&r, 101, 1150);
	sw(&r, SHELL, PREEMPT, 1200);                 /* stopping, preempted */
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 1500);
	sw(&r, SHELL, 0, 1600);
	sw(&r, SHELL, OUT, 1610);                     /* stopped */
	sw(&r, SHELL, 0, 301610);                     /* continued */
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 301700);
	CHECK_NEAR(wake(&r), 300000 * NS, 1e-12);     /* 301610 - 1610 */
	/* its time around the program: (1150 - 1000) before + (301700 -
	 * 1500 - 300000 asleep) after = 150 + 200, not the stop */
	CHECK_NEAR(sideband_serial_from(r.data, r.size, r.head, SHELL, 0, 900),
		   350 * NS, 1e-12);
	forked(&r);
	sw(&r, SHELL, OUT, 1200);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 1500);
	sw(&r, SHELL, 0, 1700);                       /* wakes: 200 */
	sw(&r, SHELL, PREEMPT, 1720);                 /* runnable: not asleep */
	sw(&r, SHELL, 0, 1800);
	sw(&r, SHELL, OUT, 1810);                     /* sleeps again */
	sw(&r, SHELL, 0, 2810);                       /* 1000 */
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 2900);
	CHECK_NEAR(wake(&r), 1200 * NS, 1e-12);       /* 200 + 1000 */
	/* builtins after the program, preempted 40 times (80 switch
	 * records: more than a fixed buffer of a few dozen would hold),
	 * then a sleep of 500: the sleep alone is its wait, and the rest of
	 * its time after the program is its own */
	forked(&r);
	comm_exec(&r, 101, 1150);
	sw(&r, SHELL, OUT, 1200);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 1500);
	sw(&r, SHELL, 0, 1600);                       /* wakes: 100 */
	uint64_t t = 1600;
	for (int i = 0; i < 40; i++) {
		sw(&r, SHELL, PREEMPT, t + 100);
		sw(&r, SHELL, 0, t + 150);
		t += 150;
	}
	sw(&r, SHELL, OUT, t + 10);
	sw(&r, SHELL, 0, t + 510);                    /* 500 */
	task(&r, PERF_RECORD_EXIT, SHELL, 1, t + 600);
	CHECK_NEAR(wake(&r), 600 * NS, 1e-12);
	/* (1150 - 1000) + (t + 600 - 1500 - 600) */
	CHECK_NEAR(sideband_serial_from(r.data, r.size, r.head, SHELL, 0, 900),
		   (double)(150 + t + 600 - 1500 - 600) * NS, 1e-12);
	/* asleep at its own exit cannot be: a record is lost */
	forked(&r);
	sw(&r, SHELL, PREEMPT, 1200);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 1500);
	sw(&r, SHELL, 0, 1600);
	sw(&r, SHELL, OUT, 1610);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 1700);
	CHECK(isnan(wake(&r)));
}

/* No process started (a builtin, or `exec prog`: the shell's pid is the
 * program's): 0, when every record ever written is there. */
static void test_no_child_is_zero(void)
{
	struct ring r;
	ring_init(&r, 4096);
	sw(&r, SHELL, 0, 1000);
	sw(&r, SHELL, OUT, 1200);
	sw(&r, SHELL, 0, 1300);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 5000);
	CHECK(wake(&r) == 0);
}

/* Only the shell's own children wake it: the exits of its threads and
 * of its children's children are not the last exit.  From 5000 on it
 * slept twice, until 5090 and from 6500 to 7100 (90 + 600); from 7000
 * it would have been 100, from 6000 the second sleep alone, 600. */
static void test_own_children_only(void)
{
	struct ring r;
	forked(&r);
	sw(&r, SHELL, OUT, 1200);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 5000);
	sw(&r, SHELL, 0, 5090);
	task(&r, PERF_RECORD_EXIT, 301, 101, 6000);     /* a grandchild */
	sw(&r, SHELL, OUT, 6500);
	thread(&r, PERF_RECORD_EXIT, SHELL, 102, SHELL, 7000); /* its thread */
	sw(&r, SHELL, 0, 7100);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 7120);
	CHECK_NEAR(wake(&r), 690 * NS, 1e-12);
}

/* A shell that exec'd the program in place (bash -c, `exec prog`) is the
 * program: its own children's exits are its work, no wake-up is taken
 * off.  Events opened before the shell's own exec (the fallback launch)
 * see that exec first, which is not one in place. */
static void test_exec_in_place_is_zero(void)
{
	struct ring r;
	ring_init(&r, 4096);
	sw(&r, SHELL, 0, 1000);
	comm_exec(&r, SHELL, 1050);
	task(&r, PERF_RECORD_FORK, 101, SHELL, 1100);
	sw(&r, SHELL, OUT, 1200);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 5000);
	sw(&r, SHELL, 0, 5090);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 5120);
	CHECK(sideband_wake_from(r.data, r.size, r.head, SHELL, 0) == 0);
	/* opened before the shell's exec: that exec is its own */
	CHECK_NEAR(sideband_wake_from(r.data, r.size, r.head, SHELL, 1),
		   90 * NS, 1e-12);                 /* 5090 - 5000 */
	/* and a second exec is one in place */
	ring_init(&r, 4096);
	comm_exec(&r, SHELL, 900);
	sw(&r, SHELL, 0, 1000);
	comm_exec(&r, SHELL, 1050);
	sw(&r, SHELL, OUT, 1200);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 5000);
	sw(&r, SHELL, 0, 5090);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 5120);
	CHECK(sideband_wake_from(r.data, r.size, r.head, SHELL, 1) == 0);
}

/* What the records cannot tell: NaN. */
static void test_unknown_is_nan(void)
{
	struct ring r;
	ring_init(&r, 4096);
	CHECK(isnan(wake(&r)));                     /* nothing written */
	sw(&r, SHELL, 0, 1000);
	sw(&r, SHELL, OUT, 1200);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 5000);
	CHECK(isnan(wake(&r)));                     /* the shell has not exited */
	sw(&r, SHELL, 0, 5090);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 5120);
	CHECK_NEAR(wake(&r), 90 * NS, 1e-12);       /* now it has */
	CHECK(isnan(sideband_wake_from(r.data, 1000, r.head, SHELL, 0))); /* not 2^k */
	CHECK(isnan(sideband_wake_from(NULL, 4096, 0, SHELL, 0)));
}

/* A command that started many processes: the oldest records are
 * overwritten.  While the shell's sleep before the last exit survives the
 * answer stands; once it is overwritten it is unknown, never a guess. */
static void test_overwritten_records(void)
{
	struct ring r;
	ring_init(&r, 256);  /* 256 bytes: five 48-byte records and some */
	sw(&r, SHELL, 0, 1000);
	for (uint32_t i = 0; i < 20; i++) {
		task(&r, PERF_RECORD_FORK, 200 + i, SHELL, 1100 + 10 * i);
		task(&r, PERF_RECORD_EXIT, 200 + i, SHELL, 1105 + 10 * i);
	}
	sw(&r, SHELL, OUT, 2000);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 5000);
	sw(&r, SHELL, 0, 5300);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 5320);
	CHECK_NEAR(wake(&r), 300 * NS, 1e-12);      /* 5300 - 5000 */

	ring_init(&r, 256);
	sw(&r, SHELL, 0, 1000);
	sw(&r, SHELL, OUT, 1200);
	for (uint32_t i = 0; i < 20; i++)   /* exits of a big process tree */
		task(&r, PERF_RECORD_EXIT, 200 + i, 150, 1300 + 10 * i);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 5000);
	sw(&r, SHELL, 0, 5300);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 5320);
	CHECK(isnan(wake(&r)));                     /* its sleep is gone */
}

/* A malformed header (not a multiple of 8) ends the walk there: what
 * was read before it is used, nothing after. */
static void test_malformed_header_stops(void)
{
	struct ring r;
	ring_init(&r, 4096);
	sw(&r, SHELL, 0, 1000);
	sw(&r, SHELL, OUT, 1200);
	struct perf_event_header bad = {PERF_RECORD_SWITCH, 0, 12};
	unsigned char junk[16] = {0};
	memcpy(junk, &bad, sizeof bad);
	put(&r, junk, sizeof junk);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 5000);
	sw(&r, SHELL, 0, 5090);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 5120);
	/* the shell's sleep at 1200 is behind the bad header: unknown */
	CHECK(isnan(wake(&r)));
}

/* ---- the shell's own time around its program (sideband_serial_from) ---- */

static double cpu(const struct ring *r, int execs_before)
{
	return sideband_cpu_from(r->data, r->size, r->head, SHELL, execs_before);
}

static double serial(const struct ring *r, int execs_before, uint64_t start)
{
	return sideband_serial_from(r->data, r->size, r->head, SHELL,
				    execs_before, start);
}

/* The run starts at 900 ns and the shell first runs at 1000 (its wait to
 * be scheduled, which a direct command keeps too, is not start-up); the
 * child execs the program at 1150 and it exits at 5000; the shell runs
 * again at 5090 (its wake-up) and exits at 5120. */
static void with_program(struct ring *r)
{
	sw(r, SHELL, 0, 1000);
	task(r, PERF_RECORD_FORK, 101, SHELL, 1100);
	sw(r, SHELL, OUT, 1120);
	comm_exec(r, 101, 1150);
	task(r, PERF_RECORD_EXIT, 101, SHELL, 5000);
	sw(r, SHELL, 0, 5090);
	task(r, PERF_RECORD_EXIT, SHELL, 1, 5120);
}

static void test_serial_around_the_program(void)
{
	struct ring r;
	ring_init(&r, 4096);
	with_program(&r);
	/* (1150 - 1000) before + (5120 - 5000 - 90 wake) after = 150 + 30 */
	CHECK_NEAR(serial(&r, 0, 900), 180 * NS, 1e-12);
	/* released at 1000, when it ran at once: the same */
	CHECK_NEAR(serial(&r, 0, 1000), 180 * NS, 1e-12);
	CHECK_NEAR(wake(&r), 90 * NS, 1e-12);
	/* on a CPU: (1120 - 1000) + (5120 - 5090) = 150 */
	CHECK_NEAR(cpu(&r, 0), 150 * NS, 1e-12);
	/* a start after the program's exec cannot be: unknown */
	CHECK(isnan(serial(&r, 0, 1200)));
}

/* A pipeline: the first exec starts it, the last exit of the shell's
 * own children ends it; a subshell's child (ppid 102) execs first. */
static void test_serial_pipeline_and_subshell(void)
{
	struct ring r;
	forked(&r);
	task(&r, PERF_RECORD_FORK, 102, SHELL, 1110);
	sw(&r, SHELL, OUT, 1130);
	task(&r, PERF_RECORD_FORK, 103, 102, 1140);
	comm_exec(&r, 103, 1145);
	comm_exec(&r, 101, 1160);
	task(&r, PERF_RECORD_EXIT, 103, 102, 3900);
	task(&r, PERF_RECORD_EXIT, 102, SHELL, 4000);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 5000);
	sw(&r, SHELL, 0, 5050);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 5100);
	/* (1145 - 1000) + (5100 - 5000 - 50 wake) = 145 + 50 */
	CHECK_NEAR(serial(&r, 0, 1000), 195 * NS, 1e-12);
	/* (1130 - 1000) + (5100 - 5050) = 180 */
	CHECK_NEAR(cpu(&r, 0), 180 * NS, 1e-12);
}

/* Only builtins (no exec of another process): the shell's time is the
 * line's work, unknown as start-up. */
static void test_serial_no_program(void)
{
	struct ring r;
	ring_init(&r, 4096);
	typical(&r);                 /* a child that never execs */
	CHECK(isnan(serial(&r, 0, 900)));
	CHECK(isnan(cpu(&r, 0)));
	ring_init(&r, 4096);
	sw(&r, SHELL, 0, 1000);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 3000);
	CHECK(isnan(serial(&r, 0, 900)));
}

/* An exec in place: from its first run to that exec.  Opened before the
 * shell's own exec (execs_before 1), the second exec is the one. */
static void test_serial_exec_in_place(void)
{
	struct ring r;
	ring_init(&r, 4096);
	sw(&r, SHELL, 0, 1000);
	comm_exec(&r, SHELL, 1400);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 6000);
	CHECK_NEAR(serial(&r, 0, 900), 400 * NS, 1e-12);   /* 1400 - 1000 */
	CHECK_NEAR(cpu(&r, 0), 400 * NS, 1e-12);           /* 1400 - 1000 */
	ring_init(&r, 4096);
	sw(&r, SHELL, 0, 1000);
	comm_exec(&r, SHELL, 1100);  /* the shell's own exec */
	comm_exec(&r, SHELL, 1700);  /* the program's, in place */
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 6000);
	CHECK_NEAR(serial(&r, 1, 900), 700 * NS, 1e-12);   /* 1700 - 1000 */
	CHECK_NEAR(cpu(&r, 1), 700 * NS, 1e-12);           /* 1700 - 1000 */
	/* bash -c 'prog1; prog2': prog1 a child, prog2 exec'd in place; the
	 * start-up ends at prog1's exec */
	forked(&r);
	comm_exec(&r, 101, 1200);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 4000);
	comm_exec(&r, SHELL, 4100);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 6000);
	CHECK_NEAR(serial(&r, 0, 900), 200 * NS, 1e-12);   /* 1200 - 1000 */
}

/* The earliest records overwritten: the start-up cannot be told. */
static void test_serial_overwritten(void)
{
	struct ring r;
	ring_init(&r, 256);
	sw(&r, SHELL, 0, 1000);
	comm_exec(&r, 101, 1150);
	for (uint32_t i = 0; i < 20; i++)
		task(&r, PERF_RECORD_EXIT, 200 + i, 150, 1300 + 10 * i);
	sw(&r, SHELL, OUT, 1200);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 5000);
	sw(&r, SHELL, 0, 5300);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 5320);
	CHECK_NEAR(wake(&r), 300 * NS, 1e-12);      /* the wake is still known */
	CHECK(isnan(serial(&r, 0, 900)));
	CHECK(isnan(cpu(&r, 0)));
}

/* Preempted and back: each stretch on a CPU counts, the waits not; the
 * time around the program is from its first run, the preemption in it
 * (behind load, the start-up's own excess, taken off with it). */
static void test_cpu_stretches(void)
{
	struct ring r;
	ring_init(&r, 4096);
	sw(&r, SHELL, 0, 1000);
	sw(&r, SHELL, PREEMPT, 1300);
	sw(&r, SHELL, 0, 2000);
	task(&r, PERF_RECORD_FORK, 101, SHELL, 2050);
	sw(&r, SHELL, OUT, 2100);
	comm_exec(&r, 101, 2150);
	sw(&r, SHELL, 0, 2200);      /* back from vfork */
	sw(&r, SHELL, OUT, 2210);    /* asleep in wait4 */
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 6000);
	sw(&r, SHELL, 0, 6100);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 6140);
	/* 300 + 100 + 10 + 40 = 450 */
	CHECK_NEAR(cpu(&r, 0), 450 * NS, 1e-12);
	/* (2150 - 1000) + (6140 - 6000 - 100 wake) = 1150 + 40, released
	 * at 900 or when it first ran */
	CHECK_NEAR(serial(&r, 0, 900), 1190 * NS, 1e-12);
	CHECK_NEAR(serial(&r, 0, 1000), 1190 * NS, 1e-12);
}

static double reap(const struct ring *r, int execs_before, uint64_t end)
{
	return sideband_reap_from(r->data, r->size, r->head, SHELL,
				  execs_before, end);
}

/* cbench's wait to reap the shell: from the shell's own exit record to
 * the reap, whatever its children did; processes it left running that
 * exit later do not move it; a reap stamped before the record (clocks
 * read in another order) is 0, never negative. */
static void test_reap_after_the_shells_exit(void)
{
	struct ring r;
	ring_init(&r, 4096);
	with_program(&r);                   /* the shell exits at 5120 */
	CHECK_NEAR(reap(&r, 0, 5300), 180 * NS, 1e-12);   /* 5300 - 5120 */
	task(&r, PERF_RECORD_EXIT, 102, SHELL, 5200);     /* left running */
	CHECK_NEAR(reap(&r, 0, 5300), 180 * NS, 1e-12);   /* still 5120 */
	CHECK(reap(&r, 0, 5100) == 0);
	/* a shell of threads (-S) is reaped after its last thread's exit */
	thread(&r, PERF_RECORD_EXIT, SHELL, 103, 1, 5250);
	CHECK_NEAR(reap(&r, 0, 5300), 50 * NS, 1e-12);    /* 5300 - 5250 */
	/* a line without a program (builtins only, a subshell's fork at
	 * most) is the program itself: its reap is its own, nothing is
	 * taken off */
	forked(&r);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 1300);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 1500);
	CHECK(reap(&r, 0, 1640) == 0);
}

/* A shell that exec'd in place is the program: its reap is a direct
 * run's, nothing is taken off (0); opened before its own exec, that exec
 * is not one in place; with records overwritten an exec in place cannot
 * be ruled out: unknown. */
static void test_reap_exec_in_place(void)
{
	struct ring r;
	ring_init(&r, 4096);
	sw(&r, SHELL, 0, 1000);
	comm_exec(&r, SHELL, 1050);
	task(&r, PERF_RECORD_FORK, 101, SHELL, 1100);
	comm_exec(&r, 101, 1150);
	task(&r, PERF_RECORD_EXIT, 101, SHELL, 5000);
	task(&r, PERF_RECORD_EXIT, SHELL, 1, 5120);
	CHECK(reap(&r, 0, 5300) == 0);
	CHECK_NEAR(reap(&r, 1, 5300), 180 * NS, 1e-12);   /* 5300 - 5120 */
	for (int before = 0; before <= 1; before++) {
		ring_init(&r, 256);   /* five 48-byte records and some */
		if (before)
			comm_exec(&r, SHELL, 900);
		comm_exec(&r, 101, 1000);
		for (uint32_t i = 0; i < 20; i++)
			task(&r, PERF_RECORD_EXIT, 200 + i, 150, 1300 + 10 * i);
		task(&r, PERF_RECORD_EXIT, SHELL, 1, 5120);
		CHECK(isnan(reap(&r, before, 5300)));
	}
	/* nothing written, or no exit of its own yet: unknown */
	ring_init(&r, 4096);
	CHECK(isnan(reap(&r, 0, 5300)));
	sw(&r, SHELL, 0, 1000);
	CHECK(isnan(reap(&r, 0, 5300)));
}

int main(void)
{
	RUN(test_wake_after_the_program);
	RUN(test_later_exits_ignored);
	RUN(test_last_exit_counts);
	RUN(test_not_asleep_is_zero);
	RUN(test_sleeps_after_the_exit_count);
	RUN(test_no_child_is_zero);
	RUN(test_own_children_only);
	RUN(test_exec_in_place_is_zero);
	RUN(test_unknown_is_nan);
	RUN(test_overwritten_records);
	RUN(test_malformed_header_stops);
	RUN(test_serial_around_the_program);
	RUN(test_serial_pipeline_and_subshell);
	RUN(test_serial_no_program);
	RUN(test_serial_exec_in_place);
	RUN(test_serial_overwritten);
	RUN(test_cpu_stretches);
	RUN(test_reap_after_the_shells_exit);
	RUN(test_reap_exec_in_place);
	UNIT_EXIT();
}
