# End-to-end tests of --counters sim and sim-cache (Valgrind's simulated
# CPU) and --profile: counts the same in every run are exact, a gate on
# them is decided by its threshold alone, the summary leads with them,
# the environment's size stays the same across runs, counts that vary are
# said to, --profile names the function that got slower, and what cannot
# be counted is an error.  Every count here is deterministic (no timing):
# the assertions hold on a loaded machine.

SIM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

need_valgrind() {
	command -v valgrind >/dev/null || skip "valgrind not installed"
}

sim_count() { jq -r ".results[$2].metrics.sim_instructions.$3" "$1"; }

# +0.59 % and +0.39 % more work against a 0.5 % threshold: the first
# fails the gate (exit 3), the second passes, both exactly.
test_sim_gate_decided_by_threshold() {
	need_valgrind
	cb --counters sim -N --reference "$HELPERS/loop 1000000" \
		--fail-if-slower 0.5% --export-json o.json \
		"$HELPERS/loop 1006000" "$HELPERS/loop 1004000" >out 2>err
	expect_eq "exit (a regression)" "$?" 3
	expect_grep "gate on the simulated count" '^Gate on sim_instructions \(simulated on both sides\)' out
	expect_grep "the +0.59 % one" '/loop 1006000 .* \+0\.5[0-9]* %  exact .*regression$' out
	expect_grep "the +0.39 % one" '/loop 1004000 .* \+0\.3[0-9]* %  exact .*below threshold$' out
	expect_eq "3 runs by default" "$(jq '.results[0].times | length' o.json)" 3
	expect_eq "exact" "$(jq '.results[0].metrics.sim_instructions.exact' o.json)" true
	expect_eq "one value" "$(sim_count o.json 0 min)" "$(sim_count o.json 0 max)"
	expect_eq "comparison exact" "$(jq '[.comparisons[] | select(.metric ==
		"sim_instructions") | .exact] | all' o.json)" true
	expect_eq "no p-value" "$(jq '[.comparisons[] | select(.metric ==
		"sim_instructions") | .p_welch] | unique' o.json | tr -d ' \n')" "[null]"
	expect_eq "context" "$(jq -r .context.simulated.tool o.json)" "valgrind cachegrind"
	# The unchanged program passes, and says why.
	cb --counters sim -N --reference "$HELPERS/loop 1000000" \
		--fail-if-slower 0.3% "$HELPERS/loop 1000000" >out 2>err ||
		fail "the same program failed the gate: $(cat out err)"
	expect_grep "the same count" '  \+0 %  exact ' out
}

# The summary leads with the simulated instructions, exact, and the
# wall time (Valgrind's) follows; one note says so before the runs.
test_sim_summary_and_exact_lines() {
	need_valgrind
	cb -v --counters sim -N "$HELPERS/loop 200000" "$HELPERS/loop 100000" \
		>out 2>err || fail "exit $?: $(cat err)"
	expect_grep "note" "^cbench: note: --counters sim: each run executes on Valgrind's simulated CPU" err
	expect_grep "exact line" '^  sim instructions: +[0-9,]+  \(exact: the same in all 3 runs\)$' out
	expect_grep "headline" '^  .*/loop 100000 ran$' out
	expect_grep "ratio" '^    [0-9.]+ times fewer sim instructions than .*/loop 200000 \(exact: each the same in every run, \+[0-9.]+ %\)$' out
	expect_grep "time after it" '^      Time: ' out
	expect_no_grep "no time warnings under Valgrind" 'mostly waits' out
}

# The iteration variables grow from one digit to two at run 10: the
# padding keeps the environment's size, which a program's start-up reads
# (so its count), the same in all 11 runs.
test_sim_environment_size_constant() {
	need_valgrind
	cb --counters sim -r 11 --export-json o.json \
		"sh -c 'printenv | wc -c >> sizes'" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_eq "runs" "$(wc -l <sizes)" 11
	expect_eq "one size" "$(sort -u sizes | wc -l)" 1
	cb --counters sim -r 1 --show-output 'printenv CBENCH_SIM_PAD' >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "the padding variable" '^X+$' out
}

# Counts that vary (here the work depends on the shell's pid) are not
# exact: the report says by how much and what usually causes it, and the
# comparison falls back on the statistics.
test_sim_varying_counts_warned() {
	need_valgrind
	cb -v --counters sim --export-json o.json \
		"sh -c '$HELPERS/loop \$(( \$\$ % 5000 * 100 ))'" >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "warning" 'Warning: its sim instructions differ between runs \([0-9,]+ to [0-9,]+, [0-9.e+-]+ %\), so they are not exact.*PYTHONHASHSEED=0' err
	expect_eq "not exact" "$(jq '.results[0].metrics.sim_instructions.exact' o.json)" false
	expect_no_grep "no exact line" 'exact: the same' out
}

