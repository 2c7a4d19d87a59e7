/*
 * test_compare.c: reading results files, matching benchmarks, and the gate
 * decision fed with hand-made comparisons (so the rule is checked on its
 * own, whatever the statistics module computes).
 */
#include "gate.h"
#include "multitest.h"
#include "stats_quantile.h"
#include "unit.h"
#include "xalloc.h"

#include <stdlib.h>

static enum cmp_verdict decide(double ratio, double lo, double hi, double p_mw,
			       double p_welch, double threshold, double *p)
{
	struct stats_comparison c = {
		.confidence = 0.95, .ratio = ratio, .ratio_lo = lo, .ratio_hi = hi,
		.p_welch = p_welch, .p_mann_whitney = p_mw,
	};
	return gate_decide(&c, threshold, p);
}

static void test_decide_regression(void)
{
	double p;
	CHECK(decide(1.12, 1.10, 1.14, 0.001, 0.0001, 0.05, &p) == CMP_REGRESSION);
	CHECK_NEAR(p, 0.001, 0);
}

static void test_decide_interval_straddles_threshold(void)
{
	double p;
	/* Significant, mean change 8 %, but the interval reaches down to 3 %. */
	CHECK(decide(1.08, 1.03, 1.13, 0.001, 0.001, 0.05, &p) == CMP_NOISE);
	/* hyperfine's noisy 1.15 +- 0.45 style: never a regression. */
	CHECK(decide(1.15, 0.70, 1.60, 0.30, 0.30, 0.05, &p) == CMP_NOISE);
}

static void test_decide_needs_significance(void)
{
	double p;
	/* An interval above the threshold without a significant test (the
	 * two can disagree): not a regression. */
	CHECK(decide(1.20, 1.10, 1.30, 0.20, 0.01, 0.05, &p) == CMP_NOISE);
	CHECK_NEAR(p, 0.20, 0);
	/* Significance at 95 % is p < 0.05, not <=. */
	CHECK(decide(1.20, 1.10, 1.30, 0.05, 0.05, 0.05, &p) == CMP_NOISE);
}

static void test_decide_small_certain_change(void)
{
	double p;
	/* 3 % slower with certainty, threshold 5 %: within noise. */
	CHECK(decide(1.03, 1.029, 1.031, 1e-6, 1e-9, 0.05, &p) == CMP_NOISE);
	/* With --fail-if-slower 0 it is a regression. */
	CHECK(decide(1.03, 1.029, 1.031, 1e-6, 1e-9, 0.0, &p) == CMP_REGRESSION);
	/* Threshold 0 and an interval touching 1: not. */
	CHECK(decide(1.03, 1.0, 1.06, 1e-6, 1e-9, 0.0, &p) == CMP_NOISE);
}

static void test_decide_improvement(void)
{
	double p;
	CHECK(decide(0.80, 0.75, 0.85, 0.001, 0.001, 0.05, &p) == CMP_IMPROVEMENT);
	CHECK(decide(0.97, 0.96, 0.98, 0.001, 0.001, 0.05, &p) == CMP_NOISE);
	CHECK(decide(0.90, 0.80, 0.96, 0.001, 0.001, 0.05, &p) == CMP_NOISE);
}

static void test_decide_welch_fallback_and_undecided(void)
{
	double p;
	CHECK(decide(1.2, 1.1, 1.3, NAN, 0.01, 0.05, &p) == CMP_REGRESSION);
	CHECK_NEAR(p, 0.01, 0);
	CHECK(decide(1.2, NAN, NAN, 0.01, 0.01, 0.05, &p) == CMP_UNDECIDED);
	CHECK(decide(1.2, 1.1, 1.3, NAN, NAN, 0.05, &p) == CMP_UNDECIDED);
}

static void test_decide_confidence_level(void)
{
	struct stats_comparison c = {
		.confidence = 0.99, .ratio = 1.2, .ratio_lo = 1.1, .ratio_hi = 1.3,
		.p_welch = 0.02, .p_mann_whitney = 0.02,
	};
	double p;
	CHECK(gate_decide(&c, 0.05, &p) == CMP_NOISE);
	c.confidence = 0.95;
	CHECK(gate_decide(&c, 0.05, &p) == CMP_REGRESSION);
}

static struct cmp_set *parse(const char *text, char *err)
{
	struct cmp_set *s = NULL;
	if (gate_parse(text, strlen(text), "t.json", &s, err, DIAG_MSG_MAX) != 0)
		return NULL;
	return s;
}

