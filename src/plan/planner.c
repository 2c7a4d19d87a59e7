/*
 * planner.c: turns the configuration into benchmarks (see planner.h),
 * decides when a benchmark has enough runs, and in which order benchmarks
 * take their runs.
 *
 * Parameter scans are computed in scaled integers: "0.1" is 1 at scale 1,
 * so 0.1 to 1.0 by 0.1 is 1..10 by 1, exactly ten values printed as 0.1 ...
 * 1.0, where accumulating a binary double would drift (0.30000000000000004)
 * and could lose the last value.  The shuffled order uses SplitMix64 (Steele,
 * Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA
 * 2014) and the Fisher-Yates shuffle (Knuth, TAOCP vol. 2, 3.4.2,
 * Algorithm P) with rejection sampling so every permutation is equally likely.
 */
#include "planner.h"
#include "xalloc.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Decimals accepted in a scan bound or step. */
#define MAX_SCALE 9

/* ---- errors ---- */

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- decimals as scaled integers ---- */

struct dec {
	int64_t m;      /* value = m / 10^scale */
	int scale;
};

static int64_t pow10i(int k)
{
	int64_t p = 1;
	while (k-- > 0)
		p *= 10;
	return p;
}

/* Parse [+-]DIGITS[.DIGITS] (or [+-].DIGITS).  0, -1 if not such a number,
 * -2 if too precise or too large. */
static int dec_parse(const char *s, struct dec *d)
{
	bool neg = false, dot = false;
	int digits = 0;
	int64_t m = 0;
	int scale = 0;

	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	for (; *s; s++) {
		if (*s == '.' && !dot) {
			dot = true;
			continue;
		}
		if (*s < '0' || *s > '9')
			return -1;
		if (dot && ++scale > MAX_SCALE)
			return -2;
		if (__builtin_mul_overflow(m, 10, &m) ||
		    __builtin_add_overflow(m, *s - '0', &m))
			return -2;
		digits++;
	}
	if (digits == 0)
		return -1;
	d->m = neg ? -m : m;
	d->scale = scale;
	return 0;
}

/* Bring d to a larger scale.  0 or -1 on overflow. */
static int dec_rescale(struct dec *d, int scale)
{
	if (__builtin_mul_overflow(d->m, pow10i(scale - d->scale), &d->m))
		return -1;
	d->scale = scale;
	return 0;
}

/* m at scale as text: "-1.50", "3". */
static char *dec_format(int64_t m, int scale)
{
	uint64_t a = m < 0 ? (uint64_t)0 - (uint64_t)m : (uint64_t)m;
	uint64_t p = (uint64_t)pow10i(scale);
	const char *sign = m < 0 ? "-" : "";
	if (scale == 0)
		return xasprintf("%s%llu", sign, (unsigned long long)a);
	return xasprintf("%s%llu.%0*llu", sign, (unsigned long long)(a / p), scale,
			 (unsigned long long)(a % p));
}

