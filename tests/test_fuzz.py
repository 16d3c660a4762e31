"""Fuzzing (hypothesis): the LIBSVM loader, the .npy kernel reader and the command-line parser.

Generated inputs mix valid pieces with garbage. The loader may only succeed or raise
``DataFileError`` naming the file (and the line, when the fault is on one); the command line
may only return its documented exit codes (0, 1, 2) with, on failure, one ``indefsvm: error:``
line and no traceback. Derandomized with a fixed number of examples in CI.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from indefsvm import cli
from indefsvm.datasets import load_libsvm
from indefsvm.exceptions import DataFileError

EXAMPLES = int(os.environ.get("INDEFSVM_FUZZ_EXAMPLES", "150"))
SETTINGS = dict(max_examples=EXAMPLES, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

number = st.one_of(st.integers(-5, 5).map(str), st.floats(allow_nan=True,
                                                           allow_infinity=True).map(repr),
                   st.sampled_from(["1e400", "-0", "+1", "0x1", "1_0", "", "nan", "1.5.2"]))
index = st.one_of(st.integers(-2, 30).map(str), st.sampled_from(["1e9", "999999999999",
                                                                 "a", "", "01", "1.0"]))
token = st.one_of(st.builds(lambda i, v: f"{i}:{v}", index, number),
                  st.sampled_from(["#", "# comment", ":", "::", "1:2:3", "qid:1", "\t"]),
                  st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]),
                          max_size=6))
line = st.builds(lambda label, toks: " ".join([label, *toks]), number, st.lists(token,
                                                                               max_size=6))
content = st.lists(line, max_size=8).map("\n".join)


@settings(**SETTINGS)
@given(content, st.booleans())
def test_libsvm_loader_only_raises_data_file_errors(text, zero_based):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "fuzz.libsvm")
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as fh:
            fh.write(text)
        try:
            X, y = load_libsvm(path, zero_based=zero_based)
        except DataFileError as exc:
            msg = str(exc)
            assert msg.startswith(path), msg
            return
        assert X.shape[0] == y.shape[0] > 0
        assert np.all(np.isfinite(X)) and np.all(np.isfinite(y))


@settings(**SETTINGS)
@given(st.binary(max_size=200))
def test_libsvm_loader_on_raw_bytes(data):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "raw.libsvm")
        with open(path, "wb") as fh:
            fh.write(data)
        try:
            load_libsvm(path)
        except DataFileError as exc:
            assert str(exc).startswith(path)


OPTIONS = ["--kernel", "--gamma", "--coef0", "--degree", "-C", "--cv", "--tol", "--max-iter",
           "--cache-size", "--labels", "--out", "--save", "--dataset", "--json", "--quiet",
           "--verbose", "--zero-based", "--solver", "--nu", "--seed", "--n-restarts"]
VALUES = ["rbf", "sigmoid", "precomputed", "nope", "heart", "0", "-1", "-3", "1e400", "nan",
          "abc", "", "5", "0.5", "--", "-", "missing.libsvm", "/", "inf"]
COMMANDS = ["fit", "predict", "check", "report", "compare", "nonsense", "--version", "--help"]


@settings(**SETTINGS)
@given(st.sampled_from(COMMANDS),
       st.lists(st.one_of(st.sampled_from(OPTIONS), st.sampled_from(VALUES)), max_size=6))
def test_cli_parser_never_shows_a_traceback(command, rest):
    with tempfile.TemporaryDirectory() as tmp:
        argv = [command, *rest]
        out, err = io.StringIO(), io.StringIO()
        old = os.getcwd()
        os.chdir(tmp)  # "--out" and friends write here, never in the repository
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                    warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    code = cli.main(argv)
                except SystemExit as exc:  # argparse's own --help / usage errors
                    code = exc.code if isinstance(exc.code, int) else 2
        finally:
            os.chdir(old)
        text = err.getvalue()
        assert code in (0, 1, 2), (argv, code, text)
        assert "Traceback" not in text, (argv, text)
        if code != 0:
            errors = [ln for ln in text.splitlines() if re.match(r"indefsvm: error: ", ln)
                      or ln.startswith("usage:") or "error:" in ln]
            assert errors, (argv, text)


# -- feature tables through every command ------------------------------------------------------

weird_cell = st.sampled_from(["", "nan", "inf", "a", "1e400", " 1", '"3"', "1e-320", "1e300",
                              "0", "-0", "1e-300", "2", "3"])
COMMAND_RUNS = {
    "check": lambda p, d: [["check", p, "--quiet"]],
    "compare": lambda p, d: [["compare", p, "--cv", "2", "--quiet"]],
    "report": lambda p, d: [["report", p, "--cv", "2", "--quiet", "--out", d]],
    "explore": lambda p, d: [["explore", p, "--quiet", "--out", os.path.join(d, "e.html"),
                              "-C", "1", "--remedies", "none,flip"]],
    "fit, predict": lambda p, d: [["fit", p, "--cv", "0", "--quiet", "--save",
                                   os.path.join(d, "m.skops")],
                                  ["predict", os.path.join(d, "m.skops"), p,
                                   "--label-column", "0"]],
}


@settings(**{**SETTINGS, "max_examples": max(10, EXAMPLES // 5)})
@given(st.integers(2, 12), st.integers(1, 4), st.integers(0, 10**6),
       st.sampled_from(["normal", "constant", "duplicates", "1e150", "1e-300", "whole"]),
       st.lists(st.tuples(st.integers(0, 11), st.integers(0, 4), weird_cell), max_size=2),
       st.sampled_from(sorted(COMMAND_RUNS)),
       st.sampled_from(["sigmoid", "rbf", "linear", "polynomial", "tl1", "symmetric_kl"]),
       st.integers(2, 3))
def test_feature_tables_through_every_command(n, d, seed, kind, faults, command, kernel,
                                              n_classes):
    """Small, constant, duplicated, tiny (1e-300) and huge (1e150) features, with a cell or
    two broken, through check, compare, report, explore and fit + predict: a result, or one
    error line -- no traceback, not in a warning either, and no warning said twice. It found
    a nested search on folds too small for it, w'Mw overflowing, the advanced shift and the
    spectrum plot of a zero kernel (2026-11-28)."""
    rng = np.random.default_rng(seed)
    X = {"normal": lambda A: A, "constant": lambda A: np.ones_like(A),
         "duplicates": lambda A: np.repeat(A[:1], len(A), axis=0),
         "1e150": lambda A: A * 1e150, "1e-300": lambda A: A * 1e-300,
         "whole": np.round}[kind](rng.normal(size=(n, d)))
    rows = [[str(i % n_classes)] + [repr(float(v)) for v in x] for i, x in enumerate(X)]
    for r, c, value in faults:
        if r < n and c < len(rows[r]):
            rows[r][c] = value
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "data.csv")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("\n".join(",".join(r) for r in rows))
        for argv in COMMAND_RUNS[command](path, tmp):
            argv = [*argv, "--label-column", "0", "--kernel", kernel]
            if argv[0] == "predict":
                argv = argv[:-4]
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                    warnings.catch_warnings():
                warnings.simplefilter("always")  # every warning reaches the command's line
                code = cli.main(argv)
            text = err.getvalue()
            lines = text.splitlines()
            assert code in (0, 1, 2), (argv, code, text)
            assert "Traceback" not in text and "internal error" not in text, (argv, text)
            assert all(ln.startswith("indefsvm: ") for ln in lines), (argv, text)
            said = [ln for ln in lines if ln.startswith("indefsvm: warning:")]
            assert len(said) == len(set(said)), (argv, text)
            if code:
                assert lines[-1].startswith("indefsvm: error: "), (argv, text)
                assert sum(ln.startswith("indefsvm: error: ") for ln in lines) == 1
                break
