"""The command line's option table: one row per option, and the one place options are added.

A row says an option's flags, the library parameter it feeds (``param``: the estimator's or
the distance's keyword, so that a library message about ``cache_size`` is said as
``--cache-size``), svm-train's one-letter flag for it (``letter``: LIBSVM's README), and the
argparse keywords every command that takes it shares. A command adds an option by name with
:func:`option`, giving only what differs there (its type, its default, its help); the parser
is built from these rows and nothing else calls ``add_argument`` (a layout test holds that).
The maps the error words need (parameter to option, LIBSVM letter to option) are read from the
table, so an option's name is written once.
"""

from __future__ import annotations

import argparse
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["OPTIONS", "Option", "count", "folds", "given", "landmark_count", "letters",
           "load_file_words", "metric_rows", "n_jobs", "number", "option", "option_of",
           "option_words", "param_of", "seed", "smo_options", "smo_params", "untaken",
           "whole"]


def whole(low: int | None = None, high: int | None = None, *, says: str | None = None,
          refused: dict | None = None) -> Callable[[str], int]:
    """argparse's type of a whole number from ``low`` to ``high`` (None: no bound), the one
    parser of every option that takes one; ``says``: the words for a value out of range
    (``{value}`` its slot); ``refused``: values in range the option still refuses, and why."""
    if says is None:
        says = ("expected a number >= {low}; got {value}" if high is None else
                "expected a whole number from {low} to {high}; got {value}")

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number; got {text!r}") \
                from None
        out = (low is not None and value < low) or (high is not None and value > high)
        if out or value in (refused or {}):
            raise argparse.ArgumentTypeError(
                (refused or {}).get(value) or says.format(low=low, high=high, value=value))
        return value

    return parse


def numbers(text: str, wrong: str, each: Callable[[float], bool] | None = None,
            bad: str = "") -> tuple[float, ...]:
    """The numbers of ``text``, separated by commas (one number: a list of one), the one
    parser of every option that takes a list; ``wrong``: the words for a text that is no
    such list, ``each`` the test of every value and ``bad`` the words when one fails
    (``{text!r}``: the text given, in both)."""
    try:
        values = tuple(float(v) for v in text.split(",") if v.strip())
    except ValueError:
        values = ()
    if not values or (each is not None and not all(map(each, values))):
        # (a slot replaced, not str.format: the words may quote what the user typed)
        raise argparse.ArgumentTypeError((bad if values else wrong).replace("{text!r}",
                                                                           repr(text)))
    return values


#: a count (--restarts, --probes): 0 or more
count = whole(0)
#: a number of landmarks (--nystroem): 1 or more
landmark_count = whole(1, says="expected the number of landmarks, 1 or more; got {value}")
#: a number of cross-validation folds (--cv): 0 (none) or 2 and more
folds = whole(0, refused={1: "1 is not cross-validation: give 2 or more folds, or 0 for "
                             "none"})
#: a seed (--seed): NumPy's, 0 ... 2^32 - 1 (said as the option, not as random_state)
seed = whole(0, 2**32 - 1)
#: threads (--n-jobs): -1 all cores, -2 all but one, ...; 0 is none
n_jobs = whole(refused={0: "expected a positive number of threads, or -1 for all cores (-2 "
                           "all but one); got 0"})


@dataclass(frozen=True)
class Option:
    """One option of the command line.

    Parameters
    ----------
    flags : tuple of str
        Its flags as argparse takes them (``("-C", "--C")``), or a positional's name.
    param : str or None
        The library parameter it feeds, where the library's messages name one.
    letter : str or None
        svm-train's or svm-predict's one-letter flag for the same thing.
    kwargs : dict
        The argparse keywords every command that takes the option shares.
    hint : str or None
        What the option is, said where it does not apply (``--window is DTW's band ...``).
    feeds : str or None
        ``"metric_params"`` where ``param`` is a key of the distance's ``metric_params``
        (``--window``, ``--sigma``): those are gathered, and refused for a metric that does
        not take them, by one rule (``_args.metric_params``); ``"load_file"`` where it is a
        keyword of :func:`indefsvm.datasets.load_file` (``--labels``, ``--zero-based``):
        the readers' messages name those (:func:`load_file_words`); ``"smo"`` where it
        is an option of the SMO solver (IndefiniteSVC and LIBSVM's family), which the
        landmark models do not have: those rows alone give the SVM its solver's keywords
        (:func:`smo_params`), so a new solver option is one row and its library parameter.
    to_param : callable or None
        The library's value of the parsed one, where they differ (``--no-shrinking``:
        ``shrinking = not value``).
    """

    flags: tuple[str, ...]
    param: str | None = None
    letter: str | None = None
    kwargs: dict[str, Any] = field(default_factory=dict)
    feeds: str | None = None
    hint: str | None = None
    to_param: Callable[[Any], Any] | None = None

    @property
    def dest(self) -> str:
        """The attribute of the parsed arguments that holds the option's value."""
        return self.kwargs.get("dest") or self.name.lstrip("-").replace("-", "_")

    @property
    def default(self):
        """The value of an option not given (the row's default; False for a switch)."""
        if "default" in self.kwargs:
            return self.kwargs["default"]
        return False if self.kwargs.get("action") == "store_true" else None

    @property
    def name(self) -> str:
        """The flag the words use: ``-C`` where it has one, else its long flag."""
        return (
            "-C"
            if "-C" in self.flags
            else next((f for f in self.flags if f.startswith("--")), self.flags[0])
        )


