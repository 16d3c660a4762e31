"""Issue 43, item 1: constraints say everything they can. Every public estimator declares the
ranges of its parameters in ``_parameter_constraints`` (shared entries from
``indefsvm._constraints``), so scikit-learn refuses a value out of range before any work, in
its wording; the rules of two parameters are each estimator's ``_check_settings``; the
command line validates through the same two."""

from __future__ import annotations

import inspect
import pathlib

import numpy as np
import pytest
from sklearn.base import BaseEstimator
from sklearn.utils._param_validation import Interval, InvalidParameterError, StrOptions

import indefsvm as isvm
from indefsvm import _constraints
from indefsvm.cli import main
from indefsvm.remedies import (
    AdvancedShiftEigenvalues,
    ClipEigenvalues,
    FlipEigenvalues,
    ShiftEigenvalues,
    SquareKernel,
)


def _public_estimators():
    out = [getattr(isvm, n) for n in isvm.__all__
           if inspect.isclass(getattr(isvm, n, None))
           and issubclass(getattr(isvm, n), BaseEstimator)]
    return out + [AdvancedShiftEigenvalues, ClipEigenvalues, FlipEigenvalues,
                  ShiftEigenvalues, SquareKernel, isvm.distances.RandomDistanceFeatures]


#: a parameter the spectrum fixes have is a flag: its "range" is the boolean
_FLAG_ONLY = {ClipEigenvalues, FlipEigenvalues, ShiftEigenvalues, SquareKernel}


@pytest.mark.parametrize("cls", _public_estimators(), ids=lambda c: c.__name__)
def test_every_estimator_declares_ranges(cls):
    pc = cls._parameter_constraints
    assert set(pc) == set(inspect.signature(cls).parameters) - {"self"}
    ranged = [k for k, v in pc.items() if v != "no_validation"
              and any(isinstance(c, (Interval, StrOptions)) for c in v)]
    if cls in _FLAG_ONLY:
        assert pc == {"centered": ["boolean"]}
    else:
        assert ranged, f"{cls.__name__} declares no range"


@pytest.mark.parametrize("est, param, value", [
    (isvm.KreinSVC(), "C", -1.0), (isvm.KreinSVC(), "tol", 0.0),
    (isvm.KreinSVC(), "decision_function_shape", "ovx"),
    (isvm.KernelLogisticRegression(), "C", 0.0),
    (isvm.KernelLogisticRegression(), "solver", "lbfgs"),
    (isvm.ConvexHullClassifier(), "restart_select", "best"),
    (isvm.ConvexHullClassifier(), "n_restarts", -1),
    (isvm.DistanceKernel(), "kind", "cosine"), (isvm.DistanceKernel(), "gamma", -1.0),
    (isvm.DistanceKernel(), "degree", 0), (isvm.DistanceKernel(), "origin", -2),
    (isvm.NystroemSVC(), "n_components", 0), (isvm.NystroemSVC(), "remedy", "shift"),
    (isvm.NystroemSVC(), "landmarks", "random"), (isvm.NystroemSVC(), "max_iter", 0),
    (isvm.KreinNystroem(), "rtol", 1.5), (isvm.KreinNystroem(), "stability", 0.5),
    (isvm.RemedySearchCV(), "cv", 1), (isvm.RemedySearchCV(), "rule", "worst"),
    (isvm.PairwiseDistances(), "window", -0.1),
    (isvm.distances.RandomDistanceFeatures(), "n_components", 0),
    (isvm.distances.RandomDistanceFeatures(), "random_objects", "any"),
    (AdvancedShiftEigenvalues(), "rank", 0),
    # -1 is SVC's "no limit" (the finite default); 0 was let through by the range and
    # refused by a check of the fit's own, in other words and as a data error on the CLI
    (isvm.IndefiniteSVC(), "max_iter", 0), (isvm.IndefiniteNuSVC(), "max_iter", 0),
    (isvm.IndefiniteSVR(), "max_iter", -2), (isvm.IndefiniteOneClassSVM(), "max_iter", 0),
    (isvm.KreinSVC(), "max_iter", 0),
])
def test_a_value_out_of_range_is_refused_by_scikit_learn_before_fit(est, param, value):
    est.set_params(**{param: value})
    with pytest.raises(InvalidParameterError, match=f"The '{param}' parameter of "
                       f"{type(est).__name__} must be"):
        _constraints.check_settings(est)


