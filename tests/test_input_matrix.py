"""Every public entry point over dtypes, layouts and containers: the same answer as float64
C-ordered input, or a clear error -- and the caller's array is never changed.

Cells: 9 input forms (dtypes and layouts) + 9 containers (list, pandas, seven scipy sparse
formats and a sparse array), against the entry points below. Each cell either gives what the
reference input gives (to 1e-12) or raises ValueError / TypeError with a message naming the
input; a checksum taken before the call is compared after it.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

import indefsvm as isvm

rng = np.random.default_rng(11)
# multiples of 1/8 in [-4, 4]: exact in float16 and float32, so those dtypes must give the
# float64 answer exactly
X_REF = np.round(np.clip(rng.normal(size=(40, 4)), -4, 4) * 8) / 8
Y_REF = np.where(X_REF[:, 0] + X_REF[:, 1] > 0, 1, -1)


def _digest(obj) -> str:
    if sp.issparse(obj):
        obj = obj.tocoo()
        parts = [np.asarray(obj.data), np.asarray(obj.row), np.asarray(obj.col)]
    elif isinstance(obj, pd.DataFrame):
        parts = [obj.to_numpy()]
    elif isinstance(obj, list):
        parts = [np.asarray(obj, dtype=object).astype(str)]
    else:
        parts = [np.asarray(obj)]
    h = hashlib.sha256()
    for p in parts:
        h.update(np.ascontiguousarray(p).tobytes())
    return h.hexdigest()


def _forms(X=X_REF):
    ro = X.copy()
    ro.setflags(write=False)
    wide = np.zeros((X.shape[0], 2 * X.shape[1]))
    wide[:, ::2] = X
    yield "float64", X.copy()
    yield "float32", X.astype(np.float32)
    yield "float16", X.astype(np.float16)
    yield "int", np.round(X * 8).astype(np.int64)  # other values: compared with its own ref
    yield "bool", X > 0
    yield "object", X.astype(object)
    yield "fortran", np.asfortranarray(X)
    yield "strided view", wide[:, ::2]
    yield "read-only", ro
    yield "list", X.tolist()
    yield "dataframe", pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    for fmt in ("csr", "csc", "coo", "lil", "dok", "bsr", "dia"):
        yield f"sparse {fmt}", sp.csr_matrix(X).asformat(fmt)
    yield "sparse csr_array", sp.csr_array(X)


def _memmap(tmp_path):
    path = tmp_path / "x.dat"
    mm = np.memmap(path, dtype=np.float64, mode="w+", shape=X_REF.shape)
    mm[:] = X_REF
    mm.flush()
    return np.memmap(path, dtype=np.float64, mode="r", shape=X_REF.shape)


def _as_float64(X):
    if sp.issparse(X):
        return X.toarray().astype(np.float64)
    if isinstance(X, pd.DataFrame):
        return X.to_numpy(dtype=np.float64)
    return np.asarray(X, dtype=np.float64)


ENTRY_POINTS = {
    "kernel_matrix": lambda X: isvm.kernel_matrix(X, kernel="rbf", gamma=0.3),
    "check_kernel": lambda X: isvm.check_kernel(X=X, y=Y_REF, kernel="rbf", gamma=0.3,
                                                wmw_C=None).signature.p,
    "IndefiniteSVC": lambda X: isvm.IndefiniteSVC(kernel="rbf", gamma=0.3).fit(
        X, Y_REF).decision_function(X),
    "IndefiniteSVR": lambda X: isvm.IndefiniteSVR(kernel="rbf", gamma=0.3).fit(
        X, Y_REF.astype(float)).predict(X),
    "IndefiniteNuSVR": lambda X: isvm.IndefiniteNuSVR(kernel="rbf", gamma=0.3).fit(
        X, Y_REF.astype(float)).predict(X),
    "KernelLogisticRegression": lambda X: isvm.KernelLogisticRegression(
        kernel="rbf", gamma=0.3, class_weight="balanced").fit(X, Y_REF).decision_function(X),
    "ConvexHullClassifier": lambda X: isvm.ConvexHullClassifier(kernel="rbf", gamma=0.3).fit(
        X, Y_REF).decision_function(X),
    "KreinNystroem": lambda X: isvm.KreinNystroem(
        "sigmoid", n_components=20, gamma=0.3, coef0=-0.5, random_state=0).fit(X).transform(X),
    "NystroemSVC": lambda X: isvm.NystroemSVC(
        "sigmoid", n_components=20, gamma=0.3, coef0=-0.5, random_state=0).fit(
        X, Y_REF).decision_function(X),
}

CELLS = [(name, form, X) for name in ENTRY_POINTS for form, X in _forms()]


@pytest.mark.parametrize("entry,form,X", CELLS, ids=[f"{e}-{f}" for e, f, _ in CELLS])
def test_input_cell(entry, form, X):
    call = ENTRY_POINTS[entry]
    before = _digest(X)
    try:
        got = call(X)
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        assert msg and len(msg) > 15, f"{entry} on {form}: an unclear error {exc!r}"
        assert _digest(X) == before, f"{entry} changed its {form} input"
        # the refusals we expect: object arrays that are not numeric, nothing else
        assert form in ("object",), f"{entry} refused {form}: {exc}"
        return
    assert _digest(X) == before, f"{entry} changed its {form} input"
    ref = call(_as_float64(X))
    np.testing.assert_allclose(np.asarray(got, dtype=float), np.asarray(ref, dtype=float),
                               rtol=1e-12, atol=1e-12, err_msg=f"{entry} on {form}")


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_memmap_input(entry, tmp_path):
    X = _memmap(tmp_path)
    before = _digest(X)
    got = ENTRY_POINTS[entry](X)
    assert _digest(X) == before
    np.testing.assert_allclose(np.asarray(got, dtype=float),
                               np.asarray(ENTRY_POINTS[entry](X_REF), dtype=float),
                               rtol=1e-12, atol=1e-12)


def test_precomputed_kernel_forms_are_not_mutated():
    K = isvm.kernel_matrix(X_REF, kernel="sigmoid", gamma=0.2, coef0=-0.3)
    for form in (K.copy(), np.asfortranarray(K), K.astype(np.float32), K.tolist()):
        before = _digest(form)
        isvm.IndefiniteSVC(kernel="precomputed").fit(form, Y_REF)
        isvm.diagnostics.eta_scan(form, Y_REF)
        isvm.solvers.smo(form, Y_REF, C=1.0)
        assert _digest(form) == before


# -- square inputs: kernel and distance matrices ---------------------------------------------

K_REF = np.round(isvm.kernel_matrix(X_REF, kernel="sigmoid", gamma=0.2, coef0=-0.3) * 64) / 64
D_REF = np.round(isvm.pairwise_distances(X_REF, metric="cityblock") * 8) / 8


_SEARCH = dict(methods=["indefinite SVM", "flip", "k-NN"], param_grid={"C": [1.0]}, cv=3,
               random_state=0)
SQUARE_ENTRY_POINTS = {
    "RemedySearchCV (kernel)": (K_REF, lambda M: isvm.RemedySearchCV(**_SEARCH).fit(
        M, Y_REF).cv_results_["mean_test_score"]),
    "RemedySearchCV (distances)": (D_REF, lambda M: isvm.RemedySearchCV(
        kernel=isvm.DistanceKernel(), **_SEARCH).fit(M, Y_REF).cv_results_["mean_test_score"]),
    "AdvancedShiftEigenvalues": (K_REF, lambda M: isvm.remedies.AdvancedShiftEigenvalues(
        rank=10).fit(M).transform(M)),
}
SQUARE_CELLS = [(name, form, M) for name, (base, _) in SQUARE_ENTRY_POINTS.items()
                for form, M in _forms(base)]


@pytest.mark.parametrize("entry,form,M", SQUARE_CELLS,
                         ids=[f"{e}-{f}" for e, f, _ in SQUARE_CELLS])
def test_square_input_cell(entry, form, M):
    """The square matrices of the search and the fixes, in every form of the features'
    cells: the float64 answer, or a clear refusal of object and sparse matrices; the input
    unchanged."""
    call = SQUARE_ENTRY_POINTS[entry][1]
    before = _digest(M)
    try:
        got = call(M)
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        assert msg and len(msg) > 15, f"{entry} on {form}: an unclear error {exc!r}"
        assert _digest(M) == before, f"{entry} changed its {form} input"
        assert form == "object" or form.startswith("sparse"), f"{entry} refused {form}: {exc}"
        return
    assert _digest(M) == before, f"{entry} changed its {form} input"
    ref = call(_as_float64(M))
    np.testing.assert_allclose(np.asarray(got, dtype=float), np.asarray(ref, dtype=float),
                               rtol=1e-12, atol=1e-12, err_msg=f"{entry} on {form}")


def test_complex_inputs_are_refused_by_name():
    import warnings

    from indefsvm.remedies import FlipEigenvalues

    rng = np.random.default_rng(1)
    X = rng.normal(size=(20, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ComplexWarning: an error instead
        with pytest.raises(ValueError, match="(?i)complex"):
            isvm.IndefiniteSVC(kernel="precomputed").fit(K + 0j, y)
        with pytest.raises(ValueError, match="(?i)complex"):
            FlipEigenvalues().fit(K).transform(K[:3] + 1j)
        with pytest.raises(ValueError, match="sample_weight is complex"):
            isvm.IndefiniteSVC(kernel="precomputed").fit(K, y, sample_weight=np.ones(20) + 0j)


def test_a_one_sample_kernel_is_a_kernel_and_an_empty_one_is_refused():
    from indefsvm._validation import check_kernel_matrix

    np.testing.assert_array_equal(check_kernel_matrix([[2.5]]), [[2.5]])
    with pytest.raises(ValueError, match="empty"):
        check_kernel_matrix(np.zeros((0, 0)))


def test_non_finite_kernel_message_names_row_and_column():
    from indefsvm._validation import check_kernel_matrix

    K = np.eye(6)
    K[2, 5] = K[5, 2] = np.nan
    with pytest.raises(ValueError, match=r"first at row 2, column 5"):
        check_kernel_matrix(K)


def test_labels_of_the_wrong_length_are_refused_with_both_lengths():
    from indefsvm._validation import check_binary_labels

    with pytest.raises(ValueError, match="y has 3 entries but there are 2 samples"):
        check_binary_labels([1, -1, 1], 2)


def test_symmetry_threshold_is_1e_10_of_the_largest_entry():
    from indefsvm._validation import check_kernel_matrix

    check_kernel_matrix([[1.0, 0.0], [0.9e-10, 1.0]])
    with pytest.raises(ValueError, match="not symmetric"):
        check_kernel_matrix([[1.0, 0.0], [1.5e-10, 1.0]])


def test_bad_labels_message_lists_the_first_five_values():
    from indefsvm._validation import check_binary_labels

    with pytest.raises(ValueError, match=r"got values \[-3\.0, -2\.0, 0\.0, 2\.0, 3\.0\]\)"):
        check_binary_labels([-3, -2, 0, 2, 3, 4, 5], 7)


def test_messages_name_a_type_with_its_article():
    # "sanity_report of a IndefiniteSVC", "got a int", "is a bytes": read as typos
    X, y = isvm.datasets.load_heart(return_X_y=True)
    with pytest.raises(ValueError, match="sanity_report of an IndefiniteSVC needs"):
        isvm.sanity_report(isvm.IndefiniteSVC().fit(X, y), X, None)
    with pytest.raises(ValueError, match="got an int"):
        isvm.pairwise_distances(5, metric="levenshtein")
    with pytest.raises(ValueError, match=r"X\[0\] is a bytes object"):
        isvm.pairwise_distances([b"ab", "c"], metric="levenshtein")


def test_a_meta_estimator_slicing_rows_of_a_kernel_is_told_what_works():
    # CalibratedClassifierCV(IndefiniteSVC(kernel="precomputed")).fit(K, y) slices K's rows
    # only and fit met (180 x 270): "Precomputed matrix must be a square matrix" (scikit-
    # learn's SVC says the same and no more); the two routes that work are named, and agree
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.pipeline import make_pipeline

    X, y = isvm.datasets.load_heart(return_X_y=True)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=0.5)
    with pytest.raises(ValueError, match=r"Precomputed matrix must be a square matrix\. Input "
                                         r"is a 180x270 matrix\. .*CalibratedClassifierCV.* "
                                         r"give it the features and a kernel name"):
        CalibratedClassifierCV(isvm.IndefiniteSVC(kernel="precomputed"), cv=3).fit(K, y)
    sig = {"gamma": 0.01, "coef0": 0.5}
    named = CalibratedClassifierCV(isvm.IndefiniteSVC(kernel="sigmoid", **sig), cv=3).fit(X, y)
    piped = CalibratedClassifierCV(make_pipeline(isvm.FeatureKernel("sigmoid", **sig),
                                                 isvm.IndefiniteSVC(kernel="precomputed")),
                                   cv=3).fit(X, y)
    # what the two routes promise, not two arithmetics' last bits: the pipeline's kernel is
    # the named one to rounding (the compiled sigmoid and NumPy's differ by an ulp), and
    # every fold's SMO stops at a stationary point within its tol -- two such points (108
    # and 105 iterations on one machine) give decision values that differ by O(tol), so
    # the calibrated probabilities agree to a few tol, no closer
    np.testing.assert_allclose(isvm.FeatureKernel("sigmoid", **sig).fit_transform(X), K,
                               rtol=1e-12, atol=1e-14)
    for model in (named, piped):
        for calibrated in model.calibrated_classifiers_:
            svm = calibrated.estimator
            svm = svm[-1] if hasattr(svm, "steps") else svm
            assert svm.converged_ and svm.kkt_gap_ <= svm.tol
    tol = isvm.IndefiniteSVC().tol
    np.testing.assert_allclose(piped.predict_proba(X), named.predict_proba(X), atol=10 * tol)
