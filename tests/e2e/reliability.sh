# End-to-end: what cbench does when the kernel refuses something, when it is
# interrupted, when its output goes away, and over many runs.  Kernel
# refusals are produced with tests/helpers/seccomp_deny (a seccomp filter
# making one system call fail with a chosen errno).

# ---- the kernel says no ----

# ---- processes and signals ----


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

test_daemon_left_running_warned() {
	trap 'kill $(cat pids 2>/dev/null) 2>/dev/null' EXIT
	# --keep-background: a run's group is killed when it ends, and
	# setsid may come after that (the warning is for what escapes it).
	cb -r 3 --keep-background 'sh -c "setsid sleep 60 & echo \$! >> pids"' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "daemons started" "$(wc -l <pids)" 3
	expect_eq "warned once" "$(grep -c 'left a process running' err)" 1
	expect_grep "why it matters" "counts are incomplete" err
}

test_setup_daemon_not_blamed() {
	trap 'kill $(cat pid 2>/dev/null) 2>/dev/null' EXIT
	cb -r 3 --setup 'sh -c "setsid sleep 60 & echo \$! > pid"' true >out 2>err ||
		fail "exit $?: $(cat err)"
	[ -s pid ] || fail "setup did not run"
	expect_grep "benchmarked" '^  Time \(mean' out
	expect_no_grep "no warning" 'left a process running' err
}

# A command that leaves nothing behind is not warned about; one that does,
# in the same conditions, is.
test_clean_command_not_warned() {
	cb -r 5 'sh -c "true | true"' >out 2>err || fail "exit $?"
	expect_grep "benchmarked" '^  Time \(mean' out
	expect_no_grep "no warning" 'left a process running' err
	trap 'kill $(cat left.pid 2>/dev/null) 2>/dev/null' EXIT
	# (A background job is killed with the run's group unless kept.)
	cb -r 2 --keep-background 'sleep 30 & echo $! >> left.pid' >out 2>err || fail "exit $?: $(cat err)"
	expect_grep "the leaving one is warned about" 'left a process running' err
}

# ---- output ----

test_stdout_closed_early() {
	cb -r 3 true "$HELPERS/spin 1" 2>err | head -1 >first
	rc=${PIPESTATUS[0]}
	expect_eq "first line" "$(cat first)" "Benchmark 1: true"
	case $rc in
	0 | 141) ;;
	*) fail "exit $rc" ;;
	esac
	expect_no_grep "no error spew" 'error|Broken pipe|Aborted|Segmentation' err
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

# ---- exports when the disk says no ----

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
