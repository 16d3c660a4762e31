"""Python and the command line run in a clone's folder, where the compiled loops are not
built: one message that says what happened and what to do, never an internal error."""

import shutil
import subprocess
import sys
from pathlib import Path

import indefsvm as isvm


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
