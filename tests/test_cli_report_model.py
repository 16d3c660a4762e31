"""Issue 45, item 6: reports for every model -- ``report MODEL DATA`` (the sanity report of a
saved model on its training data, nothing refitted), ``report ... --remedy R``, and a model
file given where data are expected named as one."""

from __future__ import annotations

import re

import numpy as np
import pytest
from sklearn.datasets import dump_svmlight_file
from sklearn.pipeline import make_pipeline

import indefsvm as isvm
from indefsvm.cli import main
from indefsvm.remedies import FlipEigenvalues


def _value(out: str, name: str) -> float:
    """The number on the report line that starts with ``name``."""
    line = next(ln for ln in out.splitlines() if ln.startswith(name))
    return float(re.findall(r"[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?", line[len(name):])[0])


@pytest.fixture
def heart(tmp_path):
    X, y = isvm.datasets.load_heart(return_X_y=True)
    path = tmp_path / "heart.svm"
    dump_svmlight_file(X, y, str(path), zero_based=False)
    return X, y, path


def test_report_model_data_checks_the_saved_dual_as_python_does(tmp_path, heart, capsys):
    X, y, data = heart
    model = tmp_path / "m.skops"
    assert main(["fit", str(data), "--kernel", "sigmoid", "--gamma", "0.01", "--coef0",
                 "-0.5", "-C", "10", "--cv", "0", "--save", str(model), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", str(model), str(data), "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    # the independent reference: the same SVM fitted in Python, its dual checked from an
    # explicit kernel matrix
    clf = isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5, C=10).fit(X, y)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5)
    alpha = np.zeros(len(y))
    alpha[clf.support_] = np.abs(clf.dual_coef_[0])
    ref = isvm.diagnostics.sanity_report_from_alpha(K, np.where(y == clf.classes_[1], 1, -1),
                                                    alpha, C=10.0)
    assert _value(out, "w'Mw (CH solution)") == pytest.approx(ref.wMw, rel=1e-3)
    assert _value(out, "KKT gap m - M") == pytest.approx(ref.kkt_gap, rel=1e-2, abs=1e-6)
    assert f"training accuracy {100 * clf.score(X, y):.2f} %" in out
    page = (tmp_path / "indefsvm-report-m.html").read_text()
    # the kernel check of the model's kernel on its data, as report FILE's page has it (it
    # was left out)
    assert "Sanity report" in page and "Kernel check" in page
    ref_check = isvm.check_kernel(K, y)
    assert f"{ref_check.lam_min:.4g}" in out and "Kernel check" in out