long planner_scan_values(const char *name, const char *min, const char *max,
			 const char *step, char ***values, char *err, size_t errlen)
{
	struct dec lo, hi, st = {1, 0};
	const char *what = NULL, *bad = NULL;
	int e = 0;

	*values = NULL;
	if ((e = dec_parse(min, &lo)) != 0)
		what = "MIN", bad = min;
	else if ((e = dec_parse(max, &hi)) != 0)
		what = "MAX", bad = max;
	else if (step && (e = dec_parse(step, &st)) != 0)
		what = "STEP (-D)", bad = step;
	if (e == -1)
		return fail(err, errlen, "-P/--parameter-scan %s: %s '%s' is not a "
			    "number (expected e.g. 10, -3 or 0.25)", name, what, bad);
	if (e == -2)
		return fail(err, errlen, "-P/--parameter-scan %s: %s '%s' has more "
			    "than %d decimals or is too large", name, what, bad,
			    MAX_SCALE);
	if (step == NULL && (lo.scale > 0 || hi.scale > 0))
		return fail(err, errlen, "-P/--parameter-scan %s: decimal bounds "
			    "(%s, %s) need a step: add -D/--parameter-step-size",
			    name, min, max);
	int scale = lo.scale;
	if (hi.scale > scale)
		scale = hi.scale;
	if (st.scale > scale)
		scale = st.scale;
	if (dec_rescale(&lo, scale) || dec_rescale(&hi, scale) ||
	    dec_rescale(&st, scale))
		return fail(err, errlen, "-P/--parameter-scan %s: bounds or step "
			    "too large", name);
	if (st.m <= 0)
		return fail(err, errlen, "-D/--parameter-step-size of %s must be "
			    "greater than 0, not '%s'", name, step);
	if (lo.m > hi.m)
		return fail(err, errlen, "-P/--parameter-scan %s: the range is "
			    "reversed (MIN %s is greater than MAX %s)", name, min, max);
	int64_t span;
	if (__builtin_sub_overflow(hi.m, lo.m, &span))
		return fail(err, errlen, "-P/--parameter-scan %s: range too large",
			    name);
	int64_t count = span / st.m + 1;
	if (count > PLANNER_MAX_BENCHMARKS)
		return fail(err, errlen, "-P/--parameter-scan %s: %lld values from "
			    "%s to %s%s%s; the limit is %d", name, (long long)count,
			    min, max, step ? " by " : "", step ? step : "",
			    PLANNER_MAX_BENCHMARKS);
	char **v = xcalloc((size_t)count, sizeof *v);
	for (int64_t k = 0; k < count; k++)
		v[k] = dec_format(lo.m + k * st.m, scale);
	*values = v;
	return (long)count;
}

/* ---- parameter lists ---- */

size_t planner_list_values(const char *s, char ***out)
{
	size_t n = 0, cap = 0;
	char **v = NULL;
	char *buf = xmalloc(strlen(s) + 1);
	size_t b = 0;
	for (const char *p = s;; p++) {
		if (*p == '\\' && (p[1] == ',' || p[1] == '\\')) {
			buf[b++] = *++p;
			continue;
		}
		if (*p == ',' || *p == '\0') {
			xgrow((void **)&v, &cap, n + 1, sizeof *v);
			v[n++] = xstrndup(buf, b);
			b = 0;
			if (*p == '\0')
				break;
			continue;
		}
		buf[b++] = *p;   /* any other backslash is kept as written */
	}
	free(buf);
	*out = v;
	return n;
}

/* ---- building the plan ---- */

struct pvals {
	const char *name;
	char **v;
	size_t n;
};

static void pvals_free(struct pvals *pv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < pv[i].n; k++)
			free(pv[i].v[k]);
		free(pv[i].v);
	}
	free(pv);
}

/* Every value of a list must make its benchmarks distinguishable: a
 * value given twice would give benchmarks with the same name and command
 * line.  (An empty value is a value, as in hyperfine.) */
static int check_list(const struct param_spec *ps, const struct pvals *pv,
		      char *err, size_t errlen)
{
	for (size_t k = 0; k < pv->n; k++) {
		for (size_t j = 0; j < k; j++)
			if (strcmp(pv->v[j], pv->v[k]) == 0)
				return fail(err, errlen, "-L/--parameter-list %s: "
					    "value '%s' is given twice", ps->name,
					    pv->v[k]);
	}
	return 0;
}

