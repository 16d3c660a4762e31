"""Every public function, called with odd values of each argument, answers with one error
that names the argument -- never another library's words (an IndexError of a boolean mask,
"'NoneType' object has no attribute 'shape'", "operands could not be broadcast", NumPy's
"truth value of an array is ambiguous") and never a silent repair (complex labels cast to
real, NaN labels taken as a class, ``p=1.5`` truncated to 1).

A sweep of the probe of 2026-11-29: a valid call of each function in ``__all__`` of the
package and its subpackages, then each argument in turn replaced by None, a string, empty
arrays, a 3-D array, a scalar, a bool, an object array, -1, inf and -- for numeric arrays --
the array with a NaN, the array made complex, and its first half.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

import indefsvm as isvm
from indefsvm import datasets as ds
from indefsvm import diagnostics as dg
from indefsvm import distances as di
from indefsvm import explorer as ex
from indefsvm import geometry as ge
from indefsvm import kernels as ke
from indefsvm import klr
from indefsvm import solvers as so
from indefsvm.exceptions import UnboundedObjectiveError

OURS = (ValueError, TypeError, NotFittedError, FileNotFoundError, UnboundedObjectiveError)

#: where the error rightly names another argument or the thing itself: X of another length
#: than y is said as y's length; a file name that is not there, as the file
PARTNER = {
    ("sigmoid_region", "X", "short"): r"\by\b",
    ("linear_svc", "Z", "short"): r"\by\b",
    ("median_gamma", "D", "empty"): "median rule needs at least two",
    ("data_path", "name", "str"): "No bundled data file 'abc'",
    ("load_libsvm", "path", "str"): "No such LIBSVM file",
}


def _calls():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    K = np.tanh(X @ X.T / 3 - 0.5)
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    G = np.exp(-(D**2))  # PSD and positive: the solvers that need it
    S = [rng.normal(size=15) for _ in range(20)]
    alpha = so.smo(K, y, C=1.0).alpha
    P = rng.normal(size=(10, 2))
    state = ex.explore(P[:8], np.r_[np.ones(4), -np.ones(4)], kernel="rbf").live_state()
    return {
        "check_kernel": (isvm.check_kernel, dict(K=K, y=y)),
        "compare_remedies": (isvm.compare_remedies, dict(K=K, y=y, cv=2, methods=["clip"])),
        "kernel_matrix": (isvm.kernel_matrix, dict(X=X, kernel="rbf")),
        "pairwise_distances": (isvm.pairwise_distances, dict(X=S[:5], metric="dtw")),
        "check_distances": (dg.check_distances, dict(D=D, y=y, n_gammas=3)),
        "class_mean_sqdist": (dg.class_mean_sqdist, dict(K=K, y=y)),
        "cpd_test": (dg.cpd_test, dict(K=K)),
        "eta_scan": (dg.eta_scan, dict(K=K, y=y)),
        "sanity_report_from_alpha": (dg.sanity_report_from_alpha,
                                     dict(K=K, y=y, alpha=alpha, C=1.0)),
        "second_order_check": (dg.second_order_check, dict(K=K, y=y, alpha=alpha, C=1.0, b=0.0)),
        "sigmoid_region": (dg.sigmoid_region, dict(X=X, a=0.3, r=-0.5, y=y)),
        "signature": (dg.signature, dict(K=K)),
        "spectrum": (dg.spectrum, dict(K=K)),
        "triangle_violations": (dg.triangle_violations, dict(D=D)),
        "ch_to_svm": (ge.ch_to_svm, dict(alpha_bar=2 * alpha / alpha.sum(), mu=1.0, K=K, y=y)),
        "pe_plane_coordinates": (ge.pe_plane_coordinates, dict(Z=P, M=np.diag([1.0, -1.0]))),
        "pseudo_euclidean_embedding": (ge.pseudo_euclidean_embedding, dict(K=K)),
        "reduced_hull": (ge.reduced_hull, dict(P=P, mu=0.5)),
        "svm_to_ch": (ge.svm_to_ch, dict(alpha=alpha, C=1.0)),
        "learn_window": (di.learn_window, dict(X=S, y=y, windows=[0.0, 0.1])),
        "median_gamma": (di.median_gamma, dict(D=D)),
        "l1_gaussian": (ke.l1_gaussian, dict(X=X)),
        "linear": (ke.linear, dict(X=X)),
        "polynomial": (ke.polynomial, dict(X=X)),
        "pseudo_euclidean": (ke.pseudo_euclidean, dict(X=X, p=1)),
        "rbf": (ke.rbf, dict(X=X)),
        "sigmoid": (ke.sigmoid, dict(X=X)),
        "sqrt_l1_exponential": (ke.sqrt_l1_exponential, dict(X=np.abs(X))),
        "symmetric_kl": (ke.symmetric_kl,
                         dict(X=np.abs(X) / np.abs(X).sum(1, keepdims=True))),
        "data_path": (ds.data_path, dict(name="heart_scale")),
        "load_libsvm": (ds.load_libsvm, dict(path=ds.data_path("heart_scale"))),
        "make_cbf": (ds.make_cbf, dict(n_samples=9)),
        "make_motif_strings": (ds.make_motif_strings, dict(n_samples=9)),
        "convex_hull_dual": (so.convex_hull_dual, dict(K=K, y=y)),
        "kernel_adatron": (so.kernel_adatron, dict(K=G, y=y, C=1.0)),
        "linear_svc": (so.linear_svc, dict(Z=X.astype(np.float32), y=y)),
        "lsvm": (so.lsvm, dict(K=G, y=y)),
        "m3": (so.m3, dict(K=G, y=y, C=1.0)),
        "munk": (so.munk, dict(K=G, y=y, C=1.0)),
        "random_feasible_alpha": (so.random_feasible_alpha, dict(y=y, C=1.0, rng=rng)),
        "random_feasible_hull_weights": (so.random_feasible_hull_weights,
                                         dict(y=y, mu=1.0, rng=rng)),
        "smo": (so.smo, dict(K=K, y=y)),
        "default_param_grid": (ex.default_param_grid, dict(kernel="sigmoid", X=X)),
        "live_hash": (ex.live_hash, dict(state=state)),
        "klr_objective": (klr.klr_objective, dict(w=np.zeros(21), K=K, y=y, C=1.0)),
    }


def _variants(value):
    out = {"None": None, "str": "abc", "empty": np.empty((0, 0)), "empty1": np.empty(0),
           "3d": np.ones((2, 2, 2)), "scalar": 3.0, "bool": True,
           "obj": np.array([object(), object()], dtype=object), "neg": -1, "inf": np.inf}
    if isinstance(value, np.ndarray) and value.dtype.kind in "fi":
        v = value.astype(float)
        v.flat[min(1, v.size - 1)] = np.nan
        out["nan"] = v
        out["complex"] = value.astype(complex) + 1j
        if value.ndim >= 1 and value.shape[0] > 1:
            out["short"] = value[: value.shape[0] // 2]
    return out


def _call(f, kw):
    with warnings.catch_warnings():
        # a ComplexWarning turned into an error: a cast that drops the imaginary part is a
        # silent repair; the other warnings (convergence of a toy problem) are not the point
        warnings.simplefilter("ignore")
        warnings.simplefilter("error", getattr(np, "exceptions", np).ComplexWarning)
        return f(**kw)


def test_the_valid_calls_run():
    # the sweep below is only as good as its starting points
    for f, kw in _calls().values():
        _call(f, kw)


@pytest.mark.parametrize("name", sorted(_calls()))
def test_odd_arguments_are_named(name):
    f, kw = _calls()[name]
    wrong = []
    for pname, pval in kw.items():
        for vname, v in _variants(pval).items():
            try:
                _call(f, {**kw, pname: v})
            except OURS as exc:
                msg = " ".join(str(exc).split())
                want = PARTNER.get((name, pname, vname), rf"\b{re.escape(pname)}\b")
                if not re.search(want, msg):
                    wrong.append(f"{pname}={vname}: {type(exc).__name__}: {msg[:150]}")
            except Exception as exc:  # noqa: BLE001 - what is asserted is that none comes
                wrong.append(f"{pname}={vname}: {type(exc).__name__}: {exc}"[:200])
    assert not wrong, "\n".join(wrong)


def test_labels_that_are_nan_or_complex_are_refused_not_read():
    # NaN was a class of its own (np.unique keeps it) and complex labels were cast to their
    # real part with a ComplexWarning at most
    rng = np.random.default_rng(1)
    X = rng.normal(size=(12, 2))
    K = X @ X.T
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    y_nan = y.copy()
    y_nan[3] = np.nan
    for call in (lambda yy: isvm.check_kernel(K, yy), lambda yy: dg.eta_scan(K, yy),
                 lambda yy: dg.check_distances(np.abs(K - K.diagonal()), yy, n_gammas=0),
                 lambda yy: dg.sigmoid_region(X, 0.5, -1.0, yy)):
        with pytest.raises(ValueError, match="y contains NaN"):
            call(y_nan)
        with pytest.raises(ValueError, match="y is complex"):
            call(y + 0j)
    with pytest.raises(ValueError, match="y is complex"):
        so.smo(K, y + 0j)


def test_pseudo_euclidean_p_is_a_whole_number():
    X = np.ones((3, 4))
    with pytest.raises(ValueError, match=r"^p must be a whole number.*got 1\.5"):
        isvm.kernel_matrix(X, kernel="pseudo_euclidean", p=1.5)  # was read as 1
    np.testing.assert_array_equal(isvm.kernel_matrix(X, kernel="pseudo_euclidean", p=2.0),
                                  isvm.kernel_matrix(X, kernel="pseudo_euclidean", p=2))


def test_a_kernel_matrix_given_as_the_kernel_is_pointed_to_precomputed():
    X = np.ones((3, 2))
    with pytest.raises(ValueError, match=r"kernel of type ndarray.*kernel='precomputed'"):
        isvm.kernel_matrix(X, kernel=np.eye(3))


def test_random_starts_take_a_seed_as_well_as_a_generator():
    y = np.array([1.0, -1.0, 1.0, -1.0])
    a = so.random_feasible_alpha(y, 1.0, 7)
    np.testing.assert_array_equal(a, so.random_feasible_alpha(y, 1.0, np.random.default_rng(7)))
    w = so.random_feasible_hull_weights(y, 1.0, 7)
    np.testing.assert_array_equal(
        w, so.random_feasible_hull_weights(y, 1.0, np.random.default_rng(7)))


#: an option whose odd value is a valid one, and is answered about another argument: rows
#: [1, 2] pick two rows, so y of 20 labels is what does not fit
OPTION_PARTNER = {("linear_svc", "rows", "list"): r"\by has 20 entries",
                  ("linear_svc", "rows", "array"): r"\by has 20 entries"}


@pytest.mark.parametrize("name", sorted(_calls()))
def test_odd_options_are_named(name):
    # the keyword options (method, verbose, random_state, n_jobs, kernel_params, max_iter,
    # ...): a wrong type was a NumPy or Python error ("truth value of an array is
    # ambiguous", "invalid literal for int()", "dictionary update sequence element"),
    # or, for the flags, taken as whatever its truth value was
    import inspect

    f, kw = _calls()[name]
    wrong = []
    for pname, par in inspect.signature(f).parameters.items():
        if pname in kw or par.kind in (par.VAR_KEYWORD, par.VAR_POSITIONAL):
            continue
        odd = {"str": "abc", "list": [1, 2], "array": np.ones(3), "nan": np.nan}
        if par.default is not None:
            odd["None"] = None
        for vname, v in odd.items():
            try:
                _call(f, {**kw, pname: v})
            except OURS as exc:
                msg = " ".join(str(exc).split())
                want = OPTION_PARTNER.get((name, pname, vname), re.escape(pname))
                if not re.search(want, msg):
                    wrong.append(f"{pname}={vname}: {type(exc).__name__}: {msg[:150]}")
            except Exception as exc:  # noqa: BLE001 - what is asserted is that none comes
                wrong.append(f"{pname}={vname}: {type(exc).__name__}: {exc}"[:200])
    assert not wrong, "\n".join(wrong)


def test_flags_are_booleans_and_kernel_numbers_finite():
    # warn="no", shrinking="no", zero_based="no" were read as True; gamma=inf gave a kernel
    # with NaN on its diagonal (0 * inf), coef0=NaN a NaN sigmoid
    rng = np.random.default_rng(2)
    X = rng.normal(size=(10, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    K = X @ X.T
    for flag in ("warn", "shrinking", "check_input"):
        with pytest.raises(ValueError, match=f"'{flag}' parameter of smo must be"):
            so.smo(K, y, **{flag: "no"})
    with pytest.raises(ValueError, match="'zero_based' parameter of load_libsvm must be"):
        ds.load_libsvm(ds.data_path("heart_scale"), zero_based="no")
    for kernel, params in (("rbf", {"gamma": np.inf}), ("sigmoid", {"gamma": np.nan}),
                           ("l1_gaussian", {"gamma": np.inf})):
        with pytest.raises(ValueError, match="^gamma must be a finite number"):
            isvm.kernel_matrix(X, kernel=kernel, **params)
    for kernel in ("sigmoid", "polynomial"):
        with pytest.raises(ValueError, match="^coef0 must be a finite number"):
            isvm.kernel_matrix(X, kernel=kernel, coef0=np.nan)
    with pytest.raises(ValueError, match="^sigma must be a finite number > 0"):
        isvm.kernel_matrix(np.abs(X), kernel="sqrt_l1_exponential", sigma=np.inf)
    for bad in (1.0, [0.5, -1.0], np.ones((2, 2))):
        with pytest.raises(ValueError, match=r"wmw_C.* must be a"):
            isvm.check_kernel(K, y, wmw_C=bad)
    D = np.abs(np.subtract.outer(X[:, 0], X[:, 0]))
    for option in ({"n_landmarks": 5}, {"metric_params": {"window": 0.1}}):
        with pytest.raises(ValueError, match=r"applies to the objects X with metric="):
            dg.check_distances(D, **option)  # was ignored without a word
    rep = isvm.check_kernel(K, y, wmw_C=np.array([0.5, 2.0]))  # an array of C values works
    assert rep is not None


def test_the_defaults_of_every_checked_function_meet_their_own_constraints():
    # options_checked checks the options a call gives, not the defaults (a call with none
    # pays nothing): the defaults are checked here, once, for every decorated function
    import importlib
    import inspect
    import pkgutil

    from sklearn.utils._param_validation import validate_parameter_constraints

    import indefsvm

    seen = 0
    for info in pkgutil.walk_packages(indefsvm.__path__, "indefsvm."):
        if ".cli" in info.name or info.name.endswith("__main__"):
            continue
        try:
            mod = importlib.import_module(info.name)
        except ImportError:
            continue
        for obj in vars(mod).values():
            cons = getattr(obj, "_skl_parameter_constraints", None)
            if not inspect.isfunction(obj) or cons is None or obj.__module__ != mod.__name__:
                continue
            seen += 1
            params = inspect.signature(obj).parameters
            assert set(cons) <= set(params), (obj.__qualname__, set(cons) - set(params))
            defaults = {k: params[k].default for k in cons
                        if params[k].default is not inspect.Parameter.empty}
            validate_parameter_constraints(cons, defaults, caller_name=obj.__qualname__)
    assert seen >= 20, seen


def test_check_kernels_keywords_are_the_kernels_and_its_options_are_checked_first():
    # the probe of 2026-11-29 (library options, one odd value at a time): check_kernel(X=X,
    # kernel="sigmoid", degree="abc") ran and dropped the degree without a word (as it
    # dropped gamma given beside a matrix K), coef0="abc" was answered by float()'s "could
    # not convert string to float"; wmw_C=() trained no SVM and said nothing
    rng = np.random.default_rng(3)
    X = rng.normal(size=(30, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    K = np.tanh(X @ X.T / 3 - 0.5)
    for method in ("dense", "slq"):
        with pytest.raises(ValueError, match=r"kernel='sigmoid' takes parameters \['gamma', "
                                             r"'coef0'\]; got unexpected \['degree'\]"):
            isvm.check_kernel(X=X, y=y, kernel="sigmoid", degree="abc", method=method)
        with pytest.raises(ValueError, match="^coef0 must be a finite number; got 'abc'"):
            isvm.check_kernel(X=X, y=y, kernel="sigmoid", coef0="abc", method=method)
    with pytest.raises(ValueError, match=r"kernel parameters \['gamma'\] apply to a kernel "
                                         r"computed from X .* drop them"):
        isvm.check_kernel(K, y, gamma=0.5)
    with pytest.raises(ValueError, match=r"wmw_C must be a tuple of C values .* or None "
                                         r"\(no w'Mw\); got \[\]"):
        isvm.check_kernel(K, y, wmw_C=[])
    # what the kernel takes is taken: the polynomial's three, and a check of the same kernel
    # as the estimators resolve it
    rep = isvm.check_kernel(X=X, y=y, kernel="poly", gamma=0.5, coef0=1, degree=2)
    assert rep.kernel == {"kernel": "polynomial", "gamma": 0.5, "coef0": 1.0, "degree": 2}


def test_check_distances_options_are_checked_before_the_verdict_needs_them():
    # mass_thresholds grade the negative mass of non-Euclidean distances only: on Euclidean
    # ones (0.5, 0.2), [] and {} were taken without a word; gammas={} met float()'s
    # "argument must be a string or a real number, not 'dict'"
    rng = np.random.default_rng(4)
    X = rng.normal(size=(20, 2))
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))  # Euclidean
    for bad in ((0.5, 0.2), [], {}):
        with pytest.raises(ValueError, match="^mass_thresholds must"):
            dg.check_distances(D, mass_thresholds=bad)
    for bad in ({}, [], [0.1, -1.0], ["a"]):
        with pytest.raises(ValueError, match=r"^gammas must be numbers > 0 \(one or more\)"):
            dg.check_distances(D, gammas=bad)
    rep = dg.check_distances(D ** 1.5, gammas=[0.1, 1.0], mass_thresholds=(0.0, 0.5))
    assert [g for g, _ in rep.gamma_profile] == [0.1, 1.0]


def test_compare_remedies_checks_its_grid_of_C_in_the_searchs_words():
    # param_grid={"C": [-1]} was scikit-learn's "All the 3 fits failed ... You can try to
    # debug the error by setting error_score='raise'" with a traceback per fit; {"C": "abc"}
    # was searched letter by letter, and [0.1, "x"] ran, its "x" scored as a failed fit
    rng = np.random.default_rng(5)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    K = np.tanh(X @ X.T / 3 - 0.5)
    for grid, want in (({"C": []}, r"param_grid\['C'\] is empty"),
                       ({"C": [-1]}, r"param_grid\['C'\] holds -1; its values must be finite "
                                     r"numbers > 0"),
                       ({"C": "abc"}, r"param_grid\['C'\] must be a list of values; got 'abc'"),
                       ({"C": 1.0}, r"param_grid\['C'\] must be a list of values"),
                       ({"C": [True]}, r"param_grid\['C'\] holds True"),
                       ({"C": [0.1, "x"]}, r"param_grid\['C'\] holds 'x'")):
        with pytest.raises(ValueError, match=want):
            isvm.compare_remedies(K, y, param_grid=grid, methods=["flip"], cv=3)
        # the same words as the search's
        with pytest.raises(ValueError, match=want):
            isvm.RemedySearchCV(param_grid=grid, methods=["flip"], cv=3).fit(K, y)
    # an array of C values is a list of them
    cmp = isvm.compare_remedies(K, y, param_grid={"C": np.array([0.1, 10.0])},
                                methods=["flip"], cv=3, random_state=0)
    ref = isvm.compare_remedies(K, y, param_grid={"C": [0.1, 10.0]}, methods=["flip"], cv=3,
                                random_state=0)
    assert cmp.fold_errors.keys() == ref.fold_errors.keys()
    for name in ref.fold_errors:
        np.testing.assert_array_equal(cmp.fold_errors[name], ref.fold_errors[name])


def test_options_given_twice_or_where_they_do_not_apply_are_refused_by_the_transformers():
    # the probe of transformer options in pairs (2026-11-29): PairwiseDistances(window=0.1,
    # metric_params={"window": 0.2}) computed the 0.1 band and dropped the 0.2 without a
    # word; RandomDistanceFeatures(max_length=10) with objects sampled from the data (which
    # keep their own lengths) took the 10 and did not use it
    S, _ = ds.make_cbf(20, length=30, random_state=0)
    with pytest.raises(ValueError, match=r"window is given twice: window=0.1 and "
                                         r"metric_params\['window'\]=0.2; give it once"):
        di.PairwiseDistances(window=0.1, metric_params={"window": 0.2}).fit(S)
    once = di.PairwiseDistances(metric_params={"window": 0.2}).fit(S).transform(S[:3])
    np.testing.assert_array_equal(
        once, di.PairwiseDistances(window=0.2).fit(S).transform(S[:3]))
    for kw, why in (({"random_objects": "data"}, "random_objects='data' samples"),
                    ({"metric": "euclidean"}, "metric='euclidean' samples")):
        with pytest.raises(ValueError, match=rf"max_length bounds the random series .*{why}"):
            di.RandomDistanceFeatures(max_length=10, **kw).fit(np.asarray(S))
    rdf = di.RandomDistanceFeatures(max_length=4, n_components=30, random_state=0).fit(S)
    assert max(len(o) for o in rdf.random_objects_) <= 4


def test_smo_refuses_two_starting_points():
    # the probe of the solvers' options in pairs (2026-11-29): init="class_balanced" with
    # alpha0 started from alpha0 and dropped the init without a word
    rng = np.random.default_rng(7)
    X = rng.normal(size=(20, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    K = np.tanh(X @ X.T / 2 - 0.5)
    a0 = so.random_feasible_alpha(y, 1.0, np.random.default_rng(0))
    with pytest.raises(ValueError, match=r"init='class_balanced' and alpha0 both give the "
                                         r"starting point; give one of them"):
        so.smo(K, y, init="class_balanced", alpha0=a0)
    # alpha0 with init at its default, and init alone, are taken
    np.testing.assert_array_equal(so.smo(K, y, alpha0=a0).alpha,
                                  so.smo(K, y, init="zero", alpha0=a0).alpha)
    assert so.smo(K, y, init="class_balanced").converged


def test_wmw_C_needs_the_two_class_labels_it_trains_on():
    # check_kernel(K, wmw_C=(1.0,)) without labels (or with three classes) trained nothing
    # and said nothing: the C values were taken and not used
    rng = np.random.default_rng(8)
    X = rng.normal(size=(30, 3))
    K = np.tanh(X @ X.T / 3 - 0.5)
    y2, y3 = np.where(X[:, 0] > 0, 1, -1), np.arange(30) % 3
    for kw in ({"K": K}, {"X": X, "kernel": "sigmoid", "method": "slq"}):
        with pytest.raises(ValueError, match=r"wmw_C trains the two-class SVM .* and no "
                                             r"labels y: give two-class labels"):
            isvm.check_kernel(**kw, wmw_C=(1.0,))
        with pytest.raises(ValueError, match=r"and y has 3 classes"):
            isvm.check_kernel(**kw, y=y3, wmw_C=(1.0,))
        assert isvm.check_kernel(**kw, y=y3, wmw_C=None).verdict  # None asks for none
    assert list(isvm.check_kernel(K, y2, wmw_C=(1.0,)).wmw_by_C) == [1.0]


def test_starts_rows_and_widths_are_named_in_their_errors():
    # the sweep with dicts, empty lists and huge numbers (2026-11-29): alpha0={} of munk, m3,
    # kernel_adatron and linear_svc met float()'s "argument must be a string or a real
    # number, not 'dict'"; linear_svc(rows={}) int()'s; rows=[] was "y has 20 entries but
    # there are 0 samples"; load_libsvm(n_features=10**12) blamed "feature index 13"
    rng = np.random.default_rng(9)
    X = rng.normal(size=(12, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    G = np.exp(-((X[:, None] - X[None]) ** 2).sum(-1))
    for solver in (so.munk, so.m3, so.kernel_adatron):
        with pytest.raises(ValueError, match=r"^alpha0 must be a 1-D array of numbers"):
            solver(G, y, C=1.0, alpha0={"a": 1})
    Z = X.astype(np.float32)
    with pytest.raises(ValueError, match=r"^alpha0 must be a 1-D array of numbers"):
        so.linear_svc(Z, y, alpha0={})
    for rows in ({}, [], [[0, 1]]):
        with pytest.raises(ValueError, match=r"^rows must be indices of the 12 rows of Z "
                                             r"\(one or more\)"):
            so.linear_svc(Z, y, rows=rows)
    with pytest.raises(ValueError, match=r"^n_features=1000000000000: a dense 270 x "
                                         r"1000000000000 matrix would need .* GiB \(the "
                                         r"file's widest index makes 13 columns\)"):
        ds.load_libsvm(ds.data_path("heart_scale"), n_features=10**12)


def test_compare_remedies_refuses_distances_no_method_reads():
    # D, the k-NN distances, given with methods=["flip"] was taken and not used
    rng = np.random.default_rng(13)
    X = rng.normal(size=(30, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    K = np.tanh(X @ X.T / 3 - 0.5)
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    with pytest.raises(ValueError, match=r"D gives the k-NN distances, and methods=\['flip'\] "
                                         r"has no 'k-NN': drop D, or add 'k-NN'"):
        isvm.compare_remedies(K, y, D=D, methods=["flip"], cv=3)
    assert isvm.compare_remedies(K, y, D=D, methods=["k-NN"], cv=3).methods == [
        "indefinite SVM", "k-NN"]


@pytest.mark.parametrize("make", [
    lambda **kw: isvm.IndefiniteSVC(**kw), lambda **kw: isvm.KreinSVC(**kw),
    lambda **kw: isvm.KernelLogisticRegression(**kw),
    lambda **kw: isvm.NystroemSVC(n_components=15, random_state=0, **kw),
    lambda **kw: isvm.KreinNystroem(n_components=15, random_state=0, **kw),
    lambda **kw: isvm.FeatureKernel(**kw)])
def test_a_kernel_parameter_given_as_an_option_and_in_kernel_params_is_refused(make):
    # IndefiniteSVC(gamma=2, kernel_params={"gamma": 1}) fitted with gamma 1 and dropped the 2
    rng = np.random.default_rng(17)
    X = rng.normal(size=(40, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    with pytest.raises(ValueError, match=r"^gamma is given twice: gamma=2 and "
                                         r"kernel_params\['gamma'\]=1; the entry would win"):
        make(kernel="rbf", gamma=2, kernel_params={"gamma": 1}).fit(X, y)
    with pytest.raises(ValueError, match=r"^coef0 is given twice: coef0=-2"):
        make(kernel="sigmoid", coef0=-2, kernel_params={"coef0": -1}).fit(X, y)
    with pytest.raises(ValueError, match=r"^gamma=0\.3 and kernel_params\['sigma'\]=1 both set "
                                         r"the kernel's width"):
        make(kernel="sqrt_l1_exponential", gamma=0.3, kernel_params={"sigma": 1}).fit(X, y)
    # kernel_params alone overrides a default, as documented, and is the option's twin
    one = make(kernel="rbf", kernel_params={"gamma": 1}).fit(X, y)
    other = make(kernel="rbf", gamma=1).fit(X, y)
    out = "transform" if hasattr(one, "transform") else "decision_function"
    np.testing.assert_allclose(getattr(one, out)(X[:5]), getattr(other, out)(X[:5]))


@pytest.mark.parametrize("call, match", [
    (lambda X, y, K: isvm.check_kernel(X=X * 1e200, kernel="rbf", method="slq"),
     "squares overflow"),
    (lambda X, y, K: isvm.compare_remedies(K, y, D=np.ones((5, 5))), "D has shape"),
    (lambda X, y, K: isvm.check_kernel(X=X, kernel="rbf", method="slq", random_state="x"),
     "random_state must be"),
    (lambda X, y, K: isvm.IndefiniteOneClassSVM().fit(X, sample_weight=np.full(270, 1e300)),
     "sample_weight reaches"),
])
def test_clear_messages_instead_of_internal_errors(call, match):
    # IndexError, a SeedSequence TypeError, "the kernel has values that are not finite"
    X, y = isvm.datasets.load_heart(return_X_y=True)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5)
    with pytest.raises(ValueError, match=match):
        call(X, y, K)

