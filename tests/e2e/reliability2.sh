# End-to-end: reliability, round two (issue #20).  Each test is named by
# the fault it injects and what cbench must do; each fails on the code
# before its fix.  Faults: paths named twice (inputs as outputs), a
# concurrent rewriter, SIGKILL at chosen points, prlimit, SIGSTOP.

# ---- 1. inputs are never outputs ----

# ---- 2. one export on stdout ----

# ---- 4. a file still being written says so ----

# ---- 3 and 6. interleaved rounds on disk as they finish, at bounded cost ----

# ---- 5. a baseline that never ends ----

# ---- 7. temporaries of a killed run ----

# ---- 11. nonsense numbers in a baseline ----

# ---- 12. non-UTF-8 names, the same replacement everywhere ----

# ---- 9. an existing export keeps its mode and owner; a hard link is said ----

# ---- 8. a run's background jobs end with it ----

# ---- 10. cbench stopped during a run ----

# ---- 14. clear messages ----

test_messages_say_the_real_cause() {
	results b.json
	# A count above its limit names the limit.
	cb -r 2147483648 -N true >out 2>err
	expect_eq "-r too large: exit" "$?" 2
	expect_grep "names the limit" "^cbench: error: invalid value '2147483648' for --runs: expected a whole number from 1 to [0-9]+" err
	# A name too long once the temporary's prefix and suffix are added.
	local long
	long=$(printf 'a%.0s' $(seq 250)).json
	cb -r 2 -N true --export-json "$long" >out 2>err
	expect_eq "long name: exit" "$?" 2
	expect_grep "says the temporary" "its name is too long for the temporary file cbench writes beside it" err
	# A directory that takes no new file: says a temporary is needed there.
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
		mkdir ro && chmod 555 ro
		setpriv --reuid=65534 --regid=65534 --clear-groups "$CBENCH" -r 2 -N true \
			--export-json ro/x.json >out 2>err
		expect_eq "read-only dir: exit" "$?" 2
		expect_grep "says the temporary" "cannot create a temporary file in 'ro' \(the export is written there, then renamed over the file\): Permission denied" err
	fi
	# JSON nested 100 000 deep: too deep, not "malformed".
	/usr/bin/python3 -c "print('[' * 100000 + ']' * 100000)" >deep.json
	cb compare deep.json b.json >out 2>err
	expect_eq "deep: exit" "$?" 2
	expect_grep "too deep" "^cbench: error: deep.json: JSON nested more than 1000 levels deep" err
	echo '{"results": [}' >bad.json
	cb compare bad.json b.json >out 2>err
	expect_grep "still malformed" "malformed JSON at line 1, column" err
}

# ---- 15. consistent options ----

test_options_consistent() {
	local v
	for v in ' 3' '3 ' $'3\n'; do
		cb -r "$v" -N true >out 2>err
		expect_eq "-r '$v': exit" "$?" 2
	done
	cb -r +3 -N --export-json r.json true >out 2>err || fail "-r +3: exit $?"
	for o in --input --baseline --reference; do
		cb -r 2 -N $o b.json $o c.json true >out 2>err
		expect_eq "$o twice: exit" "$?" 2
		expect_grep "$o twice" "^cbench: error: $o given twice \('b.json' and 'c.json'\)" err
	done
	cb -r 2 -N -p '' true >out 2>err
	expect_eq "-p '': exit" "$?" 2
	expect_grep "-p ''" "^cbench: error: invalid value '' for --prepare: expected a command" err
	cb -r 2 -N -n '' true >out 2>err
	expect_eq "-n '': exit" "$?" 2
	cb -r 2 -N -n same -n same true true >out 2>err
	expect_eq "-n same -n same: exit" "$?" 2
	expect_grep "two commands" "given to two commands" err
	cb -r 2 -N -n $'x\n::error title=y::z' true >out 2>err
	expect_eq "newline in a name: exit" "$?" 2
	expect_no_grep "no workflow command at a line start" '^::error' err
	expect_grep "shown escaped" "'x\\\\n::error" err
	# Positive: distinct, ordinary names.
	cb -r 2 -N -n one -n two true true >out 2>err || fail "two names: exit $?: $(cat err)"
}

# ---- 14, rest: the real cause ----

# ---- 15, rest: consistent output ----

# ---- 13. the machine's limits, not the command ----
