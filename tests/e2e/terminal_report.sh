# End-to-end tests of the terminal report: its lines, --style and
# -u/--time-unit, number formatting and alignment, the progress bar (with
# NO_COLOR, not with the command's output inherited) and control characters
# escaped wherever a command line is printed.  Nothing asserts a time.

test_two_commands_compared() {
	cb -r 5 true "$HELPERS/spin 20" >out 2>err || fail "exit $?"
	expect_grep "first benchmark" '^Benchmark 1: true$' out
	expect_grep "second benchmark" "^Benchmark 2: .*spin 20" out
	expect_grep "time line" 'Time \(mean ± σ\):.*\[User: .*, System: .*\]' out
	expect_grep "range line" 'Range \(min … max\):.* 5 runs' out
	expect_grep "summary" '^Summary' out
	expect_grep "faster line" 'times faster than .*spin 20' out
}

test_style_and_time_unit() {
	cb -r 2 --style none true >out 2>err || fail "exit $?"
	expect_eq "no report" "$(wc -c <out)" 0
	cb -r 2 --style basic -u millisecond true >out 2>err || fail "exit $?"
	expect_grep "milliseconds" 'Time \(mean ± σ\): +[0-9.]+ ms' out
	cb -r 2 -u second true >out 2>err || fail "exit $?"
	expect_grep "seconds" 'Time \(mean ± σ\): +[0-9.]+ s ' out
}

# script(1) gives cbench a terminal (stdout and stderr), for the progress bar.
on_tty() {
	command -v script >/dev/null || skip "script(1) not installed"
	script -qec "$*" /dev/null </dev/null
}

test_no_color_keeps_progress_bar() {
	NO_COLOR=1 on_tty "$CBENCH" -r 5 "'sleep 0.02'" >tty || fail "exit $?"
	expect_grep "progress bar" '░|█' tty
	expect_no_grep "no colour" $'\033\\[3[0-9]m' tty
	NO_COLOR= on_tty "$CBENCH" -r 2 true >tty2 || fail "exit $?"
	expect_grep "colour without NO_COLOR" $'\033\\[3[0-9]m' tty2
}

test_inherited_output_has_no_progress_bar() {
	NO_COLOR= on_tty "$CBENCH" --show-output -r 5 "'sh -c \"echo hello; sleep 0.02\"'" >tty ||
		fail "exit $?"
	expect_grep "command output shown" '^hello' tty
	expect_no_grep "no progress bar" '░|█' tty
	NO_COLOR= on_tty "$CBENCH" --output inherit -r 3 "'echo hi'" >tty || fail "exit $?"
	expect_no_grep "no progress bar with --output inherit" '░|█' tty
	# Positive: the same command, its output not inherited, has the bar.
	NO_COLOR= on_tty "$CBENCH" -r 5 "'sh -c \"echo hello; sleep 0.02\"'" >tty || fail "exit $?"
	expect_grep "progress bar when the output is not inherited" '░|█' tty
}

test_number_formatting() {
	# 19 quick runs and one of about 3 ms: mean under 1 ms, max above.
	cb -r 20 'if [ $CBENCH_ITERATION = 7 ]; then sleep 0.003; fi' >out 2>err ||
		fail "exit $?"
	expect_grep "times are formatted" '^  Time \(mean ± σ\): +[0-9]{1,3}\.[0-9]+ (µs|ms|s) ± +[0-9]{1,3}\.[0-9]+ (µs|ms|s)' out
	expect_grep "sizes are formatted" '^  Peak RSS: +[0-9]{1,3}\.[0-9] (KiB|MiB)' out
	expect_no_grep "no 4-digit µs or ms values" '[0-9]{4}\.[0-9]* (µs|ms)' out
	expect_no_grep "no trailing spaces" ' $' out
	expect_no_grep "no 4-digit KiB" '[0-9]{4}\.[0-9] KiB' out
}

# The Outliers value lines up with the numbers above it (run 3 is a
# severe outlier, as in stats.sh).
test_outliers_aligned() {
	cb -r 10 "if [ \"\$CBENCH_ITERATION\" = 3 ]; then $HELPERS/spin 60; else $HELPERS/touch_pages 10; fi" \
		>out 2>err || fail "exit $?"
	expect_grep "outliers line" '^  Outliers:' out
	ci=$(grep '^  Mean 95 % CI:' out | sed 's/ [mµ]*s … .*//' | wc -m)
	ol=$(grep '^  Outliers:' out | sed 's/ mild.*//' | wc -m)
	expect_eq "outlier count ends where the CI's first number ends" "$ol" "$ci"
}

test_item15_control_characters_escaped_where_printed() {
	# A command line with a newline (a quoted one: the command still
	# works) must not put a workflow command at the start of a line.
	local cmd=$'echo "a\n::error title=x::y"'
	cb -r 3 -N --export-json c.json "$cmd" true >out 2>err ||
		fail "exit $?: $(cat err)"
	cat out err >all
	expect_no_grep "report: no workflow command at a line start" '^::error' all
	expect_grep "header escaped" '^Benchmark 1: echo "a\\n::error title=x::y"$' all
	expect_grep "summary escaped" '(^  echo "a\\n::error title=x::y" ran| than echo "a\\n::error title=x::y")' all
	# The gate's table and its warnings (an undecided row: one run).
	GITHUB_ACTIONS=true cb -r 1 -N --baseline c.json --confidence 99.9999999 \
		"$cmd" true >out 2>err
	cat out err >all
	expect_no_grep "gate: no workflow command at a line start" '^::error title=x' all
	expect_grep "gate table escaped" '^  echo "a\\n::error title=x::y"  ' all
	expect_grep "warning escaped" "^cbench: warning: 'echo \"a\\\\n::error title=x::y\"': wall_time could not be compared" all
	expect_grep "gate's level in full" "99\.9999999 % CI" all
}
