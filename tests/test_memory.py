"""Memory said before the work is the memory the work takes.

Two kinds of test. The kernels, the distance kernels and the median rule compute in place:
their peak, traced by ``tracemalloc`` (numpy reports its arrays to it), is one matrix of the
output's size, not two to four. The whole-kernel remedies (the spectrum fixes, the Krein
SVM, the comparison and the search) refuse before the work when the memory available is
below their figure, and that figure holds the truth: the high-water mark of a fresh process's
resident memory (Linux' ``VmHWM``, reset through ``/proc/self/clear_refs``) stays below it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import tracemalloc

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm import remedies
from indefsvm.cli import main
from indefsvm.distances import DistanceKernel, median_gamma
from indefsvm.kernels import kernel_matrix


def _peak(func, *args, **kwargs) -> float:
    """The peak of the memory traced during ``func(*args, **kwargs)``, in bytes above what
    was traced before it."""
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        func(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()


N = 600


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(N, 5))
    D = isvm.pairwise_distances(X, metric="euclidean")
    return X, D


@pytest.mark.parametrize("kernel,params", [
    ("polynomial", {"degree": 3, "gamma": 0.3, "coef0": 1.0}),
    ("rbf", {"gamma": 0.2}),
    ("sigmoid", {"gamma": 0.5, "coef0": -1.0}),
    ("l1_gaussian", {"gamma": 0.1}),
    ("sqrt_l1_exponential", {"sigma": 1.0}),
    ("tl1", {"rho": 3.0}),
    ("linear", {}),
])
def test_a_kernel_matrix_holds_one_matrix_at_its_peak(data, kernel, params):
    X, _ = data
    one = 8.0 * N * N
    # the output, its finiteness mask (an eighth) and a block of rows; kernel_matrix's
    # check_memory says 8 n^2 "about"
    assert _peak(kernel_matrix, X, kernel=kernel, **params) <= 1.3 * one


def test_the_symmetric_kl_kernel_holds_two_matrices_at_its_peak(data):
    X, _ = data
    P = np.abs(X) + 0.01
    assert _peak(kernel_matrix, P, kernel="symmetric_kl", gamma=0.5) <= 2.3 * 8.0 * N * N


def test_the_sparse_rbf_kernel_holds_two_matrices_at_its_peak():
    import scipy.sparse as sp

    X = sp.random(N, 40, density=0.1, format="csr", random_state=0)
    assert _peak(kernel_matrix, X, kernel="rbf", gamma=0.5) <= 2.3 * 8.0 * N * N


@pytest.mark.parametrize("kind,most", [("rbf", 1.3), ("laplacian", 1.3), ("tl1", 1.3),
                                       ("linear", 2.3), ("polynomial", 2.3)])
def test_a_distance_kernel_computes_in_place(data, kind, most):
    _, D = data
    # rbf, laplacian, tl1: the kernel beside the distances, and the median rule's half
    # matrix before it; linear, polynomial: the squared distances and the kernel
    dk = DistanceKernel(kind=kind)
    assert _peak(dk.fit_transform, D) <= most * 8.0 * N * N


def test_the_median_rule_holds_half_a_matrix(data):
    _, D = data
    assert _peak(median_gamma, D) <= 0.6 * 8.0 * N * N
    # and it is the median of the squared distances above the diagonal
    iu = np.triu_indices(N, 1)
    assert median_gamma(D) == 1.0 / np.median(D[iu] ** 2)
    assert median_gamma(D, "laplacian") == 1.0 / np.median(D[iu])


def test_pairwise_distances_of_a_callable_mirror_in_place():
    from indefsvm.distances._pairwise import _mirror_upper

    rng = np.random.default_rng(1)
    for n in (1, 2, 255, 256, 257, 700):
        A = rng.normal(size=(n, n))
        B = A.copy()
        iu = np.triu_indices(n, 1)
        B[iu[1], iu[0]] = B[iu]
        assert np.array_equal(_mirror_upper(A, block=128), B)
    A = rng.normal(size=(N, N))
    # a strip of 256 columns at the peak, not two index arrays of n^2 / 2 integers
    assert _peak(_mirror_upper, A) <= 0.6 * 8.0 * N * N


# -- the whole-kernel remedies: refused below their figure -----------------------------------


def _kernel(n=40, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    return kernel_matrix(X, kernel="sigmoid", gamma=0.5, coef0=-1.0), y


FITS = {
    "ClipEigenvalues.fit": (6.0, lambda K, y: remedies.ClipEigenvalues().fit(K)),
    "FlipEigenvalues.fit_transform": (6.0, lambda K, y: remedies.FlipEigenvalues()
                                      .fit_transform(K)),
    "ShiftEigenvalues.fit": (2.5, lambda K, y: remedies.ShiftEigenvalues().fit(K)),
    "SquareKernel.fit_transform": (3.75, lambda K, y: remedies.SquareKernel().fit_transform(K)),
    "AdvancedShiftEigenvalues.fit": (6.0, lambda K, y: remedies.AdvancedShiftEigenvalues()
                                     .fit(K)),
    "KreinSVC.fit": (6.0, lambda K, y: remedies.KreinSVC(kernel="precomputed").fit(K, y)),
    # 2 (the whole kernel's check, the k-NN distances) + 6 x (the 3-fold share)^2
    "compare_remedies": (2 + 6.0 * (1 - 13 / 40) ** 2,
                         lambda K, y: remedies.compare_remedies(K, y, cv=3)),
    # the refit on all the data (7) is more than 2 + 8.5 x (2/3)^2
    "RemedySearchCV.fit": (7.0, lambda K, y: remedies.RemedySearchCV(
        cv=3, param_grid={"C": [1.0]}).fit(K, y)),
}


@pytest.mark.parametrize("name", list(FITS))
def test_a_whole_kernel_remedy_is_refused_below_its_figure(monkeypatch, name):
    import indefsvm._validation as validation

    matrices, fit = FITS[name]
    K, y = _kernel()
    one = 8.0 * 40 * 40
    monkeypatch.setattr(validation, "available_memory", lambda: 0.98 * matrices * one)
    with pytest.raises(MemoryError, match=rf"^{name} on 40 samples \(about "
                       rf"{matrices:.3g} matrices of 40 x 40 at once\) needs about .*"
                       r"NystroemSVC\(remedy="):
        fit(K, y)
    monkeypatch.setattr(validation, "available_memory", lambda: 1.02 * matrices * one)
    fit(K, y)  # just enough: no refusal


def test_the_search_counts_the_tasks_that_run_at_once(monkeypatch):
    import indefsvm._validation as validation

    K, y = _kernel(60)
    one = 8.0 * 60 * 60
    # room for one task at a time (2 + 8.5 x (2/3)^2 = 5.8 < 7, the refit), not for two
    # (2 + 3 for the workers + 2 x 3.8 = 12.6)
    monkeypatch.setattr(validation, "available_memory", lambda: 7.5 * one)
    remedies.RemedySearchCV(cv=3, param_grid={"C": [1.0]}).fit(K, y)
    # 60 samples run in one worker whatever n_jobs says (below SEARCH_SMALL): the figure is
    # that of one task at a time
    remedies.RemedySearchCV(cv=3, param_grid={"C": [1.0]}, n_jobs=2).fit(K, y)
    # where two workers would run (two idle cores, the small-work rule lowered), two tasks
    # at once are counted
    from indefsvm import _threads
    from indefsvm.remedies import _search

    monkeypatch.setattr(_threads, "idle_cores", lambda: 2)
    monkeypatch.setattr(_search, "SEARCH_SMALL", 0)
    with pytest.raises(MemoryError, match="RemedySearchCV.fit on 60 samples"):
        remedies.RemedySearchCV(cv=3, param_grid={"C": [1.0]}, n_jobs=2).fit(K, y)


def test_fit_remedy_on_the_command_line_asks_the_library_for_its_figure(monkeypatch, capsys):
    import indefsvm._validation as validation
    from indefsvm.cli import main

    n = 270  # heart
    one = 8.0 * n * n
    # the kernel and the clip's 6: refused in the command line's words (the landmark
    # command), before the library's own refusal
    monkeypatch.setattr(validation, "available_memory", lambda: 6.5 * one)
    assert main(["fit", "--dataset", "heart", "--remedy", "clip", "--cv", "0"]) == 1
    err = capsys.readouterr().err
    assert "indefsvm fit --remedy clip on 270 samples needs about" in err
    assert "--nystroem" in err
    monkeypatch.setattr(validation, "available_memory", lambda: 7.1 * one)
    assert main(["fit", "--dataset", "heart", "--remedy", "clip", "--cv", "0",
                 "--quiet"]) == 0


# -- the figures hold the truth ----------------------------------------------------------------


_MEASURE = textwrap.dedent("""
    import json, sys, warnings
    warnings.simplefilter("ignore")
    import numpy as np
    import indefsvm as isvm
    from indefsvm import remedies
    from indefsvm.diagnostics import check_distances

    n = int(sys.argv[2])
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n, 5))
    y = np.where(X[:, 0] > 0, 1, -1)
    K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.5, coef0=-1.0)
    D = isvm.pairwise_distances(X, metric="euclidean")
    calls = {
        "clip": lambda: remedies.ClipEigenvalues().fit_transform(K),
        "shift": lambda: remedies.ShiftEigenvalues().fit_transform(K),
        "square": lambda: remedies.SquareKernel().fit_transform(K),
        "krein": lambda: remedies.KreinSVC(kernel="precomputed").fit(K, y),
        "check_distances": lambda: check_distances(D),
    }
    # the buffers of BLAS and LAPACK and the imports of the call, before the mark is reset
    small = rng.normal(size=(50, 50))
    np.linalg.eigh(small + small.T)
    remedies.KreinSVC(kernel="precomputed").fit(K[:50, :50], y[:50])
    check_distances(D[:50, :50])

    def status(key):
        for line in open("/proc/self/status"):
            if line.startswith(key):
                return int(line.split()[1]) * 1024

    open("/proc/self/clear_refs", "w").write("5")  # the high-water mark := resident now
    base = status("VmRSS")
    calls[sys.argv[1]]()
    print(json.dumps((status("VmHWM") - base) / (8.0 * n * n)))