def test_report_model_data_for_series_distances_and_remedies(tmp_path, capsys):
    rng = np.random.default_rng(0)
    S = np.cumsum(rng.normal(size=(80, 24)), axis=1)
    ys = (S[:, -1] > 0).astype(int)
    series = tmp_path / "series.txt"
    np.savetxt(series, np.c_[ys, S], fmt="%.6g")
    model = tmp_path / "s.skops"
    assert main(["fit", str(series), "--metric", "dtw", "--nystroem", "20", "-C", "1",
                 "--cv", "0", "--save", str(model), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", str(model), str(series), "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    loaded = isvm.load_model(model)
    Xs = np.loadtxt(series)[:, 1:]
    ref = isvm.sanity_report(loaded, Xs, ys)
    assert "feature space" in out
    (prob,) = ref.problems
    assert _value(out, "w'Mw (original kernel)") == pytest.approx(prob["wMw"], rel=1e-3)
    assert f"training error          {100 * prob['train_error']:.2f}%" in out

    D, yd = isvm.datasets.load_protein213(return_D_y=True)
    np.save(tmp_path / "D.npy", D)
    np.savetxt(tmp_path / "y.txt", yd, fmt="%d")
    dmodel = tmp_path / "d.skops"
    assert main(["fit", str(tmp_path / "D.npy"), "--labels", str(tmp_path / "y.txt"),
                 "--distances", "--remedy", "flip", "-C", "1", "--gamma", "median", "--cv", "0",
                 "--save",
                 str(dmodel), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", str(dmodel), str(tmp_path / "D.npy"), "--labels",
                 str(tmp_path / "y.txt"), "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "DistanceKernel + FlipEigenvalues + IndefiniteSVC" in out
    pipe = make_pipeline(isvm.DistanceKernel(), FlipEigenvalues(),
                         isvm.IndefiniteSVC(kernel="precomputed", C=1)).fit(D, yd)
    ref = isvm.sanity_report(pipe, D, yd)
    wmw = [r.wMw for r in ref.reports]
    printed = [float(v) for v in re.findall(r"w'Mw = ([-+\d.e]+)", out)]
    assert printed and min(printed) == pytest.approx(min(wmw), rel=1e-3)


def test_report_model_on_other_data_is_refused_naming_data(tmp_path, heart, capsys):
    X, y, data = heart
    model = tmp_path / "m.skops"
    assert main(["fit", str(data), "--gamma", "0.01", "-C", "1", "--cv", "0", "--save",
                 str(model), "--quiet"]) == 0
    clf = isvm.load_model(model)
    other = tmp_path / "other.svm"
    X2 = X.copy()
    X2[clf.support_[0]] += 1.0  # same size, one training sample changed
    dump_svmlight_file(X2, y, str(other), zero_based=False)
    short = tmp_path / "short.svm"
    dump_svmlight_file(X[:50], y[:50], str(short), zero_based=False)
    capsys.readouterr()
    for path, words in ((other, "differs from the support vector"), (short, "270 samples")):
        assert main(["report", str(model), str(path)]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"indefsvm: error: {path}: ") and words in err
        assert "give the data it was fitted on" in err
    # options of a fit do not apply: the model holds them
    assert main(["report", str(model), str(data), "-C", "3"]) == 2
    assert "-C does not apply to report MODEL DATA" in capsys.readouterr().err
    assert main(["report", str(model), str(data), "--kernel", "sigmoid"]) == 2
    assert "--kernel does not apply" in capsys.readouterr().err
    # each option of a fit, told from its default by the option table (--seed by report's 0)
    for extra, flag in ((["--wss", "first_order"], "--wss"), (["--cache-size", "50"],
                        "--cache-size"), (["--no-shrinking"], "--no-shrinking"),
                        (["--tol", "0.01"], "--tol"), (["--seed", "3"], "--seed"),
                        (["-s", "nu-svc"], "--svm-type")):
        assert main(["report", str(model), str(data), *extra]) == 2
        assert f"{flag} does not apply to report MODEL DATA" in capsys.readouterr().err


def test_a_model_file_where_data_are_expected_is_named_as_one(tmp_path, capsys):
    model = tmp_path / "m.skops"
    assert main(["fit", "--dataset", "heart", "-C", "1", "--gamma", "0.01", "--cv", "0",
                 "--save", str(model), "--quiet"]) == 0
    capsys.readouterr()
    for argv in (["fit", str(model)], ["check", str(model)], ["compare", str(model)],
                 ["predict", str(model), str(model)],
                 ["fit", str(model), "--metric", "dtw", "--nystroem", "3"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert "is a model file" in err and "report MODEL DATA" in err, argv
    # report MODEL alone: the DATA it misses, in report's own words (it began that form)
    assert main(["report", str(model)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"indefsvm: error: {model} is a model file: its report reads it on its "
                   f"labelled training data: 'indefsvm report {model} DATA' (the file it "
                   "was fitted on).")
    # a binary file that is no model: named, not a bare codec message
    junk = tmp_path / "junk.bin"
    junk.write_bytes(np.random.default_rng(0).bytes(3000))
    assert main(["fit", str(junk)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"indefsvm: error: {junk}") and "codec" not in err


def test_report_remedy_reports_the_fixed_model(tmp_path, heart, capsys):
    X, y, _ = heart
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=-0.5)
    np.save(tmp_path / "K.npy", K)
    np.savetxt(tmp_path / "y.txt", y, fmt="%d")
    assert main(["report", str(tmp_path / "K.npy"), "--labels", str(tmp_path / "y.txt"),
                 "--remedy", "flip", "--cv", "0", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("model: FlipEigenvalues + IndefiniteSVC (--remedy flip")
    pipe = make_pipeline(FlipEigenvalues(),
                         isvm.IndefiniteSVC(kernel="precomputed", C=1)).fit(K, y)
    ref = isvm.sanity_report(pipe, K, y)
    assert _value(out, "w'Mw (CH solution)") == pytest.approx(ref.wMw, rel=1e-3)
    assert (tmp_path / "indefsvm-report-K.npy-precomputed-flip.html").exists()
    # the unfixed kernel's SVM is another model
    plain = isvm.sanity_report(isvm.IndefiniteSVC(kernel="precomputed", C=1).fit(K, y), K, y)
    assert plain.wMw != pytest.approx(ref.wMw, rel=1e-3)


def test_out_ending_in_html_is_the_page_itself(tmp_path, heart, capsys):
    # `--out page.html` wrote a folder named page.html with the page inside; a name ending
    # in .html is now the page, anything else stays a folder
    _, _, data = heart
    common = [str(data), "--kernel", "sigmoid", "--gamma", "0.01", "--coef0", "-0.5", "-C",
              "10", "--cv", "0", "--quiet"]
    page = tmp_path / "page.html"
    assert main(["report", *common, "--out", str(page)]) == 0
    assert page.is_file() and "Sanity report" in page.read_text()
    assert f"HTML report written to {page}" in capsys.readouterr().out
    folder = tmp_path / "pages"
    assert main(["report", *common, "--out", str(folder)]) == 0
    assert [p.name for p in folder.iterdir()] == ["indefsvm-report-heart.svm-sigmoid.html"]
    page = tmp_path / "cmp.HTML"
    assert main(["compare", str(data), "--kernel", "sigmoid", "--gamma", "0.01", "--coef0",
                 "-0.5", "--quiet", "--out", str(page)]) == 0
    assert page.is_file() and "<html" in page.read_text().lower()
    # a file that is not a page: refused before the work, saying both forms
    capsys.readouterr()
    assert main(["report", *common, "--out", str(data)]) == 2
    err = capsys.readouterr().err
    assert "is a file; give a folder, or a file name ending in .html" in err


def test_report_model_data_mistakes_are_one_line_not_an_internal_error(tmp_path, capsys):
    # read_data_for named the model file args.model, which report MODEL DATA does not have
    X, y = isvm.datasets.load_heart(return_X_y=True)
    data = tmp_path / "heart.libsvm"
    from sklearn.datasets import dump_svmlight_file

    dump_svmlight_file(X, y, str(data), zero_based=False)
    model = str(tmp_path / "m.skops")
    assert main(["fit", str(data), "-C", "1", "--gamma", "0.1", "--cv", "0", "--save", model,
                 "--quiet"]) == 0
    np.save(tmp_path / "D.npy", isvm.pairwise_distances(X))
    np.savetxt(tmp_path / "y.txt", y, fmt="%d")
    capsys.readouterr()
    assert main(["report", model, str(tmp_path / "D.npy"), "--distances", "--labels",
                 str(tmp_path / "y.txt"), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{model} was not trained on distances" in err and "internal error" not in err
    series = tmp_path / "s.txt"
    S, ys = isvm.datasets.make_cbf(30, random_state=0)
    series.write_text("".join(f"{c}," + ",".join(f"{v:.4f}" for v in s) + "\n"
                              for s, c in zip(S, ys, strict=True)))
    smodel = str(tmp_path / "s.skops")
    assert main(["fit", str(series), "--metric", "dtw", "--nystroem", "10", "-C", "1",
                 "--gamma", "median", "--cv", "0", "--save", smodel, "--quiet"]) == 0
    capsys.readouterr()
    assert main(["report", smodel, str(series), "--labels", str(tmp_path / "y.txt"),
                 "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{smodel} was trained on dtw distances" in err and "internal error" not in err
