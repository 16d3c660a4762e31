"""Cross-validation of one estimator, and LIBSVM ``grid.py``'s search of C and gamma around
it, on a stratified subsample when the data are many (private module).

The command line's ``fit`` tunes the very estimator its options build (an ``IndefiniteSVC``
computing a named kernel column by column, a landmark model, a distance pipeline, a remedy's
pipeline), so the search takes that estimator as it is, with the names of its C and gamma.
The library's searches of remedies (:class:`indefsvm.RemedySearchCV`,
:func:`indefsvm.compare_remedies`) compare *methods* on one precomputed kernel; this one
compares nothing but C and gamma, and breaks ties as a user reads LIBSVM's grid: towards the
smaller C (the simpler model), then the gamma nearest the default rule.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

import numpy as np

from ._warn import Held, say_again

__all__ = ["GridChoice", "cv_scores", "fold_score", "folds_of", "search_C_gamma", "subsample",
           "take"]


def subsample(y, max_samples: int, random_state=None, *, stratify: bool = True) -> np.ndarray:
    """The sorted indices of a subsample of at most ``max_samples`` (all of them when there
    are no more), stratified by the classes of ``y`` (``stratify=False``: uniform, for the
    real-valued targets of a regression)."""
    idx = np.arange(len(y))
    if len(y) <= max_samples:
        return idx
    from sklearn.model_selection import train_test_split

    keep, _ = train_test_split(idx, train_size=max_samples, stratify=y if stratify else None,
                               random_state=random_state)
    return np.sort(keep)


def folds_of(y, k: int, random_state=None, *, classes: bool = True) -> list:
    """``k`` shuffled (train, test) folds: stratified by the classes of ``y``, or plain
    (``classes=False``: the targets of a regression)."""
    from sklearn.model_selection import KFold, StratifiedKFold

    split = StratifiedKFold if classes else KFold
    return list(split(k, shuffle=True, random_state=random_state).split(np.zeros(len(y)), y))


def take(X, idx, precomputed: bool):
    """The rows ``idx`` of ``X`` (a precomputed matrix on both axes; a list of objects
    item by item)."""
    if precomputed:
        return X[np.ix_(idx, idx)]
    if isinstance(X, list):  # series of several lengths, strings
        return [X[i] for i in idx]
    return X[idx]


def fold_score(est, X, y, train, test, precomputed: bool) -> float:
    """Fit ``est`` on a fold's training part and score it on its test part (a precomputed
    matrix is sliced on both axes: the test rows against the training columns)."""
    if precomputed:
        est.fit(X[np.ix_(train, train)], y[train])
        return est.score(X[np.ix_(test, train)], y[test])
    est.fit(take(X, train, False), y[train])
    return est.score(take(X, test, False), y[test])


def quiet(estimator):
    """A clone of ``estimator`` with every ``verbose`` off (its SVM's, inside a pipeline):
    folds that do not log."""
    from sklearn.base import clone

    est = clone(estimator)
    est.set_params(**{k: False for k, v in est.get_params().items()
                      if k.split("__")[-1] == "verbose" and v is not False})
    return est


def _pass_on(caught, seen: set) -> int:
    """Count the ConvergenceWarnings among ``caught`` and show each other warning once per
    search (a remedy's DegenerateKernelWarning, ...): caught to be counted, not hidden.
    ``seen`` holds the texts said already."""
    from .exceptions import ConvergenceWarning

    stopped = 0
    for w in caught:
        if issubclass(w.category, ConvergenceWarning):
            stopped = 1
        elif str(w.message) not in seen:
            seen.add(str(w.message))
            say_again(w)
    return stopped


def cv_scores(estimator, X, y, folds, precomputed: bool, *, on_fold=None, said=()):
    """(scores, stopped): the accuracy of a fresh clone of ``estimator`` on each of
    ``folds`` ((train, test) pairs), and how many of those fits stopped with a
    ConvergenceWarning (caught, not shown); ``on_fold(k, score, seconds)`` after each.
    Other warnings are shown once, unless their text is among ``said`` (the fit's own, which
    its caller says)."""
    from sklearn.base import clone


    scores, stopped, seen = [], 0, set(said)
    for k, (train, test) in enumerate(folds, 1):
        t0 = time.perf_counter()
        caught = Held()
        scores.append(caught.call(fold_score, clone(estimator), X, y, train, test,
                                  precomputed))
        stopped += _pass_on(caught.said, seen)
        if on_fold is not None:
            on_fold(k, scores[-1], time.perf_counter() - t0)
    return np.array(scores), stopped


@dataclass
class GridChoice:
    """What the search of C and gamma chose, and from what.

    ``C`` and ``gamma`` (None when not searched) are the choice; ``gamma_rule`` the
    default rule's gamma the grid spans; ``cv_accuracy`` its mean score over ``folds``
    folds of ``samples`` samples -- the accuracy, or for a regression (``score="r2"``) the
    coefficient of determination R^2, ``to_dict`` then naming it ``cv_r2``; ``points`` the
    grid's size; ``searched`` the names searched; ``stopped_fits`` the fits that ended at
    their iteration cap; ``edge`` the values chosen at an edge of the grid; ``on`` what the
    search ran on, when not the samples themselves.
    """

    C: float
    gamma: float | None
    gamma_rule: float | None
    cv_accuracy: float
    folds: int
    samples: int
    points: int
    seconds: float
    searched: list
    stopped_fits: int = 0
    edge: list = field(default_factory=list)
    on: str | None = None
    score: str = "accuracy"

    def __str__(self) -> str:
        return self.said_as()

    def said_as(self, name_of=None) -> str:
        """The line for people, each parameter it names (``C``, ``gamma``, ``max_iter``)
        said by ``name_of(name)`` where given (a command line's options)."""
        said = {n: (name_of(n) if name_of else n) for n in ("C", "gamma", "max_iter")}
        chosen = [f"C = {self.C:g}"] if "C" in self.searched else []
        if "gamma" in self.searched:
            ratio = self.gamma / self.gamma_rule
            factor = f"{ratio:g}" if ratio >= 1 else f"1/{1 / ratio:g}"
            chosen.append(f"gamma = {self.gamma:.6g} (the default rule x {factor})")
        value = (f"R^2 {self.cv_accuracy:.4f}" if self.score == "r2" else
                 f"accuracy {100 * self.cv_accuracy:.2f} %")
        text = (f"{', '.join(chosen)}: {self.folds}-fold CV {value} over {self.points} grid "
                "points on "
                f"{self.on or str(self.samples) + ' samples'}, {self.seconds:.1f} s")
        if self.stopped_fits:
            text += (f"; {self.stopped_fits} of the {self.points * self.folds} fits stopped at "
                     f"{said['max_iter']} before tol (their scores are of unfinished models)")
        if self.edge:
            text += (f"; {' and '.join(self.edge)} is at the edge of the grid: give "
                     f"{said['C']} / {said['gamma']} beyond it to look further")
        return text

    def to_dict(self) -> dict:
        out = asdict(self)
        if out["on"] is None:
            del out["on"]
        if out["C"] is None:  # a model without C (nu-SVC): gamma alone was searched
            del out["C"]
        if out.pop("score") == "r2":
            out["cv_r2"] = out.pop("cv_accuracy")
        return out


def search_C_gamma(estimator, X, y, *, Cs, gammas=(None,), gamma_rule=None, names=("C",
                   "gamma"), precomputed: bool = False, folds: int = 3,
                   max_samples: int = 3000, random_state=None, on_start=None,
                   on_fit=None) -> GridChoice | None:
    """Cross-validate ``estimator`` at every ``C`` of ``Cs`` (``[None]``: its own C, or a
    model without one, nu-SVC) and ``gamma`` of ``gammas`` (``(None,)``: its own gamma) and
    choose the best mean score (accuracy; R^2 for a regressor), ties to the smaller C, then
    to the gamma nearest the middle of ``gammas`` (the default rule).

    The grid is searched on a stratified subsample of ``max_samples`` when there are more,
    with ``folds`` stratified folds (fewer when a class has fewer samples; None when a class
    has one); a regressor's on a uniform subsample, with plain folds. ``names`` are the
    parameters' names in ``estimator`` (a pipeline's prefixed);
    ``on_start(samples, folds)`` is called before the fits, ``on_fit()`` after each of the
    ``len(Cs) * len(gammas) * folds`` of them.
    """
    from sklearn.base import clone, is_regressor


    t0 = time.perf_counter()
    classes = not is_regressor(estimator)
    idx = subsample(y, max_samples, random_state, stratify=classes)
    Xs = take(X, idx, precomputed) if idx.shape[0] < len(y) else X
    ys = y[idx]
    k = int(min(folds, np.unique(ys, return_counts=True)[1].min() if classes else len(ys)))
    if k < 2:
        return None
    splits = folds_of(ys, k, random_state, classes=classes)
    if on_start is not None:
        on_start(int(idx.shape[0]), k)
    template = quiet(estimator)
    scores = np.full((len(gammas), len(Cs)), np.nan)
    stopped, seen = 0, set()
    for gi, g in enumerate(gammas):
        for ci, C in enumerate(Cs):
            acc = []
            for tr, te in splits:
                est = clone(template)
                if C is not None:
                    est.set_params(**{names[0]: C})
                if g is not None:
                    est.set_params(**{names[1]: g})
                caught = Held()
                acc.append(caught.call(fold_score, est, Xs, ys, tr, te, precomputed))
                stopped += _pass_on(caught.said, seen)
                if on_fit is not None:
                    on_fit()
            scores[gi, ci] = float(np.mean(acc))
    middle = len(gammas) // 2
    _, ci, _, gi = min((-scores[gi, ci], ci, abs(gi - middle), gi)
                       for gi in range(len(gammas)) for ci in range(len(Cs)))
    searched = [p for p, on in (("C", len(Cs) > 1), ("gamma", gammas[0] is not None)) if on]
    edge = []
    if "C" in searched and ci in (0, len(Cs) - 1):
        edge.append(f"C = {Cs[ci]:g}")
    if "gamma" in searched and gi in (0, len(gammas) - 1):
        edge.append(f"gamma = {gammas[gi]:.4g}")
    return GridChoice(C=Cs[ci], gamma=gammas[gi], gamma_rule=gamma_rule,
                      cv_accuracy=float(scores[gi, ci]), folds=k, samples=int(idx.shape[0]),
                      points=len(Cs) * len(gammas), seconds=time.perf_counter() - t0,
                      searched=searched, stopped_fits=stopped, edge=edge,
                      score="accuracy" if classes else "r2")
