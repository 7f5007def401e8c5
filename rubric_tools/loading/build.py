"""The scorer's typed value of one YAML node, leniently: what the engine computes with.

A value of the wrong type falls back to the engine's default here; the schema
rules of `rubric lint` are what report it. Building never raises. The defaults are
the scorer dataclasses' own field defaults (`scoring.model` is their one source;
`schemas/` are tested against it), never written again here.

These are the conversions of one node (an issue, a question, a position, ...): the
matter's files are walked once, by `loading.element_build`, which makes each node's
element and its scorer object together (`MatterSource.with_files` types changed files
again the same way).
"""

from __future__ import annotations

import dataclasses
import datetime
import math
from collections.abc import Mapping
from typing import Any

from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.model import (
    Constraints,
    Counter,
    FinalSubmission,
    Issue,
    MatchItem,
    Position,
    Rubric,
    Variant,
    normalized_variant,
    yaml_id,
)


def _defaults(model: type) -> Mapping[str, Any]:
    """The default of every field of a scorer dataclass that has a plain one."""
    return {f.name: f.default for f in dataclasses.fields(model) if f.default is not dataclasses.MISSING}


_MATCH_ITEM = _defaults(MatchItem)
_ISSUE = _defaults(Issue)
_FINAL = _defaults(FinalSubmission)
_RUBRIC = _defaults(Rubric)
_CONSTRAINTS = _defaults(Constraints)
_POSITION = _defaults(Position)
_COUNTER = _defaults(Counter)
_GATE = _defaults(Gate)


def as_mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def number(mapping: Mapping[str, Any], key: str, default: float) -> float:
    """A float field. Infinities are kept (the engine computes with them, H27); an integer
    too large for a float becomes an infinity; lint reports both (S007+)."""
    value = mapping.get(key, default)
    return as_float(value) if is_number(value) else default


def as_float(value: int | float) -> float:
    """A YAML number as a float; an integer too large for one becomes an infinity."""
    try:
        return float(value)
    except OverflowError:  # a huge integer, whose sign `copysign` cannot read without converting it
        return -math.inf if str(value).startswith("-") else math.inf


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def integer(mapping: Mapping[str, Any], key: str, default: int) -> int:
    """An integer field; a non-finite value (the engine's `int()` raises on it) falls back
    to the default here, and lint reports it as an error."""
    value = mapping.get(key, default)
    if not is_number(value) or (isinstance(value, float) and not math.isfinite(value)):
        return default
    return int(value)


def flag(mapping: Mapping[str, Any], key: str) -> bool:
    return mapping.get(key) is True


def text(mapping: Mapping[str, Any], key: str, default: str = "") -> str:
    value = mapping.get(key, default)
    return value if isinstance(value, str) else default


def native_id(value: Any) -> int | float | bool | datetime.date | None:
    """An id YAML 1.1 read as something other than text (a date, a number, a boolean), which the
    reference keeps as it is (see `YamlId`); None when the id is text or absent."""
    return value if isinstance(value, int | float | datetime.date) else None


def string_tuple(value: Any) -> tuple[str, ...]:
    return tuple(str(item) for item in as_list(value))


def variants(value: Any) -> tuple[Variant, ...]:
    return tuple(normalized_variant(item) for item in as_list(value) if isinstance(item, list))


def gate(entry: Any) -> Gate | None:
    if isinstance(entry, str):
        return Gate(entry)
    if isinstance(entry, Mapping) and isinstance(entry.get("pattern"), str):
        return Gate(
            pattern=entry["pattern"],
            negation_guard=entry.get("negation_guard") is True,
            negation_scope="before" if entry.get("negation_scope") == "before" else _GATE["negation_scope"],
            require_context=entry.get("require_context") if isinstance(entry.get("require_context"), str) else None,
            exclude_context=entry.get("exclude_context") if isinstance(entry.get("exclude_context"), str) else None,
        )
    return None


def gates(value: Any) -> tuple[Gate, ...]:
    return tuple(g for g in (gate(entry) for entry in as_list(value)) if g is not None)


def match_item(raw: Mapping[str, Any]) -> MatchItem:
    return MatchItem(
        id=str(raw.get("id", "")),
        points=number(raw, "points", _MATCH_ITEM["points"]),
        concepts=normalized_variant(as_list(raw.get("concepts"))),
        aliases=variants(raw.get("aliases")),
        required=flag(raw, "required"),
        critical_if_missed=flag(raw, "critical_if_missed"),
    )


