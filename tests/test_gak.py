"""The global alignment kernel (``kernel_matrix(series, kernel="gak")``, ``metric="gak"``)
against a plain log-domain dynamic programme (Cuturi 2011, eq. 4, his triangular kernel),
its positive definiteness, and long series."""

import numpy as np
import pytest

import indefsvm as isvm
from helpers import interrupted_after
from indefsvm.distances import gak_sigma


def _log_gak_ref(x, y, sigma, window=None):
    """Cuturi's recursion cell by cell, every sum a logaddexp: log k(x, y), unnormalised."""
    # (n_channels, length) series as (length, n_channels) points
    x = np.asarray(x, float).reshape(1, -1).T if np.ndim(x) == 1 else np.asarray(x, float).T
    y = np.asarray(y, float).reshape(1, -1).T if np.ndim(y) == 1 else np.asarray(y, float).T
    n, m = len(x), len(y)
    T = 0 if window is None else int(np.floor(window * max(n, m) + 1e-9)) + 1
    L = np.full((n + 1, m + 1), -np.inf)
    L[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            if T and abs(i - j) >= T:
                continue
            lg = -np.sum((x[i - 1] - y[j - 1]) ** 2) / (2 * sigma**2)
            if T:
                lg += np.log(1 - abs(i - j) / T)
            lk = lg - np.log(2 - np.exp(lg))
            L[i, j] = lk + np.logaddexp.reduce([L[i - 1, j - 1], L[i - 1, j], L[i, j - 1]])
    return L[n, m]


def _normalised_ref(X, Y, sigma, window=None):
    sx = [_log_gak_ref(a, a, sigma, window) for a in X]
    sy = [_log_gak_ref(b, b, sigma, window) for b in Y]
    return np.array([[_log_gak_ref(a, b, sigma, window) - (sx[i] + sy[j]) / 2
                      for j, b in enumerate(Y)] for i, a in enumerate(X)])


def _log(K):
    with np.errstate(divide="ignore"):  # k = 0 where no alignment lies in the band
        return np.log(K)


def _random_series(n, lengths, channels=1, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for L in rng.integers(lengths[0], lengths[1] + 1, size=n):
        walk = np.cumsum(rng.normal(size=(channels, L)), axis=1)
        out.append(walk[0] if channels == 1 else walk)
    return out


@pytest.mark.parametrize("channels", [1, 3])
@pytest.mark.parametrize("window", [None, 0.3, 0.0])
def test_gak_equals_a_plain_log_domain_programme(channels, window):
    S = _random_series(7, (5, 25), channels, seed=channels)
    sigma = 1.7
    ref = _normalised_ref(S, S, sigma, window)
    got = _log(isvm.kernel_matrix(S, kernel="gak", sigma=sigma, window=window))
    finite = np.isfinite(ref)
    if window is not None:
        # pairs whose lengths differ by the band or more have no alignment in it: k = 0
        assert not finite.all() or window == 0.3
    np.testing.assert_array_equal(np.isfinite(got), finite)
    np.testing.assert_allclose(got[finite], ref[finite], rtol=0, atol=1e-8)
    # X against other series: the same values as each pair's entry of the square matrix
    T = _random_series(4, (5, 25), channels, seed=9)
    ref2 = _normalised_ref(S, T, sigma, window)
    got2 = _log(isvm.kernel_matrix(S, T, kernel="gak", sigma=sigma, window=window))
    np.testing.assert_array_equal(np.isfinite(got2), np.isfinite(ref2))
    ok = np.isfinite(ref2)
    np.testing.assert_allclose(got2[ok], ref2[ok], rtol=0, atol=1e-8)


def test_gak_is_positive_definite_on_random_series():
    for S in (_random_series(60, (30, 30), seed=1), _random_series(60, (10, 50), seed=2),
              _random_series(40, (20, 20), channels=2, seed=3)):
        for window in (None, 0.1):
            if window is not None and len({np.shape(s)[-1] for s in S}) > 1:
                continue  # a band over series of several lengths is one T a pair
            K = isvm.kernel_matrix(S, kernel="gak", window=window)
            np.testing.assert_allclose(K, K.T, rtol=0, atol=1e-12)
            np.testing.assert_allclose(np.diag(K), 1.0, rtol=0, atol=1e-12)
            lam = np.linalg.eigvalsh(K)
            assert lam.min() >= -len(S) * np.finfo(float).eps * lam.max() * 10, lam.min()


def test_gak_is_finite_on_long_series():
    """Two series of 2 000 points: k(x, y) is about e^-3000 unnormalised (the linear-domain
    programme gives 0, tslearn's NaN); the normalised value is a number in (0, 1)."""
    rng = np.random.default_rng(0)
    a, b = np.cumsum(rng.normal(size=(2, 2000)), axis=1)
    K = isvm.kernel_matrix([a, b], kernel="gak")
    assert np.all(np.isfinite(K)) and 0 < K[0, 1] < 1
    np.testing.assert_allclose(np.diag(K), 1.0, atol=1e-12)
    # its logarithm against the plain programme on a shorter pair of the same walk
    s = 1.0 * gak_sigma([a[:60], b[:60]])
    ref = _normalised_ref([a[:60]], [b[:60]], s)
    got = np.log(isvm.kernel_matrix([a[:60]], [b[:60]], kernel="gak", sigma=s))
    np.testing.assert_allclose(got, ref, atol=1e-8)


def test_gak_of_series_far_apart_against_sigma_is_the_log_domain_value():
    """Series whose every alignment is below float64's range at this sigma: the fast
    programme's rows underflow (1 / smax overflowed, 0 * inf gave NaN entries of the
    matrix); such pairs are computed again in log domain and equal the plain programme."""
    from indefsvm.distances._alignment import log_gak

    S = _random_series(4, (20, 30), seed=5)
    S.append(np.concatenate([np.zeros(25), [40.0]]))  # its last point far from every other
    S.append(np.zeros(26))
    for sigma, window in ((0.05, None), (0.05, 0.5), (1.0, None)):
        ref = _normalised_ref(S, S, sigma, window)
        got = log_gak(S, sigma=sigma, window=-1.0 if window is None else window)
        np.testing.assert_array_equal(np.isfinite(got), np.isfinite(ref))
        ok = np.isfinite(ref)
        np.testing.assert_allclose(got[ok], ref[ok], rtol=1e-12, atol=1e-8)
        assert ref[ok].min() < -1000  # (the case: far below float64's range)
    # the matrix of long walks at a small sigma: numbers in [0, 1], 1 on the diagonal
    W = list(np.cumsum(np.random.default_rng(0).normal(size=(12, 256)), axis=1))
    K = isvm.kernel_matrix(W, kernel="gak", sigma=1.0)
    assert np.all(np.isfinite(K)) and K.min() >= 0 and K.max() <= 1
    np.testing.assert_array_equal(np.diag(K), 1.0)


def test_gak_at_a_sigma_whose_inverse_square_overflows():
    """sigma = 1e-200: 1 / (2 sigma^2) is inf and 0 * inf was NaN on every diagonal cell;
    the kernel is that of such a sigma: 1 between equal series, 0 between others."""
    W = _random_series(4, (30, 40), seed=7)
    W.append(W[0].copy())
    for sigma in (1e-200, 1e-320):
        K = isvm.kernel_matrix(W, kernel="gak", sigma=sigma)
        expected = np.eye(5)
        expected[0, 4] = expected[4, 0] = 1.0
        np.testing.assert_array_equal(K, expected)


def test_gak_sigma_is_cuturis_rule():
    S = _random_series(5, (8, 8), seed=4)
    P = np.concatenate(S)
    d = np.abs(P[:, None] - P[None])[np.triu_indices(P.size, 1)]
    assert gak_sigma(S) == pytest.approx(np.median(d[d > 0]) * np.sqrt(8), rel=1e-12)
    # sigma None: the rule on the reference series (Y, else X)
    T = _random_series(3, (8, 8), seed=5)
    np.testing.assert_allclose(isvm.kernel_matrix(S, T, kernel="gak"),
                               isvm.kernel_matrix(S, T, kernel="gak", sigma=gak_sigma(T)))


def test_gak_refuses_what_it_cannot_take():
    S = _random_series(3, (5, 9))
    with pytest.raises(ValueError, match="sigma must be a number > 0"):
        isvm.kernel_matrix(S, kernel="gak", sigma=0.0)
    with pytest.raises(ValueError, match="window must be None"):
        isvm.kernel_matrix(S, kernel="gak", window=2)
    with pytest.raises(ValueError, match="takes sigma, window"):
        isvm.kernel_matrix(S, kernel="gak", gamma=1.0)
    with pytest.raises(ValueError, match="numeric series"):
        isvm.kernel_matrix(["ab", "cd"], kernel="gak")


def test_the_gak_metric_is_the_distance_its_kernel_induces():
    S, y = isvm.datasets.make_cbf(40, length=(50, 70), random_state=0)
    S = list(S)
    s = gak_sigma(S)
    K = isvm.kernel_matrix(S, kernel="gak", sigma=s)
    D = isvm.pairwise_distances(S, metric="gak", sigma=s)
    np.testing.assert_allclose(D, np.sqrt(np.maximum(2 - 2 * K, 0)), atol=1e-12)
    # a Euclidean distance, as a positive-definite kernel's
    rep = isvm.diagnostics.check_distances(D, y)
    assert rep.euclidean is True
    # the landmark model takes it by name, with its parameters
    clf = isvm.NystroemSVC(metric="gak", metric_params={"sigma": s}, n_components=40,
                           random_state=0).fit(S, y)
    assert clf.score(S, y) > 0.9


def test_ctrl_c_inside_one_long_pair_stops_the_call():
    """Two series of 100 000 points: 1e10 cells in one pair (about 50 s on one thread), so a
    Ctrl-C seen only after the pair would take that long; seen inside it (every ~1.6e7
    cells, a tenth of a second) the call ends within seconds even on a loaded machine. The
    bound is a quarter of the pair's time, not a speed figure."""
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(2, 100_000))
    sent, took = interrupted_after(
        lambda: isvm.kernel_matrix([a], [b], kernel="gak", sigma=1.0), 0.2)
    assert sent and took < 12.0


def test_an_svm_takes_gak_by_name_on_the_series_themselves():
    """IndefiniteSVC(kernel="gak") on series (a 2-D array, or a list of unequal lengths) is
    the SVM on the precomputed kernel_matrix(kernel="gak") with the sigma Cuturi's rule
    gives the training series -- fixed at fit, so that new series' kernel rows use it."""
    X, y = isvm.datasets.make_cbf(60, length=30, random_state=0)
    Xt, _ = isvm.datasets.make_cbf(20, length=30, random_state=1)
    model = isvm.IndefiniteSVC(kernel="gak", tol=1e-6).fit(X, y)
    sigma = model.kernel_params_["sigma"]
    assert sigma == pytest.approx(gak_sigma(X))
    K = isvm.kernel_matrix(X, kernel="gak", sigma=sigma)
    ref = isvm.IndefiniteSVC(kernel="precomputed", tol=1e-6).fit(K, y)
    Kt = isvm.kernel_matrix(Xt, X, kernel="gak", sigma=sigma)
    np.testing.assert_allclose(model.decision_function(Xt), ref.decision_function(Kt),
                               atol=1e-6)
    np.testing.assert_array_equal(model.support_, ref.support_)
    # unequal lengths, a band, a sigma given: as the precomputed kernel of the same
    series = [x[: 20 + i % 11] for i, x in enumerate(X)]
    params = {"sigma": 2.0, "window": 0.3}
    model = isvm.IndefiniteSVC(kernel="gak", kernel_params=params, tol=1e-6).fit(series, y)
    ref = isvm.IndefiniteSVC(kernel="precomputed", tol=1e-6).fit(
        isvm.kernel_matrix(series, kernel="gak", **params), y)
    new = [x[:25] for x in Xt]
    np.testing.assert_allclose(
        model.decision_function(new),
        ref.decision_function(isvm.kernel_matrix(new, series, kernel="gak", **params)),
        atol=1e-6)
    assert model.kernel_params_ == params


def test_a_saved_gak_model_predicts_the_same(tmp_path):
    import skops.io as sio

    X, y = isvm.datasets.make_cbf(40, length=20, random_state=0)
    series = [x[: 15 + i % 5] for i, x in enumerate(X)]
    model = isvm.IndefiniteSVC(kernel="gak").fit(series, y)
    path = tmp_path / "gak.skops"
    sio.dump(model, path)
    again = isvm.load_model(path)
    np.testing.assert_array_equal(again.decision_function(series[:7]),
                                  model.decision_function(series[:7]))


def test_an_svm_refuses_what_gak_does_not_take_before_the_work():
    X, y = isvm.datasets.make_cbf(20, length=16, random_state=0)
    bad = X.copy()
    bad[3, 4] = np.nan
    with pytest.raises(ValueError, match="the alignment kernel's -- has no rule for a "
                                         "missing point"):
        isvm.IndefiniteSVC(kernel="gak").fit(bad, y)
    with pytest.raises(ValueError, match=r"kernel_params of kernel='gak' takes \['sigma', "
                                         r"'window'\]; got \['gamma'\]") as err:
        isvm.IndefiniteSVC(kernel="gak", kernel_params={"gamma": 1.0}).fit(X, y)
    assert err.value.param == "kernel_params"
    with pytest.raises(ValueError, match="sigma must be a number > 0") as err:
        isvm.IndefiniteSVC(kernel="gak", kernel_params={"sigma": -1.0}).fit(X, y)
    assert err.value.param == "sigma"


def test_the_sanity_report_reads_a_gak_model_on_its_series():
    """The report recomputes the training kernel as the model made it (its series as given,
    the sigma fixed at fit): a converged model on a positive-definite kernel is sensible."""
    X, y = isvm.datasets.make_cbf(40, length=20, random_state=0)
    series = [x[: 15 + i % 5] for i, x in enumerate(X)]
    model = isvm.IndefiniteSVC(kernel="gak", tol=1e-4).fit(series, y)
    report = isvm.sanity_report(model, series, y)
    assert report.verdict == "sensible"


def test_a_kernel_of_the_table_without_a_fitting_rule_keeps_its_parameters(monkeypatch):
    """A row of the metric table with a kernel and no ``kernel_fit``: the SVM uses the
    parameters as given (nothing set from the training objects)."""
    import dataclasses

    from indefsvm import _metrics

    monkeypatch.setitem(_metrics.REGISTRY, "gak",
                        dataclasses.replace(_metrics.REGISTRY["gak"], kernel_fit=None))
    X, y = isvm.datasets.make_cbf(30, length=16, random_state=0)
    model = isvm.IndefiniteSVC(kernel="gak", kernel_params={"sigma": 2.0}).fit(X, y)
    assert model.kernel_params_ == {"sigma": 2.0}
    np.testing.assert_allclose(
        model.decision_function(X[:3]),
        isvm.IndefiniteSVC(kernel="precomputed").fit(
            isvm.kernel_matrix(X, kernel="gak", sigma=2.0), y).decision_function(
            isvm.kernel_matrix(X[:3], X, kernel="gak", sigma=2.0)), atol=1e-6)
