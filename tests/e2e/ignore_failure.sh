# End-to-end tests of failing commands and -i/--ignore-failure: a crash or a
# non-zero exit stops the benchmark with one error naming it; -i (or
# -i=CODES) measures such runs and the report says how many failed.

test_crash_reported_by_signal_name() {
	cb -r 3 "$HELPERS/crash segv" >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "terminated by signal SIGSEGV \(Segmentation fault\) in run 1; use -i/--ignore-failure to keep going, or --show-output to see its error output$" err
}

test_nonzero_exit_stops() {
	cb -r 3 "$HELPERS/crash exit 3" >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "exited with code 3 in run 1; use -i/--ignore-failure" err
}

test_nonzero_exit_ignored() {
	cb -r 3 -i "$HELPERS/crash exit 3" >out 2>err || fail "exit $? with -i"
	expect_grep "all runs measured" '3 runs' out
}

test_ignore_only_listed_codes() {
	cb -r 2 -i=4,5 "$HELPERS/crash exit 3" >out 2>err
	expect_eq "exit code for an unlisted code" "$?" 1
	cb -r 2 --ignore-failure=3 "$HELPERS/crash exit 3" >out 2>err ||
		fail "listed code not ignored"
}

test_ignored_failures_are_reported() {
	cb -r 5 -i "$HELPERS/crash exit 3" >out 2>err || fail "exit $?"
	expect_grep "failed runs" '^  Warning: 5 of 5 runs failed \(exit code 3 ×5\), ignored by -i' err
	cb -r 3 -i "$HELPERS/crash segv" >out 2>err || fail "exit $?"
	expect_grep "signal" '^  Warning: 3 of 3 runs failed \(signal SIGSEGV ×3\)' err
	cb -r 3 "$HELPERS/crash exit 0" >out 2>err || fail "exit $?"
	expect_no_grep "no failure, no warning" 'failed|timed out' err
}

# A benchmark stopped by a failing run says so in its export.
test_failed_benchmark_stop_reason() {
	cb -r 3 false --export-json f.json >out 2>err
	expect_eq "exit" "$?" 1
	expect_eq "stop_reason" "$(jq -r '.results[0].stop_reason' f.json)" failed
}

# -i=CODES reads a run killed by signal N as exit code 128 + N, as
# hyperfine does (and writes in exit_codes): -i=139 ignores a SIGSEGV.
test_ignore_listed_code_of_a_signal() {
	cb -r 2 -i=139 "$HELPERS/crash segv" >out 2>err || fail "-i=139: exit $?: $(cat err)"
	expect_grep "reported" '^  Warning: 2 of 2 runs failed \(signal SIGSEGV ×2\), ignored by -i' err
	cb -r 2 -i=137 "$HELPERS/crash segv" >out 2>err
	expect_eq "another signal's code: exit" "$?" 1
	expect_grep "named" 'terminated by signal SIGSEGV' err
}
