/*
 * vgout.c: cachegrind output files read into simulated counts, and the
 * estimated cycles (see vgout.h).
 *
 * A cachegrind out file (Valgrind 3.19, cachegrind/cg_main.c) is
 *
 *     desc: I1 cache: ...        (with --cache-sim=yes)
 *     cmd: ./prog
 *     events: Ir I1mr ILmr Dr D1mr DLmr Dw D1mw DLmw
 *     fl=prog.c
 *     fn=main
 *     12 5 0 0 2 0 0 1 0 0       (line, then one count per event)
 *     ...
 *     summary: 209090 1269 1248 44987 1174 1023 20783 373 348
 *
 * Only the `events:` line and the `summary:` line are read: the summary
 * is the sum of the cost lines (tests/unit/test_vgout.c checks it on real
 * files), and cachegrind writes it last.  So a large file costs two reads,
 * its first MiB and its last 64 KiB, whatever its size.
 */
#include "vgout.h"
#include "xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The events: line lies in the header, within the first HEAD_MAX bytes
 * (a cmd: line may be long); the summary: line in the last TAIL_MAX. */
#define HEAD_MAX (1 << 20)
#define TAIL_MAX (1 << 16)

static const char *const event_names[VG_EVENTS] = {
	"Ir", "Dr", "Dw", "I1mr", "D1mr", "D1mw", "ILmr", "DLmr", "DLmw",
};

const char *vgout_event_name(enum vg_event e)
{
	return (unsigned)e < VG_EVENTS ? event_names[e] : "?";
}

int vgout_event_find(const char *name, size_t len)
{
	for (int e = 0; e < VG_EVENTS; e++)
		if (strlen(event_names[e]) == len && memcmp(event_names[e], name, len) == 0)
			return e;
	return -1;
}

