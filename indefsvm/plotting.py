"""Figures: spectra, pseudo-Euclidean geometry in R^(1,1), convergence.

matplotlib is imported only when a function here is called (``pip install indefsvm[plot]``).
Every function takes ``ax=None`` (a new figure is made) and returns the figure.
"""

from __future__ import annotations

import numbers

import numpy as np

from .exceptions import ParameterError
from .geometry import reduced_hull

__all__ = ["plot_convergence", "plot_gamma_profile", "plot_pe_geometry", "plot_remedies",
           "plot_spectrum", "reduced_hull"]


def _plt():
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("Plotting needs matplotlib: pip install 'indefsvm[plot]'.") from exc
    return plt


def _label(c) -> str:
    """A class label for a legend: 1 and -1, not 1.0 or np.float64(-1.0)."""
    if isinstance(c, (float, np.floating)) and float(c).is_integer():
        return f"{int(c):+d}" if c != 0 else "0"
    return str(c)


def _symlog_y(ax, linthresh: float, scale: float) -> None:
    """A symlog y axis whose tick labels do not collide: ticks at 0 and at the decades above
    the linear band only (the labels at +-linthresh would run into the one at 0)."""
    from matplotlib.ticker import FixedLocator

    ax.set_yscale("symlog", linthresh=linthresh, linscale=2.0)
    top = int(np.ceil(np.log10(max(scale, linthresh))))
    dec = [10.0**k for k in range(int(np.floor(np.log10(linthresh))) + 1, top + 1)]
    ax.yaxis.set_major_locator(FixedLocator([-d for d in dec[::-1]] + [0.0] + dec))


def _ax(ax, figsize=(6, 4), name="ax"):
    plt = _plt()
    if ax is None:
        fig, ax = plt.subplots(figsize=figsize)
    elif not hasattr(ax, "figure") or not hasattr(ax, "plot"):
        raise TypeError(f"{name} must be a matplotlib Axes (e.g. from plt.subplots()) or None "
                        f"for a new figure; got {type(ax).__name__}.")
    return ax.figure, ax


def _pe_kernel_of(model) -> None:
    """Refuse an estimator whose kernel is not x1 x1' - x2 x2': its hulls, w and Mw live in
    another feature space, and drawing them in the plane of Z would show what is not there."""
    if not hasattr(model, "get_params"):
        return  # a SolverResult: the docstring's contract (the kernel matrix is not kept)
    kernel = getattr(model, "kernel", None)
    params = getattr(model, "kernel_params", None) or {}
    metric = getattr(model, "metric", None)
    if kernel == "pseudo_euclidean" and metric is None and params.get("p") == 1:
        return
    what = (f"metric={metric!r}" if metric is not None else
            f"kernel={kernel!r}" + (f", kernel_params={params!r}" if params else ""))
    raise ValueError(
        f"plot_pe_geometry draws the hulls, w and Mw of the kernel x1 x1' - x2 x2' on the "
        f"plane of Z; the {type(model).__name__} was fitted with {what}, whose hulls and w "
        "lie in another feature space. Fit it with kernel='pseudo_euclidean', "
        "kernel_params={'p': 1} on Z, or look at plot_spectrum for other kernels.")


