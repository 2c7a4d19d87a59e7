# End-to-end tests of the run counts: -w/--warmup, -r/--runs, -m/--min-runs,
# -M/--max-runs and --min-time (the stop note names the goals not reached),
# CBENCH_ITERATION in runs, and what one run can say.

test_iteration_variable() {
	cb -w 2 -r 3 --output "$T/iter.log" 'echo $CBENCH_ITERATION >> iter.log' >out 2>err ||
		fail "exit $?"
	expect_eq "iterations" "$(tr '\n' ' ' <iter.log)" "warmup-1 warmup-2 0 1 2 "
}

test_stop_note_names_unreached_goals() {
	cb -M 3 'sleep 0.01' >out 2>err || fail "exit $?"
	expect_grep "both goals" 'Note: stopped at --max-runs 3 before reaching --min-runs 10 and --min-time 3 s$' out
	cb -m 2 -M 3 'sleep 0.01' >out 2>err || fail "exit $?"
	expect_grep "one goal" 'Note: stopped at --max-runs 3 before reaching --min-time 3 s$' out
}

test_single_run_has_no_spread() {
	cb -r 1 "$HELPERS/touch_pages 500" "$HELPERS/touch_pages 1000" \
		--export-markdown o.md >out 2>err || fail "exit $?"
	expect_no_grep "no ± with one run" '±' out
	expect_grep "the time without spread" '^  Time \(abs ≡\): +[0-9.]+ [mµ]?s ' out
	expect_grep "singular" 'Range \(min … max\):.* 1 run$' out
	expect_no_grep "no '1 runs'" '1 runs' out
	expect_no_grep "markdown relative without spread" '± 0\.00 \|' o.md
	expect_grep "markdown relative, a plain number" 'touch_pages 1000` \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9]+\.[0-9]{2} \|' o.md
}

test_one_run_said_as_such() {
	cb -r 1 "$HELPERS/touch_pages 500" >out 2>err || fail "exit $?"
	expect_grep "one run" 'one run: no standard deviation, no confidence interval' out
}