# sim-cache: the cache events and the estimated cycles, Turner-
# Trauring's formula checked on the run's own counts.
test_sim_cache_metrics_and_cycles() {
	need_valgrind
	cb --counters sim-cache -N -r 2 --export-json o.json "$HELPERS/loop 1000" \
		>out 2>err || fail "exit $?: $(cat err)"
	for k in sim_cycles sim_i1_misses sim_d1_read_misses sim_d1_write_misses \
		sim_ll_instr_misses sim_ll_read_misses sim_ll_write_misses; do
		[ "$(jq ".results[0].metrics.$k.n" o.json)" = 2 ] || fail "$k not counted"
	done
	# Cycles >= instructions (every access costs at least 1), and a run
	# with misses costs more than its instructions alone.
	jq -e '.results[0].metrics | .sim_cycles.mean > .sim_instructions.mean' \
		o.json >/dev/null || fail "cycles not above instructions"
	expect_eq "context" "$(jq .context.simulated.cache_simulation o.json)" true
}

# --profile: callgrind per benchmark; the comparison names the function
# made slower (prog.c's parse_line with -DSLOW) first, in the terminal
# and the JSON, and callgrind's files are kept.
test_profile_names_the_slower_function() {
	need_valgrind
	command -v cc >/dev/null || skip "no C compiler"
	cc -O1 -g -o base "$SIM_ROOT/tests/fixtures/valgrind/prog.c" &&
		cc -O1 -g -DSLOW -o slow "$SIM_ROOT/tests/fixtures/valgrind/prog.c" ||
		fail "cannot build prog.c"
	cb -N --profile prof --export-json o.json --export-html p.html \
		./base ./slow >out 2>err || fail "exit $?: $(cat err)"
	expect_grep "terminal" '^      where: \+[0-9.]+ points in parse_line \(prog\.c\)' out
	expect_eq "JSON first function" "$(jq -r '.comparisons[] | select(.metric ==
		"sim_instructions") | .where.functions[0].function' o.json)" parse_line
	[ -s prof/callgrind.out.1 ] && [ -s prof/callgrind.out.2 ] ||
		fail "callgrind's files not kept: $(ls prof)"
	grep -q '^events: Ir' prof/callgrind.out.1 || fail "not a callgrind file"
	expect_eq "JSON file" "$(jq -r '.results[1].profile_file' o.json)" prof/callgrind.out.2
	# The HTML report: the first row of the table and a growing frame.
	expect_eq "HTML first function" "$(awk '/id="profiles"/,0' p.html |
		grep -m1 -o '<tr><td><code>[^<]*</code>')" '<tr><td><code>parse_line</code>'
	expect_grep "HTML flame frame" '<title>parse_line&#10;base [0-9,]+, candidate [0-9,]+ instructions.*class="grow5"' p.html
	expect_grep "HTML sim summary" '<td>[0-9,]+ \(exact\)</td>' p.html
	# A directory with something in it is refused before anything runs.
	cb -N --profile prof ./base >out 2>err
	expect_eq "non-empty directory: exit" "$?" 2
	expect_grep "message" "^cbench: error: --profile prof: the directory is not empty" err
	# --profile under other counters is refused.
	cb --counters task-clock --profile p2 ./base >out 2>err
	expect_eq "other counters: exit" "$?" 2
	[ ! -e p2 ] || fail "p2 made"
}

# Without valgrind on PATH: one line naming the package, exit 1, nothing
# run.
test_sim_without_valgrind() {
	mkdir bin
	ln -s "$(command -v sh)" bin/sh
	PATH=$PWD/bin cb --counters sim "$HELPERS/loop 10" >out 2>err
	expect_eq "exit" "$?" 1
	expect_grep "message" '^cbench: error: --counters sim runs each command under Valgrind, which is not installed \(Debian and Ubuntu: apt-get install valgrind\)$' err
	expect_no_grep "nothing run" '^Benchmark' out
}

# A process that escapes the process group would write its counts into a
# later run's: an error, said plainly.
test_sim_escaped_process_is_an_error() {
	need_valgrind
	command -v setsid >/dev/null || skip "setsid not installed"
	# The command ends only once the escaped one has started.
	cb --counters sim -r 2 "sh -c 'setsid sh -c \"touch started; sleep 3\" \
		>/dev/null 2>&1 & while [ ! -e started ]; do sleep 0.1; done'" \
		>out 2>err
	expect_eq "exit" "$?" 1
	expect_grep "message" "left a process running after it exited in run 1 .*: its simulated count cannot be complete" err
}

