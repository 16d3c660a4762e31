"""Eigenvalues of a kernel matrix, of its restriction to e-perp, and what they say.

One Householder reflection ``H`` maps ``e / sqrt(n)`` to the first unit vector, so
``H K H = [[a, b'], [b, B]]`` where ``B`` is ``K`` restricted to the complement of ``e``
(in an orthonormal basis) and ``a = e'Ke / n``. A single LAPACK tridiagonalisation of ``HKH``
with lower storage never touches index 0, so its tridiagonal ``T`` carries both spectra:
``eig(T) = eig(K)`` and ``eig(T[1:, 1:]) = eig(B)``. The eigenvalues of ``B`` are those of
the centred kernel ``JKJ``, ``J = I - ee'/n``, without its zero along ``e``: the
pseudo-Euclidean signature and the CPD test (Lin & Lin 2003, Thm 3) both read them. So one
``O(n^3)`` reduction answers the PSD test, the CPD test and the signature.

Zero threshold: an eigenvalue is treated as zero when ``|lambda| <= rtol * max|lambda(K)|``
with ``rtol = n * eps`` by default (the convention of ``numpy.linalg.matrix_rank``).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg as sla
from scipy.linalg.blas import dsyr2
from scipy.sparse.linalg import ArpackNoConvergence, LinearOperator, eigsh
from sklearn.utils._param_validation import StrOptions

from .._scale import power_of_two_exponent
from .._validation import (
    POS_INT,
    check_kernel_matrix,
    check_memory,
    options_checked,
    seed_is_valid,
    user_stacklevel,
)
from ..exceptions import ParameterError
from ._render import TextHTML
from ._tridiag import tridiagonalize

#: matrices up to this size get the dense method (all eigenvalues) under ``method="auto"``;
#: above it the matrix-free estimates (``"slq"``)
DENSE_MAX = 5000

#: the matrix-free methods' probes, and their Lanczos steps by size: the quadrature's bias
#: on the negative mass falls with the steps (sigmoid kernel, n = 2 000: -0.006 at 30 steps,
#: +0.0007 at 80), each step is one pass over the kernel (n^2 / 2 evaluations)
MATFREE_DEFAULTS = {"slq": 24, "lanczos": 6}
MATFREE_STEPS = ((20000, 80), (50000, 30), (None, 12))


def default_steps(n: int) -> int:
    """Lanczos steps of the matrix-free methods for ``n`` samples (``MATFREE_STEPS``)."""
    for limit, steps in MATFREE_STEPS:
        if limit is None or n <= limit:
            return steps
    return MATFREE_STEPS[-1][1]  # pragma: no cover

__all__ = ["DENSE_MAX", "MATFREE_DEFAULTS", "CPDResult", "Signature", "Spectrum", "cpd_test",
           "signature", "spectrum"]


@dataclass
class Spectrum(TextHTML):
    """Eigen-information of a kernel matrix ``K`` (see :func:`spectrum`).

    Attributes
    ----------
    n : int
        Size of ``K``.
    method : str
        ``"dense"`` (every eigenvalue, from one tridiagonalisation), ``"ldl+lanczos"``
        (inertia by LDL' and Sylvester's law, extreme eigenvalues by Lanczos), ``"slq"`` or
        ``"lanczos"`` (matrix-free estimates with intervals, see :func:`spectrum`).
    eigenvalues : ndarray or None
        All eigenvalues of ``K``, ascending (dense method only).
    restricted : ndarray or None
        All eigenvalues of ``K`` on the complement of ``e`` (the centred kernel's spectrum
        without its zero along ``e``), ascending (dense method only).
    lam_min, lam_max : float
        Extreme eigenvalues of ``K``.
    restricted_min, restricted_max : float
        Extreme eigenvalues of ``K`` on the complement of ``e``.
    n_pos, n_neg, n_zero : int
        Inertia of ``K`` restricted to the complement of ``e`` (``n - 1`` values).
    scale : float
        ``max |lambda(K)|``, the reference of the relative thresholds.
    rtol, tol : float
        Relative and absolute zero threshold, ``tol = rtol * scale``.
    schur : float or None
        ``a - b' B^{-1} b`` when ``B`` is positive definite, else ``None``. ``K + D ee'`` is
        positive definite exactly when ``B`` is and ``schur + n D > 0``.
    approximate : list of str
        What, if anything, is approximate.
    intervals : dict
        For the matrix-free methods: ``{field: [low, high]}`` beside every estimated figure
        (``lam_min``, ``lam_max``, ``restricted_min``, ``restricted_max``, ``n_neg``,
        ``n_pos``, ``negative_mass``); empty when every figure is computed.
    negative_mass : float or None
        Estimated negative mass of the centred kernel (matrix-free methods; the dense method
        computes it in :func:`signature` from the eigenvalues).
    details : dict
        How the estimates were made (probes, steps, kernel passes, seed, time).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import spectrum
    >>> sp = spectrum(np.diag([3.0, 1.0, -1.0]))
    >>> sp.method, sp.n_pos + sp.n_neg + sp.n_zero, bool(sp.is_psd)
    ('dense', 2, False)
    """

    n: int
    method: str
    eigenvalues: np.ndarray | None
    restricted: np.ndarray | None
    lam_min: float
    lam_max: float
    restricted_min: float
    restricted_max: float
    n_pos: int
    n_neg: int
    n_zero: int
    scale: float
    rtol: float
    tol: float
    schur: float | None
    approximate: list = field(default_factory=list)
    _K: np.ndarray | None = field(default=None, repr=False)
    intervals: dict = field(default_factory=dict)
    negative_mass: float | None = None
    details: dict = field(default_factory=dict)
    _cpd: dict | None = field(default=None, repr=False)
    #: the dense reduction ran on K / 2^_k (power_of_two_exponent)
    _k: int = field(default=0, repr=False)

    @property
    def estimated(self) -> bool:
        """Whether the figures are estimates (matrix-free methods)."""
        return bool(self.intervals)

    @property
    def is_psd(self) -> bool:
        """``lambda_min(K) >= -tol``."""
        return bool(self.lam_min >= -self.tol)

    def __str__(self) -> str:
        if self.estimated:
            iv = self.intervals
            return (f"Spectrum of a {self.n} x {self.n} kernel ({self.method}, estimates): "
                    f"lambda_min ~ {self.lam_min:.4g} in [{iv['lam_min'][0]:.4g}, "
                    f"{iv['lam_min'][1]:.4g}], lambda_max ~ {self.lam_max:.4g} in "
                    f"[{iv['lam_max'][0]:.4g}, {iv['lam_max'][1]:.4g}], zero threshold "
                    f"{self.tol:.3g} (rtol {self.rtol:.3g})")
        return (f"Spectrum of a {self.n} x {self.n} kernel ({self.method}): "
                f"lambda in [{self.lam_min:.4g}, {self.lam_max:.4g}], "
                f"on e-perp [{self.restricted_min:.4g}, {self.restricted_max:.4g}], "
                f"zero threshold {self.tol:.3g} (rtol {self.rtol:.3g})")

    def to_dict(self) -> dict:
        """JSON-serialisable summary (without the full eigenvalue arrays)."""
        return {
            "n": self.n, "method": self.method, "lam_min": self.lam_min,
            "lam_max": self.lam_max, "restricted_min": self.restricted_min,
            "restricted_max": self.restricted_max, "n_pos": self.n_pos, "n_neg": self.n_neg,
            "n_zero": self.n_zero, "scale": self.scale, "rtol": self.rtol, "tol": self.tol,
            "schur": self.schur, "is_psd": self.is_psd, "approximate": list(self.approximate),
            "estimated": self.estimated,
            **{f"{k}_interval": list(v) for k, v in self.intervals.items()},
            **({"details": dict(self.details)} if self.details else {}),
        }


def _householder_rotate(K: np.ndarray) -> np.ndarray:
    """Lower triangle of ``H K H`` with ``H e/sqrt(n) = e_1``, Fortran order.

    The trailing block (``K`` on the complement of ``e``) is taken from ``H (JKJ) H`` rather
    than ``H K H``: the two are equal in exact arithmetic, but the centred matrix is computed
    with rounding relative to its own size, so exact zeros of the centred kernel (e.g.
    ``diag(1, -1)``, low-rank kernels) stay at the rounding level of ``JKJ``, not of ``K``.
    The first column is ``H K u``, ``u = e / sqrt(n)``.
    """
    n = K.shape[0]
    if n == 1:
        return np.array(K, order="F", copy=True)
    u = np.full(n, 1.0 / np.sqrt(n))
    v = u.copy()
    v[0] -= 1.0
    c = v @ v
    r = K.mean(axis=1)
    m = r.mean()
    C = np.array(K, order="F", copy=True)
    C -= r[:, None]
    C -= r[None, :]
    C += m
    p = C @ v
    s = v @ p
    w = (2.0 / c) * p - (2.0 * s / c**2) * v
    Ct = dsyr2(-1.0, v, w, a=C, lower=1, overwrite_a=1)  # H (JKJ) H = C - v w' - w v'
    Ku = K @ u
    Ct[:, 0] = Ku - (2.0 / c) * (v @ Ku) * v  # H K u: a = u'Ku, then b
    return Ct


def _inertia(values: np.ndarray, tol: float) -> tuple[int, int, int]:
    pos = int(np.count_nonzero(values > tol))
    neg = int(np.count_nonzero(values < -tol))
    return pos, neg, int(values.shape[0]) - pos - neg


def _check_eigen_range(scale: float, k: int, K=None) -> None:
    """Raise when eigenvalues found on ``K / 2^k`` (the largest ``scale`` in magnitude) pass
    float64's range once scaled back."""
    if scale > 0 and math.log2(scale) + k >= 1024:
        digits = math.log10(scale) + k * math.log10(2.0)
        entries = ("" if K is None else
                   f" (K's entries reach {max(float(K.max()), -float(K.min())):.4g})")
        raise ValueError(
            f"K's eigenvalues pass float64's range: the largest |eigenvalue| is about "
            f"{10 ** (digits % 1):.3g}e+{int(digits)}{entries}, more than float64 holds "
            "(1.797e+308). Scale the kernel down first, e.g. K / np.abs(K).max(): a positive "
            "factor changes no verdict (PSD, CPD, signature, negative mass).")


