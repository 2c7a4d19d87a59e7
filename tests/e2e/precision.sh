# End-to-end tests of --precision: adaptive run counts stop when the mean's
# interval (widened for serial dependence) is within the goal, or say which
# limit (--max-runs, --max-time) stopped them first.

test_precision_reached() {
	cb --precision 99 -m 3 -M 500 "$HELPERS/touch_pages 200" >out 2>err \
		|| fail "exit $?"
	expect_grep "reached" "Precision reached: the mean's 95 % CI is ±[0-9.e+]+ % of it \(--precision 99 %\) after [0-9]+ runs" out
	expect_no_grep "no stop note" 'Note: stopped' out
	# Not before 20 runs, where the interval can first allow for drift,
	# whatever -m says.
	expect_grep "20 runs at least" 'after (2[0-9]|[3-9][0-9]|[1-9][0-9]{2,}) runs' out
}

test_precision_not_before_20_runs() {
	cb --precision 99 -M 5 "$HELPERS/touch_pages 200" >out 2>err || fail "exit $?"
	expect_grep "said" 'Note: stopped at --max-runs 5 before reaching --min-runs 10 and --precision 99 % \(at least 20 runs\); the mean.s 95 % CI is ±[0-9.]+ % of it, within ±99 % but from too few runs to allow for drift$' out
}

# --precision stops on the interval the report shows, which allows for
# serial dependence: when it says the goal was reached, the exported mean
# interval is within the goal (to the rounding of the last run), and the
# dependence it allowed for is exported beside it.  (A goal of 25 %: on a
# machine with a load average of 10, 2000 runs of `spin 3` gave +-12 %.)
test_precision_stops_on_the_widened_interval() {
	cb --precision 25 -M 2000 --export-json o.json "$HELPERS/spin 3" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "reached" "Precision reached: the mean's 95 % CI is ±[0-9.]+ % of it \(--precision 25 %\)" out
	jq -e '.results[0] | .metrics.wall_time as $w |
		(($w.mean_ci[1] - $w.mean_ci[0]) / 2 / $w.mean) <= 0.25 and
		.dependence_factor >= 1 and (.autocorrelation | type) == "number"' o.json \
		>/dev/null || fail "interval past the goal: $(jq -c '.results[0].metrics.wall_time.mean_ci, .results[0].dependence_factor' o.json)"
}

test_precision_stopped_by_max_runs() {
	cb --precision 0.01 -M 4 "$HELPERS/touch_pages 200" >out 2>err \
		|| fail "exit $?"
	expect_grep "said" "Note: stopped at --max-runs 4 before reaching --min-runs 10 and --precision 0.01 % \(at least 20 runs\); the mean's 95 % CI is ±[0-9.e+]+ % of it, not ±0.01 %" out
	expect_grep "4 runs" 'Range \(min … max\):.* 4 runs' out
}

test_precision_stopped_by_max_time() {
	cb --precision 0.01 --max-time 0.05 "$HELPERS/spin 5" >out 2>err \
		|| fail "exit $?"
	expect_grep "said" 'Note: stopped at --max-time 0.05 s before reaching (--min-runs 10 and )?--precision 0.01 %' out
}

test_precision_default_cap_documented() {
	cb --help >help 2>&1 || fail "exit $?"
	expect_grep "help says the cap" 'default cap' help
}
