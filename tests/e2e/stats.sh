# End-to-end tests of the statistics in the terminal report: intervals,
# verdicts, outliers and warnings (--precision is in precision.sh,
# --confidence in confidence.sh).  Timing on this shared machine is noisy,
# so verdicts are checked on steady metrics (page faults) or on a twofold
# difference in work; nothing asserts an absolute time.

STATS_ROOT=$PWD

# A/A: the same command twice.  Page faults of touch_pages are nearly
# constant; at 99.9 % confidence a false "significant" verdict would
# happen about once in a thousand runs of this test if runs are independent.
test_aa_same_command_not_significant() {
	cb -r 12 -v --confidence 99.9 "$HELPERS/touch_pages 2000" \
		"$HELPERS/touch_pages 2000" >out 2>err || fail "exit $?"
	expect_grep "summary" '^Summary' out
	expect_grep "page-fault verdict" \
		'page-faults: +1\.00[0-9]* times (lower|higher) \(99\.9 % CI [0-9.]+–[0-9.]+, p [=<] [0-9.]+\): no significant difference' out
}

# Twice the pages: twice the page faults, always significant.
test_more_work_reported_slower_faults() {
	cb -r 10 --reference "$HELPERS/touch_pages 2000" \
		"$HELPERS/touch_pages 4000" >out 2>err || fail "exit $?"
	expect_grep "base" '^  .*touch_pages 2000 ran$' out
	expect_grep "faults twice lower" \
		'page-faults: +(1\.9[0-9]|2\.0[0-9]) times lower \(95 % CI [0-9.]+–[0-9.]+, p (< 0\.001|= 0\.0[0-4][0-9])\)$' out
}

# Much more CPU work: reported slower on time.  On this shared VM a
# neighbour's load (or steal time) can slow a stretch of runs severalfold,
# even their task-clock, so: a twelvefold difference in work, runs taking
# turns (--order interleaved) so that no stretch of load hits one command
# only, and 30 runs each.  (Twice the page faults above is the exact,
# deterministic version of this test.)
test_more_work_reported_slower_time() {
	cb -r 30 --order interleaved --reference "$HELPERS/spin 5" \
		"$HELPERS/spin 60" >out 2>err || fail "exit $?"
	expect_grep "time verdict" \
		'^    [0-9.]+ ± [0-9.]+ times faster than .*spin 60 \(95 % CI [0-9.]+–[0-9.]+, p [<=] 0\.0[0-9]+\)$' out
	lo=$(sed -n 's/.*times faster than .*spin 60 (95 % CI \([0-9.]*\)–.*/\1/p' out)
	awk -v lo="$lo" 'BEGIN { exit !(lo > 1) }' || fail "CI lower bound $lo not above 1"
}

test_per_benchmark_intervals() {
	cb -v -r 10 "$HELPERS/touch_pages 500" >out 2>err || fail "exit $?"
	expect_grep "hyperfine time line" 'Time \(mean ± σ\):' out
	expect_grep "hyperfine range line" 'Range \(min … max\):.* 10 runs' out
	expect_grep "mean CI" '^  Mean 95 % CI: +[0-9.]+ [mµ]?s … +[0-9.]+ [mµ]?s +\[Median: [0-9.]+ [mµ]?s, CI [0-9.]+ … [0-9.]+ [mµ]?s\]$' out
}

# Run 3 (0-based) does far more work than the others: a severe outlier,
# counted and kept.
test_outlier_flagged() {
	cb -v -r 10 "if [ \"\$CBENCH_ITERATION\" = 3 ]; then $HELPERS/spin 60; else $HELPERS/touch_pages 10; fi" \
		>out 2>err || fail "exit $?"
	expect_grep "outlier count" '^  Outliers: +[0-9]+ mild, [1-9][0-9]* severe of 10 runs \(Tukey fences; kept\)$' out
	expect_grep "outlier warning" 'Warning: [0-9]+ of 10 runs are statistical outliers \([1-9][0-9]* beyond 3 IQR\).*quieter system' err
	expect_grep "all runs kept" 'Range \(min … max\):.* 10 runs' out
}

