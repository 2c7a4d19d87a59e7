/*
 * metric_output.c: custom metrics read from a command's output (see
 * metric_output.h).
 *
 * Patterns are PCRE2's (Perl-compatible).  Its matcher does not unroll
 * repetitions or build an automaton, so compiling takes time and memory
 * in proportion to the pattern, and every match is bounded by a match,
 * depth and heap limit (a pattern that backtracks without end on a long
 * line fails that run with a message instead of hanging it).  The output
 * is read in blocks, one line at a time, so memory stays bounded whatever
 * the output's size; the search stops once every metric has its value.
 */
#include "metric_output.h"
#include "diag.h"
#include "xalloc.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* A pattern longer than this is refused (a typo, not a metric). */
#define PATTERN_MAX_LEN 1000
/* PCRE2's limits for one line: backtracking steps, nested backtracking
 * depth, and the heap its matcher may use (KiB). */
#define MATCH_LIMIT 10000000
#define DEPTH_LIMIT 100000
#define HEAP_LIMIT_KIB 65536
/* What is read at a time, and the longest line searched: a longer line
 * is searched in its first LINE_MAX_BYTES. */
#define BLOCK_BYTES 65536
#define LINE_MAX_BYTES (1 << 20)

struct metric_output {
	int n;
	int id[MET_CUSTOM_MAX];
	pcre2_code *re[MET_CUSTOM_MAX];
	pcre2_match_data *md[MET_CUSTOM_MAX];
	pcre2_match_context *mctx;
	int fd;                  /* the memory file */
	char *line;              /* the line being assembled */
	size_t cap;
};

/* Strip one trailing ",unit=U", ",higher-is-better" or ",lower-is-better"
 * from s[0..*len): options come last, so a pattern may hold commas. */
static bool strip_option(const char *s, size_t *len, const char **unit,
			 size_t *unit_len, int *higher)
{
	const char *comma = NULL;
	for (size_t i = *len; i-- > 0;)
		if (s[i] == ',') {
			comma = s + i;
			break;
		}
	if (comma == NULL)
		return false;
	const char *o = comma + 1;
	size_t olen = (size_t)(s + *len - o);
	if (olen == 16 && strncmp(o, "higher-is-better", 16) == 0 && *higher < 0)
		*higher = 1;
	else if (olen == 15 && strncmp(o, "lower-is-better", 15) == 0 && *higher < 0)
		*higher = 0;
	else if (olen >= 5 && strncmp(o, "unit=", 5) == 0 && *unit == NULL) {
		*unit = o + 5;
		*unit_len = olen - 5;
	} else
		return false;
	*len = (size_t)(comma - s);
	return true;
}

/* pattern compiled, or NULL with PCRE2's reason in err. */
static pcre2_code *compile(const char *pattern, char *err, size_t errlen)
{
	int code;
	PCRE2_SIZE at;
	pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED,
				       0, &code, &at, NULL);
	if (re == NULL) {
		PCRE2_UCHAR msg[120];
		if (pcre2_get_error_message(code, msg, sizeof msg) < 0)
			snprintf((char *)msg, sizeof msg, "error %d", code);
		snprintf(err, errlen, "%s at offset %zu", (char *)msg, (size_t)at);
	}
	return re;
}

static pcre2_match_context *match_context(void)
{
	pcre2_match_context *m = pcre2_match_context_create(NULL);
	if (m == NULL)
		diag_out_of_memory();
	pcre2_set_match_limit(m, MATCH_LIMIT);
	pcre2_set_depth_limit(m, DEPTH_LIMIT);
	pcre2_set_heap_limit(m, HEAP_LIMIT_KIB);
	return m;
}

int metric_output_define(const char *spec, char *err, size_t errlen)
{
	const char *eq = strchr(spec, '=');
	if (eq == NULL || eq == spec || eq[1] == '\0') {
		snprintf(err, errlen, "expected NAME=REGEX[,unit=UNIT]"
			 "[,higher-is-better]");
		return -1;
	}
	const char *pat = eq + 1, *unit = NULL;
	size_t plen = strlen(pat), ulen = 0;
	int higher = -1;
	while (strip_option(pat, &plen, &unit, &ulen, &higher))
		;
	if (plen == 0) {
		snprintf(err, errlen, "the regular expression is empty");
		return -1;
	}
	char *name = xstrndup(spec, (size_t)(eq - spec));
	char *pattern = xstrndup(pat, plen);
	char *unit_text = xstrndup(unit ? unit : "", ulen);
	char why[160];
	int id = -1;
	pcre2_code *re = NULL;
	if (plen > PATTERN_MAX_LEN)
		snprintf(err, errlen, "the regular expression '%.60s...' is refused: "
			 "longer than %d characters", pattern, PATTERN_MAX_LEN);
	else if ((re = compile(pattern, why, sizeof why)) == NULL) {
		snprintf(err, errlen, "the regular expression '%s' does not "
			 "compile: %s", pattern, why);
	} else {
		pcre2_code_free(re);
		id = metric_define(name, unit_text, higher == 1, pattern, err, errlen);
		if (id >= 0 && metric_info((enum metric_id)id)->pattern &&
		    strcmp(metric_info((enum metric_id)id)->pattern, pattern) != 0) {
			snprintf(err, errlen, "metric '%s' is given twice", name);
			id = -1;
		}
	}
	free(name);
	free(pattern);
	free(unit_text);
	return id;
}

