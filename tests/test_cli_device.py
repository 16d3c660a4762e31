"""The command line's --device: landmark models and the matrix-free check on a GPU, run here
on the emulated device (``indefsvm._device._EMULATE``: the GPU's functions on NumPy, the CUDA
source through its C build), and the refusals that need no GPU."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm import _device
from indefsvm.cli import main


@pytest.fixture
def emulated(monkeypatch):
    monkeypatch.setattr(_device, "_EMULATE", True)


def _predictions(capsys, argv):
    capsys.readouterr()
    assert main(argv) == 0
    return np.array([float(v) for v in capsys.readouterr().out.split()])


def test_fit_nystroem_on_the_device_saves_a_model_that_predicts_on_the_cpu(
        emulated, tmp_path, capsys):
    gpu, cpu = tmp_path / "gpu.skops", tmp_path / "cpu.skops"
    common = ["fit", "--dataset", "heart", "--nystroem", "60", "-C", "1", "--gamma", "0.05",
              "--cv", "0", "--seed", "0", "--quiet"]
    assert main(common + ["--device", "cuda", "--save", str(gpu)]) == 0
    assert main(common + ["--save", str(cpu)]) == 0
    model = isvm.load_model(gpu)
    assert model.device == "cuda"  # the file says where it was fitted
    heart = str(tmp_path / "heart.txt")
    X, y = isvm.datasets.load_heart(return_X_y=True)
    np.savetxt(heart, np.c_[y, X], delimiter=",", fmt="%.10g")
    # predict computes on the CPU by default, and on the (emulated) device when asked
    on_cpu = _predictions(capsys, ["predict", str(gpu), heart, "--label-column", "0"])
    on_dev = _predictions(capsys, ["predict", str(gpu), heart, "--label-column", "0",
                                   "--device", "cuda"])
    ref = _predictions(capsys, ["predict", str(cpu), heart, "--label-column", "0"])
    np.testing.assert_array_equal(on_cpu, on_dev)
    # the same model as the CPU's fit, within float32 features: the same labels nearly
    # everywhere (a point on the boundary may flip)
    assert np.mean(on_cpu == ref) >= 0.99


def _cbf_file(tmp_path):
    """60 CBF series of length 32, one per line with the label first."""
    S, y = isvm.datasets.make_cbf(60, length=32, random_state=0)
    path = tmp_path / "cbf.txt"
    path.write_text("".join(f"{lab}," + ",".join(f"{v:.6g}" for v in s) + "\n"
                            for s, lab in zip(S, y, strict=True)))
    return path


def test_fit_metric_dtw_on_the_device(emulated, tmp_path, capsys):
    path = _cbf_file(tmp_path)
    out = tmp_path / "m.skops"
    assert main(["fit", str(path), "--metric", "dtw", "--window", "0.1", "--nystroem", "20",
                 "-C", "1", "--gamma", "0.01", "--cv", "0", "--quiet", "--device", "cuda",
                 "--save", str(out)]) == 0
    model = isvm.load_model(out)
    assert model.device == "cuda" and model.nystroem_.n_landmarks_ == 20


def test_check_matrix_free_on_the_device(emulated, capsys):
    import json

    argv = ["check", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01",
            "--method", "lanczos", "--json", "--quiet"]
    assert main(argv + ["--device", "cuda"]) == 0
    dev = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    cpu = json.loads(capsys.readouterr().out)
    # the same Lanczos steps on the device's kernel products: the same estimates
    assert dev["method"] == cpu["method"] == "lanczos" and dev["verdict"] == cpu["verdict"]
    for key in ("lam_min", "lam_max", "class_mean_sqdist"):
        assert dev[key] == pytest.approx(cpu[key], rel=1e-6), key


@pytest.mark.parametrize("argv, words", [
    (["fit", "--dataset", "heart", "--device", "cuda", "--cv", "0"],
     "--device cuda trains the landmark models"),
    (["check", "--dataset", "heart", "--device", "cuda"],
     "add --method slq or lanczos"),
    (["check", "--dataset", "heart", "--distances", "--device", "cuda"],
     "distances are checked on the CPU"),
])
def test_device_options_that_do_not_apply_are_refused(emulated, argv, words, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("indefsvm: error:") == 1


def test_predict_device_cuda_with_a_cpu_model_is_refused(tmp_path, capsys):
    path = tmp_path / "svc.skops"
    assert main(["fit", "--dataset", "heart", "-C", "1", "--gamma", "0.05", "--cv", "0",
                 "--quiet", "--save", str(path)]) == 0
    X, y = isvm.datasets.load_heart(return_X_y=True)
    data = tmp_path / "heart.txt"
    np.savetxt(data, np.c_[y, X], delimiter=",", fmt="%.10g")
    assert main(["predict", str(path), str(data), "--label-column", "0",
                 "--device", "cuda"]) == 2
    assert "computes on the CPU" in capsys.readouterr().err


def test_no_gpu_is_said_before_the_work_in_the_options_words(monkeypatch, capsys):
    monkeypatch.setattr(_device, "_EMULATE", False)
    monkeypatch.setitem(sys.modules, "cupy", None)  # import cupy: an ImportError
    assert main(["fit", "--dataset", "heart", "--nystroem", "40", "--device", "cuda"]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("indefsvm: error: --device cuda needs CuPy")
    assert "or use --device cpu" in captured.err and "device='" not in captured.err
    assert "search" not in captured.err  # nothing was computed before the refusal


def test_fit_metric_on_the_device_searches_c_and_gamma_on_the_cpu(emulated, tmp_path, capsys):
    # without -C and --gamma, fit --metric searches them with the SMO on the exact kernel of
    # the distances (the CPU), then fits the landmark model on the device with the choice;
    # the search once refused with "the SMO runs on the CPU: add --nystroem M", which was given
    path = _cbf_file(tmp_path)
    out = tmp_path / "m.skops"
    assert main(["fit", str(path), "--metric", "dtw", "--nystroem", "20", "--cv", "0",
                 "--device", "cuda", "--save", str(out), "--json"]) == 0
    import json

    summary = json.loads(capsys.readouterr().out)
    model = isvm.load_model(out)
    assert model.device == "cuda"
    # the model is fitted with what the search chose
    assert summary["search"]["C"] == model.C == summary["C"]
