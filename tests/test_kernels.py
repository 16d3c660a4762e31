"""Kernel functions against their formulas, and the compiled column cache against them."""

import os
import re
import subprocess
import sys
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from test_cli_explore import HUGE

import indefsvm as isvm
from indefsvm import kernels
from indefsvm._solvers._kcache import KernelCache
from indefsvm.kernels import _COMPILED_KIND, l1_gaussian

rng = np.random.default_rng(0)
X = rng.uniform(-1, 1, (7, 4))
Y = rng.uniform(-1, 1, (5, 4))
P = rng.uniform(0.05, 1.0, (7, 4))
P /= P.sum(axis=1, keepdims=True)


def brute(f, A, B):
    return np.array([[f(a, b) for b in B] for a in A])


FORMULAS = {
    "linear": ({}, lambda a, b: a @ b),
    "polynomial": (dict(degree=3, gamma=0.7, coef0=0.4), lambda a, b: (0.7 * a @ b + 0.4) ** 3),
    "rbf": (dict(gamma=0.9), lambda a, b: np.exp(-0.9 * np.sum((a - b) ** 2))),
    "sigmoid": (dict(gamma=0.8, coef0=-0.3), lambda a, b: np.tanh(0.8 * a @ b - 0.3)),
    "l1_gaussian": (dict(gamma=0.6), lambda a, b: np.exp(-0.6 * np.sum(np.abs(a - b)) ** 2)),
    "sqrt_l1_exponential": (
        dict(gamma=0.5), lambda a, b: np.exp(-0.5 * np.sqrt(np.sum(np.abs(a - b))))),
    "symmetric_kl": (
        dict(gamma=0.4),
        lambda a, b: np.exp(-0.4 * (np.sum(a * np.log(a / b)) + np.sum(b * np.log(b / a))))),
    "pseudo_euclidean": (dict(p=2), lambda a, b: a[:2] @ b[:2] - a[2:] @ b[2:]),
}


@pytest.mark.parametrize("name", sorted(FORMULAS))
def test_kernel_matches_formula(name):
    params, f = FORMULAS[name]
    A, B = (P, P[:5]) if name == "symmetric_kl" else (X, Y)
    got = isvm.kernel_matrix(A, B, kernel=name, **params)
    np.testing.assert_allclose(got, brute(f, A, B), rtol=1e-12, atol=1e-12)
    # the module-level function is the same thing
    func = getattr(kernels, name)
    np.testing.assert_allclose(func(A, B, **params), got, rtol=0, atol=0)
    # Y=None means Y = X
    np.testing.assert_allclose(isvm.kernel_matrix(A, kernel=name, **params),
                               brute(f, A, A), rtol=1e-12, atol=1e-12)


def test_sigma_is_gamma_over_two_sigma_squared():
    a = kernels.sqrt_l1_exponential(X, sigma=2.0)
    b = kernels.sqrt_l1_exponential(X, gamma=1 / 8)
    np.testing.assert_allclose(a, b)
    with pytest.raises(ValueError, match="gamma or sigma"):
        kernels.symmetric_kl(P, gamma=1.0, sigma=1.0)


def test_gamma_default_is_one_over_n_features():
    np.testing.assert_allclose(kernels.rbf(X), kernels.rbf(X, gamma=1 / X.shape[1]))


def test_callable_kernel():
    K = isvm.kernel_matrix(X, Y, kernel=lambda A, B, s=1.0: s * A @ B.T, s=2.0)
    np.testing.assert_allclose(K, 2 * X @ Y.T)
    with pytest.raises(ValueError, match="returned shape"):
        isvm.kernel_matrix(X, Y, kernel=lambda A, B: A @ A.T)


def test_kernel_errors():
    with pytest.raises(ValueError, match="Unknown kernel='nope'"):
        isvm.kernel_matrix(X, kernel="nope")
    with pytest.raises(ValueError, match="unexpected"):
        isvm.kernel_matrix(X, kernel="rbf", coef0=1.0)
    with pytest.raises(ValueError, match="strictly positive"):
        kernels.symmetric_kl(X)
    with pytest.raises(ValueError, match="p must be between"):
        kernels.pseudo_euclidean(X, p=9)
    with pytest.raises(ValueError, match="same number"):
        kernels.linear(X, Y[:, :2])
    with pytest.raises(ValueError, match="NaN"):
        kernels.rbf(np.array([[np.nan, 1.0]]))


