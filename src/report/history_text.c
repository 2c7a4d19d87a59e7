/*
 * history_text.c: `cbench history` on the terminal (see history_text.h).
 * The history module (src/history/) reads and writes the database; the
 * change points come from changepoint.c; this file chooses what to ask
 * for, and prints it: aligned listings, a one-line sparkline per series
 * (Unicode block elements, one per invocation, scaled between the series'
 * minimum and maximum), and the numbers beside it.
 *
 * Trend and detect compare like with like: by default only points from
 * one machine fingerprint (this machine's when it has any, else the one
 * recorded most recently), since another CPU, kernel or governor shifts a
 * series without any commit changing it.  --all-machines mixes them.
 */
#include "history_text.h"
#include "changepoint.h"
#include "cli_history.h"
#include "diag.h"
#include "export.h"
#include "export_html_history.h"
#include "export_text.h"
#include "history.h"
#include "sysinfo.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const help_text =
	"Usage: cbench history SUBCOMMAND [OPTIONS]\n\n"
	"The results history: every invocation recorded with --history TARGET\n"
	"(an SQLite file, created if missing, or a postgresql:// URL), or with\n"
	"CBENCH_HISTORY set.\n\n"
	"Subcommands:\n"
	"  list                  invocations, newest first\n"
	"  show ID               one invocation: context, benchmarks, summaries\n"
	"  trend BENCH           a benchmark's series across commits\n"
	"  detect [BENCH]        change points of one or every benchmark's series\n"
	"  export                every invocation as cbench JSON, or CSV per run\n"
	"  import FILE.json...   add cbench or hyperfine exports to the history\n"
	"  prune                 remove old invocations (--older-than, --keep)\n"
	"  report BENCH          the series and its change points as an HTML page\n"
	"                        (--output OUT.html)\n\n"
	"Options:\n";

static void print_help(void)
{
	fputs(help_text, stdout);
	for (size_t k = 0; k < cli_history_n_options; k++) {
		const struct history_option_info *o = &cli_history_options[k];
		char left[64];
		snprintf(left, sizeof left, "--%s%s%s", o->name, o->arg[0] ? " " : "",
			 o->arg);
		printf("  %-26s %s\n", left, o->help);
		printf("  %-26s (%s)\n", "", o->subs);
	}
	printf("\nPostgreSQL targets: %s.\n", history_have_postgresql()
	       ? "supported (built with libpq)"
	       : "not supported (built without libpq)");
	fputs("\nExit status: 0 success, 1 the history could not be used (locked,\n"
	      "full, unreachable), 2 usage error or a file that is not a cbench\n"
	      "history.\n", stdout);
}

static int exit_of(int rc)
{
	return rc == HISTORY_EINPUT ? CBENCH_EXIT_USAGE : CBENCH_EXIT_FAILURE;
}

/* "2026-12-01 12:30:01" from "2026-12-01T12:30:01Z". */
static void when_text(const char *iso, char *buf, size_t len)
{
	snprintf(buf, len, "%.10s %.8s", iso, iso[0] ? iso + 11 : "");
}

static void short_commit(const char *commit, int dirty, char *buf, size_t len)
{
	if (commit == NULL || commit[0] == '\0')
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.10s%s", commit, dirty == 1 ? "+" : "");
}

/* A metric's value in the unit chosen for the series. */
static void value_text(int metric, double v, enum time_unit unit, char *buf,
		       size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	switch (metric_info((enum metric_id)metric)->unit) {
	case UNIT_SECONDS: {
		double t = text_in_unit(v, unit), a = fabs(t);
		int dec = a >= 100 ? 1 : a >= 10 ? 2 : a >= 1 ? 3 : 4;
		snprintf(buf, len, "%.*f %s", dec, t, text_unit_name(unit));
		break;
	}
	case UNIT_BYTES:
		text_bytes(v, buf, len);
		break;
	default:
		text_count(v, buf, len);
	}
}

/* ---- list, show ---- */

/* Text from the history (or the user) as printed: control characters
 * escaped (text_shown), none for NULL.  A stored name must not print a
 * terminal escape or start a "::error" workflow line. */
static const char *sh(const char *s, const char *none)
{
	return s ? text_shown(s) : none;
}

