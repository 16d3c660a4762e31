"""Weka's ARFF files: ``datasets.load_arff`` and every command that reads data. ARFF was
refused ("ARFF files are not read ... Export your data"), though it is Weka's format and
the UCR archive's other one (each univariate set ships as ``_TRAIN.arff``). The reader is
checked against SciPy's ``loadarff`` where SciPy reads the file, and against the library's
other readers (LIBSVM features, UCR's one-series-a-line text) on the same data."""

import gzip
import json
import warnings

import numpy as np
import pytest
from scipy.io import arff as scipy_arff

import indefsvm as isvm
from indefsvm.cli import main
from indefsvm.datasets import load_arff
from indefsvm.exceptions import DataFileError

WEATHER = """% Weka's weather data, with a quoted name and a comment
@RELATION weather

@ATTRIBUTE outlook {sunny, overcast, rainy}
@attribute temperature REAL
@attribute\thumidity\tinteger
@attribute 'wind speed' numeric
@attribute play {yes, no}

@data
sunny,85,85,3,no
% a comment among the rows
overcast,83,86,1.5,yes
rainy,70,96,0,yes
sunny,69,70,2.25,yes
"""


def _write(path, text):
    path.write_text(text)
    return str(path)


def _no_note():
    return warnings.catch_warnings()


def test_features_equal_scipys_reader_and_nominals_are_one_column_a_value(tmp_path):
    path = _write(tmp_path / "weather.arff", WEATHER)
    with pytest.warns(UserWarning, match="outlook read as one 0 / 1 column per declared value"):
        X, y, names = load_arff(path, return_names=True)
    data, meta = scipy_arff.loadarff(path)
    assert names == ["outlook=sunny", "outlook=overcast", "outlook=rainy", "temperature",
                     "humidity", "wind speed"]
    for col in ("temperature", "humidity", "wind speed"):
        np.testing.assert_array_equal(X[:, names.index(col)], data[col])
    outlook = [v.decode() for v in data["outlook"]]
    for j, value in enumerate(("sunny", "overcast", "rainy")):
        np.testing.assert_array_equal(X[:, j], [float(o == value) for o in outlook])
    assert y.tolist() == [v.decode() for v in data["play"]]


@pytest.mark.parametrize("seed", range(4))
def test_numpys_parser_and_the_loop_read_the_same(tmp_path, seed):
    """The common file (no quotes, no '?') goes to NumPy's compiled parser; one quoted cell
    sends the same rows through the loop that names defects: both read the same."""
    rng = np.random.default_rng(seed)
    n, d = 30, 4
    X = np.round(rng.normal(size=(n, d)) * 10.0 ** rng.integers(-3, 4, size=d), 6)
    colour = rng.choice(["red", "green", "blue"], size=n)
    y = rng.choice(["1", "2", "3"], size=n)
    header = ("@relation r\n" + "".join(f"@attribute f{j} real\n" for j in range(d))
              + "@attribute colour {red, green, blue}\n@attribute class {1, 2, 3}\n@data\n")
    rows = [",".join([repr(float(v)) for v in X[i]] + [colour[i], y[i]]) for i in range(n)]
    plain = _write(tmp_path / "plain.arff", header + "\n".join(rows) + "\n")
    quoted = rows[:]
    quoted[0] = quoted[0].replace(colour[0], f"'{colour[0]}'")
    looped = _write(tmp_path / "quoted.arff", header + "\n".join(quoted) + "\n")
    with pytest.warns(UserWarning):
        a = load_arff(plain, return_names=True)
    with pytest.warns(UserWarning):
        b = load_arff(looped, return_names=True)
    # the two routes were taken
    from indefsvm.datasets import _arff

    for path, fast in ((plain, True), (looped, False)):
        lines = _arff.text_lines(path)
        attrs, start = _arff.read_header(lines, path)
        keep = list(range(d + 1))
        assert (_arff._features_at_once(path, lines, start, attrs, keep, d + 1)
                is not None) == fast
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[0][:, :d], X)
    assert a[1].tolist() == b[1].tolist() == [int(v) for v in y] and a[1].dtype.kind == "i"
    assert a[2] == b[2]


