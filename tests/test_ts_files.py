"""sktime / aeon's ``.ts`` files, the format the UCR and UEA archives distribute their
series in, read by the library's own reader: before, ``.ts`` needed aeon (and numba) to be
installed, could not be compressed, and no test in CI ran it. The same series are read from
the archive's other formats (one series a line, ARFF) and compared."""

import gzip

import numpy as np
import pytest
from test_arff import _ucr_arff, _uea_arff

import indefsvm as isvm
from indefsvm.cli import main
from indefsvm.datasets._objects_file import read_objects
from indefsvm.datasets._ts import read_ts
from indefsvm.exceptions import DataFileError

HEAD = "# the UCR archive's header\n@problemName {name}\n@timeStamps false\n@missing {missing}\n"


def _write_ts(path, series, y, *, classes=None, pad=()):
    """``series`` (1-D, or (channels, points) each) as sktime's writer lays them out."""
    multi = np.ndim(series[0]) == 2
    classes = sorted(set(map(str, y))) if classes is None else classes
    with open(path, "w") as fh:
        fh.write(HEAD.format(name="set", missing="true" if pad else "false")
                 + f"@univariate {'false' if multi else 'true'}\n"
                 + (f"@dimensions {len(series[0])}\n" if multi else "")
                 + "@equalLength false\n@classLabel true " + " ".join(classes) + "\n@data\n")
        for i, (s, label) in enumerate(zip(series, y, strict=True)):
            chans = np.atleast_2d(s)
            k = dict(pad).get(i, 0)
            fh.write(":".join(",".join([repr(float(v)) for v in c] + ["?"] * k)
                              for c in chans) + f":{label}\n")
    return str(path)


def test_univariate_series_equal_the_text_and_arff_files(tmp_path):
    X, y = isvm.datasets.make_cbf(n_samples=15, random_state=0)
    X = np.asarray(X)
    ts = _write_ts(tmp_path / "cbf.ts", list(X), y)
    S, ys = read_ts(ts)
    text = tmp_path / "cbf.txt"
    np.savetxt(text, np.c_[y, X], delimiter="\t", fmt="%.17g")
    T, yt = read_objects(str(text), "dtw", None)
    A, ya = isvm.datasets.load_arff(_ucr_arff(tmp_path / "cbf.arff", X, y), objects="series")
    np.testing.assert_array_equal(S, T)
    np.testing.assert_array_equal(S, A)
    assert ys.dtype.kind == "i" and ys.tolist() == yt.tolist() == ya.tolist() == list(y)


def test_multivariate_series_of_unequal_lengths_equal_the_uea_arff(tmp_path):
    rng = np.random.default_rng(0)
    series = [rng.normal(size=(3, 20 - k)) for k in range(5)]
    y = ["walk", "run", "walk", "run", "walk"]
    S, ys = read_ts(_write_ts(tmp_path / "mv.ts", series, y))
    with pytest.warns(UserWarning, match="end in '\\?'"):
        A, ya = isvm.datasets.load_arff(_uea_arff(tmp_path / "mv.arff", series, y, 20),
                                        objects="series")
    assert ys.tolist() == ya.tolist() == y
    for s, a, ref in zip(S, A, series, strict=True):
        np.testing.assert_array_equal(s, ref)
        np.testing.assert_array_equal(a, ref)
    np.testing.assert_array_equal(isvm.pairwise_distances(S, metric="dtw"),
                                  isvm.pairwise_distances(series, metric="dtw"))


def test_the_padding_of_shorter_series_and_a_compressed_file(tmp_path):
    X, y = isvm.datasets.make_cbf(n_samples=6, random_state=1)
    X = np.asarray(X)
    path = _write_ts(tmp_path / "p.ts", [x[:-4] if i == 2 else x for i, x in enumerate(X)],
                     y, pad={2: 4})
    said = []
    S, _ = read_ts(path, note=said.append)
    assert [len(s) for s in S] == [128, 128, 124, 128, 128, 128]
    assert said and "1 of the 6 series end in '?'" in said[0]
    gz = path + ".gz"
    with open(path, "rb") as src, gzip.open(gz, "wb") as dst:
        dst.write(src.read())
    G, yg = read_ts(gz)
    for s, g in zip(S, G, strict=True):
        np.testing.assert_array_equal(s, g)


