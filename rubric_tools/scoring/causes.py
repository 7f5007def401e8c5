"""Why an episode failed critically, read back from its result's events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rubric_tools.scoring.text import show_pattern

SURFACE_OF_EVENT = {"issue": "issue", "redline": "redline", "settlement": "settlement"}


@dataclass(frozen=True)
class CriticalCause:
    """One reason for a critical failure.

    kind: `gate` (a critical-failure pattern fired), `fabricated_quote`,
    `missed_critical_escalation`, `non_negotiable` (a conceded non-negotiable point),
    or `unattributed` (the engine set the flag without recording why, e.g. a gate
    on an unscored redline).
    """

    kind: str
    criterion: str | None = None
    surface: str | None = None
    pattern: str | None = None
    detail: str | None = None

    def describe(self) -> str:
        if self.kind == "gate":
            return f"{self.surface} gate on {self.criterion} fired: {show_pattern(self.pattern)}"
        if self.kind == "fabricated_quote":
            return f"fabricated quote on {self.criterion} (cited {self.detail!r})"
        if self.kind == "missed_critical_escalation":
            return f"critical escalation {self.criterion} was never raised"
        if self.kind == "non_negotiable":
            return f"non-negotiable {self.criterion} closed without {self.detail}"
        return "critical failure with no recorded cause (e.g. a gate on an unscored redline)"


def critical_causes(result: Mapping[str, Any]) -> list[CriticalCause]:
    """Every recorded cause of a critical failure, in event order."""
    causes: list[CriticalCause] = []
    for event in result.get("breakdown", {}).get("reward_events", []):
        criterion = event.get("criterion")
        if "critical_failure_pattern" in event:
            causes.append(
                CriticalCause("gate", criterion, SURFACE_OF_EVENT.get(event["type"]), event["critical_failure_pattern"])
            )
        for quote in event.get("quotes", []) if event.get("type") == "issue" else []:
            if quote.get("status") == "fabricated":
                causes.append(CriticalCause("fabricated_quote", criterion, detail=quote.get("citation")))
        if event.get("non_negotiable_missing"):
            missing = ", ".join(repr(c) for c in event["non_negotiable_missing"])
            causes.append(CriticalCause("non_negotiable", criterion, detail=missing))
        for escalation in event.get("missed_critical_escalations", []):
            causes.append(CriticalCause("missed_critical_escalation", escalation))
    if result.get("critical_failure") and not causes:
        causes.append(CriticalCause("unattributed"))
    return causes