def _dense(K, rtol):
    n = K.shape[0]
    k = power_of_two_exponent(float(np.max(np.abs(K))) if n else 0.0)
    Kt = _householder_rotate(np.ldexp(K, -k) if k else K)
    # LAPACK's dsytrd, panel by panel from a compiled loop that looks for Ctrl-C between
    # panels (one scipy call would hold the GIL until the whole reduction returns)
    d, e = tridiagonalize(Kt)
    lam = sla.eigvalsh_tridiagonal(d, e, lapack_driver="sterf") if n > 1 else d.copy()
    mu = (sla.eigvalsh_tridiagonal(d[1:], e[1:], lapack_driver="sterf") if n > 2
          else d[1:].copy())
    scale = float(np.max(np.abs(lam)))
    tol = rtol * scale
    pos, neg, zero = _inertia(mu, tol)  # in K / 2^k's units: no subnormal threshold
    schur = None
    if n > 1 and mu[0] > tol:
        # a - b'B^{-1}b = d0 - e0^2 (T'^{-1})_{11}, T' = T[1:, 1:] tridiagonal; on T / scale
        # (entries in [-1, 1]) and scaled back: a kernel of subnormal entries (1e-309) has
        # an inverse that overflows, the complement does not
        ds, es = d / scale, e / scale
        rhs = np.zeros(n - 1)
        rhs[0] = 1.0
        ab = np.zeros((3, n - 1))
        ab[0, 1:] = es[1:]
        ab[1] = ds[1:]
        ab[2, :-1] = es[1:]
        x = sla.solve_banded((1, 1), ab, rhs)
        schur = float(scale * (ds[0] - es[0] ** 2 * x[0]))
    elif n == 1:
        schur = float(d[0])
    if k:
        _check_eigen_range(scale, k, K)
        lam, mu = np.ldexp(lam, k), np.ldexp(mu, k)
        scale, tol = float(np.ldexp(scale, k)), float(np.ldexp(tol, k))
        schur = None if schur is None else float(np.ldexp(schur, k))
    return Spectrum(
        n=n, method="dense", eigenvalues=lam, restricted=mu,
        lam_min=float(lam[0]), lam_max=float(lam[-1]),
        restricted_min=float(mu[0]) if n > 1 else 0.0,
        restricted_max=float(mu[-1]) if n > 1 else 0.0,
        n_pos=pos, n_neg=neg, n_zero=zero, scale=scale, rtol=rtol, tol=tol, schur=schur,
        approximate=[], _K=K, _k=k,
    )


