"""The explorer's frames hold the library's own numbers; its page is one self-contained file."""

import html
import json
import re

import numpy as np
import pytest
from sklearn.datasets import make_moons

import indefsvm as isvm
from indefsvm.explorer import default_param_grid
from indefsvm.kernels import KERNELS


@pytest.fixture(scope="module")
def moons():
    return make_moons(60, noise=0.25, random_state=0)


@pytest.fixture(scope="module")
def small(moons):
    X, y = moons
    return isvm.explore(X, y, kernel="sigmoid",
                        param_grid={"gamma": [0.5, 2.0], "coef0": [-1.0, 1.0]},
                        C=[0.1, 100.0], remedies=("none", "clip", "flip"))


def _fixed(K, remedy):
    fixes = {"none": None, "clip": isvm.remedies.ClipEigenvalues(),
             "flip": isvm.remedies.FlipEigenvalues()}
    fix = fixes[remedy]
    return K if fix is None else fix.fit_transform(K)


def test_frames_cover_the_grid_in_the_page_order(small):
    frames = small.to_dict()["frames"]
    assert len(frames) == len(small) == 2 * 2 * 3 * 2
    keys = [(f["params"]["gamma"], f["params"]["coef0"], f["remedy"], f["C"]) for f in frames]
    expected = [(g, c0, r, C) for g in (0.5, 2.0) for c0 in (-1.0, 1.0)
                for r in ("none", "clip", "flip") for C in (0.1, 100.0)]
    assert keys == expected


def test_every_frame_holds_the_diagnostics_of_its_own_model(small, moons):
    X, y = moons
    for f in small.to_dict()["frames"]:
        K = _fixed(isvm.kernel_matrix(X, kernel="sigmoid", **f["params"]), f["remedy"])
        rep = isvm.check_kernel(K, y)
        sig = rep.to_dict()["signature"]
        assert f["signature"] == [sig["p"], sig["q"], sig["z"]]
        assert f["negative_mass"] == sig["negative_mass"]
        assert f["class_mean_sqdist"] == rep.class_mean_sqdist
        assert f["kernel_verdict"] == rep.verdict
        assert f["lam_min"] == rep.lam_min
        clf = isvm.IndefiniteSVC(kernel="precomputed", C=f["C"]).fit(K, y)
        san = isvm.sanity_report(clf, K, y)
        assert f["w_M_w"] == pytest.approx(san.wMw, rel=1e-12, abs=1e-15)
        assert f["sanity_verdict"] == san.verdict
        assert f["n_sv"] == clf.support_.size
        assert f["converged"] == bool(clf.converged_)


def test_w_m_w_is_the_convex_hull_solution_of_prop_7(small, moons):
    # w'Mw = (abar o y)' K (abar o y) with abar = 2 alpha / sum(alpha), computed from scratch
    X, y = moons
    ypm = np.where(y == 1, 1.0, -1.0)
    for f in small.to_dict()["frames"][:6]:
        K = _fixed(isvm.kernel_matrix(X, kernel="sigmoid", **f["params"]), f["remedy"])
        clf = isvm.IndefiniteSVC(kernel="precomputed", C=f["C"]).fit(K, y)
        alpha = np.zeros(len(y))
        alpha[clf.support_] = np.abs(clf.dual_coef_.ravel())
        a = 2 * alpha / alpha.sum() * ypm
        assert f["w_M_w"] == pytest.approx(a @ K @ a, rel=1e-9)