@pytest.mark.parametrize("est, param", [
    (lambda: isvm.IndefiniteSVC(kernel="tl1", kernel_params={"rho": -1.0}), "rho"),
    (lambda: isvm.IndefiniteSVC(kernel="pseudo_euclidean"), "p"),
    (lambda: isvm.FeatureKernel("pseudo_euclidean", kernel_params={"p": 1.5}), "p"),
    (lambda: isvm.KreinSVC(kernel="tl1", kernel_params={"rho": 0.0}), "rho"),
    (lambda: isvm.NystroemSVC(kernel="rbf", gamma=-1.0), "gamma"),
])
def test_a_kernels_own_rules_are_checked_before_the_data(est, param):
    """check_kernel_settings: the rules of a kernel's parameters that need no data are the
    settings' (check_settings, the start of fit), not found inside the kernel's computation
    after the data were read; the error names its parameter."""
    from indefsvm._constraints import check_settings
    from indefsvm.exceptions import ParameterError

    with pytest.raises(ParameterError) as info:
        check_settings(est())
    assert info.value.param == param
    X = np.random.default_rng(0).normal(size=(8, 3))
    with pytest.raises(ParameterError):
        est().fit(X, np.r_[np.zeros(4), np.ones(4)])


def test_the_kernels_rules_keep_the_librarys_words():
    from indefsvm.kernels import check_kernel_settings

    with pytest.raises(ValueError, match=r"^kernel 'pseudo_euclidean' needs p \(kernel_matrix"):
        check_kernel_settings("pseudo_euclidean", "scale", None)
    with pytest.raises(ValueError, match=r"for kernel='rbf' .*; got gamma=-1.0\. A negative "
                                         r"slope is meaningful for kernel='sigmoid' only"):
        check_kernel_settings("rbf", -1.0)
    check_kernel_settings("pseudo_euclidean", "scale", {"p": 2})  # no error
    check_kernel_settings("tl1", "scale", {"rho": 0.5})


@pytest.mark.parametrize("kernel", ["rbf", "sigmoid", "polynomial", "l1_gaussian",
                                    "sqrt_l1_exponential"])
@pytest.mark.parametrize("gamma", ["x", "scale", True, [0.1]])
def test_a_gamma_that_is_no_number_is_named(kernel, gamma):
    # not Python's "could not convert string to float: 'x'" (and True is no gamma of 1)
    with pytest.raises(ValueError, match=r"gamma must be a number \(None: 1 / n_features\); "
                                         f"got {re.escape(repr(gamma))}"):
        isvm.kernel_matrix(np.abs(X), kernel=kernel, gamma=gamma)


def test_a_gamma_of_numpy_is_the_number():
    for g in (np.float32(0.25), np.asarray(0.25), np.int64(1)):
        assert np.array_equal(isvm.kernel_matrix(X, kernel="rbf", gamma=g),
                              isvm.kernel_matrix(X, kernel="rbf", gamma=float(g)))


COMPILED = [k for k in _COMPILED_KIND if k != "precomputed"]


@pytest.mark.parametrize("name", COMPILED)
def test_compiled_columns_match_kernel_matrix(name):
    params, _ = FORMULAS[name]
    A = P if name == "symmetric_kl" else X
    K = isvm.kernel_matrix(A, kernel=name, **params)
    cache = KernelCache(_COMPILED_KIND[name], A, None, params.get("gamma", 1.0),
                        params.get("coef0", 0.0), params.get("degree", 3), 200.0, A.shape[0])
    for i in range(A.shape[0]):
        np.testing.assert_allclose(cache.get_column(i, A.shape[0]), K[:, i], rtol=1e-12,
                                   atol=1e-13)


