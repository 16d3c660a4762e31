"""
Regression with a distance-substitution kernel
==============================================

A distance substitution kernel ``k(x, x') = exp(-gamma d(x, x')^2)`` built from the L1
distance (the ``l1_gaussian`` kernel) is not PSD in general (Haasdonk & Bahlmann 2004).
``IndefiniteSVR`` solves LIBSVM's epsilon-SVR dual on it with the SMO of Lin & Lin (2003)
(rule (27) for the concave sub-problems), and stops at a stationary point: here its KKT
gap, objective and the fit are compared with an RBF-kernel ``sklearn.svm.SVR``.
"""

import matplotlib.pyplot as plt
import numpy as np
from sklearn.svm import SVR

import indefsvm as isvm

rng = np.random.default_rng(0)
X = rng.uniform(-3, 3, (200, 6))  # y depends on the first two features
y = np.sin(X[:, 0]) * np.cos(X[:, 1]) + 0.1 * rng.normal(size=200)
K = isvm.kernel_matrix(X, kernel="l1_gaussian", gamma=0.05)
print(f"l1_gaussian kernel: lambda_min / lambda_max = "
      f"{np.linalg.eigvalsh(K)[0] / np.linalg.eigvalsh(K)[-1]:.3g}")

reg = isvm.IndefiniteSVR(kernel="l1_gaussian", gamma=0.05, C=10.0, epsilon=0.05).fit(X, y)
ref = SVR(kernel="rbf", gamma=0.1, C=10.0, epsilon=0.05).fit(X, y)
print(f"IndefiniteSVR: converged {reg.converged_}, KKT gap {reg.kkt_gap_:.2g}, "
      f"#SV {reg.support_.shape[0]}, R^2 {reg.score(X, y):.3f}")
print(f"SVR (rbf):     #SV {ref.support_.shape[0]}, R^2 {ref.score(X, y):.3f}")

grid = np.c_[np.linspace(-3, 3, 300), np.zeros((300, 5))]
fig, ax = plt.subplots(figsize=(6, 4))
near = np.abs(X[:, 1]) < 0.3
ax.scatter(X[near, 0], y[near], s=12, color="0.5", label="data with |x2| < 0.3")
ax.plot(grid[:, 0], reg.predict(grid), label="IndefiniteSVR, l1_gaussian")
ax.plot(grid[:, 0], ref.predict(grid), ls="--", label="SVR, rbf")
ax.set_xlabel("x1 (other features 0)")
ax.set_title("epsilon-SVR: the indefinite L1-Gaussian kernel against rbf")
ax.set_ylabel("y")
ax.legend()
fig.tight_layout()
plt.show()  # the gallery captures the figures; nothing is written to disk