def test_the_plane_is_the_leading_positive_and_negative_axis(small, moons):
    X, y = moons
    f = small.to_dict()["frames"][0]
    K = isvm.kernel_matrix(X, kernel="sigmoid", **f["params"])
    J = np.eye(len(y)) - 1.0 / len(y)
    lam, V = np.linalg.eigh(J @ K @ J)
    P = np.asarray(f["plane"])
    assert f["signature"][1] > 0 and f["plane_M"] == [1.0, -1.0]
    for col, i in ((0, -1), (1, 0)):  # largest and most negative eigenvalue
        ref = V[:, i] * np.sqrt(abs(lam[i]))
        assert min(np.abs(P[:, col] - ref).max(), np.abs(P[:, col] + ref).max()) < 1e-3 * (
            np.abs(ref).max())
    # w = z+ - z- and Mw = diag(1, -1) w, on the points drawn
    assert np.allclose(f["w"], np.subtract(f["z_plus"], f["z_minus"]), atol=1e-3)
    assert np.allclose(f["Mw"], np.multiply(f["w"], [1, -1]))


def test_clip_and_flip_leave_no_negative_axis(small):
    for f in small.to_dict()["frames"]:
        if f["remedy"] == "none":
            continue
        assert f["signature"][1] == 0
        assert f["plane_M"] == [1.0, 1.0] and f["w"] == f["Mw"]
        assert f["kernel_verdict"] == "PSD"
        assert "M = I and Mw = w" in f["caption"]


def test_captions_say_the_sign_of_w_m_w(small):
    frames = small.to_dict()["frames"]
    assert {f["w_M_w"] > 0 for f in frames} == {True, False}  # the grid shows both
    for f in frames:
        if f["w_M_w"] > 0:
            assert "> 0: a sensible convex-hull classifier" in f["caption"]
        else:
            assert "counter-intuitive convex-hull classifier" in f["caption"]


def test_two_d_inputs_get_the_decision_function_over_the_plane(small, moons):
    X, y = moons
    ex = small.to_dict()
    f = ex["frames"][1]
    box = small._data["input"]["box"]
    g = 32
    gx, gy = np.meshgrid(np.linspace(*box[0], g), np.linspace(*box[1], g))
    clf = isvm.IndefiniteSVC(kernel="sigmoid", C=f["C"], **f["params"]).fit(X, y)
    ref = clf.decision_function(np.c_[gx.ravel(), gy.ravel()])
    assert np.allclose(f["decision"], ref, rtol=2e-3, atol=2e-3 * np.abs(ref).max())


def test_the_page_is_self_contained(small):
    page = small.to_html()
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page)
    assert "<link" not in page and "@import" not in page and "url(http" not in page
    assert re.findall(r"<script[^>]*\bsrc=", page) == []
    data = re.search(r'<script type="application/json" id="explorer-data">(.*?)</script>',
                     page, re.S).group(1)
    payload = json.loads(data)
    assert len(payload["frames"]) == len(small)


def test_a_title_cannot_break_the_page(moons):
    X, y = moons
    ex = isvm.explore(X, y, kernel="rbf", param_grid={"gamma": [1.0]}, C=[1.0],
                      remedies=("none",), title="</script><b>x</b>")
    page = ex.to_html()
    assert page.count("</script>") == 2  # the data's and the program's
    assert "&lt;/script&gt;" in page


def test_notebook_and_file_forms(small, tmp_path):
    frag = small._repr_html_()
    assert frag.startswith("<iframe srcdoc=")
    doc = re.search(r'srcdoc="(.*?)" sandbox', frag, re.S).group(1)
    assert html.unescape(doc) == small.to_html()
    path = small.save(tmp_path / "page.html")
    assert path.read_text(encoding="utf-8") == small.to_html()
    with pytest.raises(FileNotFoundError, match="does not exist"):
        small.save(tmp_path / "nowhere" / "page.html")
    assert "24 frames" in str(small) and "MB" in str(small)


