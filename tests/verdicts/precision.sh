#!/bin/bash
# tests/verdicts/precision.sh: do --precision's intervals hold across
# reruns?  Run by `make verdicts` under the trials' background load, after
# five.sh; see tests/verdicts/README.md.
#
# PRECISION_RERUNS (20) invocations of `cbench -N --precision 10 'spin N'`,
# one after another; for each, does its reported mean interval hold the
# median of the other reruns' means?  Issue 43's criterion: at least 18 of
# 20.  A measured rate, printed; nothing here asserts it.
#
# Environment: CBENCH, HELPERS (from make), PRECISION_RERUNS (20),
# PRECISION_PCT (10), PRECISION_SPIN (VERDICT_BASE, else 6).
set -u
: "${CBENCH:?} ${HELPERS:?}"
RERUNS=${PRECISION_RERUNS:-20}
PCT=${PRECISION_PCT:-10}
SPIN=${PRECISION_SPIN:-${VERDICT_BASE:-6}}
. "$(dirname "$0")/common.sh"
whole_numbers "precision reruns" "$RERUNS" "$PCT" "$SPIN"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "precision reruns: --precision $PCT on spin $SPIN, $RERUNS reruns (one dot each)"
for ((i = 1; i <= RERUNS; i++)); do
	if ! "$CBENCH" -N --precision "$PCT" --export-json "$tmp/r$i.json" \
		"$HELPERS/spin $SPIN" >/dev/null 2>"$tmp/err" </dev/null; then
		echo "precision reruns: cbench failed: $(head -n 1 "$tmp/err")" >&2
		exit 1
	fi
	printf '.'
	[ $((i % 10)) -eq 0 ] && printf ' %d\n' "$i"
done
[ $((RERUNS % 10)) -eq 0 ] || echo
"$PY" - "$tmp" "$RERUNS" <<'PYEOF'
import json, statistics, sys
d, n = sys.argv[1], int(sys.argv[2])
rs = []
for i in range(1, n + 1):
    r = json.load(open(f"{d}/r{i}.json"))["results"][0]
    w = r["metrics"]["wall_time"]
    rs.append((w["mean"], w["mean_ci"][0], w["mean_ci"][1], len(r["times"])))
held = 0
for i, (m, lo, hi, k) in enumerate(rs):
    others = statistics.median(x[0] for j, x in enumerate(rs) if j != i)
    held += lo <= others <= hi
means = [x[0] * 1e3 for x in rs]
runs = [x[3] for x in rs]
print(f"precision reruns: {held} of {n} intervals hold the median of the "
      f"other reruns' means (issue 43: at least 18 of 20); means "
      f"{min(means):.2f}-{max(means):.2f} ms, runs {min(runs)}-{max(runs)}")
PYEOF
