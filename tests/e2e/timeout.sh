# End-to-end tests of --timeout: a run that takes too long is killed with
# its whole process group (grandchildren included, with or without pidfd),
# reported, and ignored with -i; a huge timeout is not a timed-out run.

test_timed_out_runs_are_reported() {
	cb -v --timeout 0.2 -r 2 -i 'sleep 5' >out 2>err || fail "exit $?"
	expect_grep "timed out" '^  Warning: 2 of 2 runs timed out \(killed by --timeout\), ignored by -i: their times are the timeout' err
	expect_no_grep "not counted as failed too" 'runs failed' err
}

# Wait (bounded) until pid is gone or a zombie.
gone_soon() {
	for _ in $(seq 100); do
		[ -e "/proc/$1" ] || return 0
		grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

test_timeout_kills_process_group() {
	cb -r 2 --timeout 0.3 'sleep 30 & echo $! > gc.pid; wait' >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "^cbench: error: command '.*' timed out after 0.3 s in run 1 \(its process group was killed\); use -i/--ignore-failure" err
	[ -s gc.pid ] || fail "no grandchild pid"
	gone_soon "$(cat gc.pid)" || { kill "$(cat gc.pid)"; fail "grandchild survived"; }
}

test_timeout_ignored_with_i() {
	cb -r 2 -i --timeout 0.2 'sleep 30 & echo $! >> gc.pid; wait' >out 2>err ||
		fail "exit $? with -i: $(cat err)"
	expect_grep "both runs recorded" '2 runs' out
	for p in $(cat gc.pid); do
		gone_soon "$p" || { kill "$p"; fail "grandchild $p survived"; }
	done
	# -i=CODES ignores exit codes only, not timeouts.
	cb -r 2 -i=3 --timeout 0.2 'sleep 30' >out 2>err
	expect_eq "exit code with -i=3" "$?" 1
}

test_timeout_kills_grandchild() {
	cb --timeout 1 -r 1 "$GRANDCHILD_CMD" >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "timed out after 1 s in run 1 \(its process group was killed\)" err
	[ -s gc ] || fail "the command never started its grandchild"
	gone "$(cat gc)" || fail "grandchild $(cat gc) still there: $(cat /proc/$(cat gc)/stat)"
}

test_no_pidfd_timeout_kills_grandchild() {
	need_seccomp
	"$HELPERS/seccomp_deny" pidfd_open ENOSYS -- "$CBENCH" --timeout 1 -r 1 \
		"$GRANDCHILD_CMD" >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "timed out after 1 s in run 1" err
	gone "$(cat gc)" || fail "grandchild $(cat gc) still there"
}

test_timeout_beyond_int_ms() {
	# 1e7 s is 1e10 ms, beyond int: the poll timeout must be clamped, not
	# cast (undefined; UBSan's float-cast-overflow catches it).  The run
	# ends normally and is not reported as timed out.
	cb -r 2 --timeout 10000000 --export-json r.json "$HELPERS/spin 1" \
		>out 2>err || fail "exit $?: $(cat err)"
	expect_eq "not timed out" "$(jq -c '.results[0].runs.timed_out' r.json)" "[false,false]"
}
