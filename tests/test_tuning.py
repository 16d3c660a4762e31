"""The search of C and gamma (``indefsvm._tuning``) against scikit-learn's GridSearchCV on
the same folds, and its tie-break as a user reads LIBSVM's grid."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.model_selection import GridSearchCV, StratifiedKFold

from indefsvm import IndefiniteSVC
from indefsvm._tuning import GridChoice, cv_scores, search_C_gamma, subsample


@pytest.fixture(scope="module")
def data():
    return make_classification(120, 5, n_informative=3, flip_y=0.1, random_state=3)


def test_the_scores_and_choice_are_grid_search_cvs_on_the_same_folds(data):
    X, y = data
    Cs, gammas = [0.1, 1.0, 10.0], [0.05, 0.2, 0.8]
    choice = search_C_gamma(IndefiniteSVC(kernel="rbf"), X, y, Cs=Cs, gammas=gammas,
                            gamma_rule=0.2, folds=3, random_state=0)
    folds = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
    # the candidates in the tie-break's order: GridSearchCV keeps the first of equal means
    order = sorted(((c, g) for c in Cs for g in gammas),
                   key=lambda p: (Cs.index(p[0]), abs(gammas.index(p[1]) - 1)))
    ref = GridSearchCV(IndefiniteSVC(kernel="rbf"),
                       [{"C": [c], "gamma": [g]} for c, g in order], cv=folds).fit(X, y)
    assert (choice.C, choice.gamma) == (ref.best_params_["C"], ref.best_params_["gamma"])
    assert choice.cv_accuracy == pytest.approx(ref.best_score_, abs=1e-12)
    assert (choice.folds, choice.samples, choice.points) == (3, 120, 9)
    assert choice.searched == ["C", "gamma"]


def test_ties_go_to_the_smaller_C_then_the_gamma_of_the_rule():
    # two far blobs: every point of the grid classifies them perfectly
    rng = np.random.default_rng(0)
    X = np.vstack([rng.normal(-5, 0.3, (20, 2)), rng.normal(5, 0.3, (20, 2))])
    y = np.repeat([0, 1], 20)
    choice = search_C_gamma(IndefiniteSVC(kernel="rbf"), X, y, Cs=[0.5, 1.0, 2.0],
                            gammas=[0.01, 0.1, 1.0], gamma_rule=0.1, random_state=0)
    assert (choice.C, choice.gamma, choice.cv_accuracy) == (0.5, 0.1, 1.0)
    assert choice.edge == ["C = 0.5"]
    assert "C = 0.5, gamma = 0.1 (the default rule x 1)" in str(choice)
    assert GridChoice(**choice.to_dict()) == choice


def test_many_samples_are_searched_on_a_stratified_subsample(data):
    X, y = data
    idx = subsample(y, 60, random_state=0)
    assert idx.shape == (60,) and np.all(np.diff(idx) > 0)
    assert abs(np.mean(y[idx]) - np.mean(y)) <= 1 / 60
    seen = []
    choice = search_C_gamma(IndefiniteSVC(kernel="rbf"), X, y, Cs=[1.0], max_samples=60,
                            random_state=0, on_start=lambda m, k: seen.append((m, k)))
    assert seen == [(60, 3)] and choice.samples == 60 and choice.searched == []


def test_a_class_of_one_sample_cannot_be_searched(data):
    X, y = data
    y = y.copy()
    y[0] = 7
    assert search_C_gamma(IndefiniteSVC(), X, y, Cs=[1.0, 10.0]) is None


def test_cv_scores_on_a_precomputed_kernel_slice_both_axes(data):
    X, y = data
    K = X @ X.T
    folds = list(StratifiedKFold(3, shuffle=True, random_state=1).split(X, y))
    got, stopped = cv_scores(IndefiniteSVC(kernel="precomputed"), K, y, folds, True)
    want, _ = cv_scores(IndefiniteSVC(kernel="linear"), X, y, folds, False)
    np.testing.assert_allclose(got, want)
    assert stopped == 0
    assert cv_scores(IndefiniteSVC(max_iter=2), X, y, folds, False)[1] == 3


def test_fits_stopped_at_their_cap_are_said(data, capsys):
    from indefsvm.cli import main

    X, y = data
    choice = search_C_gamma(IndefiniteSVC(kernel="rbf", max_iter=2), X, y, Cs=[1.0, 10.0],
                            random_state=0)
    assert choice.stopped_fits == 6
    assert "6 of the 6 fits stopped at max_iter before tol" in str(choice)
    # the command line's search line says it in its option's words
    assert main(["fit", "--dataset", "heart", "--max-iter", "3", "--cv", "0"]) == 0
    cap = capsys.readouterr()
    line = cap.out.splitlines()[0]
    assert line.startswith("search") and "fits stopped at --max-iter before tol" in line
    # and the cross-validation after the fit says its own
    assert main(["fit", "--dataset", "heart", "--max-iter", "3", "--cv", "3", "-C", "1",
                 "--gamma", "0.1"]) == 0
    assert ("3 of the 3 cross-validation fits stopped at --max-iter before tol"
            in capsys.readouterr().err)


def test_other_warnings_of_the_fits_are_shown_once_not_hidden(data):
    import warnings as w

    from indefsvm._warn import warn

    X, y = data

    class Loud(IndefiniteSVC):
        def fit(self, X, y, sample_weight=None):
            warn("a remedy's remark", UserWarning, stacklevel=2)  # the library's own
            w.warn("another library's remark", RuntimeWarning, stacklevel=2)
            return super().fit(X, y, sample_weight)

    with w.catch_warnings(record=True) as seen:
        w.simplefilter("always")
        search_C_gamma(Loud(kernel="rbf"), X, y, Cs=[1.0, 10.0], random_state=0)
        folds = list(StratifiedKFold(3, shuffle=True, random_state=0).split(X, y))
        cv_scores(Loud(kernel="rbf"), X, y, folds, False)
    said = [str(x.message) for x in seen if x.category is UserWarning]
    assert said == ["a remedy's remark", "a remedy's remark"]  # once per search, not 6 + 3
    # another library's warning is the process's to show (the searches hold only the
    # library's own, per thread): under "always", at each of the 6 + 3 fits; the command
    # line says each text once
    others = [str(x.message) for x in seen if x.category is RuntimeWarning]
    assert others == ["another library's remark"] * 9


def test_a_long_search_is_said_with_its_projection_while_it_runs(monkeypatch, capsys):
    # fit --restarts 300 searched 75 fits for 18 s with nothing on stderr (a search was said
    # only for 1 000 samples or more): the first fit's time now projects the search, and
    # one of ANNOUNCE_S seconds or more is said before the rest of it runs
    from indefsvm.cli import _tune, main

    monkeypatch.setattr(_tune, "ANNOUNCE_S", 0.0)
    assert main(["fit", "--dataset", "heart", "--kernel", "sigmoid", "--restarts", "2",
                 "--cv", "0"]) == 0
    err = capsys.readouterr().err
    assert err.count("indefsvm: search: 5 C x 5 gamma by 3-fold CV on 270 samples, 75 fits, "
                     "about ") == 1
    monkeypatch.setattr(_tune, "ANNOUNCE_S", 1e9)  # a search of seconds is not said
    assert main(["fit", "--dataset", "heart", "--kernel", "sigmoid", "--cv", "0"]) == 0
    assert "search:" not in capsys.readouterr().err
