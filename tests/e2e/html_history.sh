# End-to-end tests of the history page: `cbench history report BENCH
# --output OUT.html`.
#
# The history is built in the test: twelve invocations imported from
# cbench results files with known values (means 100 s for commits s1-s6,
# 120 s for s7-s12, three runs each of spread 1), the same step
# tests/e2e/history.sh checks `cbench history detect` on.  The page is
# compared with tests/golden/report-history.html (UPDATE_GOLDEN=1 rewrites
# it; "@VERSION@" in the footer stands for the running version), checked
# to validate (`tidy -errors -q`) and to reference nothing outside itself,
# and rendered in headless Chromium when it is installed (a screenshot
# that is not blank, no request, no console error: as tests/e2e/html.sh).

HH_ROOT=$PWD
HH_GOLDEN=$HH_ROOT/tests/golden/report-history.html
HH_PY=/usr/bin/python3

# hh_history: h.db with the step series of benchmark "step".
hh_history() {
	local k m
	for k in $(seq 1 12); do
		m=100
		[ "$k" -gt 6 ] && m=120
		printf '{"schema": "cbench-results", "schema_version": 2, "context": {"started_at": "2026-01-%02dT10:00:00Z"}, "results": [{"command": "step", "name": "step", "command_line": "./step", "times": [%d, %d, %d], "runs": {"wall_time": [%d, %d, %d]}}]}\n' \
			"$k" $((m - 1)) "$m" $((m + 1)) $((m - 1)) "$m" $((m + 1)) >"step$k.json"
		"$CBENCH" history import --history h.db --history-label "commit=s$k" \
			"step$k.json" >/dev/null 2>err || fail "import $k: $(cat err)"
	done
}

# hh_page: page.html of the step series (natively under valgrind too, for
# the byte-exact golden comparison; see tests/e2e/html.sh).
hh_page() {
	hh_history
	"$CBENCH" history report step --history h.db --output page.html >out 2>err ||
		fail "history report: exit $?: $(cat err)"
	[ ! -s out ] || fail "history report printed: $(head -c 200 out)"
}

test_history_page_matches_golden_file() {
	hh_page
	local v
	v=$("$CBENCH" --version | awk '{print $2}')
	sed "/^<footer/s/cbench $v/cbench @VERSION@/" page.html >got
	if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
		cp got "$HH_GOLDEN"
		return
	fi
	diff "$HH_GOLDEN" got >d || fail "page.html differs from the golden file: $(head -c 600 d)"
}

test_history_page_shows_the_series_and_the_change() {
	hh_page
	# Twelve points, each with its CI bar, and one change point between
	# #6 (s6) and #7 (s7), as `cbench history detect` finds it.
	expect_eq "points" "$(grep -c '^<g><line class="ci s0"' page.html)" 12
	expect_eq "change lines" "$(grep -c '^<line class="thr"' page.html)" 1
	expect_grep "change row" '<tr><td>#6 and #7</td><td><code>s6</code> → <code>s7</code></td><td>100 s</td><td>120 s</td><td class="bad">\+20\.0 %' page.html
	cb history detect step --history h.db >d 2>/dev/null || fail "detect"
	expect_grep "detect agrees" "^  between #6 and #7: commit s6 -> s7" d
	# The points' table: the first and the last invocation in time order.
	expect_grep "first row" '<tr><td>#1</td><td>2026-01-01T10:00:00Z</td><td><code>s1</code></td><td>-</td><td>100 s</td>' page.html
	expect_grep "last row" '<tr><td>#12</td><td>2026-01-12T10:00:00Z</td><td><code>s12</code></td><td>-</td><td>120 s</td>' page.html
	# A flat series: no change line, and the page says so.
	cb history report step --history h.db --limit 6 --output flat.html 2>/dev/null ||
		fail "report --limit 6"
	expect_eq "no change lines" "$(grep -c '^<line class="thr"' flat.html)" 0
	# (the last six points are all 120: nothing to be blind to)
	expect_grep "no change said" '^<p>No change\.</p>$' flat.html
	# A noisy flat series: the page states the resolution detect prints.
	local k res
	for k in $(seq 1 10); do
		printf '{"results": [{"command": "noisy", "mean": 1, "times": [1.%d, 1.%d]}]}\n' \
			$((k * 7 % 10)) $((k * k % 10)) >"noisy$k.json"
		cb history import --history n.db "noisy$k.json" >/dev/null 2>&1 || fail "import noisy"
	done
	cb history detect noisy --history n.db --all-machines >d 2>/dev/null || fail "detect noisy"
	res=$(sed -n 's/.*no change (a step under ±\([0-9.]*\) % would likely be missed)$/\1/p' d)
	[ -n "$res" ] || fail "no resolution in: $(cat d)"
	cb history report noisy --history n.db --all-machines --output noisy.html 2>/dev/null ||
		fail "report noisy"
	expect_grep "the same resolution as detect" "^<p>No change \(a step under ±$res % would likely be missed\)\.</p>$" noisy.html
}

