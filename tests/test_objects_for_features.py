"""Series and strings given where feature vectors or a kernel name go: the first thing a DTW
or edit-distance user types (``IndefiniteSVC(kernel="dtw")``, ``fit(series, y)``) is answered
with the way to their distances, not NumPy's "inhomogeneous shape" or a bare list of names."""

import numpy as np
import pytest
from sklearn.pipeline import make_pipeline

import indefsvm as isvm

SERIES, Y = isvm.datasets.make_cbf(30, length=(50, 60), random_state=0)
WORDS = ["abc", "abd", "xbd"] * 10

FITS = {
    "IndefiniteSVC": lambda X: isvm.IndefiniteSVC().fit(X, Y),
    "KreinSVC": lambda X: isvm.KreinSVC().fit(X, Y),
    "KernelLogisticRegression": lambda X: isvm.KernelLogisticRegression().fit(X, Y),
    "NystroemSVC": lambda X: isvm.NystroemSVC(n_components=5).fit(X, Y),
    "KreinNystroem": lambda X: isvm.KreinNystroem(n_components=5).fit(X),
    "FeatureKernel": lambda X: isvm.FeatureKernel().fit(X),
    "ConvexHullClassifier": lambda X: isvm.ConvexHullClassifier().fit(X, Y % 2),
    "a kernel of features": lambda X: isvm.kernel_matrix(X),
    "check_kernel": lambda X: isvm.check_kernel(X=X, y=Y, kernel="rbf"),
}


@pytest.mark.parametrize("who", sorted(FITS))
@pytest.mark.parametrize("objects, kind, metric", [
    (SERIES, "rows of different lengths", "dtw"), (WORDS, "strings", "levenshtein")])
def test_objects_for_features_name_their_distances(who, objects, kind, metric):
    with pytest.raises(ValueError) as info:
        FITS[who](objects)
    text = str(info.value)
    assert text.startswith(f"X holds {kind}")
    assert f"pairwise_distances(X, metric='{metric}')" in text
    assert f"NystroemSVC(metric='{metric}')" in text
    assert (who if who != "check_kernel" else "a kernel of features") in text


def test_a_fitted_model_says_so_for_objects_to_predict():
    X = np.random.default_rng(0).standard_normal((30, 4))
    model = isvm.IndefiniteSVC().fit(X, Y)
    with pytest.raises(ValueError, match="X holds rows of different lengths.*'dtw'"):
        model.predict(SERIES)


@pytest.mark.parametrize("make", [isvm.IndefiniteSVC, isvm.KreinSVC,
                                  isvm.KernelLogisticRegression, isvm.FeatureKernel])
@pytest.mark.parametrize("kernel", ["dtw", isvm.DistanceKernel()])
def test_a_distance_as_kernel_name_is_refused_with_the_way_to_its_kernel(make, kernel):
    # scikit-learn's constraint message, its names in order (an SVM's begin with the kernel
    # of series it takes by name, 'gak'), and the distance's way in
    with pytest.raises(ValueError, match="must be a str among {('gak', )?'gaussian', "
                                         "'l1_gaussian'") as e:
        make(kernel=kernel).fit(np.ones((4, 2)), [0, 1, 0, 1])
    assert "DistanceKernel().fit_transform(D) with kernel='precomputed'" in str(e.value)


@pytest.mark.parametrize("call", [
    lambda: isvm.check_kernel(X=np.ones((4, 2)), kernel="dtw"),
    lambda: isvm.kernel_matrix(np.ones((4, 2)), kernel="levenshtein"),
    lambda: isvm.NystroemSVC(kernel="dtw").fit(np.ones((4, 2)), [0, 1, 0, 1]),
])
def test_a_distance_name_where_a_kernel_goes_says_the_way_in(call):
    with pytest.raises(ValueError, match=r"Unknown kernel=.*NystroemSVC\(metric='dtw'\)"):
        call()


def test_a_search_on_objects_says_to_compute_their_distances_once():
    with pytest.raises(ValueError, match=r"RemedySearchCV reads a matrix\. For series or "
                                         r"strings compute their distances once"):
        isvm.RemedySearchCV(kernel=isvm.FeatureKernel()).fit(SERIES, Y)
    # equal lengths read as a matrix: a pipeline from the objects is named too
    S = np.asarray(isvm.datasets.make_cbf(30, random_state=0)[0])
    pipe = make_pipeline(isvm.PairwiseDistances(metric="dtw"), isvm.DistanceKernel())
    with pytest.raises(ValueError, match=r"must be square.*RemedySearchCV\(kernel="
                                         r"DistanceKernel\(\)\)\.fit\(D, y\)"):
        isvm.RemedySearchCV(kernel=pipe).fit(S, Y)
    # and the way it names works
    D = isvm.pairwise_distances(S, metric="dtw")
    search = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), methods=["flip"],
                                 param_grid={"C": [1.0]}, cv=3).fit(D, Y)
    assert search.score(D, Y) > 0.9