static int do_list(struct history *h, const struct history_cmd *c,
		   const char *target)
{
	struct history_inv *v;
	size_t n;
	char err[DIAG_MSG_MAX];
	int rc = history_list(h, &c->filter, &v, &n, err, sizeof err);
	if (rc != 0) {
		diag_error("%s", err);
		return exit_of(rc);
	}
	if (n == 0) {
		printf("No invocation in the history %s%s.\n", sh(target, ""),
		       c->filter.bench || c->filter.branch || c->filter.machine ||
		       c->filter.commit ? " matches" : "");
	} else {
		printf("%6s  %-19s  %-11s  %-14s  %-16s  %s\n", "ID",
		       "Recorded (UTC)", "Commit", "Branch", "Machine", "Benchmarks");
	}
	for (size_t k = 0; k < n; k++) {
		char when[32], commit[16];
		when_text(v[k].recorded_at, when, sizeof when);
		short_commit(v[k].commit, v[k].dirty, commit, sizeof commit);
		printf("%6lld  %-19s  %-11s  %-14s  %-16s  %s\n", (long long)v[k].id,
		       when, sh(commit, ""), sh(v[k].branch, "-"), sh(v[k].machine, ""),
		       sh(v[k].benches, ""));
	}
	if (n)
		printf("%zu invocation%s, newest first, in %s (%s)\n", n,
		       n == 1 ? "" : "s", sh(target, ""), history_backend(h));
	history_invs_free(v, n);
	return CBENCH_EXIT_OK;
}

static void show_context(const struct history_inv *v)
{
	char when[32];
	when_text(v->recorded_at, when, sizeof when);
	printf("Invocation %lld, recorded %s UTC by cbench %s (%s)\n",
	       (long long)v->id, when, sh(v->version, "?"), sh(v->origin, "?"));
	printf("  Command line: %s\n", sh(v->argv, "[]"));
	printf("  Source:       commit %s, branch %s, %s%s%s%s\n",
	       sh(v->commit, "unknown"), sh(v->branch, "unknown"),
	       v->dirty == 1 ? "uncommitted changes" : v->dirty == 0 ? "clean"
	       : "state unknown", v->source_from ? " (from " : "",
	       sh(v->source_from, ""), v->source_from ? ")" : "");
	printf("  Machine:      %s%s%s\n", sh(v->machine, ""),
	       v->hostname ? " on " : "", sh(v->hostname, ""));
	if (v->machine_json)
		printf("                %s\n", sh(v->machine_json, ""));
	if (v->labels)
		printf("  Labels:       %s\n", sh(v->labels, ""));
}

static int do_show(struct history *h, const struct history_cmd *c)
{
	struct history_detail *d;
	char err[DIAG_MSG_MAX];
	int rc = history_show(h, c->id, false, &d, err, sizeof err);
	if (rc != 0) {
		diag_error("%s", err);
		return exit_of(rc);
	}
	show_context(&d->inv);
	for (size_t k = 0; k < d->n_bench; k++) {
		const struct history_bench *b = &d->bench[k];
		printf("\nBenchmark %zu: %s (%zu run%s%s%s)\n", k + 1, sh(b->name, ""),
		       b->n_runs, b->n_runs == 1 ? "" : "s",
		       b->failed_runs ? ", some failed" : "",
		       b->interrupted ? ", interrupted" : "");
		if (strcmp(b->command, b->name) != 0)
			printf("  Command: %s\n", sh(b->command, ""));
		for (size_t s = 0; s < b->n_sum; s++) {
			const struct history_summary *m = &b->sum[s];
			enum time_unit u = text_pick_unit(m->mean);
			char mean[48], ci0[48], ci1[48], med[48];
			value_text(m->metric, m->mean, u, mean, sizeof mean);
			value_text(m->metric, m->ci_lo, u, ci0, sizeof ci0);
			value_text(m->metric, m->ci_hi, u, ci1, sizeof ci1);
			value_text(m->metric, m->median, u, med, sizeof med);
			printf("  %-28s mean %-11s [%s, %s]  median %s  (n %zu)\n",
			       sh(metric_info((enum metric_id)m->metric)->key, ""), mean, ci0,
			       ci1, med, m->n);
		}
	}
	history_detail_free(d);
	return CBENCH_EXIT_OK;
}

/* ---- series ---- */

/* The fingerprint the series of f->bench on metric is read from (into
 * fp), or NULL for every machine.  Says which when it is not this one. */
