"""The settings of one command: what argparse parsed, the value of every option the shared
routines read where the command does not take it, and what the command learns on its way
(the explicit options, the search's choice, the learned window) -- declared and typed here,
not attributes that appear on the namespace as the command runs."""

from __future__ import annotations

import argparse
import copy
from typing import Any

__all__ = ["Settings"]


class Settings(argparse.Namespace):
    """A command's settings (the parser returns them in place of a plain namespace).

    The class attributes are the values read where no option gave one: an option the
    command does not take (``compare`` has no ``--svm-type``: a C-SVC), or a state no step
    has set yet. Every other attribute is an option the command took, as parsed.
    """

    # -- options that some commands take, as read by the routines they share ---------------
    #: the data file holds distances (``--distances``; compare's older form: a FILE name)
    distances: bool | str = False
    #: ``--metric``: series or strings, by the distance of the metric table
    metric: str | None = None
    #: ``--scale``: features scaled to [-1, 1]
    scale: bool = False
    #: ``--class-weight``: None, "balanced" or {label: weight}
    class_weight: Any = None
    #: ``--nystroem M``: the landmark model and its number of landmarks
    nystroem: int | None = None
    #: ``--svm-type``: LIBSVM's family (a command without the option trains a C-SVC)
    svm_type: str = "c-svc"
    #: ``--labels FILE`` of a kernel or distance matrix
    labels: str | None = None
    #: ``--device``
    device: str = "cpu"
    #: ``--save MODEL``
    save: str | None = None
    #: ``--rho``: the tl1 kernel's radius
    rho: float | None = None
    #: ``FILE``, the data
    file: str | None = None
    #: ``--remedy``
    remedy: str | None = None
    #: ``--no-search``
    no_search: bool = False
    #: ``MODEL``, a model file (predict, report MODEL DATA)
    model: str | None = None
    #: ``--dataset NAME``
    dataset: str | None = None

    # -- what the command learns on its way -------------------------------------------------
    #: the kernel options the user gave (before the defaults filled in), as flags
    explicit: tuple | list = ()
    #: -C was given (not the placeholder a search replaces); None: told by its value
    #: (``_options.given`` reads ``DEST_given`` first)
    C_given: bool | None = None
    #: what fit's search of C and gamma chose (``GridChoice.to_dict()``), None without one
    search_result: dict | None = None
    #: --window auto (or a list): to be learned once the series are read, from these windows
    window_learned: bool = False
    window_grid: list | None = None
    #: the window learned (``indefsvm.distances.WindowChoice``)
    window_choice: Any = None
    #: --nystroem was not given: each CV fold takes the default rule of its own size
    landmarks_default: bool = False
    #: a CSV header's column names, which predict reads its file by
    feature_names: tuple | None = None
    #: compare --metric: the objects and their labels, which the chosen model is refitted on
    objects: Any = None
    objects_y: Any = None
    n_objects: int | None = None

    def replace(self, **changes) -> Settings:
        """A copy with ``changes`` (the settings of a step that runs other models than the
        command's own: a search on the exact kernel before a landmark model)."""
        new = copy.copy(self)
        vars(new).update(changes)
        return new
