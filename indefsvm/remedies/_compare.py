"""``compare_remedies``: every answer to "my kernel is indefinite" on the same folds."""

from __future__ import annotations

import html
import numbers
import time
from dataclasses import dataclass, field

import numpy as np
from joblib import Parallel, delayed
from sklearn import get_config
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.utils._param_validation import StrOptions

from .._threads import joblib_workers, sized_by
from .._validation import (
    N_JOBS,
    check_distance_matrix,
    check_kernel_matrix,
    check_label_vector,
    options_checked,
    user_stacklevel,
)
from .._warn import Held, carried, warn
from ..diagnostics._render import render_html, render_text
from ..exceptions import DegenerateKernelWarning, ParameterError
from ._fix_base import check_kernel_memory, folds_matrices
from ._krein import KreinSVC
from ._methods import COST_ORDER, SVM_METHODS, svm_estimator
from ._methods import INDEF as _INDEF

__all__ = ["RemedyComparison", "compare_remedies", "remedy_estimators"]



def remedy_estimators(C: float = 1.0, class_weight=None) -> dict:
    """The estimators compared by :func:`compare_remedies`, by name (precomputed kernels).

    Parameters
    ----------
    C : float, default=1.0
        Box bound of every SVM.
    class_weight : dict, "balanced" or None
        Class weights of every SVM (as in :class:`~indefsvm.IndefiniteSVC`).

    Returns
    -------
    dict of str to estimator
        ``"indefinite SVM"`` (SMO on K as it is), ``"clip"``, ``"flip"``, ``"shift"``,
        ``"advanced shift"`` (Muench et al. 2020), ``"square"`` (spectrum fixes then the
        SVM), ``"CNE"`` / ``"RNE"`` (clip / flip of the
        centred kernel, Haasdonk 2005), ``"Krein SVM"`` (Loosli et al. 2016).

    Examples
    --------
    >>> from indefsvm.remedies import remedy_estimators
    >>> sorted(remedy_estimators())[:3]
    ['CNE', 'Krein SVM', 'RNE']
    """
    return {name: svm_estimator(name, {"C": C}, class_weight) for name in SVM_METHODS}


def _c_param(est) -> str:
    return "svm__C" if isinstance(est, Pipeline) else "C"


def _n_sv(est) -> float:
    est = getattr(est, "best_estimator_", est)
    if isinstance(est, Pipeline):
        est = est.named_steps["svm"]
    if isinstance(est, KreinSVC):
        return float(est.n_train_)  # beta is dense: every training sample is used
    if isinstance(est, KNeighborsClassifier):
        return float(est.n_samples_fit_)
    return float(est.support_.shape[0])


def _fit_weighted(est, X, y, sample_weight):
    """``est.fit(X, y)``, with ``sample_weight`` given to its SVM: the estimator itself, or
    the last step of its pipeline (the kernel and the fix are fitted on every sample); none
    to k-NN."""
    if sample_weight is None or isinstance(est, KNeighborsClassifier) or (
            isinstance(est, Pipeline) and isinstance(est.steps[-1][1], KNeighborsClassifier)):
        return est.fit(X, y)
    if isinstance(est, Pipeline):
        if get_config()["enable_metadata_routing"]:
            # scikit-learn's metadata routing refuses the step__ form ("not routed to any
            # object"): the SVM asks for the weights and the pipeline routes them
            est.steps[-1][1].set_fit_request(sample_weight=True)
            return est.fit(X, y, sample_weight=sample_weight)
        return est.fit(X, y, **{f"{est.steps[-1][0]}__sample_weight": sample_weight})
    return est.fit(X, y, sample_weight=sample_weight)


def _error(pred, y, w) -> float:
    """Test error, weighted by the test samples' weights when there are any."""
    return float(np.average(pred != y, weights=w))


