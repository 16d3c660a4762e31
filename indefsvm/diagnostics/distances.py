"""Is a distance matrix a metric, Euclidean, and for which gamma is exp(-gamma d^2) nearly PSD?
:func:`check_distances`."""

from __future__ import annotations

import numbers
import time

import numpy as np

from .._logging import enable, logger
from .._metrics import objects_of
from .._threads import sized_by
from .._validation import (
    N_JOBS,
    POS_INT,
    SYMMETRY_RTOL,
    Interval,
    check_distance_matrix,
    check_distance_scale,
    check_label_vector,
    check_memory,
    options_checked,
    plain_label,
    seed_is_valid,
)
from ..distances._kernel import median_gamma
from ..exceptions import ParameterError
from ._advice import distance_notes
from .report import DistanceReport, _check_thresholds
from .spectrum import indefiniteness, signature

__all__ = ["check_distances", "triangle_violations"]

#: relative slack of the triangle test: d_ij > d_ik + d_kj + TRIANGLE_RTOL * max D fails
TRIANGLE_RTOL = 1e-12


def _wilson(k: int, m: int, z: float = 1.96) -> list:
    """95 % Wilson score interval of a binomial share k / m."""
    p = k / m
    den = 1 + z * z / m
    centre = (p + z * z / (2 * m)) / den
    half = z * np.sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / den
    return [max(0.0, centre - half), min(1.0, centre + half)]


def triangle_violations(D, *, exact_max: int = 400, n_samples: int = 200_000,
                        random_state=0) -> tuple:
    """Share of failed triangle inequalities ``d_ij <= d_ik + d_kj``.

    Every inequality with ``i < j`` and ``k`` not in ``{i, j}`` is counted when ``n <=
    exact_max`` (``n (n - 1) (n - 2) / 2`` of them, O(n^3) work); above, ``n_samples`` random
    triples are drawn and the share comes with a 95 % Wilson interval. An inequality fails when
    ``d_ij > d_ik + d_kj + 1e-12 * max D``.

    Parameters
    ----------
    D : ndarray of shape (n, n)
        Symmetric distances.
    exact_max : int, default=400
        Largest ``n`` for which every inequality is counted.
    n_samples : int, default=200000
        Random triples drawn above ``exact_max``.
    random_state : int, Generator or None, default=0
        Seed of the triples.

    Returns
    -------
    (share, interval or None, count checked, worst excess / max D)

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import triangle_violations
    >>> D = np.array([[0.0, 1.0, 5.0], [1.0, 0.0, 1.0], [5.0, 1.0, 0.0]])
    >>> triangle_violations(D)[0]  # d_02 = 5 > d_01 + d_12 = 2: 1 of 3 inequalities
    0.3333333333333333
    """
    seed_is_valid(random_state)  # said even where every triangle is counted (no draw)
    _check_triangle_counts(exact_max, n_samples, ("exact_max", "n_samples"))
    # the axioms are what is counted here, not refused (check_distances reports them)
    D = check_distance_matrix(D, "D", axioms=False)
    if D.shape[0] != D.shape[1]:
        raise ParameterError(f"must be a square (n, n) matrix of distances; got shape {D.shape}.",
                             "D")
    n = D.shape[0]
    scale = float(np.max(np.abs(D))) or 1.0
    tol = TRIANGLE_RTOL * scale
    if n < 3:
        return 0.0, None, 0, 0.0
    if n <= exact_max:
        count, worst = 0, 0.0
        upper = np.triu(np.ones((n, n), dtype=bool), 1)
        for k in range(n):
            excess = D - (D[:, [k]] + D[[k], :])
            mask = upper.copy()
            mask[k, :] = False
            mask[:, k] = False
            ex = excess[mask]
            count += int(np.count_nonzero(ex > tol))
            worst = max(worst, float(ex.max(initial=0.0)))
        total = n * (n - 1) * (n - 2) // 2
        return count / total, None, total, worst / scale
    rng = np.random.default_rng(random_state)
    i = rng.integers(0, n, size=n_samples)
    j = rng.integers(0, n - 1, size=n_samples)
    j = j + (j >= i)  # j != i
    k = rng.integers(0, n - 2, size=n_samples)
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    k = k + (k >= lo)
    k = k + (k >= hi)  # k not in {i, j}
    excess = D[i, j] - D[i, k] - D[k, j]
    fails = int(np.count_nonzero(excess > tol))
    return (fails / n_samples, _wilson(fails, n_samples), n_samples,
            max(0.0, float(excess.max())) / scale)


