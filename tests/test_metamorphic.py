"""Metamorphic relations: a change of the input whose effect on the answer is known.

A kernel scaled by s with C / s is the same SVM; swapped labels negate the decision; a
class weight is the sample weights of its class; an integer weight is the sample repeated;
a translation leaves the rbf kernel as it is; a constant added to the targets moves the
regression by that constant. Where the answer must follow the change, these tests say so;
where a fixed, absolute setting (a grid of C, a tolerance in the targets' units) cannot
follow it, the library now says what it did.
"""

import warnings

import numpy as np
import pytest
from sklearn.preprocessing import MinMaxScaler

import indefsvm as isvm
from indefsvm.diagnostics.report import UNSUITABLE, small_c_verdict
from indefsvm.exceptions import ConvergenceWarning


@pytest.fixture(scope="module")
def heart():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    X = MinMaxScaler((-1, 1)).fit_transform(X)[:150]
    return X, y[:150]


@pytest.fixture(scope="module")
def tl1(heart):
    X, y = heart
    return isvm.kernel_matrix(X, kernel="tl1", rho=0.7 * X.shape[1]), y


# ---- check_kernel: the verdict follows the kernel's scale ---------------------------------

def test_the_verdict_of_a_scaled_kernel_names_the_scaled_C(tl1):
    """w'Mw > 0 at C = 0.1 only: the same kernel times 1000 has w'Mw > 0 at C = 1e-4 (the
    same SVM), below the default grid. It was called unsuitable; the default grid now goes
    on downwards while the class means are at c'Kc > 0."""
    K, y = tl1
    base = isvm.check_kernel(K, y)
    assert base.verdict == small_c_verdict(0.1)
    big = isvm.check_kernel(1000.0 * K, y)
    assert big.verdict == small_c_verdict(1e-4), big.verdict
    assert list(big.wmw_by_C) == sorted(big.wmw_by_C)  # read in order of C
    assert big.wmw_by_C[1e-4] > 0 and all(v <= 0 for c, v in big.wmw_by_C.items() if c > 1e-4)
    # the SVM at 1e-4 on 1000 K is the one at 0.1 on K: the same w'Mw, up to the scale
    np.testing.assert_allclose(big.wmw_by_C[1e-4], 1000.0 * base.wmw_by_C[0.1], rtol=1e-6)
    assert "keep C <= 0.0001" in big.notes[-2]


def test_a_grid_the_user_gives_is_not_extended(tl1):
    K, y = tl1
    rep = isvm.check_kernel(1000.0 * K, y, wmw_C=(0.1, 1.0, 10.0, 100.0))
    assert list(rep.wmw_by_C) == [0.1, 1.0, 10.0, 100.0]
    assert rep.verdict == UNSUITABLE


