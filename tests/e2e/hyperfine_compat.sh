# hyperfine compatibility (issue 17): what a hyperfine user types and
# reads keeps working.  Two parts:
#  1. one test per behaviour that used to differ from hyperfine 1.20;
#  2. a translation into cbench invocations of the cases hyperfine's own
#     test suite describes (tests/integration_tests.rs and
#     tests/execution_order_tests.rs of hyperfine 1.20, read as
#     documentation; hyperfine's --debug-mode fake executor has no
#     equivalent, so those cases use real commands and compare run counts
#     rather than absolute times).  Deliberate differences are listed in
#     the README's "Coming from hyperfine" section; where a case depends
#     on one (the interleaved default order), the test says so.

# bench_lines OUT: the display names of "Benchmark N: NAME" headers.
bench_lines() { sed -n 's/^Benchmark [0-9]*: //p' "$1"; }

# runs_of JSON I: the number of measured runs of benchmark I.
runs_of() { jq ".results[$2].times | length" "$1"; }

# ---- 1. the behaviours of issue 17 ----

test_ignore_failure_all_non_zero_is_bare_i() {
	cb -r 2 --ignore-failure=all-non-zero "$HELPERS/crash exit 5" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "runs recorded as failed" 'Warning: 2 of 2 runs failed \(exit code 5 ×2\), ignored by -i' err
	# Without it the same command stops cbench: the option did the work.
	cb -r 2 "$HELPERS/crash exit 5" >out 2>err
	expect_eq "without -i" "$?" 1
}

test_reference_name_names_the_reference() {
	cb -r 2 --style basic --reference 'true' --reference-name base -n other \
		--export-json o.json "$HELPERS/touch_pages 1" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "headers" "$(bench_lines out | tr '\n' '|')" "base|other|"
	expect_eq "JSON names" "$(jq -r '[.results[].command] | join("|")' o.json)" "base|other"
	expect_eq "JSON command lines" "$(jq -r '.results[0].command_line' o.json)" "true"
	expect_grep "summary names the reference" '^  base ran$' out
	# It names the --reference: without one it is an input error.
	cb -r 2 --reference-name base true >out 2>err
	expect_eq "without --reference: exit" "$?" 2
	expect_grep "one error line" "^cbench: error: --reference-name needs --reference CMD$" err
}

test_min_benchmarking_time_is_min_time() {
	cb -m 2 --min-benchmarking-time 0.25 --export-json a.json true >out 2>err ||
		fail "exit $?: $(cat err)"
	cb -m 2 --min-time 0.25 --export-json b.json true >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "recorded budget" "$(jq '.context.options.min_time_s' a.json)" 0.25
	expect_eq "same as --min-time" "$(jq '.context.options.min_time_s' b.json)" 0.25
	cb --min-benchmarking-time=-1 true >out 2>err
	expect_eq "checked like --min-time" "$?" 2
	cb --help >help
	expect_grep "--help lists it" '^      --min-benchmarking-time SECONDS$' help
}

# A slow --prepare: hyperfine's budget counts it, so the run count is about
# budget / (prepare + command).  Each run here costs at least 50 + 10 ms
# of sleep (sleep never returns early), so 0.6 s allows at most 10 runs
# plus the one that crosses the budget, where a budget of measured time
# only would have taken about 50.  The same budget without the prepare
# takes several times as many runs: compared within the test, since
# absolute times on a shared machine are not to be trusted.
test_budget_counts_prepare() {
	cb -m 2 --min-time 0.6 --prepare 'sleep 0.05' --export-json slow.json \
		'sleep 0.01' >out 2>err || fail "exit $?: $(cat err)"
	cb -m 2 --min-time 0.6 --export-json fast.json 'sleep 0.01' >out 2>err ||
		fail "exit $?: $(cat err)"
	local slow fast
	slow=$(runs_of slow.json 0)
	fast=$(runs_of fast.json 0)
	[ "$slow" -ge 2 ] && [ "$slow" -le 11 ] ||
		fail "with --prepare 'sleep 0.05': $slow runs (expected 2 to 11)"
	[ "$fast" -ge $((2 * slow)) ] ||
		fail "without the prepare $fast runs, with it $slow: the prepare's cost was not counted"
}

