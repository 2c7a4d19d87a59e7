# End-to-end: what cbench does when the kernel refuses something, when it is
# interrupted, when its output goes away, and over many runs.  Kernel
# refusals are produced with tests/helpers/seccomp_deny (a seccomp filter
# making one system call fail with a chosen errno).

# ---- the kernel says no ----

# ---- processes and signals ----


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

# ---- exports when the disk says no ----
