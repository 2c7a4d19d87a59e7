#!/usr/bin/env bash
# tests/run.sh: runs every unit test binary and end-to-end test file, then
# prints one summary line: "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.." || exit 2
: "${UNIT_DIR:?}" "${CBENCH:?}" "${HELPERS:?}"
export CBENCH HELPERS VALGRIND="${VALGRIND:-}"

log=$(mktemp)
trap 'rm -f "$log"' EXIT

for t in "$UNIT_DIR"/test_*; do
	[ -x "$t" ] || continue
	echo "== unit: $(basename "$t")"
	out=$(mktemp)
	"$t" 2>&1 | tee "$out"
	rc=${PIPESTATUS[0]}
	cat "$out" >>"$log"
	# A unit binary that exits non-zero without saying which test failed
	# (a crash, an exit from a module, a failed set-up) is a failure of
	# its own, even if it printed PASS lines.
	if [ "$rc" -ne 0 ] && ! grep -q '^FAIL ' "$out"; then
		echo "FAIL $(basename "$t"): exited with status $rc without a FAIL line" | tee -a "$log"
	fi
	rm -f "$out"
done

# One end-to-end file; its output goes to standard output.
e2e_file() {
	echo "== e2e: $(basename "$1")"
	TEST_FILE="$(basename "$1" .sh): " bash -c 'source tests/lib.sh; source "$1"; run_tests' _ "$1" 2>&1
}

# TEST_JOBS=N runs N end-to-end files at a time (each in its own directory;
# none asserts a timing, so they can share the machine), longest first, and
# prints each file's output whole when it ends.
jobs=${TEST_JOBS:-1}
case $jobs in '' | *[!0-9]* | 0) echo "tests/run.sh: TEST_JOBS must be a positive number" >&2; exit 2 ;; esac
if [ "$jobs" -eq 1 ]; then
	for f in tests/e2e/*.sh; do
		e2e_file "$f" | tee -a "$log"
	done
else
	outdir=$(mktemp -d)
	trap 'rm -f "$log"; rm -rf "$outdir"' EXIT
	export -f e2e_file
	export outdir log
	# ls -S: the largest files hold the most tests, so they start first.
	# shellcheck disable=SC2016
	ls -S tests/e2e/*.sh | xargs -P "$jobs" -n 1 bash -c '
		out="$outdir/$(basename "$1").out"
		e2e_file "$1" >"$out"
		{ flock 9; cat "$out"; cat "$out" >>"$log"; } 9>"$outdir/lock"' _
fi

passed=$(grep -c '^PASS ' "$log")
failed=$(grep -c '^FAIL ' "$log")
skipped=$(grep -c '^SKIP ' "$log")
if [ "$skipped" -gt 0 ]; then
	echo "Skipped:"
	grep '^SKIP ' "$log" | sed 's/^SKIP /  /'
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
