/*
 * Unit tests: the exporters (export*.c) against golden files, the JSON
 * round trip through cJSON, and the atomic writer.
 *
 * Results are built by hand so every number is fixed; the machine
 * description, argv and seed are fixed too, and "@VERSION@" in a golden
 * file stands for CBENCH_VERSION.  Golden files live in tests/golden/
 * (GOLDEN_DIR overrides); UPDATE_GOLDEN=1 rewrites them from the current
 * output, to be reviewed with git diff.
 */
#include "cli_layers.h"
#include "export.h"
#include "export_text.h"
#include "unit.h"
#include "xalloc.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NV NAN

/* One benchmark's runs, metric by metric (NaN: not counted). */
struct runs_spec {
	const char *name, *command;
	struct param_value params[2];
	size_t n_params;
	size_t n;
	bool has[MET_COUNT];
	double v[MET_COUNT][6];
	int codes[6];
	uint8_t flags[6];
	bool interrupted, via_shell;
	const char *stop_reason;
};

static struct bench_result *make(const struct runs_spec *s)
{
	struct bench_result *r = results_new(s->name, s->command, s->params,
					     s->n_params);
	for (int m = 0; m < MET_COUNT; m++)
		if (s->has[m])
			results_enable(r, (enum metric_id)m);
	for (size_t k = 0; k < s->n; k++) {
		double v[MET_COUNT];
		for (int m = 0; m < MET_COUNT; m++)
			v[m] = s->v[m][k];
		results_add_run(r, v, s->codes[k], s->flags[k]);
	}
	r->interrupted = s->interrupted;
	r->via_shell = s->via_shell;
	if (s->stop_reason)
		r->stop_reason = xstrdup(s->stop_reason);
	return r;
}

#define TC (MET_CTR_FIRST + CTR_TASK_CLOCK)
#define PF (MET_CTR_FIRST + CTR_PAGE_FAULTS)
#define INS (MET_CTR_FIRST + CTR_INSTRUCTIONS)
#define RUSAGE_HAS [MET_WALL] = true, [MET_USER] = true, [MET_SYSTEM] = true, \
	[MET_MAX_RSS] = true, [MET_MINFLT] = true, [MET_MAJFLT] = true,      \
	[MET_VCSW] = true, [MET_IVCSW] = true

/* A parameter sweep, five runs each, on a machine with a PMU. */
static const struct runs_spec sweep[] = {
	{
		.name = "make -j1", .command = "make -j1",
		.params = {{"n", "1"}}, .n_params = 1, .n = 5,
		.has = {RUSAGE_HAS, [TC] = true, [PF] = true, [INS] = true},
		.v = {
			[MET_WALL] = {0.512, 0.498, 0.505, 0.530, 0.501},
			[MET_USER] = {0.40, 0.39, 0.41, 0.42, 0.40},
			[MET_SYSTEM] = {0.05, 0.06, 0.05, 0.07, 0.05},
			[MET_MAX_RSS] = {10485760, 10489856, 10485760, 10510336, 10485760},
			[MET_MINFLT] = {2100, 2080, 2095, 2110, 2090},
			[MET_MAJFLT] = {0, 0, 0, 1, 0},
			[MET_VCSW] = {12, 10, 11, 15, 11},
			[MET_IVCSW] = {3, 2, 4, 9, 2},
			[TC] = {0.45, 0.449, 0.459, 0.49, 0.45},
			[PF] = {2099, 2079, 2094, 2109, 2089},
			[INS] = {1.2e9, 1.21e9, 1.2e9, 1.19e9, 1.2e9},
		},
	},
	{
		.name = "make -j10", .command = "make -j10",
		.params = {{"n", "10"}}, .n_params = 1, .n = 5,
		.has = {RUSAGE_HAS, [TC] = true, [PF] = true, [INS] = true},
		.v = {
			[MET_WALL] = {0.151, 0.149, 0.160, 0.148, 0.152},
			[MET_USER] = {0.48, 0.47, 0.50, 0.46, 0.48},
			[MET_SYSTEM] = {0.09, 0.08, 0.10, 0.08, 0.09},
			[MET_MAX_RSS] = {12582912, 12587008, 12582912, 12578816, 12582912},
			[MET_MINFLT] = {2400, 2390, 2410, 2380, 2400},
			[MET_MAJFLT] = {0, 0, 0, 0, 0},
			[MET_VCSW] = {40, 38, 45, 39, 41},
			[MET_IVCSW] = {20, 18, 25, 17, 21},
			[TC] = {0.55, 0.54, 0.58, 0.53, 0.55},
			[PF] = {2399, 2389, 2409, 2379, 2399},
			[INS] = {1.3e9, NV, 1.31e9, 1.29e9, 1.3e9},
		},
	},
};