static const char *pick_machine(struct history *h, const struct history_cmd *c,
				const struct history_filter *f, int metric,
				char fp[17], int *rc)
{
	char err[DIAG_MSG_MAX];
	*rc = 0;
	if (c->all_machines)
		return NULL;
	struct history_inv *v;
	size_t n;
	if (c->filter.machine) {
		struct history_filter g = {.machine = c->filter.machine, .limit = 1};
		*rc = history_list(h, &g, &v, &n, err, sizeof err);
		if (*rc == 0 && n == 0) {
			snprintf(err, sizeof err, "--machine %s: no invocation from "
				 "such a machine", c->filter.machine);
			*rc = HISTORY_EINPUT;
		}
		if (*rc == 0)
			snprintf(fp, 17, "%s", v[0].machine);
		if (*rc != 0)
			diag_error("%s", err);
		history_invs_free(v, *rc == 0 ? n : 0);
		return *rc == 0 ? fp : NULL;
	}
	struct machine_info mi;
	sysinfo_collect(&mi, time(NULL));
	history_fingerprint(&mi, fp);
	struct history_filter g = *f;
	g.machine = fp;
	g.limit = 1;
	struct history_point *p;
	*rc = history_series(h, &g, false, metric, &p, &n, err, sizeof err);
	free(p);
	if (*rc == 0 && n == 0) {
		g.machine = NULL;
		*rc = history_series(h, &g, false, metric, &p, &n, err, sizeof err);
		if (*rc == 0 && n > 0) {
			diag_note("no '%s' from this machine (%s) in the history: "
				  "the points of machine %s, the newest recorded "
				  "(--all-machines mixes them)", f->bench, fp, p[0].machine);
			snprintf(fp, 17, "%s", p[0].machine);
		}
		free(p);
	}
	if (*rc != 0)
		diag_error("%s", err);
	return fp;
}

/* One block element per point, scaled between the series' min and max. */
static void sparkline(const struct history_point *p, size_t n, double *lo,
		      double *hi)
{
	static const char *const bars[] = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t k = 0; k < n; k++) {
		if (isfinite(p[k].mean)) {
			*lo = fmin(*lo, p[k].mean);
			*hi = fmax(*hi, p[k].mean);
		}
	}
	size_t first = n > 72 ? n - 72 : 0;
	fputs("  ", stdout);
	for (size_t k = first; k < n; k++) {
		double v = p[k].mean;
		int level = !isfinite(v) ? -1 : *hi > *lo
			? (int)floor((v - *lo) / (*hi - *lo) * 7.999) : 3;
		fputs(level < 0 ? " " : bars[level], stdout);
	}
	if (first)
		printf("  (newest %zu of %zu)", n - first, n);
	fputc('\n', stdout);
}

static int load_series(struct history *h, const struct history_cmd *c,
		       const char *bench, int metric, struct history_point **p,
		       size_t *n, char fp[17], const char **machine)
{
	struct history_filter f = {.bench = bench, .branch = c->filter.branch,
				   .limit = c->filter.limit};
	int rc;
	*machine = pick_machine(h, c, &f, metric, fp, &rc);
	if (rc != 0)
		return exit_of(rc);
	f.machine = *machine;
	char err[DIAG_MSG_MAX];
	rc = history_series(h, &f, false, metric, p, n, err, sizeof err);
	if (rc != 0) {
		diag_error("%s", err);
		return exit_of(rc);
	}
	return 0;
}

/* The one line for a benchmark the history has no point of. */
static void no_series(const struct history_cmd *c, int metric)
{
	diag_error("no %s of '%s' in the history%s%s (see 'cbench history list')",
		   metric_info((enum metric_id)metric)->key, c->filter.bench,
		   c->filter.branch ? " on branch " : "",
		   c->filter.branch ? c->filter.branch : "");
}

