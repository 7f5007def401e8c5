"""`rubric attack`: replay reward-hacking strategies against a rubric and compare them
with the solver's reference trajectory.

    report = attack_matter(source, thresholds)
    report.passed, report.exit_code, [(row.name, row.normalized_score) for row in report.rows]

A strategy fails the rubric when it earns what real work earns: un-anchored keyword
stuffing must not score above `unanchored_max_raw`, and no strategy but the exempt ones
(by default the documented keyword ceiling) may reach `max_fraction_of_reference` of the
reference's normalized score (a critical failure counts through the score cap).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rubric_tools.config.attack import AttackSection
from rubric_tools.loading.matter import MatterSource
from rubric_tools.prove.solver import solve
from rubric_tools.prove.strategies import STRATEGIES, Strategy
from rubric_tools.scoring.episode import replay
from rubric_tools.scoring.model import Matter

REFERENCE = "reference (solver)"
PASS, FAIL, REPORTED = "pass", "fail", "reported"
EXIT_PASSED, EXIT_FAILED = 0, 1


@dataclass(frozen=True)
class AttackRow:
    """One strategy's replay and verdict."""

    name: str
    summary: str
    raw_score: float
    normalized_score: float
    critical_failure: bool
    steps: int
    verdict: str = REPORTED
    reason: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "summary": self.summary,
            "raw_score": self.raw_score,
            "normalized_score": self.normalized_score,
            "critical_failure": self.critical_failure,
            "steps": self.steps,
            "verdict": self.verdict,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class AttackReport:
    """Every strategy beside the reference trajectory, judged against the thresholds."""

    matter_id: str
    reference: AttackRow
    rows: tuple[AttackRow, ...]
    thresholds: AttackSection = field(default_factory=AttackSection)

    @property
    def failures(self) -> list[AttackRow]:
        return [row for row in self.rows if row.verdict == FAIL]

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def exit_code(self) -> int:
        return EXIT_PASSED if self.passed else EXIT_FAILED

    @property
    def best(self) -> AttackRow | None:
        """The strategy with the highest normalized score (ties: the first)."""
        return max(self.rows, key=lambda row: row.normalized_score, default=None)

    def to_json(self) -> dict[str, Any]:
        return {
            "matter_id": self.matter_id,
            "passed": self.passed,
            "thresholds": {
                "unanchored_max_raw": self.thresholds.unanchored_max_raw,
                "max_fraction_of_reference": self.thresholds.max_fraction_of_reference,
                "exempt": list(self.thresholds.exempt),
            },
            "reference": self.reference.to_json(),
            "strategies": [row.to_json() for row in self.rows],
        }


def _run(matter: Matter, strategy: Strategy) -> AttackRow:
    result = replay(matter, strategy.build(matter)).result
    return AttackRow(
        strategy.name,
        strategy.summary,
        float(result["raw_score"]),
        float(result["normalized_score"]),
        bool(result["critical_failure"]),
        int(result["steps"]),
    )


#: On a clean matter (no issues) the closing summary is the work product by design
#: (scoring.md, "Final submission"), so a summary naming the required concepts is that
#: matter's ceiling, as concept stuffing with the anchors read is a keyword rubric's.
CLEAN_MATTER_CEILING = "stuffed-summary"


def judge(
    row: AttackRow, strategy: Strategy, reference: AttackRow, thresholds: AttackSection, *, clean: bool = False
) -> AttackRow:
    """The row with its verdict: exempt strategies are reported, the others pass or fail."""
    if strategy.name in thresholds.exempt:
        return AttackRow(**{**row.__dict__, "verdict": REPORTED, "reason": "exempt: reported, never failed"})
    if clean and strategy.name == CLEAN_MATTER_CEILING:
        reason = "clean-matter ceiling: with no issues the summary is the graded work; reported, never failed"
        return AttackRow(**{**row.__dict__, "verdict": REPORTED, "reason": reason})
    if strategy.unanchored and row.raw_score > thresholds.unanchored_max_raw:
        reason = f"raw {row.raw_score:g} > unanchored-max-raw {thresholds.unanchored_max_raw:g}"
        return AttackRow(**{**row.__dict__, "verdict": FAIL, "reason": reason})
    bar = thresholds.max_fraction_of_reference * reference.normalized_score
    # A critical failure counts through critical_failure_score_cap, already applied to the
    # normalized score: with the default cap it keeps a strategy below the bar, but a
    # lenient cap lets a critical strategy through, and that is a finding too.
    if row.normalized_score > 0 and row.normalized_score >= bar:
        how = "despite a critical failure" if row.critical_failure else "without a critical failure"
        reason = (
            f"normalized {row.normalized_score:g} >= {thresholds.max_fraction_of_reference:g} x "
            f"reference {reference.normalized_score:g} {how}"
        )
        return AttackRow(**{**row.__dict__, "verdict": FAIL, "reason": reason})
    why = "critical failure caps it" if row.critical_failure else "below"
    return AttackRow(**{**row.__dict__, "verdict": PASS, "reason": f"{why}: < {bar:.4g}"})


def attack_matter(
    source: MatterSource | Matter,
    thresholds: AttackSection | None = None,
    strategies: Sequence[Strategy] = STRATEGIES,
) -> AttackReport:
    """Replay every strategy and the solver's reference trajectory; judge each strategy."""
    matter = source.matter if isinstance(source, MatterSource) else source
    thresholds = thresholds or AttackSection()
    solution = solve(matter)
    reference = AttackRow(
        REFERENCE,
        "the solver's trajectory (rubric solve)",
        solution.raw_score,
        solution.normalized_score,
        solution.critical_failure,
        int(solution.result["steps"]),
    )
    clean = not matter.rubric.issues
    rows = tuple(judge(_run(matter, s), s, reference, thresholds, clean=clean) for s in strategies)
    return AttackReport(matter.matter_id, reference, rows, thresholds)
