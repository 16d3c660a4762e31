"""The lower bounds of pyproject.toml are releases the suite was run on: each pinned in
``.ci/min-versions.txt`` (what ``.ci/min_versions`` installs), so that one cannot move
without the other. (A bound of skops 0.10 stood beside scikit-learn 1.6, which skops 0.10
cannot import: the model files failed to load with those two.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


def _bounds() -> dict[str, str]:
    """name -> lower bound of the dependencies and the test extra (``"name>=1.2"``)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    deps = re.search(r"^dependencies = \[(.*?)^\]", text, re.S | re.M).group(1)
    test = re.search(r"^test = \[(.*?)\]", text, re.S | re.M).group(1)
    out = {}
    for spec in re.findall(r'"([^"]+)"', deps + test):
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?>=([0-9.]+)", spec)
        assert m, f"pyproject.toml: {spec!r} has no lower bound"
        out[m.group(1).lower()] = m.group(2)
    return out


def _pins() -> dict[str, str]:
    out = {}
    for line in (ROOT / ".ci" / "min-versions.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            out[name.strip().lower()] = version.strip()
    return out


#: the test extra's tools the minimum run takes at what the pins allow (the docs build, the
#: Dask engine, the browser driver): their bounds are not pinned
UNPINNED = {"sphinx", "numpydoc", "sphinx-gallery", "dask", "distributed", "selenium"}


def test_every_pin_is_the_release_of_its_lower_bound():
    bounds, pins = _bounds(), _pins()
    for name, pin in pins.items():
        assert name in bounds, f".ci/min-versions.txt pins {name}, which pyproject.toml lacks"
        bound = bounds[name].split(".")
        assert pin.split(".")[:len(bound)] == bound, (
            f"{name}: pyproject.toml says >={bounds[name]}, .ci/min-versions.txt runs {pin}")


@pytest.mark.parametrize("name", sorted(set(_bounds()) - UNPINNED))
def test_every_lower_bound_is_pinned(name):
    assert name in _pins(), (f"{name}>={_bounds()[name]} in pyproject.toml: pin that release "
                             "in .ci/min-versions.txt and run bash .ci/min_versions")
