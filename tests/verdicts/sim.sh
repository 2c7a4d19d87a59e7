#!/bin/bash
# tests/verdicts/sim.sh: the simulated-CPU gate under load (make verdicts;
# tests/verdicts/README.md).  With the background load of run.sh
# (tests/helpers/loadgen.c) running, SIM_TRIALS times each (3 runs per
# command, the default of --counters sim):
#   A/A   loop N against itself, gated at --fail-if-slower 0.3%;
#   +0.5  loop N against loop N*1.005 (0.5 % more work), the same gate.
# Prints how often each gate failed and the counts' spread across every
# trial, and one PASS/FAIL line per criterion of the issue: every +0.5 %
# trial fails the gate (exit 3), no A/A trial does, and the count of loop
# N is one number in every trial.
set -u

: "${CBENCH:?} ${HELPERS:?}"
TRIALS=${SIM_TRIALS:-20}
N=${SIM_N:-1000000}
LOOP=$HELPERS/loop
LOADGEN=$HELPERS/loadgen
case $TRIALS$N in '' | *[!0-9]*)
	echo "sim verdicts: SIM_TRIALS and SIM_N must be whole numbers" >&2; exit 2 ;;
esac
if ! command -v valgrind >/dev/null; then
	echo "simulated gate: SKIP (valgrind not installed)"
	exit 0
fi
tmp=$(mktemp -d)
load_pid=
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
	[ -z "$load_pid" ] || { kill "$load_pid" 2>/dev/null; wait "$load_pid" 2>/dev/null; }
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT

"$LOADGEN" -P $$ -m 3600 &
load_pid=$!
more=$((N + N / 200))
aa_fail=0 ab_fail=0 other=0
: >"$tmp/counts"
echo "simulated gate (--counters sim, 3 runs each, --fail-if-slower 0.3%, loop $N against loop $more, under load):"
for ((i = 1; i <= TRIALS; i++)); do
	for pair in aa ab; do
		b=$N
		[ $pair = ab ] && b=$more
		"$CBENCH" -N --counters sim --style none --reference "$LOOP $N" \
			--fail-if-slower 0.3% --export-json "$tmp/t.json" "$LOOP $b" \
			</dev/null >/dev/null 2>"$tmp/err"
		rc=$?
		case $pair/$rc in
		aa/3) aa_fail=$((aa_fail + 1)) ;;
		ab/3) ab_fail=$((ab_fail + 1)) ;;
		*/0) ;;
		*) other=$((other + 1)); echo "  trial $i $pair exited $rc: $(head -n 1 "$tmp/err")" ;;
		esac
		jq -r '.results[0].runs.sim_instructions[]' "$tmp/t.json" >>"$tmp/counts" 2>/dev/null
	done
	printf '.'
done
echo
distinct=$(sort -u "$tmp/counts" | wc -l)
echo "  load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "  A/A: the gate failed in $aa_fail of $TRIALS trials"
echo "  +0.5 % work: the gate failed in $ab_fail of $TRIALS trials"
echo "  loop $N counted $(wc -l <"$tmp/counts") times: $distinct distinct value(s) ($(sort -u "$tmp/counts" | head -n 3 | tr '\n' ' '))"
rc=0
verdict() { if [ "$1" = 1 ]; then echo "PASS $2"; else echo "FAIL $2"; rc=1; fi; }
verdict "$([ "$ab_fail" -eq "$TRIALS" ] && [ "$other" -eq 0 ] && echo 1)" \
	"a 0.5 % increase fails the 0.3 % gate in every trial ($ab_fail/$TRIALS)"
verdict "$([ "$aa_fail" -eq 0 ] && [ "$other" -eq 0 ] && echo 1)" \
	"the unchanged program passes in every trial ($((TRIALS - aa_fail))/$TRIALS)"
verdict "$([ "$distinct" -eq 1 ] && echo 1)" \
	"the simulated count is one number under load ($distinct distinct)"
exit $rc
