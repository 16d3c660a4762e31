"""The Examples sections of the public docstrings run and give what they show."""

import doctest
import importlib

import pytest

MODULES = [
    "indefsvm.kernels",
    "indefsvm.estimator",
    "indefsvm.solvers._smo",
    "indefsvm.datasets._loaders",
    "indefsvm.diagnostics.spectrum",
    "indefsvm.diagnostics.eta",
    "indefsvm.diagnostics.suitability",
    "indefsvm.diagnostics.posttrain",
    "indefsvm.plotting",
    "indefsvm.geometry",
    "indefsvm.solvers._ch",
    "indefsvm.solvers._nqp",
    "indefsvm.klr",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
