/*
 * Unit tests: the continuous-benchmarking exports (export_ci.c: Bencher
 * Metric Format, github-action-benchmark's customSmallerIsBetter) and the
 * gate's JUnit XML report (export_junit.c), against golden files in
 * tests/golden/ci.* (UPDATE_GOLDEN=1 rewrites them).  The golden files are
 * also checked against the formats' documented schemas by
 * tests/e2e/ci_formats.sh (tests/tools/ci_formats.py for Bencher's
 * bencher.dev/bmf.json and github-action-benchmark's README,
 * tests/tools/junit.xsd with xmllint for JUnit).
 *
 * Results are built by hand so every number is fixed.
 */
#include "cli_layers.h"
#include "export.h"
#include "export_junit.h"
#include "gate.h"
#include "unit.h"
#include "xalloc.h"

#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct spec {
	const char *name;
	const char *pn, *pv;        /* one parameter, or NULL */
	size_t n;
	double wall[6], rss[6];
};

static struct bench_result *make(const struct spec *s)
{
	struct param_value p = {(char *)s->pn, (char *)s->pv};
	struct bench_result *r = results_new(s->name, s->name, &p, s->pn ? 1 : 0);
	results_enable(r, MET_WALL);
	results_enable(r, MET_MAX_RSS);
	for (size_t k = 0; k < s->n; k++) {
		double v[MET_COUNT];
		for (int m = 0; m < MET_COUNT; m++)
			v[m] = NAN;
		v[MET_WALL] = s->wall[k];
		v[MET_MAX_RSS] = s->rss[k];
		results_add_run(r, v, 0, 0);
	}
	return r;
}

/* A sweep (n=1, n=10), the same command twice, and one single run. */
static const struct spec base_spec[] = {
	{"make -j1", "n", "1", 5, {0.50, 0.51, 0.49, 0.50, 0.52},
	 {1e7, 1e7, 1e7, 1e7, 1e7}},
	{"make -j10", "n", "10", 5, {0.15, 0.16, 0.15, 0.14, 0.15},
	 {2e7, 2.1e7, 2e7, 2e7, 2e7}},
	{"./tool <in> & \"q\"", NULL, NULL, 5, {0.10, 0.11, 0.10, 0.10, 0.11},
	 {4e6, 4e6, 4e6, 4e6, 4e6}},
	{"./tool <in> & \"q\"", NULL, NULL, 5, {0.10, 0.10, 0.11, 0.10, 0.10},
	 {4e6, 4e6, 4e6, 4e6, 4e6}},
	{"once", NULL, NULL, 1, {0.30}, {5e6}},
};
/* The same with make -j1 50 % slower and twice the memory of make -j10. */
static const struct spec new_spec[] = {
	{"make -j1", "n", "1", 5, {0.75, 0.76, 0.74, 0.75, 0.77},
	 {1e7, 1e7, 1e7, 1e7, 1e7}},
	{"make -j10", "n", "10", 5, {0.15, 0.15, 0.16, 0.14, 0.15},
	 {4e7, 4.1e7, 4e7, 4e7, 4e7}},
	{"./tool <in> & \"q\"", NULL, NULL, 5, {0.10, 0.10, 0.11, 0.11, 0.10},
	 {4e6, 4e6, 4e6, 4e6, 4e6}},
	{"./tool <in> & \"q\"", NULL, NULL, 5, {0.11, 0.10, 0.10, 0.10, 0.10},
	 {4e6, 4e6, 4e6, 4e6, 4e6}},
	{"once", NULL, NULL, 1, {0.31}, {5e6}},
};
#define N_SPEC (sizeof base_spec / sizeof *base_spec)

struct fixture {
	struct config cfg;
	struct export_options opts;   /* from cfg */
	struct export_context ctx;
	struct bench_outcome out;
	struct export_doc *doc;
};

static char *argv_[] = {"cbench", "--seed", "1", "-r", "5", "x"};

static int fixture_init(struct fixture *fx, const struct spec *spec)
{
	int code;
	memset(fx, 0, sizeof *fx);
	if (cli_parse(6, argv_, &fx->cfg, &code) != 0)
		return -1;
	fx->opts = cli_export_options(&fx->cfg);
	fx->ctx.opts = &fx->opts;
	fx->ctx.argc = 6;
	fx->ctx.argv = argv_;
	fx->out.results = xcalloc(N_SPEC, sizeof *fx->out.results);
	for (size_t i = 0; i < N_SPEC; i++)
		fx->out.results[fx->out.n++] = make(&spec[i]);
	fx->out.reference = -1;
	fx->doc = export_doc_new(&fx->ctx, &fx->out, NULL);
	return 0;
}

