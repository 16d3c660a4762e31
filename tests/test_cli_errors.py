# ruff: noqa: F811  (heart_kernel is a fixture imported from test_load_file.py)
"""The command line as a newcomer meets it: every mistake gives one line and an exit status.

Each case runs ``indefsvm`` as a subprocess (as a user types it) and checks that stderr holds
exactly one ``indefsvm: error:`` line, no traceback, and the documented exit status: 1 for
data or numerical errors, 2 for usage errors, 130 when interrupted.
"""

import os
import signal
import subprocess
import sys
import warnings

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file
from sklearn.model_selection import GridSearchCV
from sklearn.neighbors import KNeighborsClassifier
from test_cli_files import _heart_files
from test_load_file import heart_kernel  # noqa: F401, F811 (a fixture)

import indefsvm as isvm
import indefsvm.datasets as ds
from indefsvm.cli import main

CLI = [sys.executable, "-m", "indefsvm"]


def run(args, cwd, timeout=120):
    return subprocess.run(CLI + [str(a) for a in args], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout)


def one_error_line(proc, code, *words):
    """stderr: one 'indefsvm: error:' line (and nothing else), no traceback, the code."""
    lines = [ln for ln in proc.stderr.splitlines() if ln.strip()]
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr, proc.stderr
    assert len(lines) == 1 and lines[0].startswith("indefsvm: error: "), proc.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


@pytest.fixture
def files(tmp_path):
    """Small data files with the defects of the issue."""
    out = {}
    (tmp_path / "bad_line.libsvm").write_text("1 1:0.5 2:1\n-1 1:0.1 2:0.3\n1 1:0.2 x:0.4\n")
    (tmp_path / "nan.libsvm").write_text("1 1:0.5 2:1\n-1 1:nan 2:0.3\n")
    (tmp_path / "one_class.libsvm").write_text("1 1:0.5 2:1\n1 1:0.1 2:0.3\n1 1:0.2\n")
    (tmp_path / "empty.libsvm").write_text("# nothing here\n\n")
    (tmp_path / "labels_only.libsvm").write_text("1\n-1\n1\n")
    (tmp_path / "huge.libsvm").write_text(
        "".join(f"{1 if i % 2 else -1} 1:{(i + 1) * 1e200} 2:1e200\n" for i in range(10)))
    (tmp_path / "small_class.libsvm").write_text(
        "".join(f"{1 if i < 2 else -1} 1:{i / 10} 2:{(i % 3) / 3}\n" for i in range(20)))
    (tmp_path / "afile.txt").write_text("not a folder\n")
    (tmp_path / "notamodel.skops").write_text("not a model\n")
    (tmp_path / "adir").mkdir()
    for name in ("bad_line", "nan", "one_class", "empty", "labels_only", "huge", "small_class"):
        out[name] = tmp_path / f"{name}.libsvm"
    out["afile"] = tmp_path / "afile.txt"
    out["adir"] = tmp_path / "adir"
    out["notamodel"] = tmp_path / "notamodel.skops"
    return out


def test_a_directory_as_data(files, tmp_path):
    one_error_line(run(["fit", files["adir"]], tmp_path), 1, "adir", "directory")


def test_report_into_an_existing_file_fails_before_any_work(files, tmp_path):
    proc = run(["report", "--dataset", "heart", "--out", files["afile"]], tmp_path)
    one_error_line(proc, 2, "--out", "afile.txt", "folder")
    # nothing was computed: the kernel check and the fit print to stdout first
    assert proc.stdout == "" and files["afile"].read_text() == "not a folder\n"


def test_negative_gamma_for_rbf_is_refused(tmp_path):
    one_error_line(run(["fit", "--dataset", "heart", "--kernel", "rbf", "--gamma", "-1",
                        "-C", "1"], tmp_path), 2, "gamma", ">= 0")


def test_negative_gamma_for_sigmoid_is_allowed(tmp_path):
    proc = run(["fit", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "-0.01",
                "--cv", "0", "--quiet"], tmp_path)
    assert proc.returncode == 0, proc.stderr


