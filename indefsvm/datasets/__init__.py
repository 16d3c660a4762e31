"""Small data sets bundled with indefsvm (see ``data/PROVENANCE.md``)."""

from ._loaders import (
    DATASETS,
    data_path,
    load_breast_cancer_683,
    load_heart,
    load_libsvm,
    load_protein213,
    load_sonar,
)

__all__ = [
    "DATASETS",
    "data_path",
    "load_breast_cancer_683",
    "load_heart",
    "load_libsvm",
    "load_protein213",
    "load_sonar",
]
