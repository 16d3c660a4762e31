"""pairwise_distances, PairwiseDistances and DistanceKernel against plain references."""

import math
import warnings

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from test_cli_distances import _line_distances
from test_cli_explore import HUGE
from test_diagnostics import _tanh_kernel

import indefsvm as isvm
from helpers import interrupted_after, two_class_series
from indefsvm import DistanceKernel, PairwiseDistances, pairwise_distances
from indefsvm.distances import median_gamma
from indefsvm.remedies import SquareKernel

# -- references: the textbook dynamic programmes, written independently of the library ---------


def dtw_reference(a, b, window=None):
    """Full-matrix DTW: a, b are (length, channels); band |i - j| restricted as documented
    (radius floor(w * max length), widened by the length difference along the longer one)."""
    a = np.asarray(a, float).reshape(len(a), -1)
    b = np.asarray(b, float).reshape(len(b), -1)
    n, m = len(a), len(b)
    r = max(n, m) if window is None else math.floor(window * max(n, m) + 1e-9)
    D = np.full((n + 1, m + 1), np.inf)
    D[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            # the longer series may run ahead of the shorter by its extra length
            if n >= m:
                ok = (j - 1) - r <= (i - 1) <= (j - 1) + (n - m) + r
            else:
                ok = (i - 1) - r <= (j - 1) <= (i - 1) + (m - n) + r
            if not ok:
                continue
            cost = float(np.sum((a[i - 1] - b[j - 1]) ** 2))
            D[i, j] = cost + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1])
    return math.sqrt(D[n, m])


def levenshtein_reference(s, t):
    prev = list(range(len(t) + 1))
    for i, cs in enumerate(s, 1):
        cur = [i]
        for j, ct in enumerate(t, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (cs != ct)))
        prev = cur
    return prev[-1]


# -- DTW ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("window", [None, 0.0, 0.05, 0.1, 0.3, 1.0])
def test_dtw_equal_lengths_matches_reference(window):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(7, 23)).cumsum(axis=1)
    D = pairwise_distances(X, metric="dtw", window=window)
    for i in range(7):
        for j in range(7):
            assert D[i, j] == pytest.approx(dtw_reference(X[i], X[j], window), rel=1e-10,
                                            abs=1e-10)


def test_dtw_window_zero_is_euclidean():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(6, 40))
    Y = rng.normal(size=(4, 40))
    D = pairwise_distances(X, Y, metric="dtw", window=0)
    E = np.sqrt(((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1))
    np.testing.assert_allclose(D, E, rtol=1e-12, atol=1e-12)
    # and the Euclidean metric of the library agrees
    np.testing.assert_allclose(pairwise_distances(X, Y, metric="euclidean"), E, rtol=1e-12)


@pytest.mark.parametrize("window", [None, 0.0, 0.1, 0.25])
def test_dtw_unequal_lengths_matches_reference(window):
    rng = np.random.default_rng(2)
    X = [rng.normal(size=L).cumsum() for L in (5, 17, 9, 30, 1, 12)]
    D = pairwise_distances(X, metric="dtw", window=window)
    for i in range(len(X)):
        for j in range(len(X)):
            assert D[i, j] == pytest.approx(dtw_reference(X[i], X[j], window), rel=1e-10,
                                            abs=1e-10)
    np.testing.assert_array_equal(D, D.T)


@pytest.mark.parametrize("window", [None, 0.2])
def test_dtw_multivariate_dependent_matches_reference(window):
    rng = np.random.default_rng(3)
    # aeon's layout: (n_series, n_channels, n_timepoints)
    X = rng.normal(size=(5, 3, 14))
    Y = [rng.normal(size=(3, L)) for L in (9, 14, 20)]
    D = pairwise_distances(X, Y, metric="dtw", window=window)
    for i in range(5):
        for j in range(3):
            assert D[i, j] == pytest.approx(dtw_reference(X[i].T, Y[j].T, window),
                                            rel=1e-10, abs=1e-10)


def test_dtw_warping_finds_the_shifted_copy():
    s = np.sin(np.linspace(0, 6, 60))
    a = np.concatenate([s, [s[-1]] * 5])  # the same curve, held at the end ...
    b = np.concatenate([[s[0]] * 5, s])  # ... or delayed by five steps
    D = pairwise_distances([a, b], metric="dtw")
    E = pairwise_distances([a, b], metric="dtw", window=0)
    assert D[0, 1] < 1e-12 < E[0, 1]


def test_dtw_properties_symmetric_zero_diagonal_nonnegative():
    rng = np.random.default_rng(4)
    X = [rng.normal(size=rng.integers(1, 30)) for _ in range(15)]
    D = pairwise_distances(X, metric="dtw", window=0.2)
    np.testing.assert_array_equal(D, D.T)
    np.testing.assert_array_equal(np.diag(D), 0.0)
    assert D.min() >= 0
    # Y = X computes both orders: the same numbers
    np.testing.assert_allclose(pairwise_distances(X, X, metric="dtw", window=0.2), D,
                               rtol=1e-13, atol=1e-13)


def test_dtw_threads_give_identical_values():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(30, 50))
    np.testing.assert_array_equal(pairwise_distances(X, metric="dtw", n_jobs=1),
                                  pairwise_distances(X, metric="dtw", n_jobs=2))


