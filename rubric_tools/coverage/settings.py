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

import difflib
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


class CoverageSettingsError(Exception):
    """A bad `[tool.rubric.coverage]` setting."""


@dataclass(frozen=True)
class CoverageSettings:
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


def _number(key: str, value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise CoverageSettingsError(f"{where}: coverage.{key} must be a finite number, not {value!r}")
    return float(value)


def parse_settings(table: Mapping[str, Any], where: str = "[tool.rubric.coverage]") -> CoverageSettings:
    values: dict[str, Any] = {}
    for key, value in table.items():
        if key in _PERCENT_KEYS:
            number = _number(key, value, where)
            if not 0 <= number <= 100:
                raise CoverageSettingsError(f"{where}: coverage.{key} must be a percentage (0-100), not {number:g}")
            values[_PERCENT_KEYS[key]] = number
        elif key in _POSITIVE_KEYS:
            number = _number(key, value, where)
            if number <= 0 or (key != "mutation-time-budget" and not number.is_integer()):
                raise CoverageSettingsError(
                    f"{where}: coverage.{key} must be a positive "
                    f"{'number' if key == 'mutation-time-budget' else 'integer'}"
                )
            values[_POSITIVE_KEYS[key]] = number if key == "mutation-time-budget" else int(number)
        else:
            close = difflib.get_close_matches(str(key), [*_PERCENT_KEYS, *_POSITIVE_KEYS], n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise CoverageSettingsError(f"{where}: unknown setting coverage.{key}{hint}")
    return CoverageSettings(**values)