/* One run; counters unavailable; a timed-out run; an interrupted
 * benchmark and one that never ran; a command with `|`, a backtick,
 * quotes, a comma and non-ASCII text. */
static const struct runs_spec edge[] = {
	{
		.name = "slow", .command = "./slow --mode=x", .n = 2,
		.interrupted = true,
		.has = {RUSAGE_HAS, [PF] = true, [INS] = true},
		.v = {
			[MET_WALL] = {0.020, 0.0225},
			[MET_USER] = {0.010, 0.011},
			[MET_SYSTEM] = {0.002, 0.003},
			[MET_MAX_RSS] = {4194304, 4198400},
			[MET_MINFLT] = {300, 310},
			[MET_MAJFLT] = {0, 0},
			[MET_VCSW] = {2, 3},
			[MET_IVCSW] = {1, 0},
			[PF] = {299, NV},
			[INS] = {NV, NV},
		},
		.codes = {0, -9},
		.flags = {0, RUN_TIMED_OUT | RUN_FAILED},
	},
	{
		.name = "echo `date` \"a,b\" | grep -c 'é' # naïve ✓",
		.command = "echo `date` \"a,b\" | grep -c 'é' # naïve ✓",
		.n = 1, .via_shell = true,
		.has = {RUSAGE_HAS, [PF] = true},
		.v = {
			[MET_WALL] = {0.00125},
			[MET_USER] = {0.0005},
			[MET_SYSTEM] = {0.00025},
			[MET_MAX_RSS] = {2097152},
			[MET_MINFLT] = {120},
			[MET_MAJFLT] = {0},
			[MET_VCSW] = {1},
			[MET_IVCSW] = {0},
			[PF] = {119},
		},
	},
	{
		.name = "never ran", .command = "sleep 100", .n = 0,
		.interrupted = true,
		.has = {RUSAGE_HAS, [PF] = true, [INS] = true},
	},
};

/* Two commands as fast as the shell's start-up: once that is subtracted
 * every run is 0, so both means are 0 and their ratio is undefined
 * (0/0); then a benchmark that failed in its first run (no -i). */
static const struct runs_spec zero[] = {
	{
		.name = "exit 0", .command = "exit 0", .n = 3, .via_shell = true,
		.has = {[MET_WALL] = true, [MET_USER] = true, [MET_SYSTEM] = true},
		.v = {[MET_WALL] = {0, 0, 0}, [MET_USER] = {0, 0, 0},
		      [MET_SYSTEM] = {0, 0, 0}},
	},
	{
		.name = ": x", .command = ": x", .n = 3, .via_shell = true,
		.has = {[MET_WALL] = true, [MET_USER] = true, [MET_SYSTEM] = true},
		.v = {[MET_WALL] = {0, 0, 0}, [MET_USER] = {0, 0, 0},
		      [MET_SYSTEM] = {0, 0, 0}},
	},
	{
		.name = "false", .command = "false", .n = 0,
		.has = {[MET_WALL] = true, [MET_USER] = true, [MET_SYSTEM] = true},
		.stop_reason = "failed",
	},
};

struct fixture {
	struct config cfg;
	struct export_options opts;   /* from cfg */
	struct export_context ctx;
	struct bench_outcome out;
	struct export_doc *doc;
};

static int fixture_init(struct fixture *fx, const struct runs_spec *spec,
			size_t n, char **argv, int argc)
{
	int code;
	memset(fx, 0, sizeof *fx);
	if (cli_parse(argc, argv, &fx->cfg, &code) != 0)
		return -1;
	fx->opts = cli_export_options(&fx->cfg);
	fx->ctx.opts = &fx->opts;
	fx->ctx.argc = argc;
	fx->ctx.argv = argv;
	struct machine_info *m = &fx->ctx.machine;
	snprintf(m->started_at, sizeof m->started_at, "2026-01-02T03:04:05Z");
	snprintf(m->hostname, sizeof m->hostname, "golden-host");
	snprintf(m->kernel, sizeof m->kernel, "Linux 6.1.0-golden");
	snprintf(m->cpu_model, sizeof m->cpu_model, "Example CPU @ 3.00GHz");
	m->cpus = 8;
	fx->out.results = xcalloc(n, sizeof *fx->out.results);
	for (size_t i = 0; i < n; i++)
		fx->out.results[fx->out.n++] = make(&spec[i]);
	fx->out.reference = -1;
	fx->out.exec_exact = true;
	fx->doc = export_doc_new(&fx->ctx, &fx->out, NULL);
	return 0;
}