def _series(rng, lengths, channels):
    return [rng.normal(size=(channels, n)).cumsum(axis=1) if channels > 1
            else rng.normal(size=n).cumsum() for n in lengths]


@pytest.mark.parametrize("channels", [1, 3])
@pytest.mark.parametrize("window", [None, 0.0, 0.1, 0.5])
def test_dtw_lanes_give_the_one_pair_loops_bits(monkeypatch, channels, window):
    # pairs run eight or four at a time where one series meets eight or four of one length
    # (AVX2); runs of equal lengths of every size, and lengths above and below the shared
    # series' (the band swept along either), so groups of eight, of four and single pairs
    # all occur, in the rows of A against B and in the triangle of A against itself
    from indefsvm.distances import _dtw

    rng = np.random.default_rng(7)
    A = _series(rng, [30, 24, 41, 30, 30], channels)
    B = _series(rng, [30] * 9 + [24] * 4 + [30, 41, 30] + [41] * 5 + [17] * 8, channels)
    same = _series(rng, [30] * 12 + [24] * 5 + [41] * 6, channels)
    lanes = (pairwise_distances(A, B, metric="dtw", window=window, n_jobs=2),
             pairwise_distances(same, metric="dtw", window=window, n_jobs=2))
    monkeypatch.setattr(_dtw, "LANES", False)
    alone = (pairwise_distances(A, B, metric="dtw", window=window, n_jobs=1),
             pairwise_distances(same, metric="dtw", window=window, n_jobs=1))
    np.testing.assert_array_equal(lanes[0], alone[0])
    np.testing.assert_array_equal(lanes[1], alone[1])
    # and the textbook programme, on pairs of each kind (a lane group's first and last,
    # a series shorter and longer than the shared one)
    def points(s):
        return np.asarray(s, float).reshape(channels, -1).T

    for i, j in [(0, 0), (0, 7), (2, 12), (1, 20), (4, 28), (3, 16)]:
        assert lanes[0][i, j] == pytest.approx(dtw_reference(points(A[i]), points(B[j]),
                                                             window), rel=1e-12, abs=1e-12)


def test_dtw_lanes_on_random_lengths_visit_series_by_length(monkeypatch):
    # random objects (D2KE) and unequal-length sets: the series of B are visited by length so
    # that those of one length share lanes; the values land in their own rows and columns,
    # and with A against itself the matrix stays symmetric with a zero diagonal
    from indefsvm.distances import _dtw

    rng = np.random.default_rng(11)
    A = _series(rng, rng.integers(15, 40, size=6), 1)
    B = _series(rng, rng.integers(20, 27, size=45), 1)
    same = _series(rng, rng.integers(20, 24, size=31), 2)
    lanes = (pairwise_distances(A, B, metric="dtw", window=0.2, n_jobs=2),
             pairwise_distances(same, metric="dtw", window=0.2, n_jobs=2))
    monkeypatch.setattr(_dtw, "LANES", False)
    alone = (pairwise_distances(A, B, metric="dtw", window=0.2, n_jobs=1),
             pairwise_distances(same, metric="dtw", window=0.2, n_jobs=1))
    np.testing.assert_array_equal(lanes[0], alone[0])
    np.testing.assert_array_equal(lanes[1], alone[1])
    np.testing.assert_array_equal(lanes[1], lanes[1].T)
    assert np.all(np.diag(lanes[1]) == 0.0)
    for i, j in [(0, 44), (5, 3), (2, 17)]:
        assert lanes[0][i, j] == pytest.approx(dtw_reference(A[i], B[j], 0.2), rel=1e-12)


def test_dtw_ctrl_c_inside_a_group_of_lanes_stops_the_call():
    # one series against eight of 40 000 points without a band: one group of eight pairs,
    # 1.3e10 cells (seconds at any speed this loop has), and one round, so Ctrl-C must be
    # seen inside the group (every ~1.6e7 cells), not after it
    rng = np.random.default_rng(0)
    x = rng.normal(size=(1, 40_000))
    Y = rng.normal(size=(8, 40_000))
    sent, took = interrupted_after(lambda: pairwise_distances(x, Y, metric="dtw", n_jobs=1),
                                   0.2)
    assert sent and took < 2.0


# -- Levenshtein -------------------------------------------------------------------------------


def test_levenshtein_matches_reference_dp_unicode():
    words = ["", "a", "kitten", "sitting", "Straße", "strasse", "日本語", "日本", "naïve",
             "naive", "🙂🙃", "🙂"]
    D = pairwise_distances(words, metric="levenshtein")
    for i, s in enumerate(words):
        for j, t in enumerate(words):
            assert D[i, j] == levenshtein_reference(s, t)


