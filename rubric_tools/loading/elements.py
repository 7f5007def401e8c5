"""The typed model of a matter as written: every element knows its file and YAML node.

The scorer's `Matter` (`scoring.model`) is what the engine computes with: defaults filled
in, values of the wrong type defaulted, malformed list entries dropped. Lint rules, the
solver's explanations, the audit and fixers need more: *where* each value is written,
whether it was written at all, and what was written when its type is wrong. This model
gives them that, built once per matter by `loading.element_build` in the same walk of the
files that types the scorer's `Matter`, so nobody reads the raw YAML mappings or rebuilds
instance paths by hand.

Conventions:
- A typed field holds None when the key is absent or its value has the wrong type; the
  schema rules report the wrong type. `Element.field(name)` tells the two apart and keeps
  the value as YAML read it, for messages that must show it.
- List elements of the rubric (issues, questions, escalations) are the mapping entries
  only, the ones the scorer sees, in file order: the k-th element is the scorer's k-th
  object (`scored`), and its location keeps the FILE index, so nothing is remapped.
- Gate entries are all kept, well-formed or not (`GateElement.form`), since the gate rules
  report the malformed ones.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from rubric_tools.diagnostics import Span
from rubric_tools.loading.yaml_convert import InstancePath
from rubric_tools.scoring.gates import Gate
from rubric_tools.scoring.model import (
    Constraints,
    Counter,
    Document,
    FinalSubmission,
    Issue,
    MatchItem,
    Matter,
    Position,
    YamlId,
)
from rubric_tools.scoring.result import derived_max_score
from rubric_tools.scoring.text import normalize

if TYPE_CHECKING:
    from rubric_tools.loading.matter import DocumentSource
    from rubric_tools.loading.yaml_source import YamlSource


@dataclass(frozen=True)
class Location:
    """A YAML node of one matter file: the file, the instance path, and its spans.

    The node need not exist: the span of an absent key is that of its nearest written
    ancestor (`YamlSource.span`), which is where a finding about a missing value belongs."""

    file: Path
    file_name: str  # "rubric.yaml", "matter.yaml", ...
    path: InstancePath
    source: YamlSource | None = field(default=None, compare=False, repr=False)

    @property
    def span(self) -> Span | None:
        """The span of the value (or of its nearest written ancestor)."""
        return self.source.span(self.path) if self.source is not None else None

    @property
    def key_span(self) -> Span | None:
        """The span of the node's key when it is a mapping value, else as `span`."""
        return self.source.span(self.path, key=True) if self.source is not None else None

    @property
    def written(self) -> bool:
        """Whether the node itself is written in the file (not only an ancestor)."""
        return self.source is not None and self.path in self.source.positions

    def child(self, *keys: object) -> Location:
        """The location of a node below this one (keys or list indices, as written)."""
        return Location(self.file, self.file_name, (*self.path, *keys), self.source)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Field:
    """One key of a mapping as written: its location and the value YAML read.

    `value` is for messages that show a wrong value and for checks the typed fields cannot
    express (an empty value versus a missing key); rules compute with the typed fields."""

    key: object  # as YAML read it: usually text, but `1:` or `yes:` are not
    location: Location
    value: object


@dataclass(frozen=True, kw_only=True)
class Element:
    """A node of the model: where it is and, when it is a mapping, the keys written in it."""

    location: Location
    fields: tuple[Field, ...] = ()
    #: Whether the node is a mapping: an empty mapping and a value of another type (null, a
    #: list, a string) both have no fields, and rules that check a block's keys tell them apart.
    mapping: bool = False

    def field(self, name: str) -> Field | None:
        """The key `name` as written, or None when it is absent (or this is no mapping)."""
        return next((f for f in self.fields if f.key == name), None)

    def has(self, name: str) -> bool:
        return self.field(name) is not None

    def written_repr(self, name: str) -> str:
        """`repr()` of the key's value as YAML read it (`None` when absent), for messages that
        must show its type: `datetime.date(2024, 1, 1)` says why an id matches no text."""
        written = self.field(name)
        return repr(written.value if written is not None else None)

    def written_text(self, name: str) -> str | None:
        """`str()` of the key's value as YAML read it (an id, a path), None when the key is
        absent or its value is empty (`id:`): what another file can refer to."""
        written = self.field(name)
        return str(written.value) if written is not None and written.value is not None else None

    def at(self, *keys: object) -> Location:
        """The location of a node below this element (written or not)."""
        return self.location.child(*keys)


