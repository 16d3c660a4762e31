"""Series and strings in pandas containers, as a pandas user holds them.

A newcomer's probe: ``NystroemSVC(metric="levenshtein").fit(df["sequence"], y)`` and
``pairwise_distances(df["sequence"], metric="levenshtein")`` were refused ("X must be a list
of strings; got a Series"), as were a DataFrame of equal-length series (a row a series) and a
Series of arrays of several lengths -- the containers pandas gives. They now give what the
same objects give as NumPy arrays and lists; a Series of numbers, which would be one series,
is refused with the line for either reading.
"""

import numpy as np
import pandas as pd
import pytest

import indefsvm as isvm
from indefsvm.distances import RandomDistanceFeatures


@pytest.fixture(scope="module")
def series():
    S, y = isvm.datasets.make_cbf(30, length=(20, 30), random_state=0)
    return S, y


def test_a_series_of_strings_is_its_strings():
    words = ["kitten", "sitting", "mitten", "fitting", "bitten", "knitting"] * 4
    y = np.arange(len(words)) % 2
    col = pd.Series(words, index=np.arange(100, 100 + len(words)))  # any index
    np.testing.assert_array_equal(isvm.pairwise_distances(col, metric="levenshtein"),
                                  isvm.pairwise_distances(words, metric="levenshtein"))
    np.testing.assert_array_equal(
        isvm.pairwise_distances(pd.DataFrame({"w": words}), col[:3], metric="levenshtein"),
        isvm.pairwise_distances(words, words[:3], metric="levenshtein"))
    kw = dict(metric="levenshtein", n_components=6, random_state=0)
    ours = isvm.NystroemSVC(**kw).fit(col, y)
    ref = isvm.NystroemSVC(**kw).fit(words, y)
    np.testing.assert_array_equal(ours.decision_function(col), ref.decision_function(words))


def test_series_in_a_dataframe_and_in_a_series_of_arrays(series):
    S, y = series
    ragged = pd.Series(list(S))  # lengths 20 to 30: an entry a series
    np.testing.assert_array_equal(isvm.pairwise_distances(ragged, metric="dtw", window=0.2),
                                  isvm.pairwise_distances(S, metric="dtw", window=0.2))
    equal = np.array([s[:20] for s in S])
    frame = pd.DataFrame(equal)  # a row a series
    np.testing.assert_array_equal(isvm.pairwise_distances(frame, metric="dtw"),
                                  isvm.pairwise_distances(equal, metric="dtw"))
    kw = dict(metric="dtw", n_components=8, random_state=0)
    np.testing.assert_array_equal(isvm.NystroemSVC(**kw).fit(frame, y).predict(equal),
                                  isvm.NystroemSVC(**kw).fit(equal, y).predict(equal))
    pd_t = isvm.PairwiseDistances("dtw").fit(ragged)
    np.testing.assert_array_equal(pd_t.transform(ragged[:4]),
                                  isvm.PairwiseDistances("dtw").fit(S).transform(S[:4]))
    rf = RandomDistanceFeatures(metric="dtw", n_components=4, random_state=0)
    np.testing.assert_array_equal(rf.fit(frame).transform(frame),
                                  rf.fit(equal).transform(equal))


def test_a_series_of_numbers_is_not_taken_as_many_series():
    with pytest.raises(ValueError, match=r"pandas Series of numbers: one series\? Give "
                                         r"\[X.to_numpy\(\)\]"):
        isvm.pairwise_distances(pd.Series(np.arange(5.0)), metric="dtw")


def test_vector_metrics_keep_a_dataframes_feature_names():
    X = pd.DataFrame(np.random.default_rng(0).normal(size=(6, 3)), columns=["a", "b", "c"])
    t = isvm.PairwiseDistances("euclidean").fit(X)
    assert list(t.feature_names_in_) == ["a", "b", "c"]
    np.testing.assert_allclose(t.transform(X), isvm.pairwise_distances(X.to_numpy(),
                                                                       metric="euclidean"))


def test_a_dataframe_whose_cells_hold_arrays_is_a_row_a_series(series):
    # a list column (parquet, a datasets library's to_pandas) or sktime's nested layout
    # (a column a channel, a pd.Series a cell) was "X[0] must hold numbers: setting an
    # array element with a sequence"
    S, y = series
    one = pd.DataFrame({"series": list(S)})
    np.testing.assert_array_equal(isvm.pairwise_distances(one, metric="dtw", window=0.2),
                                  isvm.pairwise_distances(S, metric="dtw", window=0.2))
    nested = pd.DataFrame({"a": [pd.Series(s) for s in S], "b": [pd.Series(s ** 2) for s in S]})
    both = [np.vstack([s, s ** 2]) for s in S]  # (n_channels, n_timepoints) each
    np.testing.assert_array_equal(isvm.pairwise_distances(nested, metric="dtw"),
                                  isvm.pairwise_distances(both, metric="dtw"))
    kw = dict(metric="dtw", n_components=8, random_state=0)
    ours = isvm.NystroemSVC(**kw).fit(nested, y)
    ref = isvm.NystroemSVC(**kw).fit(both, y)
    np.testing.assert_array_equal(ours.decision_function(nested), ref.decision_function(both))
    ragged = pd.DataFrame({"a": [np.ones(5)], "b": [np.ones(6)]})
    with pytest.raises(ValueError, match=r"the channels of row 0 \(a, b\) hold 5 and 6 "
                                         "points"):
        isvm.pairwise_distances(ragged, metric="dtw")
