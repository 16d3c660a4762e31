"""Every example script runs (Agg backend, in a scratch folder) and prints its findings."""

import pathlib
import runpy

import matplotlib
import pytest

matplotlib.use("Agg")

EXAMPLES = sorted((pathlib.Path(__file__).parent.parent / "examples").glob("*.py"))
EXPECT = {
    "plot_sigmoid_regions.py": "CPD = True",
    "plot_pe_convex_hulls.py": "w'Mw",
    "plot_multiple_local_optima.py": "strict local minimum: True",
    "plot_l1_gaussian.py": "signature (p, q, z)",
    "protein_table.py": "LOO SVM",
    "plot_munk_vs_m3.py": "ratio M3/MUNK",
    "tour.py": "embedding:",
    "plot_calibrated_multiclass.py": "log-loss",
    "plot_svr_distance_kernel.py": "IndefiniteSVR: converged True",
    "plot_one_class_novelty.py": "shifted cluster 1.00",
    "plot_indefinite_what_now.py": "Recommendation",
    "large_kernel_100k.py": "figures with ~ are estimates",
    "large_nystroem_svm.py": "Sanity report (NystroemSVC, feature space)",
    "plot_time_series_dtw.py": "1-NN DTW",
    "plot_strings_edit_distance.py": "edit-distance SVM",
    "plot_remedy_search.py": "pipeline on raw series",
    "plot_explorer.py": "counter-intuitive",
    "plot_distances_at_scale.py": "D2KE random series: m=5",
}


def test_every_example_is_checked():
    assert {p.name for p in EXAMPLES} == set(EXPECT)


def test_no_example_forces_a_backend():
    # run as a script, an example shows its figures (plt.show() with the user's backend);
    # a forced Agg made six of them show nothing (the gallery and these tests set Agg
    # themselves)
    import re

    forced = [p.name for p in EXAMPLES
              if re.search(r"matplotlib\.use\(|MPLBACKEND|switch_backend", p.read_text())]
    assert forced == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
# Dask's advice when a 10^5-point example sends its array with the graph (the example shows
# the matrix-free check on a LocalCluster, not how to load data into Dask)
@pytest.mark.filterwarnings("ignore:Sending large graph:UserWarning")
# plot_distances_at_scale.py trains D2KE features at several m with the default max_iter;
# one of them stops short of tol and its ConvergenceWarning is part of what the gallery shows
@pytest.mark.filterwarnings("ignore:The coordinate descent stopped:UserWarning")
def test_example_runs(path, tmp_path, monkeypatch, capsys):
    import matplotlib.pyplot as plt

    monkeypatch.chdir(tmp_path)
    # the 100 000-point examples at 2 500 points: the matrix-free check named as such
    # (method="slq", what "auto" picks above 5 000), the landmark SVM on the same path
    monkeypatch.setenv("INDEFSVM_EXAMPLE_N", "2500")
    plt.close("all")
    try:
        runpy.run_path(str(path), run_name="__main__")
        # every figure says what it shows: a title on the figure or on each drawn axes
        for num in plt.get_fignums():
            fig = plt.figure(num)
            titled = (fig._suptitle is not None and fig._suptitle.get_text()) or all(
                ax.get_title() for ax in fig.axes if ax.has_data())
            assert titled, (path.name, num)
    finally:
        plt.close("all")
    assert EXPECT[path.name] in capsys.readouterr().out
    # figures are the gallery's to capture: nothing is written into the current folder
    assert not list(tmp_path.iterdir()), sorted(p.name for p in tmp_path.iterdir())
