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

for f in tests/e2e/*.sh; do
	echo "== e2e: $(basename "$f")"
	TEST_FILE="$(basename "$f" .sh): " bash -c 'source tests/lib.sh; source "$1"; run_tests' _ "$f" 2>&1 | tee -a "$log"
done

passed=$(grep -c '^PASS ' "$log")
failed=$(grep -c '^FAIL ' "$log")
skipped=$(grep -c '^SKIP ' "$log")
if [ "$skipped" -gt 0 ]; then
	echo "Skipped:"
	grep '^SKIP ' "$log" | sed 's/^SKIP /  /'
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