def _lanczos_extreme(op, n, which):
    """One extreme eigenvalue by ARPACK, from a fixed start vector (the same answer at every
    call). A run that does not converge is retried with a larger Krylov space; failing that,
    NaN and False (reported, never hidden)."""
    v0 = np.random.default_rng(0).standard_normal(n)
    for ncv in (None, min(n - 1, 80)):
        try:
            val = eigsh(op, k=1, which=which, tol=1e-10, maxiter=max(1000, 10 * n),
                        ncv=ncv, v0=v0, return_eigenvectors=False)
            return float(val[0]), True
        except ArpackNoConvergence:
            continue
        except Exception:  # ARPACK errors other than no convergence: report, don't hide
            break
    return float("nan"), False


def _ldl(K, rtol):
    # on K / 2^k, as the dense method: LDL' pivots and ARPACK's Ritz values of a kernel near
    # 1e-300 lose their digits (the signature came out (30, 0) for (30, 29)), and near
    # 1e307 the products overflow
    k = power_of_two_exponent(max(float(K.max()), -float(K.min())))
    if not k:
        return _ldl_unscaled(K, rtol)
    sp = _ldl_unscaled(np.ldexp(K, -k), rtol)
    _check_eigen_range(sp.scale, k, K)
    for name in ("lam_min", "lam_max", "restricted_min", "restricted_max", "scale", "tol"):
        setattr(sp, name, float(np.ldexp(getattr(sp, name), k)))
    sp.schur = None if sp.schur is None else float(np.ldexp(sp.schur, k))
    sp._K, sp._k = K, k
    return sp


def _ldl_unscaled(K, rtol):
    n = K.shape[0]
    if not np.any(K):
        # the zero kernel's spectrum is exact (every eigenvalue 0); ARPACK cannot start on a
        # zero operator (LAPACK's DLASCL rejects the zero norm and NaN comes back)
        return Spectrum(
            n=n, method="ldl+lanczos", eigenvalues=None, restricted=None, lam_min=0.0,
            lam_max=0.0, restricted_min=0.0, restricted_max=0.0, n_pos=0, n_neg=0,
            n_zero=n - 1, scale=0.0, rtol=rtol, tol=0.0, schur=None,
            approximate=["K is zero: every eigenvalue is exactly 0"], _K=K)
    approximate = []
    lam_max, ok2 = _lanczos_extreme(K, n, "LA")
    ok1 = False
    if ok2:
        # the low end of a PSD kernel of low rank is a cluster at 0 that ARPACK's SA mode
        # resolves slowly (80 s at n = 1 500, rank 351, where the dense method takes 0.3 s):
        # the top of lam_max I - K converges like any largest eigenvalue, in milliseconds
        shifted = LinearOperator((n, n), matvec=lambda v: lam_max * v - K @ v,
                                 dtype=np.float64)
        top, ok1 = _lanczos_extreme(shifted, n, "LA")
        lam_min = lam_max - top
    if not ok1:
        lam_min, ok1 = _lanczos_extreme(K, n, "SA")
    if not (ok1 and ok2):
        approximate.append("Lanczos did not converge for an extreme eigenvalue of K")
    scale = float(np.nanmax(np.abs([lam_min, lam_max])))
    tol = rtol * scale

    # Lanczos on JKJ +/- shift * uu': the eigenvalue 0 along e moves past the end of the
    # spectrum, so the extremes found are those of K on the complement of e
    shift = 2.0 * scale + 1.0

    def centred(v, sign):
        mean = v.mean()
        w = K @ (v - mean)
        return w - w.mean() + sign * shift * mean

    up = LinearOperator((n, n), matvec=lambda v: centred(v, 1.0), dtype=np.float64)
    down = LinearOperator((n, n), matvec=lambda v: centred(v, -1.0), dtype=np.float64)
    # as for lam_min: the top of c I - up, c above up's spectrum (K's and the shift's)
    c = shift + scale
    top, ok3 = _lanczos_extreme(
        LinearOperator((n, n), matvec=lambda v: c * v - centred(v, 1.0), dtype=np.float64),
        n, "LA")
    cmin = c - top
    if not ok3:
        cmin, ok3 = _lanczos_extreme(up, n, "SA")
    cmax, ok4 = _lanczos_extreme(down, n, "LA")
    if not (ok3 and ok4):
        approximate.append("Lanczos did not converge for an extreme eigenvalue on e-perp")
    Kt = _householder_rotate(K)
    B = np.tril(Kt[1:, 1:])
    B = B + np.tril(B, -1).T
    lu, dblk, perm = sla.ldl(B, lower=True, hermitian=True, overwrite_a=True,
                             check_finite=False)
    pivots = []
    i = 0
    diag, off = np.diagonal(dblk), np.diagonal(dblk, -1)
    while i < n - 1:
        if i + 1 < n - 1 and off[i] != 0.0:
            pivots.extend(np.linalg.eigvalsh(dblk[i:i + 2, i:i + 2]))
            i += 2
        else:
            pivots.append(diag[i])
            i += 1
    pivots = np.asarray(pivots)
    pos, neg, zero = _inertia(pivots, tol)
    approximate.append("inertia from LDL' pivots (Sylvester's law); zero pivots judged with "
                       "the same threshold, so near-zero eigenvalues may be miscounted")
    if neg > 0 and ok3 and cmin >= -tol:
        # the pivots of a (nearly) singular PSD matrix carry rounding of either sign; the
        # converged Lanczos minimum on e-perp says there is no negative eigenvalue there
        zero += neg
        neg = 0
        approximate.append("negative LDL' pivots at rounding level, counted as zero: the "
                           "smallest eigenvalue on e-perp (Lanczos) is >= -tol")
    approximate.append("extreme eigenvalues by Lanczos (ARPACK, tol 1e-10)")
    schur = None
    if neg == 0 and zero == 0:
        b = np.asarray(Kt[1:, 0]).copy()
        L = lu[perm]
        z = sla.solve_triangular(L, b[perm], lower=True, unit_diagonal=True)
        z = np.linalg.solve(dblk, z) if n < 3 else sla.solve_banded(
            (1, 1), np.vstack([np.r_[0, off], diag, np.r_[off, 0]]), z)
        xp = sla.solve_triangular(L.T, z, lower=False, unit_diagonal=True)
        x = np.empty_like(xp)
        x[perm] = xp
        schur = float(Kt[0, 0] - b @ x)
    return Spectrum(
        n=n, method="ldl+lanczos", eigenvalues=None, restricted=None, lam_min=lam_min,
        lam_max=lam_max, restricted_min=cmin, restricted_max=cmax,
        n_pos=pos, n_neg=neg, n_zero=zero, scale=scale, rtol=rtol, tol=tol, schur=schur,
        approximate=approximate, _K=K,
    )


