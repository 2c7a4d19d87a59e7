# End-to-end tests of the noise controls: --pin, --pin-hooks, --pin-self,
# --aslr and --randomize-layout (the helper `layout` appends what it sees
# of itself to a file, one line per run).

L="$HELPERS/layout"

# The CPU list this shell may run on, which a command not pinned inherits.
own_cpus() { awk '/^Cpus_allowed_list:/ {print $2}' /proc/self/status; }
# The highest online CPU (pinning to it differs from the default when
# there are several).
last_cpu() { sed 's/.*[-,]//' /sys/devices/system/cpu/online; }

# json FILE EXPR: a value of the exported JSON, printed by Python.
json() { /usr/bin/python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

test_pin_sets_the_commands_affinity() {
	local c; c=$(last_cpu)
	cb -r 3 --pin "$c" "$L cpus $T/cmd" --export-json j.json >out 2>err || fail "exit $?"
	expect_eq "runs" "$(wc -l <"$T/cmd")" 3
	expect_eq "every run on --pin's CPU" "$(sort -u "$T/cmd")" "$c"
	expect_eq "recorded" "$(json j.json 'd["context"]["pin"]')" "$c"
	# Without --pin the command keeps cbench's CPUs (the positive check
	# beside the one above: the helper reads a real list).
	cb -r 2 "$L cpus $T/free" >out 2>err || fail "exit $?"
	expect_eq "unpinned" "$(sort -u "$T/free")" "$(own_cpus)"
}

test_pin_ranges_canonical() {
	[ "$(own_cpus)" = "0-1" ] || [ "$(nproc)" -ge 2 ] || skip "needs two CPUs"
	cb -r 2 --pin 1,0 "$L cpus $T/cmd" --export-json j.json >out 2>err || fail "exit $?"
	expect_eq "the set" "$(sort -u "$T/cmd")" "0-1"
	expect_eq "recorded as a list" "$(json j.json 'd["context"]["pin"]')" "0-1"
}

test_pin_without_launcher_or_ptrace() {
	local c; c=$(last_cpu)
	CBENCH_TEST_NO_LAUNCHER=1 cb -r 2 --pin "$c" "$L cpus $T/a" >out 2>err || fail "exit $?"
	expect_eq "cloned from cbench" "$(sort -u "$T/a")" "$c"
	CBENCH_TEST_NO_PTRACE=1 cb -r 2 --pin "$c" "$L cpus $T/b" >out 2>err || fail "exit $?"
	expect_eq "fallback launch" "$(sort -u "$T/b")" "$c"
	CBENCH_TEST_NO_LAUNCHER=1 cb -r 3 --aslr off "$L stack $T/s1" >out 2>err || fail "exit $?"
	expect_eq "aslr off, cloned from cbench" "$(sort -u "$T/s1" | wc -l)" 1
	CBENCH_TEST_NO_PTRACE=1 cb -r 3 --aslr off "$L stack $T/s2" >out 2>err || fail "exit $?"
	expect_eq "aslr off, fallback launch" "$(sort -u "$T/s2" | wc -l)" 1
}

test_pin_hooks_follow_or_not() {
	local c; c=$(last_cpu)
	cb -r 2 --pin "$c" -p "$L cpus $T/p1" "$L cpus $T/c1" >out 2>err || fail "exit $?"
	expect_eq "hooks follow --pin" "$(sort -u "$T/p1")" "$c"
	cb -r 2 --pin "$c" --pin-hooks none -p "$L cpus $T/p2" "$L cpus $T/c2" \
		--export-json j.json >out 2>err || fail "exit $?"
	expect_eq "command still pinned" "$(sort -u "$T/c2")" "$c"
	expect_eq "--pin-hooks none" "$(sort -u "$T/p2")" "$(own_cpus)"
	expect_eq "recorded null" "$(json j.json 'd["context"]["pin_hooks"]')" "None"
	cb -r 2 --pin "$c" --pin-hooks 0 -p "$L cpus $T/p3" "$L cpus $T/c3" \
		--export-json j3.json >out 2>err || fail "exit $?"
	expect_eq "--pin-hooks 0" "$(sort -u "$T/p3")" "0"
	expect_eq "recorded" "$(json j3.json 'd["context"]["pin_hooks"]')" "0"
}

test_pin_self_moves_cbench_only() {
	local c; c=$(last_cpu)
	# sh's parent is cbench (the launcher clones with CLONE_PARENT).
	cb -r 2 -S sh "grep Cpus_allowed_list /proc/\$PPID/status >>$T/self; $L cpus $T/cmd" \
		--pin-self "$c" --export-json j.json >out 2>err || fail "exit $?"
	expect_grep "cbench on its CPU" "Cpus_allowed_list:[[:space:]]+$c\$" "$T/self"
	expect_eq "the command keeps its CPUs" "$(sort -u "$T/cmd")" "$(own_cpus)"
	expect_eq "recorded" "$(json j.json 'd["context"]["pin_self"]')" "$c"
}

test_pin_bad_cpus_exit_2_before_running() {
	cb -r 2 --pin 1000 -p "touch $T/ran" true >out 2>err
	expect_eq "offline: exit" "$?" 2
	expect_grep "offline: message" "^cbench: error: --pin 1000: CPU 1000 is not online \(online: " err
	expect_eq "offline: one line" "$(wc -l <err)" 1
	cb -r 2 --pin-self 2-1 -p "touch $T/ran" true >out 2>err
	expect_eq "backwards: exit" "$?" 2
	expect_grep "backwards: message" "^cbench: error: invalid value '2-1' for --pin-self: .*runs backwards" err
	cb -r 2 --pin-hooks 'x' true >out 2>err
	expect_eq "junk: exit" "$?" 2
	expect_grep "junk: message" "is not a CPU list" err
	cb -r 2 --pin 99999 true >out 2>err
	expect_eq "too large: exit" "$?" 2
	[ ! -e "$T/ran" ] || fail "a hook ran"
}

test_aslr_off_repeats_the_stack_address() {
	cb -r 4 --aslr off "$L stack $T/off" --export-json j.json >out 2>err || fail "exit $?"
	expect_eq "runs" "$(wc -l <"$T/off")" 4
	expect_eq "one address" "$(sort -u "$T/off" | wc -l)" 1
	expect_eq "recorded" "$(json j.json 'd["context"]["aslr"]')" "off"
	[ "$(cat /proc/sys/kernel/randomize_va_space)" != 0 ] ||
		skip "this system does not randomise (randomize_va_space 0)"
	cb -r 4 --aslr on "$L stack $T/on" >out 2>err || fail "exit $?"
	[ "$(sort -u "$T/on" | wc -l)" -gt 1 ] || fail "--aslr on: one address in 4 runs"
}

test_aslr_on_undoes_an_inherited_off() {
	command -v setarch >/dev/null || skip "no setarch"
	[ "$(cat /proc/sys/kernel/randomize_va_space)" != 0 ] || skip "no randomisation here"
	setarch "$(uname -m)" -R "$CBENCH" -r 4 "$L stack $T/inh" >out 2>err || fail "exit $?"
	expect_eq "inherited off" "$(sort -u "$T/inh" | wc -l)" 1
	setarch "$(uname -m)" -R "$CBENCH" -r 4 --aslr on "$L stack $T/on" >out 2>err || fail "exit $?"
	[ "$(sort -u "$T/on" | wc -l)" -gt 1 ] || fail "--aslr on kept the inherited off"
}

test_randomize_layout_pads_and_records() {
	cb -r 6 --randomize-layout --seed 7 "$L env $T/env" --export-json j.json \
		--export-csv-runs r.csv >out 2>err || fail "exit $?"
	expect_eq "runs" "$(wc -l <"$T/env")" 6
	[ "$(awk '{print $1}' "$T/env" | sort -u | wc -l)" -gt 1 ] ||
		fail "one environment size in 6 runs"
	# The sizes the helper saw are the ones recorded, run by run.
	expect_eq "JSON env_pad" "$(json j.json '" ".join(str(int(x)) for x in d["results"][0]["runs"]["env_pad"])')" \
		"$(awk '{printf "%s%s", (NR > 1 ? " " : ""), $2}' "$T/env")"
	expect_eq "CSV env_pad" "$(/usr/bin/python3 -c 'import csv,sys; print(" ".join(r["env_pad"] for r in csv.DictReader(open(sys.argv[1]))))' r.csv)" \
		"$(awk '{printf "%s%s", (NR > 1 ? " " : ""), $2}' "$T/env")"
	expect_eq "recorded" "$(json j.json 'd["context"]["randomize_layout"]')" "True"
	# The same seed gives the same paddings.
	cb -r 6 --randomize-layout --seed 7 "$L env $T/env2" >out 2>err || fail "exit $?"
	expect_eq "seeded" "$(awk '{print $2}' "$T/env2")" "$(awk '{print $2}' "$T/env")"
}

test_no_padding_without_the_option() {
	cb -r 3 "$L env $T/env" --export-json j.json --export-csv-runs r.csv >out 2>err || fail "exit $?"
	expect_eq "runs" "$(wc -l <"$T/env")" 3
	expect_eq "variable unset" "$(awk '{print $2}' "$T/env" | sort -u)" "-1"
	expect_eq "one size" "$(awk '{print $1}' "$T/env" | sort -u | wc -l)" 1
	expect_eq "no JSON field" "$(json j.json '"env_pad" in d["results"][0]["runs"]')" "False"
	expect_no_grep "no CSV column" 'env_pad' r.csv
	expect_grep "CSV header still there" '^benchmark,command' r.csv
}
