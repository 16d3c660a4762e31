"""``K @ V`` and the exact eta scan on a CUDA device, for the matrix-free check (private).

The operator of :mod:`._matfree` with the kernel computed on the device: row stripes of
``k(X, X)`` in float64 (``_device/_blocks.py``), each multiplied by the block of vectors on
the device; the first pass also runs the eta scan over the stripe's upper triangle. Only
``V`` and ``K V`` (``n x c``) cross to and from the host; the Lanczos runs stay on the CPU.
"""

from __future__ import annotations

import numpy as np

from .._device import Device, to_numpy
from .._device._blocks import kernel_block

#: device memory of one stripe of kernel values (rows x n float64)
STRIPE_BYTES = 1024 * 2**20


def _diagonal(xp, name, X, params):
    """``k(x_i, x_i)`` of every row (the kernel formulas on the diagonal)."""
    sq = (X * X).sum(axis=1)
    g = float(params.get("gamma", 0.0)) if params.get("sigma") is None else \
        1.0 / (2.0 * float(params["sigma"]) ** 2)
    if name == "linear":
        return sq
    if name == "polynomial":
        return (g * sq + float(params.get("coef0", 0.0))) ** int(params.get("degree", 3))
    if name == "sigmoid":
        return xp.tanh(g * sq + float(params.get("coef0", 0.0)))
    return xp.ones(X.shape[0])  # rbf, l1_gaussian, sqrt_l1_exponential: exp(0)


class DeviceKernelOperator:
    """``K @ V`` for a kernel of ``X`` computed on ``device`` (KernelOperator's interface:
    ``n``, ``diag``, ``atol``, ``passes``, ``matmat(V, want_eta)``)."""

    def __init__(self, device: Device, X, name: str, params: dict, *, labels=None,
                 n_classes: int = 1, **_):
        xp = self.xp = device.xp
        self.device = device
        self.X = xp.asarray(np.ascontiguousarray(X, dtype=np.float64))
        self.name, self.params = name, params
        self.n = int(X.shape[0])
        self.labels = (np.zeros(self.n, dtype=np.int32) if labels is None
                       else np.asarray(labels, dtype=np.int32))
        self.n_classes = max(int(n_classes), 1)
        self._ld = xp.asarray(self.labels)
        self._sq = (self.X * self.X).sum(axis=1)
        self._diag = _diagonal(xp, name, self.X, params)
        self.diag = to_numpy(self._diag)
        self.passes = 0
        self.atol = 0.0

    def _stripes(self):
        step = max(1, min(self.n, STRIPE_BYTES // (8 * max(self.n, 1))))
        for lo in range(0, self.n, step):
            hi = min(self.n, lo + step)
            yield lo, hi, kernel_block(self.xp, self.name, self.X[lo:hi], self.X, self.params,
                                       self._sq)

    def matmat(self, V, want_eta=False):
        """``(K @ V, eta figures or None)``: NumPy in and out."""
        xp = self.xp
        self.passes += 1
        Vd = xp.asarray(np.ascontiguousarray(V, dtype=np.float64))
        out = xp.empty_like(Vd)
        eta = _Eta(xp, self.n_classes) if want_eta else None
        for lo, hi, Kb in self._stripes():
            out[lo:hi] = Kb @ Vd
            if eta is not None:
                eta.add(Kb, lo, hi, self._diag, self._ld, self.atol)
            self.device.synchronize()  # a stripe at a time: Ctrl-C is seen between them
        return to_numpy(out), None if eta is None else eta.result()


class _Eta:
    """The eta scan (``K_ii + K_jj - 2 K_ij`` over the pairs i < j) stripe by stripe."""

    def __init__(self, xp, k):
        self.xp, self.k = xp, k
        self.neg = 0
        self.cross = np.zeros((k, k), dtype=np.int64)
        self.worst, self.pair = np.inf, None

    def add(self, Kb, lo, hi, diag, labels, atol):
        xp = self.xp
        n = Kb.shape[1]
        E = diag[lo:hi, None] + diag[None, :] - 2.0 * Kb
        upper = xp.arange(n)[None, :] > xp.arange(lo, hi)[:, None]
        self.neg += int(((E < -atol) & upper).sum())
        Em = xp.where(upper, E, xp.inf)
        flat = int(Em.argmin())
        r, j = divmod(flat, n)
        val = float(Em[r, j])
        if val < self.worst:
            self.worst, self.pair = val, (lo + r, j)
        li, lj = labels[lo:hi, None], labels[None, :]
        sel = upper & (E <= atol) & (li != lj)
        code = xp.minimum(li, lj) * self.k + xp.maximum(li, lj)
        counts = to_numpy(xp.bincount(code[sel].ravel(), minlength=self.k * self.k))
        self.cross += counts.reshape(self.k, self.k).astype(np.int64)

    def result(self):
        wi, wj = self.pair if self.pair is not None else (-1, -1)
        return {"n_negative": self.neg, "cross": self.cross, "worst": self.worst,
                "wi": wi, "wj": wj}
