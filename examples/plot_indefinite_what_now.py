"""
My kernel is indefinite: what now?
==================================

:func:`indefsvm.check_kernel` says a kernel is not PSD. The field's answers are to train on it
as it is (our SMO with the Lin & Lin (2003) rule for concave sub-problems), to fix its
spectrum -- clip, flip, shift or square, with the consistent transform of the test rows
(Chen et al., JMLR 2009), or clip / flip of the centred kernel (CNE / RNE, Haasdonk 2005) --,
the Krein-space SVM (Loosli, Canu & Ong 2016), or a nearest-neighbour rule on the distances.
Which one wins depends on the data, so :func:`indefsvm.compare_remedies` runs them all on the
same stratified folds, with ``C`` chosen by an inner cross-validation, and states its
recommendation with the evidence. Here on three real indefinite kernels: a sigmoid kernel on
the heart data, an L1-Gaussian kernel on sonar, and the protein dissimilarities.
"""

# %%
import matplotlib.pyplot as plt
import numpy as np

import indefsvm as isvm
from indefsvm.plotting import plot_remedies

X, y = isvm.datasets.load_heart(return_X_y=True)
heart = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=0.5)
Xs, ys = isvm.datasets.load_sonar(return_X_y=True)
sonar = isvm.kernel_matrix(Xs, kernel="l1_gaussian", gamma=0.002)
D, labels = isvm.datasets.load_protein213(return_D_y=True)
protein = np.exp(-0.03 * D**2)
yp = np.where(labels == 2, 1, -1)  # haemoglobin beta against the rest

cases = {"heart, sigmoid (a = 0.01, r = 0.5)": (heart, y, None),
         "sonar, L1-Gaussian (gamma = 0.002)": (sonar, ys, None),
         "proteins HB vs rest, exp(-0.03 D^2)": (protein, yp, D)}
results = {}
for name, (K, labels_, dist) in cases.items():
    print(isvm.check_kernel(K, labels_, wmw_C=(1.0, 10.0)).notes[-2])
    cmp = isvm.compare_remedies(K, labels_, D=dist, cv=5, random_state=0,
                                param_grid={"C": [0.1, 1.0, 10.0]})
    results[name] = cmp
    print(f"\n== {name}\n{cmp}\n")

# %%
# The spectrum before and after each fix, and the errors: one figure per data set, titled
# with it. The fixes differ most where the negative eigenvalues are large (sonar).
for name, (K, _, _) in cases.items():
    fig = plot_remedies(results[name], K)
    fig.suptitle(name)

plt.show()  # the gallery captures the figures; nothing is written to disk