#: the options, by their long flag without dashes
OPTIONS: dict[str, Option] = {
    "balanced": Option(("--balanced",),
        kwargs=dict(action="store_true", help="class weights n / (n_classes * n_c) in every SVM")),
    "C": Option(("-C", "--C"), param="C", letter="-c"),
    "C-grid": Option(("--C-grid",),
        kwargs=dict(default=None, dest="C_grid", metavar="C1,C2,...",
                    help="choose C by inner CV from these values")),
    "cache-size": Option(("--cache-size",), param="cache_size", letter="-m", feeds="smo",
        kwargs=dict(type=float, default=200.0, help="kernel cache in MB")),
    "class-weight": Option(("--class-weight",), param="class_weight", letter="-w",
        kwargs=dict(default=None, metavar="W",
                    help="per-class weights of C: 'balanced' (n / (n_classes n_c)), or "
                         "LABEL:W,... as LIBSVM's -wi (class LABEL gets W x C; others 1; a first"
                         " label with a minus sign: --class-weight=-1:2)")),
    "classes": Option(("--classes",),
        kwargs=dict(default=None, metavar="A,B",
                    help="the two classes to show when the labels have more")),
    "coef0": Option(("--coef0",), param="coef0", letter="-r",
        kwargs=dict(default=None,
                    help="the sigmoid's r, poly's coef0 (default 0; 1 with --distances)")),
    "cv": Option(("--cv",), param="cv", letter="-v", kwargs={"type": folds}),
    "data": Option(("data",), kwargs=dict(metavar="DATA")),
    "dataset": Option(("--dataset",),
        kwargs=dict(help="a bundled data set (protein213 is a distance matrix: with --distances)")),
    "debug": Option(("--debug",),
        kwargs=dict(action="store_true",
                    help="show the Python traceback of an error instead of one line")),
    "decision-values": Option(("--decision-values",),
        kwargs=dict(action="store_true",
                    help="after each prediction, its decision values: one for two classes (> 0 "
                         "means the class the header names) and for a one-class SVM (> 0: "
                         "inside, +1), one per class (SVC's one-vs-rest votes and confidences) "
                         "for more; a first line 'labels ...' names the columns, as svm-predict "
                         "-b 1 does")),
    "degree": Option(("--degree",), param="degree", letter="-d",
        kwargs=dict(default=None, help="polynomial degree (default 3)")),
    "device": Option(("--device",), param="device",
        kwargs=dict(choices=["cpu", "cuda"], default="cpu")),
    "distances": Option(("--distances",), param="distances", feeds="load_file"),
    "epsilon": Option(("--epsilon",), param="epsilon", letter="-p",
        hint="the width of epsilon-svr's insensitive tube; nu-svr sets its tube by --nu",
        kwargs=dict(default=None,
                    help="the width of epsilon-svr's insensitive tube (default 0.1; LIBSVM's -p)")),
    "features": Option(("--features",), param="features",
        kwargs=dict(choices=["nystroem", "d2ke"], default="nystroem",
                    help="d2ke: distances to M random objects (a positive-definite kernel) "
                         "instead of Nystroem landmarks")),
    "file": Option(("file",),
        kwargs=dict(nargs="?", metavar="FILE",
                    help="LIBSVM, CSV / TSV or ARFF data file, or a precomputed kernel matrix "
                         "(.npy, .npz or text with --labels, or LIBSVM's -t 4 file: label 0:ID "
                         "1:k(x, x_1) ...), or with --distances a distance matrix")),
    "gamma": Option(("--gamma",), param="gamma", letter="-g",
        kwargs=dict(default=None,
                    help="kernel coefficient, the sigmoid's a (number, 'scale' or 'auto'; "
                         "default 'scale'); with --distances a number or 'median' (default)")),
    "gamma-grid": Option(("--gamma-grid",),
        kwargs=dict(default=None, dest="gamma_grid", metavar="G1,G2,...",
                    help="with --search --distances: these gamma (default: the median rule times"
                         " 4^-4 ... 4^2)")),
    "grid": Option(("--grid",),
        kwargs=dict(action="append", metavar="NAME=V1,V2,...",
                    help="values of a kernel parameter, e.g. --grid gamma=0.1,1,10 --grid "
                         "coef0=-1,0,1 (default: three values of each around its default)")),
    "init": Option(("--init",), param="init", feeds="smo",
        kwargs=dict(default="zero", choices=["zero", "class_balanced"],
                    help="the SMO's starting point: alpha = 0 (default), or each class's "
                         "multipliers equal, the two classes' sums equal")),
    "json": Option(("--json",),
        kwargs=dict(action="store_true", help="print JSON instead of text")),
    "kernel": Option(("--kernel",), param="kernel", letter="-t", kwargs=dict(default=None)),
    "knn-distances": Option(("--knn-distances",),
        kwargs=dict(metavar="FILE", default=None,
                    help="distance matrix for the k-NN rule (default: from the kernel, or FILE "
                         "itself with --distances)")),
    "label-column": Option(("--label-column",), param="label_column", feeds="load_file",
        kwargs=dict(metavar="COL", default=None)),
    "labels": Option(("--labels",), param="labels", feeds="load_file", kwargs=dict(metavar="FILE")),
    "landmarks": Option(("--landmarks",), param="landmarks",
        kwargs=dict(choices=["uniform", "kmedoids++", "kmeans++", "pivoted"], default="uniform",
                    help="how the landmarks are picked: uniform (default); kmedoids++, D^2 "
                         "seeding on the distances (--metric); kmeans++, D^2 seeding in input "
                         "space (feature vectors, --nystroem M); pivoted (either), greedy "
                         "pivoted Cholesky of the kernel, each next landmark the object "
                         "represented worst")),
    "link": Option(("--link",),
        kwargs=dict(action="store_true",
                    help="also print a link that opens the page in live mode, its state (points,"
                         " kernel, parameters, C, remedy) in the link (2-D data, at most 200 "
                         "points)")),
    "max-iter": Option(("--max-iter",), param="max_iter",
        kwargs=dict(default=None, help="iteration cap")),
    "method": Option(("--method",),
        kwargs=dict(default="auto", choices=["auto", "dense", "ldl", "lanczos", "slq"],
                    help="auto: dense up to 5000 samples, matrix-free estimates (slq) above")),
    "methods": Option(("--methods",), kwargs=dict(default=None, metavar="M1,M2,...")),
    "metric": Option(("--metric",), param="metric", hint="series or strings",
        kwargs=dict(default=None)),
    "model": Option(("model",),
        kwargs=dict(metavar="MODEL", help="a model file written by fit --save")),
    "n-features": Option(("--n-features",), param="n_features", feeds="load_file",
        kwargs=dict(default=None,
                    help="number of features of a LIBSVM file (if its last ones are unused)")),
    "n-jobs": Option(("--n-jobs",), param="n_jobs", kwargs=dict(default=None)),
    "no-search": Option(("--no-search",),
        kwargs=dict(action="store_true",
                    help="fit -C 1 and the default gamma rule as they are: no search of C and "
                         "gamma (giving both -C and --gamma also fits exactly those)")),
    "no-shrinking": Option(("--no-shrinking",), param="shrinking", feeds="smo",
        to_param=operator.not_, kwargs=dict(action="store_true", help="disable shrinking")),
    "nu": Option(("--nu",), param="nu", letter="-n",
        hint="a share of the samples between 0 and 1",
        kwargs=dict(default=None,
                    help="nu of nu-svc, one-class and nu-svr (default 0.5): a bound on the share"
                         " of margin errors and of support vectors")),
    "nystroem": Option(("--nystroem",), param="n_components", hint="features",
        kwargs=dict(default=None, metavar="M", type=landmark_count)),
    "out": Option(("--out",)),
    "p": Option(("--p",), param="p",
        kwargs=dict(default=None, dest="pe_p",
                    help="positive dimensions of the pseudo_euclidean kernel")),
    "probability": Option(("--probability",), letter="-b",
        kwargs=dict(action="store_true",
                    help="after each prediction, the probability of each class under a 'labels "
                         "...' header (svm-predict -b 1's layout), for a model that has "
                         "probabilities; an SVM has none (it is refused, with what gives them)")),
    "probes": Option(("--probes",),
        kwargs=dict(default=None, metavar="M",
                    help="matrix-free methods: random probes (default 24 for slq)")),
    "quiet": Option(("-q", "--quiet"),
        kwargs=dict(action="store_true",
                    help="print results only: no announcements, no progress bar (-q as "
                         "svm-train's)")),
    "remedies": Option(("--remedies",), param="remedies", kwargs=dict(default="none,clip,flip")),
    "remedy": Option(("--remedy",), kwargs=dict(default=None)),
    "restarts": Option(("--restarts",), param="n_restarts", feeds="smo",
        kwargs=dict(type=count, default=0, help="random restarts (Lin & Lin 2003, Fig. 5)")),
    "rho": Option(("--rho",), param="rho",
        kwargs=dict(default=None,
                    help="truncation radius of the tl1 kernel max(rho - |x - z|_1, 0) (default "
                         "0.7 x the number of features)")),
    "rtol": Option(("--rtol",), param="rtol",
        kwargs=dict(default=None, help="relative zero threshold of eigenvalues (default n * eps)")),
    "rule": Option(("--rule",),
        kwargs=dict(choices=["best", "one-se"], default=None,
                    help="with --search: the best mean score (default; the rule that did best on"
                         " real tasks) or the one-standard-error rule on paired folds (prefers "
                         "the cheaper method)")),
    "sample": Option(("--sample",),
        kwargs=dict(default=None, metavar="M",
                    help="with --metric: the distances among M objects drawn at random are "
                         "computed (all of them up to M; default 1000)")),
    "save": Option(("--save",), kwargs=dict(metavar="MODEL")),
    "scale": Option(("--scale",), param="scale",
        kwargs=dict(action="store_true",
                    help="scale each feature to [-1, 1] by its range in the training data first,"
                         " as LIBSVM's svm-scale does (a saved model keeps the scaling and "
                         "predict applies it)")),
    "search": Option(("--search",),
        kwargs=dict(action="store_true",
                    help="search every remedy with C (and gamma, with --distances) by "
                         "cross-validation and say which to use (RemedySearchCV)")),
    "seed": Option(("--seed",)),
    "steps": Option(("--steps",),
        kwargs=dict(default=None, metavar="K",
                    help="matrix-free methods: Lanczos steps, one pass over K each")),
    "subsample": Option(("--subsample",),
        kwargs=dict(default=None, metavar="N",
                    help="a stratified subsample of N points, or all of them when the data have "
                         "fewer (the page draws every point; at most 1000)")),
    "svm-type": Option(("-s", "--svm-type"),
        kwargs=dict(default="c-svc", metavar="TYPE",
                    help="c-svc (0, default), nu-svc (1), one-class (2: an outlier detector; the"
                         " labels are not read for training), epsilon-svr (3) or nu-svr (4: "
                         "regression, the labels are real targets)")),
    "title": Option(("--title",), kwargs=dict(default=None, help="the page's heading")),
    "tol": Option(("--tol",), param="tol", letter="-e",
        kwargs=dict(default=0.001, help="KKT gap tolerance")),
    "verbose": Option(("--verbose",),
        kwargs=dict(action="store_true",
                    help="log the solver's progress (iteration, objective, gap) every few "
                         "seconds")),
    "window": Option(("--window",), param="window", feeds="metric_params",
        hint="the band of an elastic distance", kwargs=dict(default=None, metavar="W")),
    "wss": Option(("--wss",), param="wss", feeds="smo",
        kwargs=dict(default="second_order", choices=["second_order", "first_order"],
                    help="the SMO's working-set selection: LIBSVM's second-order rule (default),"
                         " or the maximal violating pair")),
    "zero-based": Option(("--zero-based",), param="zero_based", feeds="load_file",
        kwargs=dict(action="store_true")),
    "sigma": Option(("--sigma",), param="sigma", feeds="metric_params",
        hint="the bandwidth of the global alignment kernel",
        kwargs=dict(default=None, metavar="S", type=float,
                    help="the bandwidth of --metric gak, the global alignment kernel (default: "
                         "the median distance between points of the series times sqrt of "
                         "their median length, Cuturi 2011)")),
    "split-cost": Option(("--split-cost",), param="c", feeds="metric_params",
        hint="the cost of move-split-merge's splits and merges",
        kwargs=dict(default=None, metavar="C", type=float,
                    help="the cost of a split or a merge of --metric msm (default 1, for "
                         "z-normalised series; Stefan et al. 2013 tune it from 0.01 to 100)")),
    "version": Option(("--version",), kwargs=dict(action="version")),
}


