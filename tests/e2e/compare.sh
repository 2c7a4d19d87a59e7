# End-to-end tests of `cbench compare` and `--baseline`: CI gates.
#
# Saved-file tests use the fixed fixtures in tests/fixtures (so verdicts and
# the Markdown report are exact); run tests gate on steady metrics (page
# faults, or a tenfold slowdown) so a busy machine cannot flip them.

ROOT=$PWD
FIX=$ROOT/tests/fixtures
GOLDEN=$ROOT/tests/golden

fixtures() {
	cp "$FIX"/*.json .
}

# A command './tool' whose "build" changes between runs, as in CI: the
# command line stays the same, the program behind it does not.
make_tool() {
	printf '#!/bin/sh\nexec %s\n' "$1" >tool
	chmod 755 tool
}

page_faults_countable() {
	cb -v -r 1 "$HELPERS/touch_pages 10" >pf.out 2>&1 || return 1
	grep -q 'page-faults:' pf.out
}

test_identical_files_no_regression() {
	fixtures
	cb compare compare-base.json compare-base.json >out 2>err || fail "exit $?: $(cat err)"
	expect_grep "verdict" '^Result: no regression \(5 within noise\)$' out
	expect_grep "default metric named" '^Gate on instructions \(counted on both sides\)' out
	expect_no_grep "no warnings" 'warning' err
}

test_regression_named_exit_3() {
	fixtures
	cb compare compare-base.json compare-new.json >out 2>err
	expect_eq "exit code" "$?" 3
	expect_grep "regression row first" '^  Benchmark' out
	[ "$(grep -A1 '^  Benchmark' out | tail -n 1 | awk '{print $1, $2}')" = "./tool big" ] ||
		fail "first row is not ./tool big: $(cat out)"
	expect_grep "row" '\./tool big .* \+12\.0 % .* regression$' out
	expect_grep "improvement" '^  parse 4 .* -20\.0 % .* improvement$' out
	expect_grep "summary" '^Result: 1 regression, 1 improvement, 2 within noise, 1 missing in new, 1 not in baseline$' out
	expect_grep "missing reported" "1 benchmark missing in compare-new.json .*: './tool old'" err
	expect_grep "new one reported" "1 benchmark not in the baseline compare-base.json .*: './tool extra'" err
}

test_threshold_option() {
	fixtures
	cb compare --fail-if-slower 15 compare-base.json compare-new.json >out 2>err ||
		fail "a 12 % change failed a 15 % gate: exit $?"
	expect_grep "noise" '\./tool big .* within noise$' out
	cb compare --fail-if-slower 2% compare-base.json compare-new.json >out 2>err
	expect_eq "exit code at 2 %" "$?" 3
	expect_grep "medium too" '\./tool medium .* regression$' out
}

test_gate_metric_option() {
	fixtures
	cb compare --gate-metric wall_time compare-base.json compare-new.json >out 2>err
	expect_eq "exit code" "$?" 3
	expect_grep "metric named" '^Gate on wall_time \(chosen with --gate-metric\)' out
	expect_grep "times" '\./tool big +20\.00 ± 0\.73 ms +22\.40 ± 0\.73 ms' out
	cb compare --gate-metric cpu_time compare-base.json compare-new.json >out 2>err
	expect_eq "exit code (cpu_time)" "$?" 3
}

test_require_all() {
	fixtures
	cb compare --require-all compare-base.json compare-new.json \
		--export-markdown report.md >out 2>err
	expect_eq "exit code" "$?" 2
	# Checked before any report: one error line, nothing else written.
	expect_eq "one error line naming both" "$(cat err)" \
		"cbench: error: --require-all: 1 benchmark of compare-base.json is not in compare-new.json: './tool old'; 1 benchmark of compare-new.json is not in compare-base.json: './tool extra'"
	[ ! -s out ] || fail "a report was printed: $(cat out)"
	[ ! -e report.md ] || fail "the Markdown report was written"
	cb compare --require-all compare-base.json compare-base.json >out 2>err ||
		fail "all present: exit $?"
}

test_markdown_report_golden() {
	fixtures
	cb compare compare-base.json compare-new.json --export-markdown report.md >out 2>err
	expect_eq "exit code" "$?" 3
	diff -u "$GOLDEN/compare-report.md" report.md >diff.txt ||
		fail "report differs from tests/golden/compare-report.md: $(cat diff.txt)"
	expect_grep "terminal table too" '^Result:' out
}

test_markdown_destination_checked_first() {
	fixtures
	cb compare compare-base.json compare-new.json \
		--export-markdown /nonexistent/r.md >out 2>err
	expect_eq "exit code" "$?" 2
	[ ! -s out ] || fail "a report was printed before the check: $(cat out)"
	expect_grep "names the option" '^cbench: error: .*--export-markdown.*/nonexistent/r\.md' err
	[ "$(wc -l <err)" -eq 1 ] || fail "more than one error line: $(cat err)"
}

