"""tests/verdicts/analyse.py: the table and the PASS/FAIL lines of
`make verdicts`, from the trials tests/verdicts/run.sh ran.

Input: a manifest, one trial a line: configuration, pair, direction (0 for
A/A, 1 when B is the slower command, -1 when B is the faster one), cbench's
exit code and the trial's --export-json file.  From each file it reads the
wall_time entry of comparisons[] (verdict, ratio_ci, the reference and
candidate indices into results[]; cbench's reference is the fastest
benchmark, so both are turned into B against A here) and each result's
name and per-run times; any other field is ignored, so later additions (a
paired analysis, ...) do no harm.

Definitions (also in tests/verdicts/README.md):
- significant: verdict "slower" or "faster" (anything else, e.g. "no
  significant difference", "same", "unknown", is not); for the gate, exit
  code 3 (a regression).
- detected: significant in the right direction; wrong direction: significant
  in the other one.  For the gate only B slower can be detected (exit 3) and
  exit 3 with B faster is the wrong direction.
- true ratio: 1 for A/A; for A/B, the ratio of the pooled mean run times
  of the slower and the faster command over every trial of the pair in
  every configuration (the same load, over all its phases): what cbench's
  ratio (of means) estimates.  The pooled medians and minima are printed
  beside it: under contention a run longer than a scheduler slice waits
  more per unit of work, so these ratios differ.  A trial's ratio_ci (B/A)
  covers the truth when lo <= truth <= hi.
- lag-1 r: the lag-1 autocorrelation of a benchmark's run times in run
  order, sum((x[i]-m)(x[i+1]-m)) / sum((x[i]-m)^2) (Box and Jenkins, Time
  Series Analysis, the usual sample ACF estimator), averaged over the
  benchmarks of every trial of the row.

Only the standard library: it runs with any python3.
"""
import argparse
import json
import sys

CONFIGS = ("default", "sequential", "gate")
PAIRS = ("A/A", "2x", "small")
MAX_FP = 0.10      # "at most 1 in 10 trials" for alpha 5 %
MIN_TRIALS = 20    # "over a run of 20 or more"


def lag1(xs):
    """Sample lag-1 autocorrelation, or None for fewer than 3 values."""
    n = len(xs)
    if n < 3:
        return None
    m = sum(xs) / n
    den = sum((x - m) ** 2 for x in xs)
    if den == 0:
        return None
    return sum((xs[i] - m) * (xs[i + 1] - m) for i in range(n - 1)) / den


def wall_comparison(doc):
    for c in doc.get("comparisons") or []:
        if c.get("metric", "wall_time") == "wall_time":
            return c
    return None


def load_trial(line):
    config, pair, direction, rc, path = line.rstrip("\n").split("\t")
    t = {"config": config, "pair": pair, "dir": int(direction), "rc": int(rc),
         "error": None, "verdict": None, "ci": None, "lag1": [], "order": None,
         "pmu": None}
    ok_rc = (0, 3) if config == "gate" else (0,)
    if t["rc"] not in ok_rc:
        t["error"] = "exit %d" % t["rc"]
        return t
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        t["error"] = "no JSON: %s" % e
        return t
    context = doc.get("context") or {}
    t["order"] = (context.get("options") or {}).get("order")
    t["pmu"] = context.get("pmu")
    cmp_ = wall_comparison(doc)
    results = doc.get("results") or []
    if cmp_ is None or len(results) < 2:
        t["error"] = "no wall_time comparison in the JSON"
        return t
    names = [r.get("name") for r in results]
    ia = names.index("A") if "A" in names else 0
    ib = names.index("B") if "B" in names else 1
    ref, cand = cmp_.get("reference", 0), cmp_.get("candidate", 1)
    if (ref, cand) not in ((ia, ib), (ib, ia)):
        t["error"] = "the wall_time comparison is not between A and B"
        return t
    # cbench compares with the fastest benchmark as reference: verdict and
    # ratio_ci are candidate/reference, turned here into B/A.
    flip = ref == ib
    verdict = cmp_.get("verdict")
    if flip:
        verdict = {"slower": "faster", "faster": "slower"}.get(verdict, verdict)
    t["verdict"] = verdict
    ci = cmp_.get("ratio_ci")
    if isinstance(ci, list) and len(ci) == 2 and None not in ci:
        if flip:
            ci = [1 / ci[1], 1 / ci[0]] if ci[0] > 0 else None
        t["ci"] = ci
    t["times_a"] = results[ia].get("times") or []
    t["times_b"] = results[ib].get("times") or []
    for xs in (t["times_a"], t["times_b"]):
        r = lag1(xs)
        if r is not None:
            t["lag1"].append(r)
    return t


def significant_dir(t):
    """+1 (B slower), -1 (B faster) or 0, from the verdict or the gate."""
    if t["config"] == "gate":
        return 1 if t["rc"] == 3 else 0
    return {"slower": 1, "faster": -1}.get(t["verdict"], 0)


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2


