"""``indefsvm fit FILE --metric dtw|levenshtein --nystroem M`` and ``predict`` on its files."""

import json

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.cli import main


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("objects")
    S, y = isvm.datasets.make_cbf(90, length=(60, 80), random_state=0)
    with open(d / "series.txt", "w") as fh:
        for s, label in zip(S, y, strict=True):
            fh.write(f"{label}," + ",".join(f"{v:.6f}" for v in s) + "\n")
    with open(d / "series_last.txt", "w") as fh:
        for s, label in zip(S, y, strict=True):
            fh.write(" ".join(f"{v:.6f}" for v in s) + f" {label}\n")
    X, ys = isvm.datasets.make_motif_strings(90, random_state=0)
    with open(d / "strings.tsv", "w") as fh:
        for s, label in zip(X, ys, strict=True):
            fh.write(f"{label}\t{s}\n")
    return d, S, y, X, ys


def test_series_fit_save_predict_equal_the_library(files, capsys):
    d, S, y, _, _ = files
    model = d / "dtw.skops"
    assert main(["fit", str(d / "series.txt"), "--metric", "dtw", "--window", "0.1",
                 "--nystroem", "30", "-C", "1", "--gamma", "median", "--cv", "0", "--json",
                 "--save", str(model)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n_samples"] == 90 and out["metric"] == "dtw" and out["landmarks"] == 30
    ref = isvm.NystroemSVC(metric="dtw", metric_params={"window": 0.1}, n_components=30,
                           C=1.0, random_state=0, n_jobs=-1).fit(
        [np.round(s, 6) for s in S], y)
    assert out["gamma"] == pytest.approx(ref.nystroem_.distance_kernel_.gamma_, rel=1e-9)
    assert main(["predict", str(model), str(d / "series.txt")]) == 0
    captured = capsys.readouterr()
    pred = np.array(captured.out.split(), dtype=int)
    assert np.array_equal(pred, ref.predict([np.round(s, 6) for s in S]))
    assert "accuracy" in captured.err
    # the label last, spaces: the same model
    assert main(["predict", str(model), str(d / "series_last.txt"), "--label-column",
                 "last"]) == 0
    assert np.array_equal(np.array(capsys.readouterr().out.split(), dtype=int), pred)


def test_the_alignment_kernels_sigma_reaches_the_model_and_the_printed_commands(files, capsys):
    """--sigma (a row of the option table feeding metric_params) trains what the library
    trains with metric_params={"sigma": ...}, and the commands printed to train again say it."""
    d, S, y, _, _ = files
    model = d / "gak.skops"
    assert main(["fit", str(d / "series.txt"), "--metric", "gak", "--sigma", "2.5",
                 "--window", "0.2", "--nystroem", "20", "-C", "1", "--gamma", "median",
                 "--cv", "0", "--quiet", "--save", str(model)]) == 0
    capsys.readouterr()
    fitted = isvm.load_model(model)
    assert fitted.metric_params == {"window": 0.2, "sigma": 2.5}
    series = [np.round(s, 6) for s in S]
    ref = isvm.NystroemSVC(metric="gak", metric_params={"window": 0.2, "sigma": 2.5},
                           n_components=20, C=1.0, random_state=0, n_jobs=-1).fit(series, y)
    np.testing.assert_allclose(fitted.decision_function(series), ref.decision_function(series),
                               rtol=1e-9, atol=1e-9)
    assert main(["compare", str(d / "series.txt"), "--metric", "gak", "--sigma", "2.5",
                 "--methods", "krein", "--cv", "3"]) == 0
    assert "--metric gak --sigma 2.5 " in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["compare", "--methods", "krein", "--cv", "3"],
    ["fit", "--nystroem", "20", "--cv", "0"],  # no -C, no --gamma: the search's block
])
@pytest.mark.parametrize("metric, option, param", [
    ("gak", "--sigma", "sigma"), ("msm", "--split-cost", "c"),
])
def test_a_distance_parameter_reaches_every_block_of_distances(files, capsys, monkeypatch,
                                                                argv, metric, option, param):
    """The distances compare and fit's search compute among the objects are those of the
    parameters given (they once took --window alone: --sigma was dropped there)."""
    d = files[0]
    seen = []
    real = isvm.distances.pairwise_distances

    def spy(*a, **kw):
        seen.append(kw)
        return real(*a, **kw)

    monkeypatch.setattr(isvm.distances, "pairwise_distances", spy)
    monkeypatch.setattr(isvm, "pairwise_distances", spy)
    assert main([argv[0], str(d / "series.txt"), "--metric", metric, option, "0.75",
                 "--quiet", *argv[1:]]) == 0
    capsys.readouterr()
    blocks = [kw for kw in seen if kw.get("metric") == metric]
    assert blocks and all(kw.get(param) == 0.75 for kw in blocks)


