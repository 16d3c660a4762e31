"""The command line with --distances: fit, save, predict, check, compare, report."""

import json

import numpy as np
import pytest

import indefsvm as isvm
from helpers import two_class_series
from indefsvm.cli import main


@pytest.fixture
def files(tmp_path):
    X, y = two_class_series(60, jitter=0.0, noise=0.2)
    D = isvm.pairwise_distances(X, metric="dtw", window=0.2)
    np.save(tmp_path / "D_train.npy", D[:45, :45])
    np.savetxt(tmp_path / "y_train.txt", y[:45], fmt="%d")
    np.save(tmp_path / "D_test.npy", D[45:, :45])
    np.savetxt(tmp_path / "y_test.txt", y[45:], fmt="%d")
    return tmp_path, D, y


def test_fit_save_predict_round_trip_equals_the_python_pipeline(files, capsys):
    path, D, y = files
    model = path / "m.skops"
    assert main(["fit", str(path / "D_train.npy"), "--labels", str(path / "y_train.txt"),
                 "--distances", "-C", "10", "--cv", "3", "--save", str(model), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    iu = np.triu_indices(45, 1)
    assert summary["kernel"] == "distances (rbf)"
    assert summary["kernel_params"]["gamma"] == pytest.approx(
        1 / np.median(D[:45, :45][iu] ** 2))
    out = path / "pred.txt"
    assert main(["predict", str(model), str(path / "D_test.npy"), "--labels",
                 str(path / "y_test.txt"), "--out", str(out)]) == 0
    pred = np.loadtxt(out)
    from sklearn.pipeline import make_pipeline

    ref = make_pipeline(isvm.DistanceKernel(), isvm.IndefiniteSVC(kernel="precomputed", C=10))
    ref.fit(D[:45, :45], y[:45].astype(float))
    np.testing.assert_array_equal(pred, ref.predict(D[45:, :45]))
    assert "accuracy" in capsys.readouterr().err
    # --distances on predict is accepted for such a model
    assert main(["predict", str(model), str(path / "D_test.npy"), "--distances"]) == 0


def test_predict_distance_rows_of_the_wrong_width(files, capsys):
    path, D, _ = files
    model = path / "m.skops"
    main(["fit", str(path / "D_train.npy"), "--labels", str(path / "y_train.txt"),
          "--distances", "--cv", "0", "--save", str(model), "--quiet"])
    np.save(path / "bad.npy", D[45:, :40])
    capsys.readouterr()
    assert main(["predict", str(model), str(path / "bad.npy")]) == 1
    err = capsys.readouterr().err
    assert "need 45 columns" in err and "distances" in err


def test_predict_distances_flag_with_a_kernel_model(files, capsys):
    path, D, y = files
    K = isvm.DistanceKernel().fit_transform(D[:45, :45])
    np.save(path / "K.npy", K)
    main(["fit", str(path / "K.npy"), "--labels", str(path / "y_train.txt"), "--cv", "0",
          "--save", str(path / "k.skops"), "--quiet"])
    capsys.readouterr()
    assert main(["predict", str(path / "k.skops"), str(path / "D_test.npy"),
                 "--distances"]) == 2
    assert "was not trained on distances" in capsys.readouterr().err


def test_fit_laplacian_with_a_gamma(files, capsys):
    path, _, _ = files
    assert main(["fit", str(path / "D_train.npy"), "--labels", str(path / "y_train.txt"),
                 "--distances", "--kernel", "laplacian", "--gamma", "0.5", "--cv", "0"]) == 0
    assert "DistanceKernel(kind=laplacian, gamma=0.5)" in capsys.readouterr().out


def test_check_distances_text_and_json(files, capsys):
    path, D, y = files
    assert main(["check", str(path / "D_train.npy"), "--distances", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    rep = isvm.diagnostics.check_distances(D[:45, :45])
    assert d["euclidean"] == rep.euclidean
    assert d["triangle_violations"] == rep.triangle_violations
    assert d["negative_mass"] == pytest.approx(rep.negative_mass)
    assert main(["check", "--dataset", "protein213", "--distances"]) == 0
    out = capsys.readouterr().out
    assert "Distance check" in out and "classes 1 vs 2" in out


def _without_times(d):
    # the fit command names the file it was given: the same comparison, another command
    return {k: v for k, v in d.items() if k not in ("fit_seconds", "fit_command")}


def test_compare_with_distances_and_the_old_knn_form(files, capsys):
    path, D, _ = files
    args = [str(path / "D_train.npy"), "--labels", str(path / "y_train.txt"), "--cv", "3"]
    assert main(["compare", *args, "--distances", "--json"]) == 0
    new = _without_times(json.loads(capsys.readouterr().out))
    # the old form: a kernel FILE and --distances FILE for the k-NN rule
    K = isvm.DistanceKernel().fit_transform(D[:45, :45])
    np.save(path / "K.npy", K)
    assert main(["compare", str(path / "K.npy"), "--labels", str(path / "y_train.txt"),
                 "--cv", "3", "--distances", str(path / "D_train.npy"), "--json"]) == 0
    captured = capsys.readouterr()
    assert "deprecated; use --knn-distances" in captured.err
    old = _without_times(json.loads(captured.out))
    assert new == old
    # --distances FILE with no other data file: FILE is the data
    assert main(["compare", "--distances", str(path / "D_train.npy"), "--labels",
                 str(path / "y_train.txt"), "--cv", "3", "--json"]) == 0
    assert _without_times(json.loads(capsys.readouterr().out)) == new


def test_report_with_distances_writes_the_distance_section(files, capsys):
    path, _, _ = files
    assert main(["report", str(path / "D_train.npy"), "--labels", str(path / "y_train.txt"),
                 "--distances", "--out", str(path / "rep")]) == 0
    out = capsys.readouterr().out
    assert out.index("Distance check") < out.index("Kernel check") < out.index("Sanity")
    (page,) = list((path / "rep").glob("*.html"))
    assert "distances-rbf" in page.name
    html = page.read_text()
    assert "The distances (before the kernel)" in html and "Gamma profile" in html


def test_a_distance_matrix_given_as_a_kernel_is_named(files, capsys):
    path, _, _ = files
    assert main(["fit", str(path / "D_train.npy"), "--labels", str(path / "y_train.txt"),
                 "--cv", "0"]) == 0
    err = capsys.readouterr().err
    assert "looks like a distance matrix" in err and "Add --distances" in err


@pytest.mark.parametrize("argv, match", [
    (["fit", "--dataset", "heart", "--distances"], "drop --distances"),
    (["fit", "--dataset", "protein213"], "add --distances"),
    (["fit", "--dataset", "heart", "--kernel", "laplacian"], "use it with --distances"),
    (["fit", "--dataset", "heart", "--gamma", "median"], "use it with --distances"),
    (["fit", "--dataset", "protein213", "--distances", "--kernel", "sigmoid"],
     "not a kernel of distances"),
    (["fit", "--dataset", "protein213", "--distances", "--gamma", "scale"], "for features"),
    (["fit", "--dataset", "protein213", "--distances", "--gamma", "-1"], "--gamma must be"),
    (["fit", "--dataset", "protein213", "--distances", "--kernel", "polynomial", "--degree",
      "0"], "--degree must be"),
])
def test_usage_errors(argv, match, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("indefsvm: error:") and match in err
    assert "Traceback" not in err


def test_asymmetric_or_negative_distance_files(tmp_path, capsys):
    D = np.array([[0.0, 1.0, 2.0], [1.5, 0.0, 1.0], [2.0, 1.0, 0.0]])
    np.save(tmp_path / "asym.npy", D)
    np.savetxt(tmp_path / "y.txt", [0, 1, 0], fmt="%d")
    assert main(["fit", str(tmp_path / "asym.npy"), "--labels", str(tmp_path / "y.txt"),
                 "--distances", "--cv", "0"]) == 1
    assert "not symmetric" in capsys.readouterr().err
    np.save(tmp_path / "neg.npy", -np.abs(D + D.T))
    assert main(["fit", str(tmp_path / "neg.npy"), "--labels", str(tmp_path / "y.txt"),
                 "--distances", "--cv", "0"]) == 1
    assert "Negative values" in capsys.readouterr().err


def test_compare_search_with_distances_equals_the_python_search(files, capsys):
    """compare --search --distances is RemedySearchCV(kernel=DistanceKernel()) on the file:
    the same choice and parameters; JSON and an HTML page."""
    path, D, y = files
    assert main(["compare", "--distances", str(path / "D_train.npy"), "--labels",
                 str(path / "y_train.txt"), "--cv", "3", "--search", "--C-grid", "1,10",
                 "--gamma-grid", "0.01,0.1", "--json", "--out", str(path / "page")]) == 0
    out = json.loads(capsys.readouterr().out)
    ref = isvm.RemedySearchCV(kernel=isvm.DistanceKernel(), cv=3, random_state=0,
                              param_grid={"C": [1.0, 10.0], "gamma": [0.01, 0.1]}
                              ).fit(D[:45, :45], y[:45])
    assert out["best_method"] == ref.best_method_
    assert out["best_params"] == {k: v for k, v in ref.best_params_.items() if k != "method"}
    assert out["rule"] == "best" and len(out["methods"]) == len(isvm.remedies.METHODS) == 11
    (page,) = list((path / "page").glob("indefsvm-search-*.html"))
    assert "remedies searched" in page.read_text()
    assert main(["compare", "--distances", str(path / "D_train.npy"), "--labels",
                 str(path / "y_train.txt"), "--cv", "3", "--search", "--C-grid", "1",
                 "--gamma-grid", "0.1", "--rule", "best"]) == 0
    assert "Chosen (best rule):" in capsys.readouterr().out


@pytest.mark.parametrize("extra, match", [
    (["--gamma-grid", "0.1"], "--gamma-grid belongs to --search"),
    (["--rule", "best"], "--rule belongs to --search"),
    (["--search", "--knn-distances", "D_train.npy"], "drop --knn-distances"),
])
def test_compare_search_usage_errors(files, capsys, extra, match):
    path, _, _ = files
    extra = [str(path / e) if e.endswith(".npy") else e for e in extra]
    K = path / "K.npy"
    np.save(K, np.eye(45))
    assert main(["compare", str(K), "--labels", str(path / "y_train.txt"), "--cv", "3",
                 *extra]) == 2
    err = capsys.readouterr().err
    assert err.startswith("indefsvm: error:") and match in err and "Traceback" not in err


def test_compare_search_gamma_grid_needs_a_kernel_with_gamma(files, capsys):
    # (features of a kernel with a gamma take it: tests/test_feature_kernel.py)
    assert main(["compare", "--dataset", "heart", "--kernel", "linear", "--search",
                 "--gamma-grid", "0.1"]) == 2
    assert "--kernel linear has no gamma: drop --gamma-grid" in capsys.readouterr().err
    assert main(["compare", "--dataset", "heart", "--search", "--gamma", "0.1",
                 "--gamma-grid", "0.1"]) == 2
    assert "give one of them" in capsys.readouterr().err


def test_tl1_kernel_on_the_command_line(files, capsys):
    """--kernel tl1 (features, --rho) and --distances --kernel tl1 (gamma by the median
    rule); --rho with distances is a usage error."""
    path, D, y = files
    assert main(["fit", "--dataset", "heart", "--kernel", "tl1", "--rho", "3", "--cv", "0",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["kernel_params"]["rho"] == 3.0
    assert main(["fit", str(path / "D_train.npy"), "--labels", str(path / "y_train.txt"),
                 "--distances", "--kernel", "tl1", "--cv", "0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    iu = np.triu_indices(45, 1)
    assert out["kernel_params"]["gamma"] == pytest.approx(1 / np.median(D[:45, :45][iu]))
    assert main(["fit", str(path / "D_train.npy"), "--labels", str(path / "y_train.txt"),
                 "--distances", "--kernel", "tl1", "--rho", "2"]) == 2
    assert "--rho is the radius" in capsys.readouterr().err


def _line_distances(n=8):
    return np.abs(np.subtract.outer(np.arange(float(n)), np.arange(float(n))))


def test_check_distances_of_identical_objects_from_the_command_line(tmp_path, capsys):
    f = tmp_path / "D.txt"
    np.savetxt(f, np.zeros((4, 4)))
    assert main(["check", str(f), "--distances"]) == 0
    assert "every distance between two objects is 0" in capsys.readouterr().out


@pytest.mark.parametrize("option", [["--method", "slq"], ["--probes", "8"], ["--steps", "20"],
                                    ["--gamma", "0.5"], ["--kernel", "laplacian"]])
def test_check_distances_refuses_options_it_would_ignore(tmp_path, capsys, option):
    f = tmp_path / "D.txt"
    np.savetxt(f, np.abs(np.subtract.outer(np.arange(5.0), np.arange(5.0))))
    assert main(["check", str(f), "--distances", *option]) == 2
    assert f"{option[0]} does not apply to 'check --distances'" in capsys.readouterr().err


def test_compare_help_shows_the_old_distances_form_with_its_file():
    from indefsvm.cli import build_parser

    text = build_parser()._subparsers._group_actions[0].choices["compare"].format_usage()
    assert "[--distances [FILE]]" in text and "[--distances ]" not in text


def test_a_huge_distance_file_is_an_error_not_a_model_at_chance(tmp_path, capsys):
    np.save(tmp_path / "D.npy", _line_distances(20) * 1e160)
    np.savetxt(tmp_path / "y.txt", (np.arange(20) > 9).astype(int), fmt="%d")
    assert main(["fit", str(tmp_path / "D.npy"), "--labels", str(tmp_path / "y.txt"),
                 "--distances", "--cv", "0"]) == 1
    assert "their squares overflow float64" in capsys.readouterr().err


def test_distances_that_are_not_symmetric_are_named_by_their_file(tmp_path, capsys):
    # the message named "X (training distances)", a Python name the user never wrote
    X, y = isvm.datasets.load_heart(return_X_y=True)
    D = isvm.pairwise_distances(X[:60])
    D[0, 1] += 0.5
    np.save(tmp_path / "A.npy", D)
    np.savetxt(tmp_path / "y.txt", y[:60], fmt="%d")
    files = [str(tmp_path / "A.npy"), "--labels", str(tmp_path / "y.txt"), "--distances"]
    for argv in (["fit", *files, "--cv", "0"], ["compare", *files, "--cv", "3"],
                 ["report", *files, "--cv", "0", "--out", str(tmp_path)]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert f"{tmp_path / 'A.npy'} is not symmetric: max |D - D.T| = 0.5" in err, argv
    # check reads them as they are and says what is wrong
    assert main(["check", *files, "--quiet"]) == 0
    assert "make D a distance first" in capsys.readouterr().out
    # negative entries: the advice in the options' words, not kernel='precomputed'
    D[0, 1] = D[1, 0] = -1.0
    np.save(tmp_path / "A.npy", D)
    assert main(["fit", *files, "--cv", "0"]) == 1
    err = capsys.readouterr().err
    assert "Then drop --distances" in err and "kernel='precomputed'" not in err
    np.save(tmp_path / "D.npy", isvm.pairwise_distances(X[:60]))
    model = str(tmp_path / "m.skops")
    assert main(["fit", str(tmp_path / "D.npy"), *files[1:], "--cv", "0", "-C", "1",
                 "--save", model, "--quiet"]) == 0
    np.save(tmp_path / "rows.npy", D[:5])
    capsys.readouterr()
    assert main(["predict", model, str(tmp_path / "rows.npy")]) == 1
    err = capsys.readouterr().err
    assert (f"rows.npy: the smallest is -1 at row 0, column 1; distances are >= 0. {model} "
            "was trained on distances") in err


def test_a_distance_file_named_like_a_parameter_is_said_as_the_file():
    """The check of a distance file names it by its path; a path that spells a parameter
    ("tol") is still the file, the data's error (exit 1), not an option's (--tol, exit 2)."""
    from indefsvm.cli._errors import CLIError, _error_line
    from indefsvm.cli._io import checked_distances

    with pytest.raises(CLIError) as info:
        checked_distances(np.ones(3), "tol")
    assert _error_line(info.value) == ("tol must be a 2-D array of distances; got shape (3,).",
                                       1)
