"""A CSV's header names on the command line: ``fit --save`` keeps them, ``predict`` (and
``report MODEL DATA``) read their file by them -- as scikit-learn checks a DataFrame's
feature names. Before (2026-11-28), a file with its columns swapped predicted in silence at
57.5 % where the model scores 100 %."""

from __future__ import annotations

import numpy as np
import pytest
from test_cli_errors import _run

import indefsvm as isvm
from indefsvm.cli import main


def _write(path, header, X, y, order=(0, 1, 2)):
    cols = [y, *X.T]
    with open(path, "w", encoding="utf-8") as fh:
        if header is not None:
            fh.write(",".join(header[k] for k in order) + "\n")
        for row in zip(*[cols[k] for k in order], strict=True):
            fh.write(",".join(f"{v}" for v in row) + "\n")


@pytest.fixture
def files(tmp_path, capsys):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 2)) * [1.0, 5.0]
    y = (X[:, 0] > 0).astype(int)
    _write(tmp_path / "train.csv", ("label", "a", "b"), X, y)
    model = tmp_path / "m.skops"
    assert main(["fit", str(tmp_path / "train.csv"), "--kernel", "linear", "--cv", "0",
                 "--quiet", "--save", str(model)]) == 0
    capsys.readouterr()
    return tmp_path, X, y, model


def _predict(capsys, *argv):
    code = main(["predict", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_model_keeps_the_header_names(files):
    _, _, _, model = files
    assert isvm.load_model(str(model)).feature_columns_ == ("a", "b")


def test_swapped_columns_are_read_by_name(files, capsys):
    tmp, X, y, model = files
    code, ref, _ = _predict(capsys, model, tmp / "train.csv")
    assert code == 0
    _write(tmp / "swapped.csv", ("label", "a", "b"), X, y, order=(2, 0, 1))  # b, label, a
    code, out, err = _predict(capsys, model, tmp / "swapped.csv")
    assert code == 0
    assert out == ref  # the same predictions, line for line
    assert "its columns (b, a) are read by name, in the model's order" in err
    # the model's own predictions on the features in training order
    clf = isvm.load_model(str(model))
    assert out.split() == [str(v) for v in clf.predict(X)]


def test_other_names_are_refused(files, capsys):
    tmp, X, y, model = files
    _write(tmp / "renamed.csv", ("label", "x", "b"), X, y)
    code, out, err = _predict(capsys, model, tmp / "renamed.csv")
    assert code == 1 and out == ""
    assert err.splitlines()[-1] == (
        f"indefsvm: error: {tmp / 'renamed.csv'}, line 1: has the columns x, b, where the "
        "model was trained on a, b (not in training: x) (missing: a). Name the columns as in "
        "training, or drop the header row to read them by position.")


def test_a_file_without_header_is_read_by_position(files, capsys):
    tmp, X, y, model = files
    _write(tmp / "plain.csv", None, X, y)
    code, _, err = _predict(capsys, model, tmp / "plain.csv")
    # its label column is read as a feature: said, with the option
    assert code == 1 and "has 3 features; the model was trained on 2 (a label column " \
        "among them? --label-column 0 reads the first column as the labels" in err
    code, out, _ = _predict(capsys, model, tmp / "plain.csv", "--label-column", "0")
    code_ref, ref, _ = _predict(capsys, model, tmp / "train.csv")
    assert code == code_ref == 0 and out == ref


def test_report_of_a_saved_model_reads_by_name(files, capsys):
    tmp, X, y, model = files
    _write(tmp / "swapped.csv", ("label", "a", "b"), X, y, order=(0, 2, 1))  # label, b, a
    code = main(["report", str(model), str(tmp / "swapped.csv"), "--out", str(tmp)])
    out, err = capsys.readouterr()
    assert code == 0 and "read by name, in the model's order" in err
    assert "accuracy 100.00 %" in out


def test_a_model_saved_without_names_reads_by_position(tmp_path, capsys):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(30, 2))
    y = (X[:, 1] > 0).astype(int)
    _write(tmp_path / "plain.csv", None, X, y)
    model = tmp_path / "m.skops"
    assert main(["fit", str(tmp_path / "plain.csv"), "--label-column", "0", "--kernel",
                 "linear", "--cv", "0", "--quiet", "--save", str(model)]) == 0
    assert not hasattr(isvm.load_model(str(model)), "feature_columns_")
    _write(tmp_path / "named.csv", ("label", "p", "q"), X, y)
    capsys.readouterr()
    code, out, _ = _predict(capsys, model, tmp_path / "named.csv")
    assert code == 0
    assert out.split() == [str(v) for v in isvm.load_model(str(model)).predict(X)]


def test_header_row_then_an_empty_line(tmp_path, capsys):
    path = tmp_path / "s.csv"
    path.write_text(",label\n\n0\n")
    code, _, err = _run(capsys, ["fit", str(path), "--metric", "dtw", "--cv", "0", "--quiet"])
    assert code == 1
    # before: "internal error (IndexError: list index out of range)"
    assert "internal error" not in err
    assert err.splitlines()[-1].startswith(f"indefsvm: error: {path}, line 2: is empty")