_METHODS = ("auto", "dense", "ldl", "lanczos", "slq")


def _check_method(method):
    if method not in _METHODS:
        raise ValueError(f"Unknown method={method!r}; choose one of "
                         f"{', '.join(map(repr, _METHODS))}.")


def _check_positive_int(value, name):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ParameterError(f"must be a positive integer or None; got {value!r}.", name)
    return int(value)


@options_checked({"method": [StrOptions(set(_METHODS))], "n_probes": [POS_INT, None],
                  "n_steps": [POS_INT, None]})
def spectrum(K, *, rtol: float | None = None, method: str = "auto",
             n_probes: int | None = None, n_steps: int | None = None,
             random_state: int | np.random.Generator | None = None) -> Spectrum:
    """Eigenvalues of ``K`` and of ``K`` restricted to the complement of ``e``.

    Computed once and read by :func:`cpd_test`, :func:`signature` and
    :func:`indefsvm.check_kernel`.

    Parameters
    ----------
    K : array-like of shape (n, n)
        Symmetric kernel matrix. (For a kernel too large to hold, give ``X`` and ``kernel``
        to :func:`indefsvm.check_kernel`: its matrix-free methods never form ``K``.)
    rtol : float, optional
        Relative zero threshold; an eigenvalue with ``|lambda| <= rtol * max|lambda(K)|``
        counts as zero. Default ``n * eps`` (as ``numpy.linalg.matrix_rank``). Genuine
        eigenvalues of real kernels can be 1e-8 of the largest: the default keeps them.
    method : {"auto", "dense", "ldl", "lanczos", "slq"}, default="auto"
        ``"dense"``: one tridiagonalisation, every eigenvalue (``"auto"`` up to
        ``DENSE_MAX`` = 5 000 samples). ``"ldl"``: inertia by LDL' (Sylvester's law of
        inertia) and extreme eigenvalues by ARPACK. ``"slq"`` (``"auto"`` above 5 000) and
        ``"lanczos"``: matrix-free estimates from products of ``K`` with blocks of vectors:
        ``n_probes`` Lanczos runs of ``n_steps`` steps on the centred kernel from random
        probes; the extreme eigenvalues by Rayleigh-Ritz on their joint Krylov space (Ritz
        value and residual bound), the number of negative and positive eigenvalues and the
        negative mass by stochastic Lanczos quadrature, each with an interval (quadrature
        bounds of Chebyshev-Markov-Stieltjes plus a Student-t multiple of the standard error
        over the probes, at the level of four normal standard errors).
        ``"lanczos"`` uses few probes (sharp extremes, wide count and mass intervals),
        ``"slq"`` more. Estimates carry ``Spectrum.intervals``.
    n_probes, n_steps : int, optional
        Matrix-free methods: probes and Lanczos steps (one pass over ``K`` a step). Defaults:
        ``"slq"`` 24 probes, ``"lanczos"`` 6 (``MATFREE_DEFAULTS``); 80 steps up to 20 000
        samples, 30 up to 50 000, 12 above (``MATFREE_STEPS``: the bias of the negative mass
        falls with the steps, the time grows with them). The standard error is read from the
        probes' own spread; with few probes that spread is itself uncertain, which the t
        quantile with ``n_probes - 1`` degrees of freedom allows for (12.3 at 6 probes, 4.9 at
        24): the count and mass intervals of few probes are wide, not wrong. When the
        complement of ``e`` has no more dimensions than there are probes
        (``n - 1 <= n_probes``) the probes are a basis of it and the probe average is the
        trace itself.
    random_state : int, Generator or None
        Seed of the probes (matrix-free methods): the same seed gives the same estimates.

    Returns
    -------
    Spectrum

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import spectrum
    >>> s = spectrum(np.array([[2.0, 0.0], [0.0, -1.0]]))
    >>> round(s.lam_min, 12), round(s.lam_max, 12), s.is_psd
    (-1.0, 2.0, False)
    """
    seed_is_valid(random_state)  # said even where the dense method draws nothing
    _check_method(method)
    n_probes = _check_positive_int(n_probes, "n_probes")
    n_steps = _check_positive_int(n_steps, "n_steps")
    K = check_kernel_matrix(K)
    n = K.shape[0]
    rtol = _check_rtol(rtol, n)
    if method in ("dense", "ldl") or (method == "auto" and n <= DENSE_MAX) or n < 3:
        _refuse_unused_probes(method, n, n_probes, n_steps)
    if method == "dense" or (method == "auto" and n <= DENSE_MAX) or n < 3:
        check_memory(8.0 * n * n, f"the eigenvalues of a {n} x {n} kernel (one working copy)",
                     "Use method='slq' (matrix-free estimates).")
        return _dense(K, rtol)
    if method == "ldl":
        return _ldl(K, rtol)
    from ._matfree import KernelOperator

    return matrix_free_spectrum(KernelOperator(K=K), rtol=rtol,
                                method="slq" if method == "auto" else method,
                                n_probes=n_probes, n_steps=n_steps, random_state=random_state,
                                K=K)


