"""Matrix-free spectra: kernel-block operators, Lanczos on many probes, SLQ with bounds.

Nothing of size ``n^2`` is stored. An *operator* applies ``K`` to a block of vectors; for
kernels given by ``X`` it computes the kernel tile by tile in compiled code (each tile of the
upper triangle once, used for both of its mirror images), on threads or -- for a
``dask.array`` ``X`` -- as one task per pair of row chunks.

On it, ``m`` independent Lanczos runs (full reorthogonalisation, ``k`` steps) from centred
Rademacher probes ``w = J z`` are carried out together, one kernel pass a step:

* stochastic Lanczos quadrature (Ubaru, Chen & Saad 2017): each run's tridiagonal matrix is
  a Gauss quadrature of the probe's spectral measure, ``w' f(JKJ) w ~ |w|^2 sum tau_l
  f(theta_l)``, averaged over the probes (Hutchinson 1990) for the number of negative and
  positive eigenvalues and for the sum of the negative ones. Beside each estimate: the
  Chebyshev-Markov-Stieltjes inequalities bound every probe's distribution function between
  two step functions of its Gauss quadrature, which gives a lower and an upper value per
  probe; the interval is their means widened by ``Z`` standard errors over the probes.
* the extreme eigenvalues by Rayleigh-Ritz on the union of the probes' Krylov spaces (a
  block Krylov space of dimension ``m k``), from the Lanczos relations alone: the Ritz value
  and its residual norm give ``[theta - r, theta]`` for a smallest and ``[theta, theta + r]``
  for a largest eigenvalue. ``K`` itself (not only ``JKJ``) is handled on the same space
  with ``u = e / sqrt(n)`` and ``K u`` added, so no pass is spent on it.

The first pass also applies ``K`` to ``u`` and to the class indicators and runs the exact
eta scan (``want_eta``) on the same tiles.
"""

from __future__ import annotations

import math
import time

import numpy as np
import scipy.linalg as sla

from .._scale import power_of_two_exponent
from .._solvers._kblocks import kernel_block_products, kernel_diagonal, reorthogonalise
from .._threads import single_threaded_blas
from .._validation import check_seed

#: standard errors added on each side of an estimate's interval (the probe average)
Z_SCORE = 4.0

#: largest Krylov basis of a Rayleigh-Ritz step (columns)
RITZ_MAX = 600


