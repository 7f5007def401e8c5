"""Codes of the baseline (issue 11) that are not lint rules; declared for `rubric explain`."""

from __future__ import annotations

from rubric_tools.catalogue import declare
from rubric_tools.diagnostics import Severity

STALE_BASELINE_ENTRY = declare(
    "X201",
    "stale-baseline-entry",
    Severity.WARNING,
    "baseline",
    """
A baseline entry no longer matches any finding.

`rubric lint --baseline FILE` hides the findings recorded in FILE. When a recorded
finding is gone (fixed, or its node removed), its entry is stale: it would silently
hide a future finding with the same key. Run `rubric lint --baseline FILE
--prune-baseline` to drop stale entries (and lower the counts of partly stale ones).
""",
)
INVALID_BASELINE = declare(
    "X202",
    "invalid-baseline",
    Severity.ERROR,
    "baseline",
    """
The configured baseline file cannot be read or is not a rubric-tools baseline.

`rubric check` applies the `baseline` of the configuration to its lint rows; when the
file is missing, not JSON, or not in the format of `schemas/lint-baseline.schema.json`,
no finding is hidden and this error says why. (`rubric lint` stops with exit code 2
instead.)
""",
)
