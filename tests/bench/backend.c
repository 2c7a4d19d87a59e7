/*
 * backend.c: `make bench`'s scale test of everything after the runs, linked
 * with cbench's modules (no process is spawned).
 *
 *   backend runs N        one benchmark of N synthetic runs
 *   backend sweep N R     N parameter values (-L n 1..N), R runs each
 *
 * Every metric a default run stores (rusage and the software counters) is
 * filled with synthetic values through results_add_run, as the engine does.
 * Then, timed: a summary of every metric and the outlier flags (stats.h),
 * and, when this tree has the exporters (export.h), the export document
 * and every format written to /dev/null (--export-html among them), and
 * the HTML page's size ("html_bytes N").  Prints one line per phase:
 * "phase SECONDS", and "missing WHAT" for what this tree does not have yet,
 * so the bench script can say what was not timed.
 *
 * To time a new back-end module, add a phase in run_backend().
 */
#include "bench.h"
#include "cli.h"
#include "results.h"
#include "stats.h"
#include "xalloc.h"

#if defined(__has_include)
#if __has_include("export.h")
#include "export.h"
#define HAVE_EXPORT 1
#endif
#if __has_include("export_html.h")
#define HAVE_HTML 1
#endif
/* Since the per-layer options: the exports take struct export_options. */
#if __has_include("cli_layers.h")
#include "cli_layers.h"
#define HAVE_LAYERS 1
#endif
#endif

#include "bench_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Roughly what a run of a ~1 ms command looks like, with a right tail. */
static void synthetic_run(double v[MET_COUNT])
{
	double u = uniform();
	double wall = 1e-3 * (1 + 0.05 * uniform() + (u > 0.99 ? 2 * u : 0));
	for (int m = 0; m < MET_COUNT; m++)
		v[m] = NAN;
	v[MET_WALL] = wall;
	v[MET_USER] = wall * 0.6;
	v[MET_SYSTEM] = wall * 0.3;
	v[MET_MAX_RSS] = 1048576 + 4096 * floor(8 * uniform());
	v[MET_MINFLT] = 45 + floor(3 * uniform());
	v[MET_MAJFLT] = 0;
	v[MET_VCSW] = 1;
	v[MET_IVCSW] = floor(2 * uniform());
	v[MET_CTR_FIRST + CTR_TASK_CLOCK] = wall * 0.8;
	v[MET_CTR_FIRST + CTR_PAGE_FAULTS] = 46 + floor(2 * uniform());
}

static struct bench_result *synthetic_result(const char *name, size_t runs,
					     const struct param_value *p,
					     size_t np)
{
	struct bench_result *r = results_new(name, name, p, np);
	for (int m = 0; m < MET_CTR_FIRST; m++)
		results_enable(r, (enum metric_id)m);
	results_enable(r, (enum metric_id)(MET_CTR_FIRST + CTR_TASK_CLOCK));
	results_enable(r, (enum metric_id)(MET_CTR_FIRST + CTR_PAGE_FAULTS));
	double v[MET_COUNT];
	for (size_t i = 0; i < runs; i++) {
		synthetic_run(v);
		results_add_run(r, v, 0, 0);
	}
	return r;
}

static int run_backend(int argc, char **argv, struct bench_outcome *o)
{
#ifdef HAVE_EXPORT
	struct config cfg;
	int code = 0;
	if (cli_parse(argc, argv, &cfg, &code) != 0) {
		fprintf(stderr, "backend: cannot build a configuration\n");
		return 1;
	}
#ifdef HAVE_LAYERS
	struct export_options xo = cli_export_options(&cfg);
	struct export_context ctx = {.opts = &xo, .argc = argc, .argv = argv};
#else
	struct export_context ctx = {.cfg = &cfg, .argc = argc, .argv = argv};
#endif
	sysinfo_collect(&ctx.machine, time(NULL));
	FILE *sink = fopen("/dev/null", "w");
	if (sink == NULL)
		return 1;
	/* The analysis document: every statistic, once. */
	double t0 = now_s();
#ifdef HAVE_LAYERS
	struct analysis_options aopt = xo.analysis;
#else
	struct analysis_options aopt = export_analysis_options(&cfg);
#endif
	struct analysis *an = analysis_new(&aopt);
	analysis_update(an, o->results, o->n, o->reference);
	printf("stats %.3f\n", now_s() - t0);
	t0 = now_s();
	struct export_doc *d = export_doc_new(&ctx, o, an);
	printf("export_doc %.3f\n", now_s() - t0);
	double all = 0;
	for (int f = 0; f < EXPORT__COUNT; f++) {
		export_fn fn = export_function((enum export_format)f);
		if (fn == NULL)
			continue;
		t0 = now_s();
		fn(sink, d);
		fflush(sink);
		double t = now_s() - t0;
		all += t;
		printf("%s %.3f\n", export_option_name((enum export_format)f) + 2, t);
	}
	printf("exports %.3f\n", all);
#ifdef HAVE_HTML
	/* The HTML page's size: it must not grow with the runs. */
	char *page = NULL;
	size_t page_len = 0;
	FILE *mem = open_memstream(&page, &page_len);
	if (mem) {
		export_html_write(mem, d);
		fclose(mem);
		printf("html_bytes %zu\n", page_len);
		free(page);
	}
#else
	printf("missing html (no export_html.h in this tree)\n");
#endif
	export_doc_free(d);
	analysis_free(an);
	fclose(sink);
	cli_free(&cfg);
#else
	(void)argc;
	(void)argv;
	printf("missing exporters (no export.h in this tree)\n");
#endif
	return 0;
}

int main(int argc, char **argv)
{
	stats_init();
	struct bench_outcome o;
	memset(&o, 0, sizeof o);
	o.reference = -1;
	o.exec_exact = true;
	char *cli_argv[] = {"cbench", "--runs", "2", "true", NULL};
	int rc;

	if (argc == 3 && strcmp(argv[1], "runs") == 0) {
		size_t n = strtoul(argv[2], NULL, 10);
		o.results = xcalloc(1, sizeof *o.results);
		double t0 = now_s();
		o.results[o.n++] = synthetic_result("synthetic", n, NULL, 0);
		printf("store %.3f\n", now_s() - t0);
		rc = run_backend(4, cli_argv, &o);
	} else if (argc == 4 && strcmp(argv[1], "sweep") == 0) {
		size_t n = strtoul(argv[2], NULL, 10);
		size_t runs = strtoul(argv[3], NULL, 10);
		o.results = xcalloc(n ? n : 1, sizeof *o.results);
		for (size_t i = 0; i < n; i++) {
			char value[32], name[64];
			snprintf(value, sizeof value, "%zu", i + 1);
			snprintf(name, sizeof name, "synthetic %zu", i + 1);
			struct param_value p = {"n", value};
			o.results[o.n++] = synthetic_result(name, runs, &p, 1);
		}
		rc = run_backend(4, cli_argv, &o);
	} else {
		fprintf(stderr, "usage: backend runs N | backend sweep N RUNS\n");
		return 2;
	}
	bench_free_outcome(&o);
	return rc;
}