static void fixture_free(struct fixture *fx)
{
	export_doc_free(fx->doc);
	bench_free_outcome(&fx->out);
	cli_free(&fx->cfg);
}

static char *sweep_argv[] = {"cbench", "--seed", "1", "-r", "5", "-L", "n",
			     "1,10", "make -j{n}", "--export-json", "out.json"};
static char *edge_argv[] = {"cbench", "--seed", "7", "--sort", "mean-time",
			    "-i", "--timeout", "1", "a", "b", "c"};

static char *zero_argv[] = {"cbench", "--seed", "3", "-r", "3", "exit 0",
			    ": x", "false"};

static int sweep_fixture(struct fixture *fx)
{
	if (fixture_init(fx, sweep, 2, sweep_argv,
			 (int)(sizeof sweep_argv / sizeof *sweep_argv)) != 0)
		return -1;
	/* Built by hand after the document: a PMU machine, a reference. */
	export_doc_free(fx->doc);
	fx->out.pmu = true;
	fx->out.reference = 0;
	fx->doc = export_doc_new(&fx->ctx, &fx->out, NULL);
	return 0;
}

static int edge_fixture(struct fixture *fx)
{
	if (fixture_init(fx, edge, 3, edge_argv,
			 (int)(sizeof edge_argv / sizeof *edge_argv)) != 0)
		return -1;
	export_doc_free(fx->doc);
	fx->out.shell = xstrdup("/bin/sh");
	fx->out.shell_overhead_s = 0.0011;
	fx->out.shell_wake_s = 0.00009;
	fx->out.shell_reap_s = 0.00012;
	fx->out.user_only = true;
	fx->doc = export_doc_new(&fx->ctx, &fx->out, NULL);
	return 0;
}

/* The exporter's output as a string (caller frees). */
static char *render(export_fn fn, const struct export_doc *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (f == NULL)
		return NULL;
	int rc = fn(f, d);
	fclose(f);
	if (rc != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	char *buf = NULL;
	size_t len = 0, cap = 0, got;
	char chunk[4096];
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
		xgrow((void **)&buf, &cap, len + got + 1, 1);
		memcpy(buf + len, chunk, got);
		len += got;
	}
	fclose(f);
	if (buf == NULL)
		buf = xcalloc(1, 1);
	buf[len] = '\0';
	return buf;
}

/* Replace every "@VERSION@" in s by the version (new string). */
static char *expand_version(const char *s)
{
	const char *key = "@VERSION@";
	size_t kl = strlen(key), vl = strlen(CBENCH_VERSION), n = 0;
	for (const char *p = s; (p = strstr(p, key)); p += kl)
		n++;
	char *out = xmalloc(strlen(s) + n * vl + 1), *o = out;
	for (const char *p = s, *q; ; p = q + kl) {
		q = strstr(p, key);
		size_t chunk = q ? (size_t)(q - p) : strlen(p);
		memcpy(o, p, chunk);
		o += chunk;
		if (q == NULL)
			break;
		memcpy(o, CBENCH_VERSION, vl);
		o += vl;
	}
	*o = '\0';
	return out;
}

/* The inverse, for UPDATE_GOLDEN: only the cbench_version field. */
static char *hide_version(const char *s)
{
	char *field = xasprintf("\"cbench_version\":\t\"%s\"", CBENCH_VERSION);
	const char *q = strstr(s, field);
	char *out;
	if (q == NULL)
		out = xstrdup(s);
	else
		out = xasprintf("%.*s\"cbench_version\":\t\"@VERSION@\"%s",
				(int)(q - s), s, q + strlen(field));
	free(field);
	return out;
}

