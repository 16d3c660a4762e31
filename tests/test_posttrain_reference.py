"""The sanity report's figures against a reference written from the definitions, one sample
at a time (Lin & Lin 2003, (21) for the KKT gap; Haasdonk 2005 for w'Mw and the convex
hulls), on dual points built to sit on every boundary: alpha = 0, alpha = C, free alphas
below and above 1, C above 1, per-sample C, and multipliers on the degeneracy tolerance."""

import itertools

import numpy as np
import pytest

from indefsvm.diagnostics import sanity_report_from_alpha, second_order_check


def _reference(K, y, alpha, C, b, tol, bias):
    n = len(y)
    Cv = np.broadcast_to(np.asarray(C, dtype=float), (n,))
    grad = [sum(y[t] * y[s] * K[t, s] * alpha[s] for s in range(n)) - 1.0 for t in range(n)]
    g = [-y[t] * grad[t] for t in range(n)]
    free = [0 < alpha[t] < Cv[t] for t in range(n)]
    up = [(alpha[t] < Cv[t] and y[t] > 0) or (alpha[t] > 0 and y[t] < 0) for t in range(n)]
    low = [(alpha[t] < Cv[t] and y[t] < 0) or (alpha[t] > 0 and y[t] > 0) for t in range(n)]
    m = max([g[t] for t in range(n) if up[t]], default=-np.inf)
    M = min([g[t] for t in range(n) if low[t]], default=np.inf)
    if not bias:
        b = 0.0
    elif b is None:
        b = np.mean([g[t] for t in range(n) if free[t]]) if any(free) else (m + M) / 2
    v = [y[t] * alpha[t] for t in range(n)]
    aQa = sum(v[t] * K[t, s] * v[s] for t in range(n) for s in range(n))
    s_alpha = sum(alpha)
    dec = [sum(K[t, s] * v[s] for s in range(n)) + b for t in range(n)]
    n_pos, n_neg = sum(1 for t in y if t > 0), sum(1 for t in y if t < 0)
    c = [1.0 / n_pos if y[t] > 0 else -1.0 / n_neg for t in range(n)]
    out = {
        "b": b, "objective": 0.5 * aQa - s_alpha,
        "n_sv": sum(1 for a in alpha if a > 0),
        "n_bounded": sum(1 for t in range(n) if alpha[t] >= Cv[t]),
        "train_error": np.mean([(1.0 if dec[t] > 0 else -1.0) != y[t] for t in range(n)]),
        "wMw": (2.0 / s_alpha) ** 2 * aQa,
        "class_mean_sqdist": sum(c[t] * K[t, s] * c[s] for t in range(n) for s in range(n)),
        "n_free": sum(free),
    }
    if bias:
        out["kkt_gap"] = m - M
    # second order: reduced Hessian on the free variables (bias: restricted to y_F'd = 0)
    idx = [t for t in range(n) if free[t]]
    deg = [t for t in range(n) if not free[t]
           and (abs(b - g[t]) <= tol if bias else abs(grad[t]) <= tol)]
    out["n_degenerate"] = len(deg)
    curv = None
    if len(idx) >= (2 if bias else 1):
        Q = np.array([[y[i] * y[j] * K[i, j] for j in idx] for i in idx])
        if bias:
            # basis of {d : y_F'd = 0}: e_1 y_1 - e_k y_k, orthonormalised
            yF = np.array([y[i] for i in idx])
            Bm = np.array([[(yF[0] if r == 0 else 0.0) - (yF[k] if r == k else 0.0)
                            for k in range(1, len(idx))] for r in range(len(idx))])
            Z, _ = np.linalg.qr(Bm)
        else:
            Z = np.eye(len(idx))
        lam = np.linalg.eigvalsh(Z.T @ Q @ Z)
        curv = lam[0]
        zero = len(lam) * np.finfo(float).eps * max(np.abs(lam).max(), 1e-300)
    out["min_curvature"] = curv
    if curv is not None and curv < -zero:
        out["is_local_min"] = False
    elif (curv is not None and curv <= zero) or deg:
        out["is_local_min"] = None
    else:
        out["is_local_min"] = True
    out["margin"] = 2.0 / np.sqrt(out["wMw"]) if out["wMw"] > 0 else None
    return out


