"""tests/verdicts/five.py: the any-false-positive rate of five identical
commands (tests/verdicts/five.sh), from each trial's --export-json.

A trial is a false positive when any wall_time entry of comparisons[] has
the verdict "slower" or "faster" (Holm's adjustment over the four, as
cbench decides); "without the adjustment" when any has its own p (the
field "p", the p-value the verdict rests on before Holm's adjustment)
below 0.05.  The interval is Clopper and Pearson's exact 95 % interval of
a binomial proportion (Clopper, C. J. and Pearson, E. S. (1934), Biometrika
26(4), 404-413), found by bisection on the binomial tail sums.

Usage: five.py DIR TRIALS (DIR holds t1.json .. tTRIALS.json).
Only the standard library: it runs with any python3.
"""
import json
import math
import os
import sys

ALPHA = 0.05


def binom_tail_ge(k, n, p):
    """P(X >= k) for X ~ Binomial(n, p)."""
    return sum(math.comb(n, i) * p ** i * (1 - p) ** (n - i) for i in range(k, n + 1))


def clopper_pearson(k, n, level=0.95):
    a = (1 - level) / 2

    def solve(f, target):   # f increasing in p on [0, 1]: f(p) = target
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            if f(mid) < target:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    # low: P(X >= k) = a; high: P(X <= k) = a, i.e. P(X >= k + 1) = 1 - a
    low = 0.0 if k == 0 else solve(lambda p: binom_tail_ge(k, n, p), a)
    high = 1.0 if k == n else solve(lambda p: binom_tail_ge(k + 1, n, p), 1 - a)
    return low, high


def main():
    d, trials = sys.argv[1], int(sys.argv[2])
    holm = plain = done = 0
    families = set()
    for i in range(1, trials + 1):
        path = os.path.join(d, "t%d.json" % i)
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError):
            continue
        wall = [c for c in doc.get("comparisons") or []
                if c.get("metric") == "wall_time"]
        if not wall:
            continue
        done += 1
        families.add(max(c.get("family_size") or 0 for c in wall))
        holm += any(c.get("verdict") in ("slower", "faster") for c in wall)
        plain += any(c.get("p") is not None and c["p"] < ALPHA for c in wall)
    if done == 0:
        print("  no trial left a JSON file")
        print("Done when:\n  FAIL  five identical: no trial")
        return 0
    lo, hi = clopper_pearson(holm, done)
    plo, phi = clopper_pearson(plain, done)
    print("  family size (wall time): %s" % ", ".join(str(f) for f in sorted(families)))
    print("  any comparison significant, Holm-adjusted (cbench's verdict): %d/%d"
          " (%.1f %%; 95 %% CI %.1f-%.1f %%)" % (holm, done, 100.0 * holm / done,
                                               100 * lo, 100 * hi))
    print("  any comparison with its own p < %.2f (no adjustment):          %d/%d"
          " (%.1f %%; 95 %% CI %.1f-%.1f %%)" % (ALPHA, plain, done, 100.0 * plain / done,
                                               100 * plo, 100 * phi))
    ok = done >= 40 and holm <= ALPHA * done
    print("Done when:\n  %s  five identical: any false positive in %d/%d trials"
          " (at most 5 %% of 40 or more)" % ("PASS" if ok else "FAIL", holm, done))
    return 0


if __name__ == "__main__":
    sys.exit(main())