def test_sparse_rows_are_csr_equal_to_the_dense_file(tmp_path):
    dense = _write(tmp_path / "d.arff", "@relation r\n@attribute a numeric\n@attribute b "
                   "numeric\n@attribute c numeric\n@attribute class {neg, pos}\n@data\n"
                   "1.5,0,0,pos\n0, 2, 0, neg\n0,0,0,neg\n0,0,-3,pos\n")
    sparse = _write(tmp_path / "s.arff", "@relation r\n@attribute a numeric\n@attribute b "
                    "numeric\n@attribute c numeric\n@attribute class {neg, pos}\n@data\n"
                    "{0 1.5, 3 pos}\n{1 2}\n{}\n{2 -3, 3 pos}\n")
    Xd, yd = load_arff(dense)
    Xs, ys = load_arff(sparse)
    assert hasattr(Xs, "toarray") and not hasattr(Xd, "toarray")
    np.testing.assert_array_equal(Xs.toarray(), Xd)
    # an omitted nominal value is the attribute's first ('neg'), as Weka reads it
    assert ys.tolist() == yd.tolist() == ["pos", "neg", "neg", "pos"]


def test_quotes_classes_as_numbers_and_a_regression_target(tmp_path):
    path = _write(tmp_path / "q.arff", "@relation q\n@attribute 'x, first' numeric\n"
                  "@attribute \"second x\" numeric\n@attribute cls {'-1', '1'}\n@data\n"
                  "1,2,'1'\n3,4,-1\n")
    X, y, names = load_arff(path, return_names=True)
    assert names == ["x, first", "second x"] and y.dtype.kind == "i" and y.tolist() == [1, -1]
    reg = _write(tmp_path / "r.arff", "@relation r\n@attribute a numeric\n@attribute price "
                 "numeric\n@data\n1,2.5\n2,3.25\n")
    X, y = load_arff(reg)  # the last attribute is the class, Weka's default
    assert X.tolist() == [[1.0], [2.0]] and y.tolist() == [2.5, 3.25]
    X, y = load_arff(reg, label_column="none")
    assert X.shape == (2, 2) and y is None
    X, y = load_arff(reg, label_column=0)
    assert y.tolist() == [1, 2] and X.ravel().tolist() == [2.5, 3.25]


@pytest.mark.parametrize("body, line, words", [
    ("@attribute a numeric\n@attribute c {p, n}\n@data\n1,p\nx,n\n", 5,
     "attribute a: 'x' is not a number (declared numeric on line 1)"),
    ("@attribute a numeric\n@attribute c {p, n}\n@data\n1,p\n?,n\n", 5,
     "attribute a: a missing value ('?')"),
    ("@attribute a numeric\n@attribute b numeric\n@attribute c {p, n}\n@data\n1, 2, p\n"
     "3, ?, n\n", 6, "attribute b: a missing value ('?')"),
    ("@attribute a numeric\n@attribute c {p, n}\n@data\n1,p\n2,q\n", 5,
     "class 'q' is not one of the values declared for c on line 2"),
    ("@attribute a numeric\n@attribute c {p, n}\n@data\n1,p\n2,3,n\n", 5,
     "has 3 values where the header declares 2 attributes"),
    ("@attribute a numeric\n@attribute c {p, n}\n@data\n1,p\n2,?\n", 5,
     "the class (c) is missing ('?')"),
    ("@attribute a numeric\n@attribute c {p, n}\n@data\n1,p\n{5 1}\n", 5,
     "a sparse row's entries are 'index value', the index from 0 to 1"),
    ("@attribute a numeric\n@attribute c {p, n}\n@data\n'1,p\n", 4,
     "a value opened with ' is not closed"),
    ("@attribute a numeric\n@attribute c {p, n}\n@data\n1_000,p\n", 4,
     "attribute a: '1_000' is not a number"),
    ("@attribute a numeric\n@attribute c {p, n}\n@data\n1e999,p\n", 4,
     "attribute a: NaN or infinity among the features"),
    ("@attribute s string\n@attribute c {p, n}\n@data\nab,p\n", 1,
     "attribute 's' is a string: features are numbers (strings are compared by --metric "
     "levenshtein"),
    ("@attribute d date\n@attribute c {p, n}\n@data\n2020,p\n", 1, "attribute 'd' is a date"),
    ("@attribute m relational\n@attribute a numeric\n@end m\n@attribute c {p}\n@data\n"
     "'1\\n2',p\n", 1, "attribute 'm' is relational: a multivariate series a row (the UEA "
     "archive's ARFF), not features; add --metric dtw"),
    ("@attribute m relational\n@attribute a numeric\n@data\n", 3,
     "@data inside the relational attribute 'm': its '@end m' is missing"),
    ("@attribute m relational\n@attribute a {x, y}\n@end m\n", 2,
     "attribute 'a' of the relational 'm' is nominal; a multivariate series' points are "
     "numeric"),
    ("@attribute a numerc\n@data\n", 1, "attribute 'a' has the type 'numerc'"),
    ("@attribute a numeric\n@attribute c {p, n}\n", None, "has no @data line"),
    ("@attrib a numeric\n", 1, "'@attrib' where the ARFF header has @relation, @attribute"),
])
def test_each_defect_is_named_with_its_line(tmp_path, body, line, words):
    path = _write(tmp_path / "bad.arff", body)
    with pytest.raises(DataFileError) as err:
        load_arff(path)
    where = f"{path}, line {line}: " if line else f"{path}: "
    assert str(err.value).startswith(where), str(err.value)
    assert words in str(err.value)