static int parse_params(const struct plan_options *cfg, struct pvals *pv,
			char *err, size_t errlen)
{
	for (size_t i = 0; i < cfg->n_params; i++) {
		const struct param_spec *ps = &cfg->params[i];
		const char *opt = ps->is_scan ? "-P/--parameter-scan"
					      : "-L/--parameter-list";
		pv[i].name = ps->name;
		if (ps->name[0] == '\0' || strpbrk(ps->name, "{}"))
			return fail(err, errlen, "%s: invalid parameter name '%s' "
				    "(it must be non-empty, without braces)", opt,
				    ps->name);
		for (size_t k = 0; k < i; k++)
			if (strcmp(cfg->params[k].name, ps->name) == 0)
				return fail(err, errlen, "parameter '%s' is defined "
					    "twice (each -P/-L needs its own name)",
					    ps->name);
		if (ps->is_scan) {
			long n = planner_scan_values(ps->name, ps->min, ps->max,
						     ps->step, &pv[i].v, err, errlen);
			if (n < 0)
				return -1;
			pv[i].n = (size_t)n;
		} else {
			pv[i].n = planner_list_values(ps->list, &pv[i].v);
			if (check_list(ps, &pv[i], err, errlen) != 0)
				return -1;
		}
	}
	return 0;
}

/* Which parameter is {name...} at s (s just after '{'), or -1. */
static long param_at(const char *s, const struct pvals *pv, size_t np,
		     size_t *len)
{
	const char *close = strchr(s, '}');
	if (close == NULL)
		return -1;
	size_t n = (size_t)(close - s);
	for (size_t i = 0; i < np; i++)
		if (strlen(pv[i].name) == n && strncmp(pv[i].name, s, n) == 0) {
			*len = n + 2;
			return (long)i;
		}
	return -1;
}

/* Does template t mention {NAME} of parameter i? */
static bool uses_param(const char *t, const struct pvals *pv, size_t np, size_t i)
{
	for (const char *p = t ? strchr(t, '{') : NULL; p; p = strchr(p + 1, '{')) {
		size_t len;
		if (param_at(p + 1, pv, np, &len) == (long)i)
			return true;
	}
	return false;
}

/* Substitute {NAME} in t with the values chosen by idx; an unknown {x} is
 * left as written.  NULL stays NULL. */
static char *subst(const char *t, const struct pvals *pv, size_t np,
		   const size_t *idx)
{
	if (t == NULL)
		return NULL;
	size_t cap = strlen(t) + 1, n = 0;
	char *out = xmalloc(cap);
	for (const char *p = t; *p;) {
		size_t len = 0;
		long k = *p == '{' ? param_at(p + 1, pv, np, &len) : -1;
		const char *add = k >= 0 ? pv[k].v[idx[k]] : p;
		size_t addlen = k >= 0 ? strlen(add) : 1;
		xgrow((void **)&out, &cap, n + addlen + 1, 1);
		memcpy(out + n, add, addlen);
		n += addlen;
		p += k >= 0 ? len : 1;
	}
	out[n] = '\0';
	return out;
}

/* The value of a once-or-per-command option for command i. */
static const char *per_command(const struct strlist *l, size_t i)
{
	if (l->n == 0)
		return NULL;
	return l->n == 1 ? l->v[0] : l->v[i];
}

/* The given name of command ci (0 is the --reference if there is one),
 * or NULL.  As in hyperfine 1.19 and later, the -n names go to the other
 * commands in order and only --reference-name names the reference. */
static const char *given_name(const struct plan_options *cfg, size_t ci)
{
	if (cfg->reference) {
		if (ci == 0)
			return cfg->reference_name;
		ci--;
	}
	return ci < cfg->names.n ? cfg->names.v[ci] : NULL;
}

/* The reference runs once: it must not depend on a parameter. */
static int check_reference(const struct plan_options *cfg, const struct pvals *pv,
			   size_t np, char *err, size_t errlen)
{
	const struct {
		const char *what, *text;
	} t[] = {
		{"command", cfg->reference},
		{"--reference-name", given_name(cfg, 0)},
		{"--setup", per_command(&cfg->setup, 0)},
		{"--prepare", per_command(&cfg->prepare, 0)},
		{"--conclude", per_command(&cfg->conclude, 0)},
		{"--cleanup", per_command(&cfg->cleanup, 0)},
	};
	for (size_t k = 0; k < sizeof t / sizeof t[0]; k++)
		for (size_t i = 0; i < np; i++)
			if (t[k].text && uses_param(t[k].text, pv, np, i))
				return fail(err, errlen, "the --reference benchmark runs "
					    "once, without parameters, but its %s '%s' "
					    "uses {%s}%s", t[k].what, t[k].text,
					    pv[i].name, k >= 2 ? ": give that option "
					    "once per command" : "");
	return 0;
}