# hyperfine's order (src/command.rs): the commands vary fastest, then the
# first -L, then the next.
test_several_lists_vary_the_first_fastest() {
	cb -r 1 -L a 1,2,3 -L b x,y 'echo {a}{b}' >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "order" "$(bench_lines out | tr '\n' ' ')" \
		"echo 1x echo 2x echo 3x echo 1y echo 2y echo 3y "
	# -P with -L (hyperfine refuses the mix; cbench combines them the
	# same way: the first given varies fastest).
	cb -r 1 -P n 1 2 -L c u,v 'echo {n}{c}' >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "-P then -L" "$(bench_lines out | tr '\n' ' ')" "echo 1u echo 2u echo 1v echo 2v "
}

test_sort_command_lists_relative_speed_in_command_order() {
	cb -r 5 --sort command "$HELPERS/spin 20" "$HELPERS/spin 1" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "hyperfine's heading" '^Relative speed comparison$' out
	expect_eq "lines in command order" \
		"$(sed -n '/^Relative speed comparison$/,$p' out | sed -n '2,3s/^ *[0-9.]* *\(± *[0-9.]*\)\? *//p' | sed 's/ (95 %.*//')" \
		"$(printf '%s\n' "$HELPERS/spin 20" "$HELPERS/spin 1")"
	expect_grep "the fastest at 1.00" "^        1\.00          $HELPERS/spin 1$" out
	expect_grep "the other with ± and cbench's CI" \
		"^ +[0-9.]+ ± +[0-9.]+  $HELPERS/spin 20 \(95 % CI [0-9.]+–[0-9.]+, p" out
	# The default lists from the fastest, as before.
	cb -r 5 "$HELPERS/spin 20" "$HELPERS/spin 1" >out 2>err || fail "exit $?"
	expect_grep "default: the fastest ran" "^  $HELPERS/spin 1 ran$" out
	expect_no_grep "default: no listing" 'Relative speed comparison' out
}

# hyperfine's values (src/benchmark/executor.rs, BenchmarkIteration):
# warmup-0, warmup-1, ... then 0, 1, ...; not set for setup, prepare,
# conclude and cleanup (src/benchmark/mod.rs runs them as
# NonBenchmarkRun).  CBENCH_ITERATION, cbench's own, is set for them.
test_hyperfine_iteration_for_command_and_hooks() {
	cb -w 2 -r 3 --output null \
		-s 'echo s=${HYPERFINE_ITERATION-unset} >> log' \
		-p 'echo p=${HYPERFINE_ITERATION-unset}/$CBENCH_ITERATION >> log' \
		-C 'echo c=${HYPERFINE_ITERATION-unset}/$CBENCH_ITERATION >> log' \
		-c 'echo x=${HYPERFINE_ITERATION-unset} >> log' \
		'echo r=$HYPERFINE_ITERATION/$CBENCH_ITERATION >> log' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "values" "$(tr '\n' ' ' <log)" \
		"s=unset p=unset/warmup-1 r=warmup-0/warmup-1 c=unset/warmup-1 p=unset/warmup-2 r=warmup-1/warmup-2 c=unset/warmup-2 p=unset/0 r=0/0 c=unset/0 p=unset/1 r=1/1 c=unset/1 p=unset/2 r=2/2 c=unset/2 x=unset "
	# One inherited from the caller does not leak into setup.
	HYPERFINE_ITERATION=stale cb -r 1 -s 'echo ${HYPERFINE_ITERATION-unset} > s' true \
		>out 2>err || fail "exit $?"
	expect_eq "inherited value dropped" "$(cat s)" unset
}

# hyperfine 1.20's JSON: "memory_usage_byte", per run, bytes, between
# "times" and "exit_codes" (hyperfine's BenchmarkResult field order); here
# the same numbers as runs.peak_rss.
test_json_memory_usage_byte() {
	cb -r 3 --export-json o.json "$HELPERS/touch_pages 500" >out 2>err ||
		fail "exit $?: $(cat err)"
	jq -e '.results[0] | (.memory_usage_byte | length) == 3 and
		.memory_usage_byte == .runs.peak_rss and
		all(.memory_usage_byte[]; . == floor and . > 2000000)' o.json >/dev/null ||
		fail "memory_usage_byte: $(jq -c '.results[0].memory_usage_byte' o.json)"
	expect_eq "field order" "$(jq -r '.results[0] | keys_unsorted[8:11] | join(",")' o.json)" \
		"times,memory_usage_byte,exit_codes"
	expect_eq "schema unchanged" "$(jq '.schema_version' o.json)" 2
}

