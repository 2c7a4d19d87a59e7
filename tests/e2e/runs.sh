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

# Adaptive counts, interleaved: the benchmarks of one state group stop
# together, so every run pairs with a round (README, "Run counts").  A
# 30 ms sleep and `true` would take 7 and 40 (capped) runs alone; in step
# they take one count, whatever the machine's load does to their costs
# (no --max-time, and --max-runs caps both alike).
test_adaptive_counts_equal_in_a_group() {
	cb -N --min-time 0.2 -m 3 -M 40 --export-json o.json 'sleep 0.03' true \
		>out 2>err || fail "exit $?"
	local counts
	counts=$(jq -c '[.results[].times | length]' o.json)
	jq -e '.results[0].times | length as $n | $n >= 3 and $n <= 40' o.json >/dev/null ||
		fail "counts out of range: $counts"
	expect_eq "equal counts" "$(jq '[.results[].times | length] | unique | length' o.json)" 1
	# Shuffled, three benchmarks in two state groups: equal within each.
	cb -N --order shuffled --seed 3 --min-time 0.1 -m 3 -M 30 -L v 1,2 \
		--setup 'echo {v} >/dev/null' --export-json s.json \
		'sleep 0.0{v}' true >out 2>err || fail "shuffled: exit $?"
	expect_eq "equal counts per group" \
		"$(jq -c '[.results | group_by(.parameters.v)[] | map(.times | length) | unique | length]' s.json)" \
		"[1,1]"
	# With -r each takes exactly its count, as before.
	cb -N -r 4 --export-json r.json 'sleep 0.01' true >out 2>err || fail "-r: exit $?"
	expect_eq "-r counts" "$(jq -c '[.results[].times | length]' r.json)" "[4,4]"
}
