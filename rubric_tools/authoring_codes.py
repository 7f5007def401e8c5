"""Codes of the author's tools: trajectory action validation (T101-T105) and
repository-level matter findings of `rubric check` (M001-M003).

Declared in the catalogue so that `rubric explain` knows them.
"""

from __future__ import annotations

from rubric_tools.catalogue import declare
from rubric_tools.diagnostics import Severity

UNKNOWN_ACTION_TYPE = declare(
    "T101",
    "unknown-action-type",
    Severity.WARNING,
    "trajectory",
    """
An action's `type` is not one the engine knows (`read_documnet`).

The engine penalizes an unknown type as an invalid action, so a typo in a hand-written
trajectory is silently scored as the agent's mistake. The message suggests the closest
type. `rubric replay` warns and scores the action as the engine would; `rubric check`
fails the trajectory unless its expectations say `malformed: true`.
""",
)
UNKNOWN_ACTION_FIELD = declare(
    "T102",
    "unknown-action-field",
    Severity.WARNING,
    "trajectory",
    """
An action has a field its type does not define (`citation` for `citations`).

The engine ignores unknown fields, so the intended field is scored as absent. The
message names the closest field of that action type (or of the quote object).
""",
)
MISSING_ACTION_FIELD = declare(
    "T103",
    "missing-action-field",
    Severity.WARNING,
    "trajectory",
    """
An action lacks a field its type requires.

The engine scores a missing field as absent (an issue without `citations` earns no
anchor). When a misspelt key is present instead, only T102 is reported.
""",
)
WRONG_FIELD_VALUE = declare(
    "T104",
    "wrong-field-value",
    Severity.WARNING,
    "trajectory",
    """
An action field has the wrong JSON type or a value outside its allowed set.

For example `"severity": "High"` (severities are lower-case: `high`) or a number where
text is expected. The engine compares exactly, so such a value earns nothing.
""",
)
TRAJECTORY_NOT_LIST = declare(
    "T105",
    "trajectory-not-list",
    Severity.ERROR,
    "trajectory",
    """
A YAML trajectory is not a list of actions.

A `.yaml`/`.yml` trajectory is a YAML list whose items are the action mappings, in
order (`- type: read_document`). An empty file or a top-level mapping is reported and
that trajectory is not replayed.
""",
)
QUOTE_NOT_VERIFIED = declare(
    "T106",
    "quote-not-verified",
    Severity.WARNING,
    "trajectory",
    """
A quote was not verified: the message shows the closest text of the cited section.

The engine verifies a quote by containment in the normalized text of the section it
cites; one that is not found is fabricated (−1.0 and a critical failure), one shorter
than 15 characters costs 0.25. The message shows the step, the quote, the closest
passage of the section and marks the first difference: a curly apostrophe (U+2019) for
a straight one, "12" for "twelve". `rubric check` adds the same lines to a failing
trajectory's cause.
""",
)
DUPLICATE_MATTER_ID = declare(
    "M001",
    "duplicate-matter-id",
    Severity.ERROR,
    "check",
    """
Two matters checked together declare the same `matter_id`.

Results, caches and published benchmarks are keyed by `matter_id`, so the second matter
silently replaces the first. `rubric check` fails both matters with a row naming the
other folder. Give each matter its own id.
""",
)
MATTER_ID_FOLDER_MISMATCH = declare(
    "M002",
    "matter-id-folder-mismatch",
    Severity.ERROR,
    "check",
    """
A matter's `matter_id` differs from its folder name.

Tools find a matter by id beside `examples/<id>/`, `trajectories/<id>/` and
`probes/<id>.yaml`; an id that is not the folder name breaks those lookups. Rename the
folder or the id.
""",
)
TRAJECTORY_WITHOUT_EXPECTATION = declare(
    "M003",
    "trajectory-without-expectation",
    Severity.WARNING,
    "check",
    """
A trajectory has no expectation: nothing checks what it scores.

Neither `expectations.yaml` names it nor does the naming convention (`reference`/`good`,
`bad_*`, `*fabricated*`, `fuzz_*`) cover it, so `rubric check` only replays it. Add an
entry to `expectations.yaml`. A warning by default; a failure with `--strict` or
`strict = true` in `[tool.rubric.check]`.
""",
)
