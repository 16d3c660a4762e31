"""Tests written for the survivors of the mutation run over the third wave's modules
(``benchmarks/mutation_score.py --targets``): each pins a behaviour that a one-token change
of the code left unnoticed. The mutated line is named in each test."""

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import Pipeline

import indefsvm as isvm
from indefsvm.diagnostics import distances as dist_mod
from indefsvm.diagnostics.distances import _wilson, triangle_violations


@pytest.fixture(scope="module")
def sigmoid():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    return isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=0.5), y


# -- distances/_kernel.py ---------------------------------------------------------------------


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


# -- distances/_objects.py --------------------------------------------------------------------


def test_three_dimensional_arrays_are_flattened_series():
    """``A = A.reshape(A.shape[0], -1)``: (n, T, d) series for a lock-step metric."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(5, 7, 2))
    D = isvm.pairwise_distances(X, metric="euclidean")
    flat = X.reshape(5, -1)
    ref = np.sqrt(((flat[:, None, :] - flat[None, :, :]) ** 2).sum(-1))
    np.testing.assert_allclose(D, ref, rtol=1e-12, atol=1e-12)


# -- diagnostics/distances.py -----------------------------------------------------------------


@pytest.mark.parametrize("k, m", [(0, 10), (3, 10), (50, 200), (199, 200), (7, 7)])
def test_wilson_interval_against_its_formula(k, m):
    """The 95 % Wilson score interval, term by term (``half = z sqrt(...) / den``)."""
    z, p = 1.96, k / m
    den = 1 + z * z / m
    centre = (p + z * z / (2 * m)) / den
    half = z * np.sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / den
    lo, hi = _wilson(k, m)
    assert lo == pytest.approx(max(0.0, centre - half), abs=1e-15)
    assert hi == pytest.approx(min(1.0, centre + half), abs=1e-15)
    assert 0.0 <= lo <= p <= hi <= 1.0


@pytest.mark.parametrize("D, exact", [
    # two violated inequalities, both on pairs with the last point
    (np.array([[0.0, 1.0, 1.0, 3.0], [1.0, 0.0, 1.0, 3.0], [1.0, 1.0, 0.0, 1.0],
               [3.0, 3.0, 1.0, 0.0]]), 2 / 12),
    # one long pair, {0, 3}: violated through both other points
    (np.array([[0.0, 1.0, 1.0, 3.0], [1.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0, 1.0],
               [3.0, 1.0, 1.0, 0.0]]), 2 / 12),
])
def test_sampled_triangles_are_uniform_over_pairs_and_thirds(D, exact):
    """``i``, ``j = rng.integers(0, n - 1)`` and ``k = rng.integers(0, n - 2)``: every pair
    and every third point is drawn with the same chance. On four points whose violated
    inequalities sit on a few pairs, the sampled share estimates the exact one."""
    share0, _, total, _ = triangle_violations(D)
    assert total == 12 and share0 == pytest.approx(exact)
    share, (lo, hi), count, worst = triangle_violations(D, exact_max=2, n_samples=200_000)
    assert count == 200_000 and lo <= exact <= hi
    assert abs(share - exact) < 0.005
    assert worst == pytest.approx(1 / 3)
    assert abs(share - share0) < 0.005


def test_fewer_than_three_objects_have_no_triangle():
    """``return 0.0, None, 0, 0.0`` for n < 3."""
    assert triangle_violations(np.array([[0.0, 2.0], [2.0, 0.0]])) == (0.0, None, 0, 0.0)


def test_check_distances_symmetrises_an_asymmetric_matrix():
    """``S = (D + D.T) / 2 if asym > atol else D``: the figures of an asymmetric D are those
    of its symmetric part (and the verdict says it is not a distance matrix)."""
    rng = np.random.default_rng(1)
    P = rng.normal(size=(12, 3))
    D = np.sqrt(((P[:, None] - P[None]) ** 2).sum(-1))
    E = np.triu(rng.uniform(0, 0.3, size=(12, 12)), 1)
    A = D + E - E.T  # (A + A.T) / 2 = D
    ra, rd = isvm.diagnostics.check_distances(A), isvm.diagnostics.check_distances(D)
    assert ra.verdict == "not a distance matrix" and not ra.symmetric
    assert ra.gamma_median == pytest.approx(rd.gamma_median)
    assert ra.negative_mass == pytest.approx(rd.negative_mass, abs=1e-12)
    assert ra.triangle_violations == rd.triangle_violations


def test_check_distances_asks_for_four_matrices_of_memory(monkeypatch):
    """``check_memory(8.0 * 4 * n * n, ...)``: the working set is four float64 n x n
    matrices."""
    asked = []
    monkeypatch.setattr(dist_mod, "check_memory", lambda b, *a: asked.append(b))
    isvm.diagnostics.check_distances(np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0],
                                               [2.0, 1.0, 0.0]]))
    assert asked == [8.0 * 4 * 9]


# -- remedies/_nystroem.py --------------------------------------------------------------------


def test_stability_threshold_keeps_a_direction_at_the_threshold():
    """``stable = ratio <= float(self.stability)``: a direction whose extension ratio equals
    the threshold is kept."""
    rng = np.random.default_rng(2)
    X = rng.normal(size=(400, 5))
    kw = dict(kernel="sigmoid", n_components=60, gamma=0.3, coef0=-1.0, random_state=0)
    ny = isvm.KreinNystroem(**kw, stability=1e300).fit(X)  # every direction, every ratio
    worst = float(np.max(ny.extension_ratio_))
    at = isvm.KreinNystroem(**kw, stability=worst).fit(X)
    assert at.n_unstable_ == 0
    below = isvm.KreinNystroem(**kw, stability=np.nextafter(worst, 0)).fit(X)
    assert below.n_unstable_ >= 1


@pytest.mark.parametrize("idx, match", [
    (np.array([[0, 1], [2, 3]]), "landmarks"),
    (np.array([], dtype=int), "landmarks"),
    (np.array([0.0, 1.0]), "landmarks"),
])
def test_landmark_indices_are_checked_one_condition_at_a_time(idx, match):
    """``idx.ndim != 1 or idx.size == 0 or not integer``: each condition alone refuses."""
    X = np.random.default_rng(0).normal(size=(20, 3))
    with pytest.raises(ValueError, match=match):
        isvm.KreinNystroem(n_components=2, landmarks=idx).fit(X)


# -- remedies/_search.py ----------------------------------------------------------------------


def test_n_neighbors_up_to_the_smallest_training_fold(sigmoid):
    """``k > min_train``: k equal to the smallest training fold is allowed."""
    K, y = sigmoid
    K, y = K[:30, :30], y[:30]
    folds = list(StratifiedKFold(3, shuffle=True, random_state=0).split(K, y))
    smallest = min(len(tr) for tr, _ in folds)
    s = isvm.RemedySearchCV(methods=["k-NN"], param_grid={"n_neighbors": [smallest]}, cv=3,
                            random_state=0).fit(K, y)
    assert s.best_params_ == {"method": "k-NN", "n_neighbors": smallest}
    with pytest.raises(ValueError, match="more than the"):
        isvm.RemedySearchCV(methods=["k-NN"], param_grid={"n_neighbors": [smallest + 1]},
                            cv=3, random_state=0).fit(K, y)


@pytest.mark.parametrize("rank", [1.5, 0, -1, True, "half"])
def test_rank_grid_values_are_checked_before_the_folds(sigmoid, rank):
    K, y = sigmoid
    with pytest.raises(ValueError, match=r"param_grid\['rank'\]"):
        isvm.RemedySearchCV(methods=["advanced shift"], param_grid={"rank": [rank]}).fit(K, y)


def test_probabilities_and_decisions_available_by_the_methods(sigmoid):
    """Before fit, ``predict_proba`` exists only when k-NN may be chosen and
    ``decision_function`` only when an SVM method may be; after fit, as the choice has."""
    assert hasattr(isvm.RemedySearchCV(methods=["k-NN"]), "predict_proba")
    assert not hasattr(isvm.RemedySearchCV(methods=["flip"]), "predict_proba")
    assert hasattr(isvm.RemedySearchCV(methods=["flip"]), "decision_function")
    assert not hasattr(isvm.RemedySearchCV(methods=["k-NN"]), "decision_function")
    K, y = sigmoid
    s = isvm.RemedySearchCV(methods=["k-NN"], param_grid={"n_neighbors": [5]}, cv=3,
                            random_state=0).fit(K, y)
    assert s.predict_proba(K[:4]).shape == (4, 2)
    assert not hasattr(s, "decision_function")


def test_label_count_must_match_the_matrix(sigmoid):
    """``if y.shape[0] != X.shape[0]``."""
    K, y = sigmoid
    with pytest.raises(ValueError, match="270 rows"):
        isvm.RemedySearchCV().fit(K, y[:-1])


def test_class_weights_enter_every_fold_as_in_gridsearchcv(sigmoid):
    """``C_pair = float(C) * w[idx]``: with class weights the indefinite SVM's fold scores
    are still exactly GridSearchCV's."""
    K, y = sigmoid
    cw = {-1.0: 1.0, 1.0: 4.0}
    s = isvm.RemedySearchCV(methods=["indefinite SVM"], param_grid={"C": [0.1, 1.0]},
                            class_weight=cw, cv=3, random_state=0).fit(K, y)
    gs = GridSearchCV(isvm.IndefiniteSVC(kernel="precomputed", class_weight=cw),
                      {"C": [0.1, 1.0]}, cv=StratifiedKFold(3, shuffle=True, random_state=0)
                      ).fit(K, y)
    for f in range(3):
        np.testing.assert_array_equal(s.cv_results_[f"split{f}_test_score"],
                                      gs.cv_results_[f"split{f}_test_score"])


