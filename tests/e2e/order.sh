# End-to-end tests of the run order, --order and --seed: interleaved by
# default (rounds, adaptive rounds that skip finished benchmarks, a failure
# that cleans up every benchmark), sequential (with its warning) and
# shuffled (seeded, the drawn seed printed and exported); make verdicts'
# carry-over table on made-up exports.

# Several benchmarks take turns by default (hyperfine runs them one after
# the other): a drift of the machine's speed then hits every one alike.
test_default_order_is_interleaved() {
	cb -r 2 --export-json o.json 'echo a$CBENCH_ITERATION >> log' \
		'echo b$CBENCH_ITERATION >> log' >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "run order (the second round reversed)" "$(tr '\n' ' ' <log)" "a0 b0 b1 a1 "
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
		"awarmup-1 a0 bwarmup-1 b0 b1 a1 a2 b2 "
	expect_eq "reports in plan order" "$(grep -c '^Benchmark' out)" 2
	expect_grep "first report" '^Benchmark 1: echo a' out
}

# Adaptive counts: alone, the slow command would have enough after 2 runs
# (2 x 0.6 s >= 1 s) and the fast one (sh -c, so no shell correction
# brings it to 0) would be capped at 40.  Interleaved, the two are one
# state group and stop together (README, "Run counts"): with their budgets
# pooled, 2 x 1 s, after 4 rounds of about 0.6 s (3 on a machine so loaded
# that the fast run takes 70 ms; 2 under valgrind, whose shell is slow),
# in rounds that alternate direction.  How many rounds depends on the
# machine; that they are whole rounds, alternating, of both, does not.
test_interleaved_adaptive_rounds_stop_together() {
	cb -m 2 -M 40 --min-time 1 --order interleaved \
		'sleep 0.6; echo a$CBENCH_ITERATION >> log' \
		"sh -c 'echo b\$CBENCH_ITERATION >> log'" >out 2>err ||
		fail "exit $?: $(cat err)"
	local na nb r want=""
	na=$(grep -c '^a' log)
	nb=$(grep -c '^b' log)
	expect_eq "runs of the fast one" "$nb" "$na"
	[ "$na" -ge 2 ] && [ "$na" -le 4 ] || fail "$na rounds"
	for ((r = 0; r < na; r++)); do
		if ((r % 2 == 0)); then want+="a$r b$r "; else want+="b$r a$r "; fi
	done
	expect_eq "whole rounds, alternating" "$(tr '\n' ' ' <log)" "$want"
}

