"""Issue 46, item 14: the explorer's rough edges -- the page opens on a reasonable model, the
two w'Mw it shows say which is which, the spectrum's axes have readable ticks, the command
line says each thing once."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from sklearn.datasets import make_moons

import indefsvm as isvm
from indefsvm.cli import main


@pytest.fixture(scope="module")
def moons_page():
    X, y = make_moons(120, noise=0.25, random_state=0)
    return isvm.explore(X, y)  # the command line's default page: its grid and data


def _frame_at(ex, start):
    g = ex.grid
    sizes = [len(v) for v in g["params"].values()]
    i = 0
    for a, s in zip(start["idx"][:-1], sizes, strict=True):
        i = i * s + a
    i = i * len(g["remedies"]) + start["remedy"]
    return ex.frames[i * len(g["C"]) + start["idx"][-1]]


def test_the_page_opens_on_a_sensible_model_with_the_best_training_accuracy(moons_page):
    """The middle of the default grid was a 66.7 % model; the opening frame is, among the
    frames without a remedy, a sensible one (w'Mw > 0) whose plane shows it (in-plane w'Mw
    of its sign, >= 1 % of it), with the highest accuracy of those."""
    from indefsvm.explorer import _shows_the_idea

    ex = moons_page
    start = ex.start
    f = _frame_at(ex, start)
    assert f["remedy"] == "none" and f["sanity_verdict"] == "sensible" and _shows_the_idea(f)
    plain = [g for g in ex.frames if g["remedy"] == "none"]
    best = max(g["train_accuracy"] for g in plain
               if g["sanity_verdict"] == "sensible" and _shows_the_idea(g))
    assert f["train_accuracy"] == best >= 0.8
    payload = json.loads(re.search(r'id="explorer-data">(.*?)</script>', ex.to_html(),
                                   re.S).group(1))
    assert payload["start"] == start


def test_the_command_line_says_each_thing_once(tmp_path, capsys):
    out = tmp_path / "p.html"
    assert main(["explore", "--grid", "gamma=0.5,2", "-C", "1", "--out", str(out)]) == 0
    cap = capsys.readouterr()
    text = cap.out + cap.err
    assert text.count("120 points") <= 1, text
    assert "save(path)" not in text and "notebook" not in text
    assert re.search(r"6 frames built in [\d.]+ s \(gamma 2 x C 1 x remedy 3\); "
                     r"models: ", text)


@pytest.fixture(scope="module")
def browser():
    from test_explorer_browser import _driver

    d = _driver()
    yield d
    d.quit()


def test_the_page_names_both_w_M_w_and_ticks_its_spectrum(browser, moons_page, tmp_path):
    path = moons_page.save(tmp_path / "page.html")
    browser.get(path.as_uri())
    f = _frame_at(moons_page, moons_page.start)
    assert int(browser.find_element("id", "explorer").get_attribute("data-frame")) >= 0
    # the opening frame is Explorer.start's
    for name, i in zip(list(moons_page.grid["params"]) + ["C"], moons_page.start["idx"],
                       strict=True):
        values = moons_page.grid["params"].get(name, moons_page.grid["C"])
        assert float(browser.find_element("id", f"value-{name}").text) == pytest.approx(
            values[i], rel=1e-3)
    label = browser.find_element("css selector", "#readouts").text
    assert "w'Mw, all p + q axes (sanity_report)" in label
    plane = browser.find_element("id", "plane-wmw").text
    assert plane.startswith("w'Mw of w projected on this plane = ") and "(all axes: " in plane
    ys = [float(e.text) for e in browser.find_elements("css selector", "#spectrum .tick-y")]
    assert 0.0 in ys and len(ys) >= 3
    for v in ys:  # 0 and +-10^k
        assert v == 0 or abs(np.log10(abs(v)) - round(np.log10(abs(v)))) < 1e-12, ys
    xs = [int(e.text) for e in browser.find_elements("css selector", "#spectrum .tick-x")]
    n = len(f["spectrum"])
    step = xs[1] - xs[0] if xs[0] != 1 else (xs[2] - xs[1] if len(xs) > 2 else xs[1])
    assert xs[0] == 1 and len(xs) >= 3 and max(xs) <= n
    assert all(k % step == 0 for k in xs[1:]), xs
    mantissa = step / 10 ** np.floor(np.log10(step))
    assert mantissa in (1, 2, 5), xs
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def test_save_names_its_path_when_it_is_not_one():
    # the probe of 2026-11-29: ex.save(123) / save(None) met pathlib's "expected str, bytes
    # or os.PathLike object, not int" (load_model names its path already)
    rng = np.random.default_rng(11)
    X = rng.normal(size=(12, 2))
    ex = isvm.explore(X, np.where(X[:, 0] > 0, 1, -1), param_grid={"gamma": [0.5],
                                                                   "coef0": [0.0]},
                      C=[1.0], remedies=("none",))
    for bad, kind in ((123, "int"), (None, "NoneType"), (b"p.html", "bytes")):
        with pytest.raises(TypeError, match=rf"^path must be the page's file path \(a str or "
                                            rf"os.PathLike\); got {kind}\."):
            ex.save(bad)


def test_frames_are_logged_only_when_verbose(caplog, tmp_path, capsys):
    # explore() logged every frame whatever verbose said: once any verbose=True call had
    # made the records visible, every later quiet explore() printed its frames
    rng = np.random.default_rng(12)
    X = rng.normal(size=(12, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    kw = dict(param_grid={"gamma": [0.5], "coef0": [0.0]}, C=[1.0], remedies=("none",))
    with caplog.at_level("INFO", logger="indefsvm"):
        isvm.explore(X, y, **kw)
    assert not [r for r in caplog.records if "explore: frame" in r.getMessage()]
    with caplog.at_level("INFO", logger="indefsvm"):
        isvm.explore(X, y, verbose=True, **kw)
    assert [r.getMessage()[:21] for r in caplog.records
            if "explore: frame" in r.getMessage()] == ["explore: frame 1 of 1"]
    # the command line's --verbose still logs them (shown on stderr outside pytest)
    caplog.clear()
    with caplog.at_level("INFO", logger="indefsvm"):
        assert main(["explore", "--grid", "gamma=0.5", "-C", "1", "--remedies", "none",
                     "--verbose", "--out", str(tmp_path / "p.html")]) == 0
    assert [r.getMessage()[:21] for r in caplog.records
            if "explore: frame" in r.getMessage()] == ["explore: frame 1 of 1"]


def test_explore_on_features_near_1e150():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(8, 2)) * 1e150
    y = np.arange(8) % 2
    # the page's frames each carry a sanity report of a linear-kernel SVM (before: an
    # OverflowError, "internal error" on the command line)
    ex = isvm.explore(X, y, kernel="linear", C=[1.0], remedies=["none"])
    assert ex.frames and all(np.isfinite(f["w_M_w"]) for f in ex.frames)


def test_explore_of_tiny_features_draws_tl1_and_names_the_underflow_of_the_others():
    # tl1 has no gamma and needs no variance: its page is drawn (without live sliders, which
    # centre gamma on the scale rule); the sigmoid's gamma rule cannot be computed, said so
    X = np.random.default_rng(0).normal(size=(8, 2)) * 1e-200
    y = np.arange(8) % 2
    page = isvm.explore(X, y, kernel="tl1", C=[1.0], remedies=["none"])
    assert len(page.frames) == 3 and page.live is False  # tl1's three rho
    with pytest.raises(ValueError, match=r"gamma's 'scale' rule .* underflows float64"):
        isvm.explore(X, y, kernel="sigmoid", C=[1.0], remedies=["none"])
