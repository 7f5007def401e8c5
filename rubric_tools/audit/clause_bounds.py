"""Where a clause of a sentence begins and ends: `smallest_clause` cuts the clause around a
match at the sentence's clause breaks (";", ":", a dash, a comma before a conjunction that
opens a clause, a subordinator, "that"), as `clauses.ClauseFinder` completes a witness
into a clause of the matter."""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from rubric_tools.audit.grammar import has_finite_verb, shape, verb_of

#: A completed clause longer than this reads as a paragraph, not as evidence.
MAX_CLAUSE_WORDS = 32
# Asked of every sentence and completion: compiled once.
_JOINER = re.compile(r"(and|or|nor)\b\s*", re.IGNORECASE)
_CLAUSE_PUNCTUATION = re.compile(r"[,;:.]")
_HEAD_WORD = re.compile(r"(\w+)\s+")
_INTRODUCTION = re.compile(r"(?:in|under|for|as|on|at|by|with|from)\b[^,]{0,60},\s+", re.IGNORECASE)
#: Where one clause ends and another begins inside a sentence.
_BREAK = re.compile(
    r"\s*(?:;|:(?!\d)|\s[—–]\s|\s--?\s)\s*"
    r"|,\s+(?=(?:and|but|or|so|which|while|whereas|because|although|though|since|unless|provided|except|however|"
    r"if|when|where|nor|yet)\b)"
    r"|\b(?:because|although|though|whereas|unless|so\s+that|provided\s+that|except\s+that|save\s+that|if|when|"
    r"while|since|whether|that)\b",
    re.IGNORECASE,
)
_LEADING_JOINERS = frozenset("and but or so which then also yet nor".split())
#: Breaks that open a subordinate clause: its comma ends it before the main clause.
_SUBORDINATORS = frozenset("if when while since unless because although though whether".split())


def word_span(text: str, start: int, end: int) -> tuple[int, int]:
    """A span widened to whole words."""
    while start > 0 and text[start - 1].isalnum():
        start -= 1
    while end < len(text) and text[end].isalnum():
        end += 1
    return start, end


@lru_cache(maxsize=4096)  # a gate that several lists share matches the same sentences again (one call in four)
def smallest_clause(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The smallest clause of `text` holding text[start:end]: cut at clause breaks (";",
    ":", a dash, a comma before a conjunction, a subordinator, "that"), a leading joiner or
    introductory phrase dropped. A part that is no clause by itself ("without undue delay
    after Provider confirms") takes in the part before it, up to two breaks back; None when
    the result holds no finite verb or is too long."""
    breaks = _clause_breaks(text)
    lefts = [0, *(after for _before, after in breaks if after <= start)]
    right = next(
        (before for before, after in breaks if before >= end and not _opens_a_complement(text, before, after)),
        len(text),
    )
    candidates = [lefts[-1], *reversed(lefts[-3:-1])]
    found: tuple[int, int] | None = None
    for left in candidates:
        bounds = _trimmed(text, left, start, end, right)
        if bounds is None:
            continue
        found = found or bounds
        if shape(text[bounds[0] : bounds[1]]) == "clause":
            return bounds
    return found


_LAST_WORD = re.compile(r"(\w+)\s*$")


def _opens_a_complement(text: str, before: int, after: int) -> bool:
    """Whether the break is a "that" right after a verb, which opens the verb's object ("has
    confirmed that the incident …"): cut there, the clause would end on a verb with no object.
    After a noun it opens a relative clause ("the data that it holds"), which may be cut."""
    if text[before:after].strip().lower() != "that":
        return False
    previous = _LAST_WORD.search(text[:before])
    return previous is not None and verb_of(previous.group(1).lower()) is not None


@lru_cache(maxsize=4096)  # a sentence is cut again for every gate that matches it
def _clause_breaks(text: str) -> tuple[tuple[int, int], ...]:
    """The spans of `text`'s clause breaks, in order, the comma that ends a subordinate
    clause among them."""
    found = [b for b in _BREAK.finditer(text) if _breaks_clauses(text, b)]
    return tuple(sorted([b.span() for b in found] + list(_after_subordinate_clauses(text, found))))


def _after_subordinate_clauses(text: str, breaks: list[re.Match[str]]) -> Iterator[tuple[int, int]]:
    """The comma that ends a clause a subordinator opened, where the main clause follows:
    "if the tenant sublets, the landlord may terminate" holds two clauses, and neither is
    "the tenant sublets, the landlord may terminate"."""
    for index, found in enumerate(breaks):
        if found.group(0).strip().lower() not in _SUBORDINATORS:
            continue
        limit = breaks[index + 1].start() if index + 1 < len(breaks) else len(text)
        comma = text.find(",", found.end(), limit)
        if comma >= 0 and has_finite_verb(_CLAUSE_PUNCTUATION.split(text[comma + 1 :], maxsplit=1)[0]):
            yield comma, comma + 1


def _breaks_clauses(text: str, found: re.Match[str]) -> bool:
    """A comma before "and" or "or" ends a clause only when a clause follows: in a list
    ("all right, title, and interest") it does not."""
    if not found.group(0).startswith(","):
        return True
    rest = text[found.end() :]
    joiner = _JOINER.match(rest)
    if joiner is None:
        return True
    following = _CLAUSE_PUNCTUATION.split(rest[joiner.end() :], maxsplit=1)[0]
    return has_finite_verb(following)


def _trimmed(text: str, left: int, start: int, end: int, right: int) -> tuple[int, int] | None:
    while left < start and text[left] in " ,":
        left += 1
    head = _HEAD_WORD.match(text[left:start])
    if head and head.group(1).lower() in _LEADING_JOINERS:
        left += head.end()
    intro = _INTRODUCTION.match(text[left:start])
    if intro and has_finite_verb(text[left + intro.end() : right]):
        left += intro.end()
    clause = text[left:right].rstrip(" ,.;:")
    joiner = _TRAILING_JOINER.search(clause)
    if joiner is not None and left + joiner.start() >= end:
        clause = clause[: joiner.start()]  # "… the carve-out and, as a result, …": no "and" left dangling
    if len(clause.split()) > MAX_CLAUSE_WORDS:
        # Cut at a comma after the match, else before a time adjunct after it ("within 72
        # hours| after the team has confirmed that …"), which the clause reads well without.
        comma = text.find(",", end, right)
        adjunct = _TIME_ADJUNCT.search(text, end, right)
        if comma != -1:
            clause = text[left:comma]
        elif adjunct is not None:
            clause = text[left : adjunct.start()]
        else:
            return None
        if len(clause.split()) > MAX_CLAUSE_WORDS:
            return None
    if not has_finite_verb(clause):
        return None
    return left, left + len(clause)


#: A time adjunct a long clause may be cut before.
_TIME_ADJUNCT = re.compile(r"\s(?:after|before|upon|following|once)\b", re.IGNORECASE)
#: Conjunctions a cut leaves at a clause's end ("the carve-out and| , as a result").
_TRAILING_JOINER = re.compile(r"(?:[\s,]+(?:and|or|but|nor))+$", re.IGNORECASE)
