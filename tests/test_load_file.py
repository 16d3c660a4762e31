"""``datasets.load_file``: every format the command line reads, read by one function that
the command line asks too -- checked against the readers of one format each, against the
command line's own reading, and with ``like=`` against the models' predictions."""

from __future__ import annotations

import gzip
import os

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

import indefsvm as isvm
from indefsvm.datasets import DataFile, load_file
from indefsvm.exceptions import DataFileError

RNG = np.random.default_rng(0)
X = np.round(RNG.normal(size=(30, 4)), 4)
Y = np.where(X[:, 0] + 0.3 * X[:, 1] > 0, 1, -1)


def _csv(path, X, y, names=("a", "b", "c", "d"), sep=","):
    with open(path, "w") as fh:
        fh.write(sep.join(list(names) + ["label"]) + "\n")
        for row, label in zip(X, y, strict=True):
            fh.write(sep.join(f"{v:g}" for v in row) + f"{sep}{label}\n")
    return str(path)


def test_each_format_is_read_as_its_own_reader_reads_it(tmp_path):
    svm = tmp_path / "train.svm"
    dump_svmlight_file(X, Y, str(svm), zero_based=False)
    got = load_file(svm)
    ref_X, ref_y = isvm.datasets.load_libsvm(svm)
    assert (got.kind, got.format) == ("features", "LIBSVM")
    np.testing.assert_array_equal(got.X, ref_X)
    np.testing.assert_array_equal(got.y, ref_y)

    for sep, form in ((",", "CSV"), ("\t", "TSV")):
        got = load_file(_csv(tmp_path / f"t{form}.txt", X, Y, sep=sep))
        assert (got.kind, got.format, got.feature_names) == ("features", form,
                                                             ["a", "b", "c", "d"])
        np.testing.assert_array_equal(got.X, X)
        np.testing.assert_array_equal(got.y, Y)

    arff = tmp_path / "t.arff"
    rows = "".join(",".join(f"{v:g}" for v in r) + f",{c}\n" for r, c in zip(X, Y, strict=True))
    arff.write_text("@relation t\n" + "".join(f"@attribute {n} numeric\n" for n in "abcd")
                    + "@attribute class {-1,1}\n@data\n" + rows)
    got = load_file(arff)
    ref_X, ref_y = isvm.datasets.load_arff(arff)
    assert (got.kind, got.format) == ("features", "ARFF")
    np.testing.assert_array_equal(got.X, ref_X)
    np.testing.assert_array_equal(got.y, ref_y)

    K = X @ X.T
    np.savez(tmp_path / "K.npz", K=K, y=Y)
    got = load_file(tmp_path / "K.npz")
    assert (got.kind, got.format) == ("kernel", "NumPy")
    np.testing.assert_array_equal(got.X, K)
    np.testing.assert_array_equal(got.y, Y)

    np.savetxt(tmp_path / "K.txt", K)
    np.savetxt(tmp_path / "y.txt", Y, fmt="%d")
    got = load_file(tmp_path / "K.txt", labels=tmp_path / "y.txt")
    assert (got.kind, got.format) == ("kernel", "text")
    np.testing.assert_allclose(got.X, K, rtol=1e-15)
    np.testing.assert_array_equal(got.y, Y)

    # LIBSVM's precomputed-kernel lines (svm-train -t 4)
    with open(tmp_path / "K.libsvm", "w") as fh:
        for i, row in enumerate(K):
            fh.write(f"{Y[i]} 0:{i + 1} " + " ".join(f"{j + 1}:{float(v)!r}" for j, v in
                                                      enumerate(row)) + "\n")
    with pytest.warns(UserWarning, match="zero_based=True reads it as 0-based features"):
        got = load_file(tmp_path / "K.libsvm")
    ref_K, ref_y = isvm.datasets.load_libsvm_kernel(tmp_path / "K.libsvm")
    assert (got.kind, got.format) == ("kernel", "LIBSVM kernel")
    np.testing.assert_array_equal(got.X, ref_K)
    np.testing.assert_array_equal(got.y, ref_y)

    # features in a .npy, their labels beside
    np.save(tmp_path / "F.npy", X)
    got = load_file(tmp_path / "F.npy", labels=tmp_path / "y.txt")
    assert got.kind == "features"
    np.testing.assert_array_equal(got.X, X)

    # compressed as it is
    with gzip.open(tmp_path / "train.svm.gz", "wb") as fh:
        fh.write(svm.read_bytes())
    np.testing.assert_array_equal(load_file(tmp_path / "train.svm.gz").X, load_file(svm).X)