def test_levenshtein_random_strings_and_cross():
    rng = np.random.default_rng(6)
    A = ["".join(rng.choice(list("ACGT"), size=rng.integers(0, 25))) for _ in range(20)]
    B = ["".join(rng.choice(list("ACGTN"), size=rng.integers(1, 25))) for _ in range(7)]
    D = pairwise_distances(A, B, metric="levenshtein", n_jobs=2)
    ref = np.array([[levenshtein_reference(a, b) for b in B] for a in A])
    np.testing.assert_array_equal(D, ref)


def test_levenshtein_is_a_metric():
    rng = np.random.default_rng(7)
    A = ["".join(rng.choice(list("abc"), size=rng.integers(0, 8))) for _ in range(25)]
    D = pairwise_distances(A, metric="levenshtein")
    n = len(A)
    viol = D[:, None, :] > D[:, :, None] + D[None, :, :]  # d(i,k) > d(i,j) + d(j,k)
    assert not viol.any()
    np.testing.assert_array_equal(D, D.T)
    same = np.array([[a == b for b in A] for a in A])
    np.testing.assert_array_equal(D == 0, same)
    assert n == 25


# -- other metrics and callables ---------------------------------------------------------------


def test_cityblock_and_callable():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(5, 4))
    np.testing.assert_allclose(pairwise_distances(X, metric="cityblock"),
                               np.abs(X[:, None] - X[None]).sum(-1), rtol=1e-12)

    def hamming(a, b, scale=1.0):
        return scale * sum(x != y for x, y in zip(a, b, strict=True))

    words = ["abc", "abd", "xbd"]
    D = pairwise_distances(words, metric=hamming, scale=2.0)
    np.testing.assert_array_equal(D, [[0, 2, 4], [2, 0, 2], [4, 2, 0]])
    # processes give the same numbers
    np.testing.assert_array_equal(pairwise_distances(words, metric=hamming, scale=2.0,
                                                     n_jobs=2), D)


@pytest.mark.parametrize("call, match", [
    (lambda: pairwise_distances([[1.0, 2.0]], metric="levenshtein"), "levenshtein"),
    (lambda: pairwise_distances(np.ones((3, 4)), metric="levenshtein"), "holds numbers"),
    (lambda: pairwise_distances(["ab", "cd"], metric="dtw"), "holds strings"),
    (lambda: pairwise_distances(["ab", 3], metric="levenshtein"), r"X\[1\] is a number"),
    (lambda: pairwise_distances("abc", metric="levenshtein"), "one string"),
    (lambda: pairwise_distances(np.array([[1.0, np.nan]]), metric="dtw"), "NaN"),
    (lambda: pairwise_distances([np.ones(3), np.array([1.0, np.inf])]), r"X\[1\].*NaN"),
    (lambda: pairwise_distances(np.ones(5), metric="dtw"), "one series"),
    (lambda: pairwise_distances([np.ones((2, 3)), np.ones((3, 3))]), "channels"),
    (lambda: pairwise_distances([np.ones(3), np.ones(0)]), "empty"),
    (lambda: pairwise_distances(np.ones((2, 3)), metric="dtw", window=2), "window"),
    (lambda: pairwise_distances(np.ones((2, 3)), metric="dtw", window=-0.1), "window"),
    (lambda: pairwise_distances(np.ones((2, 3)), metric="dtw", radius=3), "unknown parameter"),
    (lambda: pairwise_distances(np.ones((2, 3)), metric="hamming"), "Unknown metric"),
    (lambda: pairwise_distances([np.ones(3), np.ones(4)], metric="euclidean"), "use metric='dtw'"),
    (lambda: pairwise_distances(["a"], metric="levenshtein", weights=(1, 1)), "weights"),
    (lambda: pairwise_distances(np.ones((2, 3)), np.ones((2, 4)), metric="euclidean"), "Y has 4"),
    (lambda: pairwise_distances(np.ones((2, 3)), np.ones((2, 2, 3)), metric="dtw"), "channels"),
    (lambda: pairwise_distances([1, 2], metric=lambda a, b: -1.0), "finite number >= 0"),
    (lambda: pairwise_distances(np.ones((2, 3)), metric="dtw", n_jobs=0), "n_jobs"),
])
def test_bad_inputs_are_named(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_nan_padding_of_an_array_is_named_with_the_list_dtw_reads():
    # UCR's layout of unequal lengths (NaN after a shorter series' end): the error gives the
    # list, and the list gives the distances of the shorter series
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 12))
    X[1, 8:] = np.nan
    X[4, 10:] = np.nan
    with pytest.raises(ValueError, match=r"NaN at the end of 2 series.*\[x\[~np.isnan\(x\)\]"):
        pairwise_distances(X, metric="dtw")
    D = pairwise_distances([x[~np.isnan(x)] for x in X], metric="dtw")
    assert D[0, 1] == pairwise_distances([X[0], X[1, :8]], metric="dtw")[0, 1]
    X3 = rng.normal(size=(3, 2, 9))
    X3[2, :, 6:] = np.nan
    with pytest.raises(ValueError, match=r"end of 1 series.*any\(axis=0\)"):
        pairwise_distances(X3, metric="dtw")
    # a gap inside a series, or at its start, is no padding: the plain refusal
    for where in (np.s_[0, 3], np.s_[0, 0]):
        Y = X.copy()
        Y[where] = np.nan
        with pytest.raises(ValueError, match="contains NaN or infinity") as info:
            pairwise_distances(Y, metric="dtw")
        assert "padding" not in str(info.value)


