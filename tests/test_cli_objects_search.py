"""Issue 45, items 1 and 4: the series user's check and search -- ``check FILE --metric dtw``
(check_distances of the objects, its advice with the window it used and the fit command that
runs), ``fit --metric`` searching C and gamma on a stratified subsample, and the
cross-validation after a fit bounded (a stratified subsample above CV_MAX, its time said)."""

from __future__ import annotations

import json
import re
import shlex

import numpy as np
import pytest
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.pipeline import Pipeline

import indefsvm as isvm
from indefsvm.cli import _models, _tune, main
from indefsvm.cli._tune import C_GRID, GAMMA_FACTORS
from indefsvm.remedies import KreinSVC


def _series(tmp_path, n=90, length=24, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    t = np.linspace(0, 1, length)
    X = np.sin(2 * np.pi * (t[None, :] * (1 + y[:, None]) + rng.uniform(0, 1, (n, 1))))
    X += 0.3 * rng.normal(size=X.shape)
    path = tmp_path / "series.txt"
    np.savetxt(path, np.c_[y, X], fmt="%.6g")
    return np.loadtxt(path)[:, 1:], y, path  # the series as the file holds them


def test_check_metric_reads_the_series_and_prints_the_fit_command_with_its_window(
        tmp_path, capsys):
    X, y, path = _series(tmp_path)
    assert main(["check", str(path), "--metric", "dtw", "--window", "0.1", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    # the independent reference: every distance by pairwise_distances, then the matrix check
    D = isvm.pairwise_distances(X, metric="dtw", window=0.1)
    ref = isvm.diagnostics.check_distances(D, y)
    assert rep["n"] == len(y) and rep["metric_params"] == {"window": 0.1}
    assert rep["negative_mass"] == pytest.approx(ref.negative_mass, rel=1e-6)
    assert rep["triangle_violations"] == pytest.approx(ref.triangle_violations, abs=1e-12)
    advice = rep["notes"][-2]
    assert "metric_params={'window': 0.1}" in advice
    cmd = re.search(r"'(indefsvm fit [^']+)'", advice).group(1)
    # fit's own landmarks, min(n, 300), all 90: no --nystroem, which would then be more than
    # a CV fold's 72 objects
    assert cmd == f"indefsvm fit {path} --metric dtw --window 0.1"
    # the printed command runs as printed, its cross-validation included
    capsys.readouterr()
    assert main(shlex.split(cmd)[1:] + ["--quiet"]) == 0
    assert "search      C = " in capsys.readouterr().out


def test_check_metric_refuses_what_does_not_apply(tmp_path, capsys):
    _, _, path = _series(tmp_path, n=20)
    assert main(["check", str(path), "--metric", "dtw", "--kernel", "laplacian"]) == 2
    assert "--kernel does not apply to 'check --metric'" in capsys.readouterr().err
    assert main(["check", str(path), "--metric", "levenshtein", "--window", "0.1"]) == 2
    assert "--window is the band of an elastic distance" in capsys.readouterr().err
    assert main(["check", str(path), "--window", "0.1"]) == 2
    assert "--window is the band of an elastic distance" in capsys.readouterr().err


def test_fit_metric_searches_c_and_gamma_as_gridsearchcv_on_the_exact_kernel(tmp_path,
                                                                             capsys):
    X, y, path = _series(tmp_path)
    assert main(["fit", str(path), "--metric", "dtw", "--window", "0.1", "--nystroem", "40",
                 "--cv", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    search = out["search"]
    assert search["searched"] == ["C", "gamma"] and search["samples"] == len(y)
    # the reference: scikit-learn's GridSearchCV over the same grid and folds, on the whole
    # DTW matrix, with the Krein SVM the landmark model's default remedy approximates
    D = isvm.pairwise_distances(X, metric="dtw", window=0.1)
    g0 = isvm.DistanceKernel().fit(D).gamma_
    pipe = Pipeline([("distancekernel", isvm.DistanceKernel()),
                     ("svm", KreinSVC(kernel="precomputed"))])
    grid = GridSearchCV(pipe, {"svm__C": list(C_GRID),
                               "distancekernel__gamma": [g0 * f for f in GAMMA_FACTORS]},
                        cv=StratifiedKFold(3, shuffle=True, random_state=0)).fit(D, y)
    assert search["cv_accuracy"] == pytest.approx(grid.best_score_, abs=1e-12)
    assert out["C"] == search["C"] and out["gamma"] == pytest.approx(search["gamma"])
    # the model was fitted with what the search chose
    model_acc = grid.cv_results_["mean_test_score"][
        [i for i, p in enumerate(grid.cv_results_["params"])
         if p["svm__C"] == search["C"]
         and p["distancekernel__gamma"] == pytest.approx(search["gamma"])][0]]
    assert model_acc == pytest.approx(search["cv_accuracy"], abs=1e-12)
    # both given, or --no-search: no search
    assert main(["fit", str(path), "--metric", "dtw", "--nystroem", "40", "-C", "1",
                 "--gamma", "0.01", "--cv", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["search"] is None
    assert main(["fit", str(path), "--metric", "dtw", "--nystroem", "40", "--no-search",
                 "--cv", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["search"] is None


def test_the_search_runs_on_a_stratified_subsample_above_its_size(tmp_path, capsys,
                                                                 monkeypatch):
    _, y, path = _series(tmp_path, n=120)
    monkeypatch.setattr(_tune, "SEARCH_OBJECTS", 60)
    assert main(["fit", str(path), "--metric", "dtw", "--nystroem", "30", "-C", "1",
                 "--cv", "0"]) == 0
    cap = capsys.readouterr()
    assert "a stratified subsample of 60 of the 120 series" in cap.err
    assert "on the exact dtw kernel of 60 series" in cap.out


def test_cross_validation_above_cv_max_runs_on_a_subsample_and_says_its_cost(
        tmp_path, capsys, monkeypatch):
    _, y, path = _series(tmp_path, n=120)
    monkeypatch.setattr(_models, "CV_MAX", 50)
    assert main(["fit", str(path), "--metric", "dtw", "--nystroem", "20", "-C", "1",
                 "--gamma", "0.01", "--cv", "5"]) == 0
    cap = capsys.readouterr()
    assert re.search(r"5-fold cross-validation on a stratified subsample of 50 of the 120 "
                     r"samples, about \d+ s \(--cv 0 skips it\)", cap.err)
    assert re.search(r"5-fold CV accuracy [\d.]+ % \(\+/- [\d.]+\) on a stratified subsample "
                     r"of 50", cap.out)
    # the same bound on a feature fit (the SMO path)
    assert main(["fit", "--dataset", "heart", "-C", "1", "--gamma", "0.01", "--cv", "3",
                 "--json"]) == 0
    cap = capsys.readouterr()
    assert json.loads(cap.out)["cv_samples"] == 50
    assert "3-fold cross-validation on a stratified subsample of 50 of the 270" in cap.err


def test_compare_metric_compares_the_remedies_on_the_exact_kernel_and_prints_a_fit_line(
        tmp_path, capsys):
    X, y, path = _series(tmp_path)
    assert main(["compare", str(path), "--metric", "dtw", "--window", "0.1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # the reference: compare_remedies on the whole DTW matrix, read as --distances reads one
    D = isvm.pairwise_distances(X, metric="dtw", window=0.1)
    K = isvm.DistanceKernel().fit_transform(D)
    ref = isvm.compare_remedies(K, y, D=D, cv=5)
    assert out["recommended"] == ref.recommended
    want = ref.to_dict()
    assert out["methods"] == want["methods"]
    assert out["mean_error"] == pytest.approx(want["mean_error"])
    cmd = out["fit_command"]
    gamma = isvm.DistanceKernel().fit(D).gamma_
    assert cmd.startswith(f"indefsvm fit {path} --metric dtw --window 0.1 --gamma {gamma!r}")
    capsys.readouterr()
    assert main(shlex.split(cmd)[1:] + ["--quiet", "--save", str(tmp_path / "m.skops")]) == 0


def test_compare_metric_search_saves_a_landmark_model_refitted_on_all_objects(
        tmp_path, capsys, monkeypatch):
    from indefsvm.cli import _compare_objects

    X, y, path = _series(tmp_path, n=120)
    monkeypatch.setattr(_compare_objects, "COMPARE_OBJECTS", 80)
    model = tmp_path / "best.skops"
    assert main(["compare", str(path), "--metric", "dtw", "--window", "0.1", "--search",
                 "--methods", "flip,shift", "--nystroem", "50", "--save", str(model),
                 "--json"]) == 0
    cap = capsys.readouterr()
    out = json.loads(cap.out)
    assert "a stratified subsample of 80" in cap.err
    saved = isvm.load_model(model)
    chosen = out["best_method"]
    method, params = ((chosen, out["best_params"]) if chosen == "flip" else
                      ("flip", None))  # shift has no landmark model: flip saved instead
    assert saved.remedy == method and saved.n_components == 50
    assert saved.n_train_ == 120  # refitted on all objects, not the block
    if params is not None:
        assert saved.C == pytest.approx(params["C"])
        assert saved.gamma == pytest.approx(params["gamma"])
    assert f"--remedy {method}" in out["fit_command"] and out["model_file"] == str(model)
    assert np.mean(saved.predict(X) == y) > 0.8
    assert saved.class_weight is None and "--class-weight" not in out["fit_command"]
    # --balanced: the model saved and the fit line printed have the comparison's weights
    assert main(["compare", str(path), "--metric", "dtw", "--window", "0.1", "--search",
                 "--methods", "flip", "--nystroem", "50", "--balanced", "--save",
                 str(model), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert isvm.load_model(model).class_weight == "balanced"
    assert "--class-weight balanced" in out["fit_command"]
    # --save of methods none of which a landmark model has: refused before the work
    assert main(["compare", str(path), "--metric", "dtw", "--search", "--methods",
                 "svm,shift", "--save", str(tmp_path / "x.skops")]) == 2
    assert "add krein, flip or clip to --methods" in capsys.readouterr().err
