"""The explorer's frames: for every (kernel parameters, remedy, C) the numbers the page draws,
computed by the library's own diagnostics (the page only draws them)."""

from __future__ import annotations

import time

import numpy as np

from .._logging import logger
from .._warn import Held
from ..diagnostics import check_kernel, sanity_report
from ..exceptions import ConvergenceWarning
from ..geometry import PseudoEuclideanEmbedding, reduced_hull
from ..kernels import kernel_matrix
from ..svm import IndefiniteSVC
from ._grid import INPUT_GRID, remedy_fix

#: directions of the reduced-hull polygons (a vertex per direction, repeats dropped)
HULL_DIRECTIONS = 96


def _r(a, digits: int = 4):
    """Numbers for drawing, rounded to ``digits`` significant digits (the page's weight);
    the readouts are written at full precision."""
    a = np.asarray(a, dtype=float)
    if not a.size:
        return []
    # the decimal rounding of the format, one number at a time (np.vectorize costs twice)
    spec = f".{digits}g"
    flat = [float(format(v, spec)) for v in a.ravel().tolist()]
    return flat if a.ndim == 1 else np.asarray(flat).reshape(a.shape).tolist()


def _polygon(P, mu):
    """The reduced hull of planar points as a closed polygon, repeated vertices dropped."""
    if P.shape[0] == 0:
        return []
    h = reduced_hull(P, mu, n_directions=HULL_DIRECTIONS)
    keep = np.r_[True, np.any(np.abs(np.diff(h, axis=0)) > 1e-12, axis=1)]
    return _r(h[keep])


def _aligned(v, signal):
    """An eigenvector's sign is arbitrary: choose the one that correlates positively with
    the labels (else whose largest entry is positive), so that the picture does not jump
    between neighbouring frames."""
    s = float(v @ signal)
    if abs(s) <= 1e-9 * (np.abs(v).sum() + 1e-300):
        s = float(v[np.argmax(np.abs(v))])
    return v if s >= 0 else -v


def _plane(K, pos):
    """The embedding of Prop. 1 (Haasdonk 2005) of the kernel and the two axes the page
    shows: the leading positive one, and the leading negative one (the second positive
    one when the signature has no negative direction)."""
    emb = PseudoEuclideanEmbedding().fit(K)
    lam = emb.eigenvalues_
    sig = emb.signature_
    signal = pos - pos.mean()
    n = K.shape[0]
    x = _aligned(emb.Z_[:, 0], signal) if sig.p else np.zeros(n)
    if sig.q:
        y, m, label = _aligned(emb.Z_[:, sig.p], signal), -1.0, "leading negative axis"
        lam_axes = [float(lam[0]) if sig.p else 0.0, float(lam[sig.p])]
    elif sig.p >= 2:
        y, m, label = _aligned(emb.Z_[:, 1], signal), 1.0, \
            "second positive axis (no negative axis: q = 0)"
        lam_axes = [float(lam[0]), float(lam[1])]
    else:
        y, m, label = np.zeros(n), 1.0, "none (rank 1)"
        lam_axes = [float(lam[0]) if sig.p else 0.0, 0.0]
    return emb, np.c_[x, y], m, label, lam_axes


def kernel_part(K, y_pm, params, remedy):
    """What depends on the kernel only: spectrum, signature, check_kernel, the plane."""
    rep = check_kernel(K, y_pm)
    d = rep.to_dict()
    pos = (y_pm > 0).astype(float)
    emb, P, m, label, lam_axes = _plane(K, pos)
    lam_c = np.sort(emb.signature_.eigenvalues)[::-1]
    sig = d["signature"]
    return {
        "params": params,
        "remedy": remedy,
        "signature": [int(sig["p"]), int(sig["q"]), int(sig["z"])],
        "negative_mass": float(sig["negative_mass"]),
        "lam_min": float(d["lam_min"]),
        "lam_max": float(d["lam_max"]),
        "class_mean_sqdist": float(d["class_mean_sqdist"]),
        "kernel_verdict": d["verdict"],
        "zero_tol": float(sig["tol"]),
        "spectrum": _r(lam_c),
        "plane": _r(P),
        "plane_axes": ["leading positive axis" if sig["p"] else "none", label],
        "plane_eigenvalues": lam_axes,
        "plane_M": [1.0, m],
        "hulls_full": [_polygon(P[pos > 0], 1.0), _polygon(P[pos == 0], 1.0)],
    }, P, pos > 0