static void fixture_free(struct fixture *fx)
{
	export_doc_free(fx->doc);
	bench_free_outcome(&fx->out);
	cli_free(&fx->cfg);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int c;
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(f);
	fclose(m);
	return buf;
}

/* got against tests/golden/<name>; 0 if equal (UPDATE_GOLDEN=1 writes). */
static int golden(const char *got, const char *name)
{
	const char *dir = getenv("GOLDEN_DIR") ? getenv("GOLDEN_DIR") : "tests/golden";
	char *path = xasprintf("%s/%s", dir, name);
	const char *upd = getenv("UPDATE_GOLDEN");
	int rc = -1;
	if (upd && strcmp(upd, "1") == 0) {
		FILE *f = fopen(path, "wb");
		if (f) {
			fputs(got, f);
			rc = fclose(f) == 0 ? 0 : -1;
		}
	} else {
		char *want = slurp(path);
		rc = want && strcmp(want, got) == 0 ? 0 : -1;
		if (rc != 0)
			printf("FAIL %s: output differs from %s\n", unit_name, path);
		free(want);
	}
	free(path);
	return rc;
}

static char *render(export_fn fn, const struct export_doc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = fn(f, d);
	fclose(f);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void bmf_golden(void)
{
	struct fixture fx;
	CHECK(fixture_init(&fx, base_spec) == 0);
	char *got = render(export_bmf_write, fx.doc);
	CHECK(got != NULL);
	int rc = golden(got, "ci.bmf.json");
	free(got);
	fixture_free(&fx);
	if (rc != 0)
		unit_state = 1;
}

static void github_benchmark_golden(void)
{
	struct fixture fx;
	CHECK(fixture_init(&fx, base_spec) == 0);
	char *got = render(export_github_benchmark_write, fx.doc);
	CHECK(got != NULL);
	int rc = golden(got, "ci.github-benchmark.json");
	free(got);
	fixture_free(&fx);
	if (rc != 0)
		unit_state = 1;
}

/* Equal to cJSON's printing precision (15 significant digits when they
 * read back within its epsilon, else 17). */
static bool same(double a, double b)
{
	return fabs(a - b) <= 1e-14 * fabs(b);
}

/* Every value is the analysis document's mean and interval;
 * names carry the parameters; the repeated command gets " #2"; one run
 * has no bounds. */
static void bmf_numbers_from_analysis(void)
{
	struct fixture fx;
	CHECK(fixture_init(&fx, base_spec) == 0);
	char *got = render(export_bmf_write, fx.doc);
	cJSON *j = cJSON_Parse(got);
	free(got);
	CHECK(j != NULL);
	const char *names[N_SPEC] = {"make -j1 [n=1]", "make -j10 [n=10]",
				     "./tool <in> & \"q\"", "./tool <in> & \"q\" #2",
				     "once"};
	int bad = 0;
	for (size_t i = 0; i < N_SPEC; i++) {
		const struct stats_summary *s = &fx.doc->an->bench[i].sum[MET_WALL];
		cJSON *w = cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(j, names[i]), "wall_time");
		cJSON *v = cJSON_GetObjectItemCaseSensitive(w, "value");
		cJSON *lo = cJSON_GetObjectItemCaseSensitive(w, "lower_value");
		bad += v == NULL || !same(v->valuedouble, s->mean);
		if (s->n > 1)
			bad += lo == NULL || !same(lo->valuedouble, s->mean_ci_lo);
		else
			bad += lo != NULL;
	}
	cJSON_Delete(j);
	fixture_free(&fx);
	CHECK(bad == 0);
}

/* The gate of new_spec against base_spec on wall time and peak RSS, as
 * JUnit XML: make -j1 fails on wall time, make -j10 on peak RSS, "once"
 * is skipped (undecided), the rest pass. */
