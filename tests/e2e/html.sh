# End-to-end tests of the HTML report: --export-html and `cbench report`.
#
# Golden files: `cbench report` of the fixed fixtures (tests/fixtures/
# html-*.json, written by make-html-fixtures.py; the compare and hyperfine
# fixtures) against tests/golden/report-*.html; UPDATE_GOLDEN=1 rewrites
# them.  "@VERSION@" in a golden footer stands for the running version.
# Every page is checked to validate (Debian's tidy, `tidy -errors -q`: no
# error) and to reference nothing outside itself; then, when chromium is
# installed, rendered headless: the screenshot must not be blank, the page
# must make no request (its net log, read by tests/tools/browser_check.py)
# and log no console error.  The browser is never run under valgrind: only
# cbench is (through cb).

ROOT=$PWD
FIX=$ROOT/tests/fixtures
GOLDEN=$ROOT/tests/golden
PY=/usr/bin/python3

# The pages of the golden tests: name, then the arguments of `cbench report`
# (inputs are copied into the test directory, so the page names them
# without a path).
REPORTS=(
	"one|html-one.json"
	"interleaved|html-interleaved.json"
	"sweep|html-sweep.json"
	"hyperfine|hyperfine-1.15.json"
	"compare|--compare compare-base.json compare-new.json"
)

version() { "$CBENCH" --version | awk '{print $2}'; }

# Each page is made once per run of this file (under valgrind a page takes
# seconds) and copied into the tests that read it.
HTML_CACHE=$(mktemp -d "${TMPDIR:-/tmp}/cbench-html.XXXXXX")
trap 'rm -rf "$HTML_CACHE"' EXIT

# make_report NAME ARGS: report-NAME.html from the fixtures named in ARGS.
make_report() {
	local name=$1 args=$2
	cp "$FIX"/html-*.json "$FIX"/compare-*.json "$FIX"/hyperfine-1.15.json . ||
		fail "cannot copy the fixtures"
	if [ -f "$HTML_CACHE/report-$name.html" ]; then
		cp "$HTML_CACHE/report-$name.html" . || fail "cannot copy the page"
		return
	fi
	# shellcheck disable=SC2086
	cb report $args -o "report-$name.html" >"out-$name" 2>"err-$name" ||
		fail "cbench report $args: exit $?: $(cat "err-$name")"
	[ ! -s "out-$name" ] || fail "cbench report printed: $(head -c 200 "out-$name")"
	[ ! -s "err-$name" ] || fail "cbench report warned: $(head -c 200 "err-$name")"
	cp "report-$name.html" "$HTML_CACHE/"
}

# no_external FILE: the page references nothing but its own #anchors.
no_external() {
	grep -q '<svg viewBox' "$1" || fail "$1: no inline SVG"
	grep -q '<style>' "$1" || fail "$1: no inline style sheet"
	if grep -nE 'https?://|src=|<link|@import|url\(' "$1" >ext; then
		fail "$1 references something outside itself: $(head -c 300 ext)"
	fi
	if grep -noE 'href="[^#][^"]*"' "$1" >ext; then
		fail "$1 links outside itself: $(head -c 300 ext)"
	fi
}