""")


def _measured(case: str, cwd, n: int = 2000) -> float:
    # (run outside the checkout: there ``import indefsvm`` would find the source folder)
    out = subprocess.run([sys.executable, "-c", _MEASURE, case, str(n)], capture_output=True,
                         text=True, timeout=300, cwd=cwd)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
@pytest.mark.parametrize("case,figure", [
    ("clip", remedies.ClipEigenvalues._transform_matrices),
    ("shift", remedies.ShiftEigenvalues._transform_matrices),
    ("square", remedies.SquareKernel._transform_matrices),
    ("krein", remedies.FlipEigenvalues._transform_matrices),
    ("check_distances", 4.0),
])
def test_the_figure_said_holds_the_memory_taken(case, figure, tmp_path):
    taken = _measured(case, tmp_path)
    # the truth below the figure, and the figure not a wild overestimate either
    assert taken <= figure, (case, taken, figure)
    assert taken >= 0.6 * figure, (case, taken, figure)


def test_available_memory_holds_to_the_address_space_limit():
    # the memory checks read MemAvailable only: under `ulimit -v` (RLIMIT_AS) they let an
    # allocation start that the limit then refused
    from _bounded import run_bounded

    got = run_bounded("""
        from indefsvm._validation import available_memory
        result = available_memory()
    """, limit_mib=1024)
    assert 0 < got["result"] < 2**30, got


@pytest.mark.timeout(300)
@pytest.mark.parametrize("sparse", [False, True])
def test_the_nystroem_fit_estimate_holds_the_peak_it_measures(sparse):
    # said 1.51 GiB where 2.04 GiB was measured: the buffers of a block of rows (CSR rows'
    # products with the landmarks, their kernel, its features) were left out
    from _bounded import run_bounded

    got = run_bounded(f"""
        import numpy as np, scipy.sparse as sp
        import indefsvm as isvm
        from indefsvm.nystroem._blocks import fit_memory
        rng = np.random.default_rng(0)
        n, m = 30000, 600
        if {sparse}:
            X = sp.random(n, 4000, density=0.002, format="csr", random_state=0)
        else:
            X = rng.normal(size=(n, 20))
        y = rng.integers(0, 2, n)
        def hwm():
            return int(open("/proc/self/status").read().split("VmHWM:")[1].split()[0]) * 1024
        base = int(open("/proc/self/status").read().split("VmRSS:")[1].split()[0]) * 1024
        open("/proc/self/clear_refs", "w").write("5")
        isvm.NystroemSVC(n_components=m, random_state=0).fit(X, y)
        result = [hwm() - base, fit_memory(n, m, sparse={sparse})]
    """, limit_mib=4096)
    measured, said = got["result"]
    assert measured <= said <= 3 * measured + 2**28, (measured / 2**20, said / 2**20)


def test_check_kernel_too_large_for_memory_says_so_before_allocating(tmp_path):
    # before: `indefsvm check` on 40 000 samples was killed by the OOM killer after 67 s
    from indefsvm._validation import available_memory

    avail = available_memory()
    if avail is None:
        pytest.skip("no /proc/meminfo here: the memory check cannot know what is available")
    n = int(np.sqrt(avail / 16.0) * 1.5) + 1  # 16 n^2 bytes: over what is available
    X = np.random.default_rng(0).normal(size=(n, 2))
    # the dense method asked for explicitly (above 5 000 samples "auto" is matrix-free now,
    # and needs no n x n memory at all)
    with pytest.raises(MemoryError, match=r"needs about .* GiB .* available.*method='slq'"):
        isvm.check_kernel(X=X, kernel="rbf", method="dense")
    import subprocess
    import sys

    from sklearn.datasets import dump_svmlight_file

    path = tmp_path / "big.libsvm"
    dump_svmlight_file(X, np.where(X[:, 0] > 0, 1, -1), str(path), zero_based=False)
    proc = subprocess.run([sys.executable, "-m", "indefsvm", "check", str(path), "--method",
                           "dense"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert proc.returncode == 1, proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("indefsvm: error:") and "GiB" in last and "available" in last
    assert "Traceback" not in proc.stderr



def test_a_cache_size_beyond_memory_is_not_allocated_up_front(heart):
    # columns are allocated as they are filled (never more than n of them): a cache_size of
    # a petabyte costs what the problem needs, not an out-of-memory kill
    X, y = heart
    big = isvm.IndefiniteSVC(kernel="rbf", gamma=0.1, cache_size=1e9).fit(X, y)
    small = isvm.IndefiniteSVC(kernel="rbf", gamma=0.1).fit(X, y)
    np.testing.assert_array_equal(big.dual_coef_, small.dual_coef_)


def test_memory_message_gives_both_figures_in_gigabytes(monkeypatch):
    import indefsvm._validation as v

    monkeypatch.setattr(v, "available_memory", lambda: 1.5 * 2**30)
    with pytest.raises(MemoryError, match=r"needs about 6\.0 GiB of memory and 1\.5 GiB are "
                                          r"available\. do less"):
        v.check_memory(6 * 2**30, "the thing", "do less")
    v.check_memory(1.4 * 2**30, "the thing", "do less")   # fits: no error


def test_available_memory_reads_memavailable_in_kibibytes(monkeypatch):
    import io

    import indefsvm._validation as v

    text = "MemTotal:  9999 kB\nMemFree:  1 kB\nMemAvailable:    2048 kB\n"
    monkeypatch.setattr(v, "open", lambda *a, **k: io.StringIO(text), raising=False)
    assert v.available_memory() == 2048 * 1024.0
    monkeypatch.setattr(v, "open", lambda *a, **k: io.StringIO("MemTotal: 1 kB\n"),
                        raising=False)
    assert v.available_memory() is None


def test_the_feature_space_report_peaks_no_higher_than_the_fit():
    import tracemalloc

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60_000, 10))
    y = (X[:, 0] > 0).astype(int)
    tracemalloc.start()
    try:
        # 500 landmarks: the features (120 MB of float32) dominate both peaks; the float64
        # copy the report used to make was 1.39x the fit's peak here
        clf = isvm.NystroemSVC(kernel="rbf", n_components=500, random_state=0).fit(X, y)
        fit_peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        rep = isvm.sanity_report(clf, X, y)
        report_peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert rep.is_stationary
    # the features (float32, as fit holds them) and blocks of float64: not a float64 copy
    assert report_peak <= 1.2 * fit_peak, (report_peak / 2**20, fit_peak / 2**20)


@pytest.mark.parametrize("command", ["compare", "report"])
def test_a_command_too_big_for_the_memory_is_refused_before_the_work(
        monkeypatch, tmp_path, capsys, command):
    import indefsvm._validation as validation
    import indefsvm.diagnostics
    import indefsvm.remedies

    # 270 samples need a few MB: say only 1 MB is available
    monkeypatch.setattr(validation, "available_memory", lambda: 2.0**20)

    def no_work(*a, **k):
        raise AssertionError("the work started")

    monkeypatch.setattr(indefsvm.remedies, "compare_remedies", no_work)
    monkeypatch.setattr(indefsvm.diagnostics, "check_kernel", no_work)
    argv = [command, "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01"]
    if command == "report":
        argv += ["--out", str(tmp_path), "--cv", "0"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"indefsvm: error: indefsvm {command} on 270 samples needs about " in err
    assert "GiB" in err and "nothing was computed" in err
    assert "indefsvm fit --dataset heart --nystroem 100 --kernel sigmoid --gamma 0.01" in err


def test_the_estimate_of_compare_counts_the_folds_that_run_at_once(monkeypatch, capsys):
    import indefsvm._validation as validation

    n = 270
    one = 8.0 * n * n
    # room for the kernel, the distances and one fold, not for two folds at once
    monkeypatch.setattr(validation, "available_memory", lambda: one * 5.0)
    assert main(["compare", "--dataset", "heart", "--cv", "2", "--quiet"]) == 0
    capsys.readouterr()
    # 270 samples run one fold at a time whatever --n-jobs says (joblib_workers: below
    # SMALL_ROWS one worker), so the figure is one fold's
    assert main(["compare", "--dataset", "heart", "--cv", "2", "--n-jobs", "2"]) == 0
    capsys.readouterr()
    # where two workers would run (two idle cores, the small-work rule lowered), two folds
    # at once are counted, and refused before the work
    from indefsvm import _threads

    monkeypatch.setattr(_threads, "idle_cores", lambda: 2)
    monkeypatch.setattr(_threads, "SMALL_ROWS", 0)
    assert main(["compare", "--dataset", "heart", "--cv", "2", "--n-jobs", "2"]) == 1
    assert "needs about" in capsys.readouterr().err
