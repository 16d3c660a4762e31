"""Argument types, shared option groups and the defaults that depend on other options."""

from __future__ import annotations

import argparse
import sys

from .._remedies import BY_NAME as _REMEDY_NAMES
from .._remedies import landmark_options, remedy_options
from ._errors import EXIT_USAGE, CLIError
from ._options import (
    given,
    load_file_words,
    metric_options,
    metric_rows,
    n_jobs,
    number,
    numbers,
    option,
    option_words,
    param_of,
    seed,
    smo_options,
)
from ._rules import Refusal, refuse

#: the bundled feature sets (indefsvm.datasets.DATASETS; a test checks they agree)
DATASET_NAMES = ("breast_cancer_683", "heart", "sonar")
#: the kernel names of indefsvm.kernels.KERNELS (a test checks they agree)
KERNEL_NAMES = ("l1_gaussian", "linear", "polynomial", "pseudo_euclidean", "rbf", "sigmoid",
                "sqrt_l1_exponential", "symmetric_kl", "tl1")


#: bundled sets that are distance matrices (--dataset NAME --distances)
DISTANCE_DATASETS = ("protein213",)

#: the kernels made of distances (--distances) and their DistanceKernel kind
DISTANCE_KINDS = {"rbf": "rbf", "laplacian": "laplacian", "linear": "linear",
                  "polynomial": "polynomial", "poly": "polynomial", "tl1": "tl1"}


def _datasets():
    from ..datasets import DATASETS

    return DATASETS


# -- arguments ----------------------------------------------------------------------------------


def _number_or_keyword(text: str):
    if text in ("scale", "auto", "median"):
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a number, 'scale', 'auto' or (with --distances) 'median'; got "
            f"{text!r}") from None


