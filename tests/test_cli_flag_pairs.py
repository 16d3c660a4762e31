"""Flags of ``predict`` and the output options, in pairs, as a probe of 2026-11-29 gave them
(every pair of --decision-values, --probability, -q, --verbose, --out, --zero-based and
--distances over ten saved models: SVC, scaled, Nystroem, Krein, flip, epsilon-SVR, one-class,
nu-SVC, DTW landmarks and compare's choice). Its findings: ``fit -q --verbose`` printed the
solver's log under the promise of "results only" while ``predict -q --verbose`` was quiet;
the model-specific ones are tested in test_cli_family.py and test_cli_format_options.py."""

from __future__ import annotations

import pytest

from indefsvm.cli import main


@pytest.mark.parametrize("command", [
    ["fit", "--dataset", "heart", "-C", "1", "--gamma", "0.05", "--cv", "0"],
    ["check", "--dataset", "heart"],
    ["compare", "--dataset", "heart", "--methods", "flip"],
    ["report", "--dataset", "heart"],
    ["explore", "--dataset", "heart"],
    ["predict", "model.skops", "data.csv"],
])
@pytest.mark.parametrize("order", [("-q", "--verbose"), ("--verbose", "--quiet")])
def test_quiet_and_verbose_are_one_or_the_other(command, order, capsys, tmp_path,
                                                monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main([*command, *order]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1 and err[0].startswith("indefsvm: error: "), err
    assert "not allowed with argument" in err[0] and f"indefsvm {command[0]} --help" in err[0]
    # nothing was done: no page, no report written
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, said", [
    # before: "unrecognized option --out; did you mean --quiet?"
    (["fit", "--dataset", "heart", "--out", "m.skops"], "--save MODEL writes the model"),
    (["fit", "--dataset", "heart", "-o", "m.skops"], "--save MODEL writes the model"),
    (["predict", "m.skops", "data.csv", "--save", "p.txt"], "--out FILE writes the predictions"),
    (["report", "--dataset", "heart", "--save", "r.html"], "--out OUT writes the HTML page"),
    (["compare", "--dataset", "heart", "--output", "c.html"],
     "--save MODEL writes the model and --out OUT writes the HTML page"),
    (["check", "--dataset", "heart", "--out", "c.txt"],
     "this command writes no file: redirect what it prints (> FILE), or give --json"),
])
def test_another_commands_output_option_names_this_ones(argv, said, capsys, tmp_path,
                                                         monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1 and said in err[0], err
    assert "did you mean" not in err[0]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, said", [
    # before: "unrecognized arguments: clip (see 'indefsvm --help')" beside a FILE, and
    # "argument FILE: not allowed with argument --dataset" beside --dataset
    (["compare", "DATA", "--methods", "flip", "clip"],
     "--methods takes one comma-separated list: --methods flip,clip (see 'indefsvm compare "
     "--help')"),
    (["compare", "--dataset", "heart", "--methods", "flip", "clip"],
     "--methods takes one comma-separated list: --methods flip,clip"),
    (["compare", "--dataset", "heart", "--methods=flip", "clip", "krein", "--cv", "3"],
     "--methods takes one comma-separated list: --methods flip,clip,krein"),
    (["compare", "--dataset", "heart", "--search", "--C-grid", "1", "10", "100"],
     "--C-grid takes one comma-separated list: --C-grid 1,10,100"),
    # explore's --grid is repeated, one parameter each; its --remedies is one list
    (["explore", "--dataset", "heart", "--grid", "gamma=0.1,1", "coef0=-1,0"],
     "give --grid once for each: --grid gamma=0.1,1 --grid coef0=-1,0 (see 'indefsvm "
     "explore --help')"),
    (["explore", "DATA", "--remedies", "none", "clip"],
     "unrecognized arguments: clip; --remedies takes one comma-separated list: --remedies "
     "none,clip"),
    (["explore", "--dataset", "heart", "-C", "1", "10"],
     "-C takes one comma-separated list: -C 1,10"),
    # a second file is no item of a list: left over, in the command's words
    (["fit", "DATA", "--cv", "3", "DATA"],
     "unrecognized arguments: DATA (see 'indefsvm fit --help')"),
    (["compare", "DATA", "--methods", "flip", "DATA"],
     "unrecognized arguments: DATA (see 'indefsvm compare --help')"),
])
def test_words_left_over_are_said_in_the_commands_words(argv, said, capsys, tmp_path,
                                                        monkeypatch):
    from indefsvm.datasets import data_path

    monkeypatch.chdir(tmp_path)
    data = data_path("heart_scale")
    argv = [data if a == "DATA" else a for a in argv]
    said = said.replace("DATA", data)
    assert main(argv) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1 and said in err[0], err
    assert list(tmp_path.iterdir()) == []