def svm_part(K, y_pm, C, P, pos, kpart):
    """What depends on C too: the SVM, its sanity report, w and Mw in the plane."""
    clf = IndefiniteSVC(kernel="precomputed", C=C)
    # the frame keeps its convergence warning; any other is the user's to see
    held = Held(ConvergenceWarning)
    held.call(clf.fit, K, y_pm)
    caught = held.said
    san = sanity_report(clf, K, y_pm)
    abar = np.asarray(san.ch_alpha, dtype=float)
    zp, zm = abar[pos] @ P[pos], abar[~pos] @ P[~pos]
    w = zp - zm
    m = np.asarray(kpart["plane_M"])
    mu = float(san.ch_mu) if san.ch_mu is not None else 1.0
    return clf, {
        "C": float(C),
        "w_M_w": float(san.wMw),
        "sanity_verdict": san.verdict,
        "converged": bool(np.all(clf.converged_)),
        "n_iter": int(np.sum(clf.n_iter_)),
        "kkt_gap": float(san.kkt_gap),
        "objective": float(san.objective),
        "n_sv": int(san.n_sv),
        "n_bounded": int(san.n_bounded),
        "train_accuracy": float(1.0 - san.train_error),
        "ch_mu": mu,
        "convergence_warning": str(caught[0].message) if caught else None,
        "support": np.flatnonzero(abar > 0).tolist(),
        "z_plus": _r(zp), "z_minus": _r(zm), "w": _r(w), "Mw": _r(w * m),
        "plane_w_M_w": float(w @ (w * m)),
        "hulls": [_polygon(P[pos], mu), _polygon(P[~pos], mu)],
    }


def grid_rows(X, params, kernel, box):
    """The kernel rows of the input plane's INPUT_GRID^2 points against the training points
    (2-D inputs): one matrix per kernel parameters, shared by every C and remedy."""
    (x0, x1), (y0, y1) = box
    gx, gy = np.meshgrid(np.linspace(x0, x1, INPUT_GRID), np.linspace(y0, y1, INPUT_GRID))
    G = np.c_[gx.ravel(), gy.ravel()]
    return kernel_matrix(G, X, kernel=kernel, **params)


def input_part(clf, rows):
    """The decision function over the input plane: an INPUT_GRID^2 image, from the grid's
    kernel rows as the SVM's kernel sees them (after its remedy)."""
    return {"decision": _r(clf.decision_function(rows), 3)}


def caption(frame: dict) -> str:
    """What the frame shows, in words: the sentence under the sliders."""
    p, q, _ = frame["signature"]
    words = []
    remedy = frame["remedy"]
    if remedy == "clip":
        words.append("clip set the negative eigenvalues of K to 0: the kernel is PSD and the "
                     "negative directions are gone.")
    elif remedy == "flip":
        words.append("flip replaced each eigenvalue of K by its absolute value: the negative "
                     "directions now count as positive.")
    elif remedy != "none":  # shift, square, cne, rne: the explorer's other fixes
        words.append(f"{remedy} made the kernel PSD.")
    if q == 0:
        words.append(f"Signature (p, q) = ({p}, 0): the data embed in a Euclidean space, "
                     "M = I and Mw = w.")
    else:
        words.append(f"Signature (p, q) = ({p}, {q}): {q} directions of negative squared "
                     f"length hold {frame['negative_mass']:.1%} of the eigenvalue mass.")
    cmd = frame["class_mean_sqdist"]
    if cmd <= 0:
        words.append(f"c'Kc = {cmd:.3g} <= 0: the class means are at a non-positive squared "
                     "distance, which bounds w'Mw from above: no C gives a sensible SVM "
                     "on this kernel.")
    wmw = frame["w_M_w"]
    if not frame["converged"]:
        words.append("SMO stopped at its iteration limit before the KKT gap reached tol: "
                     "read the geometry with care.")
    agree = (frame["plane_w_M_w"] > 0) == (wmw > 0)
    side = "the same side" if wmw > 0 else "opposite sides"
    where = (f"in the plane shown, w and Mw point to {side} of the decision line" if agree
             else "the plane shows 2 of the p + q axes only, and there w'Mw has the other "
                  "sign")
    if wmw > 0:
        words.append(f"w'Mw = {wmw:.3g} > 0: a sensible convex-hull classifier ({where}; "
                     f"hulls reduced by mu = 2C / sum(alpha) = {frame['ch_mu']:.3g}).")
    else:
        words.append(f"w'Mw = {wmw:.3g} <= 0: the SVM is a counter-intuitive convex-hull "
                     f"classifier ({where}). "
                     + ("A smaller C reduces the hulls (mu = 2C / sum(alpha)) and may "
                        "restore w'Mw > 0." if cmd > 0 else ""))
    return " ".join(w.strip() for w in words if w)


