"""Nystroem features and the SVM on them from a metric's distances: series, strings, any
callable, with only the distances to the landmarks computed."""

import re

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline

import indefsvm as isvm
from helpers import interrupted_after
from indefsvm.distances import RandomDistanceFeatures
from indefsvm.remedies import FlipEigenvalues


@pytest.fixture(scope="module")
def cbf():
    S, y = isvm.datasets.make_cbf(120, length=(100, 140), random_state=0)
    return S, y


@pytest.fixture(scope="module")
def motifs():
    return isvm.datasets.make_motif_strings(120, random_state=0)


def _counting(metric):
    calls = []

    def d(a, b):
        calls.append(1)
        return metric(a, b)
    return d, calls


def test_all_landmarks_reproduce_the_distance_kernel(cbf, motifs):
    S, _ = cbf
    D = isvm.pairwise_distances(S, metric="dtw", window=0.1)
    for kind in ("rbf", "laplacian", "tl1", "linear", "polynomial"):
        K = isvm.DistanceKernel(kind).fit_transform(D)
        ny = isvm.KreinNystroem(kind, metric="dtw", metric_params={"window": 0.1},
                                n_components=len(S), coef0=1.0).fit(S)
        assert np.abs(ny.approximate_kernel(S) - K).max() <= 1e-8 * np.abs(K).max(), kind
    strings, _ = motifs
    Ds = isvm.pairwise_distances(strings, metric="levenshtein")
    Ks = isvm.DistanceKernel().fit_transform(Ds)
    ny = isvm.KreinNystroem(metric="levenshtein", n_components=len(strings)).fit(strings)
    assert ny.distance_kernel_.gamma_ == isvm.distances.median_gamma(Ds)
    assert np.abs(ny.approximate_kernel(strings) - Ks).max() <= 1e-8
    assert ny.n_negative_ > 0  # the edit-distance kernel is indefinite


def test_all_landmarks_give_the_exact_flip_svm_on_the_distance_kernel(cbf):
    S, y = cbf
    train, test = np.arange(0, 120, 2), np.arange(1, 120, 2)
    St = [S[i] for i in train]
    Se = [S[i] for i in test]
    ours = isvm.NystroemSVC(metric="dtw", metric_params={"window": 0.1}, kernel="rbf",
                            n_components=len(train), remedy="flip", C=1.0,
                            random_state=0).fit(St, y[train])
    assert ours.converged_
    D = isvm.pairwise_distances(St, metric="dtw", window=0.1)
    Dt = isvm.pairwise_distances(Se, St, metric="dtw", window=0.1)
    exact = make_pipeline(isvm.DistanceKernel(), FlipEigenvalues(),
                          isvm.IndefiniteSVC(kernel="precomputed", C=1.0)).fit(D, y[train])
    d, d_ref = ours.decision_function(Se), exact.decision_function(Dt)
    assert np.mean(ours.predict(Se) == exact.predict(Dt)) >= 0.98
    assert np.abs(d - d_ref).max() <= 0.05


def test_only_the_distances_to_the_landmarks_are_computed(motifs):
    from rapidfuzz.distance import Levenshtein

    strings, y = motifs
    d, calls = _counting(Levenshtein.distance)
    n, m = len(strings), 20
    clf = isvm.NystroemSVC(metric=d, n_components=m, random_state=0, n_jobs=1)
    clf.fit(strings, y)
    # m x m for W, the held-out rows and the n x m features: never n x n
    assert len(calls) <= m * m + 2 * n * m
    assert len(calls) < n * n / 2
    before = len(calls)
    clf.predict(strings[:10])
    assert len(calls) - before == 10 * m


