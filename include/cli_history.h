/*
 * cli_history.h: the command line of `cbench history SUBCOMMAND ...`.
 * Its options are its own (they mean nothing to a benchmark run), in one
 * small table in cli_history.c that also says which subcommands take each
 * one, so a misplaced option is an error rather than ignored.
 *
 * Ownership: cli_history_parse() fills a command whose strings point into
 * argv; free its arrays with cli_history_free().
 */
#ifndef CBENCH_CLI_HISTORY_H
#define CBENCH_CLI_HISTORY_H

#include "history.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum history_sub {
	HSUB_LIST, HSUB_SHOW, HSUB_TREND, HSUB_DETECT, HSUB_EXPORT,
	HSUB_IMPORT, HSUB_PRUNE, HSUB_REPORT, HSUB_HELP, HSUB__COUNT
};

struct history_cmd {
	enum history_sub sub;
	const char *target;            /* --history, else $CBENCH_HISTORY */
	struct history_filter filter;  /* --benchmark --branch --machine
					  --commit --limit */
	int64_t id;                    /* show ID */
	const char *metric;            /* --metric, NULL: wall_time */
	bool all_machines;
	double alpha;                  /* --alpha, default 0.05 */
	bool alpha_given;
	bool permutation;              /* --test permutation */
	bool otava;                    /* --test otava */
	size_t window;                 /* --window, 0: Otava's 50 */
	double min_magnitude;          /* --min-magnitude, default 0 */
	bool min_magnitude_given;
	bool csv;                      /* --format csv (else json) */
	const char *output;            /* --output FILE, NULL: stdout */
	double older_than_s;           /* --older-than, 0: none */
	const char *older_than_text;   /* as given: "30d" */
	long keep;                     /* --keep, 0: none */
	const char **words;            /* import's files */
	size_t n_words;
	const char **labels;           /* import's --history-label */
	size_t n_labels;
};

/* Returns 0, or -1 with a usage message in err. */
int cli_history_parse(int argc, char **argv, struct history_cmd *out,
		      char *err, size_t errlen);
void cli_history_free(struct history_cmd *c);


/* For the completion and sync tests: one line per option, "name\tARG\t
 * sub,sub" (ARG empty for a flag). */
struct history_option_info {
	const char *name, *arg, *subs, *help;
};
extern const struct history_option_info cli_history_options[];
extern const size_t cli_history_n_options;

#endif
