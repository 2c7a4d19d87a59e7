#!/usr/bin/env python3
# Independent expected values for tests/unit/test_changepoint.c; not run by
# make test.  Needs /usr/bin/python3 with NumPy and SciPy (Debian's
# python3-numpy 1.24.2, python3-scipy 1.10.1).
#
# Written from the papers, not from changepoint.c: the divergence is Matteson
# and James (JASA 2014) eq. (3)-(5) with exponent 1, computed from the
# pairwise distances |x_i - x_j| themselves (changepoint.c updates running
# sums over ranks), every split tried by brute force; the test is
# scipy.stats.ttest_ind(equal_var=False) with the Bonferroni factor of the
# splits the segment admits; Fieller's interval is its defining inequality
# solved by root finding (scipy.optimize.brentq).
#
#   changepoint_expected.py          the expected values pasted in the test
#   changepoint_expected.py fpr      the false-positive simulation quoted in
#                                    changepoint.c's opening comment
import sys
import numpy as np
from scipy import stats, optimize


def W(i):   # deterministic "noise" in [-1, 1], as typed in the C test
    return ((i * 37) % 61 - 30) / 30.0


def W2(i):
    return ((i * 53) % 97 - 48) / 48.0


SERIES = {
    "one_step": [10 + 0.2 * W(i) + (1.0 if i >= 25 else 0.0) for i in range(40)],
    "two_steps": [5 + 0.3 * W(i) + (1.0 if i >= 20 else 0.0) - (0.6 if i >= 42 else 0.0)
                  for i in range(60)],
    "small_step": [1 + 0.5 * W2(i) + (0.25 if i >= 50 else 0.0) for i in range(80)],
    "trend": [1 + 0.02 * i + 0.2 * W(i) for i in range(50)],
    "six": [1.0, 1.1, 0.9, 5.0, 5.1, 4.9],
    # issue 39: an outlier (60) at 10 before a step of -12 % at 15
    "outlier": [(60.0 if i == 10 else (100 + 0.6 * W(i)) * (0.88 if i >= 15 else 1.0))
                for i in range(40)],
    # irregular noise, a step of 8 at 20 and an outlier at 7
    "jagged": [100 + 2 * np.sin(1.3 * i * i) + (8.0 if i >= 20 else 0.0)
               + (30.0 if i == 7 else 0.0) for i in range(40)],
}


def q_pairwise(X, Y):
    """Matteson & James's Q-hat(X, Y; alpha = 1) from its definition."""
    X = np.asarray(X, float); Y = np.asarray(Y, float); m = len(X); k = len(Y)
    dxy = np.abs(X[:, None] - Y[None, :]).sum()
    dxx = np.abs(X[:, None] - X[None, :]).sum() / 2      # pairs i < l
    dyy = np.abs(Y[:, None] - Y[None, :]).sum() / 2
    e = 2 * dxy / (m * k) - dxx / (m * (m - 1) / 2) - dyy / (k * (k - 1) / 2)
    return m * k / (m + k) * e


def candidate(x, lo, hi, ms):
    best = None
    for tau in range(lo + ms, hi - ms + 1):
        q = q_pairwise(x[lo:tau], x[tau:hi])
        if best is None or q > best[1]:      # the first of equal maxima
            best = (tau, q)
    tau, q = best
    pw = stats.ttest_ind(x[lo:tau], x[tau:hi], equal_var=False).pvalue
    K = (hi - lo) - 2 * ms + 1
    return tau, q, min(1.0, K * pw), pw


def fieller(a, b, alpha):
    a = np.asarray(a, float); b = np.asarray(b, float)
    ma, mb = a.mean(), b.mean(); va, vb = a.var(ddof=1), b.var(ddof=1)
    na, nb = len(a), len(b); r = mb / ma
    A, B = r * r * va / na, vb / nb
    df = (A + B) ** 2 / (A * A / (na - 1) + B * B / (nb - 1))
    t = stats.t.ppf(1 - alpha / 2, df)
    f = lambda th: (mb - th * ma) ** 2 - t * t * (vb / nb + th * th * va / na)
    w = abs(r) + 1.0
    lo = optimize.brentq(f, r - 100 * w, r, xtol=1e-15, rtol=1e-15)
    hi = optimize.brentq(f, r, r + 100 * w, xtol=1e-15, rtol=1e-15)
    return r, lo, hi


