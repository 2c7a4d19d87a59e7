# tests/e2e/history.sh: the results history as a user meets it: recording
# with --history (SQLite files created with their directory, CBENCH_HISTORY
# as the default), `cbench history list|show|trend|detect|export|import|
# prune`, the gate against the history, and the faults a shared database
# meets: a read-only file, a full disk, another writer holding the lock,
# a writer killed in the middle, a newer schema, a file that is not a
# history.  PostgreSQL runs against a real server started here (initdb and
# pg_ctl in the test's directory, a Unix socket only), skipped with the
# reason when the server binaries are not installed.
#
# Runs are few (-r 3) and the decisions rest on peak RSS of touch_pages,
# which a busy machine does not change; the source state is given with
# --history-label so that a CI's GITHUB_SHA does not leak in.

PY=/usr/bin/python3

# cbq: cbench without valgrind, for the set-up of a test (recording the
# invocations it reads) and the repeated checks of one code path: under
# VALGRIND=1 each path runs under memcheck once (through cb), which keeps
# this file within a minute there too.
cbq() { "$CBENCH" "$@"; }
HIST_ROOT=$PWD

# The decisions rest on page faults, the same in every run of touch_pages
# (peak RSS is not: under valgrind it includes what the command inherits).
faults_countable() {
	cbq -v -r 1 "$HELPERS/touch_pages 10" >pf.out 2>&1 || return 1
	grep -q 'page-faults:' pf.out
}

# rec LABEL_COMMIT CMD...: record one invocation on branch main.
rec() {
	local commit=$1
	shift
	cbq --history h.db --history-label "commit=$commit" --history-label branch=main \
		-r 3 "$@"
}

# sql DB QUERY: one value from an SQLite file, through Python's sqlite3.
sql() {
	"$PY" -c 'import sqlite3, sys
print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$1" "$2"
}

test_records_into_a_new_file_and_lists_newest_first() {
	cb --history .cbench/history.db --history-label commit=aaaa1111 \
		--history-label branch=main --history-label runner=ci-1 -r 3 -n one \
		"$HELPERS/touch_pages 10" >out 2>err || fail "exit $?: $(cat err)"
	[ -f .cbench/history.db ] || fail "no .cbench/history.db created"
	expect_grep "note" "^cbench: note: recorded in the history .cbench/history.db as invocation 1$" err
	cbq --history .cbench/history.db --history-label commit=bbbb2222 -r 3 -n two \
		"$HELPERS/touch_pages 10" "$HELPERS/touch_pages 20" >/dev/null 2>&1 ||
		fail "second record failed"
	cbq history list --history .cbench/history.db >list 2>err || fail "list: $(cat err)"
	expect_eq "rows" "$(grep -cE '^ +[0-9]+  ' list)" 2
	expect_grep "newest first" "^ +2  .* bbbb2222 .*two, touch_pages 20|^ +2  .* bbbb2222 " list
	[ "$(grep -nE '^ +2  ' list | cut -d: -f1)" -lt "$(grep -nE '^ +1  ' list | cut -d: -f1)" ] ||
		fail "invocation 2 not above 1: $(cat list)"
	expect_grep "footer" "^2 invocations, newest first, in .cbench/history.db \(SQLite\)$" list
	cbq history list --history .cbench/history.db --branch main >b || fail "branch filter"
	expect_eq "branch filter" "$(grep -cE '^ +[0-9]+  ' b)" 1
	cb history show 1 --history .cbench/history.db >show || fail "show"
	expect_grep "context" "^Invocation 1, recorded .* by cbench [0-9.]+ \(run\)$" show
	expect_grep "source" "commit aaaa1111, branch main" show
	expect_grep "labels" "runner=ci-1" show
	expect_grep "argv" '"--history-label","runner=ci-1"' show
	expect_grep "benchmark" "^Benchmark 1: one \(3 runs\)$" show
	expect_grep "wall time" "^  wall_time +mean " show
	expect_grep "peak rss" "^  peak_rss +mean .*MiB" show
	# Every run of every metric is kept, not only summaries.
	expect_eq "sample rows" "$(sql .cbench/history.db "SELECT count(*) FROM cbench_samples s JOIN cbench_benchmark b ON b.id = s.benchmark_id WHERE b.invocation_id = 1 AND s.metric = 'wall_time' AND s.n = 3 AND length(s.vals) = 24")" 1
}

test_cbench_history_is_the_default_target() {
	CBENCH_HISTORY=$PWD/env.db cbq -r 3 "$HELPERS/touch_pages 10" >/dev/null 2>err ||
		fail "record: $(cat err)"
	CBENCH_HISTORY=$PWD/env.db cb history list >list || fail "list"
	expect_grep "row" "^ +1  .*touch_pages 10$" list
	# --history selects another one.
	CBENCH_HISTORY=$PWD/env.db cbq history list --history other.db >o 2>err
	expect_eq "missing other" "$?" 2
	expect_grep "message" "^cbench: error: no history at other.db" err
	[ ! -e other.db ] || fail "listing created other.db"
	cbq history list >o 2>err
	expect_eq "no target" "$?" 2
	expect_grep "no target message" "no history: give --history TARGET" err
}

test_trend_shows_the_series_per_commit() {
	faults_countable || skip "page faults are not countable here"
	local k
	for k in 1 2 3; do
		rec "c$k$k$k$k" -n grow "$HELPERS/touch_pages 500" >/dev/null 2>&1 || fail "record $k"
	done
	for k in 4 5 6; do
		rec "c$k$k$k$k" -n grow "$HELPERS/touch_pages 8000" >/dev/null 2>&1 || fail "record $k"
	done
	cb history trend grow --history h.db --metric page_faults >t 2>err || fail "trend: $(cat err)"
	expect_grep "title" "^Trend of 'grow' \(page_faults\), machine [0-9a-f]{16}, 6 invocations, oldest first:$" t
	# 500 pages then 8000: low bars, then the top one.
	expect_grep "sparkline" "^  ▁▁▁███$" t
	expect_grep "first row" "^ +1  .* c1111 +main +[0-9]{3}\.[0-9]  \[" t
	expect_grep "last row" "^ +6  .* c6666 +main +[0-9]{4}\.[0-9]  \[" t
	cbq history detect grow --history h.db --metric page_faults >d 2>err || fail "detect: $(cat err)"
	expect_grep "one change" "^'grow' \(page_faults, machine [0-9a-f]{16}, 6 points, t test at alpha 0.05\): 1 change$" d
	expect_grep "range" "^  between #3 and #4: commit c3333 -> c4444" d
	cbq history trend nosuch --history h.db >/dev/null 2>err
	expect_eq "unknown benchmark" "$?" 2
	# detect too: a misspelt name in a scheduled job is not "no change"
	cbq history detect nosuch --history h.db >d2 2>err
	expect_eq "detect, unknown benchmark: exit" "$?" 2
	expect_eq "detect, unknown benchmark: message" "$(cat err)" \
		"cbench: error: no wall_time of 'nosuch' in the history (see 'cbench history list')"
	expect_eq "detect, unknown benchmark: nothing on stdout" "$(cat d2)" ""
}

