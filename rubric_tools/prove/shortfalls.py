"""Why the solver could not earn a point: typed reasons, each tied to a YAML node.

A shortfall names the points it costs, the file and instance path of the node
responsible (rubric indices are those of the *model*, i.e. of the well-formed
entries; the lint rule maps them back to the file) and a message an author can act on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from rubric_tools.loading.matter import COUNTERPARTY_FILE, MATTER_FILE, RUBRIC_FILE

InstancePath = tuple[str | int, ...]


class Reason(StrEnum):
    """The typed reasons a point can be out of reach."""

    #: A budget (steps, client questions, escalations, negotiation rounds) is too small.
    BUDGET = "budget"
    #: A critical-failure gate fires on language the rubric requires.
    GATE_ON_REQUIRED_LANGUAGE = "gate-on-required-language"
    #: Every variant of a question or escalation is matched by an earlier item first.
    SHADOWED_VARIANT = "shadowed-variant"
    #: No closing text both settles the point and scores fully (accept variants, gates).
    SETTLEMENT_NEVER_ACCEPTED = "settlement-never-accepted"
    #: A component that enters max_score but that nothing can earn.
    UNREACHABLE_COMPONENT = "unreachable-component"
    #: The declared max_score differs from the one the engine derives.
    DECLARED_MAX_MISMATCH = "declared-max-mismatch"
    #: The anchor names a missing document or section, or can never match a citation.
    MISSING_ANCHOR = "missing-anchor"
    #: A required citation resolves to no section.
    UNRESOLVABLE_CITATION = "unresolvable-citation"
    #: The anchor section has no verbatim text of the minimum quote length.
    UNQUOTABLE_ANCHOR = "unquotable-anchor"
    #: `final_submission.required_issue_ids` names an issue the rubric does not have.
    UNKNOWN_REQUIRED_ISSUE = "unknown-required-issue"
    #: The replay disagreed with the plan; the solver's model of the engine is off.
    REPLAY_MISMATCH = "replay-mismatch"


@dataclass(frozen=True)
class Shortfall:
    """Points the solver could not earn, and why."""

    reason: Reason
    points: float
    message: str
    file: str = RUBRIC_FILE
    path: InstancePath = ()
    #: Set when the miss makes every trajectory a critical failure (score capped).
    critical: bool = False
    detail: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason.value,
            "points": round(self.points, 4),
            "message": self.message,
            "file": self.file,
            "path": list(self.path),
            "critical": self.critical,
            **({"detail": self.detail} if self.detail else {}),
        }

    @property
    def where(self) -> str:
        """`rubric.yaml:issues[2].required_concepts[1]`-style location, for text output."""
        parts = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in self.path)
        return f"{self.file}:{parts.lstrip('.')}" if parts else self.file


def budget_shortfall(points: float, budget: str, what: str, file: str, path: InstancePath) -> Shortfall:
    """A point dropped because `budget` (a `constraints` key) cannot fit it."""
    return Shortfall(
        Reason.BUDGET,
        points,
        f"{what}: constraints.{budget} leaves no room for it",
        file,
        path,
        detail={"budget": budget},
    )


__all__ = [
    "COUNTERPARTY_FILE",
    "MATTER_FILE",
    "RUBRIC_FILE",
    "InstancePath",
    "Reason",
    "Shortfall",
    "budget_shortfall",
]
