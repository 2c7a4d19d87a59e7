# End-to-end tests of the command's output: --output (null by default,
# pipe, inherit, a file per command, - for stdout) and --show-output; a
# command writing gigabytes into the pipe (with or without pidfd) does not
# deadlock, and one writing into a closed pipe leaves the quiet exit 141.

test_output_pipe_with_lots_of_output() {
	cb -r 2 --output pipe 'head -c 30000000 /dev/zero' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "ran" '2 runs' out
	# The command really writes to a pipe (and to /dev/null without it).
	cb -r 1 --output pipe 'test -p /dev/stdout' >out 2>err || fail "not a pipe"
	cb -r 1 'test -p /dev/stdout' >out 2>err
	expect_eq "null is not a pipe" "$?" 1
}

test_output_file_per_command_and_show_output() {
	cb -r 2 --output a.txt --output b.txt 'echo A' 'echo B' >out 2>err ||
		fail "exit $?"
	expect_eq "a.txt" "$(tr '\n' ' ' <a.txt)" "A A "
	expect_eq "b.txt" "$(tr '\n' ' ' <b.txt)" "B B "
	cb -r 1 --show-output 'echo visible-output' >out 2>err || fail "exit $?"
	expect_grep "shown" '^visible-output$' out
	cb -r 1 --output inherit 'echo inherited' >out 2>err || fail "exit $?"
	expect_grep "inherited" '^inherited$' out
}

test_output_dash_is_stdout() {
	cb -r 2 --style basic --output - 'echo CMD' >out 2>err || fail "exit $?: $(cat err)"
	[ ! -e ./- ] || fail "a file named '-' was created"
	expect_eq "command output on stdout" "$(grep -c '^CMD$' out)" 2
}

test_output_pipe_gigabytes_no_deadlock() {
	# timeout(1) is only a safety net: a deadlock fails instead of hanging.
	timeout 300 "$CBENCH" -r 2 --output=pipe 'head -c 200M /dev/zero' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "measured" '2 runs' out
}

# Without pidfd_open (Linux < 5.3, or valgrind) the engine waits on SIGCHLD:
# the output pipe is still drained, timeouts and signals still work.
test_no_pidfd_output_pipe_no_deadlock() {
	need_seccomp
	timeout 300 "$HELPERS/seccomp_deny" pidfd_open ENOSYS -- "$CBENCH" -r 2 \
		--output=pipe 'head -c 50M /dev/zero' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "measured" '2 runs' out
}

test_item14_show_output_into_closed_pipe_is_quiet_141() {
	# The command writes into cbench's stdout, whose reader (head) has
	# gone: cbench's own closed pipe, the documented quiet 141.
	local rc
	{ cb -r 3 -N --show-output --export-json y.json yes 2>err; echo $? >rc; } | head -2 >out
	rc=$(cat rc)
	expect_eq "closed pipe: exit" "$rc" 141
	expect_no_grep "the command is not blamed" "SIGPIPE|terminated by signal" err
	expect_grep "the output was shown" "^y$" out
	[ -s y.json ] || fail "the export was not written"
	# Positive: a command that dies of SIGPIPE on its own is still blamed.
	cb -r 2 -N --show-output "sh -c 'kill -PIPE \$\$'" >out 2>err
	expect_eq "own SIGPIPE: exit" "$?" 1
	expect_grep "blamed" "terminated by signal SIGPIPE" err
}
