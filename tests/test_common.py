"""scikit-learn's estimator checks on the estimators of indefsvm."""

import functools

import pytest
from sklearn.utils.estimator_checks import estimator_checks_generator

from indefsvm import (
    ConvexHullClassifier,
    DistanceKernel,
    FeatureKernel,
    IndefiniteNuSVC,
    IndefiniteNuSVR,
    IndefiniteOneClassSVM,
    IndefiniteSVC,
    IndefiniteSVR,
    KernelLogisticRegression,
    KreinNystroem,
    KreinSVC,
    NystroemSVC,
    PairwiseDistances,
    RemedySearchCV,
)
from indefsvm.distances import RandomDistanceFeatures
from indefsvm.remedies import (
    AdvancedShiftEigenvalues,
    ClipEigenvalues,
    FlipEigenvalues,
    KernelRanking,
    ShiftEigenvalues,
    SquareKernel,
)

ESTIMATORS = [
    IndefiniteSVC(),
    IndefiniteSVC(kernel="linear"),
    IndefiniteSVC(kernel="precomputed"),
    IndefiniteSVC(kernel="sigmoid", gamma="auto", coef0=-1.0, C=10.0),
    IndefiniteSVC(fit_intercept=False),
    IndefiniteSVC(class_weight="balanced", break_ties=True),
    IndefiniteNuSVC(),
    IndefiniteSVR(),
    IndefiniteSVR(kernel="precomputed"),
    IndefiniteSVR(kernel="sigmoid", gamma=0.01, coef0=-1.0, C=100.0),
    IndefiniteNuSVR(),
    IndefiniteNuSVR(kernel="precomputed"),
    IndefiniteNuSVR(nu=0.3, kernel="sigmoid", gamma=0.01, coef0=-1.0, C=100.0),
    IndefiniteOneClassSVM(),
    IndefiniteOneClassSVM(kernel="l1_gaussian"),
    KernelLogisticRegression(),
    KernelLogisticRegression(kernel="precomputed", solver="cg"),
    PairwiseDistances("dtw"),
    PairwiseDistances("euclidean"),
    DistanceKernel(),
    DistanceKernel("polynomial", degree=2),
    FeatureKernel(),
    FeatureKernel("sigmoid", gamma=0.01, coef0=-1.0),
    KreinNystroem(n_components=8, random_state=0),
    KreinNystroem("sigmoid", n_components=8, gamma=0.1, coef0=-1.0, random_state=0),
    KreinNystroem("precomputed"),
    # break_ties: with 8 landmarks the one-vs-one votes of the check's data tie, and LIBSVM's
    # vote (class order) and the ovr argmax (confidence) then differ, as they do for SVC
    NystroemSVC(n_components=8, break_ties=True, random_state=0),
    NystroemSVC("sigmoid", n_components=8, remedy="clip", break_ties=True, random_state=0),
    # X is a kernel matrix (the checks' linear kernel) and the search is a classifier
    RemedySearchCV(methods=["indefinite SVM", "flip", "k-NN"], param_grid={"C": [1.0, 10.0]},
                   cv=2, random_state=0),
    RemedySearchCV(param_grid={"C": [1.0]}, cv=2, random_state=0),
    # features, their kernel (and gamma's grid) by FeatureKernel
    RemedySearchCV(kernel=FeatureKernel(), methods=["indefinite SVM", "flip", "k-NN"],
                   param_grid={"C": [1.0]}, cv=2, random_state=0),
    # every public estimator with its default parameters (issue 46, item 1)
    ClipEigenvalues(),
    FlipEigenvalues(),
    ShiftEigenvalues(),
    AdvancedShiftEigenvalues(),
    SquareKernel(),
    ClipEigenvalues(centered=True),
    KernelRanking(),
    KreinSVC(),
    ConvexHullClassifier(),
    RandomDistanceFeatures(),
    RandomDistanceFeatures("euclidean", n_components=8, random_state=0),
]

# scikit-learn lists the same expected failures for SVC, NuSVC, SVR and OneClassSVM
# (sklearn/utils/_test_common/instance_generator.py): the duals are solved to tol = 1e-3, so
# weights and repeated samples agree to about tol, not to the check's 1e-7
_WEIGHT_EQUIVALENCE = {
    "check_sample_weight_equivalence_on_dense_data":
        "solved to tol, weights = repeated samples only to about tol (as SVC)",
    "check_sample_weight_equivalence_on_sparse_data":
        "solved to tol, weights = repeated samples only to about tol (as SVC)",
}


