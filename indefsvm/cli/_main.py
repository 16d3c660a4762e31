"""``main``: parse, run the command, and turn every user error into one line."""

from __future__ import annotations

import logging
import os
import sys
import warnings

from .._logging import logger
from ._args import _resolve_defaults
from ._errors import EXIT_INTERRUPTED, EXIT_PIPE, _error_line
from ._options import letters
from ._parser import build_parser, check_outputs, command_of

#: the resource tracker's words at the end of a run that Ctrl-C interrupted with worker
#: processes (compare --n-jobs 2): "leaked semlock objects to clean up", with install paths
_TRACKER_FILTER = "ignore:resource_tracker:UserWarning"


def _quiet_resource_tracker() -> None:
    """joblib's workers are stopped by a Ctrl-C before they unregister their semaphores; the
    resource tracker, a process of its own started with this environment, cleans them up
    at exit and warns about each -- a traceback-like line after 'indefsvm: interrupted'. It
    inherits this filter (set before any worker starts); the cleanup itself goes on."""
    import os

    have = os.environ.get("PYTHONWARNINGS", "")
    if _TRACKER_FILTER not in have:
        os.environ["PYTHONWARNINGS"] = ",".join(filter(None, [have, _TRACKER_FILTER]))


def main(argv: list[str] | None = None) -> int:
    """Run the command line.

    Parameters
    ----------
    argv : list of str, optional
        Arguments (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        Exit status: 0 ok, 1 data or numerical error, 2 usage error, 130 interrupted, 141
        output pipe closed.

    Examples
    --------
    >>> from indefsvm.cli import main
    >>> main(["fit", "--dataset", "heart", "-C", "-1", "--quiet"])
    2
    """
    from .._interrupt import new_run

    argv = sys.argv[1:] if argv is None else list(argv)
    debug = "--debug" in argv
    new_run()
    _quiet_resource_tracker()
    try:
        # the named command's options only (no command: none -- --help and --version)
        parser = build_parser(command_of(argv) or "")
        _refuse_unknown_options(parser, argv)
        args = _parse(parser, argv)
        _resolve_defaults(args)
        check_outputs(args)  # before the work, every command's
        if args.verbose:
            logging.getLogger("indefsvm").setLevel(logging.INFO)
        if debug:
            return args.func(args)
        with warnings.catch_warnings():
            # a warning no command caught for its summary is one line of ours, not
            # Python's "path:line: Category: ..." (the fits' own are said after the result)
            _SAID.clear()
            warnings.showwarning = _warning_line
            return args.func(args)
    except SystemExit as exc:  # --help and --version
        return int(exc.code or 0)
    except KeyboardInterrupt:
        from .._interrupt import say_interrupted

        say_interrupted()
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader went away (indefsvm ... | head): stop quietly, as cat and grep do;
        # stdout goes to devnull so that the interpreter's final flush does not complain
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # a stdout with no file descriptor (captured)
            pass
        return EXIT_PIPE
    except Exception as exc:
        if debug:
            raise
        message, code = _error_line(exc)
        logger.debug("error", exc_info=True)
        print(f"indefsvm: error: {message}", file=sys.stderr)
        return code


#: the warnings said in this command: each once (a fit per frame or per fold repeats its own,
#: and Python's registry of warnings said is reset by every catch_warnings inside)
_SAID: set = set()


def _warning_line(message, category, filename, lineno, file=None, line=None) -> None:
    from ._io import _say_warning

    text = _without_traceback(str(message))
    if text not in _SAID:
        _SAID.add(text)
        _say_warning(text)


def _without_traceback(text: str) -> str:
    """A warning that carries a traceback (scikit-learn's "Scoring failed ... Details:",
    "fits failed ... more details") as its first line and the exception's own line: the
    command line shows no traceback."""
    if "Traceback (most recent call last)" not in text:
        return text
    head = text.split("Traceback (most recent call last)", 1)[0].strip().splitlines()[0]
    head = head.split(" Details:")[0].rstrip(" :")
    last = [ln.strip() for ln in text.splitlines() if ln.strip()]
    error = next((ln for ln in reversed(last) if not ln.startswith(("File ", "^", "~"))
                  and ":" in ln), "")
    return f"{head} ({error})" if error else head


