"""Figures render under Agg; the HTML report holds them."""

import base64
import os

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from test_posttrain import _indefinite_kernel

import indefsvm as isvm  # noqa: E402
from indefsvm.cli import main  # noqa: E402


def _n_artists(fig):
    return sum(len(ax.lines) + len(ax.collections) + len(ax.images) for ax in fig.axes)


def test_plot_spectrum(heart):
    X, y = heart
    rep = isvm.check_kernel(X=X, y=y, kernel="sigmoid", gamma=0.1, coef0=0.0)
    fig = isvm.plotting.plot_spectrum(rep)
    assert _n_artists(fig) >= 3
    assert "signature" in fig.axes[0].get_title()
    # the two spectra are told apart: K a line, the centred kernel dots; the zero threshold
    # is drawn at +-tol
    by_label = {ln.get_label(): ln for ln in fig.axes[0].get_lines()}
    k_line = by_label["K (line)"]
    dots = next(ln for lab, ln in by_label.items() if lab.startswith("K on the complement"))
    assert k_line.get_linestyle() == "-" and k_line.get_marker() in ("None", "", None)
    assert dots.get_linestyle() == "None" and dots.get_marker() == "o"
    tol = rep.spectrum.tol
    levels = sorted(ln.get_ydata()[0] for ln in fig.axes[0].get_lines()
                    if ln.get_linestyle() == ":")
    assert levels == pytest.approx([-tol, tol])


def test_plot_convergence(heart):
    X, y = heart
    clf = isvm.IndefiniteSVC(kernel="rbf").fit(X, y)
    fig = isvm.plotting.plot_convergence(clf)
    line = fig.axes[0].lines[0]
    np.testing.assert_allclose(line.get_ydata(), clf.history_[:, 1])


@pytest.mark.parametrize("which", ["svm", "ch"])
def test_plot_pe_geometry(which):
    rng = np.random.default_rng(0)
    Z = np.r_[np.c_[rng.normal(-1.5, 0.5, 12), rng.normal(0, 0.4, 12)],
              np.c_[rng.normal(1.5, 0.5, 12), rng.normal(0, 0.4, 12)]]
    y = np.r_[-np.ones(12), np.ones(12)]
    kw = dict(kernel="pseudo_euclidean", kernel_params={"p": 1})
    model = (isvm.IndefiniteSVC(C=10.0, **kw) if which == "svm"
             else isvm.ConvexHullClassifier(mu=0.3, **kw)).fit(Z, y)
    fig = isvm.plotting.plot_pe_geometry(model, Z, y, grid=40)
    ax = fig.axes[0]
    assert len(ax.images) == 1 and "w'Mw" in ax.get_title()
    # every mark has a legend entry: points, support vectors, the crosses z+ and z-, both
    # hulls, the decision line, w and Mw
    names = [t.get_text() for t in ax.get_legend().get_texts()]
    for want in ("class +1", "class -1", "support vectors", "closest points z+, z-",
                 "convex hull", "decision line f = 0", "w = z+ - z-", "Mw (M = diag(1, -1))"):
        assert any(n.startswith(want) for n in names), want
    # the reduced hulls are drawn and named when mu < 1 (the CH model's mu = 0.3)
    assert any(n.startswith("reduced hull, mu = 0.3") for n in names) == (which == "ch")
    # the w / Mw labels are offset from their arrow tips, not written on them
    labels = [t for t in ax.texts if t.get_text() in ("w", "Mw")]
    assert len(labels) == 2
    for t in labels:
        assert np.hypot(*t.xyann) >= 10  # points away from the tip


def test_reduced_hull_shrinks_to_the_mean():
    P = np.random.default_rng(1).normal(size=(10, 2))
    h = isvm.plotting.reduced_hull(P, 0.1)
    np.testing.assert_allclose(h, np.tile(P.mean(0), (h.shape[0], 1)), atol=1e-12)


def test_report_command_writes_html_with_figures(tmp_path, capsys):
    code = main(["report", "--dataset", "heart", "--kernel", "sigmoid", "--gamma", "0.01",
                 "--coef0", "-0.5", "-C", "10", "--out", str(tmp_path)])
    assert code == 0
    out = capsys.readouterr().out
    assert "Sanity report" in out and "Kernel check" in out
    files = os.listdir(tmp_path)
    assert len(files) == 1 and files[0].endswith(".html")
    page = (tmp_path / files[0]).read_text()
    assert "signature" in page and "w'Mw" in page
    assert page.count("data:image/png;base64,") == 2
    png = page.split("data:image/png;base64,")[1].split("'")[0]
    assert base64.b64decode(png)[:8] == b"\x89PNG\r\n\x1a\n"


