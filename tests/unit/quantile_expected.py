#!/usr/bin/env python3
# Independent expected values for tests/unit/test_quantile.c; not run by
# make test.  Needs /usr/bin/python3 with NumPy and SciPy.
#
# Harrell-Davis quantiles from SciPy's own implementation
# (scipy.stats.mstats.hdquantiles), and the coverage a percentile
# bootstrap of their ratio is expected to reach.
import numpy as np
from scipy.stats.mstats import hdquantiles

# Ten runs' CPU times (ms) of one command, two slowed by interference.
X = [13.2, 15.1, 12.9, 13.0, 22.4, 13.4, 14.0, 13.1, 19.8, 13.3]
for p in (0.1, 0.25, 0.5):
    print("X p=%g: %.17g" % (p, hdquantiles(X, prob=[p])[0]))
print("[1, 2] p=0.25: %.17g" % hdquantiles([1.0, 2.0], prob=[0.25])[0])
