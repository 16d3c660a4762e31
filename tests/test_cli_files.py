"""Data files read as files are written, and outputs that never destroy an input.

A probe's findings (issue 46, items 2 and 3): a series or string file split at U+2028,
U+0085 or a form feed inside a record (60 lines in, 62 predictions out), a UTF-8
byte-order mark read as part of the first label or number, ``1_000`` taken as a number;
``fit data.csv --save data.csv`` replacing the data with a model, a FIFO without a reader
blocking forever after all the work, ``/dev/full`` errors without the file's name.
"""

import os
import stat
import threading

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.cli import main
from indefsvm.cli._objects import read_objects

SEPARATORS = ["\u2028", "\u2029", "\u0085", "\x0c", "\x0b", "\x1c", "\x1d", "\x1e"]


def _strings_file(path, words, labels, *, bom=False, crlf=False):
    end = "\r\n" if crlf else "\n"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        if bom:
            fh.write("\ufeff")
        for w, lab in zip(words, labels, strict=True):
            fh.write(f"{lab}\t{w}{end}")
    return str(path)


def test_separators_inside_a_string_do_not_split_it(tmp_path):
    words = [f"ab{sep}cd" for sep in SEPARATORS] + ["abcd", "bcda"]
    labels = [k % 2 for k in range(len(words))]
    path = _strings_file(tmp_path / "s.tsv", words, labels, crlf=True)
    objs, y = read_objects(path, "levenshtein", "first")
    assert objs == words and list(y) == labels


def test_predictions_one_per_line(tmp_path, capsys):
    rng = np.random.default_rng(0)
    words = ["".join(rng.choice(list("ACGT"), size=12)) for _ in range(40)]
    labels = [int("AA" in w) for w in words]
    train = _strings_file(tmp_path / "train.tsv", words, labels)
    model = str(tmp_path / "m.skops")
    assert main(["fit", train, "--metric", "levenshtein", "--nystroem", "10", "-C", "1",
                 "--cv", "0", "--quiet", "--save", model]) == 0
    capsys.readouterr()
    test = [w[:4] + SEPARATORS[k % len(SEPARATORS)] + w[4:] for k, w in enumerate(words)]
    path = _strings_file(tmp_path / "test.tsv", test, labels)
    assert main(["predict", model, path]) == 0
    assert len(capsys.readouterr().out.split()) == len(words)


def test_byte_order_mark_is_not_data(tmp_path):
    # strings: the first label is "1", not "\ufeff1" (a phantom class)
    path = _strings_file(tmp_path / "s.tsv", ["abc", "abd", "xyz", "xyy"], [1, 1, 2, 2],
                         bom=True)
    _, y = read_objects(path, "levenshtein", "first")
    assert list(y) == [1, 1, 2, 2] and y.dtype.kind == "i"
    # series
    ser = tmp_path / "ser.txt"
    ser.write_text("\ufeff1,0.5,0.25\n2,0.1,0.2\n", encoding="utf-8")
    objs, y = read_objects(str(ser), "dtw", "first")
    assert list(y) == [1, 2] and objs.shape == (2, 2)
    # a header-less CSV keeps its first row; whitespace text and LIBSVM files too
    from indefsvm.cli._io import _read_matrix

    K = np.array([[2.0, 1.0], [1.0, 3.0]])
    for name, text in (("k.csv", "2,1\n1,3\n"), ("k.txt", "2 1\n1 3\n")):
        p = tmp_path / name
        p.write_text("\ufeff" + text, encoding="utf-8")
        np.testing.assert_array_equal(_read_matrix(str(p), "kernel matrix"), K)
    lib = tmp_path / "d.libsvm"
    lib.write_text("\ufeff+1 1:0.5 2:1\n-1 1:0.25\n", encoding="utf-8")
    X, y = isvm.datasets.load_libsvm(str(lib))
    assert list(y) == [1, -1] and X.shape == (2, 2)


@pytest.mark.parametrize("content,metric", [("1,0.5,1_000\n2,0.1,0.2\n", "dtw"),
                                            ("1_0\t0.5\n", None)])
def test_underscores_are_not_numbers(tmp_path, content, metric):
    from indefsvm.exceptions import DataFileError

    p = tmp_path / "f.txt"
    p.write_text(content, encoding="utf-8")
    if metric:
        with pytest.raises(DataFileError, match="'1_000' is not a number"):
            read_objects(str(p), metric, "first")
    else:
        # a label written 1_0 is a name, not the number 10
        _, y = read_objects(str(p), "levenshtein", "first")
        assert list(y) == ["1_0"]
    csv = tmp_path / "k.csv"
    csv.write_text("1,1_000\n1_000,1\n", encoding="utf-8")
    from indefsvm.cli._io import _read_matrix

    with pytest.raises(DataFileError, match="'1_000' is not a number"):
        _read_matrix(str(csv), "kernel matrix")