def _points():
    """(K, y, alpha, C, b) on the boundaries, alpha feasible (y'alpha = 0): every sign
    pattern has an alpha at 0, one at C, a free one below 1 and (C > 1) one above 1."""
    rng = np.random.default_rng(11)
    out = []
    for n, C, kind in itertools.product([6, 9], [0.7, 5.0], ["psd", "indef"]):
        X = rng.standard_normal((n, 3))
        K = X @ X.T if kind == "psd" else np.tanh(X @ X.T - 0.5)
        y = np.array([1.0, -1.0] * (n // 2) + [1.0] * (n % 2))
        small = 0.4 * min(1.0, C)
        pos = [C, small, 0.0]
        total = sum(pos)
        neg = ([(1.0 + C) / 2, total - (1.0 + C) / 2, 0.0] if C > 1
               else [total / 2, total / 2, 0.0])
        alpha = np.zeros(n)
        alpha[np.flatnonzero(y > 0)[:3]] = pos
        alpha[np.flatnonzero(y < 0)[:3]] = neg
        out.append((K, y, alpha, C, None))
    # per-sample bounds, and a given b
    K, y, alpha, C, _ = out[3]
    Cs = np.where(np.arange(len(y)) % 3 == 0, C, 2.0 * C)
    out.append((K, y, alpha, Cs, 0.3))
    return out


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("case", range(9))
def test_sanity_report_figures_equal_the_reference(case, bias):
    K, y, alpha, C, b = _points()[case]
    assert np.any((alpha > 0) & (alpha < 1)) and np.any(alpha == 0)
    assert np.any(alpha == np.broadcast_to(C, alpha.shape)) and abs(y @ alpha) < 1e-12
    if np.max(C) > 1:
        assert np.any((alpha > 1) & (alpha < C))
    tol = 1e-3
    rep = sanity_report_from_alpha(K, y, alpha, C, b, tol=tol, bias=bias)
    ref = _reference(K, y, alpha, C, b, tol, bias)
    if bias:
        assert rep.is_stationary is bool(ref["kkt_gap"] <= tol)
    if not rep.is_stationary:
        # the second-order test characterises stationary points only: not given elsewhere
        ref["is_local_min"] = ref["min_curvature"] = None
    for key, want in ref.items():
        got = getattr(rep, key)
        if want is None or isinstance(want, bool):
            assert got is want, key
        elif isinstance(want, (int, np.integer)):
            assert got == want, key
        else:
            assert got == pytest.approx(want, rel=1e-10, abs=1e-12), key
    n = len(y)
    assert rep.bounded_ratio == pytest.approx(ref["n_bounded"] / n)
    if np.ndim(C) == 0:
        assert rep.ch_mu == pytest.approx(2 * C / alpha.sum())
    else:
        assert rep.ch_mu is None
    np.testing.assert_allclose(rep.ch_alpha, 2 * alpha / alpha.sum())
    assert rep.is_stationary == (rep.kkt_gap <= tol and (not bias or abs(y @ alpha) < 1e-8))


def test_degenerate_multiplier_on_the_tolerance_is_counted():
    # t = 2 is at the bound 0 with multiplier |b - g_2| exactly tol/2 (degenerate) and t = 3
    # at 2 tol (not)
    K = np.diag([2.0, 2.0, 1.0, 1.0])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    alpha = np.array([0.5, 0.5, 0.0, 0.0])
    # g = -y * (y K (y alpha) - 1): g_0 = -(2*0.5 - 1) = 0, g_1 = (2*0.5 - 1) = 0,
    # g_2 = 1, g_3 = -1; b = mean over free = 0
    K2 = K.copy()
    tol = 0.25
    is_min, curv, n_free, n_deg = second_order_check(K2, y, alpha, 1.0, 1.0 - tol / 2, tol=tol)
    assert n_free == 2 and n_deg == 1 and is_min is None
    is_min, curv, n_free, n_deg = second_order_check(K2, y, alpha, 1.0, 1.0 - 2 * tol, tol=tol)
    assert n_deg == 0 and is_min is True and curv == pytest.approx(2.0)


def _random_point(rng, n):
    """A small problem with alpha drawn from {0, C, free < 1, free > 1}, made feasible."""
    C = rng.choice([0.6, 3.0])
    y = rng.permutation(np.array([1.0, -1.0] * (n // 2) + [1.0] * (n % 2)))
    X = rng.standard_normal((n, 2))
    # entries of either sign and size, negative diagonals included: every index set of the
    # KKT conditions gets to hold the extreme g somewhere in the draws
    K = rng.choice([1.0, -3.0]) * np.tanh(X @ X.T + rng.uniform(-1, 1))
    K += np.diag(rng.uniform(-2.0, 2.0, n))
    choices = [0.0, C, 0.3 * min(C, 1.0), (1.0 + C) / 2 if C > 1 else 0.9 * C]
    alpha = rng.choice(choices, size=n)
    # balance y'alpha = 0 through one free variable of the lighter side, if possible
    d = float(y @ alpha)
    side = np.flatnonzero((y * np.sign(d) < 0) & (alpha > 0) & (alpha < C))
    if d != 0 and side.size and alpha[side[0]] + abs(d) < C:
        alpha[side[0]] += abs(d)
    if alpha.sum() == 0:
        alpha[0] = min(C, 0.5)
    return K, y, alpha, C


@pytest.mark.parametrize("seed", range(4))
def test_kkt_gap_and_local_minimality_equal_the_reference_on_random_points(seed):
    rng = np.random.default_rng(100 + seed)
    for _ in range(60):
        K, y, alpha, C = _random_point(rng, int(rng.integers(3, 7)))
        if np.all(y > 0) or np.all(y < 0):
            continue
        for bias in (True, False):
            rep = sanity_report_from_alpha(K, y, alpha, C, tol=1e-3, bias=bias)
            ref = _reference(K, y, alpha, C, None, 1e-3, bias)
            if bias:
                assert rep.kkt_gap == pytest.approx(ref["kkt_gap"], rel=1e-10, abs=1e-12)
                assert rep.b == pytest.approx(ref["b"], rel=1e-10, abs=1e-12)
            assert (rep.n_free, rep.n_degenerate, rep.n_sv, rep.n_bounded) == (
                ref["n_free"], ref["n_degenerate"], ref["n_sv"], ref["n_bounded"])
            # the second-order verdict is given at stationary points only
            assert rep.is_local_min is (ref["is_local_min"] if rep.is_stationary else None)


def test_a_decision_value_of_exactly_zero_counts_as_the_negative_class():
    K = np.eye(2)
    y = np.array([1.0, -1.0])
    alpha = np.array([0.5, 0.5])
    # decisions K (y alpha) + b = (0.5 + b, -0.5 + b): b = -0.5 puts sample 0 on 0 exactly
    rep = sanity_report_from_alpha(K, y, alpha, 1.0, b=-0.5)
    assert rep.train_error == 0.5


def test_a_zero_wMw_has_no_margin():
    rep = sanity_report_from_alpha(np.zeros((2, 2)), [1, -1], [0.5, 0.5], 1.0)
    assert rep.wMw == 0.0 and rep.margin is None
    assert any("w'Mw = 0 <= 0" in note for note in rep.notes)


def test_alpha_bounds_allow_a_relative_slack_of_1e_12_and_no_more():
    K, y = np.eye(2), [1, -1]
    C = 4.0
    sanity_report_from_alpha(K, y, [C * (1 + 1e-12), C * (1 + 1e-12)], C)
    with pytest.raises(ValueError, match="0 <= alpha <= C"):
        sanity_report_from_alpha(K, y, [C * (1 + 3e-12), C * (1 + 3e-12)], C)
    with pytest.raises(ValueError, match="0 <= alpha <= C"):
        sanity_report_from_alpha(K, y, [1.0, -3e-12 * C], C)
    rep = sanity_report_from_alpha(K, y, [1.0, -1e-12 * C], C)
    assert rep.n == 2


def test_feasibility_tolerance_is_1e_8_times_max_1_Cn_inclusive():
    # y'alpha = 1e-8 exactly, C n = 1: on the tolerance, still feasible
    rep = sanity_report_from_alpha(np.eye(2), [1, -1], [1e-8, 0.0], 0.5)
    assert not any("violates" in note for note in rep.notes)
    for off in (1.5e-8, 3e-8):
        rep = sanity_report_from_alpha(np.eye(2), [1, -1], [off, 0.0], 0.5)
        assert any("violates y'alpha = 0" in note for note in rep.notes)


def test_kkt_index_sets_on_every_two_sample_corner():
    # every pair of alphas in {0, C/2, C} and diagonal signs: each of the sets I_up / I_low
    # (which sample at which bound may move which way) decides m or M in one of these
    C = 1.0
    y = np.array([1.0, -1.0])
    for a0, a1, d0, d1 in itertools.product([0.0, 0.5, 1.0], [0.0, 0.5, 1.0], [-2.0, 2.0],
                                            [-2.0, 2.0]):
        if a0 + a1 == 0:
            continue
        K = np.array([[d0, 0.3], [0.3, d1]])
        alpha = np.array([a0, a1])
        rep = sanity_report_from_alpha(K, y, alpha, C)
        ref = _reference(K, y, alpha, C, None, 1e-3, True)
        assert rep.kkt_gap == pytest.approx(ref["kkt_gap"], abs=1e-12), (a0, a1, d0, d1)
        assert rep.b == pytest.approx(ref["b"], abs=1e-12), (a0, a1, d0, d1)


def _general_reference(Q, p, y, C, alpha, b, tol):
    n = len(y)
    g = [-y[t] * (sum(Q[t, s] * alpha[s] for s in range(n)) + p[t]) for t in range(n)]
    up = [(alpha[t] < C[t] and y[t] > 0) or (alpha[t] > 0 and y[t] < 0) for t in range(n)]
    low = [(alpha[t] < C[t] and y[t] < 0) or (alpha[t] > 0 and y[t] > 0) for t in range(n)]
    m = max([g[t] for t in range(n) if up[t]], default=-np.inf)
    M = min([g[t] for t in range(n) if low[t]], default=np.inf)
    free = [t for t in range(n) if 0 < alpha[t] < C[t]]
    deg = [t for t in range(n) if not 0 < alpha[t] < C[t] and abs(b - g[t]) <= tol]
    curv, verdict = None, (None if deg else True)
    if len(free) >= 2:
        yF = np.array([y[i] for i in free])
        Bm = np.array([[(yF[0] if r == 0 else 0.0) - (yF[k] if r == k else 0.0)
                        for k in range(1, len(free))] for r in range(len(free))])
        Z, _ = np.linalg.qr(Bm)
        lam = np.linalg.eigvalsh(Z.T @ Q[np.ix_(free, free)] @ Z)
        curv = lam[0]
        zero = len(lam) * np.finfo(float).eps * max(np.abs(lam).max(), 1e-300)
        verdict = False if curv < -zero else None if (curv <= zero or deg) else True
    return g, m, M, verdict, curv, len(free)


@pytest.mark.parametrize("seed", range(3))
def test_general_dual_kkt_and_curvature_equal_the_reference(seed):
    from indefsvm.diagnostics._dual_report import _general_kkt, _reduced_curvature

    rng = np.random.default_rng(200 + seed)
    for _ in range(60):
        n = int(rng.integers(3, 7))
        X = rng.standard_normal((n, 2))
        y = rng.choice([-1.0, 1.0], n)
        K = rng.choice([1.0, -3.0]) * np.tanh(X @ X.T) + np.diag(rng.uniform(-2, 2, n))
        Q = np.outer(y, y) * K
        p = rng.uniform(-1.5, 0.5, n)
        C = rng.choice([0.6, 3.0], n)
        alpha = np.array([rng.choice([0.0, c, 0.3 * min(c, 1.0), (1 + c) / 2 if c > 1
                                      else 0.8 * c]) for c in C])
        g, m, M = _general_kkt(Q, p, y, C, alpha)
        rg, rm, rM, verdict, curv, n_free = _general_reference(Q, p, y, C, alpha, 0.0, 0.0)
        np.testing.assert_allclose(g, rg, rtol=1e-12, atol=1e-12)
        assert (m, M) == pytest.approx((rm, rM), rel=1e-12, abs=1e-12)
        for b, tol in ((0.0, 1e-3), (float(np.median(g)), 0.5)):
            _, _, _, verdict, curv, n_free = _general_reference(Q, p, y, C, alpha, b, tol)
            got = _reduced_curvature(Q, y, alpha, C, g, b, tol)
            assert got[0] is verdict and got[2] == n_free
            assert (got[1] is None) == (curv is None)
            if curv is not None:
                assert got[1] == pytest.approx(curv, rel=1e-9, abs=1e-12)


def test_multiplier_exactly_on_the_tolerance_is_degenerate():
    from indefsvm.diagnostics._dual_report import _general_kkt, _reduced_curvature

    K = np.diag([2.0, 2.0, 1.0, 1.0])
    y = np.array([1.0, -1.0, 1.0, -1.0])
    alpha = np.array([0.5, 0.5, 0.0, 0.0])
    tol = 0.25                                   # g_2 = 1: |b - g_2| = tol exactly
    assert second_order_check(K, y, alpha, 1.0, 1.0 - tol, tol=tol)[3] == 1
    Q = np.outer(y, y) * K
    C = np.ones(4)
    g, _, _ = _general_kkt(Q, -np.ones(4), y, C, alpha)
    assert g[2] == 1.0
    assert _reduced_curvature(Q, y, alpha, C, g, 1.0 - tol, tol)[0] is None
    assert _reduced_curvature(Q, y, alpha, C, g, 1.0 - 2 * tol, tol)[0] is True


@pytest.mark.parametrize("scale", [1e-8, 1e8])
def test_a_singular_reduced_hessian_is_undetermined_at_any_scale(scale):
    # rank-one K on three free variables: the reduced Hessian (2 x 2) has one eigenvalue
    # zero, which rounding puts at ~eps * scale of either sign; the zero threshold is
    # relative to the largest |eigenvalue|, so the verdict is "undetermined" at any scale
    from indefsvm.diagnostics._dual_report import _reduced_curvature

    v = np.array([1.0, 0.3, -0.7])
    K = scale * np.outer(v, v)
    y = np.array([1.0, -1.0, 1.0])
    alpha = np.array([0.4, 0.6, 0.2])
    is_min, curv, n_free, n_deg = second_order_check(K, y, alpha, 1.0, 0.0, tol=1e-300)
    assert n_free == 3 and is_min is None and abs(curv) <= 1e-14 * scale
    Q = np.outer(y, y) * K
    assert _reduced_curvature(Q, y, alpha, np.ones(3), np.zeros(3), 1.0, 0.0)[0] is None


@pytest.mark.parametrize("case", range(9))
def test_sanity_notes_state_the_figures_of_the_report(case):
    K, y, alpha, C, b = _points()[case]
    for bias in (True, False):
        rep = sanity_report_from_alpha(K, y, alpha, C, b, tol=1e-3, bias=bias)
        text = "\n".join(rep.notes)
        if bias and rep.is_stationary:
            assert (f"Stationary point: KKT gap m - M = {rep.kkt_gap:.3g} <= tol = 0.001 "
                    "(Lin & Lin 2003, (21)).") in text
        elif bias:
            assert f"Not a stationary point: KKT gap m - M = {rep.kkt_gap:.3g} > tol" in text
        elif rep.is_stationary:
            assert f"largest KKT violation {rep.kkt_gap:.3g} <= tol = 0.001" in text
        else:
            assert (f"Not a stationary point of the problem without the bias: largest KKT "
                    f"violation {rep.kkt_gap:.3g} > tol = 0.001") in text
        if rep.wMw > 0:
            assert f"w'Mw = {rep.wMw:.4g} > 0" in text and f"{rep.margin:.4g}." in text
        else:
            assert f"w'Mw = {rep.wMw:.4g} <= 0: the SVM acts as a counter-intuitive" in text
        holds = "holds" if rep.train_error <= rep.bounded_ratio + 1e-12 else "is violated"
        assert (f"{rep.n_bounded} of {rep.n} training points are bounded SVs "
                f"({rep.bounded_ratio:.2%}), an upper bound on the training error "
                f"{rep.train_error:.2%}; the bound {holds}.") in text
        d = rep.class_mean_sqdist
        assert (f"c'Kc = {d:.4g} <= 0" if d <= 0 else f"c'Kc = {d:.4g} bounds w'Mw") in text
        if not rep.is_stationary:
            assert "Second-order test not applied" in text and "local minimum:" not in text
        elif rep.is_local_min is False:
            assert f"Not a local minimum: curvature {rep.min_curvature:.4g} < 0" in text
        elif rep.is_local_min is True and rep.min_curvature is not None:
            assert f"smallest curvature {rep.min_curvature:.4g}" in text
        elif rep.is_local_min is None:
            assert "Local minimality undetermined" in text
        if rep.ch_mu is None:
            assert "Per-sample bounds C_i" in text
        else:
            assert f"mu = 2C / sum(alpha) = {rep.ch_mu:.4g}." in text
        assert ("alpha violates y'alpha = 0" in text) == (
            bias and abs(y @ alpha) > 1e-8 * max(1.0, float(np.max(C)) * len(y)))
