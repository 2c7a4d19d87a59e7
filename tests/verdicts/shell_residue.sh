#!/bin/bash
# tests/verdicts/shell_residue.sh: what is left of the shell after cbench's
# shell correction.  Run by `make verdicts` after the trials (without the
# background load); see tests/verdicts/README.md.
#
# One invocation benchmarks the same program twice, interleaved: `spin 2`
# (no shell syntax: run directly) and `spin 2 #` (a comment is shell
# syntax: run under `sh -c`, with the calibrated start-up subtracted).
# Each round's two runs are neighbours in time, so the differences of the
# rounds cancel the machine's drift.  shell_residue.py prints, per metric,
# the mean of the rounds' differences (shell minus direct) with its 95 %
# interval, per invocation and over all of them, and whether the shell
# runs' page faults are whole numbers within 1 of the direct ones.
#
# Environment: CBENCH, HELPERS (from make), RESIDUE_INVOCATIONS (5),
# RESIDUE_RUNS (300).
set -u
: "${CBENCH:?} ${HELPERS:?}"
here=$(cd "$(dirname "$0")" && pwd)
INVOCATIONS=${RESIDUE_INVOCATIONS:-5}
RUNS=${RESIDUE_RUNS:-300}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((i = 1; i <= INVOCATIONS; i++)); do
	if ! "$CBENCH" -w 3 -r "$RUNS" -n direct -n shell \
		--export-json "$tmp/r$i.json" "$HELPERS/spin 2" "$HELPERS/spin 2 #" \
		>/dev/null 2>"$tmp/err"; then
		echo "shell residue: cbench failed: $(head -n 1 "$tmp/err")" >&2
		exit 1
	fi
done
"$PY" "$here/shell_residue.py" "$tmp" "$INVOCATIONS" "$RUNS"
