"""Small data sets bundled with indefsvm (see ``data/PROVENANCE.md``), and generated time
series and strings for the distance examples (``make_cbf``, ``make_motif_strings``)."""

from ._data_file import DataFile, load_file
from ._loaders import (
    DATASETS,
    data_path,
    load_arff,
    load_breast_cancer_683,
    load_heart,
    load_libsvm,
    load_libsvm_kernel,
    load_protein213,
    load_sonar,
)
from ._synthetic import make_cbf, make_motif_strings

__all__ = [
    "DATASETS",
    "DataFile",
    "data_path",
    "load_arff",
    "load_breast_cancer_683",
    "load_file",
    "load_heart",
    "load_libsvm",
    "load_libsvm_kernel",
    "load_protein213",
    "load_sonar",
    "make_cbf",
    "make_motif_strings",
]
