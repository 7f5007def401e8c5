"""Typed, immutable models of a matter, as the scorer sees it (engine.md §1).

The loader builds these from YAML; tests build them directly. Defaults are the
engine's. Concepts are stored normalized, because every comparison is made on
normalized text.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from rubric_tools.scoring.gates import Gate, GateRunner
from rubric_tools.scoring.text import format_citation, normalize

SEVERITIES = ("low", "medium", "high", "critical")

Variant = tuple[str, ...]

#: An id as YAML 1.1 reads an unquoted scalar: `2024-01-01` is a date, `yes` a boolean, `7` an
#: integer. The reference engine keeps such a value as it is, so the scorer does too where the
#: result depends on it (the matter id it reports, an issue's criterion); everywhere else ids are
#: text. `rubric lint` reports these scalars (Y001), since an author almost never means them.
YamlId = str | int | float | bool | datetime.date


def yaml_id(value: object) -> YamlId:
    """`value` itself when it is a scalar the reference keeps as an id, else its `str()`."""
    if isinstance(value, str | int | float | bool | datetime.date):
        return value
    return str(value)


def sorted_ids(ids: Iterable[YamlId]) -> list[YamlId]:
    """`sorted()`, as the engine sorts its id sets; ids of kinds Python cannot order together
    (a date and a text, where the engine raises) are grouped by kind instead of failing."""
    values = list(ids)
    try:
        return sorted(values)
    except TypeError:
        return sorted(values, key=lambda value: (type(value).__name__, str(value)))


#: The three gate lists of an issue, by the surface (text) they run on.
GATE_SURFACES = {
    "issue": "critical_failure_patterns",
    "redline": "redline_critical_failure_patterns",
    "settlement": "settlement_critical_failure_patterns",
}


def _empty() -> Mapping[str, Any]:
    return MappingProxyType({})


@dataclass(frozen=True)
class Constraints:
    maximum_steps: int = 30
    maximum_client_questions: int = 5
    maximum_escalations: int = 2
    maximum_negotiation_rounds: int = 8


@dataclass(frozen=True)
class Document:
    """A Markdown document split into sections by token."""

    id: str
    title: str
    path: str
    sections: Mapping[str, str]

    @cached_property
    def normalized_sections(self) -> Mapping[str, str]:
        return MappingProxyType({token: normalize(text) for token, text in self.sections.items()})

    @cached_property
    def citations(self) -> frozenset[str]:
        """Every `<id> §<token>` of the document: what reading it whole makes read."""
        return frozenset(self.section_citations.values())

    @cached_property
    def section_citations(self) -> Mapping[str, str]:
        """Token → `<id> §<token>`: what reading one section makes read."""
        return MappingProxyType({token: format_citation(self.id, token) for token in self.sections})


@dataclass(frozen=True)
class MatchItem:
    """A rubric question or escalation: scored when any variant matches free text."""

    id: str
    points: float = 0.5
    concepts: Variant = ()
    aliases: tuple[Variant, ...] = ()
    required: bool = False
    critical_if_missed: bool = False

    @cached_property  # read for every question and escalation a replay scores
    def variants(self) -> tuple[Variant, ...]:
        """`concepts` first, then each alias list, in rubric order."""
        return (self.concepts, *self.aliases)

    @cached_property  # what its event records: `StepContext.record` rounds points so
    def recorded_points(self) -> float:
        return round(self.points, 4)


@dataclass(frozen=True)
class Issue:
    id: str
    anchor: str
    severity: str | None = None
    base_points: float = 1.0
    severity_points: float = 0.25
    citation_points: float = 0.25
    concept_points: float = 0.5
    quote_points: float = 0.25
    redline_points: float = 1.0
    settlement_points: float = 1.0
    required_citations: tuple[str, ...] = ()
    required_concepts: Variant = ()
    redline_concepts: Variant = ()
    settlement_concepts: Variant = ()
    non_negotiable: bool = False
    critical_failure_patterns: tuple[Gate, ...] = ()
    redline_critical_failure_patterns: tuple[Gate, ...] = ()
    settlement_critical_failure_patterns: tuple[Gate, ...] = ()
    #: The id as YAML 1.1 read it when that is not text (see `YamlId`); None for a text id.
    native_id: int | float | bool | datetime.date | None = None

    @cached_property  # read several times for every issue and redline a replay scores
    def criterion(self) -> YamlId:
        """The issue's identity in an episode: what events, matched sets and labels hold.

        The reference keeps the YAML value of the id there (a date stays a date), so results
        show it as that value and comparisons with text never match it."""
        return self.id if self.native_id is None else self.native_id

    # Derived from the rubric alone, once per issue, for scoring its submissions:

    @cached_property
    def issue_gate_runner(self) -> GateRunner:
        """`critical_failure_patterns`, ready to run on every issue text scored against it."""
        return GateRunner(self.critical_failure_patterns)

    @cached_property
    def redline_gate_runner(self) -> GateRunner:
        """`redline_critical_failure_patterns`, ready to run on every redline text."""
        return GateRunner(self.redline_critical_failure_patterns)

    @cached_property
    def settlement_gate_runner(self) -> GateRunner:
        """`settlement_critical_failure_patterns`, ready to run on every text an issue closes on."""
        return GateRunner(self.settlement_critical_failure_patterns)

    @cached_property
    def distinct_required_citations(self) -> tuple[str, ...]:
        """`required_citations` sorted, each once: an issue event lists its missing ones so."""
        return tuple(sorted(set(self.required_citations)))

    def gates(self, surface: str) -> tuple[Gate, ...]:
        """The gate list that runs on `surface`: issue, redline or settlement text."""
        return getattr(self, GATE_SURFACES[surface])  # type: ignore[no-any-return]

    @property
    def work_product_points(self) -> float:
        """The six per-issue components that always enter the derived max_score."""
        return (
            self.base_points
            + self.severity_points
            + self.citation_points
            + self.concept_points
            + self.quote_points
            + self.redline_points
        )


@dataclass(frozen=True)
class FinalSubmission:
    points: float = 0.5
    minimum_characters: int = 80
    required_issue_ids: tuple[YamlId, ...] = ()  # as YAML 1.1 read them: compared with criteria
    missing_required_issue_penalty: float = 0.25
    missed_escalation_penalty: float = 0.5
    required_concepts: Variant = ()
    concept_points: float = 0.0

    @cached_property
    def sorted_required_issue_ids(self) -> tuple[str, ...] | None:
        """The distinct `required_issue_ids` in `sorted_ids` order when all are text, so that
        filtering them keeps any subset sorted: the final submission lists the missing ones
        without a set and a sort. None for ids of other kinds (a subset of ids of mixed kinds
        may sort by another rule than the whole list)."""
        ids = self.required_issue_ids
        if all(type(issue_id) is str for issue_id in ids):
            return tuple(sorted({str(issue_id) for issue_id in ids}))
        return None


@dataclass(frozen=True)
class Rubric:
    critical_failure_score_cap: float = 0.25
    max_score: float | None = None
    questions: tuple[MatchItem, ...] = ()
    escalations: tuple[MatchItem, ...] = ()
    issues: tuple[Issue, ...] = ()
    final_submission: FinalSubmission = field(default_factory=FinalSubmission)

    @cached_property
    def anchors(self) -> Mapping[str, Issue]:
        """Anchor string → issue. The first issue wins when two share an anchor."""
        table: dict[str, Issue] = {}
        for issue in self.issues:
            table.setdefault(issue.anchor, issue)
        return MappingProxyType(table)

    @cached_property
    def anchor_table(self) -> dict[str, Issue]:
        """`anchors` as a plain dict for the redlines and markups that look a target up (compiled, a mapping
        proxy's `get` costs a second method call)."""
        return dict(self.anchors)

    @cached_property
    def issues_by_id(self) -> Mapping[str, Issue]:
        return MappingProxyType({issue.id: issue for issue in self.issues})

    def redline_issue(self, criterion: YamlId) -> Issue | None:
        """The issue a redline's criterion (from the agent's label, else the anchor it targets)
        scores against, as the reference finds it.

        Both ways give the issue's criterion, its id as YAML 1.1 read it; the reference then
        finds the issue among the ids' text, so one whose id is not text (a date, a number, a
        boolean) is never found and every redline of it is unsupported (conformance-edge H08d)."""
        return self.issues_by_id.get(criterion) if isinstance(criterion, str) else None

    @cached_property
    def redline_issues(self) -> dict[object, Issue]:
        """`redline_issue` as one plain-dict look-up (every redline scored asks it): keyed by
        the text ids, so a criterion of any other kind (or None) finds nothing, as there."""
        table: dict[object, Issue] = {issue_id: issue for issue_id, issue in self.issues_by_id.items()}
        return table

    @cached_property
    def settle_up_escalations(self) -> tuple[tuple[str, bool], ...]:
        """(id, critical_if_missed) of each escalation the final submission settles up when it
        was never raised, in rubric order: the critical ones and the other required ones."""
        return tuple(
            (escalation.id, bool(escalation.critical_if_missed))
            for escalation in self.escalations
            if escalation.critical_if_missed or escalation.required
        )

    @cached_property
    def question_table(self) -> MatchTable:
        """The questions' variants for `first_match`, asked for every question."""
        return match_table(self.questions)

    @cached_property
    def escalation_table(self) -> MatchTable:
        """The escalations' variants for `first_match`, asked for every escalation."""
        return match_table(self.escalations)


#: The variants of a rubric's questions or escalations in matching order (each item's concepts,
#: then each alias list), as runs of consecutive variants that share their first concept:
#: (that concept, ((the variant's other concepts, its item), ...)). A text without the concept
#: fails the whole run with one search (authors write `training`+`priority`, `training`+...).
MatchTable = tuple[tuple[str, tuple[tuple[Variant, MatchItem], ...]], ...]


def match_table(items: tuple[MatchItem, ...]) -> MatchTable:
    runs: list[tuple[str, list[tuple[Variant, MatchItem]]]] = []
    for item in items:
        for variant in item.variants:
            if not variant:  # an empty variant never matches
                continue
            first, rest = variant[0], variant[1:]
            if runs and runs[-1][0] == first:
                runs[-1][1].append((rest, item))
            else:
                runs.append((first, [(rest, item)]))
    return tuple((first, tuple(run)) for first, run in runs)


@dataclass(frozen=True)
class Counter:
    message: str = ""
    text: str = ""
    trap: bool = False

    @cached_property  # an acceptance closes on this text: normalized once per matter, not per step
    def normalized_text(self) -> str:
        return normalize(self.text)


@dataclass(frozen=True)
class Position:
    """The counterparty's hidden script for one rubric issue."""

    resist_rounds: int = 0
    accept_concepts: tuple[Variant, ...] = ()
    counters: tuple[Counter, ...] = ()
    reject_message: str = ""


@dataclass(frozen=True)
class Matter:
    matter_id: str
    rubric: Rubric
    documents: Mapping[str, Document] = field(default_factory=_empty)
    constraints: Constraints = field(default_factory=Constraints)
    positions: Mapping[str, Position] = field(default_factory=_empty)
    client_answers: Mapping[str, str] = field(default_factory=_empty)
    escalation_answers: Mapping[str, str] = field(default_factory=_empty)
    title: str = ""
    #: `matter_id` as YAML 1.1 read it when that is not text (`matter_id: yes` is True): the
    #: reference reports that value in its result (conformance-edge H32). None for a text id.
    native_matter_id: int | float | bool | datetime.date | None = None

    @property
    def reported_matter_id(self) -> YamlId:
        """The matter id an episode result reports: the YAML value, as the reference does."""
        return self.matter_id if self.native_matter_id is None else self.native_matter_id

    @property
    def negotiation_enabled(self) -> bool:
        return bool(self.positions)

    @cached_property
    def position_table(self) -> dict[str, Position]:
        """`positions` as a plain dict, looked up by every markup and acceptance (empty when
        the matter has no counterparty, like `negotiation_enabled`)."""
        return dict(self.positions)

    @cached_property
    def read_targets(self) -> dict[str, dict[str | None, str | frozenset[str]]]:
        """Document id → {section token → its citation, None → every citation of the document}:
        what a read_document step marks read, found in two look-ups (reads are a third of all
        steps). Plain dicts keyed by text: a value of any other type misses them."""
        targets: dict[str, dict[str | None, str | frozenset[str]]] = {}
        for document_id, document in self.documents.items():
            reads: dict[str | None, str | frozenset[str]] = {None: document.citations}
            reads.update(document.section_citations)
            targets[document_id] = reads
        return targets

    @cached_property
    def redline_targets(self) -> dict[str, dict[str, str]]:
        """Document id → {section token → `<id> §<token>`}: whether a redline's target exists
        and the citation it names, in two look-ups (plain dicts keyed by text, so a value of
        any other type misses them; the id is the key the matter knows the document by)."""
        return {
            document_id: {token: format_citation(document_id, token) for token in document.sections}
            for document_id, document in self.documents.items()
        }

    @cached_property
    def citation_memo(self) -> dict[str, Any]:
        """Scratch space for the scorer to remember what citation strings resolve to: the
        answer depends on the matter alone, and agents cite the same few sections."""
        return {}

    @cached_property
    def issue_target_memo(self) -> dict[tuple[str, ...], Any]:
        """Scratch space for the scorer to remember what a whole list of citation strings
        resolves to (the issue target last built for it, label included): agents cite the
        same few lists, and resolving one costs a loop."""
        return {}

    @cached_property
    def counter_settlement_memo(self) -> dict[tuple[str, str, float], Any]:
        """Scratch space for the scorer to remember how closing on a counterparty's counter
        scores (issue id, counter text, gate time limit): the counter is the matter's own text,
        and scoring it runs the issue's settlement gates."""
        return {}

    @cached_property
    def cited_section_memo(self) -> dict[str, tuple[str | None]]:
        """Scratch space for the scorer to remember the normalized section text a citation
        string names, as a 1-tuple (None inside when it names none): quotes are checked
        against the same few sections."""
        return {}

    @cached_property
    def derived_memo(self) -> dict[str, Any]:
        """Scratch space for values the scorer derives from the matter alone: the derived
        max_score every episode result divides by, the `Budgets` its step records share
        (episode.py, bounded)."""
        return {}

    def resolve(self, document_id: str, token: str) -> str | None:
        """Normalized text of `<document_id> §<token>`, or None when it does not exist."""
        document = self.documents.get(document_id)
        if document is None:
            return None
        return document.normalized_sections.get(token)


def normalized_variant(concepts: object) -> Variant:
    """Normalize a list of concept strings (non-strings are str()-ed, as the engine does)."""
    if isinstance(concepts, str) or not hasattr(concepts, "__iter__"):
        return ()
    return tuple(normalize(str(concept)) for concept in concepts)