/* "12.5", " 3e6 ": the whole text a number (strtod's forms, no "inf" or
 * "nan"). */
static bool parse_number(const char *s, size_t len, double *v)
{
	char tmp[64];
	while (len > 0 && (*s == ' ' || *s == '\t'))
		s++, len--;
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' ||
			   s[len - 1] == '\r'))
		len--;
	if (len == 0 || len >= sizeof tmp)
		return false;
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	char *end;
	errno = 0;
	double x = strtod(tmp, &end);
	if (end != tmp + len || errno == ERANGE || !isfinite(x))
		return false;
	*v = x;
	return true;
}

/* How one line matches re: FOUND with the value (the first group if it
 * has one and took part, else the whole match), NOT_NUMBER, NO_MATCH, or
 * LIMIT when PCRE2's limits stopped the search (why says so). */
static enum metric_scan match_line(const pcre2_code *re, pcre2_match_data *md,
				   pcre2_match_context *mctx, const char *p,
				   size_t n, double *value, char *why, size_t whylen)
{
	int rc = pcre2_match(re, (PCRE2_SPTR)p, n, 0, 0, md, mctx);
	if (rc == PCRE2_ERROR_NOMATCH)
		return METRIC_NO_MATCH;
	if (rc < 0) {
		PCRE2_UCHAR msg[80];
		if (pcre2_get_error_message(rc, msg, sizeof msg) < 0)
			snprintf((char *)msg, sizeof msg, "error %d", rc);
		snprintf(why, whylen, "the pattern stopped on a line of %zu bytes: "
			 "%.80s", n, (char *)msg);
		return METRIC_LIMIT;
	}
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
	int g = rc >= 2 && ov[2] != PCRE2_UNSET ? 1 : 0;
	const char *s = p + ov[2 * g];
	size_t len = ov[2 * g + 1] - ov[2 * g];
	if (parse_number(s, len, value))
		return METRIC_FOUND;
	snprintf(why, whylen, "'%.*s' is not a number", len > 40 ? 40 : (int)len, s);
	return METRIC_NOT_NUMBER;
}

/* The lines of a stream, read in blocks: next_line gives each line
 * (without its newline, cut at LINE_MAX_BYTES) until the end. */
struct lines {
	int fd;
	off_t at;                /* where the next block is read */
	char block[BLOCK_BYTES];
	size_t pos, len;         /* the unread part of block */
	bool eof;
	char **line;             /* assembled here (grown to LINE_MAX_BYTES) */
	size_t *cap;
	int err;                 /* errno of a failed read */
};

static bool fill(struct lines *l)
{
	for (;;) {
		ssize_t r = pread(l->fd, l->block, sizeof l->block, l->at);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			l->err = errno;
		if (r <= 0) {
			l->eof = true;
			return false;
		}
		l->at += r;
		l->pos = 0;
		l->len = (size_t)r;
		return true;
	}
}

/* The next line in *l->line, its length in *n; false at the end. */
static bool next_line(struct lines *l, size_t *n)
{
	size_t used = 0;
	bool any = false;
	while (l->pos < l->len || (!l->eof && fill(l))) {
		any = true;
		const char *b = l->block + l->pos;
		size_t avail = l->len - l->pos;
		const char *nl = memchr(b, '\n', avail);
		size_t take = nl ? (size_t)(nl - b) : avail;
		size_t keep = used + take > LINE_MAX_BYTES ? LINE_MAX_BYTES - used : take;
		if (keep) {
			xgrow((void **)l->line, l->cap, used + keep + 1, 1);
			memcpy(*l->line + used, b, keep);
			used += keep;
		}
		l->pos += take + (nl != NULL);
		if (nl)
			break;
	}
	if (!any)
		return false;
	xgrow((void **)l->line, l->cap, used + 1, 1);
	(*l->line)[used] = '\0';
	*n = used;
	return true;
}

/*
 * Search the lines of fd from offset from for every pattern of re[k]
 * (k < n), each for its first matching line: v[k] and how[k] (why[k] for
 * the failures).  Returns 0, or -1 on a read error (errno set).
 */
