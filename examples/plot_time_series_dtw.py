"""
My data are time series: a DTW-kernel SVM
==========================================

Dynamic time warping compares series of different lengths whose features happen at
different times. The kernel ``exp(-gamma DTW^2)`` made of it is *not* PSD (DTW is not a
Euclidean distance, not even a metric), which is why time-series toolkits dropped their SVMs
with elastic distances. This example goes from raw series to a tuned model in one pipeline:

1. ``check_distances`` reads the DTW matrix: how far from Euclidean it is, and the *gamma
   profile* -- the negative mass of ``exp(-gamma D^2)`` for each gamma;
2. ``PairwiseDistances("dtw") -> DistanceKernel() -> IndefiniteSVC(kernel="precomputed")``
   is tuned by ``GridSearchCV`` over ``distancekernel__gamma`` and ``C`` on the raw series;
3. it is compared with the classic 1-nearest-neighbour DTW rule on a held-out set.

The series are the cylinder-bell-funnel task (Saito 1994) with lengths from 100 to 140.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import make_pipeline

import indefsvm as isvm
from indefsvm.plotting import plot_gamma_profile

X, y = isvm.datasets.make_cbf(240, length=(100, 140), noise=1.5, random_state=0)
X_train, y_train, X_test, y_test = X[:90], y[:90], X[90:], y[90:]

# %%
# The distances and what they are
# -------------------------------
D_train = isvm.pairwise_distances(X_train, metric="dtw", window=0.1, n_jobs=-1)
report = isvm.diagnostics.check_distances(D_train, y_train)
print(report)

# %%
# One pipeline from raw series to predictions, tuned on the training set
# ----------------------------------------------------------------------
pipe = make_pipeline(isvm.PairwiseDistances("dtw", window=0.1, n_jobs=-1),
                     isvm.DistanceKernel(),
                     isvm.IndefiniteSVC(kernel="precomputed"))
g0 = report.gamma_median
grid = GridSearchCV(pipe, {"distancekernel__gamma": [g0 / 4, g0, 4 * g0],
                           "indefinitesvc__C": [1.0, 10.0, 100.0]},
                    cv=StratifiedKFold(3, shuffle=True, random_state=0))
grid.fit(X_train, y_train)
svm_error = 1 - grid.score(X_test, y_test)
print(f"chosen: gamma = {grid.best_params_['distancekernel__gamma'] / g0:g} x median rule, "
      f"C = {grid.best_params_['indefinitesvc__C']:g}")

# %%
# Against 1-NN DTW
# ----------------
D_test = isvm.pairwise_distances(X_test, X_train, metric="dtw", window=0.1, n_jobs=-1)
nn_error = np.mean(y_train[np.argmin(D_test, axis=1)] != y_test)
print(f"test error: DTW-kernel SVM {100 * svm_error:.1f} %, 1-NN DTW {100 * nn_error:.1f} %")

fig, axes = plt.subplots(1, 2, figsize=(11, 4))
for c, name in enumerate(["cylinder", "bell", "funnel"]):
    i = int(np.flatnonzero(y_train == c)[0])
    axes[0].plot(X_train[i], label=f"{name} (length {len(X_train[i])})")
axes[0].set_title("one series of each class")
axes[0].legend(fontsize=8)
plot_gamma_profile(report, ax=axes[1])
fig.tight_layout()
plt.show()  # the gallery captures the figures; nothing is written to disk
