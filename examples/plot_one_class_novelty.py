"""
Novelty detection with a one-class model on an indefinite kernel
================================================================

``IndefiniteOneClassSVM`` is LIBSVM's nu one-class SVM, trained by the same SMO (rule (27)
of Lin & Lin 2003 where a sub-problem is concave), so it accepts kernels that are not PSD:
here the L1-Gaussian kernel ``exp(-gamma ||x - x'||_1^2)``, indefinite on these points
(Haasdonk 2005, section 7.5). Trained on normal points, it flags a shifted cluster as novel.
"""

import matplotlib.pyplot as plt
import numpy as np

import indefsvm as isvm

rng = np.random.default_rng(1)
train = rng.normal(size=(300, 2))
normal_test = rng.normal(size=(100, 2))
novel = rng.normal(loc=(3.5, 3.5), scale=0.5, size=(50, 2))
kw = dict(kernel="l1_gaussian", gamma=0.3)
K = isvm.kernel_matrix(train, **kw)
print(f"kernel lambda_min = {np.linalg.eigvalsh(K)[0]:.3g} (negative: indefinite)")

det = isvm.IndefiniteOneClassSVM(nu=0.05, **kw).fit(train)
print(f"converged {det.converged_}, #SV {det.support_.shape[0]}, "
      f"training outliers {np.mean(det.predict(train) == -1):.3f} (nu = 0.05)")
print(f"flagged as novel: normal test {np.mean(det.predict(normal_test) == -1):.2f}, "
      f"shifted cluster {np.mean(det.predict(novel) == -1):.2f}")

xx, yy = np.meshgrid(np.linspace(-4, 5.5, 150), np.linspace(-4, 5.5, 150))
Z = det.decision_function(np.c_[xx.ravel(), yy.ravel()]).reshape(xx.shape)
fig, ax = plt.subplots(figsize=(5.5, 5))
ax.contourf(xx, yy, Z, levels=20, cmap="Blues_r", alpha=0.6)
ax.contour(xx, yy, Z, levels=[0], colors="k")
ax.scatter(*train.T, s=6, color="0.3", label="training")
ax.scatter(*novel.T, s=12, color="C3", label="novel")
ax.set_title("One-class model, l1_gaussian kernel")
ax.legend(loc="lower right")
fig.tight_layout()
plt.show()  # the gallery captures the figures; nothing is written to disk