static const char *cbench_doc =
	"{\"schema\": \"cbench-results\", \"schema_version\": 1,\n"
	" \"results\": [\n"
	"  {\"command\": \"short\", \"name\": \"short\", \"command_line\": \"./a -n 4\",\n"
	"   \"parameters\": {\"n\": \"4\"}, \"exit_codes\": [0, 0, 1],\n"
	"   \"times\": [9, 9, 9],\n"
	"   \"runs\": {\"wall_time\": [1, 2, 3], \"user_time\": [0.5, 0.5, 0.5],\n"
	"            \"system_time\": [0.25, 0.25, 0.5],\n"
	"            \"instructions\": [100, null, 300],\n"
	"            \"cycles\": null, \"outlier\": [\"none\", \"none\", \"mild\"]}}\n"
	" ]}\n";

static void test_parse_cbench(void)
{
	char err[DIAG_MSG_MAX];
	struct cmp_set *s = parse(cbench_doc, err);
	if (s == NULL)
		printf("  %s\n", err);
	CHECK(s != NULL);
	CHECK(s->format == CMP_FMT_CBENCH);
	CHECK(s->n == 1);
	const struct cmp_bench *b = &s->bench[0];
	CHECK_STR(b->name, "short");
	CHECK_STR(b->command, "./a -n 4");
	CHECK(b->n_params == 1);
	CHECK_STR(b->params[0].value, "4");
	CHECK(b->n_runs == 3);
	/* runs.wall_time wins over times. */
	CHECK_NEAR(b->col[MET_WALL][2], 3, 0);
	CHECK(isnan(b->col[MET_CTR_FIRST + CTR_INSTRUCTIONS][1]));
	CHECK(gate_bench_has(b, MET_CTR_FIRST + CTR_INSTRUCTIONS));
	CHECK(!gate_bench_has(b, MET_CTR_FIRST + CTR_CYCLES));
	CHECK(!gate_bench_has(b, MET_MAX_RSS));
	/* cpu_time = user + system per run. */
	CHECK(gate_bench_has(b, CMP_CPU_TIME));
	CHECK_NEAR(b->col[CMP_CPU_TIME][2], 1.0, 1e-15);
	CHECK(b->failed_runs == 1);
	gate_set_free(s);
}

static void test_parse_hyperfine(void)
{
	const char *doc =
		"{\"results\": [{\"command\": \"sleep 0.1\", \"mean\": 0.1,\n"
		" \"user\": 0.001, \"system\": 0.001,\n"
		" \"times\": [0.1, 0.11, 0.09], \"exit_codes\": [0, 0, 0],\n"
		" \"parameters\": {\"t\": \"0.1\"}}]}";
	char err[DIAG_MSG_MAX];
	struct cmp_set *s = parse(doc, err);
	CHECK(s != NULL);
	CHECK(s->format == CMP_FMT_HYPERFINE);
	CHECK_STR(s->bench[0].name, "sleep 0.1");
	CHECK_STR(s->bench[0].command, "sleep 0.1");
	CHECK(s->bench[0].n_runs == 3);
	CHECK(gate_bench_has(&s->bench[0], MET_WALL));
	/* Only means of user and system: not per run, so not comparable. */
	CHECK(!gate_bench_has(&s->bench[0], MET_USER));
	CHECK(!gate_bench_has(&s->bench[0], CMP_CPU_TIME));
	gate_set_free(s);
}

static void expect_error(const char *doc, const char *needle)
{
	char err[DIAG_MSG_MAX] = "";
	struct cmp_set *s = parse(doc, err);
	if (s != NULL || strstr(err, needle) == NULL)
		printf("  parse(%s) -> %s\n", doc, err);
	gate_set_free(s);
}

#define CHECK_ERROR(doc, needle)                                              \
	do {                                                                  \
		char e_[DIAG_MSG_MAX] = "";                                   \
		struct cmp_set *s_ = parse(doc, e_);                          \
		gate_set_free(s_);                                         \
		if (s_ != NULL || strstr(e_, needle) == NULL)                 \
			expect_error(doc, needle);                            \
		CHECK(s_ == NULL);                                            \
		CHECK(strstr(e_, needle) != NULL);                            \
	} while (0)

