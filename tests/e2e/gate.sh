# tests/e2e/gate.sh: the gate inside one invocation (--reference CMD
# --fail-if-slower PCT, no baseline file) and the verdicts it rests on:
# runs interleaved by default and compared by rounds.

# A clear regression (ten times the work) fails the gate with exit 3, the
# same work passes it; both rows name the candidate, the base is the
# reference measured in this run.
test_reference_gate_regression_exits_3() {
	cb -r 12 --reference "$HELPERS/spin 6" --fail-if-slower 5 \
		-n ref -n four "$HELPERS/spin 60" >out 2>err
	expect_eq "exit code" "$?" 3
	expect_grep "title" "^Comparison of this run with the reference 'ref'$" out
	expect_grep "base line" "^Base: the reference 'ref', measured interleaved with the others in this run \(compared by rounds\)\.$" out
	expect_grep "row" '^  four +.* regression$' out
	expect_grep "result" '^Result: 1 regression' out
}

test_reference_gate_same_work_passes() {
	cb -r 12 --reference "$HELPERS/spin 6" --fail-if-slower 50 \
		-n ref -n same "$HELPERS/spin 6" >out 2>err || fail "exit $?: $(cat err)"
	expect_grep "row" '^  same +.* (within noise|improvement)$' out
	expect_no_grep "no regression" 'regression$' out
}

# GitHub Actions annotations and the Markdown table come from the same
# rows as with --baseline.
test_reference_gate_annotates_for_github() {
	GITHUB_ACTIONS=true cb -r 12 --reference "$HELPERS/spin 6" --fail-if-slower 5 \
		-n ref -n four "$HELPERS/spin 60" >out 2>err
	expect_eq "exit code" "$?" 3
	expect_grep "annotation" "^::error title=cbench regression::'four' regressed: wall_time \+[0-9.]+ %" out
}

# Interleaved (the default) runs are compared by rounds: the JSON says so
# and counts the rounds; with --order sequential they are not.
test_comparisons_paired_by_rounds() {
	cb -r 12 --export-json o.json "$HELPERS/spin 6" "$HELPERS/spin 12" >out 2>err ||
		fail "exit $?: $(cat err)"
	jq -e '.comparisons[] | select(.metric == "wall_time") |
		.paired == true and .rounds == 12 and (.t_test | startswith("paired t")) and
		(.rank_test | startswith("Wilcoxon")) and (.unpaired.ratio_ci | length) == 2' \
		o.json >/dev/null || fail "paired comparison: $(jq -c '.comparisons[0]' o.json)"
	cb -r 12 --order sequential --export-json s.json "$HELPERS/spin 6" "$HELPERS/spin 12" \
		>out 2>err || fail "exit $?"
	jq -e '.comparisons[] | select(.metric == "wall_time") | .paired == false and
		.rounds == null and (.rank_test | startswith("Mann-Whitney"))' s.json >/dev/null ||
		fail "sequential comparison: $(jq -c '.comparisons[0]' s.json)"
}

# A two-fold difference in work is found, and in the right direction (40
# rounds: enough that a loaded moment in a CI job cannot hide it).
test_twofold_difference_found() {
	cb -r 40 --export-json o.json "$HELPERS/spin 10" "$HELPERS/spin 20" >out 2>err ||
		fail "exit $?"
	expect_eq "verdict" "$(jq -r '.comparisons[] | select(.metric == "wall_time") | .verdict' o.json)" slower
	jq -e '.comparisons[] | select(.metric == "wall_time") | .ratio_ci[0] > 1' o.json \
		>/dev/null || fail "interval above 1: $(jq -c '.comparisons[0].ratio_ci' o.json)"
}
