"""`[tool.rubric.check]`: the settings of `rubric check`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rubric_tools.config.table import SettingsTable, suggest
from rubric_tools.config.vocabulary import Vocabulary

CHECK_KEYS = ("strict",)


@dataclass(frozen=True)
class CheckSection:
    """`strict = true` fails a trajectory nothing checks."""

    strict: bool = False


def parse_check_section(table: Mapping[str, Any], settings: SettingsTable, vocabulary: Vocabulary) -> CheckSection:
    """`[tool.rubric.check]`: today only `strict`, a boolean."""
    for key in table:
        if key not in CHECK_KEYS:
            raise settings.error(
                f"unknown key {key!r} in [tool.rubric.check]"
                + suggest(str(key), CHECK_KEYS)
                + f" (known keys: {', '.join(CHECK_KEYS)})",
                ("check", str(key)),
            )
    strict = table.get("strict", False)
    if not isinstance(strict, bool):
        raise settings.error("'check.strict' must be true or false", ("check", "strict"))
    return CheckSection(strict=strict)