@pytest.mark.parametrize("three", [False, True])
def test_support_vector_counts_are_the_estimators(sigmoid, three):
    """``sv[m[3][c != 0]] = True``: the comparison's #SV of the indefinite SVM is the mean
    over the folds of ``IndefiniteSVC.support_`` sizes."""
    K, y = sigmoid
    if three:
        y = np.where(np.arange(y.shape[0]) % 3 == 0, 2.0, y)
    s = isvm.RemedySearchCV(methods=["indefinite SVM", "flip"], param_grid={"C": [1.0]},
                            cv=3, random_state=0).fit(K, y)
    folds = StratifiedKFold(3, shuffle=True, random_state=0).split(K, y)
    sizes = [isvm.IndefiniteSVC(kernel="precomputed").fit(K[np.ix_(tr, tr)], y[tr])
             .support_.shape[0] for tr, _ in folds]
    assert s.comparison_.n_sv["indefinite SVM"] == pytest.approx(np.mean(sizes))
    pipe = Pipeline([("fix", isvm.remedies.FlipEigenvalues()),
                     ("svm", isvm.IndefiniteSVC(kernel="precomputed"))])
    assert s.comparison_.n_sv["flip"] == pytest.approx(np.mean([
        pipe.fit(K[np.ix_(tr, tr)], y[tr]).named_steps["svm"].support_.shape[0]
        for tr, _ in StratifiedKFold(3, shuffle=True, random_state=0).split(K, y)]), abs=2)


