#!/bin/bash
# tests/verdicts/history_machine.sh: a load step with no code change,
# recorded in a history: does `cbench history detect` call it the
# machine's change rather than a regression?  Run last by `make verdicts`,
# with its own load; see tests/verdicts/README.md.
#
# HM_SERIES (10) benchmarks (-n s1 .. s10, each `spin N`, -r HM_RUNS) are
# recorded together in HM_BEFORE (5) invocations on the machine as it is,
# then HM_AFTER (5) with loadgen keeping every CPU busy twice over (once
# the 1-minute load average has risen by 2).  Every invocation is labelled
# with a commit of its own, so that only the load can tell the machine's
# change from the code's.  Each series is then searched; a measured rate,
# printed; nothing here asserts it.
#
# Environment: CBENCH, HELPERS (from make), HM_SERIES (10), HM_BEFORE (5),
# HM_AFTER (5), HM_RUNS (10), HM_SPIN (VERDICT_BASE, else 6).
set -u
: "${CBENCH:?} ${HELPERS:?}"
SERIES=${HM_SERIES:-10}
BEFORE=${HM_BEFORE:-5}
AFTER=${HM_AFTER:-5}
RUNS=${HM_RUNS:-10}
SPIN=${HM_SPIN:-${VERDICT_BASE:-6}}
. "$(dirname "$0")/common.sh"
whole_numbers "history machine step" "$SERIES" "$BEFORE" "$AFTER" "$RUNS" "$SPIN"
tmp=$(mktemp -d)
load_pid=
trap '[ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
args=()
for ((s = 1; s <= SERIES; s++)); do
	args+=(-n "s$s" "$HELPERS/spin $SPIN")
done
inv=0
record() {
	inv=$((inv + 1))
	if ! "$CBENCH" -N -r "$RUNS" --style none --history "$tmp/h.db" \
		--history-label "commit=v$inv" "${args[@]}" >/dev/null 2>"$tmp/err" </dev/null; then
		echo "history machine step: cbench failed: $(head -n 1 "$tmp/err")" >&2
		exit 1
	fi
	printf '.'
}
load1() { awk '{print $1}' /proc/loadavg; }
echo "history machine step: $SERIES series, $BEFORE invocations as the machine is, then $AFTER under a load (one dot each)"
for ((k = 0; k < BEFORE; k++)); do record; done
base=$(load1)
"$HELPERS/loadgen" -t $(($(nproc) * 2)) -d 100 -m 900 -P $$ &
load_pid=$!
# The 1-minute load average follows a load with a time constant of a
# minute: the loaded invocations start once it has risen by 2.
for ((w = 0; w < 240; w++)); do
	awk -v a="$(load1)" -v b="$base" 'BEGIN { exit !(a >= b + 2) }' && break
	sleep 1
done
for ((k = 0; k < AFTER; k++)); do record; done
kill "$load_pid" 2>/dev/null
wait "$load_pid" 2>/dev/null
load_pid=
echo
found=0 machine=0 code=0
for ((s = 1; s <= SERIES; s++)); do
	"$CBENCH" history detect "s$s" --history "$tmp/h.db" >"$tmp/d" 2>/dev/null
	n=$(grep -c '^  between ' "$tmp/d")
	m=$(grep -c '^      the machine changed, not the code' "$tmp/d")
	[ "$n" -gt 0 ] && found=$((found + 1))
	[ "$n" -gt 0 ] && [ "$m" -eq "$n" ] && machine=$((machine + 1))
	[ "$n" -gt "$m" ] && code=$((code + 1))
done
echo "history machine step: load average $base before, $(load1) after; $found of $SERIES series have a change point, $machine of $SERIES said to be the machine's (issue 43: at least 9 of 10), $code with a change reported as the code's"