def test_the_extension_stops_where_the_stopping_rule_would_decide():
    """No C of the grid nor below gives w'Mw > 0: the search stops at the first C with
    C n max|K_ij| < 0.1 (there the kernel moves the SVM's gradient by less than 100 tol)."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 3))
    y = np.r_[np.ones(10), -np.ones(30)]
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=rng.uniform(0.1, 2),
                           coef0=rng.uniform(-2, 1))
    rep = isvm.check_kernel(K, y)
    assert rep.class_mean_sqdist > 0 and rep.verdict == UNSUITABLE
    small = min(rep.wmw_by_C)
    reach = 40 * float(np.abs(K).max())
    assert small < 0.1 and small * reach >= 0.1 > small / 10 * reach


def test_class_means_at_no_distance_need_no_smaller_C(heart):
    X, y = heart
    K = -isvm.kernel_matrix(X, kernel="rbf", gamma=0.1)  # c'Kc < 0
    rep = isvm.check_kernel(K, y)
    assert rep.verdict == UNSUITABLE
    assert rep.wmw_by_C is None or min(rep.wmw_by_C) >= 0.1


# ---- regressions: a tolerance in the targets' units says so -------------------------------

def _small_targets(scale):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((100, 3))
    return X, scale * (X[:, 0] + 0.3 * np.sin(3 * X[:, 1]))


@pytest.mark.parametrize("cls, kw", [(isvm.IndefiniteSVR, {"epsilon": 1e-5}),
                                     (isvm.IndefiniteNuSVR, {})])
def test_targets_small_against_tol_are_said(cls, kw):
    """Targets in 1e-3 units: m - M <= 1e-3 holds after a few iterations, far from the
    solution. The fit says so and names the tol that works; that tol gives the model of the
    targets at scale 1, scaled."""
    X, y = _small_targets(1e-3)
    with pytest.warns(UserWarning, match=r"tol=0.001 is .* of the targets' spread") as rec:
        loose = cls(kernel="rbf", **kw).fit(X, y)
    # the stopping rule held: not a ConvergenceWarning (the searches count those as fits
    # stopped by max_iter)
    assert not [w for w in rec if issubclass(w.category, ConvergenceWarning)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tight = cls(kernel="rbf", tol=1e-3 * 1e-3, C=1e-3, **kw).fit(X, y)
    ref = cls(kernel="rbf", C=1.0, **{k: v * 1e3 for k, v in kw.items()}).fit(X, y * 1e3)
    truth = ref.predict(X) * 1e-3
    spread = np.ptp(y)
    assert np.abs(tight.predict(X) - truth).max() < 1e-3 * spread
    assert np.abs(loose.predict(X) - truth).max() > 1e-2 * spread  # what the warning is for


def test_targets_near_one_are_not_warned_about():
    X, y = _small_targets(1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        isvm.IndefiniteSVR(kernel="rbf").fit(X, y)
        isvm.IndefiniteNuSVR(kernel="rbf").fit(X, y)


def test_every_target_inside_the_tube_is_said_to_give_a_constant():
    X, y = _small_targets(1e-3)
    with pytest.warns(UserWarning, match="every sample lies inside the tube") as rec:
        reg = isvm.IndefiniteSVR(kernel="rbf").fit(X, y)  # epsilon = 0.1 >> the spread
    assert reg.support_.shape[0] == 0 and np.ptp(reg.predict(X)) == 0
    # the tube, not the tolerance: the optimum alpha = 0 is exact
    assert not [w for w in rec if issubclass(w.category, ConvergenceWarning)]


# ---- relations every solver keeps --------------------------------------------------------

@pytest.mark.parametrize("k", [-40, -1, 2, 40])
def test_kernel_times_a_power_of_two_with_C_divided_is_the_same_svm(heart, k):
    """K 2^k with C 2^-k: the SMO's steps scale exactly, so the decision values are equal to
    the last bit (C-SVC, epsilon-SVR, nu-SVR and the Krein SVM)."""
    X, y = heart
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.05, coef0=-0.5)
    Kt = K[::4]
    s = 2.0 ** k
    t = X[:, 0] * 2 + np.sin(3 * X[:, 1])
    pairs = [
        (isvm.IndefiniteSVC(kernel="precomputed", C=2.0), y,
         lambda m, A: m.decision_function(A)),
        (isvm.IndefiniteSVR(kernel="precomputed", C=2.0), t, lambda m, A: m.predict(A)),
        (isvm.IndefiniteNuSVR(kernel="precomputed", C=2.0), t, lambda m, A: m.predict(A)),
        (isvm.KreinSVC(kernel="precomputed", C=2.0), y, lambda m, A: m.decision_function(A)),
    ]
    for est, target, out in pairs:
        a = est.fit(K, target)
        fa = out(a, Kt)
        b = type(est)(**{**est.get_params(), "C": 2.0 / s})
        b.fit(K * s, target)
        np.testing.assert_array_equal(out(b, Kt * s), fa, err_msg=type(est).__name__)


def _random_problem(trial):
    rng = np.random.default_rng(trial)
    n = int(rng.integers(4, 60))
    kind = trial % 3
    if kind == 0:  # any symmetric matrix
        A = rng.standard_normal((n, n))
        K = (A + A.T) / 2
    elif kind == 1:  # a sigmoid kernel
        X = rng.standard_normal((n, 3))
        K = np.tanh(X @ X.T * rng.uniform(0.1, 2) + rng.uniform(-2, 1))
    else:  # whole numbers: ties, zero and negative curvatures
        X = rng.integers(0, 3, (n, 2)).astype(float)
        K = X @ X.T - 2.0
    y = np.where(rng.random(n) < 0.5, 1, -1)
    y[0], y[1] = 1, -1
    return K, y, float(rng.choice([0.1, 1.0, 10.0])), int(rng.integers(-300, 300))


@pytest.mark.parametrize("solver", ["smo", "kernel_adatron"])
@pytest.mark.parametrize("trial", range(0, 160, 2))
def test_a_solver_takes_the_same_steps_on_a_kernel_times_a_power_of_two(solver, trial):
    """On an indefinite kernel the stationary point depends on the path: a solver must take
    the same steps on 2^k K with C 2^-k. The SMO's second-order selection put tau = 1e-12 in
    place of a curvature <= 0: against convex pairs of curvature below 1e-12 (a kernel near
    2^-40) the concave pairs lost, and about a third of such problems (k from -45 to -20)
    took other steps, decisions up to 120 % apart; tau now follows the kernel's scale. The
    Kernel-Adatron's residual at a bound was capped by C (below)."""
    K, y, C, k = _random_problem(trial)
    s = 2.0 ** k
    run = getattr(isvm.solvers, solver)
    a = run(K, y, C=C)
    b = run(K * s, y, C=C / s)
    assert a.n_iter == b.n_iter and a.status == b.status
    np.testing.assert_array_equal(b.alpha, a.alpha / s)
    assert b.b == a.b


