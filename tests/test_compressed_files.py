"""Compressed data files (.gz, .bz2, .xz) are read as they are, by every reader the command
line uses: LIBSVM's data sets are distributed as .bz2 and .xz, and ``indefsvm fit
covtype.libsvm.binary.bz2`` was refused ("is not UTF-8 text") or read as a CSV of garbled
bytes, though ``datasets.load_libsvm`` decompressed .gz and .bz2. A file whose name says
compressed and whose bytes are not, or that ends early, is named."""

import bz2
import gzip
import json
import lzma

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.cli import main
from indefsvm.exceptions import DataFileError

OPENERS = {".gz": gzip.open, ".bz2": bz2.open, ".xz": lzma.open}


def _compress(path, suffix):
    out = str(path) + suffix
    with open(path, "rb") as src, OPENERS[suffix](out, "wb") as dst:
        dst.write(src.read())
    return out


@pytest.fixture
def heart_files(tmp_path):
    X, y = isvm.datasets.load_heart(return_X_y=True)
    libsvm = tmp_path / "heart.libsvm"
    with open(libsvm, "w") as fh:
        for row, label in zip(X, y, strict=True):
            fh.write(f"{label:g} " + " ".join(f"{j}:{float(v)!r}" for j, v in enumerate(row, 1))
                     + "\n")
    csv = tmp_path / "heart.csv"
    np.savetxt(csv, np.c_[y, X], delimiter=",", fmt="%.17g",
               header="label," + ",".join(f"f{j}" for j in range(13)), comments="")
    return X, y, libsvm, csv


