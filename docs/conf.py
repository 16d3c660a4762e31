"""Sphinx configuration of the indefsvm documentation."""

import os
import shutil
import sys
import warnings

import indefsvm

project = "indefsvm"
author = "indefsvm developers"
release = indefsvm.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

autosummary_generate = True
numpydoc_show_class_members = False
autodoc_default_options = {
    "members": True,
    "inherited-members": False,
    # scikit-learn's generic methods (documented there; their docstrings link into its docs)
    "exclude-members": "set_score_request, set_fit_request, set_predict_request, "
                       "get_metadata_routing, score, get_params, set_params",
}
exclude_patterns = ["_build", "README.md", "auto_examples/*.ipynb", "auto_examples/*.py",
                    "auto_examples/*.zip", "auto_examples/*.md5", "auto_examples/*.json"]
html_theme = "alabaster"
html_static_path = []
templates_path = ["_templates"]

# The gallery runs every example script (they are the papers' figures). It runs copies kept
# in the build tree: sphinx-gallery executes a script in its own folder, so the figures a
# script saves land beside the copy, and a build leaves the tracked files as they were.
_here = os.path.dirname(os.path.abspath(__file__))
_gallery_src = os.path.join(_here, "_build", "gallery_src")
shutil.rmtree(_gallery_src, ignore_errors=True)
shutil.copytree(os.path.join(_here, "..", "examples"), _gallery_src,
                ignore=shutil.ignore_patterns("*.png", "__pycache__"))
sphinx_gallery_conf = {
    "examples_dirs": _gallery_src,
    # no sg_execution_times.rst written into the source tree
    "write_computation_times": False,
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/(plot_|protein_|tour)",
    "download_all_examples": False,
    "remove_config_comments": True,
}

def _write_playground(app, exception):
    """The teaching page's links open ``_static/playground.html``: written into the built
    site from the library itself (``indefsvm.explorer.playground()``), so it is always the
    library's page of this build and no generated copy is kept in the source tree."""
    if exception is not None or app.builder.format != "html":
        return
    from indefsvm.explorer import playground

    static = os.path.join(app.outdir, "_static")
    os.makedirs(static, exist_ok=True)
    playground().save(os.path.join(static, "playground.html"))


def setup(app):
    app.connect("build-finished", _write_playground)


# matplotlib without a display
os.environ.setdefault("MPLBACKEND", "Agg")
sys.path.insert(0, os.path.abspath("."))
warnings.filterwarnings("ignore", message="Matplotlib is currently using agg")