static void fill_bench(struct plan_bench *b, const struct plan_options *cfg,
		       size_t ci, const char *cmd, const struct pvals *pv,
		       size_t np, const size_t *idx)
{
	const char *name_t = given_name(cfg, ci) ? given_name(cfg, ci) : cmd;
	b->command = subst(cmd, pv, np, idx);
	char *name = subst(name_t, pv, np, idx);
	b->short_name = xstrdup(name);
	/* Parameters the name does not show, as hyperfine does. */
	size_t extra = 0;
	for (size_t i = 0; i < np; i++)
		if (!uses_param(name_t, pv, np, i)) {
			char *s = xasprintf("%s%s%s = %s", name,
					    extra++ ? ", " : " (", pv[i].name,
					    pv[i].v[idx[i]]);
			free(name);
			name = s;
		}
	if (extra) {
		char *s = xasprintf("%s)", name);
		free(name);
		name = s;
	}
	b->name = name;
	if (np) {
		b->params = xcalloc(np, sizeof *b->params);
		b->n_params = np;
		for (size_t i = 0; i < np; i++) {
			b->params[i].name = xstrdup(pv[i].name);
			b->params[i].value = xstrdup(pv[i].v[idx[i]]);
		}
	}
	b->setup = subst(per_command(&cfg->setup, ci), pv, np, idx);
	b->prepare = subst(per_command(&cfg->prepare, ci), pv, np, idx);
	b->conclude = subst(per_command(&cfg->conclude, ci), pv, np, idx);
	b->cleanup = subst(per_command(&cfg->cleanup, ci), pv, np, idx);
	b->output = cfg->show_output ? "inherit" : per_command(&cfg->outputs, ci);
	if (b->output == NULL)
		b->output = "null";
}

/* Benchmarks with the same display name (`-s 'git checkout v1' -s 'git
 * checkout v2' make make`) would read "make ran 1.15 times faster than
 * make": the second and later get " (#K)", K counting that name's
 * benchmarks in plan order. */
static const struct plan *sort_plan;

/* By name, then by place in the plan. */
static int by_name_then_index(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sort_plan->bench[i].name, sort_plan->bench[j].name);
	return c ? c : (i > j) - (i < j);
}

/* In O(n log n), as a sweep may have a million values: the benchmarks
 * sorted by name, each name's K-th in plan order renamed. */
static void disambiguate(struct plan *plan)
{
	size_t n = plan->n, *ix = xcalloc(n ? n : 1, sizeof *ix);
	for (size_t i = 0; i < n; i++)
		ix[i] = i;
	sort_plan = plan;
	qsort(ix, n, sizeof *ix, by_name_then_index);
	sort_plan = NULL;
	size_t k = 1;
	for (size_t p = 1; p < n; p++) {
		struct plan_bench *b = &plan->bench[ix[p]];
		/* the previous one in sorted order still has its own name */
		const struct plan_bench *prev = &plan->bench[ix[p - 1]];
		const char *pn = prev->base_name ? prev->base_name : prev->name;
		k = strcmp(pn, b->name) == 0 ? k + 1 : 1;
		if (k == 1)
			continue;
		b->base_name = b->name;
		b->name = xasprintf("%s (#%zu)", b->base_name, k);
		char *s = xasprintf("%s (#%zu)", b->short_name, k);
		free(b->short_name);
		b->short_name = s;
	}
	free(ix);
}

