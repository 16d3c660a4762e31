"""The explorer's page in a real browser: headless Chromium driven by Selenium.

Locally, without a browser, these tests skip and say how to install one. ``.ci/run`` installs
Chromium and sets ``INDEFSVM_REQUIRE_BROWSER=1``: in CI a missing browser fails, never skips.
"""

import json
import os
import shutil

import numpy as np
import pytest
from sklearn.datasets import make_moons

import indefsvm as isvm

INSTALL = "apt-get install -y chromium chromium-driver && pip install selenium"


def _driver():
    missing = []
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("selenium")
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which(
        "google-chrome")
    driver = shutil.which("chromedriver")
    if browser is None:
        missing.append("chromium")
    if driver is None:
        missing.append("chromedriver")
    if missing:
        why = f"no {', '.join(missing)}: the browser test needs them ({INSTALL})"
        if os.environ.get("INDEFSVM_REQUIRE_BROWSER"):
            pytest.fail(why)
        pytest.skip(why)
    opts = webdriver.ChromeOptions()
    opts.binary_location = browser
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1440,1300", "--force-device-scale-factor=1"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    # the system's driver: Selenium Manager would otherwise look for one on the network
    return webdriver.Chrome(service=Service(driver), options=opts)


@pytest.fixture(scope="module")
def browser():
    d = _driver()
    yield d
    d.quit()


@pytest.fixture(scope="module")
def explorer():
    X, y = make_moons(80, noise=0.25, random_state=0)
    return isvm.explore(X, y, kernel="sigmoid",
                        param_grid={"gamma": [0.3, 1.0, 3.0], "coef0": [-1.0, 0.0, 1.0]},
                        C=[0.1, 1.0, 100.0])


@pytest.fixture(scope="module")
def page(browser, explorer, tmp_path_factory):
    path = explorer.save(tmp_path_factory.mktemp("explorer") / "page.html")
    browser.get(path.as_uri())
    return browser


def _frame(d) -> int:
    return int(d.find_element("id", "explorer").get_attribute("data-frame"))


def _readouts(d) -> dict:
    cells = d.find_elements("css selector", "#readouts td[data-key]")
    return {c.get_attribute("data-key"): json.loads(c.get_attribute("data-value"))
            for c in cells}


def _assert_readouts_are_the_frame(d, explorer):
    f = explorer.to_dict()["frames"][_frame(d)]
    got = _readouts(d)
    assert len(got) == 16
    for key, value in got.items():
        assert value == f[key], key
    assert d.find_element("id", "caption").text == f["caption"]
    return f


