"""Odd option values, as the probe of 2026-11-29 gave them to every option of every command
(NaN, inf, -1, 0, 1e308, an empty string, a word, 99999999999) and to the library's
parameters behind them. Each finding is a test here:

- ``--labels`` beside ``--dataset`` (or beside no data at all in ``explore``) was ignored;
- an empty file name (``--save ''``, ``--out ''``, ``--knn-distances ''``) was taken as "not
  given", or as the current folder;
- ``compare --n-jobs 99999999999`` was an internal error, and ``--n-jobs 1000`` took 4 min
  40 s where one worker takes 4 s: joblib starts every worker it is given;
- ``fit --restarts 99999999999`` drew its random starts until the memory ran out, and
  ``n_restarts`` was ignored by the solvers that make no restarts;
- ``check --rtol inf`` called every eigenvalue zero and advised against the kernel;
- ``--gamma 1e308`` printed NumPy's "overflow encountered in multiply" for a kernel that is
  exactly the identity;
- an option's value the library refuses (``check --rtol 2``, ``check --gamma nan``) is a
  usage error (exit status 2) in the option's words.
"""

from __future__ import annotations

import warnings

import joblib
import numpy as np
import pytest
from joblib._parallel_backends import ThreadingBackend
from sklearn.datasets import make_classification

import indefsvm as isvm
from indefsvm import _threads
from indefsvm.cli import main
from indefsvm.geometry import PseudoEuclideanEmbedding, pseudo_euclidean_embedding
from indefsvm.remedies import _compare, _search


def one_line(capsys) -> str:
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1 and err[0].startswith("indefsvm: error: "), err
    assert "Traceback" not in err[0]
    return err[0]


# -- --labels where it cannot apply ---------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["fit", "--dataset", "heart"],
    ["check", "--dataset", "heart"],
    ["compare", "--dataset", "heart"],
    ["report", "--dataset", "heart"],
    ["explore", "--dataset", "heart"],
    ["fit", "--dataset", "protein213", "--distances"],
])
def test_labels_beside_a_bundled_data_set_are_refused(argv, tmp_path, capsys):
    labels = tmp_path / "y.txt"
    labels.write_text("1\n-1\n")
    assert main([*argv, "--labels", str(labels), "--quiet"]) == 2
    line = one_line(capsys)
    assert "--labels does not apply to --dataset" in line and "its own labels" in line


def test_explore_refuses_labels_without_a_data_file(tmp_path, capsys):
    labels = tmp_path / "y.txt"
    labels.write_text("1\n-1\n")
    page = tmp_path / "page.html"
    assert main(["explore", "--labels", str(labels), "--out", str(page)]) == 2
    assert "--labels gives the labels of a data FILE" in one_line(capsys)
    assert not page.exists()


# -- empty file names -----------------------------------------------------------------------

