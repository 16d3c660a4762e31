"""Callables checked as documented (issue 46, item 10): a metric returning a string or a
bool is refused, d(x, x) != 0 and d(a, b) != d(b, a) on the landmarks are said, and a
series array with more channels than points is not read transposed in silence."""

import warnings

import numpy as np
import pytest

import indefsvm as isvm


@pytest.fixture(scope="module")
def series():
    S, y = isvm.datasets.make_cbf(40, length=30, random_state=0)
    return list(S), y


@pytest.mark.parametrize("value", ["1.5", True, np.bool_(False), None, 1 + 2j])
def test_a_metric_that_returns_no_number_is_refused(series, value):
    S, _ = series

    def metric(a, b):
        return value

    with pytest.raises(ValueError, match=r"returned .* for X\[0\] and X\[0\]; a distance is "
                                         "a number"):
        isvm.pairwise_distances(S[:3], metric=metric)


def test_numpy_numbers_are_numbers(series):
    S, _ = series
    D = isvm.pairwise_distances(S[:4], metric=lambda a, b: np.float32(np.abs(a - b).sum()))
    assert D.shape == (4, 4) and np.all(np.diag(D) == 0)


def _fit_warnings(metric, series):
    S, y = series
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        ny = isvm.KreinNystroem(metric=metric, n_components=10, random_state=0).fit(S)
    return ny, [str(w.message) for w in rec]


def test_asymmetry_on_the_landmarks_is_said_and_symmetrised(series):
    def d(a, b):
        return float(np.abs(a - b).sum() + (0.5 if a[0] > b[0] else 0.0))

    ny, said = _fit_warnings(d, series)
    assert any("is not symmetric on the landmarks" in m for m in said)
    # the kernel is made of the symmetric part: W is symmetric to rounding
    W = ny.distance_kernel_.transform(
        isvm.pairwise_distances(ny.components_, ny.components_, metric=d))
    assert np.all(np.isfinite(W))


def test_a_nonzero_self_distance_is_said(series):
    ny, said = _fit_warnings(lambda a, b: float(np.abs(a - b).sum() + 1.0), series)
    assert any("d(x, x) = 1, not 0" in m for m in said)


def test_a_true_metric_draws_no_warning(series):
    _, said = _fit_warnings(lambda a, b: float(np.abs(a - b).sum()), series)
    assert said == []


def test_more_channels_than_points_is_said():
    X = np.random.default_rng(0).standard_normal((5, 50, 3))
    with pytest.warns(UserWarning, match=r"read as 5 series of 50 channels and 3 points.*"
                                         r"transpose\(0, 2, 1\)"):
        isvm.pairwise_distances(X, metric="dtw")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        isvm.pairwise_distances(X.transpose(0, 2, 1), metric="dtw")  # no warning


def test_a_landmark_model_says_the_layout_once():
    # the collection says it when made; its blocks of distances do not say it again
    S, y = isvm.datasets.make_cbf(40, length=16, random_state=0)
    clf = isvm.NystroemSVC(metric="dtw", n_components=8, random_state=0).fit(S, y)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with pytest.raises(ValueError, match="series of 16 channel"):
            clf.predict(S[:3, :, None])  # (3, 16, 1): read as 16 channels of one point
    said = [w for w in seen if "channels and 1 points" in str(w.message)]
    assert len(said) == 1