def option(container, key: str, **overrides) -> argparse.Action:
    """Add the option ``key`` of :data:`OPTIONS` to a parser, group or exclusive group.

    Parameters
    ----------
    container : argparse.ArgumentParser or argparse._ActionsContainer
        Where the option goes.
    key : str
        Its row in :data:`OPTIONS`.
    **overrides
        argparse keywords of this command (``type``, ``default``, ``help``, ...); ``flags``
        replaces the row's flags where a command takes fewer of them.

    Returns
    -------
    argparse.Action
    """
    row = OPTIONS[key]
    flags = overrides.pop("flags", row.flags)
    return container.add_argument(*flags, **{**row.kwargs, **overrides})


def option_of(param: str) -> str | None:
    """The option that feeds the library parameter ``param`` (``cache_size``: ``--cache-size``),
    or None when no option does."""
    return next((row.name for row in OPTIONS.values()
                 if row.param == param and row.feeds != "load_file"), None)


def number(value) -> str:
    """A number as an option takes it: short (%g) where that is the same number, else every
    digit (a printed command must give the very value)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        short = f"{value:g}"
        return short if float(short) == value else repr(float(value))
    return str(value)


def option_words(args, *keys: str, given_flags=None, values: dict | None = None) -> list[str]:
    """The options among ``keys`` that were given, as the words of a command that gives them
    again: a switch its flag, an option its flag and value (``values``: a key's value to
    print instead of the parsed one, which counts as given). ``given_flags``: the flags that
    count as given, where the parsed values no longer tell (after defaults were filled)."""
    import shlex

    values = values or {}
    out = []
    for key in keys:
        row = OPTIONS[key]
        if key not in values and not (row.name in given_flags if given_flags is not None
                                      else _given(args, row)):
            continue
        if row.kwargs.get("action") == "store_true":
            out.append(row.name)
        else:
            value = values.get(key, getattr(args, row.dest, None))
            out += [row.name, shlex.quote(number(value))]
    return out


def param_of(flag: str) -> str | None:
    """The library parameter the option ``flag`` (``--coef0``) feeds, or None."""
    return next((row.param for row in OPTIONS.values() if row.name == flag), None)


def load_file_words() -> dict[str, str]:
    """The keywords of :func:`indefsvm.datasets.load_file` the options feed, and those
    options (``zero_based``: ``--zero-based``): the words of the readers' refusals."""
    return {row.param: row.name for row in OPTIONS.values() if row.feeds == "load_file"}


