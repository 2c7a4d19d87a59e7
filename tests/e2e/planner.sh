# End-to-end tests of the planner: parameter sweeps, hooks, run order,
# timeouts, input and output of the command, and bad values.

# Several benchmarks take turns by default (hyperfine runs them one after
# the other): a drift of the machine's speed then hits every one alike.
test_default_order_is_interleaved() {
	cb -r 2 --export-json o.json 'echo a$CBENCH_ITERATION >> log' \
		'echo b$CBENCH_ITERATION >> log' >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "run order" "$(tr '\n' ' ' <log)" "a0 b0 a1 b1 "
	expect_eq "JSON order" "$(jq -r .context.options.order o.json)" interleaved
	expect_grep "both reported" '^Benchmark 2: echo b' out
	expect_no_grep "no sequential warning" 'order sequential' err
}

# One benchmark runs as sequential: its header before its runs, and the
# JSON says so.
test_one_benchmark_runs_sequential() {
	cb -r 2 --export-json o.json true >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "JSON order" "$(jq -r .context.options.order o.json)" sequential
	expect_grep "report" '^Benchmark 1: true' out
	expect_no_grep "no warning" 'order sequential' err
}

# --order sequential for a comparison is allowed, with one warning before
# the runs saying why it is risky.
test_sequential_order_warns_once() {
	cb -r 2 --order sequential 'echo a$CBENCH_ITERATION >> log' \
		'echo b$CBENCH_ITERATION >> log' >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "run order" "$(tr '\n' ' ' <log)" "a0 a1 b0 b1 "
	expect_eq "one warning" "$(grep -c 'warning: --order sequential: each benchmark runs after the other' err)" 1
}

test_interleaved_order() {
	cb -w 1 -r 3 --order interleaved 'echo a$CBENCH_ITERATION >> log' \
		'echo b$CBENCH_ITERATION >> log' >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "run order" "$(tr '\n' ' ' <log)" \
		"awarmup-1 a0 bwarmup-1 b0 a1 b1 a2 b2 "
	expect_eq "reports in plan order" "$(grep -c '^Benchmark' out)" 2
	expect_grep "first report" '^Benchmark 1: echo a' out
}

# Adaptive counts: the slow command has enough after 2 runs (2 x 0.6 s >=
# 1 s), the fast one (sh -c, so no shell correction brings it to 0) would
# need hundreds and is capped at 40; later rounds skip the slow one.
test_interleaved_adaptive_rounds_skip_finished() {
	cb -m 2 -M 40 --min-time 1 --order interleaved \
		'sleep 0.6; echo a$CBENCH_ITERATION >> log' \
		"sh -c 'echo b\$CBENCH_ITERATION >> log'" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "first rounds" "$(head -n 5 log | tr '\n' ' ')" "a0 b0 a1 b1 b2 "
	expect_eq "slow runs" "$(grep -c '^a' log)" 2
	# 40 unless the machine is so loaded that sh -c takes 25 ms.
	[ "$(grep -c '^b' log)" -gt 3 ] || fail "fast command: $(grep -c '^b' log) runs"
}

# A failure stops everything; benchmarks in flight still get their cleanup.
test_interleaved_failure_cleans_up_all() {
	cb -r 3 --order interleaved -c 'echo clean >> log' \
		'echo a$CBENCH_ITERATION >> log' \
		'echo b$CBENCH_ITERATION >> log; test $CBENCH_ITERATION != 1' >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "exited with code 1 in run 2; use -i" err
	expect_eq "log" "$(tr '\n' ' ' <log)" "a0 b0 a1 b1 clean clean "
	expect_grep "report of the other one" '^Benchmark 1: echo a' out
	expect_grep "with its runs so far" ' 2 runs' out
	expect_no_grep "no report of the failed one" '^Benchmark 2' out
}

