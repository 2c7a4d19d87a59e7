# End-to-end tests of the terminal report's fixes: failed and timed-out
# runs, one comparison base, CBENCH_ITERATION in hooks, the progress bar
# with NO_COLOR and inherited output, shell-noise and stop notes, clamped
# intervals, single runs and number formatting.  Nothing asserts a time.

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
}

# One quick and one 0.2 s run: the t interval of two runs reaches far
# below 0, which no time can.
test_interval_clamped_at_zero() {
	cb -r 2 'sleep 0.$((CBENCH_ITERATION * 2))' --export-json o.json >out 2>err ||
		fail "exit $?"
	expect_grep "terminal lower bound" '^  Mean 95 % CI: +0\.000 m?s …' out
	expect_eq "json lower bound" "$(jq '.results[0].metrics.wall_time.mean_ci[0]' o.json)" 0
	expect_eq "no negative bound" "$(jq '[.results[0].metrics[] | .mean_ci[0] // 0 | select(. < 0)] | length' o.json)" 0
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
