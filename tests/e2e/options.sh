# End-to-end tests of options, by their long names, that no feature's own
# e2e file uses by name (tests/e2e/sync.sh requires every option of the
# table to appear in some e2e test).

# --command-name labels the benchmark in the report instead of its command
# line.
test_command_name_labels_the_benchmark() {
	cb --command-name quick -r 2 --style basic true >out 2>err ||
		fail "cbench --command-name failed: $(head -c 400 err)"
	expect_grep "named benchmark" '^Benchmark 1: quick$' out
	expect_no_grep "command line not shown" '^Benchmark 1: true' out
}