def _parse(parser, argv: list):
    """argparse's parse, with what is left over said in the command's words: its own help,
    and for a list option given as several words the form it takes (``--methods flip clip``
    was "unrecognized arguments: clip (see 'indefsvm --help')")."""
    import argparse

    from ._errors import EXIT_USAGE, CLIError

    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    _refuse_spaced_list(sub, argv)
    args, extras = parser.parse_known_args(argv)
    if not extras:
        return args
    own = sub.choices[args.command]
    hint = ""
    at = argv.index(extras[0]) if extras[0] in argv else -1
    if at >= 2:
        # the option whose value came just before the extra words
        before = next((argv[i] for i in range(at - 1, 0, -1) if argv[i].startswith("-")),
                      None)
        name, _, first = (before or "").partition("=")
        action = own._option_string_actions.get(name)
        values = ([first] if first else []) + [
            v for v in argv[argv.index(before) + 1:at + len(extras)]
            if not v.startswith("-")] if before else []
        hint = _list_form(name, action, values)
    hint = hint or _positional_output(args, argv, extras)
    raise CLIError(f"unrecognized arguments: {' '.join(extras)}{hint} (see 'indefsvm "
                   f"{args.command} --help')", EXIT_USAGE)


def _positional_output(args, argv: list, extras: list) -> str:
    """svm-train's and svm-predict's output file named after the input (``svm-train
    train model``, ``svm-predict test model output``): one word left over right after the
    data file is that output, which is an option here."""
    data = getattr(args, "data" if args.command == "predict" else "file", None)
    if (len(extras) != 1 or extras[0].startswith("-") or data is None
            or data not in argv or argv.index(data) + 1 != argv.index(extras[0])):
        return ""
    if args.command == "fit":
        return (f"; svm-train's second name is its model file: here --save {extras[0]} "
                "saves the model")
    if args.command == "predict":
        return (f"; svm-predict's third name is its output file: here --out {extras[0]} "
                "writes the predictions")
    return ""


def _list_form(name: str, action, values: list) -> str:
    """How a list option takes the ``values`` given as several words: one comma-separated
    word (--methods flip,clip), or the option once per item where it is repeated (explore
    --grid gamma=... --grid coef0=...); "" for an option that is no list."""
    import argparse

    if action is None or len(values) < 2:
        return ""
    if isinstance(action, argparse._AppendAction):
        return (f"; give {name} once for each: "
                + " ".join(f"{name} {v}" for v in values))
    if "," in str(action.metavar or "") or "comma-separated" in (action.help or ""):
        return f"; {name} takes one comma-separated list: {name} {','.join(values)}"
    return ""


def _refuse_spaced_list(sub, argv: list) -> None:
    """A list option given as several words (``--methods flip clip``) where the next word is
    one more item of it and no file: said before argparse takes that word for FILE (with
    --dataset: "argument FILE: not allowed with argument --dataset")."""
    import os

    from ._errors import EXIT_USAGE, CLIError

    command = command_of(argv)
    if command not in sub.choices:
        return
    known = sub.choices[command]._option_string_actions
    for i, token in enumerate(argv[:-1]):
        name, eq, first = token.partition("=")
        action = known.get(name)
        if action is None or action.type is None or not _list_form(name, action, ["a", "b"]):
            continue
        values = [first] if eq else argv[i + 1:i + 2]
        for word in argv[i + 1 + (not eq):]:
            if word.startswith("-") or os.path.exists(word):
                break
            try:
                action.type(word)
            except Exception:  # noqa: BLE001 - not an item of the list: FILE, or a typo
                break
            values.append(word)
        if len(values) > 1:
            raise CLIError(_list_form(name, action, values)[2:] + f" (see 'indefsvm "
                           f"{command} --help')", EXIT_USAGE)