@pytest.mark.parametrize("C", [1e-4, 1e-2, 1.0])
def test_kernel_adatron_on_a_negative_diagonal_stops_at_a_kkt_point(C):
    """K_ii of either sign (a sigmoid kernel): the KKT residual at a bound was at most C
    (K_ii <= 0) or K_ii C. With C = 1e-4 < tol the run stopped at alpha = 0 after no sweep,
    "converged", where every gradient is -1. The first-order conditions, checked here from
    the gradient Q alpha - e itself: free |g| <= tol, g >= -tol at 0, g <= tol at C."""
    rng = np.random.default_rng(0)
    X = rng.standard_normal((20, 3))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    K = np.tanh(X @ X.T * 0.5 - 2.0)
    assert np.any(np.diagonal(K) < 0) and np.any(np.diagonal(K) > 0)
    res = isvm.solvers.kernel_adatron(K, y, C=C)
    g = y * (K @ (y * res.alpha)) - 1.0
    a = res.alpha
    assert res.converged and res.n_iter >= 1
    assert np.all(g[a <= 0] >= -1e-3) and np.all(g[a >= C] <= 1e-3)
    free = (a > 0) & (a < C)
    assert np.all(np.abs(g[free]) <= 1e-3)


def test_swapped_labels_negate_the_decision(heart):
    X, y = heart
    yb = (y == y.max()).astype(int)
    for est in (isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.05, coef0=-0.5, tol=1e-10),
                isvm.IndefiniteNuSVC(kernel="rbf", gamma=0.1, tol=1e-10),
                isvm.KreinSVC(kernel="sigmoid", gamma=0.05, coef0=-0.5, tol=1e-10),
                isvm.KernelLogisticRegression(kernel="rbf", gamma=0.1)):
        a = est.fit(X, yb).decision_function(X)
        b = est.fit(X, 1 - yb).decision_function(X)
        np.testing.assert_allclose(a, -b, atol=1e-7 * np.abs(a).max(),
                                   err_msg=type(est).__name__)


def test_a_class_weight_is_the_sample_weights_of_its_class(heart):
    X, y = heart
    c = np.unique(y)[0]
    sw = np.where(y == c, 3.0, 1.0)
    for make in (lambda **k: isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.05, coef0=-0.5,
                                                **k),
                 lambda **k: isvm.KreinSVC(kernel="sigmoid", gamma=0.05, coef0=-0.5, **k),
                 lambda **k: isvm.KernelLogisticRegression(kernel="rbf", gamma=0.1, **k),
                 lambda **k: isvm.NystroemSVC(kernel="rbf", gamma=0.1, n_components=40,
                                              random_state=0, **k)):
        a = make(class_weight={c: 3.0}).fit(X, y).decision_function(X)
        b = make().fit(X, y, sample_weight=sw).decision_function(X)
        np.testing.assert_array_equal(a, b)


