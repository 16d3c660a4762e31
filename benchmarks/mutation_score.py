"""How strict are the tests? A mutation score over indefsvm/diagnostics/ and _validation.py.

    python benchmarks/mutation_score.py --sample 200     # a seeded sample of the mutants
    python benchmarks/mutation_score.py --sample 0       # every mutant
    python benchmarks/mutation_score.py --rerun build/mutation_results.json   # after new tests
    python benchmarks/mutation_score.py --targets indefsvm/remedies/_search.py  # other files

Each mutant changes one thing in one source file -- a comparison (< <=, > >=, == !=), an
arithmetic operator (+ -, * /), a number (n -> n + 1, x -> 2x, 0 -> 1), a boolean, an
``and``/``or``, a removed ``not`` -- and runs the tests that could notice it. A mutant is
*killed* when a test fails (or the run takes far longer than those tests do: a hang),
*survives* otherwise.

Which tests: first the whole suite runs once under coverage with one context per test
(``pytest-cov --cov-context=test``) and its durations are recorded; a mutant then runs, with
``-x`` and fastest first, every test that executed one of the mutated lines. A line run only
at import (a module constant, a default argument) is charged with the tests that run the
code using it: for a default, the tests of its function; for a constant, the tests of the
lines naming it anywhere in the package. A mutant that no test executes survives without a
run. ``tests/test_docs_build.py`` is left out (it builds the whole documentation, minutes).

Prints the score and every survivor (file, line, change) to be looked at: either a missing
test or a change that cannot alter behaviour. The equivalent ones we have looked at are in
``EQUIVALENT`` below, with the reason; the score is given with and without them.

Needs the editable install (``pip install --no-build-isolation -e ".[test]" pytest-cov``):
the mutated Python file is imported from the source tree, so run it in a clone of its own
and not in the tree you are editing. The original file is always restored (also on Ctrl-C
and SIGTERM). Our own small mutator, not mutmut: mutmut copies the sources into a tree of
its own, where the compiled extensions of this package are missing.
"""

from __future__ import annotations

import argparse
import ast
import glob
import json
import os
import random
import signal
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TARGETS = ["indefsvm/_validation.py", *sorted(
    f"indefsvm/diagnostics/{os.path.basename(p)}"
    for p in glob.glob(os.path.join(ROOT, "indefsvm", "diagnostics", "*.py")))]
LEFT_OUT = ["tests/test_docs_build.py"]

SWAP_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
            ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}

# Mutants that cannot change what the code computes, looked at one by one:
# (file, the mutated line stripped, column of the mutated node in it, the change) -> why.
_PT = "indefsvm/diagnostics/posttrain.py"
_UP = "up = ((alpha < C) & (y > 0)) | ((alpha > 0) & (y < 0))"
_LOW = "low = ((alpha < C) & (y < 0)) | ((alpha > 0) & (y > 0))"
_PM1 = "labels are exactly +1 / -1 here (validated): y > 0, y >= 0 agree, as do y < 0, " \
    "y <= 0 and y < 1"