def test_a_precomputed_kernel_has_no_parameter_and_no_input_plane(moons):
    X, y = moons
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=1.0, coef0=-1.0)
    ex = isvm.explore(K, y, kernel="precomputed", C=[1.0], remedies=("none", "flip"))
    frames = ex.to_dict()["frames"]
    assert len(frames) == 2 and frames[0]["params"] == {}
    assert "decision" not in frames[0] and ex._data["input"] is None
    with pytest.raises(ValueError, match="no parameter to vary"):
        isvm.explore(K, y, kernel="precomputed", param_grid={"gamma": [1.0]})


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_every_kernel_has_a_default_grid_of_its_own_parameters(name, moons):
    X, _ = moons
    X = np.abs(X) + 0.1  # symmetric_kl needs positive inputs
    grid = default_param_grid(name, X)
    assert set(grid) <= set(KERNELS[name][1])
    assert all(len(v) >= 1 for v in grid.values())
    if KERNELS[name][1]:
        assert grid  # something to explore


def test_the_default_grid_builds_a_page_of_a_few_mb_for_120_points():
    X, y = make_moons(120, noise=0.25, random_state=0)
    ex = isvm.explore(X, y)  # sigmoid: 3 gamma x 3 coef0 x 3 C x 3 remedies
    assert len(ex) == 81
    size = len(ex.to_html().encode())
    assert size < 3e6, size


@pytest.mark.parametrize("kwargs, match", [
    (dict(param_grid={"degree": [2]}), "has no parameter 'degree'"),
    (dict(param_grid={"C": [1]}), "give the values of C as C="),
    (dict(param_grid={"gamma": []}), "is empty"),
    (dict(param_grid={"gamma": [1, np.nan]}), "finite numbers"),
    (dict(param_grid={"gamma": [1, 1]}), "lists a value twice: 1; give each value once"),
    # the value, not the whole list (fifty values were printed in full)
    (dict(param_grid={"gamma": [0.5] * 50 + [2, 2]}),
     r"^param_grid\['gamma'\] lists a value twice: 0\.5 \(and 1 more\); give each"),
    (dict(remedies=("flip", "clip", "flip")), "lists a name twice: 'flip'; give each once"),
    (dict(param_grid={"gamma": "0.1"}), "list of numbers"),
    (dict(C=[0.0, 1.0]), "C must hold numbers > 0"),
    (dict(remedies=("krein",)), "explore 'flip'"),
    (dict(remedies=("clipp",)), "Unknown remedy 'clipp'"),
    (dict(remedies=()), "remedies is empty"),
    (dict(kernel="sigmoidal"), "Unknown kernel"),
    (dict(kernel=lambda a, b: a @ b.T), "kernel='precomputed'"),
    (dict(param_grid={"gamma": list(np.linspace(0.1, 3, 40)),
                      "coef0": list(np.linspace(-1, 1, 40))}), r"would weigh about \d+ MB"),
])
def test_bad_input_gets_one_clear_error(moons, kwargs, match):
    X, y = moons
    kw = dict(kernel="sigmoid")
    kw.update(kwargs)
    with pytest.raises((ValueError, TypeError), match=match):
        isvm.explore(X, y, **kw)


def test_more_than_two_classes_or_too_many_points_are_refused():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 2))
    with pytest.raises(ValueError, match="y must have 2 classes; got 3"):
        isvm.explore(X, np.arange(30) % 3)
    with pytest.raises(ValueError, match="n = 1200 > 1000"):
        isvm.explore(rng.normal(size=(1200, 2)), np.arange(1200) % 2)
    with pytest.raises(ValueError, match="one label per row"):
        isvm.explore(X, np.arange(29) % 2)


# -- the page survives its text (issue 46, item 7) ----------------------------------------


def _embedded_json(page: str) -> dict:
    import json as _json_mod
    import re

    m = re.search(r'<script type="application/json" id="explorer-data">(.*?)</script>', page,
                  re.S)
    return _json_mod.loads(m.group(1))