static void test_parse_errors(void)
{
	CHECK_ERROR("", "t.json: empty file");
	CHECK_ERROR("{\"results\": [\n  {\"command\": \"a\",\n   \"times\": [1, 2,]}]}",
		    "t.json: malformed JSON at line 3, column");
	CHECK_ERROR("{\"results\": []} x", "text after the end");
	CHECK_ERROR("[1, 2]", "expected a JSON object");
	CHECK_ERROR("{\"benchmarks\": []}", "no \"results\" array");
	CHECK_ERROR("{\"results\": []}", "\"results\" is empty");
	CHECK_ERROR("{\"results\": [{\"times\": [1]}]}", "results[0]: no \"command\"");
	CHECK_ERROR("{\"results\": [{\"command\": \"a\"}]}",
		    "results[0]: no \"times\" array");
	CHECK_ERROR("{\"results\": [{\"command\": \"a\", \"times\": [1, \"x\"]}]}",
		    "results[0].times[1]: expected a number or null");
	CHECK_ERROR("{\"schema\": \"other\", \"results\": []}", "not a cbench results");
	CHECK_ERROR("{\"schema\": \"cbench-results\", \"schema_version\": 3, "
		    "\"results\": []}", "newer cbench");
	CHECK_ERROR("{\"schema\": \"cbench-results\", \"schema_version\": 1, "
		    "\"results\": [{\"command\": \"a\", \"times\": [1]}]}",
		    "no \"runs\" object");
	CHECK_ERROR("{\"schema\": \"cbench-results\", \"schema_version\": 1, "
		    "\"results\": [{\"command\": \"a\", \"runs\": {\"wall_time\": [1, 2],"
		    " \"page_faults\": [1]}}]}",
		    "results[0].runs.page_faults has 1 values for 2 runs");
}

static void test_load_missing_file(void)
{
	struct cmp_set *s;
	char err[DIAG_MSG_MAX];
	CHECK(gate_load("/nonexistent/base.json", &s, err, sizeof err) == -1);
	CHECK(s == NULL);
	CHECK_STR(err, "cannot read '/nonexistent/base.json': No such file or directory");
}

/* A hyperfine-style set: command cmds[i] with the six times t[i]. */
static struct cmp_set *times_set(const char *const *cmds,
				 const double (*t)[6], size_t n)
{
	char *doc = xstrdup("{\"results\": [");
	for (size_t i = 0; i < n; i++) {
		char *next = xasprintf("%s%s{\"command\": \"%s\", \"times\": "
				       "[%.17g, %.17g, %.17g, %.17g, %.17g, %.17g]}",
				       doc, i ? "," : "", cmds[i], t[i][0], t[i][1],
				       t[i][2], t[i][3], t[i][4], t[i][5]);
		free(doc);
		doc = next;
	}
	char *full = xasprintf("%s]}", doc);
	free(doc);
	char err[DIAG_MSG_MAX];
	struct cmp_set *s = parse(full, err);
	free(full);
	return s;
}

/* A hyperfine-style set from command names and one wall time per run
 * (the times as "%g" prints them). */
static struct cmp_set *hyperfine_set(const char *const *cmds, size_t n,
				     double scale)
{
	static const double f[6] = {1.0, 1.01, 0.99, 1.02, 0.98, 1.0};
	double (*t)[6] = xcalloc(n + 1, sizeof *t);
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 6; k++) {
			char buf[32];
			snprintf(buf, sizeof buf, "%g", f[k] * scale);
			t[i][k] = strtod(buf, NULL);
		}
	struct cmp_set *s = times_set(cmds, (const double (*)[6])t, n);
	free(t);
	return s;
}

/*
 * Several rows are a family (gate.h): one benchmark 14 % slower with a
 * rank test's p of 0.02 is a regression on its own at --fail-if-slower
 * 0, but beside three unchanged ones its p is Holm-adjusted (the largest
 * (m - k + 1) p(k) up to it: 4 x 0.02) and it is within noise; every
 * interval is at 1 - 0.05 / 4.
 */