def test_an_integer_weight_is_the_sample_repeated(heart):
    """The SVMs' bound C_i = C w_i: weight 2 is the sample twice, within the tol the two
    (different) problems are solved to. (Kernel logistic regression regularises each
    sample's coefficient: there it is not; test_klr_weights says so.)"""
    X, y = heart
    sw = np.ones(y.shape[0])
    sw[:10] = 2.0
    Xd, yd = np.vstack([X, X[:10]]), np.r_[y, y[:10]]
    for est in (isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.05, coef0=-0.5, tol=1e-10),
                isvm.IndefiniteNuSVC(kernel="rbf", gamma=0.1, tol=1e-10)):
        a = est.fit(X, y, sample_weight=sw).decision_function(X)
        b = est.fit(Xd, yd).decision_function(X)
        np.testing.assert_allclose(a, b, atol=1e-7 * np.abs(a).max(),
                                   err_msg=type(est).__name__)


def test_a_translation_leaves_the_rbf_svm_as_it_is(heart):
    X, y = heart
    for est in (isvm.IndefiniteSVC(kernel="rbf", gamma=0.1, tol=1e-10),
                isvm.ConvexHullClassifier(kernel="rbf", gamma=0.1),
                isvm.NystroemSVC(kernel="rbf", gamma=0.1, n_components=40, random_state=0)):
        a = est.fit(X, y).decision_function(X)
        b = est.fit(X + 5.0, y).decision_function(X + 5.0)
        np.testing.assert_allclose(a, b, atol=1e-9 * np.abs(a).max(),
                                   err_msg=type(est).__name__)


@pytest.mark.parametrize("cls", [isvm.IndefiniteSVR, isvm.IndefiniteNuSVR])
def test_a_constant_added_to_the_targets_moves_the_regression_by_it(heart, cls):
    """The dual's linear term changes by c sum(a - a*) = 0: the same alpha, b + c."""
    X, _ = heart
    t = X[:, 0] * 2 + np.sin(3 * X[:, 1])
    a = cls(kernel="sigmoid", gamma=0.05, coef0=-0.5, tol=1e-10).fit(X, t)
    b = cls(kernel="sigmoid", gamma=0.05, coef0=-0.5, tol=1e-10).fit(X, t + 1000.0)
    np.testing.assert_allclose(b.predict(X), a.predict(X) + 1000.0, atol=1e-8)


# ---- the convex-hull classifier and its SVM (Haasdonk 2005, Prop. 7) ---------------------

def _two_blobs(seed, shift):
    rng = np.random.default_rng(seed)
    X = np.r_[rng.normal(-shift, 1, (30, 2)), rng.normal(shift, 1, (30, 2))]
    return X, np.r_[-np.ones(30), np.ones(30)], rng.normal(0, 2, (300, 2))


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_the_svm_of_a_reduced_hull_solution_has_a_parallel_plane(seed):
    """Prop. 7(2): the SVM at C = mu / rho has the dual coefficients a / rho; Prop. 7(3):
    its plane is parallel to the classifier's, the same only without a coefficient at mu.
    svm_equivalent_ said "the same decision boundary"; with coefficients at mu the two
    disagree on 1 % to 7 % of these test points."""
    X, y, Xt = _two_blobs(seed, 1.0)
    ch = isvm.ConvexHullClassifier(kernel="linear", mu=0.13, tol=1e-10).fit(X, y)
    eq = ch.svm_equivalent_
    assert eq["ok"] and eq["same_plane"] is False and "parallel" in eq["reason"]
    svm = isvm.IndefiniteSVC(kernel="linear", C=eq["C"], tol=1e-10).fit(X, y)
    np.testing.assert_allclose(svm.dual_coef_[0], (eq["alpha"] * y)[svm.support_],
                               atol=1e-6 * eq["C"])
    f_ch, f_svm = ch.decision_function(Xt), svm.decision_function(Xt)
    # parallel: f_svm = s f_ch + t with s > 0, to the solvers' accuracy
    A = np.c_[f_ch, np.ones_like(f_ch)]
    (s, t), *_ = np.linalg.lstsq(A, f_svm, rcond=None)
    assert s > 0 and np.abs(A @ [s, t] - f_svm).max() < 1e-6 * np.abs(f_svm).max()
    assert abs(t) > 1e-3 and np.any(np.sign(f_ch) != np.sign(f_svm))  # not the same plane


