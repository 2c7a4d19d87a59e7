# End-to-end: reliability, round two (issue #20).  Each test is named by
# the fault it injects and what cbench must do; each fails on the code
# before its fix.  Faults: paths named twice (inputs as outputs), a
# concurrent rewriter, SIGKILL at chosen points, prlimit, SIGSTOP.

# refused WHAT ARGS...: cbench exits 2 with one error line, nothing runs
# (a marker command would create ran.txt).
refused() {
	local what=$1
	shift
	cb "$@" >out 2>err
	local rc=$?
	expect_eq "$what: exit" "$rc" 2
	expect_grep "$what: message" "^cbench: error: .*would write over a file it reads" err
	[ ! -e ran.txt ] || fail "$what: something ran"
}

# ---- 1. inputs are never outputs ----

test_compare_refuses_export_over_baseline() {
	results a.json
	results b.json
	cp a.json a.orig
	refused "compare md over BASE" compare a.json b.json --export-markdown a.json
	cmp -s a.json a.orig || fail "a.json was changed"
	refused "compare md over NEW, other spelling" compare a.json b.json --export-markdown ./b.json
	ln -s b.json link.json
	refused "through a symlink" compare a.json link.json --export-markdown b.json
	# Positive: a different file is written.
	cb compare a.json b.json --export-markdown report.md >out 2>err ||
		fail "plain compare: exit $?: $(cat err)"
	[ -s report.md ] || fail "report.md not written"
}

test_baseline_refused_as_export() {
	results cb.json
	cp cb.json cb.orig
	refused "--baseline as markdown" -r 2 -N --baseline cb.json --export-markdown cb.json 'touch ran.txt'
	refused "--baseline as csv" -r 2 -N --baseline cb.json --export-csv ./cb.json 'touch ran.txt'
	refused "--baseline as save-baseline" -r 2 -N --baseline cb.json --save-baseline cb.json 'touch ran.txt'
	refused "--baseline as --output" -r 2 -N --baseline cb.json --output cb.json 'touch ran.txt'
	cmp -s cb.json cb.orig || fail "cb.json was changed"
	cb -r 2 -N --baseline cb.json --export-json new.json true >out 2>err
	[ -s new.json ] || fail "positive: new.json not written: $(cat err)"
}

test_input_refused_as_export() {
	echo data >data
	refused "--input as json" -r 2 -N --input data --export-json data 'touch ran.txt'
	expect_eq "data kept" "$(cat data)" data
	cb -r 2 -N --input data --export-json out.json cat >out 2>err ||
		fail "positive: exit $?: $(cat err)"
	[ -s out.json ] || fail "out.json not written"
}

test_hook_script_refused_as_export() {
	printf '#!/bin/sh\ntrue\n' >hook.sh
	chmod +x hook.sh
	cp hook.sh hook.orig
	refused "--prepare script" -r 2 -N --prepare ./hook.sh --export-csv hook.sh 'touch ran.txt'
	refused "command script" -r 2 -N ./hook.sh --export-json ./hook.sh
	cmp -s hook.sh hook.orig || fail "hook.sh was changed"
	cb -r 2 -N --prepare ./hook.sh --export-csv out.csv ./hook.sh >out 2>err ||
		fail "positive: exit $?: $(cat err)"
	[ -s out.csv ] || fail "out.csv not written"
}

# ---- 2. one export on stdout ----

test_two_exports_to_stdout_refused_by_any_name() {
	cb -r 2 -N --export-json /dev/stdout --export-csv - 'touch ran.txt' >out 2>err
	expect_eq "/dev/stdout and -: exit" "$?" 2
	expect_grep "message" "^cbench: error: only one export can go to stdout: --export-json '/dev/stdout' and --export-csv '-'" err
	cb -r 2 -N --export-json /proc/self/fd/1 --export-markdown /dev/stdout 'touch ran.txt' 2>err | cat >out
	expect_eq "/proc/self/fd/1 and /dev/stdout: exit" "${PIPESTATUS[0]}" 2
	: >redirected.json
	cb -r 2 -N --export-json redirected.json --export-csv - 'touch ran.txt' >redirected.json 2>err
	expect_eq "a file that is stdout: exit" "$?" 2
	expect_grep "names the file" "redirected.json" err
	[ ! -e ran.txt ] || fail "something ran"
	# Positive: one on stdout and one elsewhere.
	cb -r 2 -N --export-json /dev/stdout --export-csv other.csv true >out 2>err ||
		fail "one on stdout: exit $?: $(cat err)"
	/usr/bin/python3 -c 'import json,sys; json.load(open(sys.argv[1]))' out ||
		fail "stdout is not one JSON document"
	[ -s other.csv ] || fail "other.csv not written"
}