def _fit_json(argv, capsys):
    assert main(argv + ["-C", "1", "--gamma", "0.1", "--cv", "0", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    return out["problems"][0]["objective"], out["n_samples"]


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz"])
def test_load_libsvm_reads_each_compression(heart_files, suffix):
    X, y, libsvm, _ = heart_files
    Xc, yc = isvm.datasets.load_libsvm(_compress(libsvm, suffix))
    np.testing.assert_array_equal(Xc, X)
    np.testing.assert_array_equal(yc, y)


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz"])
def test_the_command_line_fits_and_predicts_compressed_files_as_plain_ones(
        heart_files, suffix, tmp_path, capsys):
    X, y, libsvm, csv = heart_files
    plain = _fit_json(["fit", str(libsvm)], capsys)
    assert _fit_json(["fit", _compress(libsvm, suffix)], capsys) == plain
    assert _fit_json(["fit", _compress(csv, suffix)], capsys) == plain
    model = str(tmp_path / "m.skops")
    assert main(["fit", str(libsvm), "-C", "1", "--gamma", "0.1", "--cv", "0", "--quiet",
                 "--save", model]) == 0
    out = tmp_path / "p.txt"
    assert main(["predict", model, _compress(libsvm, suffix), "--out", str(out)]) == 0
    expected = isvm.IndefiniteSVC(C=1, gamma=0.1).fit(X, y).predict(X)
    np.testing.assert_array_equal(np.loadtxt(out), expected)


def test_a_compressed_kernel_labels_and_series_file_are_read(tmp_path, capsys):
    X, y = isvm.datasets.load_heart(return_X_y=True)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5)
    np.savetxt(tmp_path / "K.txt", K, fmt="%.17g")
    np.savetxt(tmp_path / "y.txt", y, fmt="%d")
    argv = ["fit", str(tmp_path / "K.txt"), "--labels", str(tmp_path / "y.txt")]
    plain = _fit_json_precomputed(argv, capsys)
    argv = ["fit", _compress(tmp_path / "K.txt", ".gz"), "--labels",
            _compress(tmp_path / "y.txt", ".bz2")]
    assert _fit_json_precomputed(argv, capsys) == plain
    S, labels = isvm.datasets.make_cbf(30, length=32, random_state=0)
    with open(tmp_path / "s.tsv", "w") as fh:
        for s, label in zip(S, labels, strict=True):
            fh.write("\t".join([str(label)] + [repr(float(v)) for v in s]) + "\n")
    argv = ["fit", "--metric", "dtw", "--window", "0.1", "-C", "1", "--gamma", "median",
            "--cv", "0", "--json", "--quiet"]
    assert main([argv[0], str(tmp_path / "s.tsv")] + argv[1:]) == 0
    series = json.loads(capsys.readouterr().out)
    assert main([argv[0], _compress(tmp_path / "s.tsv", ".xz")] + argv[1:]) == 0
    compressed = json.loads(capsys.readouterr().out)
    assert compressed["training_accuracy"] == series["training_accuracy"]
    assert compressed["n_samples"] == series["n_samples"] == 30


def _fit_json_precomputed(argv, capsys):
    assert main(argv + ["-C", "10", "--cv", "0", "--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)["problems"][0]["objective"]


def test_a_name_that_says_compressed_over_bytes_that_are_not_is_named(heart_files, tmp_path):
    _, _, libsvm, _ = heart_files
    fake = tmp_path / "plain.gz"
    fake.write_bytes(libsvm.read_bytes())
    with pytest.raises(DataFileError, match="is not gzip compressed data, as its name says"):
        isvm.datasets.load_libsvm(str(fake))
    cut = tmp_path / "cut.bz2"
    cut.write_bytes(open(_compress(libsvm, ".bz2"), "rb").read()[:2000])
    with pytest.raises(DataFileError, match="ends before its compressed data do"):
        isvm.datasets.load_libsvm(str(cut))


def test_the_command_line_names_them_in_one_line(heart_files, tmp_path, capsys):
    _, _, libsvm, _ = heart_files
    fake = tmp_path / "plain.xz"
    fake.write_bytes(libsvm.read_bytes())
    assert main(["fit", str(fake)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is not xz compressed data, as its name says" in err[0]


def _bomb(path, first: str, line: str, mib: int = 480):
    """A small gzip file of ``first`` then ``mib`` MiB of ``line`` repeated."""
    chunk = (line * (2**20 // len(line) + 1))[:2**20].encode()
    with gzip.open(path, "wb", compresslevel=1) as fh:
        fh.write(first.encode())
        for _ in range(mib):
            fh.write(chunk)
    return str(path)


@pytest.mark.timeout(300)
def test_a_compressed_file_that_unpacks_past_memory_is_refused_by_name(tmp_path):
    # a 2.7 MB .csv.gz of 1.9 GB of bad rows reached 2-4.6 GB before "out of memory ... a
    # smaller --cache-size", a 3.1 MB .arff.gz of comment lines 7.5 GB then a raw
    # MemoryError: now each stops once what it unpacked passes the memory it may take,
    # under a 1 GiB address space here (the old readers die there of MemoryError)
    from _bounded import run_bounded

    csv = _bomb(tmp_path / "rows.csv.gz", "a,b,label\n", "1,2,x\n")
    arff = _bomb(tmp_path / "notes.arff.gz", "@relation r\n", "% a comment line\n")
    for path in (csv, arff):
        got = run_bounded(f"""
            import indefsvm as isvm
            from indefsvm.exceptions import DataFileError
            try:
                isvm.datasets.load_file({path!r})
                result = "read"
            except DataFileError as exc:
                result = str(exc)
        """, limit_mib=1024)
        said = got.get("result", "")
        assert said.startswith(path + ": unpacks to more than") and "Refused before" in said, \
            got
        assert got["peak_mib"] < 900, got


def test_a_memory_error_while_reading_names_the_file_not_the_cache(tmp_path, capsys,
                                                                    monkeypatch):
    from indefsvm.datasets import _table

    path = tmp_path / "rows.csv"
    path.write_text("a,b,label\n1,2,x\n3,4,y\n")

    def no_memory(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(_table, "_features_at_once", no_memory)
    monkeypatch.setattr(_table, "_rows", no_memory)
    assert main(["fit", str(path), "--cv", "0"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"indefsvm: error: {path}: does not fit in memory while it is read")
    assert "--cache-size" not in err


def test_a_plain_file_larger_than_memory_allows_is_refused_before_it_is_read(tmp_path,
                                                                            monkeypatch):
    from indefsvm import _validation

    path = tmp_path / "rows.csv"
    path.write_text("a,b,label\n" + "1,2,x\n" * 5000)
    monkeypatch.setattr(_validation, "available_memory", lambda: 4.0 * 20000)
    with pytest.raises(DataFileError, match=r"rows\.csv: is 0\.00 GiB of text; read, it would "
                                            r"take about 4x that"):
        isvm.datasets.load_file(path)