# A native baseline against runs under Valgrind (or the reverse) compares
# nothing: refused before anything runs, exit 2, one line each way.
test_sim_and_native_never_compared() {
	need_valgrind
	cb -N -r 2 --export-json nat.json "$HELPERS/loop 1000" >out 2>err ||
		fail "exit $?: $(cat err)"
	cb --counters sim -N -r 2 --export-json sim.json "$HELPERS/loop 1000" \
		>out 2>err || fail "exit $?: $(cat err)"
	cb --counters sim -N --baseline nat.json "$HELPERS/loop 1000" >out 2>err
	expect_eq "sim run, native baseline: exit" "$?" 2
	expect_grep "message" '^cbench: error: the baseline nat\.json was measured natively and this run would be under Valgrind' err
	expect_no_grep "nothing ran" '^Benchmark' out
	cb compare nat.json sim.json >out 2>err
	expect_eq "compare: exit" "$?" 2
	expect_grep "compare message" '^cbench: error: sim\.json was measured under Valgrind \(--counters sim\) and nat\.json natively' err
	# Both simulated: compared, exactly, as files and in a run.
	cb compare sim.json sim.json >out 2>err || fail "exit $?: $(cat err)"
	expect_grep "exact" ' exact ' out
	cb --counters sim -N -r 2 --baseline sim.json "$HELPERS/loop 1000" \
		>out 2>err || fail "sim baseline, sim run: exit $?: $(cat err)"
	expect_grep "gated on the count" '^Gate on sim_instructions' out
	expect_grep "exactly" ' exact ' out
	# And from a history: a simulated one gates a simulated run; a native
	# run against it is refused, naming the history.
	for i in 1 2; do
		cb --counters sim -N -r 2 --history h.db "$HELPERS/loop 1000" >out 2>err ||
			fail "history $i: exit $?: $(cat err)"
	done
	cb --counters sim -N -r 2 --history h.db --baseline-history \
		"$HELPERS/loop 1000" >out 2>err || fail "from the history: exit $?: $(cat err)"
	expect_grep "history gated on the count" '^Gate on sim_instructions' out
	cb -N -r 2 --history h.db --baseline-history "$HELPERS/loop 1000" >out 2>err
	expect_eq "native run, simulated history: exit" "$?" 2
	expect_grep "history message" '^cbench: error: the history \(.*\) was measured under Valgrind \(--counters sim\) and this run would be native' err
	expect_no_grep "no (null)" 'null' err
}

# The simulated metrics are gate metrics like any other: named with
# --gate-metric or --fail-if-slower METRIC=PCT, and refused before any
# run where they would not be counted.
test_sim_gate_metric_named() {
	need_valgrind
	cb --counters sim -N -r 2 --reference "$HELPERS/loop 1000000" \
		--fail-if-slower sim_instructions=0.5% "$HELPERS/loop 1006000" >out 2>err
	expect_eq "METRIC=PCT: exit (a regression)" "$?" 3
	expect_grep "gated on it" '^Gate on sim_instructions \(chosen with --gate-metric' out
	cb --counters sim -N -r 2 --reference "$HELPERS/loop 1000" --fail-if-slower 1% \
		--gate-metric sim_instructions "$HELPERS/loop 1000" >out 2>err ||
		fail "--gate-metric sim_instructions: exit $?: $(cat err)"
	expect_grep "exactly" ' exact ' out
	cb -N -r 2 --reference "$HELPERS/loop 1000" --fail-if-slower 1% \
		--gate-metric sim_instructions "$HELPERS/loop 1000" >out 2>err
	expect_eq "natively: exit" "$?" 2
	expect_grep "why" "^cbench: error: --gate-metric sim_instructions: counted only with --counters sim \(Valgrind's simulated CPU\)$" err
	expect_no_grep "before any run" '^Benchmark' out
	cb --counters sim -N -r 2 --reference "$HELPERS/loop 1000" --fail-if-slower 1% \
		--gate-metric sim_cycles "$HELPERS/loop 1000" >out 2>err
	expect_eq "cycles without the cache simulation: exit" "$?" 2
	expect_grep "which mode" "counted only with --counters sim-cache \(Valgrind's simulated CPU and caches\)$" err
	cb -N -r 2 --reference "$HELPERS/loop 1000" --fail-if-slower sim_instructions=1% \
		"$HELPERS/loop 1000" >out 2>err
	expect_eq "METRIC=PCT natively: exit" "$?" 2
	expect_grep "the option given" '^cbench: error: --fail-if-slower sim_instructions: counted only with --counters sim' err
}