static void test_gate_family_holm(void)
{
	static const double same[6] = {1.00, 1.01, 0.99, 1.02, 0.98, 1.00};
	static const double slow[6] = {1.25, 1.20, 1.15, 1.005, 1.015, 1.22};
	const char *cmds[] = {"a", "x", "y", "z"};
	double base_t[4][6], new_t[4][6];
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 6; k++) {
			base_t[i][k] = same[k];
			new_t[i][k] = i == 0 ? slow[k] : same[k];
		}
	struct cmp_options o = {.metric = -1, .threshold = 0, .confidence = 0.95,
				.seed = 1, .match_by = MATCH_COMMAND};
	char err[DIAG_MSG_MAX];
	struct cmp_report rep;
	/* Alone: a regression. */
	struct cmp_set *b1 = times_set(cmds, base_t, 1), *n1 = times_set(cmds, new_t, 1);
	CHECK(gate_compare(b1, n1, &o, &rep, err, sizeof err) == 0);
	int alone = rep.rows[0].verdict == CMP_REGRESSION && rep.family_size == 1 &&
		    rep.ci_level == 0.95 && rep.rows[0].p == rep.rows[0].p_raw;
	double p_alone = rep.rows[0].p;
	gate_report_free(&rep);
	gate_set_free(b1);
	gate_set_free(n1);
	CHECK(alone);
	CHECK(p_alone < 0.05 && p_alone > 0.0125);
	/* In a family of four: Holm's p, within noise. */
	struct cmp_set *b4 = times_set(cmds, base_t, 4), *n4 = times_set(cmds, new_t, 4);
	CHECK(gate_compare(b4, n4, &o, &rep, err, sizeof err) == 0);
	double raw[4], adj[4];
	int ok = rep.family_size == 4 && fabs(rep.ci_level - 0.9875) < 1e-15;
	for (size_t k = 0; k < 4; k++) {
		raw[k] = rep.rows[k].p_raw;
		ok &= rep.rows[k].family_size == 4 &&
		      fabs(rep.rows[k].st.confidence - 0.9875) < 1e-15 &&
		      rep.rows[k].verdict == CMP_NOISE;
	}
	multitest_holm(raw, 4, adj);
	for (size_t k = 0; k < 4; k++)
		ok &= rep.rows[k].p == adj[k];
	const struct cmp_row *a = NULL;
	for (size_t k = 0; k < 4; k++)
		if (strcmp(rep.rows[k].new->name, "a") == 0)
			a = &rep.rows[k];
	ok &= a && a->p_raw == p_alone && a->p >= 0.05;
	gate_report_free(&rep);
	gate_set_free(b4);
	gate_set_free(n4);
	CHECK(ok);
}

static void test_match_one_sided(void)
{
	const char *a[] = {"x", "y", "old"};
	const char *b[] = {"new", "y", "x"};
	struct cmp_set *base = hyperfine_set(a, 3, 1), *new = hyperfine_set(b, 3, 1);
	struct cmp_options o = {.metric = -1, .threshold = 0.05,
				.confidence = 0.95, .seed = 1, .match_by = MATCH_COMMAND};
	struct cmp_report rep;
	char err[DIAG_MSG_MAX];
	CHECK(gate_compare(base, new, &o, &rep, err, sizeof err) == 0);
	CHECK(rep.n_rows == 4);
	CHECK(rep.count[CMP_ONLY_BASE] == 1);
	CHECK(rep.count[CMP_ONLY_NEW] == 1);
	/* One-sided rows come last, base's first. */
	CHECK_STR(rep.rows[2].base->name, "old");
	CHECK(rep.rows[2].new == NULL);
	CHECK_STR(rep.rows[3].new->name, "new");
	/* Matched pairs keep the baseline's order. */
	CHECK_STR(rep.rows[0].base->name, "x");
	CHECK(rep.rows[0].new == &new->bench[2]);
	/* No instructions in a hyperfine file: wall time, and why. */
	CHECK(rep.metric == MET_WALL);
	CHECK(rep.metric_auto);
	CHECK(strstr(rep.why, "hyperfine file") != NULL);
	gate_report_free(&rep);
	gate_set_free(base);
	gate_set_free(new);
}

static void test_match_nothing_is_an_error(void)
{
	const char *a[] = {"x"}, *b[] = {"y"};
	struct cmp_set *base = hyperfine_set(a, 1, 1), *new = hyperfine_set(b, 1, 1);
	struct cmp_options o = {.metric = -1, .threshold = 0.05,
				.confidence = 0.95, .seed = 1, .match_by = MATCH_COMMAND};
	struct cmp_report rep;
	char err[DIAG_MSG_MAX];
	CHECK(gate_compare(base, new, &o, &rep, err, sizeof err) == -1);
	CHECK(strstr(err, "no benchmark in t.json matches one in t.json") != NULL);
	CHECK(strstr(err, "try --match-by name") != NULL);
	gate_report_free(&rep);
	gate_set_free(base);
	gate_set_free(new);
}

