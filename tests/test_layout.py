"""The house: no import circle, rooms of a readable size, every estimator's parameters declared.

These read the package's source (the tree the tests were installed from) as text and syntax:
an import anywhere in a module -- at its top or inside a function -- is an edge.
"""

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import pytest
from sklearn.base import BaseEstimator

import indefsvm as isvm
from indefsvm._feature_map import PROTOCOL as FEATURE_MAP
from indefsvm._feature_map import FeatureMap

SRC = Path(isvm.__file__).parent
PKG = "indefsvm"


def _module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict:
    return {_module_name(p): p for p in SRC.rglob("*.py")}


def _imports(name: str, path: Path, known: set) -> set:
    """The package's modules that ``name`` imports, at any level of its code."""
    is_pkg = path.name == "__init__.py"
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                stem = base[:len(base) - node.level + 1]
                mod = ".".join(stem + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            # 'from pkg import sub' imports the submodule; 'from mod import name' the module
            targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in known else mod
                       for a in node.names]
        else:
            continue
        out |= {t for t in targets if t in known and t != name}
    return out


def _graph() -> dict:
    mods = _modules()
    known = set(mods)
    return {m: _imports(m, p, known) for m, p in mods.items()}


def _circles(graph: dict) -> list:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_graph_reader_sees_function_level_imports_and_circles():
    g = _graph()
    # suitability imports spectrum at its top and solvers._smo inside a function
    assert "indefsvm.diagnostics.spectrum" in g["indefsvm.diagnostics.suitability"]
    assert "indefsvm.solvers._smo" in g["indefsvm.diagnostics._matfree"] | g[
        "indefsvm.diagnostics.suitability"]
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_circle():
    assert _circles(_graph()) == []


def test_nothing_below_imports_the_command_line_or_the_figures():
    g = _graph()
    top = ("indefsvm.cli", "indefsvm.plotting", "indefsvm.explorer", "indefsvm._pages")
    for mod, deps in g.items():
        if mod.startswith(top) or mod == "indefsvm.__main__" or mod == "indefsvm._entry":
            continue
        assert not {d for d in deps if d.startswith(top)}, mod


#: the ground floor: the modules every other may import, which import none above them (a
#: kernel, an estimator) -- not even inside a function (_fitted's check of a kernel name
#: imported kernels.py until its callers handed canonical_name in)
GROUND = ("indefsvm._fitted", "indefsvm.exceptions", "indefsvm._warn", "indefsvm._logging",
          "indefsvm._files", "indefsvm._tags", "indefsvm._interrupt", "indefsvm._scale",
          "indefsvm._remedies", "indefsvm._feature_map", "indefsvm._kernel_params")


def test_the_ground_floor_imports_nothing_above_it():
    g = _graph()
    assert {m: sorted(g[m] - set(GROUND)) for m in GROUND if g[m] - set(GROUND)} == {}


def test_the_constraints_read_the_kernel_names_without_a_kernel():
    """The estimators' shared constraints (floor 3) read the kernels' names and parameters
    from the ground floor (``_kernel_params``), not from ``kernels`` (floor 5, which imports
    them): the one arrow that ran back up."""
    import indefsvm._kernel_params as names
    from indefsvm.kernels import _ALIASES, KERNELS

    assert not {d for d in _graph()["indefsvm._constraints"] if d.startswith(
        ("indefsvm.kernels", "indefsvm.distances", "indefsvm.svm"))}
    assert {k: v[1] for k, v in KERNELS.items()} == names.KERNEL_TAKES
    assert _ALIASES == names.ALIASES


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_file_of_the_command_line_over_500_lines():
    long = {p.name: _lines(p) for p in (SRC / "cli").glob("*.py") if _lines(p) > 500}
    assert long == {}


def test_no_module_over_1000_lines():
    # the estimator classes' docstrings are the one exception (the numpydoc of four classes)
    allowed = {SRC / "svm" / "_classes.py"}
    long = {str(p.relative_to(SRC)): _lines(p)
            for ext in ("*.py", "*.pyx", "*.pxd")
            for p in SRC.rglob(ext) if p not in allowed and _lines(p) > 1000}
    assert long == {}


def test_the_nystroem_estimators_live_in_their_own_wing():
    assert isvm.NystroemSVC.__module__.startswith("indefsvm.nystroem")
    assert isvm.KreinNystroem.__module__.startswith("indefsvm.nystroem")
    # old code keeps working
    assert isvm.remedies.NystroemSVC is isvm.NystroemSVC
    assert isvm.remedies.KreinNystroem is isvm.KreinNystroem