static int do_trend(struct history *h, const struct history_cmd *c)
{
	int metric = metric_lookup(c->metric ? c->metric : "wall_time");
	struct history_point *p;
	size_t n;
	char fp[17];
	const char *machine;
	int rc = load_series(h, c, c->filter.bench, metric, &p, &n, fp, &machine);
	if (rc != 0)
		return rc;
	const char *key = metric_info((enum metric_id)metric)->key;
	if (n == 0) {
		no_series(c, metric);
		free(p);
		return CBENCH_EXIT_USAGE;
	}
	printf("Trend of '%s' (%s), %s %s, %zu invocation%s, oldest first:\n",
	       sh(c->filter.bench, ""), sh(key, ""), machine ? "machine" : "machines",
	       machine ? sh(machine, "") : "all", n, n == 1 ? "" : "s");
	double lo, hi;
	sparkline(p, n, &lo, &hi);
	enum time_unit u = text_pick_unit(lo);
	char a[48], b[48];
	value_text(metric, lo, u, a, sizeof a);
	value_text(metric, hi, u, b, sizeof b);
	printf("  min %s, max %s\n\n", a, b);
	printf("%6s  %-19s  %-11s  %-14s  %12s  %-27s  %s\n", "ID", "Recorded (UTC)",
	       "Commit", "Branch", "Mean", "CI of the mean", "Runs");
	for (size_t k = 0; k < n; k++) {
		char when[32], commit[16], m[48], l[48], r[48], ci[100];
		when_text(p[k].recorded_at, when, sizeof when);
		short_commit(p[k].commit, p[k].dirty, commit, sizeof commit);
		value_text(metric, p[k].mean, u, m, sizeof m);
		value_text(metric, p[k].ci_lo, u, l, sizeof l);
		value_text(metric, p[k].ci_hi, u, r, sizeof r);
		snprintf(ci, sizeof ci, "[%s, %s]", l, r);
		printf("%6lld  %-19s  %-11s  %-14s  %12s  %-27s  %zu\n",
		       (long long)p[k].inv, when, sh(commit, ""),
		       p[k].branch[0] ? sh(p[k].branch, "") : "-", m, ci, p[k].n);
	}
	free(p);
	return CBENCH_EXIT_OK;
}

/* ---- change points ---- */

/* Do p[from..to) all come from one commit, without local changes? */
static bool one_commit(const struct history_point *p, size_t from, size_t to)
{
	for (size_t k = from; k < to; k++)
		if (!p[k].commit[0] || p[k].dirty == 1 ||
		    strcmp(p[k].commit, p[from].commit) != 0)
			return false;
	return to > from;
}

/*
 * Is change k of d->ch not the code's?  When both sides of it (its
 * segment and the one before) are one commit, the code did not change;
 * when the load average stepped with it, the machine did (cp_state_at),
 * which can move a time, never a count.  Writes the line that says so
 * into buf, with the CPU share's step beside a load step (alone it is no
 * sign: code that waits more moves it too).
 */
static bool not_the_code(const struct history_point *p, size_t n, int metric,
			 const struct cp_change *ch, size_t nch, size_t k,
			 char *buf, size_t len)
{
	size_t from = k > 0 ? ch[k - 1].index : 0;
	size_t at = ch[k].index, to = k + 1 < nch ? ch[k + 1].index : n;
	const struct metric_info *mi = metric_info((enum metric_id)metric);
	struct cp_state s = {NAN, NAN, NAN, NAN, false, false};
	if (mi->unit == UNIT_SECONDS && !mi->simulated) {
		/* The two segments only: over all changes, each point is
		 * copied at most twice. */
		size_t w = to - from;
		double *load = malloc(w * sizeof *load), *cpu = malloc(w * sizeof *cpu);
		for (size_t i = 0; load && cpu && i < w; i++) {
			load[i] = p[from + i].load;
			cpu[i] = p[from + i].cpu_share;
		}
		if (load && cpu)
			cp_state_at(load, cpu, 0, at - from, w, &s);
		free(load);
		free(cpu);
	}
	bool same = one_commit(p, from, to);
	char c[16];
	short_commit(p[from].commit, 0, c, sizeof c);
	buf[0] = '\0';
	if (s.load_step) {
		size_t off = (size_t)snprintf(buf, len, "the machine changed, not "
					      "the code: load average %.3g -> %.3g",
					      s.load_before, s.load_after);
		if (s.cpu_step && off < len)
			off += (size_t)snprintf(buf + off, len - off, ", CPU time "
						"%.0f %% -> %.0f %% of wall time",
						s.cpu_before * 100, s.cpu_after * 100);
		if (same && off < len)
			snprintf(buf + off, len - off, "; the same commit %s on "
				 "both sides", c);
	} else if (same) {
		snprintf(buf, len, "not a code change: the same commit %s on both "
			 "sides", c);
	}
	return s.load_step || same;
}

static void print_change(const struct cp_change *ch, const struct history_point *p,
			 int metric, enum time_unit u)
{
	const struct history_point *a = &p[ch->index - 1], *b = &p[ch->index];
	char ca[16], cb[16], wa[32], wb[32], ma[48], mb[48];
	short_commit(a->commit, a->dirty, ca, sizeof ca);
	short_commit(b->commit, b->dirty, cb, sizeof cb);
	when_text(a->recorded_at, wa, sizeof wa);
	when_text(b->recorded_at, wb, sizeof wb);
	value_text(metric, ch->mean_before, u, ma, sizeof ma);
	value_text(metric, ch->mean_after, u, mb, sizeof mb);
	printf("  between #%lld and #%lld: commit %s -> %s (%s -> %s)\n",
	       (long long)a->inv, (long long)b->inv, sh(ca, ""), sh(cb, ""), wa, wb);
	printf("      %s -> %s   %+.1f %% [%+.1f %%, %+.1f %%]   p = %.2g\n", ma, mb,
	       (ch->ratio - 1) * 100, (ch->ratio_lo - 1) * 100,
	       (ch->ratio_hi - 1) * 100, ch->p_value);
}