def compute_frames(X, y_pm, kernel: str, keys, *, two_d: bool, box, total: int,
                   verbose: bool = False):
    """Every frame: kernel parts once per (parameters, remedy), SVM parts per C.

    Returns ``(kernels, frames)``: the page's compact form (frames refer to their kernel
    part by index).
    """
    kernels, frames = [], []
    last = None
    K0 = G0 = rows = None
    t0 = time.perf_counter()
    for i, (params, C, remedy) in enumerate(keys):
        # each kernel matrix (and the input plane's rows) once per parameters, each fix and
        # its check once per (parameters, remedy); only the SVM is per frame
        if last is None or last[0] != params:
            K0 = X if kernel == "precomputed" else kernel_matrix(X, kernel=kernel, **params)
            G0 = grid_rows(X, params, kernel, box) if two_d else None
        if last is None or last != (params, remedy):
            fix = remedy_fix(remedy)
            K = K0 if fix is None else fix.fit_transform(K0)
            rows = G0 if fix is None or G0 is None else fix.transform(G0)
            kpart, P, pos = kernel_part(K, y_pm, params, remedy)
            kernels.append(kpart)
            last = (params, remedy)
        clf, frame = svm_part(K, y_pm, C, P, pos, kpart)
        frame["kernel"] = len(kernels) - 1
        if two_d:
            frame.update(input_part(clf, rows))
        frame["caption"] = caption({**kpart, **frame})
        frames.append(frame)
        if verbose:  # the CLI's progress bar listens to these records
            logger.info("explore: frame %d of %d (%.1f s)", i + 1, total,
                        time.perf_counter() - t0)
    return kernels, frames


def numbers(X, y_pm, kernel: str, params: dict, C: float, remedy: str) -> dict:
    """What the live page's ``window.indefsvm.numbers()`` returns, computed by the library:
    the reference its browser test holds the page to.

    ``signature`` and ``verdict`` are :func:`~indefsvm.check_kernel`'s, ``eigenvalues`` the
    centred spectrum of :class:`~indefsvm.geometry.PseudoEuclideanEmbedding` (largest
    first), ``alpha`` and ``b`` :class:`~indefsvm.IndefiniteSVC`'s, ``w_M_w``,
    ``sanity_verdict`` and ``support`` :func:`~indefsvm.sanity_report`'s.
    """
    X = np.asarray(X, dtype=float)
    K0 = kernel_matrix(X, kernel=kernel, **params)
    fix = remedy_fix(remedy)
    K = K0 if fix is None else fix.fit_transform(K0)
    kpart, P, pos = kernel_part(K, y_pm, params, remedy)
    clf, spart = svm_part(K, y_pm, C, P, pos, kpart)
    emb = PseudoEuclideanEmbedding().fit(K)
    return {"signature": kpart["signature"], "negative_mass": kpart["negative_mass"],
            "eigenvalues": np.sort(emb.signature_.eigenvalues)[::-1].tolist(),
            "alpha": clf.alpha_.tolist() if hasattr(clf, "alpha_") else None,
            "b": float(clf.intercept_[0]), "w_M_w": spart["w_M_w"],
            "support": spart["support"], "verdict": kpart["kernel_verdict"],
            "sanity_verdict": spart["sanity_verdict"], "n_iter": spart["n_iter"],
            "lam_min": kpart["lam_min"], "lam_max": kpart["lam_max"],
            "class_mean_sqdist": kpart["class_mean_sqdist"], "kkt_gap": spart["kkt_gap"],
            "objective": spart["objective"], "plane_w_M_w": spart["plane_w_M_w"]}
