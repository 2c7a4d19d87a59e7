# End-to-end tests of the run order, --order and --seed: interleaved by
# default (rounds, adaptive rounds that skip finished benchmarks, a failure
# that cleans up every benchmark), sequential (with its warning) and
# shuffled (seeded, the drawn seed printed and exported).

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

test_shuffled_drawn_seed_exported() {
	# The seed drawn without --seed is the one in the JSON, so a saved
	# result can be repeated from the file alone.
	cb -r 2 --order shuffled --export-json r.json true 'true 1' \
		>out 2>err || fail "exit $?"
	seed=$(sed -n 's/.*--order=shuffled with seed \([0-9]*\) .*/\1/p' err)
	[ -n "$seed" ] || fail "no seed printed: $(cat err)"
	expect_eq "exported seed" "$(jq -r '.context.options.seed' r.json)" "$seed"
}