def _check_triangle_counts(exact_max, n_samples, names) -> None:
    """Both counts whole numbers >= 1, named as the caller spells them."""
    for name, value in zip(names, (exact_max, n_samples), strict=True):
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
            raise ParameterError(f"must be a whole number >= 1 (how many triples are "
                                 f"checked); got {value!r}.", name)


def _class_mean_sqdist(D2, mask_a, mask_b) -> float:
    """c'(-1/2 D^2)c with c = 1/n_a on a, -1/n_b on b: the squared distance of the class
    means in the (pseudo-)Euclidean embedding."""
    c = np.where(mask_a, 1.0 / np.count_nonzero(mask_a), 0.0) - np.where(
        mask_b, 1.0 / np.count_nonzero(mask_b), 0.0)
    idx = np.flatnonzero(mask_a | mask_b)
    c = c[idx]
    return float(-0.5 * c @ D2[np.ix_(idx, idx)] @ c)


def _gamma_grid(gammas, gamma0, n_gammas):
    if gammas is not None:
        try:
            g = np.sort(np.asarray(gammas, dtype=np.float64).ravel())
        except (TypeError, ValueError):
            g = np.array([np.nan])
        if g.size == 0 or not np.all(np.isfinite(g)) or g[0] <= 0:
            raise ParameterError(f"must be numbers > 0 (one or more); got "
                                 f"{' '.join(repr(gammas).split())[:80]}.", "gammas")
        return g
    if (isinstance(n_gammas, bool) or not isinstance(n_gammas, numbers.Integral)
            or n_gammas < 0):
        raise ParameterError(f"must be a whole number >= 0; got {n_gammas!r}.", "n_gammas")
    if gamma0 is None or n_gammas == 0:
        return np.array([])
    # two decades each side of the median rule, the median rule itself on the grid
    half = n_gammas // 2
    return gamma0 * np.logspace(-2, 2, 2 * half + 1) if half else np.array([gamma0])


def _labels(y, n: int):
    """(y as an array, its classes): one label per object, two classes or more."""
    y = np.asarray(y)
    if y.shape != (n,):
        raise ValueError(f"y has shape {y.shape}; it needs one label per object ({n},).")
    check_label_vector(y)
    classes = np.unique(y)
    if classes.shape[0] < 2:
        raise ValueError(f"y holds one class only ({classes[0]}); give two or more, or no "
                         "labels.")
    return y, classes