_SQUARE = "K is square (validated): shape[0] = shape[1]"
EQUIVALENT: dict[tuple[str, str, int, str], str] = {
    **{(_PT, _UP, col, what): _PM1 for col, what in
       ((21, "Gt -> GtE"), (47, "Lt -> LtE"), (51, "0 -> 1"))},
    **{(_PT, _LOW, col, what): _PM1 for col, what in
       ((22, "Lt -> LtE"), (48, "Gt -> GtE"), (26, "0 -> 1"))},
    **{(_PT, "c = np.where(y > 0, 1.0 / np.count_nonzero(y > 0), -1.0 / "
            "np.count_nonzero(y < 0))", col, what): _PM1
       for col, what in ((13, "Gt -> GtE"), (43, "Gt -> GtE"), (75, "Lt -> LtE"),
                         (79, "0 -> 1"))},
    (_PT, "n = K.shape[0]", 12, "0 -> 1"): _SQUARE,
    ("indefsvm/diagnostics/spectrum.py", "n = K.shape[0]", 12, "0 -> 1"): _SQUARE,
    **{("indefsvm/diagnostics/spectrum.py", "return MATFREE_STEPS[-1][1]  # pragma: no cover",
        col, "1 -> 2"): "unreachable: the last MATFREE_STEPS entry has no size limit"
       for col in (22, 25)},
    ("indefsvm/diagnostics/_matfree.py", "if n > 1 and m == n - 1:", 7, "1 -> 2"):
        "the matrix-free methods need n >= 3 (checked before)",
    ("indefsvm/diagnostics/_matfree.py",
     "n, step = self.n, max(1, 2_000_000 // max(self.n, 1))", 22, "1 -> 2"):
        "rows per stripe: at least 2 instead of 1 changes only how K @ V is cut, for n > 2e6",
    ("indefsvm/diagnostics/_matfree.py", "start[0] = 1.0", 6, "0 -> 1"):
        "any unit vector off e starts the Lanczos run of a constant probe (weight 0)",
    ("indefsvm/diagnostics/spectrum.py", 'if est["n_neg"] + est["n_pos"] > n - 1:', 37,
     "1 -> 2"): "a sum of n - 1 is left as it is: n_pos = max(low, n - 1 - n_neg) = n_pos",
    ("indefsvm/diagnostics/_matfree.py", "self.n_classes = max(int(n_classes), 1)", 37,
     "1 -> 2"): "without labels every sample is in class 0: an empty second class adds "
                "nothing to the eta tables, which are not reported without labels",
    ("indefsvm/diagnostics/suitability.py",
     "sample, lowest = X[:2], (X.min() if X.size else 0.0)", 48, "0.0 -> 1.0"):
        "an empty X is refused just after (fewer than 3 samples) whatever its minimum",
    ("indefsvm/diagnostics/_matfree.py", "labels=None, n_classes=1, atol=0.0, n_threads=1, "
     "tile=128):", 23, "1 -> 2"): "the default class count is read only without labels, "
                                  "where the eta tables are not reported",
    ("indefsvm/_validation.py", "n_threads: int = 1) -> np.ndarray:", 17, "1 -> 2"):
        "the compiled checks give the same answer on any number of threads (tested)",
    ("indefsvm/diagnostics/spectrum.py", "z = np.linalg.solve(dblk, z) if n < 3 else "
     "sla.solve_banded(", 36, "3 -> 4"): "both solve the same small system exactly",
    ("indefsvm/diagnostics/suitability.py",
     "n_k = int(np.shape(K)[0]) if np.ndim(K) == 2 else 0", 50, "0 -> 1"):
        "a K that is not 2-D is refused by the kernel check right after",
    ("indefsvm/diagnostics/suitability.py", "strict=True):", 7, "True -> False"):
        "one result per C by construction: zip's strict check cannot fire",
    # the third wave's modules (--targets)
    ("indefsvm/remedies/_search.py", "for f, g, plan, kn in jobs), strict=True), 1):", 36,
     "True -> False"): "one result per job by construction: zip's strict check cannot fire",
    **{(f, line, col, "Sub -> Add"): "the seed of a random draw: 2**31 + 1 draws seeds from "
       "a range that is still valid (scikit-learn takes up to 2**32 - 1); any seed is as good"
       for f, line, col in (
           ("indefsvm/nystroem/_features.py", "_, idx = kmeans_plusplus(X, n_clusters=m, "
            "random_state=int(rng.integers(2**31 - 1)),", 72),
           ("indefsvm/nystroem/_svc.py", "random_state=int(rng.integers(2**31 - 1)), "
            "n_jobs=self.n_jobs)", 30))},
    ("indefsvm/nystroem/_svc.py", "W = (self.coef_ * self.metric_).T", 5,
     "Mult -> Div"): "metric_ holds +1 and -1 only: w * s = w / s",
    ("indefsvm/nystroem/_features.py", 'gamma = p.get("gamma", 0.0)', 23, "0.0 -> 1.0"):
        "every kernel that reads gamma has it in p (resolve_kernel_params); the default is "
        "passed only for the linear kernel, which ignores it",
    ("indefsvm/diagnostics/distances.py",
     "return [max(0.0, centre - half), min(1.0, centre + half)]", 37, "1.0 -> 2.0"):
        "centre + half <= 1 in exact arithmetic (= 1 at k = m): the clip removes a rounding",
    ("indefsvm/diagnostics/distances.py",
     "proper = asym <= atol and diag <= atol and n_negative == 0", 26, "LtE -> Lt"):
        "the edge of a tolerance: an asymmetry of exactly 1e-10 max|D| is on either side",
    ("indefsvm/diagnostics/distances.py", "S = (D + D.T) / 2 if asym > atol else D", 21,
     "Gt -> GtE"): "the edge of a tolerance: an asymmetry of exactly 1e-10 max|D| is on "
                   "either side",
    ("indefsvm/remedies/_search.py", "if y.shape[0] != X.shape[0]:", 25, "0 -> 1"): _SQUARE,
    ("indefsvm/distances/_objects.py", "A = A.reshape(A.shape[0], -1)", 27, "1 -> 2"):
        "numpy reads any negative size as the unknown one: reshape(n, -2) = reshape(n, -1)",
    ("indefsvm/diagnostics/distances.py", "scale = float(np.max(np.abs(D))) or 1.0", 36,
     "1.0 -> 2.0"): "read only when D is all zeros, where every excess and the worst are 0",
}