static void junit_golden(void)
{
	struct fixture a, b;
	CHECK(fixture_init(&a, base_spec) == 0);
	CHECK(fixture_init(&b, new_spec) == 0);
	struct cmp_set *base = gate_from_results(a.out.results, a.out.n, "main.json");
	struct cmp_set *new = gate_from_results(b.out.results, b.out.n, "this run");
	struct gate_threshold over[] = {{"make -j10", MET_MAX_RSS, 0.5}};
	struct gate_options opt = {.metric = MET_WALL, .threshold = 0.05,
				   .confidence = 0.95, .seed = 1,
				   .match_by = MATCH_COMMAND};
	struct gate_result g[2];
	gate_run(&opt, base, new, &g[0]);
	opt.metric = MET_MAX_RSS;
	opt.threshold = 0.10;
	gate_run(&opt, base, new, &g[1]);
	const struct cmp_report *reps[] = {&g[0].rep, &g[1].rep};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = export_junit_print(f, reps, 2, false);
	fclose(f);
	int gold = rc == 0 ? golden(buf, "ci.junit.xml") : -1;
	bool fails = strstr(buf, "<failure type=\"regression\"") != NULL &&
		     strstr(buf, "<skipped>wall_time undecided") != NULL &&
		     strstr(buf, "unresolved") == NULL &&
		     strstr(buf, "within noise: new/base 1 (98.75% CI 0.9088 to 1.1), "
			    "threshold 5%, p = 1, resolution 10%; it could not resolve "
			    "its threshold: a regression up to +16% could have passed") != NULL;
	free(buf);
	/* --require-resolution: a blind pass is a failure of its own, and
	 * the counts say so (wall time: 1 regression + 3 blind passes, whose
	 * resolutions of 9-11 % are coarser than the 5 % threshold). */
	f = open_memstream(&buf, &len);
	rc |= export_junit_print(f, reps, 2, true);
	fclose(f);
	bool blind = strstr(buf, "<failure type=\"unresolved\" message=\"wall_time "
			    "within noise: new/base 1 (98.75% CI 0.9088 to 1.1)") != NULL &&
		     strstr(buf, "<testsuite name=\"cbench gate: wall_time\" tests=\"5\" "
			    "failures=\"4\"") != NULL &&
		     strstr(buf, "<testsuites name=\"cbench\" tests=\"10\" failures=\"5\" "
			    "errors=\"0\">") != NULL;
	size_t regressions = g[0].rep.count[CMP_REGRESSION] +
			     g[1].rep.count[CMP_REGRESSION];
	/* The per-benchmark threshold turns make -j10's memory regression
	 * (2x, beyond 10 %) into one within it (50 %)?  No: 2x is +100 %,
	 * beyond 50 % too; the override shows in its row's threshold. */
	opt.thresholds = over;
	opt.n_thresholds = 1;
	struct gate_result h;
	gate_run(&opt, base, new, &h);
	double row_thr = NAN;
	for (size_t k = 0; k < h.rep.n_rows; k++)
		if (h.rep.rows[k].new && strcmp(h.rep.rows[k].new->name, "make -j10") == 0)
			row_thr = h.rep.rows[k].threshold;
	free(buf);
	gate_result_free(&h);
	gate_result_free(&g[0]);
	gate_result_free(&g[1]);
	gate_set_free(base);
	gate_set_free(new);
	fixture_free(&a);
	fixture_free(&b);
	CHECK(gold == 0);
	CHECK(fails);
	CHECK(blind);
	CHECK(regressions == 2);
	CHECK(row_thr == 0.5);
}

/* Most specific first: benchmark and metric, benchmark, metric, default. */
static void threshold_precedence(void)
{
	struct cmp_bench b = {.name = "a", .command = "./a"};
	struct gate_threshold t[] = {
		{NULL, MET_WALL, 0.10},
		{"./a", -1, 0.20},
		{"a", MET_MAX_RSS, 0.30},
		{"other", -1, 0.40},
	};
	CHECK(gate_threshold_for(t, 4, 0.05, &b, MET_MAX_RSS) == 0.30);
	CHECK(gate_threshold_for(t, 4, 0.05, &b, MET_WALL) == 0.20);
	CHECK(gate_threshold_for(t, 1, 0.05, &b, MET_WALL) == 0.10);
	CHECK(gate_threshold_for(t, 1, 0.05, &b, MET_USER) == 0.05);
	CHECK(gate_threshold_for(NULL, 0, 0.05, &b, MET_USER) == 0.05);
}

/* The JSON context carries the machine and source readings as given
 * (sysinfo.h; filled by hand here), and null for each unknown one. */