def pooled_ratios(trials):
    """Per A/B pair, slower/faster over every configuration's runs: the
    ratio of pooled means (the truth), of medians and of minima."""
    pooled = {}
    for pair in PAIRS[1:]:
        slow, fast = [], []
        for t in trials:
            if t["pair"] != pair or t["error"]:
                continue
            a, b = t["times_a"], t["times_b"]
            slow += b if t["dir"] == 1 else a
            fast += a if t["dir"] == 1 else b
        if slow and fast and min(fast) > 0:
            pooled[pair] = {"median": median(slow) / median(fast),
                            "mean": (sum(slow) / len(slow)) / (sum(fast) / len(fast)),
                            "min": min(slow) / min(fast),
                            "runs": (len(slow), len(fast))}
    return pooled


def true_ratios(pooled):
    truth = {"A/A": 1.0}
    for pair, r in pooled.items():
        truth[pair] = r["mean"]
    return truth


def print_pooled(pooled):
    for pair, r in pooled.items():
        print("  %s pooled over %d+%d runs (slower/faster): means %.3f (the truth"
              " above), medians %.3f, minima %.3f" % (pair, r["runs"][0], r["runs"][1],
                                                     r["mean"], r["median"], r["min"]))
    print()


def pct(k, n):
    return "%d/%d (%.0f %%)" % (k, n, 100.0 * k / n) if n else "-"


def row_stats(trials, truth):
    ok = [t for t in trials if not t["error"]]
    s = {"n": len(ok), "errors": len(trials) - len(ok)}
    sig = [(t, significant_dir(t)) for t in ok]
    if trials and trials[0]["pair"] == "A/A":
        s["sig"] = sum(1 for _, d in sig if d != 0)
        s["sig_n"] = len(ok)
        s["wrong"] = None
    elif trials and trials[0]["config"] == "gate":
        s["sig"] = sum(1 for t, d in sig if d == 1 and t["dir"] == 1)
        s["sig_n"] = sum(1 for t in ok if t["dir"] == 1)
        s["wrong"] = sum(1 for t, d in sig if d == 1 and t["dir"] == -1)
        s["wrong_n"] = sum(1 for t in ok if t["dir"] == -1)
    else:
        s["sig"] = sum(1 for t, d in sig if d == t["dir"])
        s["sig_n"] = len(ok)
        s["wrong"] = sum(1 for t, d in sig if d == -t["dir"])
        s["wrong_n"] = len(ok)
    tr = truth.get(trials[0]["pair"]) if trials else None
    cov = [t for t in ok if t["ci"] is not None]
    s["cov_n"] = len(cov)
    s["cov"] = None
    if tr is not None:
        s["cov"] = sum(1 for t in cov
                       if t["ci"][0] <= (tr if t["dir"] >= 0 else 1 / tr) <= t["ci"][1])
    r = [x for t in ok for x in t["lag1"]]
    s["lag1"] = sum(r) / len(r) if r else None
    s["truth"] = tr
    return s


def print_header(a, quiet_ratio):
    print("  load throughout the trials: %s (by default one busy thread per CPU,"
          " 150 ms on, 150 ms off)" % a.load.strip())
    print("  %d trials per row, %d runs per command; A/B rows alternate the"
          " direction (B slower, then B faster)" % (a.trials, a.runs))
    print("  pairs: A/A spin %d vs spin %d; 2x spin %d vs spin %d; small spin %d vs"
          " spin %d" % (a.base, a.base, a.base, 2 * a.base, a.small[0], a.small[1]))
    if quiet_ratio:
        print("  before the load (--order interleaved, %d runs), B/A of means (medians):"
              " 2x %.3f (%.3f), small %.3f (%.3f)" % ((a.runs,) + quiet_ratio))
    print()


def quiet_ratios(path):
    try:
        with open(path) as f:
            r = json.load(f)["results"]
        m = [x["mean"] for x in r]
        md = [x["median"] for x in r]
        return (m[1] / m[0], md[1] / md[0], m[3] / m[2], md[3] / md[2])
    except (OSError, ValueError, KeyError, IndexError, ZeroDivisionError):
        return None


def config_label(config, trials):
    orders = sorted({t["order"] for t in trials if t["order"]})
    order = "/".join(orders) if orders else "?"
    if config == "default":
        return "default (order %s)" % order
    if config == "sequential":
        return "--order sequential"
    return "gate (order %s)" % order


