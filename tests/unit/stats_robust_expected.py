#!/usr/bin/env python3
# Independent expected values for tests/unit/test_stats_robust.c; not run by
# make test.  Needs /usr/bin/python3 with NumPy 1.24.2 and SciPy 1.10.1
# (Debian's python3-numpy, python3-scipy); statsmodels is not installed, so
# the acf is the textbook formula that statsmodels.tsa.stattools.acf
# (adjusted=False, the default) computes.
import sys
import numpy as np
from scipy import stats, optimize

M64 = (1 << 64) - 1

# Data, as typed in test_stats_robust.c.
X20 = [1.02, 1.05, 1.07, 1.04, 1.10, 1.12, 1.09, 1.15, 1.13, 1.11,
       1.18, 1.16, 1.20, 1.17, 1.22, 1.19, 1.25, 1.21, 1.24, 1.28]
ALT = [1.0, 1.3, 1.1, 1.4, 1.0, 1.2, 1.1, 1.5, 1.0, 1.3]
PA = [2.01, 2.10, 1.95, 2.20, 2.05, 2.31, 2.12, 1.99, 2.40, 2.08, 2.15, 2.22]
PB = [2.11, 2.18, 2.01, 2.35, 2.10, 2.52, 2.20, 2.02, 2.61, 2.15, 2.33, 2.30]
PC = [2.0703, 2.1882, 2.0553, 2.3452, 2.1853, 2.4347, 2.209, 2.0497, 2.5008,
      2.1923, 2.2919, 2.3932]   # PA times a slow drift: dependent rounds
SK = [0.61, 1.92, 0.88, 3.75, 1.10, 0.47, 2.31, 0.95, 1.42, 6.20,
      0.73, 1.18, 0.52, 2.64, 1.05, 0.81, 4.10, 1.33, 0.69, 1.57]
WX = [0.5, -1.2, 2.3, 3.1, -0.4, 1.7, 2.8, -0.9, 4.2, 1.1, 3.6, 0.2]
WT = [1.0, -1.0, 2.0, 2.0, 0.0, 3.0, -3.0, 3.0, 4.0, 0.0, 5.0, 1.0]
W60 = [((i * 37) % 61 - 20) / 7.0 for i in range(60)]

def acf1(x):
    # statsmodels.tsa.stattools.acf(x, nlags=1)[1]: overall mean, n-denominator
    x = np.asarray(x, float); d = x - x.mean()
    return float((d[:-1] * d[1:]).sum() / (d * d).sum())

def factor(x):
    # Kendall / Marriott-Pope bias correction, clamped to [0, 0.9]; fewer
    # than 20 values (STATS_ROBUST_DEP_MIN_N) are taken as independent
    n = len(x); r = min(max((n * acf1(x) + 1) / (n - 3), 0.0), 0.9) if n >= 20 else 0.0
    f = np.sqrt((1 + r) / (1 - r))
    return f, len(x) / f**2

def dfn(ne, n):
    # n_eff - 1, never below (n - 1) / 2 (and 1): cbench's df_n
    return max(max(ne, (n + 1) / 2) - 1, 1)

def halfwidth_dep(x, c=0.95):
    x = np.asarray(x, float); f, ne = factor(x)
    return stats.t.ppf(0.5 + c / 2, dfn(ne, len(x))) * f * x.std(ddof=1) / np.sqrt(len(x))

def paired_fieller(a, b, c=0.95):
    a = np.asarray(a, float); b = np.asarray(b, float); n = len(a)
    R = b.mean() / a.mean(); f, ne = factor(b - R * a)
    t = stats.t.ppf(0.5 + c / 2, dfn(ne, n))
    # Fieller's set by its definition, solved by root finding (brentq):
    g = lambda r: abs(b.mean() - r * a.mean()) - t * np.std(b - r * a, ddof=1) / np.sqrt(ne)
    lo = optimize.brentq(g, R * 0.5, R, xtol=1e-15); hi = optimize.brentq(g, R, R * 1.5, xtol=1e-15)
    return R, lo, hi, f

