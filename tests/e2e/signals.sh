# End-to-end tests of signals and stops: SIGINT, SIGTERM and SIGHUP kill the
# run's whole process group and exit 130, 143 or 129 with every completed
# run exported; a parent's ignored SIGCHLD or blocked SIGINT changes nothing;
# a command stopped by job control is killed with one error; a run during
# which cbench itself was stopped is discarded.

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

# interrupted SIGNAL EXIT-CODE
interrupted() {
	cb_exec -r 5 --style=basic "$GRANDCHILD_CMD" >out 2>err &
	pid=$!
	trap 'kill -KILL $pid 2>/dev/null' EXIT
	wait_for_file gc
	kill -"$1" "$pid"
	wait "$pid"
	expect_eq "exit code" "$?" "$2"
	gone "$(cat gc)" || fail "grandchild $(cat gc) still there: $(cat /proc/$(cat gc)/stat)"
	expect_no_grep "no error" 'error' err
}

test_sigint_kills_grandchild() {
	interrupted INT 130
}

test_sigterm_kills_grandchild() {
	interrupted TERM 143
}

test_sighup_kills_grandchild() {
	interrupted HUP 129
}

test_no_pidfd_sigint() {
	need_seccomp
	"$HELPERS/seccomp_deny" pidfd_open ENOSYS -- "$CBENCH" -r 5 --style=basic \
		"$GRANDCHILD_CMD" >out 2>err &
	pid=$!
	trap 'kill -KILL $pid 2>/dev/null' EXIT
	wait_for_file gc
	kill -INT "$pid"
	wait "$pid"
	expect_eq "exit code" "$?" 130
	gone "$(cat gc)" || fail "grandchild $(cat gc) still there"
}

# Started by a parent that ignores SIGCHLD (inherited through exec, the
# kernel would reap every command itself) or blocks SIGINT: still works.
test_inherited_sigchld_ignored_and_sigint_blocked() {
	command -v perl >/dev/null || skip "perl not installed"
	perl -e '$SIG{CHLD} = "IGNORE"; exec @ARGV' "$CBENCH" -N -r 3 true >out 2>err ||
		fail "SIGCHLD ignored: exit $?: $(cat err)"
	expect_grep "measured" '3 runs' out
	"$HELPERS/with_sigmask" INT CHLD -- "$CBENCH" -r 1000 --export-json j.json \
		"$HELPERS/spin 1" >out 2>err &
	pid=$!
	for _ in $(seq 200); do [ -s j.json ] || grep -q Benchmark out 2>/dev/null && break; sleep 0.05; done
	kill -INT $pid
	wait $pid
	expect_eq "SIGINT delivered despite the inherited mask" "$?" 130
}

# cb under `timeout`: a hang must fail the test, not the test run.
cb_limited() {
	local secs=$1
	shift
	if [ "${VALGRIND:-}" = 1 ]; then
		timeout "$secs" "${VALGRIND_CMD[@]}" "$CBENCH" "$@"
	else
		timeout "$secs" "$CBENCH" "$@"
	fi
}

test_job_control_stop_is_an_error() {
	# A command stopped by SIGTTOU/SIGTTIN/SIGTSTP never goes on (its
	# process group is not the terminal's): killed, one error, exit 1.
	for s in ttou ttin tstp; do
		sig=SIG$(echo $s | tr a-z A-Z)
		cb_limited 60 -r 2 "$HELPERS/stopme $s" >out 2>err
		rc=$?
		[ $rc = 124 ] && fail "$s: cbench hung on the stopped command"
		expect_eq "$s exit code" $rc 1
		expect_grep "$s message" "^cbench: error: command '.*stopme $s' was stopped by $sig in run 1 and killed: " err
	done
	expect_grep "why" "it suspended itself" err
	# A hook too.
	cb_limited 60 -r 1 --prepare "$HELPERS/stopme" true >out 2>err
	rc=$?
	[ $rc = 124 ] && fail "prepare: cbench hung on the stopped hook"
	expect_eq "hook exit code" $rc 1
	expect_grep "hook message" "^cbench: error: the --prepare command '.*stopme' was stopped by SIGTTOU and killed: it tried to use the terminal" err
}

test_job_control_stop_without_pidfd() {
	# The SIGCHLD path (no pidfd) wakes the same way.
	need_seccomp
	timeout 60 "$HELPERS/seccomp_deny" pidfd_open ENOSYS -- "$CBENCH" -r 1 \
		"$HELPERS/stopme" >out 2>err
	rc=$?
	[ $rc = 124 ] && fail "cbench hung on the stopped command"
	expect_eq "exit code" $rc 1
	expect_grep "message" "was stopped by SIGTTOU in run 1 and killed" err
}

test_terminal_command_under_script() {
	command -v script >/dev/null || skip "script(1) is not installed"
	# stty on the terminal from the command's own process group: SIGTTOU.
	timeout 60 script -qec "$CBENCH --show-output -r 1 'stty -F /dev/tty -echo'" \
		/dev/null </dev/null >out 2>&1
	rc=$?
	[ $rc = 124 ] && fail "cbench hung"
	expect_eq "exit code" $rc 1
	expect_grep "message" "was stopped by SIGTTOU in run 1 and killed: it tried to use the terminal" out
}

test_run_during_which_cbench_was_stopped_is_discarded() {
	# The command's parent is cbench: in its first run it stops cbench
	# and resumes it (what Ctrl-Z then fg does, without a terminal).
	cb -r 3 --export-json r.json \
		'[ -e m ] || { touch m; kill -STOP $PPID; kill -CONT $PPID; }' >out 2>err ||
		fail "exit $?: $(cat err)"
	[ -e m ] || fail "the stopping run did not run"
	expect_grep "said" "^cbench: warning: cbench was stopped \(SIGSTOP or Ctrl-Z\) during run 1 of .*: that run is discarded and run again" err
	expect_eq "one warning" "$(grep -c 'cbench was stopped' err)" 1
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["results"][0]["times"]) == 3, d["results"][0]["times"]' r.json ||
		fail "not 3 recorded runs"
	# Positive: no stop, no warning.
	cb -r 3 true >out 2>err || fail "plain: exit $?"
	expect_no_grep "no stop" "cbench was stopped" err
}

# An export cut short by a signal exits as the signal says: SIGTERM while
# the JSON waits for a FIFO's reader is 143 (not an export failure's 1),
# and a reader of stdout that goes away is the quiet 141.
blocked_on_fifo() { grep -q wait_for_partner "/proc/$1/wchan" 2>/dev/null; }

test_export_cut_by_a_signal_exits_with_it() {
	mkfifo fifo
	"$CBENCH" -r 3 -N true --style none --export-json fifo >out 2>err &
	local pid=$! rc
	wait_for 60 blocked_on_fifo "$pid" || { kill "$pid"; fail "never waited for the FIFO"; }
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	expect_eq "SIGTERM during the export" "$rc" 143
	"$CBENCH" -r 1500 -N true --style none --export-json - 2>err | head -c 100 >/dev/null
	rc=${PIPESTATUS[0]}
	expect_eq "stdout's reader gone" "$rc" 141
	expect_no_grep "quiet" 'Broken pipe' err
	"$CBENCH" -r 3 -N true --style none --export-json - 2>err | head -c 100000 >all.json
	jq -e '.results[0].runs.wall_time | length == 3' all.json >/dev/null ||
		fail "with a reader that stays: $(head -c 200 all.json)"
}
