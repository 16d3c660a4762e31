"""Issue 45's acceptance: the series user's walk-through (docs/series_walkthrough.rst) runs as
printed -- its Python block writes the files with pandas, then each command of its bash block
runs through the command line's ``main`` (on 800 series instead of 10 000, for time; the
commands are the same)."""

from __future__ import annotations

import pathlib
import shlex

import numpy as np

import indefsvm as isvm
from indefsvm.cli import main

PAGE = pathlib.Path(__file__).parent.parent / "docs" / "series_walkthrough.rst"


def _block(text: str, language: str) -> str:
    body = text.split(f".. code-block:: {language}\n\n", 1)[1]
    lines = []
    for line in body.splitlines():
        if line and not line.startswith("    "):
            break
        lines.append(line[4:])
    return "\n".join(lines).strip()


def test_the_walkthrough_runs_as_printed(tmp_path, monkeypatch, capsys):
    text = PAGE.read_text()
    code = _block(text, "python")
    assert "n = 10_000" in code
    commands = [ln for ln in _block(text, "bash").splitlines() if ln.strip()]
    assert [c.split()[1] for c in commands] == ["check", "compare", "fit", "report", "predict"]
    monkeypatch.chdir(tmp_path)
    exec(compile(code.replace("n = 10_000", "n = 800"), str(PAGE), "exec"), {})
    outputs = []
    for command in commands:
        capsys.readouterr()
        assert main(shlex.split(command)[1:]) == 0, command
        outputs.append(capsys.readouterr())
    check, compare, fit, report, predict = outputs
    assert "is an index, as pandas writes one" in check.err
    assert "'indefsvm fit train.csv --metric dtw --window 0.1 --nystroem " in check.out
    assert "'indefsvm compare train.csv --metric dtw --window 0.1 --search" in check.out
    assert "model saved to best.skops (refitted on all 800 objects" in compare.out
    assert isvm.load_model(tmp_path / "best.skops").n_train_ == 800
    assert fit.out.startswith("search      ") and "model saved to dtw.skops" in fit.out
    assert "5-fold cross-validation, about" in fit.err
    assert "Sanity report (NystroemSVC, feature space)" in report.out
    assert (tmp_path / "report" / "indefsvm-report-dtw.html").exists()
    pred = np.loadtxt(tmp_path / "predictions.txt")
    truth = np.loadtxt(tmp_path / "new_labels.txt")
    assert pred.shape == (1000,) and np.mean(pred == truth) > 0.95