def issue(raw: Mapping[str, Any]) -> Issue:
    severity = raw.get("severity")
    return Issue(
        id=str(raw.get("id", "")),
        native_id=native_id(raw.get("id")),
        anchor=str(raw.get("anchor", "")),
        severity=severity if isinstance(severity, str) else None,
        base_points=number(raw, "base_points", _ISSUE["base_points"]),
        severity_points=number(raw, "severity_points", _ISSUE["severity_points"]),
        citation_points=number(raw, "citation_points", _ISSUE["citation_points"]),
        concept_points=number(raw, "concept_points", _ISSUE["concept_points"]),
        quote_points=number(raw, "quote_points", _ISSUE["quote_points"]),
        redline_points=number(raw, "redline_points", _ISSUE["redline_points"]),
        settlement_points=number(raw, "settlement_points", _ISSUE["settlement_points"]),
        required_citations=string_tuple(raw.get("required_citations")),
        required_concepts=normalized_variant(as_list(raw.get("required_concepts"))),
        redline_concepts=normalized_variant(as_list(raw.get("redline_concepts"))),
        settlement_concepts=normalized_variant(as_list(raw.get("settlement_concepts"))),
        non_negotiable=flag(raw, "non_negotiable"),
        critical_failure_patterns=gates(raw.get("critical_failure_patterns")),
        redline_critical_failure_patterns=gates(raw.get("redline_critical_failure_patterns")),
        settlement_critical_failure_patterns=gates(raw.get("settlement_critical_failure_patterns")),
    )


def final_submission(raw: Mapping[str, Any]) -> FinalSubmission:
    return FinalSubmission(
        points=number(raw, "points", _FINAL["points"]),
        minimum_characters=integer(raw, "minimum_characters", _FINAL["minimum_characters"]),
        required_issue_ids=tuple(yaml_id(item) for item in as_list(raw.get("required_issue_ids"))),
        missing_required_issue_penalty=number(
            raw, "missing_required_issue_penalty", _FINAL["missing_required_issue_penalty"]
        ),
        missed_escalation_penalty=number(raw, "missed_escalation_penalty", _FINAL["missed_escalation_penalty"]),
        required_concepts=normalized_variant(as_list(raw.get("required_concepts"))),
        concept_points=number(raw, "concept_points", _FINAL["concept_points"]),
    )


def rubric_of(
    raw: Mapping[str, Any],
    *,
    questions: tuple[MatchItem, ...],
    escalations: tuple[MatchItem, ...],
    issues: tuple[Issue, ...],
    final: FinalSubmission,
) -> Rubric:
    """The rubric of a `rubric.yaml` mapping whose entries are built already."""
    return Rubric(
        critical_failure_score_cap=number(raw, "critical_failure_score_cap", _RUBRIC["critical_failure_score_cap"]),
        max_score=as_float(raw["max_score"]) if is_number(raw.get("max_score")) else _RUBRIC["max_score"],
        questions=questions,
        escalations=escalations,
        issues=issues,
        final_submission=final,
    )


def constraints(raw: Any) -> Constraints:
    raw = as_mapping(raw)
    return Constraints(
        maximum_steps=integer(raw, "maximum_steps", _CONSTRAINTS["maximum_steps"]),
        maximum_client_questions=integer(raw, "maximum_client_questions", _CONSTRAINTS["maximum_client_questions"]),
        maximum_escalations=integer(raw, "maximum_escalations", _CONSTRAINTS["maximum_escalations"]),
        maximum_negotiation_rounds=integer(
            raw, "maximum_negotiation_rounds", _CONSTRAINTS["maximum_negotiation_rounds"]
        ),
    )


def position(raw: Any) -> Position:
    """The counterparty's position on one issue (`positions.<issue id>`)."""
    raw = as_mapping(raw)
    return Position(
        resist_rounds=integer(raw, "resist_rounds", _POSITION["resist_rounds"]),
        accept_concepts=variants(raw.get("accept_concepts")),
        counters=tuple(
            Counter(
                message=text(c, "message", _COUNTER["message"]),
                text=text(c, "text", _COUNTER["text"]),
                trap=flag(c, "trap"),
            )
            for c in as_list(raw.get("counters"))
            if isinstance(c, Mapping)
        ),
        reject_message=text(raw, "reject_message", _POSITION["reject_message"]),
    )