/* The series of bench on metric without its points that have no value,
 * and its change points as cp_detect finds them with c's test: what
 * `detect` prints and `report` draws.  0, or an exit status (reported). */
struct detected {
	struct history_point *p;
	size_t n;
	double *x;           /* the points' values, for cp_detect */
	struct cp_change *ch;
	size_t nch;
	struct cp_options o;
	double resolution;   /* cp_resolution: the smallest step the t-test
				could see (said for t and permutation) */
	char fp[17];
	const char *machine;
};

/* Drop d's points without a value, set its options from c and its
 * resolution.  0, or an exit status (reported). */
static int prepare(const struct history_cmd *c, struct detected *d)
{
	d->x = calloc(d->n + 1, sizeof *d->x);
	if (d->x == NULL) {
		diag_error("out of memory");
		return CBENCH_EXIT_FAILURE;
	}
	size_t m = 0;
	for (size_t k = 0; k < d->n; k++)   /* points without a value are skipped */
		if (isfinite(d->p[k].mean)) {
			d->p[m] = d->p[k];
			d->x[m++] = d->p[k].mean;
		}
	d->n = m;
	d->o = cp_default_options();
	d->o.alpha = c->alpha;
	d->o.test = c->otava ? CP_TEST_OTAVA
		    : c->permutation ? CP_TEST_PERMUTATION : CP_TEST_T;
	if (c->window)
		d->o.window = c->window;
	d->o.min_magnitude = c->min_magnitude;
	if (c->permutation)   /* its smallest p a tenth of alpha (cli_history) */
		d->o.permutations = cp_permutations_for(c->alpha);
	d->o.seed = 1;
	d->resolution = cp_resolution(d->x, m, &d->o);
	return 0;
}

/* cp_detect on d's prepared points.  0, or an exit status (reported). */
static int find_changes(const char *bench, struct detected *d)
{
	char err[DIAG_MSG_MAX];
	if (cp_detect(d->x, d->n, &d->o, &d->ch, &d->nch, err, sizeof err) != 0) {
		diag_error("'%s': %s", bench, err);
		return CBENCH_EXIT_USAGE;
	}
	return 0;
}

/* The series of bench on metric, prepared (its changes not looked for). */
static int load_prepared(struct history *h, const struct history_cmd *c,
			 const char *bench, int metric, struct detected *d)
{
	memset(d, 0, sizeof *d);
	int rc = load_series(h, c, bench, metric, &d->p, &d->n, d->fp, &d->machine);
	if (rc != 0)
		return rc;
	if (d->machine)
		d->machine = d->fp;
	return prepare(c, d);
}

static void detected_free(struct detected *d)
{
	free(d->ch);
	free(d->p);
	free(d->x);
}

/* Do d and e hold the same invocations (a --limit counts the newest that
 * have each metric)? */
static bool same_points(const struct detected *d, const struct detected *e)
{
	if (d->n != e->n)
		return false;
	for (size_t k = 0; k < d->n; k++)
		if (d->p[k].inv != e->p[k].inv)
			return false;
	return true;
}

/*
 * Without --metric, each benchmark's series is read on the steadiest of
 * its metrics: the one whose cp_resolution (the smallest step the t-test
 * could see) is finest, among wall time and, where the series has them at
 * every one of its invocations, simulated instructions, instructions and
 * the task-clock.  The last two only for a CPU-bound benchmark (its CPU
 * time reached CPU_BOUND_SHARE of its wall time in some invocation,
 * results.h): a command that waits spends what it spends in the waits,
 * which they leave out.  The changes are then looked for on the chosen
 * series only.  why gets the reason when a metric other than wall time was
 * chosen, else "".
 */