def _public_estimators():
    names = set(isvm.__all__) | {f"remedies.{n}" for n in isvm.remedies.__all__} | {
        f"distances.{n}" for n in isvm.distances.__all__}
    out = {}
    for name in sorted(names):
        obj = isvm
        for part in name.split("."):
            obj = getattr(obj, part)
        if inspect.isclass(obj) and issubclass(obj, BaseEstimator):
            out[obj.__name__] = obj
    return out


def test_the_public_estimators_are_all_found():
    found = set(_public_estimators())
    assert {"IndefiniteSVC", "KreinSVC", "NystroemSVC", "KreinNystroem", "RemedySearchCV",
            "DistanceKernel", "PairwiseDistances", "ClipEigenvalues",
            "KernelLogisticRegression", "ConvexHullClassifier"} <= found


@pytest.mark.parametrize("name", sorted(_public_estimators()))
def test_every_public_estimator_declares_its_parameters(name):
    cls = _public_estimators()[name]
    constraints = cls.__dict__.get("_parameter_constraints") or getattr(
        cls, "_parameter_constraints", None)
    assert isinstance(constraints, dict)
    # a parameter fit checks itself in full may say so (scikit-learn's 'no_validation')
    assert set(constraints) == set(cls._get_param_names())


def test_the_docs_table_of_remedy_methods_is_the_table_of_the_code():
    from indefsvm.remedies._methods import COST_ORDER, METHODS, TABLE

    text = (Path(__file__).parents[1] / "docs" / "user_guide.rst").read_text(encoding="utf-8")
    block = text.split(".. remedy-methods-table", 1)[1].split("\n\n", 2)[1].splitlines()
    rows = [line for line in block[3:-1]]
    parsed = []
    for line in rows:
        cells = [c.strip() for c in line.split("  ") if c.strip()]
        parsed.append((cells[0], set(cells[-2].split(", ")), int(cells[-1])))
    assert [name for name, _, _ in parsed] == list(METHODS)
    assert {name: keys for name, keys, _ in parsed} == {m.name: set(m.keys) for m in TABLE}
    assert [name for name, _, _ in sorted(parsed, key=lambda r: r[2])] == list(COST_ORDER)


# -- issue 43, item 7: no module reads another package's private members, except through a
# declared protocol ---------------------------------------------------------------------------

#: the private names a class declares for others to call: a model file's loader asks each part
#: (``_check_fitted_state``, indefsvm/_fitted.py), the constraints ask for the rules of two
#: parameters (``_check_settings``, indefsvm/_constraints.py), the sanity report asks a model
#: for its dual problems (``_dual_problems``, indefsvm/_dual.py), Jupyter asks for HTML
PROTOCOLS = {"_check_fitted_state", "_check_settings", "_dual_problems", "_repr_html_"}
#: the feature maps a landmark model trains on (indefsvm/_feature_map.py)
PROTOCOLS |= set(FEATURE_MAP)

#: the reads that remain, each with its reason: the Krein SVM is the SVM it trains on the
#: flipped kernel, mapped back -- it reuses that SVM's one-vs-one votes and coefficients
ALLOWED = {("remedies/_krein.py", "_pair_coefficients"), ("remedies/_krein.py", "_ovr_from_ovo"),
           ("remedies/_krein.py", "_labels_from_ovo")}


def _cross_package_private_reads():
    """(file, name) of each ``obj._name`` where ``_name`` is a member only classes of other
    packages define (``self``, ``cls`` and ``super()`` reads are a class's own)."""
    import collections

    root = Path(isvm.__file__).parent

    def package(path):
        parts = path.relative_to(root).parts
        return parts[0] if len(parts) > 1 else parts[0][:-3]

    private = lambda name: name.startswith("_") and not name.startswith("__")  # noqa: E731
    owners = collections.defaultdict(set)
    trees = {p: ast.parse(p.read_text(encoding="utf-8")) for p in root.rglob("*.py")}
    for path, tree in trees.items():
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            for node in ast.walk(cls):
                if isinstance(node, ast.FunctionDef) and private(node.name):
                    owners[node.name].add(package(path))
                elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                      and isinstance(node.value, ast.Name) and node.value.id == "self"
                      and private(node.attr)):
                    owners[node.attr].add(package(path))
    reads = []
    for path, tree in trees.items():
        here = package(path)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and node.attr in owners):
                continue
            value = node.value
            if isinstance(value, ast.Name) and value.id in ("self", "cls"):
                continue
            if isinstance(value, ast.Call) and getattr(value.func, "id", None) == "super":
                continue
            if here not in owners[node.attr]:
                reads.append((str(path.relative_to(root)), node.attr, node.lineno))
    return reads