@pytest.mark.parametrize("float32", [False, True])
@pytest.mark.parametrize("kind", ["precomputed", "rbf", "rbf_sparse"])
def test_cache_stays_consistent_under_swaps_and_evictions(kind, float32):
    """Columns served after swaps, truncations and evictions equal the permuted matrix (to the
    float32 rounding of the stored columns, or exactly)."""
    r = np.random.default_rng(1)
    A = r.uniform(-1, 1, (40, 3))
    A[A < -0.5] = 0.0  # some structural zeros for the sparse rows
    K = isvm.kernel_matrix(A, kernel="rbf", gamma=0.5)
    n = A.shape[0]
    size = 4 if float32 else 8
    tiny = 3 * size * n / 1048576  # room for three columns: constant evictions
    if kind == "precomputed":
        cache = KernelCache(0, None, K, 0.0, 0.0, 0, tiny, n, float32)
    elif kind == "rbf":
        cache = KernelCache(_COMPILED_KIND["rbf"], A, None, 0.5, 0.0, 3, tiny, n, float32)
    else:
        S = sp.csr_matrix(A)
        parts = (S.data, S.indices.astype(np.intp), S.indptr.astype(np.intp), A.shape[1])
        cache = KernelCache(_COMPILED_KIND["rbf"], None, None, 0.5, 0.0, 3, tiny, n, float32,
                            parts)
    assert cache.n_slots == 3
    rtol = 2.0**-24 if float32 else 1e-12
    for step in range(400):
        i, j = r.integers(0, n, 2)
        if step % 3 == 0:
            cache.swap_samples(int(i), int(j))
        L = int(r.integers(1, n + 1))
        perm = cache.permutation()
        col = cache.get_column(int(i), L)
        np.testing.assert_allclose(col, K[perm[:L], perm[i]], rtol=rtol, atol=1e-14)
        np.testing.assert_allclose(cache.get_exact_column(int(i), L), K[perm[:L], perm[i]],
                                   rtol=1e-12, atol=1e-14)
    assert cache.n_hits > 0 and cache.n_misses > 0


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("float32", [False, True])
def test_a_batch_of_swaps_equals_the_swaps_one_at_a_time(float32, threads):
    """The shrinking's swaps applied to the cached columns all at once (column by column,
    the columns shared among two threads when there are enough) leave the cache as the
    same swaps one at a time do: the same permutation, the same entries kept (the same
    hits and misses after), every column the permuted matrix's."""
    r = np.random.default_rng(3)
    n = 600
    A = r.normal(size=(n, 5))
    K = isvm.kernel_matrix(A, kernel="rbf", gamma=0.3)
    caches = [KernelCache(_COMPILED_KIND["rbf"], A, None, 0.3, 0.0, 3, 200.0, n, float32)
              for _ in range(2)]
    # every column cached: half of them whole (they hold every swap), half a prefix (cut
    # back by a swap that reaches past it)
    lengths = np.where(np.arange(n) % 2 == 0, n, r.integers(1, n + 1, n))
    for cache in caches:
        cache.n_threads = threads
        for i in range(n):
            cache.get_column(i, int(lengths[i]))
    # random pairs (repeats and i == j included), then a shrink's: t up, active down
    pairs = np.vstack([r.integers(0, n, (300, 2)),
                       np.c_[np.arange(0, 200, 2), np.arange(n - 1, n - 201, -2)]])
    for i, j in pairs:  # 400 pairs x 600 columns: above the threads' threshold
        caches[0].swap_samples(int(i), int(j))
    caches[1].swap_batch(pairs, split=threads > 1)
    perm = caches[0].permutation()
    np.testing.assert_array_equal(caches[1].permutation(), perm)
    before = [(c.n_hits, c.n_misses) for c in caches]
    rtol = 2.0**-24 if float32 else 1e-12
    for i in range(n):
        L = int(r.integers(1, n + 1))
        one, batch = caches[0].get_column(i, L), caches[1].get_column(i, L)
        np.testing.assert_array_equal(batch, one)
        np.testing.assert_allclose(batch, K[perm[:L], perm[i]], rtol=rtol, atol=1e-14)
    hits = [(c.n_hits - h, c.n_misses - m) for c, (h, m) in zip(caches, before, strict=True)]
    assert hits[0] == hits[1] and hits[1][0] > 100
    with pytest.raises(ValueError, match="positions"):
        caches[1].swap_batch([[0, n]])


@pytest.mark.parametrize("name", COMPILED)
def test_float32_columns_are_the_rounded_float64_columns(name):
    params, _ = FORMULAS[name]
    A = P if name == "symmetric_kl" else X
    n = A.shape[0]
    cache = KernelCache(_COMPILED_KIND[name], A, None, params.get("gamma", 1.0),
                        params.get("coef0", 0.0), params.get("degree", 3), 200.0, n, True)
    for i in range(n):
        exact = cache.get_exact_column(i, n)
        np.testing.assert_array_equal(cache.get_column(i, n),
                                      exact.astype(np.float32).astype(np.float64))