def test_a_file_to_predict_may_have_every_class_unknown(tmp_path):
    path = _write(tmp_path / "t.arff", "@attribute a numeric\n@attribute class {p, n}\n"
                  "@data\n1,?\n2,?\n")
    X, y = load_arff(path)
    assert y is None and X.tolist() == [[1.0], [2.0]]


def _ucr_arff(path, X, y, pad=()):
    """X as the UCR archive writes a set in ARFF: att1..attL numeric, the class last, a
    series shorter by k points padded with k '?'."""
    with open(path, "w") as fh:
        fh.write("@relation cbf\n" + "".join(f"@attribute att{j} numeric\n"
                                             for j in range(1, X.shape[1] + 1)))
        fh.write("@attribute target {" + ",".join(map(str, np.unique(y))) + "}\n@data\n")
        for i, (row, label) in enumerate(zip(X, y, strict=True)):
            vals = [repr(float(v)) for v in row]
            k = dict(pad).get(i, 0)
            if k:
                vals[-k:] = ["?"] * k
            fh.write(",".join(vals) + f",{label}\n")
    return str(path)


def test_ucr_series_equal_the_one_series_a_line_file(tmp_path):
    from indefsvm.datasets._objects_file import read_objects

    X, y = isvm.datasets.make_cbf(n_samples=12, random_state=0)
    X = np.asarray(X)
    path = _ucr_arff(tmp_path / "cbf.arff", X, y, pad={3: 5, 7: 2})
    with pytest.warns(UserWarning, match="2 of the 12 series end in '\\?'"):
        S, ys = load_arff(path, objects="series")
    text = tmp_path / "cbf.txt"
    with open(text, "w") as fh:
        for i, (row, label) in enumerate(zip(X, y, strict=True)):
            k = {3: 5, 7: 2}.get(i, 0)
            fh.write(f"{label}\t" + "\t".join(repr(float(v)) for v in row[:len(row) - k])
                     + "\n")
    T, yt = read_objects(str(text), "dtw", None)
    assert ys.tolist() == yt.tolist() == list(y)
    assert [len(s) for s in S] == [len(t) for t in T] == [128 - {3: 5, 7: 2}.get(i, 0)
                                                          for i in range(12)]
    for s, t in zip(S, T, strict=True):
        np.testing.assert_array_equal(s, t)


def _uea_arff(path, series, y, length):
    """Series of several channels as the UEA archive writes them in ARFF: one relational
    attribute of ``length`` points, a row's channels one line each (an escaped newline
    between them), a shorter series padded with '?' on every channel."""
    with open(path, "w") as fh:
        fh.write("@relation uea\n@attribute relationalAtt relational\n"
                 + "".join(f"  @attribute att{j} numeric\n" for j in range(length))
                 + "@end relationalAtt\n@attribute activity {walk, run}\n@data\n")
        for A, label in zip(series, y, strict=True):
            pad = length - A.shape[1]
            chans = [",".join([repr(float(v)) for v in c] + ["?"] * pad) for c in A]
            fh.write("'" + "\\n".join(chans) + f"',{label}\n")
    return str(path)


