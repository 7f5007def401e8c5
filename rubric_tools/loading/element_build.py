"""Type a loaded matter's YAML once: the located model (`loading.elements`) and the
scorer's `Matter`, together.

One walk of the files: at each node (an issue, a question, a position, ...) the builder
makes its element, with the value as written and where it is, and the scorer's object
for it (`loading.build`, the engine's lenient conversions), and links the two; the
scorer's `Matter` is assembled from those objects. Never raises: a value of the wrong
type leaves its typed field None (the schema rules report it) and the scorer's default.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from rubric_tools.loading import build
from rubric_tools.loading.elements import (
    AnswerElement,
    ConstraintsElement,
    CounterElement,
    DocumentElement,
    Element,
    Field,
    FinalSubmissionElement,
    GateElement,
    IssueElement,
    Location,
    MatchItemElement,
    MatterModel,
    NumberElement,
    PositionElement,
    SectionElement,
    TextElement,
    VariantElement,
)
from rubric_tools.loading.layout import COUNTERPARTY_FILE, HIDDEN_FACTS_FILE, MATTER_FILE, RUBRIC_FILE, YAML_FILES
from rubric_tools.loading.yaml_convert import InstancePath
from rubric_tools.loading.yaml_source import YamlSource
from rubric_tools.scoring.model import GATE_SURFACES, Document, Issue, Matter, Position, yaml_id

if TYPE_CHECKING:
    from rubric_tools.loading.matter import DocumentSource

#: The files whose numbers the engine computes with.
NUMERIC_FILES = (MATTER_FILE, RUBRIC_FILE, COUNTERPARTY_FILE)
NEGATION_SCOPES = ("span", "before")


def yaml_kind(value: object) -> str:
    """A YAML author's name for the type of `value`."""
    if value is None:
        return "empty"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, Mapping):
        return "a mapping"
    return "a string" if isinstance(value, str) else type(value).__name__


class _Builder:
    """Locations within one matter's files."""

    def __init__(self, root: Path, files: Mapping[str, YamlSource]) -> None:
        self.root = root
        self.files = files

    def location(self, file_name: str, path: InstancePath) -> Location:
        source = self.files.get(file_name)
        file = source.path if source is not None else self.root / file_name
        return Location(file, file_name, path, source)

    def data(self, file_name: str) -> Any:
        source = self.files.get(file_name)
        return source.data if source is not None else None


def _fields(location: Location, value: Any) -> tuple[Field, ...]:
    if not isinstance(value, Mapping):
        return ()
    return tuple(Field(key, location.child(key), item) for key, item in value.items())


def _keys(location: Location, value: Any) -> dict[str, Any]:
    """An element's `fields` and `mapping`, from the value YAML read."""
    return {"fields": _fields(location, value), "mapping": isinstance(value, Mapping)}


def _block(location: Location, value: Any) -> Element:
    """A mapping the model has no element type for (a file's top level, `provenance`)."""
    return Element(location=location, **_keys(location, value))


def _text(location: Location, index: int, value: Any) -> TextElement:
    return TextElement(location=location, index=index, text=str(value), is_text=isinstance(value, str))


def _variant(location: Location, value: Any) -> VariantElement | None:
    """A list of concepts; None when the value is absent or not a list."""
    if not isinstance(value, list):
        return None
    return VariantElement(
        location=location, concepts=tuple(_text(location.child(i), i, item) for i, item in enumerate(value))
    )


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _gate(
    issue_location: Location, issue_index: int, issue_id: str | None, surface: str, index: int, raw: Any, scored: Any
) -> GateElement:
    list_name = GATE_SURFACES[surface]
    location = issue_location.child(list_name, index)
    common: dict[str, Any] = {
        "location": location,
        "issue_index": issue_index,
        "issue_id": issue_id,
        "surface": surface,
        "list_name": list_name,
        "index": index,
        "kind": yaml_kind(raw),
        "gate": scored,
    }
    if isinstance(raw, str):
        return GateElement(form="string", pattern=raw, **common)
    if not isinstance(raw, Mapping):
        return GateElement(form="invalid", **common)
    guard, scope = raw.get("negation_guard"), raw.get("negation_scope")
    return GateElement(
        form="mapping",
        **_keys(location, raw),
        pattern=_string(raw.get("pattern")),
        negation_guard=guard if isinstance(guard, bool) else None,
        negation_scope=scope if isinstance(scope, str) and scope in NEGATION_SCOPES else None,
        require_context=_string(raw.get("require_context")),
        exclude_context=_string(raw.get("exclude_context")),
        **common,
    )


