"""Move-split-merge (``metric="msm"``, Stefan, Athitsos & Das 2013) against a plain dynamic
programme of their recursion, the paper's own small cases, the metric axioms it is proved to
hold, and its way through the library and the command line by the metric table alone."""

import json

import numpy as np
import pytest

import indefsvm as isvm
from helpers import interrupted_after
from indefsvm.cli import main
from indefsvm.diagnostics import check_distances


def _cost(new, prev, other, c):
    """Stefan et al.'s C(new, prev, other) (their eq. 8)."""
    if prev <= new <= other or prev >= new >= other:
        return c
    return c + min(abs(new - prev), abs(new - other))


def _msm_ref(x, y, c=1.0, window=None):
    """Their recursion cell by cell on one channel, the band as DTW's (cell (i, j) of the
    longer series and the shorter one when j - r <= i <= j + (la - lb) + r)."""
    if len(x) < len(y):
        x, y = y, x
    n, m = len(x), len(y)
    r = n if window is None else int(np.floor(window * n + 1e-9))
    D = np.full((n, m), np.inf)
    for i in range(n):
        for j in range(m):
            if not j - r <= i <= j + (n - m) + r:
                continue
            if i == 0 and j == 0:
                D[i, j] = abs(x[0] - y[0])
            elif i == 0:
                D[i, j] = D[i, j - 1] + _cost(y[j], y[j - 1], x[i], c)
            elif j == 0:
                D[i, j] = D[i - 1, j] + _cost(x[i], x[i - 1], y[j], c)
            else:
                D[i, j] = min(D[i - 1, j - 1] + abs(x[i] - y[j]),
                              D[i - 1, j] + _cost(x[i], x[i - 1], y[j], c),
                              D[i, j - 1] + _cost(y[j], y[j - 1], x[i], c))
    return D[n - 1, m - 1]


def _random_series(n, lengths, seed=0, channels=None):
    rng = np.random.default_rng(seed)
    shape = (lambda L: (L,)) if channels is None else (lambda L: (channels, L))
    return [np.cumsum(rng.normal(size=shape(int(L))), axis=-1)
            for L in rng.integers(*lengths, size=n)]


@pytest.mark.parametrize("window", [None, 0.0, 0.1, 0.3])
@pytest.mark.parametrize("c", [0.1, 1.0, 5.0])
def test_msm_equals_a_plain_programme(window, c):
    """Unequal lengths, bands from none to the diagonal alone (0: widened by the length
    difference), costs below and above the points' steps."""
    S = _random_series(7, (5, 25), seed=1)
    T = _random_series(4, (5, 25), seed=2)
    params = {"c": c, "window": window}
    D = isvm.pairwise_distances(S, metric="msm", c=c, window=window)
    ref = np.array([[0.0 if i == j else _msm_ref(a, b, c, window) for j, b in enumerate(S)]
                    for i, a in enumerate(S)])
    np.testing.assert_allclose(D, ref, rtol=1e-12, atol=1e-12)
    DT = isvm.pairwise_distances(S, T, metric="msm", **params)
    np.testing.assert_allclose(DT, [[_msm_ref(a, b, c, window) for b in T] for a in S],
                               rtol=1e-12, atol=1e-12)


def test_several_channels_are_the_sum_of_each_channels_distance():
    S = _random_series(5, (6, 15), seed=3, channels=3)
    D = isvm.pairwise_distances(S, metric="msm", window=0.2, n_jobs=2)
    ref = [[sum(_msm_ref(a[k], b[k], 1.0, 0.2) for k in range(3)) for b in S] for a in S]
    np.fill_diagonal(ref := np.array(ref), 0.0)
    np.testing.assert_allclose(D, ref, rtol=1e-12, atol=1e-12)


def test_the_papers_small_cases():
    """A split costs c alone when the new point repeats its neighbour (Stefan et al.,
    section 3: (5) to (5, 5) is one split); moves alone cost the L1 distance; a value outside
    its neighbours costs c plus the step to the nearer one."""
    c = 0.3
    assert isvm.pairwise_distances([np.array([5.0])], [np.array([5.0, 5.0])], metric="msm",
                                   c=c)[0, 0] == pytest.approx(c)
    x, y = np.array([1.0, 2.0, 3.0]), np.array([1.5, 2.5, 2.0])
    d = isvm.pairwise_distances([x], [y], metric="msm", c=100.0)[0, 0]
    assert d == pytest.approx(np.abs(x - y).sum())  # splits dearer than any move
    # (0) to (0, 4): split 0 (c) and move the copy to 4 (4), or... the cheapest is c + 4
    d = isvm.pairwise_distances([np.array([0.0])], [np.array([0.0, 4.0])], metric="msm",
                                c=1.0)[0, 0]
    assert d == pytest.approx(5.0)