/* hyperfine's wall time includes fork+exec, cbench's does not: a
 * hyperfine file is compared only with another hyperfine file. */
static void test_tools_not_mixed(void)
{
	const char *a[] = {"x"};
	struct cmp_set *hf = hyperfine_set(a, 1, 1), *hf2 = hyperfine_set(a, 1, 2);
	const char *doc =
		"{\"schema\": \"cbench-results\", \"schema_version\": 1, "
		"\"results\": [{\"command\": \"x\", \"runs\": "
		"{\"wall_time\": [1, 1.01, 0.99]}}]}";
	char err[DIAG_MSG_MAX];
	struct cmp_set *cb = parse(doc, err);
	CHECK(cb != NULL);
	struct cmp_options o = {.metric = -1, .threshold = 0.05,
				.confidence = 0.95, .seed = 1, .match_by = MATCH_COMMAND};
	struct cmp_report rep;
	CHECK(gate_check_tools(hf, hf2, err, sizeof err) == 0);
	CHECK(gate_check_tools(cb, cb, err, sizeof err) == 0);
	CHECK(gate_check_tools(hf, cb, err, sizeof err) == -1);
	CHECK(strstr(err, "t.json is a hyperfine file and t.json is cbench's") != NULL);
	CHECK(gate_check_match(cb, hf, MATCH_COMMAND, false, err, sizeof err) == -1);
	CHECK(strstr(err, "wall times are not comparable") != NULL);
	/* No command in common as well: the mix is the real cause, not the
	 * matching ("try --match-by name" would lead to this error next). */
	const char *other[] = {"y"};
	struct cmp_set *hf3 = hyperfine_set(other, 1, 1);
	CHECK(gate_check_match(hf3, cb, MATCH_COMMAND, false, err, sizeof err) == -1);
	CHECK(strstr(err, "is a hyperfine file") != NULL);
	CHECK(strstr(err, "--match-by") == NULL);
	gate_set_free(hf3);
	CHECK(gate_compare(hf, cb, &o, &rep, err, sizeof err) == -1);
	gate_report_free(&rep);
	/* Two hyperfine files: wall time, and a twofold slowdown. */
	CHECK(gate_compare(hf, hf2, &o, &rep, err, sizeof err) == 0);
	CHECK(rep.count[CMP_REGRESSION] == 1);
	gate_report_free(&rep);
	gate_set_free(hf);
	gate_set_free(hf2);
	gate_set_free(cb);
}

/* --require-all: one message naming the one-sided benchmarks of both
 * sides. */
static void test_require_all_names_both_sides(void)
{
	const char *a[] = {"x", "old"}, *b[] = {"x", "new"};
	struct cmp_set *base = hyperfine_set(a, 2, 1), *new = hyperfine_set(b, 2, 1);
	char err[DIAG_MSG_MAX];
	CHECK(gate_check_match(base, new, MATCH_COMMAND, false, err, sizeof err) == 0);
	CHECK(gate_check_match(base, new, MATCH_COMMAND, true, err, sizeof err) == -1);
	CHECK_STR(err, "--require-all: 1 benchmark of t.json is not in t.json: 'old'; "
		  "1 benchmark of t.json is not in t.json: 'new'");
	gate_set_free(base);
	gate_set_free(new);
}

static void test_load_directory(void)
{
	struct cmp_set *s;
	char err[DIAG_MSG_MAX];
	CHECK(gate_load("/", &s, err, sizeof err) == -1);
	CHECK(s == NULL);
	CHECK_STR(err, "cannot read '/': it is a directory, not a results file");
}

