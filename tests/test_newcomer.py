"""What a newcomer trips on (issue 26): each test failed on the main of its day."""

import os

import numpy as np
import pytest

import indefsvm as isvm


def test_lsvm_on_a_psd_kernel_with_clustered_eigenvalues_falls_back():
    # ARPACK did not converge on Q^{-1} (the rbf kernel's eigenvalues cluster at 0) and its
    # ArpackNoConvergence escaped from fit
    from sklearn.datasets import make_moons
    from sklearn.preprocessing import StandardScaler

    X, y = make_moons(600, noise=0.1, random_state=0)
    X = StandardScaler().fit_transform(X)
    clf = isvm.IndefiniteSVC(kernel="rbf", gamma=2, C=10, solver="lsvm").fit(X, y)
    assert clf.converged_
    assert clf.score(X, y) > 0.95


def test_smallest_eigenvalue_fallbacks_agree_with_dense(monkeypatch):
    import scipy.linalg as sla
    from scipy.sparse.linalg import ArpackNoConvergence

    from indefsvm.solvers import _nqp

    rng = np.random.default_rng(0)
    B = rng.normal(size=(120, 120))
    Q = B @ B.T / 120 + np.eye(120)
    L = np.ascontiguousarray(sla.cholesky(Q, lower=False))
    want = np.linalg.eigvalsh(Q)[0]
    assert _nqp._smallest_eigenvalue(L) == pytest.approx(want, rel=1e-6)

    def fail(*a, **k):
        raise ArpackNoConvergence("no", np.array([]), np.array([]))

    monkeypatch.setattr(_nqp, "_DENSE_FIRST", 10)  # Lanczos first, as for large n
    assert _nqp._smallest_eigenvalue(L) == pytest.approx(want, rel=1e-6)
    monkeypatch.setattr(_nqp, "eigsh", fail)
    assert _nqp._smallest_eigenvalue(L) == pytest.approx(want, rel=1e-10)  # dense
    monkeypatch.setattr(_nqp, "_DENSE_FALLBACK", 10)
    # Gershgorin: a lower bound, positive here (diagonally dominant Q)
    D = np.diag(np.full(120, 10.0)) + 0.01 * (B + B.T) / 2
    LD = np.ascontiguousarray(sla.cholesky(D, lower=False))
    g = _nqp._smallest_eigenvalue(LD)
    assert 0 < g <= np.linalg.eigvalsh(D)[0]
    with pytest.raises(ValueError, match="solver='smo'"):
        _nqp._smallest_eigenvalue(L)


@pytest.mark.parametrize("kernel", ["sigmoid", "rbf", "polynomial", "l1_gaussian"])
def test_check_kernel_uses_the_estimators_defaults(kernel):
    # check_kernel(X=..., kernel="sigmoid") checked tanh(x'z / d + 1) while IndefiniteSVC
    # trained tanh(gamma_scale x'z + 0): the same data gave two different c'Kc
    X, y = isvm.datasets.load_heart(return_X_y=True)
    rep = isvm.check_kernel(X=X, y=y, kernel=kernel, wmw_C=None)
    clf = isvm.IndefiniteSVC(kernel=kernel).fit(X, y)
    fitted = clf._kernel_params_fitted
    assert {k: v for k, v in rep.kernel.items() if k != "kernel"} == fitted
    K = isvm.kernel_matrix(X, kernel=kernel, **fitted)
    assert rep.class_mean_sqdist == pytest.approx(
        isvm.diagnostics.class_mean_sqdist(K, y), rel=1e-12)
    # the report says which parameters it used
    assert all(k in str(rep).splitlines()[0] for k in fitted)


def test_check_kernel_matrix_free_uses_the_same_defaults():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    dense = isvm.check_kernel(X=X, y=y, kernel="sigmoid", wmw_C=None)
    free = isvm.check_kernel(X=X, y=y, kernel="sigmoid", method="slq", random_state=0)
    assert free.kernel == dense.kernel
    assert free.class_mean_sqdist == pytest.approx(dense.class_mean_sqdist, rel=1e-10)


