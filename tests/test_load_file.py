"""``datasets.load_file``: every format the command line reads, read by one function that
the command line asks too -- checked against the readers of one format each, against the
command line's own reading, and with ``like=`` against the models' predictions."""

from __future__ import annotations

import gzip
import json
import os
import re

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file

import indefsvm as isvm
from indefsvm.cli import main
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


@pytest.fixture
def kernel_file(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    np.save(tmp_path / "K.npy", X @ X.T)
    return tmp_path / "K.npy", y


@pytest.fixture
def heart_kernel():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    return isvm.kernel_matrix(X[:80], kernel="sigmoid", gamma=0.01, coef0=-0.5), y[:80]


@pytest.mark.parametrize("how", ["header=False", "index=False", "default"])
def test_labels_written_by_pandas_are_read_as_the_labels(kernel_file, tmp_path, how, capsys):
    pd = pytest.importorskip("pandas")
    K, y = kernel_file
    s = pd.Series(y, name="label")
    f = tmp_path / "y.csv"
    {"header=False": lambda: s.to_csv(f, header=False),
     "index=False": lambda: s.to_csv(f, index=False),
     "default": lambda: s.to_csv(f)}[how]()
    assert main(["fit", str(K), "--labels", str(f), "--cv", "0", "--json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert len(out["problems"]) == 1  # two classes, not 60
    assert out["training_accuracy"] > 0.9


def test_a_labels_file_with_as_many_labels_as_samples_is_a_warning(kernel_file, tmp_path,
                                                                    capsys):
    K, _ = kernel_file
    f = tmp_path / "y.txt"
    f.write_text("".join(f"{i % 40}\n" for i in range(60)))
    assert main(["fit", str(K), "--labels", str(f), "--cv", "0", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert f"warning: {f} holds 40 different labels for 60 samples" in err


def test_two_columns_that_are_not_an_index_are_refused(kernel_file, tmp_path, capsys):
    K, y = kernel_file
    f = tmp_path / "y.csv"
    f.write_text("".join(f"{v},{v}\n" for v in y))
    assert main(["fit", str(K), "--labels", str(f), "--cv", "0"]) == 1
    assert "first is not a row index" in capsys.readouterr().err


def test_plain_and_string_labels_are_read_as_before(kernel_file, tmp_path, capsys):
    K, y = kernel_file
    f = tmp_path / "y.txt"
    f.write_text("".join(("cat\n" if v else "dog\n") for v in y))
    assert main(["fit", str(K), "--labels", str(f), "--cv", "0", "--quiet"]) == 0
    assert "warning" not in capsys.readouterr().err


def test_a_square_numeric_csv_without_labels_is_said_to_look_like_a_kernel(tmp_path, capsys):
    X = np.random.default_rng(0).normal(size=(30, 4))
    f = tmp_path / "K.csv"
    np.savetxt(f, X @ X.T, delimiter=",")
    assert main(["fit", str(f), "--cv", "0"]) == 1
    err = capsys.readouterr().err
    assert "is a square matrix of numbers (30 x 30)" in err and "--labels FILE" in err
    assert "cannot be found by name" not in err


@pytest.mark.parametrize("suffix", [".csv", ".npy"])
def test_features_with_a_labels_file_train_on_the_features(tmp_path, suffix, capsys):
    rng = np.random.default_rng(1)
    X = rng.normal(size=(120, 7))
    y = (X[:, 0] + X[:, 1] > 0).astype(int)
    f = tmp_path / f"X{suffix}"
    if suffix == ".csv":
        np.savetxt(f, X, delimiter=",")
    else:
        np.save(f, X)
    yf = tmp_path / "y.txt"
    np.savetxt(yf, y, fmt="%d")
    m = tmp_path / "m.skops"
    assert main(["fit", str(f), "--labels", str(yf), "--kernel", "rbf", "--gamma", "0.1",
                 "-C", "3", "--cv", "0", "--save", str(m), "--json"]) == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["n_samples"] == 120 and out["n_features"] == 7
    # the same model as the library's on these features
    ref = isvm.IndefiniteSVC(kernel="rbf", gamma=0.1, C=3).fit(X, y)
    assert out["training_accuracy"] == pytest.approx(ref.score(X, y))
    pred = tmp_path / "p.txt"
    assert main(["predict", str(m), str(f), "--out", str(pred), "--quiet"]) == 0
    np.testing.assert_array_equal(np.loadtxt(pred), ref.predict(X))


def test_an_empty_labels_file_is_a_count_error_not_a_crash(kernel_file, tmp_path, capsys):
    K, _ = kernel_file
    f = tmp_path / "y.txt"
    f.write_text("\n")
    assert main(["fit", str(K), "--labels", str(f), "--cv", "0"]) == 1
    err = capsys.readouterr().err
    assert "has 0 labels for 60 samples" in err and "internal error" not in err


@pytest.mark.parametrize("suffix", [".npy", ".txt"])
def test_a_matrix_file_with_nan_is_named_with_its_line(tmp_path, heart_kernel, capsys, suffix):
    K, y = heart_kernel
    K = K.copy()
    K[2, 2] = np.nan
    f = tmp_path / f"K{suffix}"
    np.save(f, K) if suffix == ".npy" else np.savetxt(f, K)
    np.savetxt(tmp_path / "y.txt", y, fmt="%d")
    assert main(["fit", str(f), "--labels", str(tmp_path / "y.txt")]) == 1
    err = capsys.readouterr().err
    where = f"{f}: " if suffix == ".npy" else f"{f}, line 3: "
    assert err.startswith(f"indefsvm: error: {where}holds nan at row 2, column 2")


def test_an_object_npy_is_not_called_a_libsvm_file(tmp_path, capsys):
    f = tmp_path / "K.npy"
    np.save(f, np.array([[1, "a"], [2, "b"]], dtype=object), allow_pickle=True)
    (tmp_path / "y.txt").write_text("0\n1\n")
    assert main(["fit", str(f), "--labels", str(tmp_path / "y.txt")]) == 1
    err = capsys.readouterr().err
    assert "holds Python objects (dtype object)" in err and "LIBSVM" not in err


def test_a_csv_written_by_pandas_with_its_index_trains_the_same_model(tmp_path, capsys):
    # DataFrame.to_csv() writes the row index as an unnamed first column: read as a feature
    # it made a 14-feature model of the heart data at 55 % training accuracy
    import pandas as pd

    X, y = isvm.datasets.load_heart(return_X_y=True)
    df = pd.DataFrame(X, columns=[f"f{k}" for k in range(X.shape[1])]).assign(label=y)
    df.to_csv(tmp_path / "plain.csv", index=False)
    df.to_csv(tmp_path / "indexed.csv")  # pandas' default: the index too
    outs = []
    for name in ("plain", "indexed"):
        model = tmp_path / f"{name}.skops"
        assert main(["fit", str(tmp_path / f"{name}.csv"), "-C", "1", "--gamma", "0.1",
                     "--cv", "0", "--save", str(model), "--json"]) == 0
        cap = capsys.readouterr()
        outs.append(json.loads(cap.out))
        # the data to predict are read by the same rule
        assert main(["predict", str(model), str(tmp_path / "indexed.csv")]) == 0
        assert "accuracy" in capsys.readouterr().err
    assert outs[1]["n_features"] == outs[0]["n_features"] == 13
    assert outs[1]["training_accuracy"] == outs[0]["training_accuracy"]
    assert "column 1 (unnamed) is an index" in cap.err


def test_an_index_column_is_skipped_only_when_it_is_one(tmp_path):
    from indefsvm.datasets._table import read_features

    notes = []
    (tmp_path / "a.csv").write_text(",x,label\n0,1.5,a\n1,2.5,b\n")
    X, y, names = read_features(str(tmp_path / "a.csv"), ",", note=notes.append)
    assert X.tolist() == [[1.5], [2.5]] and names == ["x"] and len(notes) == 1
    # an unnamed first column of measurements is a feature, and said nothing of
    (tmp_path / "b.csv").write_text(",x,label\n0.5,1.5,a\n1.5,2.5,b\n")
    X, _, _ = read_features(str(tmp_path / "b.csv"), ",", note=notes.append)
    assert X.shape == (2, 2) and len(notes) == 1
    # the first column named as the labels stays the labels
    (tmp_path / "c.csv").write_text(",x,z\n0,1.5,1\n1,2.5,2\n")
    X, y, _ = read_features(str(tmp_path / "c.csv"), ",", label_column="0",
                            note=notes.append)
    assert y.tolist() == [0, 1] and X.tolist() == [[1.5, 1], [2.5, 2]] and len(notes) == 1


@pytest.mark.parametrize("content, said", [
    (b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4, "is not a text file (it holds NUL"),
    ("label,a\n1,0.5\n-1,0.25\n".encode("utf-16"), "is UTF-16 text"),
    ("label,a\n1,0.5\n-1,0.25\n".encode("utf-16-le"), "is UTF-16 text"),
], ids=["binary", "utf16-bom", "utf16-le"])
@pytest.mark.parametrize("extra", [[], ["--metric", "dtw", "--nystroem", "2"]])
def test_a_binary_or_utf16_file_is_named_as_such(tmp_path, capsys, content, said, extra):
    # it was read as text: a label of garbled bytes, or "not UTF-8 text (invalid start byte)"
    path = tmp_path / "data.csv"
    path.write_bytes(content)
    assert main(["fit", str(path), "--cv", "0", *extra]) == 1
    err = capsys.readouterr().err
    assert said in err and len(err.splitlines()) == 1
    with pytest.raises(isvm.exceptions.DataFileError, match=re.escape(said)):
        isvm.datasets.load_libsvm(str(path))


@pytest.mark.parametrize("row, said", [
    ("5.0,,1", "line 3: column b: an empty value (missing?) is not a number; features must "
               "be numbers: impute the missing values first."),
    ("5.0,red,1", "line 3: column b: 'red' is not a number; features must be numbers: encode "
                  "a column of categories as numbers first, one column per category "
                  "(pandas.get_dummies), or drop it."),
    # NaN and infinity written out parse as numbers: the line and column are named too
    ("5.0,NaN,1", "line 3: column b: 'NaN' is NaN or infinity, among the features"),
    ("5.0,1.0,inf", "line 3: column c: 'inf' is NaN or infinity, among the features"),
])
def test_a_feature_that_is_no_number_is_named_with_its_fix(tmp_path, row, said):
    from indefsvm.datasets._table import read_features
    from indefsvm.exceptions import DataFileError

    (tmp_path / "f.csv").write_text(f"a,b,c,label\n1.0,2.0,3.0,0\n{row},1\n")
    with pytest.raises(DataFileError) as info:
        read_features(str(tmp_path / "f.csv"), ",")
    assert said in str(info.value)


def test_label_column_first_and_last_read_a_feature_file_as_they_read_a_series_file(tmp_path):
    from indefsvm.datasets._table import read_features

    (tmp_path / "f.csv").write_text("1.5,2.5,0\n3.5,4.5,1\n")
    X, y, _ = read_features(str(tmp_path / "f.csv"), ",", label_column="last")
    assert X.tolist() == [[1.5, 2.5], [3.5, 4.5]] and y.tolist() == [0, 1]
    X, y, _ = read_features(str(tmp_path / "f.csv"), ",", label_column="first")
    assert X.tolist() == [[2.5, 0], [4.5, 1]] and y.tolist() == [1.5, 3.5]
    # a column named "last" is that column
    (tmp_path / "g.csv").write_text("last,b,c\n7,2.5,0\n8,4.5,1\n")
    _, y, _ = read_features(str(tmp_path / "g.csv"), ",", label_column="last")
    assert y.tolist() == [7, 8]


def test_a_check_of_the_values_keeps_its_parameter(monkeypatch):
    """load_file says the readers' refusals in its parameters' words (a ParameterError of no
    parameter); a check of the data's values inside it (check_distance_matrix, naming the
    file) comes out as it was raised, its parameter kept."""
    from indefsvm.datasets import _data_file
    from indefsvm.exceptions import ParameterError

    def refused(*args, **kwargs):
        raise ParameterError("must be a 2-D array of distances; got shape (3,).", "D.npy")

    monkeypatch.setattr(_data_file, "_load_file", refused)
    with pytest.raises(ParameterError) as info:
        isvm.datasets.load_file("D.npy")
    assert info.value.param == "D.npy"
    assert str(info.value) == "D.npy must be a 2-D array of distances; got shape (3,)."