def test_multivariate_series_equal_their_arrays_and_distances(tmp_path):
    rng = np.random.default_rng(0)
    series = [rng.normal(size=(3, 20)) for _ in range(5)] + [rng.normal(size=(3, 14))]
    y = ["walk", "run", "walk", "run", "walk", "run"]
    path = _uea_arff(tmp_path / "mv.arff", series, y, 20)
    with pytest.warns(UserWarning, match="1 of the 6 series end in '\\?'"):
        S, labels = load_arff(path, objects="series")
    assert labels.tolist() == y and [s.shape for s in S] == [a.shape for a in series]
    for s, a in zip(S, series, strict=True):
        np.testing.assert_array_equal(s, a)
    # read as aeon's (n_channels, n_timepoints): the distances of the arrays themselves
    np.testing.assert_array_equal(isvm.pairwise_distances(S, metric="dtw"),
                                  isvm.pairwise_distances(series, metric="dtw"))


@pytest.mark.parametrize("row, words", [
    ("'1,2\\n3',walk", "its channels hold different numbers of points"),
    ("'1,?\\n3,4',walk", "a missing or infinite point at point 2 of channel 1"),
    ("'1,x\\n3,4',walk", "relationalAtt: 'x' is not a number"),
    ("'1,2',walk", "1 channels where the first row has 2"),
])
def test_a_multivariate_rows_defect_is_named(tmp_path, row, words):
    path = tmp_path / "bad.arff"
    path.write_text("@relation r\n@attribute relationalAtt relational\n@attribute a numeric\n"
                    "@attribute b numeric\n@end relationalAtt\n@attribute activity {walk}\n"
                    "@data\n'1,2\\n3,4',walk\n" + row + "\n")
    with pytest.raises(DataFileError) as err:
        load_arff(str(path), objects="series")
    assert str(err.value).startswith(f"{path}, line 9: ") and words in str(err.value)


def test_strings_are_the_one_string_attribute(tmp_path):
    path = _write(tmp_path / "s.arff", "@relation s\n@attribute seq string\n"
                  "@attribute class {a, b}\n@data\n'AC,GT',a\n\"AC\\\"G\",b\nTTT,b\n")
    S, y = load_arff(path, objects="strings")
    assert S == ["AC,GT", 'AC"G', "TTT"] and y.tolist() == ["a", "b", "b"]
    two = _write(tmp_path / "t.arff", "@attribute s string\n@attribute n numeric\n"
                 "@attribute class {a}\n@data\nx,1,a\n")
    with pytest.raises(DataFileError, match="strings need one string attribute"):
        load_arff(two, objects="strings")


def test_the_options_are_checked():
    with pytest.raises(ValueError, match="'objects' parameter of load_arff"):
        load_arff("x.arff", objects="series of series")


# -- the command line -------------------------------------------------------------------


@pytest.fixture
def heart_arff(tmp_path):
    """The bundled heart data as Weka writes it, its class {-1, 1} last."""
    X, y = isvm.datasets.load_heart(return_X_y=True)
    path = tmp_path / "heart.arff"
    with open(path, "w") as fh:
        fh.write("@relation heart\n" + "".join(f"@attribute f{j} numeric\n" for j in range(13))
                 + "@attribute class {-1, 1}\n@data\n")
        for row, label in zip(X, y, strict=True):
            fh.write(",".join(repr(float(v)) for v in row) + f",{label:g}\n")
    return X, y, str(path)


def test_fit_and_predict_read_arff_as_the_libsvm_file(heart_arff, tmp_path, capsys):
    X, y, path = heart_arff
    model = str(tmp_path / "m.skops")
    assert main(["fit", path, "-C", "1", "--gamma", "0.1", "--cv", "0", "--json", "--quiet",
                 "--save", model]) == 0
    out = json.loads(capsys.readouterr().out)
    ref = isvm.IndefiniteSVC(C=1.0, gamma=0.1).fit(X, y)
    assert out["n_samples"] == 270
    assert abs(out["problems"][0]["objective"] - ref.objective_) < 1e-9
    assert main(["predict", model, path]) == 0
    captured = capsys.readouterr()
    pred = np.array(captured.out.split(), dtype=float)
    np.testing.assert_array_equal(pred, ref.predict(X))
    right = int(np.sum(pred == y))
    assert f"accuracy {100 * right / 270:.2f} % ({right}/270)" in captured.err


