"""Live mode's state, links and lessons, without a browser (the browser side is
``test_explorer_live.py``)."""

import re
from pathlib import Path
from urllib.parse import unquote

import numpy as np
import pytest
from sklearn.datasets import make_moons

import indefsvm as isvm
from indefsvm.cli import main
from indefsvm.explorer import LESSONS, lesson_links, live_hash
from indefsvm.explorer._grid import LIVE_MAX, from_ints, grid_digits, to_ints


def _decode(url: str) -> dict:
    """The page's reading of a link (page.js ``decode``), redone here."""
    items = url.split("#", 1)[1].split("&")
    assert items[0] == "live"
    kv = dict(unquote(i).split("=", 1) for i in items[1:])
    d = int(kv["digits"])
    ints = [int(v, 36) for v in kv["x"].split(",")] if kv["x"] else []
    X = from_ints(np.array(ints, dtype=float).reshape(-1, 2), d)
    return {"kv": kv, "X": X, "y": [1 if c == "1" else -1 for c in kv["y"]]}


@pytest.fixture(scope="module")
def ex():
    X, y = make_moons(50, noise=0.2, random_state=0)
    return isvm.explore(X, y, kernel="sigmoid", param_grid={"gamma": [0.5, 1.0],
                                                            "coef0": [0.0]},
                        C=[0.1, 1.0], remedies=("none", "flip"))


def test_a_link_holds_the_points_exactly(ex):
    st = ex.live_state()
    assert ex.url("p.html").endswith("&C=0.1&remedy=none&set=data")  # the page's own points
    got = _decode(ex.url("p.html", X=st["X"], y=st["y"]))
    assert np.array_equal(got["X"], np.array(st["X"]))  # the same float64 numbers
    assert got["y"] == st["y"]
    kv = got["kv"]
    assert kv["kernel"] == "sigmoid" and float(kv["gamma"]) == st["params"]["gamma"]
    assert kv["C"] == "0.1" and kv["remedy"] == "none" and "set" not in kv
    assert [float(v) for v in kv["box"].split(",")] == [v for r in st["box"] for v in r]


def test_new_points_take_the_labels_of_the_data_the_explorer_was_given(ex):
    # make_moons' labels are 0 / 1, as explore() took them: the page's +1 is the second
    # class, the mapping explore() made of the data's own points
    X, y = make_moons(50, noise=0.2, random_state=0)
    own = ex.live_state()["y"]
    assert own == [1 if v == 1 else -1 for v in y]
    assert ex.live_state(X=X, y=y)["y"] == own
    assert ex.live_state(X=X, y=y.astype(float))["y"] == own  # 1.0 is the class 1
    assert ex.live_state(X=X, y=np.where(y == 1, 1, -1))["y"] == own  # +1 / -1 as they are
    assert _decode(ex.url("p.html", X=X, y=y))["y"] == own
    words = isvm.explore(X, np.where(y == 1, "b", "a"), kernel="sigmoid",
                         param_grid={"gamma": [0.5], "coef0": [0.0]}, C=[1.0],
                         remedies=("none",))
    assert words.live_state(X=X[:3], y=["a", "b", "b"])["y"] == [-1, 1, 1]


def test_the_live_points_are_the_data_on_a_grid_of_five_digits(ex):
    st = ex.live_state()
    X, _ = make_moons(50, noise=0.2, random_state=0)
    d = grid_digits(st["box"])
    assert d == 4  # the moons reach about 2.3: 5 significant digits
    assert np.max(np.abs(np.array(st["X"]) - X)) <= 0.5e-4 + 1e-15
    assert np.array_equal(to_ints(st["X"], d), to_ints(X, d))


