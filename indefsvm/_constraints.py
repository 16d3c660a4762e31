"""The parameter constraints the estimators share, in scikit-learn's language (private; a low
floor). Each estimator's ``_parameter_constraints`` is built from these entries plus its own,
so that a range is said once and checked by scikit-learn before ``fit`` (in its wording,
naming the parameter and the range); the rules that involve two parameters or the kernel's
kind are each estimator's ``_check_settings()``, the one name of such rules."""

from __future__ import annotations

import numbers

from sklearn.utils._param_validation import Interval, Options, StrOptions

from ._kernel_params import ALIASES, DISTANCE_HINT, KERNEL_TAKES
from ._validation import N_JOBS as _N_JOBS

__all__ = ["C", "CACHE_SIZE", "CLASS_WEIGHT", "COEF0", "DECISION_FUNCTION_SHAPE", "DEGREE",
           "DEGREE_MAX", "FINITE_C", "GAMMA", "KERNEL", "KERNEL_NAMES", "KERNEL_PARAMS", "MAX_ITER",
           "N_COMPONENTS", "N_JOBS", "SVM_MAX_ITER", "TOL", "check_settings"]

#: every kernel name the estimators take (aliases and "precomputed" included)
KERNEL_NAMES = set(KERNEL_TAKES) | set(ALIASES) | {"precomputed"}


class KernelNames(StrOptions):
    """The kernel names, said in order and with the way in for a distance: ``kernel="dtw"``
    (or a ``DistanceKernel``) is the first thing a DTW or edit-distance user types, and
    scikit-learn's message alone lists names only."""

    def __str__(self) -> str:
        names = ", ".join(repr(o) for o in sorted(self.options))
        return f"a str among {{{names}}} ({DISTANCE_HINT})"


KERNEL = [KernelNames(KERNEL_NAMES), callable]
#: box bound: > 0 (np.inf, a hard margin, where an estimator allows it, says so itself)
C = [Interval(numbers.Real, 0.0, None, closed="right")]
#: a bound that must stay finite: a penalty (logistic loss, the landmark model's squared
#: hinge) or nu-SVR's sums nu * sum(C_i) / 2, which C = inf makes infinite
FINITE_C = [Interval(numbers.Real, 0.0, None, closed="neither")]
#: a kernel of features: "scale", "auto" or a number (its sign is the kernel's rule)
GAMMA = [StrOptions({"scale", "auto"}), Interval(numbers.Real, None, None, closed="neither")]
COEF0 = [Interval(numbers.Real, None, None, closed="neither")]
#: the compiled kernels take the degree as a C int
DEGREE_MAX = 2**31 - 1
DEGREE = [Interval(numbers.Integral, 0, DEGREE_MAX, closed="both")]
TOL = [Interval(numbers.Real, 0.0, None, closed="neither")]
#: a finite cap; None: the estimator's finite default
MAX_ITER = [Interval(numbers.Integral, 1, None, closed="left"), None]
#: the SVMs': SVC spells "no limit" -1 (read as the finite default, as None); 0 is no cap
#: at all, refused here rather than by a check of the fit's own
SVM_MAX_ITER = [Interval(numbers.Integral, 1, None, closed="left"),
                Options(numbers.Integral, {-1}), None]
CACHE_SIZE = [Interval(numbers.Real, 0, None, closed="neither")]
KERNEL_PARAMS = [dict, None]
CLASS_WEIGHT = [StrOptions({"balanced"}), dict, None]
DECISION_FUNCTION_SHAPE = [StrOptions({"ovr", "ovo"})]
#: landmarks, features, random objects: at least one
N_COMPONENTS = [Interval(numbers.Integral, 1, None, closed="left")]
N_JOBS = _N_JOBS  # one declaration, shared with the functions' checks


def check_settings(estimator) -> None:
    """Every rule of ``estimator``'s parameters before any data are read: scikit-learn's
    constraints (``_validate_params``), then its own cross-parameter rules
    (``_check_settings``, when it has some). Raises ``ConstraintError`` (scikit-learn's
    ``InvalidParameterError`` and a ``ParameterError`` naming the parameter) or the
    rule's own ``ValueError``."""
    from ._validation import validate_constraints

    validate_constraints(estimator._parameter_constraints, estimator.get_params(deep=False),
                         type(estimator).__name__)
    own = getattr(estimator, "_check_settings", None)
    if own is not None:
        own()
