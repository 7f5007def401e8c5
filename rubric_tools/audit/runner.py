"""Audit matters: every verdict on every gate and concept, as diagnostics.

    report = audit_matter(Path("matters/ai_saas_001"), AuditSettings())
    [(d.code, d.message) for d in report.diagnostics]

Matters are audited in a process pool when there are several (each matter is
independent and the work is CPU-bound regex searching).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from rubric_tools.audit.concepts import concept_findings, never_earnable_findings
from rubric_tools.audit.corpus import known_texts
from rubric_tools.audit.findings import AuditFinding
from rubric_tools.audit.gate_audit import gate_findings, never_fires_findings
from rubric_tools.audit.settings import AuditSettings
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.loading.matter import MatterSource, load_matter_source


@dataclass
class MatterAudit:
    root: Path
    matter_id: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)  # the matter did not load cleanly

    def failing(self, settings: AuditSettings) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.code in settings.fail_on]


@dataclass
class AuditReport:
    matters: list[MatterAudit] = field(default_factory=list)
    usage_errors: list[str] = field(default_factory=list)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for matter in self.matters for d in matter.diagnostics]

    def exit_code(self, settings: AuditSettings) -> int:
        if self.usage_errors or any(m.problems for m in self.matters):
            return 2
        return 1 if any(d.severity is Severity.ERROR for d in self.diagnostics) else 0


def audit_source(source: MatterSource, settings: AuditSettings) -> list[Diagnostic]:
    """Every audit finding on a loaded matter, sorted by position."""
    findings: list[AuditFinding] = [*never_fires_findings(source), *never_earnable_findings(source)]
    findings += gate_findings(source, known_texts(source), settings.thesaurus)
    findings += concept_findings(source)
    diagnostics = [
        f.to_diagnostic(source.matter_id, settings.max_evidence) for f in findings if f.code not in settings.ignore
    ]
    return sorted(diagnostics, key=Diagnostic.sort_key)


def audit_matter(root: Path, settings: AuditSettings) -> MatterAudit:
    source = load_matter_source(root)
    audit = MatterAudit(source.root, source.matter_id)
    audit.problems = [d for d in source.diagnostics if d.severity is Severity.ERROR]
    if not audit.problems:
        audit.diagnostics = audit_source(source, settings)
    return audit


def _audit_one(job: tuple[Path, AuditSettings]) -> MatterAudit:
    return audit_matter(*job)


def audit_roots(roots: Sequence[Path], settings: AuditSettings, jobs: int | None = None) -> list[MatterAudit]:
    """Audit each matter root; in a process pool of `jobs` workers (default: the CPU count)."""
    workers = min(jobs or os.cpu_count() or 1, len(roots))
    if workers <= 1:
        return [audit_matter(root, settings) for root in roots]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(_audit_one, [(root, settings) for root in roots]))
