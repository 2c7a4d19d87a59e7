/*
 * metric_output.c: custom metrics read from a command's output (see
 * metric_output.h).
 */
#include "metric_output.h"
#include "xalloc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct metric_output {
	int n;
	int id[MET_CUSTOM_MAX];
	regex_t re[MET_CUSTOM_MAX];
	int fd;                  /* the memory file */
	char *buf;               /* the last run's output, lines NUL-ended */
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

/*
 * glibc's regcomp unrolls repetitions: X{m,n} becomes n copies of X and X+
 * two, so its memory grows with the product of the repetitions nested
 * around an atom ("((((a)+)+)+)+" 20 deep took 12 GB here, 12 deep 26 MB;
 * "a{2}{2}..." 20 times 700 MB).  An upper estimate of the unrolled size,
 * the atoms counted with their multipliers, must stay under
 * PATTERN_MAX_UNROLLED.  Groups and bars are nodes too and count as one
 * each: "(((()+)+)+)+" nested 22 deep holds no atom, yet regcomp ran out
 * of time on it.
 *
 * Its time also grows exponentially with the nesting of repetitions of
 * what can match the empty string (its epsilon closures,
 * calc_eclosure_iter): "(((($)+)+)+)+" took 0.12 s, five deep more than
 * 2 s, "($)*" 14 deep 3.6 s, "(a*)+" 9 deep 2.2 s (both found by
 * fuzz_cli).  Such repetitions may nest PATTERN_MAX_EMPTY_LOOPS deep; a
 * repetition of what cannot match empty ("([0-9]+,)*") does not count.
 */
#define PATTERN_MAX_UNROLLED 1000.0
#define PATTERN_MAX_LEN 1000
#define PATTERN_MAX_DEPTH 32
#define PATTERN_MAX_EMPTY_LOOPS 2
/* And what such a repetition repeats may hold at most this many pieces
 * that match the empty string (anchors, empty alternatives and groups,
 * counted with their repetitions): "(a|$|^|\b)*" took 0.58 s,
 * "(($|^)...)*" ten times 51 s, "(\b\b\b\b\b\b\b)*" 0.27 s; "(a|$|^)*" and
 * "(\b|$)*" take 3 ms. */
#define PATTERN_MAX_EMPTY_PIECES 2.0

/* One group being read: its size so far, and what its last operand (the
 * one a repetition applies to) and the rest can match. */
struct re_level {
	double total;            /* unrolled nodes so far */
	double last;             /* of the last operand */
	bool alt_empty;          /* an alternative before the last '|' matches "" */
	bool pre_empty;          /* the operands before the last one match "" */
	bool has_last;
	bool last_empty;         /* the last operand matches "" */
	int last_loops;          /* repetitions of "" nested in the last operand */
	int loops;               /* the most in the group */
	double empties;          /* anchors and empty alternatives, unrolled */
	double last_empties;     /* of the last operand */
};

static void level_start(struct re_level *l, double total)
{
	*l = (struct re_level){.total = total, .pre_empty = true,
			       .last_empty = true};
}

static bool level_empty(const struct re_level *l)
{
	return l->alt_empty || (l->pre_empty && (!l->has_last || l->last_empty));
}

static void level_operand(struct re_level *l, double size, bool empty,
			  int loops, double empties)
{
	l->empties += empties;
	l->last_empties = empties;
	l->pre_empty = l->pre_empty && (!l->has_last || l->last_empty);
	l->has_last = true;
	l->total += size;
	l->last = size;
	l->last_empty = empty;
	l->last_loops = loops;
	if (loops > l->loops)
		l->loops = loops;
}

/* An anchor: matches the empty string ('^', '$', \b \B \< \> \` \'). */
static bool is_anchor(const char *p)
{
	return *p == '^' || *p == '$' ||
	       (p[0] == '\\' && p[1] && strchr("bB<>`'", p[1]) != NULL);
}

