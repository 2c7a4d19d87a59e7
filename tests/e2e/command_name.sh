# End-to-end tests of -n/--command-name: it labels the benchmark in the
# report and the exports (hyperfine's "command"; the command line stays
# in "command_line"), in order; the --reference is never named by -n.

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

# hyperfine 1.19's rule (src/command.rs, Commands::from_cli_arguments;
# src/benchmark/scheduler.rs names the reference with --reference-name
# only): -n names the commands other than the --reference, in order,
# wherever -n stands.
test_names_skip_the_reference() {
	cb -r 1 --style basic --export-json o.json 'sleep 0' -n first \
		--reference true -n second true >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "headers" "$(bench_lines out | tr '\n' '|')" "true|first|second|"
	expect_eq "JSON" "$(jq -r '[.results[].command] | join("|")' o.json)" \
		"true|first|second"
	cb -r 1 --style basic --reference true --reference-name base -n A -n B \
		'sleep 0' true >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "with --reference-name" "$(bench_lines out | tr '\n' '|')" "base|A|B|"
	"$CBENCH" --help | tr -s '\n ' '  ' >help
	expect_grep "help says so" 'never the --reference, which --reference-name names' help
}

# More names than commands besides the reference: refused before
# anything runs, with hyperfine's message (its OptionsError::
# TooManyCommandNames) in cbench's form.
test_too_many_names_with_reference() {
	cb -r 1 --reference 'echo r >> log' -n A -n B 'echo c >> log' >out 2>err
	expect_eq "exit" "$?" 2
	expect_eq "nothing ran" "$(cat log 2>/dev/null)" ""
	expect_eq "message" "$(head -1 err)" \
		"cbench: error: too many --command-name options: expected 1 at most (-n given 2 times for 1 command besides --reference, which --reference-name names)"
	expect_eq "hint" "$(sed -n 2p err)" "try 'cbench --help' for more information"
	expect_eq "two lines" "$(wc -l <err)" 2
}