def _gates(
    location: Location, index: int, issue_id: str | None, raw: Mapping[str, Any], scored: Issue
) -> tuple[GateElement, ...]:
    """Every entry of the issue's gate lists, linked to the scorer's gates (built from the
    entries it keeps, in order)."""
    found: list[GateElement] = []
    for surface, list_name in GATE_SURFACES.items():
        scored_gates = iter(scored.gates(surface))
        for entry_index, entry in enumerate(build.as_list(raw.get(list_name))):
            gate = next(scored_gates, None) if build.gate(entry) is not None else None
            found.append(_gate(location, index, issue_id, surface, entry_index, entry, gate))
    return tuple(found)


def _issue(location: Location, index: int, raw: Mapping[str, Any]) -> IssueElement:
    scored = build.issue(raw)
    issue_id = str(raw["id"]) if "id" in raw else None
    anchor = raw.get("anchor")
    citations = raw.get("required_citations")
    return IssueElement(
        location=location,
        **_keys(location, raw),
        index=index,
        id=issue_id,
        scored=scored,
        anchor=_text(location.child("anchor"), 0, anchor) if anchor is not None else None,
        required_citations=(
            tuple(_text(location.child("required_citations", i), i, c) for i, c in enumerate(citations))
            if isinstance(citations, list)
            else None
        ),
        required_concepts=_variant(location.child("required_concepts"), raw.get("required_concepts")),
        redline_concepts=_variant(location.child("redline_concepts"), raw.get("redline_concepts")),
        settlement_concepts=_variant(location.child("settlement_concepts"), raw.get("settlement_concepts")),
        gates=_gates(location, index, issue_id, raw, scored),
    )


def _match_item(location: Location, list_name: str, index: int, raw: Mapping[str, Any]) -> MatchItemElement:
    aliases = raw.get("aliases")
    return MatchItemElement(
        location=location,
        **_keys(location, raw),
        list_name=list_name,
        index=index,
        id=str(raw["id"]) if raw.get("id") is not None else None,
        scored=build.match_item(raw),
        concepts=_variant(location.child("concepts"), raw.get("concepts")),
        aliases=tuple(
            variant
            for i, alias in enumerate(build.as_list(aliases))
            if (variant := _variant(location.child("aliases", i), alias)) is not None
        ),
        malformed=any(key in raw and not isinstance(raw[key], list) for key in ("concepts", "aliases")),
    )


def _mapping_entries(value: Any) -> Iterator[tuple[int, Mapping[str, Any]]]:
    """(file index, entry) of every mapping entry of a list: those the scorer builds."""
    for index, entry in enumerate(build.as_list(value)):
        if isinstance(entry, Mapping):
            yield index, entry


def _positions(make: _Builder) -> tuple[tuple[PositionElement, ...], dict[str, Position]]:
    """Every position as written, and the scorer's table of them: keyed by the id as text,
    so that of two keys with the same text (`1` and `"1"`) the later wins, as in the engine;
    each element is linked to the position the scorer keeps for its key."""
    positions = build.as_mapping(build.as_mapping(make.data(COUNTERPARTY_FILE)).get("positions"))
    table = {str(key): build.position(raw) for key, raw in positions.items()}
    found: list[PositionElement] = []
    for key, raw in positions.items():
        location = make.location(COUNTERPARTY_FILE, ("positions", key))
        raw_map = build.as_mapping(raw)
        scored = table[str(key)]
        counters = [(i, c) for i, c in _mapping_entries(raw_map.get("counters"))]
        accept = build.as_list(raw_map.get("accept_concepts"))
        found.append(
            PositionElement(
                location=location,
                **_keys(location, raw),
                issue_id=str(key),
                scored=scored,
                accept_concepts=tuple(
                    variant
                    for i, item in enumerate(accept)
                    if (variant := _variant(location.child("accept_concepts", i), item)) is not None
                ),
                counters=tuple(
                    CounterElement(
                        location=location.child("counters", i),
                        **_keys(location.child("counters", i), counter),
                        index=i,
                        scored=typed,
                        message=_string(counter.get("message")),
                        text=_string(counter.get("text")),
                    )
                    for (i, counter), typed in zip(counters, scored.counters, strict=False)
                ),
                reject_message=_string(raw_map.get("reject_message")),
            )
        )
    return tuple(found), table


def _answers(make: _Builder, kind: str) -> tuple[AnswerElement, ...]:
    table = build.as_mapping(build.as_mapping(make.data(HIDDEN_FACTS_FILE)).get(kind))
    return tuple(
        AnswerElement(
            location=make.location(HIDDEN_FACTS_FILE, (kind, key)),
            kind=kind,
            id=str(key),
            text=str(value),
            is_text=isinstance(value, str),
            is_null=value is None,
        )
        for key, value in table.items()
    )