def test_predict_reads_the_attributes_by_name(heart_arff, tmp_path, capsys):
    X, y, path = heart_arff
    model = str(tmp_path / "m.skops")
    assert main(["fit", path, "-C", "1", "--gamma", "0.1", "--cv", "0", "--quiet",
                 "--save", model]) == 0
    capsys.readouterr()
    order = list(range(13))[::-1]
    swapped = tmp_path / "swapped.arff"
    with open(swapped, "w") as fh:
        fh.write("@relation heart\n" + "".join(f"@attribute f{j} numeric\n" for j in order)
                 + "@attribute class {-1, 1}\n@data\n")
        for row, label in zip(X, y, strict=True):
            fh.write(",".join(repr(float(row[j])) for j in order) + f",{label:g}\n")
    assert main(["predict", model, str(swapped)]) == 0
    captured = capsys.readouterr()
    ref = isvm.IndefiniteSVC(C=1.0, gamma=0.1).fit(X, y)
    np.testing.assert_array_equal(np.array(captured.out.split(), dtype=float),
                                  ref.predict(X))
    assert "are read by name, in the model's order" in captured.err


def test_a_compressed_arff_reads_as_the_plain_one(heart_arff, tmp_path, capsys):
    _, _, path = heart_arff
    gz = path + ".gz"
    with open(path, "rb") as src, gzip.open(gz, "wb") as dst:
        dst.write(src.read())
    outs = []
    for p in (path, gz):
        assert main(["fit", p, "-C", "1", "--gamma", "0.1", "--cv", "0", "--json",
                     "--quiet"]) == 0
        outs.append(json.loads(capsys.readouterr().out)["problems"][0]["objective"])
    assert outs[0] == outs[1]


def test_fit_metric_dtw_reads_ucr_arff_as_its_text_file(tmp_path, capsys):
    X, y = isvm.datasets.make_cbf(n_samples=30, random_state=1)
    X = np.asarray(X)
    arff = _ucr_arff(tmp_path / "cbf.arff", X, y)
    text = tmp_path / "cbf.txt"
    np.savetxt(text, np.c_[y, X], delimiter="\t", fmt="%.17g")
    preds = []
    for name in (arff, str(text)):
        model = str(tmp_path / "m.skops")
        assert main(["fit", name, "--metric", "dtw", "-C", "10", "--gamma", "0.01",
                     "--cv", "0", "--quiet", "--save", model]) == 0
        capsys.readouterr()
        assert main(["predict", model, arff]) == 0
        captured = capsys.readouterr()
        preds.append(captured.out)
        assert "accuracy" in captured.err
    assert preds[0] == preds[1]


def test_fit_metric_dtw_reads_uea_multivariate_arff(tmp_path, capsys):
    rng = np.random.default_rng(1)
    series = [rng.normal(size=(2, 16)) + (k % 2) for k in range(12)]
    y = ["walk", "run"] * 6
    path = _uea_arff(tmp_path / "mv.arff", series, y, 16)
    model = str(tmp_path / "m.skops")
    assert main(["fit", path, "--metric", "dtw", "-C", "10", "--gamma", "0.05", "--cv", "0",
                 "--quiet", "--save", model]) == 0
    capsys.readouterr()
    ref = isvm.NystroemSVC(metric="dtw", kernel="rbf", gamma=0.05, C=10.0, n_components=12,
                           random_state=0).fit(series, np.array(y))
    assert main(["predict", model, path]) == 0
    assert capsys.readouterr().out.split() == ref.predict(series).tolist()


@pytest.mark.parametrize("extra, words", [
    (["--distances"], "--distances does not apply to"),
    (["--labels", "y.txt"], "--labels does not apply to"),
    (["--zero-based"], "--zero-based does not apply to"),
])
def test_options_of_other_formats_are_refused(heart_arff, extra, words, capsys):
    _, _, path = heart_arff
    assert main(["fit", path] + extra) == 2
    err = capsys.readouterr().err
    assert err.startswith("indefsvm: error: ") and words in err and "ARFF" in err


