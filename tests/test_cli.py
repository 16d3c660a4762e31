"""The ``indefsvm`` command line."""

import json
import subprocess
import sys

import numpy as np
import pytest

import indefsvm as isvm
import indefsvm.datasets as ds
from indefsvm.cli import main


def test_fit_bundled_dataset_prints_the_solution(capsys):
    code = main(["fit", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01",
                 "--coef0", "-0.5", "-C", "10"])
    out = capsys.readouterr().out
    assert code == 0
    for word in ("iterations", "objective F(a)", "KKT gap m - M", "#SV / #bounded SV",
                 "training accuracy", "5-fold CV accuracy", "converged"):
        assert word in out


def test_fit_libsvm_file_json(capsys):
    code = main(["fit", ds.data_path("sonar_scale"), "--kernel", "rbf", "--gamma", "auto",
                 "--cv", "3", "--json"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["n_samples"] == 208 and summary["n_features"] == 60
    assert summary["problems"][0]["status"] == "converged"
    assert 0.5 < summary["cv_accuracy_mean"] <= 1.0
    assert summary["kernel_params"]["gamma"] == 1 / 60


def test_fit_reports_convergence_warning(capsys):
    main(["fit", "--dataset", "heart", "--max-iter", "2", "--cv", "0"])
    out = capsys.readouterr().out
    assert "max_iter reached" in out and "warning: Solver terminated early (max_iter=2)" in out


def test_missing_file_is_an_error(capsys):
    assert main(["fit", "/nonexistent/file"]) == 1
    assert "no such data file" in capsys.readouterr().err


def test_python_dash_m(tmp_path):
    # cwd away from the repository, so that the child imports the installed package
    out = subprocess.run([sys.executable, "-m", "indefsvm", "fit", "--dataset", "sonar",
                          "--cv", "0"], capture_output=True, text=True, check=True,
                         cwd=tmp_path).stdout
    assert "objective F(a)" in out


def test_check_bundled_dataset(capsys):
    code = main(["check", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "auto",
                 "--coef0", "0"])
    out = capsys.readouterr().out
    assert code == 0
    assert "signature (p, q, z)" in out and "indefinite" in out and "eta" in out


def test_check_precomputed_npy_with_labels_json(tmp_path, capsys):
    import numpy as np

    X, y = ds.load_sonar(return_X_y=True)
    K = -(X @ X.T)  # negated linear kernel: unsuitable whatever the data
    np.save(tmp_path / "K.npy", K)
    np.savetxt(tmp_path / "y.txt", y)
    code = main(["check", str(tmp_path / "K.npy"), "--labels", str(tmp_path / "y.txt"),
                 "--json"])
    rep = json.loads(capsys.readouterr().out)
    assert code == 0 and rep["negated_cpd"] is True
    assert rep["verdict"] == "unsuitable as it stands: use a remedy"


def test_check_rejects_bad_matrix(tmp_path, capsys):
    import numpy as np

    np.save(tmp_path / "K.npy", np.array([[1.0, 2.0], [0.0, 1.0]]))
    assert main(["check", str(tmp_path / "K.npy")]) == 1
    assert "not symmetric" in capsys.readouterr().err


def test_check_does_not_take_a_label_column_for_a_feature(tmp_path, capsys):
    # check s.csv (no header, the label first) put the label into the kernel in silence
    # (gamma 1/(129 var) over all 129 columns) where fit refuses the file naming
    # --label-column: check says the same, and takes --label-column none for features only
    import numpy as np

    rng = np.random.default_rng(0)
    path = tmp_path / "s.csv"
    path.write_text("".join(f"{k % 2}," + ",".join(f"{v:.4f}" for v in rng.normal(k % 2, 1, 8))
                            + "\n" for k in range(40)))
    assert main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "its first column holds only the whole numbers 0, 1 -- its labels? Give " \
        "--label-column 0" in err and err.count("\n") == 1
    assert main(["check", str(path), "--label-column", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n"] == 40 and out["class_mean_sqdist"] is not None
    assert main(["check", str(path), "--label-column", "none"]) == 0
    assert "Kernel check" in capsys.readouterr().out
    assert main(["fit", str(path), "--label-column", "none", "--cv", "0"]) == 1
    assert "--label-column none reads no labels, and training needs them" in \
        capsys.readouterr().err


def test_check_multiclass_file_reports_every_pair_of_classes(tmp_path, capsys):
    # as check_kernel(K, y) does in Python (the command line used to leave them out)
    from sklearn.datasets import dump_svmlight_file, load_iris

    X, y = load_iris(return_X_y=True)
    dump_svmlight_file(X, y, str(tmp_path / "iris.libsvm"), zero_based=False)
    assert main(["check", str(tmp_path / "iris.libsvm"), "--kernel", "rbf"]) == 0
    captured = capsys.readouterr()
    assert "Kernel check" in captured.out and "left out" not in captured.err
    for a, b in ((0, 1), (0, 2), (1, 2)):
        assert f"classes {a} vs {b}: c'Kc" in captured.out


def test_fit_says_a_counter_intuitive_two_class_model(capsys):
    # fit trained a w'Mw < 0 model without a word where check had said "keep C <= 1"
    import indefsvm as isvm

    argv = ["fit", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.5", "--coef0",
            "1", "-C", "10", "--cv", "0"]
    X, y = ds.load_heart(return_X_y=True)
    svm = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.5, coef0=1.0, C=10).fit(X, y)
    assert isvm.sanity_report(svm, X, y).wMw < 0  # the case this test is about
    assert main(argv) == 0
    err = capsys.readouterr().err
    assert "indefsvm: warning: w'Mw <= 0" in err and "--remedy flip" in err
    # a sensible one says nothing of it
    assert main(["fit", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01",
                 "--coef0", "-0.5", "-C", "10", "--cv", "0"]) == 0
    assert "w'Mw <= 0" not in capsys.readouterr().err


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


def test_a_command_imports_its_own_module_only(tmp_path):
    """The registry of commands (cli/_parser.COMMANDS): --help and --version import no
    command's module and no numpy; a command imports its own module, not the others'."""
    import subprocess
    import sys

    from indefsvm.cli._parser import COMMANDS

    rooms = {name: f"indefsvm.cli.{entry.module}" for name, entry in COMMANDS.items()}
    code = ("import sys, json\nfrom indefsvm.cli import main\n"
            "argv = json.loads(sys.argv[1])\n"
            "assert main(argv) == 0\n"
            "print('MODULES', json.dumps(sorted(m for m in sys.modules)))\n")
    import json

    def modules(argv):
        out = subprocess.run([sys.executable, "-c", code, json.dumps(argv)],
                             capture_output=True, text=True, cwd=tmp_path, check=True).stdout
        return set(json.loads(out.split("MODULES ", 1)[1]))

    for argv in (["--help"], ["--version"]):
        seen = modules(argv)
        assert not seen & set(rooms.values()) and "numpy" not in seen, argv
    for name, room in rooms.items():
        seen = modules([name, "--help"])
        assert room in seen and not seen & (set(rooms.values()) - {room}), name



def test_cli_report_states_training_and_cv_accuracy(tmp_path, capsys):
    from indefsvm.cli import main

    assert main(["report", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01",
                 "--coef0", "-0.5", "--cv", "3", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "training accuracy" in out and "3-fold CV accuracy" in out
    (page,) = tmp_path.glob("*.html")
    assert "3-fold CV accuracy" in page.read_text()


@pytest.mark.parametrize("extra", [[], ["--nystroem", "40"]])
def test_fit_prints_and_saves_before_cross_validating(tmp_path, monkeypatch, capsys, extra):
    import skops.io as sio

    import indefsvm.cli._models as models_module
    from indefsvm.cli import TRUSTED_TYPES

    m = tmp_path / "m.skops"
    seen = {}

    def interrupted_cv(args, X, y, precomputed, *rest, **kwargs):
        # what a user sees when the folds begin: the result, and the model on disk
        seen["out"] = capsys.readouterr().out
        seen["saved"] = m.exists()
        raise KeyboardInterrupt

    monkeypatch.setattr(models_module, "_cross_validate", interrupted_cv)
    assert main(["fit", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01",
                 "--coef0", "-0.5", "--save", str(m), *extra]) == 130
    assert seen["saved"]
    assert "training accuracy" in seen["out"] and f"model saved to {m}" in seen["out"]
    model = sio.load(m, trusted=[t for t in sio.get_untrusted_types(file=m)
                                 if t in TRUSTED_TYPES])
    X, y = isvm.datasets.load_heart(return_X_y=True)
    assert model.score(X, y) > 0.8


def test_cross_validation_logs_each_fold_without_a_terminal(capsys):
    assert main(["fit", "--dataset", "heart", "--cv", "3"]) == 0
    captured = capsys.readouterr()
    for k in (1, 2, 3):
        assert f"indefsvm: fold {k} of 3: accuracy " in captured.err
    out = captured.out.splitlines()
    # the CV line comes after the result it cross-validates
    assert [i for i, line in enumerate(out) if line.startswith("training accuracy")][0] < [
        i for i, line in enumerate(out) if line.startswith("3-fold CV accuracy")][0]


def test_every_output_is_checked_before_the_work_against_every_input(tmp_path, capsys):
    """The registry's outputs (cli/_parser.check_outputs): fit --save, predict --out,
    compare --save / --out and report --out are refused before anything is read when they
    name a file the command reads, or a folder that does not exist."""
    import numpy as np

    from indefsvm.cli import main

    rng = np.random.default_rng(0)
    data = tmp_path / "d.csv"
    np.savetxt(data, np.c_[rng.normal(size=(20, 2)), np.arange(20) % 2], delimiter=",",
               fmt="%g", header="a,b,label", comments="")
    model = tmp_path / "m.skops"
    assert main(["fit", str(data), "-C", "1", "--gamma", "1", "--cv", "0", "--quiet",
                 "--save", str(model)]) == 0
    missing = tmp_path / "no" / "such" / "out.html"
    cases = [
        (["fit", str(data), "--save", str(data)], "--save", "is the input file"),
        (["predict", str(model), str(data), "--out", str(model)], "--out", "is the input"),
        (["compare", str(data), "--search", "--save", str(data)], "--save", "is the input"),
        (["compare", str(data), "--out", str(missing)], "--out", "does not exist"),
        (["report", str(data), "--out", str(missing)], "--out", "does not exist"),
    ]
    for argv, option, said in cases:
        capsys.readouterr()
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.startswith(f"indefsvm: error: {option} ") and said in err, (argv, err)
    # predict --out -: standard output, as without --out
    assert main(["predict", str(model), str(data), "--out", "-"]) == 0