def test_msm_is_a_metric_on_random_series():
    """Their theorem 1: symmetric, zero on the diagonal, positive off it, and the triangle
    inequality on every triple (brute force over 12 series of unequal lengths)."""
    S = _random_series(12, (4, 30), seed=4)
    D = isvm.pairwise_distances(S, metric="msm", n_jobs=2)
    assert np.array_equal(D, D.T) and np.all(np.diag(D) == 0)
    assert np.all(D[~np.eye(12, dtype=bool)] > 0)
    gap = D[:, None, :] + D[None, :, :] - D[:, :, None]  # d(i,k) + d(k,j) - d(i,j)
    assert gap.min() >= -1e-9 * D.max()
    report = check_distances(D)
    assert report.triangle_violations == 0 and report.n_triangles == 12 * 11 * 10 // 2


def test_msm_refuses_what_it_cannot_take():
    S = _random_series(3, (5, 8))
    for bad in (0, -1.0, np.inf, "1", True):
        with pytest.raises(ValueError, match="c must be a number > 0"):
            isvm.pairwise_distances(S, metric="msm", c=bad)
    with pytest.raises(ValueError, match="sigma"):
        isvm.pairwise_distances(S, metric="msm", sigma=1.0)
    with pytest.raises(ValueError, match="window"):
        isvm.pairwise_distances(S, metric="msm", window=2.0)


def test_the_bounds_of_the_values_are_msms_own():
    """MSM sums absolute differences: values of 1e200 and of 1e-200, which DTW refuses
    (its squares overflow or underflow), are exact here; beyond 1e300 its sums overflow,
    and the refusal names MSM's arithmetic, not DTW's."""
    S = _random_series(4, (5, 9), seed=3)
    for scale, c in ((1e200, 1e200), (1e-200, 1e-200)):
        big = [s * scale for s in S]
        D = isvm.pairwise_distances(big, metric="msm", c=c)
        ref = [[0.0 if i == j else _msm_ref(a, b, c) for j, b in enumerate(big)]
               for i, a in enumerate(big)]
        np.testing.assert_allclose(D, ref, rtol=1e-12)
        np.testing.assert_allclose(D / scale, isvm.pairwise_distances(S, metric="msm"),
                                   rtol=1e-12)
        with pytest.raises(ValueError, match=r"DTW's squared differences (over|under)flow"):
            isvm.pairwise_distances(big, metric="dtw")
    with pytest.raises(ValueError, match=r"^X\[0\] has values up to .*: MSM's sums of "
                                         r"absolute differences overflow float64"):
        isvm.pairwise_distances([s * 1e301 for s in S], metric="msm")
    with pytest.raises(ValueError, match=r"GAK's squared differences overflow"):
        isvm.pairwise_distances([s * 1e200 for s in S], metric="gak")
    # the landmark features check the series by the same rule
    F = isvm.distances.RandomDistanceFeatures("msm", n_components=2, random_state=0).fit(
        [s * 1e200 for s in S])
    assert np.all(np.isfinite(F.transform([s * 1e200 for s in S])))


def _lengths_series(lengths, channels, seed):
    rng = np.random.default_rng(seed)
    return [np.cumsum(rng.normal(size=(channels, int(L)) if channels > 1 else int(L)),
                      axis=-1) for L in lengths]


