"""``--scale``: each feature to [-1, 1] by its training range before the kernel, as LIBSVM's
svm-scale does -- kept in the model file, applied by ``predict``, fitted on the training part
of every fold, and the features that ``check``, ``compare`` and ``report`` compute kernels
of.

References: svm-scale's formula written out here, lo + (hi - lo) (x - min) / (max - min);
the library's estimators on the hand-scaled features; scikit-learn's folds."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file
from sklearn.model_selection import StratifiedKFold

import indefsvm as isvm
from indefsvm.cli import main


def _svm_scale(X, ref):
    """svm-scale -l -1 -u 1 with the ranges of ``ref`` (a constant feature goes to -1)."""
    lo, hi = ref.min(axis=0), ref.max(axis=0)
    span = np.where(hi > lo, hi - lo, 1.0)
    return -1.0 + 2.0 * (X - lo) / span


@pytest.fixture(scope="module")
def raw(tmp_path_factory):
    """The heart set with its features spread over six decades, as raw data come."""
    d = tmp_path_factory.mktemp("scale")
    X, y = isvm.datasets.load_heart(return_X_y=True)
    factors = 10.0 ** np.array([-2, 3, 0, 1, -1, 2, 3, 0, -2, 1, 2, -1, 0])
    Xr = (X + 1.5) * factors
    dump_svmlight_file(Xr, y, str(d / "train.svm"), zero_based=False)
    Xr, y = isvm.datasets.load_libsvm(str(d / "train.svm"))
    return d, Xr, y


def test_fit_scales_like_svm_scale_and_predict_applies_it(raw, tmp_path, capsys):
    d, X, y = raw
    model_file = tmp_path / "m.skops"
    assert main(["fit", str(d / "train.svm"), "--scale", "--kernel", "sigmoid", "--gamma",
                 "0.05", "--coef0", "-0.2", "-C", "1", "--cv", "0", "--quiet",
                 "--save", str(model_file)]) == 0
    model = isvm.load_model(model_file)
    assert type(model[0]).__name__ == "MinMaxScaler"
    # the SVM sees svm-scale's features
    direct = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.05, coef0=-0.2, C=1.0).fit(
        _svm_scale(X, X), y)
    new = X[::3] * 1.1  # beyond the training range too: svm-scale maps it past [-1, 1]
    np.testing.assert_allclose(model.decision_function(new),
                               direct.decision_function(_svm_scale(new, X)), atol=1e-9)
    dump_svmlight_file(new, y[::3], str(tmp_path / "new.svm"), zero_based=False)
    capsys.readouterr()
    assert main(["predict", str(model_file), str(tmp_path / "new.svm")]) == 0
    printed = [float(v) for v in capsys.readouterr().out.split()]
    assert printed == direct.predict(_svm_scale(new, X)).tolist()


def test_the_search_and_the_folds_see_scaled_features(raw, capsys):
    d, X, y = raw
    assert main(["fit", str(d / "train.svm"), "--scale", "--cv", "3", "--seed", "0",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scale"] == [-1, 1]
    Xs = _svm_scale(X, X)
    # the default rule's gamma ("scale") is the scaled features'
    assert out["search"]["gamma_rule"] == pytest.approx(1 / (Xs.shape[1] * Xs.var()))
    # each fold scales by its own training part (nothing of the test part leaks in)
    scores = []
    for tr, te in StratifiedKFold(3, shuffle=True, random_state=0).split(X, y):
        svc = isvm.IndefiniteSVC(C=out["C"], gamma=out["kernel_params"]["gamma"]).fit(
            _svm_scale(X[tr], X[tr]), y[tr])
        scores.append(np.mean(svc.predict(_svm_scale(X[te], X[tr])) == y[te]))
    assert out["cv_accuracy_mean"] == pytest.approx(np.mean(scores))


@pytest.mark.parametrize("extra", [["--nystroem", "40"], ["--remedy", "krein"],
                                   ["-s", "epsilon-svr"]])
def test_every_model_of_features_keeps_its_scaler(raw, tmp_path, extra):
    d, X, y = raw
    model_file = tmp_path / "m.skops"
    assert main(["fit", str(d / "train.svm"), "--scale", *extra, "-C", "1", "--gamma", "0.1",
                 "--cv", "0", "--quiet", "--save", str(model_file)]) == 0
    model = isvm.load_model(model_file)
    assert type(model[0]).__name__ == "MinMaxScaler" and len(model.steps) == 2
    inner = type(model[-1])(**model[-1].get_params()).fit(_svm_scale(X, X), y)
    np.testing.assert_allclose(model.predict(X), inner.predict(_svm_scale(X, X)),
                               atol=1e-9)


def test_check_compare_and_report_compute_kernels_of_scaled_features(raw, tmp_path, capsys):
    d, X, y = raw
    kernel = ["--kernel", "sigmoid", "--gamma", "0.05", "--coef0", "-0.2"]
    assert main(["check", str(d / "train.svm"), "--scale", *kernel, "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    ref_k = isvm.check_kernel(X=_svm_scale(X, X), y=y, kernel="sigmoid", gamma=0.05,
                              coef0=-0.2)
    assert rep["lam_min"] == pytest.approx(ref_k.lam_min)
    assert rep["lam_max"] == pytest.approx(ref_k.lam_max)
    assert main(["compare", str(d / "train.svm"), "--scale", *kernel, "--cv", "3",
                 "--methods", "flip", "--json"]) == 0
    cmp = json.loads(capsys.readouterr().out)
    K = isvm.kernel_matrix(_svm_scale(X, X), kernel="sigmoid", gamma=0.05, coef0=-0.2)
    ref = isvm.compare_remedies(K, y, cv=3, methods=["flip"])
    assert cmp["fold_errors"]["flip"] == pytest.approx(list(ref.fold_errors["flip"]))
    if cmp["fit_command"].startswith("indefsvm fit"):
        assert "--scale" in cmp["fit_command"]
    assert main(["report", str(d / "train.svm"), "--scale", *kernel, "--cv", "0",
                 "--out", str(tmp_path / "r.html")]) == 0
    out = capsys.readouterr().out
    assert f"lambda_min / lambda_max            {ref_k.lam_min:.4g}" in out
    assert "MinMaxScaler(-1, 1) + IndefiniteSVC" in (tmp_path / "r.html").read_text()


@pytest.mark.parametrize("args, named", [
    (["--distances"], "--scale"),
    (["--metric", "dtw", "--nystroem", "5"], "--scale"),
])
def test_scale_with_distances_or_objects_is_refused(raw, args, named, capsys):
    d = raw[0]
    assert main(["fit", str(d / "train.svm"), "--scale", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("indefsvm: error:") and named in err


def test_scale_with_a_kernel_matrix_is_refused(tmp_path, capsys):
    X, y = isvm.datasets.load_heart(return_X_y=True)
    np.save(tmp_path / "K.npy", isvm.kernel_matrix(X, kernel="rbf", gamma=0.1))
    np.savetxt(tmp_path / "y.txt", y)
    assert main(["fit", str(tmp_path / "K.npy"), "--labels", str(tmp_path / "y.txt"),
                 "--scale"]) == 2
    assert "kernel matrix" in capsys.readouterr().err


@pytest.mark.parametrize("edit, match", [
    (lambda m: m[0].scale_.__setitem__(0, np.nan), "scale is not"),
    (lambda m: setattr(m[0], "min_", m[0].min_[:-1]), "min is not"),
    (lambda m: setattr(m[0], "feature_range", (1, -1)), "range"),
    (lambda m: m.steps.__setitem__(0, ("minmaxscaler", type(m[0])((-1, 1)).fit(
        np.eye(5)))), "scaler of 5 features in front of a model of 13"),
])
def test_a_damaged_scaler_is_refused(raw, tmp_path, edit, match):
    import skops.io as sio

    from indefsvm.exceptions import DataFileError

    d, X, y = raw
    model_file = tmp_path / "m.skops"
    assert main(["fit", str(d / "train.svm"), "--scale", "-C", "1", "--gamma", "0.1",
                 "--cv", "0", "--quiet", "--save", str(model_file)]) == 0
    model = isvm.load_model(model_file)
    edit(model)
    sio.dump(model, tmp_path / "bad.skops")
    with pytest.raises(DataFileError, match=match):
        isvm.load_model(tmp_path / "bad.skops")


def test_check_says_when_features_need_scaling(raw, capsys):
    d, X, _ = raw
    assert main(["check", str(d / "train.svm")]) == 0
    out = capsys.readouterr().out
    span = X.max(axis=0) - X.min(axis=0)
    assert f"differ by a factor of {span.max() / span.min():.3g}" in out
    assert "add --scale" in out
    assert main(["check", str(d / "train.svm"), "--json"]) == 0
    assert "--scale" in json.loads(capsys.readouterr().out)["scale_advice"]
    # scaled already (the bundled file is svm-scale's), or scaled by the option: no note
    for args in (["--dataset", "heart"], [str(d / "train.svm"), "--scale"]):
        assert main(["check", *args]) == 0
        assert "note: the features' ranges" not in capsys.readouterr().out
        assert main(["check", *args, "--json"]) == 0
        assert "scale_advice" not in json.loads(capsys.readouterr().out)


def test_fit_notes_raw_features_once_and_quietly_not(raw, capsys):
    d = raw[0]
    base = ["fit", str(d / "train.svm"), "-C", "1", "--gamma", "0.1", "--cv", "0"]
    assert main(base) == 0
    assert capsys.readouterr().err.count("differ by a factor") == 1
    for extra in (["--scale"], ["--quiet"]):
        assert main(base + extra) == 0
        assert "differ by a factor" not in capsys.readouterr().err
    assert main(["fit", "--dataset", "heart", "-C", "1", "--gamma", "0.1", "--cv", "0"]) == 0
    assert "differ by a factor" not in capsys.readouterr().err
