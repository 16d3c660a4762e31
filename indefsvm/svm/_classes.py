"""The LIBSVM family on indefinite kernels: C-SVC, nu-SVC, epsilon-SVR, nu-SVR, one-class SVM.

Each estimator hands one instance of LIBSVM's general dual

    min 1/2 a'Qa + p'a   s.t.  y'a = Delta  (or one sum per class),  0 <= a_i <= C_i,

to the same compiled SMO (rule (27) of Lin & Lin (2003) for the concave sub-problems), and
reads the solution the way LIBSVM does (Chang & Lin, *LIBSVM: a library for support vector
machines*, 2011, sections 2-4 and 6-7).
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import OutlierMixin, RegressorMixin, _fit_context
from sklearn.utils import check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.validation import column_or_1d

from .. import _constraints as _c
from .._interrupt import unfitted_on_interrupt
from .._logging import logger, solver_progress
from .._threads import effective_threads
from .._validation import user_stacklevel
from .._warn import warn
from ..exceptions import ConvergenceWarning
from ..kernels import kernel_matrix
from ..solvers import kernel_adatron, lsvm, m3, munk
from ..solvers._smo import (
    _initial_alpha,
    check_restarts_memory,
    csvc_problem,
    random_feasible_alpha,
    solve_dual,
    solve_duals,
    stop_message,
)
from ._base import SVMBase, max_iter_of
from ._classifier import _ClassifierBase
from ._dual import one_class_problems, svr_problems

_SOLVERS = ("smo", "munk", "m3", "kernel_adatron", "lsvm")


def _greedy_alpha(C_i, total):
    """LIBSVM's start for the nu forms: fill alpha_i = min(C_i, what is left of ``total``)
    in sample order, so that sum(alpha) = total and 0 <= alpha <= C."""
    alpha = np.zeros(C_i.shape[0])
    left = float(total)
    for i in range(C_i.shape[0]):
        if left <= 0:
            break
        alpha[i] = min(C_i[i], left)
        left -= alpha[i]
    return alpha


def _nu_rho(grad, alpha, C_i, y):
    """(rho, r) of the nu-SVC dual (LIBSVM's Solver_NU): r1, r2 are the mean gradient over
    the free variables of each class (the midpoint of the bounds when none is free)."""
    out = []
    for sign in (1.0, -1.0):
        cls = y == sign
        free = cls & (alpha > 0) & (alpha < C_i)
        if free.any():
            out.append(float(np.mean(grad[free])))
            continue
        at_up = cls & (alpha >= C_i)
        at_low = cls & ~at_up
        lb = float(np.max(grad[at_up])) if at_up.any() else -np.inf
        ub = float(np.min(grad[at_low])) if at_low.any() else np.inf
        out.append(0.5 * (lb + ub) if np.isfinite(lb + ub) else (lb if np.isfinite(lb) else ub))
    r1, r2 = out
    return 0.5 * (r1 - r2), 0.5 * (r1 + r2)


class _SaysWhereProbabilitiesAre(type):
    """Metaclass of the classifiers: ``IndefiniteSVC(probability=True)`` -- SVC's keyword,
    which Python would refuse with a bare "unexpected keyword" before any code of ours runs --
    says where calibrated probabilities live. ``__signature__`` keeps the class's signature
    that of ``__init__``, which scikit-learn's checks read."""

    def __call__(cls, *args, **kwargs):
        if "probability" in kwargs and "probability" not in cls.__signature__.parameters:
            raise TypeError(
                f"{cls.__name__} has no probability parameter (scikit-learn 1.9 deprecated "
                "SVC(probability=True) too). Calibrated probabilities: CalibratedClassifierCV("
                f"{cls.__name__}(...), ensemble=False).fit(X, y).predict_proba(X) -- Platt "
                "scaling on cross-validation folds, what LIBSVM's -b 1 does.")
        return super().__call__(*args, **kwargs)

    @property
    def __signature__(cls):
        import inspect

        sig = inspect.signature(cls.__init__)
        return sig.replace(parameters=list(sig.parameters.values())[1:])


def warn_if_stopped(results, max_iter, tol):
    """One ConvergenceWarning for runs stopped by max_iter, worded as SVC's (then the gap)."""
    stalled = [r for r in results if not r.converged and r.status.startswith("stalled")]
    if stalled:
        r = max(stalled, key=lambda r: r.kkt_gap)
        warn(stop_message(4, r.kkt_gap, tol, max_iter), ConvergenceWarning,
             stacklevel=user_stacklevel())
    stopped = [r for r in results if not r.converged and not r.status.startswith("stalled")]
    if stopped:
        gap = max(r.kkt_gap for r in stopped)
        shown = max(r.n_iter for r in stopped)
        warn(
            f"Solver terminated early (max_iter={shown if max_iter is None else max_iter}).  "
            "Consider pre-processing your data with StandardScaler or MinMaxScaler. The KKT "
            f"gap m - M is {gap:.3g}, above tol={tol:g}: increase max_iter (or tol) for a "
            "stationary point.", ConvergenceWarning, stacklevel=user_stacklevel())


#: a regression's tol above this fraction of the targets' spread is said to be loose
TOL_OF_SPREAD = 1e-2


def warn_if_tol_loose(y, tol, converged: bool) -> None:
    """One UserWarning when ``tol`` is not small against the targets' spread.

    The regressions stop when the KKT gap ``m - M`` (in the targets' units: the gradient is
    ``Q beta + eps -/+ y``) is at most ``tol``, an absolute figure that LIBSVM sets for
    targets near 1. On targets spread over ``ptp(y) < tol / TOL_OF_SPREAD`` the rule holds
    far from the solution (targets in 1e-4 units: 0 iterations, predictions off by half the
    spread), so the fit says it, with the fix. Not a ConvergenceWarning: the rule held, and
    the searches count those as fits stopped by ``max_iter``."""
    spread = float(np.ptp(y)) if y.size else 0.0
    if converged and spread > 0 and tol > TOL_OF_SPREAD * spread:
        warn(
            f"tol={tol:g} is {tol / spread:.3g} of the targets' spread ({spread:.3g}): the "
            "stopping rule m - M <= tol is in the targets' units, so the fit may stop far "
            "from the solution and its predictions be off by up to about tol. Scale y (e.g. "
            "TransformedTargetRegressor with StandardScaler) or give tol <= "
            f"{spread * 1e-4:.3g}.", UserWarning, stacklevel=user_stacklevel())


class IndefiniteSVC(_ClassifierBase, metaclass=_SaysWhereProbabilitiesAre):
    """C-support vector classifier for kernels that need not be positive semi-definite.

    Trains the dual (2) of Lin & Lin (2003) -- LIBSVM's C-SVC with per-sample bounds
    ``C_i = C * class_weight[y_i] * sample_weight_i`` -- by SMO with their rule (27) for
    concave sub-problems, so it stops at a stationary point whatever the kernel: sigmoid,
    distance substitution kernels (DTW, edit, tangent, KL), ``l1_gaussian`` or any hand-made
    similarity. On PSD kernels it gives what :class:`sklearn.svm.SVC` gives. Multi-class
    problems are solved one-vs-one, as in ``SVC``. For probabilities wrap it in
    :class:`sklearn.calibration.CalibratedClassifierCV` (scikit-learn's own advice since
    ``SVC(probability=True)`` was deprecated); see the user guide.

    Parameters
    ----------
    kernel : str or callable, default="rbf"
        ``"linear"``, ``"polynomial"`` (``"poly"``), ``"rbf"``, ``"sigmoid"``,
        ``"l1_gaussian"``, ``"sqrt_l1_exponential"``, ``"symmetric_kl"``,
        ``"pseudo_euclidean"``, ``"precomputed"`` (``X`` is then the kernel matrix,
        ``(n_samples, n_samples)`` in ``fit`` and ``(n_test, n_train)`` afterwards), or a
        callable ``k(X, Y) -> (n_X, n_Y)`` array (X may then be anything the callable reads:
        strings, graphs), or ``"gak"``, the global alignment kernel of series (Cuturi 2011,
        eq. 4; positive definite), computed on ``X`` as series -- a 2-D array or a list of
        unequal lengths -- by :func:`~indefsvm.kernel_matrix`; its ``kernel_params`` are
        ``sigma`` (None: Cuturi's rule on the training series, fixed at fit and shown in
        ``kernel_params_``) and ``window``. Named kernels of features except
        ``pseudo_euclidean`` are evaluated in C, column by column, so the n x n matrix is
        never formed.
    C : float, default=1.0
        Box bound of the dual, > 0. ``np.inf`` (hard margin) is accepted; when the objective is
        then unbounded below (Thm 5, Thm 10, or any divergence) the fit stops and raises
        :class:`~indefsvm.UnboundedObjectiveError`.
    gamma : {"scale", "auto"} or float, default="scale"
        Kernel coefficient (the slope ``a`` of the sigmoid, which may be negative; >= 0 for
        the distance kernels). ``"scale"``: ``1 / (n_features * X.var())``; ``"auto"``:
        ``1 / n_features`` (Lin & Lin's choice).
    coef0 : float, default=0.0
        ``r`` of the sigmoid and ``coef0`` of the polynomial kernel.
    degree : int, default=3
        Degree of the polynomial kernel.
    solver : {"smo", "munk", "m3", "kernel_adatron", "lsvm"}, default="smo"
        Optimisation algorithm. ``"smo"`` solves problem (2) with the bias (any kernel).
        ``"munk"`` (non-negative kernels only), ``"m3"`` and ``"kernel_adatron"`` solve problem
        (4) of Sha, Saul & Lee (2002): no bias, and ``intercept_`` is 0. ``"lsvm"`` is the
        Lagrangian SVM of Mangasarian & Musicant (2001) with ``nu = C``: it works on the
        augmented inputs ``[x, -1]``; ``intercept_`` is 0 and a precomputed kernel must be
        the kernel of the augmented inputs. ``lsvm`` needs ``Q = I/C + DKD`` positive
        definite. Sample and class weights that differ between samples need ``"smo"``.
    tol : float, default=1e-3
        Stop when the KKT gap ``m - M`` (Lin & Lin 2003, (21)) is ``<= tol``.
    max_iter : int, optional
        Iteration cap of each binary problem; ``None`` (or -1, scikit-learn's spelling) means
        the finite ``max(10_000_000, 100 * n_samples)``. A ``ConvergenceWarning`` is emitted
        when it stops a run.
    fit_intercept : bool, default=True
        Keep the bias ``b`` and the constraint ``y'alpha = 0`` (problem (2)). ``False`` solves
        problem (19) of Lin & Lin (box constraints only, ``intercept_ = 0``) by a compiled
        one-variable loop that, where ``Q_ii <= 0``, moves to the bound that lowers the
        objective. With ``C = inf`` a negative ``K_ii`` makes (19) unbounded (Thm 10): the
        fit then raises :class:`~indefsvm.UnboundedObjectiveError`.
    n_restarts : int, default=0
        Extra SMO runs from random feasible points; the lowest objective is kept (Lin & Lin
        2003, Fig. 5). Only with ``solver="smo"`` and ``fit_intercept=True`` (refused with
        the others); every start is kept until the best is chosen, about 170 bytes a start
        and a sample, said before the work where that is more than the memory available.
    random_state : int, RandomState or None, default=None
        Seed of the random starts.
    cache_size : float, default=200
        Kernel column cache in megabytes (float32 columns with a float64 polish, see
        :func:`indefsvm.solvers.smo`).
    shrinking : bool, default=True
        Use LIBSVM's shrinking heuristic.
    wss : {"second_order", "first_order"}, default="second_order"
        Working-set selection; see :func:`indefsvm.solvers.smo`.
    init : {"zero", "class_balanced"}, default="zero"
        Starting point of the first run.
    kernel_params : dict, optional
        Extra kernel parameters: ``p`` for ``pseudo_euclidean``, ``sigma`` instead of
        ``gamma``, ``sigma`` and ``window`` for ``"gak"``, keyword arguments of a callable
        kernel. An entry ``gamma``, ``coef0`` or
        ``degree`` takes the place of the option at its default; beside the option set to
        another value it is refused (given twice).
    class_weight : dict or "balanced", optional
        Multiplies ``C`` for the samples of each class (``{label: weight}``); ``"balanced"``
        uses ``n_samples / (n_classes * np.bincount(y))``. Stored as ``class_weight_``.
    decision_function_shape : {"ovr", "ovo"}, default="ovr"
        Shape of ``decision_function`` for more than two classes, as in ``SVC``.
    break_ties : bool, default=False
        With ``"ovr"`` and more than two classes, predict the argmax of the decision values
        instead of the one-vs-one vote (whose ties go to the first class).
    verbose : bool, default=False
        Log (``logging.getLogger("indefsvm")``, INFO, shown on stderr when nothing else
        handles it) a line every few seconds while a problem is solved -- iteration,
        objective, KKT gap, elapsed time -- and a summary of each binary problem.
    n_jobs : int, default=None
        Threads (OpenMP) for the fit and the prediction, as scikit-learn spells it: ``None``
        means 1 unless inside a ``joblib.parallel_config(n_jobs=...)`` context, ``-1`` all
        cores; capped by the OpenMP limit (``OMP_NUM_THREADS``, ``threadpoolctl``). The
        one-vs-one problems and the restarts are shared among the threads; a single problem
        computes its kernel columns on them; prediction, the checks of a precomputed kernel
        and the kernel blocks of ``decision_function`` use them too. The results do not
        depend on it (each problem is solved exactly as on one thread).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    class_weight_ : ndarray of shape (n_classes,)
    alpha_ : ndarray of shape (n_samples,) or (n_pairs, n_samples)
        Dual variables of all training samples (0 for samples outside a pair).
    dual_coef_ : ndarray or sparse matrix of shape (n_classes - 1, n_SV)
        ``y_i alpha_i`` of the support vectors, in LIBSVM's one-vs-one layout (CSR after a
        sparse fit, as in ``SVC``).
    support_ : ndarray of shape (n_SV,)
        Indices of the support vectors, grouped by class.
    support_vectors_ : ndarray or sparse matrix of shape (n_SV, n_features)
        Empty for ``kernel="precomputed"`` and callable kernels.
    n_support_ : ndarray of shape (n_classes,)
    coef_ : ndarray of shape (n_pairs, n_features)
        ``kernel="linear"`` only.
    intercept_ : ndarray of shape (n_pairs,)
        Bias ``b`` of each binary problem.
    objective_, kkt_gap_ : float or ndarray of shape (n_pairs,)
        Dual objective ``F(alpha)`` and KKT gap ``m - M`` at the solution.
    n_iter_ : ndarray of shape (n_pairs,)
        Iterations of each binary problem (one entry for two classes, as in ``SVC``).
    converged_ : bool or ndarray of shape (n_pairs,)
        Whether the KKT gap reached ``tol`` (recomputed from scratch at the end).
    history_ : ndarray of shape (n_records, 2) or list of them
        ``(iteration, objective)`` samples; non-increasing (Lemma 3 of Lin & Lin 2003).
    fit_status_ : int
        0 if every binary problem converged, 1 otherwise.
    solver_results_ : list of SolverResult
        Full result of each binary problem.
    shape_fit_ : tuple
    n_features_in_ : int

    Notes
    -----
    Binary problems use ``y = +1`` for ``classes_[1]``, so ``decision_function > 0`` means
    ``classes_[1]``, as in ``SVC``. For a pair ``(a, b)``, ``a < b``, of a multi-class problem
    ``y = +1`` is class ``a``: a positive ``"ovo"`` decision value means ``a`` and
    ``dual_coef_`` has SVC's signs and layout. Samples whose weight is 0 take no part (as in
    LIBSVM); negative weights are refused.

    With an indefinite kernel the dual is non-convex: the solution is a stationary point that
    depends on the start. Check it with :func:`indefsvm.sanity_report`.

    References
    ----------
    H.-T. Lin and C.-J. Lin, *A study on sigmoid kernels for SVM and the training of non-PSD
    kernels by SMO-type methods*, 2003, section 6.
    C.-C. Chang and C.-J. Lin, *LIBSVM: a library for support vector machines*, 2011.

    Examples
    --------
    >>> import indefsvm as isvm
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> clf = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, C=10).fit(X, y)
    >>> bool(clf.converged_), round(clf.score(X, y), 2)
    (True, 0.86)
    """

    _parameter_constraints: dict = {
        **_ClassifierBase._parameter_constraints,
        "C": _c.C,
        "solver": [StrOptions(set(_SOLVERS))],
        "fit_intercept": ["boolean"],
        "n_restarts": [Interval(numbers.Integral, 0, None, closed="left")],
        "init": [StrOptions({"zero", "class_balanced"})],
    }

    def __init__(
        self,
        *,
        kernel="rbf",
        C=1.0,
        gamma="scale",
        coef0=0.0,
        degree=3,
        solver="smo",
        tol=1e-3,
        max_iter=None,
        fit_intercept=True,
        n_restarts=0,
        random_state=None,
        cache_size=200,
        shrinking=True,
        wss="second_order",
        init="zero",
        kernel_params=None,
        class_weight=None,
        decision_function_shape="ovr",
        break_ties=False,
        verbose=False,
        n_jobs=None,
    ):
        self.kernel = kernel
        self.C = C
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.solver = solver
        self.tol = tol
        self.max_iter = max_iter
        self.fit_intercept = fit_intercept
        self.n_restarts = n_restarts
        self.random_state = random_state
        self.cache_size = cache_size
        self.shrinking = shrinking
        self.wss = wss
        self.init = init
        self.kernel_params = kernel_params
        self.class_weight = class_weight
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.verbose = verbose
        self.n_jobs = n_jobs

    #: the settings of SMO with the bias (problem (2)) and their defaults: the other solvers
    #: and fit_intercept=False (problem (19)) make no restarts, select no working set, keep
    #: no kernel cache and start from zero
    _SMO_SETTINGS = (("n_restarts", 0), ("wss", "second_order"), ("shrinking", True),
                     ("init", "zero"), ("cache_size", 200))

    def _check_settings(self):
        """Beside the base's rules: the settings of SMO with the bias (restarts, working-set
        selection, shrinking, start, cache) given to a solver that has none of them:
        refused, not ignored."""
        super()._check_settings()
        if self.solver == "smo" and self.fit_intercept:
            return
        given = [f"{name}={getattr(self, name)!r}" for name, default in self._SMO_SETTINGS
                 if getattr(self, name) != default]
        if given:
            raise ValueError(
                f"{', '.join(given)} {'needs' if len(given) == 1 else 'need'} solver='smo' "
                f"with fit_intercept=True (the SMO of problem (2): its restarts, working "
                f"sets, shrinking, start and kernel cache); solver={self.solver!r}, "
                f"fit_intercept={self.fit_intercept} has none of them. Leave "
                f"{'it' if len(given) == 1 else 'them'} at the default, or use solver='smo' "
                "and fit_intercept=True.")

    def _sparse_path(self) -> bool:
        # only SMO with the bias reads CSR rows itself; the other solvers need the matrix
        return self.solver == "smo" and self.fit_intercept and super()._sparse_path()

    def _solver_inputs(self, X):
        """LSVM works on the augmented inputs G = [X, -1] (Mangasarian & Musicant 2001)."""
        if self.solver == "lsvm" and self.fit_intercept and self.kernel != "precomputed" \
                and not callable(self.kernel):
            return np.c_[X, -np.ones(X.shape[0])]
        return X

    def _compiled_kernel(self):
        # LSVM's kernel reads the augmented inputs [x, -1]: the numpy blocks below
        return None if self.solver == "lsvm" else super()._compiled_kernel()

    def _kernel_block(self, Xb):
        if self.solver == "lsvm" and not callable(self.kernel) and self.kernel != "precomputed":
            return kernel_matrix(self._solver_inputs(Xb),
                                 self._solver_inputs(self.support_vectors_),
                                 kernel=self._kernel_name(), **self._kernel_params_fitted)
        return super()._kernel_block(Xb)

    @unfitted_on_interrupt
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the classifier.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data, or the kernel matrix (n_samples, n_samples) if
            ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Class labels (two or more classes).
        sample_weight : array-like of shape (n_samples,), optional
            Per-sample weights (>= 0, finite): ``C_i = C * class_weight * sample_weight_i``.
            A sample of weight 0 takes no part.

        Returns
        -------
        self : IndefiniteSVC
        """
        data, y_idx, w = self._fit_classes(X, y, sample_weight)
        data, kern, kp = self._solver_data(data)
        max_iter = max_iter_of(self.max_iter)
        C_all = float(self.C) * w
        members = self._pairs_of(y_idx, w)
        smo_bias = self.solver == "smo" and self.fit_intercept
        if not smo_bias and not np.allclose(w[w > 0], w[w > 0][0], rtol=0, atol=0):
            raise ValueError(
                f"sample_weight and class_weight that differ between samples need "
                f"solver='smo' with fit_intercept=True (per-sample bounds C_i); "
                f"solver={self.solver!r}, fit_intercept={self.fit_intercept} take one C.")
        K_full = None
        if not smo_bias and kern != "precomputed":
            K_full = kernel_matrix(self._solver_inputs(data), kernel=kern, **kp)
        rng = check_random_state(self.random_state)
        n = y_idx.shape[0]
        signs = [np.where(y_idx[idx] == pos_class, 1.0, -1.0)
                 for _, _, pos_class, idx in members]
        if smo_bias:
            # every one-vs-one problem (and restart) in one compiled call
            check_restarts_memory(int(self.n_restarts),
                                  sum(idx.shape[0] for *_, idx in members),
                                  f"{type(self).__name__}.fit")
            problems = []
            for (_, _, _, idx), y_pm in zip(members, signs, strict=True):
                C_pair = C_all[idx]
                starts = [_initial_alpha(self.init, y_pm, C_pair)]
                starts += [random_feasible_alpha(y_pm, C_pair, rng)
                           for _ in range(int(self.n_restarts))]
                problems.append(csvc_problem(y_pm, C_pair, starts, idx=idx, n=n))
            results = solve_duals(
                data, problems, kernel=kern, kernel_params=kp, tol=self.tol, wss=self.wss,
                shrinking=self.shrinking, max_iter=max_iter, cache_size=self.cache_size,
                check_input=False, progress=self._pair_progress(members),
                task_done=self._start_logger(len(problems) * (1 + int(self.n_restarts))),
                n_threads=effective_threads(self.n_jobs))
        else:
            results = []
            for (_, _, _, idx), y_pm in zip(members, signs, strict=True):
                src = data if K_full is None else K_full
                Kp = src if idx.shape[0] == n else src[np.ix_(idx, idx)]
                Cs = float(C_all[idx][0])
                if self.solver == "smo":
                    res = kernel_adatron(Kp, y_pm, C=Cs, tol=self.tol, max_iter=max_iter)
                elif self.solver == "lsvm":
                    if not np.isfinite(Cs):
                        raise ValueError(
                            "solver='lsvm' needs a finite C: it is the nu of the Lagrangian "
                            "SVM, the weight of its squared errors, and the method has no "
                            "hard-margin form (Q = I/nu + DKD). Use a finite C or solver='smo'.")
                    res = lsvm(Kp, y_pm, nu=Cs, tol=self.tol, max_iter=max_iter)
                else:
                    solve = {"munk": munk, "m3": m3, "kernel_adatron": kernel_adatron}[
                        self.solver]
                    res = solve(Kp, y_pm, C=Cs, tol=self.tol, max_iter=max_iter)
                results.append(res)
        if self.verbose:
            for (a, b, _, _), res in zip(members, results, strict=True):
                logger.info("classes %s vs %s:\n%s", self.classes_[a], self.classes_[b], res)
        alphas = [r.alpha for r in results]
        coefs = [r.alpha * y_pm for r, y_pm in zip(results, signs, strict=True)]
        intercepts = [r.b for r in results]
        self._pair_bounds = [C_all[idx] for _, _, _, idx in members]
        if smo_bias:
            warn_if_stopped(results, max_iter, self.tol)
        self._store_pairs(data, y_idx, members, alphas, coefs, intercepts, results)
        return self

    def _start_logger(self, total: int):
        """With ``verbose``: a log record after each start of each problem, "IndefiniteSVC:
        start k of total" (what a progress bar over the restarts listens to, as the
        landmark model's bar listens to its steps); None otherwise."""
        if not self.verbose:
            return None
        done = [0]

        def task_done():
            done[0] += 1
            logger.info("IndefiniteSVC: start %d of %d", done[0], total)

        return task_done

class IndefiniteNuSVC(_ClassifierBase, metaclass=_SaysWhereProbabilitiesAre):
    """nu-support vector classifier for kernels that need not be PSD.

    LIBSVM's nu-SVC (Schoelkopf et al. 2000; Chang & Lin 2001): ``min 1/2 a'Qa`` with
    ``0 <= a_i <= C_i`` (``C_i`` = class weight times sample weight) and the sum of ``a``
    fixed at ``nu * sum(C_i) / 2`` in each class, solved by the same SMO as
    :class:`IndefiniteSVC` with pairs taken inside one class (rule (27) of Lin & Lin 2003
    for the concave sub-problems). The solution is rescaled as LIBSVM does (by ``r``, the
    common margin value), so ``dual_coef_`` and ``intercept_`` are those of ``NuSVC``.
    ``nu`` is an upper bound on the fraction of margin errors and a lower bound on the
    fraction of support vectors (for PSD kernels).

    Parameters
    ----------
    nu : float, default=0.5
        In (0, 1]; infeasible values (``nu * (n_a + n_b) / 2 > min(n_a, n_b)`` for a pair of
        classes, with weighted counts) raise ``ValueError``.
    kernel, gamma, coef0, degree, tol, max_iter, cache_size, shrinking, wss, kernel_params, \
class_weight, decision_function_shape, break_ties, random_state, verbose, n_jobs
        As in :class:`IndefiniteSVC`.

    Attributes
    ----------
    classes_, class_weight_, dual_coef_, support_, support_vectors_, n_support_, coef_, \
intercept_, n_iter_, fit_status_, objective_, kkt_gap_, converged_, solver_results_ : \
see :class:`IndefiniteSVC`
        ``objective_`` is that of the unscaled problem ``1/2 a'Qa``.
    alpha_, history_, shape_fit_, n_features_in_
        See :class:`IndefiniteSVC`.

    Examples
    --------
    >>> import indefsvm as isvm
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> clf = isvm.IndefiniteNuSVC(nu=0.3, kernel="sigmoid", gamma=0.01, coef0=-0.5)
    >>> bool(clf.fit(X, y).converged_)
    True
    """

    _libsvm_name = "NuSVC"

    _dual_name = "nu-SVC"

    _parameter_constraints: dict = {
        **_ClassifierBase._parameter_constraints,
        "nu": [Interval(numbers.Real, 0.0, 1.0, closed="right")],
    }

    def __init__(
        self,
        *,
        nu=0.5,
        kernel="rbf",
        gamma="scale",
        coef0=0.0,
        degree=3,
        tol=1e-3,
        max_iter=None,
        random_state=None,
        cache_size=200,
        shrinking=True,
        wss="second_order",
        kernel_params=None,
        class_weight=None,
        decision_function_shape="ovr",
        break_ties=False,
        verbose=False,
        n_jobs=None,
    ):
        self.nu = nu
        self.kernel = kernel
        self.gamma = gamma
        self.coef0 = coef0
        self.degree = degree
        self.tol = tol
        self.max_iter = max_iter
        self.random_state = random_state
        self.cache_size = cache_size
        self.shrinking = shrinking
        self.wss = wss
        self.kernel_params = kernel_params
        self.class_weight = class_weight
        self.decision_function_shape = decision_function_shape
        self.break_ties = break_ties
        self.verbose = verbose
        self.n_jobs = n_jobs

    @unfitted_on_interrupt
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the nu-SVC.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data, or the (n_samples, n_samples) kernel for ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Class labels.
        sample_weight : array-like of shape (n_samples,), optional
            Per-sample weights (>= 0): the bound ``C_i`` of each sample.

        Returns
        -------
        self : IndefiniteNuSVC
        """
        data, y_idx, w = self._fit_classes(X, y, sample_weight)
        data, kern, kp = self._solver_data(data)
        max_iter = max_iter_of(self.max_iter)
        members = self._pairs_of(y_idx, w)
        nu = float(self.nu)
        for a, b, _, idx in members:
            na, nb = w[idx][y_idx[idx] == a].sum(), w[idx][y_idx[idx] == b].sum()
            if nu * (na + nb) / 2 > min(na, nb) * (1 + 1e-12):
                raise ValueError(
                    f"specified nu is infeasible: nu={nu:g} needs nu * (n_a + n_b) / 2 <= "
                    f"min(n_a, n_b) for classes {self.classes_[a]} (weighted count {na:g}) "
                    f"and {self.classes_[b]} ({nb:g}); give nu <= "
                    f"{2 * min(na, nb) / (na + nb):.4g}.")
        n = y_idx.shape[0]
        problems, signs = [], []
        for _, _, pos_class, idx in members:
            y_pm = np.where(y_idx[idx] == pos_class, 1.0, -1.0)
            C_pair = w[idx]
            half = nu * C_pair.sum() / 2
            alpha0 = np.zeros(idx.shape[0])
            for sign in (1.0, -1.0):
                cls = y_pm == sign
                alpha0[cls] = _greedy_alpha(C_pair[cls], half)
            signs.append(y_pm)
            problems.append({"y": y_pm, "p": np.zeros(idx.shape[0]), "C": C_pair,
                             "alpha0": alpha0,
                             "sample_of": None if idx.shape[0] == n else idx})
        results = solve_duals(
            data, problems, same_class=True, kernel=kern, kernel_params=kp, tol=self.tol,
            wss=self.wss, shrinking=self.shrinking, max_iter=max_iter,
            cache_size=self.cache_size, check_input=False,
            progress=self._pair_progress(members), n_threads=effective_threads(self.n_jobs))
        alphas, coefs, intercepts = [], [], []
        self._nu_r = []
        for (_, _, _, idx), y_pm, res in zip(members, signs, results, strict=True):
            C_pair = w[idx]
            rho, r = _nu_rho(res.extra["grad"], res.alpha, C_pair, y_pm)
            if not r > 0:
                raise ValueError(
                    f"nu-SVC found no margin (r = {r:.3g} <= 0) for this pair of classes: the "
                    "kernel gives the two classes no positive separation at the stationary "
                    "point found. Try another nu, or IndefiniteSVC.")
            res.b = -rho / r
            self._nu_r.append(r)
            alphas.append(res.alpha)
            coefs.append(res.alpha * y_pm / r)
            intercepts.append(-rho / r)
        self._pair_bounds = [w[idx] for _, _, _, idx in members]
        warn_if_stopped(results, max_iter, self.tol)
        self._store_pairs(data, y_idx, members, alphas, coefs, intercepts, results)
        return self


class _SingleModel(SVMBase):
    """One dual for the whole data (regression, one-class): the attributes SVR and
    OneClassSVM have."""

    def _store_single(self, data, coef, b, res):
        support = np.flatnonzero(coef != 0).astype(np.int32)
        self.support_ = support
        self._n_support = np.array([support.shape[0]], dtype=np.int32)
        self._dual_coef_dense = coef[support][None, :]
        self.dual_coef_ = self._dual_coef_out(self._dual_coef_dense)
        self._dual_coef_ = self.dual_coef_
        self._store_support(data, support)
        self.intercept_ = np.array([b], dtype=np.float64)
        self._intercept_ = self.intercept_.copy()
        self.solver_results_ = [res]
        self.n_iter_ = int(res.n_iter)
        self.fit_status_ = 0 if res.converged else 1
        self.objective_ = res.objective
        self.converged_ = res.converged
        self.kkt_gap_ = res.kkt_gap
        self.history_ = res.history
        if not (np.isfinite(b) and np.all(np.isfinite(coef))):
            if np.all(np.isfinite(coef)) and getattr(self, "nu", None) == 1.0 \
                    and isinstance(self, OutlierMixin):
                # not large values: every alpha at its bound, none free and none at 0
                raise ValueError(
                    "The dual coefficients or intercepts are not finite: nu=1 puts every "
                    "sample at its upper bound (alpha_i = 1), and with no free support "
                    "vector and no sample at 0 the offset rho is not determined (LIBSVM "
                    "and scikit-learn's OneClassSVM stop here too). Use nu < 1.")
            raise ValueError(
                "The dual coefficients or intercepts are not finite. The input data may "
                "contain large values and need to be preprocessed.")

    def _check_fitted_state(self):
        """The fitted state a model file vouches for (``SVMBase``'s checks), and the one row
        of coefficients and the one intercept that ``predict`` reads, of the support's size."""
        from .._fitted import require, require_finite

        super()._check_fitted_state()
        coef = require_finite(getattr(self, "_dual_coef_dense", np.empty(0)),
                              "has dual coefficients that are NaN or infinite")
        n_sv = np.asarray(self.support_).shape[0]
        require(coef.shape == (1, n_sv) and np.shape(self.intercept_) == (1,),
                f"has dual coefficients of shape {coef.shape} for {n_sv} support vectors")

    def _decision(self, X):
        X = self._validate_for_predict(X)
        return self._decision_rows(X, self._dual_coef_dense, self.intercept_)[:, 0]


class _Regressor(RegressorMixin, _SingleModel):
    """What epsilon-SVR and nu-SVR share: the targets and weights checked, the 2n variables
    ``(a, a*)`` of the kept samples read back, ``predict``."""

    def _regression_input(self, X, y, sample_weight):
        """(data, kernel, kernel parameters, y, the samples of weight > 0, their bounds
        ``C_i = C * sample_weight_i``), checked."""
        data, y, sw = self._validate_fit_input(X, y, sample_weight, y_numeric=True)
        y = column_or_1d(y, warn=True).astype(np.float64)
        if not np.all(np.isfinite(y)):
            raise ValueError("y contains NaN or infinity; give finite targets.")
        data, kern, kp = self._solver_data(data)
        self._check_weights(sw)
        keep = np.flatnonzero(sw > 0)
        return data, kern, kp, y, keep, float(self.C) * sw[keep]

    def _store_regression(self, data, y, keep, C_i, res, name: str):
        if self.verbose:
            logger.info("%s:\n%s", name, res)
        warn_if_stopped([res], self.max_iter if self.max_iter != -1 else None, self.tol)
        n, m = y.shape[0], keep.shape[0]
        beta = np.zeros(n)
        beta[keep] = res.alpha[:m] - res.alpha[m:]
        self.alpha_ = np.zeros(2 * n)
        self.alpha_[keep] = res.alpha[:m]
        self.alpha_[n + keep] = res.alpha[m:]
        self._bounds = C_i
        self._keep = keep
        self._store_single(data, beta, res.b, res)
        return self

    def predict(self, X):
        """Predicted targets ``f(x) = sum_i dual_coef_i k(x_i, x) + intercept_``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Or (n_samples, n_train) kernel values for ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._decision(X)


class IndefiniteSVR(_Regressor):
    """epsilon-support vector regression for kernels that need not be PSD.

    LIBSVM's epsilon-SVR dual on ``2n`` variables ``(alpha, alpha*)``:
    ``min 1/2 (a - a*)'K(a - a*) + eps sum(a + a*) - y'(a - a*)`` with
    ``sum(a - a*) = 0`` and ``0 <= a_i, a*_i <= C_i`` (``C_i = C * sample_weight_i``),
    written as the general dual with labels ``+1`` (first n) and ``-1`` (last n) and linear
    term ``p = (eps - y, eps + y)`` (Chang & Lin 2011, section 2.3). The compiled SMO reads
    the n x n kernel for both halves (no 2n x 2n matrix), and solves the concave
    sub-problems of an indefinite kernel by rule (27) of Lin & Lin (2003). The prediction is
    ``f(x) = sum_i (a_i - a*_i) k(x_i, x) + b``.

    Parameters
    ----------
    kernel : str or callable, default="rbf"
        As in :class:`IndefiniteSVC`.
    C : float, default=1.0
        Box bound (> 0).
    epsilon : float, default=0.1
        Width of the insensitive tube (>= 0).
    gamma, coef0, degree, tol, max_iter, cache_size, shrinking, wss, kernel_params, verbose, \
n_jobs
        As in :class:`IndefiniteSVC`.

    Attributes
    ----------
    dual_coef_ : ndarray or sparse matrix of shape (1, n_SV)
        ``a_i - a*_i`` of the support vectors.
    support_, support_vectors_, n_support_, intercept_, coef_, shape_fit_, n_features_in_
        As in :class:`sklearn.svm.SVR`.
    alpha_ : ndarray of shape (2 * n_samples,)
        ``(a, a*)``.
    objective_, kkt_gap_, converged_, n_iter_, history_, fit_status_, solver_results_
        As in :class:`IndefiniteSVC` (one problem).

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> X = np.linspace(0, 6, 40)[:, None]
    >>> reg = isvm.IndefiniteSVR(kernel="sigmoid", gamma=0.5, coef0=-1.0, C=10).fit(
    ...     X, np.sin(X[:, 0]))
    >>> bool(reg.converged_)
    True
    """

    _libsvm_name = "SVR"

    _parameter_constraints: dict = {
        **SVMBase._parameter_constraints,
        "C": [Interval(numbers.Real, 0.0, None, closed="right")],
        "epsilon": [Interval(numbers.Real, 0.0, None, closed="left")],
    }

    def __init__(
        self,
        *,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        tol=1e-3,
        C=1.0,
        epsilon=0.1,
        shrinking=True,
        cache_size=200,
        verbose=False,
        n_jobs=None,
        max_iter=None,
        wss="second_order",
        kernel_params=None,
    ):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.C = C
        self.epsilon = epsilon
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.n_jobs = n_jobs
        self.max_iter = max_iter
        self.wss = wss
        self.kernel_params = kernel_params

    @unfitted_on_interrupt
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the regression.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data, or the (n_samples, n_samples) kernel for ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Targets.
        sample_weight : array-like of shape (n_samples,), optional
            Per-sample weights (>= 0): ``C_i = C * sample_weight_i``; weight 0 leaves the
            sample out.

        Returns
        -------
        self : IndefiniteSVR
        """
        data, kern, kp, y, keep, C_i = self._regression_input(X, y, sample_weight)
        m = keep.shape[0]
        eps = float(self.epsilon)
        yk = y[keep]
        res = solve_dual(
            data, np.r_[np.ones(m), -np.ones(m)], p=np.r_[eps - yk, eps + yk],
            C=np.r_[C_i, C_i], alpha0=[np.zeros(2 * m)], sample_of=np.r_[keep, keep],
            kernel=kern, kernel_params=kp, tol=self.tol, wss=self.wss,
            shrinking=self.shrinking, max_iter=max_iter_of(self.max_iter),
            cache_size=self.cache_size, check_input=False,
            progress=solver_progress(self.verbose, "epsilon-SVR"),
            n_threads=effective_threads(self.n_jobs))
        self._store_regression(data, y, keep, C_i, res, "epsilon-SVR")
        spread = float(np.ptp(yk)) if m else 0.0
        if not (self.support_.shape[0] == 0 and spread > 0 and 2 * eps >= spread):
            warn_if_tol_loose(yk, self.tol, res.converged)
        else:
            # every target within epsilon of one constant: the optimum is alpha = 0, exactly
            warn(
                f"epsilon={eps:g} is at least half the targets' spread ({spread:.3g}): every "
                "sample lies inside the tube, there is no support vector, and the model "
                f"predicts the constant {float(self.intercept_[0]):.6g}. Give epsilon below "
                f"half the spread (e.g. {spread / 20:.3g}), or scale y.", UserWarning,
                stacklevel=user_stacklevel())
        return self

    def _dual_problems(self, X, y, tol):
        """The general dual of epsilon-SVR (for :func:`~indefsvm.sanity_report`)."""
        return svr_problems(self, X, y, tol)


class IndefiniteNuSVR(_Regressor):
    """nu-support vector regression for kernels that need not be PSD.

    LIBSVM's nu-SVR (Schoelkopf et al. 2000; Chang & Lin 2002): the tube width epsilon is
    not given but found, and ``nu`` bounds the fraction of samples outside the tube from
    above and the fraction of support vectors from below (for PSD kernels). The dual on
    ``2n`` variables ``(a, a*)``: ``min 1/2 (a - a*)'K(a - a*) - y'(a - a*)`` with
    ``sum(a) = sum(a*) = nu * sum(C_i) / 2`` and ``0 <= a_i, a*_i <= C_i``
    (``C_i = C * sample_weight_i``), started as LIBSVM starts it, and solved by the same
    SMO as :class:`IndefiniteNuSVC` (pairs taken within ``a`` or within ``a*``; rule (27)
    of Lin & Lin 2003 for the concave sub-problems). The bias and the width come from the
    two multipliers of the sums as in LIBSVM: ``intercept_ = -rho`` and ``epsilon_ = -r``;
    the solution is then an epsilon-SVR solution at ``epsilon = epsilon_``, which is how
    :func:`~indefsvm.sanity_report` reads it.

    Parameters
    ----------
    nu : float, default=0.5
        In (0, 1].
    C : float, default=1.0
        Box bound (> 0 and finite: the sums of the dual are ``nu * sum(C_i) / 2``).
    kernel, gamma, coef0, degree, tol, max_iter, cache_size, shrinking, wss, kernel_params, \
verbose, n_jobs
        As in :class:`IndefiniteSVC`.

    Attributes
    ----------
    epsilon_ : float
        The width of the tube found. On an indefinite kernel it can come out negative (no
        tube contains the fit); a :class:`~indefsvm.exceptions.DegenerateKernelWarning` then
        says so.
    dual_coef_, support_, support_vectors_, n_support_, intercept_, coef_, shape_fit_, \
n_features_in_
        As in :class:`sklearn.svm.NuSVR`.
    alpha_ : ndarray of shape (2 * n_samples,)
        ``(a, a*)``.
    objective_, kkt_gap_, converged_, n_iter_, history_, fit_status_, solver_results_
        As in :class:`IndefiniteSVC` (one problem); ``objective_`` is that of the dual above.

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> X = np.linspace(0, 6, 40)[:, None]
    >>> reg = isvm.IndefiniteNuSVR(nu=0.3, kernel="sigmoid", gamma=0.5, coef0=-1.0,
    ...                            C=10).fit(X, np.sin(X[:, 0]))
    >>> bool(reg.converged_), reg.epsilon_ > 0
    (True, True)
    """

    _libsvm_name = "NuSVR"

    _parameter_constraints: dict = {
        **SVMBase._parameter_constraints,
        "C": _c.FINITE_C,  # the sums nu * sum(C_i) / 2 must be finite
        "nu": [Interval(numbers.Real, 0.0, 1.0, closed="right")],
    }

    def __init__(
        self,
        *,
        nu=0.5,
        C=1.0,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        shrinking=True,
        tol=1e-3,
        cache_size=200,
        verbose=False,
        n_jobs=None,
        max_iter=None,
        wss="second_order",
        kernel_params=None,
    ):
        self.nu = nu
        self.C = C
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.shrinking = shrinking
        self.tol = tol
        self.cache_size = cache_size
        self.verbose = verbose
        self.n_jobs = n_jobs
        self.max_iter = max_iter
        self.wss = wss
        self.kernel_params = kernel_params

    @unfitted_on_interrupt
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y, sample_weight=None):
        """Fit the regression; the tube width ``epsilon_`` comes out of it.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data, or the (n_samples, n_samples) kernel for ``kernel="precomputed"``.
        y : array-like of shape (n_samples,)
            Targets.
        sample_weight : array-like of shape (n_samples,), optional
            Per-sample weights (>= 0): ``C_i = C * sample_weight_i``; weight 0 leaves the
            sample out.

        Returns
        -------
        self : IndefiniteNuSVR
        """
        data, kern, kp, y, keep, C_i = self._regression_input(X, y, sample_weight)
        m = keep.shape[0]
        yk = y[keep]
        # LIBSVM's start: each half filled greedily, in sample order, to nu * sum(C_i) / 2
        half = _greedy_alpha(C_i, float(self.nu) * C_i.sum() / 2)
        signs = np.r_[np.ones(m), -np.ones(m)]
        res = solve_dual(
            data, signs, p=np.r_[-yk, yk], C=np.r_[C_i, C_i], alpha0=[np.r_[half, half]],
            sample_of=np.r_[keep, keep], same_class=True, kernel=kern, kernel_params=kp,
            tol=self.tol, wss=self.wss, shrinking=self.shrinking,
            max_iter=max_iter_of(self.max_iter), cache_size=self.cache_size,
            check_input=False, progress=solver_progress(self.verbose, "nu-SVR"),
            n_threads=effective_threads(self.n_jobs))
        rho, r = _nu_rho(res.extra["grad"], res.alpha, np.r_[C_i, C_i], signs)
        res.b = -rho
        self.epsilon_ = float(-r)
        self._store_regression(data, y, keep, C_i, res, "nu-SVR")
        warn_if_tol_loose(yk, self.tol, res.converged)
        if self.epsilon_ < -self.tol:  # below the precision the stopping rule gives rho, r
            from ..exceptions import DegenerateKernelWarning

            warn(
                f"nu-SVR found a tube of negative width (epsilon_ = {self.epsilon_:.4g}): at "
                "the stationary point found, no tube around the fit holds the samples the "
                "dual says are inside, so nu no longer bounds the fraction outside it. Try "
                "another nu, or IndefiniteSVR with a given epsilon.",
                DegenerateKernelWarning, stacklevel=user_stacklevel())
        return self

    def _dual_problems(self, X, y, tol):
        """The general dual of epsilon-SVR at ``epsilon = epsilon_`` (for
        :func:`~indefsvm.sanity_report`)."""
        return svr_problems(self, X, y, tol, epsilon=self.epsilon_, nu=True)


class IndefiniteOneClassSVM(OutlierMixin, _SingleModel):
    """One-class SVM (novelty detection) for kernels that need not be PSD.

    LIBSVM's nu one-class dual (Schoelkopf et al. 2001): ``min 1/2 a'Ka`` with
    ``sum(a) = nu * sum(C_i)`` and ``0 <= a_i <= C_i`` (``C_i`` = sample weight, 1 by
    default), started, as in LIBSVM, from ``a_i = min(C_i, what is left of nu * sum(C))`` in
    sample order, and solved by the same SMO as :class:`IndefiniteSVC` (rule (27) of Lin &
    Lin 2003 for the concave sub-problems). ``decision_function(x) = sum_i a_i k(x_i, x) -
    rho``; ``predict`` is +1 (inlier) where it is > 0, -1 otherwise.

    Parameters
    ----------
    nu : float, default=0.5
        In (0, 1]: an upper bound on the fraction of training errors and a lower bound on
        the fraction of support vectors (for PSD kernels).
    kernel, gamma, coef0, degree, tol, max_iter, cache_size, shrinking, wss, kernel_params, \
verbose, n_jobs
        As in :class:`IndefiniteSVC`.

    Attributes
    ----------
    dual_coef_ : ndarray or sparse matrix of shape (1, n_SV)
    intercept_ : ndarray of shape (1,)
        ``-rho``.
    offset_ : float
        ``rho``: ``decision_function = score_samples - offset_``.
    support_, support_vectors_, n_support_, coef_, shape_fit_, n_features_in_
        As in :class:`sklearn.svm.OneClassSVM`.
    alpha_ : ndarray of shape (n_samples,)
    objective_, kkt_gap_, converged_, n_iter_, history_, fit_status_, solver_results_
        As in :class:`IndefiniteSVC` (one problem).

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> X = np.random.default_rng(0).normal(size=(100, 2))
    >>> det = isvm.IndefiniteOneClassSVM(nu=0.1, kernel="l1_gaussian", gamma=0.1).fit(X)
    >>> int((det.predict(X) == -1).sum()) <= 15
    True
    """

    _libsvm_name = "OneClassSVM"

    _parameter_constraints: dict = {
        **SVMBase._parameter_constraints,
        "nu": [Interval(numbers.Real, 0.0, 1.0, closed="right")],
    }

    def __init__(
        self,
        *,
        kernel="rbf",
        degree=3,
        gamma="scale",
        coef0=0.0,
        tol=1e-3,
        nu=0.5,
        shrinking=True,
        cache_size=200,
        verbose=False,
        n_jobs=None,
        max_iter=None,
        wss="second_order",
        kernel_params=None,
    ):
        self.kernel = kernel
        self.degree = degree
        self.gamma = gamma
        self.coef0 = coef0
        self.tol = tol
        self.nu = nu
        self.shrinking = shrinking
        self.cache_size = cache_size
        self.verbose = verbose
        self.n_jobs = n_jobs
        self.max_iter = max_iter
        self.wss = wss
        self.kernel_params = kernel_params

    @unfitted_on_interrupt
    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, sample_weight=None):
        """Learn the support of the training data.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Training data, or the (n_samples, n_samples) kernel for ``kernel="precomputed"``.
        y : None
            Ignored; accepted for scikit-learn's pipeline API.
        sample_weight : array-like of shape (n_samples,), optional
            Per-sample weights (>= 0): the bound ``C_i``; weight 0 leaves the sample out.

        Returns
        -------
        self : IndefiniteOneClassSVM
        """
        data, _, sw = self._validate_fit_input(X, None, sample_weight, y_numeric=False)
        data, kern, kp = self._solver_data(data)
        self._check_weights(sw)
        keep = np.flatnonzero(sw > 0)
        C_i = sw[keep]
        alpha0 = _greedy_alpha(C_i, float(self.nu) * C_i.sum())
        n = sw.shape[0]
        res = solve_dual(
            data, np.ones(keep.shape[0]), p=np.zeros(keep.shape[0]), C=C_i, alpha0=[alpha0],
            sample_of=None if keep.shape[0] == n else keep, kernel=kern, kernel_params=kp,
            tol=self.tol, wss=self.wss, shrinking=self.shrinking,
            max_iter=max_iter_of(self.max_iter), cache_size=self.cache_size,
            check_input=False, progress=solver_progress(self.verbose, "one-class"),
            n_threads=effective_threads(self.n_jobs))
        if self.verbose:
            logger.info("one-class SVM:\n%s", res)
        warn_if_stopped([res], self.max_iter if self.max_iter != -1 else None, self.tol)
        alpha = np.zeros(n)
        alpha[keep] = res.alpha
        self.alpha_ = alpha
        self._bounds = C_i
        self._keep = keep
        self._store_single(data, alpha, res.b, res)
        self.offset_ = -self.intercept_.copy()
        return self

    def decision_function(self, X):
        """Signed distance to the learnt boundary: > 0 inside (inliers).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Or (n_samples, n_train) kernel values for ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self._decision(X)

    def score_samples(self, X):
        """Raw scores ``sum_i a_i k(x_i, x)`` (``decision_function + offset_``).

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        return self.decision_function(X) + self.offset_

    def predict(self, X):
        """+1 for inliers (decision value > 0), -1 for outliers.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Or (n_samples, n_train) kernel values for ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        dec = self.decision_function(X)
        return np.where(dec > 0, 1, -1).astype(np.intp)

    def _dual_problems(self, X, y, tol):
        """The one-class dual (for :func:`~indefsvm.sanity_report`)."""
        return one_class_problems(self, X, y, tol)