def test_cli_check_shows_class_pairs_with_integer_labels(tmp_path, capsys):
    # the command line dropped multi-class labels ("left out") where Python reports every
    # pair, and printed labels 0, 1, 2 as 0.0, 1.0, 2.0
    import json

    from indefsvm.cli import main

    rng = np.random.default_rng(0)
    X = rng.normal(size=(45, 3))
    y = np.repeat([0, 1, 2], 15)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.5, coef0=-1.0)
    np.save(tmp_path / "K.npy", K)
    np.savetxt(tmp_path / "y.txt", y, fmt="%d")
    assert main(["check", str(tmp_path / "K.npy"), "--labels", str(tmp_path / "y.txt"),
                 "--json"]) == 0
    captured = capsys.readouterr()
    d = json.loads(captured.out)
    assert "left out" not in captured.err
    assert [p["classes"] for p in d["pairs"]] == [["0", "1"], ["0", "2"], ["1", "2"]]
    ref = isvm.check_kernel(K, y)
    assert [p["class_mean_sqdist"] for p in d["pairs"]] == pytest.approx(
        [p["class_mean_sqdist"] for p in ref.pairs])
    assert main(["check", str(tmp_path / "K.npy"), "--labels", str(tmp_path / "y.txt")]) == 0
    assert "classes 0 vs 1" in capsys.readouterr().out
    assert main(["fit", str(tmp_path / "K.npy"), "--labels", str(tmp_path / "y.txt"),
                 "--cv", "0", "--json"]) == 0
    fit = json.loads(capsys.readouterr().out)
    assert fit["problems"][0]["pair"] == ["0", "1"]
    # LIBSVM labels (+1 / -1, read as floats) print as integers too
    assert main(["fit", "--dataset", "heart", "--cv", "0"]) == 0
    assert "pair        -1 vs 1" in capsys.readouterr().out


def test_package_docstring_names_every_public_name():
    import re

    doc = isvm.__doc__
    listed = set(re.findall(r"^([A-Za-z_][\w, ]*)$", doc, flags=re.M))
    names = {n.strip() for line in listed for n in line.split(",")}
    assert set(isvm.__all__) <= names, set(isvm.__all__) - names


