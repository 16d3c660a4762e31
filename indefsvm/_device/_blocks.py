"""Kernel blocks ``k(X, L)`` in an array namespace (private): the GPU's and the tests'.

The same formulas as :mod:`indefsvm.kernels`, in float64, written with ``xp`` (``cupy`` or
``numpy``) so that one code runs on both. The kernels of products (linear, polynomial, rbf,
sigmoid) are one matrix product each; the L1 kernels are computed on row chunks of at most
``L1_CHUNK`` differences at a time.
"""

from __future__ import annotations

#: kernels with a device formula
DEVICE_KERNELS = ("linear", "polynomial", "rbf", "sigmoid", "l1_gaussian",
                  "sqrt_l1_exponential")

#: differences held at a time by the L1 kernels (rows x landmarks x features), 32 MB
L1_CHUNK = 4_000_000


def check_device_kernel(name) -> None:
    """Refuse a kernel that has no device formula, naming those that do."""
    if callable(name) or name not in DEVICE_KERNELS:
        shown = getattr(name, "__name__", name)
        raise ValueError(f"kernel={shown!r} has no GPU form; device='cuda' computes "
                         f"{list(DEVICE_KERNELS)} (or use device='cpu').")


def _gamma(params) -> float:
    if params.get("sigma") is not None:
        return 1.0 / (2.0 * float(params["sigma"]) ** 2)
    return float(params.get("gamma", 0.0))


def _l1(xp, X, L):
    step = max(1, L1_CHUNK // max(L.shape[0] * X.shape[1], 1))
    out = xp.empty((X.shape[0], L.shape[0]), dtype=xp.float64)
    for lo in range(0, X.shape[0], step):
        out[lo:lo + step] = xp.abs(X[lo:lo + step, None, :] - L[None, :, :]).sum(axis=2)
    return out


def kernel_block(xp, name: str, X, L, params: dict, L_sq=None):
    """``k(X, L)`` (float64, on the namespace of ``X``) for a kernel of DEVICE_KERNELS
    with resolved parameters; ``L_sq``: the landmarks' squared norms, when known."""
    g = _gamma(params)
    if name in ("linear", "polynomial", "rbf", "sigmoid"):
        P = X @ L.T
        if name == "linear":
            return P
        if name == "polynomial":
            return (g * P + float(params.get("coef0", 0.0))) ** int(params.get("degree", 3))
        if name == "sigmoid":
            return xp.tanh(g * P + float(params.get("coef0", 0.0)))
        x_sq = (X * X).sum(axis=1)
        l_sq = (L * L).sum(axis=1) if L_sq is None else L_sq
        # |x|^2 + |l|^2 - 2 x'l, kept >= 0 (rounding can make it slightly negative)
        P *= -2.0
        P += x_sq[:, None]
        P += l_sq[None, :]
        xp.maximum(P, 0.0, out=P)
        P *= -g
        return xp.exp(P, out=P)
    if name == "l1_gaussian":
        D = _l1(xp, X, L)
        return xp.exp(-g * D * D)
    if name == "sqrt_l1_exponential":
        return xp.exp(-g * xp.sqrt(_l1(xp, X, L)))
    check_device_kernel(name)
    raise AssertionError(name)  # pragma: no cover - check_device_kernel raised