def test_overflowing_kernel_says_which_values_and_why(files, tmp_path):
    line = one_error_line(run(["fit", files["huge"], "--gamma", "1", "--cv", "0"], tmp_path), 1,
                          "overflow", "Scale X")
    assert "C = inf" not in line
    line = one_error_line(run(["fit", "--dataset", "heart", "--kernel", "poly", "--degree", "400",
                               "--gamma", "10", "--coef0", "1", "--cv", "0"], tmp_path), 1,
                          "polynomial", "degree=400")


def test_malformed_line_names_file_and_line(files, tmp_path):
    one_error_line(run(["fit", files["bad_line"]], tmp_path), 1, "bad_line.libsvm", "line 3",
                   "'x'")


def test_nan_in_a_file_names_the_line(files, tmp_path):
    line = one_error_line(run(["fit", files["nan"]], tmp_path), 1, "nan.libsvm", "line 2",
                          "not finite")
    assert "HistGradientBoosting" not in line


def test_one_class_only(files, tmp_path):
    line = one_error_line(run(["fit", files["one_class"]], tmp_path), 1, "one class")
    assert "np.float64" not in line


def test_cv_larger_than_the_smallest_class(files, tmp_path):
    one_error_line(run(["fit", files["small_class"], "--cv", "5"], tmp_path), 2, "--cv 5",
                   "has 2", "--cv 0")


def test_check_on_an_empty_file(files, tmp_path):
    proc = run(["check", files["empty"]], tmp_path)
    one_error_line(proc, 1, "empty.libsvm", "no samples")
    assert "RuntimeWarning" not in proc.stderr


def test_labels_only_file(files, tmp_path):
    one_error_line(run(["fit", files["labels_only"]], tmp_path), 1, "no features")


def test_unknown_option_and_bad_value(tmp_path):
    one_error_line(run(["fit", "--dataset", "heart", "--bogus"], tmp_path), 2, "--bogus")
    one_error_line(run(["fit", "--dataset", "heart", "-C", "0"], tmp_path), 2, "-C")
    one_error_line(run(["fit", "--dataset", "heart", "--cv", "-3"], tmp_path), 2, "--cv")
    one_error_line(run(["nosuchcommand"], tmp_path), 2, "nosuchcommand")


def test_precomputed_kernel_without_labels(tmp_path):
    X, y = ds.load_heart(return_X_y=True)
    np.save(tmp_path / "K.npy", isvm.kernel_matrix(X, kernel="rbf", gamma=0.1))
    one_error_line(run(["fit", tmp_path / "K.npy"], tmp_path), 2, "--labels")


def test_predict_with_a_file_that_is_no_model(files, tmp_path):
    one_error_line(run(["predict", files["notamodel"], ds.data_path("heart_scale")], tmp_path),
                   1, "notamodel.skops")