def test_no_module_reads_another_packages_private_members():
    reads = _cross_package_private_reads()
    assert len(reads) >= 8  # the reader sees the protocols' calls (it would miss the rest)
    left = sorted({(f, n) for f, n, _ in reads if n not in PROTOCOLS} - ALLOWED)
    assert left == [], left
    assert len({(f, n, ln) for f, n, ln in reads if n not in PROTOCOLS}) <= 7


def test_the_feature_maps_declare_the_protocol_they_are_called_through():
    for cls in (isvm.KreinNystroem, isvm.distances.RandomDistanceFeatures):
        assert issubclass(cls, FeatureMap)
        own = {name for name in FEATURE_MAP if getattr(cls, name) is not getattr(FeatureMap,
                                                                                  name)}
        # D2KE's random objects are drawn for a metric: it takes no vectors
        missing = {"_fit_rows"} if cls is isvm.distances.RandomDistanceFeatures else set()
        assert own == set(FEATURE_MAP) - missing, (cls.__name__, set(FEATURE_MAP) - own)


#: warnings' functions that read or change the process's warning state (its filters and
#: its showwarning hook): not safe in threads (catch_warnings puts back what it found)
_PROCESS_WARNING_STATE = {"warn", "warn_explicit", "catch_warnings", "simplefilter",
                          "filterwarnings", "resetwarnings"}


