"""Issue 45, item 8: fit --class-weight, as LIBSVM's -wi (and 'balanced'), on every fit path."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.svm import SVC

import indefsvm as isvm
from indefsvm.cli import main

HEART = ["--dataset", "heart", "--kernel", "rbf", "--gamma", "0.01", "-C", "1", "--cv", "0"]


def _fit(tmp_path, *options):
    out = tmp_path / "m.skops"
    assert main(["fit", *HEART, *options, "--save", str(out), "--quiet"]) == 0
    return isvm.load_model(out)


def test_per_class_weights_are_libsvms(tmp_path):
    """-w1 5 of LIBSVM: scikit-learn's SVC (LIBSVM) with class_weight={1: 5} on the same
    PSD kernel gives the same dual within the solvers' tol."""
    model = _fit(tmp_path, "--class-weight", "1:5")
    X, y = isvm.datasets.load_heart(return_X_y=True)
    ref = SVC(kernel="rbf", gamma=0.01, C=1.0, class_weight={1: 5.0}).fit(X, y)
    assert model.class_weight == {1: 5.0}
    np.testing.assert_allclose(model.class_weight_, ref.class_weight_)
    assert np.mean(model.predict(X) == ref.predict(X)) >= 0.99
    # weighted: the bounds of class 1 are 5 C
    assert np.max(np.abs(model.dual_coef_)) == pytest.approx(5.0)
    unweighted = _fit(tmp_path)
    assert not np.array_equal(model.dual_coef_, unweighted.dual_coef_)


def test_balanced_and_the_nystroem_path(tmp_path):
    X, y = isvm.datasets.load_heart(return_X_y=True)
    model = _fit(tmp_path, "--class-weight", "balanced")
    ref = isvm.IndefiniteSVC(kernel="rbf", gamma=0.01, C=1.0, class_weight="balanced").fit(X, y)
    np.testing.assert_allclose(model.dual_coef_, ref.dual_coef_, rtol=1e-12, atol=1e-12)
    # a first label with a minus sign is given with "=" (argparse would take it for an option)
    ny = _fit(tmp_path, "--nystroem", "50", "--class-weight=-1:2")
    assert isinstance(ny, isvm.NystroemSVC) and ny.class_weight == {-1: 2.0}


@pytest.mark.parametrize("value, words", [
    ("1:x", "must be a number"), ("1:0", "must be > 0"), ("5", "is not LABEL:WEIGHT"),
    ("1:2,1:3", "given twice")])
def test_bad_weights_are_usage_errors(value, words, capsys):
    assert main(["fit", *HEART, "--class-weight", value]) == 2
    assert words in capsys.readouterr().err


def test_a_class_the_labels_do_not_hold_is_named(capsys):
    assert main(["fit", *HEART, "--class-weight", "7:2"]) == 2
    err = capsys.readouterr().err
    assert "--class-weight names class 7" in err and "-1.0, 1.0" in err


def test_the_series_path_takes_the_weights(tmp_path):
    S, y = isvm.datasets.make_cbf(60, length=32, random_state=0)
    path = tmp_path / "s.txt"
    np.savetxt(path, np.c_[y, S], fmt="%.5g")
    out = tmp_path / "s.skops"
    assert main(["fit", str(path), "--metric", "dtw", "--nystroem", "20", "-C", "1", "--cv",
                 "0", "--class-weight", "1:2", "--save", str(out), "--quiet"]) == 0
    model = isvm.load_model(out)
    assert model.class_weight == {1: 2.0}
    np.testing.assert_allclose(model.class_weight_, [1.0, 2.0, 1.0])


@pytest.mark.parametrize("extra", [[], ["--nystroem", "40"], ["--remedy", "krein"]])
def test_the_weights_given_are_said_in_the_summary(capsys, extra):
    # an option that changes the model is said with it, in text and JSON, on every path
    import json

    assert main(["fit", *HEART, *extra, "--class-weight", "1:5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["class_weight"] == {"1": 5.0}
    assert main(["fit", *HEART, *extra, "--class-weight", "balanced", "--quiet"]) == 0
    assert "class weight balanced (C x n / (n_classes n_c))" in capsys.readouterr().out
    assert main(["fit", *HEART, *extra, "--class-weight", "1:5", "--quiet"]) == 0
    assert "class weight 1: 5 (x C; others 1)" in capsys.readouterr().out
    assert main(["fit", *HEART, *extra, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["class_weight"] is None