def test_version_and_help_import_neither_sklearn_nor_scipy(tmp_path):
    import subprocess
    import sys

    code = ("import sys\nfrom indefsvm.cli import main\n"
            "for argv in (['--version'], ['--help'], ['fit', '--help']):\n"
            "    assert main(argv) == 0\n"
            "heavy = sorted(m for m in ('sklearn', 'scipy') if m in sys.modules)\n"
            "print('HEAVY', heavy)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, check=True).stdout
    assert "HEAVY []" in out
    assert "indefsvm 0.1.0" in out and "--distances" in out


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


def test_files_written_honour_the_umask(tmp_path):
    import os

    from indefsvm.cli import main

    old = os.umask(0o022)
    try:
        assert main(["fit", "--dataset", "heart", "--cv", "0", "--quiet", "--save",
                     str(tmp_path / "m.skops")]) == 0
    finally:
        os.umask(old)
    assert (tmp_path / "m.skops").stat().st_mode & 0o777 == 0o644


def test_ctrl_c_while_the_command_line_loads(monkeypatch, capsys):
    import builtins

    from indefsvm import _entry

    real = builtins.__import__

    def interrupted(name, *args, **kwargs):
        if name == "cli" or name.endswith(".cli"):
            raise KeyboardInterrupt
        return real(name, *args, **kwargs)

    exits = []
    # the real one ends the process (os._exit) -- here, pytest's
    monkeypatch.setattr(_entry, "_exit_now", exits.append)
    import signal

    before = signal.getsignal(signal.SIGINT)
    monkeypatch.setattr(builtins, "__import__", interrupted)
    assert _entry.main() == 130
    assert exits == [130]
    assert capsys.readouterr().err == "indefsvm: interrupted\n"
    # the command's own Ctrl-C handler does not outlive it in the caller's process: left
    # there, a later Ctrl-C test of the suite counted as a second one and ended pytest (130)
    assert signal.getsignal(signal.SIGINT) is before


def test_cli_name_lists_match_the_library():
    from indefsvm import cli
    from indefsvm.datasets import DATASETS
    from indefsvm.kernels import KERNELS

    assert set(cli.DATASET_NAMES) == set(DATASETS)
    assert set(cli.KERNEL_NAMES) == set(KERNELS)


@pytest.mark.parametrize("make", [
    lambda: isvm.IndefiniteSVC(max_iter=2),
    lambda: isvm.IndefiniteSVR(max_iter=2),
    lambda: isvm.KernelLogisticRegression(max_iter=1),
    lambda: isvm.IndefiniteSVC(solver="munk", kernel="rbf", max_iter=2),
])
def test_warnings_point_at_the_callers_line(make):
    # the ConvergenceWarning named _interrupt.py (the fit wrapper), not the user's line
    import warnings

    X, y = isvm.datasets.load_heart(return_X_y=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make().fit(X, y)
    conv = [w for w in caught if issubclass(w.category, isvm.ConvergenceWarning)]
    assert conv
    assert all(w.filename == __file__ for w in conv), [w.filename for w in conv]


def test_probability_true_says_where_probabilities_live():
    with pytest.raises(TypeError, match=r"CalibratedClassifierCV\(IndefiniteSVC\(\.\.\.\), "
                                        "ensemble=False"):
        isvm.IndefiniteSVC(probability=True)
    with pytest.raises(TypeError, match=r"CalibratedClassifierCV\(IndefiniteNuSVC"):
        isvm.IndefiniteNuSVC(probability=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'gama'"):
        isvm.IndefiniteSVC(gama=1.0)
    # get_params / clone are unchanged
    import inspect

    from sklearn.base import clone

    clf = isvm.IndefiniteSVC(C=3.0)
    assert clone(clf).C == 3.0
    assert list(inspect.signature(isvm.IndefiniteSVC).parameters)[:2] == ["kernel", "C"]


def _indefinite_kernel():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    return isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5), y


def _same_report(rep, ref):
    """The same report, its float figures to 1e-9 (a pipeline's report sees transform(K),
    equal to fit_transform(K) to rounding: which BLAS path runs depends on the threads)."""
    got, want = rep.to_dict(), ref.to_dict()
    assert got.keys() == want.keys()
    for key, value in want.items():
        if isinstance(value, float):
            assert got[key] == pytest.approx(value, rel=1e-9, abs=1e-12), key
        else:
            assert got[key] == value, key


@pytest.mark.parametrize("fix", ["clip", "flip", "shift", "square"])
def test_sanity_report_of_a_remedy_pipeline(fix):
    # sanity_report refused the pipelines the library recommends
    from sklearn.pipeline import make_pipeline

    from indefsvm.remedies import (
        ClipEigenvalues,
        FlipEigenvalues,
        ShiftEigenvalues,
        SquareKernel,
    )

    K, y = _indefinite_kernel()
    step = {"clip": ClipEigenvalues, "flip": FlipEigenvalues, "shift": ShiftEigenvalues,
            "square": SquareKernel}[fix]()
    pipe = make_pipeline(step, isvm.IndefiniteSVC(kernel="precomputed", C=10)).fit(K, y)
    rep = isvm.sanity_report(pipe, K, y)
    # the same as the report of the SVM on the kernel it was trained on
    Kt = type(step)().fit_transform(K)
    ref = isvm.sanity_report(pipe[-1], Kt, y)
    _same_report(rep, ref)
    assert rep.is_stationary


def test_sanity_report_of_a_distance_pipeline_and_of_krein_svc():
    from sklearn.pipeline import make_pipeline

    X, y = isvm.datasets.make_cbf(45, length=40, random_state=0)
    D = isvm.pairwise_distances(X, metric="dtw")
    pipe = make_pipeline(isvm.DistanceKernel(), isvm.IndefiniteSVC(kernel="precomputed"))
    rep = isvm.sanity_report(pipe.fit(D, y), D, y)
    assert type(rep).__name__ == "PairwiseSanityReport"
    K, yb = _indefinite_kernel()
    krein = isvm.KreinSVC(kernel="precomputed", C=10).fit(K, yb)
    rk = isvm.sanity_report(krein, K, yb)
    Kf = isvm.remedies.FlipEigenvalues().fit_transform(K)
    _same_report(rk, isvm.sanity_report(krein.svc_, Kf, yb))
    assert rk.wMw > 0  # the flipped kernel is PSD: w'Mw = w'w > 0


def test_plot_spectrum_takes_a_matrix_and_plot_pe_geometry_says_what_it_needs():
    import warnings

    import matplotlib

    matplotlib.use("Agg")
    from indefsvm.plotting import plot_pe_geometry, plot_spectrum

    K, y = _indefinite_kernel()
    fig = plot_spectrum(K[:60, :60])
    assert "signature" in fig.axes[0].get_title()
    fig = plot_spectrum(isvm.diagnostics.spectrum(K[:60, :60]))
    assert "signature" in fig.axes[0].get_title()
    X3 = np.random.default_rng(0).normal(size=(10, 3))
    ch = isvm.ConvexHullClassifier(kernel="pseudo_euclidean", kernel_params={"p": 2})
    yy = np.where(X3[:, 0] > 0, 1, -1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # w'Mw of random points, not the point
        ch.fit(X3, yy)
    with pytest.raises(ValueError, match=r"Z must have shape \(n, 2\)"):
        plot_pe_geometry(ch, X3, yy)


def test_compare_is_readable(capsys):
    # "fold spread" unexplained, k-NN with a "#SV", one-class methods unflagged
    # the identity kernel: every test row is 0, so an SVM's decision is its bias alone and
    # it predicts one class on every fold
    K = np.eye(60)
    y = np.r_[np.ones(40), -np.ones(20)]
    cmp = isvm.compare_remedies(K, y, cv=3, random_state=0)
    text = str(cmp)
    knn = next(line for line in text.splitlines() if line.startswith("k-NN"))
    assert "#SV" not in knn and " k " in knn
    assert "indefinite SVM" in cmp.one_class
    assert "FAILED: one class" in text and any("one class predicted" in n for n in cmp.notes)
    assert cmp.to_dict()["one_class"] == cmp.one_class
    # the rule says what it is and in which unit
    from indefsvm.remedies._compare import _recommend

    errors = {"indefinite SVM": np.array([0.2, 0.3, 0.1]),
              "flip": np.array([0.21, 0.28, 0.12])}
    rec = _recommend(errors, "one-se")
    assert "standard error of the paired per-fold differences" in rec and "points" in rec
    assert "keep the indefinite" in rec
    rec = _recommend(errors)  # the default: the lowest mean error
    assert "the lowest mean error" in rec and "points" in rec


def test_compare_remedies_logs_each_fold(caplog):
    import logging

    K, y = _indefinite_kernel()
    with caplog.at_level(logging.INFO, logger="indefsvm"):
        isvm.compare_remedies(K[:90, :90], y[:90], cv=3, random_state=0, methods=["flip"],
                              verbose=True)
    folds = [r for r in caplog.records if r.getMessage().startswith("compare_remedies: fold")]
    assert [r.args[0] for r in folds] == [1, 2, 3]


def test_plot_remedies_axes_start_at_zero_and_keep_the_top_eigenvalue():
    import matplotlib

    matplotlib.use("Agg")
    from indefsvm.plotting import plot_remedies

    K, y = _indefinite_kernel()
    K, y = K[:90, :90], y[:90]
    cmp = isvm.compare_remedies(K, y, cv=3, random_state=0, methods=["square", "flip"])
    fig = plot_remedies(cmp, K)
    ax1, ax2 = fig.axes
    assert ax2.get_xlim()[0] == 0
    top = max(np.max(np.asarray(line.get_ydata())) for line in ax1.get_lines())
    assert ax1.get_ylim()[1] > top


def test_cli_report_states_training_and_cv_accuracy(tmp_path, capsys):
    from indefsvm.cli import main

    assert main(["report", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01",
                 "--coef0", "-0.5", "--cv", "3", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "training accuracy" in out and "3-fold CV accuracy" in out
    (page,) = tmp_path.glob("*.html")
    assert "3-fold CV accuracy" in page.read_text()


def _heart_files(tmp_path):
    X, y = isvm.datasets.load_heart(return_X_y=True)
    with open(tmp_path / "heart.csv", "w") as fh:
        fh.write(",".join([f"f{i}" for i in range(13)] + ["label"]) + "\n")
        for row, label in zip(X, y, strict=True):
            fh.write(",".join(f"{v:.17g}" for v in row) + f",{int(label)}\n")
    with open(tmp_path / "heart.tsv", "w") as fh:
        for row, label in zip(X, y, strict=True):
            fh.write(f"{int(label)}\t" + "\t".join(f"{v:.17g}" for v in row) + "\n")
    K = isvm.kernel_matrix(X, kernel="rbf", gamma=0.1)
    np.savetxt(tmp_path / "K.csv", K, delimiter=",")
    np.savetxt(tmp_path / "y.txt", y, fmt="%d")
    return X, y, K


def test_cli_reads_csv_and_tsv_features_and_csv_kernels(tmp_path, capsys):
    # "label 'f0,f1,...' is not a number": CSV files went to the LIBSVM reader
    import json

    from indefsvm.cli import main

    X, y, K = _heart_files(tmp_path)
    want = isvm.IndefiniteSVC().fit(X, y).score(X, y)
    for argv in ([str(tmp_path / "heart.csv")],
                 [str(tmp_path / "heart.tsv"), "--label-column", "0"],
                 [str(tmp_path / "heart.csv"), "--label-column", "label"],
                 [str(tmp_path / "heart.csv"), "--label-column", "-1"]):
        assert main(["fit", *argv, "--cv", "0", "--no-search", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["n_features"] == 13 and out["training_accuracy"] == pytest.approx(want)
    assert main(["fit", str(tmp_path / "K.csv"), "--labels", str(tmp_path / "y.txt"),
                 "--no-search", "--cv", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ref = isvm.IndefiniteSVC(kernel="precomputed").fit(K, y)
    assert out["training_accuracy"] == pytest.approx(ref.score(K, y))
    # predict on CSV features, with the label column for the accuracy
    assert main(["fit", str(tmp_path / "heart.csv"), "--cv", "0", "--no-search", "--quiet",
                 "--save", str(tmp_path / "m.skops")]) == 0
    assert main(["predict", str(tmp_path / "m.skops"), str(tmp_path / "heart.tsv"),
                 "--label-column", "0"]) == 0
    assert f"{100 * want:.2f} %" in capsys.readouterr().err


@pytest.mark.parametrize("argv, code, match", [
    (["fit", "{d}/heart.tsv", "--cv", "0"], 1, "give --label-column INDEX"),
    (["fit", "{d}/heart.csv", "--label-column", "age", "--cv", "0"], 1, "has no column 'age'"),
    (["fit", "{d}/heart.csv", "--label-column", "20", "--cv", "0"], 1, "not one of them"),
    (["fit", "{d}/K.csv", "--labels", "{d}/y.txt", "--gamma", "0.5"], 2,
     "--gamma does not apply to"),
    (["check", "{d}/K.csv", "--labels", "{d}/y.txt", "--kernel", "sigmoid", "--coef0", "1"], 2,
     "--kernel --coef0 do not apply to"),
])
def test_cli_table_errors_and_options_that_do_not_apply(tmp_path, capsys, argv, code, match):
    from indefsvm.cli import main

    _heart_files(tmp_path)
    assert main([a.format(d=tmp_path) for a in argv]) == code
    err = capsys.readouterr().err
    assert err.startswith("indefsvm: error:") and match in err


def test_cli_warns_about_options_the_kernel_does_not_take(capsys):
    from indefsvm.cli import main

    assert main(["fit", "--dataset", "heart", "--kernel", "rbf", "--coef0", "1",
                 "--cv", "0"]) == 0
    assert "--coef0 does not apply to --kernel rbf" in capsys.readouterr().err


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


def test_every_result_has_its_three_views():
    # the house's results: __str__ for people, to_dict() for machines (JSON), _repr_html_
    # for notebooks. Spectrum, Signature, CPDResult, EtaScan, SigmoidRegion and SolverResult
    # had no _repr_html_: a notebook showed their repr, a dataclass's fields and arrays
    import html
    import json

    from indefsvm import diagnostics as dg
    from indefsvm import solvers

    rng = np.random.default_rng(12)
    X = rng.normal(size=(20, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    K = np.tanh(X @ X.T / 3 - 0.5)
    results = [dg.spectrum(K), dg.signature(K), dg.cpd_test(K), dg.eta_scan(K, y),
               dg.sigmoid_region(X, 0.3, -0.5, y), solvers.smo(K, y.astype(float)),
               isvm.check_kernel(K, y),
               isvm.sanity_report(isvm.IndefiniteSVC(kernel="precomputed").fit(K, y), K, y)]
    for res in results:
        text = str(res)
        assert text and not text.startswith(type(res).__name__ + "("), type(res).__name__
        json.dumps(res.to_dict(), allow_nan=False)
        page = res._repr_html_()
        # the text's first line, escaped, is in the notebook's view
        first = text.splitlines()[0].split(":")[0]
        assert html.escape(first) in page, (type(res).__name__, first, page[:200])
