"""`rubric check`'s audit row asks for the verdicts only (no proposals): they must be the
very findings `rubric audit` reports, less the proposals and fixes."""

from __future__ import annotations

from rubric_tools.audit.codes import GENERATED_TEXT_CODES
from rubric_tools.audit.runner import audit_source
from rubric_tools.checking.audit_inputs import audit_inputs
from rubric_tools.checking.audit_rows import audit_rows, generates_texts
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


def test_without_generated_texts_the_own_text_verdicts_are_the_audits() -> None:
    """`rubric check`'s row by default generates no text from the gates: it reports every
    finding of the full audit but those generated texts give (U003, U004 but for a missed
    probe), and no other."""
    source = load_matter_source(REPO_ROOT / "matters" / "ai_saas_001")
    settings = AuditSection()
    full = audit_source(source, settings, audit_inputs(source.root), propose=False)
    own = audit_source(source, settings, audit_inputs(source.root), propose=False, generated=False)

    def key(d: Diagnostic) -> tuple[object, ...]:
        return (d.code, d.file, d.line, d.column, d.message, d.severity)

    assert {d.code for d in full} & set(GENERATED_TEXT_CODES), "the bundled matter has generated-text findings"
    assert not any(d.code == "U003" for d in own)
    assert [key(d) for d in own if d.code not in GENERATED_TEXT_CODES] == [
        key(d) for d in full if d.code not in GENERATED_TEXT_CODES
    ]
    assert any(d.code not in GENERATED_TEXT_CODES for d in own), "own-text verdicts to compare"


def test_the_check_row_generates_texts_only_when_fail_on_asks() -> None:
    assert not generates_texts(AuditSection())
    assert generates_texts(AuditSection(fail_on=("U003",)))
    assert generates_texts(AuditSection(fail_on=("U002", "U004")))
    assert not generates_texts(AuditSection(fail_on=("U001", "U002")))


def test_a_check_row_failing_on_u003_finds_the_frames_the_audit_finds() -> None:
    source = load_matter_source(REPO_ROOT / "matters" / "ai_saas_001")
    settings = AuditSection(fail_on=("U003",))
    frames = [d for d in audit_source(source, settings, audit_inputs(source.root)) if d.code == "U003"]
    (row,) = audit_rows(source, settings)
    assert frames, "the bundled matter has a gate firing on a negated frame"
    assert not row.passed and f"U003 {len(frames)}" in row.got
