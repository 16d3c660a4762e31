"""A missing label is said, with its file and line, in every kind of data file.

The property soak (``benchmarks/property_soak.py --examples 2000``) found a CSV whose one
label cell read ``nan`` ending ``fit`` in "internal error (RuntimeWarning: invalid value
encountered in cast)" -- without the test suite's warning filter, a stray numpy warning and
"Input contains NaN." naming no file. pandas writes a missing label as an empty cell or
``nan``; the readers of CSV / TSV features, labels files (text, .npy, .npz), series and
strings now refuse both by file and line, as the LIBSVM reader already did. A second soak
found a CSV of a label column alone ("Degrees of freedom <= 0", then scikit-learn's "Found
array with 0 feature(s)"): now said by the reader, with the option that takes labels alone.
"""

import re

import numpy as np
import pytest

from indefsvm.cli import main
from indefsvm.datasets._table import read_features
from indefsvm.exceptions import DataFileError

NOT_FINITE = "is not finite (a missing label?)"


def _one_error(capsys, argv):
    assert main(argv) == 1
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("indefsvm: error:"), err
    return lines[0]


@pytest.mark.parametrize("cell", ["nan", "NaN", "inf", "-inf"])
def test_features_file_with_a_label_that_is_not_finite(tmp_path, capsys, cell):
    path = tmp_path / "train.csv"
    path.write_text(f"1,0.5,0.1\n{cell},0.2,0.3\n2,0.7,0.9\n")
    err = _one_error(capsys, ["fit", str(path), "--label-column", "0", "--cv", "0"])
    assert f"train.csv, line 2: column 0: label '{cell}' {NOT_FINITE}" in err


def test_features_file_with_a_header_and_an_empty_label(tmp_path, capsys):
    path = tmp_path / "train.csv"
    path.write_text("x1,x2,label\n0.5,0.1,a\n0.2,0.3,\n0.7,0.9,b\n")
    err = _one_error(capsys, ["fit", str(path), "--cv", "0"])
    assert "train.csv, line 3: column label: an empty label (missing?)" in err
    with pytest.raises(DataFileError, match="line 3: column label: an empty label"):
        read_features(str(path), ",")


def test_words_as_labels_and_one_nan_is_a_missing_label_not_a_class(tmp_path):
    # a class named "nan" is a missing value in every file pandas writes
    path = tmp_path / "train.tsv"
    path.write_text("label\tx\nspam\t1\nham\t2\nnan\t3\n")
    with pytest.raises(DataFileError, match=r"line 4: column label: label 'nan' is not"):
        read_features(str(path), "\t")


def test_labels_files(tmp_path, capsys):
    np.save(tmp_path / "K.npy", np.eye(3))
    K = str(tmp_path / "K.npy")
    # text, with pandas' header row: the line of the file, not of the labels
    (tmp_path / "y.txt").write_text("label\n1\nnan\n2\n")
    err = _one_error(capsys, ["fit", K, "--labels", str(tmp_path / "y.txt"), "--cv", "0"])
    assert f"y.txt, line 3: label 'nan' {NOT_FINITE}" in err
    np.save(tmp_path / "y.npy", np.array([1.0, 2.0, np.nan]))
    err = _one_error(capsys, ["fit", K, "--labels", str(tmp_path / "y.npy"), "--cv", "0"])
    assert "y.npy: label 3 is nan" in err
    np.savez(tmp_path / "Ky.npz", K=np.eye(3), y=np.array([np.inf, 1.0, 2.0]))
    err = _one_error(capsys, ["fit", str(tmp_path / "Ky.npz"), "--cv", "0"])
    assert "Ky.npz: label 1 of its array y is inf" in err


def test_series_and_strings_files(tmp_path, capsys):
    (tmp_path / "s.txt").write_text("1,0.1,0.2,0.3\nnan,0.2,0.1,0.0\n2,0.5,0.5,0.4\n")
    err = _one_error(capsys, ["fit", str(tmp_path / "s.txt"), "--metric", "dtw", "--cv", "0"])
    assert f"s.txt, line 2: label 'nan' {NOT_FINITE}" in err
    (tmp_path / "s.csv").write_text("label,t0,t1\n1,0.1,0.2\ninf,0.2,0.1\n")
    err = _one_error(capsys, ["fit", str(tmp_path / "s.csv"), "--metric", "dtw", "--cv", "0"])
    assert f"s.csv, line 3: column label: label 'inf' {NOT_FINITE}" in err
    (tmp_path / "w.tsv").write_text("1\tabc\nnan\tabd\n2\txyz\n")
    err = _one_error(capsys, ["fit", str(tmp_path / "w.tsv"), "--metric", "levenshtein",
                              "--cv", "0"])
    assert f"w.tsv, line 2: label 'nan' {NOT_FINITE}" in err


