"""`rubric check`'s attack rows: one row per reward-hacking strategy of `rubric attack`,
judged against the thresholds configured for the matter."""

from __future__ import annotations

from rubric_tools.checking.rows import CheckRow
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.resolve import resolve_config
from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY
from rubric_tools.loading.matter import MatterSource
from rubric_tools.prove.attacks import FAIL, attack_matter


def attack_rows(source: MatterSource) -> list[CheckRow]:
    """`rubric check`'s adapter: one row per strategy, thresholds from the matter's config."""
    try:
        thresholds = resolve_config([source.root], CONFIG_VOCABULARY).attack
    except ConfigError as exc:  # this matter's own configuration is broken: its row fails, others run
        return [CheckRow("attack", "thresholds", False, "a valid [tool.rubric.attack] table", str(exc))]
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
