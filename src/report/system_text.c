/*
 * system_text.c: prints `cbench system check` (its items, each with its
 * verdict, reading, the reason it matters and the fix; then the noise
 * line), its --json document, and what `tune` and `reset` changed.
 * Printing lives here, beside the other terminal output (report/).
 */
#include "system_text.h"

#include <cJSON.h>
#include <math.h>
#include <string.h>

static const char *verdict_color(enum check_verdict v)
{
	return v == CHECK_FINE ? "\033[32m" : v == CHECK_RISK ? "\033[33m" : "\033[2m";
}

void system_text_check(FILE *f, const struct syscheck *c,
		       const struct noise_result *noise, bool color)
{
	for (size_t i = 0; i < c->n; i++) {
		const struct check_item *it = &c->item[i];
		const char *v = syscheck_verdict_name(it->verdict);
		fprintf(f, "%s%-8s%s %-28s %s\n", color ? verdict_color(it->verdict) : "",
			v, color ? "\033[0m" : "", it->label, it->reading);
		if (it->verdict != CHECK_FINE && it->why[0])
			fprintf(f, "%-37s why: %s\n", "", it->why);
		if (it->verdict == CHECK_RISK && it->fix[0])
			fprintf(f, "%-37s fix: %s\n", "", it->fix);
	}
	if (noise == NULL)
		return;
	fprintf(f, "\nNoise: %zu runs of a fixed loop (mean %.1f ms): spread %.1f %% "
		"(standard deviation / mean), lag-1 autocorrelation %.2f, last "
		"third %+.1f %% against the first%s.\n", noise->runs,
		noise->mean_s * 1e3, noise->cv * 100, noise->acf1,
		noise->first_last * 100, noise->drift ? " (the speed drifted)" : "");
	fprintf(f, "A difference below %.1f %% cannot be resolved here with %zu runs "
		"(sqrt(2) x the half-width of the loop mean's %g %% interval, "
		"relative to the mean).\n", noise->resolvable * 100, noise->runs,
		noise->confidence * 100);
}

int system_text_check_json(FILE *f, const char *root, const struct syscheck *c,
			   const struct noise_result *noise)
{
	cJSON *j = syscheck_json(c);
	if (j == NULL)
		return -1;
	cJSON_AddStringToObject(j, "root", root);
	if (noise)
		cJSON_AddItemToObject(j, "noise", noise_json(noise));
	else
		cJSON_AddNullToObject(j, "noise");
	char *t = cJSON_Print(j);
	cJSON_Delete(j);
	if (t == NULL)
		return -1;
	fprintf(f, "%s\n", t);
	cJSON_free(t);
	return 0;
}

void system_text_tune(FILE *f, const char *verb, const char *root,
		      const struct systune_log *log)
{
	const char *r = strcmp(root, "/") == 0 ? "" : root;
	if (log->n == 0) {
		fprintf(f, "%s: nothing to change\n", verb);
		return;
	}
	for (size_t i = 0; i < log->n; i++)
		fprintf(f, "%s: %s/%s: %s -> %s\n", verb, r, log->v[i].path,
			log->v[i].from[0] ? log->v[i].from : "?", log->v[i].to);
	if (strcmp(verb, "tune") == 0)
		fprintf(f, "previous values saved in %s/%s; 'cbench system reset' "
			"restores them\n", r, SYSTUNE_SAVED);
}