@dataclass(frozen=True, kw_only=True)
class TextElement(Element):
    """One scalar of a list (a concept, a citation): `text` is its `str()`, as the engine
    compares it; `is_text` says whether YAML read a string (a number or a date is `str()`-ed)."""

    index: int
    text: str
    is_text: bool

    @property
    def normalized(self) -> str:
        return normalize(self.text)


@dataclass(frozen=True, kw_only=True)
class VariantElement(Element):
    """A list of concepts (a variant): every entry, strings or not, in file order."""

    concepts: tuple[TextElement, ...] = ()

    @property
    def texts(self) -> tuple[str, ...]:
        """The concepts as the engine reads them (`str()` of each entry)."""
        return tuple(concept.text for concept in self.concepts)

    @property
    def normalized(self) -> tuple[str, ...]:
        return tuple(concept.normalized for concept in self.concepts)


#: The shape of a gate entry: a regex string, a mapping, or neither (G001).
GATE_FORMS = ("string", "mapping", "invalid")


@dataclass(frozen=True, kw_only=True)
class GateElement(Element):
    """One entry of one gate list of one issue. Typed regexes are None when absent or not text."""

    issue_index: int  # the issue's index in the file
    issue_id: str | None  # the issue's id as text, None when it has none
    surface: str  # "issue", "redline" or "settlement"
    list_name: str  # "critical_failure_patterns", ...
    index: int  # the entry's index in its list
    form: str  # one of GATE_FORMS
    kind: str  # what YAML read, in an author's words: "a string", "a list", "empty", ...
    pattern: str | None = None
    negation_guard: bool | None = None
    negation_scope: str | None = None  # "span" or "before"; None when absent or anything else
    require_context: str | None = None
    exclude_context: str | None = None
    #: The scorer's gate for this entry, None when the scorer skips the entry.
    gate: Gate | None = None

    @property
    def pattern_location(self) -> Location:
        """Where the gate's pattern is written: the entry itself, or its `pattern` key."""
        return self.at("pattern") if self.form == "mapping" else self.location

    def name(self) -> str:
        """How a finding names a gate: its list, its index and its issue."""
        issue = self.issue_id if self.issue_id is not None else "?"
        return f"{self.list_name}[{self.index}] of issue {issue!r}"


@dataclass(frozen=True, kw_only=True)
class IssueElement(Element):
    """A rubric issue (a mapping entry of `issues`), linked to the scorer's `Issue`."""

    index: int
    id: str | None  # `str()` of the id as YAML read it; None when the key is absent
    scored: Issue
    anchor: TextElement | None = None  # None when absent or empty (null)
    required_citations: tuple[TextElement, ...] | None = None  # None when absent or not a list
    required_concepts: VariantElement | None = None
    redline_concepts: VariantElement | None = None
    settlement_concepts: VariantElement | None = None
    gates: tuple[GateElement, ...] = ()

    @property
    def label(self) -> str:
        """The id, or `#<position>` for an issue without one."""
        return self.id if self.id is not None else f"#{self.index + 1}"

    def gate_list(self, surface: str) -> tuple[GateElement, ...]:
        """The entries of the gate list that runs on `surface` (issue, redline, settlement)."""
        return tuple(gate for gate in self.gates if gate.surface == surface)

    def concepts(self, surface: str) -> VariantElement | None:
        """The concepts that describe the right answer on `surface`."""
        return {
            "issue": self.required_concepts,
            "redline": self.redline_concepts,
            "settlement": self.settlement_concepts,
        }[surface]