def test_dtw_keyboard_interrupt_between_rounds_propagates(monkeypatch):
    # the progress callback runs between rounds, where Ctrl-C is checked: a KeyboardInterrupt
    # raised there must end the call (the compiled loop does not swallow it)
    from indefsvm.distances import _pairwise

    calls = []

    class Stop:
        def __init__(self, *a):
            pass

        def __call__(self, done, total):
            calls.append(done)
            raise KeyboardInterrupt

    monkeypatch.setattr(_pairwise, "_Progress", Stop)
    X = np.random.default_rng(0).normal(size=(4, 10))
    with pytest.raises(KeyboardInterrupt):
        pairwise_distances(X, metric="dtw")
    assert calls


# -- PairwiseDistances -------------------------------------------------------------------------


def test_pairwise_distances_transformer_train_and_test_rows():
    rng = np.random.default_rng(9)
    Xtr = [rng.normal(size=L) for L in (10, 12, 15, 9)]
    Xte = [rng.normal(size=L) for L in (11, 8)]
    pdist = PairwiseDistances("dtw", window=0.3)
    Dtr = pdist.fit_transform(Xtr)
    np.testing.assert_allclose(Dtr, pairwise_distances(Xtr, metric="dtw", window=0.3))
    np.testing.assert_allclose(pdist.transform(Xtr), Dtr, rtol=1e-13, atol=1e-13)
    Dte = pdist.transform(Xte)
    assert Dte.shape == (2, 4)
    assert Dte[1, 2] == pytest.approx(dtw_reference(Xte[1], Xtr[2], 0.3), rel=1e-10)
    with pytest.raises(ValueError, match="window is a parameter of metric='dtw'"):
        PairwiseDistances("levenshtein", window=0.1).fit(["a", "b"])


# -- DistanceKernel ----------------------------------------------------------------------------


def _euclid(X, Y=None):
    Y = X if Y is None else Y
    return np.sqrt(np.maximum(((X[:, None] - Y[None]) ** 2).sum(-1), 0))


def test_distance_kernel_forms_against_definitions():
    rng = np.random.default_rng(10)
    X, Z = rng.normal(size=(12, 3)), rng.normal(size=(5, 3))
    D, Dz = _euclid(X), _euclid(Z, X)
    iu = np.triu_indices(12, 1)
    g = 1 / np.median(D[iu] ** 2)
    rbf = DistanceKernel().fit(D)
    assert rbf.gamma_ == pytest.approx(g)
    np.testing.assert_allclose(rbf.transform(Dz), np.exp(-g * Dz**2))
    lap = DistanceKernel("laplacian").fit(D)
    assert lap.gamma_ == pytest.approx(1 / np.median(D[iu]))
    np.testing.assert_allclose(lap.transform(Dz), np.exp(-lap.gamma_ * Dz))
    # linear, origin = barycentre: the centred inner products of the points
    mu = X.mean(axis=0)
    lin = DistanceKernel("linear").fit(D)
    np.testing.assert_allclose(lin.transform(D), (X - mu) @ (X - mu).T, atol=1e-12)
    np.testing.assert_allclose(lin.transform(Dz), (Z - mu) @ (X - mu).T, atol=1e-12)
    # linear, origin = training object 3
    lin3 = DistanceKernel("linear", origin=3).fit(D)
    np.testing.assert_allclose(lin3.transform(Dz), (Z - X[3]) @ (X - X[3]).T, atol=1e-12)
    poly = DistanceKernel("polynomial", gamma=0.5, coef0=2.0, degree=2).fit(D)
    np.testing.assert_allclose(poly.transform(Dz), (2.0 + 0.5 * (Z - mu) @ (X - mu).T) ** 2,
                               atol=1e-10)