# -- the second batch -------------------------------------------------------------------------


def test_nystroem_svc_defaults_are_svcs():
    """``coef0: float = 0.0`` and the other kernel defaults: those of scikit-learn's SVC."""
    from sklearn.svm import SVC

    ours, theirs = isvm.NystroemSVC().get_params(), SVC().get_params()
    for key in ("C", "coef0", "degree", "tol", "decision_function_shape", "break_ties"):
        assert ours[key] == theirs[key], key
    # gamma=None, as scikit-learn's Nystroem: SVC's "scale" for vectors (the median rule
    # with a metric)
    assert ours["gamma"] is None and isvm.NystroemSVC()._gamma() == theirs["gamma"]


def test_exact_triangle_count_with_a_negative_diagonal():
    """``mask[k, :] = False``: the third point is never one of the pair (a negative
    ``D_kk`` would otherwise count ``d_kj > d_kk + d_kj``)."""
    D = np.array([[-1.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]])
    assert triangle_violations(D)[0] == 0.0


def test_search_warnings_point_at_the_callers_line(sigmoid, monkeypatch):
    """``stacklevel``: the ConvergenceWarning of the search names this file."""
    from indefsvm.remedies import _folds as _search  # the per-fold engine calls the solver

    real = _search.solve_duals
    monkeypatch.setattr(_search, "solve_duals",
                        lambda *a, **k: real(*a, **{**k, "max_iter": 2}))
    K, y = sigmoid
    with pytest.warns(isvm.ConvergenceWarning) as rec:
        isvm.RemedySearchCV(methods=["indefinite SVM"], param_grid={"C": [10.0]}, cv=3,
                            random_state=0).fit(K, y)
    assert any(r.filename == __file__ for r in rec)


