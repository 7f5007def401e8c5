"""Static shape analysis of gate regexes, for the gate lint rules and the audit.

We reason on the parse tree of Python's `re`, because `re` is what the reference
engine compiles gates with: a pattern is only as safe as the engine that runs it.
(The scorer's `regex` package survives shapes such as `(a+)+` that hang `re`, so
timing the scorer would miss exactly the patterns that matter.)

Answered here: `unnormalized_requirement` (can the pattern only match text that
normalization has removed: a newline, a tab, two whitespace characters in a row?),
`literals_in_every_match` and `cannot_match` (the literals every match holds, and a
cheap test that a text lacks them); and the pieces of the tree the other analyses read
(`parse`, `charset`, `walk`, `flatten`, `minimum_width`). Whether a pattern can
backtrack catastrophically is `regex_risk`'s.

Conservative: when the tree holds something we cannot reason about (a back-reference,
a lookaround body), we assume the harmless case.
"""

from __future__ import annotations

import re
import string
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

Item = tuple[Any, Any]  # (opcode, argument) as produced by re's parser

REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)

#: Characters used to decide whether two character sets overlap: every class a
#: gate is likely to use has a member here (letters, digits, punctuation, spaces,
#: the typographic quotes and section sign of legal text).
_SAMPLE = frozenset(string.printable + "§’‘“”—–éÉßø\u00a0")

_CATEGORY_CLASSES = {
    sre.CATEGORY_DIGIT: re.compile(r"\d"),
    sre.CATEGORY_NOT_DIGIT: re.compile(r"\D"),
    sre.CATEGORY_SPACE: re.compile(r"\s"),
    sre.CATEGORY_NOT_SPACE: re.compile(r"\S"),
    sre.CATEGORY_WORD: re.compile(r"\w"),
    sre.CATEGORY_NOT_WORD: re.compile(r"\W"),
}