static void json_context_fields(void)
{
	struct fixture fx;
	CHECK(fixture_init(&fx, base_spec) == 0);
	struct export_context *c = &fx.ctx;
	c->machine.mem_total = 8589934592;
	c->machine.swap_total = 0;
	c->machine.swap_used = 0;
	c->machine.loadavg[0] = 0.5;
	c->machine.loadavg[1] = 1.25;
	c->machine.loadavg[2] = 2;
	snprintf(c->machine.os_release, sizeof c->machine.os_release, "Debian GNU/Linux 12 (bookworm)");
	snprintf(c->machine.governor, sizeof c->machine.governor, "performance");
	c->machine.boost = 0;
	snprintf(c->machine.compiler, sizeof c->machine.compiler, "gcc 12.2.0");
	snprintf(c->source.commit, sizeof c->source.commit, "0123456789abcdef0123456789abcdef01234567");
	snprintf(c->source.branch, sizeof c->source.branch, "main");
	c->source.dirty = 1;
	snprintf(c->source.from, sizeof c->source.from, "git");
	char *got = render(export_json_write, fx.doc);
	cJSON *j = cJSON_Parse(got);
	free(got);
	CHECK(j != NULL);
	cJSON *x = cJSON_GetObjectItemCaseSensitive(j, "context");
	int bad = 0;
	bad += cJSON_GetObjectItem(x, "memory_total_bytes")->valuedouble != 8589934592.0;
	bad += cJSON_GetObjectItem(x, "swap_total_bytes")->valuedouble != 0;
	bad += cJSON_GetArrayItem(cJSON_GetObjectItem(x, "load_average"), 1)->valuedouble != 1.25;
	bad += strcmp(cJSON_GetObjectItem(x, "os_release")->valuestring,
		      "Debian GNU/Linux 12 (bookworm)") != 0;
	bad += strcmp(cJSON_GetObjectItem(x, "cpu_governor")->valuestring, "performance") != 0;
	bad += !cJSON_IsNull(cJSON_GetObjectItem(x, "cpufreq_driver"));
	bad += !cJSON_IsFalse(cJSON_GetObjectItem(x, "cpu_boost"));
	bad += strcmp(cJSON_GetObjectItem(x, "compiler")->valuestring, "gcc 12.2.0") != 0;
	cJSON *src = cJSON_GetObjectItem(x, "source");
	bad += strcmp(cJSON_GetObjectItem(src, "branch")->valuestring, "main") != 0;
	bad += !cJSON_IsTrue(cJSON_GetObjectItem(src, "dirty"));
	cJSON_Delete(j);
	/* Unknown: -1 and "" are null. */
	c->machine.mem_total = c->machine.swap_total = c->machine.swap_used = -1;
	c->machine.loadavg[0] = -1;
	c->machine.boost = -1;
	c->machine.os_release[0] = '\0';
	memset(&c->source, 0, sizeof c->source);
	c->source.dirty = -1;
	got = render(export_json_write, fx.doc);
	j = cJSON_Parse(got);
	free(got);
	x = cJSON_GetObjectItemCaseSensitive(j, "context");
	const char *nulls[] = {"memory_total_bytes", "swap_total_bytes",
			       "swap_used_bytes", "load_average", "os_release",
			       "cpu_boost"};
	for (size_t k = 0; k < sizeof nulls / sizeof *nulls; k++)
		bad += !cJSON_IsNull(cJSON_GetObjectItem(x, nulls[k]));
	src = cJSON_GetObjectItem(x, "source");
	bad += !cJSON_IsNull(cJSON_GetObjectItem(src, "commit"));
	bad += !cJSON_IsNull(cJSON_GetObjectItem(src, "dirty"));
	cJSON_Delete(j);
	fixture_free(&fx);
	CHECK(bad == 0);
}

/* Per-run start and invocation-wide index as recorded; numeric
 * parameters as numbers beside the strings. */
static void json_runs_and_parameter_values(void)
{
	struct fixture fx;
	CHECK(fixture_init(&fx, base_spec) == 0);
	struct bench_result *r = fx.out.results[0];
	r->started_s[0] = 1796000000.25;
	r->run_index[0] = 7;
	char *got = render(export_json_write, fx.doc);
	cJSON *j = cJSON_Parse(got);
	free(got);
	CHECK(j != NULL);
	cJSON *r0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "results"), 0);
	cJSON *runs = cJSON_GetObjectItem(r0, "runs");
	int bad = 0;
	bad += cJSON_GetArrayItem(cJSON_GetObjectItem(runs, "started_at"), 0)->valuedouble
	       != 1796000000.25;
	bad += cJSON_GetArrayItem(cJSON_GetObjectItem(runs, "run_index"), 0)->valuedouble != 7;
	bad += !cJSON_IsNull(cJSON_GetArrayItem(cJSON_GetObjectItem(runs, "run_index"), 1));
	bad += cJSON_GetArraySize(cJSON_GetObjectItem(runs, "run_index")) != 5;
	bad += !cJSON_IsString(cJSON_GetObjectItem(cJSON_GetObjectItem(r0, "parameters"), "n"));
	bad += cJSON_GetObjectItem(cJSON_GetObjectItem(r0, "parameter_values"), "n")->valuedouble != 1;
	bad += cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "results"), 2),
				   "parameter_values") != NULL;
	cJSON_Delete(j);
	fixture_free(&fx);
	CHECK(bad == 0);
}

int main(void)
{
	stats_init();
	RUN(bmf_golden);
	RUN(github_benchmark_golden);
	RUN(bmf_numbers_from_analysis);
	RUN(junit_golden);
	RUN(threshold_precedence);
	RUN(json_context_fields);
	RUN(json_runs_and_parameter_values);
	return unit_failures ? 1 : 0;
}