/* First line where a and b differ, for the failure message. */
static void first_difference(const char *a, const char *b, char *buf, size_t len)
{
	size_t line = 1, i = 0;
	while (a[i] && a[i] == b[i]) {
		if (a[i] == '\n')
			line++;
		i++;
	}
	const char *la = a + i, *lb = b + i;
	while (la > a && la[-1] != '\n')
		la--, lb--;
	snprintf(buf, len, "line %zu: got \"%.*s\", expected \"%.*s\"", line,
		 (int)strcspn(la, "\n"), la, (int)strcspn(lb, "\n"), lb);
}

/* Compare the exporter's output with tests/golden/<name>; 0 if equal. */
static int golden(export_fn fn, const struct export_doc *d, const char *name)
{
	const char *dir = getenv("GOLDEN_DIR") ? getenv("GOLDEN_DIR") : "tests/golden";
	char *path = xasprintf("%s/%s", dir, name);
	char *got = render(fn, d);
	int rc = -1;
	if (got == NULL) {
		printf("FAIL %s: %s: the exporter failed\n", unit_name, name);
		goto out;
	}
	const char *upd = getenv("UPDATE_GOLDEN");
	if (upd && strcmp(upd, "1") == 0) {
		char *hidden = hide_version(got);
		FILE *f = fopen(path, "wb");
		if (f) {
			fputs(hidden, f);
			fclose(f);
		}
		free(hidden);
		rc = f ? 0 : -1;
		goto out;
	}
	char *raw = slurp(path);
	if (raw == NULL) {
		printf("FAIL %s: cannot read %s (UPDATE_GOLDEN=1 creates it)\n",
		       unit_name, path);
		goto out;
	}
	char *want = expand_version(raw);
	free(raw);
	if (strcmp(got, want) == 0)
		rc = 0;
	else {
		char diff[600];
		first_difference(got, want, diff, sizeof diff);
		printf("FAIL %s: %s differs: %s\n", unit_name, path, diff);
	}
	free(want);
out:
	if (rc != 0)
		unit_state = 1;
	free(got);
	free(path);
	return rc;
}

static const struct {
	export_fn fn;
	const char *ext;
} formats[] = {
	{export_json_write, "json"},
	{export_markdown_write, "md"},
	{export_asciidoc_write, "adoc"},
	{export_orgmode_write, "org"},
	{export_csv_write, "csv"},
	{export_csv_runs_write, "runs.csv"},
};

static void golden_all(struct fixture *fx, const char *stem)
{
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		char name[64];
		snprintf(name, sizeof name, "%s.%s", stem, formats[i].ext);
		if (golden(formats[i].fn, fx->doc, name) != 0)
			return;
	}
}

static void golden_parameter_sweep(void)
{
	struct fixture fx;
	CHECK(sweep_fixture(&fx) == 0);
	golden_all(&fx, "sweep");
	fixture_free(&fx);
}

/* Both means 0: every format says n/a (or null, or empty), never nan. */
static void golden_zero_means(void)
{
	struct fixture fx;
	CHECK(fixture_init(&fx, zero, 3, zero_argv,
			   (int)(sizeof zero_argv / sizeof *zero_argv)) == 0);
	golden_all(&fx, "zero");
	for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		char *text = render(formats[i].fn, fx.doc);
		CHECK(text != NULL);
		CHECK(strstr(text, "nan") == NULL && strstr(text, "inf") == NULL);
		free(text);
	}
	fixture_free(&fx);
}

/* text_summary's stdout, for results built by hand (caller frees). */
static char *summary_text(const struct runs_spec *spec, size_t n)
{
	struct bench_result **rs = xcalloc(n, sizeof *rs);
	for (size_t i = 0; i < n; i++)
		rs[i] = make(&spec[i]);
	struct text_style st = {.confidence = 0.95, .unit = UNIT_AUTO};
	char path[] = "/tmp/cbench-unit-summary-XXXXXX";
	int fd = mkstemp(path);
	int saved = dup(STDOUT_FILENO);
	fflush(stdout);
	dup2(fd, STDOUT_FILENO);
	struct analysis_options opt = {.confidence = 0.95, .summary_by_mean = true};
	struct analysis *an = analysis_new(&opt);
	analysis_update(an, rs, n, -1);
	text_summary(&st, an, rs);
	analysis_free(an);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(fd);
	char *text = slurp(path);
	unlink(path);
	for (size_t i = 0; i < n; i++)
		results_free(rs[i]);
	free(rs);
	return text;
}

/* The terminal summary does not call an undefined ratio "nan times
 * slower": it says why there is no ratio. */
