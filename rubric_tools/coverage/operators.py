"""Mutation operators: each yields in-memory alterations of the scorer's model.

A mutant is a function of the Matter (frozen dataclasses, so `replace` makes the
altered copy) plus where it sits in the YAML. Every operator targets something a
matter's tests should pin down: a gate that must fire or stay silent, a concept or
variant that earns points, an anchor, a negotiating position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from rubric_tools.coverage.items import gate_indices, raw_entries
from rubric_tools.loading.matter import COUNTERPARTY_FILE, RUBRIC_FILE, MatterSource
from rubric_tools.loading.yaml_source import InstancePath
from rubric_tools.scoring.gates import Gate, run_gates
from rubric_tools.scoring.model import GATE_SURFACES, Issue, MatchItem, Matter, Rubric
from rubric_tools.scoring.text import concept_fraction, format_citation, normalize, split_citation

#: Stands in for a dropped concept: no normalized text contains it, so it is never found.
DROPPED_CONCEPT = "\x00dropped-concept\x00"
_Frozen = TypeVar("_Frozen", Issue, Rubric)
OPERATORS = (
    "delete-gate",
    "unguard-gate",
    "drop-concept",
    "delete-variant",
    "move-anchor",
    "flip-non-negotiable",
    "raise-resist-rounds",
    "soften-counter",
)


@dataclass(frozen=True)
class MutantSpec:
    id: str
    operator: str
    description: str
    file: str
    path: InstancePath
    apply: Callable[[Matter], Matter]
    gate_list: tuple[str, str] | None = None  # (surface, issue id) when only that gate list changes


def _changed(obj: _Frozen, field_name: str, value: object) -> _Frozen:
    """A copy of a frozen dataclass with one field, named at run time, replaced."""
    changes: dict[str, Any] = {field_name: value}
    return replace(obj, **changes)


def _with_issue(matter: Matter, index: int, issue: Issue) -> Matter:
    issues = list(matter.rubric.issues)
    issues[index] = issue
    return replace(matter, rubric=replace(matter.rubric, issues=tuple(issues)))


def _gate_mutants(issue_index: int, yaml_index: int, issue: Issue, raw: Mapping[str, Any]) -> Iterator[MutantSpec]:
    for surface, list_name in GATE_SURFACES.items():
        gates = issue.gates(surface)
        for number, yaml_gate in enumerate(gate_indices(raw.get(list_name))):
            gate = gates[number]
            path: InstancePath = ("issues", yaml_index, list_name, yaml_gate)
            base = f"issues.{issue.id}.{list_name}[{number}]"

            def delete(m: Matter, n: int = number, s: str = surface, ln: str = list_name) -> Matter:
                current = m.rubric.issues[issue_index]
                kept = tuple(g for i, g in enumerate(current.gates(s)) if i != n)
                return _with_issue(m, issue_index, _changed(current, ln, kept))

            yield MutantSpec(
                f"{base}:delete-gate",
                "delete-gate",
                f"{issue.id}: {surface} gate {number} deleted",
                RUBRIC_FILE,
                path,
                delete,
                gate_list=(surface, issue.id),
            )
            if gate.is_structured:

                def unguard(m: Matter, n: int = number, s: str = surface, ln: str = list_name) -> Matter:
                    current = m.rubric.issues[issue_index]
                    altered = tuple(Gate(g.pattern) if i == n else g for i, g in enumerate(current.gates(s)))
                    return _with_issue(m, issue_index, _changed(current, ln, altered))

                yield MutantSpec(
                    f"{base}:unguard-gate",
                    "unguard-gate",
                    f"{issue.id}: {surface} gate {number} without its guards",
                    RUBRIC_FILE,
                    path,
                    unguard,
                    gate_list=(surface, issue.id),
                )


def _concept_mutants(issue_index: int, yaml_index: int, issue: Issue, negotiated: bool) -> Iterator[MutantSpec]:
    lists = [
        ("required_concepts", bool(issue.concept_points)),
        ("redline_concepts", bool(issue.redline_points)),
        ("settlement_concepts", negotiated and bool(issue.settlement_points)),
    ]
    for list_name, scorable in lists:
        concepts: tuple[str, ...] = getattr(issue, list_name)
        for position, concept in enumerate(concepts if scorable else ()):

            def drop(m: Matter, p: int = position, ln: str = list_name) -> Matter:
                current = m.rubric.issues[issue_index]
                altered = tuple(DROPPED_CONCEPT if i == p else c for i, c in enumerate(getattr(current, ln)))
                return _with_issue(m, issue_index, _changed(current, ln, altered))

            yield MutantSpec(
                f"issues.{issue.id}.{list_name}[{concept}]:drop-concept",
                "drop-concept",
                f"{issue.id}: {list_name} '{concept}' dropped",
                RUBRIC_FILE,
                ("issues", yaml_index, list_name, position),
                drop,
            )


def _next_section(matter: Matter, anchor: str) -> str | None:
    parsed = split_citation(anchor)
    document = matter.documents.get(parsed[0]) if parsed else None
    if parsed is None or document is None:
        return None
    tokens = list(document.sections)
    if parsed[1] not in tokens or len(tokens) < 2:
        return None
    position = tokens.index(parsed[1])
    other = tokens[position + 1] if position + 1 < len(tokens) else tokens[position - 1]
    return format_citation(document.id, other)


def _issue_mutants(source: MatterSource) -> Iterator[MutantSpec]:
    matter = source.matter
    for issue_index, ((yaml_index, raw), issue) in enumerate(
        zip(raw_entries(source.data(RUBRIC_FILE), "issues"), matter.rubric.issues, strict=False)
    ):
        yield from _gate_mutants(issue_index, yaml_index, issue, raw)
        yield from _concept_mutants(issue_index, yaml_index, issue, issue.id in matter.positions)
        moved = _next_section(matter, issue.anchor)
        if moved is not None:

            def move(m: Matter, i: int = issue_index, target: str = moved) -> Matter:
                return _with_issue(m, i, replace(m.rubric.issues[i], anchor=target))

            yield MutantSpec(
                f"issues.{issue.id}.anchor:move-anchor",
                "move-anchor",
                f"{issue.id}: anchor moved from {issue.anchor} to {moved}",
                RUBRIC_FILE,
                ("issues", yaml_index, "anchor"),
                move,
            )
        if issue.id in matter.positions:

            def flip(m: Matter, i: int = issue_index) -> Matter:
                current = m.rubric.issues[i]
                return _with_issue(m, i, replace(current, non_negotiable=not current.non_negotiable))

            state = "negotiable" if issue.non_negotiable else "non-negotiable"
            yield MutantSpec(
                f"issues.{issue.id}.non_negotiable:flip-non-negotiable",
                "flip-non-negotiable",
                f"{issue.id}: made {state}",
                RUBRIC_FILE,
                ("issues", yaml_index, "non_negotiable"),
                flip,
            )


def _variant_mutants(source: MatterSource, section: str) -> Iterator[MutantSpec]:
    items: tuple[MatchItem, ...] = getattr(source.matter.rubric, section)
    for item_index, ((yaml_index, _), item) in enumerate(
        zip(raw_entries(source.data(RUBRIC_FILE), section), items, strict=False)
    ):
        for number, variant in enumerate(item.variants):
            if not variant:
                continue

            def delete(m: Matter, i: int = item_index, n: int = number) -> Matter:
                current: MatchItem = getattr(m.rubric, section)[i]
                altered = (
                    replace(current, concepts=())
                    if n == 0
                    else replace(current, aliases=tuple(a for k, a in enumerate(current.aliases) if k != n - 1))
                )
                listed = list(getattr(m.rubric, section))
                listed[i] = altered
                rubric = _changed(m.rubric, section, tuple(listed))
                return replace(m, rubric=rubric)

            path: InstancePath = (
                (section, yaml_index, "concepts") if number == 0 else (section, yaml_index, "aliases", number - 1)
            )
            yield MutantSpec(
                f"{section}.{item.id}.variants[{number}]:delete-variant",
                "delete-variant",
                f"{item.id}: variant {number} ({' + '.join(variant)}) deleted",
                RUBRIC_FILE,
                path,
                delete,
            )


def _final_mutants(source: MatterSource) -> Iterator[MutantSpec]:
    final = source.matter.rubric.final_submission
    for position, concept in enumerate(final.required_concepts if final.concept_points else ()):

        def drop(m: Matter, p: int = position) -> Matter:
            current = m.rubric.final_submission
            altered = tuple(DROPPED_CONCEPT if i == p else c for i, c in enumerate(current.required_concepts))
            return replace(m, rubric=replace(m.rubric, final_submission=replace(current, required_concepts=altered)))

        yield MutantSpec(
            f"final_submission.required_concepts[{concept}]:drop-concept",
            "drop-concept",
            f"final summary concept '{concept}' dropped",
            RUBRIC_FILE,
            ("final_submission", "required_concepts", position),
            drop,
        )


def _position_mutants(source: MatterSource) -> Iterator[MutantSpec]:
    for issue_id, position in source.matter.positions.items():
        at: InstancePath = ("positions", issue_id)

        def with_position(m: Matter, changed: object, key: str = issue_id) -> Matter:
            positions = dict(m.positions)
            positions[key] = changed  # type: ignore[assignment]
            return replace(m, positions=positions)

        def resist(m: Matter, key: str = issue_id) -> Matter:
            current = m.positions[key]
            return with_position(m, replace(current, resist_rounds=current.resist_rounds + 1), key)

        yield MutantSpec(
            f"positions.{issue_id}.resist_rounds:raise-resist-rounds",
            "raise-resist-rounds",
            f"{issue_id}: resists one more round ({position.resist_rounds + 1})",
            COUNTERPARTY_FILE,
            (*at, "resist_rounds"),
            resist,
        )
        for number, _ in enumerate(position.accept_concepts):

            def delete(m: Matter, n: int = number, key: str = issue_id) -> Matter:
                current = m.positions[key]
                kept = tuple(v for k, v in enumerate(current.accept_concepts) if k != n)
                return with_position(m, replace(current, accept_concepts=kept), key)

            yield MutantSpec(
                f"positions.{issue_id}.accept_concepts[{number}]:delete-variant",
                "delete-variant",
                f"{issue_id}: acceptable language {number} deleted",
                COUNTERPARTY_FILE,
                (*at, "accept_concepts", number),
                delete,
            )
        issue = source.matter.rubric.issues_by_id.get(issue_id)
        softened = _softened_text(issue) if issue is not None else ""
        for number, counter in enumerate(position.counters):
            if issue is None or _settles_alike(issue, counter.text, softened):
                continue  # accepting the softened counter would score the same: an equivalent mutant

            def soften(m: Matter, n: int = number, key: str = issue_id, text: str = softened) -> Matter:
                current = m.positions[key]
                counters = tuple(replace(c, text=text) if k == n else c for k, c in enumerate(current.counters))
                return with_position(m, replace(current, counters=counters), key)

            yield MutantSpec(
                f"positions.{issue_id}.counters[{number}]:soften-counter",
                "soften-counter",
                f"{issue_id}: counter {number} replaced by fully acceptable language",
                COUNTERPARTY_FILE,
                (*at, "counters", number),
                soften,
            )


def _softened_text(issue: Issue) -> str:
    """Closing language the scorer credits in full: every settlement concept, nothing else
    (with no settlement concepts any closing text earns full points, so the empty text)."""
    return " ".join(issue.settlement_concepts)


def _settles_alike(issue: Issue, text: str, other: str) -> bool:
    """Whether closing on either text earns the same concepts, gates and concession verdict."""

    def outcome(closing: str) -> tuple[tuple[str, ...], bool]:
        normalized = normalize(closing)
        found, missing = concept_fraction(issue.settlement_concepts, normalized)
        fires = bool(run_gates(issue.settlement_critical_failure_patterns, normalized).fired)
        return tuple(found), fires or (issue.non_negotiable and bool(missing))

    return outcome(text) == outcome(other)


def mutants(source: MatterSource) -> Iterator[MutantSpec]:
    """Every mutant of the matter, in file order (rubric.yaml, then counterparty.yaml)."""
    yield from _variant_mutants(source, "questions")
    yield from _variant_mutants(source, "escalations")
    yield from _issue_mutants(source)
    yield from _final_mutants(source)
    yield from _position_mutants(source)
