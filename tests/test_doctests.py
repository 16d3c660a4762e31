"""The Examples sections of the public docstrings run and give what they show."""

import doctest
import importlib

import pytest

MODULES = [
    "indefsvm.kernels",
    "indefsvm.svm._classes",
    "indefsvm.solvers._smo",
    "indefsvm.datasets._loaders",
    "indefsvm.diagnostics.spectrum",
    "indefsvm.diagnostics.eta",
    "indefsvm.diagnostics.suitability",
    "indefsvm.diagnostics.posttrain",
    "indefsvm.diagnostics._dual_report",
    "indefsvm.diagnostics._feature_report",
    "indefsvm.plotting",
    "indefsvm.geometry",
    "indefsvm.solvers._ch",
    "indefsvm.solvers._nqp",
    "indefsvm.klr",
    "indefsvm.exceptions",
    "indefsvm.solvers._result",
    "indefsvm.diagnostics.report",
    "indefsvm.remedies._spectrum_fix",
    "indefsvm.remedies._krein",
    "indefsvm.remedies._compare",
    "indefsvm.remedies._search",
    "indefsvm.remedies._folds",
    "indefsvm.nystroem._features",
    "indefsvm.nystroem._svc",
    "indefsvm.cli._main",
    "indefsvm.cli._parser",
    "indefsvm.distances._pairwise",
    "indefsvm.distances._kernel",
    "indefsvm.diagnostics.distances",
    "indefsvm.datasets._synthetic",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


def test_every_public_name_has_an_example():
    """numpydoc Examples on every public class and function (scikit-learn's own
    ConvergenceWarning, re-exported, excepted)."""
    import inspect

    from sklearn.exceptions import ConvergenceWarning

    missing = []
    for modname in ["indefsvm", "indefsvm.kernels", "indefsvm.solvers", "indefsvm.diagnostics",
                    "indefsvm.geometry", "indefsvm.datasets", "indefsvm.klr", "indefsvm.svm",
                    "indefsvm.remedies", "indefsvm.distances",
                    "indefsvm.plotting"]:
        module = importlib.import_module(modname)
        for name in module.__all__:
            obj = getattr(module, name)
            if obj is ConvergenceWarning or not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            if "Examples\n--------" not in (inspect.getdoc(obj) or ""):
                missing.append(f"{modname}.{name}")
    assert not missing, missing