# ---- 4. a file still being written says so ----

# ---- 3 and 6. interleaved rounds on disk as they finish, at bounded cost ----

test_interleaved_rounds_survive_sigkill() {
	# B blocks on the FIFO in its 4th run: rounds 1-3 are complete
	# then, and cbench is SIGKILLed while B's 4th run is running.
	mkfifo fifo
	cat >b.sh <<'SH'
n=$(cat count 2>/dev/null || echo 0)
echo $((n + 1)) >count
[ "$n" -lt 3 ] || cat fifo
SH
	( cb_exec -r 10 --order interleaved --export-json part.json --export-csv part.csv \
		true 'sh b.sh' >/dev/null 2>&1 ) &
	local pid=$!
	wait_for_file part.json
	wait_for_file part.csv
	# The file cbench was writing at the kill, whatever it held.
	for i in $(seq 400); do [ "$(cat count 2>/dev/null)" = 4 ] && break; sleep 0.05; done
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	release fifo
	/usr/bin/python3 - part.json <<'PY' || fail "partial file: $(head -c 600 part.json)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["complete"] is False
runs = [len(r["times"]) for r in d["results"]]
assert len(runs) == 2 and min(runs) >= 1, runs
# Whole rounds: both benchmarks have the same number of runs.
assert runs[0] == runs[1], runs
PY
	expect_eq "CSV rows" "$(wc -l <part.csv)" 3
}

test_sweep_exports_rewritten_rarely() {
	# 300 benchmarks end one after the other in the last round: the
	# files are not rewritten for each (that made exports quadratic).
	command -v strace >/dev/null || skip "strace not installed"
	[ "${VALGRIND:-}" = 1 ] && skip "strace under valgrind"
	# LeakSanitizer cannot run under ptrace (a SANITIZE build).
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -e trace=rename,renameat,renameat2 -o trace.txt "$CBENCH" -N -r 2 \
		-L n "$(seq -s, 1 300)" 'true {n}' --export-json s.json --export-csv s.csv \
		>/dev/null 2>err || fail "sweep: exit $?: $(cat err)"
	local renames
	renames=$(grep -c 'rename.*s\.json' trace.txt)
	[ "$renames" -ge 1 ] || fail "s.json never written"
	[ "$renames" -le 10 ] || fail "s.json rewritten $renames times for 300 benchmarks"
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["complete"] and len(d["results"]) == 300' s.json ||
		fail "final s.json incomplete"
	expect_eq "CSV rows" "$(wc -l <s.csv)" 301
}

# ---- 5. a baseline that never ends ----

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

# ---- 7. temporaries of a killed run ----

test_stale_temporaries_cleaned_on_next_write() {
	# What a SIGKILL between creating the temporary and the rename leaves.
	touch -d '1 hour ago' .r.json.cbench-AbC123 .r.json.cbench-zz9ZZ9
	touch -d '1 hour ago' .other.json.cbench-AbC123 .r.json.cbench-keep .r.json.cbench-AbC1234
	mkdir .r.json.cbench-Dir123
	touch -d 'tomorrow' .r.json.cbench-Fut123   # not older than this run
	cb -r 2 -N --export-json r.json true >out 2>err || fail "exit $?: $(cat err)"
	[ -s r.json ] || fail "r.json not written"
	[ ! -e .r.json.cbench-AbC123 ] && [ ! -e .r.json.cbench-zz9ZZ9 ] ||
		fail "stale temporaries left: $(ls -a)"
	for f in .other.json.cbench-AbC123 .r.json.cbench-keep .r.json.cbench-AbC1234 \
		.r.json.cbench-Dir123 .r.json.cbench-Fut123; do
		[ -e "$f" ] || fail "$f is not a stale temporary of r.json, but was removed"
	done
}

# ---- 11. nonsense numbers in a baseline ----

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

# ---- 12. non-UTF-8 names, the same replacement everywhere ----

