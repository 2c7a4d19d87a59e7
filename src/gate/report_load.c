/*
 * report_load.c: saved results for `cbench report` (see report_load.h).
 *
 * The benchmarks and their runs come from gate_load, which validates the
 * file (cbench schema 1 and 2, hyperfine's export).  The context is read
 * here from the same file: cbench's "cbench_version" and "context" block
 * (tests/golden/sweep.json shows the schema); a hyperfine export has no
 * context, only its results.
 */
#include "report_load.h"
#include "xalloc.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	char *buf = NULL;
	size_t cap = 0, got;
	char chunk[65536];
	*len = 0;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
		xgrow((void **)&buf, &cap, *len + got + 1, 1);
		memcpy(buf + *len, chunk, got);
		*len += got;
	}
	fclose(f);
	if (buf == NULL)
		buf = xcalloc(1, 1);
	buf[*len] = '\0';
	return buf;
}

static void copy_str(char *dst, size_t len, const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (cJSON_IsString(v))
		snprintf(dst, len, "%s", v->valuestring);
}

/* argv joined with spaces, words with blanks quoted. */
static char *join_words(const cJSON *argv)
{
	char *s = xstrdup("");
	const cJSON *w;
	cJSON_ArrayForEach(w, argv) {
		if (!cJSON_IsString(w))
			continue;
		bool q = w->valuestring[0] == '\0' || strpbrk(w->valuestring, " \t'\"$`") != NULL;
		char *t = xasprintf("%s%s%s%s%s", s, s[0] ? " " : "", q ? "'" : "",
				    w->valuestring, q ? "'" : "");
		free(s);
		s = t;
	}
	return s;
}

static void read_context(const cJSON *root, struct report_input *in)
{
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "cbench_version");
	if (cJSON_IsString(ver))
		snprintf(in->measured_by, sizeof in->measured_by, "cbench %s",
			 ver->valuestring);
	const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(root, "context");
	if (!cJSON_IsObject(ctx))
		return;
	in->have_machine = true;
	struct machine_info *m = &in->machine;
	copy_str(m->started_at, sizeof m->started_at, ctx, "started_at");
	copy_str(m->hostname, sizeof m->hostname, ctx, "hostname");
	copy_str(m->kernel, sizeof m->kernel, ctx, "kernel");
	copy_str(m->cpu_model, sizeof m->cpu_model, ctx, "cpu_model");
	const cJSON *cpus = cJSON_GetObjectItemCaseSensitive(ctx, "cpus");
	if (cJSON_IsNumber(cpus) && cpus->valuedouble > 0 && cpus->valuedouble < 1e6)
		m->cpus = (long)cpus->valuedouble;
	const cJSON *argv = cJSON_GetObjectItemCaseSensitive(ctx, "argv");
	if (cJSON_IsArray(argv))
		in->command_line = join_words(argv);
	const cJSON *opt = cJSON_GetObjectItemCaseSensitive(ctx, "options");
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(opt, "confidence");
	if (cJSON_IsNumber(c) && c->valuedouble > 0.5 && c->valuedouble < 1)
		in->confidence = c->valuedouble;
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(opt, "order");
	if (cJSON_IsString(o))
		in->order = strcmp(o->valuestring, "interleaved") == 0 ? ORDER_INTERLEAVED
			  : strcmp(o->valuestring, "shuffled") == 0 ? ORDER_SHUFFLED
			  : ORDER_SEQUENTIAL;
}

int report_load(const char *path, struct report_input *out, char *err,
		size_t errlen)
{
	memset(out, 0, sizeof *out);
	out->confidence = NAN;
	out->order = ORDER_SEQUENTIAL;
	if (gate_load(path, &out->set, err, errlen) != 0)
		return -1;
	snprintf(out->measured_by, sizeof out->measured_by, "%s",
		 out->set->format == CMP_FMT_HYPERFINE ? "hyperfine" : "cbench");
	size_t len;
	char *text = slurp(path, &len);
	if (text == NULL) {
		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(errno));
		report_input_free(out);
		return -1;
	}
	cJSON *root = cJSON_ParseWithLength(text, len);
	free(text);
	if (root && out->set->format == CMP_FMT_CBENCH)
		read_context(root, out);
	cJSON_Delete(root);
	return 0;
}

void report_input_free(struct report_input *in)
{
	if (in == NULL)
		return;
	gate_set_free(in->set);
	free(in->command_line);
	memset(in, 0, sizeof *in);
}

static struct bench_result *to_result(const struct cmp_bench *b)
{
	struct bench_result *r = results_new(b->name, b->command, b->params,
					     b->n_params);
	for (int m = 0; m < MET_COUNT; m++)
		if (b->col[m])
			results_enable(r, (enum metric_id)m);
	double v[MET_COUNT];
	for (size_t k = 0; k < b->n_runs; k++) {
		for (int m = 0; m < MET_COUNT; m++)
			v[m] = b->col[m] ? b->col[m][k] : NAN;
		results_add_run(r, v, 0, 0);
		results_set_run_info(r, NAN, b->run_index ? b->run_index[k] : NAN);
	}
	r->interrupted = b->interrupted;
	r->group = b->group;
	return r;
}

struct bench_result **report_results(const struct report_input *in, size_t n_in,
				     size_t *n)
{
	size_t total = 0;
	for (size_t i = 0; i < n_in; i++)
		total += in[i].set->n;
	struct bench_result **rs = xcalloc(total ? total : 1, sizeof *rs);
	*n = 0;
	for (size_t i = 0; i < n_in; i++)
		for (size_t k = 0; k < in[i].set->n; k++)
			rs[(*n)++] = to_result(&in[i].set->bench[k]);
	return rs;
}