@dataclass(frozen=True, kw_only=True)
class MatchItemElement(Element):
    """A question or an escalation (a mapping entry), linked to the scorer's `MatchItem`."""

    list_name: str  # "questions" or "escalations"
    index: int
    id: str | None  # None when the key is absent or empty
    scored: MatchItem
    concepts: VariantElement | None = None  # None when absent or not a list
    aliases: tuple[VariantElement, ...] = ()  # the list entries of `aliases`; others are dropped
    #: `concepts` or `aliases` is written with a value that is not a list.
    malformed: bool = False

    @property
    def kind(self) -> str:
        return "question" if self.list_name == "questions" else "escalation"

    def name(self) -> str:
        return f"{self.kind} {self.id!r}" if self.id is not None else f"{self.list_name}[{self.index}]"

    @property
    def variants(self) -> tuple[VariantElement, ...]:
        """`concepts` then every `aliases` list, in the matcher's order."""
        return ((self.concepts,) if self.concepts is not None else ()) + self.aliases


@dataclass(frozen=True, kw_only=True)
class FinalSubmissionElement(Element):
    scored: FinalSubmission
    required_concepts: VariantElement | None = None
    required_issue_ids: tuple[tuple[Location, YamlId], ...] = ()
    #: The number as written (the scorer truncates it to an integer); None when absent or not a number.
    minimum_characters: int | float | None = None


@dataclass(frozen=True, kw_only=True)
class ConstraintsElement(Element):
    scored: Constraints


@dataclass(frozen=True, kw_only=True)
class CounterElement(Element):
    index: int
    scored: Counter
    #: What the counterparty says and the clause it offers; None when absent or not text
    #: (the scorer reads those as ""; the schema reports them).
    message: str | None = None
    text: str | None = None


@dataclass(frozen=True, kw_only=True)
class PositionElement(Element):
    """The counterparty's script for one issue (`positions.<issue id>`)."""

    issue_id: str  # the key, as text
    scored: Position
    accept_concepts: tuple[VariantElement, ...] = ()  # the list entries; others are dropped
    counters: tuple[CounterElement, ...] = ()  # the mapping entries; others are dropped
    reject_message: str | None = None  # None when absent or not text


@dataclass(frozen=True, kw_only=True)
class AnswerElement(Element):
    """One hidden answer: `client_answers.<id>` or `escalation_answers.<id>`."""

    kind: str  # "client_answers" or "escalation_answers"
    id: str  # the key, as text
    text: str  # `str()` of the value, as the engine reads it
    is_text: bool = True  # whether YAML read a string (a number or a date is `str()`-ed)
    is_null: bool = False  # the value is empty (`q_x:`): `text` is then "None", as the engine reads it


@dataclass(frozen=True)
class SectionElement:
    """A section of a document: its token and the line of its heading (1 for the preamble)."""

    token: str
    line: int


@dataclass(frozen=True, kw_only=True)
class DocumentElement(Element):
    """An entry of matter.yaml's `documents` (a mapping), and what was read of it."""

    index: int
    id: str
    source: DocumentSource
    sections: tuple[SectionElement, ...] = ()
    #: The scorer's document built from this entry; None when it could not be read.
    scored: Document | None = None

    @property
    def tokens(self) -> tuple[str, ...]:
        """The section tokens, in document order (the preamble's first)."""
        return tuple(section.token for section in self.sections)


@dataclass(frozen=True, kw_only=True)
class NumberElement(Element):
    """A number written anywhere in matter.yaml, rubric.yaml or counterparty.yaml."""

    value: int | float


