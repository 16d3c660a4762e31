"""A callable kernel reads its objects as given everywhere the SVMs let it: strings, graphs,
series of several lengths. ``IndefiniteSVC(kernel=f).fit(strings, y)`` trained (scikit-learn's
SVC passes such X to a callable kernel), while ``check_kernel(X=strings, kernel=f)`` -- the
check before training -- ``kernel_matrix``, ``FeatureKernel``, ``KreinSVC`` and
``KernelLogisticRegression`` refused them as "X holds strings; a kernel of features takes
feature vectors of one length". Each now gives what the same kernel gives as a matrix."""

import numpy as np
import pytest

import indefsvm as isvm


def _similarity(A, B):
    """A hand-made similarity of strings: shared characters over the longer length (not
    PSD in general)."""
    return np.array([[len(set(a) & set(b)) / max(len(a), len(b)) - 0.3 for b in B]
                     for a in A])


@pytest.fixture(scope="module")
def strings():
    S, y = isvm.datasets.make_motif_strings(60, random_state=0)
    return list(S), np.asarray(y)


def test_kernel_matrix_and_check_kernel_read_the_objects(strings):
    S, y = strings
    K = _similarity(S, S)
    np.testing.assert_array_equal(isvm.kernel_matrix(S, kernel=_similarity), K)
    np.testing.assert_array_equal(isvm.kernel_matrix(S[:5], S, kernel=_similarity), K[:5])
    assert (isvm.check_kernel(X=S, y=y, kernel=_similarity).to_dict()["spectrum"]
            == isvm.check_kernel(K, y).to_dict()["spectrum"])
    with pytest.raises(ValueError, match="objects .* are checked on their matrix"):
        isvm.check_kernel(X=S, kernel=_similarity, method="slq")


@pytest.mark.parametrize("make", [
    lambda k: isvm.IndefiniteSVC(kernel=k, C=10),
    lambda k: isvm.KreinSVC(kernel=k, C=10),
    lambda k: isvm.KernelLogisticRegression(kernel=k, C=10),
], ids=["IndefiniteSVC", "KreinSVC", "KernelLogisticRegression"])
def test_the_estimators_fit_the_objects_as_their_matrix(strings, make):
    S, y = strings
    K = _similarity(S, S)
    ours = make(_similarity).fit(S[:40], y[:40])
    ref = make("precomputed").fit(K[:40, :40], y[:40])
    np.testing.assert_allclose(ours.decision_function(S[40:]),
                               ref.decision_function(K[40:, :40]), rtol=1e-10, atol=1e-12)


def test_feature_kernel_transforms_the_objects(strings):
    S, y = strings
    K = _similarity(S, S)
    fk = isvm.FeatureKernel(_similarity).fit(S[:40])
    assert fk.n_train_ == 40 and not hasattr(fk, "n_features_in_")
    np.testing.assert_array_equal(fk.transform(S[40:]), K[40:, :40])
    np.testing.assert_array_equal(isvm.FeatureKernel(_similarity).fit_transform(S), K)
    # a refit on objects after one on vectors keeps no width of those vectors
    fk = isvm.FeatureKernel(lambda A, B: np.atleast_2d(A) @ np.atleast_2d(B).T).fit(
        np.ones((5, 3)))
    assert fk.n_features_in_ == 3
    fk.set_params(kernel=_similarity).fit(S[:10])
    assert not hasattr(fk, "n_features_in_")


def test_numbers_given_to_a_callable_are_still_checked():
    # numbers of one shape are features: finite, 2-D, as for a named kernel
    X = np.array([[np.nan, 1.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="NaN or infinity"):
        isvm.kernel_matrix(X, kernel=lambda A, B: A @ B.T)
    with pytest.raises(ValueError, match="Input X contains NaN"):  # scikit-learn's words
        isvm.KreinSVC(kernel=lambda A, B: A @ B.T).fit(X, [0, 1])


def test_the_search_names_the_route_for_a_callable_of_objects(strings):
    S, y = strings
    with pytest.raises(ValueError, match=r"A callable kernel of objects is searched on its "
                                         r"matrix: K = indefsvm.kernel_matrix\(X, kernel=f\)"):
        isvm.RemedySearchCV(kernel=isvm.FeatureKernel(_similarity), cv=3).fit(S, y)
