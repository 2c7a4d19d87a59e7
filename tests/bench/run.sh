#!/bin/bash
# tests/bench/run.sh: cbench's own cost, run by `make bench` (which builds
# and passes CBENCH, FLOOR, BACKEND and HWM).  Prints every figure as a
# ratio measured in this invocation, with its target beside it; absolute
# times are for information (these machines are shared and noisy).
#
#  1. per-run cost: wall time of `cbench -N --runs 1000 true` (default
#     counters, and --counters=none) over the floor (tests/bench/floor.c:
#     posix_spawn + wait4 of the same program 1000 times) and over
#     `hyperfine -N --runs 1000 true`: the median of REPS paired ratios.
#     Beside them, for information, what the kernel charges for an
#     exec-exact run (floor.c --frozen, --frozen-counters) and what the
#     launcher costs (cbench without it, CBENCH_TEST_NO_LAUNCHER).
#  2. memory: cbench's peak RSS for 100 and 20000 runs of true (growth per
#     run), beside hyperfine's.
#  3. start-up: `cbench --version` against /bin/true (each 200 times by
#     the floor loop).
#  4. back end: statistics and every export for one benchmark of 1 000 000
#     synthetic runs, and for a sweep of 1000 parameter values
#     (tests/bench/backend.c, linked with the modules), the HTML report
#     (--export-html) among them, with the page's size, and change-point
#     detection over a series of 10,000 points (tests/bench/changepoint.c).
#  5. peak RSS accuracy: what cbench reports for a small command against
#     the command's own VmHWM (tests/helpers/hwm.c).
#
# Environment: REPS (default 11), RUNS (default 1000), MEM_RUNS (20000),
# BACKEND_RUNS (1000000), SWEEP (1000), CP_POINTS (10000).
set -u

: "${CBENCH:?} ${FLOOR:?} ${BACKEND:?} ${HWM:?}"
REPS=${REPS:-11}
RUNS=${RUNS:-1000}
MEM_RUNS=${MEM_RUNS:-20000}
BACKEND_RUNS=${BACKEND_RUNS:-1000000}
SWEEP=${SWEEP:-1000}
CP_POINTS=${CP_POINTS:-10000}
TRUE=$(command -v true)
[ "${TRUE#/}" != "$TRUE" ] || TRUE=/bin/true
HYPERFINE=$(command -v hyperfine || true)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
failed=0

# seconds CMD...: wall time of one execution, output discarded.
seconds() {
	local s=$EPOCHREALTIME
	"$@" >/dev/null 2>&1 </dev/null
	local rc=$?
	local e=$EPOCHREALTIME
	[ $rc -eq 0 ] || { echo "run failed ($rc): $*" >&2; return 1; }
	echo "$s $e" | awk '{printf "%.6f\n", $2 - $1}'
}

# peak_kib CMD...: the command's own peak RSS (KiB), output discarded.
peak_kib() {
	/usr/bin/time -f %M -o "$tmp/rss" "$@" >/dev/null 2>&1 </dev/null ||
		{ echo "run failed: $*" >&2; return 1; }
	tail -n 1 "$tmp/rss"
}

min_of() { sort -g | head -n 1; }