static void summary_zero_means(void)
{
	char *text = summary_text(zero, 2);
	CHECK(text != NULL);
	CHECK(strstr(text, "nan") == NULL);
	CHECK(strstr(text, "times") == NULL);
	CHECK(strstr(text, "ratio to : x undefined (both means are 0)") != NULL);
	free(text);
}

/* Columns of the UTF-8 text from p up to end. */
static size_t cols_between(const char *p, const char *end)
{
	size_t n = 0;
	for (; p < end; p++)
		n += ((unsigned char)*p & 0xC0) != 0x80;
	return n;
}

/* What the bar writes to stderr (a file: no TIOCGWINSZ) at $COLUMNS =
 * cols: n draws (what[i], estimate est[i]; 7/20, 8/20, ...), then the
 * clear.  malloc'd, NULL on error. */
static long bar_bench = -1;   /* text_progress's bench argument */

static char *bar_text(const struct text_style *st, const char *cols, size_t n,
		      const char *const *what, const double *est)
{
	char path[] = "/tmp/cbench-unit-progress-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return NULL;
	setenv("COLUMNS", cols, 1);
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	dup2(fd, STDERR_FILENO);
	for (size_t i = 0; i < n; i++) {
		if (i)
			usleep(60000);   /* the bar redraws at most every 50 ms */
		text_progress(st, what[i], 7 + i, 20, est[i], bar_bench);
	}
	text_progress_clear(st);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(fd);
	unsetenv("COLUMNS");
	char *text = slurp(path);
	unlink(path);
	return text;
}

/* The progress line (after its "\r\033[K") at $COLUMNS = cols; its
 * width in columns, -1 on error. */
static int progress_width(const char *cols, const char *what, double est,
			  char *line, size_t len)
{
	struct text_style st = {.progress = true, .erase = true, .unit = UNIT_AUTO};
	char *text = bar_text(&st, cols, 1, &what, &est);
	if (text == NULL || strncmp(text, "\r\033[K", 4) != 0) {
		free(text);
		return -1;
	}
	const char *p = text + 4;
	size_t n = strcspn(p, "\r");
	snprintf(line, len, "%.*s", (int)n, p);
	int w = (int)cols_between(p, p + n);
	free(text);
	return w;
}

/* Without erase codes (NO_COLOR, a dumb TERM, --style nocolor) the bar
 * writes no ESC byte: a carriage return, the line, and spaces over what
 * a longer line before it left; cleared the same way. */
static void progress_without_escapes(void)
{
	struct text_style st = {.progress = true, .unit = UNIT_AUTO};
	const char *what[] = {"Current", "Warmup"};
	const double est[] = {0.1234, NAN};
	char *text = bar_text(&st, "100", 2, what, est);
	CHECK(text != NULL);
	if (text == NULL)
		return;
	CHECK(strchr(text, '\033') == NULL);
	/* Three lines drawn over each other: the first, the shorter second
	 * padded with spaces to the first's width, then blanks over what
	 * the second wrote. */
	char *a = strchr(text, '\r'), *b = a ? strchr(a + 1, '\r') : NULL;
	char *c = b ? strchr(b + 1, '\r') : NULL;
	CHECK(a == text && b && c);
	if (a == text && b && c) {
		CHECK(strncmp(a + 1, "Current estimate: 123.400 ms ", 29) == 0);
		CHECK(strncmp(b + 1, "Warmup ", 7) == 0);
		CHECK(c[-1] == ' ' && c[1] == ' ');
		CHECK(cols_between(a + 1, b) == cols_between(b + 1, c));
		const char *end = c;
		while (end[-1] == ' ')
			end--;
		CHECK(cols_between(c + 1, c + strlen(c) - 1) == cols_between(b + 1, end));
		CHECK(text[strlen(text) - 1] == '\r');
	}
	free(text);
}

/* The bar fits the terminal (one column to spare, so it never wraps):
 * narrower bar first, then no label; 30 cells at most. */
