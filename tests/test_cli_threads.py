"""--n-jobs on the command line: check, compare, fit and report take it; it reaches the
estimators and the checks; a bad value is one usage error."""

from __future__ import annotations

import pytest

import indefsvm as isvm
from indefsvm.cli import main


@pytest.mark.parametrize("command", ["check", "fit", "report", "compare"])
def test_n_jobs_zero_is_one_usage_error(command, capsys):
    assert main([command, "--dataset", "heart", "--n-jobs", "0"]) == 2
    err = capsys.readouterr().err
    assert "--n-jobs" in err and "got 0" in err and "Traceback" not in err


def test_check_with_n_jobs_prints_the_same_report(capsys):
    argv = ["check", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01",
            "--coef0", "-0.5", "--json"]
    assert main(argv) == 0
    one = capsys.readouterr().out
    assert main(argv + ["--n-jobs", "2"]) == 0
    two = capsys.readouterr().out
    assert one == two


def test_fit_hands_n_jobs_to_the_estimator(monkeypatch, capsys):
    seen = []
    real = isvm.IndefiniteSVC.fit

    def spy(self, X, y, sample_weight=None):
        seen.append(self.n_jobs)
        return real(self, X, y, sample_weight)

    monkeypatch.setattr(isvm.IndefiniteSVC, "fit", spy)
    assert main(["fit", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01",
                 "--coef0", "-0.5", "-C", "10", "--cv", "0", "--n-jobs", "2"]) == 0
    assert seen == [2]
    capsys.readouterr()