/* A repetition (mult copies once unrolled) of l's last operand, which
 * then may match "" (may_be_empty); at the start, or after '(' or '|', it
 * repeats nothing (glibc refuses it or takes it literally).  False, with
 * the reason, when it is refused. */
static bool level_repeat(struct re_level *l, double mult, bool may_be_empty,
			 char *err, size_t errlen)
{
	if (l->has_last && l->last_empty) {
		if (l->last_empties > PATTERN_MAX_EMPTY_PIECES) {
			snprintf(err, errlen, "it repeats what can match the "
				 "empty string and holds more than %.0f "
				 "anchors or empty alternatives "
				 "(regcomp would take too long)",
				 PATTERN_MAX_EMPTY_PIECES);
			return false;
		}
		l->last_loops++;
		if (l->last_loops > l->loops)
			l->loops = l->last_loops;
		if (l->loops > PATTERN_MAX_EMPTY_LOOPS) {
			snprintf(err, errlen, "it repeats what can match the "
				 "empty string, nested more than %d deep "
				 "(regcomp would take too long)",
				 PATTERN_MAX_EMPTY_LOOPS);
			return false;
		}
	}
	if (l->has_last)
		l->last_empty = may_be_empty;
	l->total += l->last * (mult - 1);
	l->last *= mult;
	l->empties += l->last_empties * (mult - 1);
	l->last_empties *= mult;
	return true;
}