def test_the_page_runs_without_a_javascript_error(page):
    severe = [e for e in page.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert severe == []
    assert page.find_element("id", "caption").text  # the script ran and drew
    assert len(page.find_elements("css selector", "#plane polygon")) > 4
    assert len(page.find_elements("css selector", "#spectrum circle")) >= 80


def test_the_page_loads_nothing_from_the_network(page):
    urls = []
    for entry in page.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    assert urls and all(u.startswith(("file:", "data:", "about:")) for u in urls), urls
    resources = page.execute_script(
        "return performance.getEntriesByType('resource').map(function (e) { return e.name; })")
    assert resources == []


def test_readouts_are_the_frames_numbers(page, explorer):
    first = _assert_readouts_are_the_frame(page, explorer)
    # Explorer.start: remedy "none", the sensible model with the best training accuracy
    # (here gamma 0.3, coef0 -1, C 1)
    assert explorer.start == {"idx": [0, 0, 1], "remedy": 0}
    assert first["params"] == {"gamma": 0.3, "coef0": -1.0} and first["C"] == 1.0
    assert first["remedy"] == "none" and first["sanity_verdict"] == "sensible"


def test_sliders_move_with_the_keyboard_and_change_readouts_and_drawing(page, explorer):
    from selenium.webdriver.common.keys import Keys

    # from the middle of every slider
    js = ("var s = document.getElementById(arguments[0]); s.value = arguments[1];"
          "s.dispatchEvent(new Event('input'));")
    for name in ("gamma", "coef0", "C"):
        page.execute_script(js, f"slider-{name}", 1)
    plane_before = page.find_element("id", "plane").screenshot_as_png
    before = _frame(page)
    slider = page.find_element("id", "slider-C")
    slider.send_keys(Keys.ARROW_RIGHT)  # C 1 -> 100
    f = _assert_readouts_are_the_frame(page, explorer)
    assert _frame(page) == before + 1 and f["C"] == 100.0
    assert page.find_element("id", "value-C").text == "100"
    assert page.find_element("id", "plane").screenshot_as_png != plane_before
    assert page.find_element("id", "change").text.startswith("Changed C 1 \u2192 100")

    input_before = page.find_element("id", "input").screenshot_as_png
    gamma = page.find_element("id", "slider-gamma")
    gamma.send_keys(Keys.ARROW_LEFT)  # gamma 1 -> 0.3
    f = _assert_readouts_are_the_frame(page, explorer)
    assert f["params"]["gamma"] == 0.3
    assert page.find_element("id", "input").screenshot_as_png != input_before


def test_the_remedy_switch_shows_the_fixed_kernel(page, explorer):
    spectrum_before = page.find_element("id", "spectrum").screenshot_as_png
    page.find_element("id", "remedy-clip").click()
    f = _assert_readouts_are_the_frame(page, explorer)
    assert f["remedy"] == "clip" and f["signature"][1] == 0
    assert page.find_element("id", "readout-kernel_verdict").text == "PSD"
    assert page.find_element("id", "spectrum").screenshot_as_png != spectrum_before
    page.find_element("id", "remedy-none").click()
    assert _assert_readouts_are_the_frame(page, explorer)["remedy"] == "none"


def test_every_frame_is_reachable_and_drawn(page, explorer):
    # walk all frames through the controls: each shows its own numbers, and no error
    frames = explorer.to_dict()["frames"]
    seen = set()
    js = ("var s = document.getElementById(arguments[0]); s.value = arguments[1];"
          "s.dispatchEvent(new Event('input'));")
    for r, name in enumerate(explorer.grid["remedies"]):
        page.find_element("id", f"remedy-{name}").click()
        for g in range(3):
            page.execute_script(js, "slider-gamma", g)
            for c0 in range(3):
                page.execute_script(js, "slider-coef0", c0)
                for c in range(3):
                    page.execute_script(js, "slider-C", c)
                    i = _frame(page)
                    assert i == ((g * 3 + c0) * 3 + r) * 3 + c
                    assert _readouts(page)["w_M_w"] == frames[i]["w_M_w"]
                    seen.add(i)
    assert seen == set(range(len(frames)))
    assert [e for e in page.get_log("browser") if e["level"] == "SEVERE"] == []


def test_the_notebook_form_renders_in_its_frame(browser, explorer, tmp_path):
    path = tmp_path / "notebook.html"
    path.write_text(f"<!DOCTYPE html><html><body>{explorer._repr_html_()}</body></html>",
                    encoding="utf-8")
    browser.get(path.as_uri())
    browser.switch_to.frame(browser.find_element("tag name", "iframe"))
    try:
        _assert_readouts_are_the_frame(browser, explorer)
    finally:
        browser.switch_to.default_content()


def test_a_precomputed_kernel_page_hides_the_input_plane(browser, tmp_path):
    X, y = make_moons(40, noise=0.2, random_state=1)
    K = isvm.kernel_matrix(X, kernel="tl1", rho=1.0)
    ex = isvm.explore(K, y, kernel="precomputed", C=[1.0, 10.0], remedies=("none", "flip"))
    browser.get(ex.save(tmp_path / "k.html").as_uri())
    assert not browser.find_element("id", "panel-input").is_displayed()
    assert browser.find_elements("id", "slider-C")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
    assert np.isfinite(_readouts(browser)["w_M_w"])
