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
	"$t" 2>&1 | tee -a "$log"
	# A crashing unit binary counts as a failure even if it printed PASS lines.
	rc=${PIPESTATUS[0]}
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
		echo "FAIL $(basename "$t"): exited with status $rc" | tee -a "$log"
	fi
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