@pytest.mark.parametrize("name", ["linear", "polynomial", "rbf", "sigmoid"])
def test_sparse_rows_give_the_dense_columns(name):
    params, _ = FORMULAS[name]
    A = X.copy()
    A[np.abs(A) < 0.4] = 0.0
    A[3] = 0.0  # empty rows, one of them the last
    A[-1] = 0.0
    S = sp.csr_matrix(A)
    parts = (S.data, S.indices.astype(np.intp), S.indptr.astype(np.intp), A.shape[1])
    n = A.shape[0]
    K = isvm.kernel_matrix(A, kernel=name, **params)
    cache = KernelCache(_COMPILED_KIND[name], None, None, params.get("gamma", 1.0),
                        params.get("coef0", 0.0), params.get("degree", 3), 200.0, n, False,
                        parts)
    for i in range(n):
        np.testing.assert_allclose(cache.get_column(i, n), K[:, i], rtol=1e-12, atol=1e-14)


def test_compiled_exp_and_tanh_at_the_extremes():
    """The vectorised exp/tanh of _vmath.h against numpy where libm-free code goes wrong
    first: underflow of exp, saturation of tanh, tiny tanh arguments, the 1/4 switch point."""
    A = np.array([[0.0], [1.0], [30.0], [40.0]])
    n = A.shape[0]
    # rbf with gamma = 1: exp(0), exp(-1), exp(-900) (denormal range: returned as 0),
    # exp(-1600) (0)
    cache = KernelCache(_COMPILED_KIND["rbf"], A, None, 1.0, 0.0, 3, 1.0, n)
    np.testing.assert_allclose(cache.get_column(0, n), np.exp(-A[:, 0] ** 2), rtol=4e-16,
                               atol=1e-300)
    z = np.concatenate([[0.0, 1e-300, 1e-12, 1e-5], np.linspace(-0.3, 0.3, 61),
                        np.linspace(-25, 25, 101), [-19.5, 20.5, 700.0]])
    # sigmoid with gamma = 1, coef0 = 0: column 0 is tanh(B @ (0, 1)) = tanh(z), z exact
    B = np.c_[np.ones_like(z), z]
    B[0] = [0.0, 1.0]
    cache = KernelCache(_COMPILED_KIND["sigmoid"], B, None, 1.0, 0.0, 3, 1.0, B.shape[0])
    got = cache.get_column(0, B.shape[0])
    want = np.tanh(B @ B[0])
    np.testing.assert_allclose(got, want, rtol=8 * np.finfo(float).eps, atol=0)


def test_baseline_variant_of_the_vectorised_loops(tmp_path):
    """The compiled exp/tanh, selection scans and the linear SVM's row loops exist twice
    (baseline ISA and AVX2 + FMA); on an AVX2 machine the baseline one only runs when
    INDEFSVM_DISABLE_AVX2=1. Run the column, SMO and linear SVM checks under it in a fresh
    process."""
    code = """
import numpy as np
import indefsvm as isvm
from indefsvm._solvers._kcache import KernelCache
from indefsvm.kernels import _COMPILED_KIND
from indefsvm.solvers import smo
# exp: 1-D points on a 1/8 grid, so the squared distances are exact
A = (np.arange(300.0) / 8.0)[:, None]
c = KernelCache(_COMPILED_KIND["rbf"], A, None, 0.5, 0.0, 3, 50.0, 300, True)
for i in range(0, 300, 7):
    np.testing.assert_allclose(c.get_exact_column(i, 300), np.exp(-0.5 * (A[:, 0] - A[i, 0]) ** 2),
                               rtol=4e-16, atol=1e-300)
# tanh: the dot products z * 1 are exact
z = np.concatenate([np.linspace(-0.3, 0.3, 61), np.linspace(-25, 25, 101), [1e-12, -1e-5]])
B = np.c_[np.zeros_like(z), z]
B[0] = [0.0, 1.0]
c = KernelCache(_COMPILED_KIND["sigmoid"], B, None, 1.0, 0.0, 3, 1.0, B.shape[0], True)
np.testing.assert_allclose(c.get_exact_column(0, B.shape[0]), np.tanh(B @ B[0]),
                           rtol=8 * np.finfo(float).eps, atol=0)
r = np.random.default_rng(0)
A = r.uniform(-1, 1, (300, 5))
y = np.where(A[:, 0] > 0, 1.0, -1.0)
res = smo(A, y, C=10.0, kernel="rbf", kernel_params={"gamma": 2.0}, cache_dtype="float32")
K = isvm.kernel_matrix(A, kernel="rbf", gamma=2.0)
g = -y * (y * (K @ (y * res.alpha)) - 1)
C = 10.0
up = ((res.alpha < C) & (y > 0)) | ((res.alpha > 0) & (y < 0))
low = ((res.alpha < C) & (y < 0)) | ((res.alpha > 0) & (y > 0))
assert res.converged and g[up].max() - g[low].min() <= 1e-3
# the linear SVM's row loops (float32 rows, float64 sums): the same bits in both variants
from indefsvm.solvers import linear_svc
Z = r.normal(size=(400, 37)).astype(np.float32)
lin = linear_svc(Z, np.where(Z[:, 0] + 0.3 * Z[:, 1] > 0, 1.0, -1.0), C=2.0, random_state=0)
assert lin.converged
print(repr(res.objective), repr(float(lin.extra["w"].sum())), repr(lin.b))
"""
    script = tmp_path / "base_variant.py"
    script.write_text(code)
    outs = []
    for flag in ("1", "0"):
        env = dict(os.environ, INDEFSVM_DISABLE_AVX2=flag)
        done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                              env=env, cwd=tmp_path, timeout=120)
        assert done.returncode == 0, done.stderr
        outs.append([float(v) for v in done.stdout.split()])
    assert outs[0][0] == pytest.approx(outs[1][0], rel=1e-9)
    assert outs[0][1:] == outs[1][1:]


