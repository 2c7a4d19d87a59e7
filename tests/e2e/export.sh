# End-to-end tests of the exports: formats read by real parsers, the
# README's one-liners, destination checks, atomic rewrites and interrupts.

# Paths of the checkout (tests run in a temporary directory).
ROOT=$PWD

test_display_name_and_real_command_line() {
	cb -r 2 -n 'short name' 'sleep 0.001' --export-json out.json >out 2>err ||
		fail "exit $?"
	expect_eq "command (hyperfine)" "$(jq -r '.results[0].command' out.json)" "short name"
	expect_eq "command_line" "$(jq -r '.results[0].command_line' out.json)" "sleep 0.001"
}