static void test_match_by_name_and_params(void)
{
	/* Same display name, different parameters: two benchmarks. */
	const char *da =
		"{\"schema\": \"cbench-results\", \"schema_version\": 1, \"results\": ["
		"{\"command\": \"build\", \"name\": \"build\", \"command_line\": \"make -j1\","
		" \"parameters\": {\"j\": \"1\"}, \"runs\": {\"wall_time\": [1, 1]}},"
		"{\"command\": \"build\", \"name\": \"build\", \"command_line\": \"make -j2\","
		" \"parameters\": {\"j\": \"2\"}, \"runs\": {\"wall_time\": [2, 2]}}]}";
	const char *db =
		"{\"schema\": \"cbench-results\", \"schema_version\": 1, \"results\": ["
		"{\"command\": \"build\", \"parameters\": {\"j\": \"2\"},"
		" \"runs\": {\"wall_time\": [2, 2]}},"
		"{\"command\": \"build\", \"parameters\": {\"j\": \"1\"},"
		" \"runs\": {\"wall_time\": [1, 1]}}]}";
	char err[DIAG_MSG_MAX];
	struct cmp_set *base = parse(da, err), *new = parse(db, err);
	CHECK(base && new);
	struct cmp_options o = {.metric = MET_WALL, .threshold = 0.05,
				.confidence = 0.95, .seed = 1, .match_by = MATCH_NAME};
	struct cmp_report rep;
	CHECK(gate_compare(base, new, &o, &rep, err, sizeof err) == 0);
	CHECK(rep.count[CMP_ONLY_BASE] == 0 && rep.count[CMP_ONLY_NEW] == 0);
	CHECK(rep.rows[0].base == &base->bench[0]);
	CHECK(rep.rows[0].new == &new->bench[1]);
	/* Constant and equal on both sides: no change, decided. */
	CHECK(rep.rows[0].verdict == CMP_NOISE);
	CHECK_NEAR(rep.rows[0].st.ratio, 1.0, 0);
	gate_report_free(&rep);
	/* By command line "build" does not match make -jN. */
	o.match_by = MATCH_COMMAND;
	CHECK(gate_compare(base, new, &o, &rep, err, sizeof err) == -1);
	gate_report_free(&rep);
	gate_set_free(base);
	gate_set_free(new);
}

static void test_constant_samples_decided(void)
{
	/* Page faults of a fixed workload: 2048 every run, then 4048. */
	const char *da =
		"{\"schema\": \"cbench-results\", \"schema_version\": 1, \"results\": ["
		"{\"command\": \"t\", \"runs\": {\"wall_time\": [1, 1, 1, 1, 1],"
		" \"page_faults\": [2048, 2048, 2048, 2048, 2048]}}]}";
	const char *db =
		"{\"schema\": \"cbench-results\", \"schema_version\": 1, \"results\": ["
		"{\"command\": \"t\", \"runs\": {\"wall_time\": [1, 1, 1, 1, 1],"
		" \"page_faults\": [4048, 4048, 4048, 4048, 4048]}}]}";
	char err[DIAG_MSG_MAX];
	struct cmp_set *base = parse(da, err), *new = parse(db, err);
	CHECK(base && new);
	struct cmp_options o = {.metric = MET_CTR_FIRST + CTR_PAGE_FAULTS, .threshold = 0.05,
				.confidence = 0.95, .seed = 1, .match_by = MATCH_COMMAND};
	struct cmp_report rep;
	CHECK(gate_compare(base, new, &o, &rep, err, sizeof err) == 0);
	CHECK(rep.rows[0].verdict == CMP_REGRESSION);
	CHECK_NEAR(rep.rows[0].st.ratio, 4048.0 / 2048.0, 1e-12);
	gate_report_free(&rep);
	/* And reversed, an improvement. */
	CHECK(gate_compare(new, base, &o, &rep, err, sizeof err) == 0);
	CHECK(rep.rows[0].verdict == CMP_IMPROVEMENT);
	gate_report_free(&rep);
	gate_set_free(base);
	gate_set_free(new);
}

static void test_metric_choice(void)
{
	char err[DIAG_MSG_MAX];
	struct cmp_set *s = parse(cbench_doc, err);
	/* The same benchmark with wall time only. */
	struct cmp_set *hf = parse(
		"{\"schema\": \"cbench-results\", \"schema_version\": 1, "
		"\"results\": [{\"command\": \"short\", \"command_line\": "
		"\"./a -n 4\", \"parameters\": {\"n\": \"4\"}, \"runs\": "
		"{\"wall_time\": [1, 1.01, 0.99]}}]}", err);
	CHECK(s && hf);

	struct cmp_options o = {.metric = -1, .threshold = 0.05,
				.confidence = 0.95, .seed = 1, .match_by = MATCH_COMMAND};
	struct cmp_report rep;
	CHECK(gate_compare(s, s, &o, &rep, err, sizeof err) == 0);
	CHECK(rep.metric == MET_CTR_FIRST + CTR_INSTRUCTIONS);
	CHECK_STR(rep.why, "counted on both sides");
	CHECK(rep.n_uncompared == 0);
	gate_report_free(&rep);

	CHECK(gate_compare(s, hf, &o, &rep, err, sizeof err) == 0);
	CHECK(rep.metric == MET_WALL);
	CHECK_STR(rep.why, "instructions not counted in t.json");
	/* user, system, instructions recorded in s only. */
	CHECK(rep.n_uncompared == 3);
	gate_report_free(&rep);

	o.metric = MET_CTR_FIRST + CTR_INSTRUCTIONS;
	CHECK(gate_compare(s, hf, &o, &rep, err, sizeof err) == -1);
	CHECK(strstr(err, "--gate-metric instructions: not counted in t.json for 'short'") != NULL);
	gate_report_free(&rep);

	o.metric = CMP_CPU_TIME;
	CHECK(gate_compare(s, s, &o, &rep, err, sizeof err) == 0);
	CHECK(rep.metric == CMP_CPU_TIME);
	CHECK_STR(gate_metric_key(rep.metric), "cpu_time");
	gate_report_free(&rep);
	gate_set_free(s);
	gate_set_free(hf);
}