def _process_warning_calls(tree: ast.AST) -> list:
    """The lines of ``tree`` that call (or import) the functions of ``warnings`` above."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "warnings":
            found += [node.lineno for a in node.names if a.name in _PROCESS_WARNING_STATE]
        elif (isinstance(node, ast.Attribute) and node.attr in _PROCESS_WARNING_STATE
              and isinstance(node.value, ast.Name) and node.value.id == "warnings"):
            found.append(node.lineno)
    return found


def test_the_reader_of_warning_calls_sees_them():
    tree = ast.parse("import warnings\nfrom warnings import catch_warnings\n"
                     "def f():\n    with warnings.catch_warnings():\n        "
                     "warnings.simplefilter('ignore')\n    warnings.warn('x')\n"
                     "    warnings.WarningMessage\n")
    assert sorted(_process_warning_calls(tree)) == [2, 4, 5, 6]


def test_below_the_command_line_warnings_go_through_the_librarys_holders():
    """Every warning of the library is said by ``indefsvm._warn.warn`` and held or muted by
    its per-thread holders; only the command line (one thread, at the top) and ``_warn``
    itself use the process's warning state."""
    found = []
    for name, path in _modules().items():
        if name == "indefsvm._warn" or name.startswith("indefsvm.cli"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{name}:{line}" for line in _process_warning_calls(tree)]
    assert found == []


def _metric_name_comparisons(tree, names) -> list:
    """Lines comparing something with a metric's name (``== "dtw"``, ``in ("dtw", ...)``)."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare) or not any(
                isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) for op in node.ops):
            continue
        literals = []
        for side in (node.left, *node.comparators):
            elts = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
            literals += [e.value for e in elts if isinstance(e, ast.Constant)
                         and isinstance(e.value, str)]
        if names & set(literals):
            lines.append(node.lineno)
    return lines


def test_the_reader_of_metric_name_comparisons_sees_them():
    tree = ast.parse("a == 'dtw'\nb in ('x', 'levenshtein')\n'dtw' != c\nd == 'rbf'\n"
                     "e not in ['cityblock']\n")
    assert _metric_name_comparisons(tree, {"dtw", "levenshtein", "cityblock"}) == [1, 2, 3, 5]


def test_no_metric_name_is_compared_outside_the_metric_table():
    """What a metric compares, which parameters it takes, whether it has a device form: the
    metric table (``indefsvm._metrics``) says, so that a new distance is one row -- no module
    asks ``metric == "dtw"``. (Inside a metric's own compiled or device function its name is
    not compared either: each row names its own function.)"""
    from indefsvm._metrics import REGISTRY

    names = set(REGISTRY)
    found = []
    for name, path in _modules().items():
        if name == "indefsvm._metrics":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{name}:{line}" for line in _metric_name_comparisons(tree, names)]
    assert found == []


def _add_argument_calls(tree) -> list:
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument"]


def test_the_reader_of_add_argument_calls_sees_them():
    tree = ast.parse("p.add_argument('--x')\ng = p.add_argument_group('y')\n"
                     "g.add_mutually_exclusive_group().add_argument('-q')\n")
    assert _add_argument_calls(tree) == [1, 3]


def test_no_option_is_added_outside_the_option_table():
    """The command line's options are rows of one table (``indefsvm.cli._options``): a command
    names the rows it takes, and only the table's builder calls ``add_argument``, so the
    parameter an option feeds and its LIBSVM letter are written once."""
    found = []
    for name, path in _modules().items():
        if name == "indefsvm.cli._options":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [f"{name}:{line}" for line in _add_argument_calls(tree)]
    assert found == []


def _message_rewrites(tree) -> list[int]:
    """Lines that rewrite an error's text: ``re.sub``/``re.subn`` anywhere, or
    ``.replace(...)`` on an expression that holds ``str(...)`` of something."""
    lines = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        func = node.func
        if isinstance(func.value, ast.Name) and func.value.id == "re" \
                and func.attr in ("sub", "subn"):
            lines.append(node.lineno)
        elif func.attr == "replace" and any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "str"
                for n in ast.walk(func.value)):
            lines.append(node.lineno)
    return lines


def test_the_command_line_rewrites_no_library_message():
    """A library error is said in the options' words from its parts (``param``, ``values``:
    ``indefsvm.cli._errors.said``), never by editing its text, so a wording change in the
    library cannot silently break a command-line message."""
    found = []
    for name, path in _modules().items():
        if name.startswith("indefsvm.cli"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found += [f"{name}:{line}" for line in _message_rewrites(tree)]
    assert found == []


def test_the_rewrite_finder_finds_rewrites():
    tree = ast.parse("import re\nre.sub('a', 'b', str(e))\nx = str(exc).replace('a', 'b')\n"
                     "y = name.replace('-', '_')\n")
    assert _message_rewrites(tree) == [2, 3]


def _guessed_settings(tree) -> list[tuple[int, str]]:
    """``getattr(args, "name", default)`` calls: a setting guessed at, with its default."""
    return [(node.lineno, node.args[1].value) for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "getattr" and len(node.args) == 3
            and isinstance(node.args[0], ast.Name) and node.args[0].id == "args"
            and isinstance(node.args[1], ast.Constant)]


def test_the_reader_of_guessed_settings_sees_them():
    tree = ast.parse('getattr(args, "metric", None)\ngetattr(args, row.dest, None)\n'
                     'getattr(other, "x", 1)\nargs.metric\n')
    assert _guessed_settings(tree) == [(1, "metric")]


def test_the_command_line_reads_its_declared_settings_without_guessing():
    """A command's settings are typed (``indefsvm.cli._settings.Settings``): what a command
    may lack has its value declared there once, so no routine guesses it with
    ``getattr(args, "name", default)`` -- a default written at each call, which could
    disagree."""
    from indefsvm.cli._settings import Settings

    declared = set(Settings.__annotations__)
    found = []
    for name, path in _modules().items():
        if name.startswith("indefsvm.cli"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found += [f"{name}:{line} {attr}" for line, attr in _guessed_settings(tree)
                      if attr in declared]
    assert found == []


def test_dir_of_the_package_lists_its_public_names_only():
    names = dir(isvm)
    assert "importlib" not in names and "_NAMES" not in names
    assert {"IndefiniteSVC", "check_kernel", "NystroemSVC", "__version__"} <= set(names)


def test_the_documented_modules_are_reached_from_the_package():
    # the docs write indefsvm.exceptions.DataFileError and indefsvm.explorer.Explorer: after
    # "import indefsvm" alone they were AttributeErrors (the lazy import knew nine modules)
    code = ("import indefsvm as i; print(i.exceptions.DataFileError.__name__, "
            "i.explorer.Explorer.__name__, i.klr.__name__, i.svm.IndefiniteSVC.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=str(Path(__file__).parent))
    assert out.stdout.split() == ["DataFileError", "Explorer", "indefsvm.klr",
                                  "IndefiniteSVC"]


#: the words of the review campaigns whose findings had files of their own
CAMPAIGNS = ("potholes", "probe", "findings", "survivors", "newcomer", "reliability",
             "review", "issue")


def test_no_test_file_is_named_after_a_campaign():
    """A test lives in the file of its subject (``test_check_distances`` in
    ``test_distance_check.py``), never in one named after the review that found it."""
    tests = Path(__file__).parent
    named = [p.name for p in tests.glob("test_*.py")
             if any(word in p.stem for word in CAMPAIGNS)]
    assert named == []


def test_the_architecture_page_names_every_module():
    """docs/architecture.rst draws the house module by module: a module it does not name is a
    room the picture lacks (the page is redrawn with the tree)."""
    import re

    page = (Path(__file__).parent.parent / "docs" / "architecture.rst").read_text("utf-8")
    stems = {p.stem for p in SRC.rglob("*.py")} | {p.stem for p in SRC.rglob("*.pyx")}
    stems |= {p.stem.split(".")[0] for p in SRC.rglob("*.so")}  # an installed compiled loop
    stems -= {"__init__", "__main__"}
    missing = sorted(s for s in stems
                     if not re.search(rf"(?<![\w]){re.escape(s)}(?![\w])", page))
    assert missing == []
