# tests/lib.sh: shared by the end-to-end tests (sourced).
#
# A test file defines functions named test_*; run_tests runs each in a
# subshell with a fresh temporary directory $T (removed afterwards), and
# prints "PASS name", "FAIL name: reason" or "SKIP name: reason".
# Inside a test: fail "why" ends it as failed, skip "why" as skipped.
#
# Environment from the Makefile: CBENCH (the binary), HELPERS (test helper
# programs), VALGRIND (1: run cbench under valgrind memcheck).

set -u
export LC_ALL=C
export NO_COLOR=1
: "${CBENCH:?CBENCH must point at the cbench binary}"
: "${HELPERS:?HELPERS must point at the test helper directory}"

fail() { echo "$*" >"$T/.reason"; exit 1; }
skip() { echo "$*" >"$T/.reason"; exit 77; }

# cb ARGS...: run cbench (under valgrind when VALGRIND=1).  valgrind's own
# notes ("--PID-- WARNING: unhandled amd64-linux syscall: 434" for
# pidfd_open, which cbench then does without) are not cbench's output and
# are filtered out of stderr; memcheck's reports ("==PID== ...") are kept.
VALGRIND_CMD=(valgrind -q --error-exitcode=99 --leak-check=full
	--errors-for-leak-kinds=definite --trace-children=no)
cb() {
	if [ "${VALGRIND:-}" = 1 ]; then
		{ "${VALGRIND_CMD[@]}" "$CBENCH" "$@" 2>&1 1>&3 3>&- |
			grep -v '^--[0-9]*-- ' >&2; return "${PIPESTATUS[0]}"; } 3>&1
	else
		"$CBENCH" "$@"
	fi
}

# expect_eq WHAT ACTUAL EXPECTED
expect_eq() {
	[ "$2" = "$3" ] || fail "$1: got '$2', expected '$3'"
}

# expect_grep WHAT PATTERN FILE
expect_grep() {
	grep -qE -- "$2" "$3" || fail "$1: /$2/ not found in: $(head -c 600 "$3")"
}

expect_no_grep() {
	! grep -qE -- "$2" "$3" || fail "$1: /$2/ unexpectedly found in: $(head -c 600 "$3")"
}

# page_faults REPORT: the page-faults mean of a terminal report (empty
# when not counted).
page_faults() { awk '/page-faults:/ {print $2}' "$1"; }

# expect_extra_faults WHAT BASE GOT LO HI: GOT - BASE lies in (LO, HI).
expect_extra_faults() {
	awk -v b="$2" -v g="$3" -v lo="$4" -v hi="$5" \
		'BEGIN { d = g - b; exit !(d > lo && d < hi) }' ||
		fail "page faults: $1: base $2, got $3"
}

# ptrace_works: can this kernel trace a child?  (seccomp or Yama may say no)
ptrace_works() {
	"$HELPERS/probe" ptrace >/dev/null 2>&1
}

run_tests() {
	local fn rc
	for fn in $(declare -F | awk '{print $3}' | grep '^test_'); do
		T=$(mktemp -d "${TMPDIR:-/tmp}/cbench-test.XXXXXX")
		# A cache of its own (the once-per-machine counters note).
		( cd "$T" && export XDG_CACHE_HOME="$T/.cache" && "$fn" ) >"$T/.log" 2>&1
		rc=$?
		case $rc in
		0) echo "PASS ${TEST_FILE:-}$fn" ;;
		77) echo "SKIP ${TEST_FILE:-}$fn: $(cat "$T/.reason" 2>/dev/null)" ;;
		*) echo "FAIL ${TEST_FILE:-}$fn: $(cat "$T/.reason" 2>/dev/null || echo "exit $rc")"
		   sed 's/^/    | /' "$T/.log" | tail -n 15 ;;
		esac
		rm -rf "$T"
	done
}
