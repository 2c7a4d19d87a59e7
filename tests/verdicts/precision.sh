#!/bin/bash
# tests/verdicts/precision.sh: do --precision's intervals hold across
# reruns?  Run by `make verdicts` under the trials' background load, after
# five.sh; see tests/verdicts/README.md.
#
# PRECISION_RERUNS (20) invocations of `cbench -N --precision 10 'spin N'`
# recording into one history, one after another, after PRECISION_LEARN
# (5) unscored ones that give the history something to learn from (a CI
# job's history has its earlier runs); for each, does its reported
# interval (the one across invocations, between_invocations.mean_ci, when
# the history taught one; else mean_ci) hold the median of the other
# reruns' means?  Issue 43's criterion: at least 18 of 20.  The same
# reruns' own intervals (mean_ci) are counted beside it: what cbench
# reported before it learned from the history.  A measured rate, printed;
# nothing here asserts it.
#
# Environment: CBENCH, HELPERS (from make), PRECISION_RERUNS (20),
# PRECISION_LEARN (5), PRECISION_PCT (10), PRECISION_SPIN (VERDICT_BASE,
# else 6).
set -u
: "${CBENCH:?} ${HELPERS:?}"
RERUNS=${PRECISION_RERUNS:-20}
LEARN=${PRECISION_LEARN:-5}
PCT=${PRECISION_PCT:-10}
SPIN=${PRECISION_SPIN:-${VERDICT_BASE:-6}}
. "$(dirname "$0")/common.sh"
whole_numbers "precision reruns" "$RERUNS" "$LEARN" "$PCT" "$SPIN"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "precision reruns: --precision $PCT on spin $SPIN, $LEARN to learn from," \
	"then $RERUNS reruns (one dot each)"
for ((i = 1 - LEARN; i <= RERUNS; i++)); do
	if ! "$CBENCH" -N --precision "$PCT" --history "$tmp/h.db" \
		--export-json "$tmp/r$i.json" "$HELPERS/spin $SPIN" \
		>/dev/null 2>"$tmp/err" </dev/null; then
		echo "precision reruns: cbench failed: $(head -n 1 "$tmp/err")" >&2
		exit 1
	fi
	[ "$i" -ge 1 ] || continue
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
    ci = r.get("between_invocations", {}).get("mean_ci", w["mean_ci"])
    rs.append((w["mean"], ci[0], ci[1], len(r["times"]), w["mean_ci"]))
held = own = 0
for i, (m, lo, hi, k, oci) in enumerate(rs):
    others = statistics.median(x[0] for j, x in enumerate(rs) if j != i)
    held += lo <= others <= hi
    own += oci[0] <= others <= oci[1]
means = [x[0] * 1e3 for x in rs]
runs = [x[3] for x in rs]
half = sorted((x[2] - x[1]) / 2 / x[0] * 100 for x in rs)
print(f"precision reruns: {held} of {n} intervals hold the median of the "
      f"other reruns' means (issue 43: at least 18 of 20; their own "
      f"intervals alone: {own}); means {min(means):.2f}-{max(means):.2f} ms, "
      f"runs {min(runs)}-{max(runs)}, half-widths {half[0]:.0f}-"
      f"{half[-1]:.0f} % (median {half[len(half) // 2]:.0f} %)")
PYEOF
