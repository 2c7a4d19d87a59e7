# tests/e2e/notebook.sh: what a notebook gets from the exports with
# /usr/bin/python3 and pandas: numeric sweep parameters as numbers beside
# their text, per-run start times and invocation-wide run indices, a
# run_index column in the per-run CSV, and no parameter that overwrites a
# column of the README's one-line data frame.

NB_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

nb_pandas() {
	/usr/bin/python3 -c 'import pandas' 2>/dev/null ||
		skip "pandas is not installed for /usr/bin/python3"
}

test_notebook_numeric_parameters_and_run_times() {
	nb_pandas
	local line
	line=$(grep -F 'runs = pd.concat(' "$NB_ROOT/README.md" | head -n 1)
	[ -n "$line" ] || fail "one-liner not found in README"
	cb -r 2 -N -L n 1,2 -L mode fast,slow "$HELPERS/touch_pages {n}" \
		--export-json out.json --export-csv-runs runs.csv >out 2>err ||
		fail "exit $?: $(cat err)"
	/usr/bin/python3 - >py.out 2>&1 <<-PY || fail "$(cat py.out)"
	import json, pandas as pd
	$line
	assert len(runs) == 8, len(runs)
	assert runs["n"].dtype.kind == "i", runs["n"].dtype      # numbers, no to_numeric
	assert runs["mode"].dtype == object and set(runs["mode"]) == {"fast", "slow"}
	assert sorted(runs["run_index"]) == list(range(1, 9)), list(runs["run_index"])
	# Interleaved: run_index follows the start times.
	by_time = runs.sort_values("started_at")["run_index"].tolist()
	assert by_time == sorted(by_time), by_time
	t = pd.to_datetime(runs["started_at"], unit="s")
	assert (t.max() - t.min()).total_seconds() < 600
	res = json.load(open("out.json"))["results"]
	assert res[0]["parameters"] == {"n": "1", "mode": "fast"}, res[0]["parameters"]
	assert res[0]["parameter_values"] == {"n": 1, "mode": "fast"}
	csv = pd.read_csv("runs.csv")
	assert sorted(csv["run_index"]) == list(range(1, 9))
	a = csv.set_index("run_index")["wall_time"].sort_index()
	b = runs.set_index("run_index")["wall_time"].sort_index()
	assert ((a - b).abs() <= 1e-12 * b.abs()).all(), (a, b)  # cJSON prints 15-17 digits
	PY
}

test_notebook_parameter_named_like_a_column_refused() {
	cb -r 1 -L wall_time 1,2 'echo {wall_time}' --export-json out.json >out 2>err
	expect_eq "exit" "$?" 2
	expect_grep "message" "^cbench: error: parameter name 'wall_time' is the name of a per-run column" err
	[ ! -e out.json ] || fail "an export was written"
	cb -r 1 -L command a 'echo {command}' >out 2>err
	expect_eq "command" "$?" 2
	# A name that is no column is fine.
	cb -r 1 -N -L wall 1 'echo {wall}' >out 2>err || fail "-L wall: exit $?"
}