@pytest.mark.parametrize("argv, option", [
    (["fit", "--dataset", "heart", "--save", ""], "--save"),
    (["fit", ""], "FILE"),
    (["compare", "--dataset", "heart", "--out", ""], "--out"),
    (["compare", "--dataset", "heart", "--save", "", "--search"], "--save"),
    (["compare", "--dataset", "heart", "--knn-distances", ""], "--knn-distances"),
    (["compare", "--distances", ""], "--distances"),
    (["report", "--dataset", "heart", "--out", ""], "--out"),
    (["explore", "--out", ""], "--out"),
    (["check", "x.npy", "--labels", ""], "--labels"),
    (["predict", "", "data.txt"], "MODEL"),
    (["predict", "model.skops", ""], "DATA"),
    (["predict", "model.skops", "data.txt", "--out", ""], "--out"),
])
def test_an_empty_file_name_is_refused_before_any_work(argv, option, tmp_path, capsys,
                                                         monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    line = one_line(capsys)
    assert f"argument {option}: expected a file name; got an empty one" in line
    assert capsys.readouterr().out == "" and list(tmp_path.iterdir()) == []


# -- joblib's workers -----------------------------------------------------------------------

def test_joblib_workers_never_more_than_tasks_idle_cores_or_small_work(monkeypatch):
    monkeypatch.setattr(_threads, "idle_cores", lambda: 3)
    assert _threads.joblib_workers(None, 10) == 1
    assert _threads.joblib_workers(1, 10) == 1
    assert _threads.joblib_workers(50, 2) == 2  # the tasks
    assert _threads.joblib_workers(50, 10) == 3  # the idle cores
    assert _threads.joblib_workers(99999999999, 10) == 3
    assert _threads.joblib_workers(-1, 1) == 1
    assert _threads.joblib_workers(50, 10, rows=999) == 1  # small work (SMALL_ROWS)
    assert _threads.joblib_workers(50, 10, rows=1000) == 3
    assert _threads.joblib_workers(50, 10, rows=299, small=300) == 1
    assert _threads.joblib_workers(50, 10, rows=300, small=300) == 3
    with joblib.parallel_config(n_jobs=2):  # None: what the context says
        assert _threads.joblib_workers(None, 10) == 2


class _ElsewhereBackend(ThreadingBackend):
    """Stands for a backend whose workers are not this machine's cores (Dask's)."""


def test_joblib_workers_leave_another_engines_count_alone(monkeypatch):
    monkeypatch.setattr(_threads, "idle_cores", lambda: 1)
    joblib.register_parallel_backend("elsewhere-for-test", _ElsewhereBackend)
    with joblib.parallel_config(backend="elsewhere-for-test"):
        assert _threads.joblib_workers(64, 3, rows=10) == 64
        assert _threads.joblib_workers(None, 3) is None


class _SpyParallel(joblib.Parallel):
    asked: list = []

    def __init__(self, *args, **kwargs):
        _SpyParallel.asked.append(kwargs.get("n_jobs"))
        super().__init__(*args, **kwargs)


@pytest.fixture
def spy(monkeypatch):
    _SpyParallel.asked = []
    monkeypatch.setattr(_compare, "Parallel", _SpyParallel)
    monkeypatch.setattr(_search, "Parallel", _SpyParallel)
    return _SpyParallel.asked


def test_the_comparison_and_the_search_start_no_idle_workers(spy, monkeypatch):
    monkeypatch.setattr(_threads, "idle_cores", lambda: 2)
    X, y = make_classification(80, 5, random_state=0)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.05, coef0=-0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        isvm.compare_remedies(K, y, cv=3, n_jobs=50, methods=["flip"], random_state=0)
        isvm.RemedySearchCV(param_grid={"C": [1.0]}, cv=3, methods=["flip"], n_jobs=50,
                            refit=False).fit(K, y)
    assert spy == [1, 1]  # 80 samples: below both break-evens


def test_compare_with_an_absurd_number_of_jobs_runs(capsys):
    assert main(["compare", "--dataset", "heart", "--cv", "3", "--methods", "flip",
                 "--n-jobs", "99999999999"]) == 0
    captured = capsys.readouterr()
    assert "internal error" not in captured.err and "flip" in captured.out


# -- random restarts ------------------------------------------------------------------------

@pytest.fixture
def one_megabyte(monkeypatch):
    from indefsvm import _validation

    monkeypatch.setattr(_validation, "available_memory", lambda: 2.0**20)


def _data():
    X, y = make_classification(60, 4, random_state=0)
    return X, np.where(y > 0, 1, -1)


def test_restarts_beyond_the_memory_are_said_before_they_are_drawn(one_megabyte):
    X, y = _data()
    # 200 starts of 60 variables: about 2 MB kept until the best is chosen
    with pytest.raises(MemoryError, match=r"n_restarts=200 \(60 variables a start\)"):
        isvm.IndefiniteSVC(kernel="rbf", gamma=0.1, n_restarts=200).fit(X, y)
    with pytest.raises(MemoryError, match="n_restarts=200"):
        isvm.solvers.smo(X @ X.T, y, C=1.0, n_restarts=200)
    with pytest.raises(MemoryError, match="n_restarts=200"):
        isvm.geometry.convex_hull_dual(X @ X.T, y, mu=0.5, n_restarts=200)
    # within the memory: the same fit runs
    isvm.IndefiniteSVC(kernel="rbf", gamma=0.1, n_restarts=2, random_state=0).fit(X, y)


@pytest.mark.timeout(60)
def test_fit_restarts_far_beyond_any_memory_end_at_once(capsys):
    assert main(["fit", "--dataset", "heart", "-C", "1", "--gamma", "0.1", "--cv", "0",
                 "--restarts", "99999999999"]) == 1
    line = one_line(capsys)
    assert "--restarts 99999999999" in line and "GiB" in line and "fewer restarts" in line


@pytest.mark.parametrize("kw", [{"solver": "munk"}, {"solver": "m3"},
                                {"solver": "kernel_adatron"}, {"solver": "lsvm"},
                                {"fit_intercept": False}])
def test_smo_settings_are_refused_where_no_smo_with_a_bias_runs(kw):
    X, y = _data()
    with pytest.raises(ValueError, match=r"n_restarts=3 needs solver='smo' with "
                                         r"fit_intercept=True"):
        isvm.IndefiniteSVC(kernel="rbf", gamma=0.1, n_restarts=3, **kw).fit(X, y)
    with pytest.raises(ValueError, match=r"wss='first_order', shrinking=False, "
                                         r"init='class_balanced', cache_size=50 need "
                                         r"solver='smo' with fit_intercept=True"):
        isvm.IndefiniteSVC(kernel="rbf", gamma=0.1, wss="first_order", shrinking=False,
                           init="class_balanced", cache_size=50, **kw).fit(X, y)
    isvm.IndefiniteSVC(kernel="rbf", gamma=0.1, **kw).fit(X, y)  # the defaults: fine
    # with SMO and the bias every one of them is taken
    isvm.IndefiniteSVC(kernel="rbf", gamma=0.1, n_restarts=1, wss="first_order",
                       shrinking=False, init="class_balanced", cache_size=50).fit(X, y)


# -- relative zero thresholds ---------------------------------------------------------------

@pytest.mark.parametrize("rtol", [1, 1.0, 2.5, np.inf])
def test_a_zero_threshold_of_the_largest_eigenvalue_or_more_is_refused(rtol):
    K = np.diag([3.0, 1.0, -1.0])
    calls = [lambda: isvm.check_kernel(K, rtol=rtol),
             lambda: isvm.diagnostics.spectrum(K, rtol=rtol),
             lambda: isvm.diagnostics.signature(K, rtol=rtol),
             lambda: PseudoEuclideanEmbedding(rtol=rtol).fit(K),
             lambda: pseudo_euclidean_embedding(K, rtol=rtol)]
    for call in calls:
        with pytest.raises(ValueError, match="rtol"):
            call()
    # below 1 it is a (coarse) threshold of the user's: the small eigenvalues count as zero
    # (the centred kernel's eigenvalues are 2.15, 0.51 and 0: only the largest is kept)
    sig = isvm.diagnostics.signature(K, rtol=0.5)
    assert (sig.p, sig.q, sig.z) == (1, 0, 2)
    assert PseudoEuclideanEmbedding(rtol=0.5).fit(K).eigenvalues_.size == 1


@pytest.mark.parametrize("argv, words", [
    (["check", "--dataset", "heart", "--rtol", "inf"], "--rtol must be a number in (0, 1)"),
    (["check", "--dataset", "heart", "--rtol", "2"], "--rtol must be a number in (0, 1)"),
    (["check", "--dataset", "heart", "--gamma", "nan"], "--gamma must be"),
    (["report", "--dataset", "heart", "-C", "inf", "--gamma", "0.1"], "-C must be finite"),
    # the kernel's own rules, the library's (check_kernel_settings), said before the data
    (["fit", "--dataset", "heart", "--kernel", "tl1", "--rho", "-1"],
     "--rho must be a finite number > 0 (the truncation radius); got -1.0."),
    (["fit", "--dataset", "heart", "--kernel", "pseudo_euclidean", "--remedy", "clip"],
     "--kernel pseudo_euclidean needs --p, the number of positive coordinates."),
    (["check", "--dataset", "heart", "--kernel", "pseudo_euclidean"],
     "--kernel pseudo_euclidean needs --p"),
    (["fit", "--dataset", "heart", "--kernel", "rbf", "--gamma", "-1", "--remedy", "krein"],
     "--gamma must be >= 0 for --kernel rbf (exp(-gamma d) with gamma < 0 grows with the "
     "distance d); got --gamma -1. A negative slope is meaningful for --kernel sigmoid only"),
])
def test_a_value_the_library_refuses_is_a_usage_error_in_the_options_words(argv, words,
                                                                             capsys):
    assert main(argv) == 2
    assert words in one_line(capsys)


# -- a huge gamma ---------------------------------------------------------------------------

@pytest.mark.parametrize("kernel", ["rbf", "sqrt_l1_exponential"])
def test_a_gamma_past_float64_gives_the_identity_without_a_numpy_warning(kernel):
    X = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # (1.7e308 x the distances' sqrt(2) or 2 is past float64's 1.8e308)
        K = isvm.kernel_matrix(X, kernel=kernel, gamma=1.7e308)
    np.testing.assert_array_equal(K, np.eye(3))


def test_symmetric_kl_with_a_huge_gamma_says_nothing_either():
    P = np.array([[0.2, 0.8], [0.7, 0.3], [0.5, 0.5]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # (the largest divergence here is 1.1: times 1.7e308 past float64's 1.8e308)
        K = isvm.kernel_matrix(P, kernel="symmetric_kl", gamma=1.7e308)
    np.testing.assert_array_equal(K, np.eye(3))


def test_check_with_a_huge_gamma_prints_no_numpy_warning(capsys):
    assert main(["check", "--dataset", "heart", "--gamma", "1e308"]) == 0
    assert "overflow" not in capsys.readouterr().err


@pytest.mark.parametrize("kind", ["rbf", "laplacian", "tl1"])
def test_a_distance_kernel_with_a_huge_gamma_says_nothing_either(kind):
    D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        K = isvm.DistanceKernel(kind=kind, gamma=1e308).fit_transform(D)
    np.testing.assert_array_equal(K, np.eye(3))


# -- a degree past the compiled kernels' int ------------------------------------------------

def test_a_degree_past_a_c_int_is_refused_in_words(capsys):
    X, y = _data()
    with pytest.raises(ValueError, match="degree"):
        isvm.IndefiniteSVC(kernel="polynomial", degree=2**31).fit(X, y)
    with pytest.raises(ValueError, match=r"degree must be a whole number from 0 to 2147483647"):
        isvm.kernel_matrix(X, kernel="polynomial", degree=10**11)
    with pytest.raises(ValueError, match=r"degree must be a whole number from 0 to 2147483647"):
        isvm.solvers.smo(X, y, C=1.0, kernel="polynomial", kernel_params={"degree": 2**31})
    assert main(["fit", "--dataset", "heart", "--kernel", "polynomial", "-C", "1", "--cv",
                 "0", "--degree", "99999999999"]) == 2
    line = one_line(capsys)
    assert "--degree" in line and "2147483647" in line and "internal error" not in line


# -- matrix-free settings where the spectrum is computed ------------------------------------

def test_probes_and_steps_are_refused_with_a_dense_method_and_said_with_auto():
    K = np.diag([2.0, 1.0, -1.0, 0.5])
    for method in ("dense", "ldl"):
        with pytest.raises(ValueError, match=f"n_probes=5 belongs to the matrix-free methods"
                                             f".*method='{method}'"):
            isvm.check_kernel(K, method=method, n_probes=5)
    with pytest.warns(UserWarning, match="n_steps=7 is not used: method='auto' computes"):
        rep = isvm.diagnostics.spectrum(K, n_steps=7)
    assert not rep.estimated
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        isvm.diagnostics.spectrum(K)  # nothing given, nothing said


@pytest.mark.parametrize("option", ["--probes", "--steps"])
def test_check_refuses_probes_and_steps_it_would_not_use(option, capsys):
    assert main(["check", "--dataset", "heart", option, "5"]) == 2
    line = one_line(capsys)
    assert f"{option} belongs to the matrix-free methods" in line and "--method slq" in line
    assert capsys.readouterr().out == ""


# -- --labels beside a LIBSVM file ----------------------------------------------------------

def test_labels_beside_a_libsvm_file_are_refused_in_words(tmp_path, capsys, monkeypatch):
    from sklearn.datasets import dump_svmlight_file

    monkeypatch.chdir(tmp_path)
    X, y = _data()
    dump_svmlight_file(X, y, "d.libsvm", zero_based=False)
    np.savetxt("y.txt", y, fmt="%d")
    assert main(["fit", "d.libsvm", "--labels", "y.txt", "-C", "1", "--gamma", "0.1",
                 "--cv", "0"]) == 2
    assert "--labels does not apply to d.libsvm, a LIBSVM file" in one_line(capsys)
    assert main(["fit", "d.libsvm", "-C", "1", "--gamma", "0.1", "--cv", "0",
                 "--save", "m.skops", "--quiet"]) == 0
    capsys.readouterr()
    assert main(["predict", "m.skops", "d.libsvm", "--labels", "y.txt"]) == 2
    assert "--labels does not apply to d.libsvm, a LIBSVM file" in one_line(capsys)


def test_the_memory_said_is_that_of_the_workers_that_run(monkeypatch):
    """The folds' memory is counted for the workers the rule runs, not for n_jobs: 80
    samples run one fold at a time whatever n_jobs says (2 + 6 x (53/80)^2 = 4.6 matrices of
    80 x 80), where three at once would be 2 + 3 + 3 x 2.6 = 12.9."""
    from indefsvm import _validation

    X, y = make_classification(80, 5, random_state=0)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.05, coef0=-0.5)
    monkeypatch.setattr(_validation, "available_memory", lambda: 6.0 * 8.0 * 80 * 80)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        isvm.compare_remedies(K, y, cv=3, n_jobs=50, methods=["flip"], random_state=0)
    monkeypatch.setattr(_threads, "idle_cores", lambda: 3)
    monkeypatch.setattr(_compare, "joblib_workers",
                        lambda n_jobs, n_tasks, rows=None: _threads.joblib_workers(
                            n_jobs, n_tasks, rows=rows, small=0))
    with pytest.raises(MemoryError, match="compare_remedies on 80 samples"):
        isvm.compare_remedies(K, y, cv=3, n_jobs=50, methods=["flip"], random_state=0)