def test_plots_refuse_what_they_cannot_draw():
    # a probe's odd calls (2026-11-29): each came out as another library's error
    # (AttributeError 'figure', IndexError of a boolean mask, float() of an estimator,
    # LinAlgError) or, worse, as a figure of hulls and w = z+ - z- in the plane of Z for an
    # rbf model, whose hulls and w lie in its own feature space
    from sklearn.exceptions import NotFittedError

    from indefsvm import plotting

    rng = np.random.default_rng(4)
    Z = rng.normal(size=(30, 2))
    y = np.where(Z[:, 0] > 0, 1, -1)
    pe = isvm.IndefiniteSVC(kernel="pseudo_euclidean", kernel_params={"p": 1}).fit(Z, y)
    for kw in (dict(kernel="rbf"), dict(kernel="linear"),
               dict(kernel="pseudo_euclidean", kernel_params={"p": 2})):
        model = isvm.IndefiniteSVC(**kw).fit(Z, y)
        with pytest.raises(ValueError, match=r"hulls, w and Mw of the kernel x1 x1' - x2 x2'.*"
                                             rf"fitted with kernel='{kw['kernel']}'"):
            plotting.plot_pe_geometry(model, Z, y)
    D = np.sqrt(((Z[:, None] - Z[None]) ** 2).sum(-1))
    ch = isvm.ConvexHullClassifier(metric="precomputed_distance").fit(D, y)
    with pytest.raises(ValueError, match="fitted with metric='precomputed_distance'"):
        plotting.plot_pe_geometry(ch, Z, y)
    with pytest.raises(ValueError, match=r"^y must hold one label per row of Z: Z has 30 rows"):
        plotting.plot_pe_geometry(pe, Z, y[:5])
    with pytest.raises(ValueError, match=r"^y must hold the model's classes \[-1, 1\]"):
        plotting.plot_pe_geometry(pe, Z, np.where(y > 0, 1, 0))
    Zn = Z.copy()
    Zn[3, 1] = np.nan
    with pytest.raises(ValueError, match="^Z contains NaN"):
        plotting.plot_pe_geometry(pe, Zn, y)
    for mu in (0, -1, "x", np.nan, True):
        with pytest.raises(ValueError, match=r"^mu must be a number > 0"):
            plotting.plot_pe_geometry(pe, Z, y, mu=mu)
    assert plotting.plot_pe_geometry(pe, Z, y, mu=2.0, grid=10) is not None  # >= 1: the hull
    res = isvm.solvers.smo(isvm.kernel_matrix(Z, kernel="pseudo_euclidean", p=1), y, C=1.0)
    with pytest.raises(ValueError, match=r"^with a SolverResult, y must be the \+1 / -1"):
        plotting.plot_pe_geometry(res, Z, np.where(y > 0, 1, 0))
    for bad in ("ax", 3):
        with pytest.raises(TypeError, match=r"^ax must be a matplotlib Axes"):
            plotting.plot_spectrum(np.eye(3), ax=bad)
    for bad in (None, "K"):
        with pytest.raises(TypeError, match=r"^report must be a KernelReport"):
            plotting.plot_spectrum(bad)
    with pytest.raises(NotFittedError, match="IndefiniteSVC instance has no history_"):
        plotting.plot_convergence(isvm.IndefiniteSVC())
    with pytest.raises(ValueError, match=r"^history must be .* got str"):
        plotting.plot_convergence("abc")
    K = np.tanh(Z @ Z.T - 0.2)
    cmp = isvm.compare_remedies(K, y, cv=3, methods=["flip"])
    with pytest.raises(TypeError, match=r"^comparison must be a RemedyComparison"):
        plotting.plot_remedies(None, K)
    with pytest.raises(ValueError, match=r"^K contains NaN"):
        plotting.plot_remedies(cmp, np.full_like(K, np.nan))
    with pytest.raises(TypeError, match=r"^axes must be a pair of matplotlib Axes"):
        plotting.plot_remedies(cmp, K, axes="xy")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2)
    assert plotting.plot_remedies(cmp, K, axes=axes) is fig  # an ndarray pair still works
    plt.close("all")


