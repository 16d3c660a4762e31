"""check_distances against brute force: triangles, Schoenberg's matrix, the gamma profile."""

import itertools
import json

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.diagnostics import check_distances, triangle_violations
from indefsvm.diagnostics import distances as dist_mod
from indefsvm.diagnostics.distances import _wilson


def _euclid(X):
    return np.sqrt(np.maximum(((X[:, None] - X[None]) ** 2).sum(-1), 0))


def _brute_triangles(D, tol):
    n = D.shape[0]
    fails = total = 0
    worst = 0.0
    for i, j in itertools.combinations(range(n), 2):
        for k in range(n):
            if k in (i, j):
                continue
            total += 1
            ex = D[i, j] - D[i, k] - D[k, j]
            worst = max(worst, ex)
            fails += ex > tol
    return fails, total, worst


def _non_metric(n=14, seed=0):
    rng = np.random.default_rng(seed)
    D = rng.uniform(0.1, 1.0, size=(n, n)) ** 3
    D = (D + D.T) / 2
    np.fill_diagonal(D, 0)
    return D


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_triangles_exact_equal_brute_force(seed):
    D = _non_metric(seed=seed)
    share, interval, count, worst = triangle_violations(D)
    fails, total, w = _brute_triangles(D, 1e-12 * D.max())
    assert interval is None
    assert count == total
    assert share == fails / total
    assert fails > 0
    assert worst == pytest.approx(w / D.max())


def test_triangles_sampled_interval_holds_the_exact_share():
    D = _non_metric(n=60, seed=3)
    exact, _, _, _ = triangle_violations(D, exact_max=100)
    share, interval, count, _ = triangle_violations(D, exact_max=10, n_samples=50_000,
                                                    random_state=1)
    assert count == 50_000
    assert interval[0] <= exact <= interval[1]
    assert interval[0] <= share <= interval[1]
    assert abs(share - exact) < 0.01


def test_triangles_of_a_metric_are_zero_also_sampled():
    X = np.random.default_rng(4).normal(size=(50, 3))
    D = _euclid(X)
    assert triangle_violations(D)[0] == 0.0
    share, interval, _, worst = triangle_violations(D, exact_max=10, n_samples=20_000)
    assert share == 0.0 and interval[0] == 0.0 and 0 < interval[1] < 3e-4 and worst == 0.0


def test_schoenberg_matrix_and_signature_against_explicit_computation():
    D = _non_metric(n=25, seed=5)
    rep = check_distances(D, n_gammas=0)
    n = D.shape[0]
    J = np.eye(n) - np.ones((n, n)) / n
    B = -0.5 * J @ (D**2) @ J
    lam = np.linalg.eigvalsh(B)
    tol = n * np.finfo(float).eps * np.abs(lam).max()
    assert rep.signature.q == int(np.sum(lam < -tol))
    assert rep.signature.p == int(np.sum(lam > tol))
    neg = np.abs(lam[lam < -tol]).sum() / np.abs(lam).sum()
    assert rep.negative_mass == pytest.approx(neg, rel=1e-8)
    assert not rep.euclidean
    d = rep.to_dict()
    assert d["euclidean"] is False and d["negative_mass"] == rep.negative_mass
    assert d["triangle_violations"] == triangle_violations(D)[0]
    json.dumps(d)


def test_euclidean_distances_and_profile_is_psd_everywhere():
    X = np.random.default_rng(6).normal(size=(40, 4))
    rep = check_distances(_euclid(X))
    assert rep.verdict == "Euclidean" and rep.euclidean
    assert rep.signature.q == 0
    assert len(rep.gamma_profile) == 13
    assert all(m == 0 for _, m in rep.gamma_profile)
    assert "every gamma of the grid" in str(rep)
    assert "PSD for every gamma" in rep.notes[-2]


