"""What a newcomer and a probe tripped on after the third wave (one test an item)."""

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.cli import main

# -- 1. Python in the source folder ----------------------------------------------------------


def _source_folder_copy(tmp_path):
    """The package's Python files without its compiled loops: what a clone's folder holds."""
    src = Path(isvm.__file__).parent
    shutil.copytree(src, tmp_path / "indefsvm",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    return tmp_path


# a development install (pip install -e) puts a finder of its own first; without it Python
# finds the copy in the current folder, as it finds a clone's package in its folder
_NO_EDITABLE = ("import sys; sys.meta_path[:] = [f for f in sys.meta_path "
                "if 'editable' not in type(f).__module__.lower()]; ")


def test_import_from_a_source_folder_says_what_happened_and_what_to_do(tmp_path):
    folder = _source_folder_copy(tmp_path)
    r = subprocess.run([sys.executable, "-c", _NO_EDITABLE + "import indefsvm; "
                        "print(indefsvm.__file__); indefsvm.check_kernel"],
                       cwd=folder, capture_output=True, text=True, timeout=120)
    assert r.stdout.strip() == str(folder / "indefsvm" / "__init__.py")
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("indefsvm._solvers.NotBuiltError: indefsvm was imported from the "
                           f"source folder {folder}")
    assert "Run Python from another folder" in last and "pip install" in last
    assert "ModuleNotFoundError" not in r.stderr


def test_command_line_from_a_source_folder_is_one_line_not_an_internal_error(tmp_path):
    folder = _source_folder_copy(tmp_path)
    # what `python -m indefsvm fit ...` runs, with the finder of a development install removed
    code = (_NO_EDITABLE + "sys.argv = ['indefsvm', 'fit', '--dataset', 'heart', '--cv', "
            "'0']; from indefsvm._entry import main; raise SystemExit(main())")
    r = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 1
    assert r.stderr.startswith("indefsvm: error: indefsvm was imported from the source folder")
    assert "internal error" not in r.stderr and "Traceback" not in r.stderr


# -- 2. labels files as pandas writes them ---------------------------------------------------


@pytest.fixture
def kernel_file(tmp_path):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    np.save(tmp_path / "K.npy", X @ X.T)
    return tmp_path / "K.npy", y


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
