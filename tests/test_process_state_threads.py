"""What fits in several Python threads leave of the process's state: its warnings, its logger.

The library's warnings are held or muted per thread, never through the process's state.

``warnings.catch_warnings`` puts back, on exit, the filters and the ``showwarning`` hook it
found on entry; blocks overlapping in two threads put back each other's. Fits of
``RemedySearchCV`` and ``compare_remedies`` in Python threads (each fold caught its fixes'
``DegenerateKernelWarning`` that way) left the process with stray filters and a hook that
appended every later warning to a list no one read.
"""

import sys
import threading
import time
import warnings

import numpy as np
import pytest
from joblib import Parallel, delayed, parallel_backend

import indefsvm as isvm
from helpers import stopped_at_line
from indefsvm._interrupt import interruptible
from indefsvm._warn import Held, Muted, carried, say_again, warn
from indefsvm.exceptions import ConvergenceWarning, DegenerateKernelWarning, DistanceMatrixWarning


def _said_in_a_fresh_record(func):
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        func()
    return said


def test_holders_overlapping_in_two_threads_keep_their_own_and_leave_the_process_alone():
    # A starts, B starts, A ends, B ends: the order that made catch_warnings put back A's
    # list as the process's hook
    filters, hook = list(warnings.filters), warnings._showwarnmsg_impl
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    holders = {"a": Held(DegenerateKernelWarning), "b": Held(DegenerateKernelWarning)}

    def in_a():
        a_in.set()
        b_in.wait(5)
        warn("from A", DegenerateKernelWarning)

    def in_b():
        b_in.set()
        a_out.wait(5)
        warn("from B", DegenerateKernelWarning)

    def a():
        holders["a"].call(in_a)
        a_out.set()

    def b():
        a_in.wait(5)
        holders["b"].call(in_b)

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [str(w.message) for w in holders["a"].said] == ["from A"]
    assert [str(w.message) for w in holders["b"].said] == ["from B"]
    assert warnings.filters == filters and warnings._showwarnmsg_impl is hook
    # and after them a warning is said, not kept
    said = _said_in_a_fresh_record(lambda: warn("after", DegenerateKernelWarning))
    assert [str(w.message) for w in said] == ["after"]


def test_a_held_warning_has_the_file_and_line_warnings_would_give_it():
    def site():
        warn("here", ConvergenceWarning, stacklevel=2)  # the caller's line

    def caller():
        site()
        return sys._getframe().f_lineno - 1

    held = Held(ConvergenceWarning)
    line = held.call(caller)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        line_said = caller()
    assert len(held.said) == 1 and held.said[0].category is ConvergenceWarning
    assert held.said[0].filename == __file__ == said[0].filename
    assert held.said[0].lineno == line == line_said == said[0].lineno


def test_held_takes_only_its_categories_and_the_innermost_holder_first():
    outer, inner = Held(UserWarning), Held(ConvergenceWarning)

    def work():
        said = _said_in_a_fresh_record(lambda: warn("plain", RuntimeWarning))
        warn("stopped", ConvergenceWarning)  # a UserWarning too: the inner holder's
        warn("user", UserWarning)
        return said

    said = outer.call(inner.call, work)
    assert [str(w.message) for w in inner.said] == ["stopped"]
    assert [str(w.message) for w in outer.said] == ["user"]
    assert [str(w.message) for w in said] == ["plain"]


def test_say_again_goes_to_an_outer_holder_or_to_warnings():
    outer, inner = Held(), Held(DegenerateKernelWarning)

    def work():
        inner.call(warn, "flat", DegenerateKernelWarning)
        say_again(inner.said[0])

    outer.call(work)
    assert outer.said == inner.said and len(inner.said) == 1
    said = _said_in_a_fresh_record(lambda: say_again(inner.said[0]))
    assert len(said) == 1 and said[0].lineno == inner.said[0].lineno


def test_muted_by_category_and_message_start():
    def both():
        warn("X has shape (2, 5, 3): read as 2 series", UserWarning)
        warn("another", UserWarning)
        return 7

    mute = Muted(UserWarning, match=r".* has shape .*: read as")
    said = _said_in_a_fresh_record(lambda: mute.call(both))
    assert [str(w.message) for w in said] == ["another"]
    assert mute.call(lambda: 7) == 7 and mute.said is None


