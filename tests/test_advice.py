"""Issue 34: from a verdict to the model it recommends -- sanity reports for every model the
library makes, and the command line training what it recommends."""

from types import SimpleNamespace

import numpy as np
import pytest
from sklearn.datasets import load_iris

import indefsvm as isvm
from indefsvm.diagnostics._advice import recommendation

# -- item 6: sanity for every model the library makes ---------------------------------------


@pytest.fixture(scope="module")
def heart_distances():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    return isvm.pairwise_distances(X[:120]), y[:120]


def test_sanity_report_of_a_search_is_that_of_its_refitted_model(heart_distances):
    D, y = heart_distances
    search = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=3, random_state=0,
                                 methods=["clip", "flip"]).fit(D, y)
    rep = isvm.sanity_report(search, D, y)
    direct = isvm.sanity_report(search.best_estimator_, D, y)
    assert rep.to_dict() == direct.to_dict()
    assert rep.n == D.shape[0]


def test_sanity_report_of_a_search_that_chose_knn_says_there_is_no_dual(heart_distances):
    D, y = heart_distances
    search = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=3, random_state=0,
                                 methods=["k-NN"]).fit(D, y)
    assert search.best_method_ == "k-NN"
    with pytest.raises(ValueError, match="k-NN, which has no dual problem"):
        isvm.sanity_report(search, D, y)
    unrefitted = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=3, random_state=0,
                                     methods=["clip"], refit=False).fit(D, y)
    with pytest.raises(ValueError, match="refit=True"):
        isvm.sanity_report(unrefitted, D, y)


def test_a_multiclass_sanity_report_starts_with_an_overall_line():
    X, y = load_iris(return_X_y=True)
    clf = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.5, coef0=-1.0, C=1.0).fit(X, y)
    rep = isvm.sanity_report(clf, X, y)
    first = str(rep).splitlines()[0]
    assert first.startswith("Overall: ") and "of 3 one-vs-one pairs sensible" in first
    c = rep.to_dict()["counts"]
    # the counts are those of the pairs' own reports
    assert c["sensible"] == sum(r.is_stationary and r.wMw > 0 for r in rep.reports)
    assert c["not_stationary"] == sum(not r.is_stationary for r in rep.reports)
    assert c["sensible"] + c["not_stationary"] + c["counter_intuitive"] == 3
    worst = min(range(3), key=lambda i: rep.reports[i].wMw)
    if c["not_stationary"] == 0:
        assert c["worst"] == [str(v) for v in rep.pairs[worst]]
    import html

    assert html.escape(rep.overall) in rep._repr_html_()
    assert rep.to_dict()["overall"] == rep.overall


def test_a_nystroem_sanity_report_reads_wmw_on_a_relative_scale():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    clf = isvm.NystroemSVC(kernel="sigmoid", gamma=0.05, coef0=-1.0, n_components=80,
                           random_state=0).fit(X, y)
    rep = isvm.sanity_report(clf, X, y)
    (p,) = rep.problems
    # w'Sw / w'w recomputed here from the model's own weights and signature
    w = clf.coef_[0] * clf.metric_
    S = clf.nystroem_.signature_[:w.shape[0]]
    assert p["wMw_relative"] == pytest.approx((w * S) @ w / (w @ w), rel=1e-4)
    assert p["negative_share"] == pytest.approx(w[S < 0] @ w[S < 0] / (w @ w), rel=1e-4,
                                                abs=1e-12)
    assert -1.0 <= p["wMw_relative"] <= 1.0
    text = str(rep)
    assert "w'Sw / w'w = " in text and "of |w|^2" in text


