/*
 * report.c: prints a run on the terminal from the runner's events.
 *
 * Sequential order prints a benchmark's header when it starts (before its
 * setup and warmups) and its report when it is done; interleaved and
 * shuffled orders print header and report together as each report falls
 * due (the runner sends them in plan order).  The shell calibration's note
 * carries the start-up cost the report shows beside times under a shell.
 */
#include "report.h"
#include "diag.h"
#include "export_text.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct report {
	struct text_style style;
	struct analysis *an;      /* the invocation's analysis document */
	bool seq;                 /* --order=sequential */
	bool notes;               /* notes are shown (not --quiet, --style none) */
	bench_done_fn results;    /* the exports' callback, or NULL */
	void *results_arg;
};

struct report *report_new(const struct report_options *o, const struct plan *plan,
			  struct analysis *an)
{
	struct report *rep = xcalloc(1, sizeof *rep);
	rep->an = an;
	rep->style = text_style_from(o);
	rep->seq = plan->order == ORDER_SEQUENTIAL;
	rep->notes = !o->quiet && o->style != STYLE_NONE;
	return rep;
}

void report_set_cause(struct report *rep,
		      bool (*fn)(void *arg, char *buf, size_t len), void *arg)
{
	rep->style.likely_cause = fn;
	rep->style.cause_arg = arg;
}

void report_free(struct report *rep)
{
	free(rep);
}

/* One runner message, the way diag prints cbench's own. */
static void print_message(const struct bench_message *m)
{
	switch (m->severity) {
	case BENCH_NOTE:
		diag_note("%s", m->text);
		break;
	case BENCH_WARNING:
		diag_warning("%s", m->text);
		break;
	case BENCH_ERROR:
		diag_error("%s", m->text);
		break;
	case BENCH_USAGE:
		diag_usage("%s", m->text);
		break;
	}
}

/*
 * The counters note ("hardware counters unavailable: ...") is about the
 * machine, not the run: it is shown once per machine and text.  The text
 * last shown is kept in $XDG_CACHE_HOME/cbench/counters-note-HOST (or
 * ~/.cache/cbench/...); the same text again is not shown.  Any failure to
 * read or write the file only means the note shows (never an error).
 */
static bool note_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	char host[128] = "";
	if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0' ||
	    strchr(host, '/'))
		snprintf(host, sizeof host, "localhost");
	int n;
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/cbench", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.cache/cbench", home);
	else
		return false;
	if (n < 0 || (size_t)n >= len)
		return false;
	/* The cache directory and ours, 0700 like other tools' caches. */
	char *slash = strrchr(buf, '/');
	*slash = '\0';
	if (mkdir(buf, 0700) != 0 && errno != EEXIST)
		return false;
	*slash = '/';
	if (mkdir(buf, 0700) != 0 && errno != EEXIST)
		return false;
	n = snprintf(buf + n, len - (size_t)n, "/counters-note-%s", host);
	return n > 0 && (size_t)n < len;
}

/* Was this note shown on this machine before?  If not, remember it. */
static bool note_seen(const char *text)
{
	char path[4096], tmp[4200], old[DIAG_MSG_MAX + 2] = "";
	if (!note_path(path, sizeof path))
		return false;
	FILE *f = fopen(path, "re");
	if (f) {
		size_t n = fread(old, 1, sizeof old - 1, f);
		old[n] = '\0';
		fclose(f);
		if (strcmp(old, text) == 0)
			return true;
	}
	/* Written beside it and renamed, so a reader never sees half. */
	snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return false;
	size_t len = strlen(text);
	bool ok = write(fd, text, len) == (ssize_t)len;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) != 0)
		unlink(tmp);
	return false;
}

static void on_message(void *arg, const struct bench_message *m)
{
	struct report *rep = arg;
	if (m->kind == BENCH_MSG_SHELL_CALIBRATED) {
		rep->style.shell_overhead_s = m->shell_mean_s;
		rep->style.shell_overhead_sd = m->shell_sd_s;
	}
	/* Checked only when the note would show: --quiet and --style none
	 * neither show it nor mark it as seen. */
	if (m->kind == BENCH_MSG_COUNTERS_DROPPED && m->severity == BENCH_NOTE &&
	    (!rep->notes || note_seen(m->text)))
		return;
	print_message(m);
}

static void on_start(void *arg, size_t index, const struct bench_result *r)
{
	struct report *rep = arg;
	if (rep->seq)
		text_bench_header(&rep->style, index, r);
}

static void on_progress(void *arg, const struct bench_progress *p)
{
	static const char *const label[] = {
		[BENCH_PROGRESS_WARMUP] = "Warmup",
		[BENCH_PROGRESS_CURRENT] = "Current",
		[BENCH_PROGRESS_RUNS] = "Runs",
	};
	struct report *rep = arg;
	/* Interleaved, the estimates alternate: each says whose it is. */
	text_progress(&rep->style, label[p->kind], p->done, p->total_hint,
		      p->estimate_s, rep->seq ? -1 : (long)p->bench);
}

static void on_runs_end(void *arg, size_t index)
{
	struct report *rep = arg;
	(void)index;
	text_progress_clear(&rep->style);
}

static void on_done(void *arg, size_t index, const struct bench_result *r,
		    bool report_due)
{
	struct report *rep = arg;
	if (!report_due)
		return;
	if (!rep->seq)
		text_bench_header(&rep->style, index, r);
	analysis_update_bench(rep->an, index, r);
	text_bench_report(&rep->style, r, &rep->an->bench[index]);
}

static void on_results(void *arg, const struct bench_outcome *so_far)
{
	struct report *rep = arg;
	if (rep->results)
		rep->results(rep->results_arg, so_far);
}

struct bench_events report_events(struct report *rep, bench_done_fn results,
				  void *arg)
{
	rep->results = results;
	rep->results_arg = arg;
	return (struct bench_events){
		.arg = rep,
		.bench_start = on_start,
		.progress = on_progress,
		.runs_end = on_runs_end,
		.bench_done = on_done,
		.results = on_results,
		.message = on_message,
	};
}