# ---------------------------------------------------------------- the mutator


def _docstrings(tree):
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def _sites(tree):
    """Eligible nodes in a fixed order, with what the mutation does."""
    skip = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare) and type(node.ops[0]) in SWAP_CMP:
            out.append((node, "cmp", f"{type(node.ops[0]).__name__} -> "
                        f"{SWAP_CMP[type(node.ops[0])].__name__}"))
        elif isinstance(node, ast.BinOp) and type(node.op) in SWAP_BIN:
            out.append((node, "bin", f"{type(node.op).__name__} -> "
                        f"{SWAP_BIN[type(node.op)].__name__}"))
        elif isinstance(node, ast.BoolOp):
            out.append((node, "bool", "and <-> or"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            out.append((node, "not", "not removed"))
        elif isinstance(node, ast.Constant) and id(node) not in skip:
            if isinstance(node.value, bool):
                out.append((node, "const", f"{node.value} -> {not node.value}"))
            elif isinstance(node.value, (int, float)):
                out.append((node, "const", f"{node.value!r} -> {_new_number(node.value)!r}"))
    return out


def _new_number(v):
    if isinstance(v, int):
        return v + 1
    return 1.0 if v == 0 else 2.0 * v


def _mutate(node, kind):
    if kind == "cmp":
        node.ops[0] = SWAP_CMP[type(node.ops[0])]()
    elif kind == "bin":
        node.op = SWAP_BIN[type(node.op)]()
    elif kind == "bool":
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif kind == "const":
        node.value = (not node.value) if isinstance(node.value, bool) else \
            _new_number(node.value)


def _mutant_source(source, k):
    """The source with mutant k applied, and ((first line, last line, column), change)."""
    tree = ast.parse(source)
    node, kind, what = _sites(tree)[k]
    lines = (getattr(node, "lineno", 0), getattr(node, "end_lineno", 0),
             getattr(node, "col_offset", 0))
    if kind == "not":
        # replace "not x" by "x" in its parent
        for parent in ast.walk(tree):
            for field, value in ast.iter_fields(parent):
                if value is node:
                    setattr(parent, field, node.operand)
                elif isinstance(value, list):
                    for i, item in enumerate(value):
                        if item is node:
                            value[i] = node.operand
    else:
        _mutate(node, kind)
    return ast.unparse(ast.fix_missing_locations(tree)), lines, what


# ------------------------------------------------------ which tests see which line


def pytest_runtest_logreport(report):
    """pytest hook (this file is loaded with ``-p mutation_score`` in the coverage run):
    the duration of every test, for running the fast ones first."""
    out = os.environ.get("MUTATION_DURATIONS")
    if out and (report.when == "call" or report.failed):
        with open(out, "a") as fh:
            fh.write(json.dumps([report.nodeid, report.duration, report.failed]) + "\n")


def _coverage_map(cache, tests):
    """{abs path: {line: [node ids]}} and {node id: seconds}, from a run under coverage."""
    if not os.path.exists(cache):
        data_file = cache + ".coverage"
        durations = cache + ".durations"
        for f in (data_file, durations):
            if os.path.exists(f):
                os.remove(f)
        env = dict(os.environ, COVERAGE_FILE=data_file, MUTATION_DURATIONS=durations,
                   PYTHONPATH=os.path.join(ROOT, "benchmarks") + os.pathsep
                   + os.environ.get("PYTHONPATH", ""))
        cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
               "-p", "mutation_score", "--cov=indefsvm", "--cov-context=test",
               "--cov-report=", *[f"--ignore={t}" for t in LEFT_OUT], *tests]
        print("coverage run:", " ".join(cmd), flush=True)
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, env=env)
        print(f"coverage run: {time.perf_counter() - t0:.0f} s", flush=True)
        import coverage

        data = coverage.CoverageData(basename=data_file)
        data.read()
        lines = {}
        for f in data.measured_files():
            by_line = data.contexts_by_lineno(f)
            lines[os.path.relpath(f, ROOT)] = {
                str(n): sorted({c.rsplit("|", 1)[0] for c in ctx if c}) for n, ctx in
                by_line.items()}
        secs, failed = {}, set()
        with open(durations) as fh:
            for row in fh:
                node, s, bad = json.loads(row)
                secs[node] = secs.get(node, 0.0) + s
                if bad:
                    failed.add(node)
        # a test that fails unmutated under coverage (the Ctrl-C tests time a signal, and
        # tracing slows the loop they interrupt) cannot tell a mutant: left out, and said
        for f in lines.values():
            for n in f:
                f[n] = [t for t in f[n] if t not in failed]
        with open(cache, "w") as fh:
            json.dump({"lines": lines, "durations": secs, "failed": sorted(failed)}, fh)
    with open(cache) as fh:
        d = json.load(fh)
    if d["failed"]:
        print("failing under coverage, left out:", *d["failed"], sep="\n  ")
    return d["lines"], d["durations"]