# Deliberate differences (the README's table), each as documented.

# A program that is not found is refused before anything runs, -i or not
# (hyperfine's sh -c records exit code 127); -S sh is hyperfine's way.
test_not_found_refused_even_with_i() {
	cb -r 2 -i nosuch-cbench-cmd >out 2>err
	expect_eq "exit" "$?" 1
	expect_grep "said" "^cbench: error: command 'nosuch-cbench-cmd' not found$" err
	expect_no_grep "nothing measured" 'Time \(' out
	cb -r 2 -i -S sh nosuch-cbench-cmd >out 2>err || fail "-S sh: exit $?: $(cat err)"
	expect_grep "-S sh: the shell's 127, ignored" 'Warning: 2 of 2 runs failed \(exit code 127 ×2\), ignored by -i' err
}

# hyperfine refuses --show-output with --style (and with --output, which
# cbench refuses too); cbench takes the style for its report.
test_show_output_with_style() {
	cb -r 2 --show-output --style basic 'echo shown-here' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "the output" "$(grep -c '^shown-here$' out)" 2
	expect_grep "the report" '^  Time \(mean ± σ\)' out
	! grep -q $'\033' out err || fail "escape codes with --style basic"
	cb -r 2 --show-output --output o.txt 'echo x' >out 2>err
	expect_eq "--output too: exit" "$?" 2
	expect_grep "--output too: said" '^cbench: error: --show-output cannot be combined with --output$' err
}

# The tables' Relative column is relative to the --reference (hyperfine's
# to the fastest), the slower reference here at 1.00 (20 times the work).
test_tables_relative_to_reference() {
	cb -r 3 --reference "$HELPERS/spin 20" --export-markdown t.md \
		"$HELPERS/spin 1" >out 2>err || fail "exit $?: $(cat err)"
	expect_grep "the reference at 1.00" "^\| \`$HELPERS/spin 20\` \|.*\| 1\.00 \|" t.md
	expect_no_grep "not the fastest" "^\| \`$HELPERS/spin 1\` \|.*\| 1\.00 \|" t.md
}

# Runs that fail under -i always draw a warning (whatever the machine's
# speed): the benchmark's warning these tests look for.
FAILING="$HELPERS/crash exit 3"

test_style_none_writes_nothing_but_errors() {
	# A warning, and a note (a shell, and without a PMU the counters).
	cb -r 3 -i --style none "$FAILING && :" >out 2>err || fail "exit $?"
	[ ! -s out ] || fail "stdout: $(head -c 300 out)"
	[ ! -s err ] || fail "stderr: $(head -c 300 err)"
	cb -r 3 -i "$FAILING && :" >out 2>err || fail "exit $?"
	expect_grep "without it, the warning" 'Warning: 3 of 3 runs failed' err
	expect_grep "and a note" '^cbench: note: ' err
	cb -r 3 --style none nosuch-cbench-cmd >out 2>err
	expect_eq "error exit" "$?" 1
	expect_grep "errors still show" "^cbench: error: command 'nosuch-cbench-cmd' not found" err
}

test_warnings_go_to_stderr() {
	cb -r 3 -i "$FAILING" >out 2>err || fail "exit $?"
	expect_grep "on stderr" '^  Warning: 3 of 3 runs failed \(exit code 3 ×3\)' err
	expect_no_grep "not on stdout" 'Warning' out
	expect_grep "the report on stdout" 'Time \(mean ± σ\)' out
}

# hyperfine's "± σ" (src/benchmark/relative_speed.rs): the ratio times
# sqrt((sd_a/mean_a)^2 + (sd_b/mean_b)^2), the sample standard deviations
# and means of the two benchmarks.  Checked against that formula computed
# here with awk from the JSON's "mean" and "stddev" fields.
test_ratio_line_has_plus_minus_sigma() {
	cb -r 10 --export-json o.json "$HELPERS/spin 2" "$HELPERS/spin 20" >out 2>err ||
		fail "exit $?: $(cat err)"
	local line r sd
	line=$(grep ' times faster than ' out | head -1)
	[[ $line =~ ^\ +([0-9.]+)\ ±\ ([0-9.]+)\ times\ faster\ than\ .*\(95\ %\ CI\ [0-9.]+–[0-9.]+,\ p\ [\<=] ]] ||
		fail "ratio line: $line"
	r=${BASH_REMATCH[1]} sd=${BASH_REMATCH[2]}
	read -r ma sa mb sb < <(jq -r '[.results[0].mean, .results[0].stddev,
		.results[1].mean, .results[1].stddev] | @tsv' o.json)
	awk -v r="$r" -v sd="$sd" -v ma="$ma" -v sa="$sa" -v mb="$mb" -v sb="$sb" \
		'BEGIN { want = r * sqrt((sa/ma)^2 + (sb/mb)^2)
			 d = sd - want; if (d < 0) d = -d
			 exit !(d <= 0.011 + 0.01 * want) }' ||
		fail "± $sd, expected $r * sqrt((sa/ma)^2 + (sb/mb)^2) from $ma $sa $mb $sb"
}