def test_gamma_profile_matches_check_kernel_and_median_rule_is_on_the_grid():
    D = _non_metric(n=30, seed=7)
    rep = check_distances(D, n_gammas=7)
    iu = np.triu_indices(30, 1)
    g0 = 1 / np.median(D[iu] ** 2)
    assert rep.gamma_median == pytest.approx(g0)
    gs = [g for g, _ in rep.gamma_profile]
    assert any(abs(g - g0) < 1e-12 * g0 for g in gs)
    assert gs[0] == pytest.approx(g0 / 100) and gs[-1] == pytest.approx(g0 * 100)
    for g, m in rep.gamma_profile:
        K = np.exp(-g * D**2)
        assert m == pytest.approx(isvm.check_kernel(K).signature.negative_mass, abs=1e-12)
    # the negligible ends read off the profile
    ms = [m for _, m in rep.gamma_profile]
    lo = rep.gamma_negligible_below
    hi = rep.gamma_negligible_above
    if lo is not None:
        assert all(m <= rep.negligible for g, m in rep.gamma_profile if g <= lo)
    if hi is not None:
        assert all(m <= rep.negligible for g, m in rep.gamma_profile if g >= hi)
    assert max(ms) > rep.negligible  # this matrix is far from Euclidean


def test_explicit_gammas_and_bad_arguments():
    D = _non_metric(n=10)
    rep = check_distances(D, gammas=[2.0, 0.5])
    assert [g for g, _ in rep.gamma_profile] == [0.5, 2.0]
    with pytest.raises(ValueError, match="gammas must be numbers > 0"):
        check_distances(D, gammas=[0.0])
    with pytest.raises(ValueError, match="n_gammas"):
        check_distances(D, n_gammas=-1)
    with pytest.raises(ValueError, match="square"):
        check_distances(np.ones((3, 4)))
    with pytest.raises(ValueError, match="NaN"):
        check_distances(np.full((3, 3), np.nan))
    with pytest.raises(ValueError, match="one label per object"):
        check_distances(D, y=[0, 1])


@pytest.mark.parametrize("bad, field", [
    (lambda D: D + np.triu(np.full(D.shape, 0.5), 1), "symmetric"),
    (lambda D: D + np.eye(D.shape[0]), "zero_diagonal"),
    (lambda D: D - 2 * (1 - np.eye(D.shape[0])) * (D > 0.6), "nonnegative"),
])
def test_axioms_reported_not_raised(bad, field):
    X = np.random.default_rng(8).normal(size=(12, 2))
    D = bad(_euclid(X))
    rep = check_distances(D)
    assert rep.verdict == "not a distance matrix"
    assert getattr(rep, field) is False
    assert "make D a distance first" in rep.notes[-2]


def test_class_mean_distance_is_the_embedding_distance_of_the_means():
    rng = np.random.default_rng(9)
    X = np.vstack([rng.normal(size=(10, 3)), rng.normal(loc=2.0, size=(12, 3))])
    y = np.array([0] * 10 + [1] * 12)
    rep = check_distances(_euclid(X), y)
    want = np.sum((X[y == 0].mean(0) - X[y == 1].mean(0)) ** 2)
    assert rep.class_mean_sqdist == pytest.approx(want, rel=1e-10)
    y3 = np.array([0] * 7 + [1] * 7 + [2] * 8)
    rep3 = check_distances(_euclid(X), y3)
    assert rep3.class_mean_sqdist is None
    assert [p["classes"] for p in rep3.pairs] == [[0, 1], [0, 2], [1, 2]]
    p02 = np.sum((X[y3 == 0].mean(0) - X[y3 == 2].mean(0)) ** 2)
    assert rep3.pairs[1]["class_mean_sqdist"] == pytest.approx(p02, rel=1e-10)


def test_report_text_html_and_figure():
    D = _non_metric(n=20)
    rep = check_distances(D, y=np.arange(20) % 2)
    text = str(rep)
    assert text.startswith("Distance check") and rep.verdict in text
    assert "triangle inequality violated" in text
    assert "<table>" in rep._repr_html_()
    import matplotlib

    matplotlib.use("Agg")
    from indefsvm.plotting import plot_gamma_profile

    fig = plot_gamma_profile(rep)
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and ax.get_ylim()[0] == 0
    with pytest.raises(ValueError, match="gamma profile"):
        plot_gamma_profile(check_distances(D, n_gammas=0))


