#!/bin/bash
# tests/verdicts/carryover.sh: how much a run's time depends on the run
# before it.  Run by `make verdicts` after the shell residue (without the
# background load); see tests/verdicts/README.md.
#
# Each of CARRYOVER_INVOCATIONS invocations runs `spin N` for every N of
# CARRYOVER_SPINS (a short and a long program by default), directly, in
# the default order (interleaved, every other round in reverse: A B B A
# A B ...), so that each benchmark's runs follow itself as often as the
# other.  carryover.py sorts every run by the run before it (from the
# runs' run_index) and prints how much longer a benchmark took after the
# other than after itself, and, for two benchmarks, how far that moved
# their ratio, and how far it would move it in round-robin rounds (each
# run after the other).  CARRYOVER_SLEEP=S adds `sleep S` as a benchmark:
# a run that mostly waits, so that "after a long run" can be told apart
# from "after a long wait" (with three benchmarks the middle one never
# follows itself in the default order: CARRYOVER_OPTIONS="--order
# shuffled" gives every pair).
#
# Environment: CBENCH, HELPERS (from make), CARRYOVER_INVOCATIONS (20),
# CARRYOVER_RUNS (100), CARRYOVER_SPINS ("0 12": about 0.4 and 4.3 ms),
# CARRYOVER_SLEEP (unset), CARRYOVER_OPTIONS (extra cbench options for
# every invocation, split into words).
set -u
: "${CBENCH:?} ${HELPERS:?}"
here=$(cd "$(dirname "$0")" && pwd)
INVOCATIONS=${CARRYOVER_INVOCATIONS:-20}
RUNS=${CARRYOVER_RUNS:-100}
SPINS=${CARRYOVER_SPINS:-0 12}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=()
for n in $SPINS; do
	args+=(-n "spin $n" "$HELPERS/spin $n")
done
if [ -n "${CARRYOVER_SLEEP:-}" ]; then
	SLEEP=$(command -v sleep)
	case $SLEEP in /*) ;; *) SLEEP=/bin/sleep ;; esac
	args+=(-n "sleep $CARRYOVER_SLEEP" "$SLEEP $CARRYOVER_SLEEP")
fi
for ((i = 1; i <= INVOCATIONS; i++)); do
	# shellcheck disable=SC2086 # CARRYOVER_OPTIONS is split into words
	if ! "$CBENCH" -N ${CARRYOVER_OPTIONS:-} -w 3 \
		-r "$RUNS" --export-json "$tmp/r$i.json" "${args[@]}" \
		>/dev/null 2>"$tmp/err"; then
		echo "carry-over: cbench failed: $(head -n 1 "$tmp/err")" >&2
		exit 1
	fi
done
CARRYOVER_OPTIONS=${CARRYOVER_OPTIONS:-} \
	"$PY" "$here/carryover.py" "$tmp" "$INVOCATIONS" "$RUNS"
