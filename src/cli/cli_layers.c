/*
 * cli_layers.c: each layer's options from the parsed command line (see
 * cli_layers.h).  Only copies and derives: every value was checked by
 * cli_parse.
 */
#include "cli_layers.h"

#include <string.h>

struct report_options cli_report_options(const struct config *cfg)
{
	struct report_options o = {
		.style = cfg->style,
		.unit = cfg->time_unit,
		.by_command = cfg->sort == SORT_COMMAND,
		.has_reference = cfg->reference != NULL,
		.confidence = cfg->confidence,
		.precision = cfg->precision,
		.output_shown = cfg->show_output,
		.quiet = cfg->quiet,
	};
	for (size_t i = 0; i < cfg->outputs.n; i++)
		if (strcmp(cfg->outputs.v[i], "inherit") == 0)
			o.output_shown = true;
	return o;
}