def _weighted_C(est, Ktr, ytr, wtr, Cs, inner_cv, seed):
    """(model, C): GridSearchCV's choice of C with sample weights -- each inner fold's SVM
    weighted and its test part scored by weighted accuracy (as GridSearchCV does since
    scikit-learn 1.7; 1.6 routed the weights to the fit only, whatever the version here), the
    first C of the best mean score, refitted on all of ``Ktr`` weighted."""
    name = _c_param(est)
    inner = list(StratifiedKFold(inner_cv, shuffle=seed is not None,
                                 random_state=seed).split(Ktr, ytr))
    means = []
    for C in Cs:
        scores = []
        for itr, ite in inner:
            m = _fit_weighted(clone(est).set_params(**{name: C}), Ktr[np.ix_(itr, itr)],
                              ytr[itr], wtr[itr])
            w = wtr[ite]
            scores.append(1.0 - _error(m.predict(Ktr[np.ix_(ite, itr)]), ytr[ite],
                                       w if w.sum() > 0 else None))
        means.append(np.mean(scores))
    C = Cs[int(np.argmax(means))]
    return _fit_weighted(clone(est).set_params(**{name: C}), Ktr, ytr, wtr), C


def degenerate_warning(who: str, where: list) -> None:
    """One DegenerateKernelWarning for a search or comparison whose fixed kernels were zero
    or constant (``where``: the fixes, with their gammas or folds), in place of one per fit:
    the fits catch theirs (process workers would print them where nobody reads)."""
    warn(f"{who}: the fixed kernel was zero or constant -- an SVM on it predicts "
         f"one class -- for {'; '.join(where)}. Their scores are those of a one-class "
         "rule; a kernel of another gamma (or, for the advanced shift, a larger "
         "rank) avoids them.", DegenerateKernelWarning,
         stacklevel=user_stacklevel())