def test_the_nystroem_reading_of_a_counter_intuitive_model_gives_advice():
    # a problem whose weights lie mostly on the negative features
    from indefsvm.diagnostics._feature_report import NystroemSanityReport, _nystroem_notes

    prob = {"classes": (0, 1), "n": 10, "n_sv": 4, "n_bounded": 1, "bounded_ratio": 0.1,
            "train_error": 0.06, "kkt_gap": 0.0, "feasibility": 0.0, "objective": -1.0,
            "wMw": -7e-06, "wMw_relative": -0.117, "negative_share": 0.5585, "margin": None,
            "class_mean_sqdist": 1.0, "coef_error": 0.0}
    rep = NystroemSanityReport(remedy="krein", n_landmarks=5, n_features=5, n_positive=3,
                               n_negative=2, tol=1e-3, is_stationary=True, problems=[prob])
    notes = " ".join(_nystroem_notes(rep, True))
    assert "-0.117" in notes and "55.9%" in notes and "smaller C" in notes
    assert "remedy='clip'" in notes
    assert "counter-intuitive" in str(rep)
    prob["wMw_relative"] = 2e-5
    notes = " ".join(_nystroem_notes(rep, True))
    assert "not determined" in notes and "counter-intuitive convex-hull" not in notes


# -- item 2: the command line trains what it recommends --------------------------------------


@pytest.fixture(scope="module")
def kernel_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("advice")
    X, y = isvm.datasets.load_heart(return_X_y=True)
    X, y, Xt = X[:120], y[:120], X[120:150]
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5)
    Kt = isvm.kernel_matrix(Xt, X, kernel="sigmoid", gamma=0.01, coef0=-0.5)
    np.save(d / "K.npy", K)
    np.save(d / "Kt.npy", Kt)
    np.savetxt(d / "y.txt", y, fmt="%d")
    D = isvm.pairwise_distances(X)
    np.save(d / "D.npy", D)
    np.save(d / "Dt.npy", isvm.pairwise_distances(Xt, X))
    return d, K, Kt, y, X, Xt


def _predicted(capsys, argv):
    from indefsvm.cli import main

    capsys.readouterr()
    assert main(argv) == 0
    return np.array([float(v) for v in capsys.readouterr().out.split()])


@pytest.mark.parametrize("option, method", [
    ("clip", "clip"), ("flip", "flip"), ("shift", "shift"),
    ("advanced-shift", "advanced shift"), ("square", "square"), ("cne", "CNE"),
    ("rne", "RNE"), ("krein", "Krein SVM")])
def test_fit_remedy_on_a_whole_kernel_is_the_method_of_the_table(kernel_files, capsys, option,
                                                                 method):
    from indefsvm.cli import main
    from indefsvm.remedies._methods import svm_estimator

    d, K, Kt, y, _, _ = kernel_files
    model = str(d / f"{option}.skops")
    assert main(["fit", str(d / "K.npy"), "--labels", str(d / "y.txt"), "--remedy", option,
                 "-C", "10", "--cv", "0", "--save", model]) == 0
    out = capsys.readouterr().out
    assert f"--remedy {option}" in out and "model saved to" in out
    pred = _predicted(capsys, ["predict", model, str(d / "Kt.npy")])
    # the same method built by the library's table, fitted in Python
    ref = svm_estimator(method, {"C": 10.0}).fit(K, y)
    assert np.array_equal(pred, ref.predict(Kt))