def test_distances_are_checked_and_labelled(tmp_path):
    D = np.abs(X[:, None, 0] - X[None, :, 0])
    np.savez(tmp_path / "D.npz", D=D, y=Y)
    got = load_file(tmp_path / "D.npz", distances=True)
    assert got.kind == "distances"
    np.testing.assert_array_equal(got.X, D)
    bad = D.copy()
    bad[0, 1] = -1.0
    np.savez(tmp_path / "bad.npz", D=bad, y=Y)
    with pytest.raises(ValueError, match="bad.npz"):
        load_file(tmp_path / "bad.npz", distances=True)


def test_a_parameter_that_does_not_apply_is_named_in_python_words(tmp_path):
    svm = tmp_path / "train.svm"
    dump_svmlight_file(X, Y, str(svm), zero_based=False)
    with pytest.raises(ValueError, match=r"^label_column does not apply to .*train.svm, a "
                                         r"LIBSVM file, .*\(label_column reads CSV"):
        load_file(svm, label_column="label")
    csv = _csv(tmp_path / "t.csv", X, Y)
    with pytest.raises(ValueError, match=r"^zero_based=True n_features do not apply to .*"
                                         r"\(zero_based=True and n_features read LIBSVM"):
        load_file(csv, zero_based=True, n_features=4)
    np.save(tmp_path / "K.npy", X @ X.T)
    with pytest.raises(ValueError, match=r"a precomputed kernel needs its labels: give "
                                         r"labels=FILE"):
        isvm.datasets._data_file.read_file(str(tmp_path / "K.npy"))
    arff = tmp_path / "t.arff"
    arff.write_text("@relation t\n@attribute a numeric\n@attribute class {x,y}\n@data\n1,x\n")
    with pytest.raises(ValueError, match=r"^labels does not apply to .*an ARFF file"):
        load_file(arff, labels=tmp_path / "y.txt")
    with pytest.raises(ValueError, match="n_features"):
        load_file(svm, n_features=0)  # the constraints, before the file is read


def test_the_command_line_reads_a_file_as_load_file_does(tmp_path, capsys):
    """``indefsvm fit FILE`` trains on the arrays of ``load_file(FILE)``: its JSON counts
    them, and its model equals the one fitted on load_file's arrays."""
    import json

    from indefsvm.cli import main

    csv = _csv(tmp_path / "t.csv", X, Y)
    save = str(tmp_path / "m.skops")
    assert main(["fit", csv, "-C", "1", "--gamma", "0.5", "--cv", "0", "--json", "--quiet",
                 "--save", save]) == 0
    out = json.loads(capsys.readouterr().out)
    data = load_file(csv)
    assert (out["n_samples"], out["n_features"]) == data.X.shape
    mine = isvm.IndefiniteSVC(C=1.0, gamma=0.5).fit(data.X, data.y)
    model = isvm.load_model(save)
    np.testing.assert_allclose(model.decision_function(data.X), mine.decision_function(data.X),
                               rtol=1e-10, atol=1e-12)
    assert model.feature_columns_ == ("a", "b", "c", "d")


