/*
 * cli.h: the option table and the parsed configuration.
 *
 * One table (cli_options) drives parsing, --help, the man page (through
 * --help) and, through the hidden --list-options, the checks that keep the
 * completion files, the README and the e2e tests in sync.  Each entry has
 * a kind (enum opt_kind), a range or value set, a default and a target in
 * struct config; parsing validates every value against them so that a bad
 * invocation fails before anything runs, and --help shows the defaults.
 *
 * Ownership: cli_parse() fills a config whose strings point into argv or are
 * owned by the config; free it with cli_free().
 */
#ifndef CBENCH_CLI_H
#define CBENCH_CLI_H

/* The layers' own enums and structs that struct config's fields use. */
#include "bench.h"         /* enum shell_mode, enum aslr_mode */
#include "diag.h"
#include "export.h"        /* enum export_format, struct export_req */
#include "export_text.h"   /* enum style, enum time_unit */
#include "gate.h"          /* enum match_by */
#include "planner.h"       /* enum run_order, struct param_spec */
#include "strlist.h"
#include "version.h"

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

/* How many words an option takes. */
enum arg_kind {
	ARG_NONE,
	ARG_ONE,        /* --opt VALUE or --opt=VALUE */
	ARG_OPTIONAL,   /* --opt or --opt=VALUE (never the next word) */
	ARG_TWO,        /* --opt NAME VALUES */
	ARG_THREE,      /* --opt NAME MIN MAX */
};

/*
 * What an option's value is.  cli.c has one handler per kind, which checks
 * the value against the entry's range or value set and stores it at the
 * entry's target (an offsetof() into struct config).
 */
enum opt_kind {
	KIND_FLAG,      /* no value: sets a bool */
	KIND_COUNT,     /* whole number in [min, max]: long */
	KIND_UINT,      /* whole number >= 0: uint64_t */
	KIND_SECONDS,   /* decimal seconds in [min, max] ((min, max] if open): double */
	KIND_PERCENT,   /* "5" or "5%", stored as the fraction 0.05: double */
	KIND_ENUM,      /* a word of the value set, stored as its enum value */
	KIND_CHOICE,    /* a word of the value set, stored as the string */
	KIND_FILE,      /* a non-empty file name: const char * */
	KIND_COMMAND,   /* a non-empty command line: const char * */
	KIND_LIST,      /* repeatable, each value appended: struct strlist */
	KIND_EXPORT,    /* an export file, - for stdout (format in aux) */
	KIND_SPECIAL,   /* its own handler: -P, -L, -D, -S, -N, -i, --output, ... */
	KIND__COUNT
};

enum opt_scope { SCOPE_RUN = 1, SCOPE_COMPARE = 2, SCOPE_BOTH = 3 };

/* How --help shows an option's default. */
enum def_show {
	DEF_NONE,       /* no default shown */
	DEF_VALUE,      /* "(default: 10)", from def (or the enum word of def) */
	DEF_TEXT,       /* "(default: TEXT)", def_text alone */
	DEF_VALUE_TEXT, /* the value, then def_text: "(default: auto: ...)" */
};

enum opt_id {
	OPT_WARMUP, OPT_RUNS, OPT_MIN_RUNS, OPT_MAX_RUNS, OPT_MIN_TIME,
	OPT_MAX_TIME, OPT_PARAM_SCAN, OPT_PARAM_STEP, OPT_PARAM_LIST,
	OPT_SETUP, OPT_PREPARE, OPT_CONCLUDE, OPT_CLEANUP, OPT_SHELL,
	OPT_NO_SHELL, OPT_IGNORE_FAILURE, OPT_TIMEOUT, OPT_COMMAND_NAME,
	OPT_REFERENCE, OPT_ORDER, OPT_SEED, OPT_SORT, OPT_INPUT, OPT_OUTPUT,
	OPT_SHOW_OUTPUT, OPT_STYLE, OPT_TIME_UNIT, OPT_COUNTERS,
	OPT_CONFIDENCE, OPT_PRECISION, OPT_EXPORT_JSON, OPT_EXPORT_MARKDOWN,
	OPT_EXPORT_ASCIIDOC, OPT_EXPORT_ORGMODE, OPT_EXPORT_CSV,
	OPT_EXPORT_CSV_RUNS, OPT_BASELINE, OPT_SAVE_BASELINE,
	OPT_FAIL_IF_SLOWER, OPT_GATE_METRIC, OPT_REQUIRE_ALL, OPT_MATCH_BY,
	OPT_HELP, OPT_VERSION,
	OPT_EXPORT_BMF, OPT_EXPORT_GITHUB_BENCHMARK, OPT_EXPORT_JUNIT,
	OPT_FAIL_IF_SLOWER_FOR,
	OPT_PIN, OPT_PIN_HOOKS, OPT_PIN_SELF, OPT_ASLR, OPT_RANDOMIZE_LAYOUT,
	OPT_REFERENCE_NAME, OPT_MIN_BENCH_TIME, OPT_QUIET,
	OPT_HISTORY, OPT_HISTORY_LABEL, OPT_BASELINE_HISTORY,
	OPT_HISTORY_WINDOW, OPT_HISTORY_BRANCH, OPT_EXPORT_HTML,
	OPT_KEEP_BACKGROUND, OPT_METRIC, OPT_EXPORT_GITHUB_BENCHMARK_BIGGER,
	OPT_PROFILE, OPT_REQUIRE_RESOLUTION, OPT_EXPORT_METRICS, OPT_VERBOSE,
	OPT__COUNT
};

