"""Mutation operators: each yields in-memory alterations of the scorer's model.

A mutant is a function of the Matter (frozen dataclasses, so `replace` makes the
altered copy) plus where it sits in the YAML. Every operator targets something a
matter's tests should pin down: a gate that must fire or stay silent, a concept or
variant that earns points, an anchor, a negotiating position.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from rubric_tools.coverage.items import variant_location
from rubric_tools.loading.elements import IssueElement, Location
from rubric_tools.loading.matter import MatterSource
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
    location: Location  # the YAML node the mutant alters
    apply: Callable[[Matter], Matter]
    gate_list: tuple[str, str] | None = None  # (surface, issue id) when only that gate list changes

    @property
    def file(self) -> str:
        return self.location.file_name

    @property
    def path(self) -> InstancePath:
        return self.location.path


def _changed(obj: _Frozen, field_name: str, value: object) -> _Frozen:
    """A copy of a frozen dataclass with one field, named at run time, replaced."""
    changes: dict[str, Any] = {field_name: value}
    return replace(obj, **changes)


def _with_issue(matter: Matter, index: int, issue: Issue) -> Matter:
    issues = list(matter.rubric.issues)
    issues[index] = issue
    return replace(matter, rubric=replace(matter.rubric, issues=tuple(issues)))


def _gate_mutants(issue_index: int, element: IssueElement) -> Iterator[MutantSpec]:
    issue = element.scored
    for surface, list_name in GATE_SURFACES.items():
        # The entries the scorer runs, numbered as it numbers them; each keeps its file position.
        scored = [(entry, entry.gate) for entry in element.gate_list(surface) if entry.gate is not None]
        for number, (entry, gate) in enumerate(scored):
            where = entry.location
            base = f"issues.{issue.id}.{list_name}[{number}]"

            def delete(m: Matter, n: int = number, s: str = surface, ln: str = list_name) -> Matter:
                current = m.rubric.issues[issue_index]
                kept = tuple(g for i, g in enumerate(current.gates(s)) if i != n)
                return _with_issue(m, issue_index, _changed(current, ln, kept))

            yield MutantSpec(
                f"{base}:delete-gate",
                "delete-gate",
                f"{issue.id}: {surface} gate {number} deleted",
                where,
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
                    where,
                    unguard,
                    gate_list=(surface, issue.id),
                )


def _concept_mutants(issue_index: int, element: IssueElement, negotiated: bool) -> Iterator[MutantSpec]:
    issue = element.scored
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
                element.at(list_name, position),
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
    # The model's issues are the scorer's, in its order: `issue_index` indexes both.
    for issue_index, element in enumerate(source.model.issues):
        issue = element.scored
        yield from _gate_mutants(issue_index, element)
        yield from _concept_mutants(issue_index, element, issue.id in matter.positions)
        moved = _next_section(matter, issue.anchor)
        if moved is not None:

            def move(m: Matter, i: int = issue_index, target: str = moved) -> Matter:
                return _with_issue(m, i, replace(m.rubric.issues[i], anchor=target))

            yield MutantSpec(
                f"issues.{issue.id}.anchor:move-anchor",
                "move-anchor",
                f"{issue.id}: anchor moved from {issue.anchor} to {moved}",
                element.at("anchor"),
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
                element.at("non_negotiable"),
                flip,
            )


def _variant_mutants(source: MatterSource, section: str) -> Iterator[MutantSpec]:
    # The model's items are the scorer's, in its order: `item_index` indexes both.
    for item_index, element in enumerate(source.model.match_items(section)):
        item = element.scored
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

            yield MutantSpec(
                f"{section}.{item.id}.variants[{number}]:delete-variant",
                "delete-variant",
                f"{item.id}: variant {number} ({' + '.join(variant)}) deleted",
                variant_location(element, number),
                delete,
            )


def _final_mutants(source: MatterSource) -> Iterator[MutantSpec]:
    element = source.model.final_submission
    final = element.scored
    for position, concept in enumerate(final.required_concepts if final.concept_points else ()):

        def drop(m: Matter, p: int = position) -> Matter:
            current = m.rubric.final_submission
            altered = tuple(DROPPED_CONCEPT if i == p else c for i, c in enumerate(current.required_concepts))
            return replace(m, rubric=replace(m.rubric, final_submission=replace(current, required_concepts=altered)))

        yield MutantSpec(
            f"final_submission.required_concepts[{concept}]:drop-concept",
            "drop-concept",
            f"final summary concept '{concept}' dropped",
            element.at("required_concepts", position),
            drop,
        )


def _position_mutants(source: MatterSource) -> Iterator[MutantSpec]:
    for issue_id, position in source.matter.positions.items():
        element = source.model.position(issue_id)
        if element is None:
            continue  # not reached: every scored position is written in counterparty.yaml

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
            element.at("resist_rounds"),
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
                element.accept_concepts[number].location,  # the scorer's variants are the list entries
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
                element.counters[number].location,  # the scorer's counters are the mapping entries
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