def rounding_margin(n: int, tol: float) -> float:
    """How far a computed Ritz value may stray past the zero threshold ``tol = rtol * scale``
    by rounding alone: ``sqrt(n) * tol``, the error bound of the n-term sums of a kernel
    product (``n eps ||K||_F <= n sqrt(n) eps max|lambda|``) at the default rtol, and at
    least ``100 * tol`` for the Lanczos recurrence's own rounding (a Ritz value 50 eps below
    zero was seen at n = 10, where sqrt(n) * tol is 30 eps). A matrix-free
    estimate within this margin of the threshold decides nothing (the report says
    "undecided at this accuracy")."""
    return max(math.sqrt(max(n, 1)), 100.0) * tol


def decided(sp, key: str, threshold: float) -> bool | None:
    """Whether the interval of an estimated extreme eigenvalue ``key`` ("lam_min",
    "restricted_min") lies on one side of ``-threshold``: True (all at or above: no negative
    eigenvalue), False (all below, beyond the rounding margin: a negative eigenvalue), None
    (undecided at this accuracy). Computed spectra (not estimated) always decide."""
    value = getattr(sp, key)
    if not sp.estimated:
        return bool(value >= -threshold)
    lo, hi = sp.intervals[key]
    if lo >= -threshold:
        return True
    if hi < -threshold - rounding_margin(sp.n, sp.tol):
        return False
    return None


def _refuse_unused_probes(method: str, n: int, n_probes, n_steps) -> None:
    """``n_probes`` / ``n_steps`` where the spectrum is computed, not estimated: refused
    with ``method="dense"`` or ``"ldl"`` (the caller chose a method that takes none), and
    said with ``"auto"`` (which computes small kernels exactly: a caller's settings for
    large ones then have nothing to do)."""
    given = [f"{name}={value}" for name, value in (("n_probes", n_probes),
                                                   ("n_steps", n_steps)) if value is not None]
    if not given or method in ("slq", "lanczos"):  # (n < 3: two eigenvalues, computed)
        return
    what = " and ".join(given)
    if method in ("dense", "ldl"):
        raise ValueError(f"{what} belong{'s' if len(given) == 1 else ''} to the matrix-free "
                         f"methods ('slq', 'lanczos'); method={method!r} computes every "
                         f"eigenvalue: drop {'it' if len(given) == 1 else 'them'}, or choose "
                         "a matrix-free method.")
    from .._warn import warn

    warn(f"{what} {'is' if len(given) == 1 else 'are'} not used: method='auto' computes the "
         f"eigenvalues of these {n} samples exactly (up to {DENSE_MAX} samples); give "
         "method='slq' or 'lanczos' for the estimates.", UserWarning,
         stacklevel=user_stacklevel())


def _check_rtol(rtol, n):
    if rtol is None:
        return n * np.finfo(np.float64).eps
    if isinstance(rtol, bool) or not isinstance(rtol, numbers.Real) or not 0 <= rtol < 1:
        raise ParameterError(f"must be a number in [0, 1) (a relative zero threshold: "
                             f"|lambda| <= rtol x max |lambda| counts as zero, so 1 or more would "
                             f"call every eigenvalue zero); got {rtol!r}.", "rtol")
    return float(rtol)


