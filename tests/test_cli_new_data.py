"""New data is new data (issue 45, items 2 and 9): predict on a file of series without
labels reads them unlabeled (said), labels that are not classes of the model are refused
with the option that reads the file, and --features d2ke --landmarks is a usage error
before any distance."""

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.cli import main


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    d = tmp_path_factory.mktemp("new")
    S, y = isvm.datasets.make_cbf(60, length=40, random_state=0)
    S = np.round(S, 5)
    train = d / "train.txt"
    with open(train, "w") as fh:
        for s, label in zip(S, y, strict=True):
            fh.write(f"{label}," + ",".join(f"{v:.5f}" for v in s) + "\n")
    model = d / "m.skops"
    assert main(["fit", str(train), "--metric", "dtw", "--nystroem", "10", "-C", "1",
                 "--cv", "0", "--quiet", "--save", str(model)]) == 0
    return d, model, S, y


def _write(path, rows):
    path.write_text("".join(",".join(f"{v:.5f}" if isinstance(v, float) else str(v)
                                     for v in row) + "\n" for row in rows))
    return str(path)


def test_unlabeled_series_are_read_unlabeled(trained, capsys):
    d, model, S, _ = trained
    capsys.readouterr()
    path = _write(d / "new.txt", [list(s) for s in S[:12]])
    assert main(["predict", str(model), path]) == 0
    out = capsys.readouterr()
    pred = np.array(out.out.split(), dtype=int)
    ref = isvm.load_model(model).predict(S[:12])
    np.testing.assert_array_equal(pred, ref)  # the whole series, not shifted by one point
    assert "read without labels" in out.err and "accuracy" not in out.err


def test_labels_that_are_not_classes_are_refused(trained, capsys):
    d, model, S, y = trained
    path = _write(d / "last.txt", [list(s) + [int(c)] for s, c in zip(S[:12], y[:12],
                                                                      strict=True)])
    capsys.readouterr()
    assert main(["predict", str(model), path]) == 2
    err = capsys.readouterr().err
    assert "are not classes of the model" in err and "--label-column last" in err
    assert main(["predict", str(model), path, "--label-column", "last"]) == 0
    assert "accuracy" in capsys.readouterr().err  # read as the user says


def test_labels_first_still_read(trained, capsys):
    d, model, S, y = trained
    path = _write(d / "first.txt", [[int(c)] + list(s) for s, c in zip(S[:12], y[:12],
                                                                       strict=True)])
    capsys.readouterr()
    assert main(["predict", str(model), path]) == 0
    assert "accuracy" in capsys.readouterr().err


def test_d2ke_with_landmarks_is_a_usage_error_before_the_work(trained, capsys):
    d = trained[0]
    assert main(["fit", str(d / "train.txt"), "--metric", "dtw", "--nystroem", "10",
                 "--features", "d2ke", "--landmarks", "kmedoids++", "-C", "1"]) == 2
    err = capsys.readouterr().err
    # the library's rule (NystroemSVC's settings, checked before the file is read) in the
    # options' words
    assert ("--landmarks does not apply to --features d2ke (its objects are random, not "
            "chosen among the data); drop it.") in err


def test_predict_prints_decision_values(trained, tmp_path, capsys):
    d, model, S, _ = trained
    path = _write(d / "dv.txt", [list(s) for s in S[:8]])
    capsys.readouterr()
    assert main(["predict", str(model), path, "--decision-values"]) == 0
    lines = capsys.readouterr().out.splitlines()
    clf = isvm.load_model(model)
    assert lines[0] == "labels " + " ".join(str(c) for c in clf.classes_)
    rows = [line.split() for line in lines[1:]]
    np.testing.assert_array_equal([int(r[0]) for r in rows], clf.predict(S[:8]))
    np.testing.assert_allclose([[float(v) for v in r[1:]] for r in rows],
                               clf.decision_function(S[:8]), rtol=1e-9)
    # two classes: one value, > 0 for the class the header names
    from indefsvm.datasets import data_path

    two = tmp_path / "two.skops"
    heart = data_path("heart_scale")
    assert main(["fit", heart, "-C", "1", "--gamma", "0.1", "--cv", "0", "--quiet",
                 "--save", str(two)]) == 0
    capsys.readouterr()
    assert main(["predict", str(two), heart, "--decision-values"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "labels 1"
    assert all((float(v) > 0) == (lab == "1") for lab, v in (line.split()
                                                             for line in lines[1:]))
