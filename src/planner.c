/*
 * planner.c: turns the configuration into benchmarks (see planner.h) and
 * decides when a benchmark has enough runs.
 */
#include "planner.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of a once-or-per-command option for command i. */
static const char *per_command(const struct strlist *l, size_t i)
{
	if (l->n == 0)
		return NULL;
	return l->n == 1 ? l->v[0] : l->v[i];
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

int planner_build(const struct config *cfg, struct plan *plan,
		  char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	memset(plan, 0, sizeof *plan);
	size_t ncmd = cfg->commands.n + (cfg->reference ? 1 : 0);
	plan->bench = xcalloc(ncmd, sizeof *plan->bench);
	for (size_t i = 0; i < ncmd; i++) {
		struct plan_bench *b = &plan->bench[plan->n++];
		bool ref = cfg->reference && i == 0;
		const char *cmd = ref ? cfg->reference
				      : cfg->commands.v[i - (cfg->reference ? 1 : 0)];
		const char *name = i < cfg->names.n ? cfg->names.v[i] : cmd;
		b->name = xstrdup(name);
		b->command = xstrdup(cmd);
		b->setup = dup_or_null(per_command(&cfg->setup, i));
		b->prepare = dup_or_null(per_command(&cfg->prepare, i));
		b->conclude = dup_or_null(per_command(&cfg->conclude, i));
		b->cleanup = dup_or_null(per_command(&cfg->cleanup, i));
		b->output = cfg->show_output ? "inherit" : per_command(&cfg->outputs, i);
		if (b->output == NULL)
			b->output = "null";
		b->is_reference = ref;
	}
	return 0;
}

void planner_free(struct plan *plan)
{
	for (size_t i = 0; i < plan->n; i++) {
		struct plan_bench *b = &plan->bench[i];
		free(b->name);
		free(b->command);
		for (size_t k = 0; k < b->n_params; k++) {
			free(b->params[k].name);
			free(b->params[k].value);
		}
		free(b->params);
		free(b->setup);
		free(b->prepare);
		free(b->conclude);
		free(b->cleanup);
	}
	free(plan->bench);
	memset(plan, 0, sizeof *plan);
}

enum stop_reason planner_next(const struct config *cfg, size_t n,
			      double total_wall_s, double rel_halfwidth)
{
	if (cfg->runs > 0)
		return n >= (size_t)cfg->runs ? STOP_RUNS : STOP_CONTINUE;

	bool goal;
	if (cfg->precision > 0)
		goal = n >= (size_t)cfg->min_runs && n >= 2 &&
		       isfinite(rel_halfwidth) && rel_halfwidth <= cfg->precision;
	else
		goal = n >= (size_t)cfg->min_runs && total_wall_s >= cfg->min_time_s;
	if (goal)
		return cfg->precision > 0 ? STOP_PRECISION : STOP_ENOUGH;
	if (cfg->max_runs > 0 && n >= (size_t)cfg->max_runs)
		return STOP_MAX_RUNS;
	if (cfg->max_time_s > 0 && total_wall_s >= cfg->max_time_s &&
	    n >= 1)
		return STOP_MAX_TIME;
	return STOP_CONTINUE;
}
