"""Witnesses: concrete strings that a gate regex matches, built from its parse tree.

We walk `re`'s parse tree (the reference engine's dialect, as `gate_analysis.regex_shape` does)
and pick, at every alternation and repeat, one of a few strategies: the shortest
choice, the first one (what the author wrote first, usually the typical sin), the
longest, and one per alternative so that every branch of an alternation is covered.
Every candidate is then checked by searching it with the scorer's compiled pattern;
one the pattern does not actually match (a lookaround we ignored, an anchor, a
back-reference) is dropped. Generation is bounded in count and length.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from re import _constants as sre  # type: ignore[attr-defined]
from typing import Any

from rubric_tools.gate_analysis.plain_search import plain_pattern
from rubric_tools.gate_analysis.regex_shape import Item, parse, single_char_matches
from rubric_tools.gate_analysis.regex_tree import as_tuples
from rubric_tools.scoring.gates import GateError, compile_pattern

#: Witnesses are short: a match check this slow is a backtracking pattern, not a match.
MATCH_TIMEOUT = 0.1

#: At most this many witnesses per regex, and this many characters each.
MAX_WITNESSES = 8
MAX_WITNESS_LENGTH = 240
#: A repeat of a single character class ("[^.]{0,80}") is filled with these words.
FILLER_WORDS = ("the", "relevant", "terms", "of", "this", "agreement", "and", "its", "schedules")
#: Characters tried, in order, when a class or wildcard must produce one character.
_PREFERRED = "etaoinsrhldcumfpgwybvkxjqz0123456789 -'’,;:/()§%$&\"“”.!?"
#: Stands for the gap of a window that cannot cross a sentence end, in `gap_witness`.
GAP_MARK = "\x00"
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


@dataclass(frozen=True)
class Witness:
    """A string the regex matches, and how it was chosen."""

    text: str
    strategy: str  # typical | short | full | long | alternative-N

    @property
    def typeable(self) -> bool:
        """Whether an agent could write it: no control character, unchanged by normalization."""
        return not any(unicodedata.category(c) == "Cc" for c in self.text)


def _in_class(op: Any, av: Any, char: str) -> bool:
    return _class_has(op, _hashable(op, av), char)


def _pick_char(op: Any, av: Any) -> str | None:
    return _picked(op, _hashable(op, av))


def _hashable(op: Any, av: Any) -> Any:
    """A one-character item's argument as a cache key: a class's list of members as a tuple
    (whose members are tuples of constants already)."""
    return tuple(av) if op is sre.IN else av


# Both remembered: every strategy's walk asks the same few classes about the same characters.
@lru_cache(maxsize=16384)
def _class_has(op: Any, av: Any, char: str) -> bool:
    return bool(single_char_matches(op, av, char))  # the character logic the regex rules use


@lru_cache(maxsize=4096)
def _picked(op: Any, av: Any) -> str | None:
    for char in _PREFERRED:
        if _class_has(op, av, char):
            return char
    if op is sre.LITERAL:
        return chr(av)
    return None


class _Builder:
    """One walk of the tree under one strategy."""

    def __init__(self, strategy: str, alternative: int = 0, mark_gap: bool = False) -> None:
        self.strategy = strategy
        self.alternative = alternative
        self.mark_gap = mark_gap
        self.groups: dict[int, str] = {}
        self.used_gap = False

    def sequence(self, items: Sequence[Item]) -> str | None:
        parts = []
        for item in items:
            piece = self.item(item)
            if piece is None:
                return None
            parts.append(piece)
        return "".join(parts)

    def item(self, item: Item) -> str | None:
        op, av = item
        if op is sre.LITERAL:
            return chr(av).lower()
        if op in (sre.NOT_LITERAL, sre.ANY, sre.IN):
            return _pick_char(op, av)
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            return ""
        if op is sre.SUBPATTERN:
            text = self.sequence(av[3])
            if text is not None and av[0] is not None:
                self.groups[av[0]] = text
            return text
        if op is sre.ATOMIC_GROUP:
            return self.sequence(av)
        if op is sre.BRANCH:
            return self.branch(av[1])
        if op in _REPEATS:
            return self.repeat(av[0], av[1], av[2])
        if op is sre.GROUPREF:
            return self.groups.get(av, "")
        if op is sre.GROUPREF_EXISTS:
            return self.sequence(av[1])
        return None

    def branch(self, alternatives: Sequence[Sequence[Item]]) -> str | None:
        built = [self.sequence(alternative) for alternative in alternatives]
        choices = [text for text in built if text is not None]
        if not choices:
            return None
        if self.strategy == "short":
            return min(choices, key=len)
        if self.strategy == "long":
            return max(choices, key=len)
        if self.strategy.startswith("alternative"):
            return choices[self.alternative % len(choices)]
        return choices[0]

    def repeat(self, low: int, high: int, body: Sequence[Item]) -> str | None:
        if low > MAX_WITNESS_LENGTH:
            return None  # every match is longer than any witness we build: bounded memory
        filler = self._filler(low, high, body)
        if filler is not None:
            return filler
        if self.strategy == "long":
            count = max(low, min(high, low + 2))
        elif high == 1 and _apostrophe(body):
            count = 1  # a possessive's apostrophe, in every witness: "provider'?s" without it is a plural
        elif self.strategy != "short" and high == 1 and len(body) == 1 and body[0][0] is sre.LITERAL:
            count = 1  # an optional letter or hyphen ("months?", "de-?"): the form the author wrote
        elif self.strategy == "full" and high == 1:
            count = 1  # every optional part written out ("customer(?:'s)? (?:total )?liability")
        elif self.strategy == "typical" and high == 1 and _function_word(body):
            count = 1  # an optional article or preposition: "vests (?:in )?client" is "vests in client"
        else:
            count = low  # optional parts left out: the plainest statement of the sin
        if count == 0:
            return ""
        part = self.sequence(body)
        if part is None or len(part) * count > MAX_WITNESS_LENGTH:
            return None
        # Back-references inside the body see the last iteration's groups, as in a match.
        return part + "".join(self.sequence(body) or "" for _ in range(count - 1))

    def _filler(self, low: int, high: int, body: Sequence[Item]) -> str | None:
        window = _window_class(body)
        if window is not None and window is not body[0]:
            return self._class_filler(low, high, [window])
        return self._class_filler(low, high, body)

    def _class_filler(self, low: int, high: int, body: Sequence[Item]) -> str | None:
        """A wildcard or class window (`.{0,80}`, `[^.]*`) filled with words; a word class
        (`\\w+`, `[a-z]+`) filled with one word."""
        if len(body) != 1 or body[0][0] not in (sre.ANY, sre.IN, sre.NOT_LITERAL):
            return None
        op, av = body[0]
        if _in_class(op, av, " ") and not _in_class(op, av, "e"):
            return " " if high >= 1 else ""  # `\\s*` between words: one space, as prose has
        if not _in_class(op, av, "e"):
            return None
        if not _in_class(op, av, " "):
            if low == 0 and self.strategy != "long":
                return ""  # `[a-z]*` after a stem ("indemnif[a-z]*"): the stem alone
            word = "".join(c for c in "relevant" if _in_class(op, av, c))
            return word[:high] if low <= len(word) and self.strategy != "short" else None
        if self.mark_gap and not self.used_gap and not _in_class(op, av, ".") and high >= 1:
            self.used_gap = True  # where prose between the two parts goes: see `gap_witness`
            return GAP_MARK
        if self.strategy != "long":
            # Nothing between the words: the plainest statement of the sin.
            return (" " if high >= 1 else "") if low <= 1 else None
        wanted = " " + " ".join(FILLER_WORDS) + " "
        text = "".join(c for c in wanted if _in_class(op, av, c))
        limit = min(high, MAX_WITNESS_LENGTH)
        if len(text) > limit:
            text = text[: text.rfind(" ", 0, limit) + 1] or text[:limit]  # whole words only
        return text + " " * max(low - len(text), 0)


#: The apostrophes a possessive is written with.
_APOSTROPHES = "'’"
#: Words a regex marks optional that the plainest statement of the sin still writes.
_FUNCTION_WORDS = frozenset("the a an in to of for on by with".split())


def _apostrophe(body: Sequence[Item]) -> bool:
    """Whether `body` is an apostrophe or a class of apostrophes ("'", "['’]")."""
    if len(body) != 1:
        return False
    op, av = body[0]
    if op is sre.LITERAL:
        return chr(av) in _APOSTROPHES
    return op is sre.IN and all(kind is sre.LITERAL and chr(code) in _APOSTROPHES for kind, code in av)


def _function_word(body: Sequence[Item]) -> bool:
    """Whether `body` is one article or preposition, with its space ("in ", "( to)", "of\\s+")."""
    text = _plain_text(body)
    return text is not None and text.strip().lower() in _FUNCTION_WORDS


def _plain_text(items: Sequence[Item]) -> str | None:
    """The text `items` spell: letters, spaces and groups of them (a space for `\\s+`); None
    for anything else."""
    parts = []
    for op, av in items:
        if op is sre.LITERAL:
            parts.append(chr(av))
        elif op is sre.SUBPATTERN:
            inner = _plain_text(av[3])
            if inner is None:
                return None
            parts.append(inner)
        elif op in _REPEATS and len(av[2]) == 1 and av[2][0][0] is sre.IN:
            class_op, class_av = av[2][0]
            if not _in_class(class_op, class_av, " ") or _in_class(class_op, class_av, "e"):
                return None
            parts.append(" ")  # `\s+`
        else:
            return None
    return "".join(parts)


def _window_class(body: Sequence[Item]) -> Item | None:
    """The character class of a window written as a group, `(?:[^.]|\\.(?=\\d)){0,80}`, or
    as a tempered one, `(?:(?!\\bnot\\b)[^.;]){1,40}` or `(?:(?!\\bno\\b)(?:[^.;]|\\.\\d)){1,30}?` (the
    class the lookahead tempers)."""
    if len(body) == 1 and body[0][0] is sre.SUBPATTERN:
        return _window_class(body[0][1][3])
    if len(body) == 2 and body[0][0] is sre.ASSERT_NOT:
        # tempered: the class after the lookahead, itself perhaps a group ("(?:[^.;]|\.\d)")
        return body[1] if body[1][0] in (sre.ANY, sre.IN, sre.NOT_LITERAL) else _window_class(body[1:])
    if len(body) == 1 and body[0][0] is sre.BRANCH:
        for alternative in body[0][1][1]:
            if len(alternative) == 1 and alternative[0][0] in (sre.ANY, sre.IN, sre.NOT_LITERAL):
                return alternative[0]  # type: ignore[no-any-return]
        return None
    return body[0] if len(body) == 1 else None


def _strategies(alternatives: int) -> list[_Builder]:
    builders = [_Builder("typical"), _Builder("short"), _Builder("full"), _Builder("long")]
    builders += [_Builder("alternative", index) for index in range(1, min(alternatives, MAX_WITNESSES))]
    return builders


def _widest_branch(items: Sequence[Item]) -> int:
    widest = 1
    stack = list(items)
    while stack:
        op, av = stack.pop()
        if op is sre.BRANCH:
            widest = max(widest, len(av[1]))
            for alternative in av[1]:
                stack.extend(alternative)
        elif op is sre.SUBPATTERN:
            stack.extend(av[3])
        elif op in _REPEATS:
            stack.extend(av[2])
        elif op is sre.ATOMIC_GROUP:
            stack.extend(av)
    return widest


def _matches(pattern: str, text: str) -> bool:
    plain = plain_pattern(pattern, text)  # `re`, where that is the same search (`plain_search`)
    if plain is not None:
        return plain.search(text) is not None
    try:
        return compile_pattern(pattern).search(text, timeout=MATCH_TIMEOUT) is not None
    except (GateError, TimeoutError):
        return False


#: A space a regex's `\s*` leaves between a figure and its percent sign ("5 %").
_SPACE_BEFORE_PERCENT = re.compile(r"(?<=\d) (?=%)")


def _tidy(text: str) -> str:
    """Single spaces, and a figure written against its percent sign ("5%"), as drafters write
    them; the untidied text is kept where the pattern needs it (`iter_witnesses`)."""
    return _SPACE_BEFORE_PERCENT.sub("", " ".join(text.split())) if text.strip() else text


@lru_cache(maxsize=2048)
def _items(pattern: str) -> Sequence[Item] | None:
    """The parse tree of `pattern` (`regex_shape.parse`) as tuples (`regex_tree`), or None:
    every strategy's walk reads the whole tree."""
    tree = parse(pattern)
    return None if tree is None else as_tuples(tree)


