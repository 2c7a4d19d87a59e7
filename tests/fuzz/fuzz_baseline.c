/*
 * fuzz_baseline: libFuzzer target for the JSON reader used by `cbench
 * compare` and --baseline (cbench's and hyperfine's formats).  The input is
 * the file's text; a set that parses is then compared with itself, which
 * runs matching and the statistics over whatever numbers it holds (NaN,
 * infinities, huge or negative values, one run, thousands).
 */
#include "gate.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[DIAG_MSG_MAX];
	struct cmp_set *set = NULL;
	/* Not NUL-terminated on purpose: the reader is given a length. */
	char *text = malloc(size ? size : 1);
	memcpy(text, data, size);
	if (gate_parse(text, size, "fuzz.json", &set, err, sizeof err) == 0) {
		if (set == NULL)
			abort();
		struct cmp_options opt = {
			.metric = -1, .threshold = 0.05, .confidence = 0.95,
			.seed = 1, .match_by = MATCH_COMMAND,
		};
		struct cmp_report rep;
		if (gate_compare(set, set, &opt, &rep, err, sizeof err) == 0)
			gate_report_free(&rep);
		gate_set_free(set);
	} else if (err[0] == '\0') {
		abort(); /* a rejection always says why */
	}
	free(text);
	metric_undefine_all();  /* a file's custom_metrics last one input */
	return 0;
}
