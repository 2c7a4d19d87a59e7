# tests/e2e/metric.sh: custom metrics read from the command's output
# (--metric NAME=REGEX[,unit=U][,higher-is-better]) through statistics, the
# terminal report, comparisons, gates (--baseline, --reference, cbench
# compare, the history), every export and the history.
#
# The values are deterministic: each command prints numbers it reads from
# a file or computes from a counter file, so statistics are checked against
# Python's statistics module on the values the commands printed, and gate
# decisions rest on differences far beyond their spread.

MT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
MT_PY=(/usr/bin/python3 "$MT_ROOT/tests/tools/ci_formats.py")

# A command printing "v: K*K" on run K (0, 1, 4, 9, ...), counting in ./k.
mt_squares() {
	echo 0 >k
	printf '%s' "sh -c 'k=\$(cat k); echo \$((k + 1)) >k; echo \"v: \$((k * k))\"'"
}

test_metric_statistics_and_report() {
	cmd=$(mt_squares)
	cb -v -r 5 --metric 'v=^v: ([0-9]+)$,unit=items' --export-json r.json "$cmd" \
		>out 2>err || fail "exit $?: $(cat err)"
	expect_grep "the report line, with its unit" '^  v: +6\.000 items ± 6\.595 items' out
	/usr/bin/python3 - r.json <<'PY' || fail "statistics: $(head -c 600 r.json)"
import json, statistics, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
vals = r["runs"]["v"]
assert vals == [0, 1, 4, 9, 16], vals          # what the command printed
m = r["metrics"]["v"]
# expected values: Python's statistics module on those values
assert m["n"] == 5 and m["unit"] == "items", m
assert m["mean"] == statistics.mean(vals), m    # 6
assert abs(m["stddev"] - statistics.stdev(vals)) < 1e-12, m
assert m["median"] == statistics.median(vals) and m["min"] == 0 and m["max"] == 16, m
assert m["mean_ci"][0] < 6 < m["mean_ci"][1], m
assert d["units"]["v"] == "items", d["units"]
assert d["custom_metrics"] == {"v": {"pattern": "^v: ([0-9]+)$", "unit": "items",
                                     "higher_is_better": False}}, d["custom_metrics"]
# the built-in metrics are still there
assert r["metrics"]["wall_time"]["n"] == 5
PY
}

# Values near the largest double are shown in scientific notation with
# their magnitude, and a spread that overflowed as n/a (the JSON's null),
# never as a truncated number or "± 0".
test_metric_huge_values_shown_as_they_are() {
	printf '#!/bin/sh\nif [ "$CBENCH_ITERATION" = 1 ]; then echo "s: -1.7e308"; else echo "s: 1.7e308"; fi\n' >huge.sh
	chmod +x huge.sh
	cb -v -N -r 3 --metric 's=^s: (.*)$' --export-json h.json ./huge.sh >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "magnitude kept" '^  s: +5\.667e\+307 ± n/a$' out
	expect_eq "the JSON's spread" "$(jq -c '.results[0].metrics.s.stddev' h.json)" null
	printf '#!/bin/sh\necho "s: 1.7e308"\n' >same.sh
	chmod +x same.sh
	cb -v -N -r 3 --metric 's=^s: (.*)$' ./same.sh >out 2>err || fail "exit $?: $(cat err)"
	expect_grep "one value, exactly" '^  s: +1\.7e\+308 ± 0$' out
}

# The output is read a block at a time: 150 MB of output (one line, cut
# to its first MiB) is searched under a 120 MB address-space limit, which
# a copy of the whole output does not fit (it ran out of memory).
test_metric_output_in_bounded_memory() {
	ldd "$CBENCH" | grep -q libasan && skip "an address-space limit under AddressSanitizer"
	printf '#!/bin/sh\nhead -c 150000000 /dev/zero | tr "\\0" a\necho\necho "v: 42"\n' >big.sh
	chmod +x big.sh
	(ulimit -v 120000; "$CBENCH" -N -r 2 --style none --metric 'v=^v: ([0-9]+)$' \
		--export-json b.json ./big.sh >out 2>err) || fail "exit $?: $(cat err)"
	expect_eq "the value after 150 MB" "$(jq -c '.results[0].runs.v' b.json)" "[42,42]"
}