test_markdown_report_written_atomically() {
	fixtures
	echo previous >report.md
	before=$(stat -c %i report.md)
	cb compare compare-base.json compare-new.json --export-markdown report.md >out 2>err
	expect_eq "exit code" "$?" 3
	# A new file renamed over the old one (a new inode), nothing left beside.
	[ "$(stat -c %i report.md)" != "$before" ] ||
		fail "report.md was rewritten in place, not replaced"
	diff -u "$GOLDEN/compare-report.md" report.md >diff.txt ||
		fail "report differs from the golden report: $(cat diff.txt)"
	[ "$(ls -A | grep -c report)" -eq 1 ] ||
		fail "a temporary file was left behind: $(ls -A)"
}

test_markdown_to_stdout_alone() {
	fixtures
	cb compare compare-base.json compare-new.json --export-markdown - >out 2>err
	expect_eq "exit code" "$?" 3
	diff -u "$GOLDEN/compare-report.md" out >diff.txt ||
		fail "stdout differs from the golden report: $(cat diff.txt)"
}

# hyperfine-1.15.json with 'sleep 0.01' 30 % slower, as hyperfine would
# write it.
hyperfine_slower() {
	jq '(.results[] | select(.command == "sleep 0.01") | .times) |= map(. * 1.3)' \
		hyperfine-1.15.json >hyperfine-slower.json || fail "jq failed"
}

test_hyperfine_files_compared() {
	fixtures
	hyperfine_slower
	cb compare hyperfine-1.15.json hyperfine-slower.json \
		--export-markdown report.md >out 2>err
	expect_eq "exit code" "$?" 3
	expect_grep "wall time, and why" '^Gate on wall_time \(hyperfine-1.15.json is a hyperfine file, without counters\)' out
	expect_no_grep "nothing uncompared" '^Not compared' out
	expect_grep "slowdown" '^  sleep 0\.01 .* \+30\.0 % .* regression$' out
	# hyperfine's own runs of true are too noisy to resolve 5 %: said.
	expect_grep "unchanged" '^  true .* within noise \(±[0-9]+ %\)$' out
	expect_grep "what it could not see" "^cbench: warning: the gate on wall_time could not resolve its threshold for 1 benchmark: 'true'" err
	diff -u "$GOLDEN/compare-hyperfine.md" report.md >diff.txt ||
		fail "report differs from tests/golden/compare-hyperfine.md: $(cat diff.txt)"
	cb compare hyperfine-slower.json hyperfine-1.15.json >out 2>err ||
		fail "reverse: exit $?"
	expect_grep "improvement" '^  sleep 0\.01 .* improvement$' out
}