/* A cbench file of one CPU-bound benchmark: task-clock and wall time
 * alike, run i at t * f[i]; runs 2, 7 and 11 slowed by bursts. */
static struct cmp_set *cpu_bound_set(double t, bool bursts)
{
	static const double f[12] = {1.00, 1.01, 1.02, 0.99, 1.00, 1.01,
				     0.995, 1.005, 1.0, 1.01, 0.99, 1.0};
	char runs[12][32];
	for (int i = 0; i < 12; i++) {
		double burst = bursts && (i == 2 || i == 7 || i == 11) ? 1.6 : 1.0;
		snprintf(runs[i], sizeof runs[i], "%.17g", t * f[i] * burst);
	}
	char *list = xasprintf("[%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s]",
			       runs[0], runs[1], runs[2], runs[3], runs[4], runs[5],
			       runs[6], runs[7], runs[8], runs[9], runs[10], runs[11]);
	char *doc = xasprintf("{\"schema\": \"cbench-results\", \"schema_version\": 1, "
			      "\"results\": [{\"command\": \"loop\", \"runs\": "
			      "{\"wall_time\": %s, \"task_clock\": %s}}]}", list, list);
	char err[DIAG_MSG_MAX];
	struct cmp_set *s = parse(doc, err);
	free(list);
	free(doc);
	return s;
}

/* Without instructions, CPU-bound commands are gated on task-clock at its
 * 10th percentile (stats_quantile.h): bursts on the new side's runs make
 * the means' ratio 1.27 but leave the 10th percentiles' at 1.15; --gate-metric
 * task_clock compares the means. */
static void test_cpu_time_at_the_10th_percentile(void)
{
	char err[DIAG_MSG_MAX];
	struct cmp_set *base = cpu_bound_set(0.010, false);
	struct cmp_set *new = cpu_bound_set(0.0115, true);
	CHECK(base && new);
	struct cmp_options o = {.metric = -1, .threshold = 0.05, .confidence = 0.95,
				.seed = 1, .match_by = MATCH_COMMAND};
	struct cmp_report rep;
	CHECK(gate_compare(base, new, &o, &rep, err, sizeof err) == 0);
	int tc = MET_CTR_FIRST + CTR_TASK_CLOCK;
	CHECK(rep.metric == tc && rep.low_quantile);
	CHECK(strstr(rep.why, "their CPU time at its 10th percentile") != NULL);
	const struct cmp_row *r = &rep.rows[0];
	double qa = stats_hd_quantile(base->bench[0].col[tc], 12, STATS_LOW_QUANTILE);
	double qb = stats_hd_quantile(new->bench[0].col[tc], 12, STATS_LOW_QUANTILE);
	CHECK_REL(r->st.ratio, qb / qa, 1e-12);
	CHECK_NEAR(r->st.ratio, 1.15, 0.01);
	CHECK(r->verdict == CMP_REGRESSION);
	gate_report_free(&rep);

	/* Against a history (invocation means), means: said so. */
	o.between = true;
	CHECK(gate_compare(base, new, &o, &rep, err, sizeof err) == 0);
	CHECK(rep.metric == tc && !rep.low_quantile);
	CHECK(strstr(rep.why, "percentile") == NULL);
	gate_report_free(&rep);
	o.between = false;

	o.metric = tc;
	CHECK(gate_compare(base, new, &o, &rep, err, sizeof err) == 0);
	CHECK(!rep.low_quantile);
	CHECK_NEAR(rep.rows[0].st.ratio, rep.rows[0].new_mean / rep.rows[0].base_mean,
		   1e-9);
	CHECK(rep.rows[0].st.ratio > 1.25);
	gate_report_free(&rep);
	gate_set_free(base);
	gate_set_free(new);
}