static void progress_fits_terminal(void)
{
	char line[512];
	int w = progress_width("200", "Current", 0.1234, line, sizeof line);
	CHECK(w > 0 && w < 199);
	CHECK(strstr(line, "Current estimate: 123.400 ms ") == line);
	CHECK(strstr(line, " 7/20") != NULL);
	w = progress_width("80", "Current", 0.1234, line, sizeof line);
	CHECK(w > 0 && w <= 79);
	w = progress_width("40", "Current", 0.1234, line, sizeof line);
	CHECK(w > 0 && w <= 39);
	CHECK(strstr(line, "7/20") != NULL);
	w = progress_width("20", "Runs", NAN, line, sizeof line);
	CHECK(w > 0 && w <= 19);
	CHECK(strstr(line, "7/20") != NULL);
	w = progress_width("4", "Runs", NAN, line, sizeof line);
	CHECK(w >= 0 && w <= 3);
	w = progress_width("junk", "Runs", NAN, line, sizeof line);
	CHECK(w > 0 && w <= 79);
	/* Benchmarks taking turns: the estimate says whose it is. */
	bar_bench = 1;
	w = progress_width("200", "Current", 0.1234, line, sizeof line);
	bar_bench = -1;
	CHECK(w > 0 && strstr(line, "Current estimate (#2): 123.400 ms ") == line);
}

static void golden_edge_cases(void)
{
	struct fixture fx;
	CHECK(edge_fixture(&fx) == 0);
	golden_all(&fx, "edge");
	fixture_free(&fx);
}

/* JSON: parse our output back with cJSON and find what we put in. */
static void json_round_trip(void)
{
	struct fixture fx;
	CHECK(edge_fixture(&fx) == 0);
	char *text = render(export_json_write, fx.doc);
	cJSON *root = text ? cJSON_Parse(text) : NULL;
	free(text);
	bool ok = root != NULL;
	const cJSON *rs = cJSON_GetObjectItemCaseSensitive(root, "results");
	const cJSON *r0 = cJSON_GetArrayItem(rs, 0);
	const cJSON *r1 = cJSON_GetArrayItem(rs, 1);
	const cJSON *r2 = cJSON_GetArrayItem(rs, 2);
	ok = ok && cJSON_GetArraySize(rs) == 3 && r0 && r1 && r2;
	if (ok) {
		/* Exact text and numbers come back. */
		const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(r1, "command");
		ok = cJSON_IsString(cmd) && strcmp(cmd->valuestring, edge[1].name) == 0;
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(r0, "times");
		ok = ok && cJSON_GetArraySize(t) == 2 &&
		     cJSON_GetArrayItem(t, 1)->valuedouble == 0.0225;
		/* One run: stddev null. */
		ok = ok && cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(r1, "stddev"));
		/* No parameters key without parameters. */
		ok = ok && !cJSON_HasObjectItem(r1, "parameters");
		/* Not counted: null; a signal: hyperfine's exit code 128 + N,
		 * cbench's own runs.exit_code null. */
		const cJSON *runs = cJSON_GetObjectItemCaseSensitive(r0, "runs");
		const cJSON *pf = cJSON_GetObjectItemCaseSensitive(runs, "page_faults");
		ok = ok && cJSON_IsNull(cJSON_GetArrayItem(pf, 1)) &&
		     cJSON_GetArrayItem(pf, 0)->valuedouble == 299;
		const cJSON *codes = cJSON_GetObjectItemCaseSensitive(r0, "exit_codes");
		ok = ok && cJSON_GetArrayItem(codes, 1)->valuedouble == 128 + 9;
		const cJSON *code = cJSON_GetObjectItemCaseSensitive(runs, "exit_code");
		ok = ok && cJSON_IsNull(cJSON_GetArrayItem(code, 1));
		const cJSON *sig = cJSON_GetObjectItemCaseSensitive(runs, "signal");
		ok = ok && strcmp(cJSON_GetArrayItem(sig, 1)->valuestring, "SIGKILL") == 0;
		ok = ok && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r0, "interrupted"));
		/* A benchmark without runs: null statistics, empty arrays. */
		ok = ok && cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(r2, "mean")) &&
		     cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(r2, "times")) == 0;
		/* Every per-run array has one entry per run. */
		const cJSON *a;
		cJSON_ArrayForEach(a, runs)
			ok = ok && cJSON_GetArraySize(a) == 2;
	}
	cJSON_Delete(root);
	fixture_free(&fx);
	CHECK(ok);
}