def test_the_negation_of_an_option_off_by_default_is_not_answered_with_the_option(
        capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # fit has --no-search; compare searches only with --search (before: "did you mean
    # --search?", the opposite of what was asked)
    assert main(["compare", "--dataset", "heart", "--no-search"]) == 2
    err = capsys.readouterr().err.strip()
    assert ("compare runs without --search unless it is given (the default): drop "
            "--no-search") in err and "did you mean" not in err


@pytest.mark.parametrize("argv, said", [
    # before: "did you mean --tol?", "--init?", "--labels?", "--scale?"
    (["report", "--dataset", "heart", "--title", "T"],
     "unrecognized option --title; --title is an option of explore, not of report"),
    (["report", "--dataset", "heart", "--link"], "--link is an option of explore, not of "),
    (["fit", "--dataset", "heart", "--subsample", "30"],
     "--subsample is an option of explore, not of fit"),
    (["explore", "--dataset", "heart", "--n-jobs", "2"],
     "--n-jobs is an option of fit, check, compare and report, not of explore"),
    # a typo still gets its nearest name
    (["fit", "--dataset", "heart", "--gama", "1"], "--gama; did you mean --gamma?"),
    (["compare", "--dataset", "heart", "--methds", "flip"], "did you mean --methods?"),
])
def test_an_option_of_another_command_is_said_as_such(argv, said, capsys, tmp_path,
                                                      monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1 and said in err[0], err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv, whole", [
    (["check", "--dataset", "heart", "--sample", "30"], "a kernel of features is checked whole"),
    (["check", "--dataset", "protein213", "--distances", "--sample", "30"],
     "a distance matrix is checked whole"),
])
def test_check_refuses_sample_without_objects(argv, whole, capsys):
    # --sample was taken and ignored: the check ran on every sample
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("indefsvm: error: --sample goes with --metric") and whole in err


def test_check_of_objects_takes_its_sample(tmp_path, capsys):
    import json

    import numpy as np

    rng = np.random.default_rng(0)
    path = tmp_path / "series.txt"
    np.savetxt(path, np.c_[np.arange(40) % 2, rng.normal(size=(40, 12))], fmt="%.4f")
    assert main(["check", str(path), "--metric", "dtw", "--sample", "25", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n"] == 40 and out["n_sample"] == 25
    # without it: all of them, up to 1000 (no sample to say)
    assert main(["check", str(path), "--metric", "dtw", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n"] == 40 and out["n_sample"] is None


def test_check_refuses_a_seed_that_no_probe_uses(capsys):
    # --seed seeds the matrix-free probes; a dense check drew nothing and took it silently
    # (as --probes and --steps were refused there)
    assert main(["check", "--dataset", "heart", "--seed", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("indefsvm: error: --seed belongs to the matrix-free methods; 270 "
                          "samples with --method auto are checked densely")
    # with the probes it is their seed: the same seed, the same estimates (times aside)
    import json

    def untimed(value):
        if isinstance(value, dict):
            return {k: untimed(v) for k, v in value.items() if "seconds" not in k}
        return [untimed(v) for v in value] if isinstance(value, list) else value

    runs = []
    for _ in range(2):
        assert main(["check", "--dataset", "heart", "--seed", "2", "--method", "slq",
                     "--json"]) == 0
        runs.append(untimed(json.loads(capsys.readouterr().out)))
    assert runs[0] == runs[1]