@pytest.mark.parametrize("body, line, words", [
    ("@problemName x\n@classLabel true 1 2\n", None, "has no @data line"),
    ("@timeStamps true\n@data\n", 1, "@timeStamps true: series of (time, value) pairs"),
    ("@seriesLenght 3\n@data\n", 1, "'@seriesLenght' before @data"),
    ("@classLabel true\n@data\n", 1, "@classLabel true names no class"),
    ("@classLabel true 1 2\n@data\n1,2,3:1\n1,2,3:4,5,6:2\n", 4,
     "has 2 channels (separated by ':') where the first series has 1"),
    ("@dimensions 2\n@classLabel true 1 2\n@data\n1,2,3:1\n", 4,
     "has 1 channels (separated by ':') where @dimensions says 2"),
    ("@classLabel true 1 2\n@data\n1,2,3:4,5:1\n", 3,
     "its channels hold 3, 2 points"),
    ("@classLabel true 1 2\n@data\n1,x,3:1\n", 3, "channel 1: 'x' is not a number"),
    ("@classLabel true 1 2\n@data\n1,?,3:1\n", 3,
     "channel 1: a missing or infinite value at point 2"),
    ("@classLabel true 1 2\n@data\n1,2,3:1\n1,2,3:7\n", 4,
     "class '7' is not one of those @classLabel declares (1 2)"),
    ("@classLabel true 1 2\n@data\n1,2,3\n", 3, "has no label after the last ':'"),
    ("@classLabel true 1 2\n@data\n", None, "has no series after @data"),
])
def test_each_defect_is_named_with_its_line(tmp_path, body, line, words):
    path = tmp_path / "bad.ts"
    path.write_text(body)
    with pytest.raises(DataFileError) as err:
        read_ts(str(path))
    where = f"{path}, line {line}: " if line else f"{path}: "
    assert str(err.value).startswith(where), str(err.value)
    assert words in str(err.value)


def test_a_file_without_labels_and_a_regressions_targets(tmp_path):
    none = tmp_path / "n.ts"
    none.write_text("@classLabel false\n@data\n1,2,3\n4,5,6\n")
    S, y = read_ts(str(none))
    assert y is None and S.tolist() == [[1, 2, 3], [4, 5, 6]]
    target = tmp_path / "t.ts"
    target.write_text("@targetLabel true\n@data\n1,2,3:0.5\n4,5,6:1.25\n")
    assert read_ts(str(target))[1].tolist() == [0.5, 1.25]


def test_fit_and_predict_read_ts_files(tmp_path, capsys):
    X, y = isvm.datasets.make_cbf(n_samples=30, random_state=2)
    X = np.asarray(X)
    ts = _write_ts(tmp_path / "cbf.ts", list(X), y)
    text = tmp_path / "cbf.txt"
    np.savetxt(text, np.c_[y, X], delimiter="\t", fmt="%.17g")
    preds = []
    for train in (ts, str(text)):
        model = str(tmp_path / "m.skops")
        assert main(["fit", train, "--metric", "dtw", "-C", "10", "--gamma", "0.01",
                     "--cv", "0", "--quiet", "--save", model]) == 0
        capsys.readouterr()
        assert main(["predict", model, ts]) == 0
        captured = capsys.readouterr()
        preds.append(captured.out)
        assert "accuracy 100.00 % (30/30)" in captured.err or "accuracy" in captured.err
    assert preds[0] == preds[1]


@pytest.mark.parametrize("argv, code, words", [
    (["fit", "{ts}", "--cv", "0"], 1, "is a .ts file of series"),
    (["fit", "{ts}", "--metric", "levenshtein"], 2, "a .ts file holds series; use --metric dtw"),
    (["fit", "{ts}", "--metric", "dtw", "--label-column", "last"], 1,
     "a .ts file declares its labels"),
])
def test_what_does_not_apply_to_a_ts_file_is_said(tmp_path, capsys, argv, code, words):
    X, y = isvm.datasets.make_cbf(n_samples=6, random_state=0)
    ts = _write_ts(tmp_path / "cbf.ts", list(np.asarray(X)), y)
    assert main([a.format(ts=ts) for a in argv]) == code
    err = capsys.readouterr().err
    assert err.startswith("indefsvm: error: ") and words in err


