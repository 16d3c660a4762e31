"""The README's first lines are the two set-up commands, and its Python example runs."""

import pathlib
import re

README = pathlib.Path(__file__).parent.parent / "README.md"


def test_first_lines_are_the_two_commands():
    text = README.read_text()
    block = text.split("```bash\n", 1)[1].split("```", 1)[0].strip().splitlines()
    assert block[0].startswith("pip install . && indefsvm fit --dataset heart")
    assert block[1] == 'pip install ".[test]" && ruff check && pytest'
    ci = (README.parent / ".ci" / "run").read_text()
    assert block[1] in ci.splitlines()


def test_python_example_runs(capsys):
    code = README.read_text().split("```python\n", 1)[1].split("```", 1)[0]
    exec(compile(code, "README.md", "exec"), {})
    out = capsys.readouterr().out
    assert "Kernel check" in out and "Sanity report" in out and "converged" in out
    assert "Distance check" in out


def test_the_newcomer_path_runs_as_printed(tmp_path, monkeypatch, capsys):
    """The README's 'From a check to a model' block: each line run as printed, in a folder
    holding the files it names (the 10^5 path on 12 000 samples, for time: the commands
    are the same)."""
    import shlex

    import numpy as np

    import indefsvm as isvm
    from indefsvm.cli import main

    text = README.read_text()
    block = text.split("### From a check to a model", 1)[1].split("```bash\n", 1)[1]
    lines = [ln.split("  #")[0].strip() for ln in block.split("```", 1)[0].splitlines()]
    lines = [ln for ln in lines if ln]
    assert len(lines) == 11 and all(ln.startswith("indefsvm ") for ln in lines)
    X, y = isvm.datasets.load_heart(return_X_y=True)
    tr, te = np.arange(200), np.arange(200, 270)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.5, coef0=-1.5)
    np.save(tmp_path / "K.npy", K[np.ix_(tr, tr)])
    np.save(tmp_path / "K_test_rows.npy", K[np.ix_(te, tr)])
    np.savetxt(tmp_path / "y.txt", y[tr], fmt="%d")
    D = isvm.pairwise_distances(X, metric="cityblock")
    np.save(tmp_path / "D.npy", D[np.ix_(tr, tr)])
    np.save(tmp_path / "D_test_rows.npy", D[np.ix_(te, tr)])
    np.savetxt(tmp_path / "train.csv", np.c_[y[tr], X[tr]], delimiter=",", fmt="%.8g")
    np.savetxt(tmp_path / "test.csv", np.c_[y[te], X[te]], delimiter=",", fmt="%.8g")
    rng = np.random.default_rng(0)
    Z = rng.normal(size=(12_000, 10))
    yz = np.where(Z[:, 0] + 0.5 * Z[:, 1] ** 2 + 0.3 * rng.normal(size=len(Z)) > 0.5, 1, -1)
    np.savetxt(tmp_path / "big.csv", np.c_[yz, Z], delimiter=",", fmt="%.5g")
    np.savetxt(tmp_path / "big_test.csv", np.c_[yz[:500], Z[:500]], delimiter=",", fmt="%.5g")
    monkeypatch.chdir(tmp_path)
    outputs = []
    for line in lines:
        capsys.readouterr()
        assert main(shlex.split(line)[1:]) == 0, line
        outputs.append(capsys.readouterr())
    # each check names the command the next line runs, for the data it was given
    assert "'indefsvm compare K.npy --labels y.txt --search --save model.skops'" \
        in outputs[0].out
    assert ("'indefsvm compare D.npy --labels y.txt --distances --search --save model.skops'"
            in outputs[3].out)
    # features: the search's choice saved as a model of features (FeatureKernel first)
    assert "gamma = " in outputs[6].out and "model saved to feat.skops" in outputs[6].out
    assert type(isvm.load_model(tmp_path / "feat.skops").steps[0][1]).__name__ == \
        "FeatureKernel"
    assert re.search(r"'indefsvm fit big\.csv --label-column 0 --kernel sigmoid --gamma 0\.05 "
                     r"--coef0 -1 --nystroem \d+'", outputs[8].out)
    assert "NystroemSVC(" in outputs[8].out
    for i, rows in ((2, 70), (5, 70), (7, 70), (10, 500)):
        assert len(outputs[i].out.split()) == rows  # one prediction per row


def test_the_readme_scale_lines_run_as_printed(tmp_path, monkeypatch, capsys):
    """The README's series and strings lines (10^5 series, 10^6 strings) run as printed on
    a few hundred objects: the same commands, with their search and bounded CV."""
    import shlex

    import numpy as np

    import indefsvm as isvm
    from indefsvm.cli import main

    text = README.read_text()
    lines = [ln.split("  #")[0].strip() for ln in text.splitlines()
             if ln.startswith("indefsvm fit") and "--metric" in ln]
    assert len(lines) == 2
    X, y = isvm.datasets.make_cbf(400, length=32, random_state=0)
    np.savetxt(tmp_path / "series.txt", np.c_[y, X], fmt="%.5g")
    S, ys = isvm.datasets.make_motif_strings(300, length=(12, 28), random_state=0)
    (tmp_path / "reads.tsv").write_text("".join(f"{c}\t{s}\n" for s, c in zip(S, ys,
                                                                             strict=True)))
    monkeypatch.chdir(tmp_path)
    for line in lines:
        capsys.readouterr()
        assert main(shlex.split(line)[1:]) == 0, line
        cap = capsys.readouterr()
        assert cap.out.startswith("search      C = ") and "5-fold CV accuracy" in cap.out
        model = shlex.split(line)[shlex.split(line).index("--save") + 1]
        assert (tmp_path / model).exists()
