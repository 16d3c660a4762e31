"""Issue 43, item 4: one list of remedies. The names, their command-line spellings and where
each exists come from ``indefsvm._remedies``; the remedy table, ``NystroemSVC``, the explorer
and the command line read them from there, and no other module spells a list of its own."""

from __future__ import annotations

import ast
import pathlib

import indefsvm
from indefsvm import _remedies
from indefsvm.cli import build_parser
from indefsvm.explorer import _grid
from indefsvm.nystroem import NystroemSVC
from indefsvm.remedies import _methods

PACKAGE = pathlib.Path(indefsvm.__file__).parent
OPTIONS = {r.option for r in _remedies.NAMES} | {r.name for r in _remedies.NAMES}


def _choices(command: str, option: str) -> list:
    sub = build_parser()._subparsers._group_actions[0].choices[command]
    return next(a.choices for a in sub._actions if option in a.option_strings)


def test_every_reader_reads_the_one_list():
    assert tuple(m.name for m in _methods.TABLE) == tuple(r.name for r in _remedies.NAMES)
    remedies = _remedies.remedy_options()
    assert list(_choices("fit", "--remedy")) == list(remedies)
    assert list(_choices("report", "--remedy")) == list(remedies)
    assert _grid.REMEDIES == ("none",) + _remedies.drawn_options()
    landmark = set(_remedies.landmark_options())
    assert {r for r in landmark if NystroemSVC(remedy=r).remedy == r} == landmark
    try:
        NystroemSVC(remedy="shift").fit([[0.0], [1.0]], [0, 1])
    except ValueError as exc:
        assert all(r in str(exc) for r in landmark)
    else:
        raise AssertionError("NystroemSVC took remedy='shift'")
    # every option of the list is a --methods word of compare, and names its method
    from indefsvm.cli._compare import _methods as methods_of

    for r in _remedies.NAMES:
        assert methods_of(r.option) == [r.name]
    # the explorer draws each drawn fix with the table's own fix
    for option in _remedies.drawn_options():
        fix = _grid.remedy_fix(option)
        ref = _methods.BY_NAME[_remedies.BY_OPTION[option].name].fix({})
        assert type(fix) is type(ref) and fix.get_params() == ref.get_params()


def _literal_lists(tree):
    """(line, strings) of every tuple, list, set or dict display of string constants."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            elts = node.elts
        elif isinstance(node, ast.Dict):
            elts = [k for k in node.keys if k is not None] + node.values
        else:
            continue
        words = {e.value for e in elts if isinstance(e, ast.Constant)
                 and isinstance(e.value, str)}
        yield node.lineno, words


def test_no_module_spells_a_list_of_remedies_of_its_own():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "_remedies.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for line, words in _literal_lists(tree):
            named = words & OPTIONS - {"none"}
            if len(named) >= 2:
                found.append(f"{path.relative_to(PACKAGE)}:{line} {sorted(named)}")
    assert found == []
