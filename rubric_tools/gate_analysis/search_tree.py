"""The parse tree of a gate regex as `search_bound` walks it, prepared once per pattern:
each item with what does not depend on the text searched (its kind, its fewest characters,
its parts; whether the alternatives of a branch can start with the same character; whether
a repeat of one character class can be followed by what comes after it anywhere but at the
end of its run). `NoBound` is raised for what the bound does not cover: a back-reference,
a conditional, rounds that may match nothing, a tree deeper than `MAX_DEPTH`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from re import _constants as sre  # type: ignore[attr-defined]
from typing import Any

from rubric_tools.gate_analysis.regex_characters import (
    CharacterClass,
    all_disjoint,
    first_classes,
    item_class,
    starts,
)
from rubric_tools.gate_analysis.regex_shape import minimum_width

Item = tuple[Any, Any]  # (opcode, argument) as produced by re's parser

#: Deeper trees have no bound (the bound's walk, like any parser, recurses).
MAX_DEPTH = 40

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
_ONE_CHARACTER = (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN)


def prepared(items: Sequence[Item]) -> TreeSequence:
    """The tree of a whole pattern (`items`, its parsed sequence), prepared; what follows it
    is the end of the match. Raises `NoBound`."""
    return _sequence(items, 0, None)


class NoBound(Exception):
    """The tree holds something the bound does not cover."""


@dataclass(frozen=True)
class TreeSequence:
    """Items in a row, each with whether it repeats one character class that nothing able to
    follow it can start with (then only the end of its run goes on)."""

    items: tuple[TreeNode, ...]
    run_ends: tuple[bool, ...]
    #: No repeat inside: its cost is the same for every text, walked once (`search_bound._Walk.sequence`).
    fixed: bool = False


@dataclass(frozen=True)
class TreeNode:
    """One item of the tree, with everything about it that does not depend on the text."""

    kind: str  # "one" (a character), "anchor", "look", "atomic", "group", "branch", "repeat"
    width: int  # the fewest characters a match consumes
    parts: tuple[TreeSequence, ...] = ()  # the body, or the alternatives
    exclusive: bool = False  # alternatives that cannot start with the same character
    low: int = 0
    high: int = 0
    possessive: bool = False
    #: A repeat of whitespace alone (`\\s+`, ` *`): one round at most in normalized text.
    spaces: bool = False


_ONE = TreeNode("one", 1)
_ANCHOR = TreeNode("anchor", 0)


def _sequence(items: Sequence[Item], depth: int, follow: list[CharacterClass] | None) -> TreeSequence:
    """The prepared sequence; `follow`: the classes of what can come right after it."""
    if depth > MAX_DEPTH:
        raise NoBound
    # What can come right after each item: the starts of the items after it, worked out from
    # the end (`_starts` of each suffix), then, where those may all match nothing, `follow`.
    followers: list[list[CharacterClass] | None] = []
    after: tuple[list[CharacterClass], bool] | None = ([], True)  # the starts of the empty suffix
    for item in reversed(items):
        if after is None:
            followers.append(None)
        else:
            followers.append(after[0] if not after[1] else None if follow is None else [*after[0], *follow])
        after = _thenstarts(starts([item]), after)
    followers.reverse()
    nodes = tuple(_node(item, depth, found) for item, found in zip(items, followers, strict=True))
    run_ends = tuple(_ends_at_run_end(item, found) for item, found in zip(items, followers, strict=True))
    fixed = all(node.kind != "repeat" and all(part.fixed for part in node.parts) for node in nodes)
    return TreeSequence(nodes, run_ends, fixed)


def _thenstarts(
    first: tuple[list[CharacterClass], bool] | None, then: tuple[list[CharacterClass], bool] | None
) -> tuple[list[CharacterClass], bool] | None:
    """`_starts` of an item followed by more, from the starts of each."""
    if first is None:
        return None
    if not first[1]:
        return first
    return None if then is None else ([*first[0], *then[0]], then[1])


def _node(item: Item, depth: int, followers: list[CharacterClass] | None) -> TreeNode:
    op, av = item
    if op is sre.GROUPREF_EXISTS:
        raise NoBound  # a conditional: its work depends on what a group matched
    if op in _ONE_CHARACTER:
        return _ONE
    if op is sre.AT:
        return _ANCHOR
    width = minimum_width([item])
    if op in (sre.ASSERT, sre.ASSERT_NOT):
        return TreeNode("look", 0, (_sequence(av[1], depth + 1, None),))
    if op is sre.ATOMIC_GROUP:
        return TreeNode("atomic", width, (_sequence(av, depth + 1, followers),))
    if op is sre.SUBPATTERN:
        return TreeNode("group", width, (_sequence(av[3], depth + 1, followers),))
    if op is sre.BRANCH:
        alternatives = tuple(_sequence(alternative, depth + 1, followers) for alternative in av[1])
        return TreeNode("branch", width, alternatives, exclusive=_exclusive(av[1]))
    if op in _REPEATS:
        low, high, body = av
        if high > 1 and minimum_width(body) == 0:
            raise NoBound  # rounds that may match nothing
        # After a round: another round, or what follows the repeat.
        again = followers if high <= 1 else first_classes(body)
        after = None if again is None or followers is None else [*again, *followers] if high > 1 else followers
        parts = (_sequence(body, depth + 1, after),)
        spaces = len(body) == 1 and _spaces_only(item_class(body[0]))
        possessive = op is sre.POSSESSIVE_REPEAT
        return TreeNode("repeat", width, parts, low=low, high=high, possessive=possessive, spaces=spaces)
    raise NoBound  # a back-reference


def _spaces_only(found: CharacterClass | None) -> bool:
    """Whether every character of the class is whitespace (`str.isspace`, which is `re`'s
    `\\s` and what normalization folds: a normalized text has no two in a row)."""
    if found is None or found.negated or not found.categories <= {sre.CATEGORY_SPACE}:
        return False
    return all(key.isspace() for key in found.keys) and bool(found.keys or found.categories)


def _ends_at_run_end(item: Item, followers: list[CharacterClass] | None) -> bool:
    """Whether `item` repeats one character class that none of `followers` overlaps: then
    only the end of the run can be followed by a match of what comes after it."""
    op, av = item
    if op not in (sre.MAX_REPEAT, sre.MIN_REPEAT) or len(av[2]) != 1 or followers is None:
        return False
    repeated = item_class(av[2][0])
    return repeated is not None and all_disjoint([repeated], followers)


def _exclusive(alternatives: Sequence[Sequence[Item]]) -> bool:
    """Whether no two alternatives can start with the same character."""
    seen: list[list[CharacterClass]] = []
    for alternative in alternatives:
        found = first_classes(alternative)
        if found is None or any(not all_disjoint(found, other) for other in seen):
            return False
        seen.append(found)
    return True