# The Markdown table's verdict is the simulated count's (exact), and the
# count is written as the whole number it is.
test_sim_markdown_verdict_on_the_count() {
	need_valgrind
	cb --counters sim -N -r 2 --style none --reference "$HELPERS/loop 1000" \
		"$HELPERS/loop 2000" --export-markdown m.md >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "the header" '^\| Command .* \| sim instructions \| Significance \|$' m.md
	expect_grep "slower by its count" '^\| `[^`]*loop 2000` \|.*\| [0-9]+ \| slower \|$' m.md
	expect_grep "the reference, a whole count" '^\| `[^`]*loop 1000` \|.*\| [0-9]+ \| reference \|$' m.md
	expect_no_grep "no decimals in the count" '\| [0-9]+\.[0-9]+ \| (slower|reference) \|$' m.md
}

# Valgrind reads %p and %% in its file names: a TMPDIR with a % in it
# still holds the counts, and nothing is left in it.
test_sim_tmpdir_with_percent() {
	need_valgrind
	mkdir 'a%pb'
	TMPDIR=$PWD/a%pb cb -v --counters sim -N -r 2 --export-json o.json \
		"$HELPERS/loop 1000" >out 2>err || fail "exit $?: $(cat err)"
	expect_grep "counted" '^  sim instructions: .* \(exact: the same in both runs\)' out
	expect_eq "a count" "$(jq '.results[0].metrics.sim_instructions.mean > 0' o.json)" true
	expect_eq "nothing left" "$(ls -A 'a%pb')" ""
}

# 3 runs unless a count or a time is asked for: --min-time is one.
test_sim_min_time_respected() {
	need_valgrind
	cb --counters sim -N --min-time 0.001 --export-json o.json "$HELPERS/loop 10" \
		>out 2>err || fail "exit $?: $(cat err)"
	expect_eq "hyperfine's 10 runs at least" "$(jq '.results[0].times | length >= 10' o.json)" true
	cb --counters sim -N --export-json d.json "$HELPERS/loop 10" >out 2>err ||
		fail "default: exit $?: $(cat err)"
	expect_eq "3 by default" "$(jq '.results[0].times | length' d.json)" 3
}

# A profiling run that fails costs the profile, not the measured runs:
# one warning, the results reported and exported, exit 0.
test_profile_failure_keeps_the_runs() {
	need_valgrind
	printf '#!/bin/sh\n[ "$CBENCH_ITERATION" = profile ] && exit 3\nexit 0\n' >p.sh
	chmod 755 p.sh
	cb -v -N -r 2 --profile prof --export-json o.json ./p.sh >out 2>err ||
		fail "exit $?: $(cat err)"
	expect_grep "one warning" "^cbench: warning: the profiling run of './p.sh' under callgrind failed: it did not exit with 0; its measured runs are kept$" err
	expect_grep "reported" '^  sim instructions: ' out
	expect_eq "exported" "$(jq '.results[0].times | length' o.json)" 2
	expect_eq "no profile" "$(jq '.results[0].profile_file' o.json)" null
}

# Ctrl-C during the profiling run: exit 130, the measured runs exported,
# no complaint about a failed profile.
test_profile_interrupted() {
	need_valgrind
	printf '#!/bin/sh\n[ "$CBENCH_ITERATION" = profile ] && { echo x >started; exec sleep 600; }\nexit 0\n' >p.sh
	chmod 755 p.sh
	# Not through cb(): $! must be cbench itself.
	"$CBENCH" -v -N -r 2 --profile prof --export-json o.json ./p.sh >out 2>err &
	local pid=$! i=0 rc
	until [ -s started ]; do
		i=$((i + 1))
		[ "$i" -le 1200 ] || { kill "$pid"; fail "the profiling run never started"; }
		sleep 0.1
	done
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	expect_eq "exit code" "$rc" 130
	expect_eq "runs exported" "$(jq '.results[0].times | length' o.json)" 2
	expect_no_grep "no failed profile" 'profiling run' err
	expect_grep "the count reported" '^  sim instructions: ' out
}

# The profiling run is a run like the others: between its --prepare and
# --conclude, before the cleanup.
test_profile_run_between_its_hooks() {
	need_valgrind
	cb -v -r 1 --profile prof --setup 'echo "setup $CBENCH_ITERATION" >>log' \
		--prepare 'echo "prepare $CBENCH_ITERATION" >>log' \
		--conclude 'echo "conclude $CBENCH_ITERATION" >>log' \
		--cleanup 'echo "cleanup $CBENCH_ITERATION" >>log' \
		"$HELPERS/loop 10" >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "order" "$(tr '\n' '|' <log)" \
		"setup setup|prepare 0|conclude 0|prepare profile|conclude profile|cleanup cleanup|"
	[ -s prof/callgrind.out.1 ] || fail "no profile: $(ls prof)"
	# One run's count is the whole number it is.
	expect_grep "one run's count" '^  sim instructions: +[0-9]{1,3}(,[0-9]{3})+$' out
}