static bool same_text(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static int by_state_then_index(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	const struct plan_bench *x = &sort_plan->bench[i], *y = &sort_plan->bench[j];
	int c = (x->setup != NULL) - (y->setup != NULL);
	if (c == 0 && x->setup)
		c = strcmp(x->setup, y->setup);
	if (c == 0)
		c = (x->cleanup != NULL) - (y->cleanup != NULL);
	if (c == 0 && x->cleanup)
		c = strcmp(x->cleanup, y->cleanup);
	return c ? c : (i > j) - (i < j);
}

static int by_first_index(const void *a, const void *b)
{
	const size_t *x = a, *y = b;   /* {first index, group} pairs */
	return (x[0] > y[0]) - (x[0] < y[0]);
}

/* plan_bench.group and plan->n_groups, in O(n log n) like disambiguate:
 * sorted by (setup, cleanup), equal runs share a group, and the groups
 * are then numbered by their first benchmark. */
static void group_by_state(struct plan *plan)
{
	size_t n = plan->n, *ix = xcalloc(n ? n : 1, sizeof *ix);
	size_t *first = xcalloc(2 * (n ? n : 1), sizeof *first);
	size_t g = 0;
	for (size_t i = 0; i < n; i++)
		ix[i] = i;
	sort_plan = plan;
	qsort(ix, n, sizeof *ix, by_state_then_index);
	sort_plan = NULL;
	for (size_t p = 0; p < n; p++) {
		struct plan_bench *b = &plan->bench[ix[p]];
		const struct plan_bench *prev = p ? &plan->bench[ix[p - 1]] : NULL;
		if (prev == NULL || !same_text(prev->setup, b->setup) ||
		    !same_text(prev->cleanup, b->cleanup)) {
			first[2 * g] = ix[p];   /* the lowest: sorted by index */
			first[2 * g + 1] = g;
			g++;
		}
		b->group = g - 1;
	}
	qsort(first, g, 2 * sizeof *first, by_first_index);
	size_t *renum = xcalloc(g ? g : 1, sizeof *renum);
	for (size_t k = 0; k < g; k++)
		renum[first[2 * k + 1]] = k;
	for (size_t i = 0; i < n; i++)
		plan->bench[i].group = renum[plan->bench[i].group];
	plan->n_groups = g;
	free(renum);
	free(first);
	free(ix);
}

int planner_build(const struct plan_options *cfg, struct plan *plan,
		  char *err, size_t errlen)
{
	memset(plan, 0, sizeof *plan);
	size_t np = cfg->n_params;
	struct pvals *pv = xcalloc(np ? np : 1, sizeof *pv);
	int rc = -1;

	if (parse_params(cfg, pv, err, errlen) != 0)
		goto out;
	size_t combos = 1;
	for (size_t i = 0; i < np; i++) {
		combos *= pv[i].n;   /* each n <= limit: checked before overflow */
		if (combos > PLANNER_MAX_BENCHMARKS) {
			fail(err, errlen, "the parameters give more than %d "
			     "combinations (the limit)", PLANNER_MAX_BENCHMARKS);
			goto out;
		}
	}
	size_t ncmd = cfg->commands.n;
	size_t total = combos * ncmd + (cfg->reference ? 1 : 0);
	if (total > PLANNER_MAX_BENCHMARKS) {
		fail(err, errlen, "%zu parameter combinations x %zu commands make "
		     "%zu benchmarks; the limit is %d", combos, ncmd, total,
		     PLANNER_MAX_BENCHMARKS);
		goto out;
	}
	if (cfg->reference && check_reference(cfg, pv, np, err, errlen) != 0)
		goto out;

	plan->bench = xcalloc(total ? total : 1, sizeof *plan->bench);
	size_t first = 0;
	if (cfg->reference) {
		struct plan_bench *b = &plan->bench[plan->n++];
		fill_bench(b, cfg, 0, cfg->reference, NULL, 0, NULL);
		b->is_reference = true;
		first = 1;
	}
	/* Odometer over the combinations, as hyperfine counts them: the
	 * commands turn fastest, then the first parameter given, then the
	 * next (-L a 1,2 -L b x,y: 1 x, 2 x, 1 y, 2 y). */
	size_t *idx = xcalloc(np ? np : 1, sizeof *idx);
	for (size_t c = 0; c < combos; c++) {
		for (size_t j = 0; j < ncmd; j++)
			fill_bench(&plan->bench[plan->n++], cfg, first + j,
				   cfg->commands.v[j], pv, np, idx);
		for (size_t i = 0; i < np; i++) {
			if (++idx[i] < pv[i].n)
				break;
			idx[i] = 0;
		}
	}
	free(idx);
	disambiguate(plan);
	group_by_state(plan);
	/* One benchmark runs the same in every order, and so do benchmarks
	 * that each have a state of their own: sequential shows each
	 * header before its runs. */
	plan->order = cfg->order;
	plan->split_by_state = cfg->order != ORDER_SEQUENTIAL && plan->n_groups > 1;
	if ((plan->n == 1 && cfg->order == ORDER_INTERLEAVED) ||
	    (plan->split_by_state && plan->n_groups == plan->n))
		plan->order = ORDER_SEQUENTIAL;
	rc = 0;
out:
	pvals_free(pv, np);
	if (rc != 0)
		planner_free(plan);
	return rc;
}

void planner_free(struct plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		struct plan_bench *b = &plan->bench[i];
		free(b->name);
		free(b->base_name);
		free(b->short_name);
		free(b->command);
		param_values_free(b->params, b->n_params);
		free(b->setup);
		free(b->prepare);
		free(b->conclude);
		free(b->cleanup);
	}
	free(plan->bench);
	memset(plan, 0, sizeof *plan);
}