def plot_spectrum(report, ax=None):
    """Eigenvalues of ``K`` and of the centred kernel, negative ones highlighted.

    Parameters
    ----------
    report : KernelReport, Spectrum or array-like of shape (n, n)
        From :func:`indefsvm.check_kernel` or :func:`indefsvm.diagnostics.spectrum` (dense
        method: the eigenvalues are needed), or a kernel matrix (its spectrum is computed).
    ax : matplotlib Axes, optional
        Where to draw; ``None``: a new figure.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> from indefsvm.plotting import plot_spectrum
    >>> rep = isvm.check_kernel(np.diag([3.0, 1.0, -0.5, 0.2]))
    >>> fig = plot_spectrum(rep)
    >>> "signature" in fig.axes[0].get_title()
    True
    """
    if report is None or isinstance(report, (str, bytes)):
        raise TypeError(f"report must be a KernelReport, a Spectrum or a kernel matrix; got "
                        f"{type(report).__name__}.")
    sp = getattr(report, "spectrum", report)
    if not hasattr(sp, "eigenvalues"):
        from .diagnostics import spectrum

        sp = spectrum(report, method="dense")
    if sp.eigenvalues is None:
        raise ValueError("plot_spectrum needs all eigenvalues (the dense method).")
    fig, ax = _ax(ax)
    lam = sp.eigenvalues[::-1]
    mu = sp.restricted[::-1]
    idx = np.arange(1, lam.size + 1)
    # K as a line under the centred kernel's dots: the two spectra nearly coincide, and two
    # kinds of dots could not be told apart
    ax.plot(idx, lam, "-", lw=1.6, color="0.65", label="K (line)")
    ax.plot(idx[:-1], mu, "o", ms=2.2, color="C0", ls="none",
            label="K on the complement of e, centred (dots)")
    neg = mu < -sp.tol
    ax.plot(idx[:-1][neg], mu[neg], "o", ms=5, mfc="none", color="C3", ls="none",
            label=f"negative on e-perp: q = {int(neg.sum())}")
    ax.axhline(0.0, color="k", lw=0.7)
    for t in (sp.tol, -sp.tol):
        ax.axhline(t, color="C3", lw=0.7, ls=":",
                   label=f"zero threshold +-{sp.tol:.2g}" if t > 0 else None)
    ax.set_xscale("log")
    # eigenvalues within 1e-6 of the largest sit in the linear band around 0
    if sp.scale > 0:
        _symlog_y(ax, max(sp.tol * 10, 1e-6 * sp.scale), sp.scale)
    # else a zero kernel (every eigenvalue 0): no decades to show, the linear axis stays
    ax.set_xlabel("index (descending)")
    ax.set_ylabel("eigenvalue")
    ax.set_title(f"spectrum, signature (p, q) = ({sp.n_pos}, {sp.n_neg})")
    ax.legend(fontsize=8)
    return fig


def plot_gamma_profile(report, ax=None):
    """The gamma profile of a distance matrix: the negative mass of ``exp(-gamma D^2)``.

    Parameters
    ----------
    report : DistanceReport
        From :func:`indefsvm.diagnostics.check_distances` (with ``n_gammas > 0``).
    ax : matplotlib Axes, optional
        Where to draw; ``None``: a new figure.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.diagnostics import check_distances
    >>> from indefsvm.plotting import plot_gamma_profile
    >>> D = np.abs(np.subtract.outer(np.arange(6.0), np.arange(6.0))) ** 1.5
    >>> fig = plot_gamma_profile(check_distances(D))
    >>> fig.axes[0].get_xscale()
    'log'
    """
    if not getattr(report, "gamma_profile", None):
        raise ValueError("plot_gamma_profile needs a DistanceReport with a gamma profile "
                         "(check_distances(D, n_gammas=13) or gammas=[...]).")
    fig, ax = _ax(ax)
    g = np.array([p[0] for p in report.gamma_profile])
    m = 100 * np.array([p[1] for p in report.gamma_profile])
    # markers not clipped: points at 0 % stay visible on the axis
    ax.plot(g, m, "o-", color="C3", ms=4, clip_on=False,
            label="negative mass of exp(-gamma D^2)")
    ax.axhline(100 * report.negligible, color="0.5", ls=":",
               label=f"negligible ({100 * report.negligible:g} %)")
    if report.gamma_median is not None:
        ax.axvline(report.gamma_median, color="C0", ls="--", label="median rule")
    ax.axhline(100 * report.negative_mass, color="C2", ls="-.", lw=1,
               label="-1/2 J D^2 J (the linear form)")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.1 * max(m.max(), 100 * report.negative_mass, 100 * report.negligible))
    ax.set_xlabel("gamma")
    ax.set_ylabel("negative mass (% of sum |lambda|)")
    ax.set_title(f"Gamma profile: {report.verdict}")
    ax.legend(fontsize=8)
    return fig