def test_a_series_arff_without_metric_is_told_to_add_it(tmp_path, capsys):
    X, y = isvm.datasets.make_cbf(n_samples=6, random_state=0)
    path = _ucr_arff(tmp_path / "cbf.arff", np.asarray(X), y, pad={2: 3})
    assert main(["fit", path, "--cv", "0"]) == 1
    err = capsys.readouterr().err
    assert "line 134: attribute att126: a missing value ('?')" in err
    assert "add --metric dtw" in err


def test_numpys_route_never_reads_otherwise_than_the_loop():
    """Random small ARFF files: with NumPy's route load_arff gives what the loop alone gives
    -- the same arrays, or the same error (the route gives way at any doubt)."""
    import tempfile
    from unittest import mock

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from indefsvm.datasets import _arff

    number = st.sampled_from(["1", "-2", "0.5", "1e3", " 3 ", "7"])
    odd = st.sampled_from(["?", "x", "", "nan", "1e999", "1_0", "red", "'1'", "blue"])

    def outcome(path):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                X, y, names = load_arff(path, return_names=True)
        except DataFileError as exc:
            return "error", str(exc)
        return "read", X.tolist(), None if y is None else (y.tolist(), y.dtype.kind), names

    @settings(max_examples=200, deadline=None, derandomize=True)
    @given(st.lists(st.sampled_from(["numeric", "{red, blue}"]), min_size=1, max_size=3),
           st.data())
    def check(kinds, data):
        # mostly what each attribute declares, so that NumPy's route is taken often
        colour = st.sampled_from(["red", "blue", " red", "red", "green", "?"])
        cells = [st.one_of(number, number, number, odd) if k == "numeric" else colour
                 for k in kinds] + [st.sampled_from(["p", "n", "p", "n", "p", "?", "q"])]
        rows = data.draw(st.lists(st.tuples(*cells).map(list), min_size=1, max_size=5))
        text = ("@relation r\n" + "".join(f"@attribute a{j} {k}\n" for j, k in enumerate(kinds))
                + "@attribute class {p, n}\n@data\n"
                + "\n".join(",".join(r) for r in rows) + "\n")
        with tempfile.TemporaryDirectory() as d:
            path = f"{d}/t.arff"
            with open(path, "w") as fh:
                fh.write(text)
            either = outcome(path)
            with mock.patch.object(_arff, "_features_at_once", lambda *a: None):
                loop = outcome(path)
        assert either == loop

    check()


def _sparse_arff_and_libsvm(tmp_path, rows=3000, width=40000, per_row=10):
    rng = np.random.default_rng(3)
    arff = ["@relation wide", *(f"@attribute a{j} numeric" for j in range(width)),
            "@attribute class {neg, pos}", "@data"]
    svm = []
    for i in range(rows):
        idx = np.sort(rng.choice(width, per_row, replace=False))
        val = rng.integers(1, 100, per_row) / 8
        cls = "pos" if i % 3 else "neg"
        arff.append("{" + ", ".join(f"{j} {v}" for j, v in zip(idx, val, strict=True))
                    + (f", {width} pos" if cls == "pos" else "") + "}")
        pairs = zip(idx, val, strict=True)
        svm.append(("+1" if cls == "pos" else "-1") + "".join(f" {j + 1}:{v}" for j, v in pairs))
    (tmp_path / "wide.arff").write_text("\n".join(arff) + "\n")
    (tmp_path / "wide.svm").write_text("\n".join(svm) + "\n")
    return str(tmp_path / "wide.arff"), str(tmp_path / "wide.svm")


@pytest.mark.timeout(300)
def test_a_wide_sparse_file_is_read_as_csr_from_its_entries_within_bounded_memory(tmp_path):
    # 5 000 rows x 20 000 attributes of 20 values each took 39 s and 2.5 GB: each sparse row
    # was made a dense row of strings. Read under a 1.5 GiB address space (a dense reading of
    # this file needs ~1.9 GB), and equal to the same entries as LIBSVM text
    from _bounded import run_bounded

    arff, svm = _sparse_arff_and_libsvm(tmp_path)
    got = run_bounded(f"""
        import numpy as np
        import indefsvm as isvm
        X, y = isvm.datasets.load_arff({arff!r})
        R, r = isvm.datasets.load_libsvm({svm!r}, n_features=40000, dense=False)
        result = [type(X).__name__, list(X.shape), int(X.nnz), bool(abs(X - R).sum() == 0),
                  [1 if v == "pos" else -1 for v in y] == r.tolist()]
    """)
    assert got.get("result") == ["csr_matrix", [3000, 40000], 30000, True, True], got