def paired_t(a, b, widen):
    l = np.log(np.asarray(b) / np.asarray(a))
    if not widen:
        r = stats.ttest_1samp(l, 0.0)   # == stats.ttest_rel(log b, log a)
        return r.pvalue, r.statistic, len(l) - 1.0, 1.0
    f, ne = factor(l); df = dfn(ne, len(l))
    t = l.mean() / (f * l.std(ddof=1) / np.sqrt(len(l)))
    return 2 * stats.t.sf(abs(t), df), t, df, f

def wilcoxon_widened(d, f):
    # scipy's approx formula (zero_method='wilcox', correction=False), se * f
    d = np.asarray(d, float); d = d[d != 0]; k = len(d)
    r = stats.rankdata(np.abs(d)); wp = r[d > 0].sum()
    _, cnt = np.unique(r, return_counts=True)
    se = np.sqrt((k * (k + 1) * (2 * k + 1) - 0.5 * (cnt**3 - cnt).sum()) / 24)
    return 2 * stats.norm.sf(abs(wp - k * (k + 1) / 4) / (se * f)), wp

# --- The generator: SplitMix64 seeding xoshiro256** (reference C by Vigna).
class Rng:
    def __init__(self, seed):
        self.s = []
        x = seed & M64
        for _ in range(4):
            x = (x + 0x9e3779b97f4a7c15) & M64
            z = x
            z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
            z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
            self.s.append(z ^ (z >> 31))
    def next(self):
        s = self.s
        rotl = lambda v, k: ((v << k) | (v >> (64 - k))) & M64
        res = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t
        s[3] = rotl(s[3], 45)
        return res
    def index(self, n):
        return min(int(((self.next() >> 11) * 2.0**-53) * n), n - 1)

def boot_t_interval(tt, c, est, se, f):
    tt = np.sort(np.asarray(tt))
    qlo, qhi = np.quantile(tt, [(1 - c) / 2, 1 - (1 - c) / 2])   # linear = Hyndman-Fan 7
    return est - f * se * qhi, est - f * se * qlo

def boot_mean(x, c, B, seed, f):
    x = np.asarray(x, float); n = len(x); rng = Rng(seed); tt = []
    m = x.mean(); se = x.std(ddof=1) / np.sqrt(n)
    for _ in range(B):
        xs = x[[rng.index(n) for _ in range(n)]]
        s = xs.std(ddof=1)
        if s > 0:
            tt.append((xs.mean() - m) / (s / np.sqrt(n)))
    return boot_t_interval(tt, c, m, se, f)

def log_ratio(a, b, paired):
    ma, mb = a.mean(), b.mean()
    if paired:
        w = np.var(b / mb - a / ma, ddof=1) / len(a)
    else:
        w = a.var(ddof=1) / (len(a) * ma * ma) + b.var(ddof=1) / (len(b) * mb * mb)
    return np.log(mb / ma), np.sqrt(w)

def boot_ratio(a, b, paired, c, B, seed, f):
    a = np.asarray(a, float); b = np.asarray(b, float); rng = Rng(seed); tt = []
    th, se = log_ratio(a, b, paired)
    for _ in range(B):
        if paired:
            j = [rng.index(len(a)) for _ in range(len(a))]; ra, rb = a[j], b[j]
        else:
            ra = a[[rng.index(len(a)) for _ in range(len(a))]]
            rb = b[[rng.index(len(b)) for _ in range(len(b))]]
        if ra.mean() > 0 and rb.mean() > 0:
            ths, ses = log_ratio(ra, rb, paired)
            if ses > 0:
                tt.append((ths - th) / ses)
    lo, hi = boot_t_interval(tt, c, th, se, f)
    return np.exp(lo), np.exp(hi)

def p(name, v):
    print(f"{name} = {v!r}")

