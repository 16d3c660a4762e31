"""scikit-learn's estimator checks on IndefiniteSVC."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from indefsvm import IndefiniteSVC, KernelLogisticRegression

ESTIMATORS = [
    IndefiniteSVC(),
    IndefiniteSVC(kernel="linear"),
    IndefiniteSVC(kernel="precomputed"),
    IndefiniteSVC(kernel="sigmoid", gamma="auto", coef0=-1.0, C=10.0),
    IndefiniteSVC(fit_intercept=False),
    KernelLogisticRegression(),
    KernelLogisticRegression(kernel="precomputed", solver="cg"),
]


def _expected_failures(estimator):
    if isinstance(estimator, KernelLogisticRegression) and estimator.kernel == "precomputed":
        # scikit-learn's check feeds (n, 2) features to a pairwise estimator here instead of a
        # kernel matrix (SVC skips the check: it has no predict_proba by default)
        return {"check_decision_proba_consistency": "gives features, not a kernel matrix"}
    return {}


@parametrize_with_checks(ESTIMATORS, expected_failed_checks=_expected_failures)
def test_sklearn_compatible(estimator, check):
    check(estimator)