def letters() -> dict[str, str]:
    """svm-train's one-letter flags and the options that are them here (``-t``: ``--kernel``)."""
    return {row.letter: row.name for row in OPTIONS.values() if row.letter}



def metric_rows() -> list[Option]:
    """The rows that feed a distance's ``metric_params`` (``--window``, ``--sigma``)."""
    return [row for row in OPTIONS.values() if row.feeds == "metric_params"]


def metric_options() -> list[str]:
    """The keys of the rows that feed a distance's ``metric_params``, in the table's order:
    a new distance parameter on the command line is its row."""
    return [key for key, row in OPTIONS.items() if row.feeds == "metric_params"]


def _given(args, row: Option) -> bool:
    # a command that fills an option's default after parsing (fit's -C) records whether it
    # was given as DEST_given
    was = getattr(args, row.dest + "_given", None)
    return was if was is not None else getattr(args, row.dest, row.default) != row.default


def smo_options() -> list[str]:
    """The keys of the SMO solver's options (the rows that feed ``"smo"``), in the table's
    order."""
    return [key for key, row in OPTIONS.items() if row.feeds == "smo"]


def smo_params(args) -> dict:
    """The SMO solver's keywords of the parsed ``args``: each ``"smo"`` row's parameter and
    value (through its ``to_param``)."""
    rows = [OPTIONS[key] for key in smo_options()]
    return {row.param: (row.to_param or (lambda v: v))(getattr(args, row.dest))
            for row in rows}


def given(args, *keys: str) -> list[str]:
    """The options among ``keys`` whose parsed value differs from their row's default -- the
    ones the user gave -- as their flags, in the order asked (so that "X does not apply" is
    said from the table's defaults, written once)."""
    return [OPTIONS[key].name for key in keys if _given(args, OPTIONS[key])]


def untaken(args, takes, *keys: str) -> list[Option]:
    """The rows among ``keys`` given whose parameter is not among ``takes`` (the chosen
    estimator's ``get_params()``): the one rule of "this option does not apply here"."""
    return [OPTIONS[key] for key in keys
            if OPTIONS[key].param not in takes and _given(args, OPTIONS[key])]
