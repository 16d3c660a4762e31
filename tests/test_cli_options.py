"""Options that do not apply are refused, an unknown option is named, a model file's schema
is bounded before it is parsed, and the suite's own configuration knows the marks it meets
(issue 46, items 5, 11, 13 and 15)."""

import os
import zipfile

import pytest

import indefsvm as isvm
from indefsvm.cli import main


def test_an_unknown_option_is_named(capsys):
    assert main(["check", "--dataset", "heart", "--bogus", "2"]) == 2
    err = capsys.readouterr().err
    assert "unrecognized option --bogus" in err and "FILE" not in err
    # abbreviations argparse accepts stay accepted
    assert main(["fit", "--dataset", "heart", "-C", "1", "--gam", "0.1", "--cv", "0",
                 "--quiet"]) == 0


@pytest.fixture
def series_file(tmp_path):
    S, y = isvm.datasets.make_cbf(40, length=40, random_state=0)
    path = tmp_path / "s.txt"
    with open(path, "w") as fh:
        for s, label in zip(S, y, strict=True):
            fh.write(f"{label}," + ",".join(f"{v:.5f}" for v in s) + "\n")
    return str(path)


@pytest.mark.parametrize("option", [["--restarts", "2"], ["--wss", "first_order"],
                                    ["--cache-size", "100"], ["--no-shrinking"],
                                    ["--init", "class_balanced"]])
def test_smo_options_refused_with_landmark_features(option, series_file, capsys):
    assert main(["fit", "--dataset", "heart", "--nystroem", "20", "-C", "1", "--cv", "0",
                 "--quiet", *option]) == 2
    assert f"{option[0]} is an option of the SMO solver" in capsys.readouterr().err
    assert main(["fit", series_file, "--metric", "dtw", "--nystroem", "10", "-C", "1",
                 "--cv", "0", "--quiet", *option]) == 2
    assert f"drop {option[0]}" in capsys.readouterr().err


def test_an_inflated_schema_is_refused_before_parsing(tmp_path, capsys):
    model = tmp_path / "m.skops"
    assert main(["fit", "--dataset", "heart", "-C", "1", "--gamma", "0.1", "--cv", "0",
                 "--quiet", "--save", str(model)]) == 0
    bad = tmp_path / "bad.skops"
    with zipfile.ZipFile(model) as src, zipfile.ZipFile(bad, "w",
                                                        zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "schema.json":
                # the same JSON, padded with 8 MB of blanks: it packs to a few KB
                data = data[:-1] + b" " * (8 * 2**20) + data[-1:]
            dst.writestr(info.filename, data)
    capsys.readouterr()
    X = os.path.join(os.path.dirname(isvm.__file__), "datasets", "data", "heart_scale")
    assert main(["predict", str(bad), X]) == 1
    err = capsys.readouterr().err
    assert "holds a schema of 8.0 MB" in err and err.count("\n") == 1
    # the real model's schema passes
    assert main(["predict", str(model), X]) == 0


def test_the_suite_knows_scikit_learns_mark(pytestconfig):
    assert any(m.startswith("thread_unsafe:") for m in pytestconfig.getini("markers"))



def test_a_npy_header_larger_than_memory_is_refused_from_the_header(tmp_path, capsys):
    import numpy as np

    path = tmp_path / "K.npy"
    with open(path, "wb") as fh:  # a header that claims 10^6 x 10^6 float64 (7 TiB), no data
        np.lib.format.write_array_header_2_0(
            fh, {"descr": "<f8", "fortran_order": False, "shape": (10**6, 10**6)})
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "refused from its header" in err and "GiB" in err and err.count("\n") == 1


def test_memory_figures_are_gibibytes():
    from indefsvm._validation import check_memory

    with pytest.raises(MemoryError, match=r"needs about 1024\.0 GiB of memory"):
        check_memory(2.0**40, "a test", "Use less.")
