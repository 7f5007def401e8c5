"""What the solver plans: moves (a few actions earning known points) and the
shortfall each would become if a budget forced it out of the trajectory."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rubric_tools.prove.shortfalls import InstancePath, Shortfall, budget_shortfall

Action = dict[str, Any]

#: Moves are ordered by kind in the trajectory: reads first, the final last.
KIND_ORDER = ("read", "question", "escalation", "issue", "redline", "negotiation", "final")


@dataclass
class Move:
    """One scored unit of work: its actions, the points the engine will award for them,
    and what it consumes. `value` is what dropping it would cost (points plus penalties
    it avoids); `critical` moves must never be dropped without capping the episode."""

    kind: str
    actions: list[Action]
    points: float
    value: float
    what: str
    file: str
    path: InstancePath
    questions: int = 0
    escalations: int = 0
    rounds: int = 0
    document: str | None = None  # an issue move needs this document read first
    issue_index: int | None = None  # the scorer's index of the issue: groups its moves in the trajectory
    raises: str | None = None  # the id of the escalation an escalation move raises
    requires_issue: bool = False  # a markup reaching its issue only through the label
    critical: bool = False
    extra_shortfalls: list[Shortfall] = field(default_factory=list)  # added when dropped

    @property
    def steps(self) -> int:
        return len(self.actions)

    def dropped(self, budget: str) -> list[Shortfall]:
        """The shortfalls of leaving this move out because of `budget`."""
        shortfall = budget_shortfall(self.value, budget, self.what, self.file, self.path)
        if self.critical:
            shortfall = Shortfall(
                shortfall.reason,
                shortfall.points,
                shortfall.message + "; never raising it is a critical failure",
                shortfall.file,
                shortfall.path,
                critical=True,
                detail=shortfall.detail,
            )
        return [shortfall, *self.extra_shortfalls]

    def sort_key(self) -> tuple[int, int, int]:
        """Reads, questions, escalations, then each issue's moves together, the final last."""
        group = {"read": 0, "question": 1, "escalation": 2, "final": 4}.get(self.kind, 3)
        issue = self.issue_index if self.issue_index is not None else 0
        return (group, issue, KIND_ORDER.index(self.kind))
