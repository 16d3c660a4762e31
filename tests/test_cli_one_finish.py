"""Issue 43, item 5: one summary per fit. The command line's four fit paths (the SMO on a
kernel, --remedy, --nystroem, --metric) end through one routine (``cli/_finish.py``): timed,
warnings caught, the model saved before any cross-validation, the same shared summary keys."""

from __future__ import annotations

import json

import numpy as np

import indefsvm as isvm
from indefsvm.cli import _finish, main

SHARED = {"fit_seconds", "training_accuracy", "cv_folds", "cv_accuracy_mean",
          "cv_accuracy_std", "model_file", "warnings", "search"}


def test_every_fit_path_ends_through_the_one_routine(tmp_path, capsys, monkeypatch):
    X, y = isvm.datasets.make_cbf(60, length=24, random_state=0)
    series = tmp_path / "s.txt"
    np.savetxt(series, np.c_[y, X], fmt="%.6g")
    heart = ["--dataset", "heart", "-C", "1", "--gamma", "0.01"]
    paths = {
        "smo": heart,
        "remedy": heart + ["--kernel", "sigmoid", "--remedy", "krein"],
        "nystroem": heart + ["--nystroem", "30"],
        "metric": [str(series), "--metric", "dtw", "--nystroem", "20", "-C", "1",
                   "--gamma", "median"],
    }
    seen = []
    real = _finish.fit_saved

    def spy(args, model, *a, **k):
        seen.append(type(model).__name__)
        return real(args, model, *a, **k)

    monkeypatch.setattr(_finish, "fit_saved", spy)
    monkeypatch.setattr("indefsvm.cli._fit.fit_saved", spy)  # imported there by name
    for name, argv in paths.items():
        model = tmp_path / f"{name}.skops"
        assert main(["fit", *argv, "--cv", "0", "--json", "--save", str(model)]) == 0, name
        summary = json.loads(capsys.readouterr().out)
        assert SHARED <= set(summary), (name, SHARED - set(summary))
        assert summary["model_file"] == str(model) and model.exists()
        assert 0.5 < summary["training_accuracy"] <= 1.0
    assert seen == ["IndefiniteSVC", "KreinSVC", "NystroemSVC", "NystroemSVC"]


def test_the_restarts_report_through_log_records_not_a_private_hook(caplog):
    import logging

    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, n_restarts=2, random_state=0,
                           verbose=True).fit(X, y)
    starts = [r.getMessage() for r in caplog.records
              if r.getMessage().startswith("IndefiniteSVC: start")]
    # 3 pairs of classes x (1 + 2 restarts), counted in order
    assert starts == [f"IndefiniteSVC: start {k} of 9" for k in range(1, 10)]
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, n_restarts=2, random_state=0).fit(X, y)
    assert not [r for r in caplog.records if "IndefiniteSVC: start" in r.getMessage()]
    import inspect

    import indefsvm.cli._fit as fit_room
    assert "_start_hook" not in inspect.getsource(fit_room)
