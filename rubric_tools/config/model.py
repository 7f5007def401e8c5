"""Typed sections of the project configuration, each with its validation.

Each `parse_*` function takes the whole settings table (so that it can locate keys at
`file:line`) and returns the frozen section, raising `ConfigError` on any mistake.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rubric_tools.config.table import SettingsTable, suggest

#: Keys of `[tool.rubric.check]`.
CHECK_KEYS = ("strict",)
#: Keys of the `[tool.rubric.lint]` table (issue 11: baselines).
LINT_TABLE_KEYS = ("baseline",)


@dataclass(frozen=True)
class CheckSection:
    """`[tool.rubric.check]`: `strict = true` fails a trajectory nothing checks."""

    strict: bool = False


def parse_check_section(value: Any, settings: SettingsTable) -> CheckSection:
    """`[tool.rubric.check]`: today only `strict`, a boolean."""
    if not isinstance(value, Mapping):
        raise settings.error("'check' must be a table (it holds `rubric check` settings)", ("check",))
    for key in value:
        if key not in CHECK_KEYS:
            raise settings.error(
                f"unknown key {key!r} in [tool.rubric.check]"
                + suggest(str(key), CHECK_KEYS)
                + f" (known keys: {', '.join(CHECK_KEYS)})",
                ("check", str(key)),
            )
    strict = value.get("strict", False)
    if not isinstance(strict, bool):
        raise settings.error("'check.strict' must be true or false", ("check", "strict"))
    return CheckSection(strict=strict)


@dataclass(frozen=True)
class LintSection:
    """`baseline = "file"` at the top level or in `[tool.rubric.lint]` (relative to the config file)."""

    baseline: str | None = None


def parse_lint_section(settings: SettingsTable) -> LintSection:
    """The top-level `baseline` and the `[tool.rubric.lint]` table; the table's wins."""
    table = settings.table
    lint = table.get("lint", {})
    if not isinstance(lint, Mapping):
        raise settings.error("'lint' must be a table (it holds `baseline`)", ("lint",))
    for key in lint:
        if key not in LINT_TABLE_KEYS:
            raise settings.error(
                f"unknown key {key!r} in 'lint' (known keys: {', '.join(LINT_TABLE_KEYS)})", ("lint", str(key))
            )
    baseline: str | None = None
    for where, value in (((), table.get("baseline")), (("lint",), lint.get("baseline"))):
        if value is None:
            continue
        if not isinstance(value, str) or not value:
            raise settings.error("'baseline' must be a file name", (*where, "baseline"))
        baseline = value
    return LintSection(baseline=baseline)
