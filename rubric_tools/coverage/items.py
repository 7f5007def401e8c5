"""Enumerate a matter's scorable items, each at the YAML node that defines it.

Items with no points to earn or lose (a zero-point component, final concepts worth
nothing) are not scorable and are left out, as coverage.py leaves out blank lines.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rubric_tools.coverage.model import CoverageItem
from rubric_tools.loading import build
from rubric_tools.loading.matter import COUNTERPARTY_FILE, RUBRIC_FILE, MatterSource
from rubric_tools.loading.yaml_source import InstancePath
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.model import GATE_SURFACES, Issue, MatchItem


@dataclass
class ItemTable:
    """The items of one matter, by id, in rubric order."""

    items: dict[str, CoverageItem] = field(default_factory=dict)

    def get(self, item_id: str) -> CoverageItem | None:
        return self.items.get(item_id)

    def credit(self, item_id: str, exerciser: str) -> None:
        item = self.items.get(item_id)
        if item is not None:
            item.credit(exerciser)


def gate_id(issue_id: str, surface: str, index: int, side: str) -> str:
    return f"issues.{issue_id}.{GATE_SURFACES[surface]}[{index}].{side}"


def variant_id(section: str, item_id: str, index: int) -> str:
    return f"{section}.{item_id}.variants[{index}]"


def concept_id(owner: str, list_name: str, concept: str) -> str:
    return f"{owner}.{list_name}[{concept}]"


class _Builder:
    def __init__(self, source: MatterSource) -> None:
        self.source = source
        self.table = ItemTable()

    def add(self, item_id: str, kind: str, description: str, file: str, path: InstancePath) -> None:
        if item_id in self.table.items:
            return  # a duplicate id in the YAML: the scorer cannot tell them apart either
        yaml_file = self.source.files.get(file)
        span = yaml_file.span(path) if yaml_file is not None else None
        line, end = 1, 1
        if span is not None:
            lines = yaml_file.lines if yaml_file is not None else []
            # Spans are end-exclusive: a block node ends where the next token starts, so
            # when nothing but indentation precedes its end, it really ended a line earlier.
            ends_early = span.end_line <= len(lines) and not lines[span.end_line - 1][: span.end_column - 1].strip()
            last = span.end_line - 1 if ends_early and span.end_line > span.line else span.end_line
            line, end = span.line, max(span.line, last)
            if yaml_file is not None and path and span == yaml_file.span(path[:-1]):
                end = line  # the key is absent (a default applies): point at its owner's first line only
            while end > line and end <= len(lines) and lines[end - 1].strip()[:1] in ("", "#"):
                end -= 1  # a node's span runs over the comments and blank lines after it
        self.table.items[item_id] = CoverageItem(item_id, kind, description, file, line, end)


def raw_entries(data: Any, key: str) -> list[tuple[int, Mapping[str, Any]]]:
    """(YAML index, entry) of each mapping in a list: the ones the loader builds models from."""
    return [(i, e) for i, e in enumerate(build.as_list(build.as_mapping(data).get(key))) if isinstance(e, Mapping)]


def _match_items(builder: _Builder, section: str, items: tuple[MatchItem, ...], raw: Any) -> None:
    for (index, _), item in zip(raw_entries(raw, section), items, strict=False):
        for number, variant in enumerate(item.variants):
            if not variant:
                continue  # an empty variant never matches: lint reports it
            path: InstancePath = (
                (section, index, "concepts") if number == 0 else (section, index, "aliases", number - 1)
            )
            words = " + ".join(variant)
            builder.add(
                variant_id(section, item.id, number),
                f"{section[:-1]}-variant",
                f"{item.id}: variant {number} ({words}) matched",
                RUBRIC_FILE,
                path,
            )
        if section == "escalations" and (item.critical_if_missed or item.required):
            consequence = "critical failure" if item.critical_if_missed else "penalty"
            builder.add(
                f"escalations.{item.id}.missed",
                "escalation-missed",
                f"{item.id}: missed at the final submission ({consequence})",
                RUBRIC_FILE,
                (section, index),
            )


def gate_indices(raw_list: Any) -> list[int]:
    """YAML index of each gate the loader keeps (malformed entries are dropped)."""
    return [i for i, entry in enumerate(build.as_list(raw_list)) if build.gate(entry) is not None]


def _issue_items(builder: _Builder, index: int, raw: Mapping[str, Any], issue: Issue, negotiated: bool) -> None:
    base = f"issues.{issue.id}"
    at: InstancePath = ("issues", index)
    builder.add(
        f"{base}.matched",
        "issue",
        f"{issue.id}: matched (anchor {issue.anchor} cited and read)",
        RUBRIC_FILE,
        (*at, "anchor"),
    )
    if issue.severity is not None and issue.severity_points:
        builder.add(
            f"{base}.severity",
            "component",
            f"{issue.id}: severity {issue.severity} earned",
            RUBRIC_FILE,
            (*at, "severity"),
        )
    if issue.citation_points:
        builder.add(
            f"{base}.citations",
            "component",
            f"{issue.id}: every required citation given",
            RUBRIC_FILE,
            (*at, "required_citations"),
        )
    if issue.quote_points:
        builder.add(
            f"{base}.quotes", "component", f"{issue.id}: a verbatim quote verified", RUBRIC_FILE, (*at, "quote_points")
        )
    lists: list[tuple[str, tuple[str, ...], bool]] = [
        ("required_concepts", issue.required_concepts, bool(issue.concept_points)),
        ("redline_concepts", issue.redline_concepts, bool(issue.redline_points)),
        ("settlement_concepts", issue.settlement_concepts, negotiated and bool(issue.settlement_points)),
    ]
    for list_name, concepts, scorable in lists:
        if not scorable:
            continue
        for position, concept in enumerate(concepts):
            builder.add(
                concept_id(base, list_name, concept),
                "concept",
                f"{issue.id}: {list_name} '{concept}' found",
                RUBRIC_FILE,
                (*at, list_name, position),
            )
    if issue.redline_points:
        builder.add(
            f"{base}.redline", "component", f"{issue.id}: a redline scored", RUBRIC_FILE, (*at, "redline_concepts")
        )
    if negotiated:
        builder.add(
            f"{base}.settlement", "component", f"{issue.id}: settled", RUBRIC_FILE, (*at, "settlement_concepts")
        )
    for surface, list_name in GATE_SURFACES.items():
        for number, yaml_index in enumerate(gate_indices(raw.get(list_name))):
            gate: Gate = issue.gates(surface)[number]
            path = (*at, list_name, yaml_index)
            shown = gate.pattern if len(gate.pattern) <= 60 else gate.pattern[:57] + "..."
            builder.add(
                gate_id(issue.id, surface, number, "fires"),
                "gate-fires",
                f"{issue.id}: {surface} gate {number} fired ({shown})",
                RUBRIC_FILE,
                path,
            )
            builder.add(
                gate_id(issue.id, surface, number, "silent"),
                "gate-silent",
                f"{issue.id}: {surface} gate {number} kept silent on a must-not-fire text",
                RUBRIC_FILE,
                path,
            )


def _position_items(builder: _Builder, source: MatterSource) -> None:
    matter = source.matter
    for issue_id, position in matter.positions.items():
        issue = matter.rubric.issues_by_id.get(issue_id)
        if issue is None:
            continue  # a position on no issue is a lint finding, not a scorable item
        at: InstancePath = ("positions", issue_id)
        base = f"positions.{issue_id}"
        builder.add(
            f"{base}.accepted",
            "position",
            f"{issue_id}: our markup accepted",
            COUNTERPARTY_FILE,
            (*at, "accept_concepts"),
        )
        for number, counter in enumerate(position.counters):
            builder.add(
                f"{base}.counters[{number}].countered",
                "position",
                f"{issue_id}: counter {number} served",
                COUNTERPARTY_FILE,
                (*at, "counters", number),
            )
            if counter.trap:
                builder.add(
                    f"{base}.counters[{number}].trap_accepted",
                    "position",
                    f"{issue_id}: trap counter {number} accepted",
                    COUNTERPARTY_FILE,
                    (*at, "counters", number),
                )
        builder.add(
            f"{base}.rejected",
            "position",
            f"{issue_id}: markup rejected (counters exhausted)",
            COUNTERPARTY_FILE,
            (*at, "reject_message"),
        )
        if issue.non_negotiable:
            builder.add(
                f"{base}.non_negotiable_conceded",
                "position",
                f"{issue_id}: non-negotiable point conceded (settled without its concepts)",
                COUNTERPARTY_FILE,
                at,
            )


def _final_items(builder: _Builder, source: MatterSource) -> None:
    final = source.matter.rubric.final_submission
    at: InstancePath = ("final_submission",)
    if final.points:
        builder.add(
            "final_submission.points",
            "component",
            "final summary long enough to earn its points",
            RUBRIC_FILE,
            (*at, "minimum_characters"),
        )
    if final.concept_points:
        for position, concept in enumerate(final.required_concepts):
            builder.add(
                concept_id("final_submission", "required_concepts", concept),
                "concept",
                f"final summary: concept '{concept}' found",
                RUBRIC_FILE,
                (*at, "required_concepts", position),
            )
    if final.required_issue_ids and final.missing_required_issue_penalty:
        builder.add(
            "final_submission.missing_required_issue_penalty",
            "penalty",
            "final submission penalised for a missing required issue",
            RUBRIC_FILE,
            (*at, "missing_required_issue_penalty"),
        )


def scorable_items(source: MatterSource) -> ItemTable:
    """Every scorable item of the matter, in file order."""
    builder = _Builder(source)
    rubric, raw = source.matter.rubric, source.data(RUBRIC_FILE)
    _match_items(builder, "questions", rubric.questions, raw)
    _match_items(builder, "escalations", rubric.escalations, raw)
    for (index, raw_issue), issue in zip(raw_entries(raw, "issues"), rubric.issues, strict=False):
        _issue_items(builder, index, raw_issue, issue, issue.id in source.matter.positions)
    _final_items(builder, source)
    _position_items(builder, source)
    return builder.table