test_report_pages_match_golden_files() {
	local v entry name args
	v=$(version)
	for entry in "${REPORTS[@]}"; do
		name=${entry%%|*}
		args=${entry#*|}
		if [ "${VALGRIND:-}" = 1 ]; then
			# valgrind computes long double sums in 64 bits: a last
			# bit that differs can move a coordinate across a 0.1 px
			# rounding.  The byte-exact page is the native one; the
			# other tests run the same code under valgrind.
			cp "$FIX"/html-*.json "$FIX"/compare-*.json "$FIX"/hyperfine-1.15.json .
			# shellcheck disable=SC2086
			"$CBENCH" report $args -o "report-$name.html" 2>err ||
				fail "cbench report $args: exit $?: $(cat err)"
		else
			make_report "$name" "$args"
		fi
		sed "/^<footer/s/cbench $v/cbench @VERSION@/" "report-$name.html" >got
		if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
			cp got "$GOLDEN/report-$name.html"
			continue
		fi
		[ -f "$GOLDEN/report-$name.html" ] ||
			fail "no $GOLDEN/report-$name.html (UPDATE_GOLDEN=1 creates it)"
		diff "$GOLDEN/report-$name.html" got >d ||
			fail "report-$name.html differs from the golden file: $(head -c 600 d)"
	done
}

test_report_pages_validate_and_are_self_contained() {
	command -v tidy >/dev/null || skip "tidy is not installed (Debian: tidy)"
	local entry name
	for entry in "${REPORTS[@]}"; do
		name=${entry%%|*}
		make_report "$name" "${entry#*|}"
		tidy -errors -q "report-$name.html" >tidy.out 2>&1
		[ $? -le 1 ] || fail "tidy finds errors in report-$name.html: $(head -c 400 tidy.out)"
		no_external "report-$name.html"
		grep -c '<svg' "report-$name.html" >svgs
		[ "$(grep -c '<title>' "report-$name.html")" -gt "$(cat svgs)" ] ||
			fail "report-$name.html: an SVG without its <title>"
		grep -q '<table>' "report-$name.html" || fail "report-$name.html: no table"
	done
	# tidy does find errors: a page with an unknown element fails.
	printf '<!DOCTYPE html><html><head><title>t</title></head><body><p>x<blink2>y</blink2></p></body></html>\n' >bad.html
	tidy -errors -q bad.html >tidy.out 2>&1
	[ $? -eq 2 ] || fail "tidy accepted a broken page: $(cat tidy.out)"
}

test_report_contents() {
	make_report one html-one.json
	expect_grep "benchmark named" '<h3>./build/parse input.txt</h3>' report-one.html
	expect_grep "machine from the file" '<dd>fixture-host</dd>' report-one.html
	expect_grep "histogram" 'Distribution of the wall time' report-one.html
	expect_grep "runs in order" 'Wall time run by run' report-one.html
	expect_grep "slow first run warned" 'first run was far slower' report-one.html
	expect_grep "severe outlier marked" '\(severe outlier\)</title>' report-one.html
	make_report interleaved html-interleaved.json
	expect_grep "one shared progression" 'Wall time of every benchmark, round by round' \
		report-interleaved.html
	expect_no_grep "no per-benchmark progression" 'Wall time run by run' \
		report-interleaved.html
	expect_grep "comparison drawn" 'Ratio to the base with its confidence interval' \
		report-interleaved.html
	make_report sweep html-sweep.json
	expect_grep "sweep section" '<h2>Sweep over n</h2>' report-sweep.html
	expect_grep "lines named by command" 'sort -n -S {n}K big.txt' report-sweep.html
	expect_grep "log parameter axis" 'The parameter axis is logarithmic' report-sweep.html
	make_report compare "--compare compare-base.json compare-new.json"
	# Regressions first: the first row of the table is the regression.
	grep -A1 '<th>verdict</th>' report-compare.html | tail -n 1 >first
	expect_grep "regression first" '>./tool big<.*regression' first
	expect_grep "threshold drawn" 'class="thr"' report-compare.html
	expect_grep "threshold stated" '5 % at 95 % confidence' report-compare.html
}

test_export_html_during_a_run() {
	cb -r 5 -n fast -n slow --export-html run.html true 'sleep 0.002' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "doctype" '^<!DOCTYPE html>$' run.html
	expect_grep "first benchmark" '<h3>fast</h3>' run.html
	expect_grep "second benchmark" '<h3>slow</h3>' run.html
	expect_grep "command line in the context" '--export-html run.html' run.html
	expect_grep "machine" '<dt>Kernel</dt>' run.html
	tail -n 1 run.html | grep -qx '</html>' || fail "page not finished: $(tail -n 2 run.html)"
	no_external run.html
	# To stdout: the page alone there, the report on stderr.
	cb -r 2 --export-html - true >page 2>err || fail "exit $?: $(cat err)"
	expect_grep "page on stdout" '^<!DOCTYPE html>$' page
	expect_no_grep "no report on stdout" 'Time (mean' page
}

test_export_html_kept_after_interrupt() {
	# The first benchmark ends (the page is written), the second runs
	# until SIGINT: the page of the first one is still there, complete.
	"$CBENCH" --order sequential -r 3 -n quick -n sleeper \
		--export-html run.html true 'sleep 5' >out 2>err &
	local pid=$! k
	for k in $(seq 1 300); do
		grep -qs '<h3>quick</h3>' run.html && break
		sleep 0.05
	done
	kill -INT "$pid"
	wait "$pid"
	local rc=$?
	[ "$rc" -eq 130 ] || fail "exit $rc after SIGINT: $(tail -n 3 err)"
	expect_grep "first benchmark kept" '<h3>quick</h3>' run.html
	tail -n 1 run.html | grep -qx '</html>' || fail "page truncated"
}

test_report_bad_inputs_exit_2_before_writing() {
	cp "$FIX/compare-base.json" base.json
	cp base.json base.copy
	printf '{\n' >broken.json
	local args
	for args in "missing.json -o out.html" "broken.json -o out.html" \
		"base.json" "-o out.html" "--compare base.json -o out.html" \
		"base.json -o base.json" "base.json --bogus -o out.html"; do
		# shellcheck disable=SC2086
		cb report $args >out 2>err
		expect_eq "exit of 'cbench report $args'" "$?" 2
		[ "$(grep -c '^cbench: error: ' err)" -eq 1 ] ||
			fail "'cbench report $args': not one error line: $(cat err)"
		[ ! -e out.html ] || fail "'cbench report $args' wrote out.html"
	done
	cmp -s base.json base.copy || fail "an input was overwritten"
	cb report base.json -o out.html 2>err || fail "exit $?: $(cat err)"
	[ -s out.html ] || fail "no page written from a good input"
}

test_report_help() {
	cb report --help >out 2>err || fail "exit $?"
	expect_grep "usage" '^Usage: cbench report \[OPTIONS\] IN.json... -o OUT.html$' out
	cb --help >out 2>err || fail "exit $?"
	expect_grep "main help names the subcommand" 'cbench report \[OPTIONS\]' out
}

# render PAGE PNG NETLOG: a headless Chromium screenshot of PAGE, its
# net log, and its console on stderr (browser.err).
render() {
	rm -rf profile
	timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$PWD/profile" --no-first-run \
		--enable-logging=stderr --v=0 --log-net-log="$PWD/$3" \
		--window-size=1000,700 --screenshot="$PWD/$2" \
		"file://$PWD/$1" >browser.out 2>browser.err
}

test_reports_render_in_a_real_browser() {
	command -v chromium >/dev/null || skip "chromium is not installed (Debian: chromium)"
	[ -x "$PY" ] || skip "no $PY to read the screenshot"
	local entry name
	for entry in "one|html-one.json" "interleaved|html-interleaved.json" \
		"sweep|html-sweep.json" "compare|--compare compare-base.json compare-new.json"; do
		name=${entry%%|*}
		make_report "$name" "${entry#*|}"
		render "report-$name.html" "$name.png" "$name.net" ||
			fail "chromium failed on report-$name.html: $(tail -n 3 browser.err)"
		"$PY" "$ROOT/tests/tools/browser_check.py" "$name.net" "$name.png" >check ||
			fail "report-$name.html in the browser: $(tr '\n' ' ' <check)"
		if grep -E 'CONSOLE|Uncaught' browser.err >console; then
			fail "report-$name.html logged to the console: $(head -c 300 console)"
		fi
	done
	# The checks can fail: a page that fetches an image and throws.
	printf '<!DOCTYPE html><html><head><title>t</title></head><body><p>x</p><img src="http://127.0.0.1:9/x.png" alt=""><script>nosuchfunction();</script></body></html>\n' >ctrl.html
	render ctrl.html ctrl.png ctrl.net || fail "chromium failed on the control page"
	"$PY" "$ROOT/tests/tools/browser_check.py" ctrl.net ctrl.png >check &&
		fail "the control page passed: $(cat check)"
	expect_grep "control's request seen" '^request http://127.0.0.1:9/x.png' check
	expect_grep "control's console error seen" 'Uncaught' browser.err
}

# flame_page: flame.html, the demo page of the differential profile
# pieces (html_flame.c) that their unit test writes from the callgrind
# fixtures (tests/unit/test_html_flame.c; it reads them from the tree).
flame_page() {
	local unit=$UNIT_DIR/test_html_flame out=$PWD/flame.html
	[ "${unit#/}" != "$unit" ] || unit=$ROOT/$unit
	[ -x "$unit" ] || fail "no $unit (make build/tests/test_html_flame)"
	(cd "$ROOT" && "$unit" "$out") >flame.out 2>&1 ||
		fail "the demo page was not written: $(head -c 300 flame.out)"
}

test_flame_graph_page_validates_and_is_self_contained() {
	command -v tidy >/dev/null || skip "tidy is not installed (Debian: tidy)"
	command -v xmllint >/dev/null || skip "xmllint is not installed (Debian: libxml2-utils)"
	flame_page
	tidy -errors -q flame.html >tidy.out 2>&1
	[ $? -le 1 ] || fail "tidy finds errors in flame.html: $(head -c 400 tidy.out)"
	no_external flame.html
	# each flame graph, alone, is well-formed XML
	awk '/<svg /{n++; f="flame-" n ".svg"} f{print >f} /<\/svg>/{f=""}' flame.html
	local svg count=0
	for svg in flame-*.svg; do
		[ -f "$svg" ] || continue
		count=$((count + 1))
		xmllint --noout "$svg" 2>xl || fail "$svg: $(head -c 300 xl)"
	done
	expect_eq "flame graphs on the page" "$count" 3
}

test_flame_graph_page_renders_in_a_real_browser() {
	command -v chromium >/dev/null || skip "chromium is not installed (Debian: chromium)"
	[ -x "$PY" ] || skip "no $PY to read the screenshot"
	flame_page
	render flame.html flame.png flame.net ||
		fail "chromium failed on flame.html: $(tail -n 3 browser.err)"
	"$PY" "$ROOT/tests/tools/browser_check.py" flame.net flame.png >check ||
		fail "flame.html in the browser: $(tr '\n' ' ' <check)"
	if grep -E 'CONSOLE|Uncaught' browser.err >console; then
		fail "flame.html logged to the console: $(head -c 300 console)"
	fi
}