def test_finite_labels_still_read(tmp_path):
    # the check refuses only what is missing: words, whole numbers and real targets pass
    path = tmp_path / "t.csv"
    path.write_text("label,x\n1.5,1\n-2,2\n1e3,3\n")
    _, y, _ = read_features(str(path), ",")
    np.testing.assert_array_equal(y, [1.5, -2.0, 1000.0])


@pytest.mark.parametrize("text", ["label\n0\n1\n", "label\n0\n-\n"])
def test_a_label_column_alone_is_no_features_file(tmp_path, capsys, text):
    path = tmp_path / "y.csv"
    path.write_text(text)
    err = _one_error(capsys, ["fit", str(path), "--cv", "0"])
    assert "y.csv: has the label column and no feature column" in err and "--labels" in err
    (tmp_path / "n.csv").write_text("0\n1\n")
    err = _one_error(capsys, ["fit", str(tmp_path / "n.csv"), "--label-column", "0",
                              "--cv", "0"])
    assert "no feature column" in err


MISSING_WORD = "is a missing value (R's NA"


@pytest.mark.parametrize("cell", ["NA", "N/A", "NULL", "None", "?"])
def test_r_na_and_its_kin_in_a_label_column_are_missing_labels_not_a_class(tmp_path, capsys,
                                                                          cell):
    # fit na_label.csv said "3 classes", "pair NA vs no: converged": R's write.csv writes a
    # missing label NA, and 0/1 labels with one NA became the strings '0', '1', 'NA'
    words = tmp_path / "words.csv"
    words.write_text(f"x1,x2,label\n0.5,0.1,yes\n0.2,0.3,{cell}\n0.7,0.9,no\n0.1,0.4,yes\n")
    err = _one_error(capsys, ["fit", str(words), "--cv", "0"])
    assert f"words.csv, line 3: column label: label '{cell}' {MISSING_WORD}" in err
    digits = tmp_path / "digits.csv"  # NumPy's compiled route reads this table
    digits.write_text("".join(f"{k % 2},{k / 10},{k / 7}\n" for k in range(9))
                      + f"{cell},0.3,0.4\n")
    with pytest.raises(DataFileError, match=rf"line 10: column 0: label '{re.escape(cell)}' "
                                            "is a missing value"):
        read_features(str(digits), ",", "0")
    (tmp_path / "s.txt").write_text(f"1,0.1,0.2,0.3\n{cell},0.2,0.1,0.0\n2,0.5,0.5,0.4\n")
    err = _one_error(capsys, ["fit", str(tmp_path / "s.txt"), "--metric", "dtw", "--cv", "0"])
    assert f"s.txt, line 2: label '{cell}' {MISSING_WORD}" in err
    (tmp_path / "w.tsv").write_text(f"1\tabc\n{cell}\tabd\n2\txyz\n")
    err = _one_error(capsys, ["fit", str(tmp_path / "w.tsv"), "--metric", "levenshtein",
                              "--cv", "0"])
    assert f"w.tsv, line 2: label '{cell}' {MISSING_WORD}" in err
    np.save(tmp_path / "K.npy", np.eye(3))
    (tmp_path / "y.txt").write_text(f"1\n{cell}\n2\n")
    err = _one_error(capsys, ["fit", str(tmp_path / "K.npy"), "--labels",
                              str(tmp_path / "y.txt"), "--cv", "0"])
    assert f"y.txt, line 2: label '{cell}' {MISSING_WORD}" in err


def test_a_nul_byte_past_the_first_64_kib_is_no_class_of_its_own(tmp_path, capsys):
    # check_text looks at the first 64 KiB: a NUL further on became part of a label
    path = tmp_path / "train.csv"
    rows = "".join(f"{k / 100},{k % 7},{'a' if k % 2 else 'b'}\n" for k in range(9000))
    path.write_bytes(("x1,x2,label\n" + rows).encode() + b"0.5,1,a\x00\n0.1,2,b\n")
    err = _one_error(capsys, ["fit", str(path), "--cv", "0"])
    assert "train.csv, line 9002: holds a NUL byte" in err


def test_control_characters_of_a_label_do_not_reach_the_terminal(tmp_path, capsys):
    # a crafted label's escape sequence was printed raw through fit's "pair" line
    path = tmp_path / "train.csv"
    path.write_text("".join(f"{k / 10},{k % 3},{'red' if k % 2 else 'x[31mgreen'}\n"
                            for k in range(40)).replace("x[31m", "\x1b[31m"), newline="")
    assert main(["fit", str(path), "--label-column", "2", "--cv", "0"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[31mgreen vs red" in out