def _as_list(name, values):
    """``param_grid[name]`` as a list: one value or more, never a string's letters."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise ValueError(f"param_grid[{name!r}] must be a list of values; got {values!r}.")
    values = list(values)
    if not values:
        raise ValueError(f"param_grid[{name!r}] is empty; give at least one value.")
    return values


def _positive(name, v, integer=False):
    """One value of ``param_grid[name]``: a finite number > 0 (a whole one where
    ``integer``), never a bool."""
    ok = (not isinstance(v, (bool, np.bool_))
          and isinstance(v, numbers.Integral if integer else numbers.Real)
          and np.isfinite(v) and v > 0)
    if not ok:
        kind = "whole numbers >= 1" if integer else "finite numbers > 0"
        raise ValueError(f"param_grid[{name!r}] holds {v!r}; its values must be {kind}.")
    return int(v) if integer else float(v)


def _fold(K, D, y, train, test, methods, param_grid, inner_cv, seed, sw=None):
    out = {}
    for name, est in methods.items():
        flat = Held(DegenerateKernelWarning)
        out[name] = flat.call(_fold_method, K, D, y, train, test, name, est, param_grid,
                              inner_cv, seed, sw) + (bool(flat.said),)
    return out


def _fold_method(K, D, y, train, test, name, est, param_grid, inner_cv, seed, sw):
    """(error, seconds, n_sv, chosen C or k, one class predicted) of one method on one
    fold."""
    Ktr, Kte = K[np.ix_(train, train)], K[np.ix_(test, train)]
    wte = None if sw is None else sw[test]
    t0 = time.perf_counter()
    if name == "k-NN" and inner_cv is None:  # too few samples for an inner search: k = 1
        model = clone(est).fit(D[np.ix_(train, train)], y[train])
        pred = model.predict(D[np.ix_(test, train)])
        err = _error(pred, y[test], wte)
        chosen = model.n_neighbors
    elif name == "k-NN":
        # unweighted neighbours (scikit-learn's k-NN takes no weights), weighted errors; the
        # k no larger than the smallest inner training fold
        splits = list(StratifiedKFold(inner_cv, shuffle=seed is not None,
                                      random_state=seed).split(train, y[train]))
        fewest = min(len(itr) for itr, _ in splits)
        model = GridSearchCV(est, {"n_neighbors": [k for k in (1, 3, 5, 7, 9)
                                                   if k <= fewest]}, cv=splits)
        model.fit(D[np.ix_(train, train)], y[train])
        pred = model.predict(D[np.ix_(test, train)])
        err = _error(pred, y[test], wte)
        chosen = model.best_params_["n_neighbors"]
    elif sw is not None:
        if param_grid:
            model, chosen = _weighted_C(est, Ktr, y[train], sw[train],
                                        list(param_grid.get("C", [1.0])), inner_cv, seed)
        else:
            model = _fit_weighted(clone(est), Ktr, y[train], sw[train])
            chosen = est.get_params().get(_c_param(est))
        pred = model.predict(Kte)
        err = _error(pred, y[test], wte)
    else:
        if param_grid:
            grid = {_c_param(est): list(param_grid.get("C", [1.0]))}
            model = GridSearchCV(clone(est), grid, cv=StratifiedKFold(
                inner_cv, shuffle=seed is not None, random_state=seed))
        else:
            model = clone(est)
        model.fit(Ktr, y[train])
        pred = model.predict(Kte)
        err = float(np.mean(pred != y[test]))
        chosen = (model.best_params_[_c_param(est)] if param_grid
                  else est.get_params().get(_c_param(est)))
    return (err, time.perf_counter() - t0, _n_sv(model), chosen,
            np.unique(pred).shape[0] == 1)


@dataclass
class RemedyComparison:
    """The outcome of :func:`compare_remedies`.

    Attributes
    ----------
    methods : list of str
    fold_errors : dict of str to ndarray
        Test error of each method on each outer fold.
    fit_seconds, n_sv : dict of str to float
        Mean over folds (``n_sv``: support vectors; all training samples for the Krein SVM,
        whose ``beta`` is dense; the training set for k-NN).
    chosen : dict of str to list
        ``C`` (or ``k``) chosen by the inner cross-validation on each fold.
    kernel : dict
        :func:`~indefsvm.check_kernel` figures of the whole kernel: verdict, ``lam_min``,
        ``lam_max``, signature ``(p, q)``, negative mass.
    cv : int
    n : int
    recommendation : str
        The method to try, with the evidence.
    recommended : str or None
        The name of that method (None when every method failed).

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=0.5)
    >>> cmp = isvm.compare_remedies(K, y, cv=3, random_state=0)
    >>> sorted(cmp.to_dict())[:3]
    ['chosen', 'cv', 'fit_seconds']
    """

    methods: list
    fold_errors: dict
    fit_seconds: dict
    n_sv: dict
    chosen: dict
    kernel: dict
    cv: int
    n: int
    recommendation: str = ""
    notes: list = field(default_factory=list)
    one_class: list = field(default_factory=list)
    recommended: str | None = None

    def mean_error(self, name: str) -> float:
        """Mean test error of a method over the folds.

        Parameters
        ----------
        name : str
            A method of :attr:`methods`.

        Returns
        -------
        float
        """
        return float(np.mean(self.fold_errors[name]))

    def _rows(self):
        rows = [("kernel", f"{self.kernel['verdict']}; lambda_min / lambda_max of K = "
                           f"{self.kernel['lam_min']:.4g} / {self.kernel['lam_max']:.4g}; "
                           f"centred J K J: (p, q) = ({self.kernel['p']}, "
                           f"{self.kernel['q']}), negative mass "
                           f"{self.kernel['negative_mass_text']}")]
        # the failed (one class in every fold) last: they are not ranked
        for name in sorted(self.methods,
                           key=lambda m: (m in self.one_class, self.mean_error(m))):
            e = self.fold_errors[name]
            size = (f"k {'/'.join(f'{c:g}' for c in self.chosen[name])}" if name == "k-NN"
                    else f"#SV {self.n_sv[name]:.0f}")
            flag = (", FAILED: one class predicted in every fold, not ranked"
                    if name in self.one_class else "")
            rows.append((name, f"error {100 * e.mean():5.2f} +/- {100 * e.std():5.2f} %, "
                               f"fit {self.fit_seconds[name]:.3f} s, {size}{flag}"))
        return rows

    def __str__(self) -> str:
        return render_text(f"Remedies compared ({self.cv}-fold CV, {self.n} samples)",
                           self._rows(), [self.recommendation] + list(self.notes))

    def _repr_html_(self) -> str:
        return render_html(f"Remedies compared ({self.cv}-fold CV, {self.n} samples)",
                           self._rows(), [html.escape(self.recommendation)] + list(self.notes))

    def to_dict(self) -> dict:
        """JSON-serialisable dictionary."""
        return {
            "methods": list(self.methods),
            "fold_errors": {k: [float(v) for v in e] for k, e in self.fold_errors.items()},
            "mean_error": {k: self.mean_error(k) for k in self.methods},
            "std_error": {k: float(np.std(self.fold_errors[k])) for k in self.methods},
            "fit_seconds": {k: float(v) for k, v in self.fit_seconds.items()},
            "n_sv": {k: float(v) for k, v in self.n_sv.items()},
            "chosen": {k: [float(c) if c is not None else None for c in v]
                       for k, v in self.chosen.items()},
            "kernel": dict(self.kernel),
            "cv": self.cv,
            "n": self.n,
            "recommendation": self.recommendation,
            "notes": list(self.notes),
            "one_class": list(self.one_class),
            "recommended": self.recommended,
        }


#: cheaper and simpler first: the order that breaks ties of the one-standard-error rule (no
#: decomposition and a sparse solution; no training; one extreme eigenvalue; a full
#: eigendecomposition; the same with a dense back-projection; a centred decomposition; a
#: matrix product)
#: the decision rule of compare_remedies and RemedySearchCV, chosen by evidence (the user
#: guide's table: 19 real tasks, "best" within 1 point of the best single method on 12,
#: "one-se" on 8)
DEFAULT_RULE = "best"


def choose_method(errors: dict, rule: str = DEFAULT_RULE) -> tuple[str, str, dict]:
    """The method of lowest mean error (``rule="best"``, the default), or the
    one-standard-error rule on paired per-fold differences (``rule="one-se"``).

    ``errors``: method -> test error on each fold (the same folds for every method).
    ``"best"``: the lowest mean error, exact ties only to the cheaper. ``"one-se"``: the
    method of lowest mean error is the reference; a method whose per-fold excess over it,
    ``d_f = err_method,f - err_best,f``, has a mean no larger than its standard error
    (``std(d, ddof=1) / sqrt(folds)``) is within one standard error, and among those the
    first in ``COST_ORDER`` (cheaper and simpler) is chosen. Pairing the folds removes what
    the folds share (a hard fold is hard for every method), which the spread of one method's
    errors does not. Returns ``(chosen, best, {method: (mean d, se)})``.
    """
    means = {k: float(np.mean(v)) for k, v in errors.items()}
    best = min(means, key=lambda k: (means[k], _rank(k)))
    paired = {}
    for k, v in errors.items():
        d = np.asarray(v, dtype=float) - np.asarray(errors[best], dtype=float)
        se = float(np.std(d, ddof=1) / np.sqrt(d.size)) if d.size > 1 else 0.0
        paired[k] = (float(d.mean()), se)
    slack = {"one-se": 1.0, "best": 0.0}[rule]
    within = [k for k, (md, se) in paired.items() if md <= slack * se + 1e-12]
    chosen = min(within, key=_rank)
    return chosen, best, paired


def ranked_errors(errors: dict, failed: list) -> dict:
    """The methods that are ranked: all but those that predicted one class in every fold
    (all of them if every method failed, so that a recommendation still names one)."""
    kept = {m: e for m, e in errors.items() if m not in failed}
    return kept or errors


def recommended(errors: dict, rule: str, failed) -> str | None:
    """The method :func:`_recommend` names (None when every method failed)."""
    if failed and set(errors) <= set(failed):
        return None
    return choose_method(ranked_errors(errors, list(failed)), rule)[0]


def failed_note(failed: list) -> str:
    """The note that says which methods failed, and why they are not ranked."""
    return (f"Failed (one class predicted on every test fold, not ranked): "
            f"{', '.join(failed)} -- such a model learned nothing (its error is the share of "
            "the other classes); try another C, another rank or check the kernel.")


def _rank(name: str) -> int:
    return COST_ORDER.index(name) if name in COST_ORDER else len(COST_ORDER)


def _recommend(errors: dict, how: str = DEFAULT_RULE, failed=()) -> str:
    if failed and set(errors) <= set(failed):
        return ("No recommendation: every method predicted one class on every test fold, so "
                "none learned anything at these parameters. Check the kernel "
                "(indefsvm.check_kernel: is it nearly constant, or on the wrong scale?) or "
                "search a wider grid (RemedySearchCV(param_grid=...)).")
    errors = ranked_errors(errors, list(failed))
    means = {k: float(np.mean(v)) for k, v in errors.items()}
    stds = {k: float(np.std(v)) for k, v in errors.items()}
    chosen, best, paired = choose_method(errors, how)
    rule = ("one standard error of the paired per-fold differences, the same folds for every "
            "method" if how == "one-se" else "the lowest mean error; exact ties to the cheaper")
    evidence = (f"lowest mean test error: {best} {100 * means[best]:.2f} +/- "
                f"{100 * stds[best]:.2f} % (standard deviation over the folds)")
    if _INDEF in errors and chosen != _INDEF:
        md, se = paired[_INDEF]
        evidence += (f"; the indefinite SVM {100 * means[_INDEF]:.2f} %, behind by "
                     f"{100 * md:.2f} +/- {100 * se:.2f} points")
    if chosen == best:
        cheaper = [k for k in errors if _rank(k) < _rank(best)]
        why = (f"ahead of every cheaper method ({', '.join(cheaper)}) by more than {rule}"
               if cheaper and how == "one-se" else
               f"the lowest mean error (rule: {rule})" if cheaper else
               f"the lowest mean error, and the cheapest method (rule: {rule})")
        # the runner-up, unless it is the indefinite SVM, already in the evidence
        others = [k for k in errors if k != best and (k != _INDEF or best == _INDEF)]
        if others:
            runner = min(others, key=lambda k: paired[k][0])
            md, se = paired[runner]
            evidence += (f"; next, {runner}, behind by {100 * md:.2f} +/- {100 * se:.2f} "
                         "points")
        head = ("keep the indefinite SVM (no fix of the kernel needed; its solution is sparse "
                "and uses the kernel as it is)" if chosen == _INDEF else chosen)
        return f"Recommendation: {head} -- {why}. Evidence: {evidence}."
    md, se = paired[chosen]
    head = ("keep the indefinite SVM" if chosen == _INDEF else chosen)
    within = (f"within {100 * se:.2f} points ({rule})" if how == "one-se"
              else f"a tie ({rule})")
    return (f"Recommendation: {head} -- {best} is ahead by {100 * md:.2f} points, {within}, "
            f"and {chosen} is cheaper and simpler. "
            f"Evidence: {evidence}.")


#: float64 matrices of a fold's size that compare_remedies' fold holds (its kernel, the
#: decompositions, the fixed kernels), and RemedySearchCV's task (the C paths too): measured;
#: and the search's refit of its choice on all the data (a fix's 6 and the kernel's check)
COMPARE_FOLD, SEARCH_FOLD, SEARCH_REFIT = 6.0, 8.5, 7.0


@options_checked({
    "D": ["array-like", None], "param_grid": [dict, None], "random_state": ["random_state"],
    "n_jobs": N_JOBS, "class_weight": [StrOptions({"balanced"}), dict, None],
    "sample_weight": ["array-like", None], "verbose": ["verbose"],
})
@sized_by(0, "K")
def compare_remedies(K, y, *, D=None, cv: int = 5, param_grid: dict | None = None,
                     random_state=None, n_jobs: int | None = None,
                     methods: list | None = None, class_weight=None, sample_weight=None,
                     verbose: bool = False) -> RemedyComparison:
    """Compare the answers to an indefinite kernel on the same stratified folds.

    The indefinite SVM (SMO on ``K`` as it is), the spectrum fixes clip, flip, shift and
    square (Chen et al., JMLR 2009) and their centred forms CNE and RNE (Haasdonk 2005) each
    followed by the SVM, the Krein SVM (Loosli, Canu & Ong 2016), and a k-nearest-neighbour
    rule on the distances; ``C`` (and ``k``) chosen by an inner 3-fold cross-validation when
    ``param_grid`` is given (2-fold where a class has only two samples in an outer training
    fold; where it has one, no inner search is possible: ``k = 1``, said in the notes, and a
    ``param_grid`` of several ``C`` is refused). The outer folds run through joblib, so
    ``with joblib.parallel_backend("dask"):`` spreads them over a cluster.

    Parameters
    ----------
    K : array-like of shape (n, n)
        Symmetric kernel (similarity) matrix.
    y : array-like of shape (n,)
        Labels (two or more classes).
    D : array-like of shape (n, n), optional
        Distances for the k-NN rule; default ``sqrt(max(K_ii + K_jj - 2 K_ij, 0))``.
    cv : int, default=5
        Outer stratified folds (a Python or NumPy integer).
    param_grid : dict, optional
        ``{"C": [...]}`` for the inner search; ``None``: ``C = 1``, ``k`` still searched.
        Any other key is an error: to tune the kernel's ``gamma`` too, and to get the
        chosen model refitted, use :class:`~indefsvm.RemedySearchCV`.
    random_state : int or None
        Seed of the fold shuffling; ``None``: no shuffling, stratified folds in the order of
        the samples (the folds of :class:`~indefsvm.RemedySearchCV` and of scikit-learn's
        ``cv=k``).
    n_jobs : int, optional
        Outer folds run in parallel (joblib's convention; ``None`` is one). On this
        machine's backends never more workers than folds or idle cores, and one below 1 000
        samples, where a worker's start costs more than it saves (measured); a Dask backend
        gets ``n_jobs`` as given.
    methods : list of str, optional
        A subset of the names of :func:`remedy_estimators` and ``"k-NN"``; the indefinite
        SVM is always included (it is the reference).
    class_weight : dict, "balanced" or None
        Class weights of every SVM (unbalanced classes); k-NN is unweighted.
    sample_weight : array-like of shape (n,), optional
        Weights (>= 0) of the samples, times ``class_weight``: every SVM of a fold gets
        ``C_i = C * weight`` (0 leaves the sample out), the inner search of C scores its
        folds by weighted accuracy, and every test fold's error is weighted -- the folds
        of :class:`~indefsvm.RemedySearchCV` ``.fit(K, y, sample_weight=w)``. k-NN ranks
        and votes its neighbours unweighted (said by a warning); its errors are weighted
        all the same. Each test fold needs a sample of weight > 0.
    verbose : bool, default=False
        Log each finished fold and its time (``logging.getLogger("indefsvm")``, INFO); the
        command line's progress bar reads these lines.

    Returns
    -------
    RemedyComparison
        A method that predicted a single class in every fold is listed in ``one_class`` and
        flagged in the table and the notes.

    Examples
    --------
    >>> import indefsvm as isvm
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=0.5)
    >>> cmp = isvm.compare_remedies(K, y, cv=3, random_state=0, methods=["flip"])
    >>> cmp.methods
    ['indefinite SVM', 'flip']
    """
    from ..diagnostics import check_kernel

    K = check_kernel_matrix(K, "K", warn_distances=True)
    y = np.asarray(y)
    n = K.shape[0]
    if y.shape != (n,):
        raise ParameterError(f"must have shape ({n},); got {y.shape}.", "y")
    check_label_vector(y)
    classes, counts = np.unique(y, return_counts=True)
    if classes.shape[0] < 2:
        raise ValueError("y holds one class only; give two or more.")
    if param_grid is not None:
        if not isinstance(param_grid, dict):
            raise ParameterError(f"must be a dict such as {{'C': [0.1, 1, 10]}}; got "
                                 f"{type(param_grid).__name__}.", "param_grid")
        extra = sorted(set(param_grid) - {"C"})
        if extra:
            raise ValueError(f"compare_remedies searches C only; param_grid has {extra}. "
                             "To tune the kernel's gamma (and per-method parameters) too, "
                             "use RemedySearchCV(kernel=DistanceKernel(), param_grid=...).")
        if "C" in param_grid:
            # checked here, once, in RemedySearchCV's words: inside the folds a bad C was
            # scikit-learn's "All the 3 fits failed" with a traceback per fit, and "abc"
            # was searched letter by letter
            param_grid = {"C": [_positive("C", v) for v in _as_list("C", param_grid["C"])]}
    if isinstance(cv, (bool, np.bool_)) or not isinstance(cv, numbers.Integral) or cv < 2 \
            or cv > counts.min():
        raise ParameterError(f"must be an integer from 2 to the smallest class size "
                             f"({counts.min()}); got {cv!r}.", "cv")
    cv = int(cv)
    sw = None
    if sample_weight is not None:
        from ..svm._weights import check_weights, sample_weight_vector

        sw = sample_weight_vector(sample_weight, n)
        check_weights(sw, np.searchsorted(classes, y))
    # None: no shuffling, as RemedySearchCV and scikit-learn's cv=k (the same folds)
    folds = list(StratifiedKFold(cv, shuffle=random_state is not None,
                                 random_state=random_state).split(K, y))
    # the inner search's stratified folds: at most 3, and no more than the fewest samples of
    # a class in any outer training fold (each inner fold needs one of every class)
    codes = np.searchsorted(classes, y)
    least = min(int(np.bincount(codes[tr], minlength=classes.size).min()) for tr, _ in folds)
    inner = min(3, least) if least >= 2 else None
    if inner is None:
        few = classes[int(np.argmin([min(np.sum(codes[tr] == c) for tr, _ in folds)
                                     for c in range(classes.size)]))]
        few = few.item() if isinstance(few, np.generic) else few  # 0, not np.int64(0)
        Cs = list(param_grid.get("C", [1.0])) if param_grid else [1.0]
        if len(Cs) > 1:
            raise ParameterError(f": the inner search of C needs two samples of every class in "
                                 f"each training fold; with {{cv}} a training fold holds one "
                                 f"sample of class {few!r}. Give one C ({{param_grid}}) or more "
                                 "samples of that class.", "param_grid",
                                 values={"cv": cv, "param_grid": {"C": [Cs[0]]}})
        param_grid = None
        methods_C = Cs[0]
    D_given = D is not None
    if D is None:
        d = np.diag(K)
        D = np.sqrt(np.maximum(d[:, None] + d[None, :] - 2 * K, 0.0))
    else:
        D = check_distance_matrix(D, "D (the k-NN distances)")
        if D.shape != K.shape:
            raise ValueError(f"D has shape {D.shape} but K has {K.shape}: the k-NN distances "
                             "are between the same samples as the kernel.")
    available = remedy_estimators(class_weight=class_weight)
    if methods is not None and (isinstance(methods, str) or not all(
            isinstance(m, str) for m in np.ravel(np.asarray(methods, dtype=object)))
            or np.ndim(np.asarray(methods, dtype=object)) != 1):
        raise ParameterError(f"must be a list of method names, e.g. ['clip', 'flip']; "
                             f"got {' '.join(repr(methods).split())[:80]}.", "methods")
    names = [_INDEF] + [m for m in (methods if methods is not None
                                    else list(available)[1:] + ["k-NN"]) if m != _INDEF]
    unknown = [m for m in names if m not in available and m != "k-NN"]
    if unknown:
        raise ValueError(f"unknown methods {unknown}; choose from "
                         f"{sorted(available) + ['k-NN']}.")
    if D_given and "k-NN" not in names:
        # D is read by k-NN alone: taken and not used
        raise ValueError(f"D gives the k-NN distances, and methods={list(methods)} has no "
                         "'k-NN': drop D, or add 'k-NN'.")
    square_out = None
    if methods is None and "square" in names:
        # K K of a kernel near 1e300 overflows (near 1e-170 it underflows): the default
        # comparison goes on without square, and says so; a square asked for by name fails
        # with SquareKernel's own error
        big = max(float(K.max()), -float(K.min()))
        if big > 0 and (np.log10(big) * 2 + np.log10(n) > 307 or big < 1e-150):
            names.remove("square")
            square_out = (f"square was left out: K K would {'underflow' if big < 1 else 'overflow'}"
                          f" float64 (the largest |K_ij| is {big:.3g}, n = {n}). Scale the "
                          "kernel (e.g. K / abs(K).max()) to compare it too.")
    ests = {m: (KNeighborsClassifier(metric="precomputed") if m == "k-NN" else available[m])
            for m in names}
    if inner is None:  # no inner search: k = 1 and the one C
        ests = {m: (est.set_params(n_neighbors=1) if m == "k-NN" else
                    est.set_params(**{_c_param(est): methods_C})) for m, est in ests.items()}
    if sw is not None:
        empty = [k for k, (_, te) in enumerate(folds, 1) if not sw[te].sum() > 0]
        if empty:
            raise ValueError(f"sample_weight is 0 on every sample of test fold {empty[0]}: "
                             "its error has no weight to be measured with. Give fewer folds "
                             "(cv) or weight more samples.")
        if "k-NN" in names:
            warn("sample_weight weights the SVM methods only: k-NN ranks and votes "
                 "its neighbours unweighted (scikit-learn's KNeighborsClassifier "
                 "takes no sample weights); its errors are weighted. Leave k-NN out "
                 "of methods to compare weighted models only.", UserWarning,
                 stacklevel=user_stacklevel())
    # the folds run in joblib's workers: at most the folds and the idle cores, and one
    # below SMALL_ROWS samples: measured on 2 idle cores (benchmarks/bench_workers.py, one
    # worker against two): 270 samples 1.1 s against 3.4 s, 600 2.8 against 4.8, 1 000 7.1
    # against 7.3, 1 600 25.9 against 17.2 (one worker's folds use both cores in the BLAS)
    workers = joblib_workers(n_jobs, len(folds), rows=n)
    # each fold's kernel, its decomposition and fixes, said before the work for the folds
    # that run at once (measured: 6 matrices of a fold's size beside the whole kernel's check)
    check_kernel_memory(n, folds_matrices(n, max(len(tr) for tr, _ in folds), len(folds),
                                          workers, COMPARE_FOLD), "compare_remedies")
    seed = None if random_state is None else int(np.random.RandomState(random_state).randint(
        2**31 - 1))
    from .._logging import enable, logger

    enable(verbose)
    t0 = time.perf_counter()
    per_fold = []
    # a generator: each fold is logged as it ends (in order), with joblib's workers
    for f in Parallel(n_jobs=workers, return_as="generator")(
            delayed(carried(_fold))(K, D, y, tr, te, ests, param_grid, inner, seed, sw)
            for tr, te in folds):
        per_fold.append(f)
        if verbose:
            logger.info("compare_remedies: fold %d of %d done (%.1f s)", len(per_fold), cv,
                        time.perf_counter() - t0)
    errors = {m: np.array([f[m][0] for f in per_fold]) for m in names}
    rep = check_kernel(K)
    mass = rep.signature.negative_mass
    kernel = {"verdict": rep.verdict, "lam_min": rep.lam_min, "lam_max": rep.lam_max,
              "p": rep.signature.p, "q": rep.signature.q, "negative_mass": mass,
              "negative_mass_text": "n/a" if mass is None else f"{100 * mass:.3g} %"}
    out = RemedyComparison(
        methods=names, fold_errors=errors,
        fit_seconds={m: float(np.mean([f[m][1] for f in per_fold])) for m in names},
        n_sv={m: float(np.mean([f[m][2] for f in per_fold])) for m in names},
        chosen={m: [f[m][3] for f in per_fold] for m in names}, kernel=kernel, cv=cv, n=n)
    flat = {m: sum(f[m][5] for f in per_fold) for m in names}
    if any(flat.values()):
        degenerate_warning("compare_remedies", [
            m + ("" if k == cv else f" (in {k} of {cv} folds)") for m, k in flat.items() if k])
    out.one_class = [m for m in names if all(f[m][4] for f in per_fold)]
    out.recommendation = _recommend(errors, failed=out.one_class)
    out.recommended = recommended(errors, DEFAULT_RULE, out.one_class)
    if out.one_class:
        out.notes.append(failed_note(out.one_class))
    if sw is not None:
        out.notes.append("Errors weighted by sample_weight: each test fold's error is the "
                         "weight of its misclassified samples over its total weight; the "
                         "SVMs were trained with C_i = C x weight.")
    if inner is None and "k-NN" in names:
        out.notes.append(f"k = 1, not searched: a training fold holds one sample of class "
                         f"{few!r}, and an inner cross-validation needs two.")
    if square_out:
        out.notes.append(square_out)
    if "Krein SVM" in names and "flip" in names:
        out.notes.append("The Krein SVM and flip make the same decisions (the Krein SVM "
                         "predicts with the original kernel and back-projected coefficients, "
                         "flip transforms the test rows); they differ in cost, not accuracy.")
    return out
