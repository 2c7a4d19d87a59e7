# End-to-end tests of --export-json: the file read by external parsers
# (python, jq, pandas, the README's one-liners) and by cbench compare,
# hyperfine's fields, one run, stdout as the destination, and a file still
# being written marked incomplete.

# Paths of the checkout (tests run in a temporary directory).
ROOT=$PWD

# The README line that starts with $1 (the documented one-liner).
readme_line() {
	grep -m1 -- "^$1" "$ROOT/README.md"
}

test_json_read_by_external_parsers() {
	cb -r 3 true 'sleep 0.001' --export-json out.json >out 2>err || fail "exit $?"
	python3 -m json.tool out.json >/dev/null || fail "python3 -m json.tool rejects it"
	jq -e '.schema == "cbench-results" and .schema_version == 2' out.json >/dev/null ||
		fail "schema fields"
	jq -e '.results | length == 2' out.json >/dev/null || fail "two results"
	# hyperfine's fields, as hyperfine's readers expect them.
	jq -e '.results[] | (.command | type == "string") and (.mean | type == "number")
		and (.stddev | type == "number") and (.median | type == "number")
		and (.user | type == "number") and (.system | type == "number")
		and (.min <= .mean and .mean <= .max) and (.times | length == 3)
		and (.exit_codes == [0, 0, 0]) and (has("parameters") | not)' \
		out.json >/dev/null || fail "hyperfine fields: $(head -c 600 out.json)"
	# cbench's: units, context, per-run arrays as long as the runs.
	jq -e '.units.wall_time == "s" and .units.peak_rss == "bytes"
		and .units.page_faults == "count"' out.json >/dev/null || fail "units"
	jq -e '.context | (.cpus >= 1) and (.kernel | length > 0)
		and (.started_at | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T"))
		and (.argv[0] | length > 0) and .options.runs == 3' out.json >/dev/null ||
		fail "context"
	jq -e '.results[] | .runs as $r | [$r[] | length] | all(. == 3)' out.json \
		>/dev/null || fail "per-run arrays of unequal length"
	jq -e '.results[0].command_line == "true" and .results[0].metrics.wall_time.n == 3' \
		out.json >/dev/null || fail "command_line/metrics"
}

test_golden_json_read_by_external_parsers() {
	local f
	for f in "$ROOT"/tests/golden/*.json; do
		python3 -m json.tool "$f" >/dev/null || fail "json.tool rejects $f"
		jq -e . "$f" >/dev/null || fail "jq rejects $f"
	done
}

test_one_run_has_null_stddev() {
	cb -r 1 true --export-json out.json >out 2>err || fail "exit $?"
	expect_eq "stddev" "$(jq '.results[0].stddev' out.json)" null
	expect_eq "times" "$(jq -c '.results[0].times | length' out.json)" 1
}

test_readme_pandas_one_liner() {
	local py line
	py=$(pandas_python)
	[ -n "$py" ] || skip "pandas is not installed (python3 -c 'import pandas' fails)"
	line=$(readme_line 'runs = pd.concat(') || fail "one-liner not found in README"
	cb -r 3 true 'sleep 0.001' --export-json out.json >out 2>err || fail "exit $?"
	"$py" - >py.out 2>&1 <<-PY || fail "the README's pandas line fails: $(cat py.out)"
	import json, pandas as pd
	$line
	assert len(runs) == 6, len(runs)
	assert {"command", "wall_time", "user_time", "peak_rss", "outlier"} <= set(runs.columns), runs.columns
	assert runs.groupby("command").size().to_dict() == {"true": 3, "sleep 0.001": 3}
	assert runs["wall_time"].dtype.kind == "f"
	PY
	# A parameter the command does not use: still one group per benchmark.
	cb -r 2 -L rep 1,2 true --export-json out.json >out 2>err || fail "exit $?"
	"$py" - >py.out 2>&1 <<-PY || fail "the README's pandas line, -L: $(cat py.out)"
	import json, pandas as pd
	$line
	assert runs.groupby("command").size().to_dict() == {"true (rep = 1)": 2, "true (rep = 2)": 2}
	PY
}

test_readme_jq_one_liner() {
	local line
	line=$(readme_line "jq -r '.results") || fail "jq one-liner not found in README"
	cb -r 3 true 'sleep 0.001' --export-json out.json >out 2>err || fail "exit $?"
	bash -c "$line" >table 2>jq.err || fail "the README's jq line fails: $(cat jq.err)"
	expect_eq "rows" "$(wc -l <table)" 6
	expect_grep "a run of true" "^true	1	0\\.[0-9]+" table
}

test_export_to_stdout() {
	cb -r 2 --style none true --export-json - >out 2>err || fail "exit $?"
	jq -e '.results[0].command == "true"' out >/dev/null ||
		fail "stdout is not the JSON: $(head -c 300 out)"
	cb -r 2 true --export-json /dev/null >out 2>err || fail "exit $? for /dev/null"
	[ -c /dev/null ] || fail "/dev/null was replaced"
}

test_export_json_stdout_is_pure_json() {
	cb -r 2 true --export-json - >out 2>err || fail "exit $?: $(cat err)"
	jq -e '.results[0].command == "true"' out >/dev/null ||
		fail "stdout is not the JSON alone: $(head -c 300 out)"
	expect_grep "report on stderr" '^Benchmark 1: true' err
}

# The JSON is what `cbench compare` and --baseline read back.
test_json_read_by_cbench_compare() {
	cb -r 3 true --export-json base.json >/dev/null 2>&1 || fail "first run"
	cb -r 3 true --save-baseline new.json >/dev/null 2>&1 || fail "second run"
	cb compare base.json new.json >out 2>err
	local rc=$?
	if grep -q 'not implemented' err; then
		skip "'cbench compare' is not implemented yet"
	fi
	case $rc in
	0|3) ;;
	*) fail "compare exit $rc: $(cat err)" ;;
	esac
	expect_no_grep "no read error" 'error' err
	# Positive: both files were read, their benchmark matched.
	expect_grep "the benchmark compared" "^  true .*(regression|improvement|within noise( \(±[0-9]+ %\))?|undecided)$" out
}

# killed_midway FILE: a results file left by a cbench SIGKILLed after its
# first benchmark (the second blocks on a FIFO until released).
killed_midway() {
	mkfifo fifo
	( cb_exec -r 2 -N --order sequential --export-json "$1" true 'cat fifo' \
		>/dev/null 2>&1 ) &
	local pid=$!
	wait_for_file "$1"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	release fifo   # the orphaned cat
}

test_json_incomplete_until_final_write() {
	killed_midway part.json
	/usr/bin/python3 - part.json <<'PY' || fail "partial file: $(head -c 400 part.json)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False, d.get("complete")
assert d["pending"] == ["cat fifo"], d.get("pending")
assert [r["command"] for r in d["results"]] == ["true"]
PY
	results whole.json
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["complete"] is True and "pending" not in d' whole.json ||
		fail "a finished file is not marked complete"
	# compare warns, --require-all refuses; --baseline the same.
	cb compare part.json whole.json >out 2>err || fail "compare: exit $?: $(cat err)"
	expect_grep "warning" "^cbench: warning: part.json is incomplete .*1 benchmark still to come" err
	cb compare whole.json whole.json >out 2>err2 || fail "compare whole: exit $?"
	expect_no_grep "no warning on a complete file" "incomplete" err2
	cb compare --require-all whole.json part.json >out 2>err
	expect_eq "--require-all: exit" "$?" 2
	expect_grep "refused" "^cbench: error: part.json is incomplete .*--require-all refuses it" err
	cb -r 2 -N --baseline part.json --require-all 'touch ran.txt' >out 2>err
	expect_eq "--baseline --require-all: exit" "$?" 2
	[ ! -e ran.txt ] || fail "ran with a refused baseline"
}

# hyperfine's exit_codes (src/util/exit_code.rs): a run killed by signal N
# is 128 + N, as a shell's $? says; cbench's own per-run exit_code stays
# null there (the process had none) with signal naming it, in the JSON
# and in --export-csv-runs alike.
test_exit_codes_of_killed_runs_as_hyperfine() {
	cb -r 2 -i --export-json k.json --export-csv-runs k.csv \
		'sh -c "kill -9 \$\$"' "$HELPERS/crash segv" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "exit_codes" "$(jq -c '[.results[].exit_codes]' k.json)" "[[137,137],[139,139]]"
	expect_eq "runs.exit_code" "$(jq -c '[.results[].runs.exit_code]' k.json)" \
		"[[null,null],[null,null]]"
	expect_eq "runs.signal" "$(jq -c '[.results[].runs.signal]' k.json)" \
		'[["SIGKILL","SIGKILL"],["SIGSEGV","SIGSEGV"]]'
	expect_eq "CSV exit_code and signal" "$(cut -d, -f5,6 k.csv | sort -u | tr '\n' ' ')" \
		',SIGKILL ,SIGSEGV exit_code,signal '
}

# hyperfine's JSON and CSV "command" is its get_name() (src/command.rs):
# the name with the parameters substituted, without the parameters it
# does not show, which "parameters" holds; the terminal, the tables and
# cbench's "name" keep them.  A gate pairs cbench files by "name" (or
# command line and parameters), so a file written before, whose
# "command" had them, still pairs with a new one.
test_command_without_unused_parameters() {
	cb -r 2 -L branch master,dev --export-json o.json --export-csv s.csv \
		--export-csv-runs r.csv --export-markdown m.md 'echo {n}' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "JSON command" "$(jq -r '[.results[].command] | join("|")' o.json)" \
		"echo {n}|echo {n}"
	expect_eq "JSON name" "$(jq -r '[.results[].name] | join("|")' o.json)" \
		"echo {n} (branch = master)|echo {n} (branch = dev)"
	expect_eq "parameters" "$(jq -r '[.results[].parameters.branch] | join("|")' o.json)" \
		"master|dev"
	expect_eq "CSV command" "$(sed 1d s.csv | cut -d, -f1 | tr '\n' '|')" "echo {n}|echo {n}|"
	# cbench's per-run CSV keeps the display name: one per benchmark.
	expect_eq "CSV runs command" "$(sed 1d r.csv | cut -d, -f2 | sort -u | tr '\n' '|')" \
		"echo {n} (branch = dev)|echo {n} (branch = master)|"
	expect_grep "the table keeps them" '^\| `echo \{n\} \(branch = master\)` ' m.md
	expect_grep "the report too" '^Benchmark 1: echo \{n\} \(branch = master\)$' out
	# An older file, its command the name, pairs with the new one.
	jq '.results |= map(.command = .name)' o.json >old.json
	local by
	for by in command name; do
		cb compare --match-by "$by" --require-all old.json o.json >cmp 2>err
		[ "$?" != 2 ] || fail "--match-by $by: not paired: $(cat err)"
		expect_grep "--match-by $by: both rows" 'branch = dev' cmp
	done
}
