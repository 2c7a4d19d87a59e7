#!/usr/bin/env python3
# Independent expected values for tests/unit/test_between.c; not run by
# make test.  Needs /usr/bin/python3 with NumPy and SciPy.
#
# Written from DerSimonian and Laird (1986), the unweighted moment
# estimator of the between-study variance: tau^2 = max(0, var(y_i) -
# mean(v_i)), y_i the log means, v_i their within variances from the
# intervals (half-width on the log scale over the normal quantile);
# then the interval across invocations sqrt(own^2 + (t_{k-1} tau)^2).
import numpy as np
from scipy import stats

MEANS = [4.1, 5.7, 4.6, 5.0, 4.4, 6.2, 4.9]
HALF = [0.2, 0.4, 0.3, 0.25, 0.2, 0.5, 0.3]   # each interval mean +- HALF


def tau(means, lo, hi, conf):
    y = np.log(means)
    z = stats.norm.ppf(0.5 + conf / 2)
    v = ((np.log(hi) - np.log(lo)) / (2 * z)) ** 2
    return np.sqrt(max(0.0, np.var(y, ddof=1) - v.mean()))


def main():
    m = np.array(MEANS); h = np.array(HALF)
    t = tau(m, m - h, m + h, 0.95)
    print(f"tau(MEANS, 0.95) = {t!r}")
    q = stats.t.ppf(0.975, len(m) - 1)
    print(f"halfwidth(0.04, tau, {len(m)}, 0.95) = {np.sqrt(0.04**2 + (q * t)**2)!r}")
    # all within noise: tau is 0
    m2 = np.array([5.0, 5.1, 4.9]); h2 = np.array([1.0, 1.0, 1.0])
    print(f"tau(flat) = {tau(m2, m2 - h2, m2 + h2, 0.95)!r}")


if __name__ == "__main__":
    main()
