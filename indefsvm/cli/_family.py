"""``fit --svm-type``: the SVMs of LIBSVM's family on the command line (``svm-train -s 0 ...
4``) -- the option, what goes with each type, the estimator's class and parameters, and
what a fit of each type is scored by (accuracy, or a regression's error and R^2)."""

from __future__ import annotations

import argparse

import numpy as np

from ._options import given, option, smo_options
from ._rules import Refusal, refuse, refuse_untaken

#: --svm-type: LIBSVM's names, in the order of its -s numbers, and the estimators
SVM_TYPES = {"c-svc": "IndefiniteSVC", "nu-svc": "IndefiniteNuSVC",
             "one-class": "IndefiniteOneClassSVM", "epsilon-svr": "IndefiniteSVR",
             "nu-svr": "IndefiniteNuSVR"}

def _type_options() -> tuple[str, ...]:
    """The options whose parameter some types take and others do not (the SMO solver's
    rows among them): each refused, by one rule, where the type's estimator does not take
    it (its get_params())."""
    return ("C", "nu", "epsilon", "class-weight", *smo_options())


def svm_type(text: str) -> str:
    """--svm-type: a name of :data:`SVM_TYPES`, or LIBSVM's number (``-s 3`` is
    epsilon-SVR)."""
    word = text.strip().lower()
    names = list(SVM_TYPES)
    if word.isdigit() and int(word) < len(names):
        return names[int(word)]
    if word in SVM_TYPES:
        return word
    raise argparse.ArgumentTypeError(
        f"expected one of {', '.join(names)} (or LIBSVM's -s 0 ... 4); got {text!r}")


def add_args(p: argparse.ArgumentParser) -> None:
    """--svm-type, --nu, --epsilon (fit)."""
    g = p.add_argument_group(
        "LIBSVM's family", "the SVM that fit trains, as svm-train -s: the same SMO on the same "
        "kernels (features, a kernel FILE, or --distances)")
    option(g, "svm-type", type=svm_type)
    option(g, "nu", type=float)
    option(g, "epsilon", type=float)


def classifies(args) -> bool:
    return args.svm_type in ("c-svc", "nu-svc")


def regression(args) -> bool:
    return args.svm_type in ("epsilon-svr", "nu-svr")


def has_C(args) -> bool:
    return args.svm_type in ("c-svc", "epsilon-svr", "nu-svr")


def check(args) -> None:
    """What goes with --svm-type, before any file is read; the defaults of --nu,
    --epsilon and --cv filled in."""
    kind = args.svm_type
    refuse_options_of_others(args, kind)
    args.nu = 0.5 if args.nu is None else args.nu
    args.epsilon = 0.1 if args.epsilon is None else args.epsilon
    one_class = kind == "one-class"
    if args.cv is None:
        args.cv = 0 if one_class else 5
    if kind == "c-svc":
        return
    refuse(args, _NOT_C_SVC)


#: what the family's other types do not take: a one-class SVM's scores, a classifier's options
_NOT_C_SVC = (
    Refusal(lambda s: s.svm_type == "one-class" and s.cv > 1,
            "--cv does not apply to one-class: an outlier detector has no labels to be scored "
            "by (fit it on normal data; 'indefsvm predict' says which new samples are "
            "outliers); drop --cv."),
) + tuple(
    Refusal(when, f"{opt} trains a classifier (C-SVC); --svm-type {{svm_type}} runs the SMO on "
                  "the kernel as it is (features, a kernel FILE or --distances): drop "
                  f"{opt}.")
    for opt, when in (("--remedy", lambda s: s.remedy is not None),
                      ("--nystroem", lambda s: s.nystroem is not None),
                      ("--metric", lambda s: s.metric is not None),
                      ("--device cuda", lambda s: s.device == "cuda")))


def _takes(kind: str) -> set[str]:
    from .. import svm

    return set(getattr(svm, SVM_TYPES[kind])().get_params())


def refuse_options_of_others(args, kind: str) -> None:
    """An option given whose parameter the estimator of ``kind`` does not take, refused with
    the types that do take it (read from the estimators, not listed here)."""
    takes = _takes(kind)
    other = "" if given(args, "svm-type") else ", or give --svm-type"

    def says(row) -> str:
        takers = [k for k in SVM_TYPES if row.param in _takes(k)]
        which = f"{', '.join(takers[:-1])} and {takers[-1]}" if len(takers) > 1 else takers[0]
        return (f"{row.name} does not apply to {kind}: {which} "
                f"{'take' if len(takers) > 1 else 'takes'} it"
                f"{f' ({row.hint})' if row.hint else ''}; drop {row.name}{other}.")

    refuse_untaken(args, takes, _type_options(), says)


def svm_class(args):
    """The estimator class of --svm-type."""
    from .. import svm

    return getattr(svm, SVM_TYPES[args.svm_type])


def params(args, smo: dict) -> dict:
    """The SMO's options that the class of --svm-type takes, with its --nu / --epsilon."""
    cls = svm_class(args)
    takes = set(cls().get_params())
    out = {k: v for k, v in smo.items() if k in takes}
    out.update({k: getattr(args, k) for k in ("nu", "epsilon") if k in takes})
    return out


def described(args) -> str:
    """The type's own parameters, for the model line: C=..., nu=..., epsilon=..."""
    parts = [f"C={args.C:g}"] if has_C(args) else []
    if args.svm_type in ("nu-svc", "one-class", "nu-svr"):
        parts.append(f"nu={args.nu:g}")
    if args.svm_type == "epsilon-svr":
        parts.append(f"epsilon={args.epsilon:g}")
    return ", ".join(parts)


def training_scores(model, X, y) -> dict:
    """What a fitted model scores on its training data, by the summary's keys: a
    classifier's accuracy; a regression's mean squared error and R^2 (the coefficient of
    determination, scikit-learn's score); a one-class SVM's share of training samples it
    calls outliers (about nu)."""
    from sklearn.base import is_classifier, is_regressor

    if is_classifier(model):
        return {"training_accuracy": float(model.score(X, y))}
    pred = np.asarray(model.predict(X), dtype=float)
    if is_regressor(model):
        return {"training_mse": float(np.mean((pred - y) ** 2)),
                "training_r2": float(model.score(X, y))}
    return {"training_outliers": float(np.mean(pred == -1))}


def score_lines(scores: dict) -> list[str]:
    """:func:`training_scores` for people."""
    if "training_accuracy" in scores:
        return [f"training accuracy  {100 * scores['training_accuracy']:.2f} %"]
    if "training_mse" in scores:
        return [f"training MSE       {scores['training_mse']:.6g}",
                f"training R^2       {scores['training_r2']:.4f}"]
    return [f"outliers           {100 * scores['training_outliers']:.2f} % of the training "
            "samples (predicted -1; nu bounds it)"]
