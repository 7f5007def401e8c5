"""Which audit findings fail `rubric check`: `[tool.rubric.audit] fail-on`, or by default
the verdicts on the matter's own texts and the can-never kinds (U001, U002, U005, U009)."""

from __future__ import annotations

from rubric_tools.audit.codes import CONCEPT_PUNISHED_ON_OTHER_SURFACE, GATE_FIRES_ON_CORRECT_WORK
from rubric_tools.config.audit import AuditSection
from rubric_tools.gate_analysis.concept_nodes import CONCEPT_NEVER_EARNABLE
from rubric_tools.gate_analysis.gate_firing import GATE_NEVER_FIRES

#: The verdicts on the matter's own texts and the can-never kinds.
DEFAULT_FAIL_ON = (
    GATE_NEVER_FIRES.code,
    GATE_FIRES_ON_CORRECT_WORK.code,
    CONCEPT_NEVER_EARNABLE.code,
    CONCEPT_PUNISHED_ON_OTHER_SURFACE.code,
)


def failing_codes(settings: AuditSection) -> tuple[str, ...]:
    """The codes whose findings fail `rubric check`: the configured ones, else the defaults."""
    return DEFAULT_FAIL_ON if settings.fail_on is None else settings.fail_on


def describe(settings: AuditSection) -> str:
    """What `rubric check`'s audit row expects."""
    codes = failing_codes(settings)
    return f"no finding {', '.join(codes)}" if codes else "findings are reported, never failed"
