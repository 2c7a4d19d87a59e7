#!/usr/bin/env python3
"""tests/verdicts/shell_residue.py DIR INVOCATIONS RUNS: the table of
shell_residue.sh.  Reads DIR/r<i>.json (cbench's --export-json with the
benchmarks "direct" and "shell", interleaved: results[k].runs.<metric> are
in run order, so run j of one and run j of the other are one round) and
prints, per metric, the mean of the rounds' differences (shell - direct)
with its t-interval (scipy.stats.t.ppf(0.975, n - 1) * sd / sqrt(n))."""
import json
import math
import sys

from scipy import stats

d, invocations, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
metrics = [("wall_time", 1e6, "us"), ("task_clock", 1e6, "us"),
           ("page_faults", 1, "")]


def interval(x):
    n = len(x)
    m = sum(x) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in x) / (n - 1))
    h = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    return m, h


print("shell residue: 'spin 2' run directly against 'spin 2 #' under sh -c "
      "(start-up subtracted), interleaved; %d invocations of %d rounds"
      % (invocations, runs))
whole, within = True, True
for key, scale, unit in metrics:
    pooled, per = [], []
    for i in range(1, invocations + 1):
        with open("%s/r%d.json" % (d, i)) as f:
            res = {r["name"]: r for r in json.load(f)["results"]}
        a = res["direct"]["runs"].get(key)
        b = res["shell"]["runs"].get(key)
        if not a or not b:
            break
        diff = [(y - x) * scale for x, y in zip(a, b)
                if x is not None and y is not None]
        per.append(interval(diff)[0])
        pooled += diff
        if key == "page_faults":
            whole = whole and all(float(v).is_integer() for v in b)
            within = within and abs(interval(diff)[0]) <= 1
    if not pooled:
        print("  %-12s not measured" % key)
        continue
    m, h = interval(pooled)
    print("  %-12s residue %+9.2f %-2s ± %7.2f (95 %%); per invocation %s"
          % (key, m, unit, h, " ".join("%+.2f" % v for v in per)))
print("  page faults through the shell are whole numbers: %s; mean residue "
      "within 1 in every invocation: %s" % ("yes" if whole else "NO",
                                            "yes" if within else "NO"))