# hyperfine's wall times include fork+exec, cbench's start at the exec: a
# hyperfine file against cbench's results is refused on either side.
test_hyperfine_vs_cbench_refused() {
	fixtures
	cb compare hyperfine-1.15.json compare-vs-hyperfine.json \
		--export-markdown report.md >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "why" "^cbench: error: hyperfine-1.15.json is a hyperfine file and compare-vs-hyperfine.json is cbench's: their wall times are not comparable .*measure the baseline with cbench too \(--save-baseline\)" err
	[ ! -s out ] || fail "a report was printed: $(cat out)"
	[ ! -e report.md ] || fail "the Markdown report was written"
	cb compare compare-vs-hyperfine.json hyperfine-1.15.json >out 2>err
	expect_eq "exit code (reverse)" "$?" 2
	expect_grep "why (reverse)" "^cbench: error: hyperfine-1.15.json is a hyperfine file and compare-vs-hyperfine.json is cbench's: .*measure hyperfine-1.15.json with cbench too" err
}

test_hyperfine_has_no_counters() {
	fixtures
	hyperfine_slower
	cb compare --gate-metric task_clock hyperfine-1.15.json hyperfine-slower.json >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "message" '^cbench: error: --gate-metric task_clock: hyperfine-1.15.json is a hyperfine file, which records only wall time per run' err
}

test_malformed_json() {
	fixtures
	head -c 300 compare-base.json >broken.json
	cb compare broken.json compare-new.json >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "where" '^cbench: error: broken.json: malformed JSON at line [0-9]+, column [0-9]+$' err
	expect_no_grep "no report" 'Result' out
	printf '{"results": [{"command": "a"}]}' >notimes.json
	cb compare notimes.json compare-new.json >out 2>err
	expect_eq "exit code (no times)" "$?" 2
	expect_grep "what" '^cbench: error: notimes.json: results\[0\]: no "times" array' err
	cb compare compare-base.json nosuch.json >out 2>err
	expect_eq "exit code (missing file)" "$?" 2
	expect_grep "missing" "^cbench: error: cannot read 'nosuch.json': No such file or directory$" err
	mkdir adir
	cb compare adir compare-base.json >out 2>err
	expect_eq "exit code (directory)" "$?" 2
	expect_grep "directory" "^cbench: error: cannot read 'adir': it is a directory, not a results file$" err
}

test_interrupted_baseline_warned() {
	fixtures
	jq '.results[0].interrupted = true | .results[3].interrupted = true' \
		compare-base.json >partial.json || fail "jq failed"
	cb compare partial.json compare-base.json >out 2>err || fail "exit $?"
	expect_grep "named" "^cbench: warning: the baseline partial.json is partial: 2 benchmarks were interrupted \(fewer runs than planned\): '\./tool small', 'parse 4'$" err
	cb compare compare-base.json compare-base.json >out 2>err || fail "exit $?"
	expect_no_grep "complete baseline" 'partial' err
}

# Nothing in common and two tools: the tool mix, refused whatever matches,
# is the real cause ("try --match-by name" would only lead to it).
test_nothing_matches() {
	fixtures
	cb compare compare-base.json hyperfine-1.15.json >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "message" '^cbench: error: hyperfine-1\.15\.json is a hyperfine file and compare-base\.json is cbench.s: ' err
	expect_no_grep "no matching hint" 'match-by' err
}

test_match_by_name() {
	fixtures
	# Same display names, other command lines (e.g. a moved build dir).
	sed 's#"command_line": "./tool #"command_line": "./build/tool #' compare-new.json >moved.json
	cb compare compare-base.json moved.json >out 2>err
	expect_eq "by command line nothing matches" "$?" 2
	cb compare --match-by name compare-base.json moved.json >out 2>err
	expect_eq "by name" "$?" 3
	expect_grep "matched" '\./tool big .* regression$' out
}

