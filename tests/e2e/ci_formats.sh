# tests/e2e/ci_formats.sh: the continuous-benchmarking exports
# (--export-bmf, --export-github-benchmark), the gate's JUnit report
# (--export-junit) and gates on several metrics with their own thresholds
# (--gate-metric A,B, --fail-if-slower METRIC=PCT, --fail-if-slower-for).
#
# Formats are checked against their published descriptions:
# tests/tools/ci_formats.py for Bencher's JSON schema (bencher.dev/bmf.json)
# and github-action-benchmark's README (customSmallerIsBetter), and
# tests/tools/junit.xsd (the Jenkins junit-4.xsd / GitLab structure) and
# the Jenkins xUnit plugin's own junit-10.xsd (tests/fixtures/jenkins) with
# xmllint.  Gate decisions rest on page faults of a program touching a
# fixed number of pages, the same in every run.

CI_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CI_PY=(/usr/bin/python3 "$CI_ROOT/tests/tools/ci_formats.py")
CI_XSD=$CI_ROOT/tests/tools/junit.xsd
CI_JENKINS_XSD=$CI_ROOT/tests/fixtures/jenkins/junit-10.xsd

# A JUnit file valid for both schemas.
ci_junit_valid() {
	xmllint --noout --schema "$CI_XSD" "$1" 2>xl || fail "$1 invalid: $(cat xl)"
	xmllint --noout --schema "$CI_JENKINS_XSD" "$1" 2>xl ||
		fail "$1 invalid for Jenkins xUnit: $(cat xl)"
}

ci_faults_countable() {
	cb -v -r 1 "$HELPERS/touch_pages 10" >pf.out 2>&1 || return 1
	grep -q 'page-faults:' pf.out
}

ci_need_xmllint() {
	command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) is not installed"
}

# The golden files of the unit tests conform, and the checkers do reject
# a broken file (so a pass means something).
test_ci_golden_files_match_their_schemas() {
	ci_need_xmllint
	"${CI_PY[@]}" bmf "$CI_ROOT/tests/golden/ci.bmf.json" || fail "BMF golden"
	"${CI_PY[@]}" github "$CI_ROOT/tests/golden/ci.github-benchmark.json" ||
		fail "github-benchmark golden"
	ci_junit_valid "$CI_ROOT/tests/golden/ci.junit.xml"
	echo '{"b": {"wall_time": {"lower_value": 1}}}' >bad.json
	! "${CI_PY[@]}" bmf bad.json 2>/dev/null || fail "a BMF measure without value passed"
	echo '[{"name": "a", "unit": "s", "value": "1"}]' >bad.json
	! "${CI_PY[@]}" github bad.json 2>/dev/null || fail "a string value passed"
	echo '<testsuites><testsuite tests="1"><testcase/></testsuite></testsuites>' >bad.xml
	! xmllint --noout --schema "$CI_XSD" bad.xml 2>/dev/null || fail "nameless JUnit passed"
	# What cbench wrote before: a skipped count on <testsuites>, which
	# Jenkins xUnit rejects (and so drops the file), and a message
	# attribute on <skipped>, which junit-4.xsd rejects.
	sed 's/<testsuites name="cbench" \(.*\)">$/<testsuites name="cbench" \1" skipped="2">/' \
		"$CI_ROOT/tests/golden/ci.junit.xml" >old.xml
	expect_grep "old form made" '<testsuites .* skipped="2">' old.xml
	! xmllint --noout --schema "$CI_JENKINS_XSD" old.xml 2>/dev/null ||
		fail "Jenkins' schema took a skipped count on <testsuites>"
	! xmllint --noout --schema "$CI_XSD" old.xml 2>/dev/null ||
		fail "our schema took a skipped count on <testsuites>"
	sed 's|<skipped>\(.*\)</skipped>|<skipped message="\1"/>|' \
		"$CI_ROOT/tests/golden/ci.junit.xml" >old2.xml
	expect_grep "old skipped made" '<skipped message="' old2.xml
	! xmllint --noout --schema "$CI_XSD" old2.xml 2>/dev/null ||
		fail "our schema took <skipped message=...>"
}