def test_a_dense_file_wider_than_memory_is_refused_before_reading(tmp_path, monkeypatch):
    from indefsvm import _validation

    path = _write(tmp_path / "w.arff", "@relation w\n" + "".join(
        f"@attribute a{j} numeric\n" for j in range(300)) + "@attribute c {x, y}\n@data\n"
        + "".join(",".join(["0"] * 300) + ",x\n" for _ in range(80)))
    # room for its text (a quarter of this), not for the rows dense
    monkeypatch.setattr(_validation, "available_memory", lambda: 3e5)
    with pytest.raises(DataFileError, match=r"w\.arff: declares 300 feature columns for 80 "
                                            r"rows: .* GiB to read them dense, more than .* "
                                            r"Write its rows sparse"):
        load_arff(path)


def test_a_dense_row_among_sparse_ones_and_defects_of_sparse_rows(tmp_path):
    head = ("@relation r\n@attribute a numeric\n@attribute b numeric\n@attribute class "
            "{neg, pos}\n@data\n")
    X, y = load_arff(_write(tmp_path / "m.arff", head + "{0 1, 2 pos}\n0,2,neg\n{1 3, 1 4}\n"))
    assert X.toarray().tolist() == [[1, 0], [0, 2], [0, 4]]  # a later entry replaces
    assert y.tolist() == ["pos", "neg", "neg"]
    for row, said in (("{0 1, 1 ?}", "line 7: attribute b: a missing value"),
                      ("{0 x}", "line 7: .*'x'"), ("{5 1}", "line 7: '5 1': a sparse row"),
                      ("{0 1", "line 7: a sparse row .* no closing")):
        with pytest.raises(DataFileError, match=said):
            load_arff(_write(tmp_path / "d.arff", head + "{0 1}\n" + row + "\n"))


def test_classes_that_are_not_finite_are_refused_and_equal_numbers_stay_apart(tmp_path):
    # {1, 1.0, 2} became 2 classes (Weka compares nominal values as text: three); a class
    # nan or inf reached scikit-learn's "Input contains NaN", naming no file or line
    head = "@relation r\n@attribute a numeric\n@attribute class "
    y = load_arff(_write(tmp_path / "c.arff", head + "{1, 1.0, 2}\n@data\n1,1\n2,1.0\n3,2\n"))[1]
    assert y.tolist() == ["1", "1.0", "2"]
    y = load_arff(_write(tmp_path / "c.arff", head + "{1, 2}\n@data\n1,1\n2,2\n"))[1]
    assert y.dtype.kind == "i" and y.tolist() == [1, 2]
    with pytest.raises(DataFileError, match=r"line 3: class 'inf' \(declared for class\) is "
                                            "not finite"):
        load_arff(_write(tmp_path / "c.arff", head + "{1, inf}\n@data\n1,1\n2,inf\n"))
    with pytest.raises(DataFileError, match=r"line 6: the class \(class\) 'nan' is not finite"):
        load_arff(_write(tmp_path / "c.arff", head + "numeric\n@data\n1,0.5\n2,nan\n"))


def test_a_latin1_file_is_named_with_its_line_and_the_fix(tmp_path):
    # 1 237 of 10 500 mutated files ended in a raw UnicodeDecodeError naming no file
    path = tmp_path / "latin.arff"
    path.write_bytes("@relation caf\u00e9\n@attribute a numeric\n@attribute class {oui, "
                     "non}\n@data\n1,oui\n".encode("latin-1"))
    with pytest.raises(DataFileError, match=r"latin\.arff, line 1: is not UTF-8 text \(byte "
                                            r"0xe9: .*iconv -f latin1"):
        load_arff(str(path))
    ts = tmp_path / "latin.ts"
    ts.write_bytes("@problemName caf\u00e9\n@classLabel true a b\n@data\n1,2:a\n".encode(
        "latin-1"))
    with pytest.raises(DataFileError, match=r"latin\.ts, line 1: is not UTF-8 text"):
        isvm.datasets.load_file(ts, objects="series")