def test_fit_remedy_on_distances_and_on_features(kernel_files, capsys):
    from indefsvm.cli import main

    d, K, Kt, y, X, Xt = kernel_files
    model = str(d / "dist-flip.skops")
    assert main(["fit", str(d / "D.npy"), "--labels", str(d / "y.txt"), "--distances",
                 "--remedy", "flip", "--cv", "0", "--no-search", "--save", model]) == 0
    pred = _predicted(capsys, ["predict", model, str(d / "Dt.npy"), "--distances"])
    from sklearn.pipeline import Pipeline

    ref = Pipeline([("k", isvm.DistanceKernel()),
                    ("fix", isvm.remedies.FlipEigenvalues()),
                    ("svm", isvm.IndefiniteSVC(kernel="precomputed"))]).fit(
        np.load(d / "D.npy"), y)
    assert np.array_equal(pred, ref.predict(np.load(d / "Dt.npy")))
    # features: the Krein SVM computes its kernel itself; a spectrum fix is fitted on the
    # kernel that FeatureKernel computes, which also turns new features into kernel rows
    np.savetxt(d / "X.csv", np.c_[y, X], delimiter=",")
    np.savetxt(d / "Xt.csv", np.c_[np.ones(len(Xt)), Xt], delimiter=",")
    model = str(d / "feat-krein.skops")
    assert main(["fit", str(d / "X.csv"), "--label-column", "0", "--kernel", "sigmoid",
                 "--gamma", "0.01", "--coef0", "-0.5", "--remedy", "krein", "--cv", "0",
                 "-C", "1", "--save", model]) == 0
    pred = _predicted(capsys, ["predict", model, str(d / "Xt.csv"), "--label-column", "0"])
    ref = isvm.KreinSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5).fit(X, y)
    assert np.array_equal(pred, ref.predict(Xt))
    model = str(d / "feat-clip.skops")
    assert main(["fit", str(d / "X.csv"), "--label-column", "0", "--kernel", "sigmoid",
                 "--gamma", "0.01", "--coef0", "-0.5", "--remedy", "clip", "--cv", "0",
                 "-C", "1", "--save", model]) == 0
    pred = _predicted(capsys, ["predict", model, str(d / "Xt.csv"), "--label-column", "0"])
    # the reference computes the kernels itself: the fix on K(X, X), its rows k(Xt, X)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5)
    ref = Pipeline([("fix", isvm.remedies.ClipEigenvalues()),
                    ("svm", isvm.IndefiniteSVC(kernel="precomputed"))]).fit(K, y)
    assert np.array_equal(pred, ref.predict(
        isvm.kernel_matrix(Xt, X, kernel="sigmoid", gamma=0.01, coef0=-0.5)))
    assert main(["fit", str(d / "X.csv"), "--label-column", "0", "--nystroem", "10",
                 "--remedy", "square"]) == 2
    assert "krein, flip or clip" in capsys.readouterr().err


def test_fit_remedy_too_big_is_said_before_the_work(kernel_files, capsys, monkeypatch):
    from indefsvm import _validation
    from indefsvm.cli import main

    d, *_ = kernel_files
    # 120 samples: 5 matrices are 0.55 MB; say 0.4 MB are free
    monkeypatch.setattr(_validation, "available_memory", lambda: 0.4 * 2**20)
    model = d / "never.skops"
    assert main(["fit", str(d / "K.npy"), "--labels", str(d / "y.txt"), "--remedy", "flip",
                 "--save", str(model)]) == 1
    err = capsys.readouterr().err
    assert err.count("indefsvm: error:") == 1 and "GiB" in err and "nothing was computed" in err
    assert not model.exists()


def test_a_changed_remedy_model_file_is_refused(kernel_files, capsys):
    import skops.io as sio

    from indefsvm.cli import main

    d, *_ = kernel_files
    assert main(["fit", str(d / "K.npy"), "--labels", str(d / "y.txt"), "--remedy", "clip",
                 "--cv", "0", "--save", str(d / "c.skops")]) == 0
    model = sio.load(d / "c.skops", trusted=sio.get_untrusted_types(file=d / "c.skops"))
    model.steps[0][1].projector_[0, 0] = np.nan
    sio.dump(model, d / "bad.skops")
    capsys.readouterr()
    assert main(["predict", str(d / "bad.skops"), str(d / "Kt.npy")]) == 1
    assert "kernel fix whose projector" in capsys.readouterr().err


@pytest.mark.parametrize("extra", [[], ["--balanced"]])
def test_compare_search_saves_its_choice_and_prints_the_command_that_retrains_it(
        kernel_files, capsys, extra):
    import shlex

    import skops.io as sio

    from indefsvm.cli import main

    d, _, _, y, *_ = kernel_files
    assert np.ptp(np.unique(y, return_counts=True)[1]) > 5  # balanced weights change the model
    saved = str(d / "search.skops")
    assert main(["compare", str(d / "D.npy"), "--labels", str(d / "y.txt"), "--distances",
                 "--search", "--cv", "3", "--save", saved, *extra]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("To train it again: "))
    command = shlex.split(line.removeprefix("To train it again: "))
    assert command[:2] == ["indefsvm", "fit"]
    again = str(d / "again.skops")
    command[command.index("--save") + 1] = again
    assert main(command[1:] + ["--cv", "0"]) == 0
    Dt = np.load(d / "Dt.npy")
    a = sio.load(saved, trusted=sio.get_untrusted_types(file=saved))
    b = sio.load(again, trusted=sio.get_untrusted_types(file=again))
    assert np.allclose(a.decision_function(Dt), b.decision_function(Dt), atol=1e-9)
    capsys.readouterr()
    pred = _predicted(capsys, ["predict", saved, str(d / "Dt.npy"), "--distances"])
    assert np.array_equal(pred, a.predict(Dt))