test_history_page_validates_and_is_self_contained() {
	command -v tidy >/dev/null || skip "tidy is not installed (Debian: tidy)"
	hh_page
	tidy -errors -q page.html >tidy.out 2>&1
	[ $? -le 1 ] || fail "tidy finds errors in page.html: $(head -c 400 tidy.out)"
	grep -q '<svg viewBox' page.html || fail "no inline SVG"
	grep -q '<style>' page.html || fail "no inline style sheet"
	if grep -nE 'https?://|src=|<link|@import|url\(' page.html >ext; then
		fail "page.html references something outside itself: $(head -c 300 ext)"
	fi
	if grep -noE 'href="[^#][^"]*"' page.html >ext; then
		fail "page.html links outside itself: $(head -c 300 ext)"
	fi
}

test_history_page_bad_inputs_exit_2_before_writing() {
	hh_history
	local args
	for args in "step --history h.db" "--history h.db --output o.html" \
		"nosuch --history h.db --output o.html" \
		"step --history missing.db --output o.html" \
		"step --history h.db --commit x --output o.html"; do
		# shellcheck disable=SC2086
		cb history report $args >out 2>err
		expect_eq "exit of 'cbench history report $args'" "$?" 2
		[ "$(grep -c '^cbench: error: ' err)" -eq 1 ] ||
			fail "'cbench history report $args': not one error line: $(cat err)"
		[ ! -e o.html ] || fail "'cbench history report $args' wrote o.html"
	done
	cb history report step --history h.db --output o.html 2>err || fail "exit $?: $(cat err)"
	[ -s o.html ] || fail "no page from a good history"
}

test_history_page_renders_in_a_real_browser() {
	command -v chromium >/dev/null || skip "chromium is not installed (Debian: chromium)"
	[ -x "$HH_PY" ] || skip "no $HH_PY to read the screenshot"
	hh_page
	timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$PWD/profile" --no-first-run \
		--enable-logging=stderr --v=0 --log-net-log="$PWD/page.net" \
		--window-size=1000,700 --screenshot="$PWD/page.png" \
		"file://$PWD/page.html" >browser.out 2>browser.err ||
		fail "chromium failed: $(tail -n 3 browser.err)"
	"$HH_PY" "$HH_ROOT/tests/tools/browser_check.py" page.net page.png >check ||
		fail "page.html in the browser: $(tr '\n' ' ' <check)"
	if grep -E 'CONSOLE|Uncaught' browser.err >console; then
		fail "page.html logged to the console: $(head -c 300 console)"
	fi
}

test_report_usage_errors_point_at_report_help() {
	local args
	for args in "x.json" "--bogus x.json -o o.html" "-o o.html"; do
		# shellcheck disable=SC2086
		cb report $args >out 2>err
		expect_eq "exit of 'cbench report $args'" "$?" 2
		expect_grep "hint ($args)" "^try 'cbench report --help' for more information$" err
		expect_no_grep "no main hint ($args)" "^try 'cbench --help'" err
	done
	cb history report --history h.db >out 2>err
	expect_eq "exit of 'cbench history report' without BENCH" "$?" 2
	expect_grep "history hint" "^try 'cbench history --help' for more information$" err
}
