#!/usr/bin/python3
# Independent expected values for tests/unit/test_multitest.c: Holm's
# adjusted p-values from statsmodels (Debian's python3-statsmodels 0.13.5,
# statsmodels.stats.multitest.multipletests(p, method="holm")), which make
# test also runs live through tests/e2e/stats.sh.  Prints the C arrays.
import numpy as np
from statsmodels.stats.multitest import multipletests

VECTORS = {
    # Wikipedia, "Holm-Bonferroni method", Example: four hypotheses at
    # alpha 0.05, H1 and H4 rejected.
    "wiki": [0.01, 0.04, 0.03, 0.005],
    # ties, in the middle and at the start
    "ties": [0.02, 0.5, 0.02, 0.02, 0.001],
    # the cap at 1
    "caps": [0.3, 0.6, 0.9, 0.01, 0.45],
    # the running maximum: 4 * 0.013 = 0.052 > 3 * 0.014 = 0.042
    "monotone": [0.001, 0.013, 0.014, 0.02, 0.5],
    "one": [0.037],
    # a p of 1 in the family (what a NaN counts as)
    "nan_as_one": [0.01, 1.0, 0.02],
}
rng = np.random.default_rng(43)
VECTORS["random12"] = [float(x) for x in rng.uniform(0, 0.2, 12) ** 2]

for name, p in VECTORS.items():
    rej, adj, _, _ = multipletests(p, alpha=0.05, method="holm")
    print(f"/* {name}: rejected at 0.05: {[int(r) for r in rej]} */")
    print(f"static const double {name}_p[] = {{" + ", ".join(repr(x) for x in p) + "};")
    print(f"static const double {name}_adj[] = {{" + ", ".join(repr(float(x)) for x in adj) + "};")