def test_compare_prints_a_fit_command_and_refuses_save_without_search(kernel_files, capsys):
    import shlex

    from indefsvm.cli import main

    d, *_ = kernel_files
    assert main(["compare", str(d / "K.npy"), "--labels", str(d / "y.txt"), "--cv", "3",
                 "--save", str(d / "x.skops")]) == 2
    assert "add --search" in capsys.readouterr().err
    assert main(["compare", str(d / "K.npy"), "--labels", str(d / "y.txt"), "--cv", "3",
                 "--C-grid", "0.1,1,10"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("To train it: "))
    command = shlex.split(line.removeprefix("To train it: "))
    command[command.index("--save") + 1] = str(d / "rec.skops")
    assert main(command[1:] + ["--cv", "0"]) == 0


# -- item 1: advice that fits the size and names the tool that acts on it --------------------


def _run_printed(text, pattern, namespace):
    """Execute the code a recommendation prints, as printed."""
    import re

    m = re.search(pattern, text)
    assert m, text
    exec(m.group(1), namespace)  # noqa: S102 - the library's own printed advice
    return namespace


@pytest.fixture(scope="module")
def sigmoid_heart():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    return X, y


def test_check_kernel_advice_is_a_search_that_runs_as_printed(sigmoid_heart):
    X, y = sigmoid_heart
    rep = isvm.check_kernel(X=X, y=y, kernel="sigmoid", gamma=0.5, coef0=-1.5)
    rec = rep.notes[-2]
    assert rec.startswith("Recommendation:") and "compare_remedies(K, y)" not in rec
    # features: the search takes them with a FeatureKernel (gamma searched around the
    # report's), and the model it refits predicts from features
    ns = _run_printed(rec, r"(search = indefsvm\.RemedySearchCV\(kernel=indefsvm\."
                           r"FeatureKernel\('sigmoid', gamma=0\.5, coef0=-1\.5\)\)\.fit\(X, y\))",
                      {"indefsvm": isvm, "X": X, "y": y})
    search = ns["search"]
    assert search.best_method_ in isvm.remedies.METHODS
    assert 0.5 in search.cv_results_["param_gamma"]
    assert search.predict(X[:5]).shape == (5,)
    # a kernel without gamma: its other parameters go to kernel_params, as printed
    rec = isvm.check_kernel(X=X, y=y, kernel="pseudo_euclidean", p=5).notes[-2]
    ns = _run_printed(rec, r"(search = indefsvm\.RemedySearchCV\(kernel=indefsvm\."
                           r"FeatureKernel\('pseudo_euclidean', kernel_params=\{'p': 5\}\)\)"
                           r"\.fit\(X, y\))", {"indefsvm": isvm, "X": X, "y": y})
    assert ns["search"].best_estimator_[0].kernel_params_ == {"p": 5}
    # a callable by its own name, its parameters in kernel_params; a lambda has no name
    # code can use, and the search takes the kernel matrix K
    def my_kernel(A, B, a=1.0):
        return np.tanh(a * A @ B.T - 1.5)
    rec = isvm.check_kernel(X=X, y=y, kernel=my_kernel, a=0.5).notes[-2]
    ns = _run_printed(rec, r"(search = indefsvm\.RemedySearchCV\(kernel=indefsvm\."
                           r"FeatureKernel\(my_kernel, kernel_params=\{'a': 0\.5\}\)\)"
                           r"\.fit\(X, y\))",
                      {"indefsvm": isvm, "X": X, "y": y, "my_kernel": my_kernel})
    assert ns["search"].predict(X[:5]).shape == (5,)
    rec = isvm.check_kernel(X=X, y=y, kernel=lambda A, B: my_kernel(A, B, 0.5)).notes[-2]
    assert "search = indefsvm.RemedySearchCV().fit(K, y)" in rec and "lambda" not in rec


def test_check_kernel_advice_at_scale_is_nystroem_with_the_landmarks_it_needs(
        sigmoid_heart, monkeypatch):
    import sklearn.model_selection

    import indefsvm.diagnostics._advice as report

    X, y = sigmoid_heart
    monkeypatch.setattr(report, "SCALE_N", 100)  # heart's 270 samples play 10^5
    rep = isvm.check_kernel(X=X, y=y, kernel="sigmoid", gamma=0.5, coef0=-1.5)
    rec = rep.notes[-2]
    assert "RemedySearchCV().fit(" not in rec and "compare_remedies" not in rec
    ns = _run_printed(rec, r"(clf = indefsvm\.NystroemSVC\(.*?\)\.fit\(X, y\))",
                      {"indefsvm": isvm, "X": X, "y": y})
    assert ns["clf"].n_components >= rep.nystroem_landmarks
    assert f"--nystroem {ns['clf'].n_components}" in rec
    # a kernel's parameters beyond gamma, coef0 and degree: in kernel_params, as printed
    rec = isvm.check_kernel(X=X, y=y, kernel="pseudo_euclidean", p=5).notes[-2]
    ns = _run_printed(rec, r"(clf = indefsvm\.NystroemSVC\(.*?\)\.fit\(X, y\))",
                      {"indefsvm": isvm, "X": X, "y": y})
    assert ns["clf"].kernel_params == {"p": 5}
    # a kernel given as a matrix: SMO on it, the search on a subsample, as printed
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.5, coef0=-1.5)
    rec = isvm.check_kernel(K, y).notes[-2]
    ns = _run_printed(rec, r"\((idx = .*?; search = .*?\]\))\)",
                      {"indefsvm": isvm, "K": K, "y": y, "numpy": np, "sklearn": sklearn})
    assert ns["search"].comparison_.n == len(ns["idx"])