def matrix_free_spectrum(op, *, rtol, method, n_probes=None, n_steps=None, random_state=None,
                         K=None, extra=None, logger=None):
    """Estimated :class:`Spectrum` from a kernel operator (see ``_matfree``); also returns,
    in ``Spectrum.details["first_pass"]``, ``K @ extra`` and the exact eta figures of the
    first pass."""
    import time

    from ._matfree import estimate_spectrum, lanczos_probes, mass_interval

    t0 = time.perf_counter()
    n = op.n
    m = n_probes or MATFREE_DEFAULTS[method]
    k = n_steps or default_steps(n)
    run = lanczos_probes(op, n_probes=m, n_steps=k, random_state=random_state, extra=extra,
                         logger=logger)
    # the run worked on K / s (``lanczos_probes``: s a power of two near the kernel's size);
    # its estimates are scaled back at once, and all that follows is in K's own units
    s = run["s"]
    # the trace of K / s summed as such: the diagonal of a kernel near 1e307 sums past
    # float64; eigenvalues that do too are refused, as by the dense method
    est = estimate_spectrum(run, trace_K=float(np.sum(op.diag / s)), rtol=rtol)
    _check_eigen_range(max(abs(est["lam_min"]), abs(est["lam_max"]),
                           abs(est["lam_min_interval"][0]), abs(est["lam_max_interval"][1])),
                       round(math.log2(s)), K)
    est = _scaled_back(est, s)
    tol = est["tol"]
    # a Ritz value below -tol (above tol) proves a negative (positive) eigenvalue on e-perp --
    # beyond the rounding of the kernel products that made it (rounding_margin): on a
    # rank-deficient PSD kernel a Ritz value can fall ~1e6 eps below zero
    margin = rounding_margin(n, tol)
    if est["restricted_min_interval"][1] < -tol - margin:
        est["n_neg_interval"][0] = max(est["n_neg_interval"][0], 1)
        est["n_neg_interval"][1] = max(est["n_neg_interval"][1], 1)
        est["n_neg"] = max(est["n_neg"], 1)
        # and a negative sum of at least that eigenvalue, whatever the probes averaged
        floor = -est["restricted_min_interval"][1] - margin
        if est["negative_sum_interval"][0] < floor:
            est["negative_sum_interval"] = [floor, max(floor, est["negative_sum_interval"][1])]
            est["negative_mass_interval"] = mass_interval(est["negative_sum_interval"],
                                                          est["trace_A"])
            lo, hi = est["negative_mass_interval"]
            est["negative_mass"] = min(max(est["negative_mass"], lo), hi)
    if est["restricted_max_interval"][0] > tol + margin:
        est["n_pos_interval"][0] = max(est["n_pos_interval"][0], 1)
        est["n_pos_interval"][1] = max(est["n_pos_interval"][1], 1)
        est["n_pos"] = max(est["n_pos"], 1)
    if est["n_neg"] + est["n_pos"] > n - 1:
        # two estimates, each in its interval, that add up to more than n - 1: move each
        # toward its lower bound, never out of its interval
        est["n_pos"] = max(est["n_pos_interval"][0], n - 1 - est["n_neg"])
        if est["n_neg"] + est["n_pos"] > n - 1:
            est["n_neg"] = max(est["n_neg_interval"][0], n - 1 - est["n_pos"])
    intervals = {key: est[f"{key}_interval"] for key in (
        "lam_min", "lam_max", "restricted_min", "restricted_max", "n_neg", "n_pos",
        "negative_mass")}
    seconds = time.perf_counter() - t0
    approximate = [
        f"matrix-free estimates ({run['m']} probes, {run['k']} Lanczos steps, {op.passes} "
        "passes over K)",
        "extreme eigenvalues: Rayleigh-Ritz on the probes' Krylov spaces, interval from the "
        "Ritz value and its residual norm",
        "numbers of negative / positive eigenvalues and the negative mass: stochastic "
        "Lanczos quadrature, interval = Chebyshev-Markov-Stieltjes quadrature bounds + "
        "a Student-t multiple (4 normal standard errors' level) of the standard error over "
        "the probes, at least 4 times the largest standard error a Rademacher quadratic "
        "form can have (2 ||F||_F^2 <= 2 |lambda_min| N), so probes that agree by chance "
        "do not make it narrow; a proven negative eigenvalue is a floor of the negative sum",
    ]
    sp = Spectrum(
        n=n, method=method, eigenvalues=None, restricted=None, lam_min=est["lam_min"],
        lam_max=est["lam_max"], restricted_min=est["restricted_min"],
        restricted_max=est["restricted_max"], n_pos=est["n_pos"], n_neg=est["n_neg"],
        n_zero=max(n - 1 - est["n_pos"] - est["n_neg"], 0), scale=est["scale"], rtol=rtol,
        tol=tol,
        schur=None, approximate=approximate, _K=K, intervals=intervals,
        negative_mass=est["negative_mass"],
        details={"n_probes": run["m"], "n_steps": run["k"], "passes": op.passes,
                 "random_state": random_state if isinstance(random_state, (int, type(None)))
                 else "Generator", "seconds": round(seconds, 3),
                 "negative_rank": est["negative_rank"]},
        _cpd={"a": est["a"], "b_norm2": est["b_norm2"]},
    )
    sp.details_first_pass = {"Kextra": run["Kextra"], "eta": run["eta"], "Ku": run["Ku"] * s}
    return sp


#: the figures of ``estimate_spectrum`` in the kernel's units (times s), and in its square
_LINEAR = ("lam_min", "lam_max", "restricted_min", "restricted_max", "negative_sum", "scale",
           "tol", "a", "trace_A")


def _scaled_back(est: dict, s: float) -> dict:
    """The estimates of ``K / s`` as those of ``K`` (``s`` a power of two: exact): the
    eigenvalues, their intervals, the sums and the zero threshold times ``s``, ``b_norm2``
    times ``s^2``; the counts and the negative mass (a ratio) as they are."""
    if s == 1.0:
        return est
    for key in _LINEAR:
        est[key] = est[key] * s
        if f"{key}_interval" in est:
            est[f"{key}_interval"] = [v * s for v in est[f"{key}_interval"]]
    est["b_norm2"] = est["b_norm2"] * s * s
    return est


def _as_spectrum(K, rtol, method="auto") -> Spectrum:
    if isinstance(K, Spectrum):
        if rtol is not None and rtol != K.rtol:
            if K._K is None:
                raise ValueError("This Spectrum was estimated without a kernel matrix; give "
                                 "rtol to check_kernel (or spectrum) instead.")
            return spectrum(K._K, rtol=rtol, method=K.method.split("+")[0])
        return K
    return spectrum(K, rtol=rtol, method=method)


@dataclass
class CPDResult(TextHTML):
    """Conditional positive definiteness of ``K`` (Lin & Lin 2003, Thm 3).

    Attributes
    ----------
    is_cpd : bool
        ``v'Kv > 0`` for every ``v != 0`` with ``e'v = 0``: smallest eigenvalue on the
        complement of ``e`` above the zero threshold.
    is_cpsd : bool
        ``v'Kv >= 0`` on the complement of ``e`` (up to the threshold).
    min_eig_restricted : float
        Smallest eigenvalue of ``K`` on the complement of ``e``.
    n_negative_restricted : int
        Negative eigenvalues of ``K`` on the complement of ``e`` (``q`` of the signature).
    delta : float or None
        A certificate: ``K + delta ee'`` was verified positive definite by a Cholesky
        factorisation. ``None`` if ``K`` is not CPD (then no such delta exists).
    delta_min : float or None
        The infimum of valid deltas, ``(b'B^{-1}b - a) / n`` (Schur complement).
    tol : float
        Zero threshold used.
    note : str
        One sentence in plain words.

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import cpd_test
    >>> r = cpd_test(np.array([[2.0, 0.5], [0.5, 2.0]]))
    >>> r.is_cpd, r.delta is not None
    (True, True)
    """

    is_cpd: bool
    is_cpsd: bool
    min_eig_restricted: float
    n_negative_restricted: int
    delta: float | None
    delta_min: float | None
    tol: float
    note: str

    def __str__(self) -> str:
        return self.note

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary of the test's figures and verdict."""
        return {k: getattr(self, k) for k in ("is_cpd", "is_cpsd", "min_eig_restricted",
                                             "n_negative_restricted", "delta", "delta_min",
                                             "tol", "note")}