def test_protein_dissimilarities_reproduce_the_known_signature():
    # Chen et al. (2009) and the loader's docstring: -1/2 J D^2 J of the 213 globins has
    # 4 negative eigenvalues
    D, y = isvm.datasets.load_protein213(return_D_y=True)
    rep = check_distances(D, y, n_gammas=0)
    assert rep.signature.q == 4
    assert rep.verdict == "slightly non-Euclidean"
    assert len(rep.pairs) == 6


def test_series_not_z_normalised_are_said_with_their_levels_and_scales():
    # DTW compares raw values: series of different levels and scales are told so, with the
    # figures (numpy's per-series mean and standard deviation), and z-normalised ones are not
    S, y = isvm.datasets.make_cbf(60, random_state=0)
    S = np.asarray(S)
    rng = np.random.default_rng(0)
    raw = S * rng.uniform(0.5, 5, size=(60, 1)) + rng.normal(0, 10, size=(60, 1))
    rep = isvm.diagnostics.check_distances(X=raw, y=y, metric="dtw")
    lv = rep.series_levels
    assert lv["n"] == 60
    assert lv["level_spread"] == pytest.approx(np.std(raw.mean(axis=1)))
    assert lv["scale_median"] == pytest.approx(np.median(raw.std(axis=1)))
    assert [lv["scale_low"], lv["scale_high"]] == pytest.approx(
        np.percentile(raw.std(axis=1), [10, 90]))
    assert rep.to_dict()["series_levels"] == lv
    (note,) = [n for n in rep.notes if "z-normalised" in n]
    assert note.startswith("The series are not z-normalised (60 of them read)")
    assert "(x - x.mean()) / x.std()" in note
    z = (raw - raw.mean(axis=1, keepdims=True)) / raw.std(axis=1, keepdims=True)
    rep = isvm.diagnostics.check_distances(X=z, y=y, metric="dtw")
    assert not any("z-normalised" in n for n in rep.notes)
    # several channels and unequal lengths: every point of every channel of a series counts
    parts = [rng.normal(k, 1 + k, size=(2, 20 + k)) for k in range(12)]
    lv = isvm.diagnostics.distances.series_levels(parts)
    assert lv["level_spread"] == pytest.approx(np.std([p.mean() for p in parts]))
    assert lv["scale_median"] == pytest.approx(np.median([p.std() for p in parts]))
    # other metrics: no levels
    words = ["abc", "abd", "xbd", "xyz"]
    assert isvm.diagnostics.check_distances(X=words, metric="levenshtein").series_levels \
        is None


@pytest.mark.parametrize("k, m", [(0, 10), (3, 10), (50, 200), (199, 200), (7, 7)])
def test_wilson_interval_against_its_formula(k, m):
    """The 95 % Wilson score interval, term by term (``half = z sqrt(...) / den``)."""
    z, p = 1.96, k / m
    den = 1 + z * z / m
    centre = (p + z * z / (2 * m)) / den
    half = z * np.sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / den
    lo, hi = _wilson(k, m)
    assert lo == pytest.approx(max(0.0, centre - half), abs=1e-15)
    assert hi == pytest.approx(min(1.0, centre + half), abs=1e-15)
    assert 0.0 <= lo <= p <= hi <= 1.0


@pytest.mark.parametrize("D, exact", [
    # two violated inequalities, both on pairs with the last point
    (np.array([[0.0, 1.0, 1.0, 3.0], [1.0, 0.0, 1.0, 3.0], [1.0, 1.0, 0.0, 1.0],
               [3.0, 3.0, 1.0, 0.0]]), 2 / 12),
    # one long pair, {0, 3}: violated through both other points
    (np.array([[0.0, 1.0, 1.0, 3.0], [1.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0, 1.0],
               [3.0, 1.0, 1.0, 0.0]]), 2 / 12),
])
def test_sampled_triangles_are_uniform_over_pairs_and_thirds(D, exact):
    """``i``, ``j = rng.integers(0, n - 1)`` and ``k = rng.integers(0, n - 2)``: every pair
    and every third point is drawn with the same chance. On four points whose violated
    inequalities sit on a few pairs, the sampled share estimates the exact one."""
    share0, _, total, _ = triangle_violations(D)
    assert total == 12 and share0 == pytest.approx(exact)
    share, (lo, hi), count, worst = triangle_violations(D, exact_max=2, n_samples=200_000)
    assert count == 200_000 and lo <= exact <= hi
    assert abs(share - exact) < 0.005
    assert worst == pytest.approx(1 / 3)
    assert abs(share - share0) < 0.005


