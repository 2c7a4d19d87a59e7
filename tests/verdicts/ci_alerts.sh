#!/bin/bash
# tests/verdicts/ci_alerts.sh: does the README's github-action-benchmark
# recipe raise an alert on unchanged code?  Run by `make verdicts` (after
# the load is stopped: CI runners are not loaded by a neighbour's loadgen,
# and the loaded run is measured by the other scripts).
#
# CA_PAIRS (20) pairs of invocations of the same command, each with
# --export-github-benchmark as the README's recipe runs it, compared as
# the action compares a run with the previous one (findAlerts in
# benchmark-action/github-action-benchmark's src/write.ts: an entry of the
# same name whose value is more than alert-threshold times the previous
# one, customSmallerIsBetter; the README's threshold is 110 %).  Two
# commands: a sleeping one (`sleep 0.005`, -r 10, the run that raised 3
# alerts when every metric was exported) and a CPU-bound one (spin, the
# recipe's -w 3 -r 30).  A measured rate is printed; nothing here
# asserts it.
#
# Environment: CBENCH, HELPERS (from make), CA_PAIRS (20),
# CA_THRESHOLD (1.10).
set -u
: "${CBENCH:?} ${HELPERS:?}"
. "$(dirname "$0")/common.sh"
PAIRS=${CA_PAIRS:-20}
THRESHOLD=${CA_THRESHOLD:-1.10}
whole_numbers "ci alerts" "$PAIRS"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# alerts PREV CUR: the action's alerts of CUR against PREV, one line each.
alerts() {
	"$PY" - "$1" "$2" "$THRESHOLD" <<'PY'
import json, sys
prev, cur = (json.load(open(p)) for p in sys.argv[1:3])
threshold = float(sys.argv[3])
for c in cur:
    p = next((b for b in prev if b["name"] == c["name"]), None)
    if p is None:
        continue
    ratio = c["value"] / p["value"] if p["value"] else float("inf")
    if ratio > threshold:
        print(f"{c['name']}: {p['value']:.6g} -> {c['value']:.6g} ({ratio:.3f}x)")
PY
}

echo "ci alerts: $PAIRS pairs of unchanged runs each, github-action-benchmark's rule at ${THRESHOLD}x"
for cmd in "sleep 0.005|-r 10" "$HELPERS/spin 6|-w 3 -r 30"; do
	command=${cmd%%|*} opts=${cmd#*|}
	pairs_alerting=0 n_alerts=0 series=
	for ((k = 1; k <= PAIRS; k++)); do
		for side in a b; do
			# shellcheck disable=SC2086
			if ! "$CBENCH" $opts -N --style none "$command" \
				--export-github-benchmark "$tmp/$side.json" </dev/null >/dev/null 2>"$tmp/err"; then
				echo "ci alerts: cbench failed: $(head -n 1 "$tmp/err")" >&2
				exit 1
			fi
		done
		alerts "$tmp/a.json" "$tmp/b.json" >"$tmp/alerts"
		a=$(wc -l <"$tmp/alerts")
		n_alerts=$((n_alerts + a))
		[ "$a" -gt 0 ] && pairs_alerting=$((pairs_alerting + 1)) && head -n 2 "$tmp/alerts" | sed 's/^/    /'
		series=$(jq -r '[.[].name | sub(".* - "; "")] | join(",")' "$tmp/b.json")
	done
	echo "  '$command' ($opts; series: $series): $pairs_alerting of $PAIRS pairs raised an alert ($n_alerts alerts; issue 39: none)"
done
