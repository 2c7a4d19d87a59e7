# End-to-end tests of the exports: formats read by real parsers, the
# README's one-liners, destination checks, atomic rewrites and interrupts.

# Paths of the checkout (tests run in a temporary directory).
ROOT=$PWD

# wait_for SECONDS CONDITION...: poll until the condition holds, or fail.
wait_for() {
	local limit=$(( $1 * 10 )) i=0
	shift
	until "$@"; do
		i=$((i + 1))
		[ "$i" -le "$limit" ] || return 1
		sleep 0.1
	done
}

lines_at_least() { [ -f "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ]; }
json_results_at_least() {
	[ -s "$1" ] && [ "$(jq '.results | length' "$1" 2>/dev/null || echo 0)" -ge "$2" ]
}

# Files in the test directory besides the harness's own.
left_files() {
	ls -A | grep -v -e '^\.log$' -e '^\.reason$' | tr '\n' ' '
}

test_display_name_and_real_command_line() {
	cb -r 2 -n 'short name' 'sleep 0.001' --export-json out.json >out 2>err ||
		fail "exit $?"
	expect_eq "command (hyperfine)" "$(jq -r '.results[0].command' out.json)" "short name"
	expect_eq "command_line" "$(jq -r '.results[0].command_line' out.json)" "sleep 0.001"
}

test_unwritable_destination_fails_before_running() {
	cb -r 1 --prepare 'touch ran' true --export-csv ok.csv \
		--export-json nodir/out.json >out 2>err
	expect_eq "exit code" "$?" 2
	expect_eq "one line" "$(wc -l <err)" 1
	expect_grep "message" "^cbench: error: cannot write --export-json file 'nodir/out.json': No such file or directory$" err
	[ ! -s out ] || fail "something ran: $(cat out)"
	expect_eq "nothing left behind" "$(left_files)" "err out "
}

test_directory_destination_fails_before_running() {
	mkdir d
	cb -r 1 true --export-markdown d >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "message" "cannot write --export-markdown file 'd': it is a directory" err
}

test_same_destination_twice() {
	cb -r 1 true --export-json x --export-csv x >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "message" "both write to 'x'" err
}

# A write that fails mid-run (here: the file-size limit, as a full disk
# would) is reported, leaves the previous file whole, and exits 1.
test_write_failure_keeps_previous_file() {
	cb -r 1 true true --export-json probe.json >/dev/null 2>&1 || fail "probe run"
	local full blocks
	full=$(stat -c %s probe.json)
	# Room for the file after the first benchmark, not after the second.
	blocks=$(( full * 3 / 4 / 1024 ))
	# SIGXFSZ left at its default: cbench must ignore it itself.
	( trap - XFSZ; ulimit -f "$blocks"; cb -r 1 --order sequential true true --export-json b.json ) \
		>/dev/null 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "^cbench: error: --export-json: cannot write 'b.json': File too large$" err
	jq -e '.results | length == 1' b.json >/dev/null ||
		fail "previous file not intact: $(head -c 300 b.json)"
	expect_eq "no temporary file left" "$(ls -A | grep -c cbench-)" 0
}

# Ctrl-C during the second benchmark: the first is in the file already;
# afterwards every completed run of both is in every export.
test_interrupt_keeps_every_completed_run() {
	# Not through cb(): $! must be cbench itself, not a subshell.
	# Sequential: the first benchmark is exported whole before the second.
	"$CBENCH" -r 200 --order sequential --conclude true --conclude 'echo x >>ticks' true 'sleep 0.05' \
		--export-json out.json --export-csv-runs runs.csv >out 2>err &
	local pid=$! rc done
	wait_for 60 json_results_at_least out.json 1 || { kill "$pid"; fail "no export after the first benchmark"; }
	wait_for 60 lines_at_least ticks 2 || { kill "$pid"; fail "second benchmark not running"; }
	done=$(wc -l <ticks)
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	expect_eq "exit code" "$rc" 130
	jq -e '.results | length == 2' out.json >/dev/null || fail "two results"
	jq -e '.results[0] | .interrupted == false and (.times | length) == 200' out.json \
		>/dev/null || fail "first benchmark incomplete"
	local n
	n=$(jq '.results[1].times | length' out.json)
	expect_eq "interrupted flag" "$(jq '.results[1].interrupted' out.json)" true
	[ "$n" -ge "$done" ] || fail "$n runs in the export, $done completed"
	jq -e --argjson n "$n" '.results[1].runs | [.[] | length] | all(. == $n)' \
		out.json >/dev/null || fail "per-run arrays of the interrupted benchmark"
	expect_grep "results so far printed" "interrupted after $n runs" out
	expect_eq "runs in the CSV" "$(wc -l <runs.csv)" $((1 + 200 + n))
}

test_sigterm_exports_and_exits_143() {
	"$CBENCH" -r 1000 --conclude 'echo x >>ticks' 'sleep 0.05' --export-json out.json \
		--export-markdown out.md >out 2>err &
	local pid=$! rc
	wait_for 60 lines_at_least ticks 2 || { kill "$pid"; fail "benchmark not running"; }
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	expect_eq "exit code" "$rc" 143
	expect_eq "interrupted" "$(jq '.results[0].interrupted' out.json)" true
	[ "$(jq '.results[0].times | length' out.json)" -ge 2 ] || fail "runs lost"
	expect_grep "markdown written" '(interrupted)' out.md
}