class KernelOperator:
    """``K @ V`` for a kernel of ``X`` (compiled tiles) or a dense ``K`` in memory.

    Parameters
    ----------
    X : ndarray (n, d), C-contiguous float64, optional
    K : ndarray (n, n), optional
    kind, gamma, coef0, degree : the compiled kernel (``_solvers._kernels.pxd`` codes)
    func : callable, optional
        ``func(A, B) -> K(A, B)`` for kernels without a compiled form (row stripes).
    labels : ndarray of int32 (class codes), n_classes, atol : for the eta statistics
    n_threads : int
    """

    def __init__(self, *, X=None, K=None, kind=0, gamma=0.0, coef0=0.0, degree=3, func=None,
                 labels=None, n_classes=1, atol=0.0, n_threads=1, tile=128):
        self.X, self.K, self.func = X, K, func
        self.kind, self.gamma, self.coef0, self.degree = kind, gamma, coef0, degree
        self.n = (K if K is not None else X).shape[0]
        self.n_threads, self.tile = n_threads, tile
        self.labels = (np.zeros(self.n, dtype=np.int32) if labels is None
                       else np.ascontiguousarray(labels, dtype=np.int32))
        self.n_classes = max(int(n_classes), 1)
        self.passes = 0
        if K is not None:
            self.diag = np.ascontiguousarray(np.diagonal(K), dtype=np.float64)
        elif func is not None:
            self.diag = np.array([func(X[i:i + 1], X[i:i + 1])[0, 0] for i in range(self.n)],
                                 dtype=np.float64)
        else:
            self.diag = kernel_diagonal(kind, X, gamma, coef0, degree)
        self.atol = atol

    def matmat(self, V, want_eta=False):
        """``(K @ V, eta figures or None)``."""
        V = np.ascontiguousarray(V, dtype=np.float64)
        self.passes += 1
        if self.K is not None:
            return self.K @ V, None
        if self.func is not None:
            return self._stripes(V, want_eta)
        with single_threaded_blas():
            out, _, eta = kernel_block_products(
                self.kind, self.X, self.X, V, V, True, self.gamma, self.coef0, self.degree,
                self.diag, self.diag, self.labels, self.labels, self.n_classes, self.atol,
                0, 0, want_eta, self.n_threads, self.tile)
        return out, eta

    def _stripes(self, V, want_eta):
        n, step = self.n, max(1, 2_000_000 // max(self.n, 1))
        out = np.empty((n, V.shape[1]))
        eta = _EtaAccumulator(self.n_classes) if want_eta else None
        for s in range(0, n, step):
            Kb = np.asarray(self.func(self.X[s:s + step], self.X), dtype=np.float64)
            out[s:s + step] = Kb @ V
            if eta is not None:
                eta.add_stripe(Kb, s, self.diag, self.labels, self.atol)
        return out, None if eta is None else eta.result()


class _EtaAccumulator:
    """The eta scan over row stripes (for kernels without a compiled form)."""

    def __init__(self, k):
        self.neg, self.cross, self.worst, self.pair = 0, np.zeros((k, k), np.int64), np.inf, None

    def add_stripe(self, Kb, s, diag, labels, atol):
        n = diag.shape[0]
        for r in range(Kb.shape[0]):
            i = s + r
            if i + 1 >= n:
                continue
            eta = diag[i] + diag[i + 1:] - 2.0 * Kb[r, i + 1:]
            self.neg += int(np.count_nonzero(eta < -atol))
            j = int(np.argmin(eta))
            if eta[j] < self.worst:
                self.worst, self.pair = float(eta[j]), (i, i + 1 + j)
            yl = labels[i + 1:]
            sel = (yl != labels[i]) & (eta <= atol)
            for c, cnt in zip(*np.unique(yl[sel], return_counts=True), strict=True):
                a, b = sorted((int(labels[i]), int(c)))
                self.cross[a, b] += int(cnt)

    def result(self):
        wi, wj = self.pair if self.pair is not None else (-1, -1)
        return {"n_negative": self.neg, "cross": self.cross, "worst": self.worst,
                "wi": wi, "wj": wj}


class DaskKernelOperator(KernelOperator):
    """``K @ V`` for a kernel of a ``dask.array`` ``X``: one task per pair of row chunks
    (``I <= J``), computed where the chunks are, the partial products summed in a fixed
    order. Uses the current Dask scheduler (a ``distributed.Client`` if one is active)."""

    def __init__(self, *, X, **kw):
        import dask

        self._dask = dask
        Xd = X.rechunk({1: -1}).astype(np.float64)
        self.chunks = Xd.chunks[0]
        self.offsets = np.concatenate([[0], np.cumsum(self.chunks)]).astype(int)
        self.blocks = list(Xd.to_delayed().ravel())
        self.Xd = Xd
        kw = dict(kw)
        super().__init__(X=np.empty((int(self.offsets[-1]), 0)), **kw)
        self.X = None
        diag = [dask.delayed(kernel_diagonal)(self.kind, b, self.gamma, self.coef0,
                                              self.degree) for b in self.blocks]
        self.diag = np.concatenate(dask.compute(*diag))

    def matmat(self, V, want_eta=False):
        dask = self._dask
        V = np.ascontiguousarray(V, dtype=np.float64)
        self.passes += 1
        off, nb = self.offsets, len(self.blocks)
        tasks, where = [], []
        for a in range(nb):
            for b in range(a, nb):
                sa, sb = slice(off[a], off[a + 1]), slice(off[b], off[b + 1])
                tasks.append(dask.delayed(_pair_products)(
                    self.kind, self.blocks[a], self.blocks[b], V[sa], V[sb], a == b,
                    self.gamma, self.coef0, self.degree, self.diag[sa], self.diag[sb],
                    self.labels[sa], self.labels[sb], self.n_classes, self.atol,
                    int(off[a]), int(off[b]), want_eta, self.n_threads, self.tile))
                where.append((sa, sb, a == b))
        results = dask.compute(*tasks)
        out = np.zeros_like(V)
        acc = _merge_eta(self.n_classes) if want_eta else None
        for (sa, sb, same), (oa, ob, eta) in zip(where, results, strict=True):
            out[sa] += oa
            if not same:
                out[sb] += ob
            if acc is not None:
                acc.add(eta)
        return out, None if acc is None else acc.result()


def _pair_products(kind, XI, XJ, VI, VJ, same, gamma, coef0, degree, dI, dJ, yI, yJ, k,
                   atol, offI, offJ, want_eta, n_threads, tile):
    XI = np.ascontiguousarray(XI, dtype=np.float64)
    XJ = XI if same else np.ascontiguousarray(XJ, dtype=np.float64)
    with single_threaded_blas():
        return kernel_block_products(kind, XI, XJ, np.ascontiguousarray(VI),
                                     np.ascontiguousarray(VJ), same, gamma, coef0, degree,
                                     np.ascontiguousarray(dI), np.ascontiguousarray(dJ),
                                     np.ascontiguousarray(yI), np.ascontiguousarray(yJ), k,
                                     atol, offI, offJ, want_eta, n_threads, tile)


class _merge_eta:
    def __init__(self, k):
        self.neg, self.cross, self.best = 0, np.zeros((k, k), np.int64), (np.inf, -1, -1)

    def add(self, e):
        self.neg += e["n_negative"]
        self.cross += e["cross"]
        cand = (e["worst"], e["wi"], e["wj"])
        if e["wi"] >= 0 and (self.best[1] < 0 or cand < self.best):
            self.best = cand

    def result(self):
        return {"n_negative": self.neg, "cross": self.cross, "worst": self.best[0],
                "wi": self.best[1], "wj": self.best[2]}


# --------------------------------------------------------------------------- Lanczos


def _centre(V):
    return V - V.mean(axis=0, keepdims=True)


def lanczos_probes(op, *, n_probes, n_steps, random_state, extra=None, logger=None):
    """Run ``n_probes`` Lanczos processes on ``JKJ`` together (one kernel pass a step).

    ``extra`` (n x c) is multiplied by ``K`` in the first pass, with the exact eta scan.
    Returns a dict with the bases, tridiagonals, the first pass's products and eta figures.
    """
    n = op.n
    m = int(min(n_probes, max(n - 1, 1)))
    k = int(max(1, min(n_steps, n - 1)))
    rng = check_seed(random_state)
    if n > 1 and m == n - 1:
        # as many probes as the complement of e has dimensions: an orthonormal basis of it
        # (columns 2.. of the Householder reflection taking e_1 to e / sqrt(n)), scaled to
        # the norm^2 n - 1 of a centred probe. The probe average is then the trace itself,
        # not an estimate with a variance that a handful of probes cannot see.
        v = np.full(n, 1.0 / math.sqrt(n))
        v[0] -= 1.0
        H = np.eye(n) - (2.0 / (v @ v)) * np.outer(v, v)
        W = math.sqrt(n - 1) * H[:, 1:]
    else:
        W = _centre(rng.choice(np.array([-1.0, 1.0]), size=(n, m)))
        # The first probe is Gaussian: a Rademacher probe is orthogonal to a two-sample
        # eigenvector (e_i - e_j) / sqrt 2 one time in two, and six of them one time in 64 --
        # their Krylov spaces then close (an exact breakdown) without that eigenvalue, and
        # the Ritz step and every count miss it. A Gaussian vector has a component on every
        # eigenvector almost surely; E[zz'] = I keeps Hutchinson's average unbiased.
        W[:, 0] = _centre(rng.standard_normal((n, 1)))[:, 0]
    wnorm2 = np.einsum("ij,ij->j", W, W)
    # a constant probe has nothing on the complement of e: its quadratic forms are 0, and it
    # stays in the averages with weight 0 (drawing it again would bias Hutchinson's
    # estimate by 1 / (1 - 2^(1-n)) on small kernels); its Lanczos run starts from another
    # vector of that complement, which only adds to the Krylov space of the Ritz step
    flat = wnorm2 == 0
    if n > 1 and flat.any():
        start = np.zeros(n)
        start[0] = 1.0
        W[:, flat] = _centre(start[:, None])
    # one buffer for every Lanczos vector: the Gram matrix of the Ritz step reads it as is
    buf = np.zeros((n, (k + 1) * m))
    Q = [buf[:, i * m:(i + 1) * m] for i in range(k + 1)]
    Q[0][:] = W / np.sqrt(np.einsum("ij,ij->j", W, W))
    alpha = np.zeros((k, m))
    beta = np.zeros((k, m))
    steps = np.full(m, k)          # per probe: number of Lanczos vectors used (breakdown)
    broken = np.zeros(m, dtype=bool)  # the run ended in an invariant subspace: exact measure
    u = np.full((n, 1), 1.0 / math.sqrt(n))
    extra = np.zeros((n, 0)) if extra is None else np.asarray(extra, dtype=np.float64)
    t0 = time.perf_counter()
    first, eta = op.matmat(np.hstack([Q[0], u, extra]), want_eta=True)
    Kextra = first[:, m + 1:]
    # The recurrences square what they compute (the norms, the Gram matrix of the basis):
    # far from 1 they underflow (a kernel near 1e-200: every beta^2 0, the signature of a
    # noise) or overflow (near 1e200). They run on K / s, s a power of two near the size of
    # K (exact); estimate_spectrum's figures are scaled back by the caller. Within 2^+-64
    # s is 1, and nothing changes.
    size = max(float(np.abs(op.diag).max()) if n else 0.0,
               float(np.abs(first[:, :m + 1]).max()) if n else 0.0)
    s = 2.0 ** power_of_two_exponent(size)
    Ku = first[:, m] / s
    floor = np.finfo(np.float64).eps * size / s
    # the coupling of e to its complement, c = J K u: K = A + u c' + c u' + (u'Ku) u u', so
    # K's extreme eigenvectors lean on c, and a Krylov space of A need not hold it (A = 0 for
    # K = v e' + e v': lambda_max came out 40.3 where it is 45.1). A c rides along the second
    # pass (or a pass of its own when there is none), and the Ritz steps use c too.
    c = _centre(Ku[:, None])
    c_norm = float(np.sqrt(np.einsum("ij,ij->", c, c)))
    c = c / c_norm if c_norm > floor * math.sqrt(n) else None
    Ac = None
    AQ = _centre(first[:, :m] / s)
    for i in range(k):
        if i > 0:
            if c is not None and Ac is None:
                both = op.matmat(np.hstack([_centre(Q[i]), c]))[0] / s
                AQ, Ac = _centre(both[:, :m]), _centre(both[:, m:])
            else:
                AQ = _centre(op.matmat(_centre(Q[i]))[0] / s)
        a = np.einsum("ij,ij->j", Q[i], AQ)
        alpha[i] = a
        w = AQ - Q[i] * a
        if i > 0:
            w -= Q[i - 1] * beta[i - 1]
        # full reorthogonalisation against the probe's own basis, twice (CGS2), over the
        # vectors so far (the later ones are still zero), compiled and on the operator's
        # threads: numpy's einsum and updates here were a sixth of a check's time at
        # n = 8 000, on one thread whatever n_jobs said
        w = np.ascontiguousarray(w)
        reorthogonalise(buf, m, i + 1, w, getattr(op, "n_threads", 1))
        w = _centre(w)
        b = np.sqrt(np.einsum("ij,ij->j", w, w))
        scale = np.maximum(np.abs(a), 1e-300) + (beta[i - 1] if i > 0 else 0.0)
        # a residual below one rounding of the kernel's entries is no direction of K: on a
        # constant kernel (J K J = 0 exactly) the runs went on normalising the 1e-32 left by
        # the centring, and the Ritz step made eigenvalues of -2e124 of it
        broke = ((b <= 1e-12 * np.maximum(scale, np.abs(b))) | (b <= floor)) & ~broken
        steps[broke] = i + 1
        broken |= broke
        done = broken
        b = np.where(done, 0.0, b)
        beta[i] = b
        with np.errstate(invalid="ignore", divide="ignore"):
            qn = np.where(done, 0.0, w / np.where(b > 0, b, 1.0))
        Q[i + 1][:] = qn
        if logger is not None:
            logger.info("matrix-free spectrum: Lanczos step %d of %d (%.1f s)", i + 1, k,
                        time.perf_counter() - t0)
        if np.all(done):
            break
    if c is not None and Ac is None:  # every run ended at its first step
        Ac = _centre(op.matmat(c)[0] / s)
    k_run = k
    return {"Q": Q, "buf": buf, "alpha": alpha[:k_run], "beta": beta[:k_run],
            "c": None if c is None else c[:, 0], "Ac": None if Ac is None else Ac[:, 0],
            "probe_basis": bool(n > 1 and m == n - 1),
            "steps": np.minimum(steps, k_run), "wnorm2": wnorm2, "broken": broken, "Ku": Ku,
            "Kextra": Kextra, "eta": eta, "m": m, "k": k_run, "u": u[:, 0],
            "passes": op.passes, "s": s}


def _three_term(alpha, beta, cols, m, k, size):
    """Coefficients of A Q[:, cols] on the columns of P (Lanczos' three-term relation)."""
    H = np.zeros((size, len(cols)))
    for c, idx in enumerate(cols):
        i, j = divmod(int(idx), m)
        H[idx, c] = alpha[i, j]
        if i > 0:
            H[idx - m, c] = beta[i - 1, j]
        if i + 1 <= k:
            H[idx + m, c] = beta[i, j]
    return H


def _ritz_extremes(G, H_cols, basis_idx):
    """Rayleigh-Ritz on span(P[:, basis_idx]) for an operator A with A P[:, basis_idx] =
    P H_cols (P known only through its Gram matrix G). Returns the smallest and largest Ritz
    values, each with its residual norm and its rounding bound.

    The rounding bound: the projected matrix ``basis' A basis`` is known to about
    ``64 eps ||basis' A basis||``, and the orthonormalisation through G divides that by the
    smallest eigenvalue of G kept. Without it a Ritz value could fall outside the spectrum
    unannounced: on a rank-333 PSD kernel of 1 000 samples (667 zero eigenvalues; the Krylov
    basis nearly dependent) a Ritz value of -1.3e-6 came out, 5e9 eps below the truth
    (matrix-free soak)."""
    Gb = G[np.ix_(basis_idx, basis_idx)]
    lam, V = np.linalg.eigh((Gb + Gb.T) / 2)
    keep = lam > 1e-11 * lam.max()
    B = V[:, keep] / np.sqrt(lam[keep])
    Hb = G[basis_idx] @ H_cols            # basis' A basis
    Hb = (Hb + Hb.T) / 2
    th, C = np.linalg.eigh(B.T @ Hb @ B)
    S = B @ C
    delta = 64.0 * np.finfo(float).eps * float(np.linalg.norm(Hb, 2)) / float(lam[keep].min())
    out = []
    absG = np.abs(G)
    for t in (0, th.shape[0] - 1):
        s = S[:, t]
        v = H_cols @ s
        v[basis_idx] -= th[t] * s
        r2 = float(v @ G @ v)
        rounding = 64.0 * np.finfo(float).eps * float(np.abs(v) @ absG @ np.abs(v))
        out.append((float(th[t]), math.sqrt(max(r2, 0.0) + rounding), delta))
    return out[0], out[1]


def estimate_spectrum(run, *, trace_K, rtol, lam_lo_floor=None):
    """Extreme eigenvalues of K and of JKJ on e-perp, and the SLQ figures, with intervals."""
    Q, alpha, beta, m, k = run["Q"], run["alpha"], run["beta"], run["m"], run["k"]
    n = Q[0].shape[0]
    u, Ku = run["u"], run["Ku"]
    steps = run["steps"]
    # P = [Q_0 .. Q_k (probe columns), u, Ku]: column index of (step i, probe j) = i*m + j
    buf = run["buf"]
    nq = (k + 1) * m
    c, Ac = run.get("c"), run.get("Ac")
    ends = np.column_stack([u, Ku] + ([c, Ac] if c is not None else []))
    size = nq + ends.shape[1]
    G = np.empty((size, size))
    G[:nq, :nq] = buf.T @ buf
    G[:nq, nq:] = buf.T @ ends
    G[nq:, :nq] = G[:nq, nq:].T
    G[nq:, nq:] = ends.T @ ends
    iu, iku = nq, nq + 1
    ic, iac = nq + 2, nq + 3   # c = J K u and A c, when c is not 0
    extra_c = [ic] if c is not None else []
    # Rayleigh-Ritz on the Krylov spaces of the first probes, at most RITZ_MAX vectors (the
    # extreme eigenvalues are converged long before; it keeps the small eigenproblems small)
    n_ritz = max(1, min(m, RITZ_MAX // max(k, 1)))
    used = [i * m + j for j in range(n_ritz) for i in range(int(steps[j]))]
    # A Q_i = beta_{i-1} Q_{i-1} + alpha_i Q_i + beta_i Q_{i+1} (per probe)
    HA = _three_term(alpha, beta, used, m, k, size)
    if c is not None:  # A on span(U, c): A c is a column of its own
        HA = np.column_stack([HA, np.zeros(size)])
        HA[iac, -1] = 1.0
    (rmin, rres_min, rd_min), (rmax, rres_max, rd_max) = _ritz_extremes(
        G, HA, np.array(used + extra_c))
    # K on span(U, c, u): K v = A v + u (Ku' v) for v in e-perp, K u = Ku
    ne = len(used) + len(extra_c)
    HK = np.zeros((size, ne + 1))
    HK[:, :ne] = HA
    HK[iu, :ne] += G[iku, used + extra_c]   # (Ku)' v for the basis vectors
    HK[iku, ne] = 1.0
    (kmin, kres_min, kd_min), (kmax, kres_max, kd_max) = _ritz_extremes(
        G, HK, np.array(used + extra_c + [iu]))
    # [theta - r, theta] for the smallest (a Ritz value bounds it from above), widened on
    # both sides by the rounding of the projected matrix
    lam_min_iv = [kmin - kres_min - kd_min, kmin + kd_min]
    lam_max_iv = [kmax - kd_max, kmax + kres_max + kd_max]
    rmin_iv = [rmin - rres_min - rd_min, rmin + rd_min]
    rmax_iv = [rmax - rd_max, rmax + rres_max + rd_max]
    scale = max(abs(kmin), abs(kmax))
    tol = rtol * scale
    a = float(u @ Ku)
    trace_A = trace_K - a
    if abs(trace_A) <= 4.0 * n * np.finfo(np.float64).eps * (abs(trace_K) + abs(a)):
        # the trace of J K J within the rounding of the difference that gives it (a constant
        # kernel: -7e-15 for 0, which made its negative mass 100 %)
        trace_A = 0.0
    lo_edge = min(rmin_iv[0], -tol)
    cnt_neg, cnt_pos, negsum, measures = [], [], [], []
    for j in range(m):
        kj = int(steps[j])
        th, S = sla.eigh_tridiagonal(alpha[:kj, j], beta[:kj - 1, j]) if kj > 1 else (
            alpha[:1, j].copy(), np.ones((1, 1)))
        w = S[0] ** 2
        w = w / w.sum() * run["wnorm2"][j]
        exact = bool(run["broken"][j])    # breakdown: the quadrature is the exact measure
        cnt_neg.append(_cms_count(th, w, -tol, below=True, exact=exact))
        cnt_pos.append(_cms_count(th, w, tol, below=False, exact=exact))
        negsum.append(_cms_negsum(th, w, lo_edge, -tol, exact))
        measures.append((th, w))
    cn, cp, ns = (np.array(v) for v in (cnt_neg, cnt_pos, negsum))
    # Cross-fitted Ritz control variates (one half of the probes' Ritz pairs taking out
    # what they explain of the other half's quadratic forms) were tried and removed: they
    # changed nothing measurable -- the quadrature's bias dominates, not the probe
    # variance -- and at n = 500 they let a count interval miss.

    def interval(vals):
        pt = float(vals[:, 0].mean())
        se = [float(vals[:, c].std(ddof=1) / math.sqrt(m)) if m > 1 else float("inf")
              for c in (1, 2)]
        z = spread_multiplier(m)
        return pt, [float(vals[:, 1].mean()) - z * se[0],
                    float(vals[:, 2].mean()) + z * se[1]]

    q, q_iv = interval(cn)
    p, p_iv = interval(cp)
    N, N_iv = interval(ns)
    if not run.get("probe_basis", False):
        # The spread over the probes can be 0 when the trace is not: a negative eigenvector
        # on two samples, (e_i - e_j) / sqrt 2, gives every Rademacher probe 0 or twice its
        # eigenvalue, and six probes agree one time in 32 -- an interval of width 0 beside
        # the truth (a kernel with one localized negative pair). Widen each interval by the
        # bound Var(z'Fz) <= 2 ||F||_F^2 of a Rademacher quadratic form, with
        # ||F||_F^2 <= L tr F (L = 1 for a count, |lambda_min| for the negative sum).
        # Where the Ritz interval rules a sign out (the Gaussian probe's Krylov space holds
        # a component of every eigenvector), its trace is 0 and nothing is widened.
        can_neg = rmin_iv[0] < -tol
        can_pos = rmax_iv[1] > tol
        q_iv = _widen(q_iv, cn, 1.0 if can_neg else 0.0, m)
        p_iv = _widen(p_iv, cp, 1.0 if can_pos else 0.0, m)
        N_iv = _widen(N_iv, ns, -rmin_iv[0] if can_neg else 0.0, m)
    dim = n - 1
    q_iv = [max(0, math.floor(q_iv[0])), min(dim, math.ceil(q_iv[1]))]
    p_iv = [max(0, math.floor(p_iv[0])), min(dim, math.ceil(p_iv[1]))]
    N_iv = [max(0.0, N_iv[0]), max(0.0, N_iv[1])]
    qi, pi = int(min(max(round(q), q_iv[0]), q_iv[1])), int(min(max(round(p), p_iv[0]),
                                                                     p_iv[1]))
    if qi + pi > dim:   # reconciled in matrix_free_spectrum, inside the intervals
        pi = max(p_iv[0], dim - qi)

    mass_iv = mass_interval(N_iv, trace_A)

    return {
        "lam_min": kmin, "lam_max": kmax, "lam_min_interval": lam_min_iv,
        "lam_max_interval": lam_max_iv, "restricted_min": rmin, "restricted_max": rmax,
        "restricted_min_interval": rmin_iv, "restricted_max_interval": rmax_iv,
        "n_neg": qi, "n_pos": pi, "n_zero": max(dim - qi - pi, 0), "n_neg_interval": q_iv,
        "n_pos_interval": p_iv, "negative_sum": max(N, 0.0), "negative_sum_interval": N_iv,
        "negative_mass": min(max(negative_mass(max(N, 0.0), trace_A), mass_iv[0]),
                             mass_iv[1]),
        "negative_mass_interval": mass_iv, "scale": scale, "tol": tol,
        "a": a, "b_norm2": max(float(Ku @ Ku) - a * a, 0.0), "trace_A": trace_A,
        "negative_rank": negative_rank(measures, tol),
    }


def negative_mass(N, trace_A):
    """The negative mass N / (P + N) of a negative sum N, given trace_A = P - N.

    The positive sum P = trace_A + N is >= 0, so N >= -trace_A whatever the probes say; the
    mass N / (trace_A + 2N) then lies in [0, 1] and is monotone in N (increasing for
    trace_A > 0, decreasing for trace_A < 0, where the spectrum is mostly negative)."""
    N = max(N, 0.0, -trace_A)
    total = trace_A + 2.0 * N
    return min(1.0, max(0.0, N / total)) if total > 0 else 0.0


def mass_interval(N_iv, trace_A):
    """The interval of the negative mass: the sorted masses of the negative sum's ends."""
    return sorted((negative_mass(N_iv[0], trace_A), negative_mass(N_iv[1], trace_A)))


def _widen(iv, vals, L, m):
    """``iv`` joined with every trace T >= 0 whose probe mean could lie at Z_SCORE standard
    deviations, sqrt(2 L T / m), from the probes' low and high means."""
    a = Z_SCORE * math.sqrt(2.0 * L / m)
    lo_mean = max(float(vals[:, 1].mean()), 0.0)
    hi_mean = max(float(vals[:, 2].mean()), 0.0)
    # T + a sqrt(T) >= lo_mean and T - a sqrt(T) <= hi_mean, solved for sqrt(T)
    lo = ((-a + math.sqrt(a * a + 4.0 * lo_mean)) / 2.0) ** 2
    hi = ((a + math.sqrt(a * a + 4.0 * hi_mean)) / 2.0) ** 2
    return [min(iv[0], lo), max(iv[1], hi)]


def spread_multiplier(m: int) -> float:
    """The multiplier of the standard error over ``m`` probes: Student's t quantile with
    ``m - 1`` degrees of freedom at the two-sided level of ``Z_SCORE`` normal standard
    errors (6.3e-5). The standard error of a few probes is itself uncertain: with 6 probes
    (the "lanczos" default) 4 standard errors missed the true negative mass (soak,
    low-rank + noise, n = 50); the t quantile is 12.0 there, 4.9 at 24 probes."""
    from scipy.stats import norm, t

    if m < 2:
        return float("inf")
    return float(t.isf(norm.sf(Z_SCORE), m - 1))


def negative_rank(measures, tol, fraction=0.9):
    """How many eigen-directions (largest |lambda| first) hold ``fraction`` of the negative
    mass: the smallest ``k`` whose top-``k`` eigenvalues by magnitude include eigenvalues
    below zero summing to ``fraction`` of all of them -- the landmarks a Nystroem
    approximation needs at least to see the negative part. ``measures``: the spectral
    measures ``(nodes, weights)``, one per probe (weights summing to the probe's count), or
    one pair ``(eigenvalues, ones)``; the estimate is their mean. None when the negative
    part is empty (below ``tol``)."""
    cuts = np.unique(np.concatenate([-th[th < -tol] for th, _ in measures]))
    if cuts.size == 0:
        return None
    beyond = np.zeros(cuts.size)   # negative mass at |lambda| >= cut
    count = np.zeros(cuts.size)    # eigenvalues with |lambda| >= cut
    total = 0.0

    def at_or_above(values, weights):
        order = np.argsort(values)
        suffix = np.r_[np.cumsum(weights[order][::-1])[::-1], 0.0]
        return suffix[np.searchsorted(values[order], cuts, side="left")]

    for th, w in measures:
        neg = th < -tol
        beyond += at_or_above(-th[neg], w[neg] * -th[neg])
        count += at_or_above(np.abs(th), w)
        total += float(np.sum(w[neg] * -th[neg]))
    if not total > 0:
        return None
    # beyond falls as the cut grows: the largest cut that still holds the fraction
    best = int(np.flatnonzero(beyond >= fraction * total).max())
    return max(1, int(math.ceil(count[best] / len(measures) - 1e-9)))


def _cms_count(th, w, t, *, below, exact):
    """(point, low, high) of the probe's count of eigenvalues < t (below) or > t.

    Chebyshev-Markov-Stieltjes: with Gauss nodes theta_1 < ... < theta_k and weights w,
    F(theta_l -) >= sum_{i<l} w_i and F(theta_l) <= sum_{i<=l} w_i."""
    if not below:
        c = _cms_count(-th[::-1], w[::-1], -t, below=True, exact=exact)
        return c
    L = int(np.searchsorted(th, t, side="left"))      # nodes strictly below t
    cum = np.concatenate([[0.0], np.cumsum(w)])
    pt = cum[L]
    if exact:
        return (pt, pt, pt)
    return (pt, cum[max(L - 1, 0)], cum[min(L + 1, th.shape[0])])


def _cms_negsum(th, w, lo, t, exact):
    """(point, low, high) of the probe's sum of |lambda| over lambda < t <= 0, from
    N = int_lo^t F(s) ds + |t| F(t) with F between the CMS step functions (lo: a lower bound
    of the smallest eigenvalue)."""
    pt = float(np.sum(w[th < t] * -th[th < t]))
    if exact:
        return (pt, pt, pt)
    k = th.shape[0]
    cum = np.concatenate([[0.0], np.cumsum(w)])
    # breakpoints: lo, the nodes inside (lo, t), t
    inner = th[(th > lo) & (th < t)]
    pts = np.concatenate([[lo], inner, [t]])
    low = high = 0.0
    for s0, s1 in zip(pts[:-1], pts[1:], strict=True):
        if s1 <= s0:
            continue
        mid = 0.5 * (s0 + s1)
        L = int(np.searchsorted(th, mid, side="left"))  # nodes below mid
        # on (theta_L, theta_{L+1}): sum_{i<L} w_i <= F <= sum_{i<=L+1} w_i
        low += (s1 - s0) * cum[max(L - 1, 0)]
        high += (s1 - s0) * cum[min(L + 1, k)]
    L = int(np.searchsorted(th, t, side="left"))
    # |t| F(t-) with the same bounds
    low += abs(t) * cum[max(L - 1, 0)]
    high += abs(t) * cum[min(L + 1, k)]
    return (pt, low, max(high, pt))