# -- inputs that can be read only once ------------------------------------------------------


def _series_text(n=300):
    rng = np.random.default_rng(0)
    return "".join(f"{k % 2} " + " ".join(f"{v:.4f}" for v in rng.normal(k % 2, 1, 12))
                   + "\n" for k in range(n))


@pytest.mark.timeout(120)
@pytest.mark.skipif(not os.path.exists("/dev/stdin"), reason="needs /dev/stdin (Linux)")
def test_a_piped_data_file_is_refused_by_name_not_read_in_part(tmp_path):
    # `cat s.txt | indefsvm fit /dev/stdin --metric dtw` read 2 847 of 3 000 series: the
    # text check and the format's sniffing had used up the pipe's first rows
    import subprocess
    import sys

    for args in (["fit", "/dev/stdin", "--metric", "dtw", "--nystroem", "20", "--cv", "0"],
                 ["check", "/dev/stdin", "--metric", "dtw"]):
        run = subprocess.run([sys.executable, "-m", "indefsvm", *args],
                             input=_series_text().encode(), capture_output=True, timeout=100,
                             cwd=tmp_path)
        err = run.stderr.decode()
        assert run.returncode == 1, err  # a data file that cannot be read, as a missing one
        assert err.startswith("indefsvm: error: /dev/stdin: is a pipe") and "Save it to a " \
            "file first" in err and err.count("\n") == 1


@pytest.mark.timeout(60)
def test_a_fifo_given_as_data_labels_or_model_is_refused_unopened(tmp_path):
    # nothing opens the FIFO (no writer: an open would block), every reader refuses it
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    with pytest.raises(isvm.exceptions.DataFileError, match="is a pipe"):
        isvm.datasets.load_file(fifo)
    with pytest.raises(isvm.exceptions.DataFileError, match="is a pipe"):
        isvm.datasets.load_libsvm(str(fifo))
    np.save(tmp_path / "K.npy", np.eye(3))
    with pytest.raises(isvm.exceptions.DataFileError, match="labels file is read more"):
        isvm.datasets.load_file(tmp_path / "K.npy", labels=str(fifo))
    with pytest.raises(isvm.exceptions.DataFileError, match="model file is read more"):
        isvm.load_model(fifo)


# -- outputs ------------------------------------------------------------------------------


@pytest.fixture
def data(tmp_path):
    src = os.path.join(os.path.dirname(isvm.__file__), "datasets", "data", "heart_scale")
    path = tmp_path / "data.txt"
    path.write_bytes(open(src, "rb").read())
    return path


def _fit(path, save):
    return main(["fit", str(path), "-C", "1", "--gamma", "0.1", "--cv", "0", "--quiet",
                 "--save", str(save)])


def test_save_over_the_input_is_refused_before_the_work(data, capsys):
    before = data.read_bytes()
    assert _fit(data, data) == 2
    err = capsys.readouterr().err
    assert "--save" in err and "is the input file" in err and err.count("\n") == 1
    assert data.read_bytes() == before
    # through a symbolic link, and under another name of the same file
    link = data.parent / "link.txt"
    link.symlink_to(data.name)
    assert _fit(data, link) == 2
    hard = data.parent / "hard.txt"
    os.link(data, hard)
    assert _fit(data, hard) == 2
    assert data.read_bytes() == before


def test_an_output_through_a_missing_folder_never_replaces_an_input(data, tmp_path, capsys):
    # 'typo/../data.txt' with no folder typo/: the system can make no file there, while a
    # lexical reading of the name is data.txt itself -- fit wrote its model over its input
    # and exited 0, predict --out likewise; now refused before the work, naming the folder
    before = data.read_bytes()
    through = str(tmp_path / "typo" / ".." / data.name)
    assert _fit(data, through) == 2
    err = capsys.readouterr().err
    assert "--save" in err and "typo/.. does not exist" in err and err.count("\n") == 1
    assert data.read_bytes() == before
    model = tmp_path / "m.skops"
    assert _fit(data, model) == 0
    saved = model.read_bytes()
    for target in (str(tmp_path / "nosuchdir" / ".." / "m.skops"), through):
        assert main(["predict", str(model), str(data), "--out", target]) == 2
        assert "does not exist" in capsys.readouterr().err
    assert model.read_bytes() == saved and data.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["data.txt", "m.skops"]


def test_predict_out_over_its_inputs_refused(data, tmp_path, capsys):
    model = tmp_path / "m.skops"
    assert _fit(data, model) == 0
    saved = model.read_bytes()
    for target in (model, data):
        assert main(["predict", str(model), str(data), "--out", str(target)]) == 2
    assert model.read_bytes() == saved
    assert "is the input file" in capsys.readouterr().err