@pytest.mark.parametrize("channels", [1, 3])
@pytest.mark.parametrize("window", [None, 0.0, 0.1, 0.5])
def test_msm_lanes_give_the_one_pair_loops_bits(monkeypatch, channels, window):
    """Pairs run eight or four at a time where one series meets eight or four of one length
    (AVX2): runs of equal lengths of every size and lengths above and below the shared
    series' (the band swept along either), so groups of eight, of four and single pairs all
    occur, in the rows of A against B and in the triangle of A against itself; the values
    are the one-pair loop's to the bit and the plain programme's."""
    from indefsvm.distances import _msm

    A = _lengths_series([30, 24, 41, 30, 30], channels, 7)
    B = _lengths_series([30] * 9 + [24] * 4 + [30, 41, 30] + [41] * 5 + [17] * 8, channels, 8)
    same = _lengths_series([30] * 12 + [24] * 5 + [41] * 6, channels, 9)
    kw = dict(metric="msm", c=0.5, window=window)
    lanes = (isvm.pairwise_distances(A, B, n_jobs=2, **kw),
             isvm.pairwise_distances(same, n_jobs=2, **kw))
    monkeypatch.setattr(_msm, "LANES", False)
    alone = (isvm.pairwise_distances(A, B, n_jobs=1, **kw),
             isvm.pairwise_distances(same, n_jobs=1, **kw))
    np.testing.assert_array_equal(lanes[0], alone[0])
    np.testing.assert_array_equal(lanes[1], alone[1])
    np.testing.assert_array_equal(lanes[1], lanes[1].T)
    assert np.all(np.diag(lanes[1]) == 0.0)

    def ref(a, b):
        a, b = np.atleast_2d(a), np.atleast_2d(b)
        return sum(_msm_ref(a[k], b[k], 0.5, window) for k in range(channels))

    for i, j in [(0, 0), (0, 7), (2, 12), (1, 20), (4, 28), (3, 16)]:
        assert lanes[0][i, j] == pytest.approx(ref(A[i], B[j]), rel=1e-12, abs=1e-12)


def test_msm_ctrl_c_inside_a_group_of_lanes_stops_the_call():
    """One series against eight of 30 000 points without a band: one group of eight pairs,
    7.2e9 cells (seconds at any speed this loop has) in one round, so Ctrl-C must be seen
    inside the group (every ~1.6e7 cells), not after it."""
    rng = np.random.default_rng(0)
    x = rng.normal(size=(1, 30_000))
    Y = rng.normal(size=(8, 30_000))
    sent, took = interrupted_after(
        lambda: isvm.pairwise_distances(x, Y, metric="msm", n_jobs=1), 0.2)
    assert sent and took < 5.0


def test_ctrl_c_inside_one_long_pair_stops_the_call():
    """Two series of 60 000 points: 3.6e9 cells in one pair, so a Ctrl-C seen only after the
    pair would take many seconds; seen inside it (every ~1.6e7 cells) the call ends soon."""
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(2, 60_000))
    sent, took = interrupted_after(lambda: isvm.pairwise_distances([a], [b], metric="msm"),
                                   0.2)
    assert sent and took < 5.0


def test_msm_runs_through_the_library_by_the_table():
    """The landmark model, the random features and the distance check take it by name."""
    S, y = isvm.datasets.make_cbf(60, length=(40, 60), random_state=0)
    S, y = list(S), np.asarray(y)
    clf = isvm.NystroemSVC(metric="msm", n_components=30, random_state=0).fit(S, y)
    assert clf.score(S, y) > 0.8
    F = isvm.distances.RandomDistanceFeatures("msm", n_components=10, random_state=0)
    F = F.fit_transform(S)
    assert F.shape == (60, 10) and np.isfinite(F).all()
    report = check_distances(X=S, y=y, metric="msm", metric_params={"c": 0.5})
    assert report.metric == "msm" and report.metric_params == {"c": 0.5}
    # the same check as on the matrix computed here
    same = check_distances(isvm.pairwise_distances(S, metric="msm", c=0.5), y)
    assert tuple(report.signature) == tuple(same.signature)
    assert report.n_triangles == same.n_triangles


def test_msm_on_the_command_line(tmp_path, capsys):
    S, y = isvm.datasets.make_cbf(45, length=(40, 60), random_state=0)
    path = tmp_path / "series.txt"
    with open(path, "w") as fh:
        for s, label in zip(S, y, strict=True):
            fh.write(f"{label}," + ",".join(f"{v:.6f}" for v in s) + "\n")
    assert main(["fit", str(path), "--metric", "msm", "--split-cost", "0.5", "--window",
                 "0.1", "--cv", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["metric"] == "msm" and out["n_samples"] == 45
    assert main(["check", str(path), "--metric", "msm", "--split-cost", "0.5"]) == 0
    assert "msm" in capsys.readouterr().out
    # the cost is MSM's: refused with another metric, in the option table's words
    assert main(["fit", str(path), "--metric", "dtw", "--split-cost", "0.5"]) == 2
    assert ("--split-cost is the cost of move-split-merge's splits and merges; drop it with "
            "--metric dtw") in capsys.readouterr().err
    assert main(["fit", str(path), "--metric", "msm", "--split-cost", "0"]) == 2
    assert "--split-cost must be a number > 0" in capsys.readouterr().err
