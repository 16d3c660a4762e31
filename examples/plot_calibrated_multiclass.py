"""
Weighted, calibrated, multi-class classification with an indefinite kernel
==========================================================================

The wine data (3 classes, unbalanced) with an L1-Gaussian kernel, which is not positive
semi-definite (Haasdonk 2005, section 7.5). ``IndefiniteSVC`` takes ``class_weight`` and
``sample_weight`` as ``SVC`` does (per-sample bounds ``C_i``); probabilities come the way
scikit-learn recommends since ``SVC(probability=True)`` was deprecated:
``CalibratedClassifierCV(..., ensemble=False)``. The reliability diagram compares the
calibrated probabilities of each class with the observed frequencies on held-out samples.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.calibration import CalibratedClassifierCV, calibration_curve
from sklearn.datasets import load_wine
from sklearn.metrics import log_loss
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

import indefsvm as isvm

X, y = load_wine(return_X_y=True)
X = StandardScaler().fit_transform(X)
Xtr, Xte, ytr, yte = train_test_split(X, y, test_size=0.4, random_state=0, stratify=y)
K = isvm.kernel_matrix(Xtr, kernel="l1_gaussian", gamma=0.02)
lam = np.linalg.eigvalsh(K)
print(f"L1-Gaussian kernel: lambda_min = {lam[0]:.3g}, lambda_max = {lam[-1]:.3g} (indefinite)")

svc = isvm.IndefiniteSVC(kernel="l1_gaussian", gamma=0.02, C=5.0, class_weight="balanced")
clf = CalibratedClassifierCV(svc, ensemble=False, cv=5).fit(Xtr, ytr)
proba = clf.predict_proba(Xte)
print(f"held-out accuracy {np.mean(clf.predict(Xte) == yte):.3f}, "
      f"log-loss {log_loss(yte, proba):.3f}")

fig, ax = plt.subplots(figsize=(5.5, 4.5))
ax.plot([0, 1], [0, 1], color="0.6", lw=1, ls="--", label="perfectly calibrated")
for c in range(3):
    frac, mean = calibration_curve(yte == c, proba[:, c], n_bins=5, strategy="quantile")
    ax.plot(mean, frac, marker="o", label=f"class {c}")
ax.set_xlabel("predicted probability")
ax.set_ylabel("observed frequency")
ax.set_title("Reliability diagram: calibrated IndefiniteSVC (wine)")
ax.legend(loc="upper left")
fig.tight_layout()
plt.show()  # the gallery captures the figures; nothing is written to disk