/* ---- when to stop ---- */

enum stop_reason planner_next(const struct plan_stop *cfg, size_t n,
			      double cost_s, double rel_halfwidth)
{
	if (cfg->runs > 0)
		return n >= (size_t)cfg->runs ? STOP_RUNS : STOP_CONTINUE;

	bool goal;
	if (cfg->precision > 0)
		goal = n >= (size_t)cfg->min_runs && n >= 2 &&
		       isfinite(rel_halfwidth) && rel_halfwidth <= cfg->precision;
	else
		goal = n >= (size_t)cfg->min_runs && cost_s >= cfg->min_time_s;
	if (goal)
		return cfg->precision > 0 ? STOP_PRECISION : STOP_ENOUGH;
	if (cfg->max_runs > 0 && n >= (size_t)cfg->max_runs)
		return STOP_MAX_RUNS;
	if (cfg->max_time_s > 0 && cost_s >= cfg->max_time_s &&
	    n >= 1)
		return STOP_MAX_TIME;
	return STOP_CONTINUE;
}

/* Has a cap (--max-runs, --max-time) been reached? */
static bool capped(const struct plan_stop *cfg, size_t n, double cost_s)
{
	return (cfg->max_runs > 0 && n >= (size_t)cfg->max_runs) ||
	       (cfg->max_time_s > 0 && cost_s >= cfg->max_time_s && n >= 1);
}

enum stop_reason planner_next_member(const struct plan_stop *cfg, size_t n,
				     double cost_s, double rel_halfwidth)
{
	enum stop_reason r = planner_next(cfg, n, cost_s, rel_halfwidth);
	if (cfg->runs > 0)
		return r;
	return capped(cfg, n, cost_s) ? r : STOP_CONTINUE;
}

