/*
 * main.c: wires the modules together: parse options, plan, run, report.
 * Kept thin on purpose (curl's tool_main.c calls operate()).
 */
#include "bench.h"
#include "cli.h"
#include "diag.h"
#include "export_text.h"
#include "planner.h"
#include "spawn.h"
#include "stats.h"

#include <signal.h>
#include <string.h>

static void on_signal(int sig)
{
	spawn_request_stop(sig);
}

static void install_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: a blocking wait4 must return */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int main(int argc, char **argv)
{
	struct config cfg;
	int exit_code;

	stats_init();
	if (cli_parse(argc, argv, &cfg, &exit_code) != 0) {
		cli_free(&cfg);
		return exit_code;
	}
	if (cfg.compare_mode) {
		diag_error("'cbench compare' is not implemented yet");
		cli_free(&cfg);
		return CBENCH_EXIT_USAGE;
	}

	struct plan plan;
	char err[DIAG_MSG_MAX];
	if (planner_build(&cfg, &plan, err, sizeof err) != 0) {
		diag_usage("%s", err);
		cli_free(&cfg);
		return CBENCH_EXIT_USAGE;
	}

	install_signals();
	struct bench_outcome out;
	bench_run(&cfg, &plan, NULL, NULL, &out);

	struct text_style st = text_style_from(&cfg);
	if (out.n > 1)
		text_summary(&st, out.results, out.n, out.reference, cfg.sort);
	exit_code = out.exit_code;

	bench_free_outcome(&out);
	planner_free(&plan);
	cli_free(&cfg);
	return exit_code;
}
