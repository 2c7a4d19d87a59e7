# End-to-end tests of the counters and --counters: page faults counted
# exactly (threads included), --counters none and unknown or unavailable
# counters, counting as an unprivileged user, and what is said when
# perf_event_open is refused (tests/helpers/seccomp_deny) or too few file
# descriptors are left for the counters.

test_page_faults_counted_exactly() {
	ptrace_works || skip "ptrace refused by this kernel"
	cb -v -r 3 "$HELPERS/touch_pages 1" >base 2>&1 || fail "base run"
	cb -v -r 3 "$HELPERS/touch_pages 5000" >out 2>err || fail "exit $?"
	base=$(page_faults base)
	got=$(page_faults out)
	[ -n "$got" ] || skip "page-faults not countable here: $(cat err)"
	# 5000 fresh pages: 5000 faults more than the 1-page run, within 1 %.
	expect_extra_faults "5000 pages" "$base" "$got" 4950 5050
}

test_threads_faults_all_counted() {
	ptrace_works || skip "ptrace refused by this kernel"
	cb -v -r 3 "$HELPERS/touch_pages 1" >base 2>&1 || fail "base run"
	cb -v -r 3 "$HELPERS/touch_pages 8000 4" >out 2>err || fail "exit $?"
	base=$(page_faults base)
	got=$(page_faults out)
	[ -n "$got" ] || skip "page-faults not countable here"
	# Four threads each touch 2000 pages; thread stacks add a few more.
	expect_extra_faults "4 threads x 2000 pages" "$base" "$got" 7950 8200
}

test_counters_none() {
	cb -r 2 -v --counters=none --export-json o.json true >out 2>err || fail "exit $?"
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

# perf_refused ERRNO REASON-REGEX
perf_refused() {
	need_seccomp
	cb_denied perf_event_open "$1" -r 3 "$HELPERS/spin 1" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "results" 'Time \(mean' out
	expect_grep "rusage still there" 'Peak RSS' out
	expect_no_grep "no counters" 'task-clock|page-faults' out
	expect_eq "one line about it" "$(grep -c 'unavailable' err)" 1
	expect_grep "why" "^cbench: note: counters unavailable: $2.*; measuring time, rusage only$" err
	# (Besides the benchmark's own warnings, which go to stderr too.)
	expect_eq "nothing else on stderr" "$(grep -vc '^  Warning:' err)" 1
	# Asked for explicitly, a refused counter is an error before any run.
	cb_denied perf_event_open "$1" -r 3 --counters=task-clock "touch ran" >out 2>err
	expect_eq "explicit counter: exit" "$?" 1
	expect_grep "explicit counter: message" "^cbench: error: cannot count task-clock: $2" err
	[ ! -e ran ] || fail "the command ran"
}

test_perf_refused_eperm() {
	perf_refused EPERM "perf_event_open was refused \(EPERM\) by a seccomp or LSM policy.*allow perf_event_open"
}

test_perf_refused_eacces() {
	para=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
	if [ "$para" -gt 2 ]; then
		perf_refused EACCES "perf_event_paranoid is $para; 'sysctl kernel.perf_event_paranoid=2'"
	else
		perf_refused EACCES "perf_event_open was refused \(EACCES\) although perf_event_paranoid is $para"
	fi
}

test_perf_refused_enoent() {
	perf_refused ENOENT "the kernel does not offer this event"
}

test_ptrace_and_perf_refused() {
	need_seccomp
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$HELPERS/seccomp_deny" ptrace EPERM -- "$HELPERS/seccomp_deny" \
		perf_event_open EPERM -- "$CBENCH" -r 3 true >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "results" 'Time \(mean' out
	expect_eq "stderr lines" "$(grep -vc '^  Warning:' err)" 2
}

test_item14_no_counters_note_says_what_is_open() {
	"$HELPERS/seccomp_deny" ptrace EPERM -- true 2>/dev/null ||
		skip "seccomp filters unavailable here"
	# ptrace and perf_event_open both refused: no counter is open, so
	# the note does not speak of counters starting at exec.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$HELPERS/seccomp_deny" ptrace EPERM -- "$HELPERS/seccomp_deny" \
		perf_event_open EPERM -- "$CBENCH" -r 2 -N true >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_no_grep "no counters to start" "counters still start at exec" err
	expect_grep "says what is open" "ptrace is refused here .*: wall time now includes the exec itself \(no counters are open\)" err
	# Positive: with software counters open, it still says they start at exec.
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	"$HELPERS/seccomp_deny" ptrace EPERM -- "$CBENCH" -r 2 -N true >out 2>err ||
		fail "exit $?: $(cat err)"
	if grep -q "^cbench: note: counters unavailable" err; then
		skip "perf_event_open refused here anyway"
	fi
	expect_grep "counters open" "counters still start at exec" err
}

test_item13_few_fds_checked_before_the_first_run() {
	command -v prlimit >/dev/null || skip "no prlimit"
	[ "${VALGRIND:-}" = 1 ] && skip "valgrind holds descriptors of its own"
	# Too few descriptors for the default counters: dropped with a note
	# before the first run, then the runs go on (time and rusage).
	prlimit --nofile=10 "$CBENCH" -r 3 -N --export-json f.json true >out 2>err ||
		fail "few fds: exit $?: $(cat err)"
	expect_grep "note names the limit" "^cbench: note: counters dropped: too few file descriptors \(the limit, ulimit -n, is 10" err
	expect_no_grep "not blamed on a run" "cannot open|in run 1" err
	expect_grep "results" "Time \(mean" out
	# Counters asked for by name do not fit: an error naming the limit.
	prlimit --nofile=8 "$CBENCH" -r 3 -N --counters task-clock true >out 2>err
	expect_eq "named counter, few fds: exit" "$?" 1
	expect_grep "error names the limit" "^cbench: error: too few file descriptors: the limit \(RLIMIT_NOFILE, ulimit -n\) is 8" err
	expect_no_grep "no run" "Benchmark 1" out
	# Too few to start the engine at all: still the limit, not the command.
	prlimit --nofile=6 "$CBENCH" -r 3 -N --counters none true >out 2>err
	expect_eq "very few fds: exit" "$?" 1
	expect_grep "engine: names the limit" "^cbench: error: .*too few file descriptors \(the limit, RLIMIT_NOFILE, ulimit -n, is 6\)" err
	# Positive: a normal limit keeps the counters.
	prlimit --nofile=64 "$CBENCH" -r 3 -N true >out 2>err || fail "64 fds: exit $?"
	expect_no_grep "counters kept" "counters dropped" err
}