test_shuffled_order_seeded() {
	for k in 1 2; do
		cb -r 4 --order shuffled --seed 3 'echo a >> log'$k 'echo b >> log'$k \
			'echo c >> log'$k >out 2>err$k || fail "exit $?: $(cat err$k)"
	done
	expect_grep "seed printed" '^cbench: note: --order=shuffled with seed 3 ' err1
	cmp -s log1 log2 || fail "same seed, different orders"
	# Every round of three runs is a permutation of the three commands.
	rounds=$(paste -d '' - - - <log1 | while read -r r; do
		echo "$r" | fold -w1 | sort | tr -d '\n'; echo; done | sort -u)
	expect_eq "rounds" "$rounds" "abc"
	# Without --seed one is drawn and printed; passing it repeats the order.
	cb -r 4 --order shuffled 'echo a >> log3' 'echo b >> log3' 'echo c >> log3' \
		>out 2>err3 || fail "exit $?"
	seed=$(sed -n 's/.*--order=shuffled with seed \([0-9]*\) .*/\1/p' err3)
	[ -n "$seed" ] || fail "no seed printed: $(cat err3)"
	cb -r 4 --order shuffled --seed "$seed" 'echo a >> log4' 'echo b >> log4' \
		'echo c >> log4' >out 2>err || fail "exit $?"
	cmp -s log3 log4 || fail "seed $seed did not repeat the order"
}

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

test_input_file() {
	echo hello >in.txt
	cb -r 2 --input in.txt 'grep -q hello' >out 2>err || fail "exit $?: $(cat err)"
	cb -r 1 'grep -q hello' >out 2>err
	expect_eq "stdin is /dev/null by default" "$?" 1
}

test_reference_first_and_sort() {
	cb -r 3 --reference 'sleep 0.02' true >out 2>err || fail "exit $?"
	expect_eq "reference first" "$(bench_lines out | head -n 1)" "sleep 0.02"
	expect_grep "summary from the reference" '^  sleep 0.02 ran' out
	cb -r 3 --sort mean-time 'sleep 0.02' true >out 2>err || fail "exit $?"
	expect_grep "fastest first" '^  true ran' out
	# --sort orders the lines only: the base stays the fastest (at 1.00
	# in hyperfine's command-order listing).
	cb -r 3 --sort command 'sleep 0.02' true >out 2>err || fail "exit $?"
	expect_grep "command order, fastest base" '^        1\.00          true$' out
}

test_style_and_time_unit() {
	cb -r 2 --style none true >out 2>err || fail "exit $?"
	expect_eq "no report" "$(wc -c <out)" 0
	cb -r 2 --style basic -u millisecond true >out 2>err || fail "exit $?"
	expect_grep "milliseconds" 'Time \(mean ± σ\): +[0-9.]+ ms' out
	cb -r 2 -u second true >out 2>err || fail "exit $?"
	expect_grep "seconds" 'Time \(mean ± σ\): +[0-9.]+ s ' out
}

test_bad_values_exit_2_before_running() {
	while IFS= read -r args; do
		rm -f ran
		eval "cb -r 1 $args 'touch ran'" >out 2>err
		rc=$?
		[ "$rc" = 2 ] || fail "$args: exit $rc, expected 2: $(cat err)"
		[ ! -e ran ] || fail "$args: the command ran"
		[ "$(grep -c '^cbench: error: ' err)" = 1 ] || fail "$args: $(cat err)"
	done <<'EOF'
-P n 5 1
-P n 1 5 -D 0
-P n 1 5 -D -0.5
-P n one 5
-P n 1 5x
-P n 1.5 3
-P n 1 200000
-P a 1 1000 -P b 1 1000
-L n 1 -L n 2
-P n 1 2 -L n 3
-L n ''
-L n ,
-L n a,,b
-L n a,b,
-L n a,b,a
-D 1
--reference '{n}' -L n 1,2
--order sideways
--seed -1
--sort fastest
--timeout 0
--timeout x
-i=0
--input /nonexistent/file
--output /nonexistent/dir/file
--output a --output b
-p a -p b
--style loud
-u hours
EOF
}

test_shuffled_drawn_seed_exported() {
	# The seed drawn without --seed is the one in the JSON, so a saved
	# result can be repeated from the file alone.
	cb -r 2 --order shuffled --export-json r.json true 'true 1' \
		>out 2>err || fail "exit $?"
	seed=$(sed -n 's/.*--order=shuffled with seed \([0-9]*\) .*/\1/p' err)
	[ -n "$seed" ] || fail "no seed printed: $(cat err)"
	expect_eq "exported seed" "$(jq -r '.context.options.seed' r.json)" "$seed"
}
