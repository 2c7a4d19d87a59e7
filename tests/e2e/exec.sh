# End-to-end tests of how commands are started (the frozen-exec engine):
# exec errors said by name (not found, not executable, no interpreter), a
# script without #! run by /bin/sh, a clean signal state and no leaked descriptor or zombie after many runs,
# counting with SIGTRAP blocked, setuid commands, the fallback when ptrace
# is refused, and a process limit blamed on the machine.

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
	# Binaries /bin/sh could only misread (bash's rule: an ELF header, or
	# a NUL in the first line): data, and an ELF for no machine.
	printf 'not\0a program\n' >garbage
	printf '\177ELF\002\001\001\000garbage\n' >elf
	chmod 755 garbage elf
	for f in garbage elf; do
		cb -r 2 ./$f >out 2>err
		expect_eq "$f: exit code" "$?" 1
		expect_grep "$f: message" "^cbench: error: command './$f' is not an executable \(exec format error\): a binary for another machine, or data, not a script /bin/sh could run$" err
		expect_no_grep "$f: no numbers" 'Time \(' out
	done
}

# An executable without a #! line runs with /bin/sh, as execvp, sh, GNU
# make and hyperfine run it (glibc's execvp: /bin/sh FILE ARGS...), for
# the command and every hook, traced or not.
test_script_without_shebang_runs_with_sh() {
	printf 'echo "$0|$1|$2|$CBENCH_ITERATION" >> log\n' >s.sh
	chmod 755 s.sh
	cb -r 2 --export-json o.json -s './s.sh setup' -p './s.sh prepare' \
		-C './s.sh conclude' -c './s.sh cleanup' "./s.sh a 'b c'" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "what ran" "$(tr '\n' ' ' <log)" \
		"./s.sh|setup||setup ./s.sh|prepare||0 ./s.sh|a|b c|0 ./s.sh|conclude||0 ./s.sh|prepare||1 ./s.sh|a|b c|1 ./s.sh|conclude||1 ./s.sh|cleanup||cleanup "
	expect_eq "not via a shell of cbench's" "$(jq '.results[0].via_shell' o.json)" false
	if ptrace_works; then
		expect_eq "measured from /bin/sh's first instruction" \
			"$(jq '.results[0].exec_exact' o.json)" true
	fi
	# A warmup too, and where ptrace is refused (parked, then released).
	rm -f log
	need_seccomp
	# Without ptrace the child is cbench's own fork, and valgrind ends a
	# process whose execve failed rather than let it try /bin/sh.
	[ "${VALGRIND:-}" = 1 ] && skip "valgrind ends a process whose execve failed: no /bin/sh fallback to see without ptrace"
	cb_denied ptrace EPERM -w 1 -r 1 ./s.sh >out 2>err || fail "no ptrace: exit $?: $(cat err)"
	expect_eq "no ptrace: warmup and run" "$(tr '\n' ' ' <log)" \
		"./s.sh|||warmup-1 ./s.sh|||0 "
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

test_command_gets_clean_signal_state() {
	"$HELPERS/with_sigmask" TRAP INT -- "$CBENCH" -r 1 --output "$T/mask.txt" \
		"$HELPERS/report_sigmask" >out 2>err || fail "exit $?"
	expect_eq "mask" "$(cat mask.txt)" "blocked=0 ignored=0"
}

test_blocked_sigtrap_still_measured() {
	ptrace_works || skip "ptrace refused by this kernel"
	"$HELPERS/with_sigmask" TRAP -- "$CBENCH" -v -r 3 "$HELPERS/touch_pages 3000" \
		>out 2>err || fail "exit $?: $(cat err)"
	got=$(page_faults out)
	awk -v g="$got" 'BEGIN { exit !(g > 3000 && g < 3200) }' ||
		fail "page faults with SIGTRAP blocked: '$got'"
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

test_ptrace_refused_falls_back() {
	need_seccomp
	# The refused PTRACE_TRACEME is reported through memory shared with
	# the vfork-style child; valgrind runs such a clone as a plain fork.
	[ "${VALGRIND:-}" = 1 ] && skip "valgrind runs CLONE_VM|CLONE_VFORK as fork: no shared-memory report of the refusal"
	cb_denied ptrace EPERM -v -r 3 "$HELPERS/touch_pages 1" >base 2>base.err ||
		fail "base run: exit $?: $(cat base.err)"
	cb_denied ptrace EPERM -v -r 3 "$HELPERS/touch_pages 3000" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "one fallback warning" "$(grep -c 'ptrace is refused here' err)" 1
	expect_grep "what it means" "counters still start at exec.*wall time now includes the exec" err
	expect_grep "results" 'Time \(mean' out
	b=$(page_faults base)
	g=$(page_faults out)
	[ -n "$g" ] || skip "page-faults not countable here"
	# Still exec-exact for counters: 3000 more faults than the 1-page run.
	expect_extra_faults "3000 pages without ptrace" "$b" "$g" 2950 3050
}

test_no_fd_leak_no_zombie_after_10000_runs() {
	local runs=10000 late=9999
	if [ "${VALGRIND:-}" = 1 ]; then
		runs=300 late=299 # 10 000 runs under valgrind take too long
	fi
	mkdir snap
	cb --style=none --output=pipe -r $runs "$HELPERS/parent_fds $T/snap 9 $late" \
		>out 2>err || fail "exit $?: $(cat err)"
	[ -s snap/9 ] && [ -s "snap/$late" ] || fail "no snapshot taken"
	# Counter descriptors of the previous run may still be closing while
	# this run starts: they are counted apart, and must stay few.
	early=$(sed 's/ perf=[0-9]*//' snap/9)
	expect_eq "after $runs runs vs after 10" "$(sed 's/ perf=[0-9]*//' "snap/$late")" "$early"
	for f in snap/9 "snap/$late"; do
		perf=$(sed 's/.* perf=\([0-9]*\).*/\1/' "$f")
		[ "$perf" -le 32 ] ||
			fail "counter descriptors pile up: $(cat "$f") at run $(basename "$f")"
	done
	# The command itself, and cbench's launcher when it uses one.
	case $early in
	*" children="[12]" zombies=0") ;;
	*) fail "cbench's children while a run is in progress: $early" ;;
	esac
}

test_item13_process_limit_blamed_on_the_machine() {
	[ "$(id -u)" = 0 ] && command -v setpriv >/dev/null ||
		skip "needs root and setpriv (RLIMIT_NPROC does not bind root)"
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$CBENCH" ||
		skip "the cbench binary is not reachable by an unprivileged user here"
	chmod 1777 "$T"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		bash -c "ulimit -u 1; exec '$CBENCH' -r 3 -N true" >out 2>err
	expect_eq "ulimit -u 1: exit" "$?" 1
	expect_grep "names the limit" "^cbench: error: .*cannot start another process \(the limit on processes, RLIMIT_NPROC, ulimit -u, is 1" err
	expect_no_grep "not the command" "command 'true'" err
}