test_non_utf8_names_replaced_in_every_export() {
	cb -r 2 -N -n $'caf\xe9 \xff\xfe x' true --export-json r.json --export-csv r.csv \
		--export-csv-runs r.runs.csv --export-markdown r.md --export-asciidoc r.adoc \
		--export-orgmode r.org >out 2>err || fail "exit $?: $(cat err)"
	/usr/bin/python3 - <<'PY' || fail "not the same replacement: $(od -c r.csv | head -5)"
import csv, json
want = "caf\ufffd \ufffd\ufffd x"
assert json.load(open("r.json"))["results"][0]["command"] == want
rows = list(csv.DictReader(open("r.csv", encoding="utf-8", errors="strict")))
assert rows[0]["command"] == want, rows[0]["command"]
runs = list(csv.DictReader(open("r.runs.csv", encoding="utf-8", errors="strict")))
assert runs[0]["command"] == want, runs[0]
for t in ("r.md", "r.adoc", "r.org"):
    text = open(t, encoding="utf-8", errors="strict").read()
    assert want in text, (t, text)
PY
}

# ---- 9. an existing export keeps its mode and owner; a hard link is said ----

test_export_keeps_mode_owner_and_says_hard_link() {
	echo old >r.json
	chmod 0600 r.json
	echo old >r.csv
	chmod 0640 r.csv
	local owner=""
	if [ "$(id -u)" = 0 ] && getent passwd nobody >/dev/null; then
		chown nobody r.csv
		owner=nobody
	fi
	cb -r 2 -N true --export-json r.json --export-csv r.csv >out 2>err ||
		fail "exit $?: $(cat err)"
	grep -q '"schema"' r.json || fail "r.json not replaced"
	expect_eq "json mode" "$(stat -c %a r.json)" 600
	expect_eq "csv mode" "$(stat -c %a r.csv)" 640
	[ -z "$owner" ] || expect_eq "csv owner" "$(stat -c %U r.csv)" "$owner"
	expect_no_grep "no link, no warning" "hard link" err
	# A new file still gets the umask's mode.
	(umask 027; cb -r 2 -N true --export-json new.json >/dev/null 2>&1)
	expect_eq "new file mode" "$(stat -c %a new.json)" 640
	# A hard link: said before the run, and it does keep the old data.
	echo old >linked.md
	ln linked.md other.md
	cb -r 2 -N true --export-markdown linked.md >out 2>err || fail "exit $?: $(cat err)"
	expect_grep "said" "^cbench: warning: --export-markdown 'linked.md' has 1 other hard link: the file is replaced by a new one, so that link keeps the old contents" err
	expect_eq "the link kept the old contents" "$(cat other.md)" old
}

# ---- 8. a run's background jobs end with it ----

test_background_jobs_killed_unless_kept() {
	cb -r 3 'sleep 30 & echo $! >>pids' >out 2>err || fail "exit $?: $(cat err)"
	expect_eq "three runs" "$(wc -l <pids)" 3
	local p
	for p in $(cat pids); do
		[ -e "/proc/$p" ] && { kill "$p"; fail "background job $p of a run still running"; }
	done
	expect_grep "results" "Time \(mean" out
	# --keep-background: they are left running (and said to be).
	cb -r 3 --keep-background 'sleep 30 & echo $! >>kept' >out 2>err || fail "exit $?: $(cat err)"
	local alive=0
	for p in $(cat kept); do
		[ -e "/proc/$p" ] && alive=$((alive + 1))
		kill "$p" 2>/dev/null
	done
	expect_eq "kept alive" "$alive" 3
	expect_grep "said" "left a process running" err
	# --setup's background job (a server the benchmark needs) is kept.
	cb -r 2 --setup 'sleep 30 & echo $! >srv' 'kill -0 $(cat srv)' >out 2>err ||
		fail "the --setup job was killed before the runs: $(cat err)"
	kill "$(cat srv)" 2>/dev/null
}

# ---- 10. cbench stopped during a run ----

test_run_during_which_cbench_was_stopped_is_discarded() {
	# The command's parent is cbench: in its first run it stops cbench
	# and resumes it (what Ctrl-Z then fg does, without a terminal).
	cb -r 3 --export-json r.json \
		'[ -e m ] || { touch m; kill -STOP $PPID; kill -CONT $PPID; }' >out 2>err ||
		fail "exit $?: $(cat err)"
	[ -e m ] || fail "the stopping run did not run"
	expect_grep "said" "^cbench: warning: cbench was stopped \(SIGSTOP or Ctrl-Z\) during run 1 of .*: that run is discarded and run again" err
	expect_eq "one warning" "$(grep -c 'cbench was stopped' err)" 1
	/usr/bin/python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["results"][0]["times"]) == 3, d["results"][0]["times"]' r.json ||
		fail "not 3 recorded runs"
	# Positive: no stop, no warning.
	cb -r 3 true >out 2>err || fail "plain: exit $?"
	expect_no_grep "no stop" "cbench was stopped" err
}

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
