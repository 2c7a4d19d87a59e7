# End-to-end tests of the frozen-exec engine and the basic report.

test_exec_not_found() {
	cb -r 2 nosuchprog-cbench >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "^cbench: error: command 'nosuchprog-cbench' not found$" err
	expect_no_grep "no numbers" 'Time \(' out
}

test_exec_permission_denied() {
	printf '#!/bin/sh\n' >noexec.sh
	chmod 644 noexec.sh
	cb -r 2 ./noexec.sh >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "^cbench: error: command './noexec.sh': permission denied$" err
}

test_exec_format_error() {
	# The exec error comes back through memory shared with the vfork-style
	# child; valgrind runs such a clone as a plain fork, so it is lost.
	[ "${VALGRIND:-}" = 1 ] && skip "valgrind runs CLONE_VM|CLONE_VFORK as fork: no shared-memory exec report"
	printf 'not a program\n' >garbage
	chmod 755 garbage
	cb -r 2 ./garbage >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "^cbench: error: command './garbage' is not an executable" err
	expect_no_grep "no numbers" 'Time \(' out
}

test_blocked_sigtrap_still_measured() {
	ptrace_works || skip "ptrace refused by this kernel"
	"$HELPERS/with_sigmask" TRAP -- "$CBENCH" -r 3 "$HELPERS/touch_pages 3000" \
		>out 2>err || fail "exit $?: $(cat err)"
	got=$(page_faults out)
	awk -v g="$got" 'BEGIN { exit !(g > 3000 && g < 3200) }' ||
		fail "page faults with SIGTRAP blocked: '$got'"
}

test_command_gets_clean_signal_state() {
	"$HELPERS/with_sigmask" TRAP INT -- "$CBENCH" -r 1 --output "$T/mask.txt" \
		"$HELPERS/report_sigmask" >out 2>err || fail "exit $?"
	expect_eq "mask" "$(cat mask.txt)" "blocked=0 ignored=0"
}

test_setuid_command_warned() {
	ptrace_works || skip "ptrace refused by this kernel"
	cp /bin/true suid_true
	chmod 4755 suid_true
	run_as_nobody "$CBENCH" -r 2 "$T/suid_true" >out 2>err || fail "exit $?: $(cat err)"
	expect_grep "warning" "^cbench: warning: '$T/suid_true' is setuid; under the frozen-exec engine \(ptrace\) it runs without that privilege" err
	# Root is not warned: ptrace keeps its privileges.
	cb -r 2 "$T/suid_true" >out 2>err || fail "root: exit $?"
	expect_no_grep "no warning for root" 'is setuid' err
}

test_script_interpreter_missing() {
	printf '#!/nonexistent/interp -x\necho hi\n' >badinterp.sh
	printf '#!/nonexistent/interp' >nonl.sh
	chmod 755 badinterp.sh nonl.sh
	for f in badinterp.sh nonl.sh; do
		cb -r 2 ./$f >out 2>err
		expect_eq "$f exit code" "$?" 1
		expect_grep "$f message" "^cbench: error: command './$f': its interpreter '/nonexistent/interp' \(its #! line\) is not found$" err
		expect_no_grep "$f before the header" 'Benchmark 1' out
	done
}
