/*
 * fuzz_params: libFuzzer target for parameter ranges and lists.
 *
 * The input's first byte picks the path: even, planner_scan_values() on up
 * to four NUL-separated fields (NAME MIN MAX STEP); odd, the rest is an
 * argument vector given to cli_parse() and, when valid, planner_build(),
 * which covers -P/-L/-D, substitution and the combination limit.
 */
#include "cli.h"
#include "cli_layers.h"
#include "fuzz_args.h"
#include "planner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	struct fuzz_args a;
	char err[DIAG_MSG_MAX];
	fuzz_args_make(&a, data + 1, size - 1);
	if ((data[0] & 1) == 0) {
		if (a.argc < 4) {
			fuzz_args_free(&a);
			return 0;
		}
		char **values = NULL;
		long n = planner_scan_values(a.argv[1], a.argv[2], a.argv[3],
					     a.argc > 4 ? a.argv[4] : NULL, &values,
					     err, sizeof err);
		if (n > 0 && values == NULL)
			abort();
		for (long i = 0; i < n; i++)
			free(values[i]);
		if (n >= 0)
			free(values);
	} else {
		struct config cfg;
		int code;
		if (cli_parse(a.argc, a.argv, &cfg, &code) == 0) {
			struct plan plan;
			struct plan_options po = cli_plan_options(&cfg);
			if (planner_build(&po, &plan, err, sizeof err) == 0)
				planner_free(&plan);
		}
		cli_free(&cfg);
	}
	fuzz_args_free(&a);
	return 0;
}
