"""Issue 46, item 12: the verdict, the guide and the rule say the same; the commands the
output prints run as printed; Python's search and the command line's choose alike."""

from __future__ import annotations

import os
import shlex

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.cli import main
from indefsvm.diagnostics.report import UNSUITABLE, small_c_verdict

SIGMOID = dict(kernel="sigmoid", gamma=0.5, coef0=1.0)


@pytest.fixture(scope="module")
def heart():
    return isvm.datasets.load_heart(return_X_y=True)


def test_a_kernel_sensible_at_a_small_C_only_is_called_so(heart):
    """On heart with sigmoid(0.5, 1), w'Mw > 0 at C = 0.1 and <= 0 at C = 1, 10, 100: the
    verdict names the small C and the remedy, as the recommendation does (it said
    "unsuitable" beside "keep C <= 0.1")."""
    X, y = heart
    rep = isvm.check_kernel(X=X, y=y, **SIGMOID)
    assert rep.wmw_by_C[0.1] > 0 and all(rep.wmw_by_C[c] <= 0 for c in (1.0, 10.0, 100.0))
    assert rep.verdict == small_c_verdict(0.1) == \
        "usable with a small C only (C <= 0.1), or after a remedy"
    assert "keep C <= 0.1" in rep.notes[-2] and "RemedySearchCV" in rep.notes[-2]
    # the negated kernel stays unsuitable, with its next step in the name
    neg = isvm.check_kernel(-isvm.kernel_matrix(X, kernel="rbf", gamma=0.05), y)
    assert neg.verdict == UNSUITABLE and neg.verdict.endswith("use a remedy")


def test_check_prints_the_command_for_this_data_and_it_runs(heart, tmp_path, capsys):
    X, y = heart
    np.savetxt(tmp_path / "my data.csv", X, delimiter=",")
    np.savetxt(tmp_path / "labels.txt", y, fmt="%d")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert main(["check", "my data.csv", "--labels", "labels.txt", "--kernel", "sigmoid",
                     "--gamma", "0.5", "--coef0", "1"]) == 0
        out = capsys.readouterr().out
        want = ("indefsvm compare 'my data.csv' --labels labels.txt --kernel sigmoid --gamma "
                "0.5 --coef0 1 --search --save model.skops")
        assert want in out and " FILE " not in out
        assert main(shlex.split(want)[1:] + ["--quiet"]) == 0
        assert (tmp_path / "model.skops").exists()
    finally:
        os.chdir(cwd)


def test_python_without_the_command_line_still_says_file(heart):
    X, y = heart
    rep = isvm.check_kernel(X=X, y=y, **SIGMOID)
    assert "'indefsvm compare FILE --search --save model.skops'" in rep.notes[-2]


def test_the_search_chooses_alike_in_python_and_on_the_command_line(heart, capsys):
    """The same default folds (stratified, not shuffled, as scikit-learn's cv=5): the same
    method and C, the same predictions."""
    X, y = heart
    search = isvm.RemedySearchCV().fit(isvm.kernel_matrix(X, **SIGMOID), y)
    assert main(["compare", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.5",
                 "--coef0", "1", "--search"]) == 0
    out = capsys.readouterr().out
    chosen = next(line for line in out.splitlines() if line.startswith("Chosen"))
    assert f": {search.best_method_}, C = {search.best_params_['C']:g};" in chosen, chosen


def test_compare_remedies_without_a_seed_is_the_same_every_time():
    rng = np.random.default_rng(3)
    Xs = rng.normal(size=(60, 3))
    y = (Xs[:, 0] + 0.3 * rng.normal(size=60) > 0).astype(int)
    K = isvm.kernel_matrix(Xs, kernel="sigmoid", gamma=0.3, coef0=-0.2)
    a = isvm.compare_remedies(K, y, cv=3, methods=["flip"])
    b = isvm.compare_remedies(K, y, cv=3, methods=["flip"])
    for m in a.fold_errors:
        np.testing.assert_array_equal(a.fold_errors[m], b.fold_errors[m])


def test_help_says_what_the_code_does(tmp_path, capsys):
    main(["predict", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "CSV" in text and "fit --metric" in text and "fit --distances" in text
    main(["check", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "refused with a kernel matrix FILE" in text and "ignored for a kernel" not in text
    # and refused it is, as the help says
    np.save(tmp_path / "K.npy", np.eye(4))
    assert main(["check", str(tmp_path / "K.npy"), "--kernel", "sigmoid"]) == 2
    assert "--kernel does not apply" in capsys.readouterr().err


def test_cli_name_lists_match_the_library():
    from indefsvm import cli
    from indefsvm.datasets import DATASETS
    from indefsvm.kernels import KERNELS

    assert set(cli.DATASET_NAMES) == set(DATASETS)
    assert set(cli.KERNEL_NAMES) == set(KERNELS)

