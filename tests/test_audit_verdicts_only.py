"""`rubric check`'s audit row asks for the verdicts only (no proposals): they must be the
very findings `rubric audit` reports, less the proposals and fixes."""

from __future__ import annotations

from rubric_tools.audit.runner import audit_source
from rubric_tools.checking.audit_inputs import audit_inputs
from rubric_tools.config.audit import AuditSection
from rubric_tools.diagnostics import Diagnostic
from rubric_tools.loading.matter import load_matter_source
from tests.conftest import REPO_ROOT


def test_verdicts_without_proposals_are_the_audits_findings() -> None:
    source = load_matter_source(REPO_ROOT / "matters" / "ai_saas_001")
    settings = AuditSection()
    full = audit_source(source, settings, audit_inputs(source.root))
    verdicts = audit_source(source, settings, audit_inputs(source.root), propose=False)

    def key(d: Diagnostic) -> tuple[object, ...]:
        return (d.code, d.file, d.line, d.column, d.message, d.severity)

    assert full, "the bundled matter has audit findings to compare"
    assert [key(d) for d in verdicts] == [key(d) for d in full]
    assert any(d.fix is not None for d in full), "the full audit proposes fixes"
    assert all(d.fix is None and "proposal" not in d.extra for d in verdicts)
