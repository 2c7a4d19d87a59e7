# End-to-end tests of the terminal report: its lines, --style and
# -u/--time-unit, number formatting and alignment, the progress bar (with
# NO_COLOR, not with the command's output inherited), no escape code at all
# where hyperfine would write none, and control characters
# escaped wherever a command line is printed.  Nothing asserts a time.

test_two_commands_compared() {
	cb -r 5 true "$HELPERS/spin 20" >out 2>err || fail "exit $?"
	expect_grep "first benchmark" '^Benchmark 1: true$' out
	expect_grep "second benchmark" "^Benchmark 2: .*spin 20" out
	expect_grep "time line" 'Time \(mean ± σ\):.*\[User: .*, System: .*\]' out
	expect_grep "range line" 'Range \(min … max\):.* 5 runs' out
	expect_grep "summary" '^Summary' out
	expect_grep "faster line" 'times faster than .*spin 20' out
}

# By default as short as hyperfine's (issue 41: at most 1.5 times its
# non-blank lines, 9 for two commands): its lines, one more a benchmark
# for what cbench adds, the summary's one line a comparison (a counter's
# only when it differs: none here, --counters none); -v shows the rest.
test_default_is_as_short_as_hyperfine() {
	cb -r 5 -N --counters none --style basic 'sleep 0.001' 'sleep 0.002' >out 2>err ||
		fail "exit $?"
	expect_eq "non-blank lines" "$(grep -c '[^ ]' out)" 11
	expect_eq "one line of cbench's a benchmark" \
		"$(grep -cE '^  Mean 95 % CI: +[0-9.]+ [mµ]?s … +[0-9.]+ [mµ]?s    \[Peak RSS: [0-9.]+ [KM]iB\]$' out)" 2
	expect_no_grep "no median or outlier line" 'Median|Outliers:' out
	cb -r 5 -N --counters none --style basic --verbose 'sleep 0.001' 'sleep 0.002' >out 2>err ||
		fail "-v: exit $?"
	expect_grep "-v: the median" '\[Median: ' out
	expect_eq "-v: a Peak RSS line each" "$(grep -c '^  Peak RSS: ' out)" 2
}

test_style_and_time_unit() {
	cb -r 2 --style none true >out 2>err || fail "exit $?"
	expect_eq "no report" "$(wc -c <out)" 0
	cb -r 2 --style basic -u millisecond true >out 2>err || fail "exit $?"
	expect_grep "milliseconds" 'Time \(mean ± σ\): +[0-9.]+ ms' out
	cb -r 2 -u second true >out 2>err || fail "exit $?"
	expect_grep "seconds" 'Time \(mean ± σ\): +[0-9.]+ s ' out
}

# script(1) gives cbench a terminal (stdout and stderr), for the progress bar.
on_tty() {
	command -v script >/dev/null || skip "script(1) not installed"
	script -qec "$*" /dev/null </dev/null
}

test_no_color_keeps_progress_bar() {
	NO_COLOR=1 on_tty "$CBENCH" -r 5 "'sleep 0.02'" >tty || fail "exit $?"
	expect_grep "progress bar" '░|█' tty
	expect_no_grep "no colour" $'\033\\[3[0-9]m' tty
	NO_COLOR= TERM=xterm on_tty "$CBENCH" -r 2 true >tty2 || fail "exit $?"
	expect_grep "colour without NO_COLOR" $'\033\\[3[0-9]m' tty2
}