@dataclass(frozen=True, kw_only=True)
class MatterModel:
    """A matter as written, typed and located. Built once per matter, with the scorer's
    `Matter`, by one walk of its files (`MatterSource.model`).

    What the engine makes of the whole matter (which documents it reads under an id, how it
    keys issues and positions, the max_score it derives, a citation's section text) is
    answered here, so that rules ask the model only."""

    matter_id: str
    title: str
    #: The top-level mapping of each YAML file (no fields when it is absent or no mapping).
    files: dict[str, Element]
    #: matter.yaml's `provenance` block (no fields when it is absent or no mapping).
    provenance: Element
    issues: tuple[IssueElement, ...] = ()
    questions: tuple[MatchItemElement, ...] = ()
    escalations: tuple[MatchItemElement, ...] = ()
    final_submission: FinalSubmissionElement
    constraints: ConstraintsElement
    positions: tuple[PositionElement, ...] = ()
    client_answers: tuple[AnswerElement, ...] = ()
    escalation_answers: tuple[AnswerElement, ...] = ()
    documents: tuple[DocumentElement, ...] = ()
    numbers: tuple[NumberElement, ...] = ()
    #: The declared max_score, when it is a number.
    max_score: float | None = None
    native_matter_id: int | float | bool | datetime.date | None = None
    #: The scorer's matter, typed in the same walk: for the analyses that run the scorer
    #: (the solver, the budget plans); rules read the elements and the questions below.
    scored: Matter

    def file(self, file_name: str) -> Element:
        """The top-level element of a YAML file of the matter."""
        return self.files[file_name]

    def rubric_list(self, list_name: str) -> tuple[IssueElement, ...] | tuple[MatchItemElement, ...]:
        """`issues`, `questions` or `escalations`: indexed like the scorer's lists."""
        if list_name == "issues":
            return self.issues
        return self.match_items(list_name)

    def match_items(self, list_name: str) -> tuple[MatchItemElement, ...]:
        return self.questions if list_name == "questions" else self.escalations

    def issue_ids(self) -> set[str]:
        """The ids written on the rubric's issues, as text (absent and empty ids left out):
        what counterparty positions and `required_issue_ids` refer to."""
        return {issue_id for issue in self.issues if (issue_id := issue.written_text("id")) is not None}

    def gates(self) -> Iterator[GateElement]:
        """Every entry of every gate list of every issue, in file order."""
        for issue in self.issues:
            yield from issue.gates

    def position(self, issue_id: str) -> PositionElement | None:
        """The counterparty's position on an issue (the last one written wins, as in the engine)."""
        return next((p for p in reversed(self.positions) if p.issue_id == issue_id), None)

    @cached_property
    def position_table(self) -> dict[str, PositionElement]:
        """The positions as the engine keys them: by issue id as text, in the order first
        written, the last one written winning."""
        return {position.issue_id: position for position in self.positions}

    @property
    def negotiation_enabled(self) -> bool:
        """Whether the counterparty negotiates at all (any position written)."""
        return self.scored.negotiation_enabled

    def issue_by_id(self, issue_id: str) -> IssueElement | None:
        """The issue the engine finds under this id (its id as text, "" when it has none; the
        last one written wins)."""
        return self._issues_by_id.get(issue_id)

    @cached_property
    def _issues_by_id(self) -> dict[str, IssueElement]:
        return {issue.scored.id: issue for issue in self.issues}

    @cached_property
    def read_documents(self) -> dict[str, DocumentElement]:
        """The documents the engine reads, by id, in the order their ids are first listed (of
        two entries with one id, the later read one wins, as in the engine)."""
        table: dict[str, DocumentElement] = {}
        for document in self.documents:
            if document.scored is not None:
                table[document.id] = document
        return table

    def document(self, document_id: str) -> DocumentElement | None:
        """The document the engine reads under this id, None when there is none."""
        return self.read_documents.get(document_id)

    def resolve(self, document_id: str, token: str) -> str | None:
        """The normalized text of `<document_id> §<token>` as the engine reads it, or None."""
        return self.scored.resolve(document_id, token)

    def derived_max_score(self) -> float:
        """The max_score the engine derives from the rubric (and the positions)."""
        return derived_max_score(self.scored.rubric, self.scored.positions)
