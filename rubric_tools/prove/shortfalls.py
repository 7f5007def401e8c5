"""Why the solver could not earn a point: typed reasons, each tied to a YAML node.

A shortfall names the points it costs, the file and instance path of the node
responsible (as written in the file: see `Places`) and a message an author can act on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from rubric_tools.loading.matter import COUNTERPARTY_FILE, MATTER_FILE, RUBRIC_FILE

if TYPE_CHECKING:
    from rubric_tools.loading.elements import MatterModel

InstancePath = tuple[str | int, ...]


class Places:
    """Where the entries the solver reasons about are written.

    The solver computes with the scorer's `Matter`, whose `questions`, `escalations` and
    `issues` hold only the mapping entries of each list, so its k-th issue is not always the
    file's k-th. The matter's model (`loading.elements`) has an element for each scored entry,
    at its file position; shortfalls and moves are placed there. Without a model (a `Matter`
    built in memory) the scorer's indices are the only ones there are."""

    def __init__(self, model: MatterModel | None = None) -> None:
        self.model = model

    def entry(self, list_name: str, index: int, *keys: str | int) -> InstancePath:
        """The path of the scorer's `index`-th entry of `list_name`, or of `keys` below it."""
        elements = self.model.rubric_list(list_name) if self.model is not None else ()
        at: InstancePath = elements[index].location.path if index < len(elements) else (list_name, index)
        return (*at, *keys)

    def label(self, list_name: str, index: int | None) -> str:
        """How a message names an entry: `issues[2]`, with its index in the file."""
        return f"{list_name}[{self.entry(list_name, index)[1] if index is not None else None}]"

    def position(self, issue_id: str) -> InstancePath:
        """The path of the counterparty's position on an issue (its key as written)."""
        element = self.model.position(issue_id) if self.model is not None else None
        return element.location.path if element is not None else ("positions", issue_id)


#: Placing by the scorer's own indices, for a `Matter` with no model.
UNLOCATED = Places()


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
    "UNLOCATED",
    "InstancePath",
    "Places",
    "Reason",
    "Shortfall",
    "budget_shortfall",
]
