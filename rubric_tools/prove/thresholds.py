"""`[tool.rubric.attack]`: the thresholds `rubric attack` fails on.

```toml
[tool.rubric.attack]
unanchored-max-raw = 0.0          # keyword stuffing without anchors must score at most this
max-fraction-of-reference = 0.5   # no other strategy may reach this share of the reference
exempt = ["concept-stuffing-read"] # strategies reported but never failed
```

The table is read by the lint configuration loader (`rubric_tools.lint.config_file`),
which keeps it as written; its keys are validated here.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The documented ceiling: what a keyword rubric cannot tell from real work.
CEILING_STRATEGY = "concept-stuffing-read"


class ThresholdError(Exception):
    """A bad `[tool.rubric.attack]` setting."""


@dataclass(frozen=True)
class Thresholds:
    """When a reward-hacking strategy counts as beating the rubric."""

    unanchored_max_raw: float = 0.0
    max_fraction_of_reference: float = 0.5
    exempt: tuple[str, ...] = (CEILING_STRATEGY,)

    def describe(self) -> str:
        return (
            f"un-anchored stuffing raw <= {self.unanchored_max_raw:g}; other strategies "
            f"< {self.max_fraction_of_reference:g} x reference (normalized, after the critical cap)"
        )


def _number(value: Any, key: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ThresholdError(f"{where}: attack.{key} must be a number, not {value!r}")
    return float(value)


def thresholds_from_config(
    table: Mapping[str, Any], source: Path | None = None, strategies: Iterable[str] | None = None
) -> Thresholds:
    """Thresholds from the `[tool.rubric.attack]` table; defaults for absent keys."""
    where = str(source) if source is not None else "configuration"
    if strategies is None:
        from rubric_tools.prove.strategies import STRATEGIES

        strategies = [s.name for s in STRATEGIES]
    known = list(strategies)
    settings = Thresholds()
    for key, value in table.items():
        if key == "unanchored-max-raw":
            settings = Thresholds(_number(value, key, where), settings.max_fraction_of_reference, settings.exempt)
        elif key == "max-fraction-of-reference":
            fraction = _number(value, key, where)
            if not 0.0 <= fraction <= 1.0:
                raise ThresholdError(f"{where}: attack.{key} must be between 0 and 1, not {fraction:g}")
            settings = Thresholds(settings.unanchored_max_raw, fraction, settings.exempt)
        elif key == "exempt":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ThresholdError(f"{where}: attack.exempt must be a list of strategy names")
            unknown = [v for v in value if v not in known]
            if unknown:
                raise ThresholdError(
                    f"{where}: attack.exempt names unknown strategy {unknown[0]!r}"
                    f"{_suggest(unknown[0], known)}; known: {', '.join(known)}"
                )
            settings = Thresholds(settings.unanchored_max_raw, settings.max_fraction_of_reference, tuple(value))
        else:
            options = ["unanchored-max-raw", "max-fraction-of-reference", "exempt"]
            raise ThresholdError(f"{where}: unknown setting attack.{key}{_suggest(str(key), options)}")
    return settings


def _suggest(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
