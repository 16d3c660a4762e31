"""Issue 45, item 5: every search ends in a model -- ``compare --methods`` restricts the
candidates, and when the search chooses k-NN (which no model file holds) the best method a
file can hold is saved instead, said, with its own fit line."""

from __future__ import annotations

import json

import numpy as np
import pytest
import skops.io as sio

import indefsvm as isvm
from indefsvm.cli import main

HEART_SIGMOID = ["--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.5", "--coef0", "1"]


def test_methods_restrict_the_comparison(capsys):
    assert main(["compare", *HEART_SIGMOID, "--methods", "flip,clip", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    # the indefinite SVM is always there: the reference of every comparison
    assert sorted(got["methods"]) == sorted(["indefinite SVM", "flip", "clip"])


def test_a_search_that_chooses_k_nn_saves_the_best_savable_method(tmp_path, capsys):
    X, y = isvm.datasets.load_heart(return_X_y=True)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.5, coef0=1.0)
    ref = isvm.RemedySearchCV(methods=["k-NN", "flip"]).fit(K, y)
    assert ref.best_method_ == "k-NN"  # the case this test is about
    out = tmp_path / "m.skops"
    assert main(["compare", *HEART_SIGMOID, "--search", "--methods", "knn,flip",
                 "--save", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Chosen (best rule): k-NN" in text
    assert "saved instead the best method a file can hold, flip" in text
    assert "--remedy flip" in text  # its own fit line, not k-NN's sentence
    model = sio.load(out, trusted=sio.get_untrusted_types(file=out))
    want = ref.fit_method("flip", K, y)
    # on features the file predicts from features: their kernel (FeatureKernel) first
    assert type(model.steps[0][1]).__name__ == "FeatureKernel"
    np.testing.assert_array_equal(model.predict(X), want.predict(K))
    np.testing.assert_allclose(model.decision_function(X), want.decision_function(K),
                               rtol=1e-12, atol=1e-12)


def test_the_printed_fit_line_saves_where_the_search_saved(tmp_path, capsys):
    # compare --search --save best.skops printed "To train it again: ... --save model.skops"
    out = tmp_path / "best one.skops"
    assert main(["compare", *HEART_SIGMOID, "--search", "--methods", "flip",
                 "--save", str(out)]) == 0
    line = next(t for t in capsys.readouterr().out.splitlines()
                if t.startswith("To train it again: "))
    assert line.endswith(f"--save '{out}'") and "model.skops" not in line
    S, y = isvm.datasets.make_cbf(30, length=24, random_state=0)
    series = tmp_path / "s.txt"
    series.write_text("".join(f"{lab}," + ",".join(f"{v:.4f}" for v in s) + "\n"
                              for s, lab in zip(S, y, strict=True)))
    out = tmp_path / "series.skops"
    assert main(["compare", str(series), "--metric", "dtw", "--nystroem", "8", "--search",
                 "--methods", "flip", "--save", str(out)]) == 0
    text = capsys.readouterr().out
    assert f"--save {out}" in text and "model.skops" not in text


def test_a_search_of_k_nn_alone_cannot_save(tmp_path, capsys):
    # refused before the search (it was said after the whole search, exit 1)
    out = tmp_path / "m.skops"
    assert main(["compare", *HEART_SIGMOID, "--search", "--methods", "knn",
                 "--save", str(out)]) == 2
    cap = capsys.readouterr()
    assert "--save with --methods knn alone" in cap.err and not out.exists()
    assert cap.out == ""  # nothing was compared


def test_unknown_methods_are_a_usage_error(capsys):
    assert main(["compare", *HEART_SIGMOID, "--methods", "flip,bogus"]) == 2
    err = capsys.readouterr().err
    assert "unknown method 'bogus'" in err and "advanced-shift" in err


def test_fit_method_refits_a_methods_best_point():
    X, y = isvm.datasets.load_heart(return_X_y=True)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.5, coef0=1.0)
    s = isvm.RemedySearchCV(methods=["indefinite SVM", "clip"],
                            param_grid={"C": [0.1, 1.0]}).fit(K, y)
    rows = [i for i, m in enumerate(s.cv_results_["method"]) if m == "clip"]
    best = rows[int(np.argmax(s.cv_results_["mean_test_score"][rows]))]
    C = s.cv_results_["params"][best]["C"]
    got = s.fit_method("clip", K, y)
    assert got.named_steps["svm"].C == C
    with pytest.raises(ValueError, match="was not searched"):
        s.fit_method("flip", K, y)


def test_a_search_of_k_nn_alone_refuses_the_svms_grids(capsys):
    # was exit 1 with the library's words: "param_grid has ['C'], which no method of
    # methods=['k-NN'] tunes", options the command line never named
    rbf = ["--dataset", "heart", "--kernel", "rbf"]
    for argv, said in (([*HEART_SIGMOID, "--C-grid", "1,10"], "--C-grid"),
                       ([*rbf, "--C-grid", "1", "--gamma-grid", "0.1"],
                        "--C-grid and --gamma-grid")):
        assert main(["compare", *argv, "--search", "--methods", "knn"]) == 2
        cap = capsys.readouterr()
        assert f"--methods knn has no SVM, which {said} tune: drop {said}." in cap.err
        assert cap.out == ""


def test_knn_distances_without_knn_are_refused(tmp_path, capsys):
    # --knn-distances FILE with --methods flip read the file and no method used it
    # (compare_remedies(D=...) without 'k-NN' is refused now); --distances without knn
    # keeps working: the distances make the kernel
    X, y = isvm.datasets.load_heart(return_X_y=True)
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    np.save(tmp_path / "D.npy", D)
    assert main(["compare", *HEART_SIGMOID, "--methods", "flip",
                 "--knn-distances", str(tmp_path / "D.npy")]) == 2
    cap = capsys.readouterr()
    assert ("--knn-distances gives k-NN's distances, and --methods has no knn: drop "
            "--knn-distances.") in cap.err and cap.out == ""
    np.savetxt(tmp_path / "y.txt", y, fmt="%d")
    assert main(["compare", str(tmp_path / "D.npy"), "--distances", "--labels",
                 str(tmp_path / "y.txt"), "--methods", "flip", "--cv", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["methods"] == ["indefinite SVM", "flip"]


def test_the_features_method_is_trained_by_the_command_it_is_given(tmp_path, capsys):
    # compare recommending "features" printed 'fit --remedy features', which fit refuses:
    # no fix trains it; the search of that method trains and saves it
    X, y = isvm.datasets.load_heart(return_X_y=True)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5)
    np.save(tmp_path / "K.npy", K)
    np.save(tmp_path / "y.npy", y)
    data = [str(tmp_path / "K.npy"), "--labels", str(tmp_path / "y.npy")]
    assert main(["compare", *data, "--methods", "svm,features", "--cv", "3"]) == 0
    line = next(t for t in capsys.readouterr().out.splitlines() if t.startswith("To train"))
    assert "Recommendation" not in line and "--remedy" not in line
    assert line.endswith("--search --methods features --save model.skops")
    out = tmp_path / "features.skops"
    argv = line.split(": ", 1)[1].split()[2:-1] + [str(out)]
    assert main(["compare", *argv, "--cv", "3"]) == 0
    assert "Chosen (best rule): features" in capsys.readouterr().out
    # the file holds the features' kernel and the SVM on it, as the table builds them
    model = isvm.load_model(str(out))
    fix, svm = (step for _, step in model.steps)
    assert type(fix).__name__ == "SimilarityKernel"
    ref = isvm.RemedySearchCV(methods=["features"], param_grid={"C": [svm.C]}).fit(K, y)
    np.testing.assert_array_equal(model.predict(K), ref.predict(K))