def plot_convergence(history, ax=None, *, label=None):
    """Objective against iteration (log x), as in Sha, Saul & Lee 2003 Fig. 1.

    Parameters
    ----------
    history : ndarray of shape (k, 2) or SolverResult or fitted estimator
        ``(iteration, objective)`` rows (``history_`` / ``SolverResult.history``).
    ax : matplotlib Axes, optional
        Where to draw; ``None``: a new figure.
    label : str, optional
        Legend label of the curve.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import numpy as np
    >>> from indefsvm.plotting import plot_convergence
    >>> fig = plot_convergence(np.array([[0, 0.0], [10, -1.0], [20, -1.5]]))
    >>> fig.axes[0].get_xscale()
    'log'
    """
    if hasattr(history, "get_params") and not hasattr(history, "history_"):
        from sklearn.exceptions import NotFittedError

        raise NotFittedError(f"This {type(history).__name__} instance has no history_: fit it "
                             "first (with a solver that records one), then plot it.")
    h = getattr(history, "history_", getattr(history, "history", history))
    try:
        h = np.asarray(h, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"must be (iteration, objective) rows of shape (n, 2), a "
                             f"SolverResult or a fitted model's history_; got "
                             f"{type(history).__name__} ({exc}).", "history") from None
    if h.ndim != 2 or h.shape[1] != 2:
        raise ParameterError(f"must be (iteration, objective) rows of shape (n, 2), a "
                             f"SolverResult or a fitted model's history_; got shape {h.shape}.",
                             "history")
    fig, ax = _ax(ax)
    ax.plot(np.maximum(h[:, 0], 1), h[:, 1], "-", label=label)
    ax.set_xscale("log")
    ax.set_xlabel("iteration")
    ax.set_ylabel("objective F(alpha)")
    if label:
        ax.legend()
    return fig


