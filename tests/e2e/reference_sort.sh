# End-to-end tests of the summary and its base: --reference (measured first,
# the base of the summary), --sort (orders the lines, the base stays the
# fastest, in the exports too) and the ratio lines' decimals.

test_reference_first_and_sort() {
	cb -r 3 --reference 'sleep 0.02' true >out 2>err || fail "exit $?"
	expect_eq "reference first" "$(bench_lines out | head -n 1)" "sleep 0.02"
	expect_grep "summary from the reference" '^  sleep 0.02 ran' out
	cb -r 3 --sort mean-time 'sleep 0.02' true >out 2>err || fail "exit $?"
	expect_grep "fastest first" '^  true ran' out
	# --sort orders the lines only: the base stays the fastest (at 1.00
	# in hyperfine's command-order listing).
	cb -r 3 --sort command 'sleep 0.02' true >out 2>err || fail "exit $?"
	expect_grep "command order, fastest base" '^        1\.00          true$' out
}

# --sort command orders the lines, the base stays the fastest, as in the
# exports.
test_sort_command_keeps_fastest_base() {
	cb -r 3 --sort command 'sleep 0.06' 'sleep 0.001' --export-json o.json \
		--export-markdown o.md >out 2>err || fail "exit $?"
	expect_grep "terminal base" '^        1\.00          sleep 0\.001$' out
	expect_grep "other line" '^ +[0-9.]+ ± +[0-9.]+  sleep 0\.06 \(95 % CI' out
	expect_eq "json reference" "$(jq '[.comparisons[].reference] | unique | .[0]' o.json)" 1
	expect_grep "markdown reference" '^\| `sleep 0\.001` .*\| 1\.00 \|' o.md
}

# A small but real difference is not printed as "1.00 times": page faults
# of 2000 vs 2004 touched pages differ by about 0.2 %.
test_small_ratio_gets_more_decimals() {
	cb -v -r 5 "$HELPERS/touch_pages 2000" "$HELPERS/touch_pages 2004" >out 2>err ||
		fail "exit $?: $(cat err)"
	grep -q 'page-faults:' out || skip "page faults not countable here"
	expect_grep "three decimals" 'page-faults: +1\.00[0-9] times (higher|lower) \(95 % CI 1\.00[0-9]–1\.00[0-9]' out
}
