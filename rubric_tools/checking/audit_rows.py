"""`rubric check`'s adapter: one row per matter for the audit, failed by the findings
whose codes `[tool.rubric.audit] fail-on` lists (by default the verdicts on the matter's
own texts and the can-never kinds: U001, U002, U005, U009). It generates texts from the
gates (for U003 and U004) only when `fail-on` names one of those codes."""

from __future__ import annotations

from collections import Counter

from rubric_tools.audit.codes import GENERATED_TEXT_CODES
from rubric_tools.audit.runner import audit_source
from rubric_tools.audit.thresholds import describe, failing_codes
from rubric_tools.checking.audit_inputs import audit_inputs
from rubric_tools.checking.rows import CheckRow
from rubric_tools.config.audit import AuditSection
from rubric_tools.loading.matter import MatterSource

#: Failing findings listed in a row's detail.
MAX_DETAIL = 10


def generates_texts(settings: AuditSection) -> bool:
    """Whether the row generates texts from the gates: only when a code that needs them fails it."""
    return any(code in GENERATED_TEXT_CODES for code in failing_codes(settings))


def audit_rows(source: MatterSource, settings: AuditSection) -> list[CheckRow]:
    # A row needs the verdicts that can fail it only: proposing guards is most of an audit's
    # cost, and generating texts from the gates most of the rest (U003 and U004 need them).
    fail_on = failing_codes(settings)
    generated = generates_texts(settings)
    diagnostics = audit_source(source, settings, audit_inputs(source.root), propose=False, generated=generated)
    failing = [d for d in diagnostics if d.code in fail_on]
    counts = Counter(d.code for d in diagnostics)
    got = ", ".join(f"{code} {count}" for code, count in sorted(counts.items())) or "no findings"
    detail = "\n".join(f"{d.file.name}:{d.line}:{d.column} {d.code} {d.message}" for d in failing[:MAX_DETAIL])
    if len(failing) > MAX_DETAIL:
        detail += f"\n… and {len(failing) - MAX_DETAIL} more (run `rubric audit`)"
    first = failing[0] if failing else None
    return [
        CheckRow(
            "audit",
            "rubric audit",
            not failing,
            describe(settings),
            got,
            detail,
            first.file if first else source.root / "rubric.yaml",
            first.line if first else None,
        )
    ]
