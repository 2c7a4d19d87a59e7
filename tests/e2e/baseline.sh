# End-to-end tests of reading a results file (--baseline, cbench compare)
# that is not one: a device that never ends, a stream that exhausts memory,
# nonsense times (negative, huge, not finite); each refused with one error
# before anything runs.

test_device_baseline_refused() {
	results b.json
	ln -s /dev/zero zero.json
	cb -r 2 -N --baseline zero.json 'touch ran.txt' >out 2>err
	expect_eq "--baseline /dev/zero: exit" "$?" 2
	expect_grep "says why" "^cbench: error: cannot read 'zero.json': it is a character device, not a regular file of results" err
	[ ! -e ran.txt ] || fail "ran"
	cb compare /dev/urandom b.json >out 2>err
	expect_eq "compare /dev/urandom: exit" "$?" 2
	expect_grep "says why" "character device" err
	# Positive: a FIFO carrying a real file is still read.
	mkfifo fifo
	cat b.json >fifo &
	cb compare fifo b.json >out 2>err || fail "compare from a FIFO: exit $?: $(cat err)"
	wait
}

test_baseline_out_of_memory_said() {
	[ "${VALGRIND:-}" = 1 ] && skip "an address-space limit under valgrind"
	ldd "$CBENCH" | grep -q libasan && skip "an address-space limit under AddressSanitizer"
	command -v prlimit >/dev/null || skip "prlimit not installed"
	results b.json
	mkfifo fifo
	( yes '[' >fifo 2>/dev/null & )
	prlimit --as=400000000 "$CBENCH" compare fifo b.json >out 2>err
	expect_eq "exit" "$?" 2
	expect_grep "out of memory, said" "^cbench: error: cannot read 'fifo': out of memory after [0-9]+ MiB of it" err
	expect_eq "one line" "$(wc -l <err)" 1
}

# poke FILE KEY VALUE OUT: FILE with results[0].runs[KEY][0] (and times[0]
# for wall_time) replaced by the JSON text VALUE.
poke() {
	/usr/bin/python3 - "$@" <<'PY'
import json, sys
src, key, value, out = sys.argv[1:5]
d = json.load(open(src))
d["results"][0]["runs"][key][0] = "@@"
if key == "wall_time":
    d["results"][0]["times"][0] = "@@"
open(out, "w").write(json.dumps(d).replace('"@@"', value))
PY
}

test_baseline_with_nonsense_times_refused() {
	results good.json
	poke good.json wall_time -0.5 neg.json
	poke good.json wall_time 1e308 huge.json
	poke good.json wall_time 1e999 inf.json
	poke good.json user_time -1 neguser.json
	for f in neg huge inf neguser; do
		cb compare "$f.json" good.json >out 2>err
		expect_eq "compare $f: exit" "$?" 2
		expect_grep "compare $f: message" "^cbench: error: $f.json: results\[0\]\.(runs\.wall_time|times|runs\.user_time)\[0\] is (negative|above 1e9 seconds|not a finite number)" err
		expect_eq "$f: one line" "$(wc -l <err)" 1
	done
	cb -r 2 -N --baseline neg.json 'touch ran.txt' >out 2>err
	expect_eq "--baseline neg: exit" "$?" 2
	[ ! -e ran.txt ] || fail "ran with a nonsense baseline"
	cb compare good.json good.json >out 2>err || fail "positive: exit $?: $(cat err)"
}
