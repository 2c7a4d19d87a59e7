# End-to-end tests of a run's background processes and --keep-background:
# they end with the run unless kept (a --setup job is kept), and a command
# that leaves one running is warned about once, one that does not is not.

test_background_jobs_killed_unless_kept() {
	cb -r 3 'sleep 30 & echo $! >>pids' >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "three runs" "$(wc -l <pids)" 3
	local p
	for p in $(cat pids); do
		[ -e "/proc/$p" ] && { kill "$p"; fail "background job $p of a run still running"; }
	done
	expect_grep "results" "Time \(mean" out
	# --keep-background: they are left running (and said to be).
	cb -r 3 --keep-background 'sleep 30 & echo $! >>kept' >out 2>err || fail "exit $?: $(cat err)"
	local alive=0
	for p in $(cat kept); do
		[ -e "/proc/$p" ] && alive=$((alive + 1))
		kill "$p" 2>/dev/null
	done
	expect_eq "kept alive" "$alive" 3
	expect_grep "said" "left a process running" err
	# --setup's background job (a server the benchmark needs) is kept.
	cb -r 2 --setup 'sleep 30 & echo $! >srv' 'kill -0 $(cat srv)' >out 2>err ||
		fail "the --setup job was killed before the runs: $(cat err)"
	kill "$(cat srv)" 2>/dev/null
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
