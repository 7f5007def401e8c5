"""Seeded defects: generic operators that break a correct gate or concept the way rubric
authors break them, for measuring the audit's recall (`rubric_tools.audit.recall`,
`benchmarks/audit_recall.py`).

Each operator takes one gate entry (always as a mapping: `{"pattern": ...}` plus its
guards) or one concept string, and returns the defective version, or None when it does
not apply to that entry. Operators are written from the kinds of mistake, never from any
matter's text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rubric_tools.gate_analysis.alternatives import group_body_start, scan_groups
from rubric_tools.loading.elements import GateElement
from rubric_tools.scoring.gates import NEGATOR

GateEntry = dict[str, Any]


@dataclass(frozen=True)
class GateOperator:
    name: str
    what: str
    apply: Callable[[GateEntry], GateEntry | None]
    control: bool = False  # meaning-preserving: the audit must NOT report anything new


@dataclass(frozen=True)
class ConceptOperator:
    name: str
    what: str
    #: (concept, field, clause under review or None) -> defective concept
    apply: Callable[[str, str, str | None], str | None]


def narrow_alternation(pattern: str) -> str | None:
    """Only the first branch of the first alternation: the author forgot the other ways to say it."""
    top, groups = scan_groups(pattern)
    if top:
        return pattern[: top[0]]
    for start, end, bars in groups:
        body = group_body_start(pattern, start)
        if bars and body is not None:
            return pattern[:body] + pattern[body : bars[0]] + pattern[end:]
    return None


def _with_pattern(entry: GateEntry, pattern: str | None) -> GateEntry | None:
    if pattern is None or pattern == entry["pattern"]:
        return None
    return {**entry, "pattern": pattern}


def _drop_key(*keys: str) -> Callable[[GateEntry], GateEntry | None]:
    def apply(entry: GateEntry) -> GateEntry | None:
        if not entry.get(keys[0]):
            return None
        return {k: v for k, v in entry.items() if k not in keys}

    return apply


_LITERAL_DIGIT = re.compile(r"(?<![\\{,\d])(?<!\\\$)\d")


def _unescaped_dollar(entry: GateEntry) -> GateEntry | None:
    pattern = entry["pattern"]
    if "\\$" in pattern:
        return _with_pattern(entry, pattern.replace("\\$", "$", 1))
    digit = _LITERAL_DIGIT.search(pattern)
    return _with_pattern(entry, pattern[: digit.start()] + "$" + pattern[digit.start() :]) if digit else None


def _tighten_window(entry: GateEntry) -> GateEntry | None:
    window = re.search(r"\[\^\.[^\]]*\]\{(\d*),(\d+)\}", entry["pattern"])
    if window is None or int(window.group(2)) < 12:
        return None
    tight = window.group(0)[: window.start(2) - window.start()] + "3}"
    return _with_pattern(entry, entry["pattern"].replace(window.group(0), tight, 1))


def _exclude_own_word(entry: GateEntry) -> GateEntry | None:
    word = re.search(r"(?<![\\\[(?])\b[a-z]{4,}\b", entry["pattern"])
    if word is None:
        return None
    return {**entry, "exclude_context": rf"\b{word.group(0)}"}


def _guard_negated(entry: GateEntry) -> GateEntry | None:
    """negation_guard on a pattern (without alternatives) whose own words hold a negator."""
    pattern = entry["pattern"]
    if entry.get("negation_guard") or narrow_alternation(pattern) is not None:
        return None
    return {**entry, "negation_guard": True} if NEGATOR.search(re.sub(r"\\.", " ", pattern)) else None


def _straight_apostrophe(entry: GateEntry) -> GateEntry | None:
    pattern = re.sub(r"\[(?:'’|’')\]", "'", entry["pattern"])
    return _with_pattern(entry, pattern)


def _literal_hyphen(entry: GateEntry) -> GateEntry | None:
    pattern = re.sub(r"\[(?:- |- ?|\\s-|-\\s)\]\??|(?<=\w)-\?", "-", entry["pattern"], count=1)
    return _with_pattern(entry, pattern)


def _undotted_window(entry: GateEntry) -> GateEntry | None:
    return _with_pattern(entry, re.sub(r"\(\?:\[\^\.\]\|\\\.\(\?=\\d\)\)", "[^.]", entry["pattern"]))


def _frozen_inflection(entry: GateEntry) -> GateEntry | None:
    """`claims? `, `re-identif(?:y|ies)\\b` → one form only (where a word boundary or a space
    follows: at the end of a pattern the singular still matches inside the plural)."""
    pattern = re.sub(
        r"(?<=[a-z])(?<!\\[a-z])(?:s\?|\(\?:([a-z]{1,5})(?:\|[a-z]{1,5})+\))(?=\\b| )",
        lambda m: m.group(1) or "",
        entry["pattern"],
        count=1,
    )
    return _with_pattern(entry, pattern)


GATE_OPERATORS: tuple[GateOperator, ...] = (
    GateOperator("drop-negation-guard", "remove negation_guard", _drop_key("negation_guard", "negation_scope")),
    GateOperator("drop-exclude-context", "remove exclude_context", _drop_key("exclude_context")),
    GateOperator("drop-require-context", "remove require_context", _drop_key("require_context")),
    GateOperator(
        "narrow-alternation", "keep only the first branch", lambda e: _with_pattern(e, narrow_alternation(e["pattern"]))
    ),
    GateOperator("anchor", "anchor with ^…$", lambda e: {**e, "pattern": f"^(?:{e['pattern']})$"}),
    GateOperator("unescaped-dollar", "an unescaped $ before a digit", _unescaped_dollar),
    GateOperator(
        "backspace-b",
        'YAML\'s "\\b" (a backspace) for \\b',
        lambda e: _with_pattern(e, e["pattern"].replace("\\b", "\b")),
    ),
    GateOperator("tighten-window", "a [^.]{0,N} window cut to 3 characters", _tighten_window),
    GateOperator(
        "exclude-everything", "exclude_context matching every sentence", lambda e: {**e, "exclude_context": "."}
    ),
    GateOperator("exclude-own-word", "exclude_context on a word of the pattern itself", _exclude_own_word),
    GateOperator("guard-negated-pattern", "negation_guard on a pattern that holds a negator", _guard_negated),
    GateOperator("straight-apostrophe", "['’] narrowed to a straight apostrophe", _straight_apostrophe),
    GateOperator("literal-hyphen", "an optional hyphen or space made a literal hyphen", _literal_hyphen),
    GateOperator("undotted-window", "a window that stops at the period of §6.2", _undotted_window),
    GateOperator("frozen-inflection", "one inflection only (claims? → claim)", _frozen_inflection),
    GateOperator(
        "control-equivalent",
        "wrap the pattern in (?:…) (a control)",
        lambda e: {**e, "pattern": f"(?:{e['pattern']})"},
        control=True,
    ),
)


def _regex_looking(concept: str, _field: str, _clause: str | None) -> str | None:
    return concept.replace(" ", r"\s+", 1) if " " in concept else None


def _two_letter(concept: str, _field: str, _clause: str | None) -> str | None:
    letters = re.sub(r"[^a-z]", "", concept.lower())
    return letters[:2] if len(letters) > 2 else None


def _clause_words(concept: str, field: str, clause: str | None) -> str | None:
    """A redline concept copied from the clause under review (three of its words)."""
    if clause is None or not field.endswith("redline_concepts"):
        return None
    words = re.findall(r"[a-z]{3,}(?: [a-z]{3,}){2}", clause.lower())
    return words[0] if words else None


CONCEPT_OPERATORS: tuple[ConceptOperator, ...] = (
    ConceptOperator("regex-concept", "a concept written as a regex (\\s+)", _regex_looking),
    ConceptOperator("two-letter-alias", "a concept cut to two letters", _two_letter),
    ConceptOperator("concept-from-clause", "a redline concept copied from the clause", _clause_words),
)


def as_entry(gate: GateElement) -> GateEntry | None:
    """A gate list entry as a mapping (a bare pattern becomes `{"pattern": ...}`), or None
    when the scorer does not run it. The operators alter this copy of what is written."""
    if gate.gate is None:
        return None
    if gate.form == "string":
        return {"pattern": gate.pattern}
    return {str(written.key): written.value for written in gate.fields}