# A synthetic series with a known step: twelve invocations imported from
# cbench results files, means 100 (six) then 120 (six), each with three
# runs of spread 1.  The change is at the seventh point by construction;
# the method itself is checked against an independent implementation in
# tests/unit/test_changepoint.c.
make_step_files() {
	local k m
	for k in $(seq 1 12); do
		m=100
		[ "$k" -gt 6 ] && m=120
		printf '{"schema": "cbench-results", "schema_version": 2, "context": {"started_at": "2026-01-%02dT10:00:00Z"}, "results": [{"command": "step", "name": "step", "command_line": "./step", "times": [%d, %d, %d], "runs": {"wall_time": [%d, %d, %d]}}]}\n' \
			"$k" $((m - 1)) "$m" $((m + 1)) $((m - 1)) "$m" $((m + 1)) >"step$k.json"
	done
}

test_detect_finds_the_known_step_with_its_range() {
	make_step_files
	local k
	for k in $(seq 1 12); do
		cbq history import --history h.db --history-label "commit=s$k" "step$k.json" \
			>/dev/null 2>err || fail "import $k: $(cat err)"
	done
	cb history detect step --history h.db >d 2>err || fail "detect: $(cat err)"
	expect_grep "one change" "12 points, t test at alpha 0.05\): 1 change$" d
	expect_grep "range" "^  between #6 and #7: commit s6 -> s7 \(2026-01-06 10:00:00 -> 2026-01-07 10:00:00\)$" d
	expect_grep "magnitude" "^      100\.0 s -> 120\.0 s   \+20\.0 % \[" d
	# Flat series: no change.
	for k in $(seq 1 8); do
		printf '{"results": [{"command": "flat", "mean": 1, "times": [1.0%d, 1.0%d]}]}\n' \
			$((k % 3)) $(((k + 1) % 3)) >"flat$k.json"
		cbq history import --history h.db "flat$k.json" >/dev/null 2>&1 || fail "import flat"
	done
	cbq history detect flat --history h.db --all-machines --alpha 0.01 --test permutation >f 2>err ||
		fail "detect flat: $(cat err)"
	expect_grep "no change" "^'flat' .*8 points, permutation test at alpha 0.01\): no change \(a step under ±[0-9]+(\.[0-9])? % would likely be missed\)$" f
	# Without a benchmark: every one.
	cbq history detect --history h.db --all-machines >all || fail "detect all"
	expect_grep "step" "^'step' " all
	expect_grep "flat" "^'flat' " all
	expect_no_grep "a code change, said as one" 'the machine changed|not a code change' d
}

# Hunter's usual level, alpha 0.001, with the permutation test: enough
# resamples that its smallest p lies below alpha (199 gave 1/200 and so
# never a change); a level it cannot reach is refused before anything.
test_detect_permutation_at_a_small_alpha() {
	local k m
	for k in $(seq 1 20); do
		m=100
		[ "$k" -gt 10 ] && m=200
		printf '{"results": [{"command": "dbl", "mean": %d, "times": [%d, %d]}]}\n' \
			"$m" $((m + k % 3)) $((m - k % 2)) >"dbl$k.json"
		cbq history import --history h.db "dbl$k.json" >/dev/null 2>err ||
			fail "import $k: $(cat err)"
	done
	cb history detect dbl --history h.db --test permutation --alpha 0.001 >d 2>err ||
		fail "detect: $(cat err)"
	expect_grep "found" "20 points, permutation test at alpha 0.001\): 1 change$" d
	expect_grep "where" "^      [0-9.]+ s -> [0-9.]+ s   \+[0-9.]+ % " d
	cb history detect dbl --history h.db --test permutation --alpha 0.00001 >d 2>err
	expect_eq "unreachable alpha: exit" "$?" 2
	expect_eq "message" "$(head -n 1 err)" "cbench: error: --alpha 1e-05: below what the permutation test can reach (0.0001 with 99999 resamples): use --test t"
	expect_eq "nothing printed" "$(cat d)" ""
}

# The same +20 % step where the machine's load average stepped with it
# (0.3 to 4.5, each file's context.load_average as cbench writes it): the
# machine's change, said as such; and a step inside one commit's
# invocations, which no code change can explain.
make_busy_files() {
	local k m l
	for k in $(seq 1 12); do
		m=100 l=0.3
		[ "$k" -gt 6 ] && m=120 l=4.5
		printf '{"schema": "cbench-results", "schema_version": 2, "context": {"started_at": "2026-01-%02dT10:00:00Z", "hostname": "vm", "cpu_model": "cpu", "load_average": [%s, %s, %s]}, "results": [{"command": "busy", "name": "busy", "command_line": "./busy", "times": [%d, %d, %d], "runs": {"wall_time": [%d, %d, %d]}}]}\n' \
			"$k" "$l" "$l" "$l" $((m - 1)) "$m" $((m + 1)) $((m - 1)) "$m" $((m + 1)) >"busy$k.json"
	done
}

test_detect_tells_the_machine_from_the_code() {
	make_busy_files
	local k
	for k in $(seq 1 12); do
		cbq history import --history h.db --history-label "commit=b$k" "busy$k.json" \
			>/dev/null 2>err || fail "import $k: $(cat err)"
	done
	cb history detect busy --history h.db --all-machines >d 2>err || fail "detect: $(cat err)"
	expect_grep "counted" "12 points, t test at alpha 0.05\): 1 change \(1 not the code's\)$" d
	expect_grep "the step" "^  between #6 and #7: commit b6 -> b7 " d
	expect_grep "said" "^      the machine changed, not the code: load average 0\.3 -> 4\.5$" d
	cb history report busy --history h.db --all-machines --output p.html >/dev/null 2>err ||
		fail "report: $(cat err)"
	expect_grep "the page says it" "<td>the machine changed, not the code: load average 0\.3 -&gt; 4\.5</td></tr>$" p.html
	expect_grep "with each point's load" "<tr><td>#7</td>.*<td>4\.50</td><td>–</td></tr>$" p.html
	# One commit throughout, no load recorded: the step is not the code's.
	make_step_files
	for k in $(seq 1 12); do
		cbq history import --history one.db --history-label "commit=c0ffee1" "step$k.json" \
			>/dev/null 2>err || fail "import $k: $(cat err)"
	done
	cb history detect step --history one.db --all-machines >d 2>err || fail "detect: $(cat err)"
	expect_grep "same commit" "^      not a code change: the same commit c0ffee1 on both sides$" d
	# A count does not move with the load: the same load step beside a
	# step in page faults is the code's.
	for k in $(seq 1 12); do
		jq '.results[0].runs.page_faults = .results[0].runs.wall_time' "busy$k.json" >"pf$k.json"
		cbq history import --history pf.db --history-label "commit=p$k" "pf$k.json" \
			>/dev/null 2>err || fail "import pf $k: $(cat err)"
	done
	cb history detect busy --history pf.db --all-machines --metric page_faults >d 2>err ||
		fail "detect page faults: $(cat err)"
	expect_grep "a change" "12 points, t test at alpha 0.05\): 1 change$" d
	expect_no_grep "not the machine's" 'not the code|not a code change' d
}

