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


def fit_paths(tmp_path) -> dict:
    """The command line's four fit paths, each a fit's options (one shared by the tests of
    how a fit ends and of its summary)."""
    X, y = isvm.datasets.make_cbf(60, length=24, random_state=0)
    series = tmp_path / "s.txt"
    np.savetxt(series, np.c_[y, X], fmt="%.6g")
    heart = ["--dataset", "heart", "-C", "1", "--gamma", "0.01"]
    return {
        "smo": heart,
        "remedy": heart + ["--kernel", "sigmoid", "--remedy", "krein"],
        "nystroem": heart + ["--nystroem", "30"],
        "metric": [str(series), "--metric", "dtw", "--nystroem", "20", "-C", "1",
                   "--gamma", "median"],
    }


def test_every_fit_path_ends_through_the_one_routine(tmp_path, capsys, monkeypatch):
    paths = fit_paths(tmp_path)
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


def test_a_fit_below_chance_says_it_learned_backwards_and_the_check_to_run(tmp_path, capsys):
    # iris on scikit-learn's sigmoid (gamma="scale", coef0 0): LIBSVM's model too is 7 %
    # accurate on its own training data -- below the 33 % of the largest class
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    path = tmp_path / "iris.csv"
    np.savetxt(path, np.c_[X, y], delimiter=",", fmt="%g")
    argv = ["fit", str(path), "--label-column", "last", "--kernel", "sigmoid", "--gamma",
            "scale", "-C", "1", "--cv", "0"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    gamma = float(1.0 / (X.shape[1] * X.var()))
    assert "training accuracy  7.33 %" in out
    note = [ln for ln in out.splitlines() if ln.startswith("note: ")]
    assert len(note) == 1 and "below the 33.33 % of always predicting the largest class" \
        in note[0]
    assert f"'indefsvm check {path} --label-column last --kernel sigmoid --gamma " \
        f"{gamma!r}'" in note[0]
    assert main(argv + ["--json"]) == 0
    assert json.loads(capsys.readouterr().out)["notes"] == [note[0][len("note: "):]]
    # the command it names runs, and says why (tanh saturated, c'Kc <= 0)
    command = note[0].split("'")[1].split()[2:]
    assert main(["check", *command]) == 0
    assert "saturated at +1" in capsys.readouterr().out
    # above chance, or classes weighted: no note
    assert main(argv[:-6] + ["--gamma", "0.01", "-C", "1", "--cv", "0"]) == 0
    assert "note: " not in capsys.readouterr().out
    assert main(argv + ["--class-weight", "balanced"]) == 0
    assert "note: " not in capsys.readouterr().out
