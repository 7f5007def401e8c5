"""Enumerate a matter's scorable items, each at the YAML node that defines it.

Items with no points to earn or lose (a zero-point component, final concepts worth
nothing) are not scorable and are left out, as coverage.py leaves out blank lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rubric_tools.coverage.model import CoverageItem
from rubric_tools.loading.elements import IssueElement, Location, MatchItemElement, MatterModel
from rubric_tools.loading.matter import MatterSource
from rubric_tools.scoring.model import GATE_SURFACES


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

    def add(self, item_id: str, kind: str, description: str, where: Location) -> None:
        if item_id in self.table.items:
            return  # a duplicate id in the YAML: the scorer cannot tell them apart either
        yaml_file, path = where.source, where.path
        span = where.span
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
        self.table.items[item_id] = CoverageItem(item_id, kind, description, where.file_name, line, end)


def variant_location(element: MatchItemElement, number: int) -> Location:
    """Where the scorer's variant `number` of an item is written: `concepts` (even when
    absent: the scorer then matches on an empty variant) or the alias list it comes from."""
    return element.at("concepts") if number == 0 else element.aliases[number - 1].location


def _match_items(builder: _Builder, elements: tuple[MatchItemElement, ...]) -> None:
    for element in elements:
        section, item = element.list_name, element.scored
        for number, variant in enumerate(item.variants):
            if not variant:
                continue  # an empty variant never matches: lint reports it
            words = " + ".join(variant)
            builder.add(
                variant_id(section, item.id, number),
                f"{section[:-1]}-variant",
                f"{item.id}: variant {number} ({words}) matched",
                variant_location(element, number),
            )
        if section == "escalations" and (item.critical_if_missed or item.required):
            consequence = "critical failure" if item.critical_if_missed else "penalty"
            builder.add(
                f"escalations.{item.id}.missed",
                "escalation-missed",
                f"{item.id}: missed at the final submission ({consequence})",
                element.location,
            )


def _issue_items(builder: _Builder, element: IssueElement, negotiated: bool) -> None:
    issue = element.scored
    base = f"issues.{issue.id}"
    builder.add(
        f"{base}.matched",
        "issue",
        f"{issue.id}: matched (anchor {issue.anchor} cited and read)",
        element.at("anchor"),
    )
    if issue.severity is not None and issue.severity_points:
        builder.add(
            f"{base}.severity",
            "component",
            f"{issue.id}: severity {issue.severity} earned",
            element.at("severity"),
        )
    if issue.citation_points:
        builder.add(
            f"{base}.citations",
            "component",
            f"{issue.id}: every required citation given",
            element.at("required_citations"),
        )
    if issue.quote_points:
        builder.add(f"{base}.quotes", "component", f"{issue.id}: a verbatim quote verified", element.at("quote_points"))
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
                element.at(list_name, position),
            )
    if issue.redline_points:
        builder.add(f"{base}.redline", "component", f"{issue.id}: a redline scored", element.at("redline_concepts"))
    if negotiated:
        builder.add(f"{base}.settlement", "component", f"{issue.id}: settled", element.at("settlement_concepts"))
    for surface in GATE_SURFACES:
        # The entries the scorer runs, numbered as it numbers them; each keeps its file position.
        scored = [(gate, gate.gate) for gate in element.gate_list(surface) if gate.gate is not None]
        for number, (gate, runnable) in enumerate(scored):
            shown = runnable.pattern if len(runnable.pattern) <= 60 else runnable.pattern[:57] + "..."
            builder.add(
                gate_id(issue.id, surface, number, "fires"),
                "gate-fires",
                f"{issue.id}: {surface} gate {number} fired ({shown})",
                gate.location,
            )
            builder.add(
                gate_id(issue.id, surface, number, "silent"),
                "gate-silent",
                f"{issue.id}: {surface} gate {number} kept silent on a must-not-fire text",
                gate.location,
            )


def _position_items(builder: _Builder, model: MatterModel, source: MatterSource) -> None:
    matter = source.matter
    for issue_id, position in matter.positions.items():
        issue = matter.rubric.issues_by_id.get(issue_id)
        element = model.position(issue_id)
        if issue is None or element is None:
            continue  # a position on no issue is a lint finding, not a scorable item
        base = f"positions.{issue_id}"
        builder.add(
            f"{base}.accepted",
            "position",
            f"{issue_id}: our markup accepted",
            element.at("accept_concepts"),
        )
        for number, counter in enumerate(position.counters):
            where = element.counters[number].location  # the scorer's counters are the mapping entries
            builder.add(
                f"{base}.counters[{number}].countered",
                "position",
                f"{issue_id}: counter {number} served",
                where,
            )
            if counter.trap:
                builder.add(
                    f"{base}.counters[{number}].trap_accepted",
                    "position",
                    f"{issue_id}: trap counter {number} accepted",
                    where,
                )
        builder.add(
            f"{base}.rejected",
            "position",
            f"{issue_id}: markup rejected (counters exhausted)",
            element.at("reject_message"),
        )
        if issue.non_negotiable:
            builder.add(
                f"{base}.non_negotiable_conceded",
                "position",
                f"{issue_id}: non-negotiable point conceded (settled without its concepts)",
                element.location,
            )


def _final_items(builder: _Builder, model: MatterModel) -> None:
    element = model.final_submission
    final = element.scored
    if final.points:
        builder.add(
            "final_submission.points",
            "component",
            "final summary long enough to earn its points",
            element.at("minimum_characters"),
        )
    if final.concept_points:
        for position, concept in enumerate(final.required_concepts):
            builder.add(
                concept_id("final_submission", "required_concepts", concept),
                "concept",
                f"final summary: concept '{concept}' found",
                element.at("required_concepts", position),
            )
    if final.required_issue_ids and final.missing_required_issue_penalty:
        builder.add(
            "final_submission.missing_required_issue_penalty",
            "penalty",
            "final submission penalised for a missing required issue",
            element.at("missing_required_issue_penalty"),
        )


def scorable_items(source: MatterSource) -> ItemTable:
    """Every scorable item of the matter, in file order."""
    builder = _Builder(source)
    model = source.model
    _match_items(builder, model.questions)
    _match_items(builder, model.escalations)
    for element in model.issues:
        _issue_items(builder, element, element.scored.id in source.matter.positions)
    _final_items(builder, model)
    _position_items(builder, model, source)
    return builder.table
