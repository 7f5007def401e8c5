"""Numeric bounds (S007, S008): every number the engine computes with is finite and sane.

The schema rules check types and minimums; a float can still be `.inf` or `.nan`
(valid YAML, and of type number), or so large that sums overflow. The engine then
crashes on `int()` (`maximum_steps: .inf`) or computes nonsense (`citation_points:
.inf` gives a normalized score of NaN clamped to 1.0).
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from rubric_tools.diagnostics import Severity, number_text
from rubric_tools.lint.context import Finding, LintContext
from rubric_tools.lint.registry import rule
from rubric_tools.loading.yaml_source import InstancePath

_POINTS_LIMIT = 10_000
#: Upper bounds by key: far above any real rubric, far below anything that overflows.
UPPER_BOUNDS: dict[str, float] = {
    "maximum_steps": 10_000,
    "maximum_client_questions": 10_000,
    "maximum_escalations": 10_000,
    "maximum_negotiation_rounds": 10_000,
    "minimum_characters": 1_000_000,
    "resist_rounds": 10_000,
    "critical_failure_score_cap": 1,
    "max_score": _POINTS_LIMIT * 100,
}


def _upper_bound(key: str) -> float | None:
    if key in UPPER_BOUNDS:
        return UPPER_BOUNDS[key]
    if key == "points" or key.endswith("_points") or key.endswith("_penalty"):
        return _POINTS_LIMIT
    return None


def _is_finite(value: float | int) -> bool:
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer too large for a float
        return False


@rule("S007", "non-finite-number", Severity.ERROR)
def non_finite_number(ctx: LintContext) -> Iterator[Finding]:
    """A number is infinite or not a number (`.inf`, `-.inf`, `.nan`, or too large for a float).

    What it catches: `.inf`, `.nan` or an overflowing literal such as `1e400`, or an
    integer too large for a float (a 400-digit `points`), in `matter.yaml`,
    `rubric.yaml` or `counterparty.yaml`.

    Why it matters: the reference engine crashes on an infinite or NaN count
    (`maximum_steps`, `minimum_characters`, `resist_rounds`: `int()` raises), and
    infinite points make every score NaN or infinity (`citation_points: .inf`
    gives a normalized score of 1.0 for any matched issue); an integer too large
    for a float makes its first sum raise `OverflowError`. Whole-number fields
    the schema rules check (S001) are reported there instead.

    Bad:

    ```yaml
    issues:
      - id: cap
        citation_points: .inf
    ```

    Good:

    ```yaml
    issues:
      - id: cap
        citation_points: 0.25
    ```
    """
    for number in ctx.model.numbers:
        value, path = number.value, number.location.path
        if _is_finite(value) or ctx.schema.reported_at(number.location, "type"):
            continue
        if isinstance(value, int):
            shown = f"{number_text(value)}, too large for a float"
        else:
            shown = "not a number" if math.isnan(value) else "infinite"
        yield ctx.report(
            number,
            f"`{_dotted(path)}` is {shown}: the engine cannot compute with it",
            hint="write a finite number",
        )


@rule("S008", "number-out-of-range", Severity.ERROR)
def number_out_of_range(ctx: LintContext) -> Iterator[Finding]:
    """A count, limit or amount of points is far beyond any sensible value.

    What it catches: points, penalties or `max_score` above 10,000 (1,000,000 for
    `max_score`), a budget (`maximum_steps`, `maximum_client_questions`,
    `maximum_escalations`, `maximum_negotiation_rounds`, `resist_rounds`) above
    10,000, `minimum_characters` above 1,000,000, or `critical_failure_score_cap`
    above 1. (Negative values are the schema rules' business.)

    Why it matters: such a value is a typo (`points: 05000` for `0.5`), and huge
    values overflow sums into infinities, so every score becomes meaningless.

    Bad:

    ```yaml
    final_submission:
      minimum_characters: 80000000
    ```

    Good:

    ```yaml
    final_submission:
      minimum_characters: 80
    ```
    """
    for number in ctx.model.numbers:
        value, path = number.value, number.location.path
        key = path[-1] if path else None
        bound = _upper_bound(key) if isinstance(key, str) else None
        if bound is None or not _is_finite(value) or value <= bound:
            continue
        yield ctx.report(
            number,
            f"`{_dotted(path)}` is {value:,}, above the sane limit of {bound:,}",
            hint="check for a typo; no rubric needs a value this large",
        )


def _dotted(path: InstancePath) -> str:
    return ".".join(str(part) for part in path)