#: svm-train's and svm-predict's one-letter options (LIBSVM's README) and this command line's
#: names of them, from the option table: a LIBSVM user types those first (-s, -q and -C are the
#: same here)
_LIBSVM_FLAGS = letters()
#: svm-train -t: its kernel types by number
_LIBSVM_KERNELS = {"0": "linear", "1": "polynomial", "2": "rbf", "3": "sigmoid"}


def _libsvm_word(name: str, value, known) -> tuple[str | None, str]:
    """LIBSVM's one-letter option ``name`` with ``value`` (the glued text or the next word;
    for -w the pair (glued class, next word)): (this command line's words for it, or None;
    a sentence that says it, or "")."""
    ours = _LIBSVM_FLAGS.get(name)
    tool = "svm-predict" if "--decision-values" in known else "svm-train"
    if name == "-b" and "--probability" not in known:
        return None, (f"; {tool}'s -b (probability estimates) has no counterpart here: an SVM "
                      "gives decision values (predict --decision-values); for calibrated "
                      "probabilities fit sklearn.calibration.CalibratedClassifierCV("
                      "indefsvm.IndefiniteSVC(...)) in Python")
    if ours is None or ours not in known:
        return None, ""
    if name == "-t" and value == "4":
        return None, ("; svm-train's -t 4 (precomputed kernel) is a kernel FILE here: "
                      "LIBSVM's 'label 0:ID 1:k(x, x_1) ...' lines are read as such, or a "
                      ".npy / text matrix with --labels")
    if name == "-w":
        label, weight = value
        if not label:
            return None, ""
        words = _class_weight_words([(label, weight or "W")])
        return words, f"; svm-train's -w{label} {weight or 'W'} is {words} here"
    if name == "-b":
        return "--probability", f"; {tool}'s -b 1 is --probability here"
    if name == "-t":
        value = _LIBSVM_KERNELS.get(value or "", "NAME")
    words = f"{ours} {value or 'VALUE'}"
    return words, f"; {tool}'s {name} is {ours} here ({words})"


def _class_weight_words(pairs: list) -> str:
    """svm-train's -wLABEL W options as one --class-weight (a first label with a minus sign
    after '=', or argparse takes it for an option)."""
    text = ",".join(f"{label}:{weight}" for label, weight in pairs)
    return f"--class-weight{'=' if text.startswith('-') else ' '}{text}"


def _libsvm_hint(argv: list, at: int, known) -> str:
    """The sentence for the LIBSVM option at ``argv[at]``; where the command holds more of
    them, all of them in this command line's words at once (a LIBSVM user's whole line,
    not one option a try)."""
    def word(i):
        token = argv[i]
        following = argv[i + 1] if i + 1 < len(argv) else None
        if token[:2] == "-w":
            return _libsvm_word("-w", (token[2:], following), known)
        return _libsvm_word(token[:2], token[2:] or following, known)

    ours, sentence = word(at)
    if ours is None:
        return sentence
    given, said, notes, weights = [], [], [], []
    for i, token in enumerate(argv):
        if (len(token) > 1 and token[0] == "-" and token[1].isalpha()
                and token[:2] in _LIBSVM_FLAGS and token[:2] not in known):
            words, other = word(i)
            if words is None and other and other not in notes:
                notes.append(other)  # -b with fit, -t 4: what stands in their place
            if words is not None:
                glued = len(token) > 2 and token[:2] != "-w"
                value = "" if glued or i + 1 >= len(argv) or words == "--probability" \
                    else " " + argv[i + 1]
                given.append(token + value)
                if token[:2] == "-w":
                    # every class's weight in the one --class-weight, where the first was
                    weights.append((token[2:], argv[i + 1] if i + 1 < len(argv) else "W"))
                    if len(weights) > 1:
                        continue
                said.append(words)
    if weights:
        said = [_class_weight_words(weights) if w.startswith("--class-weight") else w
                for w in said]
    if len(given) < 2:
        return sentence
    tool = "svm-predict" if "--decision-values" in known else "svm-train"
    return f"; {tool}'s {' '.join(given)} is {' '.join(said)} here" + "".join(notes)