test_github_annotations() {
	fixtures
	GITHUB_ACTIONS=true cb compare compare-base.json compare-new.json >out 2>err
	expect_eq "exit code" "$?" 3
	expect_grep "error line" "^::error title=cbench regression::'./tool big' regressed: instructions \+12\.0 %25 \(98\.75 %25 CI \+11\.9 %25 … \+12\.1 %25, p < 0\.001; threshold \+5 %25\)$" out
	expect_grep "warning for missing" "^::warning title=cbench::'./tool old' is in the baseline compare-base.json but was not benchmarked$" out
	cb compare compare-base.json compare-new.json >out 2>err
	expect_no_grep "only on GitHub" '^::' out
	# A file name with a newline and a workflow command, names with an
	# escape sequence and DEL: shown escaped, never a line of their own
	# (issue 46, item 7).
	local f=$'a\n::error::x.json'
	sed 's#"./tool old"#"./tool\\u0001\\u001b[2J\\u007fold"#' compare-base.json >"$f"
	GITHUB_ACTIONS=true cb compare "$f" compare-new.json >out 2>err
	expect_eq "escaped: exit" "$?" 3
	expect_no_grep "no forged workflow command" '^::error::x' out
	expect_grep "the file named, escaped" 'a\\n::error::x\.json' out
	expect_grep "the name in the annotation, escaped" '^::warning title=cbench::.\./tool\\x01\\x1b\[2J\\x7fold. is in the baseline a%0A::error::x\.json but' out
	if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' out; then
		fail "a raw control character: $(od -c out | head -5)"
	fi
}

test_compare_usage() {
	cb compare only-one.json >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "message" "takes two files" err
	cb compare --help >out 2>err || fail "--help: exit $?"
	expect_grep "help" '^Usage: cbench compare' out
}

# ---- --baseline: benchmark, then gate, in one step ----

test_baseline_malformed_fails_before_running() {
	printf '{"results": [' >base.json
	cb -r 2 --baseline base.json "touch $T/ran" >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "message" '^cbench: error: base.json: malformed JSON' err
	[ ! -e ran ] || fail "the benchmark ran before the baseline was checked"
	cb -r 2 --baseline nosuch.json "touch $T/ran" >out 2>err
	expect_eq "exit code (missing)" "$?" 2
	[ ! -e ran ] || fail "the benchmark ran without a baseline"
}

test_baseline_metric_checked_before_running() {
	fixtures
	cb -r 2 --baseline hyperfine-1.15.json --gate-metric page_faults "touch $T/ran" >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "message" 'page_faults: the baseline hyperfine-1.15.json has no per-run page_faults \(a hyperfine file records only wall time\)' err
	[ ! -e ran ] || fail "the benchmark ran"
}

test_baseline_from_hyperfine_refused() {
	command -v hyperfine >/dev/null || skip "hyperfine is not installed"
	hyperfine -N -r 10 --export-json base.json "touch $T/ran" >/dev/null 2>&1 ||
		fail "hyperfine failed"
	rm -f ran
	# The identical command: hyperfine's fork+exec would read as a change.
	cb -r 10 --baseline base.json "touch $T/ran" >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "why" "^cbench: error: base.json is a hyperfine file and this run is cbench's: their wall times are not comparable" err
	[ ! -e ran ] || fail "the benchmark ran before the baseline was refused"
}

test_baseline_missing_benchmark() {
	cb -r 5 --save-baseline base.json true >out 2>err || fail "base: exit $?"
	cb -r 5 --fail-if-slower 100 --baseline base.json true "$HELPERS/spin 1" >out 2>err ||
		fail "one new benchmark is not fatal: exit $?"
	expect_grep "named" "1 benchmark not in the baseline base.json .*: '.*spin 1'" err
	# With --require-all the plan is checked against the baseline first.
	cb -r 5 --require-all --baseline base.json true "touch $T/ran" >out 2>err
	expect_eq "exit code with --require-all" "$?" 2
	expect_grep "error" "^cbench: error: --require-all: 1 benchmark of this run is not in base.json: 'touch .*/ran'$" err
	[ ! -e ran ] || fail "the benchmarks ran"
}

test_baseline_nothing_matches_before_running() {
	fixtures
	cb -r 2 --baseline compare-base.json "touch $T/ran" >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "message" "^cbench: error: no benchmark in this run matches one in compare-base.json \(matching by command line; try --match-by name\)$" err
	[ ! -e ran ] || fail "the benchmark ran"
}