def test_text_cannot_end_or_swallow_the_data_element():
    X, y = make_moons(24, noise=0.2, random_state=0)
    nasty = "<!--<script>x</script>&amp;"
    labels = np.where(y == 1, "</script><script>alert(1)</script>", "\x1b[31mred")
    ex = isvm.explore(X, labels, kernel="rbf", param_grid={"gamma": [0.5]}, C=[1.0],
                      remedies=("none",), title=nasty)
    page = ex.to_html()
    # one data element, closed where it should be, its JSON intact
    assert page.count('id="explorer-data"') == 1 and "<!--<script" not in page
    data = _embedded_json(page)
    assert data["title"] == nasty
    assert sorted(data["classes"]) == sorted(["</script><script>alert(1)</script>",
                                              "\x1b[31mred"])
    # the notebook's iframe is sandboxed; a terminal sees no raw escape sequence
    assert 'sandbox="allow-scripts"' in ex._repr_html_()
    assert "\x1b" not in str(ex)


def test_title_and_labels_checked_before_any_frame():
    import time

    X, y = make_moons(24, noise=0.2, random_state=0)
    t0 = time.perf_counter()
    with pytest.raises(TypeError, match="title must be a string"):
        isvm.explore(X, y, title=3)
    with pytest.raises(TypeError, match="bytes labels"):
        isvm.explore(X, np.where(y == 1, b"a", b"b").astype(object))
    assert time.perf_counter() - t0 < 1.0  # refused before the frames


def test_labels_beyond_javascript_numbers_are_text():
    X, y = make_moons(24, noise=0.2, random_state=0)
    big = np.where(y == 1, 2**53, 2**53 + 1)
    ex = isvm.explore(X, big, kernel="rbf", param_grid={"gamma": [0.5]}, C=[1.0],
                      remedies=("none",))
    assert ex.classes == [str(2**53), str(2**53 + 1)]


def test_distances_given_as_the_kernel_are_said_once_and_are_no_frame_s_convergence_warning():
    # the check of X says it; each frame's check and SVM used to say it again (4 warnings),
    # and the first frame recorded it as its "convergence warning"
    import warnings

    S, y = isvm.datasets.make_cbf(60, random_state=0)
    D = isvm.pairwise_distances(S, metric="dtw")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ex = isvm.explore(D, (y == 0).astype(int), kernel="precomputed", C=[1.0])
    said = [w for w in caught if issubclass(w.category, isvm.DistanceMatrixWarning)]
    assert len(said) == 1 and str(said[0].message).startswith("X (kernel matrix) looks like")
    assert all(f["convergence_warning"] is None for f in ex.to_dict()["frames"])


def test_a_frame_keeps_its_own_convergence_warning(monkeypatch):
    import functools

    import indefsvm.explorer._frames as frames

    monkeypatch.setattr(frames, "IndefiniteSVC",
                        functools.partial(isvm.IndefiniteSVC, max_iter=1))
    X, y = make_moons(40, noise=0.2, random_state=0)
    # the page shows it (the frame's caption), not a warning of the build
    ex = isvm.explore(X, y, kernel="rbf", param_grid={"gamma": [1.0]}, C=[10.0],
                      remedies=["none"], live=False)
    (frame,) = ex.to_dict()["frames"]
    assert frame["converged"] is False
    assert "max_iter" in frame["convergence_warning"]


def test_the_page_opens_on_a_frame_whose_plane_shows_the_idea():
    # the default first frame was near-degenerate: in-plane w'Mw = 7.5e-7 under the heading
    # "w and Mw lie on the same side"; on heart's sigmoid kernel the plane's w'Mw had the
    # other sign than the model's. The opening frame is sensible and its plane says so
    X, y = isvm.datasets.load_heart(return_X_y=True)
    ex = isvm.explore(X, y, kernel="sigmoid")
    g = ex.grid
    sizes = [len(v) for v in g["params"].values()] + [len(g["C"])]
    idx = ex.start["idx"]
    flat = 0
    for k, s in zip(idx[:-1], sizes[:-1], strict=True):
        flat = flat * s + k
    f = ex._frames[(flat * len(g["remedies"])) * sizes[-1] + idx[-1]]
    assert f["sanity_verdict"] == "sensible" and f["w_M_w"] > 0
    assert f["plane_w_M_w"] > 0.01 * f["w_M_w"]