test_unquoted_command_hint() {
	cb sleep 0.1 >out 2>err
	expect_eq "exit" "$?" 1
	expect_grep "the hint" "^cbench: error: command '0.1' not found \(each command is one argument: to benchmark 'sleep 0.1', quote it: cbench 'sleep 0.1'\)$" err
	# A command that is simply missing gets no such hint.
	cb nosuch-cbench-cmd >out 2>err
	expect_grep "plain message" "^cbench: error: command 'nosuch-cbench-cmd' not found$" err
}

test_failed_command_points_to_show_output() {
	cb -r 2 "$HELPERS/crash exit 3" >out 2>err
	expect_eq "exit" "$?" 1
	expect_grep "hint" "exited with code 3 in run 1; use -i/--ignore-failure to keep going, or --show-output to see its error output$" err
	cb -r 2 --show-output "$HELPERS/crash exit 3" >out 2>err
	expect_grep "still the error" "exited with code 3 in run 1" err
	expect_no_grep "no hint when shown" 'or --show-output' err
}

test_same_display_names_disambiguated() {
	cb -r 2 -s 'echo 1 > v' -s 'echo 2 > v' --export-json o.json \
		"$HELPERS/touch_pages 1" "$HELPERS/touch_pages 1" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "headers" "$(bench_lines out | tr '\n' '|')" \
		"$HELPERS/touch_pages 1|$HELPERS/touch_pages 1 (#2)|"
	expect_grep "summary tells them apart" "touch_pages 1 \(#2\)" out
	expect_eq "JSON" "$(jq -r '.results[1].command' o.json)" "$HELPERS/touch_pages 1 (#2)"
	expect_eq "command line unchanged" "$(jq -r '.results[1].command_line' o.json)" \
		"$HELPERS/touch_pages 1"
}

# The first benchmark's command interrupts cbench itself (its pid is known
# before cbench starts: bash writes it, then execs cbench).
test_interrupt_says_which_never_ran() {
	bash -c 'echo $$ > pid; exec "$0" "$@"' "$CBENCH" --order sequential -r 3 \
		'kill -INT $(cat pid)' "$HELPERS/touch_pages 1" >out 2>err
	expect_eq "exit" "$?" 130
	expect_grep "says which" "^cbench: warning: interrupted: 1 of 2 benchmarks never ran \(2: $HELPERS/touch_pages 1\)$" err
	expect_grep "the first is reported" '^Benchmark 1: kill -INT' out
}

on_tty() {
	command -v script >/dev/null || skip "script(1) not installed"
	script -qec "$*" /dev/null </dev/null
}

test_warnings_wrapped_at_terminal_width() {
	cb -v -r 3 -i "$FAILING" >out 2>err || fail "exit $?"
	local one
	one=$(grep 'Warning: 3 of 3 runs failed' err)
	on_tty "stty cols 60; $CBENCH -v -r 3 -i --quiet --style basic '$FAILING'" | tr -d '\r' >tty
	sed -n '/Warning: 3 of 3 runs failed/,/meant\./p' tty >warning
	[ "$(wc -l <warning)" -gt 2 ] || fail "not wrapped: $(cat tty)"
	awk 'length($0) > 59 { print; bad = 1 } END { exit bad }' warning >long ||
		fail "warning lines over 59 columns: $(cat long)"
	# Joined again, the wrapped lines are the one-line warning: every
	# break is at a space, no word is cut.
	expect_eq "same words" "$(sed 's/^ *//' warning | tr '\n' ' ' | sed 's/ $//')" \
		"$(echo "$one" | sed 's/^ *//')"
}

