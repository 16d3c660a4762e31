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
    _the_lessons_open_in_the_built_site(tmp_path / "html")


def _the_lessons_open_in_the_built_site(html: Path) -> None:
    """The teaching page's links to the playground reach a page of the built site (its
    _static folder was empty: six dead links, the 45-minute lesson's five among them), and
    each opens its lesson's state -- in Chromium where the browser tests run."""
    import re

    from indefsvm.explorer import LESSONS

    teaching = (html / "teaching.html").read_text(encoding="utf-8")
    links = re.findall(r'href="(_static/playground\.html[^"]*)"', teaching)
    assert len(links) >= len(LESSONS), links
    page = html / "_static" / "playground.html"
    assert page.is_file() and "window.indefsvm" in page.read_text(encoding="utf-8")
    from test_explorer_browser import _driver

    browser = _driver()  # skips or fails as the browser tests do, without Chromium
    try:
        for link, lesson in zip([u for u in links if "#live" in u], LESSONS, strict=True):
            browser.get("about:blank")
            browser.get((html / link.split("#")[0]).as_uri() + "#" + link.split("#", 1)[1]
                        .replace("&amp;", "&"))
            state = browser.execute_script("return window.indefsvm.state()")
            want = lesson["state"]
            assert state["kernel"] == want["kernel"] and state["C"] == want["C"], link
            assert state["remedy"] == want["remedy"], link
    finally:
        browser.quit()