def _name_uses(name):
    """(file, line) of every load of ``name`` (a bare name or an attribute) in the package."""
    out = []
    for path in glob.glob(os.path.join(ROOT, "indefsvm", "**", "*.py"), recursive=True):
        rel = os.path.relpath(path, ROOT)
        with open(path) as fh:
            tree = ast.parse(fh.read())
        for node in ast.walk(tree):
            if ((isinstance(node, ast.Name) and node.id == name
                 and isinstance(node.ctx, ast.Load))
                    or (isinstance(node, ast.Attribute) and node.attr == name)):
                out.append((rel, node.lineno))
    return out


def _import_time_owner(tree, lineno):
    """For a line run at import: ('function', def node) when it is a default argument or a
    decorator, ('names', [names]) when it is a module or class level assignment."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            heads = [*node.args.defaults, *[d for d in node.args.kw_defaults if d],
                     *node.decorator_list]
            if any(h.lineno <= lineno <= h.end_lineno for h in heads):
                return "function", node
    for scope in [tree, *[n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]]:
        for stmt in scope.body:
            if stmt.lineno <= lineno <= stmt.end_lineno and isinstance(
                    stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                names = [t.id for tt in targets for t in ast.walk(tt)
                         if isinstance(t, ast.Name)]
                names += [t.attr for tt in targets for t in ast.walk(tt)
                          if isinstance(t, ast.Attribute)]
                return "names", names
    return None, None


def _tests_for(rel, tree, first, last, lines):
    """Node ids of the tests that execute lines first..last of file rel."""
    cov = lines.get(rel, {})
    found = set()
    for n in range(first, last + 1):
        found.update(cov.get(str(n), []))
    if found:
        return found
    kind, owner = _import_time_owner(tree, first)
    if kind == "function":
        for n in range(owner.body[0].lineno, owner.end_lineno + 1):
            found.update(cov.get(str(n), []))
    elif kind == "names":
        for name in owner:
            for f, n in _name_uses(name):
                hit = lines.get(f, {}).get(str(n), [])
                if not hit and f != rel:
                    # used at import too (a default argument of another module): the tests
                    # of that function; one level deep
                    with open(os.path.join(ROOT, f)) as fh:
                        other = ast.parse(fh.read())
                    k2, fn = _import_time_owner(other, n)
                    if k2 == "function":
                        for m in range(fn.body[0].lineno, fn.end_lineno + 1):
                            found.update(lines.get(f, {}).get(str(m), []))
                elif not hit:
                    k2, fn = _import_time_owner(tree, n)
                    if k2 == "function":
                        for m in range(fn.body[0].lineno, fn.end_lineno + 1):
                            found.update(cov.get(str(m), []))
                found.update(hit)
    return found


# --------------------------------------------------------------------- running


def _run_tests(node_ids, timeout):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    try:
        proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p",
                               "no:cacheprovider", "-p", "no:randomly", *node_ids],
                              cwd=ROOT, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "killed (timeout)"
    if proc.returncode == 5:         # nothing collected: a node id that is gone
        return "error"
    return "survived" if proc.returncode == 0 else "killed"


def _locate(rel, text, what, line, col=None, hint=None):
    """Index of the mutant of file rel whose line reads ``text``, whose change is ``what``
    and whose column is ``col`` (nearest to ``line`` when several), or None when that code
    is gone."""
    with open(os.path.join(ROOT, rel)) as fh:
        source = fh.read()
    src_lines = source.splitlines()
    best = None
    sites = _sites(ast.parse(source))

    def same(k):
        node, _, w = sites[k]
        full = src_lines[node.lineno - 1]
        c = node.col_offset - (len(full) - len(full.lstrip()))
        return w == what and full.strip() == text and (col is None or c == col)

    # the same index when the file is unchanged (nested operators share a column)
    if hint is not None and hint < len(sites) and same(hint):
        return hint
    for k, (node, _, w) in enumerate(sites):
        n = getattr(node, "lineno", 0)
        full = src_lines[n - 1]
        c = node.col_offset - (len(full) - len(full.lstrip()))
        if w == what and full.strip() == text and (col is None or c == col):
            if best is None or abs(n - line) < abs(best[1] - line):
                best = (k, n)
    return None if best is None else best[0]


def _run_one(rel, k, lines, secs):
    path = os.path.join(ROOT, rel)
    with open(path) as fh:
        original = fh.read()
    source, (first, last, col), what = _mutant_source(original, k)
    text = original.splitlines()[first - 1].strip()
    # the column counted from the line's first non-blank character, as ``text`` is stripped
    col -= len(original.splitlines()[first - 1]) - len(original.splitlines()[first - 1].lstrip())
    tests = sorted(_tests_for(rel, ast.parse(original), first, last, lines),
                   key=lambda t: (secs.get(t, 0.0), t))
    if (rel, text, col, what) in EQUIVALENT:
        verdict = "equivalent"
    elif not tests:
        verdict = "survived (no test runs it)"
    else:
        budget = sum(secs.get(t, 1.0) for t in tests)
        try:
            with open(path, "w") as fh:
                fh.write(source)
            verdict = _run_tests(tests, timeout=60 + 3 * budget)
        finally:
            with open(path, "w") as fh:
                fh.write(original)
    print(f"{rel}:{first:<5} {what:<24} {len(tests):5d} tests  {verdict}", flush=True)
    return {"file": rel, "k": k, "line": first, "col": col, "text": text, "what": what,
            "verdict": verdict, "n_tests": len(tests)}


def _column(r):
    """The mutated node's column (from the line's first non-blank character) of a result
    written without one, read from the source as it is now (None if the line changed)."""
    if "col" in r:
        return r["col"]
    with open(os.path.join(ROOT, r["file"])) as fh:
        source = fh.read()
    sites = _sites(ast.parse(source))
    if r["k"] >= len(sites):
        return None
    node = sites[r["k"]][0]
    line = source.splitlines()[node.lineno - 1]
    if line.strip() != r["text"]:
        return None
    return node.col_offset - (len(line) - len(line.lstrip()))


def _summary(results, seconds):
    tally = {"killed": 0, "survived": 0, "equivalent": 0, "not run": 0, "gone": 0}
    for r in results:
        if r["verdict"].startswith("survived") and (
                r["file"], r["text"], _column(r), r["what"]) in EQUIVALENT:
            r["verdict"] = "equivalent"
        v = r["verdict"]
        key = ("killed" if v.startswith("killed") else "survived" if v.startswith("survived")
               else v if v in tally else "not run")
        tally[key] += 1
    run = tally["killed"] + tally["survived"]
    print(f"\n{len(results)} mutants: {tally['killed']} killed, {tally['survived']} survived, "
          f"{tally['equivalent']} equivalent (listed), {tally['gone']} gone (code removed), "
          f"{tally['not run']} not run; score {100.0 * tally['killed'] / max(run, 1):.1f} % "
          f"of the non-equivalent; {seconds:.0f} s")
    for r in results:
        if r["verdict"].startswith("survived"):
            print(f"survivor: {r['file']}:{r['line']} col {_column(r)} {r['what']:<22} | "
                  f"{r['text'][:90]}")
    return tally


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=200, help="0: every mutant")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--map", default=os.path.join(ROOT, "build", "mutation_coverage.json"),
                    help="cache of the coverage run (deleted -> run again)")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "mutation_results.json"),
                    help="every mutant's verdict (JSON)")
    ap.add_argument("--rerun", metavar="RESULTS",
                    help="run again only the survivors of an earlier --out (after new "
                         "tests), found by their line's text; prints the combined score")
    ap.add_argument("--shard", default="1/1", metavar="I/N",
                    help="run the I-th of N interleaved parts of the sample (one clone and "
                         "one process each; merge their --out files with --merge)")
    ap.add_argument("--merge", nargs="*", metavar="RESULTS", help="only print the score of "
                    "these --out files together")
    ap.add_argument("--files", nargs="*", help="only these of the target files")
    ap.add_argument("--targets", nargs="*", metavar="GLOB",
                    help="mutate these files instead (globs relative to the repository, "
                         "e.g. indefsvm/remedies/_search.py 'indefsvm/distances/*.py')")
    ap.add_argument("--tests", nargs="*", default=["tests"])
    args = ap.parse_args(argv)
    # a kill (SIGTERM) must also restore the mutated file: make it an exception
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if args.merge:
        results = []
        for f in args.merge:
            with open(f) as fh:
                results += json.load(fh)
        _summary(results, 0.0)
        return
    shard, n_shards = (int(v) for v in args.shard.split("/"))
    os.makedirs(os.path.dirname(args.map), exist_ok=True)
    lines, secs = _coverage_map(args.map, args.tests)
    t0 = time.perf_counter()
    if args.rerun:
        with open(args.rerun) as fh:
            earlier = json.load(fh)
        results = []
        for r in earlier[shard - 1::n_shards]:
            if not r["verdict"].startswith("survived"):
                results.append(r)
                continue
            k = _locate(r["file"], r["text"], r["what"], r["line"], r.get("col"), r["k"])
            if k is None:
                print(f"{r['file']}:{r['line']:<5} {r['what']:<24} gone", flush=True)
                results.append({**r, "verdict": "gone"})
            else:
                results.append(_run_one(r["file"], k, lines, secs))
    else:
        pool = TARGETS if not args.targets else sorted(
            os.path.relpath(p, ROOT) for g in args.targets
            for p in glob.glob(os.path.join(ROOT, g)) if p.endswith(".py"))
        targets = [t for t in pool if not args.files or t in args.files]
        all_mutants = []
        for rel in targets:
            with open(os.path.join(ROOT, rel)) as fh:
                n = len(_sites(ast.parse(fh.read())))
            all_mutants += [(rel, k) for k in range(n)]
        chosen = all_mutants if args.sample <= 0 else sorted(
            random.Random(args.seed).sample(all_mutants, min(args.sample, len(all_mutants))))
        # in a seeded random order, so that the mutants done when a run is stopped are a
        # random sample themselves; results are written after every mutant
        random.Random(args.seed + 1).shuffle(chosen)
        chosen = chosen[shard - 1::n_shards]
        print(f"{len(all_mutants)} mutants in {len(targets)} files; running {len(chosen)} "
              f"(part {shard} of {n_shards})", flush=True)
        results = []
        for rel, k in chosen:
            results.append(_run_one(rel, k, lines, secs))
            with open(args.out, "w") as fh:
                json.dump(results, fh, indent=1)
    with open(args.out, "w") as fh:
        json.dump(results, fh, indent=1)
    _summary(results, time.perf_counter() - t0)


if __name__ == "__main__":
    main()
