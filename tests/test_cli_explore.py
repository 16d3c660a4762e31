"""``indefsvm explore``: the page of the command equals the library's, errors are one line."""

import json
import re

import numpy as np
import pytest
from sklearn.datasets import make_moons
from test_cli_errors import _run

import indefsvm as isvm
from indefsvm.cli import main


def _payload(path):
    page = path.read_text(encoding="utf-8")
    data = re.search(r'id="explorer-data">(.*?)</script>', page, re.S).group(1)
    return json.loads(data)


def test_without_data_the_two_moons_page_is_the_librarys(tmp_path, capsys):
    out = tmp_path / "page.html"
    assert main(["explore", "--grid", "gamma=0.5,2", "--grid", "coef0=-1,1", "-C", "0.1,10",
                 "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "24 frames" in text  # 2 gamma x 2 coef0 x 3 remedies x 2 C
    assert f"page written to {out}" in text
    assert re.search(r"models: \d+ counter-intuitive, \d+ sensible", text)
    X, y = make_moons(120, noise=0.25, random_state=0)
    ex = isvm.explore(X, y, kernel="sigmoid", param_grid={"gamma": [0.5, 2], "coef0": [-1, 1]},
                      C=[0.1, 10])
    got = _payload(out)
    ref = json.loads(re.search(r'id="explorer-data">(.*?)</script>', ex.to_html(),
                               re.S).group(1))
    assert got["frames"] == ref["frames"] and got["kernels"] == ref["kernels"]


def test_a_bundled_set_and_a_kernel_of_distances(tmp_path, capsys):
    out = tmp_path / "p.html"
    assert main(["explore", "--dataset", "protein213", "--distances", "--classes", "1,2",
                 "-C", "1", "--remedies", "none,flip", "--out", str(out), "--quiet"]) == 0
    data = _payload(out)
    assert data["kernel"] == "precomputed" and data["classes"] == [1, 2]
    assert len(data["frames"]) == 2 and data["input"] is None
    D, y = isvm.datasets.load_protein213(return_D_y=True)
    keep = np.isin(y, [1, 2])
    K = isvm.DistanceKernel().fit_transform(D)[np.ix_(keep, keep)]
    rep = isvm.check_kernel(K, y[keep])
    assert data["kernels"][0]["class_mean_sqdist"] == rep.class_mean_sqdist


def test_subsample_is_stratified_and_said(tmp_path, capsys):
    out = tmp_path / "p.html"
    assert main(["explore", "--dataset", "heart", "--kernel", "rbf", "--grid", "gamma=0.1",
                 "-C", "1", "--remedies", "none", "--subsample", "60", "--out", str(out),
                 "--quiet"]) == 0
    data = _payload(out)
    assert data["n"] == 60
    _, y = isvm.datasets.load_heart(return_X_y=True)
    share = np.mean(y == 1)
    assert abs(np.mean(np.asarray(data["labels"]) == 1) - share) < 0.05


def test_a_subsample_of_more_than_the_points_draws_them_all(tmp_path, capsys):
    # "add --subsample 300" on a file of fewer points (the teaching page's series line): the
    # page of all of them, said, as the page without --subsample
    args = ["explore", "--dataset", "heart", "--kernel", "rbf", "--grid", "gamma=0.1", "-C",
            "1", "--remedies", "none"]
    assert main([*args, "--subsample", "300", "--out", str(tmp_path / "a.html")]) == 0
    assert "--subsample 300: the data have 270 points; the page draws all" in \
        capsys.readouterr().err
    assert main([*args, "--out", str(tmp_path / "b.html")]) == 0
    a, b = _payload(tmp_path / "a.html"), _payload(tmp_path / "b.html")
    assert a["n"] == b["n"] == 270 and a["labels"] == b["labels"]


@pytest.mark.parametrize("argv, match", [
    (["--grid", "gamma"], "expected NAME=V1,V2"),
    (["--grid", "degree=2"], "--grid: kernel='sigmoid' has no parameter 'degree'"),
    (["--grid", "gamma=1", "--grid", "gamma=2"], "given twice"),
    (["-C", "0,1"], "expected positive numbers"),
    (["--remedies", "clip,krein"], "--remedies: 'krein'"),
    (["--remedies", "none,magic"], "Unknown remedy 'magic'"),
    (["--dataset", "protein213", "--distances"], "choose two with --classes A,B"),
    (["--dataset", "protein213", "--distances", "--classes", "1,9"], "two of the labels"),
    (["--dataset", "protein213", "--distances", "--kernel", "rbf"], "drop --kernel"),
    (["--dataset", "heart", "--subsample", "2"], "--subsample 2"),
    (["--out", "/nonexistent-folder/p.html"], "does not exist"),
])
def test_mistakes_are_one_line_with_exit_2(argv, match, tmp_path, capsys):
    if "--out" not in argv:
        argv = argv + ["--out", str(tmp_path / "p.html")]
    assert main(["explore", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("indefsvm: error:")
    assert match in err[0]
    assert not (tmp_path / "p.html").exists()


def test_a_kernel_file_refuses_kernel_options(tmp_path, capsys):
    X, y = make_moons(40, noise=0.2, random_state=0)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=1.0, coef0=-1.0)
    np.save(tmp_path / "K.npy", K)
    np.savetxt(tmp_path / "y.txt", y, fmt="%d")
    base = ["explore", str(tmp_path / "K.npy"), "--labels", str(tmp_path / "y.txt"),
            "--out", str(tmp_path / "p.html"), "--quiet"]
    assert main(base + ["--kernel", "rbf"]) == 2
    assert "does not apply" in capsys.readouterr().err
    assert main(base + ["--grid", "gamma=1"]) == 2
    assert "no parameter to vary" in capsys.readouterr().err
    assert main(base + ["-C", "1,10"]) == 0
    assert _payload(tmp_path / "p.html")["kernel"] == "precomputed"


def test_too_many_points_says_the_option(tmp_path, capsys):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(1100, 2))
    y = (X[:, 0] > 0).astype(int)
    path = tmp_path / "big.csv"
    np.savetxt(path, np.c_[X, y], delimiter=",", header="a,b,label", comments="")
    assert main(["explore", str(path), "--out", str(tmp_path / "p.html")]) == 2
    assert "add --subsample 300" in capsys.readouterr().err


def test_scale_explores_the_kernel_of_the_scaled_features(tmp_path, capsys):
    """explore --scale: the page of the features mapped to [-1, 1] (svm-scale), as fit
    --scale trains on them -- the library's page of MinMaxScaler's output."""
    from sklearn.datasets import dump_svmlight_file
    from sklearn.preprocessing import MinMaxScaler

    X, y = make_moons(80, noise=0.25, random_state=1)
    spread = X * np.array([1000.0, 0.01])  # one axis 10^5 times the other
    dump_svmlight_file(spread, y, str(tmp_path / "d.svm"), zero_based=False)
    out = tmp_path / "page.html"
    assert main(["explore", str(tmp_path / "d.svm"), "--scale", "--kernel", "rbf", "--grid",
                 "gamma=0.5,2", "-C", "1", "--remedies", "none", "--out", str(out),
                 "--quiet"]) == 0
    read, _ = isvm.datasets.load_libsvm(str(tmp_path / "d.svm"))  # the file's digits
    ref = isvm.explore(MinMaxScaler(feature_range=(-1, 1)).fit_transform(read), y,
                       kernel="rbf", param_grid={"gamma": [0.5, 2]}, C=[1.0],
                       remedies=["none"])
    want = json.loads(re.search(r'id="explorer-data">(.*?)</script>', ref.to_html(),
                                re.S).group(1))
    got = _payload(out)
    assert got["frames"] == want["frames"] and got["kernels"] == want["kernels"]
    assert got["input"] == want["input"]
    assert "scaled to [-1, 1]" in out.read_text(encoding="utf-8")


def _series_file(path, S, y):
    with open(path, "w") as fh:
        for s, lab in zip(S, y, strict=True):
            fh.write(f"{lab}," + ",".join(f"{v:.6f}" for v in s) + "\n")
    return str(path)


def test_series_explore_the_distance_kernel_of_the_pages_objects(tmp_path, capsys):
    # the series path (fit, check, compare, predict, report take --metric): explore too, on
    # the two classes' subsample only, as the library's explore of that distance kernel
    S, y = isvm.datasets.make_cbf(90, length=(30, 40), random_state=1)
    path = _series_file(tmp_path / "cbf.txt", S, y)
    out = tmp_path / "s.html"
    assert main(["explore", path, "--metric", "dtw", "--window", "0.1", "--classes", "0,2",
                 "-C", "1", "--remedies", "none,flip", "--out", str(out), "--quiet"]) == 0
    assert "page written to" in capsys.readouterr().out
    keep = np.isin(y, [0, 2])
    S2 = [np.round(s, 6) for s, k in zip(S, keep, strict=True) if k]
    K = isvm.DistanceKernel().fit_transform(isvm.pairwise_distances(S2, metric="dtw",
                                                                    window=0.1))
    ex = isvm.explore(K, y[keep], kernel="precomputed", C=[1.0], remedies=["none", "flip"])
    ref = json.loads(re.search(r'id="explorer-data">(.*?)</script>', ex.to_html(),
                               re.S).group(1))
    assert _payload(out)["frames"] == ref["frames"]


def test_strings_explore_and_the_options_that_do_not_apply(tmp_path, capsys):
    W, y = isvm.datasets.make_motif_strings(60, random_state=0)
    path = tmp_path / "w.tsv"
    path.write_text("".join(f"{lab}\t{w}\n" for w, lab in zip(W, y, strict=True)))
    out = tmp_path / "w.html"
    assert main(["explore", str(path), "--metric", "levenshtein", "--classes", "0,1",
                 "--out", str(out), "--quiet"]) == 0
    assert out.stat().st_size > 0
    capsys.readouterr()
    for argv, match in (
            (["--metric", "levenshtein", "--window", "0.1"],
             "--window is the band of an elastic distance"),
            (["--metric", "levenshtein", "--kernel", "rbf"], "--kernel does not go with"),
            (["--metric", "levenshtein", "--distances"], "--distances does not go with"),
            (["--window", "0.1"], "it goes with --metric dtw")):
        assert main(["explore", str(path), "--classes", "0,1", *argv,
                     "--out", str(out)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("indefsvm: error:") and match in err[0]


HUGE = np.random.default_rng(1).normal(size=(8, 2)) * 1e160


def test_explore_says_each_warning_once(tmp_path, capsys):
    # a polynomial kernel of a constant X is constant: clip and flip warn at each of the
    # page's frames (eighteen lines before), the command says each once. (The fuzzer's case
    # was features near 1e-300, whose products underflow: those are refused now.)
    X = np.ones((8, 2))
    path = tmp_path / "tiny.csv"
    np.savetxt(path, np.c_[np.arange(8) % 2, X], delimiter=",")
    code, _, err = _run(capsys, ["explore", str(path), "--label-column", "0", "--kernel",
                                 "polynomial", "--quiet", "--out", str(tmp_path / "e.html")])
    assert code == 0
    lines = [ln for ln in err.splitlines() if ln.startswith("indefsvm: warning:")]
    assert lines and len(lines) == len(set(lines))


def test_explore_says_the_scale_rule_overflows_and_tl1_still_draws(tmp_path, capsys):
    y = np.arange(8) % 2
    # gamma's "scale" rule was 1 / inf = 0, and the grid's three gammas 0: "param_grid
    # ['gamma'] lists a value twice: [0.0, 0.0, 0.0]"
    with pytest.raises(ValueError, match=r"gamma's 'scale' rule .* is 0 here: the variance "
                                         r"of X \(values up to 1\.3e\+160\) overflows"):
        isvm.explore(HUGE, y, kernel="l1_gaussian")
    # tl1 has no gamma: its page is drawn (frames only: no live sliders around a gamma)
    ex = isvm.explore(HUGE, y, kernel="tl1", C=[1.0], remedies=["none"])
    assert len(ex.frames) == 3 and ex.live is False
    assert isvm.explore(HUGE / 1e160, y, kernel="tl1", C=[1.0], remedies=["none"]).live
    # the command line names its own option for scaling
    path = tmp_path / "huge.csv"
    np.savetxt(path, np.c_[y, HUGE], delimiter=",")
    code, _, err = _run(capsys, ["check", str(path), "--label-column", "0", "--kernel",
                                 "sigmoid", "--quiet"])
    assert code == 1 and err.rstrip().endswith("Scale the features first (--scale).")