def cpd_test(K, *, rtol: float | None = None) -> CPDResult:
    """Is ``K`` conditionally positive definite, and which ``Delta`` makes ``K + Delta ee'`` PD?

    Parameters
    ----------
    K : array-like of shape (n, n) or Spectrum
        Kernel matrix, or its :func:`spectrum` (reused, not recomputed).
    rtol : float, optional
        Relative zero threshold (see :func:`spectrum`).

    Returns
    -------
    CPDResult

    Notes
    -----
    In the rotated basis ``HKH = [[a, b'], [b, B]]`` (``B``: ``K`` on the complement of
    ``e``), ``K + Delta ee'`` is PD iff ``B`` is PD and ``a + n Delta - b'B^{-1}b > 0``
    (Schur complement), so the smallest valid ``Delta`` is ``(b'B^{-1}b - a) / n`` and exists
    exactly when ``K`` is CPD (Thm 3). The returned ``delta`` adds a margin of
    ``lambda_min(B) / n`` and is checked by Cholesky; if that check fails the margin grows
    tenfold, up to three times. A CPSD matrix that is not CPD, such as ``diag(1, -1)`` or the
    zero matrix, has no such ``Delta`` (Lin & Lin 2003, section 2).

    References
    ----------
    Lin & Lin (2003), Theorem 3 and the examples after it.

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import cpd_test
    >>> r = cpd_test(np.array([[1.0, 0.0], [0.0, -1.0]]))
    >>> r.is_cpd, r.is_cpsd, r.delta
    (False, True, None)
    """
    sp = _as_spectrum(K, rtol)
    n = sp.n
    tol = sp.tol
    mu_min = sp.restricted_min
    is_cpsd = bool(mu_min >= -tol) and sp.n_neg == 0
    is_cpd = bool(mu_min > tol) and sp.n_neg == 0 and sp.n_zero == 0 if n > 1 else True
    delta = delta_min = None
    if sp.estimated:
        # matrix-free: no zero count to trust (eigenvalues within +-tol are not resolved),
        # so CPD rests on the estimate of the smallest eigenvalue on e-perp; the certificate
        # on its lower bound mu_lo: b'B^{-1}b <= |b|^2 / mu_lo
        is_cpd = bool(mu_min > tol) and sp.n_neg == 0
        mu_lo = sp.intervals["restricted_min"][0]
        if is_cpd and mu_lo > tol and sp._cpd is not None:
            bound = (sp._cpd["b_norm2"] / mu_lo - sp._cpd["a"]) / n
            delta = float(bound + mu_lo / n)
    elif is_cpd and sp.schur is not None:
        delta_min = -sp.schur / n
        margin = max(mu_min, tol) / n if n > 1 else max(abs(sp.schur), 1.0)
        Kmat, k = sp._K, sp._k
        for _ in range(4):
            cand = delta_min + margin
            try:
                # on (K + cand) / 2^k: the same test, exactly, with no overflow near 1e308
                A = np.ldexp(Kmat, -k) if k else Kmat.copy()
                A += np.ldexp(cand, -k)
                sla.cholesky(A, lower=True, check_finite=False, overwrite_a=True)
                delta = float(cand)
                break
            except np.linalg.LinAlgError:
                margin *= 10.0
    if is_cpd and sp.estimated:
        if delta is not None:
            note = (f"K is CPD (estimate): on the complement of e its smallest eigenvalue is "
                    f"~{mu_min:.4g}, at least {sp.intervals['restricted_min'][0]:.4g} (Lanczos "
                    f"bound), and K + Delta ee' with Delta = {delta:.6g} is then positive "
                    "definite (Delta > (|b|^2 / lambda_min(B) - a) / n; matrix-free, not "
                    "checked by Cholesky). Problem (6) has a finite optimum (Thm 3).")
        else:
            note = (f"K is CPD by the estimate (smallest eigenvalue on the complement of e "
                    f"~{mu_min:.4g} > 0), but its lower bound "
                    f"{sp.intervals['restricted_min'][0]:.4g} is not positive: no certificate "
                    "Delta (try more n_steps, or the dense method on a subsample).")
    elif is_cpd and n == 1:
        # the complement of e is {0}: CPD holds vacuously, no eigenvalue to quote
        note = ("K is CPD trivially: with one sample the complement of e is {0}"
                + (f"; K + Delta ee' with Delta = {delta:.6g} is positive definite."
                   if delta is not None else "."))
    elif is_cpd:
        if delta is not None:
            note = (f"K is CPD: on the complement of e its smallest eigenvalue is {mu_min:.4g} "
                    f"> 0, and K + Delta ee' with Delta = {delta:.6g} is positive definite "
                    f"(verified by Cholesky; any Delta > {delta_min:.6g} works). Problem (6) has "
                    "a finite optimum (Thm 3).")
        else:
            note = (f"K is CPD (smallest eigenvalue on the complement of e {mu_min:.4g} > 0), "
                    "but no certificate Delta passed the Cholesky check: K is close to the "
                    "boundary for this precision.")
    elif is_cpsd and sp.estimated:
        note = (f"K is (nearly) conditionally positive semi-definite by the estimate: the "
                f"smallest eigenvalue on the complement of e is ~{mu_min:.4g} (zero threshold "
                f"{tol:.3g}); not certified CPD.")
    elif is_cpsd:
        note = (f"K is conditionally positive semi-definite but not CPD: {sp.n_zero} "
                "eigenvalue(s) on the complement of e are zero (within the threshold), so no "
                "Delta makes K + Delta ee' positive definite (Thm 3; cf. diag(1, -1)).")
    else:
        est = "~" if sp.estimated else ""
        note = (f"K is not CPD: {est}{sp.n_neg} negative eigenvalue(s) on the complement of e, the "
                f"smallest {mu_min:.4g} ({100 * abs(mu_min) / sp.scale:.3g} % of max |lambda|). No "
                "Delta makes K + Delta ee' positive definite.")
    return CPDResult(is_cpd=is_cpd, is_cpsd=is_cpsd, min_eig_restricted=float(mu_min),
                     n_negative_restricted=int(sp.n_neg), delta=delta,
                     delta_min=None if delta_min is None else float(delta_min), tol=float(tol),
                     note=note)


