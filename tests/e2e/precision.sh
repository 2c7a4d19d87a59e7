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

# With a history, --precision's goal is an interval that holds across
# invocations (between.h): the spread of the benchmark's mean between its
# earlier invocations on this machine widens it.  Three invocations of
# one command line whose script sleeps 20, 50 and 100 ms: a spread no
# number of runs gets under 10 %, said as such, and the stop comes once
# more runs could not help (not at the cap).  The spread is checked
# against DerSimonian and Laird's estimator computed here from the three
# invocations' JSON (means and intervals), with SciPy.
test_precision_with_a_history_learns_the_spread() {
	local k=0 d
	# Without a shell (-N), so that no start-up is taken off and no
	# invocation's interval reaches 0 (one that does is left out).
	for d in 0.02 0.05 0.1; do
		k=$((k + 1))
		echo "sleep $d" >t.sh
		cb -N -r 5 --history h.db --export-json "e$k.json" "sh t.sh" >/dev/null 2>err ||
			fail "invocation $k: $(cat err)"
	done
	echo "sleep 0.001" >t.sh
	cb -N --precision 10 --history h.db --export-json p.json "sh t.sh" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "cannot be reached" "Note: the mean moves ±[0-9]+ % between invocations here \(3 earlier in the history\): --precision 10 % cannot be reached; its 95 % CI across invocations is ±[0-9]+ % after [0-9]+ runs" out
	expect_no_grep "not the cap" "stopped at" out
	/usr/bin/python3 - e1.json e2.json e3.json p.json <<'PY' || fail "spread: $(jq -c '.results[0].between_invocations' p.json)"
import json, sys
import numpy as np
from scipy import stats
runs = [json.load(open(p))["results"][0] for p in sys.argv[1:5]]
w = [r["metrics"]["wall_time"] for r in runs[:3]]
y = np.log([x["mean"] for x in w])
z = stats.norm.ppf(0.975)
v = [((np.log(x["mean_ci"][1]) - np.log(x["mean_ci"][0])) / (2 * z)) ** 2 for x in w]
tau = np.sqrt(max(0.0, np.var(y, ddof=1) - np.mean(v)))
b = runs[3]["between_invocations"]
assert b["invocations"] == 3, b
assert abs(b["sd"] - tau) <= 1e-9 * tau, (b["sd"], tau)
m = runs[3]["metrics"]["wall_time"]
assert b["mean_ci"][0] < m["mean_ci"][0] and b["mean_ci"][1] > m["mean_ci"][1], (b, m)
assert len(runs[3]["times"]) >= 20, len(runs[3]["times"])
PY
	# No history, or no --precision: nothing learned, nothing said.
	cb -N --precision 10 -M 30 --export-json q.json "sh t.sh" >out2 2>err || fail "no history"
	expect_no_grep "no spread said" "between invocations" out2
	jq -e '.results[0] | has("between_invocations") | not' q.json >/dev/null ||
		fail "a spread without a history"
	cb -N -r 3 --history h.db --export-json r.json "sh t.sh" >/dev/null 2>&1 || fail "no precision"
	jq -e '.results[0] | has("between_invocations") | not' r.json >/dev/null ||
		fail "a spread without --precision"
}
