"""Properties of the distance modules (hypothesis) and fuzzed distance and CSV inputs.

DTW is symmetric, zero on the diagonal, >= 0, and equal to the Euclidean distance with
window 0; Levenshtein is a metric; DistanceKernel gives the same values on training and test
rows; check_distances' figures stay in their ranges. Fuzzed CSV and distance files may only
be read or refused with one ``indefsvm: error:`` line (exit 1 or 2), never a traceback.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import indefsvm as isvm
from indefsvm import DistanceKernel, pairwise_distances
from indefsvm.cli import main

EXAMPLES = int(os.environ.get("INDEFSVM_FUZZ_EXAMPLES", "100"))
SETTINGS = dict(max_examples=EXAMPLES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])

finite = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)


@st.composite
def series_sets(draw):
    d = draw(st.integers(1, 3))
    n = draw(st.integers(2, 6))
    return [np.array(draw(st.lists(st.lists(finite, min_size=d, max_size=d), min_size=1,
                                   max_size=12))).T for _ in range(n)]


# the drawn series may have more channels than points, which the library says (a layout
# turned by mistake, most likely); the properties hold either way
@pytest.mark.filterwarnings("ignore:.* has shape .*read as .* channels:UserWarning")
@settings(**SETTINGS)
@given(series_sets(), st.one_of(st.none(), st.floats(0, 1)))
def test_dtw_is_symmetric_zero_on_the_diagonal_and_nonnegative(X, window):
    if _all_tiny(X):
        # squared differences of values below 1e-150 underflow: refused by name
        with pytest.raises(ValueError, match="DTW's squared differences underflow"):
            pairwise_distances(X, metric="dtw", window=window)
        return
    D = pairwise_distances(X, metric="dtw", window=window)
    assert np.all(D >= 0) and np.all(np.isfinite(D))
    np.testing.assert_array_equal(np.diag(D), 0.0)
    np.testing.assert_array_equal(D, D.T)
    both = pairwise_distances(X, X, metric="dtw", window=window)
    np.testing.assert_allclose(both, D, rtol=1e-12, atol=1e-9)
    # warping can only help: DTW <= the lock-step distance of equal-length series
    same = [x for x in X if x.shape[1] == X[0].shape[1]]
    if len(same) > 1 and not _all_tiny(same):
        E = pairwise_distances(same, metric="dtw", window=0)
        lock = np.sqrt(((np.stack(same)[:, None] - np.stack(same)[None]) ** 2).sum((2, 3)))
        np.testing.assert_allclose(E, lock, rtol=1e-10, atol=1e-9)
        full = pairwise_distances(same, metric="dtw")
        assert np.all(full <= E + 1e-9 * (1 + E))


def _all_tiny(series) -> bool:
    """Every value below 1e-150 in magnitude, not all 0: what DTW refuses."""
    return 0.0 < max(float(np.abs(x).max()) for x in series) < 1e-150


@st.composite
def lane_sets(draw):
    """Sets large enough for DTW's lanes (one series against eight or four of one length):
    two or three lengths shared by many series, 1 or 2 channels, values that repeat."""
    d = draw(st.integers(1, 2))
    lengths = draw(st.lists(st.integers(1, 12), min_size=2, max_size=3))
    values = st.one_of(finite, st.sampled_from([0.0, 1.0, -1.0, 1e3]))

    def series(count):
        return [np.array(draw(st.lists(st.lists(values, min_size=d, max_size=d),
                                       min_size=n, max_size=n))).T
                for n in draw(st.lists(st.sampled_from(lengths), min_size=count,
                                       max_size=count))]

    return series(draw(st.integers(1, 3))), series(draw(st.integers(8, 20)))


def _dtw_textbook(a, b, window):
    """DTW of two (channels, length) series by the full dynamic programme (the band of
    tests/test_distances.py's reference: radius floor(w * longer), widened by the difference
    of the lengths along the longer series)."""
    a, b = a.T, b.T
    n, m = len(a), len(b)
    r = max(n, m) if window is None else int(np.floor(window * max(n, m) + 1e-9))
    D = np.full((n + 1, m + 1), np.inf)
    D[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            lo, hi = ((j - 1 - r, j - 1 + (n - m) + r) if n >= m else
                      (j - 1 - (m - n) - r, j - 1 + r))
            if lo <= i - 1 <= hi:
                D[i, j] = (float(np.sum((a[i - 1] - b[j - 1]) ** 2))
                           + min(D[i - 1, j], D[i, j - 1], D[i - 1, j - 1]))
    return float(np.sqrt(D[n, m]))


# the drawn series may have more channels than points, which the library says (a layout
# turned by mistake, most likely); the properties hold either way
@pytest.mark.filterwarnings("ignore:.* has shape .*read as .* channels:UserWarning")
@settings(**SETTINGS)
@given(lane_sets(), st.one_of(st.none(), st.floats(0, 1)))
def test_dtw_in_lanes_equals_one_pair_at_a_time_and_the_textbook_programme(sets, window):
    # eight (or four) pairs at a time where AVX2 is present; each lane must give the bits
    # the one-pair loop gives, in A against B and in B against itself, and the DP's value
    from indefsvm.distances import _dtw

    A, B = sets
    if _all_tiny(A) or _all_tiny(B):
        with pytest.raises(ValueError, match="DTW's squared differences underflow"):
            pairwise_distances(A, B, metric="dtw", window=window)
        return
    lanes = (pairwise_distances(A, B, metric="dtw", window=window),
             pairwise_distances(B, metric="dtw", window=window))
    _dtw.LANES = False
    try:
        alone = (pairwise_distances(A, B, metric="dtw", window=window),
                 pairwise_distances(B, metric="dtw", window=window))
    finally:
        _dtw.LANES = True
    np.testing.assert_array_equal(lanes[0], alone[0])
    np.testing.assert_array_equal(lanes[1], alone[1])
    for j in (0, len(B) // 2, len(B) - 1):
        ref = _dtw_textbook(A[-1], B[j], window)
        np.testing.assert_allclose(lanes[0][-1, j], ref, rtol=1e-12, atol=1e-9)
        np.testing.assert_allclose(lanes[1][0, j], _dtw_textbook(B[0], B[j], window),
                                   rtol=1e-12, atol=1e-9)


@settings(**SETTINGS)
@given(st.lists(st.text(alphabet="abcé🙂", max_size=8), min_size=2, max_size=7))
def test_levenshtein_is_a_metric(words):
    D = pairwise_distances(words, metric="levenshtein")
    np.testing.assert_array_equal(D, D.T)
    same = np.array([[a == b for b in words] for a in words])
    np.testing.assert_array_equal(D == 0, same)
    assert not np.any(D[:, None, :] > D[:, :, None] + D[None, :, :])
    lengths = np.array([len(w) for w in words])
    assert np.all(D <= np.maximum.outer(lengths, lengths))
    assert np.all(D >= np.abs(np.subtract.outer(lengths, lengths)))


@settings(**SETTINGS)
@given(st.integers(3, 12), st.integers(0, 10_000),
       st.sampled_from(["rbf", "laplacian", "linear", "polynomial"]))
def test_distance_kernel_is_the_same_on_training_and_test_rows(n, seed, kind):
    X = np.random.default_rng(seed).normal(size=(n, 2))
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    dk = DistanceKernel(kind, gamma=0.7 if kind != "linear" else "median")
    K = dk.fit_transform(D)
    rows = np.random.default_rng(seed + 1).permutation(n)[: max(1, n // 2)]
    np.testing.assert_allclose(dk.transform(D[rows]), K[rows], rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(K, K.T, rtol=1e-10, atol=1e-10)


@settings(**SETTINGS)
@given(st.integers(3, 15), st.integers(0, 10_000), st.floats(0.3, 3.0))
def test_check_distances_figures_stay_in_their_ranges(n, seed, power):
    X = np.random.default_rng(seed).normal(size=(n, 2))
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1)) ** power
    rep = isvm.diagnostics.check_distances(D, n_gammas=5)
    assert 0 <= rep.triangle_violations <= 1
    assert 0 <= rep.negative_mass <= 1
    assert all(0 <= m <= 1 for _, m in rep.gamma_profile)
    assert rep.signature.p + rep.signature.q + rep.signature.z == n
    if power == 1.0:
        assert rep.euclidean
    if rep.euclidean:  # Schoenberg: every gamma gives a PSD kernel
        assert all(m == 0 for _, m in rep.gamma_profile)


# -- fuzzed files for the command line -------------------------------------------------------------

cell = st.one_of(finite.map(lambda v: f"{v:g}"), st.sampled_from(
    ["", "nan", "inf", "-", "a", "1e400", " 1", "1,2", '"3"', "label", "0x1"]))
table = st.lists(st.lists(cell, min_size=1, max_size=5), min_size=0, max_size=8)


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, err.getvalue()


@settings(**SETTINGS)
@given(table, st.sampled_from([",", "\t"]), st.sampled_from([None, "0", "-1", "label", "9"]))
def test_fuzzed_csv_features_never_crash(rows, delimiter, label_column):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "data.csv" if delimiter == "," else "data.tsv")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("\n".join(delimiter.join(r) for r in rows))
        argv = ["fit", path, "--cv", "0", "--quiet"]
        if label_column is not None:
            argv += ["--label-column", label_column]
        code, err = _run(argv)
    assert code in (0, 1, 2)
    assert "Traceback" not in err and "internal error" not in err
    if code:
        assert err.startswith("indefsvm: error:") and len(err.strip().splitlines()) == 1


@settings(**SETTINGS)
@given(st.integers(1, 5), st.integers(0, 10_000),
       st.sampled_from(["ok", "nan", "neg", "asym", "rect", "1d"]))
def test_fuzzed_distance_files_never_crash(n, seed, fault):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 2))
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    if fault == "nan":
        D[0, -1] = np.nan
    elif fault == "neg":
        D[-1, 0] = D[0, -1] = -1.0
    elif fault == "asym":
        D[0, -1] += 1.0
    elif fault == "rect":
        D = D[:, :-1] if n > 1 else np.ones((1, 2))
    elif fault == "1d":
        D = D.ravel()
    y = np.arange(n) % 2
    with tempfile.TemporaryDirectory() as d:
        np.save(os.path.join(d, "D.npy"), D)
        np.savetxt(os.path.join(d, "y.txt"), y, fmt="%d")
        for cmd in (["fit", "--cv", "0"], ["check"]):
            code, err = _run([cmd[0], os.path.join(d, "D.npy"), "--labels",
                              os.path.join(d, "y.txt"), "--distances", "--quiet", *cmd[1:]])
            assert code in (0, 1, 2)
            assert "Traceback" not in err and "internal error" not in err, err


object_cell = st.one_of(finite.map(lambda v: f"{v:g}"), st.integers(-3, 3).map(str),
                        st.sampled_from(["", "nan", "NaN", "inf", "-", "a", "?", "1e400", " 1",
                                         '"3"', "label", "class", "abc def", "\u00e9",
                                         "\u00a0", "1.5", "-0"]))


@settings(**SETTINGS)
@given(st.lists(st.lists(object_cell, max_size=6), max_size=7),
       st.sampled_from([",", "\t", " ", ";", ", "]), st.sampled_from(["dtw", "levenshtein"]),
       st.sampled_from([None, "first", "last", "none", "0", "-1", "label", "2"]),
       st.booleans(), st.sampled_from([[], ["--nystroem", "2"], ["--window", "0.5"]]))
def test_fuzzed_series_and_strings_files_never_crash(rows, delimiter, metric, label_column,
                                                     header, extra):
    """Files of series and strings (one object a line, the label first, last or none; a
    header row as pandas writes one) through fit --metric, then predict with the model:
    read or refused with one error line (notes on the layout may come before it). It found
    a header row followed by an empty line (IndexError, 2026-11-28)."""
    lines = [delimiter.join(r) for r in rows]
    if header and rows:
        lines = [delimiter.join(["", "label"] + [f"t{i}" for i in range(len(rows[0]))]),
                 *lines]
    if metric == "levenshtein" and "--window" in extra:
        extra = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "objects.csv" if "," in delimiter else "objects.txt")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines))
        model = os.path.join(d, "m.skops")
        argv = ["fit", path, "--metric", metric, "--cv", "0", "--quiet", *extra,
                "--save", model]
        if label_column is not None:
            argv += ["--label-column", label_column]
        runs = [argv, ["predict", model, path], ["predict", model, path, "--label-column",
                                                 "none"]]
        for k, run in enumerate(runs):
            code, err = _run(run)
            lines_err = err.splitlines()
            assert code in (0, 1, 2), (run, lines, err)
            assert "Traceback" not in err and "internal error" not in err, (run, lines, err)
            assert all(ln.startswith("indefsvm: ") for ln in lines_err), (run, lines, err)
            if code:
                assert lines_err[-1].startswith("indefsvm: error: "), (run, lines, err)
                assert sum(ln.startswith("indefsvm: error: ") for ln in lines_err) == 1
                if k == 0:
                    break