def witnesses(pattern: str) -> list[Witness]:
    """Distinct strings `pattern` matches (first: the typical one), at most MAX_WITNESSES.

    The strings are lowercase with single spaces, as normalized text is; a candidate
    whose tidying breaks the match is kept untidied (the pattern needs that text)."""
    return list(_witnesses(pattern))


@lru_cache(maxsize=2048)
def _witnesses(pattern: str) -> tuple[Witness, ...]:
    """Cached: the audit and lint rule U001 ask for the same patterns' witnesses many times."""
    return tuple(iter_witnesses(pattern))


def iter_witnesses(pattern: str) -> Iterator[Witness]:
    """`witnesses(pattern)` one at a time, each built and checked only when asked for: a
    caller that needs the first that does something stops there."""
    tree = _items(pattern)
    if tree is None:
        return
    count = 0
    seen: set[str] = set()
    for builder in _strategies(_widest_branch(tree)):
        raw = builder.sequence(tree)
        if raw is None or len(raw) > MAX_WITNESS_LENGTH:
            continue
        tidy = _tidy(raw)
        # The tidy text when the pattern matches it, else the raw one when it matches that.
        text = tidy if _matches(pattern, tidy) else raw if raw != tidy and _matches(pattern, raw) else ""
        if not text or text in seen:
            continue
        seen.add(text)
        strategy = builder.strategy if builder.strategy != "alternative" else f"alternative-{builder.alternative + 1}"
        yield Witness(text, strategy)
        count += 1
        if count >= MAX_WITNESSES:
            return


def raw_candidates(pattern: str) -> list[str]:
    """What the walk produces before the match check: the evidence when nothing matches."""
    tree = _items(pattern)
    if tree is None:
        return []
    out = []
    for builder in _strategies(1):
        raw = builder.sequence(tree)
        if raw is not None and raw not in out:
            out.append(raw)
    return out


@lru_cache(maxsize=2048)  # asked once per framed witness of an entry (`dodges`)
def gap_witness(pattern: str) -> tuple[str, str] | None:
    """The typical witness cut at its first window that cannot cross a sentence end
    (`[^.]{0,80}`, `[^.;]*`): the text before the gap and the text after it. None when the
    pattern has no such window, or nothing stands on one side of it."""
    tree = _items(pattern)
    if tree is None:
        return None
    builder = _Builder("typical", mark_gap=True)
    raw = builder.sequence(tree)
    if raw is None or not builder.used_gap:
        return None
    left, _, right = raw.partition(GAP_MARK)
    left, right = _tidy(left).strip(), _tidy(right).strip()
    return (left, right) if left and right and GAP_MARK not in right else None
