"""The thresholds of `[tool.rubric.coverage]` applied to measured matters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rubric_tools.config.coverage import CoverageSection
from rubric_tools.coverage.codes import COVERAGE_UNDER_THRESHOLD, MATTER_NOT_MEASURED, MUTATION_UNDER_THRESHOLD
from rubric_tools.coverage.model import MatterCoverage, overall_percent


@dataclass(frozen=True)
class ThresholdFailure:
    code: str
    matter_id: str | None  # None for the overall figure
    message: str


@dataclass
class CoverageRun:
    matters: list[MatterCoverage] = field(default_factory=list)
    settings: CoverageSection = field(default_factory=CoverageSection)
    mutation: bool = False
    failures: list[ThresholdFailure] = field(default_factory=list)
    usage_errors: list[str] = field(default_factory=list)

    @property
    def percent(self) -> float:
        return overall_percent(self.matters)

    @property
    def exit_code(self) -> int:
        if self.usage_errors:
            return 2
        return 1 if self.failures else 0


def _under(value: float, threshold: float) -> bool:
    # Compare at the precision we print, so "100.0% < 100%" can never be reported.
    return round(value, 2) < threshold


def matter_failures(matter: MatterCoverage, settings: CoverageSection, mutation: bool) -> list[ThresholdFailure]:
    found: list[ThresholdFailure] = []
    if matter.problems and not matter.items:
        found.append(ThresholdFailure(MATTER_NOT_MEASURED.code, matter.matter_id, "; ".join(matter.problems)))
        return found
    if _under(matter.percent, settings.fail_under_matter):
        found.append(
            ThresholdFailure(
                COVERAGE_UNDER_THRESHOLD.code,
                matter.matter_id,
                f"coverage {matter.percent:.1f}% is below fail-under-matter "
                f"{settings.fail_under_matter:g}% ({len(matter.missing)} items uncovered)",
            )
        )
    score = matter.mutation.score if mutation and matter.mutation is not None else None
    if score is not None and _under(score, settings.mutation_fail_under):
        assert matter.mutation is not None
        found.append(
            ThresholdFailure(
                MUTATION_UNDER_THRESHOLD.code,
                matter.matter_id,
                f"mutation score {score:.1f}% is below mutation-fail-under "
                f"{settings.mutation_fail_under:g}% ({len(matter.mutation.survivors)} survivors)",
            )
        )
    return found


def evaluate(matters: Sequence[MatterCoverage], settings: CoverageSection, mutation: bool) -> list[ThresholdFailure]:
    found = [failure for matter in matters for failure in matter_failures(matter, settings, mutation)]
    total = overall_percent(list(matters))
    if matters and _under(total, settings.fail_under):
        found.append(
            ThresholdFailure(
                COVERAGE_UNDER_THRESHOLD.code,
                None,
                f"overall coverage {total:.1f}% is below fail-under {settings.fail_under:g}%",
            )
        )
    return found