def test_distance_kernel_consistent_on_train_and_test_rows():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(15, 2))
    D = _euclid(X)
    for kind in ("rbf", "laplacian", "linear", "polynomial"):
        dk = DistanceKernel(kind)
        K = dk.fit_transform(D)
        np.testing.assert_allclose(dk.transform(D[4:9]), K[4:9], rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(K, K.T, atol=1e-12)


def test_median_gamma_skips_duplicates_and_refuses_all_zero():
    D = np.zeros((4, 4))
    D[0, 1] = D[1, 0] = 2.0
    assert median_gamma(D) == pytest.approx(1 / 4.0)
    with pytest.raises(ValueError, match="every training distance is 0"):
        median_gamma(np.zeros((3, 3)))


@pytest.mark.parametrize("args, match", [
    ((np.ones((3, 4)),), r"square \(n, n\) matrix .* got shape \(3, 4\)"),
    (([[0.0, 1.0], [1.0, 0.0]],), "got list"),
    ((np.array([[0.0, np.nan], [np.nan, 0.0]]),), "NaN or infinite"),
    ((np.eye(3), "gaussian"), "kind must be one of"),
])
def test_median_gamma_names_what_it_cannot_read(args, match):
    # (a rectangle was "could not broadcast input array from shape (3,) into shape (2,)",
    # NaN distances gave gamma NaN)
    with pytest.raises(ValueError, match=match):
        median_gamma(*args)


@pytest.mark.parametrize("est, D, match", [
    (DistanceKernel(), np.array([[0.0, 1.0], [2.0, 0.0]]), "not symmetric"),
    (DistanceKernel(), np.array([[0.0, -1.0], [-1.0, 0.0]]), "Negative values"),
    (DistanceKernel(), np.array([[0.0, np.nan], [np.nan, 0.0]]), "NaN"),
    (DistanceKernel(), np.ones((2, 3)), "square"),
    (DistanceKernel(kind="gauss"), np.zeros((2, 2)), "The 'kind' parameter of DistanceKernel"),
    (DistanceKernel(gamma=-1.0), np.ones((2, 2)) - np.eye(2),
     "The 'gamma' parameter of DistanceKernel must be"),
    (DistanceKernel("linear", gamma=1.0), np.ones((2, 2)) - np.eye(2), "does not apply"),
    (DistanceKernel("polynomial", degree=0), np.ones((2, 2)) - np.eye(2), "degree"),
    (DistanceKernel("linear", origin=5), np.ones((2, 2)) - np.eye(2), "origin=5"),
])
def test_distance_kernel_bad_inputs(est, D, match):
    with pytest.raises(ValueError, match=match):
        est.fit(D)


def test_distance_kernel_test_rows_wrong_width():
    dk = DistanceKernel().fit(np.ones((3, 3)) - np.eye(3))
    with pytest.raises(ValueError, match="is expecting 3 features as input. DistanceKernel"):
        dk.transform(np.ones((2, 4)))
    with pytest.raises(ValueError, match="Negative values"):
        dk.transform(-np.ones((2, 3)))


# -- pipelines and grid search: raw series and precomputed distances ---------------------------


def test_pipeline_on_raw_series_and_grid_search_over_gamma():
    X, y = two_class_series()
    pipe = make_pipeline(PairwiseDistances("dtw", window=0.2), DistanceKernel(),
                         isvm.IndefiniteSVC(kernel="precomputed"))
    pipe.fit(X[:30], y[:30])
    assert pipe.score(X[30:], y[30:]) >= 0.9
    grid = GridSearchCV(pipe, {"distancekernel__gamma": [0.1, 1.0, 10.0],
                               "indefinitesvc__C": [1.0, 10.0]}, cv=3)
    grid.fit(X, y)
    assert grid.best_score_ >= 0.9
    assert set(grid.best_params_) == {"distancekernel__gamma", "indefinitesvc__C"}


def test_grid_search_on_precomputed_distances_slices_both_axes():
    X, y = two_class_series(seed=1)
    D = pairwise_distances(X, metric="dtw", window=0.2)
    pipe = make_pipeline(DistanceKernel(), isvm.IndefiniteSVC(kernel="precomputed"))
    grid = GridSearchCV(pipe, {"distancekernel__gamma": ["median", 0.5, 5.0]}, cv=3)
    grid.fit(D, y)
    # the same as the raw-series pipeline on the same folds: slicing D = computing D of the rows
    raw = make_pipeline(PairwiseDistances("dtw", window=0.2), DistanceKernel(),
                        isvm.IndefiniteSVC(kernel="precomputed"))
    graw = GridSearchCV(raw, {"distancekernel__gamma": ["median", 0.5, 5.0]}, cv=3)
    graw.fit(X, y)
    np.testing.assert_allclose(grid.cv_results_["mean_test_score"],
                               graw.cv_results_["mean_test_score"])
    s = cross_val_score(pipe, D, y, cv=3)
    assert s.shape == (3,)


def test_strings_pipeline():
    rng = np.random.default_rng(12)
    motifs = ["GATTACA", "TTAGGCC"]
    X, y = [], []
    for i in range(40):
        c = i % 2
        s = list(rng.choice(list("ACGT"), size=6)) + list(motifs[c]) + list(
            rng.choice(list("ACGT"), size=6))
        for _ in range(2):  # point mutations
            s[rng.integers(len(s))] = rng.choice(list("ACGT"))
        X.append("".join(s))
        y.append(c)
    y = np.array(y)
    pipe = make_pipeline(PairwiseDistances("levenshtein"), DistanceKernel(),
                         isvm.IndefiniteSVC(kernel="precomputed", C=10))
    assert cross_val_score(pipe, X, y, cv=4).mean() >= 0.8


# -- the warning for a distance matrix given as a kernel ---------------------------------------


def _distance_matrix():
    X = np.random.default_rng(13).normal(size=(20, 2))
    return _euclid(X), (X[:, 0] > 0).astype(int)


@pytest.mark.parametrize("make", [
    lambda D, y: isvm.IndefiniteSVC(kernel="precomputed").fit(D, y),
    lambda D, y: isvm.check_kernel(D, y),
    lambda D, y: isvm.KreinSVC(kernel="precomputed").fit(D, y),
    lambda D, y: isvm.remedies.ClipEigenvalues().fit(D),
    lambda D, y: isvm.KernelLogisticRegression(kernel="precomputed").fit(D, y),
    lambda D, y: isvm.compare_remedies(D, y, cv=2),
])
def test_distance_matrix_as_kernel_warns_at_the_callers_line(make):
    D, y = _distance_matrix()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make(D, y)
    hits = [w for w in caught if issubclass(w.category, isvm.DistanceMatrixWarning)]
    assert hits, [str(w.message) for w in caught]
    assert "DistanceKernel().fit_transform(D)" in str(hits[0].message)
    assert hits[0].filename == __file__


def test_no_warning_for_kernels():
    D, y = _distance_matrix()
    K = DistanceKernel().fit_transform(D)
    with warnings.catch_warnings():
        warnings.simplefilter("error", isvm.DistanceMatrixWarning)
        isvm.IndefiniteSVC(kernel="precomputed").fit(K, y)
        isvm.check_kernel(K, y)
        # a kernel with a zero diagonal but a negative entry is not taken for distances
        isvm.check_kernel(np.array([[0.0, -1.0], [-1.0, 0.0]]))


@pytest.mark.parametrize("params, said", [
    ({"sakoe_chiba_radius": 3}, "tslearn's sakoe_chiba_radius counts points: here the band "
                                "is window=radius / the series length"),
    ({"global_constraint": "sakoe_chiba"}, "always Sakoe-Chiba's"),
    ({"radius": 3}, "window=radius / the series length"),
    ({"band": 0.1}, "The Sakoe-Chiba band is window here"),
])
def test_other_libraries_names_of_the_band_are_named(params, said):
    # a tslearn user's band, refused with what it is here (before: "takes window; got
    # unknown parameter(s)" and no more)
    S = np.random.default_rng(0).normal(size=(4, 12))
    with pytest.raises(ValueError, match="takes window; got unknown parameter") as info:
        isvm.pairwise_distances(S, metric="dtw", **params)
    assert said in str(info.value)
    with pytest.raises(ValueError, match="got unknown parameter") as info:
        isvm.pairwise_distances(["ab", "cd"], metric="levenshtein", **params)
    assert "window" not in str(info.value).split(";", 1)[1]  # no band for strings


def test_distance_kernel_degree_and_origin_bounds():
    """``not 1 <= self.degree <= 64``, ``self.origin >= n``, the origin's type test."""
    D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.5], [2.0, 1.5, 0.0]])
    for deg in (1, 64):
        isvm.DistanceKernel("polynomial", degree=deg, gamma=0.01).fit(D)
    for deg in (0, 65):
        with pytest.raises(ValueError, match="The 'degree' parameter of DistanceKernel"):
            isvm.DistanceKernel("polynomial", degree=deg).fit(D)
    isvm.DistanceKernel("linear", origin=2).fit(D)
    with pytest.raises(ValueError, match="not the index of a training object"):
        isvm.DistanceKernel("linear", origin=3).fit(D)
    for bad in (1.0, -1, "first"):
        with pytest.raises(ValueError, match="The 'origin' parameter of DistanceKernel"):
            isvm.DistanceKernel("linear", origin=bad).fit(D)
    with pytest.raises(ValueError, match="origin must be a number, not True"):
        isvm.DistanceKernel("linear", origin=True).fit(D)


