"""The command line's refusals as data (``indefsvm.cli._rules``): the tables, the one
function that reads them, and the words layer around the library's checks."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re

import pytest

from indefsvm.cli._errors import EXIT_DATA, EXIT_USAGE, CLIError, in_options_words
from indefsvm.cli._options import OPTIONS, numbers
from indefsvm.cli._rules import Refusal, refuse, refuse_beside, refuse_untaken
from indefsvm.exceptions import ParameterError


def test_refuse_raises_the_first_rule_made_with_its_slots_filled():
    """The first row whose condition holds is said (not a later one), its slots read from
    the context over the settings, with the row's exit status."""
    args = argparse.Namespace(kernel="sigmoid", gamma=2.0)
    rules = (Refusal(lambda s: s.gamma > 5, "never"),
             Refusal(lambda s: s.kernel == "sigmoid", "--kernel {kernel} with {flag}"),
             Refusal(lambda s: True, "later"))
    with pytest.raises(CLIError) as info:
        refuse(args, rules, flag="--distances")
    assert str(info.value) == "--kernel sigmoid with --distances"
    assert info.value.code == EXIT_USAGE
    # the context is read before the settings (what the command learnt wins)
    with pytest.raises(CLIError) as info:
        refuse(args, (Refusal(lambda s: s.kernel == "rbf", "--kernel {kernel}"),), kernel="rbf")
    assert str(info.value) == "--kernel rbf"
    with pytest.raises(CLIError) as info:
        refuse(args, (Refusal(lambda s: True, lambda s: f"{s.gamma:g}!", EXIT_DATA),))
    assert (str(info.value), info.value.code) == ("2!", EXIT_DATA)
    refuse(args, rules[:1])  # no rule made: nothing said
    refuse(args, ())


def test_refuse_beside_names_the_first_option_given_and_its_fix():
    with pytest.raises(CLIError) as info:
        refuse_beside({"--distances": False, "--labels": "y.txt", "--dataset": "heart"},
                      "--metric", "FILE holds the series")
    assert str(info.value) == ("--labels does not go with --metric: FILE holds the series; "
                               "drop --labels.")
    refuse_beside({"--labels": None}, "--metric", "unused")


def test_refuse_untaken_reads_the_estimator_s_parameters():
    """An option is refused where the estimator's get_params() lacks its parameter, and not
    where it has it: the one rule, whatever the words."""
    from indefsvm.cli import build_parser

    args = build_parser().parse_args(["fit", "--dataset", "heart", "--cache-size", "50"])
    refuse_untaken(args, {"cache_size"}, ["cache-size"], lambda row: "never")
    with pytest.raises(CLIError) as info:
        refuse_untaken(args, {"C"}, ["cache-size"], lambda row: f"{row.name} no")
    assert str(info.value) == "--cache-size no"


def test_numbers_parses_a_list_and_says_the_text_given():
    assert numbers("1, 2,3", "wrong") == (1.0, 2.0, 3.0)
    assert numbers("0.5", "wrong") == (0.5,)
    for text in ("", "1,x", ","):
        with pytest.raises(argparse.ArgumentTypeError, match="^wrong "):
            numbers(text, "wrong {text!r}")
    with pytest.raises(argparse.ArgumentTypeError) as info:
        numbers("1,-2", "wrong", lambda v: v > 0, "bad {text!r}")
    assert str(info.value) == "bad '1,-2'"
    # braces in the words (the user's own text, quoted) are not format fields
    with pytest.raises(argparse.ArgumentTypeError) as info:
        numbers("x", "after a{=: {text!r}")
    assert str(info.value) == "after a{=: 'x'"


def test_in_options_words_says_a_library_error_as_the_options():
    with pytest.raises(CLIError) as info, in_options_words():
        raise ParameterError("must be >= 1; got 0.5.", param="cache_size")
    assert info.value.code == EXIT_USAGE and "--cache-size" in str(info.value)
    with pytest.raises(CLIError) as info, in_options_words(param_grid="--C-grid"):
        raise ParameterError("needs 2 folds.", param="param_grid")
    assert str(info.value).startswith("--C-grid")
    # another parameter than those asked for propagates, as does a plain ValueError
    with pytest.raises(ParameterError), in_options_words(only=("param_grid",)):
        raise ParameterError("must be > 0; got -1.0.", param="C")
    with pytest.raises(ValueError, match="two"), in_options_words():
        raise ValueError("two parameters")
    with pytest.raises(CLIError, match="^two parameters$"), in_options_words(rules=True):
        raise ValueError("two parameters\nmore")


def _tables():
    """Every table of refusals in the command line: (module, name, rows)."""
    import indefsvm.cli as cli

    for info in pkgutil.iter_modules(cli.__path__):
        module = importlib.import_module(f"indefsvm.cli.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, tuple) and value and all(
                    isinstance(r, Refusal) for r in value):
                yield info.name, name, value


def test_every_refusal_names_an_option_and_the_fix():
    """A fixed row's words name at least one option of the table and say what to do (the
    house's error line: what, where, the fix)."""
    flags = {flag for row in OPTIONS.values() for flag in row.flags}
    tables = list(_tables())
    assert len(tables) >= 8  # the commands' tables are found (not an empty walk)
    fix = re.compile(r"\b(drop|add|give|use|choose|leave)\b", re.IGNORECASE)
    for module, name, rows in tables:
        for rule in rows:
            if callable(rule.says):
                continue
            words = rule.says
            assert any(re.search(re.escape(f) + r"\b", words) for f in flags), (module, name,
                                                                                 words)
            assert fix.search(words), (module, name, words)


def test_an_option_without_the_one_it_goes_with_is_refused_from_the_table():
    """refuse_without: the options given without the option they go with, said in the
    words of the needed rows (their flag, metavar and hint), one rule for fit and compare."""
    from indefsvm.cli import build_parser
    from indefsvm.cli._errors import CLIError
    from indefsvm.cli._rules import refuse_without

    args = build_parser().parse_args(["fit", "--dataset", "heart", "--landmarks", "pivoted"])
    with pytest.raises(CLIError) as info:
        refuse_without(args, ("metric", "nystroem"), "window", "landmarks")
    assert str(info.value) == ("--landmarks goes with --metric (series or strings) or "
                               "--nystroem M (features); drop it or give --metric or "
                               "--nystroem.")
    args = build_parser().parse_args(["fit", "--dataset", "heart", "--landmarks", "pivoted",
                                      "--nystroem", "20"])
    refuse_without(args, ("metric", "nystroem"), "landmarks")  # one of them given: fine