bool planner_group_done(const struct plan_stop *cfg,
			const struct planner_member *m, size_t k)
{
	double cost = 0;
	bool all_goals = true;
	for (size_t i = 0; i < k; i++) {
		cost += m[i].cost_s;
		if (!m[i].active)
			continue;
		if (m[i].n < (size_t)cfg->min_runs)
			return false;
		enum stop_reason r = planner_next(cfg, m[i].n, m[i].cost_s,
						  m[i].rel_halfwidth);
		all_goals &= r == STOP_RUNS || r == STOP_ENOUGH || r == STOP_PRECISION;
	}
	if (all_goals || cfg->runs > 0)
		return all_goals;
	/* --min-time: the members' budgets pooled. */
	return cfg->precision <= 0 && cost >= (double)k * cfg->min_time_s;
}

/* ---- run order ---- */

struct planner_order {
	enum run_order order;
	size_t n;
	size_t *group;       /* NULL: one group */
	size_t cur;          /* the group taking its turns */
	size_t pos;          /* next slot of the round to look at */
	bool backward;       /* interleaved: this round visits n-1 .. 0 */
	size_t *round;       /* shuffled: this round's permutation */
	uint64_t state;      /* SplitMix64 */
};

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [0, bound), without modulo bias (rejection sampling). */
static uint64_t below(uint64_t *state, uint64_t bound)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % bound;
	uint64_t r;
	do
		r = splitmix64(state);
	while (r >= limit);
	return r % bound;
}

static void new_round(struct planner_order *o)
{
	for (size_t i = 0; i < o->n; i++)
		o->round[i] = i;
	/* Fisher-Yates: swap each slot from the end with one at or before it. */
	for (size_t i = o->n; i > 1; i--) {
		size_t j = (size_t)below(&o->state, i);
		size_t t = o->round[i - 1];
		o->round[i - 1] = o->round[j];
		o->round[j] = t;
	}
	o->pos = 0;
}

struct planner_order *planner_order_new(enum run_order order, size_t n,
					const size_t *group, uint64_t seed)
{
	struct planner_order *o = xcalloc(1, sizeof *o);
	o->order = order;
	o->n = n;
	o->state = seed;
	if (group && n && order != ORDER_SEQUENTIAL) {
		o->group = xcalloc(n, sizeof *o->group);
		memcpy(o->group, group, n * sizeof *group);
		o->cur = group[0];
	}
	if (order == ORDER_SHUFFLED) {
		o->round = xcalloc(n ? n : 1, sizeof *o->round);
		new_round(o);
	}
	return o;
}

void planner_order_free(struct planner_order *o)
{
	if (o == NULL)
		return;
	free(o->round);
	free(o->group);
	free(o);
}

/* May benchmark i take a turn now: active and of the current group. */
static bool eligible(const struct planner_order *o, const bool *active, size_t i)
{
	return active[i] && (o->group == NULL || o->group[i] == o->cur);
}

long planner_order_next(struct planner_order *o, const bool *active)
{
	long lowest = -1;
	bool any = false;
	for (size_t i = 0; i < o->n && !any; i++) {
		if (active[i] && lowest < 0)
			lowest = (long)i;
		any = eligible(o, active, i);
	}
	if (lowest < 0)
		return -1;
	if (!any) {
		/* The group is done: the earliest one left starts, in a
		 * fresh round (every group before it is done, and the
		 * lowest active benchmark is that group's first). */
		o->cur = o->group[lowest];
		o->pos = 0;
		o->backward = false;
		if (o->order == ORDER_SHUFFLED)
			new_round(o);
	}
	switch (o->order) {
	case ORDER_SEQUENTIAL:
		for (size_t i = 0; i < o->n; i++)
			if (eligible(o, active, i))
				return (long)i;
		break;
	case ORDER_INTERLEAVED:
		for (;;) {
			if (o->pos >= o->n) {
				o->pos = 0;
				o->backward = !o->backward;
			}
			size_t slot = o->pos++;
			size_t i = o->backward ? o->n - 1 - slot : slot;
			if (eligible(o, active, i))
				return (long)i;
		}
	case ORDER_SHUFFLED:
		for (;;) {
			if (o->pos >= o->n)
				new_round(o);
			size_t i = o->round[o->pos++];
			if (eligible(o, active, i))
				return (long)i;
		}
	}
	return -1;
}

