"""check_distances on objects: a random block of them, read as an honest estimate."""

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.diagnostics import check_distances, triangle_violations


@pytest.fixture(scope="module")
def series():
    S, y = isvm.datasets.make_cbf(600, length=64, random_state=1)
    D = isvm.pairwise_distances(S, metric="dtw", n_jobs=-1)
    return S, y, D


def test_the_sample_figures_are_the_dense_check_of_the_sample(series):
    S, y, D = series
    rep = check_distances(X=S, y=y, metric="dtw", n_landmarks=120, random_state=3)
    idx = np.sort(np.random.default_rng(3).choice(600, size=120, replace=False))
    ref = check_distances(D[np.ix_(idx, idx)], y[idx])
    assert rep.n == 600 and rep.n_sample == 120
    assert tuple(rep.signature) == tuple(ref.signature)
    assert rep.negative_mass == ref.negative_mass
    assert rep.gamma_median == ref.gamma_median and rep.gamma_profile == ref.gamma_profile
    assert rep.pairs == ref.pairs
    assert len(rep.negative_mass_halves) == 4
    assert rep.euclidean is False and "non-Euclidean" in rep.verdict  # a proof for all 600
    assert rep.nystroem_landmarks >= 1
    assert "NystroemSVC(metric='dtw'" in rep.notes[-2]
    assert rep.to_dict()["n_sample"] == 120


def test_the_triangle_interval_holds_the_share_of_all_objects(series):
    S, _, D = series
    true = triangle_violations(D, exact_max=600)[0]
    assert true > 0
    for seed in range(12):
        rep = check_distances(X=S, metric="dtw", n_landmarks=100, n_gammas=0,
                              random_state=seed)
        lo, hi = rep.triangle_interval
        assert lo <= true <= hi, (seed, rep.triangle_violations, lo, hi)


def test_a_euclidean_sample_leaves_the_verdict_undecided():
    Z = np.random.default_rng(0).normal(size=(900, 3))
    rep = check_distances(X=Z, metric="euclidean", n_landmarks=150)
    assert rep.euclidean is None and rep.verdict.startswith("undecided")
    assert "undecided" in str(rep)
    full = check_distances(X=Z[:200], metric="euclidean", n_landmarks=200)
    assert full.euclidean is True and full.n_sample is None  # every object: decided


def test_only_the_sample_block_is_computed():
    from rapidfuzz.distance import Levenshtein

    X, _ = isvm.datasets.make_motif_strings(500, random_state=0)
    calls = []

    def d(a, b):
        calls.append(1)
        return float(Levenshtein.distance(a, b))

    check_distances(X=X, metric=d, n_landmarks=60, n_jobs=1, n_gammas=3)
    # the pairs of the 60 sampled objects (each once, and the diagonal): never 500 x 500
    assert len(calls) <= 60 * 61 // 2


@pytest.mark.parametrize("kwargs, match", [
    (dict(X=[np.zeros(3)] * 5), "need their metric"),
    (dict(metric="dtw"), "need their metric|needs the objects X"),
    (dict(X=np.zeros((5, 3)), metric="dtw", n_landmarks=2), "n_landmarks must be"),
    (dict(X=np.zeros((5, 3)), metric="dtw", y=[0, 1]), "one label per object"),
    (dict(X=["a", "b", "c"], metric="dtw"), "strings"),
    # labels of one class: refused, as check_kernel refuses them (matrix and objects alike)
    (dict(X=np.random.default_rng(0).normal(size=(5, 3)), metric="dtw", y=[1] * 5),
     r"one class only \(1\)"),
    (dict(D=np.ones((4, 4)) - np.eye(4), y=["a"] * 4), r"one class only \(a\)"),
])
def test_bad_calls(kwargs, match):
    with pytest.raises(ValueError, match=match):
        check_distances(**kwargs)
    with pytest.raises(ValueError, match="not both"):
        check_distances(np.zeros((3, 3)), X=np.zeros((3, 2)), metric="euclidean")


def test_a_sample_of_one_class_says_why_no_class_mean_distance():
    # two classes among the objects, one among the sampled ones: the class-mean distance is
    # left out and the report says so (it was silently missing)
    S, _ = isvm.datasets.make_cbf(40, length=16, random_state=0)
    y = np.zeros(40, dtype=int)
    idx = np.sort(np.random.default_rng(0).choice(40, size=10, replace=False))
    y[np.setdiff1d(np.arange(40), idx)[0]] = 1  # the second class, outside the sample
    rep = check_distances(X=S, y=y, metric="dtw", n_landmarks=10, random_state=0)
    assert rep.n_sample == 10 and rep.class_mean_sqdist is None
    assert rep.notes[0].startswith("The 10 sampled objects hold one class only")
    both = check_distances(X=S, y=np.arange(40) % 2, metric="dtw", n_landmarks=10,
                           random_state=0)
    assert both.class_mean_sqdist is not None and "one class only" not in " ".join(both.notes)