static void json_parameters_are_strings(void)
{
	struct fixture fx;
	CHECK(sweep_fixture(&fx) == 0);
	char *text = render(export_json_write, fx.doc);
	cJSON *root = text ? cJSON_Parse(text) : NULL;
	free(text);
	const cJSON *r1 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "results"), 1);
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(r1, "parameters");
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(p, "n");
	bool ok = cJSON_IsString(n) && strcmp(n->valuestring, "10") == 0;
	/* One comparison per shared metric, all against the reference. */
	const cJSON *cs = cJSON_GetObjectItemCaseSensitive(root, "comparisons");
	const cJSON *c;
	int count = 0;
	cJSON_ArrayForEach(c, cs) {
		count++;
		ok = ok && cJSON_GetObjectItemCaseSensitive(c, "reference")->valuedouble == 0 &&
		     cJSON_GetObjectItemCaseSensitive(c, "candidate")->valuedouble == 1;
	}
	ok = ok && count == 11;
	cJSON_Delete(root);
	fixture_free(&fx);
	CHECK(ok);
}

/* Invalid UTF-8 in a command line becomes U+FFFD, so the JSON parses. */
static void json_invalid_utf8(void)
{
	static const struct runs_spec bad[] = {{
		.name = "echo \xff\xfe", .command = "echo \xc3", .n = 1,
		.has = {[MET_WALL] = true}, .v = {[MET_WALL] = {0.5}},
	}};
	struct fixture fx;
	char *argv[] = {"cbench", "x"};
	CHECK(fixture_init(&fx, bad, 1, argv, 2) == 0);
	char *text = render(export_json_write, fx.doc);
	cJSON *root = text ? cJSON_Parse(text) : NULL;
	free(text);
	const cJSON *r0 = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "results"), 0);
	const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(r0, "command");
	const cJSON *line = cJSON_GetObjectItemCaseSensitive(r0, "command_line");
	bool ok = cJSON_IsString(cmd) &&
		  strcmp(cmd->valuestring, "echo \xEF\xBF\xBD\xEF\xBF\xBD") == 0 &&
		  cJSON_IsString(line) &&
		  strcmp(line->valuestring, "echo \xEF\xBF\xBD") == 0;
	cJSON_Delete(root);
	fixture_free(&fx);
	CHECK(ok);
}

/* ---- atomic writes and destination checks ---- */

static char tmpdir[64];

