# End-to-end tests of -n/--command-name: it labels the benchmark in the
# report and the exports (hyperfine's "command"; the command line stays
# in "command_line"), in order, counting the --reference first.

# --command-name labels the benchmark in the report instead of its command
# line.
test_command_name_labels_the_benchmark() {
	cb --command-name quick -r 2 --style basic true >out 2>err ||
		fail "cbench --command-name failed: $(head -c 400 err)"
	expect_grep "named benchmark" '^Benchmark 1: quick$' out
	expect_no_grep "command line not shown" '^Benchmark 1: true' out
}

test_display_name_and_real_command_line() {
	cb -r 2 -n 'short name' 'sleep 0.001' --export-json out.json >out 2>err ||
		fail "exit $?"
	expect_eq "command (hyperfine)" "$(jq -r '.results[0].command' out.json)" "short name"
	expect_eq "command_line" "$(jq -r '.results[0].command_line' out.json)" "sleep 0.001"
}

test_names_in_order_reference_first() {
	# What --help says -n does: the first -n names the first command,
	# counting the --reference first, wherever -n stands.
	cb -r 1 --style basic 'sleep 0' -n first --reference true -n second >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "reference named first" '^Benchmark 1: first$' out
	expect_grep "command named second" '^Benchmark 2: second$' out
	"$CBENCH" --help | tr -s '\n ' '  ' >help
	expect_grep "help says so" 'the --reference first' help
}
