# End-to-end tests of `cbench system check`, `tune` and `reset`, and of
# the check embedded in --export-json's context.  tune and reset run
# ONLY on copies of the fixture trees of tests/fixtures/sys/ (through
# CBENCH_SYSTEM_ROOT), never on this machine.

FIX="$PWD/tests/fixtures/sys"
[ -d "$FIX" ] || FIX="$(cd "$(dirname "${BASH_SOURCE[0]}")/../fixtures/sys" && pwd)"

json() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

KEYS="governor boost smt isolation load processes swap thp aslr perf_event_paranoid pmu virtualization clocksource power"

test_check_reads_this_machine() {
	cb system check --runs 5 >out 2>err || fail "exit $?"
	for label in "CPU frequency governor" "Turbo / boost" "SMT" "Isolated CPUs" \
		"Load average" "Busiest other processes" "Swap in use" \
		"Transparent huge pages" "Address-space randomisation" \
		"perf_event_paranoid" "Hardware counters" "VM or container" \
		"Clock source" "Power supply"; do
		expect_grep "$label" "^(fine|risk|unknown) +$label" out
	done
	expect_grep "noise" '^Noise: 5 runs of a fixed loop \(mean [0-9.]+ ms\): spread [0-9.]+ %' out
	expect_grep "resolvable" '^A difference below [0-9.]+ % cannot be resolved here with 5 runs' out
	# This machine's own readings, against the files themselves.
	local aslr; aslr=$(cat /proc/sys/kernel/randomize_va_space)
	expect_grep "ASLR as read" "Address-space randomisation +randomize_va_space $aslr " out
	local cs; cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
	[ -z "$cs" ] || expect_grep "clock source as read" "Clock source +$cs\$" out
}

test_check_json() {
	cb system check --json --runs 5 >out.json 2>err || fail "exit $?"
	expect_eq "every item" "$(json out.json '" ".join(i["key"] for i in d["items"])')" "$KEYS"
	expect_eq "verdicts" "$(json out.json 'sorted(set(i["verdict"] for i in d["items"]) - {"fine", "risk", "unknown"})')" "[]"
	expect_eq "noise runs" "$(json out.json 'd["noise"]["runs"]')" 5
	expect_eq "resolvable is sqrt(2) x the relative half-width" \
		"$(json out.json 'abs(d["noise"]["resolvable"] - 2**0.5 * (d["noise"]["mean_ci_hi_s"] - d["noise"]["mean_ci_lo_s"]) / 2 / d["noise"]["mean_s"]) < 1e-12')" True
	expect_eq "root" "$(json out.json 'd["root"]')" "/"
	cb system check --json --runs 0 >n.json 2>err || fail "exit $?"
	expect_eq "no noise" "$(json n.json 'd["noise"]')" "None"
}

test_check_fixture_laptop() {
	CBENCH_SYSTEM_ROOT="$FIX/laptop" cb system check --json --runs 0 >out.json 2>err || fail "exit $?"
	expect_eq "governor" "$(json out.json '[i["verdict"] for i in d["items"] if i["key"] == "governor"][0]')" risk
	expect_eq "power" "$(json out.json '[i["reading"] for i in d["items"] if i["key"] == "power"][0]')" "on battery"
	expect_eq "root" "$(json out.json 'd["root"]')" "$FIX/laptop"
}

test_export_json_embeds_the_check() {
	cb -r 3 true --export-json j.json >out 2>err || fail "exit $?"
	expect_eq "items" "$(json j.json '" ".join(i["key"] for i in d["context"]["system_check"]["items"])')" "$KEYS"
	expect_eq "a reading" "$(json j.json '[i["reading"] for i in d["context"]["system_check"]["items"] if i["key"] == "aslr"][0]')" \
		"randomize_va_space $(cat /proc/sys/kernel/randomize_va_space) ($([ "$(cat /proc/sys/kernel/randomize_va_space)" = 0 ] && echo off || echo on))"
}

