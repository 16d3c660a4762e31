"""The eta scan: where SMO meets concave sub-problems, and where problem (6) is unbounded."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._threads import effective_threads
from .._validation import (
    N_JOBS,
    NONNEG,
    check_kernel_matrix,
    check_label_vector,
    options_checked,
)
from ..exceptions import ParameterError
from ._eta import eta_pairs
from ._render import TextHTML

__all__ = ["EtaScan", "eta_scan"]


@dataclass
class EtaScan(TextHTML):
    """Result of :func:`eta_scan`.

    Attributes
    ----------
    n_pairs : int
        Pairs ``i < j``.
    n_negative : int
        Pairs with ``eta_ij = K_ii + K_jj - 2 K_ij < -atol``: the two-variable SMO
        sub-problem is concave there (Lin & Lin 2003, section 6, handled by rule (27)).
    fraction : float
        ``n_negative / n_pairs``.
    n_cross_nonpositive : int or None
        Opposite-label pairs with ``eta_ij <= atol``: by Thm 5 the dual without an upper
        bound (problem (6)) is unbounded below, so a finite ``C`` is required. ``None``
        without labels.
    n_cross_pairs : int or None
        Opposite-label pairs.
    worst_pair : tuple of int or None
        ``(i, j)`` with the smallest ``eta``.
    worst_eta : float
        The smallest ``eta_ij``.
    atol : float
        Absolute tolerance on ``eta`` (rounding of ``K_ii + K_jj - 2 K_ij``).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import eta_scan
    >>> res = eta_scan(np.eye(3))
    >>> res.n_pairs, res.n_negative, res.worst_eta
    (3, 0, 2.0)
    """

    n_pairs: int
    n_negative: int
    fraction: float
    n_cross_nonpositive: int | None
    n_cross_pairs: int | None
    worst_pair: tuple | None
    worst_eta: float
    atol: float

    def __str__(self) -> str:
        if self.worst_pair is None:
            # one sample: no pair to scan (worst_eta is NaN, not a value to print)
            return f"eta: no pair to scan ({self.n_pairs} pairs)"
        s = (f"eta < 0 on {self.n_negative} of {self.n_pairs} pairs ({self.fraction:.3%}); "
             f"smallest eta {self.worst_eta:.4g} at {self.worst_pair}")
        if self.n_cross_nonpositive is not None:
            s += (f"; opposite-label pairs with eta <= 0: {self.n_cross_nonpositive} of "
                  f"{self.n_cross_pairs}")
        return s

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary (None for the worst pair where there is none)."""
        return {"n_pairs": self.n_pairs, "n_negative": self.n_negative,
                "fraction": self.fraction, "n_cross_nonpositive": self.n_cross_nonpositive,
                "n_cross_pairs": self.n_cross_pairs,
                "worst_pair": None if self.worst_pair is None else list(self.worst_pair),
                # None, not NaN, without a pair: to_dict() is read as strict JSON
                "worst_eta": None if self.worst_pair is None else self.worst_eta,
                "atol": self.atol}


#: eta = K_ii + K_jj - 2 K_ij and the class-mean distance c'Kc reach 4 max|K|: float64
#: holds them, with room for rounding, while max|K| <= 2^1021 (about 2.2e307)
ENTRY_MAX = 2.0 ** 1021


def check_entry_range(K: np.ndarray) -> None:
    """Raise, before the work, when ``K``'s entries are so large that ``eta`` or ``c'Kc``
    (up to 4 max|K|) would overflow float64 (two passes, no ``n^2`` temporary)."""
    top = max(float(K.max()), -float(K.min())) if K.size else 0.0
    if top > ENTRY_MAX:
        raise ValueError(
            f"K's entries reach {top:.3g}: eta = K_ii + K_jj - 2 K_ij and the class-mean "
            "distance c'Kc reach 4 max|K|, past float64's range (1.8e+308). Scale the kernel "
            "down first, e.g. K / np.abs(K).max(): a positive factor changes no verdict.")


@options_checked({"atol": [NONNEG, None], "n_jobs": N_JOBS})
def eta_scan(K, y=None, *, atol: float | None = None, n_jobs: int | None = None) -> EtaScan:
    """Count pairs with ``eta_ij = K_ii + K_jj - 2 K_ij < 0`` (and opposite-label ``<= 0``).

    ``eta_ij`` is the squared distance the kernel induces between ``x_i`` and ``x_j``
    (Haasdonk 2005, (1)) and the curvature of SMO's two-variable sub-problem (Lin & Lin 2003, (24)).
    One compiled pass over the upper triangle; nothing of size ``n^2`` is allocated.

    Parameters
    ----------
    K : array-like of shape (n, n)
        Symmetric kernel matrix.
    y : array-like of shape (n,), optional
        Labels (any two values); enables the opposite-label count of Thm 5.
    atol : float, optional
        ``eta`` within ``atol`` of 0 counts as 0. Default ``4 eps max|K_ii|``, the rounding
        of ``K_ii + K_jj - 2 K_ij`` (so duplicates, ``eta = 0``, are not "negative").
    n_jobs : int, optional
        Threads for the symmetry check and the scan (``None``: 1 unless a joblib context
        says otherwise; ``-1``: all cores). The figures do not depend on it.

    Returns
    -------
    EtaScan

    Notes
    -----
    No pair with ``eta < 0`` does **not** mean that ``K`` is PSD: the sigmoid kernel on the
    heart data with ``a = 1/13, r = 0`` is strongly indefinite and has none.

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import eta_scan
    >>> r = eta_scan(np.array([[0.0, 1.0], [1.0, 0.0]]), y=[1, -1])
    >>> r.n_negative, r.n_cross_nonpositive, r.worst_eta
    (1, 1, -2.0)
    """
    threads = effective_threads(n_jobs)
    K = check_kernel_matrix(K, n_threads=threads)
    check_entry_range(K)
    n = K.shape[0]
    if y is not None:
        y = np.asarray(y)
        if y.ndim != 1 or y.shape[0] != n:
            raise ParameterError(f"must have shape ({n},) to match K; got {y.shape}.", "y")
        check_label_vector(y)
        _, yf = np.unique(y, return_inverse=True)
        yf = yf.astype(np.float64)
    else:
        yf = np.zeros(n)
    if atol is None:
        atol = 4.0 * np.finfo(np.float64).eps * float(np.max(np.abs(np.diagonal(K))))
    n_neg, n_cross, n_cross_pairs, worst, wi, wj = eta_pairs(K, yf, y is not None, atol,
                                                            threads)
    n_pairs = n * (n - 1) // 2
    return EtaScan(
        n_pairs=n_pairs, n_negative=int(n_neg),
        fraction=float(n_neg / n_pairs) if n_pairs else 0.0,
        n_cross_nonpositive=int(n_cross) if y is not None else None,
        n_cross_pairs=int(n_cross_pairs) if y is not None else None,
        worst_pair=(int(wi), int(wj)) if wi >= 0 else None,
        worst_eta=float(worst) if wi >= 0 else float("nan"), atol=float(atol),
    )
