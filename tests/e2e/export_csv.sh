# End-to-end tests of --export-csv and --export-csv-runs: hyperfine's columns
# first, quoting, one row per benchmark or per run, read by pandas, and
# /dev/stdout as the destination.

test_csv_summary_and_runs() {
	cb -r 3 -n 'x,"y"' true --export-csv s.csv --export-csv-runs r.csv >out 2>err ||
		fail "exit $?"
	expect_grep "hyperfine's columns first" '^command,mean,stddev,median,user,system,min,max,' s.csv
	expect_grep "quoted name" '^"x,""y""",0\.' s.csv
	expect_eq "summary rows" "$(wc -l <s.csv)" 2
	expect_eq "run rows" "$(wc -l <r.csv)" 4
	expect_grep "runs header" '^benchmark,command,command_line,run,exit_code,' r.csv
}

test_readme_pandas_reads_csv_runs() {
	local py
	py=$(pandas_python)
	[ -n "$py" ] || skip "pandas is not installed (python3 -c 'import pandas' fails)"
	cb -r 2 -n 'a,"b"' true 'sleep 0.001' --export-csv-runs runs.csv \
		--export-csv sum.csv >out 2>err || fail "exit $?"
	"$py" - >py.out 2>&1 <<-'PY' || fail "pandas cannot use the CSV: $(cat py.out)"
	import pandas as pd
	runs = pd.read_csv("runs.csv")
	assert len(runs) == 4, len(runs)
	assert list(runs["command"].unique()) == ['a,"b"', "sleep 0.001"]
	assert runs["wall_time"].dtype.kind == "f" and runs["timed_out"].dtype == bool
	s = pd.read_csv("sum.csv")
	assert len(s) == 2 and s.loc[0, "command"] == 'a,"b"' and s.loc[0, "runs"] == 2
	PY
}

test_export_csv_dev_stdout_is_pure_csv() {
	cb -r 2 true --export-csv /dev/stdout >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "first line" "$(head -c 8 out)" "command,"
	expect_eq "line count" "$(wc -l <out)" 2
	expect_grep "report on stderr" '^Benchmark 1: true' err
}
