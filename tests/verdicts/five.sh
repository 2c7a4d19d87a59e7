#!/bin/bash
# tests/verdicts/five.sh: five identical commands in one invocation.  Run
# by `make verdicts` under the trials' background load, after their table;
# see tests/verdicts/README.md.
#
# Each of FIVE_TRIALS trials benchmarks `spin N` five times (-n A .. -n E,
# default options: interleaved, the fastest as the base, so four
# comparisons), and five.py counts the trials where any of the four
# wall-time verdicts says slower or faster: with Holm's adjustment over the
# four (README, "Comparisons") that must stay at most alpha, 5 %.  Beside
# it, the same count without the adjustment: any comparison whose own p
# (the JSON's "p", before Holm) is below 0.05, which for rounds is the
# verdict each comparison would have had on its own.
#
# Environment: CBENCH, HELPERS (from make), FIVE_TRIALS (40), FIVE_RUNS
# (VERDICT_RUNS, else 30), FIVE_SPIN (VERDICT_BASE, else 6), FIVE_OPTIONS
# (extra cbench options for every trial, split into words).
set -u
: "${CBENCH:?} ${HELPERS:?}"
here=$(cd "$(dirname "$0")" && pwd)
TRIALS=${FIVE_TRIALS:-40}
RUNS=${FIVE_RUNS:-${VERDICT_RUNS:-30}}
SPIN=${FIVE_SPIN:-${VERDICT_BASE:-6}}
. "$(dirname "$0")/common.sh"
whole_numbers "five identical" "$TRIALS" "$RUNS" "$SPIN"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=()
for name in A B C D E; do
	args+=(-n "$name" "$HELPERS/spin $SPIN")
done
echo "five identical commands: spin $SPIN five times, $RUNS runs each, $TRIALS trials (one dot each)"
for ((i = 1; i <= TRIALS; i++)); do
	# shellcheck disable=SC2086 # FIVE_OPTIONS is split into words
	if ! "$CBENCH" -N ${FIVE_OPTIONS:-} -r "$RUNS" --export-json "$tmp/t$i.json" \
		"${args[@]}" >/dev/null 2>"$tmp/err" </dev/null; then
		echo "five identical: cbench failed: $(head -n 1 "$tmp/err")" >&2
		exit 1
	fi
	printf '.'
	[ $((i % 10)) -eq 0 ] && printf ' %d\n' "$i"
done
[ $((TRIALS % 10)) -eq 0 ] || echo
"$PY" "$here/five.py" "$tmp" "$TRIALS"