test_progress_shows_elapsed_and_eta() {
	on_tty "$CBENCH -r 8 --quiet 'sleep 0.05'" | tr '\r' '\n' >tty
	expect_grep "elapsed and ETA" '[0-9]+/8, [0-9]+:[0-9]{2} elapsed, ETA [0-9]+:[0-9]{2}' tty
}

test_counters_note_once_per_machine() {
	cb -r 2 true >out 2>err1 || fail "exit $?"
	grep -q '^cbench: note: .*counters' err1 || skip "no counters note on this machine"
	cb -r 2 true >out 2>err2 || fail "exit $?"
	expect_no_grep "second run: no note" 'note: .*counters' err2
	ls "$XDG_CACHE_HOME"/cbench/counters-note-* >/dev/null 2>&1 || fail "no state file"
	# An unwritable cache: the note every time, and no error.
	: >notadir
	XDG_CACHE_HOME=$T/notadir cb -r 2 true >out 2>err3 || fail "exit $? with an unwritable cache"
	expect_grep "shown when it cannot be remembered" 'note: .*counters' err3
	# --quiet neither shows it nor marks it as seen.
	XDG_CACHE_HOME=$T/fresh cb -r 2 --quiet true >out 2>err4 || fail "exit $?"
	expect_no_grep "--quiet: no note" 'note:' err4
	[ ! -e fresh/cbench ] || [ -z "$(ls fresh/cbench)" ] || fail "--quiet wrote the state"
}

# A note (shell syntax) and a warning that do not depend on timing (failed
# runs ignored by -i).
test_quiet_silences_notes_not_warnings() {
	cb -r 3 -i 'true | false' >out 2>err || fail "exit $?"
	expect_grep "a note without it" '^cbench: note: shell syntax' err
	cb -r 3 -i --quiet 'true | false' >out 2>err || fail "exit $?"
	expect_no_grep "no notes" 'note:' err
	expect_grep "warnings stay" 'Warning: 3 of 3 runs failed \(exit code 1 ×3\), ignored by -i' err
}