def test_series_of_several_channels_and_lengths(cbf):
    rng = np.random.default_rng(1)
    S = [rng.normal(size=(2, int(L))) for L in rng.integers(30, 60, size=40)]
    y = np.arange(40) % 2
    D = isvm.pairwise_distances(S, metric="dtw")
    K = isvm.DistanceKernel().fit_transform(D)
    ny = isvm.KreinNystroem(metric="dtw", n_components=40).fit(S)
    assert np.abs(ny.approximate_kernel(S) - K).max() <= 1e-8
    clf = isvm.NystroemSVC(metric="dtw", n_components=20, random_state=0).fit(S, y)
    assert clf.predict(S).shape == (40,)


def test_kmedoids_pp_seeds_one_landmark_per_separated_cluster():
    # three tight clusters far apart: D^2 seeding takes one from each (the chance of two in
    # one cluster is below 1e-6 here)
    rng = np.random.default_rng(0)
    centres = np.array([0.0, 100.0, 200.0])
    S = np.concatenate([c + rng.normal(0, 0.1, size=(30, 16)) for c in centres])
    for seed in range(5):
        ny = isvm.KreinNystroem(metric="euclidean", n_components=3, landmarks="kmedoids++",
                                random_state=seed, stability=None).fit(S)
        assert sorted(ny.component_indices_ // 30) == [0, 1, 2]


def test_kmedoids_pp_is_reproducible_and_distinct(cbf):
    S, _ = cbf
    kw = dict(metric="dtw", metric_params={"window": 0.1}, n_components=25,
              landmarks="kmedoids++", random_state=3)
    a = isvm.KreinNystroem(**kw).fit(S).component_indices_
    b = isvm.KreinNystroem(**kw).fit(S).component_indices_
    assert np.array_equal(a, b) and np.unique(a).size == 25


def test_a_dask_array_of_series_is_transformed_lazily_and_equally(cbf):
    da = pytest.importorskip("dask.array")
    S = isvm.datasets.make_cbf(90, random_state=2)[0]  # equal lengths: an array
    ny = isvm.KreinNystroem(metric="dtw", metric_params={"window": 0.1}, n_components=30,
                            random_state=0).fit(S)
    lazy = ny.transform(da.from_array(S, chunks=(25, -1)))
    assert isinstance(lazy, da.Array) and lazy.chunks[0] == (25, 25, 25, 15)
    assert np.allclose(lazy.compute(), ny.transform(S), rtol=0, atol=1e-12)
    S3 = S[:, None, :]
    lazy3 = ny.transform(da.from_array(S3, chunks=(40, -1, -1)))
    assert np.allclose(lazy3.compute(), ny.transform(S3), atol=1e-12)


def test_the_distance_blocks_run_on_a_local_cluster(cbf):
    distributed = pytest.importorskip("distributed")
    da = pytest.importorskip("dask.array")
    S = isvm.datasets.make_cbf(60, random_state=4)[0]
    ny = isvm.KreinNystroem(metric="dtw", n_components=20, random_state=0).fit(S)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster):
        out = ny.transform(da.from_array(S, chunks=(15, -1))).compute()
    assert np.allclose(out, ny.transform(S), atol=1e-12)


def test_the_dask_bag_recipe_for_unequal_lengths_runs_on_a_local_cluster(cbf):
    # the user guide's recipe: series of unequal lengths in a dask.bag, one transform per
    # partition on the cluster's workers
    distributed = pytest.importorskip("distributed")
    db = pytest.importorskip("dask.bag")
    S, _ = cbf  # lengths 100 - 140
    ny = isvm.KreinNystroem(metric="dtw", metric_params={"window": 0.1}, n_components=20,
                            random_state=0).fit(S)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster):
        bag = db.from_sequence(S, npartitions=6)
        parts = bag.map_partitions(lambda part: [ny.transform(list(part))]).compute()
    assert np.allclose(np.vstack(parts), ny.transform(S), atol=1e-12)


