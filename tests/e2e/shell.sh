# End-to-end tests of -S/--shell and -N/--no-shell: a shell with its own
# arguments, --no-shell exec of the words, the shell correction (start-up
# subtracted, page faults within 1 of direct execution), its noise warning,
# and a shell whose calibration times out or fails.

# -S with the shell's own arguments (hyperfine's -S 'bash --norc' form):
# they reach the shell before -c, so 'sh -e' stops at the first failure.
test_shell_with_arguments() {
	# The marker is split in the command so only its output can match.
	cb -r 1 -i --show-output -S 'sh -e' 'false; echo REA""CHED' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_no_grep "sh -e stops before echo" REACHED out
	cb -r 1 -i --show-output -S sh 'false; echo REA""CHED' >out2 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "plain sh goes on" REACHED out2
	cb -r 1 --show-output -S default 'echo DEF""AULT' >out3 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "-S default is sh" DEFAULT out3
}

# --no-shell execs the command's words directly: "a;b" reaches echo as one
# word instead of a shell running "echo a" and then "b".
test_no_shell_execs_the_words() {
	cb --no-shell -r 1 --output inherit --style none 'echo a;b' >out 2>err ||
		fail "cbench --no-shell failed: $(head -c 400 err)"
	expect_eq "output of echo under --no-shell" "$(cat out)" "a;b"
	expect_no_grep "no shell note" "shell syntax" err
}

# The shell correction subtracts what the shell adds to running a program
# (its start-up and its exec of the program): the same program's page
# faults under a shell are within 1 of direct execution, and every run's
# count is a whole number.  The two run interleaved in one invocation, one
# direct and one with shell syntax (a comment), so they share the machine.
test_shell_correction_close_to_direct() {
	ptrace_works || skip "ptrace refused by this kernel"
	cb -r 20 --export-json o.json -n direct "$HELPERS/touch_pages 2000" \
		-n shell "$HELPERS/touch_pages 2000 # via sh" >out 2>err || fail "exit $?: $(cat err)"
	expect_grep "calibration reported" "start-up .* is subtracted" err
	jq -e '.results[0].via_shell == false and .results[1].via_shell == true' o.json \
		>/dev/null || fail "one direct, one under the shell"
	jq -e '.results[1].runs.page_faults | all(. == floor)' o.json >/dev/null ||
		fail "corrected page faults are not whole numbers: $(jq -c '.results[1].runs.page_faults' o.json)"
	local d s
	d=$(jq '.results[0].metrics.page_faults.median' o.json)
	s=$(jq '.results[1].metrics.page_faults.median' o.json)
	# Without the correction the shell adds about 60 faults; with it the
	# medians are within 1 as a rule, and the direct runs themselves vary
	# by 2-3 from run to run here (stack and heap placement), so allow 3.
	within "$s" "$d" 3 ||
		fail "direct $d vs corrected shell $s page faults (median)"
}

# ':' costs what the empty calibration command costs: what is left after
# the subtraction is noise, about half the runs clamped at 0.
test_shell_noise_warned() {
	cb -v -S sh -r 20 ':' >out 2>err || fail "exit $?"
	expect_grep "warning" "Warning: the mean left after subtracting the shell's start-up .* is within that start-up's own noise" err
	expect_no_grep "no first-run warning with clamped runs" "Warning: the first run" err
	expect_grep "note says why a shell" "note: --shell: running every command under" err
	cb -r 2 'true | true' >out 2>err || fail "exit $?"
	expect_grep "shell syntax note" "note: shell syntax: running such commands under" err
}

test_item14_calibration_timeout_says_timed_out() {
	# A shell that never returns: its calibration times out.
	printf '#!/bin/sh\nexec sleep 100\n' >hangsh
	chmod +x hangsh
	cb -S ./hangsh --timeout 1 -r 2 'echo hi' >out 2>err
	expect_eq "hanging shell: exit" "$?" 1
	expect_grep "says timed out" "^cbench: error: the shell './hangsh' timed out \(--timeout 1 s\) running a no-op program \(calibration\)" err
	expect_no_grep "not 'failed to run'" "failed to run" err
	# Positive: a shell that exits 1 still "failed".
	printf '#!/bin/sh\nexit 1\n' >badsh
	chmod +x badsh
	cb -S ./badsh -r 2 'echo hi' >out 2>err
	expect_grep "failing shell" "^cbench: error: the shell './badsh' failed to run" err
}
