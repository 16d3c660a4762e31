"""A command's settings (``cli/_settings.Settings``): the parser's result, with every
attribute the commands read either an option of the command or a declared field."""

from __future__ import annotations

import argparse

import numpy as np
import pytest

import indefsvm as isvm
from indefsvm.cli import build_parser, main
from indefsvm.cli._settings import Settings


def _dests(command: str) -> set:
    sub = next(a for a in build_parser(command)._actions
               if isinstance(a, argparse._SubParsersAction))
    return {a.dest for a in sub.choices[command]._actions} | {"command", "func"}


def test_the_parser_returns_settings_with_the_values_of_options_a_command_lacks():
    args = build_parser().parse_args(["compare", "--dataset", "heart"])
    assert isinstance(args, Settings)
    # compare has no --svm-type, and --nystroem goes with --metric: the shared routines read these
    assert (args.svm_type, args.nystroem, args.explicit) == ("c-svc", None, ())
    fit = build_parser().parse_args(["fit", "--dataset", "heart", "-s", "nu-svc"])
    assert fit.svm_type == "nu-svc" and fit.C is None  # the command's own default


def test_replace_is_a_copy_with_changes():
    args = build_parser().parse_args(["fit", "--dataset", "heart", "-C", "2"])
    other = args.replace(C=5.0, metric="dtw")
    assert (other.C, other.metric, args.C, args.metric) == (5.0, "dtw", 2.0, None)
    assert isinstance(other, Settings)


@pytest.mark.parametrize("command, argv", [
    ("fit", ["--dataset", "heart", "--cv", "2"]),
    ("fit", ["{series}", "--metric", "dtw", "--window", "auto", "--cv", "0"]),
    ("compare", ["{series}", "--metric", "dtw", "--cv", "2", "--methods", "flip"]),
    ("report", ["--dataset", "heart", "--cv", "0", "--out", "{tmp}"]),
])
def test_a_command_writes_only_its_options_and_the_declared_fields(command, argv, tmp_path,
                                                                   monkeypatch, capsys):
    """No attribute appears on the settings as the command runs that the command's parser
    or Settings does not declare (the namespace was a blackboard of 25 such)."""
    import importlib

    from indefsvm.cli._parser import COMMANDS

    X, y = isvm.datasets.make_cbf(40, length=20, random_state=0)
    series = tmp_path / "s.txt"
    np.savetxt(series, np.c_[y, X], fmt="%.5f")
    room = importlib.import_module(f"indefsvm.cli.{COMMANDS[command].module}")
    seen = []
    real = room.run

    def spy(args):
        seen.append(args)
        return real(args)

    monkeypatch.setattr(room, "run", spy)
    words = [w.format(series=series, tmp=tmp_path) for w in argv]
    assert main([command, *words, "--quiet"]) == 0
    capsys.readouterr()
    (args,) = seen
    declared = set(Settings.__annotations__)
    assert set(vars(args)) - _dests(command) - declared == set()