def test_plot_spectrum_takes_a_matrix_and_plot_pe_geometry_says_what_it_needs():
    import warnings

    import matplotlib

    matplotlib.use("Agg")
    from indefsvm.plotting import plot_pe_geometry, plot_spectrum

    K, y = _indefinite_kernel()
    fig = plot_spectrum(K[:60, :60])
    assert "signature" in fig.axes[0].get_title()
    fig = plot_spectrum(isvm.diagnostics.spectrum(K[:60, :60]))
    assert "signature" in fig.axes[0].get_title()
    X3 = np.random.default_rng(0).normal(size=(10, 3))
    ch = isvm.ConvexHullClassifier(kernel="pseudo_euclidean", kernel_params={"p": 2})
    yy = np.where(X3[:, 0] > 0, 1, -1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # w'Mw of random points, not the point
        ch.fit(X3, yy)
    with pytest.raises(ValueError, match=r"Z must have shape \(n, 2\)"):
        plot_pe_geometry(ch, X3, yy)



def test_plot_remedies_axes_start_at_zero_and_keep_the_top_eigenvalue():
    import matplotlib

    matplotlib.use("Agg")
    from indefsvm.plotting import plot_remedies

    K, y = _indefinite_kernel()
    K, y = K[:90, :90], y[:90]
    cmp = isvm.compare_remedies(K, y, cv=3, random_state=0, methods=["square", "flip"])
    fig = plot_remedies(cmp, K)
    ax1, ax2 = fig.axes
    assert ax2.get_xlim()[0] == 0
    top = max(np.max(np.asarray(line.get_ydata())) for line in ax1.get_lines())
    assert ax1.get_ylim()[1] > top


def test_spectrum_plot_of_a_zero_kernel():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from indefsvm.plotting import plot_spectrum

    # the symlog axis had a linear band of width 0 ("'linthresh' must be positive")
    fig = plot_spectrum(isvm.check_kernel(np.zeros((5, 5))))
    assert fig.axes[0].get_yscale() == "linear"


def test_plots_and_geometry_name_their_wrong_inputs():
    # each came out as another library's error (IndexError, AttributeError 'alpha', numpy's
    # "cannot reshape array of size 120000 into shape (200,200)", matplotlib's "Input z must
    # be at least a (2, 2) shaped array"), or as a figure or a point that was silently wrong
    # (a 5 x 5 kernel drawn for a 30-sample comparison, M of another dimension, an empty hull
    # for mu below 1/m, an SVM point with alpha > C)
    import matplotlib

    matplotlib.use("Agg")
    from sklearn.exceptions import NotFittedError

    from indefsvm import geometry, plotting

    rng = np.random.default_rng(2)
    Z = rng.normal(size=(30, 2))
    y = (Z[:, 0] > 0).astype(int)
    with pytest.raises(ValueError, match=r"^history must be \(iteration, objective\) rows"):
        plotting.plot_convergence(np.array([1.0, 2.0]))
    with pytest.raises(NotFittedError, match="IndefiniteSVC instance is not fitted"):
        plotting.plot_pe_geometry(isvm.IndefiniteSVC(), Z, y)
    three = isvm.IndefiniteSVC(kernel="sigmoid").fit(Z, np.arange(30) % 3)
    with pytest.raises(ValueError, match=r"draws one binary SVM .* the model has 3 classes"):
        plotting.plot_pe_geometry(three, Z, np.arange(30) % 3)
    two = isvm.IndefiniteSVC(kernel="pseudo_euclidean", kernel_params={"p": 1}).fit(Z, y)
    for grid in (0, 1, 2.5):
        with pytest.raises(ValueError, match=r"^grid must be an integer >= 2"):
            plotting.plot_pe_geometry(two, Z, y, grid=grid)
    assert plotting.plot_pe_geometry(two, Z, y, grid=2) is not None
    K = np.tanh(Z @ Z.T - 0.2)
    cmp = isvm.compare_remedies(K, y, cv=3, methods=["flip"])
    with pytest.raises(ValueError, match=r"^K must be the 30 x 30 kernel the comparison"):
        plotting.plot_remedies(cmp, K[:5, :5])
    with pytest.raises(ValueError, match=r"^M must be the \(2, 2\) signature matrix"):
        geometry.pe_plane_coordinates(Z, np.eye(3))
    with pytest.raises(ValueError, match=r"^mu must be at least 1/m = 0\.2 for 5 points"):
        geometry.reduced_hull(Z[:5], 0.01)
    with pytest.raises(ValueError, match=r"^n_directions must be a positive integer"):
        geometry.reduced_hull(Z[:5], 0.5, n_directions=0)
    # mu >= 1 is the hull itself: its vertices are among the points
    hull = geometry.reduced_hull(Z[:5], 3.0, n_directions=8)
    assert all(np.any(np.all(np.isclose(Z[:5], v), axis=1)) for v in hull)
    with pytest.raises(ValueError, match=r"^alpha must be a feasible point of the SVM dual"):
        geometry.svm_to_ch(np.ones(30), 0.5)
    abar, mu = geometry.svm_to_ch(np.full(4, 0.5), 1.0)
    assert abar.tolist() == [0.5] * 4 and mu == 1.0  # 2 alpha / sum alpha, 2 C / sum alpha
    import matplotlib.pyplot as plt

    plt.close("all")