def test_a_ctrl_c_at_any_line_of_a_holder_leaves_nothing_in_force():
    """A holder is set inside a copy of the context, never put back: an interrupt at any
    line of indefsvm._warn (or of the call) leaves the caller's context as it was."""
    import indefsvm._warn as module

    def work():
        warn("inside", DistanceMatrixWarning)
        return 1

    def call_stopped_at_line(k):
        return stopped_at_line(lambda: Muted(DistanceMatrixWarning).call(work), k,
                               lambda name: name in (module.__file__, __file__))

    n_lines = call_stopped_at_line(-1)
    assert n_lines >= 4
    for k in range(1, n_lines + 1):
        with pytest.raises(KeyboardInterrupt):
            call_stopped_at_line(k)
        assert module._HOLDERS.get() == (), k
    said = _said_in_a_fresh_record(lambda: warn("after", DistanceMatrixWarning))
    assert [str(w.message) for w in said] == ["after"]


@pytest.mark.parametrize("backend", ["threading", "loky"])
def test_muting_goes_with_the_tasks_a_call_starts_through_carried(backend):
    def task(i):
        warn(f"distances {i}", DistanceMatrixWarning)
        return i

    def run(wrap):
        with parallel_backend(backend, n_jobs=2):
            return Parallel()(delayed(wrap(task))(i) for i in range(4))

    said = _said_in_a_fresh_record(lambda: Muted(DistanceMatrixWarning).call(run, carried))
    assert said == []
    if backend == "threading":
        # the control: a joblib thread does not start in the caller's context
        said = _said_in_a_fresh_record(
            lambda: Muted(DistanceMatrixWarning).call(run, lambda f: f))
        assert sorted(str(w.message) for w in said) == [f"distances {i}" for i in range(4)]


def test_the_ctrl_c_worker_thread_runs_in_the_callers_context():
    # interruptible() runs its call in a worker thread when called from the main thread
    assert threading.current_thread() is threading.main_thread()
    held = Held(ConvergenceWarning)
    held.call(interruptible, lambda: warn("in the worker", ConvergenceWarning))
    assert [str(w.message) for w in held.said] == ["in the worker"]


def _flat_kernel():
    # negative semi-definite: its clipped folds are zero, each holds (and counts) a
    # DegenerateKernelWarning
    rng = np.random.default_rng(0)
    X = rng.normal(size=(48, 3))
    y = np.where(X[:, 0] > 0, 1, -1)
    return -(X @ X.T), y


@pytest.mark.filterwarnings("ignore::indefsvm.exceptions.DegenerateKernelWarning")
def test_searches_and_comparisons_in_threads_leave_the_warning_machinery_as_found():
    K, y = _flat_kernel()
    filters, hook = len(warnings.filters), warnings._showwarnmsg_impl
    errors = []

    def work(i):
        try:
            for _ in range(3):
                if i % 2:
                    isvm.RemedySearchCV(param_grid={"C": [1.0]}, cv=3,
                                        methods=["clip", "flip"]).fit(K, y)
                else:
                    isvm.compare_remedies(K, y, cv=3, methods=["clip", "flip"])
        except Exception as exc:  # pragma: no cover - said by the assert below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert len(warnings.filters) == filters and warnings._showwarnmsg_impl is hook
    said = _said_in_a_fresh_record(lambda: warnings.warn("probe", ConvergenceWarning,
                                                                 stacklevel=1))
    assert [str(w.message) for w in said] == ["probe"]