static int detect_auto(struct history *h, const struct history_cmd *c,
		       const char *bench, struct detected *d, int *metric,
		       char *why, size_t len)
{
	static const int tries[] = {MET_SIM_INSTRUCTIONS,
				    MET_CTR_FIRST + CTR_INSTRUCTIONS,
				    MET_CTR_FIRST + CTR_TASK_CLOCK};
	*metric = MET_WALL;
	why[0] = '\0';
	int rc = load_prepared(h, c, bench, MET_WALL, d);
	if (rc != 0)
		return rc;
	double busiest = 0, wall_res = d->resolution;
	for (size_t k = 0; k < d->n; k++)
		if (d->p[k].cpu_share > busiest)
			busiest = d->p[k].cpu_share;
	for (size_t t = 0; wall_res > 0 && t < sizeof tries / sizeof *tries; t++) {
		int m = tries[t];
		if (m != MET_SIM_INSTRUCTIONS && busiest < CPU_BOUND_SHARE)
			continue;
		/* The same machine (or all) as the wall time's series. */
		struct detected e = {.machine = d->machine};
		memcpy(e.fp, d->fp, sizeof e.fp);
		if (e.machine)
			e.machine = e.fp;
		struct history_filter f = {.bench = bench, .branch = c->filter.branch,
					   .limit = c->filter.limit,
					   .machine = e.machine};
		char err[DIAG_MSG_MAX];
		rc = history_series(h, &f, false, m, &e.p, &e.n, err, sizeof err);
		if (rc != 0) {
			diag_error("%s", err);
			return exit_of(rc);
		}
		rc = prepare(c, &e);
		if (rc != 0 || !same_points(d, &e) || !(e.resolution >= 0) ||
		    !(e.resolution < d->resolution)) {
			detected_free(&e);
			if (rc != 0)
				return rc;
			continue;
		}
		detected_free(d);
		*d = e;
		if (d->machine)
			d->machine = d->fp;
		*metric = m;
		snprintf(why, len, "steadier than wall_time: it sees steps "
			 "from ±%.*f %%, wall_time from ±%.*f %%",
			 d->resolution < 0.1 ? 1 : 0, d->resolution * 100,
			 wall_res < 0.1 ? 1 : 0, wall_res * 100);
	}
	return find_changes(bench, d);
}

/* The series of bench on c's --metric, or without one on detect_auto's
 * choice. */
static int detect_chosen(struct history *h, const struct history_cmd *c,
			 const char *bench, struct detected *d, int *metric,
			 char *why, size_t len)
{
	if (c->metric == NULL)
		return detect_auto(h, c, bench, d, metric, why, len);
	*metric = metric_lookup(c->metric);
	why[0] = '\0';
	int rc = load_prepared(h, c, bench, *metric, d);
	return rc != 0 ? rc : find_changes(bench, d);
}

/* The method and its level: "t test at alpha 0.05", "Otava's method at
 * max_pvalue 0.001, window 50". */
static void test_text(const struct history_cmd *c, const struct cp_options *o,
		      char *buf, size_t len)
{
	if (!c->otava) {
		snprintf(buf, len, "%s test at alpha %g",
			 c->permutation ? "permutation" : "t", c->alpha);
		return;
	}
	int k = snprintf(buf, len, "Otava's method at max_pvalue %g, window %zu",
			 c->alpha, o->window);
	if (o->min_magnitude > 0 && k > 0 && (size_t)k < len)
		snprintf(buf + k, len - (size_t)k, ", min magnitude %g", o->min_magnitude);
}

/* For each change of d, not_the_code's line ("" when it is the code's),
 * and in *not_code how many are not; NULL when out of memory. */
static char (*causes(const struct detected *d, int metric,
		     size_t *not_code))[HISTORY_CAUSE_MAX]
{
	char (*cause)[HISTORY_CAUSE_MAX] = calloc(d->nch + 1, sizeof *cause);
	*not_code = 0;
	for (size_t k = 0; cause && k < d->nch; k++)
		*not_code += not_the_code(d->p, d->n, metric, d->ch, d->nch, k,
					  cause[k], sizeof cause[k]);
	return cause;
}