def _documents(make: _Builder, documents: list[DocumentSource]) -> tuple[DocumentElement, ...]:
    entries = build.as_list(build.as_mapping(make.data(MATTER_FILE)).get("documents"))
    found: list[DocumentElement] = []
    for source in documents:
        location = make.location(MATTER_FILE, ("documents", source.index))
        parsed = source.parsed
        sections = (
            tuple(SectionElement(token, parsed.token_lines.get(token, 1)) for token in parsed.sections)
            if parsed is not None
            else ()
        )
        raw = entries[source.index] if source.index < len(entries) else None
        scored = (
            Document(
                id=source.id, title=source.title, path=source.path_text, sections=MappingProxyType(parsed.sections)
            )
            if parsed is not None
            else None
        )
        found.append(
            DocumentElement(
                location=location,
                **_keys(location, raw),
                index=source.index,
                id=source.id,
                source=source,
                sections=sections,
                scored=scored,
            )
        )
    return tuple(found)


def _numbers(location: Location, value: Any) -> Iterator[NumberElement]:
    """Every number of a YAML tree (booleans excluded), in file order."""
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield NumberElement(location=location, value=value)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from _numbers(location.child(key), item)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _numbers(location.child(index), item)


def _scored_documents(documents: tuple[DocumentElement, ...]) -> dict[str, Document]:
    """The scorer's documents: the ones read, by id (a later document with the same id
    wins: the engine builds a dict from the list)."""
    return {document.id: document.scored for document in documents if document.scored is not None}


def build_matter(
    root: Path, files: Mapping[str, YamlSource], documents: list[DocumentSource]
) -> tuple[Matter, MatterModel]:
    """The scorer's `Matter` and the located model of a loaded matter, from one walk of its files."""
    make = _Builder(root, files)
    matter_data = build.as_mapping(make.data(MATTER_FILE))
    rubric = build.as_mapping(make.data(RUBRIC_FILE))
    issues = tuple(
        _issue(make.location(RUBRIC_FILE, ("issues", index)), index, raw)
        for index, raw in _mapping_entries(rubric.get("issues"))
    )
    items = {
        list_name: tuple(
            _match_item(make.location(RUBRIC_FILE, (list_name, index)), list_name, index, raw)
            for index, raw in _mapping_entries(rubric.get(list_name))
        )
        for list_name in ("questions", "escalations")
    }
    final_location = make.location(RUBRIC_FILE, ("final_submission",))
    final_raw = build.as_mapping(rubric.get("final_submission"))
    final = FinalSubmissionElement(
        location=final_location,
        **_keys(final_location, rubric.get("final_submission")),
        scored=build.final_submission(final_raw),
        required_concepts=_variant(final_location.child("required_concepts"), final_raw.get("required_concepts")),
        required_issue_ids=tuple(
            (final_location.child("required_issue_ids", i), yaml_id(item))
            for i, item in enumerate(build.as_list(final_raw.get("required_issue_ids")))
        ),
        minimum_characters=(
            final_raw["minimum_characters"] if build.is_number(final_raw.get("minimum_characters")) else None
        ),
    )
    constraints_location = make.location(MATTER_FILE, ("constraints",))
    constraints_raw = matter_data.get("constraints")
    constraints = ConstraintsElement(
        location=constraints_location,
        **_keys(constraints_location, constraints_raw),
        scored=build.constraints(constraints_raw),
    )
    positions, position_table = _positions(make)
    document_elements = _documents(make, documents)
    client_answers = _answers(make, "client_answers")
    escalation_answers = _answers(make, "escalation_answers")
    matter = Matter(
        matter_id=str(matter_data.get("matter_id") or root.name),
        native_matter_id=build.native_id(matter_data.get("matter_id")),
        title=build.text(matter_data, "title"),
        rubric=build.rubric_of(
            rubric,
            questions=tuple(item.scored for item in items["questions"]),
            escalations=tuple(item.scored for item in items["escalations"]),
            issues=tuple(issue.scored for issue in issues),
            final=final.scored,
        ),
        documents=MappingProxyType(_scored_documents(document_elements)),
        constraints=constraints.scored,
        positions=MappingProxyType(position_table),
        client_answers=MappingProxyType({answer.id: answer.text for answer in client_answers}),
        escalation_answers=MappingProxyType({answer.id: answer.text for answer in escalation_answers}),
    )
    provenance = matter_data.get("provenance")
    numbers = tuple(
        number
        for name in NUMERIC_FILES
        if name in files
        for number in _numbers(make.location(name, ()), files[name].data)
    )
    model = MatterModel(
        matter_id=matter.matter_id,
        title=matter.title,
        native_matter_id=matter.native_matter_id,
        files={name: _block(make.location(name, ()), make.data(name)) for name in YAML_FILES},
        provenance=_block(make.location(MATTER_FILE, ("provenance",)), provenance),
        issues=issues,
        questions=items["questions"],
        escalations=items["escalations"],
        final_submission=final,
        constraints=constraints,
        positions=positions,
        client_answers=client_answers,
        escalation_answers=escalation_answers,
        documents=document_elements,
        numbers=numbers,
        max_score=matter.rubric.max_score,
        scored=matter,
    )
    return matter, model