# Every hyperfine 1.20 option cbench accepts is in --help (long names; the
# short letters where hyperfine has them).
test_help_lists_hyperfine_options() {
	cb --help >help
	local o
	for o in -w,--warmup -m,--min-runs -M,--max-runs -r,--runs -s,--setup \
		-p,--prepare -C,--conclude -c,--cleanup -P,--parameter-scan \
		-D,--parameter-step-size -L,--parameter-list -S,--shell \
		-N,--no-shell -i,--ignore-failure ,--style ,--sort -u,--time-unit \
		,--export-asciidoc ,--export-csv ,--export-json ,--export-markdown \
		,--export-orgmode ,--show-output ,--output ,--input -n,--command-name \
		,--reference ,--reference-name ,--min-benchmarking-time -h,--help \
		-V,--version; do
		local s=${o%%,*} l=${o#*,}
		if [ -n "$s" ]; then
			grep -qE -- "^  $s, $l( |\[|$)" help || fail "$s, $l not in --help"
		else
			grep -qE -- "^      $l( |\[|$)" help || fail "$l not in --help"
		fi
	done
}

# ---- 2. hyperfine's own test cases, translated ----

test_hf_runs_successfully() {
	cb --runs=2 'echo dummy benchmark' >out 2>err || fail "exit $?: $(cat err)"
	expect_grep "two runs" '2 runs' out
}

test_hf_one_run_is_supported() {
	cb --runs=1 'echo dummy benchmark' >out 2>err || fail "exit $?"
	expect_grep "abs line" 'Time \(abs ≡\)' out
}

test_hf_fails_with_zero_runs() {
	local o
	for o in --runs --min-runs --max-runs; do
		cb "$o" 0 'echo dummy' >out 2>err
		expect_eq "$o 0: exit" "$?" 2
		expect_grep "$o 0: message" "^cbench: error: invalid value '0' for $o" err
	done
}

test_hf_can_run_commands_without_a_shell() {
	cb --runs=1 --show-output --shell=none "echo 'hello world' argument2" >out 2>err ||
		fail "exit $?"
	expect_grep "words kept" '^hello world argument2$' out
}

test_hf_fails_with_wrong_number_of_command_names() {
	cb --command-name=a --command-name=b 'echo a' >out 2>err
	expect_eq "exit" "$?" 2
	expect_grep "message" '^cbench: error: too many --command-name options: expected 1 at most' err
}

test_hf_prepare_once_or_per_command() {
	cb --runs=1 --prepare='echo a' --prepare='echo b' 'echo a' 'echo b' >out 2>err ||
		fail "one per command: exit $?"
	cb --runs=1 --prepare='echo r' --prepare='echo a' --prepare='echo b' \
		--reference='echo r' 'echo a' 'echo b' >out 2>err ||
		fail "one per command with a reference: exit $?"
	cb --runs=1 --prepare='echo a' --prepare='echo b' 'echo a' 'echo b' 'echo c' >out 2>err
	expect_eq "two for three: exit" "$?" 2
	expect_grep "message" '^cbench: error: --prepare given 2 times for 3 commands' err
	cb --runs=1 --conclude='echo a' --conclude='echo b' --reference='echo r' \
		'echo a' 'echo b' >out 2>err
	expect_eq "conclude two for three with a reference: exit" "$?" 2
}

test_hf_fails_with_duplicate_parameter_names() {
	cb -L x 1,2,3 -L x a,b,c 'echo test' >out 2>err
	expect_eq "exit" "$?" 2
	expect_grep "message" "parameter 'x' is defined twice" err
}

test_hf_fails_for_unknown_commands_and_hooks() {
	local bad=some-nonexisting-program-b5d9574198b7e4b12a71fa4747c0a577
	cb --runs=1 "$bad" >out 2>err
	expect_eq "command: exit" "$?" 1
	expect_grep "command" "command '$bad' not found" err
	local h
	for h in setup prepare conclude cleanup; do
		cb --runs=1 "--$h=$bad" 'echo test' >out 2>err
		expect_eq "--$h: exit" "$?" 1
		expect_grep "--$h: names the hook" "$h.*'$bad'" err
	done
	cb --shell=none --runs=1 false >out 2>err
	expect_eq "failing command without a shell" "$?" 1
}

test_hf_ignore_failure_and_specific_codes() {
	cb false >out 2>err
	expect_eq "false fails" "$?" 1
	cb --runs=1 --ignore-failure false >out 2>err || fail "-i: exit $?"
	cb --runs=1 --ignore-failure=1 'exit 1' >out 2>err || fail "=1 on 1: exit $?"
	cb --runs=1 --ignore-failure=1 'exit 2' >out 2>err
	expect_eq "=1 on 2" "$?" 1
	expect_grep "code named" 'exited with code 2' err
	local c
	for c in 1 2 3; do
		cb --runs=1 --ignore-failure=1,2,3 "exit $c" >out 2>err || fail "=1,2,3 on $c: exit $?"
	done
	cb --runs=1 --ignore-failure=1,2,3 'exit 4' >out 2>err
	expect_eq "=1,2,3 on 4" "$?" 1
	cb --runs=1 --ignore-failure=all-non-zero 'exit 5' >out 2>err || fail "all-non-zero: exit $?"
}

test_hf_shows_output_of_benchmarked_command() {
	cb --runs=2 --command-name=dummy --show-output 'echo 4fd47015' >out 2>err ||
		fail "exit $?"
	expect_eq "twice" "$(grep -c 4fd47015 out)" 2
}

test_hf_runs_commands_using_user_defined_shell() {
	cb --runs=1 --show-output --shell "echo 'custom_shell' '--shell-arg'" 'echo benchmark' \
		>out 2>err || fail "exit $?: $(cat err)"
	expect_grep "the shell's words, then -c and the command" \
		'^custom_shell --shell-arg -c echo benchmark$' out
}

test_hf_input_from_a_file() {
	echo 'This text is part of a file' >in.txt
	cb --runs=1 --input=in.txt --show-output cat >out 2>err || fail "exit $?"
	expect_grep "read" '^This text is part of a file$' out
	cb --runs=1 --input=no-such-file.txt cat >out 2>err
	expect_eq "missing: exit" "$?" 2
	expect_grep "missing: says so" 'no-such-file.txt' err
}

test_hf_mean_time_in_the_unit_asked() {
	cb -r 2 --time-unit=millisecond 'sleep 0.1' >out 2>err || fail "exit $?"
	expect_grep "ms" 'Time \(mean ± σ\): +[0-9.]+ ms' out
	cb -r 2 --time-unit=microsecond 'sleep 0.1' >out 2>err || fail "exit $?"
	expect_grep "µs" 'Time \(mean ± σ\): +[0-9.]+ µs' out
}

test_hf_ten_runs_for_slow_commands() {
	cb 'sleep 0.35' >out 2>err || fail "exit $?"
	expect_grep "at least --min-runs" ' 10 runs$' out
}

# hyperfine's 'takes_conclusion_command_into_account': with the conclude
# as slow as the prepare above, as few runs.
test_hf_conclude_counts_in_the_budget() {
	cb -m 2 --min-time 0.6 --conclude 'sleep 0.05' --export-json o.json 'sleep 0.01' \
		>out 2>err || fail "exit $?: $(cat err)"
	local n
	n=$(runs_of o.json 0)
	[ "$n" -ge 2 ] && [ "$n" -le 11 ] || fail "$n runs (expected 2 to 11)"
}

test_hf_relative_times_in_the_summary() {
	cb -r 3 'sleep 0.1' 'sleep 0.2' 'sleep 0.3' >out 2>err || fail "exit $?"
	expect_grep "heading" '^Summary$' out
	expect_grep "fastest" '^  sleep 0.1 ran$' out
	expect_eq "two ratio lines" "$(grep -cE '^    [0-9.]+ ± [0-9.]+ times faster than sleep 0\.[23] ' out)" 2
}

# hyperfine's execution-order cases run benchmarks one after the other;
# cbench interleaves by default (a deliberate difference), so these ask
# for --order sequential.
hooks_log() {
	cb --order sequential "$@" >out 2>err || fail "exit $?: $(cat err)"
	tr '\n' '|' <log
}

test_hf_order_setup_prepare_cleanup_combined() {
	expect_eq "order" "$(hooks_log -w 1 -r 2 -s 'echo setup >> log' \
		-p 'echo prepare >> log' -c 'echo cleanup >> log' \
		'echo c1 >> log' 'echo c2 >> log')" \
		"setup|prepare|c1|prepare|c1|prepare|c1|cleanup|setup|prepare|c2|prepare|c2|prepare|c2|cleanup|"
}

test_hf_order_warmups_before_runs() {
	expect_eq "order" "$(hooks_log -w 3 -r 2 'echo $CBENCH_ITERATION >> log')" \
		"warmup-1|warmup-2|warmup-3|0|1|"
}

test_hf_order_one_setup_per_command() {
	expect_eq "order" "$(hooks_log -r 2 -s 'echo s1 >> log' -s 'echo s2 >> log' \
		'echo c1 >> log' 'echo c2 >> log')" "s1|c1|c1|s2|c2|c2|"
}

test_hf_order_parameter_values() {
	expect_eq "order" "$(hooks_log -r 2 -L number 1,2,3 -L letter a,b \
		'echo {number}{letter} >> log')" \
		"1a|1a|2a|2a|3a|3a|1b|1b|2b|2b|3b|3b|"
}

# Every case of hyperfine 1.20's tests/execution_order_tests.rs, run with
# --order sequential (hyperfine's order) and compared line for line; then
# the same invocation in the default order, where the log must hold the
# same lines (as many runs and hooks) and every run must follow a setup
# with no cleanup between: a benchmark's runs happen in the state its own
# setup made, before its own cleanup.  Commands are `echo WORD >> log`.
e() { printf 'echo %s >> log' "$1"; }
hf_order_case() {
	local want=$1
	shift
	rm -f log
	expect_eq "sequential" "$(hooks_log "$@")" "$want"
	sort log >seq.sorted
	rm -f log
	cb "$@" >out 2>err || fail "default order: exit $?: $(cat err)"
	sort log | cmp -s - seq.sorted ||
		fail "default order ran other steps: $(tr '\n' '|' <log)"
	awk '/^setup/ { s = 1; next } /^cleanup/ { s = 0; next }
	     /^(prepare|conclude)/ { next }
	     had_setup && !s { print "run outside its setup: " NR ": " $0; bad = 1 }
	     END { exit bad }' had_setup="$(grep -c '^setup' seq.sorted)" log ||
		fail "default order: $(tr '\n' '|' <log)"
}

test_hf_order_execution_order_tests_rs() {
	hf_order_case "command 1|command 2|" -r 1 "$(e 'command 1')" "$(e 'command 2')"
	hf_order_case "command 1|command 1|command 2|command 2|" -r 2 \
		"$(e 'command 1')" "$(e 'command 2')"
	hf_order_case "command 1|command 1|command 1|command 1|command 1|" -r 2 -w 3 \
		"$(e 'command 1')"
	hf_order_case "setup|command 1|command 1|setup|command 2|command 2|" -r 2 \
		-s "$(e setup)" "$(e 'command 1')" "$(e 'command 2')"
	hf_order_case "prepare|command 1|prepare|command 1|prepare|command 2|prepare|command 2|" \
		-r 2 -p "$(e prepare)" "$(e 'command 1')" "$(e 'command 2')"
	hf_order_case "command 1|conclude|command 1|conclude|command 2|conclude|command 2|conclude|" \
		-r 2 -C "$(e conclude)" "$(e 'command 1')" "$(e 'command 2')"
	hf_order_case "prepare|command 1|prepare|command 1|prepare|command 1|prepare|command 2|prepare|command 2|prepare|command 2|" \
		-w 2 -r 1 -p "$(e prepare)" "$(e 'command 1')" "$(e 'command 2')"
	hf_order_case "command 1|conclude|command 1|conclude|command 1|conclude|command 2|conclude|command 2|conclude|command 2|conclude|" \
		-w 2 -r 1 -C "$(e conclude)" "$(e 'command 1')" "$(e 'command 2')"
	hf_order_case "command 1|command 1|cleanup|command 2|command 2|cleanup|" -r 2 \
		-c "$(e cleanup)" "$(e 'command 1')" "$(e 'command 2')"
	hf_order_case "setup|prepare|command1|conclude|prepare|command1|conclude|prepare|command1|conclude|cleanup|setup|prepare|command2|conclude|prepare|command2|conclude|prepare|command2|conclude|cleanup|" \
		-w 1 -r 2 -s "$(e setup)" -p "$(e prepare)" -C "$(e conclude)" \
		-c "$(e cleanup)" "$(e command1)" "$(e command2)"
	hf_order_case "command 1|command 1|command 2|command 2|command 3|command 3|" -r 2 \
		-L number 1,2,3 "$(e 'command {number}')"
	hf_order_case "reference|command 1|command 2|" -r 1 --reference "$(e reference)" \
		"$(e 'command 1')" "$(e 'command 2')"
	hf_order_case "reference|reference|command 1|command 1|command 2|command 2|command 3|command 3|" \
		-r 2 --reference "$(e reference)" -L number 1,2,3 "$(e 'command {number}')"
	hf_order_case "command 1|command 1|command 2|" -r 1 --reference "$(e 'command 1')" \
		"$(e 'command 1')" "$(e 'command 2')"
	local one="prepare|X|conclude|prepare|X|conclude|prepare|X|conclude|"
	hf_order_case "setup|${one//X/reference}cleanup|setup|${one//X/command1}cleanup|setup|${one//X/command2}cleanup|" \
		-w 1 -r 2 -s "$(e setup)" -p "$(e prepare)" --reference "$(e reference)" \
		-C "$(e conclude)" -c "$(e cleanup)" "$(e command1)" "$(e command2)"
	local sep="prepareN|commandN|concludeN|"
	sep="$sep$sep$sep"
	hf_order_case "setup|${sep//N/1}cleanup|setup|${sep//N/2}cleanup|" \
		-w 1 -r 2 -s "$(e setup)" -c "$(e cleanup)" \
		-p "$(e prepare1)" -C "$(e conclude1)" "$(e command1)" \
		-p "$(e prepare2)" -C "$(e conclude2)" "$(e command2)"
	hf_order_case "setup|${sep//N/ref}cleanup|setup|${sep//N/1}cleanup|setup|${sep//N/2}cleanup|" \
		-w 1 -r 2 -s "$(e setup)" -c "$(e cleanup)" \
		-p "$(e prepareref)" --reference "$(e commandref)" -C "$(e concluderef)" \
		-p "$(e prepare1)" -C "$(e conclude1)" "$(e command1)" \
		-p "$(e prepare2)" -C "$(e conclude2)" "$(e command2)"
}

test_hf_default_order_interleaves() {
	cb -r 2 'echo a >> log' 'echo b >> log' >out 2>err || fail "exit $?"
	expect_eq "one run of each in turn, every other round reversed" \
		"$(tr '\n' '|' <log)" "a|b|b|a|"
}