static int scan_fd(int fd, off_t from, int n, pcre2_code *const *re,
		   pcre2_match_data *const *md, pcre2_match_context *mctx,
		   char **line, size_t *cap, double *v, enum metric_scan *how,
		   char (*why)[160])
{
	struct lines *l = xcalloc(1, sizeof *l);
	l->fd = fd;
	l->at = from;
	l->line = line;
	l->cap = cap;
	int open = n;
	for (int k = 0; k < n; k++) {
		how[k] = METRIC_NO_MATCH;
		v[k] = NAN;
	}
	size_t len;
	while (open > 0 && next_line(l, &len)) {
		for (int k = 0; k < n; k++) {
			if (how[k] != METRIC_NO_MATCH)
				continue;
			how[k] = match_line(re[k], md[k], mctx, *line, len, &v[k],
					    why[k], sizeof why[k]);
			open -= how[k] != METRIC_NO_MATCH;
		}
	}
	for (int k = 0; k < n; k++)
		if (how[k] == METRIC_NO_MATCH)
			snprintf(why[k], sizeof why[k], "no line of its output matches");
	int e = l->err;
	free(l);
	errno = e;
	return e ? -1 : 0;
}

enum metric_scan metric_output_scan(const char *pattern, const char *text,
				    size_t len, double *value, char *why,
				    size_t whylen)
{
	char err[160];
	pcre2_code *re = compile(pattern, err, sizeof err);
	if (re == NULL) {
		snprintf(why, whylen, "%s", err);
		return METRIC_LIMIT;
	}
	pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
	pcre2_match_context *mctx = match_context();
	int fd = memfd_create("cbench-scan", MFD_CLOEXEC);
	enum metric_scan how = METRIC_LIMIT;
	char w[1][160];
	char *line = NULL;
	size_t cap = 0;
	if (fd >= 0 && md && write(fd, text, len) == (ssize_t)len &&
	    scan_fd(fd, 0, 1, &re, &md, mctx, &line, &cap, value, &how, w) == 0)
		snprintf(why, whylen, "%s", w[0]);
	else
		snprintf(why, whylen, "cannot scan: %s", strerror(errno));
	if (fd >= 0)
		close(fd);
	free(line);
	pcre2_match_context_free(mctx);
	pcre2_match_data_free(md);
	pcre2_code_free(re);
	return how;
}

struct metric_output *metric_output_open(int *rc, char *err, size_t errlen)
{
	*rc = 0;
	struct metric_output *mo = NULL;
	for (int m = MET_CUSTOM_FIRST; m < MET_COUNT; m++) {
		const struct metric_info *mi = metric_info((enum metric_id)m);
		if (!metric_defined((enum metric_id)m) || mi->pattern == NULL)
			continue;
		if (mo == NULL) {
			mo = xcalloc(1, sizeof *mo);
			mo->fd = -1;
			mo->mctx = match_context();
		}
		char why[160];
		mo->re[mo->n] = compile(mi->pattern, why, sizeof why);
		mo->md[mo->n] = mo->re[mo->n]
			? pcre2_match_data_create_from_pattern(mo->re[mo->n], NULL) : NULL;
		if (mo->md[mo->n] == NULL) {
			snprintf(err, errlen, "the regular expression '%s' does not "
				 "compile: %s", mi->pattern, mo->re[mo->n] ? "out of memory"
				 : why);
			pcre2_code_free(mo->re[mo->n]);
			*rc = -1;
			metric_output_free(mo);
			return NULL;
		}
		mo->id[mo->n++] = m;
	}
	if (mo == NULL)
		return NULL;
	mo->fd = memfd_create("cbench-output", MFD_CLOEXEC);
	if (mo->fd < 0) {
		snprintf(err, errlen, "memfd_create: %s", strerror(errno));
		*rc = -1;
		metric_output_free(mo);
		return NULL;
	}
	return mo;
}

void metric_output_free(struct metric_output *mo)
{
	if (mo == NULL)
		return;
	for (int k = 0; k < mo->n; k++) {
		pcre2_match_data_free(mo->md[k]);
		pcre2_code_free(mo->re[k]);
	}
	pcre2_match_context_free(mo->mctx);
	if (mo->fd >= 0)
		close(mo->fd);
	free(mo->line);
	free(mo);
}

int metric_output_fd(const struct metric_output *mo)
{
	return mo->fd;
}

void metric_output_rewind(struct metric_output *mo)
{
	/* The command's descriptor shares this one's offset. */
	if (ftruncate(mo->fd, 0) == 0)
		lseek(mo->fd, 0, SEEK_SET);
}

int metric_output_read(struct metric_output *mo, int fd, off_t from,
		       double v[MET_COUNT], int *missing, char *why,
		       size_t whylen)
{
	double got[MET_CUSTOM_MAX];
	enum metric_scan how[MET_CUSTOM_MAX];
	char w[MET_CUSTOM_MAX][160];
	if (scan_fd(fd, from, mo->n, mo->re, mo->md, mo->mctx, &mo->line,
		    &mo->cap, got, how, w) != 0) {
		snprintf(why, whylen, "cannot read the output: %s", strerror(errno));
		return -2;
	}
	int rc = 0;
	for (int k = 0; k < mo->n; k++) {
		v[mo->id[k]] = how[k] == METRIC_FOUND ? got[k] : NAN;
		if (how[k] != METRIC_FOUND && rc == 0) {   /* the first is told */
			*missing = mo->id[k];
			snprintf(why, whylen, "%s", w[k]);
			rc = -1;
		}
	}
	return rc;
}
