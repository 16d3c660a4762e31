"""Model files written by an earlier release keep loading and predict the same.

The files under ``tests/data/models_0.1.0`` were written by ``indefsvm fit --save`` before the
package layout changed (their README gives the commands); they name the private module paths
of that release. Each must load through the command line's trusted types and give exactly the
predictions and decision values it gave when it was written.
"""

from pathlib import Path

import numpy as np
import pytest
import skops.io as sio

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
