/*
 * cli_history.c: parses `cbench history SUBCOMMAND [OPTIONS] [ARGS]` (see
 * cli_history.h).  Every value is checked here, before the history is
 * opened: numbers with strtol/strtod and a range, durations ("30d",
 * "12h", "90m", "3600" seconds), labels KEY=VALUE.
 */
#include "suggest.h"
#include "cli_history.h"
#include "changepoint.h"
#include "cli.h"
#include "fileid.h"
#include "history.h"
#include "xalloc.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static const char *const sub_names[HSUB__COUNT] = {
	[HSUB_LIST] = "list", [HSUB_SHOW] = "show", [HSUB_TREND] = "trend",
	[HSUB_DETECT] = "detect", [HSUB_EXPORT] = "export",
	[HSUB_IMPORT] = "import", [HSUB_PRUNE] = "prune", [HSUB_REPORT] = "report",
	[HSUB_HELP] = "help",
};

const struct history_option_info cli_history_options[] = {
	{"history", "TARGET", "list,show,trend,detect,export,import,prune,report",
	 "the history (default: $CBENCH_HISTORY)"},
	{"benchmark", "NAME", "list,export,prune",
	 "only invocations with this benchmark (name or command line)"},
	{"branch", "BRANCH", "list,trend,detect,export,prune,report",
	 "only invocations recorded on BRANCH"},
	{"machine", "ID", "list,trend,detect,export,prune,report",
	 "only this machine: a fingerprint (or its prefix) or a hostname"},
	{"commit", "HASH", "list,export,prune", "only this commit (or prefix)"},
	{"limit", "NUM", "list,trend,detect,export,report", "only the newest NUM"},
	{"metric", "METRIC", "trend,detect,report",
	 "the metric (default: wall_time; detect and report: each benchmark's "
	 "steadiest, see the README)"},
	{"all-machines", "", "trend,detect,report",
	 "mix every machine's points (default: one fingerprint)"},
	{"alpha", "P", "detect,report",
	 "significance level of each change (default: 0.05; otava: 0.001, its max_pvalue)"},
	{"test", "t|permutation|otava", "detect,report",
	 "the significance test (default: t, Hunter's t-test; otava: Apache "
	 "Otava's method whole)"},
	{"window", "NUM", "detect,report",
	 "with --test otava, its window_len: points a window holds (default: 50)"},
	{"min-magnitude", "FRACTION", "detect,report",
	 "with --test otava, the smallest relative change kept (default: 0)"},
	{"format", "json|csv", "export",
	 "cbench's JSON, or CSV with one row per run (default: json)"},
	{"output", "FILE", "export,report",
	 "write to FILE (export: default standard output; report: the page, required)"},
	{"history-label", "KEY=VALUE", "import",
	 "label the imported invocations (commit=, branch=, ...); repeatable"},
	{"older-than", "AGE", "prune",
	 "remove invocations older than AGE: 30d, 12h, 90m, 2w or seconds"},
	{"keep", "NUM", "prune", "keep only the newest NUM invocations"},
	{"help", "", "list,show,trend,detect,export,import,prune,report",
	 "print the history subcommands' help"},
};
const size_t cli_history_n_options =
	sizeof cli_history_options / sizeof cli_history_options[0];

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

