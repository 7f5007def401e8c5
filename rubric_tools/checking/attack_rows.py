"""`rubric check`'s attack rows: one row per reward-hacking strategy of `rubric attack`,
judged against the thresholds of the run's configuration (`--config FILE` or the one
discovered for the paths checked): the same object every other row reads."""

from __future__ import annotations

from rubric_tools.checking.rows import CheckRow
from rubric_tools.config.attack import AttackSection
from rubric_tools.loading.matter import MatterSource
from rubric_tools.prove.attacks import FAIL, attack_matter


def attack_rows(source: MatterSource, thresholds: AttackSection) -> list[CheckRow]:
    """`rubric check`'s adapter: one row per strategy, against `thresholds`."""
    report = attack_matter(source, thresholds)
    reference = f"reference {report.reference.normalized_score:g}"
    return [
        CheckRow(
            "attack",
            row.name,
            row.verdict != FAIL,
            thresholds.describe(),
            f"raw {row.raw_score:g}, normalized {row.normalized_score:g}"
            f"{', critical' if row.critical_failure else ''} ({reference})",
            row.reason,
        )
        for row in report.rows
    ]