test_baseline_not_compared_when_benchmark_fails() {
	printf '{"schema": "cbench-results", "schema_version": 1, "results": [{"command": "%s", "runs": {"wall_time": [1, 1]}}]}' \
		"$HELPERS/crash exit 3" >base.json
	cb -r 2 --baseline base.json "$HELPERS/crash exit 3" >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "note" 'not compared with the baseline' err
}

# ---- real result files written by cbench itself ----

test_identical_real_files() {
	cb -r 10 --export-json a.json "$HELPERS/touch_pages 100" >out 2>err ||
		fail "run: exit $?: $(cat err)"
	# Wall time on a busy machine may be too noisy to bound ("undecided");
	# either way identical files are no regression.
	cb compare a.json a.json >out 2>err || fail "exit $?: $(cat err)"
	expect_grep "verdict" '^Result: no regression \(1 (within noise|undecided)\)$' out
}

test_slower_variant_regression() {
	page_faults_countable || skip "page faults are not countable here"
	make_tool "$HELPERS/touch_pages 2000"
	cb -r 10 --save-baseline base.json ./tool >out 2>err ||
		fail "baseline run: exit $?: $(cat err)"
	jq -e '.schema == "cbench-results"' base.json >/dev/null ||
		fail "--save-baseline did not write cbench JSON"
	# The same command line, a build that touches twice the pages.
	make_tool "$HELPERS/touch_pages 4000"
	cb -r 10 --gate-metric page_faults --baseline base.json ./tool >out 2>err
	expect_eq "exit code (--baseline)" "$?" 3
	expect_grep "named in the report" '^  \./tool .* \+9[0-9]\.[0-9] % .* regression$' out
	# Two steps: save, then compare the files.
	cb -r 10 --save-baseline new.json ./tool >out 2>err || fail "new run: exit $?"
	cb compare --gate-metric page_faults base.json new.json --export-markdown pr.md >out 2>err
	expect_eq "exit code (compare)" "$?" 3
	expect_grep "verdict line" '^\*\*:x: cbench: 1 regression\*\* in page_faults: `\./tool` \+9' pr.md
}

test_aa_noise_only() {
	page_faults_countable || skip "page faults are not countable here"
	make_tool "$HELPERS/touch_pages 2000"
	cb -r 10 --save-baseline base.json ./tool >out 2>err || fail "A: exit $?"
	cb -r 10 --gate-metric page_faults --baseline base.json ./tool >out 2>err ||
		fail "A/A on page faults: exit $?: $(cat out)"
	expect_grep "verdict" '^  \./tool .* within noise$' out
}

test_cpu_slowdown_on_task_clock() {
	page_faults_countable || skip "software counters are not countable here"
	# Twenty times the work: CPU time in a VM shared with other jobs can
	# vary severalfold (stolen time counts as the task's; a full suite once
	# saw ten times the work within noise), so a mere doubling could be
	# noise.
	make_tool "$HELPERS/spin 5"
	cb -r 10 --save-baseline base.json ./tool >out 2>err || fail "base: exit $?"
	make_tool "$HELPERS/spin 100"
	cb -r 10 --gate-metric task_clock --baseline base.json ./tool >out 2>err
	expect_eq "exit code" "$?" 3
	expect_grep "named" '^  \./tool .* regression$' out
}

test_baseline_missing_benchmark_real() {
	page_faults_countable || skip "page faults are not countable here"
	cb -r 3 --save-baseline base.json true "$HELPERS/spin 1" >out 2>err ||
		fail "base: exit $?"
	cb -r 3 --gate-metric page_faults --baseline base.json true >out 2>err ||
		fail "a benchmark not run is not fatal: exit $?: $(cat err)"
	expect_grep "named" "1 benchmark missing in this run .*: '.*spin 1'" err
	cb -r 3 --gate-metric page_faults --require-all --baseline base.json true >out 2>err
	expect_eq "exit code with --require-all" "$?" 2
	expect_grep "error" "^cbench: error: --require-all: 1 benchmark of base.json is not in this run: '.*spin 1'$" err
}
