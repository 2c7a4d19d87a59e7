# End-to-end tests of options, by their long names, that no feature's own
# e2e file uses by name (tests/e2e/sync.sh requires every option of the
# table to appear in some e2e test).

# --no-shell execs the command's words directly: "a;b" reaches echo as one
# word instead of a shell running "echo a" and then "b".
test_no_shell_execs_the_words() {
	cb --no-shell -r 1 --output inherit --style none 'echo a;b' >out 2>err ||
		fail "cbench --no-shell failed: $(head -c 400 err)"
	expect_eq "output of echo under --no-shell" "$(cat out)" "a;b"
	expect_no_grep "no shell note" "shell syntax" err
}

# --command-name labels the benchmark in the report instead of its command
# line.
test_command_name_labels_the_benchmark() {
	cb --command-name quick -r 2 --style basic true >out 2>err ||
		fail "cbench --command-name failed: $(head -c 400 err)"
	expect_grep "named benchmark" '^Benchmark 1: quick$' out
	expect_no_grep "command line not shown" '^Benchmark 1: true' out
}
