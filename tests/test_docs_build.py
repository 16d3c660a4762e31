"""The documentation builds without warnings and leaves the tracked files as they were.

``sphinx-build -W`` runs every gallery example (about half a minute); generated files (the
gallery's copies and figures, autosummary pages, timings) must land in the build tree or in
ignored folders, never in tracked files.
"""

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def _state():
    """`git status --porcelain` in a checkout; else a digest of every file outside the build
    folders."""
    if (REPO / ".git").exists() and shutil.which("git"):
        return subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                              cwd=REPO, capture_output=True, text=True, check=True).stdout
    digest = {}
    for p in sorted(REPO.rglob("*")):
        rel = p.relative_to(REPO).as_posix()
        if p.is_file() and not rel.startswith(("docs/_build", "docs/auto_examples",
                                               "docs/generated", "build/", ".")):
            digest[rel] = hashlib.sha256(p.read_bytes()).hexdigest()
    return digest


def test_docs_build_leaves_the_tree_clean(tmp_path):
    if not (REPO / "docs" / "conf.py").exists():
        pytest.fail("docs/conf.py not found beside the tests")
    before = _state()
    # run from a scratch folder: "python -m" puts the working directory first on sys.path,
    # and the repository root holds the uncompiled sources, not the installed package
    proc = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html",
                           str(REPO / "docs"), str(tmp_path / "html")], cwd=tmp_path,
                          capture_output=True, text=True, timeout=1200)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert (tmp_path / "html" / "index.html").exists()
    assert _state() == before
