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