static bool pattern_tame(const char *p, char *err, size_t errlen)
{
	struct re_level lv[PATTERN_MAX_DEPTH + 1];
	int d = 0;
	if (strlen(p) > PATTERN_MAX_LEN) {
		snprintf(err, errlen, "longer than %d characters", PATTERN_MAX_LEN);
		return false;
	}
	level_start(&lv[0], 0);
	for (; *p; p++) {
		struct re_level *l = &lv[d];
		double mult;
		bool may_be_empty;   /* after the repetition */
		if (*p == '(') {
			if (d == PATTERN_MAX_DEPTH) {
				snprintf(err, errlen, "groups nested more than %d deep",
					 PATTERN_MAX_DEPTH);
				return false;
			}
			level_start(&lv[++d], 1);   /* the group's own node */
			continue;
		}
		if (*p == ')' && d > 0) {
			bool empty = level_empty(l);
			if (!l->has_last)   /* an empty alternative, or "()" */
				l->empties += 1;
			d--;
			level_operand(&lv[d], l->total, empty, l->loops, l->empties);
			continue;
		}
		if (*p == '|') {   /* a node of its own, like a group */
			if (!l->has_last)
				l->empties += 1;
			l->alt_empty = l->alt_empty || level_empty(l);
			l->total += 1;
			l->pre_empty = true;
			l->has_last = false;
			l->last = 0;
			continue;
		}
		if (*p == '*' || *p == '?') {
			mult = 1;
			may_be_empty = true;
		} else if (*p == '+') {
			mult = 2;
			may_be_empty = l->last_empty;
		} else if (*p == '{') {
			char *end;
			double lo = (double)strtol(p + 1, &end, 10), hi = lo;
			if (*end == ',')
				hi = end[1] == '}' ? lo + 1 : (double)strtol(end + 1, &end, 10);
			mult = fmax(1, fmax(lo, hi));
			may_be_empty = lo == 0 || l->last_empty;
			while (p[1] && *p != '}')
				p++;
		} else {
			bool anchor = is_anchor(p);
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '[') {   /* one atom: [...], []...], [^]...] */
				p += p[1] == '^' ? 2 : 1;
				if (*p == ']')
					p++;
				while (*p && *p != ']')
					p++;
				if (*p == '\0')
					break;
			}
			level_operand(l, 1, anchor, 0, anchor ? 1 : 0);
			continue;
		}
		if (!level_repeat(l, mult, may_be_empty, err, errlen))
			return false;
		if (l->total > PATTERN_MAX_UNROLLED)
			break;
	}
	for (; d >= 0; d--)
		if (lv[d].total > PATTERN_MAX_UNROLLED) {
			snprintf(err, errlen, "its repetitions unroll to more than "
				 "%.0f nodes (regcomp would need too much memory or time)",
				 PATTERN_MAX_UNROLLED);
			return false;
		}
	return true;
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
	regex_t re;
	char why[160];
	int rc = 0, id = -1;
	if (!pattern_tame(pattern, why, sizeof why))
		snprintf(err, errlen, "the regular expression '%.60s%s' is refused: "
			 "%s", pattern, strlen(pattern) > 60 ? "..." : "", why);
	else if ((rc = regcomp(&re, pattern, REG_EXTENDED)) != 0) {
		char msg[128];
		regerror(rc, &re, msg, sizeof msg);
		snprintf(err, errlen, "the regular expression '%s' does not "
			 "compile: %s", pattern, msg);
	} else {
		regfree(&re);
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

/* Search lines (each NUL-ended) of buf[0..len). */
static enum metric_scan scan_lines(const regex_t *re, const char *buf,
				   size_t len, double *value, char *why,
				   size_t whylen)
{
	regmatch_t g[2];
	for (const char *p = buf; p < buf + len; p += strlen(p) + 1) {
		if (regexec(re, p, 2, g, 0) != 0)
			continue;
		regmatch_t use = re->re_nsub >= 1 && g[1].rm_so >= 0 ? g[1] : g[0];
		const char *s = p + use.rm_so;
		size_t n = (size_t)(use.rm_eo - use.rm_so);
		if (parse_number(s, n, value))
			return METRIC_FOUND;
		snprintf(why, whylen, "'%.*s' is not a number", n > 40 ? 40 : (int)n, s);
		return METRIC_NOT_NUMBER;
	}
	snprintf(why, whylen, "no line of its output matches");
	return METRIC_NO_MATCH;
}

/* Make text[0..len) lines: every newline a NUL, and one NUL after. */
static void split_lines(char *text, size_t len)
{
	for (char *p = memchr(text, '\n', len); p; p = memchr(p + 1, '\n',
							     (size_t)(text + len - p - 1)))
		*p = '\0';
	text[len] = '\0';
}

enum metric_scan metric_output_scan(const regex_t *re, const char *text,
				    size_t len, double *value, char *why,
				    size_t whylen)
{
	char *copy = xmalloc(len + 1);
	memcpy(copy, text, len);
	split_lines(copy, len);
	enum metric_scan s = scan_lines(re, copy, len, value, why, whylen);
	free(copy);
	return s;
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
		}
		int c = regcomp(&mo->re[mo->n], mi->pattern, REG_EXTENDED);
		if (c != 0) {
			regerror(c, &mo->re[mo->n], err, errlen);
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
	for (int k = 0; k < mo->n; k++)
		regfree(&mo->re[k]);
	if (mo->fd >= 0)
		close(mo->fd);
	free(mo->buf);
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
	struct stat st;
	if (fstat(fd, &st) != 0) {
		snprintf(why, whylen, "cannot read the output: %s", strerror(errno));
		return -2;
	}
	size_t len = st.st_size > from ? (size_t)(st.st_size - from) : 0;
	xgrow((void **)&mo->buf, &mo->cap, len + 1, 1);
	size_t got = 0;
	while (got < len) {
		ssize_t r = pread(fd, mo->buf + got, len - got, from + (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			snprintf(why, whylen, "cannot read the output: %s",
				 strerror(errno));
			return -2;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	split_lines(mo->buf, got);
	int rc = 0;
	for (int k = 0; k < mo->n; k++) {
		char w[160];
		v[mo->id[k]] = NAN;
		if (scan_lines(&mo->re[k], mo->buf, got, &v[mo->id[k]], w,
			       sizeof w) == METRIC_FOUND)
			continue;
		v[mo->id[k]] = NAN;
		if (rc == 0) {   /* the first metric missing is told */
			*missing = mo->id[k];
			snprintf(why, whylen, "%s", w);
			rc = -1;
		}
	}
	return rc;
}