# A failure stops everything; benchmarks in flight still get their cleanup.
test_interleaved_failure_cleans_up_all() {
	cb -r 4 --order interleaved -c 'echo clean >> log' \
		'echo a$CBENCH_ITERATION >> log' \
		'echo b$CBENCH_ITERATION >> log; test $CBENCH_ITERATION != 2' >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "exited with code 1 in run 3; use -i" err
	expect_eq "log" "$(tr '\n' ' ' <log)" "a0 b0 b1 a1 a2 b2 clean clean "
	expect_grep "report of the other one" '^Benchmark 1: echo a' out
	expect_grep "with its runs so far" ' 3 runs' out
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

# What the run before changes: "a" sleeps 50 ms when the run before it was
# "b" (a file says which ran last), so its runs after "b" are far slower
# than its runs after itself.  Interleaved (A B B A A B ...), 19 of its
# 20 runs count (the first followed its warmup): 10 after "b", 9 after
# itself.  Sequential, all follow itself, and no warning.
test_carryover_warned_and_exported() {
	a='if [ "$(cat last 2>/dev/null)" = b ]; then sleep 0.05; fi; echo a > last'
	b='echo b > last'
	cb -v -r 20 --export-json i.json --export-html i.html -n a -n b "$a" "$b" \
		>out 2>err || fail "exit $?: $(cat err)"
	expect_grep "the warning" "Warning: its runs took [0-9]+ % longer after another benchmark's run than after one of its own \(medians [0-9.]+ and [0-9.]+ ms, 10 and 9 runs, Mann-Whitney p = [0-9.e-]+\): what ran just before changes its time" err
	expect_eq "after itself" "$(jq '.results[0].carryover.runs_after_itself' i.json)" 9
	expect_eq "after the other" "$(jq '.results[0].carryover.runs_after_others' i.json)" 10
	expect_grep "in the HTML report" '<p class="bad">Warning: what ran before changed its time' i.html
	# and in a report made later from the file (its runs.run_index)
	cb report i.json -o later.html >out 2>err || fail "report: $(cat err)"
	expect_grep "from the file" '<p class="bad">Warning: what ran before changed its time' later.html
	jq -e '.results[0].carryover | .after_others - .after_itself > 0.04 and
		.change > 1 and .p_value < 0.001' i.json >/dev/null ||
		fail "carryover: $(jq -c '.results[0].carryover' i.json)"
	rm -f last
	cb -r 20 --order sequential --export-json s.json -n a -n b "$a" "$b" \
		>out 2>err || fail "exit $?: $(cat err)"
	expect_eq "sequential: all after itself" \
		"$(jq '.results[0].carryover | [.runs_after_itself, .runs_after_others]' -c s.json)" "[19,0]"
	expect_grep "sequential: reported" '^Benchmark 1: a' out
	expect_no_grep "sequential: no warning" 'after another benchmark' err
}

# make verdicts' carry-over table (tests/verdicts/carryover.py), on made-up
# exports whose runs' times are set by the run before them: in invocation
# 1, "a" takes 1.0 ms after itself and 1.05 or 1.15 ms after "b" (in
# turn: a median of 1.1 ms, +10 %), in invocation 2 1.15 or 1.25 ms (1.2
# ms, +20 %); "b" takes 2.0 ms after itself and 2.1 ms after "a" (+5 %).
# Expected, by hand: a after b +150 us, +15 % (the mean of 100 and 200 us,
# of 10 and 20 %), b after a +100 us, +5 %; the ratio b/a of the medians
# of all counted runs (a: 1.05 and 1.15 ms, b: 2.1 ms) against the ratio
# after themselves (2.0 / 1.0): (0 + (2.1 / 1.15 / 2 - 1)) / 2 = -4.3 %,
# and with every run after the other ((1.05 / 1.1 - 1) + (1.05 / 1.2 -
# 1)) / 2 = -8.5 %; the 95 % half-widths t * sd / sqrt(2) with t =
# scipy.stats.t.ppf(0.975, 1) = 12.706: 635.3 us (sd 70.71), 63.5 %,
# 55.2 % (sd 6.15) and 50.5 % (sd 5.62).  The first round (whose runs followed warmups) must be
# left out: its "a after b" of 5 ms would move those medians; the runs are
# ordered by run_index, their started_at given in reverse.
CARRYOVER_PY=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/tests/verdicts/carryover.py
test_carryover_report() {
	/usr/bin/python3 -c 'import scipy' 2>/dev/null ||
		skip "scipy not installed for /usr/bin/python3"
	mkdir -p co
	/usr/bin/python3 - co <<'PY'
import json, sys
rounds = ["ba", "ab", "ab", "ba", "ba", "ab", "ba", "ab"]
seq = [c for r in rounds for c in r]
for i in (1, 2):
    runs = {"a": ([], []), "b": ([], [])}
    after_b = 0
    for k, c in enumerate(seq):
        prev = seq[k - 1] if k else c
        if c == "a" and k < 2:
            w = 5e-3
        elif c == "a" and prev == "b":
            w = ((1.05e-3, 1.15e-3), (1.15e-3, 1.25e-3))[i - 1][after_b % 2]
            after_b += 1
        elif c == "a":
            w = 1.0e-3
        else:
            w = 2.1e-3 if prev == "a" and k >= 2 else 2.0e-3
        runs[c][0].append(k)
        runs[c][1].append(w)
    res = [{"name": n, "runs": {"run_index": x,
                                "started_at": [1e9 - j for j in x],
                                "wall_time": w, "task_clock": w}}
           for n, (x, w) in runs.items()]
    with open("%s/r%d.json" % (sys.argv[1], i), "w") as f:
        json.dump({"results": res}, f)
PY
	CARRYOVER_OPTIONS="--order shuffled" \
		/usr/bin/python3 "$CARRYOVER_PY" co 2 8 >co.out 2>&1 ||
		fail "carryover.py failed: $(cat co.out)"
	expect_grep "header" "^carry-over: 'a', 'b' run directly; 2 invocations of 8 rounds; options: --order shuffled;" co.out
	expect_grep "a after b" '^  a \([0-9.]* ms\) after b: wall time \+150\.0 us ± 635\.3 \(\+15\.0 % ± 63\.5\), task-clock \+150\.0 us ± 635\.3' co.out
	expect_grep "b after a" '^  b \(2\.[0-9]* ms\) after a: wall time \+100\.0 us ± 0\.0 \(\+5\.0 % ± 0\.0\)' co.out
	expect_grep "the ratio" "^  the ratio of b to a \\(medians\\), against each one's runs after itself: -4\\.3 % ± 55\\.2 in these runs; -8\\.5 % ± 50\\.5 with every run after the other \\(round-robin\\)$" co.out
	# One invocation: nothing to average over, said in words.
	/usr/bin/python3 "$CARRYOVER_PY" co 1 8 >one.out 2>&1 ||
		fail "carryover.py failed: $(cat one.out)"
	expect_grep "one invocation" '^  a \([0-9.]* ms\) after b: wall time not measured \(in 1 invocation, 2 needed\)' one.out
	expect_grep "no ratio" '^  the ratio of b to a: not measured \(in 1 invocation, 2 needed\)$' one.out
	expect_grep "the default order named" "^carry-over: 'a', 'b' run directly, interleaved \(the default order\); 1 invocation of 8 rounds;" one.out
}

# A benchmark's runs happen in the state its own --setup made (issue 37):
# setups that differ after substitution split the interleaving, so the
# runs of 'cat state (v = a)' read "a", never "b".
test_each_benchmark_runs_after_its_own_setup() {
	cb -r 3 -L v a,b --setup 'echo {v} > state' --show-output \
		--export-json o.json 'cat state' >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "what the runs read" "$(grep -xE '[ab]' out | tr '\n' ' ')" "a a a b b b "
	expect_grep "said once, before the runs" '^cbench: note: each benchmark has its own --setup or --cleanup, so each runs in turn' err
	expect_eq "JSON order" "$(jq -r .context.options.order o.json)" sequential
	# One setup for both: interleaved as before, no note.
	cb -r 2 --setup 'echo x > state' 'cat state' 'wc -c state' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_no_grep "no note" 'own --setup' err
}

# Groups: the benchmarks of one value share a setup and a cleanup, so they
# take turns with each other; the cleanup of a group waits for the last
# of its runs; only benchmarks of one group are compared by rounds.
test_state_groups_interleave_within_and_clean_up_after() {
	cb -r 2 -L v a,b --setup 'echo {v} > state; echo setup-{v} >> log' \
		--cleanup 'echo cleanup-{v} >> log; rm -f state' --export-json o.json \
		'sh -c "echo x-\$(cat state) >> log"' 'sh -c "echo y-\$(cat state) >> log"' \
		>out 2>err || fail "exit $?: $(cat err)"
	expect_eq "log" "$(tr '\n' ' ' <log)" \
		"setup-a x-a setup-a y-a y-a x-a cleanup-a cleanup-a setup-b x-b setup-b y-b y-b x-b cleanup-b cleanup-b "
	expect_grep "note" '^cbench: note: benchmarks with different --setup or --cleanup run in 2 groups, one after another' err
	expect_eq "JSON groups" "$(jq -c '[.results[].state_group]' o.json)" "[0,0,1,1]"
	expect_eq "JSON order" "$(jq -r .context.options.order o.json)" interleaved
	# Paired within a group, independent across groups (results 0, 1 are
	# group 0; 2, 3 group 1).
	jq -r '.comparisons[] | select(.metric == "wall_time") |
		"\(.reference) \(.candidate) \(.paired)"' o.json >cmps
	[ -s cmps ] || fail "no comparisons"
	while read -r a b p; do
		want=false
		[ $((a / 2)) = $((b / 2)) ] && want=true
		[ "$p" = "$want" ] || fail "benchmarks $a and $b: paired $p: $(cat cmps)"
	done <cmps
	grep -q ' true$' cmps || fail "none paired: $(cat cmps)"
}