/* One word of a fixed value set; an alias is accepted but not offered. */
struct cli_value {
	const char *name;
	int value;
	bool alias;
};

struct cli_state;   /* the parser's state, private to cli.c */
struct cli_option;
typedef int cli_handler(struct cli_state *st, const struct cli_option *o,
			const char *const *words, int *exit_code);

struct cli_option {
	enum opt_id id;
	const char *long_name;
	char short_name;          /* 0 if none */
	enum arg_kind arity;
	enum opt_kind kind;
	const char *arg_name;     /* e.g. "NUM", "NAME MIN MAX" */
	const struct cli_value *values;  /* fixed set, {NULL}-ended, or NULL */
	const char *completion;   /* "file", "command", "counter", NULL */
	enum opt_scope scope;
	const char *help;         /* without the default, which is generated */
	double min, max;          /* range of COUNT, SECONDS, PERCENT (a fraction) */
	bool open;                /* SECONDS: min excluded; PERCENT: both ends */
	double def;               /* default of COUNT, SECONDS, PERCENT, ENUM */
	enum def_show show_def;
	const char *def_text;
	size_t off;               /* target: offsetof(struct config, field) */
	size_t given_off;         /* a bool set when given, or 0 */
	int aux;                  /* KIND_EXPORT: the export_format */
	bool many;                /* may be given more than once (as any LIST
				     or EXPORT); any other option once */
	cli_handler *handler;     /* KIND_SPECIAL only */
};

extern const struct cli_option cli_options[];
extern const size_t cli_n_options;
/* --help's section of each option (nonzero for every one). */
extern const unsigned char cli_help_group[OPT__COUNT];

/* --sort: the command line's own; cli_layers.c turns it into the
 * analysis's and the report's orderings. */
enum sort_mode { SORT_AUTO, SORT_COMMAND, SORT_MEAN_TIME };
/* `cbench system ACTION` (spin: the noise loop the check runs). */
enum system_action { SYSTEM_NONE, SYSTEM_CHECK, SYSTEM_TUNE, SYSTEM_RESET,
		     SYSTEM_SPIN };

/* What the command line asks for besides running: --help, --version and
 * the hidden --list-options (cli_parse returns -1 with exit code 0). */
enum cli_action { CLI_RUN, CLI_HELP, CLI_VERSION, CLI_LIST_OPTIONS };

struct config {
	enum cli_action action;
	bool compare_mode;             /* `cbench compare BASE NEW` */
	struct strlist commands;       /* positional arguments */
	struct strlist names;          /* -n */

	long warmup;
	long runs;                     /* 0: not given */
	long min_runs;                 /* default 10 */
	long max_runs;                 /* 0: unlimited */
	bool min_runs_given, max_runs_given;
	bool runs_given;
	double min_time_s;             /* default 3 */
	bool min_time_given;
	double max_time_s;             /* 0: none */

	struct param_spec *params;
	size_t n_params;

	struct strlist setup, prepare, conclude, cleanup;

	enum shell_mode shell_mode;
	const char *shell;             /* for SHELL_FORCE: the program */
	/* -S 'bash --norc': the words after the program, NULL-terminated
	 * (never NULL with SHELL_FORCE), to go before "-c LINE". */
	const char *const *shell_args;
	char **shell_words;            /* owned: the split -S value */

	bool ignore_failure;
	int *ignore_codes;             /* NULL: every non-zero exit */
	size_t n_ignore_codes;

	double timeout_s;              /* 0: none */
	const char *reference;
	const char *reference_name;    /* --reference-name, NULL if none */
	enum run_order order;
	uint64_t seed;
	bool seed_given;
	enum sort_mode sort;
	const char *input;
	struct strlist outputs;        /* --output, once or per command */
	bool show_output;
	enum style style;
	bool quiet;                    /* --quiet: no notes */
	bool verbose;                  /* -v: every statistic, long warnings */
	enum time_unit time_unit;
	const char *counters;          /* NULL: default set */

	double confidence;             /* 0 < c < 1, default 0.95 */
	double precision;              /* relative, 0: off */