def test_d2ke_features_are_positive_definite_and_train(cbf, motifs):
    S, y = cbf
    rdf = RandomDistanceFeatures(metric="dtw", metric_params={"window": 0.1},
                                 n_components=64, random_state=0).fit(S)
    Phi = rdf.transform(S)
    assert Phi.shape == (120, 64) and np.all(Phi > 0)
    assert list(rdf.get_feature_names_out()[:2]) == ["randomdistancefeatures0",
                                                     "randomdistancefeatures1"]
    assert np.linalg.eigvalsh(Phi @ Phi.T).min() > -1e-10
    lengths = [len(w) for w in rdf.random_objects_]
    assert 1 <= min(lengths) and max(lengths) <= 25
    # gamma by the median rule: a typical distance to a random object gives exp(-1)
    D = isvm.pairwise_distances(S, rdf.random_objects_, metric="dtw", window=0.1)
    assert rdf.gamma_ == pytest.approx(1.0 / np.median(D), rel=0.2)
    assert np.allclose(Phi, rdf.scale_ * np.exp(-rdf.gamma_ * D))
    # scaled so that the features' total variance over the training objects is 1
    assert np.sum(Phi.var(axis=0)) == pytest.approx(1.0, rel=1e-9)
    clf = isvm.NystroemSVC(metric="dtw", metric_params={"window": 0.1}, features="d2ke",
                           n_components=64, random_state=0).fit(S, y)
    assert clf.converged_ and clf.score(S, y) > 0.8
    strings, ys = motifs
    rdf = RandomDistanceFeatures(metric="levenshtein", n_components=32, random_state=0)
    rdf.fit(strings)
    alphabet = set("".join(strings))
    assert all(set(w) <= alphabet for w in rdf.random_objects_)


@pytest.mark.parametrize("make, match", [
    (lambda S: [S[0], S[1][:0], S[2]], r"X\[1\] is empty"),
    (lambda S: [S[0], S[1], np.r_[S[2][:5], np.nan]], r"X\[2\] contains NaN"),
    (lambda S: ["abc", S[0]], r"X holds strings|X\[0\] is a string"),
])
def test_bad_series_name_the_object(cbf, make, match):
    S, _ = cbf
    X = make([np.asarray(s) for s in S[:3]])
    clf = isvm.NystroemSVC(metric="dtw", n_components=2)
    with pytest.raises(ValueError, match=match):
        clf.fit(X, [0, 1, 0])
    assert not hasattr(clf, "coef_") and not hasattr(clf, "nystroem_")


def test_bad_strings_and_metrics_name_the_object(motifs):
    strings, y = motifs
    bad = list(strings[:10])
    bad[4] = ""
    with pytest.raises(ValueError, match=r"X\[4\] is an empty string"):
        isvm.NystroemSVC(metric="levenshtein", n_components=3).fit(bad, y[:10])

    def negative(a, b):
        return -1.0 if (a, b) == (strings[7], strings[7]) else float(a != b)

    clf = isvm.NystroemSVC(metric=negative, n_components=120, n_jobs=1)
    with pytest.raises(ValueError, match=r"returned -1\.0 for X\[7\] and landmark 7"):
        clf.fit(strings, y)
    assert not hasattr(clf, "coef_")
    with pytest.warns(UserWarning, match="n_components=200 is more than the 120 samples: "
                                         "every sample is a landmark"):
        model = isvm.NystroemSVC(metric="levenshtein", n_components=200).fit(strings, y)
    assert model.nystroem_.components_ == list(strings) or len(model.nystroem_.components_) \
        == 120
    with pytest.raises(ValueError, match="X holds 120 objects but y has 119"):
        isvm.NystroemSVC(metric="levenshtein", n_components=5).fit(strings, y[:-1])


