"""How much work `re`'s backtracking does on a failing search, estimated on the parse tree.

`re` (the reference engine) tries the ways a pattern can match in order and gives up
only after the last one. For a pattern such as `(a|aa)+$`, `(?:a?){30}a{30}` or
`(a+)+$`, the number of ways to match a run of the same characters grows
exponentially, and a search on a few dozen characters runs for minutes.

The estimate counts the nodes of `re`'s search tree on an attack text: a short
period `w` repeated (`aaaa…`, `a a a …`) and then a character nothing matches, for
every tail of the pattern (so a literal prefix such as `credits are (a+)+` cannot
hide the loop). Counting is exact for the tree as parsed, by dynamic programming
over (phase in the period, characters consumed); zero-width assertions are assumed
to pass except end-of-text ones, which the final character defeats. A pattern is
flagged when some attack text that the pattern cannot match costs more than
`WORK_LIMIT` steps. Patterns without a repeat around another variable-width part
cannot be catastrophic and are not analysed.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from re import _constants as sre  # type: ignore[attr-defined]
from typing import Any

Item = tuple[Any, Any]
Table = list[list[int]]  # [phase][characters consumed] -> number of ways

#: Longest run of the attack period considered.
ATTACK_LENGTH = 32
#: Search-tree nodes above this on one attack text of ATTACK_LENGTH characters are
#: catastrophic: growth that steep costs minutes on ordinary submission lengths.
WORK_LIMIT = 1_000_000
_CAP = 10**15  # counts are capped so huge ones stay cheap integers
#: Node tables already worked out, by (character test, period, the node's shape): the audit
#: checks hundreds of candidate patterns built from the same pieces (a window, a list of
#: words). Emptied when it holds this many.
_SHARED_LIMIT = 5_000  # about 13 MB
_shared: dict[tuple[Any, ...], tuple[Table, Table]] = {}

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
_VARIABLE = (*_REPEATS, sre.BRANCH, sre.GROUPREF_EXISTS)
_BASE_PERIODS = ("a", "0", " ", ".", ",", "-", "a ", "a.", "as")


class _Counter:
    """Full and partial match counts of every node, for one attack period."""

    def __init__(self, period: str, matches: Callable[[Any, Any, str], bool]) -> None:
        self.period = period
        self.size = len(period)
        self.matches = matches
        self._nodes: dict[int, tuple[Table, Table]] = {}
        self._shapes: dict[int, Any] = {}

    def zero(self) -> Table:
        return [[0] * (ATTACK_LENGTH + 1) for _ in range(self.size)]

    def unit(self) -> Table:
        table = self.zero()
        for row in table:
            row[0] = 1
        return table

    def then(self, first: Table, second: Table) -> Table:
        """Ways to match `first` then `second` (a convolution over lengths, phases followed)."""
        if not any(map(any, first)) or not any(map(any, second)):
            return self.zero()  # half the calls: a part that cannot match, or no ways left
        result: Table = []
        for phase in range(self.size):
            totals = [0] * (ATTACK_LENGTH + 1)
            for used, ways in enumerate(first[phase]):
                if not ways:
                    continue
                following = second[(phase + used) % self.size]
                for more in range(ATTACK_LENGTH + 1 - used):
                    if following[more]:
                        totals[used + more] += ways * following[more]
            result.append(_capped(totals))
        return result

    def add(self, *tables: Table) -> Table:
        if not tables:
            return self.zero()
        if len(tables) == 2:  # the common case, without a tuple per cell
            first, second = tables
            if not any(map(any, first)):
                return second  # a running total's first term (tables are never changed once made)
            return [_capped(list(map(operator.add, x, y))) for x, y in zip(first, second, strict=True)]
        return [_capped([sum(cells) for cells in zip(*rows, strict=True)]) for rows in zip(*tables, strict=True)]

    def node(self, item: Item) -> tuple[Table, Table]:
        """(full, tried): ways `item` matches exactly L characters, and search-tree
        nodes spent inside it for each L characters consumed (failed attempts included).
        Remembered for the item, and for its shape across patterns (the tables depend on
        nothing else); never changed once made."""
        key = id(item)
        found = self._nodes.get(key)
        if found is None:
            shared_key = (self.matches, self.period, self.shape(item))
            found = _shared.get(shared_key)
            if found is None:
                found = self._node(item)
                if len(_shared) >= _SHARED_LIMIT:
                    _shared.clear()
                _shared[shared_key] = found
            self._nodes[key] = found
        return found

    def shape(self, item: Item) -> Any:
        """What the tables of `item` depend on, as a hashable value: its operators and
        arguments with every sequence as a tuple (a group's number left out)."""
        key = id(item)
        found = self._shapes.get(key)
        if found is None:
            op, av = item
            if op == sre.SUBPATTERN:
                found = (op, av[1], av[2], self.shapes(av[3]))
            elif op == sre.BRANCH:
                found = (op, tuple(self.shapes(alternative) for alternative in av[1]))
            elif op in _REPEATS:
                found = (op, av[0], av[1], self.shapes(av[2]))
            elif op == sre.ATOMIC_GROUP:
                found = (op, self.shapes(av))
            elif op == sre.GROUPREF_EXISTS:
                found = (op, self.shapes(av[1]), self.shapes(av[2] or []))
            elif op in (sre.ASSERT, sre.ASSERT_NOT, sre.GROUPREF):
                found = (op,)  # assumed to pass: what is inside does not count
            elif op == sre.IN:
                found = (op, tuple(av))
            else:
                found = (op, av)
            self._shapes[key] = found
        return found

    def shapes(self, items: Sequence[Item]) -> tuple[Any, ...]:
        return tuple(self.shape(item) for item in items)

    def _node(self, item: Item) -> tuple[Table, Table]:
        op, av = item
        if op in (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN):
            full, tried = self.zero(), self.zero()
            for phase in range(self.size):
                tried[phase][0] = 1
                if self.matches(op, av, self.period[phase]):
                    full[phase][1] = tried[phase][1] = 1
            return full, tried
        if op == sre.AT:
            if av in (sre.AT_END, sre.AT_END_STRING):
                full = self.zero()  # the character after the run is never the end of text
            else:
                full = self.unit()
            return full, self.unit()
        if op == sre.SUBPATTERN:
            return self.sequence(av[3])
        if op == sre.ATOMIC_GROUP:
            full, tried = self.sequence(av)
            return _at_most_one(full), tried
        if op == sre.BRANCH:
            parts = [self.sequence(alternative) for alternative in av[1]]
            return self.add(*(p[0] for p in parts)), self.add(*(p[1] for p in parts))
        if op == sre.GROUPREF_EXISTS:
            parts = [self.sequence(av[1]), self.sequence(av[2] or [])]
            return self.add(*(p[0] for p in parts)), self.add(*(p[1] for p in parts))
        if op in _REPEATS:
            return self.repeat(op, av)
        return self.unit(), self.unit()  # lookarounds, back-references: assumed to pass

    def sequence(self, items: Sequence[Item]) -> tuple[Table, Table]:
        full, tried = self.unit(), self.zero()
        for item in items:
            item_full, item_tried = self.node(item)
            tried = self.add(tried, self.then(full, item_tried))
            full = self.then(full, item_full)
        return full, self.add(tried, full)

    def repeat(self, op: Any, av: Any) -> tuple[Table, Table]:
        low, high, body = av
        body_full, body_tried = self.sequence(body)
        # Beyond the minimum, `re` stops an iteration that consumed nothing.
        nonempty = [[0, *row[1:]] for row in body_full]
        full_total, tried_total = self.zero(), self.zero()
        current = self.unit()
        count = 0
        while True:
            if count >= low:
                full_total = self.add(full_total, current)
            if high != sre.MAXREPEAT and count >= high:
                break
            tried_total = self.add(tried_total, self.then(current, body_tried))
            current = self.then(current, body_full if count < low else nonempty)
            count += 1
            if not any(any(row) for row in current):
                break  # no text this short holds more iterations
            if ATTACK_LENGTH < count < low:
                # Beyond ATTACK_LENGTH iterations the rest of the minimum can only match
                # emptily: skip to it rather than iterate up to a count such as 65535.
                count = low
            if count > low + ATTACK_LENGTH:
                break
        if op == sre.POSSESSIVE_REPEAT:
            full_total = _at_most_one(full_total)
        return full_total, self.add(tried_total, full_total)


def _capped(counts: list[int]) -> list[int]:
    """Each count capped at _CAP. Capping once, after summing, ends at the value a running
    capped sum would (every term is non-negative)."""
    if max(counts) < _CAP:  # nearly always: the list itself
        return counts
    return [count if count < _CAP else _CAP for count in counts]


def _at_most_one(table: Table) -> Table:
    """An atomic part commits to its first way and never gives characters back: one way,
    of the longest length it can match (its greedy first choice on a uniform run)."""
    result: Table = []
    for row in table:
        longest = max((length for length, ways in enumerate(row) if ways), default=None)
        result.append([1 if length == longest else 0 for length in range(len(row))])
    return result


def _children_sequences(item: Item) -> list[list[Item]]:
    op, av = item
    if op == sre.SUBPATTERN:
        return [list(av[3])]
    if op == sre.BRANCH:
        return [list(alternative) for alternative in av[1]]
    if op == sre.ATOMIC_GROUP:
        return [list(av)]
    if op == sre.GROUPREF_EXISTS:
        return [list(av[1]), list(av[2] or [])]
    return []


def _tails(items: list[Item], continuation: list[Item]) -> list[list[Item]]:
    """Every way to start the search inside the pattern: a repeat and all that follows it."""
    tails: list[list[Item]] = []
    for index, item in enumerate(items):
        rest = items[index + 1 :] + continuation
        # Only a repeat that can go round more than once can divide text in many ways.
        if item[0] in _REPEATS and item[1][1] >= 2 and _has_nested_variability([item]):
            tails.append([item, *rest])
        for child in _children_sequences(item):
            tails.extend(_tails(child, rest))
    return tails


def _has_nested_variability(items: Sequence[Item]) -> bool:
    """A repeat around another variable-width part: the only shape that can blow up."""
    for op, av in items:
        if op in _REPEATS:
            body = list(av[2])
            if _contains_variable(body):
                return True
            if _has_nested_variability(body):
                return True
        if any(_has_nested_variability(child) for child in _children_sequences((op, av))):
            return True
    return False


def _contains_variable(items: Sequence[Item]) -> bool:
    for item in items:
        if item[0] in _VARIABLE:
            return True
        if any(_contains_variable(child) for child in _children_sequences(item)):
            return True
    return False


def _literal_characters(items: Sequence[Item]) -> set[str]:
    found: set[str] = set()
    for op, av in items:
        if op == sre.LITERAL:
            found.add(chr(av).lower())
        elif op in _REPEATS:
            found |= _literal_characters(av[2])
        for child in _children_sequences((op, av)):
            found |= _literal_characters(child)
    return found


def _attack_work(counter: _Counter, tail: list[Item]) -> int:
    """Search-tree nodes on the longest attack run the tail cannot match, summed over
    every start position in the run."""
    full, tried = counter.sequence(tail)
    # The first run length at which some start position matches: the attack stops short of it.
    matchable = ATTACK_LENGTH + 1
    for start in range(ATTACK_LENGTH + 1):
        row = full[start % counter.size]
        for length in range(ATTACK_LENGTH + 1 - start):
            if row[length]:
                matchable = min(matchable, start + length)
                break
    run = matchable - 1
    work = 0
    for start in range(run + 1):
        work += sum(tried[start % counter.size][: run - start + 1])
    return work


def _estimate(items: list[Item], matches: Callable[[Any, Any, str], bool]) -> int:
    candidates = list(_BASE_PERIODS) + sorted(c for c in _literal_characters(items) if c.isprintable())[:8]
    worst = 0
    tails = _tails(items, [])
    counters: dict[str, _Counter] = {}
    for tail in tails:
        loop = tail[0]
        for period in dict.fromkeys(candidates):
            # A run the loop cannot even start on costs nothing.
            if not _can_consume(loop, period[0], matches):
                continue
            counter = counters.setdefault(period, _Counter(period, matches))
            worst = max(worst, _attack_work(counter, tail))
            if worst > WORK_LIMIT:
                return worst
    return worst


def _can_consume(item: Item, char: str, matches: Callable[[Any, Any, str], bool]) -> bool:
    """Whether some one-character part inside `item` matches `char`."""
    op, av = item
    if op in (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN):
        return matches(op, av, char)
    if op in _REPEATS:
        return any(_can_consume(child, char, matches) for child in av[2])
    return any(_can_consume(child, char, matches) for seq in _children_sequences(item) for child in seq)


def backtracking_work(tree: Any, matches: Callable[[Any, Any, str], bool]) -> int:
    """The worst search-tree size found for a parsed pattern on the attack texts (0 when
    it has no repeat around a variable-width part). `matches(op, av, char)` says whether
    a one-character item matches `char`."""
    items = list(tree)
    if not _has_nested_variability(items):
        return 0
    return _estimate(items, matches)
