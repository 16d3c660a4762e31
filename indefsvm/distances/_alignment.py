"""The global alignment kernel of series (Cuturi et al. 2007, Cuturi 2011), normalised and
in log domain, and the distance it induces: ``kernel_matrix(series, kernel="gak")`` and
``metric="gak"`` (private; the compiled dynamic programme is ``_gak.pyx``)."""

from __future__ import annotations

import numbers

import numpy as np

from ..exceptions import ParameterError
from ._gak import log_gak_pairs
from ._objects import as_series

#: points drawn (pairs of points of two series) for the median of Cuturi's rule
SIGMA_SAMPLE = 10_000


def gak_sigma(X, random_state: int = 0) -> float:
    """Cuturi's bandwidth of the global alignment kernel: the median distance between
    points of the series times the square root of their median length.

    Cuturi (2011, section 3.2) sets ``sigma`` to a multiple (0.1, 1 or 10) of this figure;
    this is the multiple 1 (the rule tslearn's ``sigma_gak`` follows), and a search tunes
    the multiple. The median is taken over 10 000 pairs of points drawn with
    ``random_state`` (every pair when there are fewer).

    Parameters
    ----------
    X : array-like or list
        Series as :func:`~indefsvm.pairwise_distances` takes them for ``"dtw"``.
    random_state : int, default=0
        The draw of the pairs of points.

    Returns
    -------
    float
        ``sigma > 0``.

    Raises
    ------
    ValueError
        Series whose points are all equal (no distance to take a median of).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.distances import gak_sigma
    >>> round(gak_sigma([np.array([0.0, 1, 2, 3]), np.array([1.0, 1, 1, 1])]), 3)
    2.0
    """
    S = as_series(X, "X", "gak")
    P = S.points
    n = P.shape[0]
    rng = np.random.default_rng(random_state)
    if n * (n - 1) // 2 <= SIGMA_SAMPLE:
        i, j = np.triu_indices(n, 1)
    else:
        i, j = rng.integers(0, n, SIGMA_SAMPLE), rng.integers(0, n, SIGMA_SAMPLE)
    d = np.sqrt(((P[i] - P[j]) ** 2).sum(axis=1))
    d = d[d > 0]
    if d.size == 0:
        raise ValueError("every point of the series is the same: the global alignment "
                         "kernel's sigma cannot be set from them; give sigma.")
    return float(np.median(d) * np.sqrt(np.median(S.lengths)))


def check_sigma(sigma) -> float | None:
    if sigma is None:
        return None
    if (isinstance(sigma, bool) or not isinstance(sigma, numbers.Real)
            or not np.isfinite(sigma) or sigma <= 0):
        raise ParameterError(f"must be a number > 0 (the local kernel's bandwidth) or None "
                             f"(Cuturi's rule: indefsvm.distances.gak_sigma of the reference "
                             f"series); got {sigma!r}.", "sigma")
    return float(sigma)


def log_gak(X, Y=None, *, sigma=None, window=None, threads: int = 1, progress=None):
    """``log k(x, y) - (log k(x, x) + log k(y, y)) / 2``: the normalised global alignment
    kernel's logarithm, ``(len(X), len(Y))``; -inf where no alignment lies in the band.
    ``sigma`` None: :func:`gak_sigma` of ``Y`` (of ``X`` when ``Y`` is None) -- the
    reference series, so that rows computed block by block against the same series share
    it. ``window``: checked already (-1 no band, else a share in [0, 1])."""
    A = as_series(X, "X", "gak")
    B = A if Y is None else as_series(Y, "Y", "gak")
    if B.n_channels != A.n_channels:
        raise ValueError(f"X has {A.n_channels} channels and Y has {B.n_channels}; the "
                         "alignment kernel compares series with the same channels.")
    sigma = gak_sigma(X if Y is None else Y) if sigma is None else float(sigma)
    noop = progress or (lambda done, total: None)
    w = -1.0 if window is None else float(window)
    selfA = np.empty((A.n, 1))
    log_gak_pairs(A.points, A.offsets, A.points, A.offsets, 2, sigma, w, selfA, threads)
    out = np.empty((A.n, B.n))
    if Y is None:
        log_gak_pairs(A.points, A.offsets, A.points, A.offsets, 1, sigma, w, out, threads,
                      noop)
        selfB = selfA
    else:
        selfB = np.empty((B.n, 1))
        log_gak_pairs(B.points, B.offsets, B.points, B.offsets, 2, sigma, w, selfB, threads)
        log_gak_pairs(A.points, A.offsets, B.points, B.offsets, 0, sigma, w, out, threads,
                      noop)
    out -= 0.5 * selfA
    out -= 0.5 * selfB.T
    if Y is None:
        np.fill_diagonal(out, 0.0)
    # rounding of two row-scaled programmes may put a value a hair above k(x,x)k(y,y)
    np.minimum(out, 0.0, out=out)
    return out


def gak_params(params: dict) -> dict:
    """``sigma`` and ``window`` checked (the band as DTW's: a share of the longer series)."""
    from ._pairwise import _check_window

    return {"sigma": check_sigma(params.get("sigma")),
            "window": _check_window(params.get("window"))}


def gak_fitted(X, params: dict) -> dict:
    """The parameters of a fitted model's kernel: ``sigma`` None set by :func:`gak_sigma` on
    the training series ``X`` (the kernel rows of new series then use the same one, not
    the rule applied to the support vectors)."""
    gak_params(params)  # checked
    fitted = dict(params)
    if fitted.get("sigma") is None:
        fitted["sigma"] = gak_sigma(X)
    return fitted


def gak_kernel(metric, X, Y, params, threads, progress):
    """The normalised kernel, in [0, 1] (1 on the diagonal)."""
    p = gak_params(params)
    return np.exp(log_gak(X, Y, sigma=p["sigma"], window=p["window"], threads=threads,
                          progress=progress))


def gak_distance(metric, X, Y, params, threads, progress):
    """The distance the normalised kernel induces, ``sqrt(2 - 2 k(x, y))``: Euclidean (the
    kernel is positive definite), so ``exp(-gamma d^2)`` of it is positive definite too."""
    K = gak_kernel(metric, X, Y, params, threads, progress)
    D = np.sqrt(np.maximum(2.0 - 2.0 * K, 0.0))
    if Y is None:
        np.fill_diagonal(D, 0.0)
    return D