def test_version(tmp_path):
    proc = run(["--version"], tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == f"indefsvm {isvm.__version__}"


def test_debug_shows_the_traceback(files, tmp_path):
    proc = run(["fit", files["bad_line"], "--debug"], tmp_path)
    assert proc.returncode != 0 and "Traceback" in proc.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_exits_130_without_traceback(tmp_path):
    r = np.random.default_rng(0)
    X = r.normal(size=(8000, 10))
    y = np.where(X[:, 0] + r.normal(size=8000) > 0, 1, -1)
    dump_svmlight_file(X, y, str(tmp_path / "big.libsvm"), zero_based=False)
    proc = subprocess.Popen(CLI + ["fit", str(tmp_path / "big.libsvm"), "--kernel", "sigmoid",
                                   "--gamma", "0.5", "--coef0", "1", "-C", "10000", "--tol",
                                   "1e-6", "--cv", "20"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path)
    # the signal is sent once the run announces its cross-validation (after the first fit):
    # no sleep, so a slow start-up on a loaded machine cannot make the test flaky
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if "cross-validation" in line:
            break
    assert proc.poll() is None, "the run ended before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    err = "".join(seen) + err
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1] == "indefsvm: interrupted"


def test_fit_save_then_predict_gives_the_library_predictions(tmp_path):
    X, y = ds.load_heart(return_X_y=True)
    model = tmp_path / "heart.skops"
    proc = run(["fit", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01",
                "--coef0", "-0.5", "-C", "10", "--cv", "0", "--save", model], tmp_path)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "pred.txt"
    proc = run(["predict", model, ds.data_path("heart_scale"), "--out", out], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "accuracy" in proc.stderr
    pred = np.loadtxt(out)
    lib = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, C=10).fit(X, y)
    np.testing.assert_array_equal(pred, lib.predict(X))
    assert not [f for f in os.listdir(tmp_path) if f.startswith(".indefsvm-")]


def test_precomputed_kernel_fit_save_predict(tmp_path):
    X, y = ds.load_heart(return_X_y=True)
    K = isvm.kernel_matrix(X, kernel="l1_gaussian", gamma=0.05)
    np.savez(tmp_path / "train.npz", K=K, y=y)
    np.save(tmp_path / "rows.npy", K[:40])
    np.savetxt(tmp_path / "y40.txt", y[:40])
    proc = run(["fit", tmp_path / "train.npz", "--cv", "3", "--no-search", "--save",
                tmp_path / "m.skops"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "3-fold CV accuracy" in proc.stdout and "270 x 270 kernel matrix" in proc.stdout
    proc = run(["predict", tmp_path / "m.skops", tmp_path / "rows.npy", "--labels",
                tmp_path / "y40.txt"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    lib = isvm.IndefiniteSVC(kernel="precomputed").fit(K, y)
    np.testing.assert_array_equal(np.array(proc.stdout.split(), dtype=float),
                                  lib.predict(K[:40]))


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_progress_bar_on_a_terminal(tmp_path):
    """Under a pseudo-terminal the CV folds show a tqdm bar on stderr; piped, they do not."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    # a terminal has a size (tqdm draws nothing on a 0-column one)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen(CLI + ["fit", "--dataset", "heart", "--cv", "5"],
                            stdout=subprocess.DEVNULL, stderr=slave, cwd=tmp_path)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    proc.wait(timeout=120)
    os.close(master)
    seen = b"".join(chunks).decode(errors="replace")
    assert proc.returncode == 0
    assert "cross-validation" in seen and "fold" in seen and "5/5" in seen
    piped = run(["fit", "--dataset", "heart", "--cv", "5"], tmp_path)
    assert "5/5" not in piped.stderr and "5-fold cross-validation" in piped.stderr


def test_report_and_check_read_a_precomputed_kernel(tmp_path):
    X, y = ds.load_heart(return_X_y=True)
    np.save(tmp_path / "K.npy", isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01,
                                                  coef0=-0.5))
    np.savetxt(tmp_path / "y.txt", y)
    out = tmp_path / "out"
    proc = run(["report", tmp_path / "K.npy", "--labels", tmp_path / "y.txt", "-C", "10",
                "--out", out], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "Kernel check" in proc.stdout and "Sanity report" in proc.stdout
    assert [p.name for p in out.iterdir()] == ["indefsvm-report-K.npy-precomputed.html"]
    proc = run(["check", tmp_path / "K.npy", "--labels", tmp_path / "y.txt", "--json"],
               tmp_path)
    assert proc.returncode == 0 and '"verdict"' in proc.stdout


def test_compare_command(tmp_path):
    import json

    proc = run(["compare", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01",
                "--coef0", "0.5", "--cv", "3", "--C-grid", "0.1,1", "--json", "--out",
                tmp_path / "cmp"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    d = json.loads(proc.stdout)
    assert d["cv"] == 3 and "indefinite SVM" in d["mean_error"]
    assert d["fold_errors"]["Krein SVM"] == d["fold_errors"]["flip"]
    assert [p.name for p in (tmp_path / "cmp").iterdir()] == [
        "indefsvm-compare-heart-sigmoid.html"]
    one_error_line(run(["compare", "--dataset", "heart", "--C-grid", "0,1"], tmp_path), 2,
                   "--C-grid")


def test_a_warning_no_command_caught_is_one_line_of_ours(tmp_path, capsys):
    # compare's comparison says its degenerate fixes by a warning: on the command line an
    # "indefsvm: warning:" line, not Python's "path:line: DegenerateKernelWarning: ..."
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    path = tmp_path / "iris.csv"
    np.savetxt(path, np.c_[X, y], delimiter=",", fmt="%g")
    from indefsvm.cli import main

    assert main(["compare", str(path), "--label-column", "last", "--kernel", "sigmoid",
                 "--gamma", "1", "--methods", "clip", "--cv", "3"]) == 0
    err = capsys.readouterr().err
    assert "indefsvm: warning: compare_remedies: the fixed kernel was zero or constant" in err
    assert "DegenerateKernelWarning" not in err and ".py:" not in err


def test_one_dimensional_arrays_and_libsvm_labels_are_data_errors(tmp_path, heart_model,
                                                                  capsys):
    np.save(tmp_path / "v.npy", np.ones(270))
    assert main(["predict", str(heart_model), str(tmp_path / "v.npy")]) == 1
    err = capsys.readouterr().err
    assert "1-D array" in err and "internal error" not in err
    np.save(tmp_path / "K.npy", np.eye(270))
    assert main(["fit", str(tmp_path / "K.npy"), "--labels",
                 isvm.datasets.data_path("heart_scale"), "--cv", "0"]) == 1
    assert "looks like a LIBSVM data file" in capsys.readouterr().err


def test_output_closed_by_its_reader_ends_quietly(tmp_path):
    # "indefsvm ... | head" printed "error: [Errno 32] Broken pipe" and exit status 1. The
    # reader is gone before the command writes anything (its end of the pipe is closed
    # first), so the broken pipe is certain -- no race on how much a pipe buffers.
    import subprocess
    import sys

    read_end, write_end = os.pipe()
    os.close(read_end)
    proc = subprocess.Popen([sys.executable, "-m", "indefsvm", "fit", "--dataset", "heart",
                             "--cv", "0"], stdout=write_end, stderr=subprocess.PIPE,
                            cwd=tmp_path)
    os.close(write_end)
    _, err = proc.communicate(timeout=120)
    err = err.decode()
    assert proc.returncode == 141, err
    assert "Broken pipe" not in err and "Traceback" not in err and "error" not in err



def test_broken_pipe_exit_status(monkeypatch, capsys):
    from indefsvm import cli

    def boom(args):
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(cli._check, "run", boom)
    monkeypatch.setattr(cli._main.os, "dup2", lambda *a: None)  # keep pytest's stdout
    assert cli.main(["check", "--dataset", "heart"]) == cli.EXIT_PIPE == 141
    assert capsys.readouterr().err == ""



def test_cli_predict_with_the_wrong_kind_of_input_says_what_the_model_needs(tmp_path, capsys):
    from indefsvm.cli import main
    from indefsvm.datasets import data_path

    X, y, K = _heart_files(tmp_path)
    main(["fit", str(tmp_path / "K.csv"), "--labels", str(tmp_path / "y.txt"), "--cv", "0",
          "--quiet", "--save", str(tmp_path / "k.skops")])
    main(["fit", "--dataset", "heart", "--cv", "0", "--quiet", "--save",
          str(tmp_path / "f.skops")])
    capsys.readouterr()
    # LIBSVM features to a precomputed-kernel model
    assert main(["predict", str(tmp_path / "k.skops"), data_path("heart_scale")]) == 1
    err = capsys.readouterr().err
    assert "LIBSVM feature file" in err and "kernel rows k(x, x_train), 270 columns" in err
    # kernel rows to a feature model
    assert main(["predict", str(tmp_path / "f.skops"), str(tmp_path / "K.csv")]) == 1
    assert "kernel rows? this model computes its kernel" in capsys.readouterr().err



def test_cli_names_an_unsupported_format_and_the_supported_ones(tmp_path, capsys):
    from indefsvm.cli import main

    (tmp_path / "data.xlsx").write_bytes(b"PK\x03\x04")
    assert main(["fit", str(tmp_path / "data.xlsx")]) == 1
    err = capsys.readouterr().err
    assert "Excel files are not read" in err and "CSV / TSV" in err and "LIBSVM" in err


def _run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_compare_on_a_few_samples_shows_no_traceback(tmp_path, capsys):
    path = tmp_path / "six.csv"
    path.write_text("0,0.12\n1,-0.13\n0,0.64\n1,0.10\n0,-0.53\n1,0.36\n")
    code, out, err = _run(capsys, ["compare", str(path), "--label-column", "0", "--cv", "2"])
    assert code == 0
    assert "Traceback" not in err and "Scoring failed" not in err
    assert "k = 1, not searched" in out
    four = tmp_path / "four.csv"
    four.write_text("0,0.12\n1,-0.13\n0,0.64\n1,0.10\n")
    code, out, err = _run(capsys, ["compare", str(four), "--label-column", "0", "--cv", "2",
                                   "--C-grid", "0.1,1"])
    assert code == 2
    last = err.splitlines()[-1]  # after the announcement of the comparison
    assert last.startswith("indefsvm: error: --C-grid: the inner search of C") and \
        "with --cv 2" in last and "(--C-grid 0.1)" in last and err.count("error") == 1


def test_a_warning_that_carries_a_traceback_is_one_line(capsys):
    from indefsvm.cli._main import _SAID, _warning_line

    # scikit-learn's own warning: a search whose k exceeds a training fold
    X = np.arange(8.0).reshape(-1, 1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [9]}, cv=2).fit(X, np.arange(8) % 2)
    said = [w for w in caught if "Traceback (most recent call last)" in str(w.message)]
    assert said, [str(w.message)[:80] for w in caught]
    _SAID.clear()
    for w in said:
        _warning_line(w.message, w.category, w.filename, w.lineno)
    err = capsys.readouterr().err
    assert "Traceback" not in err and "File " not in err
    lines = err.splitlines()
    assert lines and all(ln.startswith("indefsvm: warning: ") for ln in lines)
    assert "ValueError: Expected n_neighbors <= n_samples_fit" in lines[0]
    # the same text is said once
    assert len(lines) == len(set(lines))


def test_a_data_error_in_compare_search_is_exit_1_not_a_usage_error(tmp_path, heart_kernel,
                                                                     capsys):
    K, y = heart_kernel
    K = K.copy()
    K[0, 1] += 1.0  # not symmetric: the data's fault, not the options'
    np.save(tmp_path / "K.npy", K)
    np.savetxt(tmp_path / "y.txt", y, fmt="%d")
    assert main(["compare", str(tmp_path / "K.npy"), "--labels", str(tmp_path / "y.txt"),
                 "--search", "--C-grid", "1"]) == 1
    assert "symmetric" in capsys.readouterr().err


def test_too_few_samples_for_the_folds_suggest_folds_that_run(tmp_path, capsys):
    path = tmp_path / "tiny.libsvm"
    path.write_text("1 1:1 2:3\n-1 1:2\n1 3:1\n1 2:2\n-1 1:1\n-1 2:1\n1 1:3\n")
    assert main(["fit", str(path), "--cv", "5"]) == 2
    assert "use --cv 3 or fewer, or --cv 0." in capsys.readouterr().err
    path.write_text("1 1:1 2:3\n-1 1:2\n1 3:1\n")
    assert main(["fit", str(path), "--cv", "2"]) == 2
    err = capsys.readouterr().err
    # --cv 1 is no cross-validation, and refused as such: not offered
    assert "use --cv 0." in err and "--cv 1" not in err
