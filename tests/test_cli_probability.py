"""Issue 45, item 8: predict --probability -- svm-predict -b 1's layout for a model with
probabilities; an SVM has none, and that is said before the data are read."""

from __future__ import annotations

import numpy as np

import indefsvm as isvm
from indefsvm.cli import _predict, main


def _svm_file(tmp_path):
    out = tmp_path / "m.skops"
    assert main(["fit", "--dataset", "heart", "--gamma", "0.01", "-C", "1", "--cv", "0",
                 "--save", str(out), "--quiet"]) == 0
    return out


def test_an_svm_has_no_probabilities_and_says_what_does(tmp_path, capsys):
    model = _svm_file(tmp_path)
    # the data file does not exist: the refusal comes before it is read
    assert main(["predict", str(model), str(tmp_path / "absent.csv"), "--probability"]) == 2
    err = capsys.readouterr().err
    assert "has no probabilities" in err and "CalibratedClassifierCV" in err
    assert "--decision-values prints them" in err
    assert main(["predict", str(model), str(tmp_path / "absent.csv"), "--probability",
                 "--decision-values"]) == 2


def test_a_model_with_probabilities_prints_them_as_svm_predict_b_1(tmp_path, capsys,
                                                                  monkeypatch):
    X, y = isvm.datasets.load_heart(return_X_y=True)
    klr = isvm.KernelLogisticRegression(kernel="rbf", gamma=0.01).fit(X, y)
    monkeypatch.setattr(_predict, "_load_model", lambda path: klr)
    data = tmp_path / "x.csv"
    np.savetxt(data, X[:6], delimiter=",")
    assert main(["predict", "model.skops", str(data), "--probability"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "labels -1 1"
    proba = klr.predict_proba(X[:6])
    for line, p, lab in zip(lines[1:], proba, klr.predict(X[:6]), strict=True):
        words = line.split()
        assert words[0] == f"{lab:g}"
        np.testing.assert_allclose([float(w) for w in words[1:]], p, rtol=1e-9)