@lru_cache(maxsize=4096)
def parse(pattern: str) -> Any | None:
    """The `re` parse tree of `pattern` (compiled IGNORECASE, as the engine does), or None.

    Remembered: the regex rules, the witnesses and the audit each asked for the same trees,
    parsing every gate six times. The tree is shared: read it, never change it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # FutureWarnings about possible set syntax are not findings
        try:
            return sre_parse.parse(pattern, int(re.IGNORECASE))  # an int: IntFlag tests run Python code
        except (re.error, RecursionError, OverflowError, ValueError, TypeError):
            return None


# ------------------------------------------------------------ character sets


def _case_variants(char: str) -> set[str]:
    # Gates are compiled IGNORECASE, so a literal matches every case of itself.
    return {char, char.lower(), char.upper()}


def _category_matches(category: Any, char: str) -> bool:
    cls = _CATEGORY_CLASSES.get(category)
    return bool(cls and cls.fullmatch(char))


def _class_member_matches(op: Any, av: Any, char: str) -> bool:
    variants = _case_variants(char)
    if op is sre.LITERAL:
        return chr(av) in variants
    if op is sre.RANGE:
        low, high = av
        return any(len(v) == 1 and low <= ord(v) <= high for v in variants)
    if op is sre.CATEGORY:
        return _category_matches(av, char)
    return False


def single_char_matches(op: Any, av: Any, char: str) -> bool | None:
    """Whether a one-character item matches `char`; None when `op` is not one."""
    if op is sre.LITERAL:
        return chr(av) in _case_variants(char)
    if op is sre.NOT_LITERAL:
        return chr(av) not in _case_variants(char)
    if op is sre.ANY:
        return char != "\n"
    if op is sre.IN:
        negate = bool(av) and av[0][0] is sre.NEGATE
        members = av[1:] if negate else av
        hit = any(_class_member_matches(m_op, m_av, char) for m_op, m_av in members)
        return hit != negate
    return None


def charset(item: Item) -> frozenset[str]:
    """Sample characters `item` can consume anywhere in a match."""
    op, av = item
    if op in (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN):
        return frozenset(c for c in _SAMPLE if single_char_matches(op, av, c))
    return frozenset().union(*(charset(child) for child in _children(item)))


def _children(item: Item) -> Iterator[Item]:
    """Items nested directly inside `item`, lookaround bodies excluded."""
    op, av = item
    if op in REPEATS:
        yield from av[2]
    elif op is sre.SUBPATTERN:
        yield from av[3]
    elif op is sre.ATOMIC_GROUP:
        yield from av
    elif op is sre.BRANCH:
        for alternative in av[1]:
            yield from alternative
    elif op is sre.GROUPREF_EXISTS:
        yield from av[1]
        if av[2] is not None:
            yield from av[2]


def walk(items: Sequence[Item]) -> Iterator[Item]:
    for item in items:
        yield item
        yield from walk(list(_children(item)))


# ------------------------------------------------- text normalization removes

_CHARACTER_NAMES = {"\n": "a newline (\\n)", "\t": "a tab (\\t)", "\r": "a carriage return (\\r)"}
TWO_SPACES = "two whitespace characters in a row"


@dataclass(frozen=True)
class _Shape:
    """What every match of a piece of pattern must look like, whitespace-wise.

    `impossible` names something every match needs and normalized text never has.
    A `blank` piece consumes only whitespace, at least `minimum` characters of it;
    `lead`/`trail` count the whitespace every match must start/end with.
    """

    impossible: str | None = None
    blank: bool = False
    minimum: int = 0
    lead: int = 0
    trail: int = 0
    zero_width: bool = False


_TRANSPARENT = _Shape(blank=True, zero_width=True)
_OPAQUE = _Shape()


def _impossible_character(char: str) -> bool:
    # str.split() folds exactly the str.isspace() characters into one space.
    return char.isspace() and char != " "


def _character_name(char: str) -> str:
    return _CHARACTER_NAMES.get(char, f"the whitespace character U+{ord(char):04X}")


def _class_kind(members: Sequence[Item]) -> tuple[str, str | None]:
    """('other' | 'blank' | 'impossible', example) for a non-negated class."""
    kind, example = "impossible", None
    for op, av in members:
        if op is sre.LITERAL:
            char = chr(av)
            if not char.isspace():
                return "other", None
            if char == " ":
                kind = "blank"
            example = example or char
        elif op is sre.CATEGORY and av in (sre.CATEGORY_SPACE,):
            kind = "blank"
        elif (
            op is sre.RANGE and av[1] - av[0] < 0x3000 and all(chr(code).isspace() for code in range(av[0], av[1] + 1))
        ):
            kind = "blank" if av[0] <= ord(" ") <= av[1] else kind
            example = example or chr(av[0])
        else:
            return "other", None
    return kind, example


def _single_shape(op: Any, av: Any) -> _Shape:
    if op is sre.LITERAL:
        char = chr(av)
        if _impossible_character(char):
            return _Shape(impossible=_character_name(char))
        return _Shape(blank=True, minimum=1, lead=1, trail=1) if char == " " else _OPAQUE
    if op is sre.IN and not (av and av[0][0] is sre.NEGATE):
        kind, example = _class_kind(av)
        if kind == "impossible":
            return _Shape(impossible=_character_name(example or "\n"))
        if kind == "blank":
            return _Shape(blank=True, minimum=1, lead=1, trail=1)
    return _OPAQUE


def _sequence_shape(items: Sequence[Item]) -> _Shape:
    run = lead = 0
    lead_done = False
    blank = True
    for item in items:
        shape = _shape(item)
        if shape.zero_width:
            continue
        if shape.impossible:
            return shape
        if shape.blank:
            run += shape.minimum
            if not lead_done:
                lead += shape.minimum
        else:
            blank = False
            if run + shape.lead >= 2:
                return _Shape(impossible=TWO_SPACES)
            if not lead_done:
                lead += shape.lead
                lead_done = True
            run = shape.trail
        if run >= 2:
            return _Shape(impossible=TWO_SPACES)
    if blank:
        return _Shape(blank=True, minimum=run, lead=run, trail=run)
    return _Shape(lead=lead, trail=run)


def _repeat_shape(low: int, body: Sequence[Item]) -> _Shape:
    shape = _sequence_shape(body)
    if low == 0:
        # An optional piece never forces anything; one that could only match the
        # impossible simply never takes part.
        return _TRANSPARENT if shape.impossible or shape.blank else _OPAQUE
    if shape.impossible:
        return shape
    if shape.blank:
        minimum = shape.minimum * low
        return _Shape(blank=True, minimum=minimum, lead=minimum, trail=minimum)
    if low >= 2 and shape.trail + shape.lead >= 2:
        return _Shape(impossible=TWO_SPACES)  # one iteration's end meets the next's start
    return shape


def _alternatives_shape(alternatives: Sequence[Sequence[Item]]) -> _Shape:
    shapes = [_sequence_shape(alternative) for alternative in alternatives]
    possible = [s for s in shapes if not s.impossible]
    if not possible:
        return shapes[0]
    if all(s.blank for s in possible):
        minimum = min(s.minimum for s in possible)
        return _Shape(blank=True, minimum=minimum, lead=minimum, trail=minimum)
    return _Shape(lead=min(s.lead for s in possible), trail=min(s.trail for s in possible))


def _shape(item: Item) -> _Shape:
    op, av = item
    if op in ZERO_WIDTH:
        return _TRANSPARENT
    if op in REPEATS:
        return _repeat_shape(av[0], av[2])
    if op is sre.SUBPATTERN:
        return _sequence_shape(av[3])
    if op is sre.ATOMIC_GROUP:
        return _sequence_shape(av)
    if op is sre.BRANCH:
        return _alternatives_shape(av[1])
    if op is sre.GROUPREF_EXISTS:
        return _alternatives_shape([av[1], av[2] if av[2] is not None else []])
    return _single_shape(op, av)


@lru_cache(maxsize=4096)
def unnormalized_requirement(pattern: str) -> str | None:
    """What every match of `pattern` needs that normalized text never contains, if anything."""
    tree = parse(pattern)
    if tree is None:
        return None
    return _sequence_shape(list(tree)).impossible


#: What every match of a pattern holds: requirements, each a choice of ASCII literals
#: (lowercased), one of which the match holds.
Requirements = tuple[tuple[str, ...], ...]


@lru_cache(maxsize=4096)
def literals_in_every_match(pattern: str) -> Requirements:
    """What every match of `pattern` holds as written: each run of ASCII literals (a group
    is read through: it matches once), and, for an alternation, one literal of each of its
    alternatives; lowercased, none when the tree cannot be read. `\\bprovider (?:may|shall)
    use\\b` holds "provider ", "may" or "shall", and " use". A text that is ASCII and,
    lowercased, does not hold one of them holds no match (`cannot_match`)."""
    tree = parse(pattern)
    if tree is None:
        return ()
    # The most telling first (the longest shortest literal), which most texts lack; not
    # one with a literal of fewer than three characters, which nearly every text holds.
    telling = [options for options in dict.fromkeys(_requirements(tree)) if _shortest(options) >= _TELLING_LENGTH]
    return tuple(sorted(telling, key=_shortest, reverse=True))


#: The fewest characters of a literal worth looking for (`literals_in_every_match`).
_TELLING_LENGTH = 3


def _shortest(options: tuple[str, ...]) -> int:
    return min(map(len, options))


def _requirements(items: Sequence[Item]) -> Requirements:
    found: list[tuple[str, ...]] = []
    run = ""
    for op, av in flatten(list(items)):
        if op is sre.LITERAL and chr(av).isascii():
            run += chr(av)
            continue
        if run:
            found.append((run.lower(),))
        run = ""
        if op is sre.BRANCH:
            each = [_requirements(alternative) for alternative in av[1]]
            if all(each):
                # Whichever alternative matches, what it requires is there: one requirement
                # of each (its most telling one, the one with the longest shortest literal).
                chosen = {literal for alternative in each for literal in max(alternative, key=_shortest)}
                # A literal holding another is there only where that one is: it need not be asked.
                found.append(tuple(sorted(a for a in chosen if not any(b != a and b in a for b in chosen))))
        elif op in REPEATS and av[0] >= 1:
            found += _requirements(av[2])  # matched at least once
        elif op is sre.ATOMIC_GROUP:
            found += _requirements(av)
    if run:
        found.append((run.lower(),))
    return tuple(found)


def cannot_match(pattern: str, lowered: str) -> bool:
    """Whether no match of `pattern` can be found in `lowered` (a lowercased text) because it
    is ASCII and holds none of the literals of one of the requirements every match holds
    (`literals_in_every_match`). False says nothing: the search must be run."""
    if not lowered.isascii():
        return False
    # Asked of tens of thousands of texts: plain loops, left at the first answer.
    for options in literals_in_every_match(pattern):
        for literal in options:
            if literal in lowered:
                break  # the text meets this requirement
        else:
            return True  # it holds no literal of this one
    return False


def minimum_width(items: Sequence[Item]) -> int:
    """The fewest characters any match of `items` consumes."""
    total = 0
    for op, av in items:
        if op in (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN):
            total += 1
        elif op in REPEATS:
            total += av[0] * minimum_width(av[2])
        elif op is sre.SUBPATTERN:
            total += minimum_width(av[3])
        elif op is sre.ATOMIC_GROUP:
            total += minimum_width(av)
        elif op is sre.BRANCH:
            total += min(minimum_width(alternative) for alternative in av[1])
        elif op is sre.GROUPREF_EXISTS:
            total += min(minimum_width(av[1]), minimum_width(av[2] or []))
    return total


def flatten(items: Sequence[Item]) -> list[Item]:
    """The body as one sequence: groups are transparent for what follows what."""
    flat: list[Item] = []
    for item in items:
        op, av = item
        if op is sre.SUBPATTERN:
            flat.extend(flatten(av[3]))
        else:
            flat.append(item)
    return flat