# A long line that does not match costs time in proportion to its length
# (glibc's regexec took 23 s for this pattern on 100 KB, 16 times that on
# 400 KB); a pattern that backtracks without end is stopped by PCRE2's
# limits and fails the run with the reason.
test_metric_long_lines_stay_linear() {
	printf '#!/bin/sh\nhead -c 400000 /dev/zero | tr "\\0" 7\necho\necho "12 ms"\n' >long.sh
	chmod +x long.sh
	timeout 60 "$CBENCH" -N -r 2 --style none --metric 'r=([0-9]+) ms' \
		--export-json l.json ./long.sh >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "the value" "$(jq -c '.results[0].runs.r' l.json)" "[12,12]"
	printf '#!/bin/sh\nhead -c 100000 /dev/zero | tr "\\0" a\necho b\n' >bt.sh
	chmod +x bt.sh
	timeout 60 "$CBENCH" -N -r 1 --metric 'r=^(a|aa)+$' ./bt.sh >out 2>err
	expect_eq "exit" "$?" 1
	expect_grep "why" "pattern stopped on a line of 100001 bytes: .*limit exceeded" err
}

test_metric_comparison_in_summary() {
	echo 'n=10' >a.txt
	echo 'n=30' >b.txt
	# the reference is the summary's base: its n is 3 times lower
	cb -v -r 4 --metric 'n=n=([0-9]+)' --reference 'cat a.txt' 'cat b.txt' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "compared like a counter" '^      n: +3\.00 times lower \(95 % CI 3\.00–3\.00, p < 0\.001\)' out
	expect_grep "the first benchmark's value" '^  n: +10\.000' out
}

test_metric_missing_is_a_run_error() {
	printf 'speed 5\n' >s.txt
	cb -r 3 --metric 'speed=rate: ([0-9]+)' 'cat s.txt' >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "the error" "^cbench: error: command 'cat s.txt' printed no value for --metric speed in run 1 \(pattern 'rate: \(\[0-9\]\+\)': no line of its output matches\); use -i" err
	printf 'rate: fast\n' >s.txt
	cb -r 3 --metric 'speed=rate: (.*)' 'cat s.txt' >out 2>err
	expect_eq "exit code, not a number" "$?" 1
	expect_grep "says why" "'fast' is not a number" err
	# -i keeps such runs, without the value
	printf 'speed 5\n' >s.txt
	cb -v -r 3 -i --metric 'speed=rate: ([0-9]+)' --export-json r.json 'cat s.txt' \
		>out 2>err || fail "-i: exit $?: $(cat err)"
	expect_grep "not counted" '^  speed +not counted' out
	/usr/bin/python3 -c '
import json, sys
r = json.load(open("r.json"))["results"][0]
assert r["runs"]["speed"] == [None, None, None], r["runs"]["speed"]
assert len(r["runs"]["wall_time"]) == 3' || fail "-i JSON"
}

test_metric_gate_against_baseline_higher_is_better() {
	M='speed=^([0-9.]+) MB/s,unit=MB/s,higher-is-better'
	echo '100 MB/s' >s.txt
	cb -r 5 --metric "$M" --export-json base.json 'cat s.txt' >out 2>err ||
		fail "base: exit $?: $(cat err)"
	cp base.json base.orig
	# 20 % less throughput: a regression where higher is better
	echo '80 MB/s' >s.txt
	cb -r 5 --metric "$M" --baseline base.json --gate-metric speed \
		--fail-if-slower 5 --export-junit j.xml 'cat s.txt' >out 2>err
	expect_eq "a fall is a regression" "$?" 3
	expect_grep "the gate's line" 'Gate on speed .*higher is better.*significant decrease.*below -5 %' out
	expect_grep "the verdict" 'regression' out
	expect_grep "JUnit failure with the unit" '<failure[^>]*speed' j.xml
	cmp -s base.json base.orig || fail "the baseline was changed"
	# 20 % more: an improvement, exit 0
	echo '120 MB/s' >s.txt
	cb -r 5 --metric "$M" --baseline base.json --gate-metric speed \
		--fail-if-slower 5 'cat s.txt' >out 2>err || fail "a rise: exit $?: $(cat err)"
	expect_grep "the verdict" 'improvement' out
	# the same files compared by `cbench compare`, which reads the
	# metric's definition from them
	cb -r 5 --metric "$M" --export-json new.json 'cat s.txt' >/dev/null 2>err ||
		fail "new: exit $?"
	cb compare --gate-metric speed --fail-if-slower 5 new.json base.json >out 2>err
	expect_eq "compare: 100 after 120 is a regression" "$?" 3
	cb compare --gate-metric speed --fail-if-slower 5 base.json new.json >out 2>err ||
		fail "compare: 120 after 100: exit $?: $(cat err)"
	expect_grep "compare's verdict" 'improvement' out
}

