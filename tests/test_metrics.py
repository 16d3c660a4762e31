"""The metric table (``indefsvm._metrics``): its rows, and a distance registered from this
file alone running through every part of the library that takes ``metric=`` and through the
command line's ``--metric``."""

import json

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm import _metrics
from indefsvm.cli import main


def _moments(X, Y):
    """A distance between series of any lengths from their first two moments: |mean(a) -
    mean(b)| + |std(a) - std(b)| (a pseudo-metric; exp(-gamma d^2) of it is not PSD in
    general, as for the distances the library is for)."""
    def moments(S):
        return np.array([[np.mean(s), np.std(s)] for s in S])

    a, b = moments(X), moments(Y)
    return np.abs(a[:, None, :] - b[None, :, :]).sum(axis=2)


def _moments_ref(S, T):
    return np.array([[abs(np.mean(s) - np.mean(t)) + abs(np.std(s) - np.std(t)) for t in T]
                     for s in S])


@pytest.fixture
def moments():
    """'moments' registered for one test, the table as it was afterwards."""
    before = dict(_metrics.REGISTRY)
    isvm.register_metric("moments", _moments, objects="series",
                         summary="first two moments of each series")
    yield "moments"
    _metrics.REGISTRY.clear()
    _metrics.REGISTRY.update(before)


def _series(n=60, seed=0):
    S, y = isvm.datasets.make_cbf(n, length=(40, 60), random_state=seed)
    return list(S), np.asarray(y)


def test_the_built_in_rows():
    assert list(_metrics.REGISTRY) == ["dtw", "levenshtein", "gak", "msm", "euclidean",
                                         "cityblock"]
    assert _metrics.objects_of("dtw") == "series"
    assert _metrics.objects_of("levenshtein") == "strings"
    assert _metrics.objects_of("cityblock") == "vectors"
    assert _metrics.objects_of(len) == "objects" and _metrics.objects_of("nope") is None
    assert _metrics.object_metrics() == ("dtw", "levenshtein", "gak", "msm")
    assert _metrics.device_metrics() == ("dtw", "euclidean", "cityblock")
    assert _metrics.takes("dtw", "window") and not _metrics.takes("levenshtein", "window")
    assert _metrics.default_metric("strings") == "levenshtein"
    # every row's functions exist where the row says
    for row in _metrics.REGISTRY.values():
        assert callable(_metrics.resolve(row.compute)) and row.function is None
        assert row.check is None or callable(_metrics.resolve(row.check))
        assert row.device is None or callable(_metrics.resolve(row.device))
    assert dict(isvm.distances.METRICS) == {"dtw": ("window",), "levenshtein": ("weights",),
                                            "gak": ("sigma", "window"),
                                            "msm": ("c", "window"), "euclidean": (),
                                            "cityblock": ()}


def test_register_refuses_what_it_cannot_take():
    with pytest.raises(ValueError, match="in the table already"):
        isvm.register_metric("dtw", _moments, objects="series")
    with pytest.raises(ValueError, match="lower case"):
        isvm.register_metric("Bad Name", _moments, objects="series")
    with pytest.raises(ValueError, match="objects must be one of"):
        isvm.register_metric("ok", _moments, objects="graphs")
    with pytest.raises(ValueError, match="must be callable"):
        isvm.register_metric("ok", 3, objects="series")
    with pytest.raises(ValueError, match="random series or strings"):
        isvm.register_metric("ok", _moments, objects="vectors", random_objects=True)
    assert "ok" not in _metrics.REGISTRY


