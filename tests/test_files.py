"""Output files (``indefsvm._files``): written whole or not at all, checked before the work;
one writer for the command line and :meth:`Explorer.save`."""

from __future__ import annotations

import os

import numpy as np
import pytest

from indefsvm._files import OutputFileError, atomic_write, check_output_file, check_page_out


def _writer(text):
    def write(name):
        with open(name, "w", encoding="utf-8") as fh:
            fh.write(text)
    return write


def test_an_interrupted_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    out = tmp_path / "model.skops"
    out.write_text("old")

    def half(name):
        with open(name, "w") as fh:
            fh.write("half a ")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic_write(out, half)
    assert out.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.skops"]


def test_a_written_file_gets_the_usual_mode(tmp_path):
    out = tmp_path / "page.html"
    old = os.umask(0o022)
    try:
        atomic_write(out, _writer("page"))
    finally:
        os.umask(old)
    assert out.read_text() == "page"
    assert (out.stat().st_mode & 0o777) == 0o644  # not mkstemp's 0600


def test_names_that_cannot_be_outputs_are_usage_mistakes(tmp_path):
    data = tmp_path / "data.txt"
    data.write_text("1 1:0\n")
    link = tmp_path / "same.txt"
    link.symlink_to(data.name)
    for path, inputs, said in ((tmp_path, (), "is a directory"),
                               (link, (str(data),), "is the input file"),
                               (tmp_path / "no" / "m.skops", (), "does not exist")):
        with pytest.raises(OutputFileError, match=said) as info:
            check_output_file(str(path), "--save", inputs)
        assert info.value.usage and "--save" in str(info.value)
    with pytest.raises(OutputFileError, match="is a file; give a folder"):
        check_page_out(str(data), "--out")


def test_a_name_through_a_missing_folder_is_not_resolved_by_its_text(tmp_path):
    # the system walks 'typo/..' and fails at typo/; os.path.abspath and a non-strict
    # realpath drop the pair and name the input itself
    data = tmp_path / "data.txt"
    data.write_text("1 1:0\n")
    through = str(tmp_path / "typo" / ".." / "data.txt")
    with pytest.raises(OutputFileError, match=r"typo/\.\. does not exist"):
        check_output_file(through, "--save", (str(data),))
    with pytest.raises(OutputFileError, match=r"typo/\.\. does not exist"):
        check_page_out(str(tmp_path / "typo" / ".." / "pages"), "--out")
    with pytest.raises(OutputFileError, match="folder does not exist") as info:
        atomic_write(through, _writer("model"))
    assert not info.value.usage and data.read_text() == "1 1:0\n"
    # through folders that exist, '..' is what the system says it is
    (tmp_path / "sub").mkdir()
    with pytest.raises(OutputFileError, match="is the input file"):
        check_output_file(str(tmp_path / "sub" / ".." / "data.txt"), "--save", (str(data),))


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_refused_write_is_not_a_usage_mistake():
    with pytest.raises(OutputFileError, match="/dev/full: cannot be written") as info:
        atomic_write("/dev/full", _writer("x" * 100_000))
    assert not info.value.usage


def test_the_explorer_page_is_saved_whole_through_a_link(tmp_path):
    from indefsvm.explorer import explore

    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    ex = explore(X, y, kernel="rbf", param_grid={"gamma": [0.5]}, C=[1.0])
    target = tmp_path / "target.html"
    target.write_text("old")
    link = tmp_path / "page.html"
    link.symlink_to(target.name)
    assert ex.save(link) == link
    assert link.is_symlink() and target.read_text().startswith("<!DOCTYPE html>")
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".indefsvm-")]


def test_files_written_honour_the_umask(tmp_path):
    import os

    from indefsvm.cli import main

    old = os.umask(0o022)
    try:
        assert main(["fit", "--dataset", "heart", "--cv", "0", "--quiet", "--save",
                     str(tmp_path / "m.skops")]) == 0
    finally:
        os.umask(old)
    assert (tmp_path / "m.skops").stat().st_mode & 0o777 == 0o644