@pytest.mark.parametrize("kwargs, match", [
    (dict(metric="dtw", kernel="sigmoid"), "kernel names the kernel made of its distances"),
    (dict(metric="dtw", gamma="scale"), "is a rule for vectors"),
    (dict(metric="dtw", landmarks="kmeans++"),
     r"its rule on the distances is landmarks='kmedoids\+\+'"),
    (dict(metric="dtw", metric_params={"widow": 0.1}), "unknown parameter"),
    (dict(metric="dtw", metric_params={"window": 2}), "window must be"),
    (dict(metric="hamming"), "Unknown metric"),
    (dict(gamma="median"), "give metric="),
    (dict(landmarks="kmedoids++"), r"seeds on the distances of series or strings \(metric=\)"),
    (dict(features="d2ke"), "give metric="),
    (dict(metric="dtw", features="d2ke", landmarks="kmedoids++"), "does not apply"),
])
def test_settings_that_do_not_go_together_are_refused(cbf, kwargs, match):
    S, y = cbf
    if "metric" not in kwargs:  # vectors
        S, y = np.random.default_rng(0).normal(size=(10, 3)), np.arange(10) % 2
    with pytest.raises(ValueError, match=match):
        isvm.NystroemSVC(n_components=5, **kwargs).fit(S, y)


def test_ctrl_c_within_a_block_of_distances_leaves_the_model_unfitted():
    X = np.random.default_rng(0).normal(size=(3000, 400))  # 1.5e5 full DTW pairs: ~20 s
    y = np.arange(3000) % 2
    clf = isvm.NystroemSVC(metric="dtw", n_components=50, n_jobs=1)
    sent, took = interrupted_after(lambda: clf.fit(X, y), seconds=1.5)
    assert sent, "the fit ended before the signal"
    assert took < 8.0
    assert not hasattr(clf, "coef_") and not hasattr(clf, "nystroem_")


def test_old_model_files_without_metric_still_predict():
    import pickle

    X, y = isvm.datasets.load_heart(return_X_y=True)
    clf = isvm.NystroemSVC(kernel="rbf", n_components=50, random_state=0).fit(X, y)
    state = clf.__getstate__()
    for key in ("metric", "metric_params", "features"):
        state.pop(key)
    old = isvm.NystroemSVC.__new__(isvm.NystroemSVC)
    old.__setstate__(state)
    assert np.array_equal(old.predict(X), clf.predict(X))
    assert pickle.loads(pickle.dumps(old)).metric is None


def test_features_too_big_for_memory_are_refused_before_any_distance(cbf, monkeypatch):
    import indefsvm._validation as validation

    S, y = cbf
    calls = []

    def d(a, b):
        calls.append(1)
        return float(np.abs(np.mean(a) - np.mean(b)))

    monkeypatch.setattr(validation, "available_memory", lambda: 1000.0)
    clf = isvm.NystroemSVC(metric=d, n_components=10, n_jobs=1)
    with pytest.raises(MemoryError, match=r"NystroemSVC with 10 landmarks on 120 samples "
                                          r"\(the 120 x 10 float32 features, .*\) needs"):
        clf.fit(S, y)
    assert calls == [] and not hasattr(clf, "nystroem_")


@pytest.mark.parametrize("features, fitted_on", [("nystroem", "its landmarks"),
                                                 ("d2ke", "its random series")])
def test_series_of_other_channels_are_named_against_the_model(features, fitted_on):
    # the distance's own words were "X has 2 channels and Y has 3", Y being the model's
    # landmarks, a name the user never gave
    rng = np.random.default_rng(0)
    model = isvm.NystroemSVC(metric="dtw", n_components=5, features=features,
                             random_state=0).fit(rng.normal(size=(20, 3, 15)),
                                                 np.arange(20) % 2)
    for X, k in ((rng.normal(size=(4, 2, 15)), 2), (list(rng.normal(size=(4, 15))), 1)):
        with pytest.raises(ValueError, match=re.escape(
                f"X holds series of {k} channel(s); the model was fitted on series of 3 "
                f"({fitted_on})")):
            model.predict(X)
    assert model.predict(rng.normal(size=(4, 3, 11))).shape == (4,)  # other lengths: fine