static void test_metric_keys(void)
{
	CHECK(gate_metric_lookup("cpu_time") == CMP_CPU_TIME);
	CHECK(gate_metric_lookup("wall_time") == MET_WALL);
	CHECK(gate_metric_lookup("instructions") == MET_CTR_FIRST + CTR_INSTRUCTIONS);
	CHECK(gate_metric_lookup("task_clock") == MET_CTR_FIRST + CTR_TASK_CLOCK);
	CHECK(gate_metric_lookup("peak_rss") == MET_MAX_RSS);
	CHECK(gate_metric_lookup("bogus") == -1);
}

/* gate_run: the decision's exit code, and the warnings it leaves to the
 * caller to print, early (about the baseline) and late (about rows). */
static void test_gate_run_exit_codes_and_warnings(void)
{
	const char *base_doc =
		"{\"schema\": \"cbench-results\", \"schema_version\": 1, \"results\": ["
		"{\"command\": \"t\", \"interrupted\": true, \"runs\": {\"wall_time\": "
		"[1, 1.01, 0.99, 1, 1.02, 0.98]}},"
		"{\"command\": \"gone\", \"runs\": {\"wall_time\": [1, 1, 1]}}]}";
	const char *slow_doc =
		"{\"schema\": \"cbench-results\", \"schema_version\": 1, \"results\": ["
		"{\"command\": \"t\", \"runs\": {\"wall_time\": "
		"[2, 2.02, 1.98, 2, 2.04, 1.96]}}]}";
	char err[DIAG_MSG_MAX];
	struct cmp_set *base = parse(base_doc, err), *slow = parse(slow_doc, err);
	CHECK(base && slow);
	struct gate_options o = {.metric = -1, .threshold = 0.05, .confidence = 0.95,
				 .seed = 1, .match_by = MATCH_COMMAND};
	struct gate_result g;
	int rc = gate_run(&o, base, slow, &g);
	int regression = rc == CBENCH_EXIT_REGRESSION && g.exit_code == rc &&
			 g.rep.count[CMP_REGRESSION] == 1 && g.rep.count[CMP_ONLY_BASE] == 1;
	int early = g.n_early == 1 && strstr(g.warnings[0], "is partial") != NULL;
	int late = g.n_warnings == 2 && strstr(g.warnings[1], "1 benchmark missing in") &&
		   strstr(g.warnings[1], "'gone'") != NULL;
	gate_result_free(&g);
	/* The same against itself: within noise, exit 0. */
	rc = gate_run(&o, slow, slow, &g);
	int ok = rc == CBENCH_EXIT_OK && g.rep.count[CMP_NOISE] == 1 && g.n_warnings == 0;
	gate_result_free(&g);
	/* --require-all with a one-sided benchmark: an input error, no rows. */
	o.require_all = true;
	rc = gate_run(&o, base, slow, &g);
	int usage = rc == CBENCH_EXIT_USAGE && g.rep.n_rows == 0 &&
		    strstr(g.error, "--require-all: 1 benchmark of t.json is not in t.json") != NULL;
	gate_result_free(&g);
	gate_set_free(base);
	gate_set_free(slow);
	CHECK(regression);
	CHECK(early);
	CHECK(late);
	CHECK(ok);
	CHECK(usage);
}

int main(void)
{
	stats_init();
	RUN(test_decide_regression);
	RUN(test_decide_interval_straddles_threshold);
	RUN(test_decide_needs_significance);
	RUN(test_decide_small_certain_change);
	RUN(test_decide_improvement);
	RUN(test_decide_welch_fallback_and_undecided);
	RUN(test_decide_confidence_level);
	RUN(test_parse_cbench);
	RUN(test_parse_hyperfine);
	RUN(test_parse_errors);
	RUN(test_load_missing_file);
	RUN(test_match_one_sided);
	RUN(test_match_nothing_is_an_error);
	RUN(test_match_by_name_and_params);
	RUN(test_tools_not_mixed);
	RUN(test_require_all_names_both_sides);
	RUN(test_load_directory);
	RUN(test_constant_samples_decided);
	RUN(test_metric_choice);
	RUN(test_cpu_time_at_the_10th_percentile);
	RUN(test_metric_keys);
	RUN(test_gate_run_exit_codes_and_warnings);
	RUN(test_gate_family_holm);
	UNIT_EXIT();
}