def test_a_landmark_model_vouches_for_its_features_settings():
    # the metric's parameters and D2KE's options are NystroemSVC's settings too: refused
    # before any data are read, with the feature map's own words
    with pytest.raises(ValueError, match="window must be None"):
        _constraints.check_settings(isvm.NystroemSVC(metric="dtw", metric_params={"window": 2}))
    with pytest.raises(ValueError, match="landmarks does not apply to features='d2ke'"):
        _constraints.check_settings(isvm.NystroemSVC(metric="dtw", features="d2ke",
                                                     landmarks="kmedoids++"))


def test_the_rules_of_two_parameters_have_one_name():
    # gamma's sign by kernel (the SVM family), gamma of the linear distance form
    with pytest.raises(ValueError, match="gamma"):
        _constraints.check_settings(isvm.IndefiniteSVC(kernel="rbf", gamma=-1.0))
    with pytest.raises(ValueError, match="gamma does not apply to kind='linear'"):
        _constraints.check_settings(isvm.DistanceKernel("linear", gamma=0.5))
    # the same rule at fit
    D = np.array([[0.0, 1.0], [1.0, 0.0]])
    with pytest.raises(ValueError, match="gamma does not apply"):
        isvm.DistanceKernel("linear", gamma=0.5).fit(D)
    for cls in _public_estimators():
        for old in ("_check_kernel_settings", "_check_params"):
            assert not hasattr(cls, old), f"{cls.__name__}.{old}: call it _check_settings"


def test_the_command_line_validates_through_the_same_two(capsys):
    cli = pathlib.Path(isvm.__file__).parent / "cli"
    for path in cli.glob("*.py"):
        text = path.read_text()
        for private in ("_check_kernel_settings", "_check_params(", "._check_settings()",
                        "._validate_params()"):
            assert private not in text, f"{path.name} calls {private}"
    assert main(["fit", "--dataset", "heart", "--distances", "--gamma", "-1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("indefsvm: error: ") and "--gamma must be" in err
    assert main(["fit", "--dataset", "heart", "--nystroem", "20", "--tol", "0"]) == 2
    assert "--tol must be a float in the range (0.0, inf)" in capsys.readouterr().err
    assert main(["fit", "--dataset", "heart", "--max-iter", "0", "--cv", "0"]) == 2
    assert "--max-iter must be an int in the range [1, inf)" in capsys.readouterr().err


@pytest.mark.parametrize("cls", [c for c in _public_estimators()
                                 if "n_jobs" in inspect.signature(c).parameters],
                         ids=lambda c: c.__name__)
def test_n_jobs_0_is_refused_by_the_one_shared_entry_before_fit(cls):
    # n_jobs=0 was let through by [Integral, None]: PairwiseDistances.fit took it (its
    # transform failed), RemedySearchCV met joblib's "n_jobs == 0 in Parallel has no meaning"
    assert cls._parameter_constraints["n_jobs"] is _constraints.N_JOBS
    est = cls().set_params(n_jobs=0)
    with pytest.raises(InvalidParameterError, match=r"'n_jobs' parameter of .* must be an int "
                                                    r"in the range \[1, inf\), an int in the "
                                                    r"range \(-inf, -1\] or None\. Got 0"):
        _constraints.check_settings(est)
    for fine in (None, 1, -1, -2):
        _constraints.check_settings(cls().set_params(n_jobs=fine))