def test_search_fit_times_are_durations(sigmoid):
    """``t1 - t0`` and ``t_fix + t_fit``: each candidate's fit time is positive and no
    longer than the whole search."""
    import time

    K, y = sigmoid
    t = time.perf_counter()
    s = isvm.RemedySearchCV(methods=["indefinite SVM", "flip", "k-NN"],
                            param_grid={"C": [0.1, 1.0]}, cv=3, random_state=0).fit(K, y)
    wall = time.perf_counter() - t
    res = s.cv_results_
    assert np.all(res["mean_fit_time"] > 0) and np.all(res["mean_fit_time"] < wall)
    assert np.all(res["mean_score_time"] >= 0) and np.all(res["mean_score_time"] < wall)
    flip = [i for i, p in enumerate(res["params"]) if p["method"] == "flip"]
    # flip's time holds its eigendecomposition on top of its solve
    assert res["mean_fit_time"][flip].min() > 0


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


def test_search_methods_must_be_a_list(sigmoid):
    """``isinstance(self.methods, str) or not iterable``: one name as a string is refused."""
    K, y = sigmoid
    with pytest.raises(ValueError, match="methods must be a list"):
        isvm.RemedySearchCV(methods="flip").fit(K, y)
    with pytest.raises(ValueError, match="methods must be a list"):
        isvm.RemedySearchCV(methods=3).fit(K, y)


def test_gamma_profile_with_zero_negligible_mass():
    """``if m > negligible``: a gamma whose negative mass is exactly the threshold counts
    as negligible (a Euclidean distance: every mass is 0)."""
    rng = np.random.default_rng(3)
    P = rng.normal(size=(15, 2))
    D = np.sqrt(((P[:, None] - P[None]) ** 2).sum(-1))
    rep = isvm.diagnostics.check_distances(D, negligible=0.0)
    gammas = [g for g, _ in rep.gamma_profile]
    assert all(m == 0.0 for _, m in rep.gamma_profile)
    assert rep.gamma_negligible_below == max(gammas)
    assert rep.gamma_negligible_above == min(gammas)


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


def test_nystroem_svc_log_lines_say_the_truth(caplog):
    """The features line: rows x columns, their MB and a duration."""
    import logging
    import re

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 4))
    y = np.where(X[:, 0] > 0, 1, -1)
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        clf = isvm.NystroemSVC(n_components=40, random_state=0, verbose=True).fit(X, y)
    cols = clf.nystroem_.n_components_
    line = next(r.getMessage() for r in caplog.records
                if r.getMessage().startswith("features:"))
    m = re.match(r"features: (\d+) x (\d+) float32 \((\d+) MB\), ([\d.]+) s", line)
    assert m and int(m[1]) == 300 and int(m[2]) == cols
    assert int(m[3]) == round(300 * cols * 4 / 2**20) and float(m[4]) < 60
    ny = next(r.getMessage() for r in caplog.records if r.getMessage().startswith("Nystroem:"))
    assert float(ny.rsplit(", ", 1)[1].rstrip(" s")) < 60


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


def test_search_log_names_the_fold(sigmoid, caplog):
    import logging

    K, y = sigmoid
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        isvm.RemedySearchCV(methods=["flip"], param_grid={"C": [1.0]}, cv=3, verbose=True,
                            random_state=0).fit(K, y)
    msgs = [r.getMessage() for r in caplog.records if "RemedySearchCV" in r.getMessage()]
    assert [m.split("(fold ")[1].split(",")[0] for m in msgs] == ["1", "2", "3"]


def test_a_training_fold_with_one_class(sigmoid):
    """A fold whose training part holds one class scores NaN (with a warning), takes no
    time, and is left out of the choice; every fold so: an error."""
    K, y = sigmoid
    one = np.flatnonzero(y == y[0])
    other = np.flatnonzero(y != y[0])
    folds = [(one[:60], np.r_[one[60:70], other[:10]]),
             (np.r_[one[:80], other[:80]], np.r_[one[80:90], other[80:90]])]
    with pytest.warns(UserWarning, match="1 of 2 training folds hold one class only"):
        s = isvm.RemedySearchCV(methods=["indefinite SVM", "k-NN"],
                                param_grid={"C": [1.0], "n_neighbors": [3]}, cv=folds).fit(K, y)
    res = s.cv_results_
    assert np.all(np.isnan(res["split0_test_score"])) and np.all(res["mean_fit_time"] < 0.5)
    assert np.all(np.isnan(res["mean_test_score"]))
    # the choice reads the second fold only
    assert s.best_score_ == res["split1_test_score"][s.best_index_]
    assert s.comparison_.cv == 1 and s.predict(K[:3]).shape == (3,)
    with pytest.raises(ValueError, match="one class only"):
        isvm.RemedySearchCV(methods=["flip"], param_grid={"C": [1.0]},
                            cv=[folds[0], folds[0]]).fit(K, y)
