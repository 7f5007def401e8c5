"""An upper bound on the work of one `re` search, from the pattern's parse tree alone.

`re` (the reference engine) searches by backtracking: from each start position it tries
the ways the pattern can match, in order, until one succeeds. The number of steps that
takes on a text of n characters is at most (n + 1) × (the steps from one start when
every way fails), and the steps from one start are bounded by walking the tree:

- a one-character item, an anchor: 1 step, and 1 way to go on;
- a sequence `a b`: the steps of `a`, plus the steps of `b` once per way `a` can end;
- an alternation: the steps of every alternative; the ways add up, except when the
  alternatives cannot start with the same character (`(?:shall|will)`): then only one of
  them gets past its first character, and the ways are the most of any one;
- a repeat `x{m,k}`: at most min(k, n ÷ (x's shortest match)) rounds, each paying x's
  steps once per way the rounds before it ended; its ways add up over the round counts;
- a lookaround, an atomic group, a possessive repeat: its steps, and 1 way (they never
  backtrack into themselves);
- a repeat of one character class followed by something that cannot start with a
  character of that class (`\\s+shall`, `[a-z]+ `): only the end of the run can go on,
  so the ways of the repeat lead into the rest once, and fail at its first character
  otherwise.

`re`'s own shortcuts (a literal prefix, a first-character set) only ever skip some of
those steps. A tree with a back-reference or a conditional (whose work depends on what
a group matched), or nested deeper than `MAX_DEPTH`, has no bound here.

The search visits every start position, but a position where the pattern's first character
cannot match costs only the steps of failing there: where a match must start with one of a
few known characters, `SearchBound.steps` counts them in the text.

`rubric_tools.gate_analysis.plain_search` runs a gate's search on `re` without a time
limit only where this bound stays under `STEP_BUDGET`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from re import _constants as sre  # type: ignore[attr-defined]
from typing import Any

from rubric_tools.gate_analysis.regex_shape import _minimum_width
from rubric_tools.scoring.dialect import FOLD

Item = tuple[Any, Any]  # (opcode, argument) as produced by re's parser

#: Steps of one search we accept without a time limit: tens of milliseconds in `re` at worst.
STEP_BUDGET = 10_000_000
#: The longest text a bound is looked for (a longer one keeps the time limit).
MAX_LENGTH = 1 << 14
#: Deeper trees have no bound (the bound's walk, like any parser, recurses).
MAX_DEPTH = 40
_CAP = 1 << 62  # counts are capped so that huge ones stay cheap integers

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
_ONE_CHARACTER = (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN)
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


class _NoBound(Exception):
    """The tree holds something the bound does not cover."""


def _add(a: int, b: int) -> int:
    return min(a + b, _CAP)


def _times(a: int, b: int) -> int:
    return min(a * b, _CAP)


# ------------------------------------------------------------ characters


@dataclass(frozen=True)
class _Class:
    """The characters one item can consume, exactly: `keys` are characters keyed so that two
    characters `re` may match case-insensitively for each other share a key (an ASCII letter
    lowercased; other characters only when they have no case at all); `categories` are `\\s`,
    `\\w`, `\\d`. A negated class is every character outside its keys (it has no categories)."""

    keys: frozenset[str]
    categories: frozenset[Any] = frozenset()
    negated: bool = False

    def disjoint(self, other: _Class) -> bool:
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
_ANY = _Class(frozenset(), negated=True)


def _in_category(key: str, category: Any) -> bool:
    # An ASCII letter's other cases (K and the Kelvin sign, s and ſ) are word characters too.
    return _CATEGORY_PATTERNS[category].match(key) is not None


def _key(code: int) -> str:
    char = chr(code)
    if code < 128:
        return char.lower()
    if char.lower() == char.upper() == char and code not in FOLD and code not in _FOLDED_TO:
        return char  # no case: only itself
    raise _NoBound


def _class(item: Item) -> _Class | None:
    """The characters of a one-character item; None for any other item."""
    op, av = item
    try:
        if op is sre.LITERAL:
            return _Class(frozenset({_key(av)}))
        if op is sre.NOT_LITERAL:
            return _Class(frozenset({_key(av)}), negated=True)
        if op is sre.ANY:
            return _ANY  # every character but a newline, or (DOTALL) every character
        if op is sre.IN:
            return _set_class(av)
    except _NoBound:
        return _ANY  # a character we cannot key: say any character
    return None


def _set_class(members: Sequence[Item]) -> _Class:
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
            raise _NoBound
    return _Class(frozenset(keys), frozenset(categories), negated)


def _starts(items: Sequence[Item]) -> tuple[list[_Class], bool] | None:
    """The classes the first character of any match of `items` belongs to, and whether
    `items` can also match the empty string; None when that is not known."""
    found: list[_Class] = []
    for item in items:
        op, av = item
        if op in _ZERO_WIDTH:
            continue  # consumes nothing, and only ever rules characters out
        one = _class(item)
        if one is not None:
            return [*found, one], False
        inner: tuple[list[_Class], bool] | None
        if op is sre.SUBPATTERN:
            inner = _starts(av[3])
        elif op is sre.ATOMIC_GROUP:
            inner = _starts(av)
        elif op in _REPEATS:
            inner = _starts(av[2])
            if inner is not None and av[0] == 0:
                inner = (inner[0], True)
        elif op is sre.BRANCH:
            alternatives = [_starts(alternative) for alternative in av[1]]
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


def _first_classes(items: Sequence[Item]) -> list[_Class] | None:
    """The classes a match of `items` starts with, when every match consumes a character."""
    found = _starts(items)
    return found[0] if found is not None and not found[1] else None


def _all_disjoint(a: Sequence[_Class], b: Sequence[_Class]) -> bool:
    return all(x.disjoint(y) for x in a for y in b)


# ------------------------------------------------------------ the bound


@dataclass(frozen=True)
class _Sequence:
    """Items in a row, each with whether it repeats one character class that the items
    after it cannot start with (then only the end of its run goes on)."""

    items: tuple[_Node, ...]
    run_ends: tuple[bool, ...]
    width: int  # the fewest characters a match consumes


@dataclass(frozen=True)
class _Node:
    """One item of the tree, with everything about it that does not depend on the text."""

    kind: str  # "one" (a character), "anchor", "look", "atomic", "group", "branch", "repeat"
    width: int  # the fewest characters a match consumes
    parts: tuple[_Sequence, ...] = ()  # the body, or the alternatives
    exclusive: bool = False  # alternatives that cannot start with the same character
    low: int = 0
    high: int = 0
    possessive: bool = False


_ONE = _Node("one", 1)
_ANCHOR = _Node("anchor", 0)


def _sequence(items: Sequence[Item], depth: int) -> _Sequence:
    if depth > MAX_DEPTH:
        raise _NoBound
    items = list(items)
    nodes = tuple(_node(item, depth) for item in items)
    run_ends = tuple(_ends_at_run_end(item, items[index + 1 :]) for index, item in enumerate(items))
    return _Sequence(nodes, run_ends, _minimum_width(items))


def _node(item: Item, depth: int) -> _Node:
    op, av = item
    if op in _ONE_CHARACTER:
        return _ONE
    if op is sre.AT:
        return _ANCHOR
    width = _minimum_width([item])
    if op in (sre.ASSERT, sre.ASSERT_NOT):
        return _Node("look", 0, (_sequence(av[1], depth + 1),))
    if op is sre.ATOMIC_GROUP:
        return _Node("atomic", width, (_sequence(av, depth + 1),))
    if op is sre.SUBPATTERN:
        return _Node("group", width, (_sequence(av[3], depth + 1),))
    if op is sre.BRANCH:
        alternatives = tuple(_sequence(alternative, depth + 1) for alternative in av[1])
        return _Node("branch", width, alternatives, exclusive=_exclusive(av[1]))
    if op in _REPEATS:
        low, high, body = av
        parts = (_sequence(body, depth + 1),)
        return _Node("repeat", width, parts, low=low, high=high, possessive=op is sre.POSSESSIVE_REPEAT)
    raise _NoBound  # a back-reference, a conditional


def _ends_at_run_end(item: Item, rest: Sequence[Item]) -> bool:
    """Whether `item` repeats one character class and `rest` cannot start with one of its
    characters: then only the end of the run can be followed by a match of `rest`."""
    op, av = item
    if op not in (sre.MAX_REPEAT, sre.MIN_REPEAT) or len(av[2]) != 1 or not rest:
        return False
    repeated = _class(av[2][0])
    followers = _first_classes(rest)
    return repeated is not None and followers is not None and _all_disjoint([repeated], followers)


def _exclusive(alternatives: Sequence[Sequence[Item]]) -> bool:
    """Whether no two alternatives can start with the same character."""
    starts: list[list[_Class]] = []
    for alternative in alternatives:
        found = _first_classes(alternative)
        if found is None or any(not _all_disjoint(found, other) for other in starts):
            return False
        starts.append(found)
    return True


class _Walk:
    """The bound for texts of `n` characters."""

    def __init__(self, n: int) -> None:
        self.n = n

    def sequence(self, sequence: _Sequence) -> tuple[int, int]:
        """(steps from one position when every way fails, ways to end) of the items."""
        steps, ways = 0, 1
        items = sequence.items
        for index in range(len(items) - 1, -1, -1):
            item_steps, item_ways = self.node(items[index])
            if item_ways > 1 and sequence.run_ends[index]:
                # Only the end of the run goes on; every other end fails at the rest's start.
                failing = self.failing(items[index + 1 :])
                steps = _add(_add(item_steps, _times(item_ways, failing)), steps)
            else:
                steps = _add(item_steps, _times(item_ways, steps))
                ways = _times(item_ways, ways)
        return steps, ways

    def node(self, node: _Node) -> tuple[int, int]:
        kind = node.kind
        if kind in ("one", "anchor"):
            return 1, 1
        if kind == "group":
            steps, ways = self.sequence(node.parts[0])
            return _add(1, steps), ways
        if kind in ("look", "atomic"):
            return _add(1, self.sequence(node.parts[0])[0]), 1
        if kind == "branch":
            return self.branch(node)
        return self.repeat(node)

    def branch(self, node: _Node) -> tuple[int, int]:
        steps, ways, most = 1, 0, 0
        for alternative in node.parts:
            alternative_steps, alternative_ways = self.sequence(alternative)
            steps = _add(steps, alternative_steps)
            ways = _add(ways, alternative_ways)
            most = max(most, alternative_ways)
        return steps, most if node.exclusive else ways

    def repeat(self, node: _Node) -> tuple[int, int]:
        body = node.parts[0]
        body_steps, body_ways = self.sequence(body)
        low, high = node.low, node.high
        if body.width == 0 and high > 1:
            raise _NoBound  # rounds that may match nothing
        rounds = high if body.width == 0 else min(high, max(low, self.n // body.width))
        if body_ways == 1:  # one way through each round: a count of rounds is one way
            steps = _add(1, _times(rounds, _add(body_steps, 1)))
            ways = max(rounds - low + 1, 0)
        else:  # the ways multiply round by round (a few rounds reach the cap)
            steps, ways, reached = 1, 0, 1  # reached: the ways to have done `count` rounds
            for count in range(rounds + 1):
                if count >= low:
                    ways = _add(ways, reached)
                if count < rounds:
                    steps = _add(steps, _times(reached, _add(body_steps, 1)))
                    reached = _times(reached, body_ways)
                if steps >= _CAP:
                    break
        return steps, 1 if node.possessive else ways

    def failing(self, items: Sequence[_Node]) -> int:
        """Steps of `items` entered where their first character cannot match: every item
        before the first that must consume a character may match nothing, and is paid in
        full; that one fails at its first character."""
        steps, ways = 0, 1
        for node in items:
            if node.width > 0:
                return _add(steps, _times(ways, self._failing_node(node)))
            node_steps, node_ways = self.node(node)
            steps = _add(steps, _times(ways, node_steps))
            ways = _times(ways, node_ways)
        return steps

    def _failing_node(self, node: _Node) -> int:
        """Steps of an item that must consume a character, entered where it cannot: down to
        its first character (every alternative's), one step for each item on the way."""
        if node.kind == "one":
            return 1
        total = 1
        for part in node.parts:
            total = _add(total, self.failing(part.items))
        return total


class SearchBound:
    """An upper bound on the steps of one `re` search of one parsed pattern, text by text.

    From each start position the search takes at most the steps of the pattern's tree on a
    text of that length (`_Walk`). Where the pattern must start with one of a few known
    characters ("provider …", "(?:shall|will) …"), a position holding none of them costs
    only the steps of failing there, so the bound counts those characters in the text."""

    def __init__(self, tree: Any) -> None:
        items = list(tree)
        try:
            self._tree: _Sequence | None = _sequence(items, 0)
        except (_NoBound, RecursionError):
            self._tree = None
        self._starts = _countable(_first_classes(items))
        self._by_size: dict[int, tuple[int, int] | None] = {}

    def steps(self, text: str) -> int | None:
        """At most how many steps a search of `text` takes; None when there is no bound."""
        length = len(text)
        if length > MAX_LENGTH:
            return None
        per_start = self._per_start(length)
        if per_start is None:
            return None
        matching, failing = per_start
        everywhere = _times(length + 1, matching)
        if everywhere <= STEP_BUDGET or self._starts is None:
            return everywhere
        lowered = text.lower()  # an ASCII letter's other cases become it (the Kelvin sign: k)
        starts = sum(lowered.count(char) for char in self._starts)
        return _add(_times(starts, matching), _times(length + 1, failing))

    def _per_start(self, length: int) -> tuple[int, int] | None:
        """(steps from a position where the first character may match, from one where it
        cannot), for texts up to `length` rounded up to a power of four."""
        if self._tree is None:
            return None
        size = (max(length, 16).bit_length() + 1) // 2 * 2  # lengths up to a power of four
        if size not in self._by_size:
            walk = _Walk(1 << size)
            try:
                matching = walk.sequence(self._tree)[0]
                failing = walk.failing(self._tree.items) if self._starts is not None else matching
                self._by_size[size] = (matching, failing)
            except _NoBound:
                self._by_size[size] = None
        return self._by_size[size]


def _countable(classes: list[_Class] | None) -> str | None:
    """The characters to count in a lowercased text for the positions a match can start at
    (the letters `re` treats as another case of one of them included); None when the
    classes are not a few plain characters."""
    if classes is None or any(c.negated or c.categories for c in classes):
        return None
    keys = {key for c in classes for key in c.keys}
    keys |= {chr(code) for code, representative in FOLD.items() if chr(representative) in keys}
    return "".join(sorted(keys))