static int make_tmpdir(void)
{
	snprintf(tmpdir, sizeof tmpdir, "/tmp/cbench-unit-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static size_t dir_entries(const char *dir)
{
	DIR *d = opendir(dir);
	size_t n = 0;
	struct dirent *e;
	if (d == NULL)
		return (size_t)-1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static void remove_tmpdir(void)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	if (d == NULL)
		return;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char *p = xasprintf("%s/%s", tmpdir, e->d_name);
		if (rmdir(p) != 0)
			unlink(p);
		free(p);
	}
	closedir(d);
	rmdir(tmpdir);
}

static int fill_text(FILE *f, void *arg)
{
	fputs(arg, f);
	return 0;
}

/* Writes half of the text, then fails (a full disk, say). */
static int fill_then_fail(FILE *f, void *arg)
{
	fputs("partial", f);
	(void)arg;
	return -1;
}

static void atomic_write_replaces(void)
{
	char err[DIAG_MSG_MAX];
	CHECK(make_tmpdir() == 0);
	char *path = xasprintf("%s/out.json", tmpdir);
	int a = export_write_atomic(path, fill_text, "first\n", err, sizeof err);
	int b = export_write_atomic(path, fill_text, "second\n", err, sizeof err);
	char *got = slurp(path);
	struct stat st;
	int s = stat(path, &st);
	bool ok = a == 0 && b == 0 && got && strcmp(got, "second\n") == 0 &&
		  dir_entries(tmpdir) == 1 && s == 0 && (st.st_mode & 0444) == 0444;
	free(got);
	free(path);
	remove_tmpdir();
	CHECK(ok);
}

static void atomic_write_failure_keeps_previous(void)
{
	char err[DIAG_MSG_MAX] = "";
	CHECK(make_tmpdir() == 0);
	char *path = xasprintf("%s/out.json", tmpdir);
	int a = export_write_atomic(path, fill_text, "complete\n", err, sizeof err);
	int b = export_write_atomic(path, fill_then_fail, NULL, err, sizeof err);
	char *got = slurp(path);
	bool ok = a == 0 && b == -1 && got && strcmp(got, "complete\n") == 0 &&
		  dir_entries(tmpdir) == 1 && strstr(err, "out.json") != NULL;
	free(got);
	free(path);
	remove_tmpdir();
	CHECK(ok);
}

static void atomic_write_vanished_directory(void)
{
	char err[DIAG_MSG_MAX] = "";
	CHECK(make_tmpdir() == 0);
	char *path = xasprintf("%s/gone/out.json", tmpdir);
	int rc = export_write_atomic(path, fill_text, "x", err, sizeof err);
	free(path);
	remove_tmpdir();
	CHECK(rc == -1);
	CHECK(strstr(err, "No such file or directory") != NULL);
}

static void atomic_write_keeps_symlink(void)
{
	char err[DIAG_MSG_MAX];
	CHECK(make_tmpdir() == 0);
	char *real = xasprintf("%s/real.json", tmpdir);
	char *link = xasprintf("%s/link.json", tmpdir);
	int l = symlink("real.json", link);
	int rc = export_write_atomic(link, fill_text, "via link\n", err, sizeof err);
	struct stat st;
	int s = lstat(link, &st);
	char *got = slurp(real);
	bool ok = l == 0 && rc == 0 && s == 0 && S_ISLNK(st.st_mode) && got &&
		  strcmp(got, "via link\n") == 0;
	free(got);
	free(real);
	free(link);
	remove_tmpdir();
	CHECK(ok);
}

static int check_paths(const char *a, const char *b, char *err, size_t len)
{
	char *argv[] = {"cbench", "--export-json", (char *)a, "--export-csv",
			(char *)b, "true"};
	struct config cfg;
	int code;
	if (cli_parse(6, argv, &cfg, &code) != 0)
		return -2;
	struct export_files xf = cli_export_files(&cfg);
	int rc = export_check_destinations(&xf, err, len);
	cli_free(&cfg);
	return rc;
}

static void destinations_checked(void)
{
	char err[DIAG_MSG_MAX] = "";
	CHECK(make_tmpdir() == 0);
	char *good = xasprintf("%s/a.json", tmpdir);
	char *good2 = xasprintf("%s/a.csv", tmpdir);
	char *missing = xasprintf("%s/no/such/dir/a.csv", tmpdir);
	int ok_rc = check_paths(good, good2, err, sizeof err);
	size_t left = dir_entries(tmpdir);
	int miss_rc = check_paths(good, missing, err, sizeof err);
	bool miss_msg = strstr(err, "--export-csv") && strstr(err, "no/such/dir");
	int dir_rc = check_paths(good, tmpdir, err, sizeof err);
	bool dir_msg = strstr(err, "is a directory") != NULL;
	int dup_rc = check_paths(good, good, err, sizeof err);
	bool dup_msg = strstr(err, "both write to") != NULL;
	int null_rc = check_paths("/dev/null", "-", err, sizeof err);
	free(good);
	free(good2);
	free(missing);
	remove_tmpdir();
	CHECK(ok_rc == 0);
	CHECK(left == 0);
	CHECK(miss_rc == -1 && miss_msg);
	CHECK(dir_rc == -1 && dir_msg);
	CHECK(dup_rc == -1 && dup_msg);
	CHECK(null_rc == 0);
}

static void streams_recognised(void)
{
	CHECK(export_is_stream("-"));
	CHECK(export_is_stream("/dev/stdout"));
	CHECK(export_is_stream("/dev/null"));
	CHECK(!export_is_stream("results.json"));
}

static void csv_numbers_shortest(void)
{
	char buf[40];
	export_number(buf, sizeof buf, 0.1);
	CHECK_STR(buf, "0.1");
	export_number(buf, sizeof buf, 1.0 / 3.0);
	CHECK(strtod(buf, NULL) == 1.0 / 3.0);
	export_number(buf, sizeof buf, 1e9);
	CHECK_STR(buf, "1000000000");
	export_number(buf, sizeof buf, NAN);
	CHECK_STR(buf, "");
}

int main(void)
{
	stats_init();
	diag_set_quiet(true);
	RUN(golden_parameter_sweep);
	RUN(golden_edge_cases);
	RUN(golden_zero_means);
	RUN(summary_zero_means);
	RUN(progress_fits_terminal);
	RUN(progress_without_escapes);
	RUN(json_round_trip);
	RUN(json_parameters_are_strings);
	RUN(json_invalid_utf8);
	RUN(atomic_write_replaces);
	RUN(atomic_write_failure_keeps_previous);
	RUN(atomic_write_vanished_directory);
	RUN(atomic_write_keeps_symlink);
	RUN(destinations_checked);
	RUN(streams_recognised);
	RUN(csv_numbers_shortest);
	UNIT_EXIT();
}
