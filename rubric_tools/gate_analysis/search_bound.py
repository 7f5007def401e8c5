"""An upper bound on the work of one `re` search, from the pattern's parse tree and the text.

`re` (the reference engine) searches by backtracking: from each start position it tries
the ways the pattern can match, in order, until one succeeds. The steps that takes from one
start position, when every way fails, are bounded by walking the tree (`_Walk`):

- a one-character item, an anchor: 1 step, and 1 way to go on;
- a sequence `a b`: the steps of `a`, plus the steps of `b` once per way `a` can end;
- an alternation: the steps of every alternative; the ways add up, except when the
  alternatives cannot start with the same character (`(?:shall|will)`): then only one of
  them gets past its first character, and the ways are the most of any one;
- a repeat `x{m,k}`: at most min(k, n ÷ (x's shortest match)) rounds completed and one more
  attempted, each paying x's steps once per way the rounds before it ended; its ways add
  up over the counts of rounds completed from m on (a run of whitespace is one character
  long in a normalized text);
- a lookaround, an atomic group, a possessive repeat: its steps, and 1 way (they never
  backtrack into themselves);
- a repeat of one character class that nothing able to follow it can start with (`\\s+shall`,
  `(the\\s+)?vendor`, `[a-z]+ `, across the ends of groups): only the end of the run can go
  on, so the repeat's ways lead into what follows once, and fail at its first character
  otherwise. Each item's steps are kept as a function of that failing cost (`_Cost`).

A position where no match can start costs only the steps of failing there. Where every
match starts with one of a few characters, or opens with one of a few words (after anchors,
an optional part first), `SearchBound.steps` counts where they are written in the text; the
search then costs at most that count times the steps from a start, plus the failing steps at
every position. `re`'s own shortcuts (a literal prefix, a first-character set) only ever
skip some of those steps. A tree with a back-reference or a conditional (whose work depends
on what a group matched), or nested deeper than `search_tree.MAX_DEPTH`, has no bound here.

The tree is prepared once per pattern (`search_tree`); the walk here reads it for each text.
`rubric_tools.gate_analysis.plain_search` runs a gate's search on `re` without a time
limit only where this bound stays under `STEP_BUDGET`.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from functools import cached_property
from re import _constants as sre  # type: ignore[attr-defined]
from typing import Any, NamedTuple

from rubric_tools.gate_analysis.regex_characters import (
    CharacterClass,
    first_classes,
)
from rubric_tools.gate_analysis.regex_tree import as_tuples
from rubric_tools.gate_analysis.search_tree import NoBound, TreeNode, TreeSequence, prepared
from rubric_tools.scoring.dialect import FOLD

Item = tuple[Any, Any]  # (opcode, argument) as produced by re's parser

#: Steps of one search we accept without a time limit: tens of milliseconds in `re` at worst.
STEP_BUDGET = 10_000_000
#: The longest text a bound is looked for (a longer one keeps the time limit).
MAX_LENGTH = 1 << 14
_CAP = 1 << 62  # counts are capped so that huge ones stay small integers


# ------------------------------------------------------------ the walk


class _Cost(NamedTuple):
    """The bound of an item (or a sequence) as a function of `c`, the steps of failing at
    the start of what follows it: `steps + steps_per_follow × c` from one position when
    every way fails, `ways` to end; and, entered where its first character (or, when it
    may match nothing, that of what follows) cannot match, `failing + failing_per_follow × c`.
    """

    steps: int
    steps_per_follow: int
    ways: int
    failing: int
    failing_per_follow: int


class _Walk:
    """The bound for texts of `n` characters (`normalized`: no two whitespace characters in
    a row, as `scoring.text.normalize` leaves a text). Python's integers do not overflow;
    every sequence's figures are capped so that they stay small."""

    def __init__(self, n: int, normalized: bool, fixed: dict[int, _Cost]) -> None:
        self.n = n
        self.normalized = normalized
        #: The costs of the tree's `fixed` sequences, by identity: shared by the walks of one
        #: tree for every length (the tree outlives them), most of a tree being words.
        self.fixed = fixed

    def sequence(self, sequence: TreeSequence) -> _Cost:
        if not sequence.fixed:
            return self._sequence(sequence)
        found = self.fixed.get(id(sequence))
        if found is None:
            found = self.fixed[id(sequence)] = self._sequence(sequence)
        return found

    def _sequence(self, sequence: TreeSequence) -> _Cost:
        # The empty rest: nothing to do, one way on; failing there is failing what follows.
        steps, per_follow, ways, failing, failing_per_follow = 0, 0, 1, 0, 1
        for node, run_end in zip(reversed(sequence.items), reversed(sequence.run_ends), strict=True):
            cost = self.node(node)
            # This node is followed by the rest: its `c` is failing the rest (then what follows).
            node_steps = cost.steps + cost.steps_per_follow * failing
            node_per_follow = cost.steps_per_follow * failing_per_follow
            if cost.ways > 1 and run_end:
                # Only the end of the run goes on; every other end fails at the rest's start.
                steps += node_steps + cost.ways * failing
                per_follow += node_per_follow + cost.ways * failing_per_follow
            else:
                steps = node_steps + cost.ways * steps
                per_follow = node_per_follow + cost.ways * per_follow
                ways *= cost.ways
            failing, failing_per_follow = (
                cost.failing + cost.failing_per_follow * failing,
                cost.failing_per_follow * failing_per_follow,
            )
        return _Cost(*(min(figure, _CAP) for figure in (steps, per_follow, ways, failing, failing_per_follow)))

    def node(self, node: TreeNode) -> _Cost:
        kind = node.kind
        if kind == "one":
            return _ONE_COST
        if kind == "anchor":
            return _ANCHOR_COST  # it may hold, and what follows fails
        if kind == "look":
            steps = 1 + self.sequence(node.parts[0]).steps  # its end is its success
            return _Cost(steps, 0, 1, steps, 1)
        if kind in ("group", "atomic"):
            body = self.sequence(node.parts[0])
            ways = body.ways if kind == "group" else 1
            return _Cost(1 + body.steps, body.steps_per_follow, ways, 1 + body.failing, body.failing_per_follow)
        if kind == "branch":
            return self.branch(node)
        return self.repeat(node)

    def branch(self, node: TreeNode) -> _Cost:
        costs = [self.sequence(alternative) for alternative in node.parts]
        ways = max(c.ways for c in costs) if node.exclusive else sum(c.ways for c in costs)
        return _Cost(
            1 + sum(c.steps for c in costs),
            sum(c.steps_per_follow for c in costs),
            ways,
            1 + sum(c.failing for c in costs),
            sum(c.failing_per_follow for c in costs),
        )

    def repeat(self, node: TreeNode) -> _Cost:
        body = self.sequence(node.parts[0])
        low, high = node.low, node.high
        width = _width(node.parts[0])
        # After a round comes another round (whose first character fails where the run-end
        # rule applies: `body.failing`, which a body of some width pays whatever follows) or
        # what follows the repeat.
        again = body.failing if high > 1 else 0
        round_steps = body.steps + body.steps_per_follow * again + 1
        # Rounds completed: no more than the text holds; one more is attempted and fails.
        completed = high if width == 0 else min(high, self.n // width)
        if node.spaces and self.normalized:
            completed = min(completed, 1)
        attempts = min(high, completed + 1)
        if body.ways == 1:  # one way through each round: a count of rounds is one way
            entered, ways = attempts, max(completed - low + 1, 0)
        else:  # the ways multiply round by round (a few rounds reach the cap)
            entered, ways, reached = 0, 0, 1  # reached: the ways to have completed `count` rounds
            for count in range(completed + 1):
                if count >= low:
                    ways += reached
                if count < attempts:
                    entered += reached
                    reached = min(reached * body.ways, _CAP)
                if entered >= _CAP:
                    break
        return _Cost(
            1 + entered * round_steps,
            entered * body.steps_per_follow,
            1 if node.possessive else ways,
            1 + body.failing + body.failing_per_follow * again,
            body.failing_per_follow + (1 if low == 0 else 0),
        )


_ONE_COST = _Cost(1, 0, 1, 1, 0)
_ANCHOR_COST = _Cost(1, 0, 1, 1, 1)


def _width(sequence: TreeSequence) -> int:
    return sum(node.width for node in sequence.items)


class SearchBound:
    """An upper bound on the steps of one `re` search of one parsed pattern, text by text.

    From each start position the search takes at most the steps of the pattern's tree on a
    text of that length (`_Walk`). Where the pattern must start with one of a few known
    characters ("provider …", "(?:shall|will) …"), a position holding none of them costs
    only the steps of failing there, so the bound counts those characters in the text;
    where it must start with one of a few words, a position where none is written costs
    only the steps of comparing them, so it counts where those words are written."""

    def __init__(self, tree: Any) -> None:
        self._tree: TreeSequence | None = None
        self._starts: str | None = None
        self._opening: tuple[list[str], int] | None = None
        try:
            items = as_tuples(tree, lookarounds=True)  # indexing a parser `SubPattern` runs Python code
            self._tree = prepared(items)
        except (NoBound, RecursionError):
            return
        self._starts = _countable(first_classes(items))
        self._opening = _opening(items)
        self._by_size: dict[int, tuple[int, int] | None] = {}
        self._fixed: dict[int, _Cost] = {}

    @cached_property
    def _words(self) -> tuple[re.Pattern[str], int] | None:
        """`_opening_words`, compiled when a text first needs them: most bounds never do."""
        return None if self._opening is None else _opening_words(*self._opening)

    @property
    def bounded(self) -> bool:
        """Whether the tree has a bound at all (no back-reference, conditional, or deeper tree)."""
        return self._tree is not None

    def steps(self, text: str, *, normalized: bool = False) -> int | None:
        """At most how many steps a search of `text` (or of any part of it) takes; None when
        there is no bound. `normalized`: the text is as `scoring.text.normalize` leaves it."""
        length = len(text)
        if length > MAX_LENGTH:
            return None
        per_start = self._per_start(length, normalized)
        if per_start is None:
            return None
        matching, failing = per_start
        everywhere = (length + 1) * matching
        if everywhere <= STEP_BUDGET:
            return everywhere
        if self._starts is not None:
            lowered = text.lower()  # an ASCII letter's other cases become it (the Kelvin sign: k)
            starts = sum(lowered.count(char) for char in self._starts)
            everywhere = min(everywhere, starts * matching + (length + 1) * failing)
        if everywhere > STEP_BUDGET and self._words is not None:
            written, comparing = self._words
            everywhere = min(everywhere, len(written.findall(text)) * matching + (length + 1) * comparing)
        return everywhere

    def _per_start(self, length: int, normalized: bool) -> tuple[int, int] | None:
        """(steps from a position where the first character may match, from one where it
        cannot), for texts up to `length` rounded up to a power of four."""
        if self._tree is None:
            return None
        size = (max(length, 16).bit_length() + 1) // 2 * 2  # lengths up to a power of four
        key = size if not normalized else -size
        if key not in self._by_size:
            try:
                cost = _Walk(1 << size, normalized, self._fixed).sequence(self._tree)
                self._by_size[key] = (cost.steps, cost.failing if self._starts is not None else cost.steps)
            except NoBound:
                self._by_size[key] = None
        return self._by_size[key]


def _opening_words(words: list[str], failing: int) -> tuple[re.Pattern[str], int]:
    """Where a match can start, when every match opens with one of a few words (`_opening`):
    a pattern that finds each position where one is written, and the steps of failing at
    any other position (the anchors and groups on the way, one per letter compared)."""
    return re.compile("(?=" + "|".join(map(re.escape, words)) + ")", re.IGNORECASE), failing


def _opening(items: Sequence[Item]) -> tuple[list[str], int] | None:
    anchors = 0
    while anchors < len(items) and items[anchors][0] is sre.AT:
        anchors += 1
    if anchors == len(items):
        return None
    op, av = items[anchors]
    if op is sre.LITERAL:
        letters = [chr(code) for _, code in itertools.takewhile(lambda item: item[0] is sre.LITERAL, items[anchors:])]
        return ["".join(letters)], anchors + len(letters)
    if op is sre.SUBPATTERN:
        inner = _opening(av[3])
        return None if inner is None else (inner[0], anchors + 1 + inner[1])
    if op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and av[1] == 1:
        # An optional part first ("(the )?vendor"): it opens the match, or what follows does.
        inner = _opening(av[2])
        after = _opening(items[anchors + 1 :]) if av[0] == 0 else ([], 0)
        if inner is None or after is None:
            return None
        return [*inner[0], *after[0]], anchors + 1 + inner[1] + after[1]
    if op is sre.BRANCH:
        words: list[str] = []
        failing = anchors + 1
        for alternative in av[1]:
            opening = _opening(alternative)
            if opening is None:
                return None
            words += opening[0]
            failing += opening[1]
        return words, failing
    return None


def _countable(classes: list[CharacterClass] | None) -> str | None:
    """The characters to count in a lowercased text for the positions a match can start at
    (the letters `re` treats as another case of one of them included); None when the
    classes are not a few plain characters."""
    if classes is None or any(c.negated or c.categories for c in classes):
        return None
    keys = {key for c in classes for key in c.keys}
    keys |= {chr(code) for code, representative in FOLD.items() if chr(representative) in keys}
    return "".join(sorted(keys))