/* ---- one benchmark's steps ---- */

void planner_steps_init(struct planner_steps *it, long warmup,
			const struct plan_bench *b)
{
	memset(it, 0, sizeof *it);
	it->warmups = warmup > 0 ? (size_t)warmup : 0;
	it->has_setup = b->setup != NULL;
	it->has_prepare = b->prepare != NULL;
	it->has_conclude = b->conclude != NULL;
	it->has_cleanup = b->cleanup != NULL;
}

static struct planner_step step(enum planner_step_kind kind, bool warmup,
				size_t k)
{
	return (struct planner_step){.kind = kind, .warmup = warmup, .k = k};
}

/* The first step of warmup k (1-based) or of measured run k (0-based). */
static struct planner_step run_begin(const struct planner_steps *it,
				     bool warmup, size_t k)
{
	if (it->has_prepare)
		return step(PLANNER_STEP_PREPARE, warmup, k);
	return step(warmup ? PLANNER_STEP_WARMUP : PLANNER_STEP_MEASURE, warmup, k);
}

/* After the setup (or START without one): the warmups, else the runs. */
static struct planner_step after_setup(struct planner_steps *it)
{
	it->setup_done = true;
	return it->warmups > 0 ? run_begin(it, true, 1) : run_begin(it, false, 0);
}

/* The step after it->last, which went well. */
static struct planner_step successor(struct planner_steps *it)
{
	const struct planner_step l = it->last;
	switch (l.kind) {
	case PLANNER_STEP_START:
		return it->has_setup ? step(PLANNER_STEP_SETUP, false, 0)
				     : after_setup(it);
	case PLANNER_STEP_SETUP:
		return after_setup(it);
	case PLANNER_STEP_PREPARE:
		return step(l.warmup ? PLANNER_STEP_WARMUP : PLANNER_STEP_MEASURE,
			    l.warmup, l.k);
	case PLANNER_STEP_WARMUP:
	case PLANNER_STEP_MEASURE: {
		bool w = l.kind == PLANNER_STEP_WARMUP;
		if (it->has_conclude)
			return step(PLANNER_STEP_CONCLUDE, w, l.k);
		return step(w ? PLANNER_STEP_WARMUP_END : PLANNER_STEP_RUN_END,
			    w, l.k);
	}
	case PLANNER_STEP_CONCLUDE:
		return step(l.warmup ? PLANNER_STEP_WARMUP_END : PLANNER_STEP_RUN_END,
			    l.warmup, l.k);
	case PLANNER_STEP_WARMUP_END:
		return l.k < it->warmups ? run_begin(it, true, l.k + 1)
					 : run_begin(it, false, 0);
	case PLANNER_STEP_RUN_END:
		return run_begin(it, false, l.k + 1);
	case PLANNER_STEP_CLEANUP:
	case PLANNER_STEP_DONE:
		break;
	}
	return step(PLANNER_STEP_DONE, false, 0);
}

struct planner_step planner_steps_next(struct planner_steps *it)
{
	if (it->stopped) {
		bool clean = it->cleanup && it->has_cleanup && it->setup_done &&
			     it->last.kind != PLANNER_STEP_CLEANUP &&
			     it->last.kind != PLANNER_STEP_DONE;
		it->last = step(clean ? PLANNER_STEP_CLEANUP : PLANNER_STEP_DONE,
				false, 0);
	} else if (!it->begun) {
		it->begun = true;
		it->last = step(PLANNER_STEP_START, false, 0);
	} else {
		it->last = successor(it);
	}
	return it->last;
}

void planner_steps_stop(struct planner_steps *it, bool cleanup)
{
	if (it->stopped) {
		it->cleanup = it->cleanup && cleanup;
		return;
	}
	it->stopped = true;
	it->cleanup = cleanup;
}