@options_checked({
    "metric": [str, callable, None], "metric_params": [dict, None],
    "n_landmarks": [POS_INT, None], "n_jobs": N_JOBS,
    "gammas": ["array-like", None],
    "negligible": [Interval(numbers.Real, 0, 1, closed="both")],
    "mass_thresholds": ["array-like"], "verbose": ["verbose"],
})
@sized_by(0, "D", "X")
def check_distances(D=None, y=None, *, X=None, metric=None, metric_params=None,
                    n_landmarks: int | None = None, n_jobs: int | None = None,
                    rtol: float | None = None, gammas=None, n_gammas: int = 13,
                    negligible: float = 0.01, mass_thresholds: tuple = (0.01, 0.10),
                    triangle_exact_max: int = 400, n_triangle_samples: int = 200_000,
                    random_state=0, verbose: bool = False) -> DistanceReport:
    """What is this distance matrix, and which kernel can be made of it? One call.

    Reads the axioms a matrix can show (symmetry, zero diagonal, non-negativity), counts the
    failed triangle inequalities, tests Schoenberg's condition (``D`` is Euclidean iff
    ``-1/2 J D^2 J`` is PSD, ``J = I - ee'/n``) with the signature and negative mass of that
    matrix, and scans the **gamma profile**: the negative mass of the centred kernel
    ``exp(-gamma D^2)`` over a grid of gamma around the median rule, with the gamma up to which
    (and from which) it is negligible. With labels, the squared distance of the class means.
    A graded verdict, the numbers and a recommendation, as :func:`~indefsvm.check_kernel`.

    Parameters
    ----------
    D : array-like of shape (n, n), optional
        Distances (e.g. :func:`indefsvm.pairwise_distances`). NaN, infinity or a non-square
        shape raise ``ValueError``; asymmetry, negative entries and a non-zero diagonal are
        reported (the verdict is then "not a distance matrix") and the other figures are
        computed on ``(D + D') / 2``.
    y : array-like of shape (n,), optional
        Labels: the class-mean squared distance (per pair of classes for more than two).
    X : collection of objects, optional
        Instead of ``D``, for ``n`` beyond a dense matrix: the objects themselves, with
        ``metric``. Only the distances among ``n_landmarks`` objects drawn at random are
        computed, and every figure is read from that block: the triangle inequality on
        sampled triples of it (with the interval), Schoenberg's test (a non-Euclidean block
        proves ``D`` non-Euclidean; a Euclidean block leaves it undecided, ``euclidean`` is
        then ``None``), the negative mass with its spread over four random halves of the
        block (the error of the estimate), the gamma profile, the class means, and the
        landmarks a Nystroem model needs (``nystroem_landmarks``).
    metric : str or callable, optional
        With ``X``: a metric of :func:`~indefsvm.pairwise_distances`.
    metric_params : dict, optional
        E.g. ``{"window": 0.1}``.
    n_landmarks : int, optional
        With ``X``: the sampled objects (default ``min(n, 1000)``).
    n_jobs : int, optional
        With ``X``: threads of the distances. In every case the most threads the
        eigendecompositions' BLAS uses (``None``: its own count); fewer for small matrices
        (below 1 000 rows: one) and never more than the cores idle when the check starts.
    rtol : float, optional
        Relative zero threshold of eigenvalues (default ``n * eps``, relative to the largest
        ``|lambda|`` of the matrix whose eigenvalues are read).
    gammas : array-like, optional
        The gamma grid of the profile. Default: ``n_gammas`` points log-spaced over two
        decades either side of the median rule ``1 / median(d^2)``, which is on the grid.
    n_gammas : int, default=13
        Grid size (0: no profile). Each point is one dense eigendecomposition, O(n^3).
    negligible : float, default=0.01
        A negative mass at most this is negligible (the "slightly indefinite" bound of
        :func:`~indefsvm.check_kernel`).
    mass_thresholds : (float, float), default=(0.01, 0.10)
        Negative-mass bounds of "slightly" and "strongly" non-Euclidean, as in
        :func:`~indefsvm.check_kernel`.
    triangle_exact_max : int, default=400
        Up to this many objects every triangle inequality is checked (O(n^3)); above, a
        sample of ``n_triangle_samples`` triples with a 95 % interval.
    n_triangle_samples : int, default=200000
        Random triples checked above ``triangle_exact_max`` objects (the share comes with a 95 %
        interval).
    random_state : int, Generator or None, default=0
        Seed of the triangle sample.
    verbose : bool, default=False
        Log each phase and its time.

    Returns
    -------
    DistanceReport
        Print it; ``to_dict()`` for JSON (``euclidean``, ``triangle_violations``,
        ``negative_mass``, ``gamma_profile``, ...).

    References
    ----------
    I. J. Schoenberg (1938), Metric spaces and positive definite functions, Trans. AMS 44.
    B. Haasdonk & C. Bahlmann (2004), Learning with distance substitution kernels, DAGM.
    B. Haasdonk (2005), Feature space interpretation of SVMs with indefinite kernels, IEEE
    TPAMI 27(4), Prop. 1 and §7.3 (class means).

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import check_distances
    >>> X = np.random.default_rng(0).normal(size=(30, 3))
    >>> D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    >>> rep = check_distances(D)
    >>> rep.verdict, rep.euclidean, rep.triangle_violations
    ('Euclidean', True, 0.0)
    >>> check_distances(D + 1.0).verdict  # d(x, x) = 1
    'not a distance matrix'
    """
    seed_is_valid(random_state)  # said even where the triangles are all counted (no draw)
    _check_triangle_counts(triangle_exact_max, n_triangle_samples,
                           ("triangle_exact_max", "n_triangle_samples"))
    # said before the work, also where the distances turn out Euclidean (no verdict on the
    # negative mass reads them then)
    _check_thresholds(mass_thresholds)
    _gamma_grid(gammas, 1.0, n_gammas)
    # each phase is logged when verbose, as the estimators log (a quiet call after a
    # verbose one, whose handler stays, said nothing)
    talk = enable(verbose)
    if X is not None or metric is not None:
        if D is not None:
            raise ValueError("Give the distances D, or the objects X with metric=, not both.")
        if X is None or metric is None:
            raise ValueError("The objects X need their metric= (e.g. metric='dtw'), and a "
                             "metric needs the objects X.")
        return _check_objects(X, y, metric, metric_params, n_landmarks, n_jobs,
                              dict(rtol=rtol, gammas=gammas, n_gammas=n_gammas,
                                   negligible=negligible, mass_thresholds=mass_thresholds,
                                   n_triangle_samples=n_triangle_samples,
                                   random_state=random_state, verbose=talk))
    if D is None:
        raise ValueError("Give the distances D (or the objects X with metric=).")
    for name, value in (("n_landmarks", n_landmarks), ("metric_params", metric_params)):
        if value is not None:
            raise ValueError(f"{name} applies to the objects X with metric=; with the "
                             "distances D given there is nothing to sample or compute. Leave "
                             f"{name} out, or give X and metric= instead of D.")
    t0 = time.perf_counter()
    D = check_distance_matrix(D, "D", axioms=False)
    check_distance_scale(D, "D")
    n = D.shape[0]
    check_memory(8.0 * 4 * n * n, f"Checking {n} x {n} distances",
                 "Check a random subset of the objects.")
    if not 0 <= negligible <= 1:
        raise ParameterError(f"must be in [0, 1]; got {negligible!r}.", "negligible")
    from .._solvers._checks import matrix_defects

    # max |D| and max |D - D'| in one tiled pass (exact maxima), without two n x n temporaries
    scale, asym, _, _ = matrix_defects(D, 1)
    scale, asym = float(scale), float(asym)
    atol = SYMMETRY_RTOL * max(scale, np.finfo(float).tiny)
    diag = float(np.max(np.abs(np.diagonal(D))))
    n_negative = int(np.count_nonzero(D < 0))
    S = (D + D.T) / 2 if asym > atol else D
    share, interval, count, worst = triangle_violations(
        S, exact_max=triangle_exact_max, n_samples=n_triangle_samples,
        random_state=random_state)
    if talk:
        logger.info("check_distances: triangle inequalities (%d) in %.2f s", count,
                    time.perf_counter() - t0)
    S2 = S * S
    # -1/2 J S2 J by its row, column and grand means (O(n^2), no n x n products)
    col = S2.mean(axis=0)
    # in place, the operations in their order: S2, B and the eigenvalues' working copy at the
    # peak (the size check_memory estimates above), not two temporaries more
    B = np.subtract(S2, col[:, None])
    B -= col[None, :]
    B += col.mean()
    B *= -0.5
    sig = signature(B, rtol=rtol)
    del B
    euclidean = sig.q == 0
    if talk:
        logger.info("check_distances: Schoenberg test in %.2f s", time.perf_counter() - t0)
    gamma0 = None
    if n >= 2 and any(np.any(S[i, i + 1:] > 0) for i in range(n - 1)):
        gamma0 = median_gamma(S)
    profile = []
    for g in _gamma_grid(gammas, gamma0, n_gammas):
        E = np.multiply(-g, S2)
        mass = signature(np.exp(E, out=E), rtol=rtol).negative_mass
        profile.append((float(g), float(mass)))
        if talk:
            logger.info("check_distances: gamma %.4g, negative mass %.4g (%.2f s)", g, mass,
                        time.perf_counter() - t0)
    # the largest gamma up to which, and the smallest from which, every grid point is
    # negligible
    below = above = None
    for g, m in profile:
        if m > negligible:
            break
        below = g
    for g, m in reversed(profile):
        if m > negligible:
            break
        above = g
    cmd, pairs = None, None
    if y is not None:
        y, classes = _labels(y, n)
        if classes.shape[0] == 2:
            cmd = _class_mean_sqdist(S2, y == classes[1], y == classes[0])
        elif classes.shape[0] > 2:
            pairs = [{"classes": [plain_label(classes[a]), plain_label(classes[b])],
                      "class_mean_sqdist": _class_mean_sqdist(S2, y == classes[a],
                                                              y == classes[b])}
                     for a in range(len(classes)) for b in range(a + 1, len(classes))]
    proper = asym <= atol and diag <= atol and n_negative == 0
    if not proper:
        verdict = "not a distance matrix"
    elif euclidean:
        verdict = "Euclidean"
    else:
        verdict = indefiniteness(sig, mass_thresholds).replace("indefinite", "non-Euclidean")
    rep = DistanceReport(
        n=n, verdict=verdict, symmetric=asym <= atol, zero_diagonal=diag <= atol,
        nonnegative=n_negative == 0, max_asymmetry=asym, max_diagonal=diag,
        n_negative=n_negative, triangle_violations=share, triangle_interval=interval,
        n_triangles=count, worst_triangle=worst, euclidean=euclidean, signature=sig,
        gamma_median=gamma0, gamma_profile=profile, negligible=negligible,
        gamma_negligible_below=below, gamma_negligible_above=above, class_mean_sqdist=cmd,
        pairs=pairs)
    rep.notes = distance_notes(rep)
    if talk:
        logger.info("check_distances: done in %.2f s", time.perf_counter() - t0)
    return rep