	struct export_req *exports;
	size_t n_exports;

	const char *baseline;
	double fail_if_slower;         /* relative, default 0.05 */
	bool fail_if_slower_given;
	const char *gate_metric;       /* NULL: automatic */
	const char *export_metrics;    /* --export-metrics LIST, NULL: each
					  benchmark's gate metric */
	bool require_all;
	bool require_resolution;        /* a gate blind to its threshold fails (4) */
	enum match_by match_by;

	/* compare mode */
	const char *compare_base, *compare_new;

	/* --gate-metric A,B,C keeps the list in gate_metric; --fail-if-slower
	 * METRIC=PCT,... keeps its text here (the bare PCT, if any, in
	 * fail_if_slower); --fail-if-slower-for NAME SPEC, pairwise. */
	const char *fail_if_slower_spec;
	struct strlist fail_for_names, fail_for_specs;
	/* noise control: CPU lists as given (checked by cpulist_parse), NULL
	 * when not given; --pin-hooks "none" leaves the hooks unpinned. */
	const char *pin, *pin_hooks, *pin_self;
	enum aslr_mode aslr;           /* ASLR_SYSTEM: as the system has it */
	bool randomize_layout;
	const char *profile;           /* --profile DIR, or NULL */

	/* `cbench system ...`: its own few options (cli_parse), not the table */
	bool system_mode;              /* `cbench system ...` */
	enum system_action system_action;
	bool system_json;              /* check --json */
	long system_runs;              /* check --runs N: noise loop runs, 0: none */
	/* the results history (history.h) */
	const char *history;           /* --history TARGET, else $CBENCH_HISTORY */
	bool history_from_env;         /* it came from $CBENCH_HISTORY */
	struct strlist history_labels; /* --history-label KEY=VALUE */
	bool baseline_history;         /* gate against the history */
	long history_window;           /* invocations it looks at, default 10 */
	bool history_window_given;
	const char *history_branch;    /* of those invocations, NULL: any */
	/* `cbench history SUBCOMMAND ...`: the words after "history" */
	bool history_mode;
	int history_argc;
	char **history_argv;
	/* `cbench report IN.json... -o OUT.html`: the inputs are commands */
	bool report_mode;
	const char *report_out;        /* -o/--output */
	bool report_compare;           /* --compare: BASE.json NEW.json */
	const char *report_title;      /* --title, or NULL */
	bool report_confidence_given;  /* --confidence (else the file's) */
	bool keep_background;          /* leave a run's background jobs alone */
	/* --metric NAME=REGEX[,unit=U][,higher-is-better], as given (each
	 * defined by cli_parse: metric_output.h) */
	struct strlist metrics;
};

/*
 * Parse argv into cfg.  Returns -1 when the program should exit with
 * *exit_code (after --help, --version or an error, already printed), 0 to
 * go on.
 */
int cli_parse(int argc, char **argv, struct config *cfg, int *exit_code);
void cli_free(struct config *cfg);

/* What cli_parse found to print instead of running (main prints it). */
void cli_print_help(FILE *f, bool compare);
void cli_print_version(FILE *f);
/* `cbench system --help`. */
void cli_print_system_help(FILE *f);
/* `cbench report --help`. */
void cli_print_report_help(FILE *f);
/* The hidden --list-options: one tab-separated line per table entry (long
 * name, short letter, kind, value set a|b, completion, scope run|compare|
 * both, default, range) for the sync and completion tests. */
void cli_list_options(FILE *f);

/* The option of the table with this id. */
const struct cli_option *cli_option(enum opt_id id);
/* May o be given more than once (a list, an export, -P, -L, -D,
 * --output, --fail-if-slower-for)?  Any other option is given once: a
 * second is a usage error. */
bool cli_option_many(const struct cli_option *o);


/* Parse helpers shared with other modules; return 0 or -1. */
int cli_parse_long(const char *s, long min, long max, long *out);
int cli_parse_double(const char *s, double min, double max, double *out);
/* "5", "5%", "0.05"? No: PCT is always percent; "5" and "5%" are 5 %. */
int cli_parse_percent(const char *s, double *out_fraction);

/* One item of a --fail-if-slower value: "5%" (metric "", every metric)
 * or "peak_rss=10%". */
struct cli_threshold {
	char metric[32];
	double fraction;
};
/* Parse "5%", "wall_time=5%,peak_rss=10%", "3%,peak_rss=10%" into
 * out[0..max); returns the count, or -1 with the reason in err. */
int cli_parse_thresholds(const char *spec, struct cli_threshold *out,
			 size_t max, char *err, size_t errlen);
/* Split a --gate-metric list into names[0..max); returns the count, or -1
 * for an unknown or repeated metric (reason in err). */
int cli_parse_metric_list(const char *list, char names[][32], size_t max,
			  char *err, size_t errlen);

#endif