def test_a_symbolic_link_output_writes_its_target(data, tmp_path):
    target = tmp_path / "target.skops"
    target.write_text("old")
    link = tmp_path / "link.skops"
    link.symlink_to(target.name)
    assert _fit(data, link) == 0
    assert link.is_symlink() and target.read_bytes()[:2] == b"PK"


def test_fifo_without_reader_refused_before_the_work(data, tmp_path, capsys, monkeypatch):
    from indefsvm import _files

    monkeypatch.setattr(_files, "FIFO_WAIT", 0.3)  # the time given to a reader to appear
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert _fit(data, fifo) == 2
    assert "FIFO that no process reads" in capsys.readouterr().err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_full_device_names_the_file(data, capsys):
    assert _fit(data, "/dev/full") == 1
    err = capsys.readouterr().err
    assert "/dev/full: cannot be written" in err and "Traceback" not in err


def test_fifo_reader_that_opens_late_gets_the_whole_output(data, tmp_path):
    import threading
    import time

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []

    def late_reader():
        time.sleep(0.5)  # opens after the command has started (a shell's `cat fifo &`)
        with open(fifo, "rb") as fh:
            got.append(fh.read())

    reader = threading.Thread(target=late_reader, daemon=True)
    reader.start()
    assert _fit(data, fifo) == 0
    reader.join(timeout=30)
    assert got and got[0][:2] == b"PK"  # the whole model, not an early end of file


def test_output_through_a_symlink_writes_its_target(tmp_path, heart_model, capsys):
    target = tmp_path / "real.txt"
    target.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert main(["predict", str(heart_model), isvm.datasets.data_path("heart_scale"),
                 "--out", str(link)]) == 0
    assert link.is_symlink()
    assert len(target.read_text().splitlines()) == 270



def test_output_to_a_fifo_writes_into_it(tmp_path, heart_model):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo).read()), daemon=True)
    reader.start()
    assert main(["predict", str(heart_model), isvm.datasets.data_path("heart_scale"),
                 "--out", str(fifo)]) == 0
    reader.join(timeout=30)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still a FIFO, not a regular file
    assert len(got[0].splitlines()) == 270



def test_save_into_a_symlink_keeps_the_link(tmp_path):
    target = tmp_path / "model.skops"
    target.write_bytes(b"")
    link = tmp_path / "latest.skops"
    link.symlink_to(target)
    assert main(["fit", "--dataset", "heart", "--cv", "0", "--no-search", "--quiet", "--save",
                 str(link)]) == 0
    assert link.is_symlink() and target.stat().st_size > 0
    np.testing.assert_array_equal(  # the model reads back through the link
        isvm.IndefiniteSVC().fit(*isvm.datasets.load_heart(return_X_y=True)).support_,
        __import__("skops.io", fromlist=["load"]).load(
            link, trusted=["indefsvm.svm._classes.IndefiniteSVC",
                           "indefsvm.solvers._result.SolverResult"]).support_)


def _heart_files(tmp_path):
    X, y = isvm.datasets.load_heart(return_X_y=True)
    with open(tmp_path / "heart.csv", "w") as fh:
        fh.write(",".join([f"f{i}" for i in range(13)] + ["label"]) + "\n")
        for row, label in zip(X, y, strict=True):
            fh.write(",".join(f"{v:.17g}" for v in row) + f",{int(label)}\n")
    with open(tmp_path / "heart.tsv", "w") as fh:
        for row, label in zip(X, y, strict=True):
            fh.write(f"{int(label)}\t" + "\t".join(f"{v:.17g}" for v in row) + "\n")
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.1)
    np.savetxt(tmp_path / "K.csv", K, delimiter=",")
    np.savetxt(tmp_path / "y.txt", y, fmt="%d")
    return X, y, K



