# End-to-end tests of the frozen-exec engine and the basic report.

test_two_commands_compared() {
	cb -r 5 true "$HELPERS/spin 20" >out 2>err || fail "exit $?"
	expect_grep "first benchmark" '^Benchmark 1: true$' out
	expect_grep "second benchmark" "^Benchmark 2: .*spin 20" out
	expect_grep "time line" 'Time \(mean ± σ\):.*\[User: .*, System: .*\]' out
	expect_grep "range line" 'Range \(min … max\):.* 5 runs' out
	expect_grep "summary" '^Summary' out
	expect_grep "faster line" 'times faster than .*spin 20' out
}

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

test_page_faults_counted_exactly() {
	ptrace_works || skip "ptrace refused by this kernel"
	cb -r 3 "$HELPERS/touch_pages 1" >base 2>&1 || fail "base run"
	cb -r 3 "$HELPERS/touch_pages 5000" >out 2>err || fail "exit $?"
	base=$(page_faults base)
	got=$(page_faults out)
	[ -n "$got" ] || skip "page-faults not countable here: $(cat err)"
	# 5000 fresh pages: 5000 faults more than the 1-page run, within 1 %.
	expect_extra_faults "5000 pages" "$base" "$got" 4950 5050
}

test_threads_faults_all_counted() {
	ptrace_works || skip "ptrace refused by this kernel"
	cb -r 3 "$HELPERS/touch_pages 1" >base 2>&1 || fail "base run"
	cb -r 3 "$HELPERS/touch_pages 8000 4" >out 2>err || fail "exit $?"
	base=$(page_faults base)
	got=$(page_faults out)
	[ -n "$got" ] || skip "page-faults not countable here"
	# Four threads each touch 2000 pages; thread stacks add a few more.
	expect_extra_faults "4 threads x 2000 pages" "$base" "$got" 7950 8200
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

test_counters_none() {
	cb -r 2 --counters=none --export-json o.json true >out 2>err || fail "exit $?"
	expect_grep "the report is there" '^  Time \(mean ± σ\):' out
	expect_grep "rusage still measured" '^  Peak RSS:' out
	expect_no_grep "no counters" 'task-clock|page-faults' out
	jq -e '.results[0].metrics | has("wall_time") and has("peak_rss") and
		(has("task_clock") or has("page_faults") | not)' o.json >/dev/null ||
		fail "JSON metrics: $(jq -c '.results[0].metrics | keys' o.json)"
}

test_unknown_counter() {
	cb -r 2 --counters=bogus true >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "message" "^cbench: error: unknown counter 'bogus'" err
}

test_unavailable_counter_fails_before_running() {
	"$HELPERS/probe" pmu >/dev/null 2>&1 && skip "this machine has a PMU"
	cb -r 2 --counters=instructions "touch $T/ran" >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "reason" "^cbench: error: cannot count instructions: " err
	[ ! -e ran ] || fail "the command ran"
}

test_no_pmu_note() {
	"$HELPERS/probe" pmu >/dev/null 2>&1 && skip "this machine has a PMU"
	cb -r 2 true >out 2>err || fail "exit $?"
	expect_eq "one line" "$(grep -c 'hardware counters unavailable' err)" 1
	expect_no_grep "not on stdout" 'unavailable' out
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

test_unprivileged_counts_user_space() {
	ptrace_works || skip "ptrace refused by this kernel"
	paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
	[ "$paranoid" -le 2 ] || skip "perf_event_paranoid is $paranoid: no counting for unprivileged users"
	# At paranoid 2 an unprivileged caller must exclude kernel mode; the
	# page faults of touching pages in user space are still all counted.
	run_as_nobody "$CBENCH" -r 3 --export-json "$T/u.json" "$HELPERS/touch_pages 3000" \
		>out 2>err || fail "exit $?: $(cat err)"
	expect_eq "user only" "$(jq '.context.counters_user_only' u.json)" true
	jq -e '.results[0].metrics.page_faults.mean > 3000 and .results[0].metrics.page_faults.mean < 3200' \
		u.json >/dev/null || fail "page faults unprivileged: $(jq '.results[0].metrics.page_faults.mean' u.json)"
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