static int detect_one(struct history *h, const struct history_cmd *c,
		      const char *bench, size_t *points)
{
	struct detected d;
	int metric;
	char why[160];
	int rc = detect_chosen(h, c, bench, &d, &metric, why, sizeof why);
	*points = rc == 0 ? d.n : 0;
	if (rc == 0 && d.n > 0) {
		size_t m = d.n;
		char test[128];
		test_text(c, &d.o, test, sizeof test);
		printf("'%s' (%s%s%s, %s %s, %zu point%s, %s): ",
		       sh(bench, ""), sh(metric_info((enum metric_id)metric)->key, ""),
		       why[0] ? ", " : "", why,
		       d.machine ? "machine" : "machines",
		       d.machine ? sh(d.machine, "") : "all",
		       m, m == 1 ? "" : "s", test);
		size_t not_code;
		char (*cause)[HISTORY_CAUSE_MAX] = causes(&d, metric, &not_code);
		if (d.nch == 0 && m < 2 * d.o.min_size)
			printf("no change (too few points to tell)\n");
		else if (d.nch == 0 && d.resolution > 0 && !c->otava)
			printf("no change (a step under ±%.*f %% would likely be missed)\n",
			       d.resolution < 0.1 ? 1 : 0, d.resolution * 100);
		else if (d.nch == 0)
			printf("no change\n");
		else if (not_code)
			printf("%zu change%s (%zu not the code's)\n", d.nch,
			       d.nch == 1 ? "" : "s", not_code);
		else
			printf("%zu change%s\n", d.nch, d.nch == 1 ? "" : "s");
		enum time_unit u = text_pick_unit(d.p[0].mean);
		for (size_t k = 0; k < d.nch; k++) {
			print_change(&d.ch[k], d.p, metric, u);
			if (cause && cause[k][0])
				printf("      %s\n", sh(cause[k], ""));
		}
		free(cause);
	}
	detected_free(&d);
	return rc;
}

static int fill_report(FILE *f, void *arg)
{
	return export_html_history(f, arg);
}

/* `cbench history report BENCH --output OUT.html`: the series and its
 * change points (the same as `detect` finds) as an HTML page. */
static int do_report(struct history *h, const struct history_cmd *c)
{
	struct detected d;
	int metric;
	char why[160];
	int rc = detect_chosen(h, c, c->filter.bench, &d, &metric, why, sizeof why);
	if (rc == 0 && d.n == 0) {
		no_series(c, metric);
		rc = CBENCH_EXIT_USAGE;
	}
	if (rc == 0) {
		size_t not_code;
		char (*cause)[HISTORY_CAUSE_MAX] = causes(&d, metric, &not_code);
		char test[128];
		test_text(c, &d.o, test, sizeof test);
		struct html_history hh = {.bench = c->filter.bench, .metric = metric,
			.metric_why = why, .cause = (const char (*)[HISTORY_CAUSE_MAX])cause,
			.machine = d.machine, .test = test,
			.alpha = c->alpha, .p = d.p, .n = d.n, .ch = d.ch, .nch = d.nch,
			.min_size = d.o.min_size,
			.resolution = c->otava ? NAN : d.resolution};
		char err[DIAG_MSG_MAX];
		if (export_write_atomic(c->output, fill_report, &hh, err, sizeof err) != 0) {
			diag_error("--output: %s", err);
			rc = CBENCH_EXIT_FAILURE;
		}
		free(cause);
	}
	detected_free(&d);
	return rc;
}

static int do_detect(struct history *h, const struct history_cmd *c)
{
	char **names = NULL;
	size_t n = 0, points = 0;
	char err[DIAG_MSG_MAX];
	int rc = CBENCH_EXIT_OK;
	if (c->filter.bench) {
		rc = detect_one(h, c, c->filter.bench, &points);
		/* a misspelt name in a scheduled job is not "no change" */
		if (rc == CBENCH_EXIT_OK && points == 0) {
			no_series(c, metric_lookup(c->metric ? c->metric : "wall_time"));
			rc = CBENCH_EXIT_USAGE;
		}
	} else if (history_bench_names(h, &names, &n, err, sizeof err) != 0) {
		diag_error("%s", err);
		rc = CBENCH_EXIT_FAILURE;
	}
	for (size_t k = 0; k < n; k++) {
		if (rc == CBENCH_EXIT_OK)
			rc = detect_one(h, c, names[k], &points);
		free(names[k]);
	}
	free(names);
	if (rc == CBENCH_EXIT_OK && c->filter.bench == NULL && n == 0)
		printf("The history is empty.\n");
	return rc;
}

/* ---- export, import, prune ---- */

static int do_export(struct history *h, const struct history_cmd *c)
{
	FILE *f = c->output ? fopen(c->output, "w") : stdout;
	if (f == NULL) {
		diag_error("cannot write '%s': %s", c->output, strerror(errno));
		return CBENCH_EXIT_USAGE;
	}
	char err[DIAG_MSG_MAX];
	int rc = history_export(h, &c->filter, c->csv, f, err, sizeof err);
	bool bad = ferror(f) != 0;
	if (c->output && fclose(f) != 0)
		bad = true;
	if (rc != 0) {
		diag_error("%s", err);
		return exit_of(rc);
	}
	if (bad && c->output) {
		diag_error("cannot write '%s': %s", c->output, strerror(errno));
		return CBENCH_EXIT_FAILURE;
	}
	return CBENCH_EXIT_OK;
}

