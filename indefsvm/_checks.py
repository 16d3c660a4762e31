"""The scikit-learn estimator checks each estimator of indefsvm is expected to fail, and why
(private): the one list that ``tests/test_common.py`` runs the checks with and the user
guide's table repeats (a test holds the two together).

Each is a property of the method, not a defect: scikit-learn lists the same sample-weight
failures for its own SVC, NuSVC, SVR and OneClassSVM.
"""

from __future__ import annotations

__all__ = ["expected_failed_checks"]

# scikit-learn lists the same expected failures for SVC, NuSVC, SVR and OneClassSVM
# (sklearn/utils/_test_common/instance_generator.py): the duals are solved to tol = 1e-3, so
# weights and repeated samples agree to about tol, not to the check's 1e-7
_WEIGHT_EQUIVALENCE = {
    "check_sample_weight_equivalence_on_dense_data":
        "solved to tol, weights = repeated samples only to about tol (as SVC)",
    "check_sample_weight_equivalence_on_sparse_data":
        "solved to tol, weights = repeated samples only to about tol (as SVC)",
}


def expected_failed_checks(estimator) -> dict[str, str]:
    """``{check name: why}`` of the checks of ``sklearn.utils.estimator_checks`` that
    ``estimator`` is expected to fail (``check_estimator(estimator,
    expected_failed_checks=expected_failed_checks(estimator))``)."""
    from ._feature_kernel import FeatureKernel
    from ._metrics import objects_of
    from .distances import PairwiseDistances, RandomDistanceFeatures
    from .klr import KernelLogisticRegression
    from .nystroem import NystroemSVC
    from .remedies import KreinSVC, RemedySearchCV, SeriesSearchCV
    from .svm import (
        IndefiniteNuSVC,
        IndefiniteNuSVR,
        IndefiniteOneClassSVM,
        IndefiniteSVC,
        IndefiniteSVR,
    )

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
            objects_of(estimator.metric) == "series":
        # DTW compares series of any lengths: transform takes series of another length than
        # fit's, so there is no fixed n_features_in_ to enforce (lists of unequal series
        # are the common input)
        why = "DTW takes series of any length: no fixed number of features"
        return {"check_n_features_in_after_fitting": why, "check_n_features_in": why,
                "check_transformer_general": why}
    if isinstance(estimator, SeriesSearchCV):
        # series of any length: predict takes series of another length than fit's
        why = "series of any length: no fixed number of features"
        return {"check_n_features_in_after_fitting": why, "check_n_features_in": why,
                "check_classifiers_train": why}
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