# Around a run, the other processes' use comes from the machine's CPU
# account, cbench's own excluded; a loop the test starts is busy enough
# (at least 10 % of a CPU even at a load of 15 on 2 cores) to be a risk
# and is named among the busiest.
test_export_json_others_around_the_run() {
	sh -c 'while :; do :; done' &
	local loop=$!
	cb -r 20 'sleep 0.05' --export-json j.json >out 2>err
	local rc=$?
	kill "$loop"
	[ "$rc" = 0 ] || fail "exit $rc: $(cat err)"
	local item='[i for i in d["context"]["system_check"]["items"] if i["key"] == "processes"][0]'
	expect_eq "a risk" "$(json j.json "$item[\"verdict\"]")" risk
	json j.json "$item[\"reading\"]" >reading
	expect_grep "the share over the run" '^[0-9]+ % of a CPU used by others over [0-9.]+ s; now ' reading
	expect_grep "the loop named" "sh \(pid $loop\) [0-9]+ %" reading
}

test_tune_and_reset_on_a_fixture_copy() {
	cp -a "$FIX/laptop" root
	local g=root/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor
	CBENCH_SYSTEM_ROOT="$T/root" cb system tune >out 2>err || fail "tune: exit $?"
	expect_eq "governor" "$(cat "$g")" performance
	expect_eq "turbo off" "$(cat root/sys/devices/system/cpu/intel_pstate/no_turbo)" 1
	expect_eq "sample rate" "$(cat root/proc/sys/kernel/perf_event_max_sample_rate)" 1
	expect_grep "said" "^tune: $T/root/sys/devices/system/cpu/intel_pstate/no_turbo: 0 -> 1\$" out
	expect_grep "saved" "previous values saved in $T/root/run/cbench/tune.saved" out
	[ -s root/run/cbench/tune.saved ] || fail "nothing saved"
	CBENCH_SYSTEM_ROOT="$T/root" cb system tune >out2 2>err2
	expect_eq "twice: exit" "$?" 1
	expect_grep "twice: message" "^cbench: error: already tuned" err2
	CBENCH_SYSTEM_ROOT="$T/root" cb system reset >out3 2>err3 || fail "reset: exit $?"
	expect_eq "governor back" "$(cat "$g")" powersave
	expect_eq "turbo back" "$(cat root/sys/devices/system/cpu/intel_pstate/no_turbo)" 0
	expect_eq "sample rate back" "$(cat root/proc/sys/kernel/perf_event_max_sample_rate)" 100000
	[ ! -e root/run/cbench/tune.saved ] || fail "saved file left"
	# Every file is as it was in the fixture.
	diff -r "$FIX/laptop" root -x run >/dev/null || fail "the tree differs after reset"
	CBENCH_SYSTEM_ROOT="$T/root" cb system reset >out4 2>err4 || fail "reset again: exit $?"
	expect_grep "nothing saved" "^reset: nothing saved" out4
}

test_tune_needs_root() {
	command -v setpriv >/dev/null || skip "no setpriv to drop root"
	local nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
	[ "$($nobody id -u 2>/dev/null)" = 65534 ] || skip "cannot run as nobody here"
	# Without CBENCH_SYSTEM_ROOT, as nobody: refused before reading anything.
	env -u CBENCH_SYSTEM_ROOT $nobody "$CBENCH" system tune >out 2>err
	expect_eq "exit" "$?" 1
	expect_eq "message" "$(cat err)" "cbench: error: 'cbench system tune' changes system settings: run it as root (sudo cbench system tune)"
	env -u CBENCH_SYSTEM_ROOT $nobody "$CBENCH" system reset >out 2>err
	expect_eq "reset: exit" "$?" 1
	# The positive check beside it: as nobody, on a fixture copy it works.
	cp -a "$FIX/server" root && chmod -R a+rwX root
	CBENCH_SYSTEM_ROOT="$T/root" $nobody "$CBENCH" system tune >out 2>err || fail "fixture: exit $?"
	expect_grep "fixture" "^tune: nothing to change\$" out
}

test_system_bad_input() {
	cb system >out 2>err
	expect_eq "no action: exit" "$?" 2
	expect_grep "no action" "^cbench: error: 'cbench system' takes check, tune or reset" err
	cb system frob >out 2>err
	expect_eq "unknown action: exit" "$?" 2
	expect_grep "unknown action" "takes check, tune or reset \(not 'frob'\)" err
	cb system check --runs 2 >out 2>err
	expect_eq "few runs: exit" "$?" 2
	expect_grep "few runs" "expected 0 \(no noise measurement\) or 5 to 100000" err
	cb system tune --json >out 2>err
	expect_eq "tune --json: exit" "$?" 2
	cb system --help >out 2>err || fail "help: exit $?"
	expect_grep "help" '^Usage: cbench system check \[--json\] \[--runs N\]' out
}
