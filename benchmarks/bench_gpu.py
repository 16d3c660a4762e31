"""The GPU path beside the CPU on all cores, in one run on one machine.

    python benchmarks/bench_gpu.py --out gpu.json         # about 5 minutes (GPU machine)
    python benchmarks/bench_gpu.py --small                # the CPU's part, small sizes

Every figure is measured in this process; the CPU runs use every core (``n_jobs=-1``). The
tasks (sizes of the full run):

* ``dtw_cells``: DTW of series of length 128 to 300 landmarks, band radius 12: DP cells a
  second, CPU (10^4 series) and GPU (10^5 series), and the largest relative difference.
* ``ny``: ``NystroemSVC(kernel="rbf", n_components=500)``, C = 1, tol = 1e-3, on vectors in
  d = 20 (scikit-learn's ``make_classification``, 10 informative, 5 % flipped labels;
  accuracy on 10^5 held-out points): 10^6 on the CPU and with ``device="cuda"``, 10^7 with
  ``device="cuda"`` (the 10^6 set ten times with Gaussian noise of 0.1, given as a CuPy
  array). The fit's time, its test accuracy, the host's peak memory and the device's pool.
  At 10^7 the default warm start's fit, stopped when its decomposition has not converged
  on the device (the warm start's time, the gap at step 0 and after the steps), and then
  the whole fit, the host finishing it.
* ``matfree``: ``check_kernel(X=X, kernel="rbf", method="slq")`` at n = 2 x 10^4 (CPU and
  GPU) and 10^5 (GPU), d = 20; ``matfree_cpu``: the same at 10^5 on the CPU.
* ``dtw_ny``: ``NystroemSVC(metric="dtw", metric_params={"window": 0.1},
  n_components=300)`` on CBF series of length 128 (``indefsvm.datasets.make_cbf``; 10^6 =
  the 10^5 set ten times with noise of 0.1): 10^5 on the CPU and the GPU, 10^6 on the GPU.
* ``starts``: every warm start of ``STARTS`` at 10^6 and at 10^7 rows, each fit stopped
  when its decomposition has not converged on the device.
* ``ny_cpu``, ``dtw_ny_cpu``: the 10^7 vectors and the 10^6 series on the CPU's cores (each
  minutes on 16 cores: tasks of their own, not in the default list). ``--cpu-limit S``
  stops each of these fits after S seconds as Ctrl-C would and records it as unfinished
  (the time, the last progress line the library logged): a lower bound, and the next task
  still runs.

Writes the figures as JSON (``--out``) after each task, so that a run stopped early keeps
what it measured, and prints a table at the end. ``--small`` runs the device code on NumPy
and the CUDA source through its C build (as the tests do), at small sizes.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import resource
import sys
import time
import traceback
import warnings

import numpy as np

warnings.simplefilter("ignore")


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _pool_gb() -> float | None:
    try:
        import cupy

        return cupy.get_default_memory_pool().total_bytes() / 2**30
    except Exception:
        return None


def _free_pool() -> None:
    try:
        import cupy

        cupy.get_default_memory_pool().free_all_blocks()
    except Exception:
        pass


def _band_cells(L: int, r: int) -> int:
    return sum(min(j + r, L - 1) - max(j - r, 0) + 1 for j in range(L))


def _cbf(n):
    """CBF series of length 128: n to train, 10^4 to test (the DTW tasks' data)."""
    import indefsvm as isvm

    S, lab = isvm.datasets.make_cbf(n + 10_000, length=128, random_state=0)
    return S[:n], lab[:n], S[n:], lab[n:]


def _timed_fit(clf, X, y, Xte, yte):
    """``(fit seconds, test accuracy)`` of ``clf`` fitted on ``X, y``."""
    t = time.perf_counter()
    clf.fit(X, y)
    fit = time.perf_counter() - t
    return fit, float(clf.score(Xte, yte))


class _Unfinished(Exception):
    """A CPU-beside fit stopped at ``--cpu-limit`` (``.record``: its figures so far)."""

    def __init__(self, record):
        super().__init__(record)
        self.record = record


def _limited_fit(clf, X, y, Xte, yte, limit):
    """``_timed_fit`` stopped after ``limit`` seconds (None: no limit) as Ctrl-C stops it
    (the fit's loops look at it): raises ``_Unfinished`` with the time, the last progress
    line the library logged and the peak memory -- a lower bound, not a figure guessed."""
    if limit is None:
        return _timed_fit(clf, X, y, Xte, yte)
    import _thread
    import logging
    import threading

    last = {}

    class Keep(logging.Handler):
        def emit(self, record):
            last["line"] = record.getMessage()

    keep = Keep()
    logging.getLogger("indefsvm").addHandler(keep)
    fired = threading.Event()

    def stop():
        fired.set()
        _thread.interrupt_main()

    timer = threading.Timer(limit, stop)
    t = time.perf_counter()
    timer.start()
    try:
        clf.fit(X, y)
    except KeyboardInterrupt:
        if not fired.is_set():
            raise
        raise _Unfinished({"unfinished_after_s": time.perf_counter() - t,
                           "limit_s": limit, "last_progress": last.get("line"),
                           "peak_rss_mb": _peak_rss_mb()}) from None
    finally:
        timer.cancel()
        logging.getLogger("indefsvm").removeHandler(keep)
    fit = time.perf_counter() - t
    return fit, float(clf.score(Xte, yte))


def _matfree_record(rep, seconds):
    d = rep.to_dict()
    return {"s": seconds, "verdict": rep.verdict,
            "negative_mass": d["signature"]["negative_mass"], "lam_min": d["lam_min"],
            "passes": rep.spectrum.details.get("passes")
            if getattr(rep, "spectrum", None) is not None else None}


def task_ny(res, small):
    from sklearn.datasets import make_classification

    import indefsvm as isvm

    n = 20_000 if small else 1_000_000
    t_test = 5_000 if small else 100_000
    X, y = make_classification(n + t_test, 20, n_informative=10, flip_y=0.05, random_state=0)
    Xtr, ytr, Xte, yte = X[:n], y[:n], X[n:], y[n:]
    out = res.setdefault("ny", {})
    for dev in ("cuda", "cpu"):
        clf = isvm.NystroemSVC(kernel="rbf", n_components=500, random_state=0, n_jobs=-1,
                               device=dev, verbose=dev == "cuda")
        _free_pool()
        t = time.perf_counter()
        clf.fit(Xtr, ytr)
        fit = time.perf_counter() - t
        acc = float(clf.score(Xte, yte))
        out[f"{dev}_{n}"] = {"fit_s": fit, "accuracy": acc, "converged": bool(clf.converged_),
                             "n_iter": int(clf.n_iter_[0]), "kkt_gap": float(clf.kkt_gap_[0]),
                             "peak_rss_mb": _peak_rss_mb(),
                             "device_pool_gb": _pool_gb() if dev == "cuda" else None}
        print(f"ny {dev} n={n}: fit {fit:.2f} s, accuracy {acc:.4f}, iters "
              f"{int(clf.n_iter_[0])}, converged {clf.converged_}", flush=True)
        _save(res)
        if dev == "cuda":
            # the model fitted on the GPU predicts on the CPU the same
            clf.set_params(device="cpu")
            out[f"cuda_{n}"]["cpu_predict_agrees"] = float(np.mean(
                clf.predict(Xte) == (clf.set_params(device="cuda").predict(Xte))))
    if not small and not LARGEST:
        return
    # 10^7 rows on the GPU (ten noisy copies of the 10^6; --small: 2 x 10^5 on NumPy)
    xp = np
    if not small:
        import cupy as xp
    rng = xp.random.default_rng(0)
    Xd = xp.asarray(Xtr)
    X10 = xp.concatenate([Xd + 0.1 * rng.standard_normal(Xd.shape) for _ in range(10)])
    y10 = np.tile(ytr, 10)
    del Xd
    # the default start only (the others: task starts)
    default_converged = _starts(res, X10, y10, Xte, yte, 10 * n, only=("default",))
    if not default_converged:
        # the default start did not converge on the device in DEVICE_STEPS: the whole fit
        # as a user sees it, the coordinate descent on the host finishing it
        clf = isvm.NystroemSVC(kernel="rbf", n_components=500, random_state=0, n_jobs=-1,
                               device="cuda", verbose=True)
        _free_pool()
        t = time.perf_counter()
        clf.fit(X10, y10)
        fit = time.perf_counter() - t
        acc = float(clf.score(Xte, yte))
        out[f"cuda_{10 * n}"] = {"fit_s": fit, "accuracy": acc,
                                 "converged": bool(clf.converged_),
                                 "n_iter": int(clf.n_iter_[0]), "device_pool_gb": _pool_gb()}
        print(f"ny cuda n={10 * n} (whole fit, host finishing): fit {fit:.2f} s, "
              f"accuracy {acc:.4f}", flush=True)
        _save(res)
    del X10
    _free_pool()
    _save(res)


#: the device's warm starts fitted at 10^7 rows (module constants of
#: indefsvm.solvers._linear_device set for the fit): the default first. Measured and left
#: off (benchmarks/RESULTS.md, 2026-11-27): the subsample start with a plain last width
#: ({"SUBSAMPLE_ROWS": "from", "FINAL_RESCALED": False, "FINAL_ITERATIONS": 300}: 400
#: steps did not reach tol at 10^7)
STARTS = {
    "default": {},
    "plain": {"PRECONDITION": False},
    "subsample": {"SUBSAMPLE_ROWS": "from"},
}


class _NotOnDevice(Exception):
    """The decomposition did not converge in its steps (the host's fallback not run)."""


def _starts(res, X, y, Xte, yte, n, only=None) -> bool:
    """``NystroemSVC(device="cuda")`` on ``X`` once for each warm start of ``STARTS`` (or
    those named in ``only``); a
    fit whose decomposition does not converge on the device is stopped there (its figures:
    the warm start's time, the gap at step 0 and after the steps), not handed to the host.
    Returns whether the default start converged."""
    import indefsvm as isvm
    from indefsvm.solvers import _linear_device as lin

    out = res.setdefault("ny", {})
    real_solve, real_start = lin.linear_svc_device, lin.warm_start
    default_converged = False
    for name, knobs in STARTS.items():
        if only is not None and name not in only:
            continue
        rec = {}

        def start(xp, Z, yy, Cb, rec=rec, **kw):
            t = time.perf_counter()
            a = real_start(xp, Z, yy, Cb, **kw)
            rec["warm_start_s"] = time.perf_counter() - t
            t = time.perf_counter()  # the gap at the start: not part of the fit's time
            from indefsvm._solvers._linsvm import kkt_gap

            f = lin._host((Z @ lin._weights(xp, Z, a * xp.asarray(yy)).astype(
                xp.float32)).astype(xp.float64))
            rec["gap_at_start"] = float(kkt_gap(f, yy, lin._host(a), Cb)[0])
            rec["probe_s"] = time.perf_counter() - t
            return a

        def solve(*args, rec=rec, **kw):
            r = real_solve(*args, **kw)
            rec.update(steps=int(r.n_iter), kkt_gap=float(r.kkt_gap),
                       converged=bool(r.converged), status=r.status)
            if not r.converged:
                raise _NotOnDevice
            return r

        saved = {k: getattr(lin, k) for k in knobs}
        for k, v in knobs.items():
            setattr(lin, k, lin.SUBSAMPLE_FROM if v == "from" else v)
        lin.linear_svc_device, lin.warm_start = solve, start
        clf = isvm.NystroemSVC(kernel="rbf", n_components=500, random_state=0,
                               device="cuda", verbose=True)
        _free_pool()
        t = time.perf_counter()
        try:
            clf.fit(X, y)
            rec["fit_s"] = time.perf_counter() - t - rec.get("probe_s", 0.0)
            rec["accuracy"] = float(clf.score(Xte, yte))
        except _NotOnDevice:
            rec["stopped_after_s"] = time.perf_counter() - t - rec.get("probe_s", 0.0)
        finally:
            lin.linear_svc_device, lin.warm_start = real_solve, real_start
            for k, v in saved.items():
                setattr(lin, k, v)
        rec["device_pool_gb"] = _pool_gb()
        out[f"cuda_{n}_start_{name}"] = rec
        if name == "default":
            default_converged = bool(rec.get("converged"))
        print(f"ny cuda n={n} start {name}: {rec}", flush=True)
        _save(res)
    return default_converged


def task_starts(res, small):
    """The warm starts of ``STARTS`` on the 10^6 rows of ``ny`` (distinct), and again on
    their ten noisy copies."""
    from sklearn.datasets import make_classification

    n = 20_000 if small else 1_000_000
    t_test = 5_000 if small else 100_000
    X, y = make_classification(n + t_test, 20, n_informative=10, flip_y=0.05, random_state=0)
    Xtr, ytr, Xte, yte = X[:n], y[:n], X[n:], y[n:]
    xp = np
    if not small:
        import cupy as xp
    _starts(res, xp.asarray(Xtr), ytr, Xte, yte, n)
    rng = xp.random.default_rng(0)
    Xd = xp.asarray(Xtr)
    X10 = xp.concatenate([Xd + 0.1 * rng.standard_normal(Xd.shape) for _ in range(10)])
    del Xd
    _starts(res, X10, np.tile(ytr, 10), Xte, yte, 10 * n)


def task_ny_cpu(res, small):
    """``ny``'s 10^7 rows (the same ten noisy copies, as NumPy) on the CPU's cores: the
    figure beside the GPU's (about 20 GB of float32 features on the host)."""
    from sklearn.datasets import make_classification

    import indefsvm as isvm

    n = 20_000 if small else 1_000_000
    t_test = 5_000 if small else 100_000
    X, y = make_classification(n + t_test, 20, n_informative=10, flip_y=0.05, random_state=0)
    Xtr, ytr, Xte, yte = X[:n], y[:n], X[n:], y[n:]
    if small:
        rng = np.random.default_rng(0)
        X10 = np.concatenate([Xtr + 0.1 * rng.standard_normal(Xtr.shape) for _ in range(10)])
    else:  # the GPU task's rows exactly: CuPy's generator, brought to the host
        import cupy

        rng = cupy.random.default_rng(0)
        Xd = cupy.asarray(Xtr)
        X10 = cupy.concatenate([Xd + 0.1 * rng.standard_normal(Xd.shape)
                                for _ in range(10)]).get()
        del Xd
        _free_pool()
    out = res.setdefault("ny", {})
    clf = isvm.NystroemSVC(kernel="rbf", n_components=500, random_state=0, n_jobs=-1,
                           verbose=True)
    try:
        fit, acc = _limited_fit(clf, X10, np.tile(ytr, 10), Xte, yte, CPU_LIMIT)
    except _Unfinished as exc:
        out[f"cpu_{10 * n}"] = exc.record
        print(f"ny cpu n={10 * n}: {exc.record}", flush=True)
        _save(res)
        return
    out[f"cpu_{10 * n}"] = {"fit_s": fit, "accuracy": acc, "converged": bool(clf.converged_),
                            "n_iter": int(clf.n_iter_[0]), "peak_rss_mb": _peak_rss_mb()}
    print(f"ny cpu n={10 * n}: fit {fit:.2f} s, accuracy {acc:.4f}", flush=True)
    _save(res)


def task_dtw_ny_cpu(res, small):
    """``dtw_ny``'s 10^6 series (the same ten noisy copies) on the CPU's cores."""
    import indefsvm as isvm

    n = 2_000 if small else 100_000
    Str, ytr, Ste, yte = _cbf(n)
    rng = np.random.default_rng(0)
    S10 = np.concatenate([Str + 0.1 * rng.standard_normal(Str.shape) for _ in range(10)])
    clf = isvm.NystroemSVC(metric="dtw", metric_params={"window": 0.1}, n_components=300,
                           random_state=0, n_jobs=-1, verbose=True)
    try:
        fit, acc = _limited_fit(clf, S10, np.tile(ytr, 10), Ste, yte, CPU_LIMIT)
    except _Unfinished as exc:
        res.setdefault("dtw_ny", {})[f"cpu_{10 * n}"] = exc.record
        print(f"dtw ny cpu n={10 * n}: {exc.record}", flush=True)
        _save(res)
        return
    res.setdefault("dtw_ny", {})[f"cpu_{10 * n}"] = {
        "fit_s": fit, "accuracy": acc, "converged": bool(clf.converged_),
        "peak_rss_mb": _peak_rss_mb()}
    print(f"dtw ny cpu n={10 * n}: fit {fit:.2f} s, accuracy {acc:.4f}", flush=True)
    _save(res)


def task_matfree_cpu(res, small):
    """The matrix-free check at 10^5 on the CPU's cores: the figure beside the GPU's 10^5
    (``matfree``), a task of its own because it is the longest."""
    from sklearn.datasets import make_classification

    import indefsvm as isvm

    n = 2_000 if small else 100_000
    X, y = make_classification(n, 20, n_informative=10, random_state=0)
    out = res.setdefault("matfree", {})
    t = time.perf_counter()
    rep = isvm.check_kernel(X=X, y=y, kernel="rbf", method="slq", n_jobs=-1, random_state=0,
                            verbose=True)
    el = time.perf_counter() - t
    out[f"cpu_{n}"] = _matfree_record(rep, el)
    print(f"matfree cpu n={n}: {el:.2f} s, {rep.verdict}", flush=True)
    _save(res)


def task_dtw_ny(res, small):
    import indefsvm as isvm

    n = 2_000 if small else 100_000
    Str, ytr, Ste, yte = _cbf(n)
    out = res.setdefault("dtw_ny", {})
    kw = dict(metric="dtw", metric_params={"window": 0.1}, n_components=300, random_state=0)
    for dev in ("cuda", "cpu"):
        clf = isvm.NystroemSVC(**kw, n_jobs=-1, device=dev)
        fit, acc = _timed_fit(clf, Str, ytr, Ste, yte)
        out[f"{dev}_{n}"] = {"fit_s": fit, "accuracy": acc, "converged": bool(clf.converged_)}
        print(f"dtw ny {dev} n={n}: fit {fit:.2f} s, accuracy {acc:.4f}", flush=True)
        _save(res)
    if small or not LARGEST:
        return
    rng = np.random.default_rng(0)
    S10 = np.concatenate([Str + 0.1 * rng.standard_normal(Str.shape) for _ in range(10)])
    y10 = np.tile(ytr, 10)
    clf = isvm.NystroemSVC(**kw, device="cuda")
    _free_pool()
    fit, acc = _timed_fit(clf, S10, y10, Ste, yte)
    out[f"cuda_{10 * n}"] = {"fit_s": fit, "accuracy": acc, "converged": bool(clf.converged_),
                             "device_pool_gb": _pool_gb()}
    print(f"dtw ny cuda n={10 * n}: fit {fit:.2f} s, accuracy {acc:.4f}", flush=True)
    _save(res)


def task_dtw_cells(res, small):
    import indefsvm as isvm
    from indefsvm._device import resolve_device
    from indefsvm._device._dtw import dtw_block
    from indefsvm.distances._objects import as_series

    L, m = 128, 300
    n_cpu = 500 if small else 10_000
    n_gpu = 2_000 if small else 100_000
    S, _ = isvm.datasets.make_cbf(n_gpu + m, length=L, random_state=1)
    land = S[:m]
    cells = _band_cells(L, int(np.floor(0.1 * L + 1e-9)))
    out = res.setdefault("dtw_cells", {"length": L, "landmarks": m, "radius": 12})
    t = time.perf_counter()
    D_cpu = isvm.pairwise_distances(S[m:m + n_cpu], land, metric="dtw", window=0.1, n_jobs=-1)
    t_cpu = time.perf_counter() - t
    out["cpu_cells_per_s"] = n_cpu * m * cells / t_cpu
    dev = resolve_device("cuda")
    A, B = as_series(S[m:]), as_series(land)
    ref = D_cpu
    for kernel in ("band", "row"):
        dtw_block(dev, as_series(S[m:m + 10]), B, 0.1, kernel=kernel)  # compile, not timed
        dev.synchronize()
        t = time.perf_counter()
        D = dtw_block(dev, A, B, 0.1, kernel=kernel)
        dev.synchronize()
        t_gpu = time.perf_counter() - t
        Dh = D.get() if hasattr(D, "get") else D
        key = "gpu" if kernel == "band" else "gpu_row_kernel"
        out[f"{key}_cells_per_s"] = n_gpu * m * cells / t_gpu
        out[f"{key}_max_rel_diff"] = float(np.max(np.abs(Dh[:n_cpu] - ref)
                                                  / np.maximum(ref, 1e-300)))
        del D
    out["max_rel_diff"] = out["gpu_max_rel_diff"]
    print(f"dtw cells/s: row kernel {out['gpu_row_kernel_cells_per_s']:.3g}", flush=True)
    print(f"dtw cells/s: cpu {out['cpu_cells_per_s']:.3g}, gpu {out['gpu_cells_per_s']:.3g}, "
          f"max rel diff {out['max_rel_diff']:.2g}", flush=True)
    _save(res)


def task_matfree(res, small):
    from sklearn.datasets import make_classification

    import indefsvm as isvm
    from indefsvm._device import _blocks

    out = res.setdefault("matfree", {})
    sizes = [(2_000, ("cuda", "cuda-unfused", "cpu"))] if small else \
        [(100_000, ("cuda", "cuda-unfused")), (20_000, ("cuda", "cpu"))]
    for n, devs in sizes:
        X, y = make_classification(n, 20, n_informative=10, random_state=0)
        for dev in devs:
            _blocks.FUSED = dev != "cuda-unfused"
            prof = cProfile.Profile() if dev == "cuda" else None
            t = time.perf_counter()
            if prof is not None:
                prof.enable()
            rep = isvm.check_kernel(X=X, y=y, kernel="rbf", method="slq", n_jobs=-1,
                                    random_state=0, device=dev.split("-")[0])
            el = time.perf_counter() - t
            _blocks.FUSED = True
            if prof is not None:  # where the time went: the device's stripes or the host
                prof.disable()
                text = io.StringIO()
                pstats.Stats(prof, stream=text).sort_stats("tottime").print_stats(8)
                out[f"{dev}_{n}_profile"] = text.getvalue()[-2500:]
            out[f"{dev}_{n}"] = _matfree_record(rep, el)
            print(f"matfree {dev} n={n}: {el:.2f} s, {rep.verdict}", flush=True)
            _save(res)


def task_smoke(res, small):
    """The device's fused kernel tails and both DTW kernels against the CPU, at once (a
    failure here says which part to leave out before the long tasks)."""
    import indefsvm as isvm
    from indefsvm._device import _blocks, _dtw, resolve_device
    from indefsvm._device._dtw import dtw_block
    from indefsvm.distances._objects import as_series

    dev = resolve_device("cuda")
    X = np.random.default_rng(0).standard_normal((300, 20))
    out = res.setdefault("smoke", {})
    for name, p in (("rbf", {"gamma": 0.05}), ("sigmoid", {"gamma": 0.05, "coef0": -0.5})):
        try:
            K = _blocks.kernel_block(dev.xp, name, dev.asarray(X), dev.asarray(X), p)
            K = K.get() if hasattr(K, "get") else K
            out[name] = float(np.max(np.abs(K - isvm.kernel_matrix(X, kernel=name, **p))))
        except Exception as exc:  # the rest of the run without the fused tails
            out[name] = f"failed: {exc!r}"
            _blocks.FUSED = False
    S, _ = isvm.datasets.make_cbf(120, length=128, random_state=0)
    ref = isvm.pairwise_distances(S, metric="dtw", window=0.1)
    for kernel in ("band", "row"):
        try:
            D = dtw_block(dev, as_series(S), as_series(S), 0.1, kernel=kernel)
            D = D.get() if hasattr(D, "get") else D
            out[f"dtw_{kernel}"] = float(np.max(np.abs(D - ref)))
        except Exception as exc:  # the rest of the run on the row kernel
            out[f"dtw_{kernel}"] = f"failed: {exc!r}"
            _dtw.BAND_WIDTH_MAX = 0
    out["fused_used"] = _blocks.FUSED
    out["band_kernel_used"] = _dtw.BAND_WIDTH_MAX > 0
    print("smoke:", out, flush=True)
    _save(res)


TASKS = {"smoke": task_smoke, "dtw_cells": task_dtw_cells, "ny": task_ny, "matfree": task_matfree,
         "dtw_ny": task_dtw_ny, "matfree_cpu": task_matfree_cpu, "starts": task_starts,
         "ny_cpu": task_ny_cpu, "dtw_ny_cpu": task_dtw_ny_cpu}
#: tasks run only when named (minutes each on 16 cores)
LONG = ("starts", "ny_cpu", "dtw_ny_cpu", "matfree_cpu")
_OUT = None
LARGEST = True
#: seconds after which the CPU-beside fits (ny_cpu, dtw_ny_cpu) are stopped (--cpu-limit)
CPU_LIMIT = None


def _save(res) -> None:
    if _OUT:
        with open(_OUT, "w") as fh:
            json.dump(res, fh, indent=1, default=str)


def main() -> None:
    global _OUT, LARGEST, CPU_LIMIT
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=None)
    ap.add_argument("--small", action="store_true")
    ap.add_argument("--only", default=",".join(t for t in TASKS if t not in LONG))
    ap.add_argument("--no-largest", action="store_true",
                    help="leave out the 10^7 Nystroem and 10^6 DTW fits (a short run)")
    ap.add_argument("--cpu-limit", type=float, default=None, metavar="S",
                    help="stop each of ny_cpu's and dtw_ny_cpu's fits after S seconds, "
                         "recorded as unfinished with its last progress line (default: no "
                         "limit)")
    args = ap.parse_args()
    import logging

    logging.basicConfig(level=logging.INFO, format="%(relativeCreated)8.0f ms %(message)s")
    _OUT = args.out
    LARGEST = not args.no_largest
    CPU_LIMIT = args.cpu_limit
    res = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]}}
    try:
        import cupy

        props = cupy.cuda.runtime.getDeviceProperties(0)
        res["machine"]["gpu"] = props["name"].decode()
        res["machine"]["cupy"] = cupy.__version__
    except Exception as exc:
        res["machine"]["gpu"] = f"none ({exc})"
    if args.small:
        # the CPU's part here: the device code runs on NumPy, the CUDA source through its
        # C build (as in the tests)
        from indefsvm import _device

        _device._EMULATE = True
    for name in args.only.split(","):
        t = time.perf_counter()
        try:
            TASKS[name](res, args.small)
        except Exception:
            res.setdefault("errors", {})[name] = traceback.format_exc()
            traceback.print_exc()
        print(f"-- {name}: {time.perf_counter() - t:.1f} s", flush=True)
        _save(res)
    print(json.dumps(res, indent=1, default=str))


if __name__ == "__main__":
    main()
