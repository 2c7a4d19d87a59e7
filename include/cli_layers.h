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

#include "cli.h"
#include "export_text.h"

/* The terminal report's options (export_text.h, report.h). */
struct report_options cli_report_options(const struct config *cfg);

#endif
