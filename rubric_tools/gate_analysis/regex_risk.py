"""Whether a gate regex may backtrack catastrophically in `re`, the reference engine's
matcher (`backtracking_risk`, a lint rule's question and the audit's bound on what it
writes): an unbounded repeat holding a part that can split the same text in many ways
(`(a+)+`, `(\\w+\\s?)*`, `(.*,)*`, `(a|a)*`), or a search tree on a failing attack text
over `regex_backtracking.WORK_LIMIT` (`(a|aa)+$`, `(?:a?){30}a{30}`).

Conservative, as `regex_shape` is: what the tree holds that cannot be reasoned about (a
back-reference, a lookaround's body) is taken as harmless.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from re import _constants as sre  # type: ignore[attr-defined]
from typing import Any

from rubric_tools.gate_analysis.regex_backtracking import WORK_LIMIT, backtracking_work
from rubric_tools.gate_analysis.regex_shape import (
    REPEATS,
    ZERO_WIDTH,
    Item,
    charset,
    flatten,
    minimum_width,
    parse,
    single_char_matches,
    walk,
)
from rubric_tools.gate_analysis.regex_tree import as_tuples

#: Outer repeats allowing fewer iterations than this cannot blow up badly.
OUTER_REPEAT_THRESHOLD = 5


def _is_variable(item: Item) -> bool:
    """Whether `item` can itself consume the same run of characters in several ways."""
    op, av = item
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
        low, high, _ = av
        return bool(high >= 2 and low < high)
    if op is sre.BRANCH:
        return any(_is_variable(child) for alternative in av[1] for child in flatten(alternative))
    return False  # possessive repeats and atomic groups never give characters back


def first_chars(items: Sequence[Item]) -> frozenset[str]:
    """Sample characters a match of the sequence `items` can start with."""
    found: frozenset[str] = frozenset()
    for item in items:
        op, av = item
        if op in ZERO_WIDTH:
            continue
        if op in REPEATS:
            found |= first_chars(av[2])
        elif op is sre.SUBPATTERN:
            found |= first_chars(av[3])
        elif op is sre.ATOMIC_GROUP:
            found |= first_chars(av)
        elif op is sre.BRANCH:
            found |= frozenset().union(*(first_chars(alternative) for alternative in av[1]))
        elif op is sre.GROUPREF_EXISTS:
            found |= first_chars(av[1]) | first_chars(av[2] or [])
        else:
            found |= charset(item)
        if minimum_width([item]) > 0:
            break
    return found


def _splits_ambiguously(body: list[Item]) -> bool:
    """A variable piece whose following text (going round the loop) can start with a
    character the piece can also take: the split point between them can move, so
    the same text divides in many ways."""
    for index, item in enumerate(body):
        if not _is_variable(item):
            continue
        chars = charset(item)
        for step in range(1, len(body) + 1):
            neighbour = body[(index + step) % len(body)]
            if neighbour[0] in ZERO_WIDTH:
                continue
            if first_chars([neighbour]) & chars:
                return True
            if minimum_width([neighbour]) > 0:
                break  # a mandatory neighbour starting differently pins the split point
    return False


def _duplicate_alternatives(body: list[Item]) -> bool:
    """An alternation with two alternatives matching the same text, as `(a|a)*`
    (which `re` factors into `a(?:|)`: two empty alternatives)."""
    for item in walk(body):
        if item[0] is sre.BRANCH:
            if sum(1 for alternative in item[1][1] if not list(alternative)) >= 2:
                return True
    return False


def _one_character_matches(op: Any, av: Any, char: str) -> bool:
    # One function for every pattern: the backtracking counts it shapes are shared by it.
    return bool(single_char_matches(op, av, char))


@lru_cache(maxsize=4096)
def backtracking_risk(pattern: str) -> str | None:
    """Why `pattern` may backtrack catastrophically in `re`, or None."""
    parsed = parse(pattern)
    if parsed is None:
        return None
    tree = as_tuples(parsed)  # read many times over: every tail, every attack period
    work = backtracking_work(tree, _one_character_matches)
    if work > WORK_LIMIT:
        return (
            f"on a run of repeated characters it cannot match, `re` explores over {WORK_LIMIT:,} ways "
            "to match it (the shape of `(a|aa)+$`, `(a+)+$` or `(?:a?){30}a{30}`)"
        )
    for item in walk(list(tree)):
        op, av = item
        if op not in (sre.MAX_REPEAT, sre.MIN_REPEAT) or av[1] < OUTER_REPEAT_THRESHOLD:
            continue
        body = flatten(av[2])
        if not body:
            continue
        if _splits_ambiguously(body):
            return (
                "a repeated group contains a quantified part that can divide the same text "
                "in many ways (the shape of `(a+)+` or `(\\w+\\s?)*`)"
            )
        if _duplicate_alternatives(body):
            return "a repeated alternation has two alternatives matching the same text (`(a|a)*`)"
    return None