def test_a_registered_metric_is_computed_and_its_output_checked(moments):
    S, _ = _series(20)
    D = isvm.pairwise_distances(S, metric=moments)
    np.testing.assert_allclose(D, _moments_ref(S, S), atol=1e-12)
    assert np.all(np.diag(D) == 0)
    E = isvm.pairwise_distances(S[:5], S, metric=moments)
    np.testing.assert_allclose(E, _moments_ref(S[:5], S), atol=1e-12)
    # its kind's checks: strings are not series; a parameter it does not take is refused
    with pytest.raises(ValueError, match="numeric series"):
        isvm.pairwise_distances(["ab", "cd"], metric=moments)
    with pytest.raises(ValueError, match="takes no parameters"):
        isvm.pairwise_distances(S, metric=moments, window=0.1)
    with pytest.raises(ValueError, match="window is a parameter of metric='dtw'"):
        isvm.PairwiseDistances(moments, window=0.1).fit(S)
    # a function that returns a negative or a wrong shape is said, by name
    isvm.register_metric("moments", lambda X, Y: -_moments(X, Y), objects="series",
                         replace=True)
    with pytest.raises(ValueError, match="metric 'moments' returned -"):
        isvm.pairwise_distances(S, metric=moments)
    isvm.register_metric("moments", lambda X, Y: np.zeros((2, 2)), objects="series",
                         replace=True)
    with pytest.raises(ValueError, match=r"shape \(2, 2\)"):
        isvm.pairwise_distances(S, metric=moments)


def test_a_registered_metric_runs_through_the_library(moments):
    S, y = _series(60)
    # the transformer, in a pipeline, against the distances computed by hand
    pipe = isvm.PairwiseDistances(moments).fit(S[:40])
    np.testing.assert_allclose(pipe.transform(S[40:]), _moments_ref(S[40:], S[:40]),
                               atol=1e-12)
    assert pipe.__sklearn_tags__().input_tags.three_d_array
    # the landmark model: its features are the distances to its landmarks
    model = isvm.NystroemSVC(metric=moments, n_components=60, random_state=0).fit(S, y)
    assert model.score(S, y) > 0.5
    # its landmarks are training series, compared by the registered function
    comps = list(model.nystroem_.components_)
    assert all(any(np.array_equal(c, s) for s in S) for c in comps)
    # the distance check reads it as it reads DTW's: the same report as on the matrix
    rep = isvm.diagnostics.check_distances(X=S, y=y, metric=moments)
    ref = isvm.diagnostics.check_distances(_moments_ref(S, S), y)
    assert rep.metric == "moments" and rep.n == 60
    assert rep.verdict == ref.verdict and rep.euclidean == ref.euclidean
    assert rep.gamma_median == pytest.approx(ref.gamma_median, rel=1e-9)
    # D2KE samples training series for it (random_objects=False in its row)
    rdf = isvm.distances.RandomDistanceFeatures(moments, n_components=8,
                                                random_state=0).fit(S)
    assert all(any(r is s or (np.shape(r) == np.shape(s) and np.array_equal(r, s))
                   for s in S) for r in rdf.random_objects_)


def test_a_registered_metric_on_the_command_line(moments, tmp_path, capsys):
    S, y = _series(60)
    path = tmp_path / "series.txt"
    with open(path, "w") as fh:
        for s, label in zip(S, y, strict=True):
            fh.write(f"{label}," + ",".join(f"{v:.6f}" for v in s) + "\n")
    model = tmp_path / "moments.skops"
    assert main(["fit", str(path), "--metric", moments, "--nystroem", "30", "--cv", "0",
                 "--json", "--save", str(model)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["metric"] == "moments" and out["n_samples"] == 60
    assert main(["predict", str(model), str(path)]) == 0
    capsys.readouterr()
    assert main(["check", str(path), "--metric", moments]) == 0
    assert "moments" in capsys.readouterr().out
    assert main(["compare", str(path), "--metric", moments, "--nystroem", "30",
                 "--cv", "3"]) == 0
    capsys.readouterr()
    # DTW's band is DTW's: refused for it, by the table's word
    assert main(["fit", str(path), "--metric", moments, "--window", "0.1"]) == 2
    assert ("--window is the band of an elastic distance; drop it with --metric "
            "moments") in capsys.readouterr().err
