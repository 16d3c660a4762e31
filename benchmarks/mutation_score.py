"""How strict are the tests? A mutation score over indefsvm/diagnostics/ and _validation.py.

    python benchmarks/mutation_score.py --sample 80        # a seeded sample of the mutants
    python benchmarks/mutation_score.py --sample 0         # every mutant (hours)

Each mutant changes one thing in one source file -- a comparison (< <=, > >=, == !=), an
arithmetic operator (+ -, * /), a number (n -> n + 1, x -> 2x, 0 -> 1), a boolean, an
``and``/``or``, a removed ``not`` -- and runs the tests that exercise the diagnostics with
``-x``. A mutant is *killed* when a test fails (or the run times out), *survives* otherwise.
Prints the score and every survivor (file, line, change) to be looked at: either a missing
test or a change that cannot alter behaviour (an equivalent mutant).

Needs the editable install (``pip install --no-build-isolation -e .``): the mutated Python
file is imported from the source tree. The original file is always restored (also on Ctrl-C).
Our own small mutator, not mutmut: mutmut copies the sources into a tree of its own, where
the compiled extensions of this package are missing.
"""

from __future__ import annotations

import argparse
import ast
import glob
import os
import random
import signal
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
TARGETS = ["indefsvm/_validation.py", *sorted(glob.glob("indefsvm/diagnostics/*.py",
                                                          root_dir=ROOT))]
TESTS = ["tests/test_diagnostics.py", "tests/test_posttrain.py", "tests/test_properties.py",
         "tests/test_reliability.py", "tests/test_input_matrix.py", "tests/test_doctests.py",
         "tests/test_nqp.py", "tests/test_smo.py"]

SWAP_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
            ast.Eq: ast.NotEq, ast.NotEq: ast.Eq}
SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}


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
    tree = ast.parse(source)
    node, kind, what = _sites(tree)[k]
    line = getattr(node, "lineno", 0)
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
    return ast.unparse(ast.fix_missing_locations(tree)), line, what


def _run_tests(timeout):
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    try:
        proc = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p",
                               "no:cacheprovider", "-p", "no:randomly", *TESTS],
                              cwd=ROOT, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "killed (timeout)"
    return "survived" if proc.returncode == 0 else "killed"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=80, help="0: every mutant")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=300)
    args = ap.parse_args(argv)
    # a kill (SIGTERM) must also restore the mutated file: make it an exception
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    all_mutants = []
    for rel in TARGETS:
        with open(os.path.join(ROOT, rel)) as fh:
            n = len(_sites(ast.parse(fh.read())))
        all_mutants += [(rel, k) for k in range(n)]
    chosen = all_mutants if args.sample <= 0 else sorted(
        random.Random(args.seed).sample(all_mutants, min(args.sample, len(all_mutants))))
    print(f"{len(all_mutants)} mutants in {len(TARGETS)} files; running {len(chosen)}",
          flush=True)
    killed, survivors, t0 = 0, [], time.perf_counter()
    for rel, k in chosen:
        path = os.path.join(ROOT, rel)
        with open(path) as fh:
            original = fh.read()
        source, line, what = _mutant_source(original, k)
        try:
            with open(path, "w") as fh:
                fh.write(source)
            for pyc in glob.glob(os.path.join(os.path.dirname(path), "__pycache__", "*.pyc")):
                os.remove(pyc)
            verdict = _run_tests(args.timeout)
        finally:
            with open(path, "w") as fh:
                fh.write(original)
        killed += verdict.startswith("killed")
        if verdict == "survived":
            survivors.append(f"{rel}:{line} {what}")
        print(f"{rel}:{line:<5} {what:<28} {verdict}", flush=True)
    n = len(chosen)
    print(f"score: {killed} of {n} killed ({100.0 * killed / max(n, 1):.1f} %), "
          f"{time.perf_counter() - t0:.0f} s")
    for s in survivors:
        print("survivor:", s)


if __name__ == "__main__":
    main()
