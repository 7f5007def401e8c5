"""Which meaning markers govern a gate's key words in a correct-work text, and whether a
limit idiom belongs to the sin's own words (see `scoped_guards`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from rubric_tools.audit import markers
from rubric_tools.audit.markers import GAP, Term
from rubric_tools.scoring.gates import sentence_bounds
from rubric_tools.scoring.text import normalize


@dataclass(frozen=True)
class Governed:
    """A term found governing the key in one evidence text, `distance` characters away."""

    term: Term
    distance: int
    #: A marker after the key that follows the whole match at once, the key its last words
    #: ("assigns to Consultant **no** right"): it governs the sin's object whatever the
    #: windows inside the match.
    adjacent: bool = False


def compile_or_none(regex: str) -> re.Pattern[str] | None:
    try:
        return re.compile(regex, re.IGNORECASE)
    except re.error:
        return None


_BARRIER = re.compile(markers.CLAUSE_BARRIERS)
_INSERTION = re.compile(markers.INSERTION)


def _crosses(gap: str, term: Term) -> bool:
    """Whether a marker `gap` characters away governs another clause than the key's."""
    if term.kind == "disowned":
        return False
    if ";" in gap or _BARRIER.search(gap):
        return True
    return term.kind == "struck" and term.side == "before" and (":" in gap or bool(_INSERTION.search(gap)))


@dataclass(frozen=True)
class KeyInMatch:
    """The gate's first match in a normalized text and the first occurrence of its key words
    inside that match."""

    text: str
    gate: re.Pattern[str]
    match: re.Match[str]
    key: re.Match[str]

    @property
    def offset(self) -> int:
        """How many characters into the match the key words stand."""
        return self.key.start() - self.match.start()


def key_in_match(pattern: str, key: str, text: str) -> KeyInMatch | None:
    """Where the key words stand in the gate's match in `text` (normalized first); None when
    either regex does not compile, the gate does not match, or the key is not inside it."""
    text = normalize(text)
    compiled, key_regex = compile_or_none(pattern), compile_or_none(key)
    match = compiled.search(text) if compiled else None
    if compiled is None or match is None or key_regex is None:
        return None
    occurrence = next((k for k in key_regex.finditer(text, match.start()) if k.end() <= match.end()), None)
    return KeyInMatch(text, compiled, match, occurrence) if occurrence is not None else None


def governing(pattern: str, key: str, text: str, kinds: Sequence[str], guard_on: bool) -> list[Governed]:
    """The terms of `kinds` that govern the key words in the clause where the gate matches
    `text` (normalized first): the last one before the key, the first one after it.
    `guard_on`: the gate keeps its negation guard, so the engine's own negators before the
    match need no exclusion."""
    located = key_in_match(pattern, key, text)
    if located is None:
        return []
    text, compiled, match, occurrence = located.text, located.gate, located.match, located.key
    start, end = sentence_bounds(text, match.start(), match.end())
    found: list[Governed] = []
    for term in markers.TERMS:
        if term.kind not in kinds or (guard_on and term.engine):
            continue
        term_regex = re.compile(term.regex)
        if term.side == "before":
            hits = term_regex.finditer(text, start, occurrence.start())
            hit = next((h for h in reversed(list(hits)) if not _own_words(compiled, text, match, h)), None)
            if hit is not None:
                gap = text[hit.end() : occurrence.start()]
                # A negator however far: it governs its whole clause, and one that the gate's
                # words close can be long ("It is not the case that each representation … is
                # made … without inquiry"). The kind is shown; the exclusion's gap stops at `GAP`.
                # (Other kinds far away: not shown, lest they crowd a nearer kind out of the budget.)
                whole_clause = term.kind == "negated"
                if (len(gap) <= GAP or whole_clause) and not _crosses(gap, term):
                    found.append(Governed(term, min(len(gap), GAP)))
        else:
            hits = term_regex.finditer(text, occurrence.end(), end)
            hit = next((h for h in hits if not _own_words(compiled, text, match, h)), None)
            if hit is not None:
                gap = text[occurrence.end() : hit.start()]
                if len(gap) <= GAP and not _crosses(gap, term):
                    adjacent = occurrence.end() == match.end() and not gap.strip()
                    found.append(Governed(term, len(gap), adjacent))
    return found


def _own_words(compiled: re.Pattern[str], text: str, match: re.Match[str], hit: re.Match[str]) -> bool:
    """Whether the marker `hit` is one of the sin's own words ("without" in `without
    limitation as to amount`): inside the match, and the gate no longer matches there once
    it is blotted out. A marker in a window of the match ("Provider shall not use …" against
    `provider.{0,40}use`) is not: the gate matches without it."""
    if hit.start() < match.start() or hit.end() > match.end() or hit.start() == hit.end():
        return False
    blotted = text[: hit.start()] + "\x00" * (hit.end() - hit.start()) + text[hit.end() :]
    again = compiled.search(blotted, match.start())
    return again is None or again.start() != match.start()


#: A negator that states a limit, not a denial: "no later than", "not more than", "in no
#: event later than", "shall not exceed", "not to exceed".
_LIMIT = re.compile(
    r"\b(?:no|not)\b (?:event |case )?(?:later|more|less|fewer|sooner|greater|longer) than\b|\bnot (?:to )?exceed"
)
#: How far before the match such an idiom still belongs to the sin's own words.
_OWN_WORDS = 30


def negator_in_own_words(pattern: str, text: str) -> bool:
    """Whether a limit idiom opens right before the gate's match in `text` and runs into it
    ("in no event later than 72 hours after …", "will not exceed five percent"): the sin's
    own words carry the negator, before the match, where `negation_scope: before` still
    counts it."""
    text = normalize(text)
    compiled = compile_or_none(pattern)
    match = compiled.search(text) if compiled else None
    if match is None:
        return False
    start, _end = sentence_bounds(text, match.start(), match.end())
    return any(
        hit.start() < match.start() and hit.end() >= match.start() - _OWN_WORDS
        for hit in _LIMIT.finditer(text, start, match.end())
    )
