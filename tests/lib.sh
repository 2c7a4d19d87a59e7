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
# By their paths: a test may narrow PATH for the command under test.
VG_GREP=$(command -v grep)
VALGRIND_CMD=("$(command -v valgrind || echo valgrind)" -q --error-exitcode=99 --leak-check=full
	--errors-for-leak-kinds=definite --trace-children=no)
cb() {
	if [ "${VALGRIND:-}" = 1 ]; then
		{ "${VALGRIND_CMD[@]}" "$CBENCH" "$@" 2>&1 1>&3 3>&- |
			"$VG_GREP" -v '^--[0-9]*-- ' >&2; return "${PIPESTATUS[0]}"; } 3>&1
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

# within A B TOL: |A - B| <= TOL (numbers, as awk reads them).
within() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { x = a - b; if (x < 0) x = -x; exit !(x <= t) }'
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

# sideband_works: can perf_event_open's side-band records be mapped (what
# the shell correction measures of each shell run)?  (seccomp or a kernel
# without perf may say no)
sideband_works() {
	"$HELPERS/probe" sideband >/dev/null 2>&1
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

# ---- helpers shared by several test files ----

# bench_lines REPORT: the "Benchmark N: ..." lines of a report, one per line.
bench_lines() {
	sed -n 's/^Benchmark [0-9]*: //p' "$1"
}

# results FILE [CMD]: a small cbench results file to read back.
results() {
	cb -r 2 -N --export-json "$1" "${2:-true}" >/dev/null 2>&1 ||
		fail "could not make $1"
}

# cb_exec ARGS...: like cb, but replacing the shell, so that `cb_exec ... &`
# (or `( cb_exec ... ) &`) leaves cbench's own pid in $! (signals must
# reach cbench, not a subshell).
cb_exec() {
	if [ "${VALGRIND:-}" = 1 ]; then
		exec "${VALGRIND_CMD[@]}" "$CBENCH" "$@"
	fi
	exec "$CBENCH" "$@"
}

# wait_for_file FILE: bounded poll (up to 20 s) until FILE is non-empty.
wait_for_file() {
	local i
	for i in $(seq 400); do
		[ -s "$1" ] && return 0
		sleep 0.05
	done
	fail "$1 never appeared"
}

# gone PID: the process no longer exists (not even as a zombie).
gone() {
	[ ! -e "/proc/$1" ]
}

# A command whose grandchild would outlive it: prints the grandchild's pid.
GRANDCHILD_CMD='sh -c "sleep 300 & echo \$! > gc; wait"'

# release FIFO: let a reader blocked opening FIFO go (opening it read-write
# never blocks), then give it end of file.
release() {
	exec 9<>"$1"
	exec 9>&-
}

# Kernel refusals are produced with tests/helpers/seccomp_deny (a seccomp
# filter making one system call fail with a chosen errno).
need_seccomp() {
	"$HELPERS/seccomp_deny" ptrace EPERM -- true 2>seccomp.err ||
		skip "cannot install a seccomp filter: $(cat seccomp.err)"
}

# cb_denied SYSCALL ERRNO ARGS...: run cbench with SYSCALL refused.
cb_denied() {
	local sc=$1 e=$2
	shift 2
	# LeakSanitizer stops the world with ptrace: in a SANITIZE build it
	# cannot run where ptrace is refused (valgrind's leak check can).
	[ "$sc" = ptrace ] && export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	if [ "${VALGRIND:-}" = 1 ]; then
		{ "$HELPERS/seccomp_deny" "$sc" "$e" -- "${VALGRIND_CMD[@]}" \
			"$CBENCH" "$@" 2>&1 1>&3 3>&- | "$VG_GREP" -v '^--[0-9]*-- ' >&2
		  return "${PIPESTATUS[0]}"; } 3>&1
	else
		"$HELPERS/seccomp_deny" "$sc" "$e" -- "$CBENCH" "$@"
	fi
}

# run_as_nobody CMD...: run as an unprivileged user (for the paths a root
# caller never takes); skips when that is impossible here.
run_as_nobody() {
	[ "$(id -u)" -eq 0 ] || skip "needs root to switch to an unprivileged user"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) not installed"
	chmod 1777 "$T"
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$CBENCH" ||
		skip "the cbench binary is not reachable by an unprivileged user here"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# A python3 that can import pandas, or nothing.
pandas_python() {
	local p
	for p in python3 /usr/bin/python3; do
		if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import pandas' 2>/dev/null; then
			echo "$p"
			return
		fi
	done
}
