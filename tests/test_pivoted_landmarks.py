"""Issue 42, item 5: landmarks by greedy pivoted Cholesky (``landmarks="pivoted"``), checked
against LAPACK's pivoted Cholesky (``dpstrf``, complete pivoting) on PSD kernels, against a
brute-force Nystroem residual on an indefinite one, and through both estimators."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.linalg import lapack

import indefsvm as isvm
from indefsvm.kernels import kernel_matrix
from indefsvm.nystroem._pivoted import pivot_indices


def _rbf_data(n=60, d=3, seed=0):
    rng = np.random.default_rng(seed)
    # distinct scales: the diagonal of the residual has no ties after the first pivot
    return rng.normal(size=(n, d)) * np.array([1.0, 0.5, 0.2])


def test_the_pivots_are_lapacks_on_a_psd_kernel():
    X = _rbf_data()
    for K in (kernel_matrix(X, kernel="rbf", gamma=0.3), X @ X.T + 0.1 * np.eye(60),
              kernel_matrix(X, kernel="polynomial", gamma=0.5, coef0=1.0, degree=2)):
        m = 12
        _, piv, rank, info = lapack.dpstrf(K.copy(), lower=1, tol=-1)
        ours = pivot_indices(lambda j, K=K: K[:, j], np.diag(K).copy(), m,
                             np.random.default_rng(0))
        # LAPACK breaks ties by the first index, as argmax does: the same order, up to the
        # kernel's numerical rank (LAPACK stops there; the rest is drawn)
        k = min(m, rank)
        assert k >= 10
        np.testing.assert_array_equal(ours[:k], piv[:k] - 1)


def test_each_pivot_is_the_worst_represented_object_of_an_indefinite_kernel():
    # brute force: the Nystroem residual |k(x,x) - k(x,L) W^-1 k(L,x)| of every object,
    # recomputed from scratch with the landmarks so far; the next pivot is its largest
    X = _rbf_data(40)
    K = kernel_matrix(X, kernel="sigmoid", gamma=0.4, coef0=-0.5)
    assert np.linalg.eigvalsh(K).min() < -1e-3  # indefinite indeed
    m = 8
    ours = list(pivot_indices(lambda j: K[:, j], np.diag(K).copy(), m,
                              np.random.default_rng(0)))
    chosen = []
    for _ in range(m):
        if chosen:
            C = K[:, chosen]
            r = np.diag(K) - np.einsum("ij,ij->i", C, np.linalg.solve(K[np.ix_(chosen, chosen)],
                                                                     C.T).T)
        else:
            r = np.diag(K).copy()
        r[chosen] = -np.inf
        chosen.append(int(np.argmax(np.abs(np.where(np.isinf(r), 0, r)) - np.isinf(r))))
    assert ours == chosen


def test_a_kernel_of_low_rank_is_exact_and_the_rest_drawn():
    rng = np.random.default_rng(1)
    Z = rng.normal(size=(30, 3))
    K = Z @ Z.T  # rank 3
    piv = pivot_indices(lambda j: K[:, j], np.diag(K).copy(), 10, np.random.default_rng(0))
    assert piv.size == 10 and np.unique(piv).size == 10
    L = piv[:3]
    approx = K[:, L] @ np.linalg.solve(K[np.ix_(L, L)], K[L])
    np.testing.assert_allclose(approx, K, atol=1e-9 * np.abs(K).max())


def test_krein_nystroem_pivoted_landmarks_approximate_better_at_small_m():
    # clustered data at a small m: the pivoted landmarks cover every cluster, the kernel
    # approximation error is below the uniform draws' (mean of 5)
    rng = np.random.default_rng(0)
    centres = rng.normal(scale=6.0, size=(12, 2))
    X = np.concatenate([c + 0.3 * rng.normal(size=(40, 2)) for c in centres])
    X = X[rng.permutation(len(X))]
    K = kernel_matrix(X, kernel="rbf", gamma=1.0)

    def error(rule, seed):
        ny = isvm.KreinNystroem(kernel="rbf", gamma=1.0, n_components=12, landmarks=rule,
                                random_state=seed).fit(X)
        return np.linalg.norm(ny.approximate_kernel(X) - K) / np.linalg.norm(K)

    piv = error("pivoted", 0)
    uni = np.mean([error("uniform", s) for s in range(5)])
    assert piv < 0.75 * uni
    ny = isvm.KreinNystroem(kernel="rbf", gamma=1.0, n_components=12, landmarks="pivoted",
                            random_state=0).fit(X)
    # one landmark in each cluster
    assert np.unique(np.argmin(((X[ny.component_indices_][:, None] - centres) ** 2).sum(-1),
                               axis=1)).size == 12


def test_pivoted_landmarks_on_series_and_the_kinds_they_refuse():
    X, y = isvm.datasets.make_cbf(60, length=32, random_state=0)
    clf = isvm.NystroemSVC(metric="dtw", n_components=12, landmarks="pivoted",
                           random_state=0).fit(X, y)
    assert clf.nystroem_.component_indices_.size == 12
    assert np.unique(clf.nystroem_.component_indices_).size == 12
    # the same landmarks from the same seed; the objects' pool pivots on exp(-gamma d^2)
    again = isvm.NystroemSVC(metric="dtw", n_components=12, landmarks="pivoted",
                             random_state=0).fit(X, y)
    np.testing.assert_array_equal(clf.nystroem_.component_indices_,
                                  again.nystroem_.component_indices_)
    assert clf.score(X, y) > 0.8
    with pytest.raises(ValueError, match="landmarks='pivoted' with metric="):
        isvm.KreinNystroem(metric="dtw", kernel="linear", n_components=5,
                           landmarks="pivoted").fit(X)


def test_the_command_line_picks_pivoted_landmarks(tmp_path, capsys):
    import json

    from indefsvm.cli import main

    X, y = isvm.datasets.make_cbf(60, length=32, random_state=0)
    path = tmp_path / "series.txt"
    np.savetxt(path, np.c_[y, X], fmt="%.5f")
    assert main(["fit", str(path), "--metric", "dtw", "--nystroem", "12", "--landmarks",
                 "pivoted", "-C", "1", "--cv", "0", "--json", "--save",
                 str(tmp_path / "m.skops")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["landmarks"] == 12
    model = isvm.load_model(tmp_path / "m.skops")
    assert model.landmarks == "pivoted"
    from sklearn.base import clone

    data = np.loadtxt(path)  # the file's numbers, as the command line read them
    ref = clone(model).fit(data[:, 1:], data[:, 0].astype(int))
    np.testing.assert_array_equal(model.nystroem_.component_indices_,
                                  ref.nystroem_.component_indices_)


@pytest.mark.parametrize("rule", ["pivoted", "kmeans++"])
def test_the_command_line_picks_landmarks_of_feature_vectors(tmp_path, capsys, rule):
    # fit --nystroem M on features took only uniform landmarks: --landmarks was refused
    # ("goes with --metric") though NystroemSVC(kernel=...) has the rules for vectors
    import json

    from sklearn.base import clone
    from sklearn.datasets import dump_svmlight_file, make_moons

    from indefsvm.cli import main

    X, y = make_moons(120, noise=0.2, random_state=0)
    path = tmp_path / "moons.svm"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    model_file = tmp_path / "m.skops"
    assert main(["fit", str(path), "--nystroem", "15", "--landmarks", rule, "--kernel",
                 "sigmoid", "--gamma", "0.5", "-C", "1", "--cv", "0", "--json", "--save",
                 str(model_file)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["landmarks"] == 15 and out["landmark_rule"] == rule
    model = isvm.load_model(model_file)
    assert model.landmarks == rule
    # the same model as the library's with the same rule and seed (the file's rounding of X)
    from sklearn.datasets import load_svmlight_file

    Xf, yf = load_svmlight_file(str(path))
    ref = clone(model).fit(Xf.toarray(), yf)
    np.testing.assert_array_equal(model.nystroem_.component_indices_,
                                  ref.nystroem_.component_indices_)
    assert main(["fit", str(path), "--nystroem", "15", "--landmarks", rule, "--kernel",
                 "sigmoid", "--gamma", "0.5", "-C", "1", "--cv", "0"]) == 0
    assert f"landmarks={rule}" in capsys.readouterr().out


@pytest.mark.parametrize("argv, said", [
    (["--nystroem", "15", "--landmarks", "kmedoids++"],
     "--landmarks kmedoids++ seeds on the distances of series or strings (--metric); for "
     "feature vectors its rule in input space is --landmarks kmeans++"),
    (["--landmarks", "pivoted"],
     "--landmarks goes with --metric (series or strings) or --nystroem M (features)"),
])
def test_landmark_rules_that_do_not_fit_the_data_are_refused(argv, said, capsys):
    from indefsvm.cli import main

    assert main(["fit", "--dataset", "heart", "-C", "1", "--cv", "0", *argv]) == 2
    assert said in capsys.readouterr().err


def test_kmeans_landmarks_of_series_are_refused(tmp_path, capsys):
    from indefsvm.cli import main

    X, y = isvm.datasets.make_cbf(30, length=16, random_state=0)
    path = tmp_path / "series.txt"
    np.savetxt(path, np.c_[y, X], fmt="%.5f")
    assert main(["fit", str(path), "--metric", "dtw", "--landmarks", "kmeans++", "-C",
                 "1"]) == 2
    assert "--landmarks kmeans++ seeds in input space" in capsys.readouterr().err