@pytest.mark.parametrize("argv, said", [
    (["fit", "{series}", "--metric", "dtw", "--sigma", "1"],
     "--sigma is the bandwidth of the global alignment kernel; drop it with --metric dtw."),
    (["check", "{series}", "--metric", "levenshtein", "--sigma", "1"],
     "--sigma is the bandwidth of the global alignment kernel; drop it with --metric "
     "levenshtein."),
    (["check", "--dataset", "heart", "--sigma", "1"],
     "--sigma is the bandwidth of the global alignment kernel: it goes with --metric gak."),
    (["check", "--dataset", "heart", "--window", "0.1"],
     "--window is the band of an elastic distance: it goes with --metric dtw or gak or msm."),
    (["fit", "--dataset", "heart", "--sigma", "1"], "--sigma goes with --metric"),
    (["compare", "--dataset", "heart", "--sigma", "1"], "--sigma goes with --metric"),
    (["check", "{series}", "--metric", "gak", "--sigma", "-1"], "--sigma must be a number > 0"),
])
def test_a_distance_parameter_is_refused_where_it_does_not_apply(files, capsys, argv, said):
    d = files[0]
    argv = [a.replace("{series}", str(d / "series.txt")) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"indefsvm: error: {said}"), err


def test_strings_with_d2ke_and_cross_validation(files, capsys):
    d, _, _, X, ys = files
    assert main(["fit", str(d / "strings.tsv"), "--metric", "levenshtein", "--nystroem", "40",
                 "--features", "d2ke", "-C", "10", "--cv", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "features=d2ke" in out and "3-fold CV accuracy" in out
    assert "40 used (40 positive, 0 negative)" in out


def test_kmedoids_landmarks_from_the_command_line(files, capsys):
    d = files[0]
    assert main(["fit", str(d / "series.txt"), "--metric", "dtw", "--nystroem", "20",
                 "--landmarks", "kmedoids++", "-C", "1", "--cv", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["converged"] is True


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("content, argv, match", [
    ("1,0.1,0.2\n2,0.3,x\n", ["--metric", "dtw"], "line 2: value 'x' is not a number"),
    ("+1 1:0.5 3:-1\n-1 2:0.25\n", ["--metric", "dtw"],
     "line 1: value '1:0.5' is not a number: this looks like a LIBSVM feature file"),
    ("1,0.1,0.2\n2,0.3,nan,0.1\n", ["--metric", "dtw"], "line 2: holds NaN at point 2"),
    ("1,0.1,0.2\n2,0.3,inf\n", ["--metric", "dtw"], "line 2: holds an infinity at point 2"),
    ("1,0.1,0.2\n2,nan,nan\n", ["--metric", "dtw"], "line 2: holds no number besides"),
    ("1,0.1,0.2\n\n2,0.3,0.1\n", ["--metric", "dtw"], "line 2: is empty"),
    ("1\n2,0.1\n", ["--metric", "dtw"], "line 1: holds no value after the label"),
    ("a\tACGT\nb\t\n", ["--metric", "levenshtein"], "line 2: holds an empty string"),
    ("ACGT\n", ["--metric", "levenshtein"], "line 1: has no label"),
])
def test_bad_files_name_the_line(tmp_path, capsys, content, argv, match):
    path = _write(tmp_path / "data.txt", content)
    code = main(["fit", path, *argv, "--nystroem", "1", "--cv", "0"])
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and match in err[0] and path in err[0]


@pytest.mark.parametrize("sep, label_last", [("\t", False), (",", True)])
def test_nan_padded_series_are_read_as_shorter_series(tmp_path, capsys, sep, label_last):
    # the UCR archive pads shorter series with NaN up to the longest one: the distances of
    # such a file are those of the series without the padding
    S, y = isvm.datasets.make_cbf(24, length=(30, 50), random_state=1)
    width = max(len(s) for s in S)
    with open(tmp_path / "pad.tsv", "w") as fh:
        for s, label in zip(S, y, strict=True):
            values = [f"{v:.6f}" for v in s] + ["NaN"] * (width - len(s))
            fh.write(sep.join(values + [str(label)] if label_last else [str(label)] + values)
                     + "\n")
    argv = ["check", str(tmp_path / "pad.tsv"), "--metric", "dtw", "--json"]
    assert main(argv + (["--label-column", "last"] if label_last else [])) == 0
    out = capsys.readouterr()
    padded = sum(len(s) < width for s in S)
    assert f"{padded} of the 24 series end in NaN" in out.err
    from indefsvm.datasets._objects_file import read_objects

    with pytest.warns(UserWarning, match="end in NaN"):
        X, y_read = read_objects(str(tmp_path / "pad.tsv"), "dtw",
                                 "last" if label_last else None)
    assert [len(x) for x in X] == [len(s) for s in S]
    np.testing.assert_array_equal(y_read, y)
    np.testing.assert_allclose(isvm.pairwise_distances(X, metric="dtw"),
                               isvm.pairwise_distances([np.round(s, 6) for s in S],
                                                       metric="dtw"), atol=1e-9)


def test_nan_padded_table_columns_are_read_as_shorter_series(tmp_path):
    from indefsvm.datasets._objects_file import read_objects

    _write(tmp_path / "t.csv", "label,t0,t1,t2\n1,1,2,NaN\n2,1,2,3\n1,3,NaN,NaN\n")
    with pytest.warns(UserWarning, match="2 of the 3 series end in NaN"):
        X, y = read_objects(str(tmp_path / "t.csv"), "dtw", None)
    assert [list(x) for x in X] == [[1, 2], [1, 2, 3], [3]]
    _write(tmp_path / "u.csv", "label,t0,t1,t2\n1,1,NaN,2\n")
    with pytest.raises(isvm.exceptions.DataFileError, match="line 2: holds NaN at point 2"):
        read_objects(str(tmp_path / "u.csv"), "dtw", None)


@pytest.mark.parametrize("argv, match", [
    (["--metric", "levenshtein", "--nystroem", "5", "--window", "0.1"],
     "--window is the band of an elastic distance"),
    (["--metric", "dtw", "--nystroem", "5", "--kernel", "sigmoid"], "not a kernel of distances"),
    (["--metric", "dtw", "--nystroem", "5", "--gamma", "scale"], "--gamma scale is for features"),
    (["--metric", "dtw", "--nystroem", "5", "--remedy", "shift"], "not one of NystroemSVC's"),
    (["--metric", "dtw", "--nystroem", "500"], "more than the 90 objects"),
    (["--window", "0.1"], "--window goes with --metric"),
    # the model's own rule, said before the search of C and gamma (its line) and its work
    (["--metric", "dtw", "--nystroem", "5", "--window", "2"], "--window must be"),
])
def test_usage_mistakes_are_one_line(files, capsys, argv, match):
    d = files[0]
    assert main(["fit", str(d / "series.txt"), *argv, "--cv", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and match in err[0]


def test_a_changed_model_file_is_refused(files, tmp_path, capsys):
    import skops.io as sio

    d, S, y, _, _ = files
    model = isvm.NystroemSVC(metric="dtw", n_components=10, random_state=0).fit(S, y)
    model.coef_[0, 0] = np.nan
    sio.dump(model, tmp_path / "bad.skops")
    assert main(["predict", str(tmp_path / "bad.skops"), str(d / "series.txt")]) == 1
    assert "NaN" in capsys.readouterr().err


def test_training_accuracy_of_a_large_file_is_measured_on_a_sample(files, capsys, monkeypatch):
    # each prediction costs m distances: past TRAIN_SCORE_MAX objects a random sample, said
    import indefsvm.cli._objects as objects

    monkeypatch.setattr(objects, "TRAIN_SCORE_MAX", 40)
    d = files[0]
    assert main(["fit", str(d / "series.txt"), "--metric", "dtw", "--nystroem", "20",
                 "-C", "1", "--cv", "0"]) == 0
    out = capsys.readouterr().out
    assert "(training accuracy on 40 of the 90 objects, drawn at random)" in out
    assert main(["fit", str(d / "series.txt"), "--metric", "dtw", "--nystroem", "20",
                 "-C", "1", "--cv", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["training_accuracy_objects"] == 40


def test_the_linear_kind_has_no_gamma(files, capsys):
    d = files[0]
    assert main(["fit", str(d / "series.txt"), "--metric", "dtw", "--nystroem", "20",
                 "--kernel", "linear", "-C", "1", "--cv", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["gamma"] is None


def test_a_file_of_one_class_is_refused_before_the_search(tmp_path, capsys):
    S, _ = isvm.datasets.make_cbf(20, length=16, random_state=0)
    path = tmp_path / "one.txt"
    path.write_text("".join("7," + ",".join(f"{v:.6f}" for v in s) + "\n" for s in S))
    assert main(["fit", str(path), "--metric", "dtw", "--nystroem", "5"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    # one line, the command line's own words (was scikit-learn's, after the search's line)
    assert err == ["indefsvm: error: the labels hold one class only (7); a classifier needs "
                   "two or more."]


def test_landmarks_default_to_min_n_300_and_are_said(files, capsys):
    """fit --metric without --nystroem: min(n, 300) landmarks (compare --metric's default),
    here all 90 objects -- the landmark model of the exact kernel, as --nystroem 90."""
    d = files[0]
    common = ["fit", str(d / "series.txt"), "--metric", "dtw", "-C", "1", "--gamma", "median",
              "--cv", "0", "--json", "--seed", "0"]
    assert main(common) == 0
    captured = capsys.readouterr()
    assert "--nystroem not given: 90 landmarks (all the objects: the exact kernel)" in \
        captured.err
    default = json.loads(captured.out)
    assert main(common + ["--nystroem", "90"]) == 0
    given = json.loads(capsys.readouterr().out)
    assert default["landmarks"] == 90
    assert default["training_accuracy"] == given["training_accuracy"]
    assert default["features_used"] == given["features_used"]


def test_default_landmarks_cross_validate_by_the_rule_of_each_fold(files, capsys):
    """Without --nystroem the model has all 90 objects as landmarks; a fold's training part
    has 72, and its model the same rule's 72 -- as --nystroem 72 gives each fold (this
    ended in "--nystroem 90 is more than the 72 training samples" though no --nystroem was
    given)."""
    d = files[0]
    common = ["fit", str(d / "series.txt"), "--metric", "dtw", "-C", "1", "--gamma", "median",
              "--cv", "5", "--json", "--seed", "0"]
    assert main(common) == 0
    captured = capsys.readouterr()
    assert "cross-validation: 72 landmarks a fold" in captured.err
    default = json.loads(captured.out)
    assert default["landmarks"] == 90
    assert main(common + ["--nystroem", "72"]) == 0
    given = json.loads(capsys.readouterr().out)
    assert default["cv_accuracy_mean"] == given["cv_accuracy_mean"]
    assert default["cv_accuracy_std"] == given["cv_accuracy_std"]


def test_landmarks_beyond_a_fold_are_refused_before_the_work(files, tmp_path, capsys):
    d = files[0]
    model = tmp_path / "m.skops"
    assert main(["fit", str(d / "series.txt"), "--metric", "dtw", "--nystroem", "80",
                 "--save", str(model)]) == 2
    err = capsys.readouterr().err
    assert "--nystroem 80 is more than the 72 training objects of a CV fold" in err
    assert "search" not in err and not model.exists()


@pytest.mark.parametrize("extra", [[], ["--nystroem", "80"], ["--nystroem", "30"]])
def test_the_command_compare_suggests_trains(files, tmp_path, capsys, extra):
    import shlex

    d = files[0]
    assert main(["compare", str(d / "series.txt"), "--metric", "dtw", "--methods",
                 "krein,clip", "--seed", "0", *extra]) == 0
    line = [t for t in capsys.readouterr().out.splitlines() if t.startswith("To train it:")]
    argv = shlex.split(line[0].split(":", 1)[1])[1:]
    assert ("--nystroem" in argv) == bool(extra)
    argv[argv.index("--save") + 1] = str(tmp_path / "model.skops")
    assert main(argv) == 0, capsys.readouterr().err
    assert (tmp_path / "model.skops").exists()


def test_the_fit_line_check_recommends_trains(files, tmp_path, capsys):
    """check FILE --metric recommends a fit line; it runs as written (with --nystroem 90 on
    90 objects it was refused: a CV fold holds 72)."""
    import shlex

    d = files[0]
    assert main(["check", str(d / "series.txt"), "--metric", "dtw"]) == 0
    out = capsys.readouterr().out
    line = out.split("on the command line '", 1)[1].split("'", 1)[0]
    argv = shlex.split(line)[1:]
    assert argv[:2] == ["fit", str(d / "series.txt")] and "--nystroem" not in argv
    assert main(argv + ["--seed", "0", "--save", str(tmp_path / "m.skops")]) == 0


def test_the_landmarks_of_recommended_fit_lines():
    from indefsvm.cli._objects import LANDMARKS
    from indefsvm.diagnostics._advice import _FIT_LANDMARKS, _cli_landmarks

    assert _FIT_LANDMARKS == LANDMARKS
    assert _cli_landmarks(90, 90) == ""  # fit's default: all 90
    assert _cli_landmarks(5000, 300) == ""
    assert _cli_landmarks(5000, 600) == " --nystroem 600"
    # 500 landmarks of 500 objects: more than a 5-fold CV's 400 training objects
    assert _cli_landmarks(500, 500) == " --nystroem 500 --cv 0"
    assert _cli_landmarks(500, 400) == " --nystroem 400"


def test_strings_labelled_with_a_space_are_told_why_that_is_no_label(tmp_path, capsys):
    path = tmp_path / "s.txt"
    path.write_text("0 GGCGTCC\n1 CGGTGGG\n")
    assert main(["fit", str(path), "--metric", "levenshtein", "--nystroem", "1"]) == 1
    err = capsys.readouterr().err
    assert ("line 1: has no label ('0' then a space: a string may hold spaces, so only a tab "
            "or a comma ends the label): write LABEL<TAB>STRING") in err
    path.write_text("GGCGTCC\nCGGTGGG\n")  # no label and no space: the plain advice
    assert main(["fit", str(path), "--metric", "levenshtein", "--nystroem", "1"]) == 1
    assert "line 1: has no label: write LABEL<TAB>STRING" in capsys.readouterr().err
