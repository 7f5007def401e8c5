"""Which characters a part of a parsed regex can consume or start with, exactly enough to
say that two parts can never meet on the same character (`search_bound`'s alternatives that
exclude each other, and runs that only their end can leave).

A class is kept only where it can be said exactly under `re.IGNORECASE`: ASCII characters
(a letter stands for all its cases: `K` and the Kelvin sign are `k`, `ſ` is `s`), other
characters that have no case, and the categories `\\s`, `\\w`, `\\d`. Anything else is
said to be any character at all, which meets every class.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from re import _constants as sre  # type: ignore[attr-defined]
from typing import Any

from rubric_tools.scoring.dialect import FOLD

Item = tuple[Any, Any]  # (opcode, argument) as produced by re's parser

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
#: Categories no character belongs to two of (no space is a word character or a digit).
_DISJOINT_CATEGORIES = frozenset(
    {
        frozenset({sre.CATEGORY_SPACE, sre.CATEGORY_WORD}),
        frozenset({sre.CATEGORY_SPACE, sre.CATEGORY_DIGIT}),
    }
)
_CATEGORY_PATTERNS = {
    sre.CATEGORY_SPACE: re.compile(r"\s"),
    sre.CATEGORY_WORD: re.compile(r"\w"),
    sre.CATEGORY_DIGIT: re.compile(r"\d"),
}
#: The letters `re` folds others onto (`dialect.FOLD`'s values): they have more than one case.
_FOLDED_TO = frozenset(FOLD.values())


class _Unkeyable(Exception):
    """A character whose cases cannot be told here."""


@dataclass(frozen=True)
class CharacterClass:
    """The characters one item can consume, exactly: `keys` are characters keyed so that two
    characters `re` may match case-insensitively for each other share a key (an ASCII letter
    lowercased; other characters only when they have no case at all); `categories` are `\\s`,
    `\\w`, `\\d`. A negated class is every character outside its keys (it has no categories)."""

    keys: frozenset[str]
    categories: frozenset[Any] = frozenset()
    negated: bool = False

    def disjoint(self, other: CharacterClass) -> bool:
        """Whether no character belongs to both."""
        if self.negated and other.negated:
            return False
        if self.negated or other.negated:
            positive, negative = (other, self) if self.negated else (self, other)
            return not positive.categories and positive.keys <= negative.keys
        if self.keys & other.keys:
            return False
        if any(_in_category(key, category) for key in self.keys for category in other.categories):
            return False
        if any(_in_category(key, category) for key in other.keys for category in self.categories):
            return False
        return all(frozenset({a, b}) in _DISJOINT_CATEGORIES for a in self.categories for b in other.categories)


#: Any character at all (a class that overlaps every other).
ANY_CHARACTER = CharacterClass(frozenset(), negated=True)


def _in_category(key: str, category: Any) -> bool:
    # An ASCII letter's other cases (K and the Kelvin sign, s and ſ) are word characters too.
    return _CATEGORY_PATTERNS[category].match(key) is not None


def _key(code: int) -> str:
    char = chr(code)
    if code < 128:
        return char.lower()
    if char.lower() == char.upper() == char and code not in FOLD and code not in _FOLDED_TO:
        return char  # no case: only itself
    raise _Unkeyable


def item_class(item: Item) -> CharacterClass | None:
    """The characters of a one-character item; None for any other item."""
    op, av = item
    try:
        if op is sre.LITERAL or op is sre.NOT_LITERAL:
            return _literalitem_class(av, op is sre.NOT_LITERAL)
        if op is sre.ANY:
            return ANY_CHARACTER  # every character but a newline, or (DOTALL) every character
        if op is sre.IN:
            return _setitem_class(av)
    except _Unkeyable:
        return ANY_CHARACTER  # a character we cannot key: say any character
    return None


@lru_cache(maxsize=1024)
def _literalitem_class(code: int, negated: bool) -> CharacterClass:
    return CharacterClass(frozenset({_key(code)}), negated=negated)


def _setitem_class(members: Sequence[Item]) -> CharacterClass:
    negated = bool(members) and members[0][0] is sre.NEGATE
    keys: set[str] = set()
    categories: set[Any] = set()
    for op, av in members[1:] if negated else members:
        if op is sre.LITERAL:
            keys.add(_key(av))
        elif op is sre.RANGE and av[1] < 128:
            keys.update(chr(code).lower() for code in range(av[0], av[1] + 1))
        elif op is sre.CATEGORY and av in _CATEGORY_PATTERNS and not negated:
            categories.add(av)
        else:
            raise _Unkeyable
    return CharacterClass(frozenset(keys), frozenset(categories), negated)


def starts(items: Sequence[Item]) -> tuple[list[CharacterClass], bool] | None:
    """The classes the first character of any match of `items` belongs to, and whether
    `items` can also match the empty string; None when that is not known."""
    found: list[CharacterClass] = []
    for item in items:
        op, av = item
        if op in _ZERO_WIDTH:
            continue  # consumes nothing, and only ever rules characters out
        one = item_class(item)
        if one is not None:
            return [*found, one], False
        inner: tuple[list[CharacterClass], bool] | None
        if op is sre.SUBPATTERN:
            inner = starts(av[3])
        elif op is sre.ATOMIC_GROUP:
            inner = starts(av)
        elif op in _REPEATS:
            inner = starts(av[2])
            if inner is not None and av[0] == 0:
                inner = (inner[0], True)
        elif op is sre.BRANCH:
            alternatives = [starts(alternative) for alternative in av[1]]
            if any(a is None for a in alternatives):
                return None
            inner = ([c for a in alternatives if a for c in a[0]], any(a[1] for a in alternatives if a))
        else:
            return None
        if inner is None:
            return None
        found += inner[0]
        if not inner[1]:
            return found, False
    return found, True


def first_classes(items: Sequence[Item]) -> list[CharacterClass] | None:
    """The classes a match of `items` starts with, when every match consumes a character."""
    found = starts(items)
    return found[0] if found is not None and not found[1] else None


def all_disjoint(a: Sequence[CharacterClass], b: Sequence[CharacterClass]) -> bool:
    return all(x.disjoint(y) for x in a for y in b)