@pytest.mark.parametrize("name", ["rbf", "l1_gaussian", "sqrt_l1_exponential", "symmetric_kl"])
def test_negative_gamma_of_a_distance_kernel_is_refused(name):
    X = np.random.default_rng(0).uniform(0.1, 1.0, (5, 3))
    with pytest.raises(ValueError, match="gamma must be >= 0"):
        isvm.kernel_matrix(X, kernel=name, gamma=-0.5)
    # the sigmoid's negative slope is a case of Lin & Lin's table: allowed
    assert np.all(np.isfinite(isvm.kernel_matrix(X, kernel="sigmoid", gamma=-0.5)))


def test_polynomial_degree_and_overflow_are_named():
    X = 10.0 * np.ones((3, 2))
    with pytest.raises(ValueError, match="degree must be a whole number"):
        isvm.kernels.polynomial(X, degree=2.7)
    with pytest.raises(ValueError, match="degree must be a whole number"):
        isvm.kernels.polynomial(X, degree=-1)
    with pytest.raises(ValueError, match="polynomial kernel .* not finite"):
        isvm.kernels.polynomial(X, degree=400, gamma=10.0)


def test_gamma_scale_variance_of_large_data_is_numpys_without_its_temporary():
    """gamma="scale" is 1 / (d X.var()): NumPy's own bits up to 2^22 entries (scikit-learn's
    SVC then has the very gamma), the blocked two passes above within rounding -- also with
    a mean far from zero, where one pass of sums of squares would cancel."""
    rng = np.random.default_rng(3)
    small = rng.normal(size=(1000, 7))
    assert kernels.resolve_gamma("scale", small) == 1.0 / (7 * small.var())
    big = 1e4 + rng.normal(scale=0.5, size=(300_001, 15))
    assert big.size > kernels._BLOCKED_VARIANCE
    assert kernels._variance(big) == pytest.approx(big.var(), rel=1e-9)
    assert kernels.resolve_gamma("scale", big) == pytest.approx(1.0 / (15 * big.var()),
                                                                rel=1e-9)
    assert kernels.resolve_gamma("scale", np.zeros((300_001, 15))) == 1.0


@pytest.mark.parametrize("kernel", ["linear", "polynomial", "rbf", "sigmoid"])
def test_kernels_of_features_whose_products_overflow_say_so(kernel):
    # before: "K contains NaN or infinity (first at row 0, column 0); fix the kernel or the
    # data that produced it" (rbf, sigmoid) or "has values that are not finite (an
    # overflow)" -- now the features, their largest value and the fix
    with pytest.raises(ValueError, match=r"X has values up to 1\.3e\+160: the "
                                         f"{kernel} kernel multiplies features, and their "
                                         r"products overflow float64 .* Scale the features"):
        # (the linear kernel takes no gamma: given one, that is what is said)
        isvm.check_kernel(X=HUGE, kernel=kernel, **({} if kernel == "linear" else {"gamma": 1.0}))
    # one step inside float64: the kernel is computed
    small = HUGE / 1e160 * 1e150
    assert np.all(np.isfinite(isvm.kernel_matrix(small, kernel="linear")))


