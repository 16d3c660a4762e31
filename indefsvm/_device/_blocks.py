"""Kernel blocks ``k(X, L)`` in an array namespace (private): the GPU's and the tests'.

The same formulas as :mod:`indefsvm.kernels`, in float64, written with ``xp`` (``cupy`` or
``numpy``) so that one code runs on both. The kernels of products (linear, polynomial, rbf,
sigmoid) are one matrix product each and an elementwise tail (``_tails``); on CuPy the tail
is one fused kernel (``cupy.fuse`` of the same Python function): the block is read and
written once instead of once per operation, which is what the tail costs on a device (the
matrix product of ``d`` = 20 features is a small part of it). The L1 kernels are computed
on row chunks of at most ``L1_CHUNK`` differences at a time.
"""

from __future__ import annotations

from functools import cache

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


#: whether the tails run fused on CuPy (a switch for the benchmark's comparison)
FUSED = True


def _tails(xp):
    """The tails written once with ``xp``'s functions (plain calls on NumPy)."""

    def rbf(P, x_sq, l_sq, minus_g):
        # |x|^2 + |l|^2 - 2 x'l, kept >= 0 (rounding can make it slightly negative)
        return xp.exp(minus_g * xp.maximum(x_sq + l_sq - 2.0 * P, 0.0))

    def sigmoid(P, g, c):
        return xp.tanh(g * P + c)

    def polynomial(P, g, c, degree):
        return (g * P + c) ** degree

    return {"rbf": rbf, "sigmoid": sigmoid, "polynomial": polynomial}


@cache
def _fused_tails():
    import cupy

    return {k: cupy.fuse(kernel_name=f"ix_{k}_tail")(f) for k, f in _tails(cupy).items()}


def _tail(xp, name):
    if xp.__name__ == "cupy" and FUSED:
        return _fused_tails()[name]
    return _tails(xp)[name]


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
        c = float(params.get("coef0", 0.0))
        if name == "polynomial":
            return _tail(xp, name)(P, g, c, int(params.get("degree", 3)))
        if name == "sigmoid":
            return _tail(xp, name)(P, g, c)
        x_sq = (X * X).sum(axis=1)
        l_sq = (L * L).sum(axis=1) if L_sq is None else L_sq
        return _tail(xp, name)(P, x_sq[:, None], l_sq[None, :], -g)
    if name == "l1_gaussian":
        D = _l1(xp, X, L)
        return xp.exp(-g * D * D)
    if name == "sqrt_l1_exponential":
        return xp.exp(-g * xp.sqrt(_l1(xp, X, L)))
    check_device_kernel(name)
    raise AssertionError(name)  # pragma: no cover - check_device_kernel raised