def test_three_dimensional_arrays_are_flattened_series():
    """``A = A.reshape(A.shape[0], -1)``: (n, T, d) series for a lock-step metric."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 7, 2))
    D = isvm.pairwise_distances(X, metric="euclidean")
    flat = X.reshape(5, -1)
    ref = np.sqrt(((flat[:, None, :] - flat[None, :, :]) ** 2).sum(-1))
    np.testing.assert_allclose(D, ref, rtol=1e-12, atol=1e-12)


def test_distance_kernel_gamma_strings():
    """``isinstance(self.gamma, str) and self.gamma == "median"``: another string is refused."""
    D = np.array([[0.0, 1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match="The 'gamma' parameter of DistanceKernel must be a "
                       "str among {'median'}"):
        isvm.DistanceKernel(gamma="scale").fit(D)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0)])
def test_empty_vectors_are_refused(shape):
    """``A.ndim != 2 or A.shape[0] == 0 or A.shape[1] == 0``."""
    with pytest.raises(ValueError, match="non-empty"):
        isvm.pairwise_distances(np.zeros(shape), metric="euclidean")


def test_median_rule_with_a_few_duplicates_and_small_distances():
    """``if med <= 0``: a median below 1 is used as it is; only a zero median (duplicates
    the majority) falls back to the positive distances."""
    D = np.array([[0.0, 0.0, 0.5, 0.6],
                  [0.0, 0.0, 0.5, 0.6],
                  [0.5, 0.5, 0.0, 0.7],
                  [0.6, 0.6, 0.7, 0.0]])
    from indefsvm.distances import median_gamma

    iu = np.triu_indices(4, 1)
    assert median_gamma(D) == pytest.approx(1 / np.median(D[iu] ** 2))


@pytest.mark.parametrize("weights", [(1, True, 1), (1, 1.5, 1), (1, 1)])
def test_levenshtein_weights_each_condition(weights):
    """``len(w) != 3 or not all(integral and not bool ...)``."""
    with pytest.raises(ValueError, match="weights"):
        isvm.pairwise_distances(["ab", "abc"], metric="levenshtein", weights=weights)


def test_object_arrays_of_strings_are_strings():
    """``X.dtype == object and X.size > 0 and isinstance(X.flat[0], str)``."""
    with pytest.raises(ValueError, match="holds strings"):
        isvm.pairwise_distances(np.array(["ab", "cd"], dtype=object), metric="dtw")


def test_pairwise_distances_asks_memory_for_the_matrix(monkeypatch):
    """``n_x = len(X) if ... and not isinstance(X, str)``: the memory check sees n_x x n_y."""
    from indefsvm.distances import _pairwise

    asked = []
    monkeypatch.setattr(_pairwise, "check_memory", lambda b, *a: asked.append(b))
    isvm.pairwise_distances(np.zeros((4, 2)), np.zeros((3, 2)), metric="euclidean")
    assert asked == [8.0 * 4 * 3]


def test_distance_progress_ends_at_the_total(caplog):
    """``done = 0`` and ``progress(r1 * len(B), ...)``: with verbose the last line says
    all pairs are done; without, nothing is logged (``verbose=False`` by default)."""
    import logging

    def l1(a, b):
        return float(np.abs(np.asarray(a) - np.asarray(b)).sum())

    X = np.array([[0.0], [1.0], [3.0]])
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        isvm.pairwise_distances(X, metric=l1)
        isvm.pairwise_distances(["ab", "abc", "b"], metric="levenshtein")
        assert not caplog.records
        isvm.pairwise_distances(X, metric=l1, verbose=True)
        isvm.pairwise_distances(["ab", "abc", "b"], metric="levenshtein", verbose=True)
    msgs = [r.getMessage() for r in caplog.records]
    assert any(m.startswith("l1 distances: 9 of 9 pairs") for m in msgs), msgs
    assert any(m.startswith("levenshtein distances: 9 of 9 pairs") for m in msgs), msgs


def test_object_arrays_of_objects_take_the_list_path():
    """``X.dtype != object``: a 1-D object array of arrays is a list of objects (series of
    different lengths for DTW, vectors for the lock-step metrics)."""
    S = np.empty(2, dtype=object)
    S[0], S[1] = np.zeros(3), np.ones(5)
    D = isvm.pairwise_distances(S, metric="dtw")
    assert D.shape == (2, 2) and D[0, 1] > 0
    V = np.empty(2, dtype=object)
    V[0], V[1] = np.zeros(3), np.ones(3)
    np.testing.assert_allclose(isvm.pairwise_distances(V, metric="euclidean")[0, 1],
                               np.sqrt(3))


def test_euclidean_distances_that_overflow_are_refused():
    # scipy's cdist returned inf without a word; NystroemSVC then said "Input X contains
    # infinity", of an X that holds none
    with pytest.raises(ValueError, match=r"the euclidean distances overflow float64 on "
                                         r"values up to 1\.3e\+160; scale the vectors"):
        isvm.pairwise_distances(HUGE, metric="euclidean")
    with pytest.raises(ValueError, match="the cityblock distances overflow"):
        isvm.pairwise_distances(HUGE * 1e148, metric="cityblock")
    assert np.all(np.isfinite(isvm.pairwise_distances(HUGE, metric="cityblock")))


def test_a_dtw_window_in_points_is_told_the_share():
    # tslearn's sakoe_chiba_radius counts points: window=3 was refused without saying so
    with pytest.raises(ValueError, match=r"got 3\. A band of 3 points is window=3 / the "
                                         r"series length \(tslearn's sakoe_chiba_radius"):
        isvm.pairwise_distances(np.zeros((3, 10)), metric="dtw", window=3)


def test_distances_and_the_square_kernel_refuse_values_whose_squares_underflow():
    # DTW and euclidean distances of values near 1e-200 came out 0 (near 1e-160: a relative
    # error of 3e-5 to 5e-5), and SquareKernel of a kernel near 1e-170 was 0 -- each without
    # a word, where their overflows were refused. cityblock squares nothing: it is exact.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(6, 3))
    series = [rng.normal(size=9) for _ in range(4)]
    with pytest.raises(ValueError, match=r"^X has values of at most 1\.96e-160: DTW's squared "
                                         r"differences underflow float64"):
        isvm.pairwise_distances([s * 1e-160 for s in series])
    with pytest.raises(ValueError, match=r"^the euclidean distances underflow float64"):
        isvm.pairwise_distances(X * 1e-200, metric="euclidean")
    D = isvm.pairwise_distances(X * 1e-200, metric="cityblock")
    np.testing.assert_allclose(D / 1e-200, isvm.pairwise_distances(X, metric="cityblock"),
                               rtol=1e-12)
    # one step inside: DTW of series near 1e-140 is that of the series, times 1e-140
    np.testing.assert_allclose(isvm.pairwise_distances([s * 1e-140 for s in series]) / 1e-140,
                               isvm.pairwise_distances(series), rtol=1e-12)
    np.testing.assert_array_equal(isvm.pairwise_distances([np.zeros(3), np.zeros(4)]),
                                  np.zeros((2, 2)))  # all zero: exact, not refused
    K, _ = _tanh_kernel(10)
    with pytest.raises(ValueError, match=r"^SquareKernel: K K would underflow"):
        SquareKernel().fit_transform(K * 1e-170)
    np.testing.assert_allclose(SquareKernel().fit_transform(K * 1e-140) / 1e-280,
                               SquareKernel().fit_transform(K), rtol=1e-12)


def _dtw_dp(a, b):
    n, m = len(a), len(b)
    C = np.full((n + 1, m + 1), np.inf)
    C[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            C[i, j] = (a[i - 1] - b[j - 1]) ** 2 + min(C[i - 1, j], C[i, j - 1],
                                                         C[i - 1, j - 1])
    return np.sqrt(C[n, m])


def test_edit_weights_that_make_an_asymmetric_distance_are_refused():
    with pytest.raises(ValueError, match="insertion and deletion must cost the same"):
        isvm.pairwise_distances(["ab", "abcd"], metric="levenshtein", weights=(2, 1, 1))
    with pytest.raises(ValueError, match="insertion and deletion must cost the same"):
        isvm.PairwiseDistances("levenshtein", metric_params={"weights": (1, 3, 1)}).fit(
            ["ab", "abcd"])


@pytest.mark.parametrize("big", [2**62, 2**70])
def test_edit_weights_too_large_for_64_bit_distances_are_refused(big):
    with pytest.raises(ValueError, match="at most 2\\*\\*31 - 1"):
        isvm.pairwise_distances(["ab", "abcd"], metric="levenshtein", weights=(big, big, 1))


def test_equal_insertion_and_deletion_weights_give_the_plain_dynamic_programme():
    def dp(a, b, ins, sub):
        d = np.zeros((len(a) + 1, len(b) + 1))
        d[:, 0] = np.arange(len(a) + 1) * ins
        d[0, :] = np.arange(len(b) + 1) * ins
        for i in range(1, len(a) + 1):
            for j in range(1, len(b) + 1):
                d[i, j] = min(d[i - 1, j] + ins, d[i, j - 1] + ins,
                              d[i - 1, j - 1] + (a[i - 1] != b[j - 1]) * sub)
        return d[-1, -1]

    words = ["ab", "abcd", "bcd", "xbcy", ""]
    D = isvm.pairwise_distances(words, metric="levenshtein", weights=(2, 2, 3))
    ref = np.array([[dp(a, b, 2, 3) for b in words] for a in words])
    np.testing.assert_array_equal(D, ref)
    np.testing.assert_array_equal(D, D.T)


@pytest.mark.parametrize("scale", [1e160, 1e-170])
@pytest.mark.parametrize("make", [lambda D: isvm.DistanceKernel().fit(D),
                                  lambda D: isvm.DistanceKernel("linear").fit_transform(D),
                                  lambda D: isvm.diagnostics.check_distances(D)])
def test_distances_whose_squares_leave_float64_are_refused_with_the_fix(scale, make):
    with pytest.raises(ValueError, match="(Divide|Multiply) the distances by a constant"):
        make(_line_distances() * scale)


@pytest.mark.parametrize("scale", [1e140, 1e-140])
def test_the_median_rule_kernel_is_the_same_at_any_representable_scale(scale):
    D = _line_distances()
    np.testing.assert_allclose(isvm.DistanceKernel().fit_transform(D * scale),
                               isvm.DistanceKernel().fit_transform(D), rtol=1e-12)


def test_dtw_of_huge_values_or_of_numbers_written_as_text_is_refused():
    with pytest.raises(ValueError, match="squared differences overflow"):
        isvm.pairwise_distances([np.array([1e155, 0.0]), np.array([0.0, 1.0])], metric="dtw")
    for X in ([["1", "2"], ["3", "4"]], [np.array(["1", "2"]), np.array(["3"])]):
        with pytest.raises(ValueError, match="holds text \\('1'\\); DTW compares numeric"):
            isvm.pairwise_distances(X, metric="dtw")


def test_dtw_holds_no_index_array_per_pair():
    import tracemalloc

    X = np.random.default_rng(0).normal(size=(1500, 3))
    tracemalloc.start()
    try:
        D = isvm.pairwise_distances(X, metric="dtw")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1.3 * D.nbytes, peak / D.nbytes  # was 3 x: two index arrays of n^2 / 2
    # the same distances as the plain dynamic programme, in both triangles
    i, j = 3, 7
    assert D[i, j] == pytest.approx(_dtw_dp(X[i], X[j])) and D[j, i] == D[i, j]
