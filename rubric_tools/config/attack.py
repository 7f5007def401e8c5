"""`[tool.rubric.attack]`: the thresholds `rubric attack` (and `rubric check`'s attack
rows) fail on.

```toml
[tool.rubric.attack]
unanchored-max-raw = 0.0          # keyword stuffing without anchors must score at most this
max-fraction-of-reference = 0.5   # no other strategy may reach this share of the reference
exempt = ["concept-stuffing-read"] # strategies reported but never failed
```
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rubric_tools.config.table import SettingsTable, suggest_in_parentheses
from rubric_tools.config.vocabulary import Vocabulary
from rubric_tools.diagnostics import number_text, too_large_for_a_float

#: The documented ceiling: what a keyword rubric cannot tell from real work.
CEILING_STRATEGY = "concept-stuffing-read"
ATTACK_KEYS = ("unanchored-max-raw", "max-fraction-of-reference", "exempt")


@dataclass(frozen=True)
class AttackSection:
    """When a reward-hacking strategy counts as beating the rubric."""

    unanchored_max_raw: float = 0.0
    max_fraction_of_reference: float = 0.5
    exempt: tuple[str, ...] = (CEILING_STRATEGY,)

    def describe(self) -> str:
        return (
            f"un-anchored stuffing raw <= {self.unanchored_max_raw:g}; other strategies "
            f"< {self.max_fraction_of_reference:g} x reference (normalized, after the critical cap)"
        )


def _number(value: Any, key: str, settings: SettingsTable) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise settings.error(f"attack.{key} must be a number, not {value!r}", ("attack", key))
    if too_large_for_a_float(value):
        raise settings.error(f"attack.{key} must be a number, not {number_text(value)}", ("attack", key))
    return float(value)


def _exempt(value: Any, settings: SettingsTable, vocabulary: Vocabulary) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise settings.error("attack.exempt must be a list of strategy names", ("attack", "exempt"))
    known = list(vocabulary.strategies())
    unknown = [v for v in value if v not in known]
    if unknown:
        raise settings.error(
            f"attack.exempt names unknown strategy {unknown[0]!r}"
            f"{suggest_in_parentheses(unknown[0], known)}; known: {', '.join(known)}",
            ("attack", "exempt"),
            unknown[0],
        )
    return tuple(value)


def parse_attack_section(table: Mapping[str, Any], settings: SettingsTable, vocabulary: Vocabulary) -> AttackSection:
    """The `[tool.rubric.attack]` table; defaults for absent keys."""
    section = AttackSection()
    for key, value in table.items():
        if key == "unanchored-max-raw":
            section = AttackSection(_number(value, key, settings), section.max_fraction_of_reference, section.exempt)
        elif key == "max-fraction-of-reference":
            fraction = _number(value, key, settings)
            if not 0.0 <= fraction <= 1.0:
                raise settings.error(f"attack.{key} must be between 0 and 1, not {fraction:g}", ("attack", key))
            section = AttackSection(section.unanchored_max_raw, fraction, section.exempt)
        elif key == "exempt":
            exempt = _exempt(value, settings, vocabulary)
            section = AttackSection(section.unanchored_max_raw, section.max_fraction_of_reference, exempt)
        else:
            raise settings.error(
                f"unknown setting attack.{key}{suggest_in_parentheses(str(key), ATTACK_KEYS)}", ("attack", str(key))
            )
    return section
