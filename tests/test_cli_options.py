"""Options that do not apply are refused, an unknown option is named, a model file's schema
is bounded before it is parsed, and the suite's own configuration knows the marks it meets
(issue 46, items 5, 11, 13 and 15)."""

import json
import os
import time
import zipfile

import numpy as np
import pytest
from test_cli_errors import _run

import indefsvm as isvm
from indefsvm.cli import main


def test_an_unknown_option_is_named(capsys):
    assert main(["check", "--dataset", "heart", "--bogus", "2"]) == 2
    err = capsys.readouterr().err
    assert "unrecognized option --bogus" in err and "FILE" not in err
    # abbreviations argparse accepts stay accepted
    assert main(["fit", "--dataset", "heart", "-C", "1", "--gam", "0.1", "--cv", "0",
                 "--quiet"]) == 0



@pytest.mark.parametrize("argv, said", [
    # a short option the command lacks: its value was taken as FILE ("argument FILE: not
    # allowed with argument --dataset"); named now, with what compare takes instead
    (["compare", "--dataset", "heart", "-C", "10"],
     "unrecognized option -C; this command searches C: give --C-grid with one value"),
    (["check", "--dataset", "heart", "-C", "1"],
     "unrecognized option -C; -C is an option of fit, report and explore, not of check (see "
     "'indefsvm check"),
    (["fit", "--dataset", "heart", "-x"], "unrecognized option -x (see"),
    # a long option near a known one
    (["fit", "--dataset", "heart", "--gama", "0.1"], "unrecognized option --gama; did you "
                                                     "mean --gamma?"),
])
def test_an_unknown_short_option_is_named_too(capsys, argv, said):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0] and "FILE" not in err[0]


def test_negative_numbers_and_attached_short_values_stay_values(capsys):
    # -0.5, -1:2 and -C10 are values (or an option with its value), not unknown options
    assert main(["fit", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01",
                 "--coef0", "-0.5", "-C10", "--class-weight=-1:2", "--cv", "0",
                 "--quiet", "--json"]) == 0

    out = json.loads(capsys.readouterr().out)
    assert out["C"] == 10.0


@pytest.fixture
def series_file(tmp_path):
    S, y = isvm.datasets.make_cbf(40, length=40, random_state=0)
    path = tmp_path / "s.txt"
    with open(path, "w") as fh:
        for s, label in zip(S, y, strict=True):
            fh.write(f"{label}," + ",".join(f"{v:.5f}" for v in s) + "\n")
    return str(path)


@pytest.mark.parametrize("option", [["--restarts", "2"], ["--wss", "first_order"],
                                    ["--cache-size", "100"], ["--no-shrinking"],
                                    ["--init", "class_balanced"]])
def test_smo_options_refused_with_landmark_features(option, series_file, capsys):
    assert main(["fit", "--dataset", "heart", "--nystroem", "20", "-C", "1", "--cv", "0",
                 "--quiet", *option]) == 2
    assert f"{option[0]} is an option of the SMO solver" in capsys.readouterr().err
    assert main(["fit", series_file, "--metric", "dtw", "--nystroem", "10", "-C", "1",
                 "--cv", "0", "--quiet", *option]) == 2
    assert f"drop {option[0]}" in capsys.readouterr().err


