# End-to-end tests of the hooks -s/--setup, -p/--prepare, -C/--conclude and
# -c/--cleanup: their order around runs and benchmarks, CBENCH_ITERATION and
# parameters in them, and their failures (named, found before any run).

test_hooks_order() {
	cb -w 1 -r 2 -s 'echo setup >> log' -p 'echo prepare >> log' \
		-C 'echo conclude >> log' -c 'echo cleanup >> log' \
		'echo run$CBENCH_ITERATION >> log' >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "order" "$(tr '\n' ' ' <log)" \
		"setup prepare runwarmup-1 conclude prepare run0 conclude prepare run1 conclude cleanup "
}

test_iteration_in_hooks() {
	cb -w 1 -r 2 -s 'echo s$CBENCH_ITERATION >> log' \
		-p 'echo p$CBENCH_ITERATION >> log' \
		-C 'echo c$CBENCH_ITERATION >> log' \
		-c 'echo x$CBENCH_ITERATION >> log' \
		'echo r$CBENCH_ITERATION >> log' >out 2>err || fail "exit $?"
	expect_eq "hook iterations" "$(tr '\n' ' ' <log)" \
		"ssetup pwarmup-1 rwarmup-1 cwarmup-1 p0 r0 c0 p1 r1 c1 xcleanup "
}

test_hooks_per_command_with_parameters_interleaved() {
	cb -r 2 --order interleaved -L v 1,2 -s 'echo s{v} >> log' \
		-c 'echo c{v} >> log' 'echo r{v} >> log' >out 2>err ||
		fail "exit $?: $(cat err)"
	# Each its own setup and cleanup: they run one after another (the
	# runs of one never between another's setup and cleanup).
	expect_eq "setup/cleanup bracket each benchmark" "$(tr '\n' ' ' <log)" \
		"s1 r1 r1 c1 s2 r2 r2 c2 "
}

test_hook_failure_names_the_hook() {
	cb -r 2 -p "$HELPERS/crash exit 3" 'echo ran >> log' >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "^cbench: error: the --prepare command '.*crash exit 3' failed with exit code 3; append ' \|\| true' to it to ignore its failure$" err
	[ ! -e log ] || fail "the command ran after its prepare failed"
	cb -r 2 -p "$HELPERS/crash exit 3 || true" 'echo ran >> log' >out 2>err ||
		fail "' || true' did not help: $(cat err)"
	expect_eq "runs" "$(wc -l <log)" 2
	cb -r 2 -c false true >out 2>err
	expect_eq "exit code of a failing cleanup" "$?" 1
	expect_grep "cleanup named" "the --cleanup command 'false' failed" err
	cb -r 2 -s "$HELPERS/crash segv" true >out 2>err
	expect_eq "exit code of a crashing setup" "$?" 1
	expect_grep "setup named" "the --setup command '.*' was terminated by signal SIGSEGV" err
}

test_hook_count_must_match() {
	cb -r 1 -s a -s b -s c true true >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "message" "^cbench: error: --setup given 3 times for 2 commands" err
}

test_hook_not_found_before_any_run() {
	# Each hook is resolved with the commands, before the first run: a
	# typo in --cleanup must not cost the benchmark before it.
	for hook in setup prepare conclude cleanup; do
		cb -r 2 --$hook nosuchprog-cbench true 'true 1' >out 2>err
		expect_eq "--$hook exit code" "$?" 1
		expect_grep "--$hook message" \
			"^cbench: error: --$hook: command 'nosuchprog-cbench' not found$" err
		expect_no_grep "--$hook: nothing ran" 'Benchmark 1' out
	done
}

test_hook_needs_shell_not_in_path() {
	# Only the hook has shell syntax, and there is no sh in PATH: one
	# error before running (was a NULL dereference).  Not under valgrind:
	# its launcher needs PATH.
	mkdir empty
	PATH=$T/empty "$CBENCH" -r 1 --prepare 'true; true' /bin/true >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "^cbench: error: shell 'sh' not found$" err
	expect_no_grep "nothing ran" 'Benchmark 1' out
}
