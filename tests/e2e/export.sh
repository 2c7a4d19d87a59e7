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

test_display_name_and_real_command_line() {
	cb -r 2 -n 'short name' 'sleep 0.001' --export-json out.json >out 2>err ||
		fail "exit $?"
	expect_eq "command (hyperfine)" "$(jq -r '.results[0].command' out.json)" "short name"
	expect_eq "command_line" "$(jq -r '.results[0].command_line' out.json)" "sleep 0.001"
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
