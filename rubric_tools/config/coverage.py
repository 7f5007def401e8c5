"""`[tool.rubric.coverage]`: thresholds and bounds of `rubric coverage`.

```toml
[tool.rubric.coverage]
fail-under = 90            # overall coverage percent below which the run fails
fail-under-matter = 80     # the same, for every matter on its own
mutation-fail-under = 100  # mutation score percent (only when --mutation runs)
max-mutants = 500          # per matter; the rest are reported as not run
mutation-time-budget = 120 # seconds per matter
jobs = 2                   # matters analysed in parallel
```
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rubric_tools.config.table import SettingsTable, suggest_in_parentheses
from rubric_tools.config.vocabulary import Vocabulary
from rubric_tools.diagnostics import finite_float, number_text, too_large_for_a_float


@dataclass(frozen=True)
class CoverageSection:
    """The thresholds `rubric coverage` fails under, and how much mutation work it does."""

    fail_under: float = 0.0
    fail_under_matter: float = 0.0
    mutation_fail_under: float = 0.0
    max_mutants: int = 500
    mutation_time_budget: float = 120.0
    jobs: int = 2


_PERCENT_KEYS = {
    "fail-under": "fail_under",
    "fail-under-matter": "fail_under_matter",
    "mutation-fail-under": "mutation_fail_under",
}
_POSITIVE_KEYS = {"max-mutants": "max_mutants", "mutation-time-budget": "mutation_time_budget", "jobs": "jobs"}
_FRACTIONAL_KEYS = frozenset({"mutation-time-budget"})  # every other positive key counts something


def _number(key: str, value: Any, settings: SettingsTable) -> float:
    number = finite_float(value)
    if number is None:
        shown = number_text(value) if too_large_for_a_float(value) else repr(value)
        raise settings.error(f"coverage.{key} must be a finite number, not {shown}", ("coverage", key))
    return number


def parse_coverage_section(
    table: Mapping[str, Any], settings: SettingsTable, vocabulary: Vocabulary
) -> CoverageSection:
    """The `[tool.rubric.coverage]` table; defaults for absent keys."""
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key in _PERCENT_KEYS:
            number = _number(key, value, settings)
            if not 0 <= number <= 100:
                raise settings.error(f"coverage.{key} must be a percentage (0-100), not {number:g}", ("coverage", key))
            values[_PERCENT_KEYS[key]] = number
        elif key in _POSITIVE_KEYS:
            number = _number(key, value, settings)
            fractional = key in _FRACTIONAL_KEYS
            if number <= 0 or (not fractional and not number.is_integer()):
                raise settings.error(
                    f"coverage.{key} must be a positive {'number' if fractional else 'integer'}", ("coverage", key)
                )
            values[_POSITIVE_KEYS[key]] = number if fractional else int(number)
        else:
            hint = suggest_in_parentheses(str(key), [*_PERCENT_KEYS, *_POSITIVE_KEYS])
            raise settings.error(f"unknown setting coverage.{key}{hint}", ("coverage", str(key)))
    return CoverageSection(**values)