def plot_pe_geometry(model, Z, y, ax=None, *, grid=200, show_hulls=True, mu=None):
    """Haasdonk (2005), Figs. 1-3: a classifier on points of R^(1,1).

    Draws the points (first column real, horizontal; second imaginary, vertical), the
    (reduced) convex hulls of the classes, their closest points ``z+`` and ``z-``, the
    normal ``w = z+ - z-`` and its reflection ``Mw``, the decision line and colour-coded
    decision values; support vectors are ringed.

    Parameters
    ----------
    model : fitted IndefiniteSVC, ConvexHullClassifier, or SolverResult
        Trained on ``Z`` with ``kernel="pseudo_euclidean"``, ``kernel_params={"p": 1}`` (a
        :class:`~indefsvm.solvers.SolverResult` of :func:`~indefsvm.solvers.smo` on that
        kernel matrix, labels +1 / -1, works too).
    Z : ndarray of shape (n, 2)
        The points (e.g. from :func:`indefsvm.geometry.pe_plane_coordinates`).
    y : array-like of shape (n,)
        Labels of the two classes.
    ax : matplotlib Axes, optional
        Where to draw; ``None``: a new figure.
    grid : int, default=200
        Resolution of the decision-value image.
    show_hulls : bool, default=True
        Draw the two reduced hulls and their closest points ``z+`` and ``z-``.
    mu : float, optional
        Hull reduction to draw; default the model's (``mu`` or ``2C / sum alpha``).

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import numpy as np
    >>> import indefsvm as isvm
    >>> from indefsvm.plotting import plot_pe_geometry
    >>> Z = np.array([[-1.0, 0.1], [-1.2, -0.2], [1.0, 0.0], [1.1, 0.2]])
    >>> y = np.array([-1, -1, 1, 1])
    >>> ch = isvm.ConvexHullClassifier(kernel="pseudo_euclidean", kernel_params={"p": 1})
    >>> fig = plot_pe_geometry(ch.fit(Z, y), Z, y, grid=20)
    >>> "w'Mw" in fig.axes[0].get_title()
    True
    """
    Z = np.asarray(Z, dtype=float)
    y = np.asarray(y)
    if isinstance(grid, bool) or not isinstance(grid, numbers.Integral) or grid < 2:
        raise ParameterError(f"must be an integer >= 2 (points per side of the decision "
                             f"image); got {grid!r}.", "grid")
    if hasattr(model, "get_params") and not hasattr(model, "classes_"):
        from sklearn.exceptions import NotFittedError

        raise NotFittedError(f"This {type(model).__name__} instance is not fitted yet: fit "
                             "it on Z and y first, then plot it.")
    if hasattr(model, "classes_") and len(model.classes_) != 2:
        raise ValueError(f"plot_pe_geometry draws one binary SVM (its hulls, w and Mw); the "
                         f"model has {len(model.classes_)} classes. Fit it on two of them.")
    if Z.ndim != 2 or Z.shape[1] != 2:
        raise ValueError(
            f"plot_pe_geometry draws points of the plane R^(1,1): Z must have shape (n, 2) "
            f"(one real and one imaginary coordinate); got {Z.shape}. For data of more "
            "dimensions, fit the model on two coordinates, e.g. those of "
            "indefsvm.geometry.pe_plane_coordinates, or look at plot_spectrum instead.")
    if y.ndim != 1 or y.shape[0] != Z.shape[0]:
        raise ParameterError(f"must hold one label per row of Z: Z has {Z.shape[0]} rows, y has "
                             f"shape {y.shape}.", "y")
    if not np.isfinite(Z).all():
        raise ValueError("Z contains NaN or infinity; plot the points the model was fitted "
                         "on.")
    _pe_kernel_of(model)
    if mu is not None and (isinstance(mu, bool) or not isinstance(mu, numbers.Real)
                           or not mu > 0 or not np.isfinite(mu)):
        raise ParameterError(f"must be a number > 0 (the hull reduction to draw; 1 or more is "
                             f"the whole hull) or None for the model's; got {mu!r}.", "mu")
    fig, ax = _ax(ax, figsize=(5.5, 5.5))
    if hasattr(model, "classes_"):
        classes = model.classes_
        if not np.isin(y, classes).all():
            raise ParameterError(f"must hold the model's classes {classes.tolist()}; got "
                                 f"{np.setdiff1d(y, classes)[:5].tolist()} besides.", "y")
        alpha = model.alpha_ if model.alpha_.ndim == 1 else model.alpha_[0]
        decision = model.decision_function
    else:  # a SolverResult of the pseudo-Euclidean kernel x1 x1' - x2 x2' on Z
        classes = np.array([-1.0, 1.0])
        if not np.isin(y, classes).all():
            raise ValueError("with a SolverResult, y must be the +1 / -1 labels the solver "
                             f"was given; got {np.unique(y)[:5].tolist()}.")
        alpha = model.alpha
        coef = alpha * np.where(y == classes[1], 1.0, -1.0)

        def decision(P, coef=coef, b=model.b):
            return (P * np.array([1.0, -1.0])) @ Z.T @ coef + b
    pos = y == classes[1]
    if hasattr(model, "wMw_"):  # ConvexHullClassifier
        abar, mu_model = alpha, getattr(model, "mu_", model.mu)
    else:
        C = model.C
        abar, mu_model = 2 * alpha / alpha.sum(), 2 * C / alpha.sum()
    mu = mu_model if mu is None else mu
    zp = abar[pos] @ Z[pos]
    zm = abar[~pos] @ Z[~pos]
    # a square window around the points: equal axes (pE orthogonality is read off them) that
    # fill the panel even when the cloud is flat
    centre = (Z.max(0) + Z.min(0)) / 2
    half = 0.575 * float((Z.max(0) - Z.min(0)).max() + 1e-9)
    lo, hi = centre - half, centre + half
    gx, gy = np.meshgrid(np.linspace(lo[0], hi[0], grid), np.linspace(lo[1], hi[1], grid))
    dec = decision(np.c_[gx.ravel(), gy.ravel()]).reshape(gx.shape)
    vmax = np.abs(dec).max() or 1.0
    ax.imshow(dec, origin="lower", extent=(lo[0], hi[0], lo[1], hi[1]), cmap="RdBu",
              vmin=-vmax, vmax=vmax, alpha=0.45, aspect="auto")
    ax.contour(gx, gy, dec, levels=[0.0], colors="k", linewidths=1.2)
    from matplotlib import patheffects
    from matplotlib.lines import Line2D

    handles = []
    if show_hulls:
        styles = set()
        for mask, col in ((pos, "C0"), (~pos, "C3")):
            if mask.sum() >= 3:
                for m_ in sorted({1.0, min(max(mu, 1 / mask.sum()), 1.0)}, reverse=True):
                    h = reduced_hull(Z[mask], m_)
                    h = np.vstack([h, h[:1]])
                    ax.plot(h[:, 0], h[:, 1], "-" if m_ < 1 else ":", color=col, lw=1)
                    styles.add(m_ < 1)
        if False in styles:
            handles.append(Line2D([], [], ls=":", color="0.3", lw=1, label="convex hull"))
        if True in styles:
            handles.append(Line2D([], [], ls="-", color="0.3", lw=1,
                                  label=f"reduced hull, mu = {mu:.3g}"))
    ax.scatter(Z[pos, 0], Z[pos, 1], c="C0", s=18, marker="o", label=f"class {_label(classes[1])}")
    ax.scatter(Z[~pos, 0], Z[~pos, 1], c="C3", s=18, marker="s",
               label=f"class {_label(classes[0])}")
    sv = alpha > 0
    ax.scatter(Z[sv, 0], Z[sv, 1], s=90, facecolors="none", edgecolors="k", lw=1.0,
               label="support vectors")
    ax.plot(*zp, "P", color="C0", ms=10, mec="k", label="closest points z+, z-")
    ax.plot(*zm, "P", color="C3", ms=10, mec="k")
    mid = (zp + zm) / 2
    w = zp - zm
    Mw = w * np.array([1.0, -1.0])
    ax.annotate("", xy=mid + w / 2, xytext=mid, arrowprops=dict(arrowstyle="->", color="k"))
    ax.annotate("", xy=mid + Mw / 2, xytext=mid,
                arrowprops=dict(arrowstyle="->", color="0.45", ls="--"))
    # the labels sit beyond the arrow tips, offset in points along each arrow and pushed
    # apart sideways, with a white halo: legible over the points they may cross
    halo = [patheffects.withStroke(linewidth=3, foreground="white")]
    for vec, word, colour, side in ((w, "w", "k", 1.0), (Mw, "Mw", "0.3", -1.0)):
        norm = float(np.hypot(*vec)) or 1.0
        u = vec / norm
        off = 12 * u + side * 7 * np.array([-u[1], u[0]])
        ax.annotate(word, xy=mid + vec / 2, xytext=tuple(off), textcoords="offset points",
                    ha="center", va="center", fontsize=10, fontweight="bold", color=colour,
                    path_effects=halo)
    wMw = float(w @ (w * np.array([1.0, -1.0])))
    handles += [Line2D([], [], color="k", lw=1.2, label="decision line f = 0"),
                Line2D([], [], color="k", lw=1, marker=">", ms=5, label="w = z+ - z-"),
                Line2D([], [], color="0.45", lw=1, ls="--", marker=">", ms=5,
                       label="Mw (M = diag(1, -1))")]
    ax.set_title(f"R^(1,1): w'Mw = {wMw:.3g}, mu = {mu:.3g}")
    ax.set_xlabel("real axis")
    ax.set_ylabel("imaginary axis")
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_aspect("equal", adjustable="box")
    # every mark named, below the panel so that the legend covers no point
    marks, _ = ax.get_legend_handles_labels()
    ax.legend(handles=marks + handles, fontsize=7, loc="upper center",
              bbox_to_anchor=(0.5, -0.12), ncol=3, framealpha=0.9)
    return fig


