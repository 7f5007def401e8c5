"""Writing the text of each action: concepts stated without tripping a gate, questions
that win first-wins matching, verbatim quotes, a summary long enough.

Every builder checks its own output against the scorer's functions (normalize,
run_gates, variant matching), so the solver never relies on a guess about the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

import regex

from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT, Gate, run_gates
from rubric_tools.scoring.model import MatchItem, Position
from rubric_tools.scoring.text import normalize, variant_matches
from rubric_tools.scoring.work_product import MINIMUM_QUOTE_LENGTH

#: Separators tried when joining a variant's concepts into a question.
_SEPARATORS = ("; ", " / ", " and ", ", ")
#: Orderings of a variant tried before declaring it shadowed (all of them up to this size).
_MAX_PERMUTED_CONCEPTS = 4
#: A quote longer than this is cut at a word boundary: a long one proves nothing more.
_MAX_QUOTE_CHARACTERS = 240
_SENTENCE_SPLIT = regex.compile(r"(?<=[.!?;:])\s+")
_SUMMARY_FILLER = " The review is complete and the open points are recorded above."


@dataclass(frozen=True)
class Blocked:
    """A concept left out of a text because a gate fires when it is stated."""

    concept: str
    gate: str
    alone: bool  # the gate fires on the concept stated on its own


@dataclass(frozen=True)
class Wording:
    """A text, the concepts it states, and the ones a gate kept out."""

    text: str
    included: tuple[str, ...]
    blocked: tuple[Blocked, ...] = ()
    frame_gate: str | None = None  # set when even the text without any concept trips a gate

    @property
    def usable(self) -> bool:
        return self.frame_gate is None


def _body(concepts: Sequence[str]) -> str:
    """One short sentence per concept, so sentence-scoped gates see each on its own."""
    return " ".join(f"{concept}." for concept in concepts)


def _fired(gates: tuple[Gate, ...], text: str, timeout: float) -> str | None:
    return run_gates(gates, normalize(text), timeout).last_fired


def compose(
    concepts: Sequence[str],
    gates: tuple[Gate, ...],
    *,
    mandatory: Sequence[str] = (),
    prefix: str = "",
    suffix: str = "",
    timeout: float = DEFAULT_SEARCH_TIMEOUT,
) -> Wording:
    """State every concept in `concepts` (and all of `mandatory`) so that no gate fires on
    `prefix + body + suffix`. A concept that cannot be placed anywhere is `blocked`."""

    def check(parts: Sequence[str]) -> str | None:
        return _fired(gates, f"{prefix} {_body(parts)} {suffix}", timeout)

    kept = list(dict.fromkeys(c for c in mandatory if c))
    frame = check(kept)
    if frame is not None:
        return Wording(_body(kept), tuple(kept), frame_gate=frame)
    blocked: list[Blocked] = []
    for concept in dict.fromkeys(concepts):
        if concept in normalize(_body(kept)):
            continue  # already stated (an empty concept, or part of a longer one)
        placed = False
        # End first (reads naturally), then the front, then every gap in between.
        for position in (len(kept), 0, *range(1, len(kept))):
            candidate = kept[:position] + [concept] + kept[position:]
            if check(candidate) is None:
                kept, placed = candidate, True
                break
        if not placed:
            alone = check([concept])
            gate = alone or check([*kept, concept]) or ""
            blocked.append(Blocked(concept, gate, alone is not None))
    return Wording(_body(kept), tuple(kept), tuple(blocked))


def first_winner(items: Sequence[MatchItem], normalized_text: str) -> int | None:
    """Index of the item first-wins matching picks for the text (engine.md §3)."""
    for index, item in enumerate(items):
        if any(variant_matches(variant, normalized_text) for variant in item.variants):
            return index
    return None


def _phrasings(variant: tuple[str, ...]) -> list[str]:
    orders = permutations(variant) if len(variant) <= _MAX_PERMUTED_CONCEPTS else [variant]
    return [separator.join(order) for order in orders for separator in _SEPARATORS]


def winning_question(items: Sequence[MatchItem], index: int) -> tuple[str | None, int | None]:
    """(question text that item `index` wins, None), or (None, index of the item that
    shadows its first live variant) when no phrasing of any variant wins."""
    shadow: int | None = None
    for variant in items[index].variants:
        if not variant:
            continue
        for phrase in _phrasings(variant):
            text = f"{phrase}?"
            winner = first_winner(items, normalize(text))
            if winner == index:
                return text, None
            if shadow is None:
                shadow = winner
    return None, shadow


def winning_escalation(items: Sequence[MatchItem], index: int) -> tuple[tuple[str, str] | None, int | None]:
    """(topic, reason) whose joined text item `index` wins, as `winning_question` does."""
    shadow: int | None = None
    for variant in items[index].variants:
        if not variant:
            continue
        for phrase in _phrasings(variant):
            for topic, reason in ((phrase, "Needs a decision."), (phrase, ".")):
                winner = first_winner(items, normalize(f"{topic} {reason}"))
                if winner == index and topic.strip():
                    return (topic, reason), None
                if shadow is None:
                    shadow = winner
    return None, shadow


def _quote_candidates(section_text: str) -> list[str]:
    candidates: list[str] = []
    for line in section_text.split("\n"):
        if line.startswith("#"):
            continue  # the heading is quotable, but a sentence of the provision reads better
        for sentence in _SENTENCE_SPLIT.split(line):
            sentence = sentence.strip().lstrip("-*>").strip()
            if len(sentence) > _MAX_QUOTE_CHARACTERS:
                sentence = sentence[:_MAX_QUOTE_CHARACTERS].rsplit(" ", 1)[0]
            if sentence:
                candidates.append(sentence)
    return candidates


def pick_quote(
    section_text: str,
    normalized_section: str,
    gates: tuple[Gate, ...],
    timeout: float = DEFAULT_SEARCH_TIMEOUT,
) -> str | None:
    """A verbatim sentence of the section that the engine verifies (≥ 15 normalized
    characters, contained in the section) and that trips none of `gates`."""
    fallback: str | None = None
    for candidate in [*_quote_candidates(section_text), normalized_section[:_MAX_QUOTE_CHARACTERS]]:
        normalized = normalize(candidate)
        if len(normalized) < MINIMUM_QUOTE_LENGTH or normalized not in normalized_section:
            continue
        if _fired(gates, candidate, timeout) is None:
            return candidate
        fallback = fallback or candidate
    return fallback


def summary_text(concepts: Sequence[str], issue_labels: Sequence[str], minimum_characters: int) -> str:
    """A closing summary naming the matched issues and every required concept,
    padded to `minimum_characters` (counted on the stripped text, as the engine does)."""
    parts = ["Final report."]
    if issue_labels:
        parts.append("Issues raised: " + ", ".join(issue_labels) + ".")
    if concepts:
        parts.append("Points for the supervisor: " + " ".join(f"{c}." for c in concepts if c))
    summary = " ".join(parts)
    missing = minimum_characters - len(summary.strip())
    if missing > 0:
        summary += _SUMMARY_FILLER * -(-missing // len(_SUMMARY_FILLER))  # ceiling division
    return summary


def non_acceptable_text(position: Position) -> str | None:
    """A markup text the counterparty never accepts (it draws a counter), if any exists."""
    for text in ("We propose to revisit this provision.", "-", ""):
        if not any(variant_matches(v, normalize(text)) for v in position.accept_concepts):
            return text
    return None