def _sampled_triangles(D, T: int, rng, alpha: float = 0.05):
    """The share of failed triangles among all objects, from ``T`` random triples of a random
    sample of ``m`` of them, with a ``1 - alpha`` interval for both draws.

    Given the sample, the triples' error is binomial (Wilson). The choice of the objects adds
    the error of a U-statistic of order 3, which a few bad objects can dominate (failures
    often sit on a handful of outliers a small sample misses), so the interval is the wider
    of the Wilson one and Bernstein's bound for U-statistics (Hoeffding 1963, §5: the
    average over ``k = floor(m / 3)`` disjoint triples), ``|share - p| <= sqrt(2 v L / k) +
    2 L / (3 k)``, ``L = log(2 / alpha)``, with the variance ``v = u (1 - u)`` at ``u`` the
    upper Wilson bound of ``p`` from ``k`` triples. It is wide at small ``m``; it holds."""
    m = D.shape[0]
    scale = float(np.max(np.abs(D))) or 1.0
    i = rng.integers(0, m, size=T)
    j = rng.integers(0, m - 1, size=T)
    j = j + (j >= i)
    k3 = rng.integers(0, m - 2, size=T)
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    k3 = k3 + (k3 >= lo)
    k3 = k3 + (k3 >= hi)
    fails = int(np.count_nonzero((D[i, j] - D[i, k3] - D[k3, j]) > TRIANGLE_RTOL * scale))
    p = fails / T
    lo_w, hi_w = _wilson(fails, T)
    k = max(1, m // 3)
    u = _wilson(int(round(p * k)), k)[1]
    L = float(np.log(2.0 / alpha))
    t = float(np.sqrt(2.0 * u * (1.0 - u) * L / k) + 2.0 * L / (3.0 * k))
    return p, [max(0.0, min(lo_w, p - t)), min(1.0, max(hi_w, p + t))], T


def series_levels(X) -> dict:
    """The levels and scales of series (every point of every channel of a series counts):
    the standard deviation of their means across series, and the median and 10th / 90th
    percentiles of their own standard deviations -- what DTW compares besides their shapes
    (the UCR archive z-normalises each series; raw data often are not)."""
    from ..distances._objects import as_series

    S = as_series(X)
    starts, lengths = S.offsets[:-1], S.lengths
    count = lengths * S.n_channels
    total = np.add.reduceat(S.points.sum(axis=1), starts)
    squares = np.add.reduceat((S.points ** 2).sum(axis=1), starts)
    means = total / count
    stds = np.sqrt(np.maximum(squares / count - means ** 2, 0.0))
    low, median, high = np.percentile(stds, [10, 50, 90])
    return {"n": int(S.n), "level_spread": float(np.std(means)), "scale_median": float(median),
            "scale_low": float(low), "scale_high": float(high)}


def _check_objects(X, y, metric, metric_params, m, n_jobs, kw) -> DistanceReport:
    """check_distances of objects: the dense check of a random block of them, read as an
    estimate for all of them."""
    from ..distances._collection import Objects, check_metric
    from ._matfree import negative_rank

    check_metric(metric, metric_params)
    objs = Objects(X, metric, metric_params or {})
    n = len(objs)
    if m is None:
        m = min(n, 1000)
    if isinstance(m, bool) or not isinstance(m, numbers.Integral) or not 3 <= m <= n:
        raise ParameterError(f"must be a whole number from 3 to the {n} objects; got "
                             f"{m!r}.", "n_landmarks")
    if y is not None:
        y, _ = _labels(y, n)
    rng = np.random.default_rng(kw["random_state"])
    idx = np.arange(n) if m == n else np.sort(rng.choice(n, size=m, replace=False))
    # the class-mean distance needs two classes among the sampled objects
    one_class = y is not None and np.unique(y[idx]).shape[0] < 2
    t0 = time.perf_counter()
    L = objs.take(idx)
    D = objs.distances(L, None, n_jobs=n_jobs)  # each pair once
    if kw["verbose"]:
        logger.info("check_distances: %d x %d distances of the sample in %.2f s", m, m,
                    time.perf_counter() - t0)
    # triples of the sample, with their interval (never "every triple": the sample is not
    # all the objects)
    rep = check_distances(D, None if y is None or one_class else y[idx],
                          triangle_exact_max=2 if m < n else 400, **kw)
    if m < n:
        share, interval, count = _sampled_triangles(
            (D + D.T) / 2, kw["n_triangle_samples"], rng)
        rep.triangle_violations, rep.triangle_interval, rep.n_triangles = (
            share, interval, count)
    D2 = ((D + D.T) / 2) ** 2
    halves = []
    for _ in range(4 if m < n or m >= 8 else 0):
        h = np.sort(rng.choice(m, size=m // 2, replace=False))
        B = D2[np.ix_(h, h)]
        col = B.mean(axis=0)
        halves.append(float(signature(-0.5 * (B - col[:, None] - col[None, :] + col.mean()),
                                      rtol=kw["rtol"]).negative_mass))
    rep.n_sample = m if m < n else None
    rep.n = n
    rep.negative_mass_halves = halves
    if m < n and rep.euclidean:
        rep.euclidean = None  # a Euclidean sample does not make all n Euclidean
        if rep.verdict == "Euclidean":
            rep.verdict = "undecided (Euclidean on the sample)"
    if rep.gamma_median is not None:
        K = np.exp(-rep.gamma_median * D2)
        J = np.eye(m) - 1.0 / m
        lam = np.linalg.eigvalsh(J @ K @ J)
        tol = m * np.finfo(float).eps * max(float(np.abs(lam).max()), 1e-300)
        rep.nystroem_landmarks = negative_rank([(lam, np.ones_like(lam))], tol)
    rep.metric = metric if isinstance(metric, str) else getattr(metric, "__name__", "callable")
    rep.metric_params = dict(metric_params or {})
    if objects_of(metric) == "series":  # of the sampled series (the others are never packed twice)
        rep.series_levels = series_levels(X[idx] if isinstance(X, np.ndarray)
                                          else [X[i] for i in idx])
    rep.notes = distance_notes(rep)
    if one_class:
        rep.notes.insert(0, f"The {m} sampled objects hold one class only: no class-mean "
                            "distance (raise n_landmarks to sample more objects).")
    return rep
