"""A multivariate series has one layout here, (n_channels, n_timepoints) -- aeon's. A list of
series each given as (n_timepoints, n_channels), tslearn's layout of one series, was read
as that many channels of a few points without a word (a 3-D array so given was said); the
distances were another problem's. Now the list is said as the array is, with the line that
turns it, and series of unequal lengths so given are refused with the same advice."""

import warnings

import numpy as np
import pytest
from test_distances import dtw_reference

import indefsvm as isvm


def _series(n=6, seed=0):
    """n two-channel series of 40 points, as (n_channels, n_timepoints) each."""
    rng = np.random.default_rng(seed)
    return [np.vstack([np.sin(np.linspace(0, 3 + k, 40)), rng.normal(size=40)])
            for k in range(n)]


def test_a_list_of_channels_by_points_is_read_silently_and_as_its_array():
    S = _series()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        D = isvm.pairwise_distances(S, metric="dtw")
    np.testing.assert_allclose(D, isvm.pairwise_distances(np.stack(S), metric="dtw"),
                               rtol=0, atol=0)
    # the textbook programme on (length, channels) pairs
    assert D[0, 3] == pytest.approx(dtw_reference(S[0].T, S[3].T), rel=1e-12)


def test_a_list_of_points_by_channels_is_said_with_the_line_that_turns_it():
    S = _series()
    turned = [s.T for s in S]  # (40, 2) each: tslearn's layout of one series
    with pytest.warns(UserWarning, match=r"X\[0\] has shape \(40, 2\): read as 6 series of "
                      r"40 channels and at most 2 points each .* give \[x\.T for x in X\]"):
        wrong = isvm.pairwise_distances(turned, metric="dtw")
    right = isvm.pairwise_distances([t.T for t in turned], metric="dtw")
    # the warning is worth its words: the two readings are different problems
    assert np.abs(wrong - right).max() > 1.0
    assert right[1, 4] == pytest.approx(dtw_reference(S[1].T, S[4].T), rel=1e-12)


def test_unequal_series_given_as_points_by_channels_are_refused_with_the_advice():
    S = [s[:, : 30 + k] for k, s in enumerate(_series())]
    with pytest.raises(ValueError, match=r"X\[1\] has 31 channels but X\[0\] has 30.*Is each "
                       r"series \(n_timepoints, n_channels\)\?.*\[x\.T for x in X\]"):
        isvm.pairwise_distances([s.T for s in S], metric="dtw")
    # channels that truly differ get no such advice
    with pytest.raises(ValueError) as err:
        isvm.pairwise_distances([S[0], S[1][:1]], metric="dtw")
    assert "channels but" in str(err.value) and "x.T" not in str(err.value)


def test_a_landmark_model_says_the_layout_once_a_call():
    S = [s.T for s in _series(12)]
    y = np.arange(12) % 2
    with pytest.warns(UserWarning, match="read as 12 series"):
        clf = isvm.NystroemSVC(metric="dtw", n_components=4, random_state=0).fit(S, y)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        clf.predict(S[:3])
    said = [w for w in seen if "has shape" in str(w.message)]
    # the rows' layout, once; not again for the landmarks the model holds
    assert len(said) == 1 and "read as 3 series" in str(said[0].message)
