"""The summary a reviewer reads in ten seconds, and the thresholds that make it a CI gate.

It is accumulated row by row (memory does not grow with the archive).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class MatterSummary:
    matter_id: str
    trajectories: int = 0
    steps: int = 0
    changed: int = 0
    compared: int = 0  # rows with a reference (a base, or a recorded result)
    delta_sum: float = 0.0
    worst_delta: float | None = None  # the largest move, with its sign
    critical_before: int = 0
    critical_after: int = 0
    gained_critical: int = 0
    lost_critical: int = 0
    recorded: int = 0
    reproduced: int = 0

    @property
    def mean_delta(self) -> float | None:
        return round(self.delta_sum / self.compared, 6) if self.compared else None

    def add(self, row: dict[str, Any]) -> None:
        self.trajectories += 1
        self.steps += int(row["steps"])
        self.critical_after += bool(row["current"]["critical_failure"])
        reference = row["base"] if row["base"] is not None else row["recorded"]
        if row["delta"] is not None and reference is not None:
            self.compared += 1
            self.delta_sum += float(row["delta"])
            self.critical_before += bool(reference["critical_failure"])
            if self.worst_delta is None or abs(row["delta"]) > abs(self.worst_delta):
                self.worst_delta = float(row["delta"])
        self.changed += bool(row["changed"])
        flip = row.get("critical_flip")
        if flip is not None:
            self.gained_critical += flip["direction"] == "gained"
            self.lost_critical += flip["direction"] == "lost"
        if row["recorded"] is not None:
            self.recorded += 1
            self.reproduced += bool(row["reproduced"])

    def as_json(self) -> dict[str, Any]:
        return {
            "matter_id": self.matter_id,
            "trajectories": self.trajectories,
            "steps": self.steps,
            "changed": self.changed,
            "compared": self.compared,
            "mean_delta": self.mean_delta,
            "worst_delta": self.worst_delta,
            "critical_rate_before": _rate(self.critical_before, self.compared),
            "critical_rate_after": _rate(self.critical_after, self.trajectories),
            "gained_critical": self.gained_critical,
            "lost_critical": self.lost_critical,
            "recorded": self.recorded,
            "reproduced": self.reproduced,
        }


def _rate(count: int, total: int) -> float | None:
    return round(count / total, 6) if total else None


@dataclass
class Summary:
    matters: dict[str, MatterSummary] = field(default_factory=dict)
    total: MatterSummary = field(default_factory=lambda: MatterSummary("(all)"))
    skipped: int = 0  # records reported as problems and not scored

    def add(self, row: dict[str, Any]) -> None:
        matter_id = str(row["matter_id"])
        if matter_id not in self.matters:
            self.matters[matter_id] = MatterSummary(matter_id)
        self.matters[matter_id].add(row)
        self.total.add(row)

    def as_json(self) -> dict[str, Any]:
        return {
            "total": self.total.as_json(),
            "skipped": self.skipped,
            "matters": [self.matters[key].as_json() for key in sorted(self.matters)],
        }


@dataclass(frozen=True)
class Thresholds:
    max_changed: int | None = None
    max_mean_drift: float | None = None
    fail_on_critical_flip: bool = False

    def breaches(self, summary: Summary) -> list[str]:
        """Every threshold the run broke, worded for the reviewer."""
        found: list[str] = []
        total = summary.total
        if self.max_changed is not None and total.changed > self.max_changed:
            found.append(f"{total.changed} trajectories changed (--max-changed {self.max_changed})")
        if self.max_mean_drift is not None:
            for matter in sorted(summary.matters.values(), key=lambda m: m.matter_id):
                mean = matter.mean_delta
                if mean is not None and abs(mean) > self.max_mean_drift:
                    found.append(f"{matter.matter_id}: mean delta {mean:+.4f} (--max-mean-drift {self.max_mean_drift})")
        flips = total.gained_critical + total.lost_critical
        if self.fail_on_critical_flip and flips:
            found.append(
                f"{flips} critical-failure flips ({total.gained_critical} gained, "
                f"{total.lost_critical} lost) (--fail-on-critical-flip)"
            )
        return found