@dataclass
class Signature(TextHTML):
    """Pseudo-Euclidean signature of the centred kernel ``JKJ`` (Haasdonk 2005, Prop. 1).

    Attributes
    ----------
    p, q, z : int
        Positive, negative and zero eigenvalues of ``JKJ`` (``z`` includes the zero along
        ``e``), so ``p + q + z = n`` and the data embed in ``R^(p, q)``.
    negative_mass : float or None
        ``sum |lambda_-| / sum |lambda|`` over the centred spectrum: how indefinite. ``None``
        when only the inertia is known (LDL method).
    negative_ratio : float
        ``|most negative| / largest`` eigenvalue of ``JKJ`` (0 when ``q = 0``).
    eigenvalues : ndarray or None
        The centred spectrum, ascending (dense method).
    rtol, tol : float
        Zero threshold (relative to ``max |lambda(K)|``) and its absolute value.
    intervals : dict
        Matrix-free estimates: ``{"p": [low, high], "q": [...], "negative_mass": [...]}``;
        empty when the figures are computed from every eigenvalue.

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import signature
    >>> p, q, z = signature(np.diag([2.0, 1.0, -1.0, 0.0]))
    >>> p + q + z
    4
    """

    p: int
    q: int
    z: int
    negative_mass: float | None
    negative_ratio: float
    eigenvalues: np.ndarray | None
    rtol: float
    tol: float
    intervals: dict = field(default_factory=dict)

    def __iter__(self):
        return iter((self.p, self.q, self.z))

    def __str__(self) -> str:
        mass = "n/a" if self.negative_mass is None else f"{self.negative_mass:.3%}"
        if self.intervals:
            iv = self.intervals
            return (f"signature (estimate) p ~ {self.p} in {iv['p']}, q ~ {self.q} in "
                    f"{iv['q']}; negative mass ~ {mass} in [{iv['negative_mass'][0]:.3%}, "
                    f"{iv['negative_mass'][1]:.3%}]; |most negative| / largest = "
                    f"{self.negative_ratio:.3g}")
        return (f"signature (p, q, z) = ({self.p}, {self.q}, {self.z}); negative mass {mass}; "
                f"|most negative| / largest = {self.negative_ratio:.3g}")

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary (without the eigenvalues themselves)."""
        return {"p": self.p, "q": self.q, "z": self.z, "negative_mass": self.negative_mass,
                "negative_ratio": self.negative_ratio, "rtol": self.rtol, "tol": self.tol,
                **{f"{k}_interval": list(v) for k, v in self.intervals.items()}}


def signature(K, rtol: float | None = None) -> Signature:
    """Signature ``(p, q, z)`` of the centred kernel ``JKJ``, ``J = I - ee'/n``.

    Parameters
    ----------
    K : array-like of shape (n, n) or Spectrum
        Kernel matrix, or its :func:`spectrum`.
    rtol : float, optional
        Relative zero threshold: ``|lambda| <= rtol * max|lambda(K)|`` counts as zero;
        default ``n * eps``.

    Returns
    -------
    Signature
        Also unpacks as ``p, q, z = signature(K)``.

    Examples
    --------
    The toy kernel ``x1 x1' - x2 x2'`` on generic points of the plane:

    >>> import numpy as np
    >>> from indefsvm.diagnostics import signature
    >>> Z = np.random.default_rng(0).normal(size=(6, 2))
    >>> tuple(signature(Z @ np.diag([1.0, -1.0]) @ Z.T))
    (1, 1, 4)
    """
    sp = _as_spectrum(K, rtol)
    z = sp.n_zero + 1  # the centred kernel's zero along e
    if sp.restricted is not None:
        mu = sp.restricted
        centred = np.sort(np.append(mu, 0.0))
        # a ratio of sums, each over the largest |mu| first: no overflow near 1e308
        top = float(np.max(np.abs(mu))) if mu.size else 0.0
        total = float(np.sum(np.abs(mu) / top)) if top > 0 else 0.0
        neg = float(np.sum(np.abs(mu[mu < -sp.tol]) / top)) if top > 0 else 0.0
        mass = neg / total if total > 0 else 0.0
    else:
        centred, mass = None, sp.negative_mass
    ratio = (abs(sp.restricted_min) / sp.restricted_max
             if sp.n_neg > 0 and sp.restricted_max > 0 else 0.0)
    intervals = {}
    if sp.estimated:
        intervals = {"p": list(sp.intervals["n_pos"]), "q": list(sp.intervals["n_neg"]),
                     "negative_mass": list(sp.intervals["negative_mass"])}
    return Signature(p=sp.n_pos, q=sp.n_neg, z=z, negative_mass=mass,
                     negative_ratio=float(ratio), eigenvalues=centred, rtol=sp.rtol,
                     tol=sp.tol, intervals=intervals)


# -- the words of the verdicts: how indefinite, and what an estimate cannot decide -----------


#: the verdict of a matrix-free check whose intervals straddle the zero threshold
UNDECIDED = "undecided at this accuracy"


def _undecided(sp, cpd) -> str | None:
    """Which question the estimates cannot answer ("psd", "cpd") or None: an interval of
    the smallest eigenvalue (of K, or on the complement of e) on both sides of -tol, so that
    a PSD or CPD verdict -- or its negation -- would be a guess (rounding margin in
    spectrum.rounding_margin)."""
    if not sp.estimated:
        return None
    psd = decided(sp, "lam_min", sp.tol)
    if psd is None:
        return "psd"
    if psd:
        return None
    return "cpd" if decided(sp, "restricted_min", sp.tol) is None else None


def indefiniteness(sig, thresholds) -> str:
    """"Euclidean", "slightly", "moderately" or "strongly indefinite" from the negative mass
    and the size of the most negative eigenvalue (both of the centred kernel): a large
    negative eigenvalue is not "slight" whatever its share of the mass."""
    lo, hi = thresholds
    if sig.q == 0:
        return "Euclidean (no negative direction)"
    mass = sig.negative_mass
    ratio = sig.negative_ratio
    if mass is None:
        level = 1 if ratio < hi else 2
    else:
        level = 0 if mass < lo else (2 if mass > hi else 1)
    if ratio >= 0.5:
        level = 2
    elif ratio >= hi:
        level = max(level, 1)
    return ("slightly indefinite", "moderately indefinite", "strongly indefinite")[level]