bool vgout_number(const char **p, const char *end, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	int base = 10, digits = 0;
	if (end - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	for (; s < end; s++, digits++) {
		int d;
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			break;
		if (x > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return false;
		x = x * (uint64_t)base + (uint64_t)d;
	}
	if (digits == 0)
		return false;
	*p = s;
	*v = x;
	return true;
}

static double *count_of(struct sim_counts *c, int e)
{
	double *const f[VG_EVENTS] = {
		&c->ir, &c->dr, &c->dw, &c->i1mr, &c->d1mr, &c->d1mw,
		&c->ilmr, &c->dlmr, &c->dlmw,
	};
	return f[e];
}

static const char *skip_blanks(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
		s++;
	return s;
}

static bool starts(const char *s, const char *end, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(end - s) >= n && memcmp(s, word, n) == 0;
}

/* The columns of the events: line: col[i] is the event of the i-th
 * count (-1 for one read past); *n how many.  0, or -1 with a message. */
static int read_events(const char *s, const char *end, int col[], size_t max,
		       size_t *n, const char *name, char *err, size_t errlen)
{
	bool seen[VG_EVENTS] = {false};
	*n = 0;
	for (s = skip_blanks(s, end); s < end; s = skip_blanks(s, end)) {
		const char *w = s;
		while (s < end && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
		if (*n == max) {
			snprintf(err, errlen, "%s: more than %zu events", name, max);
			return -1;
		}
		int e = vgout_event_find(w, (size_t)(s - w));
		if (e >= 0 && seen[e]) {
			snprintf(err, errlen, "%s: event %s named twice on the events: line",
				 name, event_names[e]);
			return -1;
		}
		if (e >= 0)
			seen[e] = true;
		col[(*n)++] = e;
	}
	if (*n == 0) {
		snprintf(err, errlen, "%s: the events: line names no event", name);
		return -1;
	}
	return 0;
}

/* The events: line of the header in head[0..hlen): its text after the
 * colon in [*from, *to). */
static int find_events(const char *head, size_t hlen, const char **from,
		       const char **to, const char *name, char *err, size_t errlen)
{
	const char *s = head, *end = head + hlen;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *eol = nl ? nl : end;
		if (starts(s, eol, "events:")) {
			*from = s + 7;
			*to = eol;
			return 0;
		}
		/* The costs begin: fl=, fn=, or a line number. */
		if (starts(s, eol, "fl=") || starts(s, eol, "fn=") ||
		    (s < eol && *s >= '0' && *s <= '9'))
			break;
		s = nl ? nl + 1 : end;
	}
	snprintf(err, errlen, "%s: no events: line in its header: not a cachegrind output file",
		 name);
	return -1;
}

/* The last line of tail[0..tlen), which ends the file: [*from, *to). */
static int last_line(const char *tail, size_t tlen, const char **from,
		     const char **to, const char *name, char *err, size_t errlen)
{
	size_t n = tlen;
	if (n == 0 || tail[n - 1] != '\n') {
		snprintf(err, errlen, "%s: %s: the file is cut short (the process "
			 "killed while Valgrind wrote it?)", name,
			 n == 0 ? "empty" : "no newline at its end");
		return -1;
	}
	while (n > 0 && tail[n - 1] == '\n')
		n--;
	const char *start = tail;
	for (size_t i = n; i > 0; i--)
		if (tail[i - 1] == '\n') {
			start = tail + i;
			break;
		}
	*from = start;
	*to = tail + n;
	return 0;
}

/* One file, its header in head and its end in tail (the same buffer when
 * it was read whole), into *out (zeroed first). */
static int parse(const char *head, size_t hlen, const char *tail, size_t tlen,
		 const char *name, struct sim_counts *out, char *err, size_t errlen)
{
	enum { MAX_EVENTS = 64 };
	int col[MAX_EVENTS];
	size_t ncol;
	const char *ev, *ev_end, *sum, *sum_end;
	if (last_line(tail, tlen, &sum, &sum_end, name, err, errlen) < 0 ||
	    find_events(head, hlen, &ev, &ev_end, name, err, errlen) < 0 ||
	    read_events(ev, ev_end, col, MAX_EVENTS, &ncol, name, err, errlen) < 0)
		return -1;
	if (!starts(sum, sum_end, "summary:")) {
		snprintf(err, errlen, "%s: no summary: line at its end: the file is "
			 "cut short (the process killed while Valgrind wrote it?)", name);
		return -1;
	}
	bool have[VG_EVENTS] = {false};
	double v[VG_EVENTS] = {0};
	const char *s = sum + 8;
	for (size_t i = 0; i < ncol; i++) {
		uint64_t x;
		s = skip_blanks(s, sum_end);
		if (!vgout_number(&s, sum_end, &x)) {
			snprintf(err, errlen, "%s: the summary: line has %zu counts "
				 "where the events: line names %zu", name, i, ncol);
			return -1;
		}
		if (col[i] >= 0) {
			v[col[i]] = (double)x;
			have[col[i]] = true;
		}
	}
	if (skip_blanks(s, sum_end) != sum_end) {
		snprintf(err, errlen, "%s: the summary: line has more counts than "
			 "the events: line names, or something else", name);
		return -1;
	}
	for (int e = 0; e < VG_EVENTS; e++)
		*count_of(out, e) = have[e] ? v[e] : NAN;
	return 0;
}

/* c += one; cache when all eight cache counts are numbers. */
static void add(struct sim_counts *c, struct sim_counts *one)
{
	c->cache = true;
	for (int e = 0; e < VG_EVENTS; e++) {
		*count_of(c, e) += *count_of(one, e);
		if (e != VG_IR && isnan(*count_of(c, e)))
			c->cache = false;
	}
}

int vgout_add_text(struct sim_counts *c, const char *text, size_t len,
		   const char *name, char *err, size_t errlen)
{
	struct sim_counts one;
	if (parse(text, len, text, len, name, &one, err, errlen) < 0)
		return -1;
	add(c, &one);
	return 0;
}

/* len bytes at off of fd into a new buffer. */
static char *read_at(int fd, off_t off, size_t len, const char *path,
		     char *err, size_t errlen)
{
	char *buf = xmalloc(len + 1);
	size_t got = 0;
	while (got < len) {
		ssize_t r = pread(fd, buf + got, len - got, off + (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(err, errlen, "cannot read '%s': %s", path,
				 r < 0 ? strerror(errno) : "it shrank while read");
			free(buf);
			return NULL;
		}
		got += (size_t)r;
	}
	buf[len] = '\0';
	return buf;
}

/* A descriptor of path, a regular file, and its size; -1 with a message. */
static int open_regular(const char *path, size_t *size, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "cannot read '%s': not a regular file", path);
		close(fd);
		return -1;
	}
	*size = (size_t)st.st_size;
	return fd;
}

int vgout_add_file(struct sim_counts *c, const char *path, char *err,
		   size_t errlen)
{
	size_t size;
	int fd = open_regular(path, &size, err, errlen);
	if (fd < 0)
		return -1;
	char *head, *tail = NULL;
	size_t hlen = size, tlen = size;
	if (size <= HEAD_MAX + TAIL_MAX) {
		head = read_at(fd, 0, size, path, err, errlen);
	} else {
		hlen = HEAD_MAX;
		tlen = TAIL_MAX;
		head = read_at(fd, 0, hlen, path, err, errlen);
		if (head != NULL)
			tail = read_at(fd, (off_t)(size - tlen), tlen, path, err, errlen);
		if (tail == NULL) {
			free(head);
			head = NULL;
		}
	}
	close(fd);
	if (head == NULL)
		return -1;
	struct sim_counts one;
	int rc = parse(head, hlen, tail ? tail : head, tlen, path, &one, err, errlen);
	if (rc == 0)
		add(c, &one);
	free(head);
	free(tail);
	return rc;
}

static int add_file(void *c, const char *path, char *err, size_t errlen)
{
	return vgout_add_file(c, path, err, errlen);
}

int vgout_add_dir(struct sim_counts *c, const char *dir, const char *prefix,
		  size_t *files, char *err, size_t errlen)
{
	struct sim_counts sum = {0};
	if (vgout_each_file(dir, prefix, add_file, &sum, files, err, errlen) < 0)
		return -1;
	add(c, &sum);
	return 0;
}

/*
 * Estimated cycles, by Itamar Turner-Trauring's formula ("Consistent
 * benchmarking in CI", https://pythonspeed.com/articles/consistent-benchmarking-in-ci/):
 *
 *     RAM hits = ILmr + DLmr + DLmw             (last-level misses)
 *     LL hits  = (I1mr + D1mr + D1mw) - RAM hits (first-level misses less those)
 *     L1 hits  = (Ir + Dr + Dw) - RAM hits - LL hits
 *     cycles   = L1 hits + 5 x LL hits + 35 x RAM hits
 *
 * Checked against iai-callgrind's source (the crate Gungraun was renamed
 * from): iai-callgrind-runner/src/runner/callgrind/mod.rs,
 * CyclesEstimator::calculate, `let cycles = l1_hits + (l3_hits * 5) +
 * (ram_hits * 35);` with l3_hits and l1_hits computed as above, its
 * subtractions saturating at zero as here (its test case "artificial",
 * counts 1..9, gives 840; "real_world" gives 3683: both are in
 * tests/unit/test_vgout.c).
 */
double vgout_estimated_cycles(const struct sim_counts *c)
{
	if (!c->cache || isnan(c->ir) || isnan(c->dr) || isnan(c->dw))
		return NAN;
	double ram = c->ilmr + c->dlmr + c->dlmw;
	double ll = fmax(0, c->i1mr + c->d1mr + c->d1mw - ram);
	double l1 = fmax(0, fmax(0, c->ir + c->dr + c->dw - ram) - ll);
	return l1 + 5 * ll + 35 * ram;
}

char *vgout_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
	size_t size;
	int fd = open_regular(path, &size, err, errlen);
	if (fd < 0)
		return NULL;
	char *buf = read_at(fd, 0, size, path, err, errlen);
	close(fd);
	if (buf != NULL)
		*len = size;
	return buf;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int vgout_each_file(const char *dir, const char *prefix,
		    int (*fn)(void *arg, const char *path, char *err, size_t errlen),
		    void *arg, size_t *files, char *err, size_t errlen)
{
	*files = 0;
	DIR *d = opendir(dir);
	if (d == NULL) {
		snprintf(err, errlen, "cannot read directory '%s': %s", dir, strerror(errno));
		return -1;
	}
	char **paths = NULL;
	size_t cap = 0, n = 0, plen = strlen(prefix);
	struct dirent *de;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, prefix, plen) != 0)
			continue;
		char *p = xasprintf("%s/%s", dir, de->d_name);
		struct stat st;
		if (stat(p, &st) < 0 || !S_ISREG(st.st_mode)) {
			free(p);
			continue;
		}
		xgrow((void **)&paths, &cap, n + 1, sizeof *paths);
		paths[n++] = p;
	}
	closedir(d);
	if (n > 1)
		qsort(paths, n, sizeof *paths, by_name);
	*files = n;
	int rc = 0;
	if (n == 0) {
		snprintf(err, errlen, "no Valgrind output %s/%s* (did the command run "
			 "under valgrind?)", dir, prefix);
		rc = -1;
	}
	for (size_t i = 0; i < n && rc == 0; i++)
		rc = fn(arg, paths[i], err, errlen);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	return rc;
}