def detect(x, alpha=0.05, ms=3, max_changes=0):
    """E-divisive: the candidate of largest Q among the segments is kept
    when significant; a segment whose candidate is not is final."""
    x = np.asarray(x, float); n = len(x)
    segs = [(0, n)]; final = set(); cache = {}; found = []
    while max_changes == 0 or len(found) < max_changes:
        best = None
        for s in segs:
            if s in final or s[1] - s[0] < 2 * ms:
                continue
            if s not in cache:
                cache[s] = candidate(x, s[0], s[1], ms)
            if not cache[s][2] < alpha:
                final.add(s); continue
            if best is None or cache[s][1] > cache[best][1]:
                best = s
        if best is None:
            break
        tau, q, p, pw = cache[best]
        found.append((tau, q, p, pw))
        segs.remove(best); segs += [(best[0], tau), (tau, best[1])]
    found.sort()
    out = []
    for i, (tau, q, p, pw) in enumerate(found):
        lo = found[i - 1][0] if i else 0
        hi = found[i + 1][0] if i + 1 < len(found) else n
        r, rlo, rhi = fieller(x[lo:tau], x[tau:hi], alpha)
        out.append(dict(index=tau, p=p, p_welch=pw, q=q, mean_before=x[lo:tau].mean(),
                        mean_after=x[tau:hi].mean(), ratio=r, lo=rlo, hi=rhi))
    return out


def perm_p(x, ms, perms, seed):
    """Permutation p of max Q over the splits, Q from the pairwise
    distances (their 2-D cumulative sums), perms shuffles."""
    x = np.asarray(x, float); m = len(x); rng = np.random.default_rng(seed)

    def maxq(batch):            # batch: (P, m)
        D = np.abs(batch[:, :, None] - batch[:, None, :])
        C = D.cumsum(1).cumsum(2)
        T = C[:, -1, -1]
        best = np.full(len(batch), -np.inf)
        for t in range(ms, m - ms + 1):
            a, b = t, m - t
            wx = C[:, t - 1, t - 1]            # sum over D[:t, :t]
            row = C[:, t - 1, -1]              # sum over D[:t, :]
            cross = row - wx
            wy = T - 2 * row + wx
            e = 2 * cross / (a * b) - (wx / 2) / (a * (a - 1) / 2) - (wy / 2) / (b * (b - 1) / 2)
            best = np.maximum(best, a * b / m * e)
        return best
    q0 = maxq(x[None, :])[0]
    ge = 0
    for start in range(0, perms, 1000):
        k = min(1000, perms - start)
        batch = np.array([rng.permutation(x) for _ in range(k)])
        ge += int((maxq(batch) >= q0 * (1 - 1e-12)).sum())
    return q0, (1 + ge) / (1 + perms)


def resolution(x, alpha=0.05, ms=3):
    """The smallest step the corrected t-test could call significant at
    the middle split, the noise from successive differences (the larger of
    a normal-scaled MAD and their root mean square about their median,
    over sqrt 2), relative to the median."""
    x = np.asarray(x, float); n = len(x)
    d = np.diff(x)
    plain = np.sqrt(((d - np.median(d)) ** 2).sum() / (n - 2))
    sigma = max(stats.median_abs_deviation(d, scale="normal"), plain) / np.sqrt(2)
    a = n // 2; b = n - a; K = n - 2 * ms + 1
    t = stats.t.ppf(1 - alpha / (2 * K), n - 2)
    return t * sigma * np.sqrt(1 / a + 1 / b) / abs(np.median(x))


def main():
    for name in ("one_step", "two_steps", "small_step", "trend", "six", "outlier"):
        print(f"{name}: detect(SERIES['{name}'], alpha=0.05, ms=3)")
        for c in detect(SERIES[name]):
            print("  " + ", ".join(f"{k}={v!r}" for k, v in c.items()))
    for name in ("jagged",):
        print(f"{name}: resolution(SERIES['{name}']) = {resolution(SERIES[name])!r}")
    print("two_steps: detect(SERIES['two_steps'], alpha=0.05, ms=3, max_changes=1)")
    for c in detect(SERIES["two_steps"], max_changes=1):
        print("  " + ", ".join(f"{k}={v!r}" for k, v in c.items()))
    print("small_step: detect(SERIES['small_step'], alpha=0.05, ms=10)")
    for c in detect(SERIES["small_step"], ms=10):
        print("  " + ", ".join(f"{k}={v!r}" for k, v in c.items()))
    # A weak step, where the permutation p is well inside (0, 1):
    weak = [1 + 0.5 * W2(i) + (0.2 if i >= 24 else 0.0) for i in range(40)]
    print("weak: perm_p(weak, ms=3, perms=20000, seed=1)  (weak = 1 + 0.5 W2(i) + 0.2 [i >= 24], 40 points)")
    print("  q=%r p=%r" % perm_p(weak, 3, 20000, 1))


def fpr():
    rng = np.random.default_rng(1)
    for n in (12, 30, 100):
        raw = bon = 0; N = 1000
        for _ in range(N):
            x = rng.normal(size=n)
            tau, q, p, pw = candidate(x, 0, n, 3)
            raw += pw < 0.05; bon += p < 0.05
        print(f"n={n}: raw Welch p < 0.05 at the chosen split {raw / N:.3f}, corrected {bon / N:.3f}")


if __name__ == "__main__":
    fpr() if sys.argv[1:] == ["fpr"] else main()