# --test otava: Apache Otava's method with its parameters, on its own
# test data (tests/fixtures/otava; every assertion of Otava's tests is
# checked in tests/unit/test_otava.c).  TigerBeetle's 365 points, imported
# as one history file (newest first, as `history export` writes it):
# tests/tigerbeetle_test.py test_tb_old_defaults asserts [15, 71].  The
# outlier before a step (issue 39): the change at 15, not at the outlier.
test_detect_otava_method() {
	local tb=$HIST_ROOT/tests/fixtures/otava/tigerbeetle.txt
	/usr/bin/python3 - "$tb" <<'PY' || fail "python"
import json, sys
vals = [float(l) for l in open(sys.argv[1])]
def doc(name, k, v):
    return {"schema": "cbench-results", "schema_version": 2,
            "context": {"started_at": "2026-01-%02dT%02d:00:00Z" % (1 + k // 24, k % 24)},
            "results": [{"command": name, "name": name, "command_line": "./" + name,
                         "times": [v], "runs": {"wall_time": [v]}}]}
inv = [doc("tb", k, v) for k, v in enumerate(vals)]
out = [100 + 0.6 * (((i * 37) % 61 - 30) / 30.0) for i in range(40)]
out = [v * (0.88 if i >= 15 else 1) for i, v in enumerate(out)]
out[10] = 60
inv += [doc("outlier", k, v) for k, v in enumerate(out)]
json.dump({"schema": "cbench-history", "schema_version": 1, "invocations": inv[::-1]},
          open("all.json", "w"))
PY
	cbq history import --history h.db all.json >/dev/null 2>err || fail "import: $(cat err)"
	cb history detect tb --history h.db --all-machines --test otava --window 30 \
		--alpha 0.01 --min-magnitude 0.05 >d 2>err || fail "detect: $(cat err)"
	expect_grep "Otava's parameters" "^'tb' \(wall_time, machines all, 365 points, Otava's method at max_pvalue 0\.01, window 30, min magnitude 0\.05\): 2 changes$" d
	expect_eq "Otava's change points" "$(grep -o 'between #[0-9]* and #[0-9]*' d | tr '\n' ' ')" \
		"between #15 and #16 between #71 and #72 "
	cb history detect outlier --history h.db --all-machines --test otava >d 2>err ||
		fail "detect outlier: $(cat err)"
	expect_grep "the step, at 15" "between #380 and #381:" d
	expect_no_grep "no step at the outlier alone" "between #375 and #376:.*" d
	# Otava's parameters belong to its method.
	cbq history detect tb --history h.db --window 30 >/dev/null 2>err
	expect_eq "--window without otava: exit" "$?" 2
	expect_grep "said" "^cbench: error: --window is a parameter of --test otava$" err
}

# A CPU-bound benchmark whose wall time is noisy (±30 % from one
# invocation to the next, a fixed hash of k) and whose task-clock is
# steady (0.2 %), with a +5 % step at the ninth of sixteen invocations.  share: user + system as a
# part of the task-clock (0.99: computes; 0.1: mostly waits).
make_steady_files() {
	local share=$1 k i b w t sep
	for k in $(seq 1 16); do
		b=1000
		[ "$k" -gt 8 ] && b=1050
		w= t= sep=
		for i in 1 2 3 4 5; do
			w="$w$sep$(awk -v b=$b -v k=$k -v i=$i 'BEGIN{printf "%.6f", b/1e4 * (1 + 0.3 * ((s = sin(k * 12.9898) * 43758.5453) - int(s)) + 0.01 * i)}')"
			t="$t$sep$(awk -v b=$b -v k=$k -v i=$i 'BEGIN{printf "%.6f", b/1e4 * (1 + 0.001 * ((k + i) % 3))}')"
			sep=", "
		done
		jq -n --argjson w "[$w]" --argjson t "[$t]" --argjson s "$share" --arg k "$k" '{schema: "cbench-results", schema_version: 2, context: {started_at: ("2026-02-" + ($k | tonumber | tostring | if length < 2 then "0" + . else . end) + "T10:00:00Z"), hostname: "vm", cpu_model: "cpu", load_average: [1, 1, 1]}, results: [{command: "cpu", name: "cpu", command_line: "./cpu", times: $w, runs: {wall_time: $w, task_clock: $t, user_time: [$t[] * $s], system_time: [$t[] * 0]}}]}' >"cpu$k.json"
		cbq history import --history "h$share.db" --history-label "commit=c$k" \
			"cpu$k.json" >/dev/null 2>err || fail "import $k: $(cat err)"
	done
}

test_detect_prefers_the_steadier_metric() {
	make_steady_files 0.99
	cb history detect cpu --history h0.99.db --all-machines >d 2>err || fail "detect: $(cat err)"
	expect_grep "chosen, and why" "^'cpu' \(task_clock, steadier than wall_time: it sees steps from ±[0-9.]+ %, wall_time from ±[0-9.]+ %, machines all, 16 points, t test at alpha 0\.05\): 1 change$" d
	expect_grep "the step" "^  between #8 and #9: commit c8 -> c9 " d
	expect_grep "its size" "^      100\.[0-9] ms -> 105\.[0-9] ms   \+5\.[0-9] % " d
	# Asked for wall time, the same history: the step is under its noise.
	cb history detect cpu --history h0.99.db --all-machines --metric wall_time >d 2>err ||
		fail "detect wall: $(cat err)"
	expect_grep "wall time misses it" "^'cpu' \(wall_time, machines all, 16 points, t test at alpha 0\.05\): no change \(a step under ±[0-9]+ % would likely be missed\)$" d
	# The page says the same.
	cb history report cpu --history h0.99.db --all-machines --output p.html >/dev/null 2>err ||
		fail "report: $(cat err)"
	expect_grep "page's metric" "<dt>Metric</dt><dd>task-clock, steadier than wall_time: it sees steps from ±" p.html
	expect_grep "page's change" "<tr><td>#8 and #9</td>" p.html
	expect_grep "page's load and CPU share" "<tr><td>#16</td>.*<td>5</td><td>1\.00</td><td>[0-9]+ %</td></tr>$" p.html
	# The newest three invocations without a task-clock: with --limit 6
	# the task-clock's newest six are other invocations than the wall
	# time's, so wall time is read (never a mix of invocations).
	local k
	for k in 17 18 19; do
		jq --arg t "2026-02-${k}T10:00:00Z" 'del(.results[0].runs.task_clock) |
			.context.started_at = $t' cpu16.json >"cpu$k.json"
		cbq history import --history h0.99.db --history-label "commit=c$k" \
			"cpu$k.json" >/dev/null 2>err || fail "import $k: $(cat err)"
	done
	cb history detect cpu --history h0.99.db --all-machines --limit 6 >d 2>err ||
		fail "detect --limit: $(cat err)"
	expect_grep "the same invocations" "^'cpu' \(wall_time, machines all, 6 points" d
	# A command that mostly waits: its CPU time leaves the waits out, so
	# wall time stays, however steady the task-clock.
	make_steady_files 0.1
	cb history detect cpu --history h0.1.db --all-machines >d 2>err || fail "detect: $(cat err)"
	expect_grep "waits: wall time" "^'cpu' \(wall_time, machines all, 16 points" d
	expect_no_grep "not chosen" "task_clock|steadier" d
}

# One run's values are the same doubles in every file that holds them:
# the JSON and CSV exports, the history they were recorded in (its JSON
# and CSV exports), and a history that imported the JSON file.  cJSON's
# own number printing gave about one value in twenty a unit in the last
# place off.
test_per_run_values_identical_everywhere() {
	cbq -r 40 -N "$HELPERS/touch_pages 10" --export-json r.json --export-csv-runs r.csv \
		--history h.db --style none >/dev/null 2>err || fail "run: $(cat err)"
	cbq history export --history h.db --output hx.json >/dev/null 2>err || fail "export json"
	cbq history export --history h.db --format csv --output hx.csv >/dev/null 2>err ||
		fail "export csv"
	cbq history import --history imported.db r.json >/dev/null 2>err || fail "import: $(cat err)"
	cbq history export --history imported.db --format csv --output ix.csv >/dev/null 2>err ||
		fail "export imported"
	/usr/bin/python3 - <<'PY' || fail "values differ"
import csv, json
runs = json.load(open("r.json"))["results"][0]["runs"]
hj = json.load(open("hx.json"))["invocations"][0]["results"][0]["runs"]
files = {"CSV": list(csv.DictReader(open("r.csv"))),
         "history CSV": list(csv.DictReader(open("hx.csv"))),
         "imported history CSV": list(csv.DictReader(open("ix.csv")))}
n = 0
for metric in ("wall_time", "user_time", "system_time", "task_clock", "peak_rss"):
    if metric not in runs:
        continue
    for i, v in enumerate(runs[metric]):
        if v is None:
            continue
        assert hj[metric][i] == v, ("history JSON", metric, i, hj[metric][i], v)
        for name, rows in files.items():
            assert float(rows[i][metric]) == v, (name, metric, i, rows[i][metric], v)
        n += 1
assert n >= 120, n
PY
}

test_export_json_is_cbench_results_and_csv_has_every_run() {
	rec c1 -n a "$HELPERS/touch_pages 10" >/dev/null 2>&1 || fail "record"
	rec c2 -n a "$HELPERS/touch_pages 10" >/dev/null 2>&1 || fail "record"
	cb history export --history h.db --output all.json || fail "export"
	# The documented shape (README, "History"): a cbench-history document
	# whose invocations are cbench-results documents.
	expect_eq "schema" "$(jq -r .schema all.json)" cbench-history
	expect_eq "invocations" "$(jq '.invocations | length' all.json)" 2
	expect_eq "newest first" "$(jq -r '.invocations[0].history.commit' all.json)" c2
	expect_eq "inner schema" "$(jq -r '.invocations[0].schema' all.json)" cbench-results
	expect_eq "runs" "$(jq '.invocations[0].results[0].runs.wall_time | length' all.json)" 3
	jq '.invocations[1]' all.json >old.json
	jq '.invocations[0]' all.json >new.json
	# 0 or 3: the verdict rests on two runs' peak RSS, which may differ
	# by more than the threshold; either way the files were compared.
	cbq compare old.json new.json --gate-metric peak_rss >cmp 2>err
	rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 3 ] || fail "compare reads it: exit $rc: $(cat err)"
	expect_grep "compared" "^Result: " cmp
	cb history export --history h.db --format csv >runs.csv || fail "csv"
	expect_eq "csv rows" "$(wc -l <runs.csv)" 7
	expect_grep "header" "^invocation,recorded_at,commit,branch,machine,benchmark,command,run,wall_time," runs.csv
	# Into another history, every run intact.
	cb history import --history copy.db all.json >imp || fail "import export"
	expect_grep "imported" "^all.json: recorded as invocations 1 to 2 in copy.db$" imp
	cbq history export --history copy.db --output back.json || fail "export copy"
	expect_eq "runs kept" "$(jq -c '[.invocations[].results[].runs.wall_time]' back.json)" \
		"$(jq -c '[.invocations[].results[].runs.wall_time]' all.json)"
	expect_eq "machine kept" "$(jq -c '[.invocations[].history.machine]' back.json)" \
		"$(jq -c '[.invocations[].history.machine]' all.json)"
	expect_eq "labels kept" "$(jq -c '[.invocations[].history.labels]' back.json)" \
		'[{"branch":"main","commit":"c2"},{"branch":"main","commit":"c1"}]'
}

# hyperfine's documented --export-json format (results[].command, mean,
# stddev, median, user, system, min, max, times, exit_codes).
test_import_hyperfine_keeps_it_apart() {
	cat >hf.json <<'EOF'
{"results": [{"command": "sleep 0.01", "mean": 0.0105, "stddev": 0.0002,
  "median": 0.0105, "user": 0.0004, "system": 0.0006, "min": 0.0103,
  "max": 0.0107, "times": [0.0103, 0.0105, 0.0107], "exit_codes": [0, 0, 0]}]}
EOF
	cbq history import --history h.db hf.json >o 2>err || fail "import: $(cat err)"
	expect_grep "recorded" "^hf.json: recorded as invocation 1 in h.db$" o
	cbq history list --history h.db --machine hyperfine >l || fail "list"
	expect_grep "machine" "^ +1  .* hyperfine +sleep 0.01$" l
	echo '{"results": [' >bad.json
	cbq history import --history h.db bad.json >/dev/null 2>err
	expect_eq "malformed" "$?" 2
	expect_grep "where" "bad.json: malformed JSON at line" err
}

test_prune_by_count_and_age_says_which() {
	local k
	for k in 1 2 3 4; do
		rec "c$k" "$HELPERS/touch_pages 10" >/dev/null 2>&1 || fail "record"
	done
	cb history prune --history h.db --keep 2 >p || fail "prune"
	expect_grep "which" "^Removed 2 invocations \(beyond the newest 2\): 1 2$" p
	cbq history prune --history h.db --older-than 30d >p || fail "prune age"
	expect_grep "none" "^Nothing to remove \(no invocation older than 30d\)\.$" p
	expect_eq "samples gone" "$(sql h.db 'SELECT count(DISTINCT benchmark_id) FROM cbench_samples')" 2
	cbq history prune --history h.db >/dev/null 2>err
	expect_eq "no limit" "$?" 2
	cbq history prune --history h.db --older-than soon >/dev/null 2>err
	expect_eq "bad age" "$?" 2
	expect_grep "bad age message" "older-than 'soon'" err
}

test_gate_against_history() {
	faults_countable || skip "page faults are not countable here"
	local k
	for k in 1 2 3 4; do
		rec "base$k" -n work "$HELPERS/touch_pages 500" >/dev/null 2>&1 || fail "record $k"
	done
	cb --history h.db --baseline-history --history-window 3 --history-branch main \
		--gate-metric page_faults --history-label branch=pr --match-by name -r 3 -n work \
		"$HELPERS/touch_pages 8000" >out 2>err
	expect_eq "regression exit" "$?" 3
	expect_grep "base" "the history \(newest 3 invocations of main\)" out
	expect_grep "row" "^  work .* regression$" out
	cbq --history h.db --baseline-history --history-branch main --gate-metric page_faults \
		--history-label branch=pr -r 3 -n work "$HELPERS/touch_pages 500" >out 2>err ||
		fail "same work: exit $?: $(cat out err)"
	expect_grep "noise" "^Result: no regression" out
	# Nothing recorded for it: an input error before anything runs.
	cbq --history h.db --baseline-history --history-branch nosuch -r 3 -n work \
		--prepare "touch ran" "$HELPERS/touch_pages 500" >out 2>err
	expect_eq "no history exit" "$?" 2
	expect_grep "message" "fewer than 2 invocations of this benchmark on this machine" err
	[ ! -e ran ] || fail "ran although the gate could not be made"
	cbq --baseline-history -r 3 "$HELPERS/touch_pages 10" >/dev/null 2>err
	expect_eq "no target" "$?" 2
	cbq --history h.db --history-window 3 -r 3 "$HELPERS/touch_pages 10" >/dev/null 2>err
	expect_eq "window without gate" "$?" 2
	cbq --history h.db --history-label nokey -r 3 "$HELPERS/touch_pages 10" >/dev/null 2>err
	expect_eq "bad label" "$?" 2
}

# ---- faults ----

# The file is refused with exit 2 and left as it was.
expect_refused() {
	local what=$1 pattern=$2
	cp h.db before
	cbq --history h.db -r 3 "$HELPERS/touch_pages 10" >/dev/null 2>err
	expect_eq "$what: exit" "$?" 2
	expect_grep "$what: message" "$pattern" err
	cmp -s h.db before || fail "$what: the file was changed"
}

test_not_a_history_is_refused_unchanged() {
	printf 'name,value\nx,1\n' >h.db
	expect_refused "text file" "h.db is not a cbench history \(not an SQLite database\)"
	rm h.db
	"$PY" -c 'import sqlite3; c = sqlite3.connect("h.db"); c.execute("CREATE TABLE songs (t TEXT)"); c.commit()'
	expect_refused "foreign database" "an SQLite database of another program"
	rm h.db
	rec c1 "$HELPERS/touch_pages 10" >/dev/null 2>&1 || fail "record"
	"$PY" -c 'import sqlite3; c = sqlite3.connect("h.db"); c.execute("PRAGMA journal_mode=DELETE"); c.execute("UPDATE cbench_meta SET value = 9 WHERE key = '"'version'"'"); c.commit()'
	expect_refused "newer schema" "schema version 9, made by a newer cbench; this one knows versions 1 to [0-9]+: upgrade cbench"
	cbq history list --history h.db >/dev/null 2>err
	expect_eq "list newer" "$?" 2
}

test_read_only_database() {
	rec c1 "$HELPERS/touch_pages 10" >/dev/null 2>&1 || fail "record"
	local run=()
	if [ "$(id -u)" = 0 ]; then
		command -v setpriv >/dev/null || skip "root without setpriv: cannot drop the right to write"
		run=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
		chmod 755 .
		chmod 644 h.db
	else
		chmod 444 h.db
	fi
	"${run[@]}" "$CBENCH" --history "$PWD/h.db" -r 3 "$HELPERS/touch_pages 10" >/dev/null 2>err
	expect_eq "exit" "$?" 1
	expect_grep "message" "cannot write to the history .*h.db" err
	# Reading still works.
	"${run[@]}" "$CBENCH" history list --history "$PWD/h.db" >l 2>err ||
		fail "read-only list: $(cat err)"
	expect_grep "row" "^ +1  " l
}

test_full_disk_keeps_the_history_consistent() {
	[ "$(id -u)" = 0 ] || skip "mounting a small tmpfs needs root"
	mkdir full
	mount -t tmpfs -o size=256k tmpfs full 2>/dev/null || skip "cannot mount a tmpfs here"
	cbq --history full/h.db -r 3 -n a "$HELPERS/touch_pages 10" >/dev/null 2>&1 ||
		{ umount full; fail "first record"; }
	dd if=/dev/zero of=full/filler bs=4k 2>/dev/null
	cbq --history full/h.db -r 200 -n b "$HELPERS/touch_pages 10" "$HELPERS/touch_pages 11" \
		>/dev/null 2>err
	local rc=$?
	rm -f full/filler
	cbq history list --history full/h.db >l 2>&1
	local lrc=$?
	umount full
	expect_eq "exit" "$rc" 1
	expect_grep "message" "cannot write to the history full/h.db: the disk is full" err
	expect_eq "list after" "$lrc" 0
	expect_eq "only the first" "$(grep -cE '^ +[0-9]+  ' l)" 1
}

test_locked_by_another_writer() {
	rec c1 "$HELPERS/touch_pages 10" >/dev/null 2>&1 || fail "record"
	"$PY" -c 'import sqlite3, os, time
c = sqlite3.connect("h.db", isolation_level=None)
c.execute("BEGIN IMMEDIATE")
open("locked", "w").close()
while not os.path.exists("release"):
    time.sleep(0.01)
c.execute("ROLLBACK")' &
	local py=$!
	while [ ! -e locked ]; do sleep 0.01; done
	CBENCH_HISTORY_BUSY_MS=200 cbq --history h.db -r 3 "$HELPERS/touch_pages 10" >/dev/null 2>err
	local rc=$?
	touch release
	wait "$py"
	expect_eq "exit" "$rc" 1
	expect_grep "message" "the history h.db is locked by another writer \(waited 0.2 s\)" err
	rec c2 "$HELPERS/touch_pages 10" >/dev/null 2>&1 || fail "record after release"
	expect_eq "count" "$(sql h.db 'SELECT count(*) FROM cbench_invocation')" 2
}

test_parallel_writers_all_recorded() {
	rec c0 "$HELPERS/touch_pages 10" >/dev/null 2>&1 || fail "create"
	local k pids=()
	for k in 1 2 3 4; do
		rec "p$k" "$HELPERS/touch_pages 10" >"o$k" 2>&1 &
		pids+=($!)
	done
	for k in "${pids[@]}"; do
		wait "$k" || fail "a parallel writer failed: $(cat o*)"
	done
	expect_eq "count" "$(sql h.db 'SELECT count(*) FROM cbench_invocation')" 5
	expect_eq "benchmarks" "$(sql h.db 'SELECT count(DISTINCT invocation_id) FROM cbench_benchmark')" 5
}

test_killed_writer_leaves_nothing_half_written() {
	rec c1 -n a "$HELPERS/touch_pages 10" >/dev/null 2>&1 || fail "record"
	# The test hook kills cbench with SIGKILL inside the transaction,
	# after the first of two benchmarks' rows.
	CBENCH_HISTORY_FAULT=kill "$CBENCH" --history h.db -r 3 -n a -n b \
		"$HELPERS/touch_pages 10" "$HELPERS/touch_pages 20" >/dev/null 2>&1
	expect_eq "killed" "$?" 137
	expect_eq "integrity" "$(sql h.db 'PRAGMA integrity_check')" ok
	expect_eq "invocations" "$(sql h.db 'SELECT count(*) FROM cbench_invocation')" 1
	expect_eq "benchmarks" "$(sql h.db 'SELECT count(*) FROM cbench_benchmark')" 1
	rec c2 -n a "$HELPERS/touch_pages 10" >/dev/null 2>&1 || fail "record after"
	expect_eq "after" "$(sql h.db 'SELECT count(*) FROM cbench_invocation')" 2
}

test_history_subcommand_usage_errors() {
	cbq history >/dev/null 2>err
	expect_eq "no subcommand" "$?" 2
	cbq history frobnicate --history h.db >/dev/null 2>err
	expect_eq "unknown" "$?" 2
	expect_grep "unknown message" "unknown history subcommand 'frobnicate'" err
	cbq history detcet --history h.db >/dev/null 2>err
	expect_eq "misspelt" "$?" 2
	expect_grep "did you mean" "unknown history subcommand 'detcet' \(did you mean detect\?\)$" err
	cbq history detect --history h.db --alhpa 0.1 >/dev/null 2>err
	expect_eq "misspelt option" "$?" 2
	expect_grep "did you mean, option" "unknown option '--alhpa' for 'cbench history detect' \(did you mean --alpha\?\)$" err
	cbq history list --history h.db --keep 3 >/dev/null 2>err
	expect_eq "misplaced option" "$?" 2
	expect_grep "misplaced message" "--keep does not apply to 'cbench history list'" err
	cbq history show x --history h.db >/dev/null 2>err
	expect_eq "bad id" "$?" 2
	cbq history trend a --metric nosuch --history h.db >/dev/null 2>err
	expect_eq "bad metric" "$?" 2
	cbq history export --history h.db --format xml >/dev/null 2>err
	expect_eq "bad format" "$?" 2
	cbq history detect --history h.db --limit 0 >/dev/null 2>err
	expect_eq "bad limit" "$?" 2
	cbq history --help >help || fail "help"
	expect_grep "help" "^  trend BENCH " help
	expect_grep "help option" "^  --older-than AGE " help
	expect_grep "libpq" "^PostgreSQL targets: (supported \(built with libpq\)|not supported \(built without libpq\))\.$" help
}

# ---- PostgreSQL ----

PG_BIN=""
find_pg() {
	local d
	for d in /usr/lib/postgresql/*/bin; do
		[ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && PG_BIN=$d
	done
	[ -n "$PG_BIN" ]
}

# Skips unless PostgreSQL's server binaries are here and cbench has libpq.
need_pg() {
	find_pg || skip "PostgreSQL server binaries (initdb, pg_ctl) not installed"
	"$CBENCH" history list --history "postgresql:///x?host=/nonexistent" >/dev/null 2>err
	! grep -q "without PostgreSQL support" err || skip "this cbench was built without libpq"
}

# Start a server in $T/pg listening on a Unix socket in $T/sock only, as
# an unprivileged user when run as root.  Sets PGURL; stop with pg_stop.
PG_AS=()
pg_start() {
	mkdir -p pg sock pglog
	if [ "$(id -u)" = 0 ]; then
		command -v setpriv >/dev/null || skip "root without setpriv: initdb refuses root"
		PG_AS=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
		chmod 755 "$T"
		chown nobody pg sock pglog
	fi
	"${PG_AS[@]}" "$PG_BIN/initdb" -D "$T/pg" -U cbench --auth=trust -E UTF8 \
		>initdb.log 2>&1 || fail "initdb: $(tail -5 initdb.log)"
	"${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$T/pg" -l "$T/pglog/pg.log" -w -s \
		-o "-c listen_addresses='' -k $T/sock -c fsync=off" start >/dev/null 2>&1 ||
		fail "pg_ctl start: $(tail -5 "$T/pglog/pg.log")"
	PGURL="postgresql:///postgres?host=$T/sock&user=cbench"
}

pg_stop() {
	"${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$T/pg" -m fast -w -s stop >/dev/null 2>&1
}

test_postgresql_real_server() {
	need_pg
	pg_start
	trap pg_stop EXIT
	# First use by two writers at once: the schema is created once.
	cb --history "$PGURL" --history-label commit=pg1 -r 3 -n a "$HELPERS/touch_pages 500" \
		>o1 2>&1 &
	local p1=$!
	cbq --history "$PGURL" --history-label commit=pg2 -r 3 -n a "$HELPERS/touch_pages 500" \
		>o2 2>&1 || fail "second writer: $(cat o2)"
	wait "$p1" || fail "first writer: $(cat o1)"
	cbq --history "$PGURL" --history-label commit=pg3 -r 3 -n a "$HELPERS/touch_pages 8000" \
		>/dev/null 2>&1 || fail "third"
	cbq history list --history "$PGURL" >l 2>err || fail "list: $(cat err)"
	expect_eq "rows" "$(grep -cE '^ +[0-9]+  ' l)" 3
	expect_grep "backend" "\(PostgreSQL\)$" l
	cbq history trend a --metric minor_faults --history "$PGURL" >t 2>err || fail "trend: $(cat err)"
	expect_grep "sparkline" "^  ▁▁█$" t
	cbq history export --history "$PGURL" --output pg.json || fail "export"
	expect_eq "runs back" "$(jq '[.invocations[].results[].runs.wall_time | length] | add' pg.json)" 9
	cbq history prune --history "$PGURL" --keep 1 >p || fail "prune"
	expect_grep "pruned" "^Removed 2 invocations" p
	pg_stop
	trap - EXIT
	cbq history list --history "$PGURL" >/dev/null 2>err
	expect_eq "server gone" "$?" 1
	expect_grep "message" "^cbench: error: PostgreSQL history: " err
}

test_postgresql_non_utf8_text() {
	need_pg
	pg_start
	trap pg_stop EXIT
	non_utf8_recorded "$PGURL"
	pg_stop
	trap - EXIT
}

# PostgreSQL never makes cbench wait forever (issue 46): a server that
# accepts and never answers (the connection's time limit), another
# session holding the history's lock (refused before anything runs, the
# lock named), and a backend frozen after the runs (the statement's time
# limit; the exports are written before the history).
test_postgresql_time_limits() {
	need_pg
	local psql=$PG_BIN/psql
	[ -x "$psql" ] || psql=$(command -v psql) || skip "psql not installed"
	mkdir silent
	/usr/bin/python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1] + "/.s.PGSQL.5432")
s.listen(8)
print("listening", flush=True)
held = []
while True:
    held.append(s.accept()[0])
' "$T/silent" >silent.log 2>&1 &
	local fake=$!
	until grep -q listening silent.log; do
		kill -0 "$fake" 2>/dev/null || fail "the silent server: $(cat silent.log)"
		sleep 0.05   # polling, not waiting out a race
	done
	CBENCH_HISTORY_TIMEOUT_MS=2000 cb -r 1 -N "touch ran" \
		--history "postgresql:///x?host=$T/silent" >out 2>err
	expect_eq "silent server: exit" "$?" 1
	expect_eq "one line" "$(wc -l <err)" 1
	expect_grep "names the connection" "^cbench: error: PostgreSQL history: no connection within 2 s \(wait longer with CBENCH_HISTORY_TIMEOUT_MS\)$" err
	[ ! -e ran ] || fail "the benchmark ran"
	kill "$fake"

	pg_start
	trap pg_stop EXIT
	cbq -r 1 -n a true --history "$PGURL" >/dev/null 2>err || fail "first: $(cat err)"
	# 0x63626e63, the key cbench locks ("cbnc")
	"$psql" -X -q "$PGURL" -c "SELECT pg_advisory_lock(1667395171)" \
		-c "SELECT pg_sleep(120)" >holder.log 2>&1 &
	local holder=$! tries=0
	until [ "$("$psql" -X -tA "$PGURL" -c "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted")" = 1 ]; do
		tries=$((tries + 1))
		[ "$tries" -lt 1000 ] || fail "the lock was never taken: $(cat holder.log)"
		sleep 0.05   # polling, not waiting out a race
	done
	CBENCH_HISTORY_BUSY_MS=500 cb -r 1 -N "touch ran" --history "$PGURL" >out 2>err
	expect_eq "lock held: exit" "$?" 1
	expect_eq "one line" "$(wc -l <err)" 1
	expect_grep "names the lock" "^cbench: error: PostgreSQL history: another session held a lock on the history for 0.5 s \(wait longer with CBENCH_HISTORY_BUSY_MS\)$" err
	[ ! -e ran ] || fail "the benchmark ran"
	"$psql" -X -q "$PGURL" -c "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory'" \
		>/dev/null 2>&1 || fail "the holder could not be ended"
	wait "$holder" 2>/dev/null

	# The benchmark stops the backend serving cbench's connection.
	cat >freeze.sh <<EOF
#!/bin/sh
pid=\$("$psql" -X -tA "$PGURL" -c "SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()")
[ -n "\$pid" ] && kill -STOP \$pid && echo \$pid >>frozen.pids
EOF
	chmod +x freeze.sh
	CBENCH_HISTORY_TIMEOUT_MS=4000 cb -r 1 -N ./freeze.sh --history "$PGURL" \
		--export-json r.json >out 2>err
	local rc=$?
	[ -s frozen.pids ] && kill -CONT $(cat frozen.pids)
	expect_eq "frozen backend: exit" "$rc" 1
	expect_grep "names the silence" "^cbench: error: PostgreSQL history: the server did not answer for 4 s \(wait longer with CBENCH_HISTORY_TIMEOUT_MS\)$" err
	jq -e '.results[0].runs.wall_time | length == 1' r.json >/dev/null ||
		fail "the export was not written first: $(head -c 200 r.json)"
	pg_stop
	trap - EXIT
}

# A PostgreSQL password (in the URL's user part, or a password=
# parameter, given as --history or CBENCH_HISTORY) is never printed or
# stored: the notes, the JSON and HTML exports, the history's argv, its
# export and list (issue 46).  The server trusts the socket, so the
# passwords are not needed to connect, only carried.
test_postgresql_password_never_shown() {
	need_pg
	pg_start
	trap pg_stop EXIT
	local url1="postgresql://cbench:Pw1sEcReT@/postgres?host=$T/sock"
	local url2="postgresql:///postgres?host=$T/sock&user=cbench&password=Pw2sEcReT"
	cb -r 2 -n a true --history "$url1" --export-json a.json --export-html a.html \
		>o1 2>e1 || fail "url1: $(cat e1)"
	CBENCH_HISTORY=$url2 cb -r 2 -n a true --export-json b.json >o2 2>e2 ||
		fail "url2: $(cat e2)"
	expect_grep "recorded, masked" "^cbench: note: recorded in the history postgresql://cbench:\*\*\*@/postgres\?host=.* as invocation 1$" e1
	cbq history list --history "$url1" >l 2>&1 || fail "list: $(cat l)"
	cbq history export --history "$url2" --output ex.json 2>&1 || fail "export"
	expect_grep "the argv kept, masked" '"--history", "postgresql://cbench:\*\*\*@/postgres' ex.json
	expect_grep "the list names it, masked" "in postgresql://cbench:\*\*\*@" l
	local f
	for f in o1 e1 o2 e2 a.json a.html b.json l ex.json; do
		expect_no_grep "$f: no password" "sEcReT" "$f"
	done
	pg_stop
	trap - EXIT
}

# Labels round-trip byte for byte through export and import: spaces, '='
# and UTF-8 in a value (issue 46: `history export` cut a value at its
# first space).
test_labels_round_trip_through_export_and_import() {
	cbq -r 2 -n a true --history h.db --history-label "note=hello big world" \
		--history-label "eq=a=b  c" --history-label "u=größe ✓" >/dev/null 2>err ||
		fail "record: $(cat err)"
	cbq history export --history h.db --output e1.json 2>err || fail "export: $(cat err)"
	jq -e '.invocations[0].history.labels == {"note": "hello big world", "eq": "a=b  c", "u": "größe ✓"}' \
		e1.json >/dev/null || fail "exported: $(jq -c '.invocations[0].history.labels' e1.json)"
	cbq history import --history h2.db e1.json >/dev/null 2>err || fail "import: $(cat err)"
	cbq history export --history h2.db --output e2.json 2>err || fail "export again: $(cat err)"
	expect_eq "the same labels after the round trip" \
		"$(jq -c '.invocations[0].history.labels' e2.json)" \
		"$(jq -c '.invocations[0].history.labels' e1.json)"
	cbq history show 1 --history h2.db >s 2>err || fail "show: $(cat err)"
	expect_grep "shown" "^  Labels: +eq=a=b  c note=hello big world u=größe ✓$" s
}

# Bytes that are not UTF-8 in a name, a command and a label: recorded by
# both back ends (PostgreSQL refused them and recorded nothing) and read
# back alike, as U+FFFD, found again by the name as given, and every
# export of the history valid UTF-8 (issue 46).
non_utf8_recorded() {
	local h=$1
	cbq -r 2 -N -n $'n\xff' $'true #\xfe' --history "$h" \
		--history-label $'k=v\xfd' >/dev/null 2>err || fail "$h: record: $(cat err)"
	cbq history export --history "$h" --output ex.json 2>err || fail "$h: export: $(cat err)"
	iconv -f UTF-8 -t UTF-8 ex.json >/dev/null 2>&1 || fail "$h: the export is not UTF-8"
	jq -e '.invocations[0].results[0].name == "n\ufffd" and
	       .invocations[0].results[0].command_line == "true #\ufffd" and
	       .invocations[0].history.labels.k == "v\ufffd"' ex.json >/dev/null ||
		fail "$h: exported: $(jq -c '.invocations[0] | [.results[0].name, .results[0].command_line, .history.labels]' ex.json)"
	cbq history report $'n\xff' --history "$h" --output r.html 2>err ||
		fail "$h: report: $(cat err)"
	iconv -f UTF-8 -t UTF-8 r.html >/dev/null 2>&1 || fail "$h: the report is not UTF-8"
	expect_grep "$h: the report names it" "<title>History of n"$'\xef\xbf\xbd'"</title>" r.html
	cbq history trend $'n\xff' --history "$h" >t 2>err || fail "$h: trend: $(cat err)"
	expect_grep "$h: found by the name as given" ", 1 invocation, oldest first:$" t
}

test_non_utf8_text_in_the_history() {
	non_utf8_recorded h.db
	# other bytes kept as given in the file, read back clean
	sqlite3 h.db "UPDATE cbench_benchmark SET name = CAST(X'6E2FFF' AS TEXT)" ||
		skip "the sqlite3 shell is not installed"
	cbq history export --history h.db --output old.json 2>err || fail "export: $(cat err)"
	iconv -f UTF-8 -t UTF-8 old.json >/dev/null 2>&1 || fail "the export is not UTF-8"
	expect_eq "raw bytes read as U+FFFD" "$(jq -r '.invocations[0].results[0].name' old.json)" \
		$'n/\xef\xbf\xbd'
	# a run's own HTML page, as its JSON
	cbq -r 2 -N -n $'n\xff' $'true #\xfe' --export-html run.html >/dev/null 2>err ||
		fail "run: $(cat err)"
	iconv -f UTF-8 -t UTF-8 run.html >/dev/null 2>&1 || fail "the run's page is not UTF-8"
	expect_grep "the run's page names it" "n"$'\xef\xbf\xbd' run.html
}

# A history deleted while the benchmarks run (here by the benchmark
# itself, so no race): the invocation goes into a new file at that path,
# with a warning, never "recorded" into a file that is gone (issue 46).
test_history_deleted_during_the_run() {
	cbq -r 1 -n first true --history h.db >/dev/null 2>err || fail "first: $(cat err)"
	cbq -r 1 -n del "rm -f h.db h.db-wal h.db-shm h.db-journal" --history h.db >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "warned" "^cbench: warning: the history h.db was deleted or replaced during the run: recording into the file now at that path$" err
	expect_grep "recorded" "^cbench: note: recorded in the history h.db as invocation 1$" err
	[ -f h.db ] || fail "no h.db"
	cbq history list --history h.db >l 2>err || fail "list: $(cat err)"
	expect_grep "the new file holds it" "^ +1 .* del$" l
	expect_no_grep "and only it" " first$" l
	# Not deleted: no warning.
	cbq -r 1 -n again true --history h.db >out 2>err || fail "again: $(cat err)"
	expect_no_grep "no warning" "deleted or replaced" err
	expect_grep "the second" "as invocation 2$" err
}

# `history import` reads as --baseline does: a device that never ends is
# refused at once, not read forever (issue 46, item 13); a real file
# beside it is imported.
test_import_refuses_devices() {
	cbq history import --history h.db /dev/urandom >out 2>err
	expect_eq "exit" "$?" 2
	expect_eq "message" "$(cat err)" "cbench: error: cannot read '/dev/urandom': it is a character device, not a regular file of results"
	[ ! -s out ] || fail "stdout: $(cat out)"
	mkdir adir
	cbq history import --history h.db adir >out 2>err
	expect_eq "directory: exit" "$?" 2
	expect_grep "directory" "it is a directory, not a results file$" err
	printf '{"results": [{"command": "x", "mean": 1, "times": [1.0, 1.0]}]}\n' >ok.json
	cbq history import --history h.db ok.json >out 2>err || fail "a real file: $(cat err)"
	expect_grep "imported" "recorded as invocation 1" out
}

# Text from the history is printed escaped, as everything cbench prints
# that came from a user or a file: a name with a newline and a workflow
# command, a label with a terminal escape, never reach the terminal raw
# (issue 46, item 7).
# A file-size limit met while the history is created: one line, exit 1,
# and no half-made history, -wal or -shm left (SIGXFSZ is ignored from
# the start, so the write fails instead of killing cbench).  Run without
# the valgrind wrapper, whose own files the limit would cut.
test_file_size_limit_while_creating_the_history() {
	(ulimit -f 4; "$CBENCH" -r 2 -n a true --history x.db >out 2>err)
	expect_eq "exit" "$?" 1
	expect_grep "one line" '^cbench: error: history x\.db: .*File too large' err
	expect_eq "one line only" "$(wc -l <err)" 1
	[ -z "$(ls x.db* 2>/dev/null)" ] || fail "left behind: $(ls x.db*)"
	"$CBENCH" -r 2 -n a true --history x.db >out 2>err || fail "without the limit: $(cat err)"
	[ -s x.db ] || fail "no history without the limit"
}

# Too few file descriptors: no run happens, and no invocation of 0 runs
# is recorded (the history stays empty); with enough, one is.
test_no_runs_nothing_recorded() {
	(ulimit -n 9; "$CBENCH" -r 2 -n a true --history h.db >out 2>err)
	expect_eq "exit" "$?" 1
	expect_grep "said" 'not recorded in the history: the benchmarks did not complete' err
	cb history list --history h.db >out 2>err
	expect_grep "nothing recorded" '^No invocation in the history' out
	cb -r 2 -n a true --history h.db >/dev/null 2>&1 || fail "with enough descriptors"
	cb history list --history h.db >out 2>err
	expect_grep "one recorded" '^1 invocation' out
}

# A read-only history is opened by a URI with its name percent-encoded:
# "p%41.db" is that file, not "pA.db"; "?" and "#" are part of the name.
test_read_only_history_names_are_not_uri_syntax() {
	cb -r 2 -n in-pA true --history pA.db >/dev/null 2>&1 || fail "pA.db"
	cb -r 2 -n in-p41 true --history 'p%41.db' >/dev/null 2>&1 || fail "p%41.db"
	cb -r 2 -n in-q true --history 'q?x#y.db' >/dev/null 2>&1 || fail "q?x#y.db"
	chmod 444 pA.db 'p%41.db' 'q?x#y.db'
	run_as_nobody "$CBENCH" history list --history "$T/p%41.db" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "its own rows" ' in-p41$' out
	expect_no_grep "not pA.db's" 'in-pA' out
	run_as_nobody "$CBENCH" history list --history "$T/q?x#y.db" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "? and # in the name" ' in-q$' out
}

test_history_views_escape_stored_text() {
	local name=$'n1\n::error title=x::pwned' label=$'note=br\e]0;TITLE\a' k
	# a name cbench itself refuses (-n) comes in through an import
	for k in 1 2; do
		printf '{"results": [{"command": "n1\\n::error title=x::pwned", "mean": 1, "times": [1.0, 1.%d]}]}\n' \
			"$k" >"i$k.json"
		cbq history import --history h.db --history-label "$label" "i$k.json" \
			>/dev/null 2>err || fail "import $k: $(cat err)"
	done
	local view
	for view in "list" "show 1" "trend" "detect"; do
		case $view in
		trend) cbq history trend "$name" --history h.db --all-machines >v 2>&1 ;;
		detect) cbq history detect --history h.db --all-machines >v 2>&1 ;;
		*) cbq history $view --history h.db >v 2>&1 ;;
		esac
		expect_eq "$view: exit" "$?" 0
		expect_no_grep "$view: no workflow command" '^::' v
		if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' v; then
			fail "$view: a raw control character: $(od -c v | head -5)"
		fi
	done
	cbq history show 1 --history h.db >v 2>&1
	expect_grep "the name, escaped" 'n1\\n::error title=x::pwned' v
	expect_grep "the label, escaped" 'note=br\\x1b\]0;TITLE\\x07' v
}
