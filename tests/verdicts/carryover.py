#!/usr/bin/env python3
"""tests/verdicts/carryover.py DIR INVOCATIONS RUNS: the table of
carryover.sh.  Reads DIR/r<i>.json (cbench's --export-json of benchmarks
run interleaved, every other round in reverse, or in shuffled rounds:
CARRYOVER_OPTIONS says which), puts every measured run of an invocation
in the order it ran (runs.run_index: its place among all the invocation's
measured runs), and sorts each run by the benchmark that ran just before
it.  The first round is left out: the runs before it were warmups, which
the export does not list.  A failed run, or one without a value, is not
counted, but is still the run before the next.

For every benchmark X and every other benchmark Y it prints how much
longer X's runs took after Y than after X itself: the difference of the
two medians (wall time and task-clock), also in per cent of the median
after itself.  The rounds of one invocation are neighbours in time, so
the difference cancels the machine's drift; the invocations are the
independent samples (the values are averaged over them, with the 95 %
t-interval scipy.stats.t.ppf(0.975, k - 1) * sd / sqrt(k) over the k
per-invocation values).

With two benchmarks it ends with what that does to their ratio: the
ratio of the second benchmark's median to the first's, over all the runs
counted, against the ratio of their medians after themselves (as
--order sequential would run them), and the same for rounds in which
every run follows the other (round-robin): (1 + c2) / (1 + c1) - 1, c1
and c2 being the relative differences of the first and the second
benchmark (per invocation, then averaged over the invocations that have
all of them)."""
import json
import math
import os
import statistics
import sys

from scipy import stats

d, invocations, runs_per = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
metrics = [("wall_time", "wall time"), ("task_clock", "task-clock")]


def interval(x):
    """Mean of x and the half-width of its 95 % t-interval."""
    n = len(x)
    m = sum(x) / n
    if n < 2:
        return m, float("nan")
    return m, stats.t.ppf(0.975, n - 1) * statistics.stdev(x) / math.sqrt(n)


def invocations_word(n):
    return "%d invocation%s" % (n, "" if n == 1 else "s")


options = os.environ.get("CARRYOVER_OPTIONS", "").strip()
names = None
# diffs[(x, y, metric)][i]: in invocation i, (median of x after y, median
# of x after x)
diffs = {}
# overall[x][i]: median wall time of all of x's counted runs in invocation i
overall = {}
# itself[x][i]: median wall time of x's runs after itself in invocation i
itself = {}
lengths = {}
for i in range(1, invocations + 1):
    with open("%s/r%d.json" % (d, i)) as f:
        results = json.load(f)["results"]
    if names is None:
        names = [r["name"] for r in results]
    runs = []
    for r in results:
        ru = r["runs"]
        failed = ru.get("failed") or [False] * len(ru["run_index"])
        for k, at in enumerate(ru["run_index"]):
            values = {m: ru[m][k] for m, _ in metrics
                      if m in ru and ru[m][k] is not None and not failed[k]}
            runs.append((at, r["name"], values))
        lengths.setdefault(r["name"], []).extend(
            v for v in ru["wall_time"] if v is not None)
    runs.sort(key=lambda v: v[0])
    by = {}
    for prev, cur in zip(runs[len(results) - 1:], runs[len(results):]):
        by.setdefault((cur[1], prev[1]), []).append(cur[2])
    for x in names:
        every = [v["wall_time"] for (c, _), vs in by.items() if c == x
                 for v in vs if "wall_time" in v]
        if every:
            overall.setdefault(x, {})[i] = statistics.median(every)
        for y in names:
            if y == x:
                continue
            for m, _ in metrics:
                a = [v[m] for v in by.get((x, y), []) if m in v]
                b = [v[m] for v in by.get((x, x), []) if m in v]
                if a and b:
                    diffs.setdefault((x, y, m), {})[i] = (
                        statistics.median(a), statistics.median(b))
                    if m == "wall_time":
                        itself.setdefault(x, {})[i] = statistics.median(b)

print("carry-over: %s run directly%s; %s of %d "
      "rounds%s; each benchmark's median after another against after "
      "itself, 95 %% intervals over the invocations"
      % (", ".join("'%s'" % n for n in names),
         "" if "--order" in options else ", interleaved (the default order)",
         invocations_word(invocations), runs_per,
         "; options: " + options if options else ""))
rel = {}
for x in names:
    for y in names:
        if y == x:
            continue
        parts = []
        for m, label in metrics:
            v = diffs.get((x, y, m), {})
            if m == "wall_time":
                rel[x] = {k: a / b - 1 for k, (a, b) in v.items()}
            if len(v) < 2:
                parts.append("%s not measured (in %s, 2 needed)"
                             % (label, invocations_word(len(v))))
                continue
            du, hu = interval([(a - b) * 1e6 for a, b in v.values()])
            dr, hr = interval([(a / b - 1) * 100 for a, b in v.values()])
            parts.append("%s %+.1f us ± %.1f (%+.1f %% ± %.1f)"
                         % (label, du, hu, dr, hr))
        print("  %s (%.2f ms) after %s: %s"
              % (x, statistics.median(lengths[x]) * 1e3 if lengths[x]
                 else float("nan"), y, ", ".join(parts)))
if len(names) == 2:
    n1, n2 = names
    c1, c2 = rel.get(n1, {}), rel.get(n2, {})
    both = sorted(set(c1) & set(c2) & set(overall.get(n1, {})) &
                  set(overall.get(n2, {})) & set(itself.get(n1, {})) &
                  set(itself.get(n2, {})))
    if len(both) < 2:
        print("  the ratio of %s to %s: not measured (in %s, 2 needed)"
              % (n2, n1, invocations_word(len(both))))
    else:
        # the ratio of the medians of all runs, as the order ran them,
        # against the ratio of the runs after themselves
        o1, o2, s1, s2 = overall[n1], overall[n2], itself[n1], itself[n2]
        m, h = interval([((o2[k] / o1[k]) / (s2[k] / s1[k]) - 1) * 100
                         for k in both])
        mr, hr = interval([((1 + c2[k]) / (1 + c1[k]) - 1) * 100
                           for k in both])
        print("  the ratio of %s to %s (medians), against each one's runs "
              "after itself: %+.1f %% ± %.1f in these runs; %+.1f %% ± "
              "%.1f with every run after the other (round-robin)"
              % (n2, n1, m, h, mr, hr))
