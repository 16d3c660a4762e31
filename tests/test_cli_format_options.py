"""Options that say how a file is read (--label-column for tables and files of series or
strings, --zero-based and --n-features for LIBSVM files) are refused with a file they do not
apply to: before, ``fit heart_scale --label-column 3`` trained on the LIBSVM labels as if the
option had not been given."""

import numpy as np
import pytest

import indefsvm.datasets as ds
from indefsvm.cli import main
from indefsvm.exceptions import DataFileError


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("formats")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    y = np.where(X[:, 0] > 0, "yes", "no")
    with open(d / "table.csv", "w") as fh:
        fh.write("a,b,c,label\n")
        for row, label in zip(X, y, strict=True):
            fh.write(",".join(f"{v:.5f}" for v in row) + f",{label}\n")
    with open(d / "series.txt", "w") as fh:
        for i in range(30):
            fh.write(f"{i % 2} " + " ".join(f"{v:.4f}" for v in rng.normal(size=12)) + "\n")
    K = X @ X.T
    np.save(d / "K.npy", K)
    np.savetxt(d / "y.txt", np.where(X[:, 0] > 0, 1, -1), fmt="%d")
    return {"libsvm": ds.data_path("heart_scale"), "table": str(d / "table.csv"),
            "series": str(d / "series.txt"), "kernel": str(d / "K.npy"),
            "labels": str(d / "y.txt")}


CASES = [
    # (file, extra argv, refused options, what the file is said to be)
    ("libsvm", ["--label-column", "3"], "--label-column does", "a LIBSVM file"),
    ("table", ["--zero-based"], "--zero-based does", "a CSV / TSV table"),
    ("table", ["--n-features", "5", "--zero-based"], "--zero-based --n-features do",
     "a CSV / TSV table"),
    ("series", ["--metric", "dtw", "--zero-based"], "--zero-based does", "a file of series"),
    ("kernel", ["--labels", "LABELS", "--label-column", "1"], "--label-column does",
     "a matrix with its labels"),
    ("dataset", ["--n-features", "3"], "--n-features does", "a bundled data set"),
]


@pytest.mark.parametrize("command", ["fit", "check", "compare"])
@pytest.mark.parametrize("kind, extra, refused, what", CASES)
def test_an_option_of_another_format_is_refused(files, capsys, command, kind, extra,
                                                refused, what):
    extra = [files["labels"] if a == "LABELS" else a for a in extra]
    source = ["--dataset", "heart"] if kind == "dataset" else [files[kind]]
    code = main([command, *source, *extra, "--cv", "0"] if command == "fit"
                else [command, *source, *extra])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2, err
    assert len(err) == 1 and f"{refused} not apply to" in err[0] and what in err[0]
    assert "drop" in err[0]


def test_the_options_still_read_the_files_they_belong_to(files, capsys, tmp_path):
    model = str(tmp_path / "m.skops")
    assert main(["fit", files["table"], "--label-column", "label", "--cv", "0", "-C", "1",
                 "--save", model, "-q"]) == 0
    assert main(["predict", model, files["table"], "--label-column", "label"]) == 0
    assert main(["fit", files["libsvm"], "--n-features", "20", "--cv", "0", "-C", "1",
                 "--json"]) == 0
    assert '"n_features": 20' in capsys.readouterr().out


@pytest.mark.parametrize("kind, extra, refused", [
    ("libsvm", ["--label-column", "2"], "--label-column does not apply to"),
    ("table", ["--zero-based"], "--zero-based does not apply to"),
])
def test_predict_refuses_them_too(files, capsys, tmp_path, kind, extra, refused):
    model = str(tmp_path / "m.skops")
    source = files["libsvm"] if kind == "libsvm" else files["table"]
    fit_args = [] if kind == "libsvm" else ["--label-column", "label"]
    assert main(["fit", source, *fit_args, "--cv", "0", "-C", "1", "--save", model,
                 "-q"]) == 0
    capsys.readouterr()
    code = main(["predict", model, source, *extra])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and refused in err[0] and source in err[0]


def test_a_one_based_file_read_zero_based_is_told_to_drop_the_flag(tmp_path, capsys):
    # predict reads the file against the model's features: a 1-based file read with
    # --zero-based shifts every index up by one, and the last is past the model's features
    model = tmp_path / "m.skops"
    assert main(["fit", "--dataset", "heart", "-C", "1", "--gamma", "0.05", "--cv", "0",
                 "--quiet", "--save", str(model)]) == 0
    capsys.readouterr()
    assert main(["predict", str(model), ds.data_path("heart_scale"), "--zero-based"]) == 1
    err = capsys.readouterr().err.strip()
    assert "is past n_features=13 (indices 0 to 12)" in err, err
    assert "drop zero_based=True (--zero-based)" in err
    # read as it is written, the same file predicts
    assert main(["predict", str(model), ds.data_path("heart_scale")]) == 0
    with pytest.raises(DataFileError, match=r"past n_features=5 \(indices 1 to 5\)\.$"):
        ds.load_libsvm(ds.data_path("heart_scale"), n_features=5)