test_metric_gate_lower_is_better_and_reference() {
	# latency: lower is better (the default), gated in one job against
	# --reference, with a threshold of its own
	echo 'latency 10' >ref.txt
	echo 'latency 15' >new.txt
	cb -r 6 --metric 'lat=latency ([0-9]+),unit=ms' --reference 'cat ref.txt' \
		--gate-metric lat --fail-if-slower lat=20% 'cat new.txt' >out 2>err
	expect_eq "50 % more latency fails" "$?" 3
	expect_grep "the verdict" 'regression' out
	echo 'latency 11' >new.txt
	cb -r 6 --metric 'lat=latency ([0-9]+),unit=ms' --reference 'cat ref.txt' \
		--gate-metric lat --fail-if-slower lat=20% 'cat new.txt' >out 2>err ||
		fail "10 % more is within the threshold: exit $?: $(cat err)"
	expect_grep "no regression" 'Result: no regression' out
}

test_metric_exports() {
	M='speed=^([0-9.]+) MB/s,unit=MB/s,higher-is-better'
	echo '50 MB/s' >s.txt
	echo 'n: 3' >>s.txt
	cb -r 3 --metric "$M" --metric 'n=^n: ([0-9]+)' --export-csv c.csv \
		--export-csv-runs runs.csv --export-bmf b.json \
		--export-github-benchmark g.json --export-github-benchmark-bigger gb.json \
		--export-markdown t.md --export-html r.html 'cat s.txt' >out 2>err ||
		fail "exit $?: $(cat err)"
	"${MT_PY[@]}" bmf b.json || fail "BMF: $(cat b.json)"
	"${MT_PY[@]}" github g.json || fail "github: $(cat g.json)"
	"${MT_PY[@]}" github gb.json || fail "github bigger: $(cat gb.json)"
	/usr/bin/python3 - <<'PY' || fail "exports"
import csv, json
bmf = json.load(open("b.json"))["cat s.txt"]
assert bmf["speed"] == {"value": 50, "lower_value": 50, "upper_value": 50}, bmf["speed"]
assert bmf["n"]["value"] == 3, bmf["n"]
small = {e["name"]: e for e in json.load(open("g.json"))}
big = {e["name"]: e for e in json.load(open("gb.json"))}
# one direction per file: speed only where bigger is better
assert "cat s.txt - speed" not in small and "cat s.txt - n" in small, sorted(small)
assert "cat s.txt - wall_time" in small, sorted(small)
assert list(big) == ["cat s.txt - speed"], big
assert big["cat s.txt - speed"]["unit"] == "MB/s" and big["cat s.txt - speed"]["value"] == 50
row = next(csv.DictReader(open("c.csv")))
assert float(row["speed_mean"]) == 50 and float(row["n_median"]) == 3, row
runs = list(csv.DictReader(open("runs.csv")))
assert [float(r["speed"]) for r in runs] == [50, 50, 50], runs
PY
	expect_grep "Markdown: a column with its unit" '\| speed \[MB/s\] \| n \| Significance \|' t.md
	expect_grep "Markdown: the means" '\| 50\.000 \| 3\.000 \| reference \|' t.md
	expect_grep "HTML report: the value with its unit" '<td>speed</td><td>50 MB/s</td>' r.html
}

test_metric_note_when_bigger_file_missing() {
	echo '5 MB/s' >s.txt
	cb -r 2 --metric 'speed=([0-9]+) MB/s,higher-is-better' \
		--export-github-benchmark g.json 'cat s.txt' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "the note" "note: --export-github-benchmark holds the metrics where lower is better; 'speed' \(higher is better\) goes in --export-github-benchmark-bigger FILE" err
	expect_grep "wall time still exported" 'wall_time' g.json
	expect_no_grep "speed is not in the smaller file" 'speed' g.json
}

