# End-to-end tests of what every --export-* file shares: destinations checked
# before anything runs (missing directory, a directory, the same file twice,
# two on stdout), atomic rewrites that keep the previous file whole when a
# write fails (file-size limit, full disk, /dev/full, a vanished directory),
# exports rewritten as rounds finish (and rarely), stale temporaries cleaned,
# mode and owner kept, another user's write-protected file refused, hard links said, non-UTF-8 names replaced alike.

# Files in the test directory besides the harness's own.
left_files() {
	ls -A | grep -v -e '^\.log$' -e '^\.reason$' | tr '\n' ' '
}

test_unwritable_destination_fails_before_running() {
	cb -r 1 --prepare 'touch ran' true --export-csv ok.csv \
		--export-json nodir/out.json >out 2>err
	expect_eq "exit code" "$?" 2
	expect_eq "one line" "$(wc -l <err)" 1
	expect_grep "message" "^cbench: error: cannot write --export-json file 'nodir/out.json': No such file or directory$" err
	[ ! -s out ] || fail "something ran: $(cat out)"
	expect_eq "nothing left behind" "$(left_files)" "err out "
}

test_directory_destination_fails_before_running() {
	mkdir d
	cb -r 1 true --export-markdown d >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "message" "cannot write --export-markdown file 'd': it is a directory" err
}

test_same_destination_twice() {
	cb -r 1 true --export-json x --export-csv x >out 2>err
	expect_eq "exit code" "$?" 2
	expect_grep "message" "both write to 'x'" err
}

# A /proc file that refuses writes is found before anything runs (root's
# access() says it is writable); one that takes them, and a FIFO that is
# not opened early, still work.
test_unwritable_proc_file_refused_before_running() {
	cb -r 2 -N --export-html /proc/version 'touch ran.txt' >out 2>err
	expect_eq "exit" "$?" 2
	expect_grep "message" "^cbench: error: cannot write --export-html file '/proc/version': " err
	[ ! -e ran.txt ] || fail "the benchmark ran"
	mkfifo pipe
	cat pipe >read.json &
	local reader=$!
	cb -r 2 -N --export-json pipe 'touch ran.txt' >out 2>err || fail "a FIFO: exit $?: $(cat err)"
	wait "$reader"
	jq -e '.results[0].runs.wall_time | length == 2' read.json >/dev/null ||
		fail "the FIFO's reader got: $(head -c 200 read.json)"
}

# Another user's write-protected file in a directory anyone may write to
# (no sticky bit) is refused before anything runs, as a shell's > would
# be, not replaced through the rename; a file that user may write, or
# owns, is.
test_write_protected_file_of_another_user_refused() {
	mkdir -m 0777 shared
	echo old >shared/theirs.json
	chmod 0444 shared/theirs.json
	echo old >shared/open.json
	chmod 0666 shared/open.json
	run_as_nobody "$CBENCH" -r 2 -N --export-json shared/theirs.json \
		"touch $T/ran.txt" >out 2>err
	expect_eq "exit" "$?" 2
	expect_eq "one line" "$(wc -l <err)" 1
	expect_grep "message" "^cbench: error: cannot write --export-json file 'shared/theirs.json': Permission denied$" err
	expect_eq "left as it was" "$(cat shared/theirs.json)" "old"
	[ ! -e ran.txt ] || fail "the benchmark ran"
	run_as_nobody "$CBENCH" -r 2 -N --export-json shared/open.json \
		"touch $T/ran.txt" >out 2>err || fail "a writable file: exit $?: $(cat err)"
	jq -e '.results[0].runs.wall_time | length == 2' shared/open.json >/dev/null ||
		fail "not written: $(head -c 200 shared/open.json)"
	# one's own write-protected file is replaced
	run_as_nobody sh -c 'echo old >shared/mine.json && chmod 0444 shared/mine.json' ||
		fail "cannot make nobody's file"
	run_as_nobody "$CBENCH" -r 2 -N --export-json shared/mine.json \
		"touch $T/ran.txt" >out 2>err || fail "one's own file: exit $?: $(cat err)"
	jq -e '.results[0].runs.wall_time | length == 2' shared/mine.json >/dev/null ||
		fail "own file not written: $(head -c 200 shared/mine.json)"
}

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

# A write that fails mid-run (here: the file-size limit, as a full disk
# would) is reported, leaves the previous file whole, and exits 1.
test_write_failure_keeps_previous_file() {
	cb -r 1 true true --export-json probe.json >/dev/null 2>&1 || fail "probe run"
	local full blocks
	full=$(stat -c %s probe.json)
	# Room for the file after the first benchmark, not after the second.
	blocks=$(( full * 3 / 4 / 1024 ))
	# SIGXFSZ left at its default: cbench must ignore it itself.
	( trap - XFSZ; ulimit -f "$blocks"; cb -r 1 --order sequential true true --export-json b.json ) \
		>/dev/null 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "^cbench: error: --export-json: cannot write 'b.json': File too large$" err
	jq -e '.results | length == 1' b.json >/dev/null ||
		fail "previous file not intact: $(head -c 300 b.json)"
	expect_eq "no temporary file left" "$(ls -A | grep -c cbench-)" 0
}

# The disk fills up between the first and the second benchmark (the second
# one's --prepare fills a tiny tmpfs): a clear error, exit 1, the file of
# the first benchmark left whole, no temporary file left.
test_export_full_disk_keeps_previous_file() {
	mkdir mnt
	mount -t tmpfs -o size=64k tmpfs mnt 2>mount.err ||
		skip "cannot mount a tmpfs here: $(cat mount.err)"
	trap 'umount "$T/mnt"' EXIT
	cb -r 1 --order sequential --prepare true --prepare 'cat /dev/zero > mnt/fill 2>/dev/null; true' \
		true true --export-json mnt/out.json >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "^cbench: error: --export-json: cannot write 'mnt/out.json': No space left on device$" err
	jq -e '.results | length == 1' mnt/out.json >/dev/null ||
		fail "previous file not intact: $(head -c 300 mnt/out.json)"
	expect_eq "no temporary file left" "$(ls -A mnt | grep -vc '^fill$\|^out.json$')" 0
}

test_export_to_dev_full() {
	[ -w /dev/full ] || skip "no /dev/full"
	cb -r 1 true --export-json /dev/full >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "^cbench: error: --export-json: cannot write '/dev/full': No space left on device$" err
	expect_grep "results still printed" 'Time \(' out
}

test_export_directory_vanishes() {
	mkdir d
	cb -r 1 --prepare true --prepare 'rm -rf d' true true --export-json d/out.json \
		--export-csv ok.csv >out 2>err
	expect_eq "exit code" "$?" 1
	expect_grep "message" "^cbench: error: --export-json: cannot write 'd/out.json': No such file or directory$" err
	expect_eq "other exports still written" "$(wc -l <ok.csv)" 3
}

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
