#!/bin/bash
# tests/verdicts/shell_residue.sh: what is left of the shell after cbench's
# shell correction.  Run by `make verdicts` after the trials (without the
# background load); see tests/verdicts/README.md.
#
# One invocation benchmarks, for every N of RESIDUE_SPINS, the same program
# twice, interleaved: `spin N` (no shell syntax: run directly) and `spin N #`
# (a comment is shell syntax: run under `sh -c`, with the calibrated
# start-up subtracted).  Between the two, `spin 0` runs (benchmark "gap N",
# not reported; it was `true` before the programs printed their loop's
# time), so that both were preceded by a short run; since a calibration
# pair follows every run, every run is, and the gap stays for builds
# before that (RESIDUE_AGAINST) and for the figures' continuity.  On this
# VM a run that follows a 4 ms run starts about 0.1 ms
# slower than one that follows `true` (the side band showed the shell's
# start-up up to its vfork at 749 us after `spin 5` against 692 us after
# `true`, and direct `true` at 728 against 591 us), so without the gap the
# shell run, always after the direct one, carried that into the residue.
# The rounds are shuffled (--order shuffled: each round runs every
# benchmark of the invocation once, in a random order), because what a
# run follows moves it even so (tests/verdicts/README.md gives the
# figures).  All of them share the invocation's one calibration, so the
# programs' residues differ only by what depends on the program's length.
# Each round's runs are neighbours in time, so the differences of the
# rounds cancel the machine's drift.  shell_residue.py prints, per
# program and metric, the mean and the median of the rounds' differences
# (shell minus direct), averaged over the invocations, with a
# 95 % interval from their spread (each invocation has its own calibration,
# whose error is shared by all its rounds), and whether the shell runs'
# page faults are whole numbers within 1 of the direct ones.
#
# Environment: CBENCH, HELPERS (from make), RESIDUE_INVOCATIONS (10),
# RESIDUE_RUNS (200), RESIDUE_SPINS ("0 2 5": spin's millions of loop
# iterations, about 0.5, 3 and 7 ms), RESIDUE_OPTIONS (extra cbench
# options for every invocation, split into words: `--pin 1` runs both
# modes on one CPU, so that they differ only by the shell; without it the
# kernel places a direct program and the shell's program on different
# CPUs, whose speeds differ on a VM: doc/shells.md), RESIDUE_LOAD (set and
# not 0: measure under the trials' background load, tests/helpers/loadgen
# with VERDICT_LOAD's options, started here and stopped at the end),
# RESIDUE_AGAINST (the path of another cbench, such as a build of commit
# 9d74336, the last before the exact correction: each invocation is also
# run with it, the two in turn, first one then the other, and the pass
# ends with this build's residue as a share of that one's).
set -u
: "${CBENCH:?} ${HELPERS:?}"
here=$(cd "$(dirname "$0")" && pwd)
INVOCATIONS=${RESIDUE_INVOCATIONS:-10}
RUNS=${RESIDUE_RUNS:-200}
SPINS=${RESIDUE_SPINS:-0 2 5}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)
tmp=$(mktemp -d)
load_pid=
trap '[ -z "$load_pid" ] || kill "$load_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
args=()
# spin --report prints the CPU time of its loop alone, read with --metric
# (by this build: RESIDUE_AGAINST's may predate --metric), so the table
# can tell a program that computed slower under the shell from time the
# shell added; the gap prints it too, as every command must.
for n in $SPINS; do
	args+=(-n "direct $n" -n "gap $n" -n "shell $n" "$HELPERS/spin $n --report" \
		"$HELPERS/spin 0 --report" "$HELPERS/spin $n --report #")
done
loop_metric=(--metric 'loop=^loop_ns ([0-9]+),unit=ns')
AGAINST=${RESIDUE_AGAINST:-}
if [ -n "$AGAINST" ]; then
	if ! [ -f "$AGAINST" ] || ! [ -x "$AGAINST" ]; then
		echo "shell residue: RESIDUE_AGAINST is not an executable: $AGAINST" >&2
		exit 2
	fi
	# a path, never a name looked up in PATH
	case $AGAINST in /*) ;; *) AGAINST=$PWD/$AGAINST ;; esac
fi
mkdir "$tmp/against"
load=
case ${RESIDUE_LOAD:-0} in
0 | '') ;;
*)
	# shellcheck disable=SC2086  # VERDICT_LOAD is a list of options
	"$HELPERS/loadgen" -P $$ -m 7200 ${VERDICT_LOAD:-} &
	load_pid=$!
	sleep 0.2
	kill -0 "$load_pid" 2>/dev/null ||
		{ echo "shell residue: loadgen did not start" >&2; exit 1; }
	load="loadgen${VERDICT_LOAD:+ $VERDICT_LOAD}"
	;;
esac
# One invocation of cbench $1 into $2, with the options after them.
measure() {
	local cb=$1 out=$2
	shift 2
	# shellcheck disable=SC2086 # RESIDUE_OPTIONS is split into words
	if ! "$cb" --order shuffled ${RESIDUE_OPTIONS:-} -w 3 -r "$RUNS" "$@" \
		--export-json "$out" "${args[@]}" >/dev/null 2>"$tmp/err"; then
		echo "shell residue: $cb failed: $(head -n 1 "$tmp/err")" >&2
		exit 1
	fi
}
for ((i = 1; i <= INVOCATIONS; i++)); do
	if [ -n "$AGAINST" ] && ((i % 2 == 0)); then
		measure "$AGAINST" "$tmp/against/r$i.json"
		measure "$CBENCH" "$tmp/r$i.json" "${loop_metric[@]}"
	else
		measure "$CBENCH" "$tmp/r$i.json" "${loop_metric[@]}"
		[ -z "$AGAINST" ] || measure "$AGAINST" "$tmp/against/r$i.json"
	fi
done
if [ -n "$load_pid" ]; then
	if ! kill "$load_pid" 2>/dev/null; then
		echo "shell residue: warning: loadgen stopped before the measurement ended" >&2
		load="$load, stopped before the end"
	fi
	wait "$load_pid" 2>/dev/null
	load_pid=
fi
# shellcheck disable=SC2086 # SPINS is a list of arguments
RESIDUE_AGAINST=$AGAINST RESIDUE_AGAINST_DIR=${AGAINST:+$tmp/against} \
	RESIDUE_OPTIONS=${RESIDUE_OPTIONS:-} RESIDUE_LOAD_DESC=$load \
	"$PY" "$here/shell_residue.py" "$tmp" "$INVOCATIONS" "$RUNS" $SPINS
