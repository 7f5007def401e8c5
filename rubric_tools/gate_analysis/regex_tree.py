"""`re`'s parse tree with plain tuples for sequences, for the walks that read a tree many times.

The parser's sequences (`SubPattern`) run Python code on every index and every iteration;
the witness walks (the whole tree once per strategy) and the attack counting of
`regex_backtracking` (every tail, every period) read each item many times over. Only the
sequences those walks descend into are converted: a group's body, an alternation's
branches, a repeat's body, an atomic group's body, a conditional's two branches. Lookaround
bodies and class members stay as parsed (the walks never go through them item by item).
"""

from __future__ import annotations

from collections.abc import Sequence
from re import _constants as sre  # type: ignore[attr-defined]
from typing import Any

Item = tuple[Any, Any]  # (opcode, argument) as produced by re's parser

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


def as_tuples(items: Sequence[Item]) -> Sequence[Item]:
    """`items` (a parse tree or part of one) with every sequence the walks read a tuple;
    as parsed where the tree is nested too deep to convert (as deep as the parser goes)."""
    try:
        return _tuples(items)
    except RecursionError:
        return items


def _tuples(items: Sequence[Item]) -> tuple[Item, ...]:
    converted: list[Item] = []
    for op, av in items:
        if op is sre.SUBPATTERN:
            av = (av[0], av[1], av[2], _tuples(av[3]))
        elif op is sre.BRANCH:
            av = (av[0], [_tuples(branch) for branch in av[1]])
        elif op in _REPEATS:
            av = (av[0], av[1], _tuples(av[2]))
        elif op is sre.ATOMIC_GROUP:
            av = _tuples(av)
        elif op is sre.GROUPREF_EXISTS:
            av = (av[0], _tuples(av[1]), None if av[2] is None else _tuples(av[2]))
        converted.append((op, av))
    return tuple(converted)
