"""Where each thing of a matter is written, and where it is used: the symbol table behind
hover, go to definition, references, completion and document symbols.

Built from the loader's located model (`MatterSource.model`: issues, questions,
escalations, gates, positions, answers, documents and their sections, each with its file
and YAML span) and the positions of the YAML files `rubric check` reads beside it
(expectations.yaml, the probe files). Nothing here judges the matter: that is lint's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubric_tools.diagnostics import Span
from rubric_tools.loading.elements import DocumentElement, Location, MatterModel
from rubric_tools.loading.matter import MatterSource
from rubric_tools.loading.yaml_source import YamlSource
from rubric_tools.scoring.sections import PREAMBLE_TOKEN
from rubric_tools.scoring.text import format_citation, split_citation

#: The kinds of rubric item an id can name.
ISSUE, QUESTION, ESCALATION = "issue", "question", "escalation"


@dataclass(frozen=True)
class Place:
    """A span of a file, and what is written there (for a reader: "positions key")."""

    file: Path
    span: Span | None
    what: str


@dataclass(frozen=True)
class Section:
    """A citable section of a document: where its heading is."""

    document: str
    token: str
    file: Path
    line: int  # 1-based editor line of the heading (1 for the preamble)
    column: int
    heading: str  # the heading line as written ("" for the preamble)
    text: str  # the section's text, as the scorer reads it


@dataclass(frozen=True)
class CitationUse:
    """An anchor or a required citation written in the rubric."""

    text: str
    document: str
    token: str
    place: Place
    issue: str
    role: str  # "anchor" or "required citation"


@dataclass
class MatterIndex:
    """Definitions and uses of a matter's ids and sections."""

    model: MatterModel
    definitions: dict[tuple[str, str], Place] = field(default_factory=dict)
    uses: dict[tuple[str, str], list[Place]] = field(default_factory=dict)
    sections: dict[tuple[str, str], Section] = field(default_factory=dict)
    citations: list[CitationUse] = field(default_factory=list)
    #: expectations.yaml's entries by trajectory stem, and the trajectories' files by stem.
    expectations: dict[str, Place] = field(default_factory=dict)
    trajectories: dict[str, Path] = field(default_factory=dict)

    def ids(self, kind: str) -> list[str]:
        return [item_id for (item_kind, item_id) in self.definitions if item_kind == kind]

    def places(self, kind: str, item_id: str) -> list[Place]:
        """The definition, then every use."""
        found = [self.definitions[(kind, item_id)]] if (kind, item_id) in self.definitions else []
        return found + self.uses.get((kind, item_id), [])

    def section(self, citation: str) -> Section | None:
        parts = split_citation(citation)
        return self.sections.get(parts) if parts is not None else None

    def meant(self, document: str, token: str) -> Section | None:
        """The section a citation names, or, when it names none, the one it most likely
        means (A002's did-you-mean): among the named document's sections if it exists."""
        found = self.sections.get((document, token))
        if found is not None:
            return found
        from rubric_tools.lsp import adapter

        known = [key for key in self.sections if key[0] == document] or list(self.sections)
        meant = adapter.meant_citation(format_citation(document, token), [format_citation(*key) for key in known])
        return self.section(meant) if meant is not None else None

    def document_sections(self, document: str) -> list[Section]:
        return [section for (doc, _), section in self.sections.items() if doc == document]

    def citations_of(self, document: str, token: str) -> list[CitationUse]:
        return [c for c in self.citations if (c.document, c.token) == (document, token)]


def _place(location: Location, what: str, *, key: bool = False) -> Place:
    return Place(location.file, location.key_span if key else location.span, what)


def _add(index: MatterIndex, kind: str, item_id: str, place: Place) -> None:
    index.uses.setdefault((kind, item_id), []).append(place)


