"""The remedies' one list: every method's name in reports, its command-line spelling, and
where it exists (a fix of the kernel matrix, a landmark model's remedy, a kernel the explorer
draws). Private; a low floor -- nothing estimated here, nothing imported -- so that the remedy
table (``remedies._methods``), ``NystroemSVC``, the explorer and the command line all read
their names from it."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BY_NAME", "BY_OPTION", "DRAWN_BY_DEFAULT", "FEATURES", "INDEF", "KNN", "KREIN",
           "NAMES",
           "RemedyName", "drawn_options", "landmark_options", "remedy_options"]

INDEF = "indefinite SVM"
KNN = "k-NN"
KREIN = "Krein SVM"
FEATURES = "features"


@dataclass(frozen=True)
class RemedyName:
    """One method of the remedy table, by name.

    Attributes
    ----------
    name : str
        In reports, grids and ``methods=`` lists.
    option : str
        On the command line (lower case, no spaces): ``--remedy``, ``--methods``,
        ``--remedies``.
    remedy : bool
        A remedy of the kernel (a fix, or the Krein SVM): what ``fit --remedy`` takes.
    landmark : bool
        ``NystroemSVC`` (and ``fit --nystroem`` / ``--metric``) has it.
    drawn : bool
        A fix of the training kernel itself, which the explorer draws.
    """

    name: str
    option: str
    remedy: bool
    landmark: bool
    drawn: bool


#: every method, in the order of the reports
NAMES = (
    RemedyName(INDEF, "svm", remedy=False, landmark=False, drawn=False),
    RemedyName("clip", "clip", remedy=True, landmark=True, drawn=True),
    RemedyName("flip", "flip", remedy=True, landmark=True, drawn=True),
    RemedyName("shift", "shift", remedy=True, landmark=False, drawn=True),
    # its rank is chosen on the labels of the training kernel: no single kernel to draw
    RemedyName("advanced shift", "advanced-shift", remedy=True, landmark=False, drawn=False),
    RemedyName("square", "square", remedy=True, landmark=False, drawn=True),
    RemedyName("CNE", "cne", remedy=True, landmark=False, drawn=True),
    RemedyName("RNE", "rne", remedy=True, landmark=False, drawn=True),
    # trains on the flipped kernel and maps the solution back: drawn as flip
    RemedyName(KREIN, "krein", remedy=True, landmark=True, drawn=False),
    # a linear SVM on the kernel rows as features: no fix of the kernel, no single kernel
    RemedyName(FEATURES, "features", remedy=False, landmark=False, drawn=False),
    RemedyName(KNN, "knn", remedy=False, landmark=False, drawn=False),
)

BY_NAME = {r.name: r for r in NAMES}

#: the explorer's remedies by default: the kernel as it is, and the two fixes a landmark
#: model also has
DRAWN_BY_DEFAULT = ("none", "clip", "flip")
BY_OPTION = {r.option: r for r in NAMES}


def remedy_options() -> dict:
    """``{option: name}`` of the remedies (``fit --remedy``), in the order of the reports."""
    return {r.option: r.name for r in NAMES if r.remedy}


def landmark_options() -> tuple:
    """The options of the remedies a landmark model has (``NystroemSVC(remedy=)``)."""
    return tuple(r.option for r in NAMES if r.landmark)


def drawn_options() -> tuple:
    """The options of the fixes the explorer draws."""
    return tuple(r.option for r in NAMES if r.drawn)