def test_check_distances_advice_is_the_search_with_a_distance_kernel(sigmoid_heart):
    X, y = sigmoid_heart
    D = isvm.pairwise_distances(X[:100], metric="cityblock") ** 1.5
    rec = isvm.diagnostics.check_distances(D, y[:100]).notes[-2]
    assert "compare_remedies" not in rec
    ns = _run_printed(rec, r"(search = indefsvm\.RemedySearchCV\(kernel=indefsvm\."
                           r"DistanceKernel\(\)\)\.fit\(D, y\))",
                      {"indefsvm": isvm, "D": D, "y": y[:100]})
    assert hasattr(ns["search"], "best_estimator_")


# -- item 3: defaults that tune ------------------------------------------------------------


def _fit_json(capsys, argv):
    import json

    from indefsvm.cli import main

    capsys.readouterr()
    assert main(["fit", *argv, "--cv", "0", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_fit_without_c_and_gamma_searches_them_as_grid_py_does(capsys):
    from sklearn.model_selection import StratifiedKFold, cross_val_score

    from indefsvm.cli import _tune

    out = _fit_json(capsys, ["--dataset", "heart", "--kernel", "rbf"])
    s = out["search"]
    assert s["searched"] == ["C", "gamma"] and s["points"] == 25 and s["folds"] == 3
    assert out["C"] == s["C"] and out["kernel_params"]["gamma"] == pytest.approx(s["gamma"])
    # an independent check of the choice: scikit-learn's cross_val_score on the same folds
    X, y = isvm.datasets.load_heart(return_X_y=True)
    g0 = 1.0 / (X.shape[1] * X.var())
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    best = max(cross_val_score(isvm.IndefiniteSVC(C=C, gamma=g0 * f), X, y, cv=cv).mean()
               for C in _tune.C_GRID for f in _tune.GAMMA_FACTORS)
    chosen = cross_val_score(isvm.IndefiniteSVC(C=s["C"], gamma=s["gamma"]), X, y,
                             cv=cv).mean()
    assert chosen == pytest.approx(best) and s["cv_accuracy"] == pytest.approx(best)
    assert s["gamma_rule"] == pytest.approx(g0)


def test_no_search_or_both_values_fit_exactly_what_was_given(capsys):
    out = _fit_json(capsys, ["--dataset", "heart", "--no-search"])
    assert out["search"] is None and out["C"] == 1.0
    X, y = isvm.datasets.load_heart(return_X_y=True)
    assert out["training_accuracy"] == pytest.approx(isvm.IndefiniteSVC().fit(X, y).score(X, y))
    out = _fit_json(capsys, ["--dataset", "heart", "-C", "3", "--gamma", "0.05"])
    assert out["search"] is None and out["C"] == 3.0
    # one value given: the other is searched
    out = _fit_json(capsys, ["--dataset", "heart", "-C", "3"])
    assert out["search"]["searched"] == ["gamma"] and out["C"] == 3.0
    out = _fit_json(capsys, ["--dataset", "heart", "--gamma", "0.05"])
    assert out["search"]["searched"] == ["C"] and out["search"]["points"] == 5


def test_the_search_of_a_kernel_file_distances_and_nystroem(kernel_files, capsys, monkeypatch):
    from indefsvm.cli import _tune

    d, *_ = kernel_files
    out = _fit_json(capsys, [str(d / "K.npy"), "--labels", str(d / "y.txt")])
    assert out["search"]["searched"] == ["C"]  # a precomputed kernel has no gamma
    out = _fit_json(capsys, [str(d / "D.npy"), "--labels", str(d / "y.txt"), "--distances"])
    assert out["search"]["searched"] == ["C", "gamma"]
    assert out["kernel_params"]["gamma"] == pytest.approx(out["search"]["gamma"])
    # above SEARCH_MAX samples the grid is searched on a stratified subsample
    monkeypatch.setattr(_tune, "SEARCH_MAX", 100)
    out = _fit_json(capsys, ["--dataset", "heart", "--nystroem", "40"])
    assert out["search"]["samples"] == 100 and out["model"] == "NystroemSVC"
    assert out["n_samples"] == 270
    from indefsvm.cli import main

    capsys.readouterr()
    assert main(["fit", "--dataset", "heart", "--cv", "0"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("search"))
    assert "3-fold CV accuracy" in line and "grid points on 100 samples" in line


# -- item 7: the search at the cost of a grid search --------------------------------------


def test_parallel_search_workers_run_blas_on_one_thread(monkeypatch):
    import joblib
    from threadpoolctl import threadpool_info

    import indefsvm.remedies._search as search_mod

    seen = []
    real = search_mod._task

    def recording(*args):
        seen.append(max((p["num_threads"] for p in threadpool_info()
                         if p["user_api"] == "blas"), default=1))
        return real(*args)

    monkeypatch.setattr(search_mod, "_task", recording)
    X, y = isvm.datasets.load_heart(return_X_y=True)
    D = isvm.pairwise_distances(X[:80])
    with joblib.parallel_config(backend="threading"):
        isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=2, random_state=0, n_jobs=2,
                            methods=["clip"], param_grid={"C": [1.0]}).fit(D, y[:80])
    assert seen and max(seen) == 1


def test_the_vote_of_many_pairs_is_libsvms():
    # the vectorised vote against a plain loop over the pairs (ties: the first class)
    from indefsvm.svm._ovo import OvOVotes

    rng = np.random.default_rng(0)
    k = 6
    pairs = [(a, b, a if (a + b) % 2 else b) for a in range(k) for b in range(a + 1, k)]
    voter = OvOVotes()
    voter.classes_, voter._pairs = np.arange(k) * 10, pairs
    voter.break_ties, voter.decision_function_shape = False, "ovr"
    dec = rng.normal(size=(300, len(pairs)))
    dec[:5] = 0.0  # every pair to its negative class
    votes = np.zeros((300, k), dtype=int)
    for p, (a, b, pos) in enumerate(pairs):
        for i in range(300):
            votes[i, pos if dec[i, p] > 0 else (b if pos == a else a)] += 1
    assert np.array_equal(voter._labels_from_ovo(dec), voter.classes_[votes.argmax(axis=1)])


def _report(wmw=None, mass=0.05, ratio=0.01, q=3):
    sig = SimpleNamespace(p=50, q=q, negative_mass=mass, negative_ratio=ratio)
    return SimpleNamespace(is_psd=False, is_cpd=False, signature=sig, negated_cpd=False,
                           spectrum=SimpleNamespace(estimated=False),
                           class_mean_sqdist=None, wmw_by_C=wmw, mass_thresholds=(0.01, 0.1),
                           n=100, kernel=None, nystroem_landmarks=None)


def test_recommendation_keeps_C_only_when_some_wmw_is_not_positive():
    mixed = recommendation(_report({0.1: 0.5, 1.0: 0.2, 10.0: -0.1}))
    assert "keep C <= 1" in mixed
    small_but_positive = recommendation(_report({0.1: 0.5, 1.0: 0.2, 10.0: 0.3}))
    assert "keep C" not in small_but_positive


def test_recommendation_for_strongly_indefinite_says_the_method_matters():
    assert "the choice of method matters" in recommendation(_report(mass=0.3))
    assert "the choice of method matters" not in recommendation(_report(mass=0.05))


def test_wmw_rule_reads_C_from_one_upwards():
    # heart, sigmoid a = 1/13, r = 0: w'Mw > 0 at C = 1, <= 0 at C = 10 and 100 -> usable
    X, y = isvm.datasets.load_heart(return_X_y=True)
    rep = isvm.check_kernel(X=X, y=y, kernel="sigmoid", gamma=1 / 13, coef0=0.0)
    assert rep.wmw_by_C[1.0] > 0 and rep.wmw_by_C[10.0] <= 0
    assert rep.verdict != "unsuitable as it stands: use a remedy"


def test_recommendation_zero_wmw_is_not_positive():
    only_zero = recommendation(_report({1.0: 0.0}))
    assert "every C tried gives w'Mw <= 0" in only_zero
    zero_and_pos = recommendation(_report({0.1: 0.2, 1.0: 0.0}))
    assert "keep C <= 0.1 (w'Mw > 0 there)" in zero_and_pos
    assert "so also search the remedies on your folds" in zero_and_pos


def test_recommendation_class_means_at_zero_distance():
    r = _report()
    r.class_mean_sqdist = 0.0
    assert "class means are at c'Kc = 0 <= 0" in recommendation(r)
    r.class_mean_sqdist = 0.5
    assert "class means" not in recommendation(r)


def test_recommendation_for_psd_and_cpd_kernels():
    r = _report()
    r.is_psd, r.is_cpd = True, False
    assert recommendation(r) == ("Recommendation: train on K as it is; the SVM dual is "
                                 "convex.")
    r.is_psd, r.is_cpd = False, True
    assert recommendation(r).endswith("convex on y'alpha = 0 (CPD).")


def test_recommendation_for_slightly_and_moderately_indefinite():
    slight = recommendation(_report(mass=0.001, ratio=0.001))
    assert "(negative mass 0.1 %: slightly indefinite; clip and flip change little" in slight
    moderate = recommendation(_report(mass=0.05, ratio=0.01))
    assert moderate.startswith("Recommendation: train on K as it is with a sanity_report "
                               "(negative mass 5 %), and search the remedies on your folds")


def test_pct_never_rounds_a_small_share_to_zero():
    from indefsvm.diagnostics.report import pct

    assert pct(0) == "0 %"
    assert pct(0.000138) == "0.0138 %"
    assert pct(0.5) == "50 %"


def test_class_means_at_zero_distance_are_called_unsuitable_per_pair():
    # K = ee': every difference of class means has c'Kc = (sum c)^2 = 0 exactly
    y = np.array([0, 0, 1, 1, 2, 2])
    rep = isvm.check_kernel(np.ones((6, 6)), y, wmw_C=None)
    text = str(rep)
    for a, b in ((0, 1), (0, 2), (1, 2)):
        assert f"Classes {a} vs {b}: c'Kc = 0 <= 0, every solution of this pair" in text
        assert f"classes {a} vs {b}: c'Kc / opposite eta <= 0" in text
    two = isvm.check_kernel(np.ones((4, 4)), [0, 0, 1, 1], wmw_C=None)
    assert "Squared distance of the class means c'Kc = 0 <= 0" in str(two)