def test_cli_reads_csv_and_tsv_features_and_csv_kernels(tmp_path, capsys):
    # "label 'f0,f1,...' is not a number": CSV files went to the LIBSVM reader
    import json

    from indefsvm.cli import main

    X, y, K = _heart_files(tmp_path)
    want = isvm.IndefiniteSVC().fit(X, y).score(X, y)
    for argv in ([str(tmp_path / "heart.csv")],
                 [str(tmp_path / "heart.tsv"), "--label-column", "0"],
                 [str(tmp_path / "heart.csv"), "--label-column", "label"],
                 [str(tmp_path / "heart.csv"), "--label-column", "-1"]):
        assert main(["fit", *argv, "--cv", "0", "--no-search", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["n_features"] == 13 and out["training_accuracy"] == pytest.approx(want)
    assert main(["fit", str(tmp_path / "K.csv"), "--labels", str(tmp_path / "y.txt"),
                 "--no-search", "--cv", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ref = isvm.IndefiniteSVC(kernel="precomputed").fit(K, y)
    assert out["training_accuracy"] == pytest.approx(ref.score(K, y))
    # predict on CSV features, with the label column for the accuracy
    assert main(["fit", str(tmp_path / "heart.csv"), "--cv", "0", "--no-search", "--quiet",
                 "--save", str(tmp_path / "m.skops")]) == 0
    assert main(["predict", str(tmp_path / "m.skops"), str(tmp_path / "heart.tsv"),
                 "--label-column", "0"]) == 0
    assert f"{100 * want:.2f} %" in capsys.readouterr().err



@pytest.mark.parametrize("argv, code, match", [
    (["fit", "{d}/heart.tsv", "--cv", "0"], 1, "give --label-column INDEX"),
    (["fit", "{d}/heart.csv", "--label-column", "age", "--cv", "0"], 1, "has no column 'age'"),
    (["fit", "{d}/heart.csv", "--label-column", "20", "--cv", "0"], 1, "not one of them"),
    (["fit", "{d}/K.csv", "--labels", "{d}/y.txt", "--gamma", "0.5"], 2,
     "--gamma does not apply to"),
    (["check", "{d}/K.csv", "--labels", "{d}/y.txt", "--kernel", "sigmoid", "--coef0", "1"], 2,
     "--kernel --coef0 do not apply to"),
])
def test_cli_table_errors_and_options_that_do_not_apply(tmp_path, capsys, argv, code, match):
    from indefsvm.cli import main

    _heart_files(tmp_path)
    assert main([a.format(d=tmp_path) for a in argv]) == code
    err = capsys.readouterr().err
    assert err.startswith("indefsvm: error:") and match in err


def test_report_out_needs_an_existing_parent_as_save_does(tmp_path, capsys):
    out = tmp_path / "missing" / "reports"
    assert main(["report", "--dataset", "heart", "--cv", "0", "--out", str(out)]) == 2
    assert f"the folder {out.parent} does not exist" in capsys.readouterr().err
    assert not out.parent.exists()
    # a new folder in an existing one is made, as before
    assert main(["report", "--dataset", "heart", "--cv", "0", "--out",
                 str(tmp_path / "reports"), "--quiet"]) == 0
    assert any((tmp_path / "reports").glob("*.html"))


def test_an_unwritable_output_is_said_before_the_work_naming_the_option(tmp_path, capsys,
                                                                         monkeypatch):
    import indefsvm.remedies

    locked = tmp_path / "locked"
    locked.mkdir()

    def refuse(*a, **k):
        raise PermissionError(13, "Permission denied")

    import tempfile as _tempfile

    real = _tempfile.mkstemp
    monkeypatch.setattr(_tempfile, "mkstemp", lambda *a, dir=None, **k: refuse() if str(
        dir).startswith(str(locked)) else real(*a, dir=dir, **k))
    monkeypatch.setattr(indefsvm.remedies, "RemedySearchCV", refuse)
    assert main(["fit", "--dataset", "heart", "--cv", "0", "--save",
                 str(locked / "m.skops")]) == 1
    err = capsys.readouterr().err
    assert f"--save {locked / 'm.skops'}: cannot write in {locked}" in err and ".tmp" not in err
    assert main(["compare", "--dataset", "heart", "--search", "--out",
                 str(locked / "pages")]) == 1
    assert f"--out {locked / 'pages'}: cannot write in {locked}" in capsys.readouterr().err


def test_a_dash_is_standard_output_not_a_file_named_dash(tmp_path, capsys, monkeypatch):
    # "--out -" wrote a file named "-", and report --out - made a folder of that name
    monkeypatch.chdir(tmp_path)
    model = str(tmp_path / "m.skops")
    assert main(["fit", "--dataset", "heart", "-C", "1", "--gamma", "0.1", "--cv", "0",
                 "--save", model, "--quiet"]) == 0
    X, y = isvm.datasets.load_heart(return_X_y=True)
    data = tmp_path / "h.csv"
    np.savetxt(data, np.c_[X, y], delimiter=",", header=",".join(
        [f"f{k}" for k in range(13)] + ["label"]), comments="")
    capsys.readouterr()
    assert main(["predict", model, str(data), "--out", "-"]) == 0
    assert len(capsys.readouterr().out.split()) == 270  # the predictions, on stdout
    for argv in (["fit", "--dataset", "heart", "--cv", "0", "--save", "-"],
                 ["report", "--dataset", "heart", "--cv", "0", "--out", "-"],
                 ["explore", "--out", "-"]):
        assert main(argv) == 2
        assert "standard output cannot hold this file" in capsys.readouterr().err
    assert not os.path.lexists(tmp_path / "-")