def test_a_kernel_matrix_too_big_is_said_before_the_work():
    # NumPy's "Unable to allocate 7.28 TiB", after the inputs' checks; now the figure and
    # what works at that size, before any work
    with pytest.raises(MemoryError, match=r"A 1000000 x 1000000 kernel matrix needs about "
                                          r"7450\.6 GiB .* train on landmarks"):
        isvm.kernel_matrix(np.zeros((10**6, 2)))


def test_l1_gaussian_of_far_points_is_zero_without_an_overflow_warning():
    # (gamma d) d overflows to inf where gamma d^2 > 1.8e308, and exp(-inf) = 0 is the
    # kernel's value in float64; numpy's "overflow encountered in multiply" leaked out
    X = np.array([[0.0, 1e300], [1.0, -1e300]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        K = l1_gaussian(X)
    np.testing.assert_array_equal(K, np.eye(2))
    # a gamma small enough for the product to stay finite keeps its value: exp(-1)
    K = l1_gaussian(np.array([[0.0], [1e155]]), gamma=1e-310)
    assert K[0, 1] == pytest.approx(np.exp(-1.0), rel=1e-6)


def test_pseudo_euclidean_without_p_says_how_check_kernel_takes_it():
    X = np.random.default_rng(0).normal(size=(10, 3))
    with pytest.raises(ValueError, match=r"check_kernel: p=\.\.\."):
        isvm.check_kernel(X=X, kernel="pseudo_euclidean")
    assert isvm.check_kernel(X=X, kernel="pseudo_euclidean", p=2).signature.q >= 1


@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly", "sigmoid", "l1_gaussian"])
def test_features_whose_products_underflow_are_refused_by_name(kernel):
    # features near 1e-160: gamma="scale" was 1 / subnormal = inf ("gamma must be a finite
    # number; got inf", a gamma nobody gave); near 1e-200 the variance was 0, gamma fell
    # back to 1 and the kernel was constant: every SVM predicted one class, without a word.
    # The linear kernel's products were 0 there too. One step inside, all is as before.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] + 0.3 * X[:, 1] > 0).astype(int)
    for factor in (1e-160, 1e-200):
        with pytest.raises(ValueError, match=r"underflow"):
            isvm.IndefiniteSVC(kernel=kernel).fit(X * factor, y)
    with pytest.raises(ValueError, match=r"^X has values of at most 2\.4e-160: the kernel "
                                         r"multiplies features"):
        isvm.IndefiniteSVC(kernel=kernel, gamma=1e305).fit(X * 1e-160, y)
    if kernel != "linear":  # gamma="scale" makes these kernels scale-free
        np.testing.assert_array_equal(
            isvm.IndefiniteSVC(kernel=kernel).fit(X * 1e-140, y).predict(X * 1e-140),
            isvm.IndefiniteSVC(kernel=kernel).fit(X, y).predict(X))
    if kernel in ("rbf", "sigmoid"):
        with pytest.raises(ValueError, match=r"gamma's 'scale' rule .* the variance of X "
                                             r"\(values of at most 2\.4e-200\) underflows"):
            isvm.IndefiniteSVC(kernel=kernel).fit(X * 1e-200, y)
    if kernel in ("linear", "poly", "sigmoid"):
        with pytest.raises(ValueError, match=r"^X has values of at most 2\.4e-200: the .* "
                                             r"kernel multiplies features, and their products "
                                             r"underflow"):
            isvm.kernel_matrix(X * 1e-200, kernel=kernel)
    else:
        # exp(-gamma d^2) with gamma = 1 on such features is 1 to the last digit: its value
        K = isvm.kernel_matrix(X * 1e-200, kernel=kernel, gamma=1.0)
        np.testing.assert_array_equal(K, np.ones((60, 60)))
    # a constant X keeps scikit-learn's rule (gamma = 1): its variance is 0, not lost
    model = isvm.IndefiniteSVC().fit(np.ones((6, 2)), [0, 1] * 3)
    assert model.predict(np.ones((1, 2)))[0] in (0, 1)