# A sweep: every metric measured, names with the parameters, the same
# names in a second run.
test_ci_exports_of_a_sweep() {
	cb -r 3 -N -L n 1,2 "$HELPERS/touch_pages {n}" --export-bmf b.json \
		--export-github-benchmark g.json --export-json r.json >out 2>err ||
		fail "exit $?: $(cat err)"
	"${CI_PY[@]}" bmf b.json || fail "BMF: $(cat b.json)"
	"${CI_PY[@]}" github g.json || fail "github-benchmark: $(cat g.json)"
	/usr/bin/python3 - b.json g.json r.json <<'PY' || fail "contents"
import json, sys
bmf, gh, res = (json.load(open(p)) for p in sys.argv[1:4])
names = sorted(bmf)
assert names == sorted(f"{r['name']} [n={r['parameters']['n']}]" for r in res["results"]), names
# By default the metrics a gate decides on, as measured; never the
# others (a major-fault count of 0 then 0.1 is an infinite ratio).  The
# task-clock only for a CPU-bound command: one whose task-clock reached
# 75 % of its wall time in some run (results.h's CPU_BOUND_SHARE).
for r in res["results"]:
    key = f"{r['name']} [n={r['parameters']['n']}]"
    assert "wall_time" in bmf[key], bmf[key]
    gated = {"wall_time", "instructions", "sim_instructions"}
    tc = r["runs"].get("task_clock") or []
    if any(c is not None and c >= 0.75 * w for c, w in zip(tc, r["runs"]["wall_time"])):
        gated.add("task_clock")
    for metric, s in r["metrics"].items():
        if s["n"] == 0 or metric not in gated:
            assert metric not in bmf[key], metric
            assert not any(e["name"] == f"{key} - {metric}" for e in gh), metric
            continue
        assert bmf[key][metric]["value"] == s["mean"], (key, metric)
        assert [bmf[key][metric]["lower_value"], bmf[key][metric]["upper_value"]] == s["mean_ci"]
        assert any(e["name"] == f"{key} - {metric}" and e["value"] == s["mean"] for e in gh)
PY
	cb -r 2 -N -L n 1,2 "$HELPERS/touch_pages {n}" --export-bmf b2.json >/dev/null 2>&1 ||
		fail "second run"
	/usr/bin/python3 -c 'import json,sys; a,b=(sorted(json.load(open(p))) for p in sys.argv[1:]); sys.exit(a!=b)' \
		b.json b2.json || fail "names changed between runs"
	# A CPU-bound command carries its task-clock, a sleeping one not
	# (where the task-clock is counted; instructions where they are).
	cb -r 3 -N "$HELPERS/spin 5" 'sleep 0.01' --export-bmf b4.json --export-json r4.json \
		>/dev/null 2>err || fail "spin: $(cat err)"
	# Whether a command is CPU-bound is read from its runs (a busy
	# machine may leave even the spin under the share in every run).
	local k bound want
	for k in 0 1; do
		bound=$(jq --argjson k "$k" '.results[$k].runs as $r |
			[range($r.wall_time | length) | select($r.task_clock[.] != null and
			 $r.task_clock[.] >= 0.75 * $r.wall_time[.])] | length > 0' r4.json)
		want='["wall_time"]'
		[ "$bound" = true ] && want='["task_clock","wall_time"]'
		expect_eq "series of benchmark $k" "$(jq -c --arg k "$(jq -r --argjson k "$k" \
			'.results[$k].command' r4.json)" '.[$k] | keys - ["instructions"]' b4.json)" "$want"
	done
	# sleep never is.
	expect_eq "sleep is not CPU-bound" "$(jq -c '.["sleep 0.01"] | keys - ["instructions"]' b4.json)" '["wall_time"]'
	# --export-metrics: exactly those, in both files.
	cb -r 2 -N "$HELPERS/touch_pages 1" --export-metrics peak_rss,major_faults \
		--export-bmf b3.json --export-github-benchmark g3.json >/dev/null 2>err ||
		fail "--export-metrics: $(cat err)"
	expect_eq "BMF carries the two" "$(jq -c '[.[] | keys[]]' b3.json)" '["major_faults","peak_rss"]'
	expect_eq "github carries the two" "$(jq -c '[.[].name | sub(".* - "; "")]' g3.json)" '["peak_rss","major_faults"]'
}

# Bencher refuses a whole file with a name over 1024 bytes
# (bencher_valid: MAX_BENCHMARK_NAME_LEN, compared with the byte length):
# a longer one is cut between characters and ends with a hash of the
# whole, the same in every run; one of exactly 1024 bytes is kept.
test_bmf_names_within_bencher_limit() {
	local long fit
	long=$(printf 'é%.0s' $(seq 1 600))          # 1200 bytes
	fit=$(printf 'x%.0s' $(seq 1 1024))
	cb -r 2 -N -n "$long" 'true' -n "$fit" 'true' --export-bmf b.json >out 2>err ||
		fail "exit $?: $(cat err)"
	"${CI_PY[@]}" bmf b.json || fail "BMF: $(head -c 300 b.json)"
	expect_grep "said" "^cbench: note: --export-bmf: 1 benchmark name over Bencher's 1024 bytes" err
	/usr/bin/python3 - b.json "$long" "$fit" <<'PY' || fail "names"
import json, re, sys
keys = list(json.load(open(sys.argv[1])))
long, fit = sys.argv[2], sys.argv[3]
assert fit in keys, "a name of 1024 bytes is kept"
cut = [k for k in keys if k != fit][0]
assert len(cut.encode()) <= 1024 and len(cut.encode()) > 1000, len(cut.encode())
m = re.fullmatch(r"(é+) ~[0-9a-f]{16}", cut)
assert m and long.startswith(m.group(1)), cut[-30:]
PY
	cp b.json first.json
	cb -r 2 -N -n "$long" 'true' -n "$fit" 'true' --export-bmf b.json --style none >/dev/null 2>&1 ||
		fail "second run"
	expect_eq "the same name in every run" "$(jq -c keys b.json)" "$(jq -c keys first.json)"
}

# --baseline with a regression on page faults: exit 3, a <failure> with
# the numbers, the report valid; the same file from `cbench compare`.
# Without instructions, CPU-bound files (task-clock as long as the wall
# time) are gated on task-clock at its 10th percentile, and the JUnit
# report says which statistic it compared.
test_ci_junit_names_the_10th_percentile() {
	ci_need_xmllint
	local side
	for side in base:0.010 new:0.0115; do
		/usr/bin/python3 - "${side%%:*}.json" "${side#*:}" <<'PY' || fail "python"
import json, sys
f = [1.0, 1.01, 1.02, 0.99, 1.0, 1.01, 0.995, 1.005, 1.0, 1.01]
t = [float(sys.argv[2]) * x for x in f]
json.dump({"schema": "cbench-results", "schema_version": 1,
           "results": [{"command": "loop", "runs": {"wall_time": t, "task_clock": t}}]},
          open(sys.argv[1], "w"))
PY
	done
	cb compare base.json new.json --export-junit j.xml >out 2>err
	expect_eq "compare exit" "$?" 3
	ci_junit_valid j.xml
	expect_grep "gate header" '^Gate on task_clock \(.*their CPU time at its 10th percentile' out
	expect_grep "the statistic" '<property name="statistic" value="10th percentile"/>' j.xml
	expect_grep "the metric" '<property name="metric" value="task_clock"/>' j.xml
}

test_ci_junit_of_a_gate() {
	ci_faults_countable || skip "page faults are not countable here"
	ci_need_xmllint
	cb -r 5 -N -n w "$HELPERS/touch_pages 500" --export-json base.json >/dev/null 2>&1 ||
		fail "baseline run"
	cb -r 5 -N -n w "$HELPERS/touch_pages 5000" --export-json new.json >/dev/null 2>&1 ||
		fail "new run"
	cb compare base.json new.json --match-by name --gate-metric page_faults \
		--export-junit j.xml >out 2>err
	expect_eq "compare exit" "$?" 3
	ci_junit_valid j.xml
	expect_grep "failure" '<failure type="regression" message="page_faults regression: new/base [0-9.]+' j.xml
	expect_grep "numbers" 'base: mean [0-9.]+, sd [0-9.]+, 5 runs' j.xml
	expect_grep "counts" '<testsuites name="cbench" tests="1" failures="1"' j.xml
	expect_grep "the statistic" '<property name="statistic" value="mean"/>' j.xml
	cb -r 5 -N -n w "$HELPERS/touch_pages 500" --baseline base.json \
		--gate-metric page_faults --export-junit - >j2.xml 2>err
	expect_eq "baseline exit" "$?" 0
	ci_junit_valid j2.xml
	expect_grep "passing case" '<testcase classname="cbench.page_faults" name="w">' j2.xml
	expect_no_grep "no failure" '<failure' j2.xml
}

test_ci_junit_needs_a_gate() {
	cb -r 2 true --export-junit j.xml >out 2>err
	expect_eq "exit" "$?" 2
	expect_grep "message" '^cbench: error: --export-junit writes a gate.s verdicts' err
	[ ! -e j.xml ] || fail "a file was written"
}

# Two gate metrics: each its table; one regressing fails the invocation.
# Per-metric and per-benchmark thresholds move the line.
test_ci_gate_several_metrics() {
	ci_faults_countable || skip "page faults are not countable here"
	cb -r 6 --reference "$HELPERS/touch_pages 500" --reference-name ref -n ten \
		"$HELPERS/touch_pages 5000" --fail-if-slower 5 \
		--gate-metric page_faults,peak_rss >out 2>err
	expect_eq "exit" "$?" 3
	expect_grep "first table" '^Gate on page_faults \(chosen with --gate-metric\)' out
	expect_grep "second table" '^Gate on peak_rss \(chosen with --gate-metric\)' out
	# Ten times the pages is about +830 % faults: within 1000 %.
	cb -r 6 --reference "$HELPERS/touch_pages 500" --reference-name ref -n ten \
		"$HELPERS/touch_pages 5000" --fail-if-slower page_faults=1000% \
		>out 2>err || fail "per-metric threshold: exit $?: $(cat err)"
	expect_grep "threshold shown" 'lies above \+1000 %' out
	cb -r 6 --reference "$HELPERS/touch_pages 500" --reference-name ref -n ten \
		"$HELPERS/touch_pages 5000" --fail-if-slower 5 --gate-metric page_faults \
		--fail-if-slower-for ten page_faults=1000% >out 2>err ||
		fail "per-benchmark threshold: exit $?: $(cat err)"
	expect_grep "within" '^  ten +.* within noise$' out
	expect_no_grep "no warning" 'fail-if-slower-for' err
	cb -r 6 --reference "$HELPERS/touch_pages 500" --reference-name ref -n ten \
		"$HELPERS/touch_pages 5000" --fail-if-slower 5 --gate-metric page_faults \
		--fail-if-slower-for tne page_faults=1000% >out 2>err
	expect_eq "misspelt name: the default threshold" "$?" 3
	expect_grep "warning" "^cbench: warning: --fail-if-slower-for 'tne': no compared benchmark" err
}

test_ci_gate_bad_thresholds() {
	cb -r 2 --reference true false --fail-if-slower bogus=5% >out 2>err
	expect_eq "unknown metric" "$?" 2
	expect_grep "message" "^cbench: error: .*unknown metric 'bogus'" err
	cb -r 2 --reference true true --fail-if-slower wall_time=5% \
		--gate-metric page_faults >out 2>err
	expect_eq "metric not gated" "$?" 2
	expect_grep "message" '^cbench: error: --fail-if-slower wall_time=...: not a --gate-metric' err
	cb -r 2 --reference true true --fail-if-slower 5 --gate-metric wall_time,nope >out 2>err
	expect_eq "unknown gate metric" "$?" 2
	expect_grep "message" "^cbench: error: .*unknown metric 'nope'" err
	cb -r 2 true --fail-if-slower-for true 5 >out 2>err
	expect_eq "no gate" "$?" 2
	expect_grep "message" '^cbench: error: --fail-if-slower-for is for a gate' err
}
