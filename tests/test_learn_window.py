"""DTW's window learned by leave-one-out 1-NN (the UCR archive's learned window): the library
function against the textbook dynamic programme and scikit-learn's leave-one-out 1-NN, and
``--window auto`` / a list on the command line."""

import json

import numpy as np
import pytest
from sklearn.model_selection import LeaveOneOut, cross_val_score
from sklearn.neighbors import KNeighborsClassifier

import indefsvm as isvm
from indefsvm.cli import main
from indefsvm.distances import learn_window
from indefsvm.distances._window import DEFAULT_WINDOWS

from .test_distances import dtw_reference


def _loo_1nn_error(S, y, window):
    # independent: the textbook DP's distances, scikit-learn's 1-NN, leave one out
    n = len(S)
    D = np.array([[dtw_reference(S[i], S[j], window) for j in range(n)] for i in range(n)])
    knn = KNeighborsClassifier(n_neighbors=1, metric="precomputed")
    return 1.0 - cross_val_score(knn, D, y, cv=LeaveOneOut()).mean()


def test_errors_are_leave_one_out_1nn_of_the_textbook_dtw_and_the_least_is_chosen():
    S, y = isvm.datasets.make_cbf(24, length=(20, 28), random_state=3)
    windows = [0.0, 0.05, 0.1, 0.3, 1.0]
    choice = learn_window(S, y, windows=[1.0, 0.1, 0.0, 0.3, 0.05, 0.1])
    assert choice.windows == windows  # sorted, duplicates dropped
    expected = [_loo_1nn_error(S, y, w) for w in windows]
    np.testing.assert_allclose(choice.errors, expected, atol=1e-12)
    errors = np.round(expected, 12)  # (1 - mean accuracy: a rounding apart)
    assert choice.window == windows[int(np.argmin(errors))]  # the first of the least
    assert choice.error == pytest.approx(errors.min()) and choice.n == 24
    d = choice.to_dict()
    assert json.loads(json.dumps(d))["window"] == choice.window
    assert f"DTW window {choice.window:g}" in str(choice) and "<table>" in choice._repr_html_()


def test_ties_go_to_the_narrower_band():
    # two well separated classes: every window classifies all; the narrowest is chosen
    rng = np.random.default_rng(0)
    S = np.vstack([rng.normal(0, 0.1, (6, 15)), rng.normal(5, 0.1, (6, 15))])
    choice = learn_window(S, np.repeat([0, 1], 6), windows=[0.2, 0.0, 1.0])
    assert choice.errors == [0.0, 0.0, 0.0] and choice.window == 0.0


def test_default_windows_are_0_to_0_2():
    assert DEFAULT_WINDOWS[0] == 0.0 and DEFAULT_WINDOWS[-1] == 0.2 and len(DEFAULT_WINDOWS) == 21
    S, y = isvm.datasets.make_cbf(12, random_state=0)
    assert learn_window(S, y).windows == list(DEFAULT_WINDOWS)


@pytest.mark.parametrize("windows, match", [
    ([0.1, 1.5], r"windows holds 1.5"), ([True], "windows holds True"), ("0.1", "a list"),
    ([], "empty")])
def test_bad_windows_are_named(windows, match):
    S, y = isvm.datasets.make_cbf(6, random_state=0)
    with pytest.raises(ValueError, match=match):
        learn_window(S, y, windows=windows)


def test_labels_must_match_the_series():
    S, y = isvm.datasets.make_cbf(6, random_state=0)
    with pytest.raises(ValueError, match=r"one label per series of X: X holds 6 series"):
        learn_window(S, y[:5])


@pytest.fixture(scope="module")
def series_file(tmp_path_factory):
    S, y = isvm.datasets.make_cbf(45, length=(40, 50), random_state=0)
    path = tmp_path_factory.mktemp("window") / "cbf.tsv"
    with open(path, "w") as fh:
        for s, label in zip(S, y, strict=True):
            fh.write(f"{label}\t" + "\t".join(f"{v:.6f}" for v in s) + "\n")
    return str(path), S, y


def test_fit_window_auto_learns_it_says_it_and_trains_with_it(series_file, tmp_path, capsys):
    path, S, y = series_file
    model = str(tmp_path / "m.skops")
    assert main(["fit", path, "--metric", "dtw", "--window", "0,0.1,1", "-C", "1",
                 "--gamma", "0.01", "--cv", "0", "--json", "--save", model]) == 0
    out = capsys.readouterr()
    summary = json.loads(out.out)
    choice = learn_window([np.round(s, 6) for s in S], y, windows=[0.0, 0.1, 1.0])
    assert summary["window"] == choice.window
    assert summary["window_learned"]["errors"] == pytest.approx(choice.errors)
    assert f"DTW window {choice.window:g}" in out.err
    assert "leave-one-out 1-NN" in out.err
    loaded = isvm.load_model(model)
    assert loaded.metric_params == {"window": choice.window}


def test_compare_window_auto_prints_the_learned_window_in_its_fit_command(series_file, capsys):
    path, _, _ = series_file
    assert main(["compare", path, "--metric", "dtw", "--window", "auto", "--methods",
                 "krein,flip", "--cv", "3"]) == 0
    out = capsys.readouterr()
    learned = out.err.split("DTW window ")[1].split(" ")[0]
    assert f"--window {learned} " in out.out


@pytest.mark.parametrize("argv, match", [
    (["--window", "0,2"], "each window of a list is a share of the length in [0, 1]"),
    (["--window", "x"], "expected a number, 'auto' or numbers separated by commas"),
])
def test_bad_window_options_are_one_line(series_file, capsys, argv, match):
    assert main(["fit", series_file[0], "--metric", "dtw", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and match in err[0]


def test_window_auto_needs_labels(series_file, capsys):
    assert main(["check", series_file[0], "--metric", "dtw", "--label-column", "none",
                 "--window", "auto"]) == 2
    assert "learns the band from the labels" in capsys.readouterr().err


@pytest.mark.parametrize("call", [
    lambda: isvm.pairwise_distances([[1.0, 2, 3], [1, 2, 4]], metric="dtw", window="auto"),
    lambda: isvm.NystroemSVC(metric="dtw", metric_params={"window": "auto"},
                             n_components=2).fit([[1.0, 2, 3], [1, 2, 4]], [0, 1]),
])
def test_window_auto_in_python_names_learn_window(call):
    with pytest.raises(ValueError, match=r"learn_window\(S, y\)\.window"):
        call()
