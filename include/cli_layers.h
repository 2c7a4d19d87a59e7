/*
 * cli_layers.h: the parsed command line (struct config, cli.h) mapped to
 * the options each layer below it takes, so that struct config stops at
 * the command line: main.c asks for each layer's options here and passes
 * them on; the layers never see struct config.
 *
 * The options returned borrow strings and arrays from cfg, which must
 * outlive them.
 */
#ifndef CBENCH_CLI_LAYERS_H
#define CBENCH_CLI_LAYERS_H

#include "bench.h"
#include "cli.h"
#include "export.h"
#include "export_text.h"
#include "planner.h"
#include "report_page.h"

/* The terminal report's options (export_text.h, report.h). */
struct report_options cli_report_options(const struct config *cfg);

/* The planner's options (planner.h): what the plan is built from, and the
 * stop rule. */
struct plan_options cli_plan_options(const struct config *cfg);
struct plan_stop cli_plan_stop(const struct config *cfg);
/* The runner's options (bench.h). */
struct bench_options cli_bench_options(const struct config *cfg);

/* The exports' options (export.h): what they analyse and record. */
struct export_options cli_export_options(const struct config *cfg);
/* The files the invocation writes and reads, for the checks before the
 * first run (export.h, export_inputs.h). */
struct export_files cli_export_files(const struct config *cfg);
/* `cbench report`'s options (report_page.h). */
struct report_page_options cli_report_page_options(const struct config *cfg);

#endif
