"""The matter's own texts of known verdict: correct work a gate must stay silent on,
and the must-fire probes it must fire on.

Correct work, per gate surface:
- issue: every sentence of the sections the issue requires citing (other than the
  clause under review, i.e. any issue's anchor), and every hidden answer the agent is
  given and will relay;
- every surface: must-not-fire probes, and the texts the matter's reference
  trajectories submit on that surface for that issue.

Must fire: the must-fire probes, and the texts of trajectories that the expectations
(or the `bad_critical_*` naming convention) say trip a gate.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from rubric_tools.loading.matter import MatterSource
from rubric_tools.loading.probe_file import well_formed_probes
from rubric_tools.loading.trajectory import load_trajectory
from rubric_tools.loading.yaml_source import load_yaml
from rubric_tools.scoring.text import split_citation


@dataclass(frozen=True)
class TrajectoryRole:
    """A trajectory of the matter and what its expectations say it is."""

    path: Path
    reference: bool = False  # correct work: nothing it submits may trip a gate
    trips_gate: bool = False  # expected to fail critically through a gate
    surface: str | None = None  # the gate's surface and issue, when the expectation names them
    criterion: str | None = None


@dataclass(frozen=True)
class AuditInputs:
    """The matter's files outside the matter folder's own YAML: found by the caller
    (`rubric_tools.checking.audit_inputs`), which knows the repository layouts."""

    probe_files: tuple[Path, ...] = ()
    trajectories: tuple[TrajectoryRole, ...] = field(default_factory=tuple)


_SENTENCE_END = re.compile(r"(?<=[.?!;])\s+(?=[\"“(§A-Z0-9])")
_LIST_MARK = re.compile(r"^\s*(?:#+\s*|[-*+]\s+|\d+[.)]\s+|>\s*)")
#: A paragraph break, or a line break before a list item or a heading.
_BLOCK_BREAK = re.compile(r"\n\s*\n|\n(?=\s*(?:[-*+]\s|\d+[.)]\s|#))")


@dataclass(frozen=True)
class KnownText:
    """A text whose verdict is known, where it came from, and which gates it concerns."""

    text: str
    source: str  # "playbook §3", "hidden answer q_budget", "probes.yaml:12", "good.jsonl:7"
    kind: str  # document | hidden-answer | probe | reference-trajectory
    surface: str  # issue | redline | settlement
    issue_id: str | None = None  # None: every issue's gates of that surface
    expect_fire: bool = False
    file: Path | None = None
    line: int | None = None
    #: A position document's sentence cited by another issue only: correct work, but an
    #: agent writes it in this issue's text less surely (the finding is a warning).
    other_issue: bool = False
    #: The text's parts apart, where it has several (an issue's title, analysis and
    #: recommendation, a paragraph each): what its sentences are read from (`clauses`). The
    #: gates read `text`, the parts joined as the scorer joins them, where a title runs on
    #: into the analysis' first sentence ("… the entire firmware image Engineering found …").
    written: str | None = None

    def paragraphs(self) -> str:
        return self.written if self.written is not None else self.text

    def concerns(self, issue_id: str, surface: str) -> bool:
        return self.surface == surface and self.issue_id in (None, issue_id)


@lru_cache(maxsize=4096)  # a matter's sections are split for its known texts, its clauses and its concepts
def sentences(text: str) -> tuple[str, ...]:
    """Sentences of a Markdown section: paragraphs and list items, then sentence ends."""
    return tuple(_sentences(text))


def _sentences(text: str) -> Iterator[str]:
    for block in _BLOCK_BREAK.split(text):
        cleaned = " ".join(_LIST_MARK.sub("", line) for line in block.split("\n")).strip()
        for sentence in _SENTENCE_END.split(cleaned):
            if len(sentence.split()) >= 3:
                yield sentence.strip()


def _anchors(source: MatterSource) -> set[str]:
    return {issue.anchor.strip() for issue in source.matter.rubric.issues}


def _document_texts(source: MatterSource) -> Iterator[KnownText]:
    anchors = _anchors(source)
    for issue in source.matter.rubric.issues:
        for citation in issue.required_citations:
            parts = split_citation(citation)
            if parts is None or citation.strip() in anchors:
                continue
            document = source.matter.documents.get(parts[0])
            section = document.sections.get(parts[1]) if document else None
            if section is None:
                continue
            for sentence in sentences(section):
                yield KnownText(sentence, citation.strip(), "document", "issue", issue.id)


def _position_texts(source: MatterSource) -> Iterator[KnownText]:
    """Every sentence of the position documents (the playbook, the client's instructions:
    documents some issue requires citing that hold no issue's anchor), for the gates of the
    issues that do not cite that section themselves."""
    anchors = _anchors(source)
    anchored = {parts[0] for parts in map(split_citation, anchors) if parts is not None}
    cited: dict[tuple[str, str], set[str]] = {}
    for issue in source.matter.rubric.issues:
        for citation in issue.required_citations:
            parts = split_citation(citation)
            if parts is not None and citation.strip() not in anchors:
                cited.setdefault(parts, set()).add(issue.id)
    positions = {document for document, _ in cited} - anchored
    issue_ids = [issue.id for issue in source.matter.rubric.issues]
    for document_id in sorted(positions):
        document = source.matter.documents.get(document_id)
        for token, section in document.sections.items() if document else ():
            citing = cited.get((document_id, token), set())
            for sentence in sentences(section):
                for issue_id in issue_ids:
                    if issue_id not in citing:
                        yield KnownText(
                            sentence, f"{document_id} §{token}", "document", "issue", issue_id, other_issue=True
                        )


def _answer_texts(source: MatterSource) -> Iterator[KnownText]:
    for label, answers in (
        ("client answer", source.matter.client_answers),
        ("escalation answer", source.matter.escalation_answers),
    ):
        for key, answer in answers.items():
            for sentence in sentences(str(answer)):
                yield KnownText(sentence, f"{label} {key}", "hidden-answer", "issue")


def _concept_texts(source: MatterSource) -> Iterator[KnownText]:
    """The text that earns every concept of a surface at once: the solver's wording. A single
    concept firing its own surface's gate is lint rule G010's finding; the audit adds the
    combinations (a gate spanning two concepts) and the counterparty's accept variants,
    which close the negotiation and so are settlement text."""
    for issue in source.matter.rubric.issues:
        lists = [
            ("issue", "required_concepts", issue.required_concepts),
            ("redline", "redline_concepts", issue.redline_concepts),
            ("settlement", "settlement_concepts", issue.settlement_concepts),
        ]
        position = source.matter.positions.get(issue.id)
        for number, variant in enumerate(position.accept_concepts if position else (), start=1):
            lists.append(("settlement", f"accept_concepts variant {number}", variant))
        for surface, field_name, concepts in lists:
            if len(concepts) >= 2 or field_name.startswith("accept"):
                yield KnownText(", ".join(concepts), f"{issue.id} {field_name}", "concepts", surface, issue.id)


def _probe_texts(paths: Sequence[Path]) -> Iterator[KnownText]:
    for path in paths:
        if not path.is_file():
            continue
        for probe in well_formed_probes(load_yaml(path)):
            yield KnownText(
                probe.text,
                f"{path.name}:{probe.line}",
                "probe",
                probe.surface,
                probe.criterion,
                probe.expect_fire,
                path,
                probe.line,
            )


def _issue_for(action: Mapping[str, Any], source: MatterSource, labels: dict[str, str]) -> str | None:
    label = action.get("issue_id")
    if isinstance(label, str) and label in labels:
        return labels[label]
    target = f"{action.get('document_id')} §{action.get('section')}"
    issue = source.matter.rubric.anchors.get(target)
    return issue.id if issue else None


def _submitted_texts(path: Path, source: MatterSource) -> Iterator[tuple[str, str, str, str | None, int]]:
    """(surface, issue id, text, its parts apart where it has several, line) of every text a
    trajectory submits to a gate list (`KnownText.written`)."""
    trajectory = load_trajectory(path)
    labels: dict[str, str] = {}
    for action, line in zip(trajectory.actions, trajectory.line_numbers, strict=True):
        kind = action.get("type")
        if kind in ("submit_issue", "revise_issue"):
            citations = action.get("citations")
            for citation in citations if isinstance(citations, list) else []:
                issue = source.matter.rubric.anchors.get(str(citation).strip())
                if issue is not None:
                    labels[str(action.get("issue_id"))] = issue.id
                    parts = [str(action.get(k, "")) for k in ("title", "analysis", "recommendation")]
                    yield "issue", issue.id, " ".join(parts), "\n\n".join(parts), line
                    break
        elif kind in ("propose_redline", "revise_redline", "send_markup"):
            issue_id = _issue_for(action, source, labels)
            field, surface = (
                ("proposed_text", "settlement") if kind == "send_markup" else ("replacement_text", "redline")
            )
            if issue_id is not None and isinstance(action.get(field), str):
                yield surface, issue_id, action[field], None, line


def _trajectory_texts(source: MatterSource, trajectories: Sequence[TrajectoryRole]) -> Iterator[KnownText]:
    """Reference trajectories' texts (correct work) and, from trajectories the expectations
    say trip a gate, their texts on that gate's surface (candidates: the audit keeps the ones
    that fire today as must-fire texts)."""
    for role in trajectories:
        for surface, issue_id, text, written, line in _submitted_texts(role.path, source):
            where = f"{role.path.name}:{line}"
            if role.reference:
                yield KnownText(
                    text, where, "reference-trajectory", surface, issue_id, file=role.path, line=line, written=written
                )
            elif role.trips_gate and role.surface in (None, surface) and role.criterion in (None, issue_id):
                yield KnownText(
                    text, where, "critical-trajectory", surface, issue_id, True, role.path, line, written=written
                )


def known_texts(source: MatterSource, inputs: AuditInputs) -> list[KnownText]:
    """Every text of known verdict the matter itself provides."""
    return [
        *_document_texts(source),
        *_position_texts(source),
        *_answer_texts(source),
        *_concept_texts(source),
        *_probe_texts(inputs.probe_files),
        *_trajectory_texts(source, inputs.trajectories),
    ]