# The first run spins 200 ms, the others touch pages for a millisecond or
# two (a script run directly, -N: no shell start-up taken off, so nothing
# is clamped).  Whether the warning is due is decided from the runs
# themselves (the rule of stats_first_run_slow, computed here with NumPy:
# beyond the rest's q3 + 3 IQR and 1.2 times their median), so a loaded
# machine cannot make the test fail; the rule itself is unit-tested.
test_first_run_slow_warning() {
	printf '#!/bin/sh\nif [ "$CBENCH_ITERATION" = 0 ]; then exec %s 200; fi\nexec %s 2000\n' \
		"$HELPERS/spin" "$HELPERS/touch_pages" >first.sh
	chmod +x first.sh
	cb -N -r 10 --export-json o.json ./first.sh >out 2>err || fail "exit $?: $(cat err)"
	local due
	due=$(/usr/bin/python3 -c '
import json, sys, numpy as np
t = json.load(open("o.json"))["results"][0]["times"]
q1, med, q3 = np.percentile(t[1:], [25, 50, 75])
print("yes" if t[0] > q3 + 3 * (q3 - q1) and t[0] > 1.2 * med else "no")') ||
		fail "python"
	if [ "$due" = yes ]; then
		expect_grep "first-run warning" 'Warning: the first run \(.*\) was much slower than the rest .*--warmup' err
	else
		expect_no_grep "no first-run warning when not due" 'the first run' err
	fi
}

# `true` (well under a millisecond) is said to be too short when its mean
# wall time is under 5 ms, and not otherwise: decided from the runs, so a
# loaded machine that stretches `true` past 5 ms does not fail the test.
test_too_fast_warning() {
	cb -v -r 20 --export-json o.json true >out 2>err || fail "exit $?"
	if jq -e '.results[0].mean < 0.005' o.json >/dev/null; then
		expect_grep "too fast" 'Warning: runs take under 5 ms on average' err
	else
		expect_no_grep "not too fast when the mean is not" 'under 5 ms' err
	fi
}

test_waiting_warning() {
	[ "${VALGRIND:-}" = 1 ] && skip "under valgrind the command is a fork of valgrind: its rusage CPU time includes valgrind's work before exec"
	cb -v -r 5 'sleep 0.02' >out 2>err || fail "exit $?"
	expect_grep "waits" 'Warning: wall time .* is far above CPU time .*mostly waits' err
}

# Runs that drift (each slower than the one before: strong serial
# dependence) get the drift warning with its figures and the fix, the same
# factor the JSON exports.  Steps of 30 ms (30 to 150 ms), so that a
# loaded machine's wake-up delays (seen: 10-60 ms at a load average of 10)
# do not hide them.
test_drift_warning() {
	cb -v -r 20 --export-json o.json "sleep \$(printf 0.%03d \$(((CBENCH_ITERATION / 4 + 1) * 30)))" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "drift warning" "Warning: the machine's speed changed during the benchmark: consecutive runs are alike \(lag-1 autocorrelation 0\.[0-9]+\), so the runs are not independent and the interval is [0-9.]+x as wide" err
	local f
	f=$(sed -n 's/.*the interval is \([0-9.]*\)x as wide.*/\1/p' err)
	jq -e --argjson f "$f" '.results[0].dependence_factor >= 1.5 and
		(.results[0].dependence_factor * 10 | round) == ($f * 10 | round)' o.json >/dev/null ||
		fail "factor $f vs JSON $(jq '.results[0].dependence_factor' o.json)"
}

# Odd runs wait 400 ms, even ones 20 ms: two groups of run times (sleeps,
# not CPU work, so that load on this machine does not smear them; both
# long enough that wake-up delays of tens of ms leave the groups apart on
# the log scale the test of two groups uses).
test_bimodal_warning() {
	cb -v -r 20 "case \$CBENCH_ITERATION in *[13579]) sleep 0.4;; *) sleep 0.02;; esac" \
		>out 2>err || fail "exit $?"
	expect_grep "bimodal" 'Warning: the run times form two groups \(bimodality coefficient [0-9.]+ > 5/9\)' err
}

# The README's JSON example comes from a real run of 3 rounds, so its
# verdict must follow the README's rule: the rank test abstains, and a
# ratio interval above 1 with the paired t-test's p below 0.05 is "slower".
test_readme_json_example_verdict_consistent() {
	local readme="$STATS_ROOT/README.md"
	local blk
	blk=$(awk '/^A complete example, from `cbench -r 3 -n fast/{on=1} on&&/^```/{n++; next} on&&n==1' "$readme")
	[ -n "$blk" ] || fail "README's JSON example not found"
	local lo hi p verdict
	lo=$(printf '%s\n' "$blk" | sed -n 's/.*"ratio_ci": \[\([^,]*\),.*/\1/p' | head -n 1)
	hi=$(printf '%s\n' "$blk" | sed -n 's/.*"ratio_ci": \[[^,]*, *\([^]]*\)\].*/\1/p' | head -n 1)
	# The verdict's t-test is p_t (p_welch is the unpaired reference).
	p=$(printf '%s\n' "$blk" | sed -n 's/.*"p_t": \([^,]*\),.*/\1/p' | head -n 1)
	verdict=$(printf '%s\n' "$blk" | sed -n 's/.*"verdict": "\([^"]*\)".*/\1/p' | head -n 1)
	[ -n "$lo" ] && [ -n "$hi" ] && [ -n "$p" ] && [ -n "$verdict" ] ||
		fail "cannot read the example's comparison"
	local want
	want=$(awk -v lo="$lo" -v hi="$hi" -v p="$p" 'BEGIN {
		if (p < 0.05 && lo > 1) print "slower";
		else if (p < 0.05 && hi < 1) print "faster";
		else print "no significant difference" }')
	expect_eq "verdict of ratio_ci [$lo, $hi], p_t $p" "$verdict" "$want"
	printf '%s\n' "$blk" | grep -q '"rank_test": "Wilcoxon signed-rank, exact"' ||
		fail "the example's rank test (it abstains with 3 rounds)"
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

# Holm's adjustment over the comparisons of one invocation (README,
# "Comparisons"), checked against an independent implementation:
# statsmodels' multipletests(p, method="holm") applied to the JSON's
# unadjusted p of each metric's family must give its p_adjusted, and each
# interval must be at the Bonferroni level 1 - 0.05 / family_size.  What
# the runs measure does not matter: only the relation between the fields.
test_holm_matches_statsmodels() {
	/usr/bin/python3 -c 'import statsmodels.stats.multitest' 2>/dev/null ||
		skip "statsmodels not installed (Debian's python3-statsmodels)"
	cb -r 6 "$HELPERS/touch_pages 100" "$HELPERS/touch_pages 200" \
		"$HELPERS/touch_pages 100" "$HELPERS/touch_pages 300" \
		--export-json o.json >out 2>err || fail "exit $?"
	/usr/bin/python3 - o.json >check 2>&1 <<'PY' || fail "$(cat check)"
import json, sys
from statsmodels.stats.multitest import multipletests
doc = json.load(open(sys.argv[1]))
fams = {}
for c in doc["comparisons"]:
    assert c["p_adjustment"] == "holm", c
    if c["family_size"] > 0:
        fams.setdefault(c["metric"], []).append(c)
assert len(fams.get("wall_time", [])) == 3, "wall time: a family of 3"
checked = 0
for metric, cs in fams.items():
    assert all(c["family_size"] == len(cs) for c in cs), metric
    for c in cs:
        want = 1 - 0.05 / len(cs)
        assert abs(c["ci_level"] - want) < 1e-12, (metric, c["ci_level"], want)
    if any(c["p"] is None for c in cs):
        continue
    _, adj, _, _ = multipletests([c["p"] for c in cs], method="holm")
    for c, a in zip(cs, adj):
        assert abs(c["p_adjusted"] - a) <= 1e-12 * max(a, 1e-300), (metric, c["p_adjusted"], a)
        sig = c["verdict"] in ("faster", "slower")
        assert not sig or c["p_adjusted"] < 0.05, (metric, c)
        lo, hi = c["ratio_ci"]
        assert not sig or lo > 1 or hi < 1, (metric, c)
    checked += 1
assert checked >= 1, "no family with every p"
print(checked)
PY
	expect_grep "the summary says so" '^  3 comparisons: p-values Holm-adjusted, each interval at 98\.33 % so that all 3 hold together at 95 % \(Bonferroni\)$' out
}
