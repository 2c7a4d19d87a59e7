/*
 * fuzz_cli: libFuzzer target for the option parser.  The input is an
 * argument vector (NUL-separated); cli_parse must accept or reject it
 * without crashing, exiting or leaking, whatever it holds.
 */
#include "cli.h"
#include "fuzz_args.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_args a;
	struct config cfg;
	int code;
	fuzz_args_make(&a, data, size);
	int rc = cli_parse(a.argc, a.argv, &cfg, &code);
	/* -1 means "exit now" with a code; 0 means go on with exit code 0. */
	if ((rc == 0 && code != CBENCH_EXIT_OK) || (rc != 0 && rc != -1))
		abort();
	cli_free(&cfg);
	fuzz_args_free(&a);
	return 0;
}