static bool sub_takes(const char *subs, enum history_sub s)
{
	const char *name = sub_names[s];
	size_t n = strlen(name);
	for (const char *p = subs; (p = strstr(p, name)) != NULL; p += n)
		if ((p == subs || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

/* "30d", "12h", "90m", "2w", "3600s" or "3600": seconds, > 0. */
static int parse_age(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	double unit = 1;
	if (end == s || !isfinite(v) || v <= 0)
		return -1;
	if (*end && end[1] == '\0') {
		switch (*end) {
		case 's': unit = 1; break;
		case 'm': unit = 60; break;
		case 'h': unit = 3600; break;
		case 'd': unit = 86400; break;
		case 'w': unit = 7 * 86400; break;
		default: return -1;
		}
	} else if (*end) {
		return -1;
	}
	*out = v * unit;
	return 0;
}

static int take_value(struct history_cmd *c, const char *name, const char *v,
		      char *err, size_t errlen)
{
	long n;
	if (strcmp(name, "history") == 0) {
		c->target = v;
	} else if (strcmp(name, "benchmark") == 0) {
		c->filter.bench = v;
	} else if (strcmp(name, "branch") == 0) {
		c->filter.branch = v;
	} else if (strcmp(name, "machine") == 0) {
		c->filter.machine = v;
	} else if (strcmp(name, "commit") == 0) {
		c->filter.commit = v;
	} else if (strcmp(name, "limit") == 0) {
		if (cli_parse_long(v, 1, 100000000, &n) != 0)
			FAIL("--limit '%s': expected a whole number of at least 1", v);
		c->filter.limit = (size_t)n;
	} else if (strcmp(name, "metric") == 0) {
		if (metric_lookup(v) < 0 && !metric_name_valid(v))  /* checked once open */
			FAIL("--metric '%s': no such metric (wall_time, user_time, "
			     "system_time, peak_rss, page_faults, instructions, ...)", v);
		c->metric = v;
	} else if (strcmp(name, "alpha") == 0) {
		if (cli_parse_double(v, 1e-9, 0.5, &c->alpha) != 0)
			FAIL("--alpha '%s': expected a probability in (0, 0.5]", v);
		c->alpha_given = true;
	} else if (strcmp(name, "test") == 0) {
		if (strcmp(v, "t") != 0 && strcmp(v, "permutation") != 0 &&
		    strcmp(v, "otava") != 0)
			FAIL("--test '%s': expected t, permutation or otava", v);
		c->permutation = strcmp(v, "permutation") == 0;
		c->otava = strcmp(v, "otava") == 0;
	} else if (strcmp(name, "window") == 0) {
		if (cli_parse_long(v, 2, CP_MAX_WINDOW, &n) != 0)
			FAIL("--window '%s': expected a whole number from 2 to %d", v,
			     CP_MAX_WINDOW);
		c->window = (size_t)n;
	} else if (strcmp(name, "min-magnitude") == 0) {
		if (cli_parse_double(v, 0, 1e9, &c->min_magnitude) != 0)
			FAIL("--min-magnitude '%s': expected a fraction of at least 0 "
			     "(0.05: 5 %%)", v);
		c->min_magnitude_given = true;
	} else if (strcmp(name, "format") == 0) {
		if (strcmp(v, "json") != 0 && strcmp(v, "csv") != 0)
			FAIL("--format '%s': expected json or csv", v);
		c->csv = strcmp(v, "csv") == 0;
	} else if (strcmp(name, "output") == 0) {
		if (*v == '\0')
			FAIL("--output: empty file name");
		c->output = v;
	} else if (strcmp(name, "history-label") == 0) {
		if (history_label_check(v, err, errlen) != 0)
			return -1;
		c->labels = xreallocarray(c->labels, c->n_labels + 1, sizeof *c->labels);
		c->labels[c->n_labels++] = v;
	} else if (strcmp(name, "older-than") == 0) {
		if (parse_age(v, &c->older_than_s) != 0)
			FAIL("--older-than '%s': expected an age such as 30d, 12h, "
			     "90m, 2w or seconds", v);
		c->older_than_text = v;
	} else if (strcmp(name, "keep") == 0) {
		if (cli_parse_long(v, 1, 100000000, &c->keep) != 0)
			FAIL("--keep '%s': expected a whole number of at least 1", v);
	}
	return 0;
}

/* One option at argv[*i]; --name=value or --name value. */
static int take_option(struct history_cmd *c, int argc, char **argv, int *i,
		       char *err, size_t errlen)
{
	const char *arg = argv[*i] + 2;
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	const struct history_option_info *o = NULL;
	for (size_t k = 0; k < cli_history_n_options; k++)
		if (strlen(cli_history_options[k].name) == len &&
		    strncmp(cli_history_options[k].name, arg, len) == 0)
			o = &cli_history_options[k];
	if (o == NULL) {
		const char *names[64];
		size_t n = 0;
		for (size_t k = 0; k < cli_history_n_options && n < 64; k++)
			if (sub_takes(cli_history_options[k].subs, c->sub))
				names[n++] = cli_history_options[k].name;
		const char *near = suggest_name(arg, len, names, n);
		if (near)
			FAIL("unknown option '--%.*s' for 'cbench history %s' (did "
			     "you mean --%s?)", (int)len, arg, sub_names[c->sub], near);
		FAIL("unknown option '%s' for 'cbench history %s'", argv[*i],
		     sub_names[c->sub]);
	}
	if (strcmp(o->name, "help") == 0) {
		c->sub = HSUB_HELP;
		return 0;
	}
	if (!sub_takes(o->subs, c->sub))
		FAIL("--%s does not apply to 'cbench history %s' (only to %s)",
		     o->name, sub_names[c->sub], o->subs);
	if (o->arg[0] == '\0') {
		if (eq)
			FAIL("--%s takes no value", o->name);
		c->all_machines = true;
		return 0;
	}
	const char *v = eq ? eq + 1 : NULL;
	if (v == NULL) {
		if (*i + 1 >= argc)
			FAIL("--%s needs a value (%s)", o->name, o->arg);
		v = argv[++*i];
	}
	return take_value(c, o->name, v, err, errlen);
}

/* The positional words: show's ID, trend's and detect's BENCH, import's
 * files. */
static int check_words(struct history_cmd *c, char *err, size_t errlen)
{
	switch (c->sub) {
	case HSUB_SHOW: {
		long id;
		if (c->n_words != 1 || cli_parse_long(c->words[0], 1, LONG_MAX, &id) != 0)
			FAIL("'cbench history show' takes one invocation ID (a "
			     "number, see 'cbench history list')");
		c->id = id;
		return 0;
	}
	case HSUB_TREND:
		if (c->n_words != 1)
			FAIL("'cbench history trend' takes one benchmark name");
		c->filter.bench = c->words[0];
		return 0;
	case HSUB_DETECT:
		if (c->n_words > 1)
			FAIL("'cbench history detect' takes at most one benchmark name");
		c->filter.bench = c->n_words ? c->words[0] : NULL;
		return 0;
	case HSUB_REPORT:
		if (c->n_words != 1)
			FAIL("'cbench history report' takes one benchmark name: "
			     "cbench history report BENCH --output OUT.html");
		if (c->output == NULL)
			FAIL("'cbench history report' needs --output OUT.html");
		c->filter.bench = c->words[0];
		return 0;
	case HSUB_IMPORT:
		if (c->n_words == 0)
			FAIL("'cbench history import' takes one or more JSON files "
			     "(cbench's or hyperfine's exports)");
		return 0;
	case HSUB_PRUNE:
		if (c->older_than_s == 0 && c->keep == 0)
			FAIL("'cbench history prune' needs --older-than AGE or --keep "
			     "NUM (nothing is removed without one)");
		/* fall through */
	default:
		if (c->n_words)
			FAIL("'cbench history %s' takes no argument '%s'",
			     sub_names[c->sub], c->words[0]);
		return 0;
	}
}

int cli_history_parse(int argc, char **argv, struct history_cmd *c, char *err,
		      size_t errlen)
{
	memset(c, 0, sizeof *c);
	c->alpha = 0.05;
	if (argc < 1)
		FAIL("'cbench history' needs a subcommand: list, show, trend, "
		     "detect, export, import, prune or report");
	int s = -1;
	for (int k = 0; k < HSUB__COUNT; k++)
		if (strcmp(argv[0], sub_names[k]) == 0)
			s = k;
	if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0)
		s = HSUB_HELP;
	const char *near = s < 0 ? suggest_name(argv[0], strlen(argv[0]),
						sub_names, HSUB_HELP) : NULL;
	if (near)
		FAIL("unknown history subcommand '%s' (did you mean %s?)", argv[0], near);
	if (s < 0)
		FAIL("unknown history subcommand '%s': list, show, trend, detect, "
		     "export, import, prune or report", argv[0]);
	c->sub = (enum history_sub)s;
	bool only_words = false;
	for (int i = 1; i < argc && c->sub != HSUB_HELP; i++) {
		if (!only_words && strcmp(argv[i], "--") == 0) {
			only_words = true;
		} else if (!only_words && strncmp(argv[i], "--", 2) == 0) {
			if (take_option(c, argc, argv, &i, err, errlen) != 0)
				return -1;
		} else if (!only_words && (strcmp(argv[i], "-h") == 0)) {
			c->sub = HSUB_HELP;
		} else if (!only_words && argv[i][0] == '-' && argv[i][1] != '\0') {
			FAIL("unknown option '%s' for 'cbench history %s'", argv[i],
			     sub_names[c->sub]);
		} else {
			c->words = xreallocarray(c->words, c->n_words + 1, sizeof *c->words);
			c->words[c->n_words++] = argv[i];
		}
	}
	if (c->sub == HSUB_HELP)
		return 0;
	if (c->target == NULL) {
		const char *env = getenv("CBENCH_HISTORY");
		c->target = env && *env ? env : NULL;
	}
	if (c->target == NULL)
		FAIL("no history: give --history TARGET (a file such as "
		     ".cbench/history.db, or a postgresql:// URL) or set "
		     "CBENCH_HISTORY");
	/* --output never replaces the history or the files SQLite keeps
	 * beside it (`history export --output h.db` would empty it). */
	static const char *const side[] = {"", "-wal", "-shm", "-journal"};
	for (size_t i = 0; c->output && strcmp(c->output, "-") != 0 &&
	     !history_is_url(c->target) && i < sizeof side / sizeof side[0]; i++) {
		char *path = xasprintf("%s%s", c->target, side[i]);
		bool same = fileid_same(path, c->output);
		free(path);
		if (same)
			FAIL("--output '%s' is %s '%s': cbench would write over "
			     "a file it reads", c->output, i ? "SQLite's journal "
			     "of the history" : "the history", c->target);
	}
	if ((c->window || c->min_magnitude_given) && !c->otava)
		FAIL("--%s is a parameter of --test otava", c->window ? "window"
		     : "min-magnitude");
	if (c->otava && !c->alpha_given)
		c->alpha = 0.001;   /* Otava's max_pvalue */
	/* The permutation test's p is at least 1 / (resamples + 1). */
	if (c->permutation && cp_permutations_for(c->alpha) == 0)
		FAIL("--alpha %g: below what the permutation test can reach "
		     "(%g with %u resamples): use --test t", c->alpha,
		     10.0 / (CP_MAX_PERMUTATIONS + 1), CP_MAX_PERMUTATIONS);
	return check_words(c, err, errlen);
}

void cli_history_free(struct history_cmd *c)
{
	free(c->words);
	free(c->labels);
	c->words = NULL;
	c->labels = NULL;
}
