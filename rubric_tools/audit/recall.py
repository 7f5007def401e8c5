"""The audit's recall on seeded defects: break one gate entry or concept of a loaded
matter in memory (`rubric_tools.audit.seeding`), re-audit, and see whether a finding
appears on that node that the unmodified matter did not have.

Nothing is written to disk: the defect is applied to a copy of the parsed rubric, the
scorer's model is rebuilt from it, and positions are kept (the defective node sits where
the original did).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rubric_tools.audit.codes import GATE_DODGED, GATE_FIRES_ON_NEGATED_FRAME
from rubric_tools.audit.corpus import AuditInputs, KnownText, known_texts
from rubric_tools.audit.runner import audit_source
from rubric_tools.audit.seeding import CONCEPT_OPERATORS, GATE_OPERATORS, ConceptOperator, GateOperator, as_entry
from rubric_tools.config.audit import AuditSection
from rubric_tools.diagnostics import Diagnostic
from rubric_tools.gate_analysis.concept_nodes import concept_nodes
from rubric_tools.loading import build
from rubric_tools.loading.matter import RUBRIC_FILE, MatterSource
from rubric_tools.loading.yaml_source import InstancePath
from rubric_tools.scoring.text import split_citation

FindingKey = tuple[str, int, int, str]
#: The evidence is compared, not only the codes: a gate already dodged one way and now
#: dodged another has a new finding. Every item is kept for the comparison.
_ALL_EVIDENCE = 10_000


@dataclass(frozen=True)
class Seeded:
    """One seeded defect and whether the audit saw it."""

    matter: str
    operator: str
    node: str  # "issue_id/surface#entry" or the concept's field
    detected: bool
    codes: tuple[str, ...] = ()
    control: bool = False


@dataclass
class RecallReport:
    seeded: list[Seeded] = field(default_factory=list)
    baseline: dict[str, list[Diagnostic]] = field(default_factory=dict)  # by matter folder: unmodified findings

    def rate(self, operator: str | None = None) -> tuple[int, int]:
        """(detected, seeded) for one operator, or for every non-control operator."""
        rows = [s for s in self.seeded if (s.operator == operator if operator else not s.control)]
        return sum(s.detected for s in rows), len(rows)


def _key(diagnostic: Diagnostic) -> FindingKey:
    subject = diagnostic.extra.get("subject")
    concept = subject.get("concept") or subject.get("concepts") if isinstance(subject, dict) else None
    return diagnostic.code, diagnostic.line or 0, diagnostic.column or 0, str(concept)


#: Verdicts whose evidence is told apart by its kind alone (frames and dodges), not by source.
_KIND_ONLY = (GATE_FIRES_ON_NEGATED_FRAME.code, GATE_DODGED.code)


def _evidence(diagnostic: Diagnostic) -> set[str]:
    """What a finding says, independent of the pattern's own words: the correct-work texts
    (by source) a gate fires on, the frame and dodge kinds, the probes walked past."""
    items = diagnostic.extra.get("evidence")
    found: set[str] = set()
    for item in items if isinstance(items, list) else []:
        kind, source = str(item.get("kind")), str(item.get("source"))
        by_kind = diagnostic.code in _KIND_ONLY and kind != "probe"
        found.add(kind if by_kind else f"{kind} {source}")
    return found


def _findings(diagnostics: Sequence[Diagnostic]) -> dict[FindingKey, set[str]]:
    return {_key(d): _evidence(d) for d in diagnostics}


def _with_rubric(source: MatterSource, data: Any) -> MatterSource:
    yaml = replace(source.files[RUBRIC_FILE], data=data)
    matter = replace(source.matter, rubric=build.rubric(data))
    return replace(source, matter=matter, files={**source.files, RUBRIC_FILE: yaml})


def _set(data: Any, path: InstancePath, value: Any) -> Any:
    mutated = copy.deepcopy(data)
    holder = mutated
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = value
    return mutated


def _new_at(
    source: MatterSource,
    diagnostics: Sequence[Diagnostic],
    before: dict[FindingKey, set[str]],
    paths: Sequence[InstancePath],
) -> tuple[str, ...]:
    """Codes of the findings at `paths` that are new, or say something new (new evidence)."""
    rubric = source.files[RUBRIC_FILE]
    spans = {(s.line, s.column) for s in (rubric.span(p) for p in paths) if s is not None}
    return tuple(
        sorted(
            {
                d.code
                for d in diagnostics
                if (d.line, d.column) in spans and (_key(d) not in before or not _evidence(d) <= before[_key(d)])
            }
        )
    )


def _gate_sites(source: MatterSource) -> Iterator[tuple[InstancePath, int, str, str, dict[str, Any]]]:
    for gate in source.model.gates():
        entry = as_entry(gate)
        if entry is not None:
            label = f"{gate.issue_id}/{gate.surface}#{gate.index}"
            yield gate.location.path, gate.issue_index, gate.surface, label, entry


class _MatterRecall:
    def __init__(self, source: MatterSource, inputs: AuditInputs, settings: AuditSection) -> None:
        self.source = source
        self.settings = replace(settings, max_evidence=_ALL_EVIDENCE)
        self.known: list[KnownText] = known_texts(source, inputs)
        self.baseline = audit_source(source, self.settings, known=self.known)
        self.before = _findings(self.baseline)

    def gate(self, operator: GateOperator, max_sites: int) -> Iterator[Seeded]:
        sites = 0
        for path, issue_index, surface, label, entry in _gate_sites(self.source):
            defective = operator.apply(entry)
            if defective is None or sites >= max_sites:
                continue
            sites += 1
            mutated = _with_rubric(self.source, _set(self.source.data(RUBRIC_FILE), path, defective))
            found = audit_source(mutated, self.settings, known=self.known, only_list=(issue_index, surface))
            new = _new_at(mutated, found, self.before, [path])
            yield Seeded(self.source.matter_id, operator.name, label, bool(new), new, operator.control)

    def concept(self, operator: ConceptOperator, max_sites: int) -> Iterator[Seeded]:
        sites = 0
        for node in concept_nodes(self.source):
            if node.file_name != RUBRIC_FILE or sites >= max_sites:
                continue
            clause = self._clause(node.path)
            defective = operator.apply(node.text, node.field, clause)
            if defective is None or defective == node.text:
                continue
            sites += 1
            mutated = _with_rubric(self.source, _set(self.source.data(RUBRIC_FILE), node.path, defective))
            # Concept verdicts only: no gate list is re-audited.
            found = audit_source(mutated, self.settings, known=self.known, only_list=(-1, ""))
            new = _new_at(mutated, found, self.before, [node.path, node.path[:-1]])
            yield Seeded(self.source.matter_id, operator.name, node.field, bool(new), new)

    def _clause(self, path: InstancePath) -> str | None:
        if path[0] != "issues" or not isinstance(path[1], int):
            return None
        issue = next((issue for issue in self.source.model.issues if issue.index == path[1]), None)
        parts = split_citation(issue.scored.anchor) if issue is not None else None
        return self.source.matter.resolve(*parts) if parts else None


def measure(
    sources: Sequence[tuple[MatterSource, AuditInputs]],
    settings: AuditSection | None = None,
    *,
    gate_operators: Sequence[GateOperator] = GATE_OPERATORS,
    concept_operators: Sequence[ConceptOperator] = CONCEPT_OPERATORS,
    max_sites: int = 6,
) -> RecallReport:
    """Seed every operator at up to `max_sites` nodes of each matter and re-audit."""
    report = RecallReport()
    for source, inputs in sources:
        recall = _MatterRecall(source, inputs, settings or AuditSection())
        report.baseline[str(source.root)] = recall.baseline  # matter ids repeat across repositories
        for gate_operator in gate_operators:
            report.seeded += recall.gate(gate_operator, max_sites)
        for concept_operator in concept_operators:
            report.seeded += recall.concept(concept_operator, max_sites)
    return report