def _documents(index: MatterIndex, documents: tuple[DocumentElement, ...]) -> None:
    # The engine builds a dict from the list: a later document with the same id wins.
    for document in documents:
        source = document.source
        if source.parsed is None or source.path is None:
            continue
        headings = {heading.token: heading for heading in source.parsed.headings if heading.token is not None}
        for token, text in source.parsed.sections.items():
            heading = headings.get(token)
            index.sections[(document.id, token)] = Section(
                document.id,
                token,
                source.path,
                heading.line if heading is not None else 1,
                heading.column if heading is not None else 1,
                heading.text if heading is not None else "",
                text,
            )


def build_index(
    source: MatterSource,
    expectations: YamlSource | None = None,
    probes: Mapping[Path, YamlSource] | None = None,
    trajectories: list[Path] | None = None,
) -> MatterIndex:
    """The index of a loaded matter, with the expectations and probe files read beside it."""
    model = source.model
    index = MatterIndex(model)
    _documents(index, model.documents)
    for issue in model.issues:
        if issue.id is not None:
            index.definitions[(ISSUE, issue.id)] = _place(issue.at("id"), "issue")
        for role, entries in (("anchor", (issue.anchor,)), ("required citation", issue.required_citations or ())):
            for entry in entries:
                if entry is None:
                    continue
                parts = split_citation(entry.text)
                if parts is not None:
                    index.citations.append(
                        CitationUse(entry.text, *parts, _place(entry.location, role), issue.label, role)
                    )
    for kind, items in ((QUESTION, model.questions), (ESCALATION, model.escalations)):
        for item in items:
            if item.id is not None:
                index.definitions[(kind, item.id)] = _place(item.at("id"), kind)
    for location, value in model.final_submission.required_issue_ids:
        _add(index, ISSUE, str(value), _place(location, "final_submission.required_issue_ids"))
    for position in model.positions:
        _add(index, ISSUE, position.issue_id, _place(position.location, "counterparty position", key=True))
    for answer in model.client_answers:
        _add(index, QUESTION, answer.id, _place(answer.location, "client answer", key=True))
    for answer in model.escalation_answers:
        _add(index, ESCALATION, answer.id, _place(answer.location, "escalation answer", key=True))
    if expectations is not None:
        _expectation_uses(index, expectations)
    for path, probe_source in (probes or {}).items():
        for probe_path, criterion in probe_criteria(probe_source):
            _add(index, ISSUE, criterion, Place(path, probe_source.span(probe_path), "probe criterion"))
    for path in trajectories or ():
        index.trajectories.setdefault(path.stem, path)
    return index


def _expectation_uses(index: MatterIndex, source: YamlSource) -> None:
    entries = source.data.get("trajectories") if isinstance(source.data, dict) else None
    for stem, entry in entries.items() if isinstance(entries, dict) else ():
        index.expectations[str(stem)] = Place(source.path, source.span(("trajectories", stem), key=True), "expectation")
        cause = entry.get("cause") if isinstance(entry, dict) else None
        if isinstance(cause, dict) and isinstance(cause.get("criterion"), str):
            kind = ESCALATION if cause.get("kind") == "missed_critical_escalation" else ISSUE
            path = ("trajectories", stem, "cause", "criterion")
            _add(index, kind, cause["criterion"], Place(source.path, source.span(path), "expected cause"))


def probe_criteria(source: YamlSource) -> Iterator[tuple[tuple[Any, ...], str]]:
    """(instance path of `criterion`, its text) of every probe of a probe file."""
    data = source.data
    prefix: tuple[Any, ...] = ()
    if isinstance(data, dict):
        data, prefix = data.get("probes"), ("probes",)
    for number, probe in enumerate(data if isinstance(data, list) else ()):
        if isinstance(probe, dict) and isinstance(probe.get("criterion"), str):
            yield (*prefix, number, "criterion"), probe["criterion"]


def preamble(section: Section) -> bool:
    return section.token == PREAMBLE_TOKEN
