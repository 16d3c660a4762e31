"""``indefsvm fit --svm-type``: LIBSVM's family (svm-train -s 0 ... 4) on the command line,
its model files in ``predict``, ``report`` and ``indefsvm.load_model``.

References: scikit-learn's SVC, NuSVC, SVR, NuSVR and OneClassSVM (LIBSVM) on the PSD rbf
kernel; the library's estimators fitted in Python with the same parameters; the mean
squared error and R^2 computed here from the printed values."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn import svm as sk
from sklearn.datasets import dump_svmlight_file

import indefsvm as isvm
from indefsvm._tuning import folds_of, search_C_gamma, subsample
from indefsvm.cli import main


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    d = tmp_path_factory.mktemp("family")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(120, 3))
    yr = np.sin(X[:, 0]) + 0.5 * X[:, 1] + 0.05 * rng.normal(size=120)
    yc = np.where(X[:, 0] + 0.3 * X[:, 2] > 0, 1, -1)
    dump_svmlight_file(X, yr, str(d / "r.libsvm"), zero_based=False)
    dump_svmlight_file(X, yc, str(d / "c.libsvm"), zero_based=False)
    # the data as the command line reads them back (the text holds %.16g of each number)
    X, yr = isvm.datasets.load_libsvm(str(d / "r.libsvm"))
    return d, X, yr, yc


#: --svm-type, its options, the library's class and the scikit-learn reference
CASES = [
    ("c-svc", ["-C", "2"], isvm.IndefiniteSVC, {"C": 2.0}, sk.SVC),
    ("nu-svc", ["--nu", "0.3"], isvm.IndefiniteNuSVC, {"nu": 0.3}, sk.NuSVC),
    ("one-class", ["--nu", "0.2"], isvm.IndefiniteOneClassSVM, {"nu": 0.2}, sk.OneClassSVM),
    ("epsilon-svr", ["-C", "2", "--epsilon", "0.05"], isvm.IndefiniteSVR,
     {"C": 2.0, "epsilon": 0.05}, sk.SVR),
    ("nu-svr", ["-C", "2", "--nu", "0.4"], isvm.IndefiniteNuSVR, {"C": 2.0, "nu": 0.4},
     sk.NuSVR),
]


@pytest.mark.parametrize("kind, opts, ours, params, ref", CASES, ids=[c[0] for c in CASES])
def test_each_type_trains_its_model_as_libsvm_does(data, tmp_path, kind, opts, ours, params,
                                                   ref):
    d, X, yr, yc = data
    regression = "svr" in kind
    path = d / ("r.libsvm" if regression else "c.libsvm")
    y = yr if regression else yc
    model_file = tmp_path / "m.skops"
    assert main(["fit", str(path), "-s", kind, "--gamma", "0.5", *opts, "--cv", "0",
                 "--quiet", "--save", str(model_file)]) == 0
    model = isvm.load_model(model_file)
    assert type(model) is ours
    # the same estimator the library fits in Python
    direct = ours(kernel="rbf", gamma=0.5, **params).fit(X, y)
    np.testing.assert_array_equal(model.predict(X), direct.predict(X))
    # LIBSVM (scikit-learn) on the PSD kernel, to the solvers' tolerance
    libsvm = ref(kernel="rbf", gamma=0.5, tol=1e-6, **params).fit(X, y)
    if regression or kind == "one-class":
        # decision values within the KKT tolerance's reach (1e-3 against 1e-6)
        ours_f = model.predict(X) if regression else model.decision_function(X)
        theirs = libsvm.predict(X) if regression else libsvm.decision_function(X)
        assert np.abs(ours_f - theirs).max() < 0.02 * np.ptp(theirs)
    else:
        assert np.mean(model.predict(X) == libsvm.predict(X)) >= 0.97


def test_libsvm_numbers_name_the_same_types(data, tmp_path, capsys):
    d = data[0]
    outs = []
    for s in ("3", "epsilon-svr", "EPSILON-SVR"):
        assert main(["fit", str(d / "r.libsvm"), "-s", s, "-C", "1", "--gamma", "0.5",
                     "--cv", "0", "--json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert {o["model"] for o in outs} == {"IndefiniteSVR"}
    assert len({o["training_mse"] for o in outs}) == 1


def test_regression_is_scored_by_its_error_and_r2(data, capsys):
    d, X, yr, _ = data
    assert main(["fit", str(d / "r.libsvm"), "-s", "epsilon-svr", "-C", "1", "--gamma", "0.5",
                 "--cv", "4", "--seed", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "training_accuracy" not in out and "cv_accuracy_mean" not in out
    model = isvm.IndefiniteSVR(gamma=0.5, C=1.0).fit(X, yr)
    pred = model.predict(X)
    assert out["training_mse"] == pytest.approx(np.mean((pred - yr) ** 2))
    r2 = 1 - np.sum((pred - yr) ** 2) / np.sum((yr - yr.mean()) ** 2)
    assert out["training_r2"] == pytest.approx(r2)
    # plain shuffled folds (a regression's targets are not classes), scored by R^2
    scores = []
    for train, test in folds_of(yr, 4, 3, classes=False):
        m = isvm.IndefiniteSVR(gamma=0.5, C=1.0).fit(X[train], yr[train])
        scores.append(m.score(X[test], yr[test]))
    assert out["cv_r2_mean"] == pytest.approx(np.mean(scores))
    assert out["cv_r2_std"] == pytest.approx(np.std(scores))


def test_regression_search_scores_r2_on_plain_folds(data, capsys):
    d, X, yr, _ = data
    assert main(["fit", str(d / "r.libsvm"), "-s", "epsilon-svr", "--cv", "0", "--seed", "1",
                 "--json"]) == 0
    search = json.loads(capsys.readouterr().out)["search"]
    assert search["searched"] == ["C", "gamma"] and "cv_accuracy" not in search
    # the chosen point's score is the mean R^2 of its folds, recomputed here
    folds = folds_of(yr, search["folds"], 1, classes=False)
    scores = [isvm.IndefiniteSVR(C=search["C"], gamma=search["gamma"]).fit(
        X[tr], yr[tr]).score(X[te], yr[te]) for tr, te in folds]
    assert search["cv_r2"] == pytest.approx(np.mean(scores))
    assert main(["fit", str(d / "r.libsvm"), "-s", "epsilon-svr", "--cv", "0",
                 "--seed", "1"]) == 0
    assert "3-fold CV R^2" in capsys.readouterr().out


def test_nu_svc_searches_gamma_only_and_one_class_nothing(data, capsys):
    d = data[0]
    assert main(["fit", str(d / "c.libsvm"), "-s", "nu-svc", "--cv", "0", "--json"]) == 0
    search = json.loads(capsys.readouterr().out)["search"]
    assert search["searched"] == ["gamma"] and "C" not in search
    assert main(["fit", str(d / "c.libsvm"), "-s", "one-class", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["search"] is None and out["cv_folds"] == 0
    assert 0 < out["training_outliers"] < 1


def test_continuous_targets_subsample_and_fold_without_classes():
    y = np.linspace(0, 1, 200)  # every target its own "class"
    with pytest.raises(ValueError):
        subsample(y, 50, 0)
    idx = subsample(y, 50, 0, stratify=False)
    assert idx.shape == (50,) and np.all(np.diff(idx) > 0)
    X = np.c_[y, y ** 2]
    choice = search_C_gamma(isvm.IndefiniteSVR(kernel="rbf"), X, y, Cs=[0.1, 1.0],
                            gammas=[0.5, 1.0], max_samples=60, random_state=0)
    assert choice.score == "r2" and choice.samples == 60


def test_predict_prints_values_and_the_regression_figures(data, tmp_path, capsys):
    d, X, yr, _ = data
    model_file = tmp_path / "svr.skops"
    assert main(["fit", str(d / "r.libsvm"), "-s", "3", "-C", "1", "--gamma", "0.5",
                 "--cv", "0", "--quiet", "--save", str(model_file)]) == 0
    capsys.readouterr()
    assert main(["predict", str(model_file), str(d / "r.libsvm")]) == 0
    captured = capsys.readouterr()
    values = np.array([float(v) for v in captured.out.split()])
    expected = isvm.load_model(model_file).predict(X)
    np.testing.assert_allclose(values, expected, rtol=1e-9, atol=1e-12)
    mse = np.mean((expected - yr) ** 2)
    assert f"mean squared error {mse:.6g}" in captured.err
    assert main(["predict", str(model_file), str(d / "r.libsvm"),
                 "--decision-values"]) == 2
    assert "for classifiers" in capsys.readouterr().err


def test_one_class_reads_a_csv_without_labels_and_predicts_outliers(tmp_path, capsys):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 2))
    np.savetxt(tmp_path / "normal.csv", X, delimiter=",", header="a,b", comments="")
    model_file = tmp_path / "oc.skops"
    assert main(["fit", str(tmp_path / "normal.csv"), "-s", "one-class", "--nu", "0.1",
                 "--gamma", "0.5", "--quiet", "--save", str(model_file)]) == 0
    capsys.readouterr()
    far = np.vstack([X[:5], [[8.0, 8.0]]])
    np.savetxt(tmp_path / "new.csv", far, delimiter=",", header="a,b", comments="")
    assert main(["predict", str(model_file), str(tmp_path / "new.csv")]) == 0
    pred = [int(v) for v in capsys.readouterr().out.split()]
    assert pred[-1] == -1
    assert pred == isvm.IndefiniteOneClassSVM(nu=0.1, gamma=0.5).fit(X).predict(far).tolist()


def test_distances_train_a_regression_behind_the_distance_kernel(data, tmp_path, capsys):
    d, X, yr, _ = data
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    np.save(tmp_path / "D.npy", D)
    np.savetxt(tmp_path / "y.txt", yr)
    model_file = tmp_path / "dsvr.skops"
    assert main(["fit", str(tmp_path / "D.npy"), "--labels", str(tmp_path / "y.txt"),
                 "--distances", "-s", "nu-svr", "-C", "1", "--gamma", "0.5", "--cv", "0",
                 "--quiet", "--save", str(model_file)]) == 0
    model = isvm.load_model(model_file)
    assert type(model[-1]) is isvm.IndefiniteNuSVR
    # exp(-gamma d^2) of Euclidean distances is the rbf kernel of the features
    direct = isvm.IndefiniteNuSVR(C=1.0, gamma=0.5).fit(X, yr)
    # (the same dual to the solver's tolerance: kernels equal to rounding)
    np.testing.assert_allclose(model.predict(D), direct.predict(X), atol=0.01 * np.ptp(yr))


@pytest.mark.parametrize("args, named", [
    (["-s", "c-svc", "--nu", "0.3"], "--nu"),
    (["-s", "epsilon-svr", "--nu", "0.3"], "--nu"),
    (["-s", "nu-svr", "--epsilon", "0.1"], "--epsilon"),
    (["-s", "nu-svc", "-C", "2"], "-C does not apply to nu-svc"),
    (["-s", "one-class", "-C", "2"], "-C does not apply to one-class"),
    (["-s", "epsilon-svr", "--remedy", "flip"], "--remedy"),
    (["-s", "nu-svc", "--nystroem", "10"], "--nystroem"),
    (["-s", "nu-svc", "--restarts", "2"], "--restarts"),
    (["-s", "epsilon-svr", "--class-weight", "balanced"], "--class-weight"),
    (["-s", "one-class", "--cv", "5"], "--cv does not apply to one-class"),
    (["-s", "7"], "--svm-type"),
])
def test_options_a_type_does_not_have_are_refused(data, capsys, args, named):
    d = data[0]
    assert main(["fit", str(d / "r.libsvm"), *args]) == 2
    err = capsys.readouterr().err
    assert "indefsvm: error" in err and named in err and "Traceback" not in err


#: an option of the SMO's family, a value that is not its default, and its parameter
_TYPE_OPTIONS = [(["-C", "2"], "C"), (["--nu", "0.3"], "nu"), (["--epsilon", "0.2"], "epsilon"),
                 (["--class-weight", "balanced"], "class_weight"),
                 (["--restarts", "2"], "n_restarts"), (["--init", "class_balanced"], "init")]


@pytest.mark.parametrize("kind, cls", [
    ("c-svc", isvm.IndefiniteSVC), ("nu-svc", isvm.IndefiniteNuSVC),
    ("one-class", isvm.IndefiniteOneClassSVM), ("epsilon-svr", isvm.IndefiniteSVR),
    ("nu-svr", isvm.IndefiniteNuSVR)])
def test_an_option_is_refused_where_the_types_estimator_does_not_take_it(kind, cls):
    """One rule: refused exactly where the estimator's get_params() lacks the parameter,
    naming the types whose estimators take it."""
    from indefsvm.cli import build_parser
    from indefsvm.cli._errors import CLIError
    from indefsvm.cli._family import refuse_options_of_others

    takers = {"C": "c-svc, epsilon-svr and nu-svr", "nu": "nu-svc, one-class and nu-svr",
              "epsilon": "epsilon-svr", "class_weight": "c-svc and nu-svc",
              "n_restarts": "c-svc", "init": "c-svc"}
    for words, param in _TYPE_OPTIONS:
        args = build_parser().parse_args(["fit", "x.txt", "-s", kind, *words])
        args.C_given = words[0] == "-C"
        if param in cls().get_params():
            refuse_options_of_others(args, kind)
            continue
        with pytest.raises(CLIError) as info:
            refuse_options_of_others(args, kind)
        assert str(info.value).startswith(f"{words[0]} does not apply to {kind}: "
                                          f"{takers[param]} take")


@pytest.mark.parametrize("cls, target", [
    (isvm.IndefiniteSVR, "r"), (isvm.IndefiniteNuSVR, "r"),
    (isvm.IndefiniteOneClassSVM, None), (isvm.IndefiniteNuSVC, "c")])
def test_load_model_reads_the_family_saved_from_python(data, tmp_path, cls, target):
    import skops.io as sio

    _, X, yr, yc = data
    y = {"r": yr, "c": yc, None: None}[target]
    model = cls(kernel="sigmoid", gamma=0.1, coef0=-0.2).fit(X, y)
    sio.dump(model, tmp_path / "m.skops")
    loaded = isvm.load_model(tmp_path / "m.skops")
    np.testing.assert_array_equal(loaded.predict(X), model.predict(X))


@pytest.mark.parametrize("edit, match", [
    (lambda m: m._dual_coef_dense.__setitem__((0, 0), np.nan), "NaN or infinite"),
    (lambda m: setattr(m, "_dual_coef_dense", m._dual_coef_dense[:, :-1]), "of shape"),
    (lambda m: m.support_.__setitem__(0, 10**6), "support indices outside"),
])
def test_a_damaged_regression_model_is_refused(data, tmp_path, edit, match):
    import skops.io as sio

    _, X, yr, _ = data
    model = isvm.IndefiniteSVR(gamma=0.5).fit(X, yr)
    edit(model)
    sio.dump(model, tmp_path / "bad.skops")
    with pytest.raises(isvm.exceptions.DataFileError, match=match):
        isvm.load_model(tmp_path / "bad.skops")


def test_real_targets_without_a_regression_type_are_named(data, capsys):
    d = data[0]
    assert main(["fit", str(d / "r.libsvm"), "--cv", "0"]) == 2
    err = capsys.readouterr().err
    assert "real numbers (120 distinct values among 120 samples)" in err and "-s 3" in err
    assert main(["compare", str(d / "r.libsvm"), "--cv", "3"]) == 2
    assert "compares classifiers" in capsys.readouterr().err
    # class labels written as floats stay classes
    assert main(["fit", str(d / "c.libsvm"), "-C", "1", "--gamma", "0.5", "--cv", "0",
                 "--quiet"]) == 0


def test_regression_folds_cannot_outnumber_the_samples(data, capsys):
    d = data[0]
    assert main(["fit", str(d / "r.libsvm"), "-s", "3", "--cv", "121"]) == 2
    assert "--cv 121 is more folds than the 120 samples" in capsys.readouterr().err


def test_check_reads_real_targets_as_a_regression_s(data, tmp_path, capsys):
    d, X, yr, _ = data
    assert main(["check", str(d / "r.libsvm"), "--json"]) == 0
    captured = capsys.readouterr()
    assert "real numbers (120 distinct values)" in captured.err
    rep = json.loads(captured.out)
    # no check by pairs of classes: the kernel alone, as without labels
    ref = isvm.check_kernel(X=X, kernel="rbf", gamma=1 / (X.shape[1] * X.var()))
    assert rep["lam_min"] == pytest.approx(ref.lam_min)
    assert rep["class_mean_sqdist"] is None
    # a labels file of real targets raises no doubt about classes; of row numbers it does
    np.save(tmp_path / "D.npy", np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1)))
    np.savetxt(tmp_path / "y.txt", yr)
    np.savetxt(tmp_path / "rows.txt", np.arange(len(yr)), fmt="%d")
    assert main(["fit", str(tmp_path / "D.npy"), "--labels", str(tmp_path / "y.txt"),
                 "--distances", "-s", "3", "-C", "1", "--cv", "0", "--quiet"]) == 0
    assert "different labels" not in capsys.readouterr().err
    main(["check", str(tmp_path / "D.npy"), "--labels", str(tmp_path / "rows.txt"),
          "--distances"])
    assert "120 different labels for 120 samples" in capsys.readouterr().err


def test_report_fits_and_reports_every_type(data, tmp_path, capsys):
    d = data[0]
    assert main(["report", str(d / "r.libsvm"), "-s", "epsilon-svr", "-C", "1", "--gamma",
                 "0.5", "--cv", "3", "--out", str(tmp_path / "r.html")]) == 0
    out = capsys.readouterr().out
    # the kernel checked without classes (real targets), the epsilon-SVR's own report
    assert "classes " not in out and "epsilon-SVR" in out
    assert "training MSE" in out and "3-fold CV R^2" in out
    assert "IndefiniteSVR(kernel=rbf, C=1, epsilon=0.1" in (tmp_path / "r.html").read_text()
    assert main(["report", str(d / "c.libsvm"), "-s", "one-class", "--nu", "0.2",
                 "--out", str(tmp_path / "o.html")]) == 0
    out = capsys.readouterr().out
    assert "one-class SVM" in out and "outliers" in out and "CV" not in out.split("Sanity")[1]
    assert main(["report", str(d / "c.libsvm"), "-s", "nu-svc", "-C", "2"]) == 2
    assert "-C does not apply to nu-svc" in capsys.readouterr().err


def test_report_of_a_model_file_takes_no_fit_options(data, tmp_path, capsys):
    d = data[0]
    model_file = tmp_path / "m.skops"
    assert main(["fit", str(d / "r.libsvm"), "-s", "3", "-C", "1", "--gamma", "0.5",
                 "--cv", "0", "--quiet", "--save", str(model_file)]) == 0
    assert main(["report", str(model_file), str(d / "r.libsvm"), "--out",
                 str(tmp_path / "p.html")]) == 0
    assert "training MSE" in capsys.readouterr().out
    for opt in (["-s", "3"], ["--nu", "0.3"], ["--scale"], ["-C", "1"]):
        assert main(["report", str(model_file), str(d / "r.libsvm"), *opt]) == 2
        assert "does not apply to report MODEL DATA" in capsys.readouterr().err


def test_nu_svc_weighs_its_classes_bounds(data, capsys):
    d, X, _, yc = data
    assert main(["fit", str(d / "c.libsvm"), "-s", "nu-svc", "--nu", "0.3", "--gamma", "0.5",
                 "--class-weight", "1:2", "--cv", "0"]) == 0
    out = capsys.readouterr().out
    # nu-SVC has no C: the weights multiply each sample's bound
    assert "class weight 1: 2 (x the bound; others 1)" in out
    direct = isvm.IndefiniteNuSVC(nu=0.3, gamma=0.5, class_weight={1: 2.0}).fit(X, yc)
    acc = np.mean(direct.predict(X) == yc)
    assert f"training accuracy  {100 * acc:.2f} %" in out


def test_one_class_prints_its_decision_values_and_refuses_probabilities(tmp_path, capsys):
    rng = np.random.default_rng(3)
    X = rng.normal(size=(50, 2))
    np.savetxt(tmp_path / "normal.csv", X, delimiter=",", header="a,b", comments="")
    model_file = tmp_path / "oc.skops"
    assert main(["fit", str(tmp_path / "normal.csv"), "-s", "one-class", "--nu", "0.2",
                 "--gamma", "0.5", "--scale", "--quiet", "--save", str(model_file)]) == 0
    capsys.readouterr()
    far = np.vstack([X[:4], [[6.0, -6.0]]])
    np.savetxt(tmp_path / "new.csv", far, delimiter=",", header="a,b", comments="")
    assert main(["predict", str(model_file), str(tmp_path / "new.csv"),
                 "--decision-values"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # one column, > 0 inside (+1): the layout of the second of two classes
    assert lines[0] == "labels 1"
    model = isvm.load_model(model_file)
    pred = [int(line.split()[0]) for line in lines[1:]]
    dec = np.array([float(line.split()[1]) for line in lines[1:]])
    assert pred == model.predict(far).tolist() and pred[-1] == -1
    np.testing.assert_allclose(dec, model.decision_function(far), rtol=1e-9)
    assert np.array_equal(np.where(dec > 0, 1, -1), pred)
    # refused before the data are read (the file does not exist), with what it has
    absent = str(tmp_path / "absent.csv")
    assert main(["predict", str(model_file), absent, "--probability"]) == 2
    err = capsys.readouterr().err
    assert "outlier detector" in err and "--decision-values prints" in err


@pytest.mark.parametrize("flag", ["--probability", "--decision-values"])
def test_a_regression_refuses_columns_before_reading_the_data(data, tmp_path, capsys, flag):
    d, _, _, _ = data
    model_file = tmp_path / "svr.skops"
    assert main(["fit", str(d / "r.libsvm"), "-s", "3", "-C", "1", "--gamma", "0.5",
                 "--cv", "0", "--quiet", "--save", str(model_file)]) == 0
    capsys.readouterr()
    assert main(["predict", str(model_file), str(tmp_path / "absent.libsvm"), flag]) == 2
    err = capsys.readouterr().err
    assert "is a regression" in err and f"Drop {flag}" in err
    # not the svm's advice, which would send a regression to --decision-values
    assert "--decision-values prints" not in err
