"""Model files written by an earlier release keep loading and predict the same.

The files under ``tests/data/models_0.1.0`` were written by ``indefsvm fit --save`` before the
package layout changed (their README gives the commands); they name the private module paths
of that release. Each must load through the command line's trusted types and give exactly the
predictions and decision values it gave when it was written.
"""

import os
from pathlib import Path

import numpy as np
import pytest
import skops.io as sio
from test_cli_distances import _line_distances

import indefsvm as isvm
from indefsvm.cli import TRUSTED_TYPES, main

HERE = Path(__file__).parent / "data" / "models_0.1.0"
EXPECTED = np.load(HERE / "expected.npz")


def _inputs(name):
    if name.startswith("distances"):
        return np.load(HERE / "distances_cbf_dtw_rows.npy")
    load = isvm.datasets.load_sonar if "sonar" in name else isvm.datasets.load_heart
    return load(return_X_y=True)[0]


NAMES = ["smo_heart_sigmoid", "nystroem_sonar_flip", "nystroem_heart_krein",
         "distances_cbf_dtw"]


@pytest.mark.parametrize("name", NAMES)
def test_old_model_file_loads_with_the_trusted_types_and_predicts_the_same(name):
    path = HERE / f"{name}.skops"
    untrusted = sio.get_untrusted_types(file=path)
    # every type the old file names is still trusted by the command line
    assert set(untrusted) <= set(TRUSTED_TYPES)
    model = sio.load(path, trusted=untrusted)
    X = _inputs(name)
    np.testing.assert_array_equal(model.predict(X), EXPECTED[f"{name}_predict"])
    np.testing.assert_allclose(model.decision_function(X), EXPECTED[f"{name}_decision"],
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", NAMES)
def test_old_model_file_predicts_the_same_from_the_command_line(name, tmp_path, capsys):
    X = _inputs(name)
    data = tmp_path / "x.npy"
    np.save(data, X)
    out = tmp_path / "pred.txt"
    assert main(["predict", str(HERE / f"{name}.skops"), str(data), "--out", str(out),
                 "--quiet"]) == 0
    pred = np.loadtxt(out)
    np.testing.assert_array_equal(pred, EXPECTED[f"{name}_predict"])


def test_a_model_saved_now_loads_with_the_trusted_types(tmp_path):
    # the types a model of today's layout names are trusted too (new paths after a move)
    path = tmp_path / "m.skops"
    assert main(["fit", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01",
                 "--coef0", "-0.5", "--nystroem", "30", "--cv", "0", "--save", str(path),
                 "--quiet"]) == 0
    assert set(sio.get_untrusted_types(file=path)) <= set(TRUSTED_TYPES)


# -- the kinds 0.1.0 had not, written at the fifth wave's HEAD (tests/data/models_2026_11) ----

HEAD = Path(__file__).parent / "data" / "models_2026_11"
HEAD_EXPECTED = np.load(HEAD / "expected.npz")
HEAD_NAMES = ["remedy_heart_flip", "krein_heart_sigmoid", "series_cbf_dtw",
              "strings_motifs_d2ke"]


def _head_inputs(name):
    """What each file predicts from, rebuilt from the bundled data and the generators."""
    X = isvm.datasets.load_heart(return_X_y=True)[0]
    if name == "remedy_heart_flip":
        return isvm.kernel_matrix(X, X[:100], kernel="sigmoid", gamma=0.01, coef0=-0.5)
    if name == "krein_heart_sigmoid":
        return X
    if name == "series_cbf_dtw":
        S = isvm.datasets.make_cbf(60, length=48, random_state=0)[0]
        return np.array([[float(f"{v:.17g}") for v in row] for row in S])
    return list(isvm.datasets.make_motif_strings(80, length=(8, 16), random_state=0)[0])


@pytest.mark.parametrize("name", HEAD_NAMES)
def test_head_model_file_loads_with_its_checks_and_predicts_the_same(name):
    model = isvm.load_model(HEAD / f"{name}.skops")
    data = _head_inputs(name)
    np.testing.assert_array_equal(model.predict(data), HEAD_EXPECTED[f"{name}_predict"])
    np.testing.assert_allclose(model.decision_function(data),
                               HEAD_EXPECTED[f"{name}_decision"], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", HEAD_NAMES)
def test_head_model_file_predicts_the_same_from_the_command_line(name, tmp_path):
    _predicts_from_the_command_line(HEAD / f"{name}.skops", name, tmp_path,
                                    HEAD_EXPECTED[f"{name}_predict"])


def _predicts_from_the_command_line(model, name, tmp_path, expected):
    """indefsvm predict MODEL DATA on the inputs of ``name`` (_head_inputs), as a file."""
    data = _head_inputs(name)
    if name.startswith("series"):
        path = tmp_path / "x.txt"
        np.savetxt(path, data, fmt="%.17g")  # series without labels, one per line
    elif name.startswith("strings"):
        path = tmp_path / "x.tsv"
        path.write_text("".join(s + "\n" for s in data))
    else:
        path = tmp_path / "x.npy"
        np.save(path, data)
    out = tmp_path / "pred.txt"
    extra = ["--label-column", "none"] if name.startswith("strings") else []
    assert main(["predict", str(model), str(path), "--out", str(out), "--quiet", *extra]) == 0
    np.testing.assert_array_equal(np.loadtxt(out, dtype=expected.dtype), expected)


# -- the kinds 2026-11 had not, written at the sixth wave's HEAD (tests/data/models_2026_12) ---

DEC = Path(__file__).parent / "data" / "models_2026_12"
DEC_EXPECTED = np.load(DEC / "expected.npz")
DEC_NAMES = ["features_heart_sigmoid", "series_cbf_gak"]


def _dec_inputs(name):
    """What each file predicts from: heart kernel rows against the 100 training rows, or CBF."""
    if name == "features_heart_sigmoid":
        return _head_inputs("remedy_heart_flip")
    return _head_inputs("series_cbf_dtw")


@pytest.mark.parametrize("name", DEC_NAMES)
def test_december_model_file_loads_with_its_checks_and_predicts_the_same(name):
    model = isvm.load_model(DEC / f"{name}.skops")
    data = _dec_inputs(name)
    np.testing.assert_array_equal(model.predict(data), DEC_EXPECTED[f"{name}_predict"])
    np.testing.assert_allclose(model.decision_function(data),
                               DEC_EXPECTED[f"{name}_decision"], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", DEC_NAMES)
def test_december_model_file_predicts_the_same_from_the_command_line(name, tmp_path):
    # the inputs are those of the 2026-11 files of the same kinds: the same writer
    twin = "series_cbf_dtw" if name.startswith("series") else "remedy_heart_flip"
    _predicts_from_the_command_line(DEC / f"{name}.skops", twin, tmp_path,
                                    DEC_EXPECTED[f"{name}_predict"])


# -- LIBSVM's family, fit --svm-type (tests/data/models_family_2026_11) -------------------------

FAMILY = Path(__file__).parent / "data" / "models_family_2026_11"
FAMILY_EXPECTED = np.load(FAMILY / "expected.npz")


@pytest.mark.parametrize("name, cls", [
    ("svr_heart_age_sigmoid", isvm.IndefiniteSVR), ("nusvr_heart_age_rbf", isvm.IndefiniteNuSVR),
    ("oneclass_heart_rbf", isvm.IndefiniteOneClassSVM)])
def test_family_model_file_loads_with_its_checks_and_predicts_the_same(name, cls, tmp_path,
                                                                      capsys):
    from sklearn.datasets import dump_svmlight_file

    model = isvm.load_model(FAMILY / f"{name}.skops")
    assert type(model) is cls
    X, y = isvm.datasets.load_heart(return_X_y=True)
    data = X if name.startswith("oneclass") else X[:, 1:]
    expected = FAMILY_EXPECTED[f"{name}_predict"]
    # regression values and decision values to the last bits a CPU's BLAS rounds
    np.testing.assert_allclose(model.predict(data), expected, rtol=1e-12, atol=1e-12)
    if name.startswith("oneclass"):
        np.testing.assert_allclose(model.decision_function(data),
                                   FAMILY_EXPECTED[f"{name}_decision"], rtol=1e-12,
                                   atol=1e-12)
    # and through the command line, which prints each value with 10 digits
    dump_svmlight_file(data, y, str(tmp_path / "data.svm"), zero_based=False)
    assert main(["predict", str(FAMILY / f"{name}.skops"), str(tmp_path / "data.svm")]) == 0
    printed = np.array([float(v) for v in capsys.readouterr().out.split()])
    np.testing.assert_allclose(printed, expected, rtol=1e-9, atol=1e-12)


def test_scaled_model_file_keeps_its_scaler_and_predicts_the_same():
    model = isvm.load_model(FAMILY / "scaled_heart_sigmoid.skops")
    assert [type(step).__name__ for _, step in model.steps] == ["MinMaxScaler",
                                                               "IndefiniteSVC"]
    X = isvm.datasets.load_heart(return_X_y=True)[0]
    data = (X + 1.5) * 10.0 ** np.array([-2, 3, 0, 1, -1, 2, 3, 0, -2, 1, 2, -1, 0])
    np.testing.assert_array_equal(model.predict(data),
                                  FAMILY_EXPECTED["scaled_heart_sigmoid_predict"])
    np.testing.assert_allclose(model.decision_function(data),
                               FAMILY_EXPECTED["scaled_heart_sigmoid_decision"], rtol=1e-12,
                               atol=1e-12)


# -- fit --remedy R on features: FeatureKernel (tests/data/models_features_2026_11) ------------

FEATURES = Path(__file__).parent / "data" / "models_features_2026_11"
FEATURES_EXPECTED = np.load(FEATURES / "expected.npz")


@pytest.mark.parametrize("name, steps, spread", [
    ("clip_heart_sigmoid", ["FeatureKernel", "ClipEigenvalues", "IndefiniteSVC"], False),
    ("scaled_flip_heart_rbf", ["MinMaxScaler", "FeatureKernel", "FlipEigenvalues",
                               "IndefiniteSVC"], True)])
def test_feature_remedy_model_file_predicts_the_same(name, steps, spread, tmp_path, capsys):
    from sklearn.datasets import dump_svmlight_file

    model = isvm.load_model(FEATURES / f"{name}.skops")
    assert [type(step).__name__ for _, step in model.steps] == steps
    X, y = isvm.datasets.load_heart(return_X_y=True)
    if spread:
        X = (X + 1.5) * 10.0 ** np.array([-2, 3, 0, 1, -1, 2, 3, 0, -2, 1, 2, -1, 0])
    np.testing.assert_array_equal(model.predict(X), FEATURES_EXPECTED[f"{name}_predict"])
    np.testing.assert_allclose(model.decision_function(X),
                               FEATURES_EXPECTED[f"{name}_decision"], rtol=1e-10, atol=1e-10)
    dump_svmlight_file(X, y, str(tmp_path / "data.svm"), zero_based=False)
    assert main(["predict", str(FEATURES / f"{name}.skops"), str(tmp_path / "data.svm")]) == 0
    printed = np.array([float(v) for v in capsys.readouterr().out.split()])
    np.testing.assert_array_equal(printed, FEATURES_EXPECTED[f"{name}_predict"])


# -- fitted on CSR features in Python, saved with skops (tests/data/models_sparse_2026_11) --

SPARSE = Path(__file__).parent / "data" / "models_sparse_2026_11"
SPARSE_EXPECTED = np.load(SPARSE / "expected.npz")


@pytest.mark.parametrize("name, sparse_part", [
    ("svc_sparse_heart_sigmoid", lambda m: m.support_vectors_),
    ("clip_sparse_heart_sigmoid", lambda m: m[0].X_fit_)])
def test_a_model_fitted_on_sparse_features_loads_and_predicts_the_same(name, sparse_part,
                                                                       tmp_path, capsys):
    import scipy.sparse as sp

    model = isvm.load_model(SPARSE / f"{name}.skops")
    assert sp.issparse(sparse_part(model))
    X, y = isvm.datasets.load_heart(return_X_y=True)
    S = sp.csr_matrix(X)
    np.testing.assert_array_equal(model.predict(S), SPARSE_EXPECTED[f"{name}_predict"])
    np.testing.assert_allclose(model.decision_function(S),
                               SPARSE_EXPECTED[f"{name}_decision"], rtol=1e-10, atol=1e-10)
    np.savetxt(tmp_path / "heart.csv", np.c_[y, X], delimiter=",", comments="",
               header="label," + ",".join(f"f{i}" for i in range(X.shape[1])))
    assert main(["predict", str(SPARSE / f"{name}.skops"), str(tmp_path / "heart.csv")]) == 0
    printed = np.array([float(v) for v in capsys.readouterr().out.split()])
    np.testing.assert_array_equal(printed, SPARSE_EXPECTED[f"{name}_predict"])


def _rezipped(src, dst, replace):
    """The model file ``src`` written again to ``dst``, each entry's bytes through
    ``replace(name, data)`` (None: as it was), deflated."""
    import zipfile

    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            zout.writestr(info.filename, replace(info.filename, data) or data)
    return str(dst)


MODEL = str(Path(__file__).parent / "data" / "models_0.1.0" / "smo_heart_sigmoid.skops")


def test_a_large_schema_is_refused_whatever_it_packs(tmp_path):
    # a 6.2 MB schema.json that unpacked to 265 MB (43x, under the 50x rule and the 256 MB
    # cap) took 6.6 GB in 56 s: a schema over 16 MiB is refused, and over 4 MiB where it
    # packs more than 20x (skops stores a real one unpacked)
    import zipfile

    def stored(name, data):  # 20 MiB, stored: the old rule let it through
        return data[:-1] + b" " * (20 * 2**20) + data[-1:] if name == "schema.json" else None

    big = tmp_path / "big.skops"
    with zipfile.ZipFile(MODEL) as zin, zipfile.ZipFile(big, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            zout.writestr(info.filename, stored(info.filename, data) or data)
    with pytest.raises(isvm.exceptions.DataFileError, match=r"big\.skops: holds a schema of "
                                                            r"20\.0 MB"):
        isvm.load_model(big)
    rng = np.random.default_rng(0)
    # 4.6 MB of words and blanks: packs ~30x, under the old rule's 50x
    words = " ".join(f"w{v}" for v in rng.integers(0, 1000, 100_000))[:400_000]
    words = (words + " " * (4_600_000 - len(words))).encode()

    def packed(name, data):
        return data[:-1] + words + data[-1:] if name == "schema.json" else None

    with pytest.raises(isvm.exceptions.DataFileError, match=r"holds a schema of 4\.\d MB"):
        isvm.load_model(_rezipped(MODEL, tmp_path / "packed.skops", packed))
    assert isvm.load_model(MODEL).predict(isvm.datasets.load_heart(return_X_y=True)[0]).size


@pytest.mark.timeout(300)
def test_an_array_that_packs_like_a_bomb_is_refused_before_it_is_made(tmp_path):
    # a 0.95 MB model whose support_vectors_ declared a 0.9 GiB array reached 2.1 GB before
    # "The internal representation of SVC was altered" (no file named): the zeros of a
    # declared 400 MB array pack 1000x; refused from the archive's sizes, in a child under
    # a 1.5 GiB address space
    import io
    import zipfile

    from _bounded import run_bounded

    with zipfile.ZipFile(MODEL) as z:
        name = max((i for i in z.infolist() if i.filename.endswith(".npy")),
                   key=lambda i: i.file_size).filename
        width = np.load(io.BytesIO(z.read(name))).shape[1]

    def bomb(entry, data):
        if entry != name:
            return None
        out = io.BytesIO()
        np.save(out, np.zeros((400 * 2**20 // (8 * width), width)))
        return out.getvalue()

    path = _rezipped(MODEL, tmp_path / "bomb.skops", bomb)
    assert os.path.getsize(path) < 2 * 2**20
    got = run_bounded(f"""
        import indefsvm as isvm
        try:
            isvm.load_model({path!r})
            result = "loaded"
        except isvm.exceptions.DataFileError as exc:
            result = str(exc)
    """)
    assert got.get("result", "").startswith(f"{path}: holds {name} of 400.0 MB packed into"), got
    assert got["peak_mib"] < 400, got


def _crafted(tmp_path, name, change, source=MODEL):
    model = isvm.load_model(source)
    change(model)
    path = tmp_path / name
    sio.dump(model, path)
    return str(path)


def test_crafted_models_that_loaded_are_refused_naming_the_file(tmp_path, capsys):
    # support vectors of another width: predict said "inconsistent shapes", no file named;
    # classes named twice: every row predicted as one of them, exit status 0; a series
    # model whose features compare with numpy.subtract: called on the input, the loader
    # having checked the model's own metric only
    heart = isvm.datasets.data_path("heart_scale")

    def narrow(m):
        m.support_vectors_ = m.support_vectors_[:, :5].copy()

    def twice(m):
        m.classes_ = np.array([1.0, 1.0])

    def subtract(m):
        m.nystroem_.metric = np.subtract

    series = str(Path(__file__).parent / "data" / "models_2026_11" / "series_cbf_dtw.skops")
    for path, said in ((_crafted(tmp_path, "narrow.skops", narrow),
                        "has support vectors of shape (123, 5) for 123 support indices of 13 "
                        "features"),
                       (_crafted(tmp_path, "twice.skops", twice),
                        "has classes that are not distinct"),
                       (_crafted(tmp_path, "subtract.skops", subtract, series),
                        "computes its features with a metric other than its own 'dtw'")):
        with pytest.raises(isvm.exceptions.DataFileError) as info:
            isvm.load_model(path)
        assert str(info.value).startswith(f"{path}: {said}"), str(info.value)
        assert main(["predict", path, heart]) == 1
        assert capsys.readouterr().err.startswith(f"indefsvm: error: {path}: ")


def _fitted_models(X, y):
    yr = X[:, 0] + 0.1 * X[:, 1]
    return [
        (isvm.IndefiniteSVC(kernel="sigmoid", gamma=0.05, coef0=-1.0).fit(X, y), X),
        (isvm.IndefiniteNuSVC(nu=0.3, gamma=0.1).fit(X, y), X),
        (isvm.IndefiniteSVR(kernel="rbf", gamma=0.1).fit(X, yr), X),
        (isvm.IndefiniteOneClassSVM(gamma=0.1, nu=0.2).fit(X), X),
        (isvm.ConvexHullClassifier(kernel="rbf", gamma=0.1).fit(X, y), X),
    ]



def test_models_survive_pickle_joblib_and_skops(heart, tmp_path):
    import pickle

    import joblib
    import skops.io as sio

    X, y = heart
    for model, Xp in _fitted_models(X, y):
        ref = model.predict(Xp)
        again = pickle.loads(pickle.dumps(model))
        np.testing.assert_array_equal(again.predict(Xp), ref)
        joblib.dump(model, tmp_path / "m.joblib")
        np.testing.assert_array_equal(joblib.load(tmp_path / "m.joblib").predict(Xp), ref)
        sio.dump(model, tmp_path / "m.skops")
        trusted = sio.get_untrusted_types(file=tmp_path / "m.skops")
        np.testing.assert_array_equal(
            sio.load(tmp_path / "m.skops", trusted=trusted).predict(Xp), ref)


def _saved(tmp_path, argv, name="m.skops"):
    path = tmp_path / name
    assert main(["fit", *argv, "--cv", "0", "--quiet", "--save", str(path)]) == 0
    return path


def ds_path(name):
    return isvm.datasets.data_path(name)


def _load(path):
    import skops.io as sio

    return sio.load(path, trusted=sio.get_untrusted_types(file=path))


def _dump(model, path):
    import skops.io as sio

    sio.dump(model, path)
    return path


def test_an_array_whose_header_disagrees_with_its_size_is_refused_before_loading(tmp_path,
                                                                                  capsys):
    import zipfile

    good = _saved(tmp_path, ["--dataset", "heart"])
    bad = tmp_path / "bad.skops"
    with zipfile.ZipFile(good) as zin, zipfile.ZipFile(bad, "w", zipfile.ZIP_DEFLATED) as zout:
        done = False
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename.endswith(".npy") and not done:
                # a header claiming a 1e6 x 1000 float64 array over the original bytes
                head = {"descr": "<f8", "fortran_order": False, "shape": (10**6, 1000)}
                import io

                buf = io.BytesIO()
                np.lib.format.write_array_header_1_0(buf, head)
                data = b"\x93NUMPY\x01\x00" + buf.getvalue()[8:] + data[128:]
                done = True
            zout.writestr(info, data)
    assert main(["predict", str(bad), ds_path("heart_scale")]) == 1
    err = capsys.readouterr().err
    assert "whose size disagrees" in err and "(1000000, 1000)" in err


def test_a_model_file_larger_than_the_memory_is_refused_before_loading(tmp_path, monkeypatch,
                                                                      capsys):
    import indefsvm._validation as validation

    good = _saved(tmp_path, ["--dataset", "heart"])
    monkeypatch.setattr(validation, "available_memory", lambda: 1024.0)
    assert main(["predict", str(good), ds_path("heart_scale")]) == 1
    assert "unpacks to" in capsys.readouterr().err


@pytest.mark.parametrize("change", ["other kernel", "precomputed", "huge degree", "nan gamma"])
def test_a_nystroem_file_must_compute_its_features_with_its_own_kernel(tmp_path, capsys,
                                                                       change):
    kernel = "polynomial" if change == "huge degree" else "rbf"
    model = _load(_saved(tmp_path, ["--dataset", "heart", "--kernel", kernel,
                                    "--nystroem", "30"]))
    ny = model.nystroem_
    if change == "other kernel":
        ny._name = "sigmoid"
    elif change == "precomputed":
        ny._name = "precomputed"
    elif change == "huge degree":
        ny._params["degree"] = 10**6
    else:
        ny._params["gamma"] = float("nan")
    path = _dump(model, tmp_path / "changed.skops")
    assert main(["predict", str(path), ds_path("heart_scale")]) == 1
    err = capsys.readouterr().err
    assert "indefsvm: error:" in err and "internal error" not in err
    assert "fit the model again" in err


@pytest.mark.parametrize("change", ["nan gamma", "unknown kind"])
def test_a_distance_model_file_is_checked_before_it_predicts(tmp_path, capsys, change):
    D = _line_distances(30) + np.random.default_rng(0).uniform(0, 0.1, (30, 30))
    D = (D + D.T) / 2
    np.fill_diagonal(D, 0)
    np.save(tmp_path / "D.npy", D)
    np.savetxt(tmp_path / "y.txt", (np.arange(30) > 14).astype(int), fmt="%d")
    model = _load(_saved(tmp_path, [str(tmp_path / "D.npy"), "--labels",
                                    str(tmp_path / "y.txt"), "--distances"]))
    if change == "nan gamma":
        model[0].gamma_ = float("nan")
    else:
        model[0].kind = "cosine"
    path = _dump(model, tmp_path / "changed.skops")
    assert main(["predict", str(path), str(tmp_path / "D.npy")]) == 1
    err = capsys.readouterr().err
    assert "distance kernel" in err and "internal error" not in err


def test_one_vs_one_problems_must_name_the_models_classes(tmp_path, capsys):
    model = _load(_saved(tmp_path, ["--dataset", "heart"]))
    model._pairs = [(0, 5, 0)]
    path = _dump(model, tmp_path / "changed.skops")
    assert main(["predict", str(path), ds_path("heart_scale")]) == 1
    assert "one-vs-one problems that do not match its 2 classes" in capsys.readouterr().err