def test_the_svm_of_the_hard_margin_hulls_has_the_same_plane():
    # two skew segments (and points behind them): the closest points are their midpoints,
    # weights 1/2 each, none at mu = 1
    X = np.array([[-1, 0, 1], [1, 0, 1], [0, 0, 3], [0.5, 0.3, 2.5],
                  [0, -1, -1], [0, 1, -1], [0, 0, -3], [0.2, -0.4, -2]], dtype=float)
    y = np.r_[np.ones(4), -np.ones(4)]
    Xt = np.random.default_rng(0).normal(0, 2, (300, 3))
    ch = isvm.ConvexHullClassifier(kernel="linear", mu=1.0, tol=1e-10).fit(X, y)
    eq = ch.svm_equivalent_
    assert eq["ok"] and eq["same_plane"] is True
    svm = isvm.IndefiniteSVC(kernel="linear", C=eq["C"], tol=1e-10).fit(X, y)
    f_ch, f_svm = ch.decision_function(Xt), svm.decision_function(Xt)
    np.testing.assert_allclose(f_svm, f_ch * (f_svm @ f_ch) / (f_ch @ f_ch),
                               atol=1e-6 * np.abs(f_svm).max())


@pytest.mark.parametrize("mu, seed, tol", [(0.3, 1, 1e-6), (0.3, 1, 1e-10), (1.0, 0, 1e-6),
                                           (1.0, 1, 1e-10)])
def test_touching_hulls_have_no_svm(mu, seed, tol):
    """Overlapping classes: the (reduced) hulls touch, w = z+ - z- = 0 and rho = 0. What the
    solver leaves of rho (1e-11 to 3e-7, within its KKT gap) was read as positive: an "SVM"
    at C = 1e6 ... 1e11 whose decisions had nothing to do with the classifier's."""
    X, y, _ = _two_blobs(seed, 1.0)
    ch = isvm.ConvexHullClassifier(kernel="linear", mu=mu, tol=tol).fit(X, y)
    eq = ch.svm_equivalent_
    assert abs(ch.wMw_) < 1e-10
    assert eq["ok"] is False and "the reduced hulls touch" in eq["reason"], eq


def test_a_rho_of_rounding_is_touching_hulls_whatever_its_sign():
    """rho = 1/2 a'Q(e_k + e_l) of touching hulls is 0 up to what the solver leaves of it,
    of either sign (-1.2e-9 with SciPy 1.11, +4.1e-8 with SciPy 1.17 on one test's data): a
    small negative rho within the point's gap is touching hulls too, and only one beyond it
    'rho <= 0'. Two points, rho = (K_kk + K_ll - 2 K_kl) / 4 = -1e-9 exactly."""
    from indefsvm.geometry import ch_to_svm

    K = np.array([[1.0, 1.0 + 2e-9], [1.0 + 2e-9, 1.0]])
    y, a = np.array([1.0, -1.0]), np.array([0.5, 0.5])
    within = ch_to_svm(a, 1.0, K, y, gap=1e-6)
    assert within["ok"] is False and "the reduced hulls touch" in within["reason"]
    assert within["rho"] == pytest.approx(-1e-9, rel=1e-6)
    beyond = ch_to_svm(a, 1.0, K, y, gap=1e-12)
    assert beyond["ok"] is False and "<= 0, so no SVM" in beyond["reason"]


def test_the_command_line_says_a_loose_tol_once_and_not_as_stopped_fits(tmp_path, capsys):
    """``fit -s 3`` on targets in 1e-3 units: the tol warning is the fit's, said once at the
    end (a fold with the same targets' range said it again before), and the folds are not
    "stopped at --max-iter" (the warning is not a ConvergenceWarning)."""
    from sklearn.datasets import dump_svmlight_file

    from indefsvm.cli import main

    X, y = _small_targets(1e-3)
    path = tmp_path / "reg.svm"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    assert main(["fit", str(path), "-s", "3", "-C", "1", "--gamma", "0.5",
                 "--epsilon", "1e-5"]) == 0
    out, err = capsys.readouterr()
    said = [line.split("warning: ", 1)[1] for line in (out + err).splitlines()
            if "warning: tol=" in line]
    assert said and len(said) == len(set(said)), said
    assert out.rstrip().splitlines()[-1].startswith("warning: tol=0.001 is ")
    assert "max-iter" not in err