def plot_remedies(comparison, K, axes=None):
    """The remedies side by side: the spectrum of ``K`` before and after each fix, and the
    test error of each method over the folds.

    Parameters
    ----------
    comparison : RemedyComparison
        From :func:`indefsvm.compare_remedies`, or ``comparison_`` of a fitted
        :class:`indefsvm.RemedySearchCV`.
    K : array-like of shape (n, n)
        The kernel the comparison was run on (for the search: at its chosen gamma).
    axes : pair of matplotlib Axes, optional
        Where to draw the two panels; ``None``: a new figure.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import indefsvm as isvm
    >>> from indefsvm.plotting import plot_remedies
    >>> X, y = isvm.datasets.load_heart(return_X_y=True)
    >>> K = isvm.kernel_matrix(X, kernel="sigmoid", gamma=0.01, coef0=0.5)
    >>> cmp = isvm.compare_remedies(K, y, cv=3, random_state=0, methods=["clip", "flip"])
    >>> len(plot_remedies(cmp, K).axes)
    2
    """
    from ._tags import arrays_out
    from .remedies import RemedyComparison
    from .remedies._methods import TABLE

    if not isinstance(comparison, RemedyComparison):
        raise TypeError(f"comparison must be a RemedyComparison (from compare_remedies, or a "
                        f"fitted RemedySearchCV's comparison_); got {type(comparison).__name__}.")
    try:
        K = np.asarray(K, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise ParameterError(f"must be the numeric kernel matrix the comparison was made on "
                             f"({exc}).", "K") from None
    if K.ndim != 2 or K.shape != (comparison.n, comparison.n):
        raise ParameterError(f"must be the {comparison.n} x {comparison.n} kernel the comparison "
                             f"was made on; got shape {K.shape}.", "K")
    if not np.isfinite(K).all():
        raise ValueError("K contains NaN or infinity; give the kernel the comparison was made "
                         "on.")
    plt = _plt()
    if axes is None:
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    else:
        if isinstance(axes, (str, bytes)) or len(np.ravel(np.asarray(axes, dtype=object))) != 2:
            raise TypeError("axes must be a pair of matplotlib Axes (e.g. plt.subplots(1, 2)"
                            f"[1]) or None for a new figure; got {type(axes).__name__}.")
        axes = list(np.ravel(np.asarray(axes, dtype=object)))
        for a in axes:
            _ax(a, name="axes")
        fig = axes[0].figure
    ax1, ax2 = axes
    # K, then each compared method that trains an SVM on a fixed kernel of its own (the
    # Krein SVM trains on flip's)
    fixes = {"K as it is": None, **{m.name: arrays_out(m.fix({})) for m in TABLE
                                    if m.estimator == "svm" and m.fix is not None}}
    scale = np.abs(np.linalg.eigvalsh(K)).max()
    for name, fix in fixes.items():
        if fix is not None and name not in comparison.methods:
            continue
        M = K if fix is None else fix.fit_transform(K)
        lam = np.sort(np.linalg.eigvalsh(M))[::-1]
        ax1.plot(np.arange(1, lam.size + 1), lam, ".-" if fix is None else "-", ms=2, lw=1,
                 label=name, color="k" if fix is None else None)
    ax1.set_xscale("log")
    top = max(scale, max(abs(line.get_ydata()).max() for line in ax1.get_lines()))
    if scale > 0:  # else a zero kernel: a linear axis around 0
        _symlog_y(ax1, 1e-6 * scale, top)
        # room above the largest eigenvalue (square's is scale^2): the top is never clipped
        ax1.set_ylim(top=1.5 * max(line.get_ydata().max() for line in ax1.get_lines()))
    ax1.axhline(0.0, color="0.5", lw=0.6)
    ax1.set_xlabel("index (descending)")
    ax1.set_ylabel("eigenvalue")
    ax1.set_title("spectrum before and after each fix")
    ax1.legend(fontsize=8)
    names = sorted(comparison.methods, key=comparison.mean_error)
    mean = [100 * comparison.mean_error(m) for m in names]
    std = [100 * float(np.std(comparison.fold_errors[m])) for m in names]
    colors = ["C3" if m == "indefinite SVM" else "C0" for m in names]
    # error bars stop at 0 % (an error is never negative); a zero error gets a visible
    # sliver and its value written beside it
    lower = np.minimum(std, mean)
    ax2.barh(np.arange(len(names)), mean, xerr=[lower, std], color=colors, alpha=0.8)
    top = max(max(m + s for m, s in zip(mean, std, strict=True)), 1.0)
    for i, m in enumerate(mean):
        if m == 0:
            ax2.barh(i, 0.004 * top, color=colors[i])
        ax2.text(m + std[i] + 0.01 * top, i, f"{m:.1f}", va="center", fontsize=8)
    ax2.set_xlim(0, 1.15 * top)
    ax2.set_yticks(np.arange(len(names)), names)
    ax2.invert_yaxis()
    ax2.set_xlabel(f"test error % ({comparison.cv}-fold CV, mean +/- std)")
    ax2.set_title("error by method")
    fig.tight_layout()
    return fig


def __dir__():
    # completion lists the public names, not this module's imports (np, BaseEstimator, ...)
    return sorted({*__all__, *(k for k in globals() if k[:2] == "__")})
