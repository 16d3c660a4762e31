"""``FeatureKernel``: features to kernel rows, so that a spectrum fix trains on features and
predicts from features -- in Python, with ``fit --remedy R`` on a feature file, and in the
model file ``compare --search --save`` writes on features."""

import json
import shlex

import numpy as np
import pytest
import skops.io as sio
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import MinMaxScaler

import indefsvm as isvm
from indefsvm.cli import main
from indefsvm.remedies import ClipEigenvalues, FlipEigenvalues, SquareKernel

X, Y = isvm.datasets.load_heart(return_X_y=True)
TRAIN, TEST = slice(0, 200), slice(200, None)


@pytest.mark.parametrize("kernel, params", [
    ("sigmoid", {"gamma": 0.01, "coef0": -0.5}),
    ("rbf", {"gamma": 0.05}),
    ("polynomial", {"gamma": 0.1, "coef0": 1.0, "degree": 2}),
    ("l1_gaussian", {"gamma": 0.02}),
    ("tl1", {"kernel_params": {"rho": 5.0}}),
])
def test_rows_are_the_kernel_of_the_features(kernel, params):
    fk = isvm.FeatureKernel(kernel, **params)
    flat = {k: v for k, v in params.items() if k != "kernel_params"}
    flat.update(params.get("kernel_params", {}))
    K = fk.fit_transform(X[TRAIN])
    np.testing.assert_array_equal(K, isvm.kernel_matrix(X[TRAIN], kernel=kernel, **flat))
    np.testing.assert_allclose(fk.transform(X[TEST]),
                               isvm.kernel_matrix(X[TEST], X[TRAIN], kernel=kernel, **flat),
                               rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(fk.transform(X[TRAIN]), K, rtol=1e-12, atol=1e-14)
    assert fk.n_train_ == 200 and fk.get_feature_names_out()[0] == "featurekernel0"


def test_gamma_scale_is_resolved_as_the_svm_resolves_it():
    fk = isvm.FeatureKernel("sigmoid", coef0=-0.5).fit(X)
    svc = isvm.IndefiniteSVC(kernel="sigmoid", coef0=-0.5).fit(X, Y)
    assert fk.kernel_params_ == svc.kernel_params_
    assert fk.kernel_params_["gamma"] == pytest.approx(1 / (X.shape[1] * X.var()), rel=1e-12)


def test_a_fix_behind_it_predicts_from_features_as_on_the_kernel():
    model = make_pipeline(isvm.FeatureKernel("sigmoid", gamma=0.01, coef0=-0.5),
                          FlipEigenvalues(), isvm.IndefiniteSVC(kernel="precomputed", C=10))
    model.fit(X[TRAIN], Y[TRAIN])
    K = isvm.kernel_matrix(X[TRAIN], kernel="sigmoid", gamma=0.01, coef0=-0.5)
    Kt = isvm.kernel_matrix(X[TEST], X[TRAIN], kernel="sigmoid", gamma=0.01, coef0=-0.5)
    ref = make_pipeline(FlipEigenvalues(), isvm.IndefiniteSVC(kernel="precomputed", C=10))
    ref.fit(K, Y[TRAIN])
    np.testing.assert_array_equal(model.predict(X[TEST]), ref.predict(Kt))
    np.testing.assert_allclose(model.decision_function(X[TEST]), ref.decision_function(Kt),
                               rtol=1e-9, atol=1e-9)


def test_cross_validation_fixes_each_folds_own_kernel():
    """Features are sliced as features: each fold's fix sees its training part's kernel
    only (a kernel of all samples, fixed once, would leak the test part's spectrum)."""
    model = make_pipeline(isvm.FeatureKernel("sigmoid", gamma=0.01, coef0=-0.5),
                          ClipEigenvalues(), isvm.IndefiniteSVC(kernel="precomputed"))
    folds = list(StratifiedKFold(4, shuffle=True, random_state=0).split(X, Y))
    got = cross_val_score(model, X, Y, cv=folds)
    want = []
    for train, test in folds:
        K = isvm.kernel_matrix(X[train], kernel="sigmoid", gamma=0.01, coef0=-0.5)
        Kt = isvm.kernel_matrix(X[test], X[train], kernel="sigmoid", gamma=0.01, coef0=-0.5)
        ref = make_pipeline(ClipEigenvalues(), isvm.IndefiniteSVC(kernel="precomputed"))
        want.append(ref.fit(K, Y[train]).score(Kt, Y[test]))
    np.testing.assert_allclose(got, want)


@pytest.mark.parametrize("settings, match", [
    ({"kernel": "precomputed"}, "kernel"),
    ({"kernel": "rbf", "gamma": -1.0}, "gamma must be >= 0"),
    ({"kernel": "sigmoid", "degree": -1}, "degree"),
    ({"kernel": "nope"}, "kernel"),
])
def test_bad_settings_are_refused_before_the_data(settings, match):
    with pytest.raises(ValueError, match=match):
        isvm.FeatureKernel(**settings).fit(X)


def test_rows_of_other_features_are_refused():
    fk = isvm.FeatureKernel().fit(X)
    with pytest.raises(ValueError, match="13 features"):
        fk.transform(X[:, :5])


# -- the command line --------------------------------------------------------------------


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("feature-kernel")
    np.savetxt(d / "train.csv", np.c_[Y[TRAIN], X[TRAIN]], delimiter=",",
               header="label," + ",".join(f"f{i}" for i in range(13)), comments="")
    np.savetxt(d / "test.csv", np.c_[Y[TEST], X[TEST]], delimiter=",",
               header="label," + ",".join(f"f{i}" for i in range(13)), comments="")
    return d


def _predictions(capsys, argv):
    assert main(argv) == 0
    return np.array([float(v) for v in capsys.readouterr().out.split()])


@pytest.mark.parametrize("remedy, fix", [("clip", ClipEigenvalues), ("square", SquareKernel)])
def test_fit_remedy_on_features_saves_a_model_of_features(files, tmp_path, capsys, remedy,
                                                          fix):
    model = str(tmp_path / "m.skops")
    assert main(["fit", str(files / "train.csv"), "--kernel", "sigmoid", "--gamma", "0.01",
                 "--coef0", "-0.5", "--remedy", remedy, "-C", "10", "--cv", "0", "--json",
                 "--save", model]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["kernel"] == "sigmoid" and summary["remedy"] == remedy
    assert summary["kernel_params"] == {"gamma": 0.01, "coef0": -0.5}
    pred = _predictions(capsys, ["predict", model, str(files / "test.csv")])
    K = isvm.kernel_matrix(X[TRAIN], kernel="sigmoid", gamma=0.01, coef0=-0.5)
    Kt = isvm.kernel_matrix(X[TEST], X[TRAIN], kernel="sigmoid", gamma=0.01, coef0=-0.5)
    ref = make_pipeline(fix(), isvm.IndefiniteSVC(kernel="precomputed", C=10)).fit(K, Y[TRAIN])
    np.testing.assert_array_equal(pred, ref.predict(Kt))
    assert summary["training_accuracy"] == pytest.approx(ref.score(K, Y[TRAIN]))
    loaded = isvm.load_model(model)
    assert [type(s).__name__ for _, s in loaded.steps] == [
        "FeatureKernel", fix.__name__, "IndefiniteSVC"]


def test_fit_scale_remedy_puts_the_scaler_first(files, tmp_path, capsys):
    model = str(tmp_path / "m.skops")
    assert main(["fit", str(files / "train.csv"), "--scale", "--kernel", "rbf", "--gamma",
                 "0.1", "--remedy", "flip", "-C", "1", "--cv", "0", "--save", model]) == 0
    out = capsys.readouterr().out
    assert "MinMaxScaler(-1, 1) + FeatureKernel(kernel=rbf, gamma=0.1) + FlipEigenvalues" in out
    pred = _predictions(capsys, ["predict", model, str(files / "test.csv")])
    scaler = MinMaxScaler(feature_range=(-1, 1)).fit(X[TRAIN])
    S, St = scaler.transform(X[TRAIN]), scaler.transform(X[TEST])
    ref = make_pipeline(FlipEigenvalues(), isvm.IndefiniteSVC(kernel="precomputed"))
    ref.fit(isvm.kernel_matrix(S, kernel="rbf", gamma=0.1), Y[TRAIN])
    np.testing.assert_array_equal(pred, ref.predict(isvm.kernel_matrix(St, S, kernel="rbf",
                                                                       gamma=0.1)))


def test_the_search_of_a_remedy_on_features_tunes_the_feature_kernels_gamma(files, capsys):
    """Without -C / --gamma, fit --remedy on features searches both; the gamma searched is
    the FeatureKernel's (the SVM behind the fix has a precomputed kernel)."""
    assert main(["fit", str(files / "train.csv"), "--kernel", "rbf", "--remedy", "clip",
                 "--cv", "0", "--json", "--seed", "0"]) == 0
    summary = json.loads(capsys.readouterr().out)
    search = summary["search"]
    assert search["searched"] == ["C", "gamma"]
    assert summary["kernel_params"]["gamma"] == pytest.approx(search["gamma"])
    # chosen from the grid around the default rule's gamma on the features
    assert search["gamma_rule"] == pytest.approx(1 / (13 * X[TRAIN].var()), rel=1e-12)
    ratio = search["gamma"] / search["gamma_rule"]
    assert min(abs(ratio - f) for f in (1 / 16, 1 / 4, 1, 4, 16)) < 1e-9


def test_compare_search_save_on_features_predicts_from_features(files, tmp_path, capsys):
    saved = str(tmp_path / "s.skops")
    assert main(["compare", str(files / "train.csv"), "--kernel", "sigmoid", "--gamma", "0.01",
                 "--coef0", "-0.5", "--search", "--methods", "clip,flip,square",
                 "--C-grid", "1,10", "--seed", "0", "--save", saved]) == 0
    out = capsys.readouterr().out
    line = [t for t in out.splitlines() if t.startswith("To train it again:")][0]
    argv = shlex.split(line.split(":", 1)[1])[1:]
    assert "--remedy" in argv
    pred = _predictions(capsys, ["predict", saved, str(files / "test.csv")])
    # the fit line it prints trains the same model
    refit = str(tmp_path / "f.skops")
    argv[argv.index("--save") + 1] = refit
    assert main(argv + ["--cv", "0", "--quiet"]) == 0
    capsys.readouterr()
    np.testing.assert_array_equal(pred, _predictions(
        capsys, ["predict", refit, str(files / "test.csv")]))


def test_compare_prints_a_fit_line_that_trains_the_compared_kernel(files, tmp_path, capsys):
    """compare on features without --gamma compared the default rule's kernel: its fit line
    says --gamma scale (fit would search gamma otherwise)."""
    assert main(["compare", str(files / "train.csv"), "--kernel", "sigmoid", "--methods",
                 "clip", "--seed", "0"]) == 0
    line = [t for t in capsys.readouterr().out.splitlines() if t.startswith("To train it")][0]
    argv = shlex.split(line.split(":", 1)[1])[1:]
    assert argv[argv.index("--gamma") + 1] == "scale"
    argv[argv.index("--save") + 1] = str(tmp_path / "m.skops")
    assert main(argv + ["--cv", "0", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["search"] is None or "gamma" not in summary["search"]["searched"]


def test_a_changed_feature_kernel_is_refused(files, tmp_path, capsys):
    model = tmp_path / "m.skops"
    assert main(["fit", str(files / "train.csv"), "--kernel", "sigmoid", "--gamma", "0.01",
                 "--remedy", "clip", "-C", "1", "--cv", "0", "--save", str(model)]) == 0
    good = sio.load(model, trusted=sio.get_untrusted_types(file=model))
    for change, said in [
        (lambda m: m.steps[0][1].X_fit_.__setitem__((0, 0), np.nan),
         "NaN, infinite or not a matrix"),
        (lambda m: setattr(m.steps[0][1], "X_fit_", m.steps[0][1].X_fit_[:150]),
         "do not match its sizes"),
        (lambda m: setattr(m.steps[0][1], "kernel_params_", {"gamma": "x"}), "not numbers"),
        (lambda m: m.steps.pop(1), None),  # without its fix: the rows go straight to the SVM
    ]:
        bad = sio.load(model, trusted=sio.get_untrusted_types(file=model))
        change(bad)
        path = tmp_path / "bad.skops"
        sio.dump(bad, path)
        capsys.readouterr()
        code = main(["predict", str(path), str(files / "test.csv")])
        err = capsys.readouterr().err
        if said is None:
            # FeatureKernel then an SVM of its rows is a model compare --search --save writes
            assert code == 0
            continue
        assert code == 1 and said in err and "fit the model again" in err
    assert isinstance(good, Pipeline)


# -- RemedySearchCV(kernel=FeatureKernel(...)): the search on features ---------------------


def test_the_search_on_features_scores_as_gridsearchcv_on_the_same_folds():
    """Features, sliced by rows: the indefinite SVM's fold scores (cold-started) equal
    GridSearchCV's of the public pipeline FeatureKernel + IndefiniteSVC on the same folds,
    gamma and C -- each fold's kernel is its training part's."""
    from sklearn.model_selection import GridSearchCV

    fk = isvm.FeatureKernel("sigmoid", coef0=-0.5)
    g0 = fk.fit(X).gamma_
    gam, Cs = [g0 / 4, g0, g0 * 4], [0.1, 10.0]
    search = isvm.RemedySearchCV(methods=["indefinite SVM"], kernel=fk,
                                 param_grid={"gamma": gam, "C": Cs}, cv=3,
                                 random_state=0).fit(X, Y)
    gs = GridSearchCV(Pipeline([("kernel", isvm.FeatureKernel("sigmoid", coef0=-0.5)),
                                ("svm", isvm.IndefiniteSVC(kernel="precomputed"))]),
                      {"kernel__gamma": gam, "svm__C": Cs},
                      cv=StratifiedKFold(3, shuffle=True, random_state=0)).fit(X, Y)
    ours = {(p["gamma"], p["C"]): i for i, p in enumerate(search.cv_results_["params"])}
    for j, p in enumerate(gs.cv_results_["params"]):
        i = ours[(p["kernel__gamma"], p["svm__C"])]
        for f in range(3):
            assert search.cv_results_[f"split{f}_test_score"][i] == \
                gs.cv_results_[f"split{f}_test_score"][j]


def test_the_search_on_features_refits_a_pipeline_of_features():
    search = isvm.RemedySearchCV(methods=["clip", "k-NN"],
                                 kernel=isvm.FeatureKernel("rbf"),
                                 param_grid={"C": [1.0, 10.0]}, cv=3,
                                 random_state=0).fit(X[TRAIN], Y[TRAIN])
    # the default gamma grid spans the rule of the features (scale) x 4^-4 ... 4^2
    g0 = 1 / (13 * X[TRAIN].var())
    gammas = sorted({p["gamma"] for p in search.cv_results_["params"] if "gamma" in p})
    np.testing.assert_allclose(gammas, [g0 * 4.0 ** k for k in range(-4, 3)], rtol=1e-12)
    assert search.n_features_in_ == 13 and not search.__sklearn_tags__().input_tags.pairwise
    p = search.best_params_
    if search.best_method_ == "clip":
        ref = make_pipeline(isvm.FeatureKernel("rbf", gamma=p["gamma"]), ClipEigenvalues(),
                            isvm.IndefiniteSVC(kernel="precomputed", C=p["C"]))
    else:
        from sklearn.neighbors import KNeighborsClassifier

        ref = KNeighborsClassifier(n_neighbors=p["n_neighbors"])
    ref.fit(X[TRAIN], Y[TRAIN])
    np.testing.assert_array_equal(search.predict(X[TEST]), ref.predict(X[TEST]))
    # k-NN on features is the features' Euclidean k-NN, refitted as such
    knn = search.fit_method("k-NN", X[TRAIN], Y[TRAIN])
    assert knn.metric == "minkowski" and knn.n_features_in_ == 13
    with pytest.raises(ValueError, match="13 features"):
        search.predict(X[TEST, :5])


def test_a_kernel_without_gamma_has_no_gamma_to_search():
    with pytest.raises(ValueError, match="takes none"):
        isvm.RemedySearchCV(kernel=isvm.FeatureKernel("linear"),
                            param_grid={"gamma": [1.0]}, cv=3).fit(X, Y)
    search = isvm.RemedySearchCV(methods=["flip"], kernel=isvm.FeatureKernel("linear"),
                                 param_grid={"C": [1.0]}, cv=3).fit(X, Y)
    assert len(search.cv_results_["params"]) == 1


def test_compare_search_on_features_searches_gamma_unless_given(files, tmp_path, capsys):
    """compare --search on features: gamma searched with C (--gamma-grid, or 7 values
    around the default rule) by RemedySearchCV(kernel=FeatureKernel(...)); --gamma fixes
    it. The saved model and the printed fit line carry the chosen gamma."""
    common = ["compare", str(files / "train.csv"), "--kernel", "rbf", "--search",
              "--methods", "svm,clip", "--C-grid", "1,10", "--seed", "0", "--json"]
    saved = str(tmp_path / "s.skops")
    assert main(common + ["--gamma-grid", "0.01,0.1", "--save", saved]) == 0
    out = json.loads(capsys.readouterr().out)
    ref = isvm.RemedySearchCV(methods=["indefinite SVM", "clip"],
                              kernel=isvm.FeatureKernel("rbf"),
                              param_grid={"C": [1.0, 10.0], "gamma": [0.01, 0.1]}, cv=5,
                              random_state=0).fit(X[TRAIN], Y[TRAIN])
    assert out["best_method"] == ref.best_method_
    assert out["best_params"]["gamma"] == ref.best_params_["gamma"]
    assert out["best_score"] == pytest.approx(ref.best_score_)
    assert f"--gamma {ref.best_params_['gamma']:g}" in out["fit_command"]
    pred = _predictions(capsys, ["predict", saved, str(files / "test.csv")])
    np.testing.assert_array_equal(pred, ref.predict(X[TEST]))
    # --gamma: fixed (the searched rows have no gamma of their own)
    assert main(common + ["--gamma", "0.05"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "gamma" not in out["best_params"] and "--gamma 0.05" in out["fit_command"]


def test_compare_search_saves_a_krein_svm_of_features(files, tmp_path, capsys):
    """The Krein SVM chosen on features: FeatureKernel then KreinSVC(kernel="precomputed")
    in the file, which loads (its training size is the Krein SVM's own n_train_)."""
    saved = str(tmp_path / "k.skops")
    assert main(["compare", str(files / "train.csv"), "--kernel", "sigmoid", "--coef0", "-0.5",
                 "--search", "--methods", "krein", "--C-grid", "1", "--gamma-grid", "0.01",
                 "--seed", "0", "--save", saved, "--quiet"]) == 0
    capsys.readouterr()
    model = isvm.load_model(saved)
    assert [type(s).__name__ for _, s in model.steps] == ["FeatureKernel", "KreinSVC"]
    ref = isvm.KreinSVC(kernel="sigmoid", gamma=0.01, coef0=-0.5).fit(X[TRAIN], Y[TRAIN])
    pred = _predictions(capsys, ["predict", saved, str(files / "test.csv")])
    np.testing.assert_array_equal(pred, ref.predict(X[TEST]))


def test_the_search_page_draws_the_kernel_at_the_chosen_gamma(files, tmp_path, capsys,
                                                             monkeypatch):
    """compare --search --out: the spectra on the page are the kernel's at the gamma the
    search chose (the kernel the chosen model trains on), and the page says which gamma."""
    import indefsvm._pages as pages

    drawn = {}
    real = pages.write_compare_html

    def spy(path, **kw):
        drawn.update(kw)
        return real(path, **kw)

    monkeypatch.setattr(pages, "write_compare_html", spy)
    assert main(["compare", str(files / "train.csv"), "--kernel", "rbf", "--search",
                 "--methods", "svm,clip", "--C-grid", "1", "--gamma-grid", "0.001,0.5",
                 "--seed", "0", "--json", "--out", str(tmp_path / "pages")]) == 0
    gamma = json.loads(capsys.readouterr().out)["best_params"]["gamma"]
    np.testing.assert_allclose(drawn["K"], isvm.kernel_matrix(X[TRAIN], kernel="rbf",
                                                              gamma=gamma))
    assert f"at the chosen gamma = {gamma:.6g}" in drawn["data_desc"]
