"""`re`'s parse tree with plain tuples for sequences, for the walks that read a tree many times.

The parser's sequences (`SubPattern`) run Python code on every index and every iteration;
the witness walks (the whole tree once per strategy) and the attack counting of
`regex_backtracking` (every tail, every period) read each item many times over. Only the
sequences those walks descend into are converted: a group's body, an alternation's
branches, a repeat's body, an atomic group's body, a conditional's two branches; and, for a
walk that goes through them item by item (`search_bound`), a lookaround's body. Class
members stay as parsed.
"""

from __future__ import annotations

from collections.abc import Sequence
from re import _constants as sre  # type: ignore[attr-defined]
from typing import Any

Item = tuple[Any, Any]  # (opcode, argument) as produced by re's parser

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


def as_tuples(items: Sequence[Item], *, lookarounds: bool = False) -> Sequence[Item]:
    """`items` (a parse tree or part of one) with every sequence the walks read a tuple,
    a lookaround's body too when `lookarounds`; as parsed where the tree is nested too deep
    to convert (as deep as the parser goes)."""
    try:
        return _tuples(items, lookarounds)
    except RecursionError:
        return items


def _tuples(items: Sequence[Item], lookarounds: bool) -> tuple[Item, ...]:
    converted: list[Item] = []
    for op, av in items:
        if op is sre.SUBPATTERN:
            av = (av[0], av[1], av[2], _tuples(av[3], lookarounds))
        elif op is sre.BRANCH:
            av = (av[0], [_tuples(branch, lookarounds) for branch in av[1]])
        elif op in _REPEATS:
            av = (av[0], av[1], _tuples(av[2], lookarounds))
        elif op is sre.ATOMIC_GROUP:
            av = _tuples(av, lookarounds)
        elif op is sre.GROUPREF_EXISTS:
            av = (av[0], _tuples(av[1], lookarounds), None if av[2] is None else _tuples(av[2], lookarounds))
        elif lookarounds and op in (sre.ASSERT, sre.ASSERT_NOT):
            av = (av[0], _tuples(av[1], lookarounds))
        converted.append((op, av))
    return tuple(converted)