def test_fewer_than_three_objects_have_no_triangle():
    """``return 0.0, None, 0, 0.0`` for n < 3."""
    assert triangle_violations(np.array([[0.0, 2.0], [2.0, 0.0]])) == (0.0, None, 0, 0.0)


def test_check_distances_symmetrises_an_asymmetric_matrix():
    """``S = (D + D.T) / 2 if asym > atol else D``: the figures of an asymmetric D are those
    of its symmetric part (and the verdict says it is not a distance matrix)."""
    rng = np.random.default_rng(1)
    P = rng.normal(size=(12, 3))
    D = np.sqrt(((P[:, None] - P[None]) ** 2).sum(-1))
    E = np.triu(rng.uniform(0, 0.3, size=(12, 12)), 1)
    A = D + E - E.T  # (A + A.T) / 2 = D
    ra, rd = isvm.diagnostics.check_distances(A), isvm.diagnostics.check_distances(D)
    assert ra.verdict == "not a distance matrix" and not ra.symmetric
    assert ra.gamma_median == pytest.approx(rd.gamma_median)
    assert ra.negative_mass == pytest.approx(rd.negative_mass, abs=1e-12)
    assert ra.triangle_violations == rd.triangle_violations


def test_check_distances_asks_for_four_matrices_of_memory(monkeypatch):
    """``check_memory(8.0 * 4 * n * n, ...)``: the working set is four float64 n x n
    matrices."""
    asked = []
    monkeypatch.setattr(dist_mod, "check_memory", lambda b, *a: asked.append(b))
    isvm.diagnostics.check_distances(np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0],
                                               [2.0, 1.0, 0.0]]))
    assert asked == [8.0 * 4 * 9]


def test_exact_triangle_count_with_a_negative_diagonal():
    """``mask[k, :] = False``: the third point is never one of the pair (a negative
    ``D_kk`` would otherwise count ``d_kj > d_kk + d_kj``)."""
    D = np.array([[-1.0, 1.0, 1.0], [1.0, 0.0, 1.0], [1.0, 1.0, 0.0]])
    assert triangle_violations(D)[0] == 0.0


def test_gamma_profile_with_zero_negligible_mass():
    """``if m > negligible``: a gamma whose negative mass is exactly the threshold counts
    as negligible (a Euclidean distance: every mass is 0)."""
    rng = np.random.default_rng(3)
    P = rng.normal(size=(15, 2))
    D = np.sqrt(((P[:, None] - P[None]) ** 2).sum(-1))
    rep = isvm.diagnostics.check_distances(D, negligible=0.0)
    gammas = [g for g, _ in rep.gamma_profile]
    assert all(m == 0.0 for _, m in rep.gamma_profile)
    assert rep.gamma_negligible_below == max(gammas)
    assert rep.gamma_negligible_above == min(gammas)


@pytest.mark.parametrize("n", [1, 5])
def test_check_distances_of_identical_objects_says_so(n):
    rep = isvm.diagnostics.check_distances(np.zeros((n, n)))
    assert rep.gamma_median is None
    assert any("every distance between two objects is 0" in note for note in rep.notes)
    assert "Distance check" in str(rep)


def test_no_triangle_sample_is_refused_by_name():
    D = 1.0 - np.eye(500)
    with pytest.raises(ValueError, match="n_triangle_samples must be a whole number >= 1"):
        isvm.diagnostics.check_distances(D, n_triangle_samples=0)