def test_changes_are_checked_and_named(ex):
    with pytest.raises(ValueError, match="kernel must be one of"):
        ex.live_state(kernel="symmetric_kl")
    with pytest.raises(ValueError, match="parameters are"):
        ex.live_state(params={"rho": 1.0})
    with pytest.raises(ValueError, match="remedy must be one of"):
        ex.live_state(remedy="krein")
    with pytest.raises(ValueError, match="C must be a number > 0"):
        ex.live_state(C=0)
    with pytest.raises(ValueError, match="hide takes"):
        ex.live_state(hide=["everything"])
    with pytest.raises(TypeError, match="Unknown state keys"):
        ex.live_state(gamma=1.0)
    with pytest.raises(ValueError, match="explorer's classes 0 / 1"):
        ex.live_state(X=np.zeros((3, 2)), y=[1, 2, 1])
    with pytest.raises(ValueError, match="one label per point"):
        ex.live_state(X=np.zeros((3, 2)), y=[1, 0])
    with pytest.raises(ValueError, match="y goes with X"):
        ex.live_state(y=[1, 0, 1])  # not dropped in silence
    with pytest.raises(ValueError, match="X goes with y"):
        ex.live_state(X=np.zeros((3, 2)))
    with pytest.raises(ValueError, match=f"at most {LIVE_MAX}"):
        ex.live_state(X=np.zeros((LIVE_MAX + 1, 2)), y=np.ones(LIVE_MAX + 1))
    with pytest.raises(ValueError, match="save"):
        ex.url()


def test_live_is_offered_where_the_page_can_compute(tmp_path):
    X, y = make_moons(60, noise=0.2, random_state=0)
    assert isvm.explore(X, y, kernel="rbf", C=[1.0], remedies=["none"]).live
    assert not isvm.explore(X, y, kernel="rbf", C=[1.0], remedies=["none"], live=False).live
    X3 = np.c_[X, X[:, 0]]
    assert not isvm.explore(X3, y, kernel="rbf", C=[1.0], remedies=["none"]).live
    with pytest.raises(ValueError, match="2-D inputs of at most 200 points"):
        isvm.explore(X3, y, kernel="rbf", C=[1.0], remedies=["none"], live=True)
    X2, y2 = make_moons(250, noise=0.2, random_state=0)
    with pytest.raises(ValueError, match="250 points"):
        isvm.explore(X2, y2, kernel="rbf", C=[1.0], remedies=["none"], live=True)
    with pytest.raises(TypeError, match="live must be"):
        isvm.explore(X, y, kernel="rbf", C=[1.0], remedies=["none"], live="yes")
    page = isvm.explore(X, y, kernel="rbf", C=[1.0], remedies=["none"]).to_html()
    assert 'id="live-toggle"' in page and "IndefsvmLive" in page
    frames_only = isvm.explore(X3, y, kernel="rbf", C=[1.0], remedies=["none"]).to_html()
    assert 'id="live-toggle"' not in frames_only
    assert "var IndefsvmLive = " not in frames_only


def test_numbers_in_links_are_written_as_javascript_reads_them():
    st = {"X": [[0.5, -1.25]], "y": [1], "kernel": "rbf", "params": {"gamma": 1e-5},
          "C": 1.0, "remedy": "none", "box": [[-2.0, 2.0], [-1.5, 3.0]], "digits": 4,
          "hide": []}
    h = live_hash(st)
    assert "gamma=1e-5" in h and "C=1&" in h and "box=-2,2,-1.5,3" in h
    assert "x=" + np.base_repr(5000, 36).lower() + ",-" + np.base_repr(12500, 36).lower() in h


def test_explore_link_prints_the_live_link(tmp_path, capsys):
    out = tmp_path / "page.html"
    assert main(["explore", "--kernel", "rbf", "-C", "1", "--remedies", "none",
                 "--grid", "gamma=1", "--out", str(out), "--link", "--quiet"]) == 0
    text = capsys.readouterr().out
    link = re.search(r"live link: (\S+)", text).group(1)
    assert link == out.resolve().as_uri() + "#live&kernel=rbf&gamma=1&C=1&remedy=none&set=data"


def test_the_lessons_in_the_docs_are_the_lessons_of_the_library():
    docs = Path(__file__).resolve().parents[1] / "docs" / "teaching.rst"
    if not docs.exists():
        pytest.skip("no docs/ beside the tests (an installed package)")
    text = docs.read_text(encoding="utf-8")
    for title, url, question in lesson_links("_static/playground.html"):
        assert url in text, title
        assert question in text.replace("\n   ", " "), title
    assert len(LESSONS) == 5