def _expected_failures(estimator):
    if isinstance(estimator, (IndefiniteSVC, IndefiniteNuSVC, IndefiniteSVR, IndefiniteNuSVR,
                              IndefiniteOneClassSVM, KreinSVC)):
        out = dict(_WEIGHT_EQUIVALENCE)
        if isinstance(estimator, IndefiniteNuSVC):
            # the check's class weights (up to 10^4 : 1) leave no nu feasible: reported
            # as such (scikit-learn's NuSVC ignores class_weight and fails the check too)
            out["check_class_weight_classifiers"] = "weights make every nu infeasible"
        if isinstance(estimator, IndefiniteSVC) and not estimator.fit_intercept:
            # problem (19) has one bound C in its compiled loop: weights that differ between
            # samples are refused by name
            out["check_class_weight_classifiers"] = "(19) takes one C; weights refused"
            out["check_sample_weights_not_overwritten"] = "(19) takes one C; weights refused"
        return out
    if isinstance(estimator, (PairwiseDistances, RandomDistanceFeatures)) and \
            estimator.metric == "dtw":
        # DTW compares series of any lengths: transform takes series of another length than
        # fit's, so there is no fixed n_features_in_ to enforce (lists of unequal series
        # are the common input)
        why = "DTW takes series of any length: no fixed number of features"
        return {"check_n_features_in_after_fitting": why, "check_n_features_in": why,
                "check_transformer_general": why}
    if isinstance(estimator, NystroemSVC):
        # the landmarks are drawn from the rows: repeating or removing rows changes them
        why = "landmarks are drawn from the rows, which the check repeats or removes"
        return {"check_sample_weight_equivalence_on_dense_data": why,
                "check_sample_weight_equivalence_on_sparse_data": why}
    if isinstance(estimator, RemedySearchCV):
        return {
            # as for KernelLogisticRegression(kernel="precomputed") below; on features
            # (FeatureKernel) the check runs, and predict_proba, k-NN's, goes with the
            # choice of an SVM after fit
            "check_decision_proba_consistency":
                "predict_proba is k-NN's, gone when an SVM is chosen"
                if isinstance(estimator.kernel, FeatureKernel)
                else "gives features, not a kernel matrix",
            # the weights go to every SVM, but the search chooses by cross-validated
            # accuracy, which the check's weights (1000 : 1e-4) do not enter, and k-NN is
            # unweighted: the chosen method need not follow the weights
            "check_class_weight_classifiers": "the choice is by unweighted CV accuracy",
            # (run on features only, kernel=FeatureKernel(): the check makes features) a
            # repeated row moves the folds, so the chosen method -- an SVM (no
            # predict_proba) or k-NN -- need not be the one chosen with weights
            "check_sample_weight_equivalence_on_dense_data":
                "repeated rows move the folds and with them the choice",
            # the same on CSR features (FeatureKernel takes them)
            "check_sample_weight_equivalence_on_sparse_data":
                "repeated rows move the folds and with them the choice",
        }
    if isinstance(estimator, KernelLogisticRegression):
        # alpha'alpha has a coefficient per training sample: a weight of 2 scales one
        # sample's loss, two copies share it between two coefficients (documented)
        why = "a weight of 2 is not the sample twice: one coefficient per sample in alpha'alpha"
        out = {"check_sample_weight_equivalence_on_dense_data": why,
               "check_sample_weight_equivalence_on_sparse_data": why}
        if estimator.kernel == "precomputed":
            # scikit-learn's check feeds (n, 2) features to a pairwise estimator here instead
            # of a kernel matrix (SVC skips the check: it has no predict_proba by default)
            out["check_decision_proba_consistency"] = "gives features, not a kernel matrix"
        return out
    return {}


def _name(check):
    check = check.func if isinstance(check, functools.partial) else check
    return check.__name__


# The array-API checks are left out: indefsvm computes with NumPy arrays only and does not
# claim array-API support (scikit-learn skips them unless SCIPY_ARRAY_API=1 anyway).
def _params():
    out = []
    for est in ESTIMATORS:
        for item in estimator_checks_generator(
                est, legacy=True, expected_failed_checks=_expected_failures(est), mark="xfail"):
            # expected failures come as pytest.param(estimator, check, marks=xfail)
            values, marks = (item, ()) if isinstance(item, tuple) and len(item) == 2 else (
                item.values, item.marks)
            if "array_api" in _name(values[1]):
                continue
            out.append(pytest.param(*values, marks=marks, id=f"{values[0]!r}-{_name(values[1])}"))
    return out


@pytest.mark.parametrize("estimator,check", _params())
# scikit-learn's checks fit on a few random points: folds with one member of a class, and
# SVM fits there that stop at max_iter (each such fit says so; the check's own assertion is
# what this test holds)
@pytest.mark.filterwarnings("ignore:The least populated class in y:UserWarning")
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
# ConvexHullClassifier on the checks' few random points: the reduced hulls may touch (w'Mw
# zero within rounding), which it says; the check's own assertion is what this test holds
@pytest.mark.filterwarnings("ignore:w'Mw = :UserWarning")
# the checks weight a search that holds k-NN, which says it votes unweighted (the warning's
# own test is in test_search.py)
@pytest.mark.filterwarnings("ignore:sample_weight weights the SVM methods only:UserWarning")
def test_sklearn_compatible(estimator, check):
    check(estimator)
