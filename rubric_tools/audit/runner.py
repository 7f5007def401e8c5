"""Audit a loaded matter: every verdict on every gate and concept, as diagnostics.

    diagnostics = audit_source(load_matter_source(root), AuditSection(), audit_inputs(root))

`rubric_tools.commands.audit` audits matter folders (in a process pool) and renders them.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rubric_tools.audit import lexicon, quantities
from rubric_tools.audit.concepts import concept_findings, never_earnable_findings
from rubric_tools.audit.corpus import AuditInputs, KnownText, known_texts
from rubric_tools.audit.findings import AuditFinding
from rubric_tools.audit.gate_audit import audit_gate_lists
from rubric_tools.audit.names import matter_names, matter_parties
from rubric_tools.audit.never_fires import never_fires_findings
from rubric_tools.audit.robustness import ListRobustness
from rubric_tools.audit.thesaurus import build as build_thesaurus
from rubric_tools.config.audit import AuditSection
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.loading.matter import MatterSource
from rubric_tools.suppressions import apply_suppressions, matter_suppressions

#: Young objects allowed before the collector runs (Python's default: 700). An audit makes
#: hundreds of thousands of short-lived tuples, lists and records and few cycles: a pass
#: every 700 frees next to nothing and cost 4-5 % of the audit's CPU (the 12 conformance
#: matters in one process, 1.76 -> 1.68-1.71 s); every 50,000 the cycles it does make are
#: still collected (peak memory unchanged, 87-88 MB).
YOUNG_OBJECTS_BEFORE_COLLECTING = 50_000


def start_worker() -> None:
    """How a process that audits matters starts: what it inherited is set aside from the
    collector (`gc.freeze`: it lives as long as the worker, and every full pass would walk
    it again), and the collector runs less often (`YOUNG_OBJECTS_BEFORE_COLLECTING`)."""
    gc.freeze()
    collect_less()


def collect_less() -> None:
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_OBJECTS_BEFORE_COLLECTING, middle, old)


def preload() -> None:
    """Read and build now the tables every audit that generates texts reads: the lexicon's
    (`lexicon.preload`) and the number words (`quantities.preload`). A command that audits
    in forked workers calls this before forking, so that the workers share one copy."""
    lexicon.preload()
    quantities.preload()


@dataclass
class MatterAudit:
    root: Path
    matter_id: str
    diagnostics: list[Diagnostic] = field(default_factory=list)
    problems: list[Diagnostic] = field(default_factory=list)  # the matter did not load cleanly
    #: A robustness figure per gate list (`audit.robustness`), in rubric order.
    robustness: list[ListRobustness] = field(default_factory=list)


@dataclass
class SourceAudit:
    """What auditing one loaded matter found."""

    diagnostics: list[Diagnostic]
    robustness: list[ListRobustness]


@dataclass
class AuditReport:
    matters: list[MatterAudit] = field(default_factory=list)
    usage_errors: list[str] = field(default_factory=list)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for matter in self.matters for d in matter.diagnostics]

    @property
    def exit_code(self) -> int:
        if self.usage_errors or any(m.problems for m in self.matters):
            return 2
        return 1 if any(d.severity is Severity.ERROR for d in self.diagnostics) else 0


def audit_source(
    source: MatterSource,
    settings: AuditSection,
    inputs: AuditInputs | None = None,
    *,
    known: Sequence[KnownText] | None = None,
    only_list: tuple[int, str] | None = None,
    propose: bool = True,
    generated: bool = True,
) -> list[Diagnostic]:
    """Every audit finding on a loaded matter, sorted by position. `inputs` names the probe
    files and trajectories (`rubric_tools.checking.audit_inputs` finds them); `known`, when
    given, replaces the texts read from them. `only_list` ((issue index, gate surface))
    restricts the gate verdicts U002-U004 to that one list: the recall benchmark re-audits
    one seeded gate list many times. Without `propose`, findings carry no proposal and no
    fix (`rubric check` needs only the verdicts). Without `generated`, no text is generated
    from the gates: the findings are the verdicts on the matter's own texts, and none of
    the codes `GENERATED_TEXT_CODES` name that generated texts alone give (U003, U004 but
    for a missed must-fire probe): `rubric check` generates them only when its
    `fail-on` names one."""
    return audit_matter_source(
        source, settings, inputs, known=known, only_list=only_list, propose=propose, generated=generated
    ).diagnostics


def audit_matter_source(
    source: MatterSource,
    settings: AuditSection,
    inputs: AuditInputs | None = None,
    *,
    known: Sequence[KnownText] | None = None,
    only_list: tuple[int, str] | None = None,
    propose: bool = True,
    generated: bool = True,
) -> SourceAudit:
    """`audit_source`, with the robustness figure of every gate list beside the findings."""
    findings: list[AuditFinding] = [*never_fires_findings(source), *never_earnable_findings(source)]
    texts = known if known is not None else known_texts(source, inputs or AuditInputs())
    # The matter's names are written as they stand wherever a gate is widened.
    thesaurus = build_thesaurus(settings.synonym_groups, settings.thesaurus).with_matter(
        *matter_names(source.model), matter_parties(source.model)
    )
    figures: list[ListRobustness] = []
    for list_findings, figure in audit_gate_lists(source, texts, thesaurus, only_list, propose, generated):
        findings += list_findings
        figures.append(figure)
    findings += concept_findings(source)
    diagnostics = [
        f.to_diagnostic(source.matter_id, settings.max_evidence) for f in findings if f.code not in settings.ignore
    ]
    # Inline `# rubric: ignore[U003] -- why` comments silence audit findings as they do lint's.
    diagnostics = apply_suppressions(diagnostics, matter_suppressions(source))
    return SourceAudit(sorted(diagnostics, key=Diagnostic.sort_key), figures)
