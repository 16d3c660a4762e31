"""scikit-learn's estimator checks on IndefiniteSVC."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from indefsvm import IndefiniteSVC

ESTIMATORS = [
    IndefiniteSVC(),
    IndefiniteSVC(kernel="linear"),
    IndefiniteSVC(kernel="precomputed"),
    IndefiniteSVC(kernel="sigmoid", gamma="auto", coef0=-1.0, C=10.0),
]


@parametrize_with_checks(ESTIMATORS)
def test_sklearn_compatible(estimator, check):
    check(estimator)