def test_like_reads_new_rows_in_the_models_form(tmp_path, capsys):
    from indefsvm.cli import main

    csv = _csv(tmp_path / "t.csv", X, Y)
    save = str(tmp_path / "m.skops")
    assert main(["fit", csv, "-C", "1", "--gamma", "0.5", "--cv", "0", "--quiet",
                 "--save", save]) == 0
    model = isvm.load_model(save)
    # the same columns in another order: read by the names the model keeps
    order = [2, 0, 3, 1]
    shuffled = _csv(tmp_path / "s.csv", X[:, order], Y, names=[("a", "b", "c", "d")[i]
                                                                for i in order])
    with pytest.warns(UserWarning, match="read by name"):
        got = load_file(shuffled, like=model)
    np.testing.assert_array_equal(got.X, X)
    np.testing.assert_array_equal(model.predict(got.X), model.predict(X))
    # a column too many is refused with its likely cause
    np.savetxt(tmp_path / "wide.txt", np.c_[X, Y], delimiter=" ")
    np.save(tmp_path / "wide.npy", np.c_[X, Y])
    with pytest.raises(DataFileError, match="has 5 features; the model was trained on 4"):
        load_file(tmp_path / "wide.npy", like=model)

    # a precomputed model: kernel rows of n_train columns
    K = X @ X.T
    pre = isvm.IndefiniteSVC(kernel="precomputed").fit(K, Y)
    np.save(tmp_path / "rows.npy", K[:5])
    got = load_file(tmp_path / "rows.npy", like=pre)
    assert got.kind == "kernel" and got.X.shape == (5, 30)
    np.save(tmp_path / "short.npy", K[:5, :10])
    with pytest.raises(DataFileError, match="need 30 columns"):
        load_file(tmp_path / "short.npy", like=pre)
    with pytest.raises(ValueError, match="the model's own"):
        load_file(tmp_path / "rows.npy", like=pre, distances=True)


def test_like_a_model_of_series_reads_its_series_and_checks_the_labels(tmp_path):
    S, y = isvm.datasets.make_cbf(30, length=32, random_state=0)
    model = isvm.NystroemSVC(metric="dtw", n_components=10, random_state=0).fit(S, y)
    path = tmp_path / "series.txt"
    path.write_text("".join(f"{c} " + " ".join(repr(float(v)) for v in s) + "\n"
                            for c, s in zip(y, S, strict=True)))
    got = load_file(path, like=model)
    assert got.kind == "series"
    np.testing.assert_array_equal(np.asarray(got.X), S)
    np.testing.assert_array_equal(got.y, y)
    with pytest.raises(ValueError, match=r"label_column=none"):
        bad = tmp_path / "bad.txt"
        bad.write_text("".join("7 " + " ".join(repr(float(v)) for v in s) + "\n" for s in S))
        load_file(bad, like=model)


def test_the_result_says_itself(tmp_path):
    data = load_file(_csv(tmp_path / "t.csv", X, Y))
    assert isinstance(data, DataFile)
    assert str(data).endswith("CSV, 30 samples, 4 features, 2 classes, features named a, b, "
                              "c, d")
    assert data.to_dict()["shape"] == [30, 4]
    assert "30 samples" in data._repr_html_()
    assert os.path.basename(data.path) == "t.csv"


def test_series_and_strings_files_are_read_as_the_command_line_trains_on_them(tmp_path):
    """objects=: the UCR archive's text layout (label first), a .ts file and an ARFF file
    of the same series give the same arrays; strings with their labels; options of
    another kind of file are refused."""
    S, y = isvm.datasets.make_cbf(12, length=20, random_state=1)
    text = tmp_path / "train.txt"
    text.write_text("".join(f"{c} " + " ".join(repr(float(v)) for v in s) + "\n"
                            for c, s in zip(y, S, strict=True)))
    got = load_file(text, objects="series")
    assert (got.kind, got.format) == ("series", "text")
    np.testing.assert_array_equal(np.asarray(got.X), S)
    np.testing.assert_array_equal(got.y, y)

    ts = tmp_path / "train.ts"
    classes = " ".join(str(c) for c in sorted(set(y.tolist())))
    ts.write_text("@problemName cbf\n@timeStamps false\n@univariate true\n"
                  f"@classLabel true {classes}\n@data\n"
                  + "".join(",".join(repr(float(v)) for v in s) + f":{c}\n"
                            for c, s in zip(y, S, strict=True)))
    got_ts = load_file(ts, objects="series")
    assert got_ts.format == "TS"
    np.testing.assert_array_equal(np.asarray(got_ts.X), S)
    np.testing.assert_array_equal(got_ts.y.astype(str), y.astype(str))

    arff = tmp_path / "train.arff"
    arff.write_text("@relation cbf\n" + "".join(f"@attribute t{i} numeric\n" for i in range(20))
                    + f"@attribute target {{{','.join(classes.split())}}}\n@data\n"
                    + "".join(",".join(repr(float(v)) for v in s) + f",{c}\n"
                              for c, s in zip(y, S, strict=True)))
    got_arff = load_file(arff, objects="series")
    ref_X, _ = isvm.datasets.load_arff(arff, objects="series")
    np.testing.assert_array_equal(np.asarray(got_arff.X), ref_X)
    np.testing.assert_array_equal(np.asarray(got_arff.X), S)

    words = tmp_path / "words.tsv"
    words.write_text("a\tkitten\nb\tsitting\na\tmitten\n")
    got = load_file(words, objects="strings")
    assert got.kind == "strings" and list(got.X) == ["kitten", "sitting", "mitten"]
    assert got.y.tolist() == ["a", "b", "a"]

    with pytest.raises(ValueError, match=r"^distances does not apply to .*a file of series"):
        load_file(text, objects="series", distances=True)
    with pytest.raises(ValueError, match=r"zero_based=True does not apply to .*a file of "
                                         r"series"):
        load_file(text, objects="series", zero_based=True)
    with pytest.raises(ValueError, match="objects"):
        load_file(text, objects="graphs")