def test_an_inflated_schema_is_refused_before_parsing(tmp_path, capsys):
    model = tmp_path / "m.skops"
    assert main(["fit", "--dataset", "heart", "-C", "1", "--gamma", "0.1", "--cv", "0",
                 "--quiet", "--save", str(model)]) == 0
    bad = tmp_path / "bad.skops"
    with zipfile.ZipFile(model) as src, zipfile.ZipFile(bad, "w",
                                                        zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "schema.json":
                # the same JSON, padded with 8 MB of blanks: it packs to a few KB
                data = data[:-1] + b" " * (8 * 2**20) + data[-1:]
            dst.writestr(info.filename, data)
    capsys.readouterr()
    X = os.path.join(os.path.dirname(isvm.__file__), "datasets", "data", "heart_scale")
    assert main(["predict", str(bad), X]) == 1
    err = capsys.readouterr().err
    assert "holds a schema of 8.0 MB" in err and err.count("\n") == 1
    # the real model's schema passes
    assert main(["predict", str(model), X]) == 0


def test_the_suite_knows_scikit_learns_mark(pytestconfig):
    assert any(m.startswith("thread_unsafe:") for m in pytestconfig.getini("markers"))



def test_a_npy_header_larger_than_memory_is_refused_from_the_header(tmp_path, capsys):
    import numpy as np

    path = tmp_path / "K.npy"
    with open(path, "wb") as fh:  # a header that claims 10^6 x 10^6 float64 (7 TiB), no data
        np.lib.format.write_array_header_2_0(
            fh, {"descr": "<f8", "fortran_order": False, "shape": (10**6, 10**6)})
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "refused from its header" in err and "GiB" in err and err.count("\n") == 1


def test_memory_figures_are_gibibytes():
    from indefsvm._validation import check_memory

    with pytest.raises(MemoryError, match=r"needs about 1024\.0 GiB of memory"):
        check_memory(2.0**40, "a test", "Use less.")


def test_the_landmarks_memory_is_said_before_the_work():
    import time

    import numpy as np

    S, y = isvm.datasets.make_cbf(60, length=16, random_state=0)
    big = [s for s in S for _ in range(1000)]  # 60 000 series: m = 60 000 landmarks
    t0 = time.perf_counter()
    with pytest.raises(MemoryError, match=r"60000 x 60000 landmark kernel and its "
                                          r"eigendecomposition\) needs about \d+\.\d GiB"):
        isvm.NystroemSVC(metric="dtw", n_components=60_000).fit(big, np.repeat(y, 1000))
    assert time.perf_counter() - t0 < 5.0  # before any distance


def test_the_step_size_never_forms_a_huge_gram_matrix():
    import numpy as np

    from indefsvm._solvers._linsvm import default_rho

    Z = np.random.default_rng(0).standard_normal((400, 2500)).astype(np.float32)
    A = Z.astype(np.float64)
    G = A.T @ A
    v = np.ones(2500) / 50.0
    for _ in range(30):
        u = G @ v
        lam = np.linalg.norm(u)
        v = u / lam
    assert default_rho(Z, np.arange(400), None) == pytest.approx(lam / 400, rel=1e-10)


def test_one_estimator_one_fit_at_a_time():
    import threading

    import numpy as np

    S, y = isvm.datasets.make_cbf(30, length=16, random_state=0)
    started, release = threading.Event(), threading.Event()

    def d(a, b):  # the first fit waits inside its distances until the second was tried
        started.set()
        release.wait(10)
        return float(np.abs(a - b).sum())

    clf = isvm.NystroemSVC(metric=d, n_components=5, n_jobs=1, random_state=0)
    first = threading.Thread(target=lambda: clf.fit(list(S), y))
    first.start()
    assert started.wait(10)
    with pytest.raises(RuntimeError, match="being fitted in another thread.*clone"):
        clf.fit(list(S), y)
    release.set()
    first.join(30)
    # the first fit finished whole, and the object can be fitted again afterwards
    assert clf.converged_ and clf.nystroem_.n_landmarks_ == 5
    clf.fit(list(S), y)


@pytest.mark.parametrize("second", [False, True])
def test_ctrl_c_always_ends_with_130(tmp_path, second):
    """An interrupted run exits 130 at once, also when a second Ctrl-C follows the first
    (it ended -2) and whatever the interrupt abandoned (a BLAS call in a worker thread)."""
    import signal
    import subprocess
    import sys

    import numpy as np

    X = np.random.default_rng(0).standard_normal((5000, 10))
    K = np.tanh(0.05 * (X @ X.T) - 0.5)  # an indefinite kernel: its dense spectrum takes s
    path = tmp_path / "K.npy"
    np.save(path, K)
    proc = subprocess.Popen(
        [sys.executable, "-m", "indefsvm", "check", str(path), "--method", "dense"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, text=True)
    # the command says when the eigendecomposition starts: interrupt it there
    said = proc.stderr.readline()
    assert "eigendecomposition of a 5000 x 5000 matrix" in said, said
    time.sleep(0.5)
    assert proc.poll() is None
    proc.send_signal(signal.SIGINT)
    if second:
        time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        raise AssertionError("the interrupted run did not end within 30 s") from None
    assert proc.returncode == 130, err
    assert err.strip().endswith("indefsvm: interrupted")


def test_an_interrupted_run_does_not_wait_for_what_it_abandoned():
    """What the interrupt abandoned (in the probe: OpenBLAS's worker in the middle of an
    eigendecomposition; here a thread that never ends) is not waited for at exit."""
    import subprocess
    import sys
    import textwrap

    code = textwrap.dedent("""
        import threading, time
        import indefsvm.cli as cli

        def stuck(argv=None):
            threading.Thread(target=time.sleep, args=(3600,)).start()  # joined at shutdown
            raise KeyboardInterrupt

        cli.main = stuck
        from indefsvm._entry import main
        raise SystemExit(main())
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert proc.returncode == 130
    assert proc.stderr.decode().strip() == "indefsvm: interrupted"


@pytest.mark.parametrize("command", ["fit", "check", "compare", "report", "explore"])
def test_q_is_quiet_as_svm_trains(command, capsys):
    """``-q``: svm-train's and svm-predict's quiet mode is ``--quiet`` on every command."""
    from indefsvm.cli._parser import build_parser

    parser = build_parser()
    argv = [command, "--dataset", "heart"]
    assert parser.parse_args(argv + ["-q"]).quiet is True
    assert parser.parse_args(argv).quiet is False


def test_labels_the_model_cannot_predict_are_said(tmp_path, capsys):
    """predict DATA whose labels are not the model's classes (0 / 1 against -1 / 1): the
    accuracy counts them as errors, and a warning says which and how many."""
    import numpy as np
    from sklearn.datasets import dump_svmlight_file

    X, y = isvm.datasets.load_heart(return_X_y=True)
    model = str(tmp_path / "m.skops")
    assert main(["fit", "--dataset", "heart", "-C", "1", "--gamma", "0.05", "--cv", "0",
                 "--save", model, "--quiet"]) == 0
    good, recoded = tmp_path / "good.svm", tmp_path / "recoded.svm"
    dump_svmlight_file(X, y, str(good), zero_based=False)
    dump_svmlight_file(X, np.where(y > 0, 1, 0), str(recoded), zero_based=False)
    capsys.readouterr()
    assert main(["predict", model, str(good)]) == 0
    assert "warning" not in capsys.readouterr().err
    assert main(["predict", model, str(recoded)]) == 0
    err = capsys.readouterr().err
    n0 = int(np.sum(y < 0))
    assert f"labels 0 ({n0}x) are not what the model predicts (the model's classes are -1, " \
           "1)" in err
    assert "accuracy" in err


def test_every_option_of_every_command_says_what_it_does():
    # --wss and --init of fit and report showed only their choices in --help
    import argparse

    from indefsvm.cli._parser import build_parser

    silent, seen = [], 0
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                for option in sub._actions:
                    seen += 1
                    if option.dest != "help" and not option.help:
                        silent.append(f"{name} {'/'.join(option.option_strings) or option.dest}")
    assert seen > 100 and silent == []


def test_the_matrix_free_check_drives_its_bar_on_a_terminal_and_logs_nothing_else(monkeypatch):
    # the library now logs the Lanczos passes only when asked (a quiet call said them to any
    # handler a verbose call had left); the command line asks where its bar listens
    import io
    import sys

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    err = Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["check", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01",
                 "--coef0", "-0.5", "--method", "lanczos", "--steps", "5"]) == 0
    shown = err.getvalue().replace("\r", "\n")
    assert "kernel passes: 100%" in shown and "5/5" in shown
    assert not [line for line in shown.split("\n") if line.startswith("indefsvm: check_kernel")]


def test_a_second_ctrl_c_while_the_first_is_answered_exits_130_without_a_traceback():
    """The second Ctrl-C ends the process at once, wherever it comes: before, one that came
    after the command had answered the first and before Ctrl-C was ignored raised
    KeyboardInterrupt outside every handler (a traceback, exit status -2)."""
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent("""
        import signal, sys
        from indefsvm import _entry
        _entry._second_ctrl_c_exits()
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            print("first", flush=True)
        signal.raise_signal(signal.SIGINT)  # as between the answer and the exit
        print("after the second", flush=True)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 130, proc.stderr
    assert proc.stdout == "first\n" and "Traceback" not in proc.stderr


@pytest.mark.parametrize("answered", [False, True])
def test_a_second_ctrl_c_says_interrupted_once_whenever_it_comes(answered):
    """A second Ctrl-C that comes before the command has answered the first (on a busy
    machine the interrupt was still unwinding 50 ms later) says "indefsvm: interrupted"
    itself: the run ended 130 with nothing on stderr (seen in a fresh-clone CI run). After
    the answer, it is not said twice."""
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent(f"""
        import signal
        from indefsvm import _entry, _interrupt
        _interrupt.new_run()
        _entry._second_ctrl_c_exits()
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt:
            if {answered}:
                _interrupt.say_interrupted()  # what the command line's main does
        signal.raise_signal(signal.SIGINT)
        print("after the second", flush=True)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 130, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr == "indefsvm: interrupted\n"


@pytest.mark.timeout(180)
def test_ctrl_c_of_a_parallel_search_says_interrupted_and_nothing_after(tmp_path):
    # compare --n-jobs 2 interrupted: joblib's resource tracker printed "UserWarning:
    # resource_tracker: There appear to be 3 leaked semlock objects ..." with install paths
    # after "indefsvm: interrupted" (3 of 3 runs)
    import signal
    import subprocess
    import sys

    import numpy as np

    rng = np.random.default_rng(0)
    X = rng.normal(size=(3000, 10))
    y = (X[:, 0] + 0.5 * rng.normal(size=3000) > 0).astype(int)
    path = tmp_path / "big.csv"
    np.savetxt(path, np.c_[X, y], delimiter=",", fmt="%.4f",
               header=",".join([f"x{j}" for j in range(10)] + ["label"]), comments="")
    proc = subprocess.Popen([sys.executable, "-m", "indefsvm", "compare", str(path),
                             "--kernel", "sigmoid", "--search", "--n-jobs", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path,
                            text=True)
    said = proc.stderr.readline()
    assert "5-fold search of the remedies" in said, said
    time.sleep(3.0)  # the workers are busy
    assert proc.poll() is None
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=90)
    assert proc.returncode == 130, err
    assert err.strip() == "indefsvm: interrupted", err


def test_cli_warns_about_options_the_kernel_does_not_take(capsys):
    from indefsvm.cli import main

    assert main(["fit", "--dataset", "heart", "--kernel", "rbf", "--coef0", "1",
                 "--cv", "0"]) == 0
    assert "--coef0 does not apply to --kernel rbf" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["fit", "check", "compare", "explore"])
def test_a_negative_seed_names_the_option(command, capsys):
    # "--random-state must be an int in the range [0, 4294967295], an instance of
    # 'numpy.random.mtrand.RandomState' or None" -- an option the command line does not have
    code, _, err = _run(capsys, [command, "--dataset", "heart", "--seed", "-1"])
    assert code == 2
    assert err.startswith("indefsvm: error: argument --seed: expected a whole number from 0 "
                          "to 4294967295; got -1")


def _fit_json(argv, capsys):

    assert main(argv + ["--cv", "0", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_nystroem_honours_the_radius_of_the_tl1_kernel(capsys):
    base = ["fit", "--dataset", "heart", "--kernel", "tl1", "--nystroem", "50"]
    a = _fit_json(base + ["--rho", "0.5"], capsys)
    b = _fit_json(base + ["--rho", "100"], capsys)
    assert a["kernel_params"]["rho"] == 0.5 and b["kernel_params"]["rho"] == 100.0
    # the library's model with that radius
    X, y = isvm.datasets.load_heart(return_X_y=True)
    ref = isvm.NystroemSVC(kernel="tl1", kernel_params={"rho": 0.5}, n_components=50,
                           random_state=0).fit(X, y)
    assert a["training_accuracy"] == pytest.approx(ref.score(X, y))
    assert a["training_accuracy"] != b["training_accuracy"]


def test_nystroem_refuses_the_cache_size_of_the_smo(capsys):
    assert main(["fit", "--dataset", "heart", "--nystroem", "50", "--cache-size", "100"]) == 2
    assert "--cache-size is an option of the SMO solver" in capsys.readouterr().err


# -- the option table (indefsvm.cli._options) ---------------------------------------------------


def _flags_of(command):
    import argparse

    from indefsvm.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return {flag for action in sub.choices[command]._actions for flag in action.option_strings}


def test_the_table_names_the_option_of_each_smo_parameter():
    """The library's parameter names are turned into options from the table alone."""
    from indefsvm.cli._options import option_of

    fit = _flags_of("fit")
    for param in ("C", "tol", "max_iter", "cache_size", "n_restarts", "class_weight", "gamma",
                  "coef0", "degree"):
        assert param in isvm.IndefiniteSVC().get_params() or param == "n_restarts"
        assert option_of(param) in fit, param
    assert option_of("kernel") == "--kernel" and option_of("n_components") == "--nystroem"
    assert option_of("no_such_parameter") is None


def test_the_libsvm_letters_come_from_the_table_and_name_options_that_exist():
    from indefsvm.cli._main import _LIBSVM_FLAGS

    assert _LIBSVM_FLAGS["-c"] == "-C" and _LIBSVM_FLAGS["-m"] == "--cache-size"
    assert _LIBSVM_FLAGS["-t"] == "--kernel" and _LIBSVM_FLAGS["-b"] == "--probability"
    known = _flags_of("fit") | _flags_of("predict")
    assert set(_LIBSVM_FLAGS.values()) <= known
    assert len(_LIBSVM_FLAGS) == 12


def test_a_library_rule_is_said_with_the_option_of_the_table(monkeypatch):
    """A new row is all it takes for a library error about its parameter to name it: the
    words come from the error's parts (``param``, ``values``), not from its message."""
    from indefsvm.cli import _errors, _options
    from indefsvm.exceptions import ParameterError

    assert _errors.said(ParameterError("must be > 0", "rtol")) == "--rtol must be > 0"
    assert _errors.said(ParameterError("must be > 0", "cache_size")) == "--cache-size must be > 0"
    new = ParameterError("must be > 0 with {tol}", "brand_new", values={"tol": 0.5})
    assert _errors.said(new) == "brand_new must be > 0 with --tol 0.5"
    monkeypatch.setitem(_options.OPTIONS, "brand-new",
                        _options.Option(("--brand-new",), param="brand_new"))
    assert _errors.said(new) == "--brand-new must be > 0 with --tol 0.5"
    # a message that merely begins like a rule is not read as one
    assert _errors.said(ParameterError("rtol must be > 0")) == "rtol must be > 0"
    # a command that feeds a parameter by another option says so
    grid = ParameterError(": too few samples for {param_grid}", "param_grid",
                          values={"param_grid": {"C": [0.1, 1.0]}})
    assert str(grid) == "param_grid: too few samples for param_grid={'C': [0.1, 1.0]}"
    assert _errors.said(grid, param_grid="--C-grid") == \
        "--C-grid: too few samples for --C-grid 0.1,1"


def test_scikit_learns_constraints_name_their_parameter():
    """check_settings' constraint errors are scikit-learn's (class and words) and carry the
    parameter, so the command line says its option without reading the message."""
    from sklearn.utils._param_validation import InvalidParameterError

    from indefsvm import IndefiniteSVC
    from indefsvm._constraints import check_settings
    from indefsvm.cli._errors import said
    from indefsvm.exceptions import ParameterError

    with pytest.raises(InvalidParameterError) as info:
        check_settings(IndefiniteSVC(cache_size=-1.0))
    assert isinstance(info.value, ParameterError) and info.value.param == "cache_size"
    assert str(info.value).startswith("The 'cache_size' parameter of IndefiniteSVC must be")
    assert said(info.value).startswith("--cache-size must be a float in the range (0")


def test_given_reads_the_defaults_of_the_table():
    """An option counts as given when its value is not its row's default, switches included."""
    from indefsvm.cli import build_parser
    from indefsvm.cli._options import given

    keys = ("restarts", "cache-size", "no-shrinking", "init", "wss")
    args = build_parser().parse_args(["fit", "--dataset", "heart"])
    assert given(args, *keys) == []
    args = build_parser().parse_args(["fit", "--dataset", "heart", "--wss", "first_order",
                                      "--no-shrinking", "--cache-size", "100"])
    assert given(args, *keys) == ["--cache-size", "--no-shrinking", "--wss"]


def test_the_readers_words_come_from_the_table():
    """load_file's keywords the options feed, said as those options in the readers' refusals."""
    from indefsvm.cli._args import OPTION_WORDS

    assert OPTION_WORDS == {"labels": "--labels", "distances": "--distances",
                            "label_column": "--label-column", "zero_based": "--zero-based",
                            "n_features": "--n-features"}
    # (a reader's keyword is not a library parameter: "labels must be" keeps its words)
    from indefsvm.cli._errors import said
    from indefsvm.exceptions import ParameterError

    assert said(ParameterError("must be given", "labels")) == "labels must be given"


def test_a_printed_command_gives_the_very_distance_parameters():
    import argparse

    from indefsvm.cli._args import metric_words

    args = argparse.Namespace(window=0.1, sigma=1 / 3)
    assert metric_words(args) == ["--window", "0.1", "--sigma", repr(1 / 3)]
    assert metric_words(argparse.Namespace(window=None, sigma=None)) == []


def test_a_new_smo_option_is_one_row(monkeypatch, tmp_path, capsys):
    """A solver option added as one row of the table (``feeds="smo"``) reaches the parser,
    the SVM's keywords, and every refusal of the options that do not apply: the landmark
    models', the types' of --svm-type whose estimator lacks it, report MODEL's."""
    import operator

    from indefsvm.cli import _options

    monkeypatch.setitem(_options.OPTIONS, "no-intercept", _options.Option(
        ("--no-intercept",), param="fit_intercept", feeds="smo", to_param=operator.not_,
        kwargs=dict(action="store_true", help="b = 0")))
    path = tmp_path / "m.skops"
    assert main(["fit", "--dataset", "heart", "--no-intercept", "-C", "1", "--gamma", "0.01",
                 "--cv", "0", "--quiet", "--save", str(path)]) == 0
    model = isvm.load_model(path)
    assert model.fit_intercept is False and float(model.intercept_[0]) == 0.0
    capsys.readouterr()
    assert main(["fit", "--dataset", "heart", "--nystroem", "20", "--no-intercept"]) == 2
    assert "--no-intercept is an option of the SMO solver" in capsys.readouterr().err
    assert main(["fit", "--dataset", "heart", "-s", "nu-svc", "--no-intercept"]) == 2
    assert "--no-intercept does not apply to nu-svc: c-svc takes it" in capsys.readouterr().err
    X, y = isvm.datasets.load_heart(return_X_y=True)
    data = tmp_path / "heart.txt"
    np.savetxt(data, np.c_[y, X], delimiter=",", fmt="%.10g")
    assert main(["report", str(path), str(data), "--label-column", "0",
                 "--no-intercept"]) == 2
    err = capsys.readouterr().err
    assert "--no-intercept" in err and "the model" in err


def test_a_fixed_kernel_trains_with_the_smo_options_given(tmp_path, capsys):
    """fit --remedy clip --wss first_order: the fixed kernel's IndefiniteSVC takes the SMO's
    options (they were refused); the Krein SVM's solver does not take them: refused."""
    path = tmp_path / "m.skops"
    assert main(["fit", "--dataset", "heart", "--kernel", "sigmoid", "--remedy", "clip",
                 "--wss", "first_order", "--init", "class_balanced", "-C", "1", "--cv", "0",
                 "--quiet", "--save", str(path)]) == 0
    svc = isvm.load_model(path)[-1]
    assert (svc.wss, svc.init) == ("first_order", "class_balanced")
    capsys.readouterr()
    assert main(["fit", "--dataset", "heart", "--kernel", "sigmoid", "--remedy", "krein",
                 "--wss", "first_order"]) == 2
    assert ("--wss does not apply to --remedy krein: the Krein SVM's own solver does not take "
            "it; drop --wss.") in capsys.readouterr().err


def test_a_command_is_printed_again_from_the_table():
    """option_words: the options given, as a command's words -- a switch its flag, an option
    its flag and every digit of its value -- read from the rows, so a printed command
    (data_args, the too-big refusal's) needs no map of its own."""
    from indefsvm.cli import build_parser
    from indefsvm.cli._args import _resolve_defaults, data_args
    from indefsvm.cli._options import option_words

    args = build_parser().parse_args(["fit", "a b.txt", "--labels", "y.txt", "--zero-based",
                                      "--kernel", "sigmoid", "--gamma", "0.1", "--coef0", "-1"])
    _resolve_defaults(args)
    assert option_words(args, "labels", "zero-based", "scale") == ["--labels", "y.txt",
                                                                   "--zero-based"]
    assert option_words(args, "gamma", values={"gamma": 1 / 3},
                        given_flags=set()) == ["--gamma", repr(1 / 3)]
    assert data_args(args, gamma=0.25) == ("'a b.txt' --labels y.txt --zero-based --kernel "
                                           "sigmoid --gamma 0.25 --coef0 -1")


@pytest.mark.parametrize("command", ["fit", "report", "compare"])
def test_the_folds_and_the_landmarks_are_checked_by_their_row_s_type(command, capsys):
    """--cv 1 and --nystroem 0 are refused by the type of their row, for every command that
    takes them, before any data are read (one rule, not a copy per command)."""
    from indefsvm.cli import main

    assert main([command, "--dataset", "heart", "--cv", "1"]) == 2
    assert ("argument --cv: 1 is not cross-validation: give 2 or more folds, or 0 for none"
            in capsys.readouterr().err)
    if command != "report":
        assert main([command, "--dataset", "heart", "--nystroem", "0"]) == 2
        assert ("argument --nystroem: expected the number of landmarks, 1 or more; got 0"
                in capsys.readouterr().err)


@pytest.mark.parametrize("command, flag, value, said", [
    ("fit", "--seed", "4294967296", "expected a whole number from 0 to 4294967295; got "
                                    "4294967296"),
    ("compare", "--n-jobs", "0", "expected a positive number of threads, or -1 for all cores "
                                 "(-2 all but one); got 0"),
    ("check", "--probes", "-2", "expected a number >= 0; got -2"),
    ("fit", "--restarts", "two", "expected a whole number; got 'two'"),
])
def test_every_whole_number_option_is_read_by_one_parser(command, flag, value, said, capsys):
    """_options.whole: the type of every option that takes a whole number, its bounds and
    the values it refuses said as the option's."""
    from indefsvm.cli import main

    assert main([command, "--dataset", "heart", flag, value]) == 2
    assert f"argument {flag}: {said}" in capsys.readouterr().err