#: what people call an output file, in this command line and in others (svm-train writes
#: its model to a positional name; -o is many tools' output)
_OUTPUT_NAMES = ("--out", "--output", "--save", "--model", "-o")


def _refuse_unknown_options(parser, argv: list) -> None:
    """Name an unknown ``--option`` first: argparse would otherwise take its value as the
    FILE argument and report that ("argument FILE: not allowed with argument --dataset")
    instead of the option the user mistyped."""
    import argparse

    from ._errors import EXIT_USAGE, CLIError

    sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)),
               None)
    command = command_of(argv)
    if sub is None or command not in sub.choices:
        return  # argparse's own message (an unknown command, --help, --version)
    import difflib

    known = sub.choices[command]._option_string_actions
    for token in argv[argv.index(command) + 1:]:
        if token == "--":
            break
        name = token.split("=", 1)[0]
        if name.startswith("--") and len(name) > 2:
            unknown = not any(option.startswith(name) for option in known)
        else:
            # a short option (-C, or -C10 with its value): not a negative number, not "-"
            name = token[:2]
            unknown = (len(token) > 1 and token[0] == "-" and token[1].isalpha()
                       and name not in known)
        if unknown:
            hint = ("; this command searches C: give --C-grid with one value (e.g. "
                    "--C-grid 10)" if name == "-C" and "--C-grid" in known else "")
            if not name.startswith("--") and not hint:
                # LIBSVM's one-letter options: its value glued on (-t2) or the next word
                hint = _libsvm_hint(argv, argv.index(token), known)
            if name.startswith("--no-") and "--" + name[5:] in known and not hint:
                # the negation of an option that is off by default ("did you mean
                # --search?" for compare --no-search said the opposite)
                hint = (f"; {command} runs without {'--' + name[5:]} unless it is given "
                        f"(the default): drop {name}")
            if name in _OUTPUT_NAMES and not hint:
                # another command's name of its output file ("did you mean --quiet?" for
                # fit --out said nothing useful)
                own = [o for o in ("--save", "--out") if o in known and o != name]
                hint = ("; " + " and ".join(
                    f"{o} {known[o].metavar or known[o].dest.upper()} writes "
                    + ("the model" if o == "--save" else "the predictions"
                       if command == "predict" else "the HTML page") for o in own) if own else
                        "; this command writes no file: redirect what it prints (> FILE)"
                        + (", or give --json for a machine's copy" if "--json" in known
                           else ""))
            elsewhere = [] if hint else [  # the others' options: every command's parser
                c for c, p in next(a for a in build_parser()._actions if isinstance(
                    a, argparse._SubParsersAction)).choices.items()
                if c != command and name in p._option_string_actions]
            if elsewhere:
                # another command's option: its name is right, the command is not ("did
                # you mean --tol?" for report --title sent the user elsewhere)
                where = (", ".join(elsewhere[:-1]) + " and " if len(elsewhere) > 1
                         else "") + elsewhere[-1]
                hint = f"; {name} is an option of {where}, not of {command}"
            # a typo's nearest name; below 0.75 the nearest is another word (--title and
            # --tol, --link and --init, --classes and --labels at 0.6)
            close = difflib.get_close_matches(name, [o for o in known if o.startswith("--")],
                                              n=1, cutoff=0.75)
            if close and not hint:
                hint = f"; did you mean {close[0]}?"
            raise CLIError(f"unrecognized option {name}{hint} (see 'indefsvm {command} "
                           "--help')", EXIT_USAGE)