def simulate_dependence(T=4000, seed=1):
    # Coverage of the mean's t-interval widened for serial dependence (the
    # table behind stats_robust.c's choice).  Run: script dependence
    rng = np.random.default_rng(seed)
    def gen(kind, n):
        e = rng.standard_normal((T, n))
        if kind == 'iid':
            return e
        if kind.startswith('ar'):
            phi = float(kind[2:]); x = np.empty_like(e); x[:, 0] = e[:, 0] / np.sqrt(1 - phi**2)
            for t in range(1, n):
                x[:, t] = phi * x[:, t - 1] + e[:, t]
            return x
        k = int(kind[2:]); t = np.arange(n)[None, :]
        if kind.startswith('sq'):   # level +-1 switching every k runs, random phase
            ph = rng.integers(0, 2 * k, T)[:, None]
            return e + np.where(((t + ph) // k) % 2 == 0, 1.0, -1.0)
        ph = rng.integers(0, k, T)[:, None]   # 'rl': a random N(0, .5^2) level every k runs
        lev = 0.5 * rng.standard_normal((T, n // k + 2))
        return e + np.take_along_axis(lev, (t + ph) // k, 1)
    def r1s(x):
        d = x - x.mean(1, keepdims=True); return (d[:, :-1] * d[:, 1:]).sum(1) / (d * d).sum(1)
    def cover(x, r):
        n = x.shape[1]; f2 = (1 + r) / (1 - r); df = np.maximum(n / f2 - 1, 1)
        h = stats.t.ppf(.975, df) * x.std(1, ddof=1) * np.sqrt(f2 / n)
        return 100 * np.mean(np.abs(x.mean(1)) <= h), np.mean(h)
    print("n kind | t | AR(1) plain r1 | AR(1) bias-corrected (chosen) | batch means"
          "   (coverage %, mean width / t's)")
    for n in [10, 20, 50, 200]:
        for kind in ['iid', 'ar0.3', 'ar0.5', 'sq5', 'rl5', 'rl10']:
            x = gen(kind, n); r1 = r1s(x); c0, w0 = cover(x, np.zeros(T))
            c1, w1 = cover(x, np.clip(r1, 0, .9))
            c2, w2 = cover(x, np.clip((n * r1 + 1) / (n - 3), 0, .9))
            nb = int(np.sqrt(n)); bs = n // nb; xm = x[:, :nb * bs].reshape(T, nb, bs).mean(2)
            f2 = np.maximum(1, bs * xm.var(1, ddof=1) / x.var(1, ddof=1))
            h = stats.t.ppf(.975, nb - 1) * x.std(1, ddof=1) * np.sqrt(f2 / n)
            c3 = 100 * np.mean(np.abs(x.mean(1)) <= h); w3 = h.mean()
            print(f"{n:4d} {kind:6s} | {c0:5.1f} | {c1:5.1f} ({w1/w0:.2f}) | "
                  f"{c2:5.1f} ({w2/w0:.2f}) | {c3:5.1f} ({w3/w0:.2f})")

if __name__ == "__main__" and sys.argv[1:] == ["dependence"]:
    simulate_dependence()
elif __name__ == "__main__":
    p("acf1(X20)", acf1(X20)); p("acf1(ALT)", acf1(ALT)); p("acf1(PA)", acf1(PA))
    p("factor(X20), n_eff", factor(X20)); p("factor(ALT)", factor(ALT))
    p("halfwidth_dep(X20)", halfwidth_dep(X20))
    p("halfwidth(ALT) t plain", stats.t.ppf(0.975, 9) * np.std(ALT, ddof=1) / np.sqrt(10))
    p("paired_fieller(PA,PB)", paired_fieller(PA, PB))
    p("paired_t(PA,PB,False)", paired_t(PA, PB, False))
    p("paired_t(PA,PB,True)", paired_t(PA, PB, True))
    p("ttest_1samp([1, 1.5, .5, 1.5], 0).statistic", stats.ttest_1samp([1, 1.5, .5, 1.5], 0).statistic)
    p("wilcoxon(WX) exact", (stats.wilcoxon(WX, method='exact').pvalue))
    p("wilcoxon(WT) approx", stats.wilcoxon(WT, method='approx', correction=False).pvalue)
    p("wilcoxon(W60) approx", stats.wilcoxon(W60, method='approx', correction=False).pvalue)
    p("wilcoxon(W60) auto", stats.wilcoxon(W60).pvalue)
    p("wilcoxon_widened(W60, 1.5)", wilcoxon_widened(W60, 1.5))
    for s in (0, 1, 12345):
        r = Rng(s); p(f"rng({s}) first 3", [hex(r.next()) for _ in range(3)])
    p("boot_mean(SK,.95,2000,42,1)", boot_mean(SK, 0.95, 2000, 42, 1.0))
    p("boot_mean(SK,.90,500,7,1.3)", boot_mean(SK, 0.90, 500, 7, 1.3))
    p("Rng(0).s[0] (SplitMix64(0) first output, Vigna: 0xe220a8397b1dcdaf)", hex(Rng(0).s[0]))
    p("boot_ratio(PA,SK,indep,.95,2000,42,1)", boot_ratio(PA, SK, False, 0.95, 2000, 42, 1.0))
    p("boot_ratio(PA,PB,paired,.95,2000,9,1)", boot_ratio(PA, PB, True, 0.95, 2000, 9, 1.0))
    p("paired_fieller(PA,PC)", paired_fieller(PA, PC))
    p("paired_t(PA,PC,False)", paired_t(PA, PC, False))
    p("paired_t(PA,PC,True)", paired_t(PA, PC, True))
    # The paired entry point, step by step (PA, PC, seed 5):
    # (the dependence of the rounds' log ratios, in which a drift cancels)
    a = np.array(PA); b = np.array(PC); R = b.mean() / a.mean()
    fz, nez = factor(np.log(b / a)); rz = acf1(np.log(b / a))
    p("cmp paired: R, acf_z, f_z, n_eff_z", (R, rz, fz, nez))
    # the geometric mean of the rounds' ratios, and the t-interval of the
    # log ratios with se times f and df = max(n_eff - 1, 1)
    d = np.log(b / a); m = d.mean()
    h = stats.t.ppf(0.975, dfn(nez, len(d))) * fz * d.std(ddof=1) / np.sqrt(len(d))
    p("cmp paired: geometric-mean ratio, CI", (np.exp(m), np.exp(m - h), np.exp(m + h)))
    pt = paired_t(PA, PC, True); p("cmp paired: p_t, t, df, f_l", pt)
    # (the log ratios have ties: the normal approximation, as cbench)
    p("cmp paired: wilcoxon", wilcoxon_widened(np.log(b / a), pt[3]) if pt[3] > 1 else stats.wilcoxon(np.log(b / a), method='approx', correction=False).pvalue)
    # Unpaired entry point with SK (20) vs X20 (20):
    fa, nea = factor(SK); fb, neb = factor(X20)
    sa = np.array(SK); sb = np.array(X20)
    wa = sa.var(ddof=1) / (20 * sa.mean()**2); wb = sb.var(ddof=1) / (20 * sb.mean()**2)
    F = np.sqrt((fa * fa * wa + fb * fb * wb) / (wa + wb))
    ea = fa * fa * sa.var(ddof=1) / 20; eb = fb * fb * sb.var(ddof=1) / 20
    df = (ea + eb)**2 / (ea * ea / dfn(nea, 20) + eb * eb / dfn(neb, 20))
    pa_, pb_ = sa.var(ddof=1) / 20, sb.var(ddof=1) / 20
    df_plain = (pa_ + pb_)**2 / (pa_**2 / 19 + pb_**2 / 19)   # Welch-Satterthwaite
    F = F * max(1.0, stats.t.ppf(0.975, df) / stats.t.ppf(0.975, df_plain))
    p("cmp unpaired: fa, fb, bootstrap factor", (fa, fb, F))
    p("cmp unpaired: ratio CI", boot_ratio(SK, X20, False, 0.95, 2000, 5, F))
    t = (sb.mean() - sa.mean()) / np.sqrt(ea + eb)
    p("cmp unpaired: welch widened p, t, df", (2 * stats.t.sf(abs(t), df), t, df))
    f, ne = factor(X20)
    p("mean_ci_robust(X20, seed 3): bootstrap factor", f * stats.t.ppf(0.975, dfn(ne, 20)) / stats.t.ppf(0.975, 19))
    p("welch plain (scipy ttest_ind equal_var=False) SK vs ALT", stats.ttest_ind(ALT, SK, equal_var=False).pvalue)
