"""The public API's docstrings say every parameter there is and none that is not (numpydoc's
own validation: PR01 a parameter not documented, PR02 one documented that the signature does
not have, PR07 one named with its type and not a word of what it does, GL08 no docstring at
all). A probe of 2026-11-29 found twelve: ``warn`` of ``munk``
and ``lsvm``, ``page`` of ``lesson_links``, ``state`` and ``own_data`` of ``live_hash``,
``title`` of ``playground``, ``**changes`` of ``Explorer.live_state``, CLIError's two, and
seven methods and properties without a word (``to_dict`` of four results,
``DistanceReport.negative_mass``, ``RandomDistanceFeatures.n_landmarks_``, ``Explorer.frames``).
A later probe (2026-11-29) found 73 parameters named without a word (PR07): ``remedy``,
``class_weight`` and ``kernel_params`` of ``NystroemSVC``, ``max_iter`` and ``random_state``
of ``ConvexHullClassifier``, the kernel options of ``KernelLogisticRegression``, the plots'
``ax``, the solvers' and geometry helpers' arrays, and the ``y`` that transformers ignore.

The results (the dataclasses, and ``Explorer``, which :func:`~indefsvm.explore` builds)
document their fields as attributes, which numpydoc reads as the constructor's parameters:
the PR01 of a class whose docstring has Attributes and no Parameters is not counted."""

from __future__ import annotations

import dataclasses
import importlib
import inspect

import pytest

import indefsvm as isvm

numpydoc_validate = pytest.importorskip("numpydoc.validate")

MODULES = ("indefsvm", "indefsvm.kernels", "indefsvm.diagnostics", "indefsvm.distances",
           "indefsvm.geometry", "indefsvm.solvers", "indefsvm.remedies", "indefsvm.datasets",
           "indefsvm.plotting", "indefsvm.explorer", "indefsvm.cli")

CODES = ("PR01", "PR02", "PR07", "GL08")


def _public_names() -> list[tuple[str, bool]]:
    """(dotted name, is a result) of every public function and class, and of the public
    methods and properties the classes define themselves."""
    seen, names = set(), []
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name, None)
            if obj is None or inspect.ismodule(obj) or id(obj) in seen:
                continue
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue  # constants (tables, exit codes): no signature to check
            seen.add(id(obj))
            qual = f"{module_name}.{name}"
            doc = inspect.getdoc(obj) or ""
            names.append((qual, inspect.isclass(obj) and (
                dataclasses.is_dataclass(obj)
                or ("\nAttributes\n" in doc and "\nParameters\n" not in doc))))
            if inspect.isclass(obj) and not issubclass(obj, BaseException):
                for attr, value in vars(obj).items():
                    if not attr.startswith("_") and (inspect.isfunction(value)
                                                     or isinstance(value, property)):
                        names.append((f"{qual}.{attr}", False))
    return names


def test_every_public_callable_documents_its_parameters():
    names = _public_names()
    assert len(names) > 150  # the walk reached the API, not an empty list
    found = []
    for qual, is_result in names:
        for code, message in numpydoc_validate.validate(qual)["errors"]:
            if code in CODES and not (is_result and code == "PR01"):
                found.append(f"{code} {qual}: {message}")
    assert found == [], "\n".join(found)


def _fitted_estimators():
    """(name, fitted estimator) of every public estimator class, on small data."""
    import warnings

    import numpy as np
    from sklearn.base import BaseEstimator

    import indefsvm as isvm

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = (X[:, 0] > 0).astype(int)
    K = np.tanh(X @ X.T / 3 - 0.5)
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    series = [rng.normal(size=15) for _ in range(60)]
    kernel_input = {"AdvancedShiftEigenvalues", "ClipEigenvalues", "FlipEigenvalues",
                    "ShiftEigenvalues", "SquareKernel", "KernelRanking", "RemedySearchCV",
                    "PseudoEuclideanEmbedding"}
    made = {
        "DistanceKernel": lambda c: c().fit(D),
        "PairwiseDistances": lambda c: c().fit(X),
        "RandomDistanceFeatures": lambda c: c("dtw", n_components=5).fit(series),
        "KreinNystroem": lambda c: c(n_components=10).fit(X),
        "NystroemSVC": lambda c: c(n_components=10).fit(X, y),
        "RemedySearchCV": lambda c: c(cv=3, methods=["flip"]).fit(K, y),
        "IndefiniteOneClassSVM": lambda c: c().fit(X),
        "FeatureKernel": lambda c: c().fit(X),
    }
    seen, out = set(), []
    for module in (isvm, isvm.remedies, isvm.distances, isvm.nystroem, isvm.geometry):
        for name in module.__all__:
            cls = getattr(module, name)
            if not (isinstance(cls, type) and issubclass(cls, BaseEstimator)) or cls in seen:
                continue
            seen.add(cls)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if name in made:
                    est = made[name](cls)
                elif name.endswith("SVR"):
                    est = cls().fit(X, X[:, 1])
                elif name in kernel_input:
                    est = cls().fit(K, y)
                else:
                    est = cls().fit(X, y)
            out.append((name, est))
    return out


def test_every_fitted_attribute_is_documented():
    # the probe of 2026-11-29: 38 public attributes set by fit were in no Attributes section
    # (n_features_in_ of ten classes, the spectrum fixes' K_fit_ / col_mean_ / all_mean_,
    # KreinSVC's X_fit_ and n_train_, NystroemSVC's class_weight_, RandomDistanceFeatures'
    # signature_ / n_positive_ / n_negative_)
    import re

    from numpydoc.docscrape import ClassDoc

    fitted = _fitted_estimators()
    assert len(fitted) >= 20  # the walk reached the estimators
    missing = {}
    for name, est in fitted:
        documented = {part.strip() for item in ClassDoc(type(est))["Attributes"]
                      for part in re.split(r",\s*", item.name)}
        have = {a for a in vars(est) if a.endswith("_") and not a.startswith("_")}
        if have - documented:
            missing[name] = sorted(have - documented)
    assert missing == {}


def test_package_docstring_names_every_public_name():
    import re

    doc = isvm.__doc__
    listed = set(re.findall(r"^([A-Za-z_][\w, ]*)$", doc, flags=re.M))
    names = {n.strip() for line in listed for n in line.split(",")}
    assert set(isvm.__all__) <= names, set(isvm.__all__) - names



def test_completion_lists_each_modules_public_names_and_the_api_page_names_only_those():
    # isvm.kernels.<TAB> listed cdist, Callable, check_memory ...; isvm.geometry.<TAB>
    # BaseEstimator, np, warn: the imports of the module beside its public names. And
    # kernels.tl1, on the API page, was not in kernels.__all__
    import importlib
    import re
    from pathlib import Path

    api = (Path(__file__).parents[1] / "docs" / "api.rst").read_text()
    documented = re.findall(r"^\s+([a-z_]+)\.([A-Za-z_0-9]+)\s*$", api, flags=re.M)
    modules = {m for m, _ in documented} | {"klr"}
    for name in sorted(modules):
        mod = importlib.import_module(f"indefsvm.{name}")
        shown = {n for n in dir(mod) if not n.startswith("_")}
        extra = shown - set(mod.__all__)
        # a subpackage lists its public submodules too
        extra -= {n for n in extra if type(getattr(mod, n)).__name__ == "module"}
        assert not extra, (name, sorted(extra))
        assert set(mod.__all__) <= shown, (name, set(mod.__all__) - shown)
    missing = [f"{m}.{n}" for m, n in documented
               if n not in importlib.import_module(f"indefsvm.{m}").__all__]
    assert not missing, missing