test_metric_output_file_keeps_output() {
	printf 'line one\nv=7\n' >s.txt
	echo old >kept.txt
	cb -v -r 3 --metric 'v=v=([0-9]+)' --output kept.txt 'cat s.txt' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "value read" '^  v: +7\.000' out
	expect_eq "the file holds every run's output" "$(grep -c 'v=7' kept.txt)" 3
	expect_no_grep "truncated first" '^old$' kept.txt
}

test_metric_history() {
	M='speed=^([0-9.]+) MB/s,unit=MB/s,higher-is-better'
	for v in 100 101 99; do
		echo "$v MB/s" >s.txt
		cb -r 3 --metric "$M" --history h.db 'cat s.txt' >out 2>err ||
			fail "record $v: exit $?: $(cat err)"
	done
	# a later `cbench history` knows the metric from the history itself
	cb history trend --history h.db --metric speed 'cat s.txt' >out 2>err ||
		fail "trend: exit $?: $(cat err)"
	expect_grep "trend of speed" "Trend of 'cat s.txt' \(speed\)" out
	expect_grep "three points" ' 3 invocations' out
	cb history export --history h.db --format csv >h.csv 2>err ||
		fail "export: exit $?: $(cat err)"
	expect_grep "the history's CSV has the column" 'speed' h.csv
	# its JSON export carries the definition, so compare can gate on it
	cb history export --history h.db --output h.json 2>err || fail "export json: $(cat err)"
	jq '.invocations[0]' h.json >newest.json
	jq '.invocations[2]' h.json >oldest.json
	expect_eq "the definition" "$(jq -c '.custom_metrics' newest.json)" \
		'{"speed":{"pattern":null,"unit":"MB/s","higher_is_better":true}}'
	cb compare --gate-metric speed oldest.json newest.json >out 2>err ||
		fail "compare the exported invocations: exit $?: $(cat err)"
	expect_grep "gated on speed" '^Gate on speed .*higher is better' out
	# a gate against the history, on the custom metric
	echo '70 MB/s' >s.txt
	cb -r 3 --metric "$M" --history h.db --baseline-history --gate-metric speed \
		--fail-if-slower 5 'cat s.txt' >out 2>err
	expect_eq "a 30 % fall against the history" "$?" 3
	# the same name with another unit is refused, the history untouched
	cp h.db h.orig
	cb -r 3 --metric 'speed=^([0-9.]+) MB/s,unit=GB/s' --history h.db 'cat s.txt' \
		>out 2>err
	expect_eq "a conflicting definition" "$?" 2
	expect_grep "says so" "^cbench: error: .*metric 'speed' is defined twice, differently" err
	cmp -s h.db h.orig || fail "the history was changed"
	cb history trend --history h.db --metric nosuch 'cat s.txt' >out 2>err
	expect_eq "an unknown history metric" "$?" 2
	expect_grep "one line" "^cbench: error: --metric 'nosuch': no such metric" err
}

test_metric_bad_inputs() {
	for args in "--metric speed" "--metric speed=" "--metric =x" \
		"--metric speed=([0-9]" "--metric wall_time=x" "--metric 1x=y" \
		"--metric v=x --show-output" "--metric v=x --output=inherit" \
		"--metric v=x --output=pipe" "--gate-metric nosuch --baseline b.json" \
		"--metric v=x --metric v=y"; do
		# shellcheck disable=SC2086
		cb -r 1 $args 'touch ran' >out 2>err
		rc=$?
		[ "$rc" = 2 ] || fail "$args: exit $rc, expected 2: $(cat err)"
		[ "$(wc -l <err)" -le 2 ] || fail "$args: more than one error: $(cat err)"
		grep -q '^cbench: error: ' err || fail "$args: no error line: $(cat err)"
		[ ! -e ran ] || fail "$args: the command ran"
	done
	cb -r 1 --metric 'speed=([0-9]' 'touch ran' 2>err
	expect_grep "PCRE2's reason" "does not compile: missing closing parenthesis at offset 6" err
	# and a good one runs (the positive check beside the refusals)
	cb -r 1 --metric 'v=(.*)' 'sh -c "touch ran; echo 1"' >out 2>err ||
		fail "exit $?: $(cat err)"
	[ -e ran ] || fail "the command did not run"
}
