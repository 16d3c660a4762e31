"""Issue 45, item 3: series and string files as tools write them -- pandas' ``to_csv`` (a
header row, an index column), the label by column name, the label last -- read, or refused
at line 1 with the option that reads them, before any distance is computed."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import indefsvm as isvm
from indefsvm.cli import main
from indefsvm.cli._objects import read_objects
from indefsvm.exceptions import DataFileError


def _data(n=60, length=20, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    t = np.linspace(0, 1, length)
    X = np.sin(2 * np.pi * (t[None, :] * (1 + y[:, None]) + rng.uniform(0, 1, (n, 1))))
    return np.round(X + 0.3 * rng.normal(size=X.shape), 4), y


FIT = ["--metric", "dtw", "--nystroem", "20", "-C", "1", "--gamma", "median", "--cv", "0",
       "--json"]


def test_a_pandas_csv_trains_the_model_of_the_ucr_layout(tmp_path, capsys):
    X, y = _data()
    ucr = tmp_path / "ucr.txt"
    np.savetxt(ucr, np.c_[y, X], fmt="%.4f")
    frame = pd.DataFrame(X)
    frame["label"] = y
    written = tmp_path / "pandas.csv"
    frame.to_csv(written)  # header, index column, label last by name
    out = {}
    for path in (ucr, written):
        assert main(["fit", str(path), *FIT, "--save", str(tmp_path / "m.skops")]) == 0
        cap = capsys.readouterr()
        out[path] = (json.loads(cap.out), isvm.load_model(tmp_path / "m.skops"))
    assert "is an index, as pandas writes one" in cap.err
    (a, ma), (b, mb) = out[ucr], out[written]
    assert b["n_samples"] == a["n_samples"] == len(y)
    assert b["gamma"] == pytest.approx(a["gamma"], rel=1e-12)
    np.testing.assert_array_equal(ma.predict(X), mb.predict(X))
    # by name, and the same with its index
    for spec in ("label", "-1", "last"):
        Xr, yr = read_objects(str(written), "dtw", spec)
        np.testing.assert_allclose(Xr, X)
        np.testing.assert_array_equal(yr, y)


def test_labels_as_words_in_a_named_first_column_and_unequal_lengths(tmp_path):
    X, y = _data(n=12)
    words = np.where(y == 1, "up", "down")
    rows = [list(x[: 20 - (k % 3)]) for k, x in enumerate(X)]  # three lengths
    padded = np.full((len(rows), 20), np.nan)
    for k, r in enumerate(rows):
        padded[k, : len(r)] = r
    frame = pd.DataFrame(padded)  # NaN is written as an empty field
    frame.insert(0, "class", words)
    path = tmp_path / "words.csv"
    frame.to_csv(path, index=False)  # shorter series: empty fields at the end
    objs, labels = read_objects(str(path), "dtw", None)
    assert list(labels) == list(words)
    assert [len(o) for o in objs] == [len(r) for r in rows]
    np.testing.assert_allclose(objs[1], rows[1])


def test_strings_written_by_pandas_keep_their_commas(tmp_path):
    frame = pd.DataFrame({"text": ["abc", "a, b", 'say "hi"'], "label": [0, 1, 1]})
    path = tmp_path / "s.csv"
    frame.to_csv(path)
    objs, labels = read_objects(str(path), "levenshtein", None)
    assert objs == ["abc", "a, b", 'say "hi"'] and list(labels) == [0, 1, 1]


def test_what_cannot_be_read_is_refused_at_line_1_with_the_option(tmp_path, capsys,
                                                                  monkeypatch):
    X, y = _data()
    last = tmp_path / "last.txt"
    np.savetxt(last, np.c_[X, y], fmt="%.4f")
    # the refusal comes before any distance: the model is never fitted
    monkeypatch.setattr(isvm.NystroemSVC, "fit", lambda *a, **k: pytest.fail("fitted"))
    assert main(["fit", str(last), *FIT]) == 1
    err = capsys.readouterr().err
    assert f"{last}, line 1: the first value" in err and "--label-column last" in err
    frame = pd.DataFrame(X)
    frame["kind"] = y
    named = tmp_path / "named.csv"
    frame.to_csv(named)
    assert main(["fit", str(named), *FIT]) == 1
    err = capsys.readouterr().err
    assert f"{named}, line 1: has a header row" in err and "--label-column NAME" in err
    assert main(["fit", str(named), *FIT, "--label-column", "nope"]) == 1
    assert "has no column 'nope'" in capsys.readouterr().err
    with pytest.raises(DataFileError, match="no header row, so --label-column kind"):
        read_objects(str(last), "dtw", "kind")


def test_predict_reads_an_unlabelled_pandas_file(tmp_path, capsys):
    X, y = _data()
    frame = pd.DataFrame(X)
    frame["label"] = y
    frame.to_csv(tmp_path / "train.csv")
    model = tmp_path / "m.skops"
    assert main(["fit", str(tmp_path / "train.csv"), *FIT, "--save", str(model)]) == 0
    pd.DataFrame(X[:15]).to_csv(tmp_path / "new.csv")  # no label column
    capsys.readouterr()
    assert main(["predict", str(model), str(tmp_path / "new.csv")]) == 0
    cap = capsys.readouterr()
    pred = np.array(cap.out.split(), dtype=int)
    np.testing.assert_array_equal(pred, isvm.load_model(model).predict(X[:15]))
    assert "accuracy" not in cap.err


def test_the_readers_speak_as_a_library_outside_the_command_line(tmp_path):
    # datasets' readers warn (the command line turns their remarks into lines of its own);
    # the same objects and labels either way
    from indefsvm.datasets._matrix_file import read_labels
    from indefsvm.datasets._objects_file import read_objects as read_file

    X, y = _data(n=30)
    frame = pd.DataFrame(X)
    frame["label"] = y
    frame.to_csv(tmp_path / "p.csv")
    with pytest.warns(UserWarning, match="is an index, as pandas writes one"):
        objs, labels = read_file(str(tmp_path / "p.csv"), "dtw", None)
    np.testing.assert_allclose(objs, X)
    np.testing.assert_array_equal(labels, y)
    many = tmp_path / "rows.txt"
    many.write_text("\n".join(str(k) for k in range(30)) + "\n")
    with pytest.warns(UserWarning, match="30 different labels for 30 samples"):
        assert list(read_labels(str(many), 30)) == list(range(30))
    with pytest.raises(DataFileError, match="no such labels file"):
        read_labels(str(tmp_path / "absent.txt"), 3)


def test_a_series_or_strings_file_without_metric_says_the_option(tmp_path, capsys):
    # the UCR layout (label, then values) read as a headerless table, and a file of strings
    # whose first row reads as a header: the error names --metric beside --label-column
    from indefsvm.cli import main

    S, y = isvm.datasets.make_cbf(12, length=16, random_state=0)
    series = tmp_path / "series.txt"
    series.write_text("".join(f"{lab}," + ",".join(f"{v:.4f}" for v in s) + "\n"
                              for s, lab in zip(S, y, strict=True)))
    assert main(["fit", str(series)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--label-column INDEX" in err[0]
    assert "add --metric dtw --nystroem M" in err[0]
    words, labels = isvm.datasets.make_motif_strings(12, random_state=0)
    strings = tmp_path / "strings.tsv"
    strings.write_text("".join(f"{lab}\t{w}\n" for w, lab in zip(words, labels, strict=True)))
    assert main(["fit", str(strings)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "add --metric levenshtein --nystroem M" in err[0]
    # a header of names (no numbers) is a header: no strings hint
    named = tmp_path / "named.csv"
    named.write_text("a,b\n1,2\n3,4\n")
    assert main(["fit", str(named)]) == 1
    assert "levenshtein" not in capsys.readouterr().err


def test_the_ucr_archives_whitespace_layout_without_metric_says_the_option(tmp_path,
                                                                             capsys):
    # the UCR archive's own .txt (label and values separated by runs of spaces) got
    # "'0.33044' is not of the form index:value" with no hint; the same file named .tsv an
    # error line that echoed two whole series (~3 KB)
    from indefsvm.cli import main

    S, y = isvm.datasets.make_cbf(12, length=128, random_state=0)
    text = "".join(f"  {float(lab):.7e}" + "".join(f"  {v:.7e}" for v in s) + "\n"
                   for s, lab in zip(S, y, strict=True))
    for name in ("Train.txt", "Train.tsv", "Train.csv"):
        path = tmp_path / name
        path.write_text(text)
        assert main(["fit", str(path)]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and len(err[0]) < 500, err
        assert "add --metric dtw (and --nystroem M)" in err[0]
        assert main(["fit", str(path), "--metric", "dtw", "--nystroem", "6", "--cv", "0",
                     "--quiet"]) == 0


@pytest.mark.parametrize("head, why", [
    ("# made by my script", "starts with '#', a comment or header line"),
    ("@problemName cbf", "name the file .ts (sktime / aeon's format)"),
    ("% arff comment", "starts with '%'"),
])
def test_a_comment_or_header_line_is_named_as_one(tmp_path, capsys, head, why):
    # the series reader has no comment lines (NumPy's loadtxt skips '#'); a header or a
    # comment is said as one, at its line, not as "value 'made' is not a number"
    X, y = _data()
    path = tmp_path / "series.txt"
    path.write_text(head + "\n" + "\n".join(f"{c}," + ",".join(map(str, row))
                                            for c, row in zip(y, X, strict=True)) + "\n")
    assert main(["fit", str(path), *FIT]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"indefsvm: error: {path}, line 1: ") and why in err
    assert "is not a number" not in err


def test_a_fasta_file_is_named_with_what_to_write_instead(tmp_path, capsys):
    # a bioinformatician's sequences: the '>' headers were read as strings and the first
    # refused as "has no label"
    from indefsvm.cli import main

    path = tmp_path / "proteins.fasta"
    path.write_text(">sp|P69905|HBA_HUMAN globin\nMVLSPADKTNVKAAWGKVGAHAGEYGAEALER\n"
                    ">sp|P68871|HBB_HUMAN globin\nMVHLTPEEKSAVTALWGKVNVDEVGGEALGRL\nLVVYPW\n")
    assert main(["fit", str(path), "--metric", "levenshtein", "--cv", "0"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 1: is a FASTA file" in err[0]
    assert "LABEL<TAB>SEQUENCE per line" in err[0] and "sep='\\t'" in err[0]
