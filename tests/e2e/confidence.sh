# End-to-end tests of --confidence: the level is shown in the report's
# intervals and ratios, in full (never rounded to 100 %).

test_confidence_level_shown() {
	cb -r 6 --confidence 90 "$HELPERS/touch_pages 500" >out 2>err || fail "exit $?"
	expect_grep "90 % CI" '^  Mean 90 % CI:' out
}

test_item15_confidence_never_shown_as_100() {
	cb --confidence 99.9999999 -r 3 -N true true >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "level in full" "Mean 99\.9999999 % CI:" out
	expect_grep "ratio's level in full" "\(99\.9999999 % CI " out
	expect_no_grep "never 100" "100 % CI" out
	# Positive: an ordinary level stays short.
	cb --confidence 95 -r 3 -N true >out 2>err || fail "exit $?"
	expect_grep "95 short" "Mean 95 % CI:" out
}