def path_name(text: str) -> str:
    """A file or folder name, not an empty one: an empty name names nothing, and would be
    taken for "not given" or for the current folder."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a file name; got an empty one")
    return text


N_JOBS_HELP = ("threads (default 1; -1: all cores). Never more than the cores idle when the "
               "work starts, and small work runs on one thread")


def _add_n_jobs(p: argparse.ArgumentParser, help: str = N_JOBS_HELP) -> None:
    option(p, "n-jobs", type=n_jobs, metavar="N", help=help)


def _add_device(p: argparse.ArgumentParser, what: str) -> None:
    option(p, "device", help=f"where {what}: cpu (default) or cuda, an NVIDIA GPU through CuPy "
                             '(pip install "indefsvm[gpu]")')


def _common(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("output")
    # one or the other: -q promises results only, --verbose adds the solver's log
    loud = g.add_mutually_exclusive_group()
    option(loud, "quiet")
    option(loud, "verbose")
    option(g, "debug")


def _add_data_args(p: argparse.ArgumentParser, *, labels_help: str,
                   legacy_distances: bool = False, scale: bool = True) -> None:
    # FILE or --dataset, one of them (checked in _load: compare's old --distances FILE form
    # may name the data file itself)
    src = p.add_mutually_exclusive_group()
    option(src, "file", type=path_name)
    option(src, "dataset", choices=list(DATASET_NAMES) + list(DISTANCE_DATASETS))
    dist_help = ("FILE holds distances (DTW, edit, ...), not a kernel: the kernel is "
                 "exp(-gamma d^2) (--kernel rbf|laplacian|linear|polynomial), gamma by the "
                 "median rule unless --gamma is given")
    if legacy_distances:
        # 'compare --distances FILE' named the k-NN distances before --distances became the
        # flag of every command: that form still works, with a deprecation notice
        option(p, "distances", nargs="?", const=True, default=False, metavar="FILE", type=path_name,
               help=dist_help + "; the older form --distances FILE (FILE: the k-NN "
               "distances) still works, deprecated: use --knn-distances FILE")
    else:
        option(p, "distances", action="store_true", help=dist_help)
    option(p, "labels", type=path_name, help=labels_help)
    option(p, "label-column",
           help="CSV / TSV features: the label column, by name, index (0 first, -1 "
                "last) or first / last; default a column named label, y, class or "
                "target (ARFF: the class attribute, default so named or the last)")
    option(p, "n-features", type=int)
    option(p, "zero-based", help="the LIBSVM file's indices start at 0 (scikit-learn's "
                                 "dump_svmlight_file default)")
    if scale:
        option(p, "scale")


def _add_kernel_args(p: argparse.ArgumentParser) -> None:
    option(p, "kernel", choices=list(KERNEL_NAMES) + ["poly", "laplacian"],
           help="kernel name (default: rbf); refused with a kernel matrix FILE (the "
                "kernel is given); with "
                "--distances one of rbf, laplacian, linear, polynomial, tl1")
    option(p, "gamma", type=_number_or_keyword)
    option(p, "coef0", type=float)
    option(p, "degree", type=int)
    option(p, "p", type=int)
    option(p, "rho", type=float)


def _class_weight(text: str):
    """--class-weight: "balanced", or LABEL:W pairs as LIBSVM's -wi (C of class LABEL is
    W times C); a label reads as a number when it is one (as the labels files are read)."""
    text = text.strip()
    if text == "balanced":
        return "balanced"
    out = {}
    for part in text.split(","):
        label, sep, weight = part.rpartition(":")
        label = label.strip()
        if not sep or not label:
            raise argparse.ArgumentTypeError(
                f"{part.strip()!r} is not LABEL:WEIGHT; give 'balanced' or pairs such as "
                "1:10,-1:1 (LIBSVM's -w1 10 -w-1 1)")
        try:
            w = float(weight)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"the weight of class {label} must be a number; got {weight.strip()!r}") from None
        if not (w > 0 and w < float("inf")):
            raise argparse.ArgumentTypeError(
                f"the weight of class {label} must be > 0 and finite; got {weight.strip()}")
        key = label
        for kind in (int, float):
            try:
                key = kind(label)
                break
            except ValueError:
                continue
        if key in out:
            raise argparse.ArgumentTypeError(f"class {label} is given twice")
        out[key] = w
    return out


def _add_model_args(p: argparse.ArgumentParser, C_default: float | None = 1.0) -> None:
    _add_kernel_args(p)
    option(p, "C", type=float, default=C_default, dest="C",
           help="box bound C" + (f" (default {C_default:g})" if C_default is not None
                                 else " (default: chosen by a small CV grid)"))
    option(p, "class-weight", type=_class_weight)
    option(p, "tol", type=float)
    option(p, "max-iter", type=int)
    for key in smo_options():  # the SMO solver's options: their rows, whole
        option(p, key)
    option(p, "seed", type=seed, default=0, help="random seed")
    _add_n_jobs(p, N_JOBS_HELP + " (series and strings with --metric: all cores by default)")


#: fit --remedy: the command line's names of the remedy methods (lower case, no spaces)
REMEDIES = remedy_options()

#: the remedies NystroemSVC has (fit --nystroem M --remedy ...)
NYSTROEM_REMEDIES = landmark_options()


def remedy_option(method: str) -> str:
    """The ``--remedy`` value of a method of the table ("advanced shift" -> advanced-shift)."""
    return _REMEDY_NAMES[method].option


def _extra_params(args) -> dict | None:
    """kernel_params of the kernels with parameters of their own (--p, --rho)."""
    if args.kernel == "pseudo_euclidean":
        return {"p": args.pe_p}
    if args.kernel == "tl1" and args.rho is not None:
        return {"rho": args.rho}  # (its rule is the kernel's: check_kernel_settings)
    return None


def _kernel_params(args, X) -> dict:
    """The kernel options' parameters on ``X``, the kernel's rules first (the library's:
    gamma's sign, --p given, --rho > 0)."""
    from ..kernels import check_kernel_settings, resolve_kernel_params

    extra = _extra_params(args)
    check_kernel_settings(args.kernel, args.gamma, extra)
    return resolve_kernel_params(args.kernel, X, gamma=args.gamma, coef0=args.coef0,
                                 degree=args.degree, kernel_params=extra)


#: --window's help, for fit, compare and check
WINDOW_HELP = ("DTW's Sakoe-Chiba band as a share of the length (e.g. 0.1); 'auto': learned, "
               "the window of least leave-one-out 1-NN error from 0 to 0.2 (the UCR "
               "archive's learned window), or from a list such as 0,0.05,0.1")


def add_metric_options(group) -> None:
    """The distance's parameters (the table's metric_params rows) of fit, check, compare and
    explore: a new one is its row (``--window`` alone has a parser of its own, for
    ``auto``)."""
    for key in metric_options():
        option(group, key, **({"type": _window, "help": WINDOW_HELP} if key == "window"
                              else {}))


def metric_params(args) -> dict | None:
    """The ``metric_params`` of ``--metric``: the options of the table's metric_params rows
    that were given (None when none was; the library validates their values)."""
    params = {row.param: getattr(args, row.dest) for row in metric_rows()
              if getattr(args, row.dest, None) is not None}
    return params or None


def metric_words(args) -> list[str]:
    """The metric_params options given, as words of a printed command (``--window 0.1``):
    every digit where %g would print another number (the command must give the very value)."""
    return [word for row in metric_rows() if getattr(args, row.dest, None) is not None
            for word in (row.name, number(getattr(args, row.dest)))]


def refuse_metric_params(args) -> None:
    """A distance's parameter given with a metric that does not take it, or with no metric:
    refused by one rule, from the metric table (which metrics take it) and the option table
    (what it is)."""
    from .._metrics import REGISTRY, takes

    metric = args.metric
    for row in metric_rows():
        if getattr(args, row.dest, None) is None:
            continue
        if metric is None:
            takers = " or ".join(n for n, m in REGISTRY.items() if row.param in m.params)
            raise CLIError(f"{row.name} is {row.hint}: it goes with --metric {takers}.",
                           EXIT_USAGE)
        if not takes(metric, row.param):
            raise CLIError(f"{row.name} is {row.hint}; drop it with --metric {metric}.",
                           EXIT_USAGE)


def _window(text: str):
    """--window: a number (the model checks its range), 'auto', or windows to learn from."""
    if text.strip().lower() == "auto":
        return "auto"
    values = numbers(text, "expected a number, 'auto' or numbers separated by commas; got "
                     "{text!r}", lambda v: "," not in text or 0 <= v <= 1,
                     "each window of a list is a share of the length in [0, 1]; got {text!r}")
    return values if "," in text else values[0]


def _float_list(text: str) -> list:
    """A list of positive numbers (a grid of C or gamma)."""
    return list(numbers(text, "expected numbers separated by commas; got {text!r}",
                        lambda v: v > 0, "expected positive numbers; got {text!r}"))


#: the kernel's options (which feed its parameters: the table's rows)
_KERNEL_OPTIONS = ("kernel", "gamma", "coef0", "degree", "p", "rho")


def _resolve_defaults(args) -> None:
    """Kernel defaults that depend on --distances, and the options that do not go with it."""
    if isinstance(args.distances, str):
        if args.file or args.dataset:
            # compare's old form: --distances FILE were the k-NN distances
            print("indefsvm: warning: 'compare --distances FILE' for the k-NN distances is "
                  "deprecated; use --knn-distances FILE (--distances now says that the data "
                  "file holds distances).", file=sys.stderr)
            if args.knn_distances:
                raise CLIError("give the k-NN distances once: --knn-distances FILE.",
                               EXIT_USAGE)
            args.knn_distances, args.distances = args.distances, False
        else:
            args.file, args.distances = args.distances, True
    if not hasattr(args, "kernel"):
        return
    # what the user gave, before the defaults fill in: options that do not apply are refused
    args.explicit = given(args, *_KERNEL_OPTIONS)
    args.kernel = "rbf" if args.kernel is None else args.kernel
    args.degree = 3 if args.degree is None else args.degree
    metric = args.metric
    if bool(args.distances) or metric is not None:
        refuse(args, _NOT_OF_DISTANCES, flag=f"--metric {metric}" if metric else "--distances",
               data="series or strings" if metric else "distances")
        args.gamma = "median" if args.gamma is None else args.gamma
        args.coef0 = 1.0 if args.coef0 is None else args.coef0
        return
    refuse(args, _NOT_OF_FEATURES)
    args.gamma = "scale" if args.gamma is None else args.gamma
    args.coef0 = 0.0 if args.coef0 is None else args.coef0


#: a kernel of features' options, refused with distances (a matrix of them, or --metric)
_NOT_OF_DISTANCES = (
    Refusal(lambda s: s.scale,
            "--scale scales features; with {flag} the data are {data}: drop --scale."),
    Refusal(lambda s: s.kernel not in DISTANCE_KINDS,
            "--kernel {kernel} is not a kernel of distances; with {flag} use rbf "
            "(exp(-gamma d^2)), laplacian, linear, polynomial or tl1."),
    Refusal(lambda s: s.gamma in ("scale", "auto"),
            "--gamma {gamma} is for features; with {flag} give a number or 'median'."),
    Refusal(lambda s: s.pe_p is not None,
            "--p is a parameter of the pseudo_euclidean kernel of features, not of distances: "
            "drop --p."),
    Refusal(lambda s: s.rho is not None,
            "--rho is the radius of the tl1 kernel of features; with --distances the tl1 "
            "kernel is max(1 - gamma d, 0): give --gamma (1 / radius) or leave the median "
            "rule."),
)
#: the distance kernels' words, refused with features
_NOT_OF_FEATURES = (
    Refusal(lambda s: s.kernel == "laplacian",
            "--kernel laplacian is the distance kernel exp(-gamma d): use it with --distances "
            "and a distance matrix."),
    Refusal(lambda s: s.gamma == "median",
            "--gamma median is the median rule of distances: use it with --distances."),
)


def _refuse_feature_options(args, path: str) -> None:
    """Kernel options given with a precomputed kernel FILE: they would be ignored."""
    given = [o for o in args.explicit if o != "--p" or args.pe_p is not None]
    if given:
        raise CLIError(f"{' '.join(given)} {'does' if len(given) == 1 else 'do'} not apply to "
                       f"{path}, a precomputed kernel (the kernel is given, not computed): "
                       "drop the option, or give the features (a LIBSVM or CSV file), or "
                       "--distances if the file holds distances.", EXIT_USAGE)


#: the data readers' parameters in this command line's words (indefsvm.datasets._data_file)
OPTION_WORDS = load_file_words()


def refuse_format_options(args, source: str, what: str, reads: tuple[str, ...] = ()) -> None:
    """Options of another file format than ``source``'s (``what``: its kind; ``reads``: the
    options that format does read): refused, as they would be ignored (the readers' rule,
    :func:`indefsvm.datasets._data_file.refuse_format_params`, in the options' words)."""
    from ..datasets._data_file import refuse_format_params

    refuse_format_params({p: getattr(args, p, None) for p in OPTION_WORDS}, source, what,
                         tuple(p for p, o in OPTION_WORDS.items() if o in reads), OPTION_WORDS)


def _warn_unused_kernel_options(args) -> None:
    """Options the chosen kernel does not take (--coef0 with rbf, ...): said, not silent.
    What each kernel takes is the library's (``kernels.KERNELS``, the distance kernels'
    ``KIND_PARAMS``), the parameter each option feeds the table's."""
    from ..distances._kernel import KIND_PARAMS
    from ..kernels import KERNELS, canonical_name

    if args.distances:
        takes = KIND_PARAMS[DISTANCE_KINDS[args.kernel]]
    else:
        takes = KERNELS[canonical_name(args.kernel)][1]
    unused = [o for o in args.explicit
              if o != "--kernel" and param_of(o) not in takes]
    if unused:
        print(f"indefsvm: warning: {' '.join(unused)} {'does' if len(unused) == 1 else 'do'} "
              f"not apply to --kernel {args.kernel}; ignored.", file=sys.stderr)


def data_args(args, gamma=None) -> str:
    """The options that name the data of this command line (file or --dataset, --distances,
    labels and their reading, the kernel options given; ``gamma``, when given, in place of
    --gamma), quoted for a shell: what a command the output prints needs to run on the same
    data."""
    import shlex

    out = [shlex.quote(args.file)] if args.file else (
        ["--dataset", args.dataset] if args.dataset else ["FILE"])
    out += option_words(args, "labels", "label-column", "n-features", "zero-based", "scale")
    if args.distances is True:  # (compare's old --distances FILE aside)
        out.append("--distances")
    values = {"gamma": gamma} if gamma is not None and gamma != "median" else {}
    out += option_words(args, *_KERNEL_OPTIONS, values=values,
                        given_flags=set(args.explicit))
    return " ".join(out)
