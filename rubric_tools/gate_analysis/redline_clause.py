"""Redline concepts the clause under review already contains: earned by pasting it back.

A redline earns `redline_points` × the share of `redline_concepts` found in the
normalized replacement text (engine.md §3). A concept the anchored section's own
normalized text contains is earned by proposing the clause unchanged. Found statically,
from the typed model; shared by lint rule U007 and `rubric audit`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rubric_tools.catalogue import declare_rule_code
from rubric_tools.diagnostics import Severity
from rubric_tools.loading.elements import IssueElement, MatterModel, TextElement
from rubric_tools.scoring.text import normalize, split_citation

#: Lint rule U007 (`rubric_tools.lint.rules.audit`) and `rubric audit` report it alike.
CONCEPT_EARNED_WITHOUT_WORK = declare_rule_code("U007", "concept-earned-without-work", Severity.ERROR)


@dataclass(frozen=True)
class ClauseConcepts:
    """The redline concepts of one issue that its anchored clause already contains."""

    issue: IssueElement
    anchor: str
    present: tuple[TextElement, ...]
    total: int  # redline concepts the issue lists

    @property
    def everything(self) -> bool:
        return len(self.present) == self.total


def clause_text(model: MatterModel, citation: str) -> str | None:
    """The normalized text of the section `citation` names, as the engine resolves it
    (the last document listed with the id wins, as in the engine), or None."""
    text = clause_source(model, citation)
    return normalize(text) if text is not None else None


def clause_source(model: MatterModel, citation: str) -> str | None:
    """The section `citation` names as its document writes it (see `clause_text`), or None."""
    parts = split_citation(citation)
    if parts is None:
        return None
    for document in reversed(model.documents):
        if document.id == parts[0]:
            parsed = document.source.parsed
            return parsed.sections.get(parts[1]) if parsed is not None else None
    return None


def concepts_in_clause(model: MatterModel) -> Iterator[ClauseConcepts]:
    """Every issue whose redline pays for a concept its anchored clause already holds."""
    for issue in model.issues:
        concepts = issue.redline_concepts
        if issue.anchor is None or concepts is None or issue.scored.redline_points <= 0:
            continue
        written = [c for c in concepts.concepts if c.normalized]
        if not written:
            continue
        clause = clause_text(model, issue.scored.anchor)
        if clause is None:
            continue
        present = tuple(c for c in written if c.normalized in clause)
        if present:
            yield ClauseConcepts(issue, issue.scored.anchor, present, len(concepts.concepts))


def without_work_message(found: ClauseConcepts, concept: TextElement) -> str:
    share = "every redline concept" if found.everything else f"{len(found.present)} of {found.total} redline concepts"
    return (
        f"redline concept {concept.text!r} of issue {found.issue.label!r} is already in the clause under review "
        f"{found.anchor!r} ({share} are): proposing the clause back unchanged earns "
        f"{'all' if found.everything else 'part'} of the redline points"
    )