# row LABEL VALUE TARGET-OP TARGET [NOTE]: one line of the table; VALUE
# compared with TARGET by OP ("<=" or "-" for information only).
row() {
	local label=$1 value=$2 op=$3 target=$4 note=${5:-}
	local verdict=""
	if [ "$op" = "<=" ]; then
		# As numbers: a value carries its unit ("10.033s"), and awk
		# compared such a string with the target as text ("1" < "2").
		if awk -v v="$value" -v t="$target" 'BEGIN { exit !(v + 0 <= t + 0) }'; then
			verdict="ok"
		else
			verdict="MISSED"
			failed=$((failed + 1))
		fi
		printf '  %-46s %10s   target <= %-8s %-6s %s\n' "$label" "$value" "$target" "$verdict" "$note"
	else
		printf '  %-46s %10s   %-19s %-6s %s\n' "$label" "$value" "(information)" "" "$note"
	fi
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
ms_per_run() { awk -v t="$1" -v n="$2" 'BEGIN { printf "%.3f ms/run", t / n * 1e3 }'; }

echo "cbench $("$CBENCH" --version 2>/dev/null | head -n 1 | awk '{print $NF}'): make bench on $(uname -srm), $(nproc) CPUs, $(date -u '+%Y-%m-%d %H:%M UTC')"
[ -n "$HYPERFINE" ] && echo "hyperfine: $("$HYPERFINE" --version)"
echo

# ---- 1. per-run cost ----
# Every repetition runs each variant once, in an order rotated from one
# repetition to the next; a ratio is taken within a repetition (the two
# runs seconds apart, under the same load) and the median of those paired
# ratios is reported: on a shared machine the load drifts between
# repetitions by more than the differences measured here.
echo "1. Per-run cost, $RUNS runs of $TRUE, $REPS repetitions (median of paired ratios)"
names=(floor frozen frozenctr cb none nolaunch)
cmds=("$FLOOR $RUNS $TRUE"
	"$FLOOR --frozen $RUNS $TRUE"
	"$FLOOR --frozen-counters $RUNS $TRUE"
	"$CBENCH -N --runs $RUNS $TRUE"
	"$CBENCH -N --counters=none --runs $RUNS $TRUE"
	"env CBENCH_TEST_NO_LAUNCHER=1 $CBENCH -N --counters=none --runs $RUNS $TRUE")
if [ -n "$HYPERFINE" ]; then
	names+=(hf)
	cmds+=("$HYPERFINE -N --runs $RUNS $TRUE")
fi
nv=${#names[@]}
for n in "${names[@]}"; do : >"$tmp/$n"; done
for ((r = 0; r < REPS; r++)); do
	for ((j = 0; j < nv; j++)); do
		k=$(((j + r) % nv))
		# shellcheck disable=SC2086 # each entry is a command line
		seconds ${cmds[$k]} >>"$tmp/${names[$k]}" || exit 1
	done
done
# pratio A B: median over repetitions of A's time / B's time.
pratio() {
	paste "$tmp/$1" "$tmp/$2" | awk '{ print $1 / $2 }' | sort -g |
		awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.3f", m }'
}
# spread A B: the middle half of those ratios, as a note.
spread() {
	paste "$tmp/$1" "$tmp/$2" | awk '{ print $1 / $2 }' | sort -g |
		awk '{ v[NR] = $1 } END { printf "(middle half %.2f-%.2f)", v[int(NR * 0.25) + 1], v[int((NR - 1) * 0.75) + 1] }'
}
timing() { local t; t=$(min_of <"$tmp/$2"); row "$1" "$(printf %.3f "$t")s" - - "$(ms_per_run "$t" "$RUNS"), fastest repetition"; }
timing "floor (posix_spawn + wait4)" floor
timing "frozen-exec floor (vfork, exec stop, detach)" frozen
timing "  + task-clock and page-faults" frozenctr
timing "cbench, default counters" cb
timing "cbench --counters=none" none
timing "cbench --counters=none, no launcher" nolaunch
[ -n "$HYPERFINE" ] && timing "hyperfine -N" hf
row "default counters / floor" "$(pratio cb floor)" "<=" 1.15 "$(spread cb floor)"
row "--counters=none / floor" "$(pratio none floor)" "<=" 1.05 "$(spread none floor)"
if [ -n "$HYPERFINE" ]; then
	row "default counters / hyperfine" "$(pratio cb hf)" "<=" 1.00 "$(spread cb hf)"
else
	echo "  (hyperfine not installed: no comparison with it)"
fi
echo "  What the kernel charges, and what is cbench's own:"
row "frozen-exec floor / floor" "$(pratio frozen floor)" - - "$(spread frozen floor)"
row "frozen-exec floor + counters / floor" "$(pratio frozenctr floor)" - - "$(spread frozenctr floor)"
row "default counters / frozen floor + counters" "$(pratio cb frozenctr)" - - "$(spread cb frozenctr)"
row "--counters=none / frozen-exec floor" "$(pratio none frozen)" - - "$(spread none frozen)"
row "--counters=none / same without launcher" "$(pratio none nolaunch)" - - "$(spread none nolaunch)"
echo

# ---- 2. memory ----
echo "2. Memory: peak RSS of the harness for 100 and $MEM_RUNS runs of true"
# growth SMALL BIG: bytes per run between 100 and MEM_RUNS runs (KiB in).
growth() {
	awk -v a="$1" -v b="$2" -v n="$MEM_RUNS" \
		'BEGIN { g = (b - a) * 1024 / (n - 100); printf "%.0f", g < 0 ? 0 : g }'
}
# memory LABEL PROGRAM: peak RSS for 100 and MEM_RUNS runs, and the growth;
# sets mem_small and mem_growth.
memory() {
	local small big
	small=$(peak_kib "$2" -N --runs 100 "$TRUE") || exit 1
	big=$(peak_kib "$2" -N --runs "$MEM_RUNS" "$TRUE") || exit 1
	row "$1, 100 runs" "${small}KiB" - -
	row "$1, $MEM_RUNS runs" "${big}KiB" - -
	mem_small=$small
	mem_growth=$(growth "$small" "$big")
}
memory cbench "$CBENCH"
cb100=$mem_small
row "cbench growth (bytes per run)" "$mem_growth" "<=" 200
if [ -n "$HYPERFINE" ]; then
	memory hyperfine "$HYPERFINE"
	row "hyperfine growth (bytes per run)" "$mem_growth" - -
	row "cbench / hyperfine fixed cost (100 runs)" "$(ratio "$cb100" "$mem_small")" "<=" 1.00
fi
echo

# ---- 3. start-up ----
echo "3. Start-up: 200 executions each, min of $REPS"
: >"$tmp/v" >"$tmp/t"
for ((r = 0; r < REPS; r++)); do
	seconds "$FLOOR" 200 "$CBENCH" --version >>"$tmp/v" || exit 1
	seconds "$FLOOR" 200 "$TRUE" >>"$tmp/t" || exit 1
done
v=$(min_of <"$tmp/v")
t=$(min_of <"$tmp/t")
row "cbench --version" "$(printf %.3f "$v")s" - - "$(ms_per_run "$v" 200)"
row "/bin/true" "$(printf %.3f "$t")s" - - "$(ms_per_run "$t" 200)"
row "cbench --version / true" "$(ratio "$v" "$t")" - -
echo

# ---- 4. back end ----
echo "4. Back end (tests/bench/backend.c, changepoint.c): statistics, exports, change points"
"$BACKEND" runs "$BACKEND_RUNS" >"$tmp/b1" || { echo "backend failed" >&2; exit 1; }
"$BACKEND" sweep "$SWEEP" 10 >"$tmp/b2" || { echo "backend failed" >&2; exit 1; }
backend_rows() {
	local file=$1 what=$2 target=$3
	awk '$1 != "missing" && $1 != "store" && $1 != "html_bytes" { print }' "$file" |
	while read -r phase t; do
		row "$what: $phase" "${t}s" - -
	done
	local bytes
	bytes=$(awk '$1 == "html_bytes" { print $2 }' "$file")
	[ -z "$bytes" ] || row "$what: HTML report size" \
		"$(awk -v b="$bytes" 'BEGIN { printf "%.0f KiB", b / 1024 }')" - -
	local total
	total=$(awk '$1 == "stats" || $1 == "export_doc" || $1 == "exports" { s += $2 } END { printf "%.3f", s }' "$file")
	if [ "$target" = - ]; then
		row "$what: statistics + exports" "${total}s" - -
	else
		row "$what: statistics + exports" "${total}s" "<=" "$target"
	fi
	grep '^missing' "$file" | sed 's/^missing /  not timed (missing): /'
}
backend_rows "$tmp/b1" "$BACKEND_RUNS runs" 2
backend_rows "$tmp/b2" "$SWEEP-value sweep" -
# Change points (tests/bench/changepoint.c, beside the back end's binary):
# a series of CP_POINTS points with three steps, the fastest of 5.
CHANGEPOINT=${CHANGEPOINT:-$(dirname "$BACKEND")/changepoint}
if [ -x "$CHANGEPOINT" ]; then
	"$CHANGEPOINT" "$CP_POINTS" >"$tmp/cp" || { echo "changepoint failed" >&2; exit 1; }
	read -r _ cpt cpk < <(grep '^t-test ' "$tmp/cp")
	read -r _ cpp cppk < <(grep '^permutation ' "$tmp/cp")
	row "change points, $CP_POINTS points, t-test" "${cpt}s" "<=" 0.1 "($cpk changes found of 3)"
	row "change points, $CP_POINTS points, 199 permutations" "${cpp}s" - - "($cppk changes found of 3)"
else
	echo "  not timed (missing): change points ($CHANGEPOINT)"
fi
# The results history (tests/bench/history.c) on SQLite files in $tmp.
HISTORY_BENCH=${HISTORY_BENCH:-$(dirname "$BACKEND")/history}
if [ -x "$HISTORY_BENCH" ]; then
	"$HISTORY_BENCH" "$tmp" >"$tmp/hist" || { echo "history bench failed" >&2; exit 1; }
	row "history: record an invocation of 100,000 runs" "$(awk '$1 == "insert_100000_runs" {print $2}' "$tmp/hist")s" "<=" 1 "(8 metrics, one transaction)"
	row "history: list 10,000 invocations" "$(awk '$1 == "list_10000" {print $2}' "$tmp/hist")s" "<=" 1
	row "history: read and detect over 10,000 points" "$(awk '$1 == "detect_10000" {print $2}' "$tmp/hist")s" "<=" 1 "($(awk '$1 == "changes" {print $2}' "$tmp/hist") changes found of 2)"
else
	echo "  not timed (missing): the history ($HISTORY_BENCH)"
fi
echo

# ---- 5. peak RSS accuracy ----
echo "5. Peak RSS of a small command: cbench's figure against the command's own VmHWM"
rm -f "$tmp/hwm"
"$CBENCH" -N --runs 20 --export-json "$tmp/hwm.json" "$HWM $tmp/hwm" >"$tmp/hwm.out" 2>&1 ||
	"$CBENCH" -N --runs 20 "$HWM $tmp/hwm" >"$tmp/hwm.out" 2>&1
truth=$(awk '{ s += $1 } END { printf "%.0f", s / NR }' "$tmp/hwm")
reported=$(awk '/Peak RSS:/ { v = $3; u = $4; if (u == "MiB") v *= 1024; if (u == "GiB") v *= 1048576; printf "%.0f", v }' "$tmp/hwm.out")
row "command's own VmHWM (mean)" "${truth}KiB" - -
row "cbench's Peak RSS (mean)" "${reported}KiB" - - "(includes what the command inherits at exec)"
rm -f "$tmp/hwm"
/usr/bin/time -f %M -o "$tmp/tv" "$HWM" "$tmp/hwm" 2>/dev/null
row "/usr/bin/time's maxrss, same command" "$(tail -n 1 "$tmp/tv")KiB" - - "(VmHWM $(cat "$tmp/hwm") KiB)"
echo

# ---- 6. export overhead ----
# A sweep of EXPORT_SWEEP parameter values, 2 runs each, with every export
# on against the same sweep without exports: what keeping the files
# current costs (issue #20: rewriting them after every benchmark made it
# quadratic).  Median of EXPORT_REPS paired ratios, order alternated.
EXPORT_SWEEP=${EXPORT_SWEEP:-2000}
EXPORT_REPS=${EXPORT_REPS:-3}
echo "6. Export overhead: a $EXPORT_SWEEP-value sweep (-r 2), every export on / none, median of $EXPORT_REPS"
values=$(seq -s, 1 "$EXPORT_SWEEP")
sweep() { "$CBENCH" -N -r 2 -L n "$values" "$TRUE {n}" "$@"; }
all_exports=(--export-json "$tmp/x.json" --export-csv "$tmp/x.csv"
	--export-csv-runs "$tmp/x.runs.csv" --export-markdown "$tmp/x.md"
	--export-asciidoc "$tmp/x.adoc" --export-orgmode "$tmp/x.org")
: >"$tmp/exp"
for rep in $(seq "$EXPORT_REPS"); do
	if [ $((rep % 2)) -eq 1 ]; then
		a=$(seconds sweep "${all_exports[@]}") && b=$(seconds sweep) || break
	else
		b=$(seconds sweep) && a=$(seconds sweep "${all_exports[@]}") || break
	fi
	echo "$a $b" >>"$tmp/exp"
done
exp_ratio=$(awk '{ print $1 / $2 }' "$tmp/exp" | sort -g | awk '{ v[NR] = $1 } END { printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
row "every export / no export" "$exp_ratio" "<=" 1.3 "($(awk '{ printf "%.1fs vs %.1fs ", $1, $2 }' "$tmp/exp"))"
echo

if [ "$failed" -eq 0 ]; then
	echo "every target met"
else
	echo "$failed target(s) missed"
fi
exit 0
