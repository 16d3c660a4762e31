"""``indefsvm.load_model``: a command-line model file in Python, with the command line's
checks -- a series or strings model vouches for every field (issue 46, item 4; issue 45)."""


import numpy as np
import pytest
import skops.io as sio

import indefsvm as isvm
from indefsvm.cli import TRUSTED_TYPES, main
from indefsvm.exceptions import DataFileError


@pytest.fixture(scope="module")
def series_model(tmp_path_factory):
    d = tmp_path_factory.mktemp("m")
    S, y = isvm.datasets.make_cbf(60, length=40, random_state=0)
    data = d / "s.txt"
    with open(data, "w") as fh:
        for s, label in zip(S, y, strict=True):
            fh.write(f"{label}," + ",".join(f"{v:.5f}" for v in s) + "\n")
    path = d / "dtw.skops"
    assert main(["fit", str(data), "--metric", "dtw", "--window", "0.1", "--nystroem", "12",
                 "-C", "1", "--cv", "0", "--quiet", "--save", str(path)]) == 0
    return path, data, np.round(S, 5), y


def test_load_model_predicts_as_the_command_line(series_model, capsys):
    path, data, S, _ = series_model
    model = isvm.load_model(path)
    assert type(model).__name__ == "NystroemSVC" and model.metric == "dtw"
    capsys.readouterr()
    assert main(["predict", str(path), str(data)]) == 0
    cli = np.array(capsys.readouterr().out.split(), dtype=int)
    np.testing.assert_array_equal(model.predict(S), cli)


def _tampered(path, tmp_path, change):
    model = sio.load(path, trusted=list(TRUSTED_TYPES) + sio.get_untrusted_types(file=path))
    change(model)
    out = tmp_path / "bad.skops"
    sio.dump(model, out)
    return out


@pytest.mark.parametrize("change,match", [
    (lambda m: setattr(m.nystroem_.distance_kernel_, "gamma_", float("nan")),
     "gamma nan is not a finite number > 0"),
    (lambda m: setattr(m.nystroem_.distance_kernel_, "kind", "bogus"),
     "distance kernel of kind 'bogus'"),
    (lambda m: setattr(m, "intercept_", np.zeros(5)), "intercept values of the wrong shape"),
    (lambda m: setattr(m, "metric_", np.full(m.n_features_used_, 0.5)),
     "feature metric that is not \\+1 / -1"),
    (lambda m: setattr(m.nystroem_, "normalization_", m.nystroem_.normalization_[:3]),
     "landmarks and features of inconsistent shapes"),
    (lambda m: setattr(m, "metric", "cosine"), "not a metric of the command line"),
])
def test_a_tampered_series_model_is_refused(series_model, tmp_path, change, match):
    path = _tampered(series_model[0], tmp_path, change)
    with pytest.raises(DataFileError, match=match):
        isvm.load_model(path)


def test_load_model_names_a_missing_file(tmp_path):
    with pytest.raises(DataFileError, match="no such model file"):
        isvm.load_model(tmp_path / "nope.skops")


def test_load_model_names_a_path_that_is_no_path():
    with pytest.raises(TypeError, match="path must be the model file's path .* got ndarray"):
        isvm.load_model(np.zeros(3))


def _tamper(src, dst, edit):
    """Load a model file, change it, save it again (as a crafted file would be)."""
    import skops.io as sio

    from indefsvm.cli import TRUSTED_TYPES

    model = sio.load(src, trusted=list(TRUSTED_TYPES) + sio.get_untrusted_types(file=src))
    edit(model)
    sio.dump(model, dst)



@pytest.mark.parametrize("edit, match", [
    (lambda m: m._dual_coef_.__setitem__((0, 0), np.nan), "NaN or infinite"),
    (lambda m: m.support_.__setitem__(0, -5), "support indices outside"),
    (lambda m: setattr(m, "degree", 2**40), "degree"),
])
def test_crafted_model_files_are_refused(tmp_path, heart_model, capsys, edit, match):
    bad = tmp_path / "bad.skops"
    _tamper(heart_model, bad, edit)
    assert main(["predict", str(bad), isvm.datasets.data_path("heart_scale")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("indefsvm: error:") and match in err and "internal error" not in err



def test_a_scikit_learn_svc_file_is_not_one_of_ours(tmp_path, capsys):
    import skops.io as sio
    from sklearn.svm import SVC

    X, y = isvm.datasets.load_heart(return_X_y=True)
    sio.dump(SVC().fit(X, y), tmp_path / "svc.skops")
    assert main(["predict", str(tmp_path / "svc.skops"),
                 isvm.datasets.data_path("heart_scale")]) == 1
    assert "sklearn.svm._classes.SVC, not an SVM of indefsvm" in capsys.readouterr().err