static int do_import(struct history *h, const struct history_cmd *c,
		     const char *target)
{
	struct history_context base = {.when = time(NULL), .labels = c->labels,
				       .n_labels = c->n_labels};
	base.source.dirty = -1;
	for (size_t k = 0; k < c->n_words; k++) {
		int64_t *ids;
		size_t n;
		char err[DIAG_MSG_MAX];
		int rc = history_import(h, c->words[k], &base, &ids, &n, err, sizeof err);
		if (n == 1)
			printf("%s: recorded as invocation %lld in %s\n",
			       sh(c->words[k], ""), (long long)ids[0], sh(target, ""));
		else if (n > 1)
			printf("%s: recorded as invocations %lld to %lld in %s\n",
			       sh(c->words[k], ""), (long long)ids[0],
			       (long long)ids[n - 1], sh(target, ""));
		free(ids);
		if (rc != 0) {
			diag_error("%s", err);
			return exit_of(rc);
		}
	}
	return CBENCH_EXIT_OK;
}

static int do_prune(struct history *h, const struct history_cmd *c)
{
	time_t before = c->older_than_s > 0
		? time(NULL) - (time_t)c->older_than_s : 0;
	int64_t *ids;
	size_t n;
	char err[DIAG_MSG_MAX];
	int rc = history_prune(h, &c->filter, before, (size_t)c->keep, &ids, &n,
			       err, sizeof err);
	if (rc != 0) {
		diag_error("%s", err);
		return exit_of(rc);
	}
	char why[128] = "";
	if (c->older_than_s > 0)
		snprintf(why, sizeof why, "older than %s", c->older_than_text);
	if (c->keep)
		snprintf(why + strlen(why), sizeof why - strlen(why), "%sbeyond the "
			 "newest %ld", why[0] ? " or " : "", c->keep);
	if (n == 0)
		printf("Nothing to remove (no invocation %s).\n", why);
	else
		printf("Removed %zu invocation%s (%s):", n, n == 1 ? "" : "s", why);
	for (size_t k = 0; k < n; k++)
		printf(" %lld", (long long)ids[k]);
	if (n)
		fputc('\n', stdout);
	free(ids);
	return CBENCH_EXIT_OK;
}

int history_text_main(int argc, char **argv)
{
	struct history_cmd c;
	char err[DIAG_MSG_MAX];
	if (cli_history_parse(argc, argv, &c, err, sizeof err) != 0) {
		diag_error("%s", err);
		fputs("try 'cbench history --help' for more information\n", stderr);
		cli_history_free(&c);
		return CBENCH_EXIT_USAGE;
	}
	if (c.sub == HSUB_HELP) {
		print_help();
		cli_history_free(&c);
		return CBENCH_EXIT_OK;
	}
	struct history *h;
	bool write = c.sub == HSUB_IMPORT || c.sub == HSUB_PRUNE;
	int rc = history_open(c.target, write, &h, err, sizeof err);
	if (rc != 0) {
		diag_error("%s", err);
		cli_history_free(&c);
		return exit_of(rc);
	}
	/* A --metric NAME the history defines is known only now. */
	if (c.metric && metric_lookup(c.metric) < 0) {
		diag_usage_sub("history", "--metric '%s': no such metric (wall_time, "
			       "user_time, system_time, peak_rss, page_faults, "
			       "instructions, ..., or a --metric one the history "
			       "holds)", c.metric);
		history_close(h);
		cli_history_free(&c);
		return CBENCH_EXIT_USAGE;
	}
	/* as shown: a PostgreSQL password masked */
	char *target = history_redact(c.target);
	switch (c.sub) {
	case HSUB_LIST: rc = do_list(h, &c, target); break;
	case HSUB_SHOW: rc = do_show(h, &c); break;
	case HSUB_TREND: rc = do_trend(h, &c); break;
	case HSUB_DETECT: rc = do_detect(h, &c); break;
	case HSUB_EXPORT: rc = do_export(h, &c); break;
	case HSUB_IMPORT: rc = do_import(h, &c, target); break;
	case HSUB_REPORT: rc = do_report(h, &c); break;
	default: rc = do_prune(h, &c); break;
	}
	free(target);
	history_close(h);
	cli_history_free(&c);
	return rc;
}