# One decision for every escape sequence, on a real terminal: hyperfine's
# rule (src/options.rs: TERM "dumb" or "unknown", or a non-empty
# NO_COLOR, give its NoColor style; nocolor and basic have no colour).
# No ESC byte at all then, in the report, the warnings (a failing run
# under -i draws one) or the progress bar, which redraws with a carriage
# return and spaces; cbench compare likewise.
test_no_escape_codes_when_plain() {
	local cmd="$CBENCH -r 4 -i '$HELPERS/crash exit 3 && sleep 0.02'" how
	for how in "TERM=xterm NO_COLOR= --style nocolor" \
		"TERM=xterm NO_COLOR= --style basic" "TERM=dumb NO_COLOR=" \
		"TERM=unknown NO_COLOR=" "TERM=xterm NO_COLOR=1"; do
		local env=${how%% --*} style=
		[ "$env" = "$how" ] || style=--${how#* --}
		env $env script -qec "$cmd $style" /dev/null </dev/null >tty ||
			fail "$how: exit $?"
		! grep -q $'\033' tty || fail "$how: escape codes: $(grep $'\033' tty | head -3 | cat -v)"
		expect_grep "$how: the report" 'Time \(mean' tty
		expect_grep "$how: the warning" 'Warning: 4 of 4 runs failed' tty
		[ "$style" = "--style basic" ] || expect_grep "$how: the bar" '░|█' tty
	done
	# Positive: the same on a colour terminal has colours and erase codes,
	# and --style full, asked for, has them even on a dumb one.
	for how in "TERM=xterm NO_COLOR=" "TERM=dumb NO_COLOR=1"; do
		env $how script -qec "$cmd --style full" /dev/null </dev/null >tty ||
			fail "full, $how: exit $?"
		expect_grep "full, $how: colour" $'\033\\[3[0-9]m' tty
		expect_grep "full, $how: yellow warning" $'\033\\[33mWarning:' tty
		expect_grep "full, $how: erase" $'\r\033\\[K' tty
	done
	cb -r 2 --export-json a.json true >out 2>err || fail "a.json: exit $?"
	cb -r 2 --export-json b.json true >out 2>err || fail "b.json: exit $?"
	TERM=dumb NO_COLOR= script -qec "$CBENCH compare a.json b.json" /dev/null </dev/null >tty
	expect_grep "compare: its table" 'a\.json' tty
	! grep -q $'\033' tty || fail "compare: escape codes: $(grep $'\033' tty | head -3 | cat -v)"
}

test_inherited_output_has_no_progress_bar() {
	NO_COLOR= on_tty "$CBENCH" --show-output -r 5 "'sh -c \"echo hello; sleep 0.02\"'" >tty ||
		fail "exit $?"
	expect_grep "command output shown" '^hello' tty
	expect_no_grep "no progress bar" '░|█' tty
	NO_COLOR= on_tty "$CBENCH" --output inherit -r 3 "'echo hi'" >tty || fail "exit $?"
	expect_no_grep "no progress bar with --output inherit" '░|█' tty
	# Positive: the same command, its output not inherited, has the bar.
	NO_COLOR= on_tty "$CBENCH" -r 5 "'sh -c \"echo hello; sleep 0.02\"'" >tty || fail "exit $?"
	expect_grep "progress bar when the output is not inherited" '░|█' tty
}

test_number_formatting() {
	# 19 quick runs and one of about 3 ms: mean under 1 ms, max above.
	cb -r 20 'if [ $CBENCH_ITERATION = 7 ]; then sleep 0.003; fi' >out 2>err ||
		fail "exit $?"
	expect_grep "times are formatted" '^  Time \(mean ± σ\): +[0-9]{1,3}\.[0-9]+ (µs|ms|s) ± +[0-9]{1,3}\.[0-9]+ (µs|ms|s)' out
	expect_grep "sizes are formatted" 'Peak RSS: [0-9]{1,3}\.[0-9] (KiB|MiB)\]$' out
	expect_no_grep "no 4-digit µs or ms values" '[0-9]{4}\.[0-9]* (µs|ms)' out
	expect_no_grep "no trailing spaces" ' $' out
	expect_no_grep "no 4-digit KiB" '[0-9]{4}\.[0-9] KiB' out
}

# The Outliers value lines up with the numbers above it (run 3 is a
# severe outlier, as in stats.sh).
test_outliers_aligned() {
	cb -v -r 10 "if [ \"\$CBENCH_ITERATION\" = 3 ]; then $HELPERS/spin 60; else $HELPERS/touch_pages 10; fi" \
		>out 2>err || fail "exit $?"
	expect_grep "outliers line" '^  Outliers:' out
	ci=$(grep '^  Mean 95 % CI:' out | sed 's/ [mµ]*s … .*//' | wc -m)
	ol=$(grep '^  Outliers:' out | sed 's/ mild.*//' | wc -m)
	expect_eq "outlier count ends where the CI's first number ends" "$ol" "$ci"
}

test_item15_control_characters_escaped_where_printed() {
	# A command line with a newline (a quoted one: the command still
	# works) must not put a workflow command at the start of a line.
	local cmd=$'echo "a\n::error title=x::y"'
	cb -r 3 -N --export-json c.json "$cmd" true >out 2>err ||
		fail "exit $?: $(cat err)"
	cat out err >all
	expect_no_grep "report: no workflow command at a line start" '^::error' all
	expect_grep "header escaped" '^Benchmark 1: echo "a\\n::error title=x::y"$' all
	expect_grep "summary escaped" '(^  echo "a\\n::error title=x::y" ran| than echo "a\\n::error title=x::y")' all
	# The gate's table and its warnings (an undecided row: one run).
	GITHUB_ACTIONS=true cb -r 1 -N --baseline c.json --confidence 99.9999999 \
		"$cmd" true >out 2>err
	cat out err >all
	expect_no_grep "gate: no workflow command at a line start" '^::error title=x' all
	expect_grep "gate table escaped" '^  echo "a\\n::error title=x::y"  ' all
	expect_grep "warning escaped" "^cbench: warning: 'echo \"a\\\\n::error title=x::y\"': [a-z_]+ could not be compared" all
	expect_grep "gate's level in full" "99\.9999999 % CI" all
}