def test_aeons_reader_reads_the_same_where_aeon_is_installed(tmp_path):
    datasets = pytest.importorskip("aeon.datasets")
    rng = np.random.default_rng(3)
    series = [rng.normal(size=(2, 12)) for _ in range(4)]
    path = _write_ts(tmp_path / "mv.ts", series, ["a", "b", "a", "b"])
    X, y = datasets.load_from_ts_file(path)
    S, ys = read_ts(path)
    np.testing.assert_allclose(np.asarray(X), S, rtol=0, atol=0)
    assert list(map(str, y)) == ys.tolist()


def test_classes_that_are_not_finite_are_refused_and_equal_numbers_stay_apart(tmp_path):
    # @classLabel true nan 1 was read, then scikit-learn's "Input contains NaN" named no
    # file; {1 1.0 2} became 2 classes where Weka and aeon keep three (labels are text)
    path = tmp_path / "c.ts"
    path.write_text("@classLabel true 1 1.0 2\n@data\n1,2,3:1\n4,5,6:1.0\n7,8,9:2\n")
    assert read_ts(str(path))[1].tolist() == ["1", "1.0", "2"]
    path.write_text("@classLabel true 1 2\n@data\n1,2,3:1\n4,5,6:2\n")
    y = read_ts(str(path))[1]
    assert y.dtype.kind == "i" and y.tolist() == [1, 2]
    path.write_text("@problemName x\n@classLabel true nan 1\n@data\n1,2,3:nan\n4,5,6:1\n")
    with pytest.raises(DataFileError, match=r"c\.ts, line 2: class 'nan' \(declared by "
                                            r"@classLabel\) is not finite"):
        read_ts(str(path))
    path.write_text("@targetLabel true\n@data\n1,2,3:0.5\n4,5,6:inf\n")
    with pytest.raises(DataFileError, match=r"target 'inf' is not finite"):
        read_ts(str(path))


def test_a_series_length_the_header_contradicts_is_named(tmp_path):
    # @seriesLength 100 over 128-point series was read in silence
    path = tmp_path / "l.ts"
    body = "@data\n" + ",".join(["1"] * 128) + ":a\n" + ",".join(["2"] * 128) + ":b\n"
    path.write_text("@problemName l\n@equalLength true\n@seriesLength 100\n"
                    "@classLabel true a b\n" + body)
    with pytest.raises(DataFileError, match=r"l\.ts, line 6: holds a series of 128 points "
                                            r"where @seriesLength says 100 \(line 3\)"):
        read_ts(str(path))
    path.write_text("@problemName l\n@equalLength true\n@seriesLength 128\n"
                    "@classLabel true a b\n" + body)
    assert read_ts(str(path))[0].shape == (2, 128)
    # unequal lengths declared: no length to hold them to
    path.write_text("@problemName l\n@equalLength false\n@classLabel true a b\n@data\n"
                    "1,2,3:a\n1,2:b\n")
    assert [len(s) for s in read_ts(str(path))[0]] == [3, 2]


def test_percent_comments_in_the_header_are_comments(tmp_path):
    # aeon's own UnitTest_TRAIN.ts opens with '%' lines (ARFF's comments): refused as "'%#'
    # before @data" before, while aeon reads it
    path = tmp_path / "unit.ts"
    path.write_text("%# a cut down version of ChinaTown\n% the train set is the same\n%\n"
                    "@problemName UnitTest\n@timeStamps false\n@univariate true\n"
                    "@equalLength true\n@seriesLength 3\n@classLabel true 1 2\n@data\n"
                    "1.0,2.0,3.0:1\n3.0,2.0,1.0:2\n")
    X, y = read_ts(str(path))
    np.testing.assert_array_equal(X, [[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
    assert list(y) == [1, 2]
    # a stray word before @data is still named with its line
    path.write_text("@problemName u\nsomething\n@classLabel true 1\n@data\n1,2:1\n")
    with pytest.raises(DataFileError, match=r"line 2: 'something' before @data.*# or %"):
        read_ts(str(path))