def test_labels_may_be_given_as_an_array_and_are_checked_as_a_file_would_be(tmp_path):
    K = X @ X.T
    np.save(tmp_path / "K.npy", K)
    np.savetxt(tmp_path / "y.txt", Y, fmt="%d")
    from_file = load_file(tmp_path / "K.npy", labels=tmp_path / "y.txt")
    from_array = load_file(tmp_path / "K.npy", labels=Y.tolist())
    np.testing.assert_array_equal(from_array.y, from_file.y)
    assert str(from_array).endswith("30 x 30 kernel matrix, 2 classes")
    with pytest.raises(ValueError, match="labels has 29 entries for the 30 rows"):
        load_file(tmp_path / "K.npy", labels=Y[:-1])
    with pytest.raises(DataFileError, match="never NaN"):
        load_file(tmp_path / "K.npy", labels=np.r_[np.nan, Y[1:]])


def test_errors_name_the_parameters_of_python_not_the_options_of_the_command_line(tmp_path,
                                                                                 capsys):
    """The readers' messages say the command line's options (fit --metric dtw, --label-column
    last); load_file says its own parameters instead, and the command line keeps its words."""
    from indefsvm.cli import main

    ts = tmp_path / "x.ts"
    ts.write_text("@problemName a\n@univariate true\n@classLabel true 1 2\n@data\n1,2,3:1\n"
                  "2,3,4:2\n")
    for kw, said in (({}, 'read them with objects="series"'),
                     ({"objects": "strings"}, 'use objects="series"'),
                     ({"objects": "series", "label_column": "last"}, "drop label_column.")):
        with pytest.raises(ValueError) as info:
            load_file(ts, **kw)
        assert said in str(info.value) and "--" not in str(info.value), str(info.value)
    assert main(["fit", str(ts), "--quiet"]) == 1
    assert "add --metric dtw (and --nystroem M)" in capsys.readouterr().err  # its own words
    series = tmp_path / "s.txt"
    series.write_text("1 2 3 4\n2 3 4 5\n")
    with pytest.raises(DataFileError, match="so label_column foo cannot name a column"):
        load_file(series, objects="series", label_column="foo")


def test_a_file_name_holding_a_colon_and_space_is_kept_whole_in_errors(tmp_path):
    # load_file re-worded the readers' errors by split(": ", 1): a name holding ': ' lost
    # its tail into the message
    folder = tmp_path / "run: 2"
    folder.mkdir()
    path = folder / "a: b.csv"
    path.write_text("x1,x2\n1,2\n")
    with pytest.raises(DataFileError) as info:
        load_file(path, label_column="nope")
    assert str(info.value).startswith(f"{path}: has no column 'nope'")
    assert info.value.path == str(path)


def test_a_file_of_classic_mac_line_ends_is_read_line_by_line(tmp_path):
    # a CR-only series file: "internal error (... new-line character seen in unquoted
    # field ...)"; lines ended by '\r' alone are lines
    series = tmp_path / "s.txt"
    series.write_bytes(b"1,0.1,0.2,0.3\r2,0.5,0.4,0.3\r1,0.2,0.2,0.1\r")
    data = load_file(series, objects="series")
    assert data.X.shape == (3, 3) and data.y.tolist() == [1, 2, 1]
    strings = tmp_path / "w.tsv"
    strings.write_bytes(b"1\tabc\r2\tabd\r")
    assert load_file(strings, objects="strings").X == ["abc", "abd"]