def test_verbose_fits_starting_in_threads_add_one_handler(monkeypatch):
    import logging

    from indefsvm._logging import enable, logger

    monkeypatch.setattr(logger, "handlers", [])
    monkeypatch.setattr(logger, "propagate", False)  # no handler above it either
    found = logger.hasHandlers

    def slow():  # the window between looking and adding, made wide
        answer = found()
        time.sleep(0.05)
        return answer

    monkeypatch.setattr(logger, "hasHandlers", slow)
    start = threading.Barrier(6)

    def verbose_fit():
        start.wait(5)
        enable(True)

    level = logger.level
    threads = [threading.Thread(target=verbose_fit) for _ in range(6)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        logger.setLevel(level)
    assert len(logger.handlers) == 1
    assert isinstance(logger.handlers[0], logging.StreamHandler)


def test_searches_on_a_dask_cluster_of_threads_score_as_one_process_and_say_once():
    """The docs' ``joblib.parallel_config(backend="dask")``: the folds of the search and of
    the comparison run as tasks in the threads of a LocalCluster's workers; same scores as
    one process, the process's warnings left as found, each fold's degenerate fix counted
    and said once."""
    distributed = pytest.importorskip("distributed")
    import joblib

    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 4))
    y = np.where(X[:, 0] + 0.3 * X[:, 1] > 0, 1, -1)
    K = -(X @ X.T)  # negative semi-definite: its clipped folds are zero
    grid = {"C": [0.1, 1.0]}
    methods = ["clip", "flip", "shift"]
    local = isvm.RemedySearchCV(param_grid=grid, cv=3, methods=methods, refit=False)
    with warnings.catch_warnings(record=True) as said_local:
        warnings.simplefilter("always")
        local.fit(K, y)
        cmp_local = isvm.compare_remedies(K, y, cv=3, methods=methods)
    filters, hook = len(warnings.filters), warnings._showwarnmsg_impl
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster), joblib.parallel_config(backend="dask"):
        remote = isvm.RemedySearchCV(param_grid=grid, cv=3, methods=methods, refit=False,
                                     n_jobs=2)
        with warnings.catch_warnings(record=True) as said_remote:
            warnings.simplefilter("always")
            remote.fit(K, y)
            cmp_remote = isvm.compare_remedies(K, y, cv=3, methods=methods, n_jobs=2)
        assert len(warnings.filters) == filters and warnings._showwarnmsg_impl is hook
    np.testing.assert_array_equal(remote.cv_results_["mean_test_score"],
                                  local.cv_results_["mean_test_score"])
    assert remote.best_method_ == local.best_method_
    for m, errors in cmp_local.fold_errors.items():
        np.testing.assert_array_equal(cmp_remote.fold_errors[m], errors)

    def degenerate(said):
        return sorted(str(w.message) for w in said
                      if issubclass(w.category, DegenerateKernelWarning))

    assert len(degenerate(said_local)) == 2  # one for the search, one for the comparison
    assert degenerate(said_remote) == degenerate(said_local)


def test_a_quiet_call_logs_nothing_even_where_a_verbose_one_left_its_handler(caplog):
    """verbose=True adds a stderr handler to the 'indefsvm' logger and leaves it (one per
    process); the calls without verbose must then still say nothing. check_distances logged
    its phases and explore() its frames whatever verbose said, so every quiet call after a
    verbose one printed them."""
    rng = np.random.default_rng(21)
    X = rng.normal(size=(24, 2))
    y = np.where(X[:, 0] > 0, 1, -1)
    D = np.sqrt(((X[:, None] - X[None]) ** 2).sum(-1))
    K = np.tanh(X @ X.T / 2 - 0.5)
    series = [rng.normal(size=12) for _ in range(24)]
    calls = {
        "check_distances": lambda v: isvm.diagnostics.check_distances(D, y, verbose=v),
        "check_distances of objects": lambda v: isvm.diagnostics.check_distances(
            X=series, y=y, metric="dtw", n_landmarks=12, verbose=v),
        "check_kernel": lambda v: isvm.check_kernel(K, y, verbose=v),
        "explore": lambda v: isvm.explore(X, y, param_grid={"gamma": [0.5], "coef0": [0.0]},
                                          C=[1.0], remedies=("none",), verbose=v),
        "compare_remedies": lambda v: isvm.compare_remedies(K, y, cv=3, methods=["flip"],
                                                            verbose=v),
        "learn_window": lambda v: isvm.distances.learn_window(series, y, windows=[0.1, 0.2],
                                                    verbose=v),
        "IndefiniteSVC": lambda v: isvm.IndefiniteSVC(kernel="precomputed",
                                                      verbose=v).fit(K, y),
        "NystroemSVC": lambda v: isvm.NystroemSVC(n_components=10, random_state=0,
                                                  verbose=v).fit(X, y),
        "RemedySearchCV": lambda v: isvm.RemedySearchCV(cv=3, methods=["flip"],
                                                        verbose=v).fit(K, y),
        "check_kernel, matrix-free": lambda v: isvm.check_kernel(
            X=X, y=y, kernel="sigmoid", gamma=0.5, coef0=-1.0, method="lanczos", verbose=v),
    }
    for name, call in calls.items():
        caplog.clear()
        with caplog.at_level("INFO", logger="indefsvm"):
            call(False)
        assert [r.getMessage() for r in caplog.records if r.levelname == "INFO"] == [], name
        with caplog.at_level("INFO", logger="indefsvm"):
            call(True)
        assert [r for r in caplog.records if r.levelname == "INFO"], name  # it can speak