def print_table(by_row, a, gate_note):
    fmt = "  %-28s %-6s %7s  %-32s %-14s %-16s %6s %7s"
    print(fmt % ("configuration", "pair", "trials", "significant", "wrong dir",
                 "CI covers truth", "truth", "lag-1 r"))
    for config in CONFIGS:
        if config == "gate" and gate_note != "yes":
            print("  %-26s %s" % ("gate --reference A "
                                   "--fail-if-slower %d B" % a.gate_pct,
                                   gate_note))
            continue
        for pair in PAIRS:
            trials = by_row.get((config, pair), [])
            s = by_row.get(("stats", config, pair))
            if not trials or s is None:
                continue
            label = config_label(config, trials)
            kind = "false pos" if pair == "A/A" else "detected"
            if config == "gate":
                kind = "exit 3" if pair == "A/A" else "exit 3, B slower"
            sig = "%s %s" % (kind, pct(s["sig"], s["sig_n"]))
            if s["wrong"] is None:
                wrong = "-"
            elif config == "gate":
                wrong = "%d/%d B faster" % (s["wrong"], s["wrong_n"])
            else:
                wrong = "%d" % s["wrong"]
            cov = pct(s["cov"], s["cov_n"]) if s["cov"] is not None else "-"
            truth = "%.3f" % s["truth"] if s["truth"] is not None else "-"
            lag = "%.2f" % s["lag1"] if s["lag1"] is not None else "-"
            trials_s = "%d" % s["n"] + ("+%derr" % s["errors"] if s["errors"] else "")
            print(fmt % (label, pair, trials_s, sig, wrong, cov, truth, lag))
    print()
    print("  significant: verdict slower/faster in comparisons[] (wall_time) of the"
          " JSON export; for the gate, exit code 3")
    print("  truth: 1 for A/A; for A/B the ratio of pooled mean run times over"
          " every trial of the pair in every configuration")
    print("  lag-1 r: mean lag-1 autocorrelation of each benchmark's run times, in"
          " run order")
    print()


def criteria(by_row, gate_note):
    lines = []

    def aa(config, what):
        s = by_row.get(("stats", config, "A/A"))
        if s is None:
            return ("FAIL", "%s, A/A: %s" % (what, "not run"))
        ok = (s["n"] >= MIN_TRIALS and s["errors"] == 0
              and s["sig"] <= MAX_FP * s["n"])
        called = "exit 3" if config == "gate" else "significant"
        note = "%s, A/A: %s in %s of the trials (at most 10 %% of %d or more)" % (
            what, called, pct(s["sig"], s["n"]), MIN_TRIALS)
        if s["errors"]:
            note += "; %d trials failed" % s["errors"]
        return ("PASS" if ok else "FAIL", note)

    def ab(config, what):
        s = by_row.get(("stats", config, "2x"))
        if s is None:
            return ("FAIL", "%s, 2x: not run" % what)
        ok = (s["errors"] == 0 and s["sig_n"] > 0 and s["sig"] == s["sig_n"]
              and s["wrong"] == 0)
        note = "%s, 2x: found in %s, wrong direction %d" % (
            what, pct(s["sig"], s["sig_n"]), s["wrong"])
        if s["errors"]:
            note += "; %d trials failed" % s["errors"]
        return ("PASS" if ok else "FAIL", note)

    lines.append(aa("default", "default options"))
    lines.append(ab("default", "default options"))
    if gate_note == "yes":
        lines.append(aa("gate", "one-job gate"))
        lines.append(ab("gate", "one-job gate"))
    else:
        lines.append(("FAIL", "one-job gate, A/A: %s" % gate_note))
        lines.append(("FAIL", "one-job gate, 2x: not supported (see above)"))
    print("Done when:")
    for v, note in lines:
        print("  %s  %s" % (v, note))
    return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--manifest", required=True)
    p.add_argument("--quiet", required=True)
    p.add_argument("--gate", required=True)
    p.add_argument("--trials", type=int, required=True)
    p.add_argument("--runs", type=int, required=True)
    p.add_argument("--base", type=int, required=True)
    p.add_argument("--small", type=int, nargs=2, required=True)
    p.add_argument("--gate-pct", type=int, required=True)
    p.add_argument("--load", required=True)
    a = p.parse_args()
    with open(a.manifest) as f:
        trials = [load_trial(line) for line in f if line.strip()]
    pooled = pooled_ratios(trials)
    truth = true_ratios(pooled)
    by_row = {}
    for t in trials:
        by_row.setdefault((t["config"], t["pair"]), []).append(t)
    for (config, pair), ts in list(by_row.items()):
        by_row[("stats", config, pair)] = row_stats(ts, truth)
    print_header(a, quiet_ratios(a.quiet))
    if any(t["pmu"] for t in trials):
        print("  note: this machine has a PMU, so the gate may decide on instructions,"
              " not wall time; VERDICT_CBENCH_OPTS='--gate-metric wall_time' gates on"
              " time\n")
    print_table(by_row, a, a.gate)
    print_pooled(pooled)
    return criteria(by_row, a.gate)


if __name__ == "__main__":
    sys.exit(main())
