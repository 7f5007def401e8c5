"""Replay and check codes: the non-lint diagnostics of `rubric replay` and `rubric check`.

Declared in the catalogue (`rubric_tools.catalogue`) so that `rubric explain` knows them.
"""

from __future__ import annotations

from rubric_tools.catalogue import declare
from rubric_tools.diagnostics import Severity

INVALID_JSON_LINE = declare(
    "T001",
    "invalid-json-line",
    Severity.ERROR,
    "replay",
    """
A trajectory line is not valid JSON.

Each non-blank line of a JSONL trajectory must be one JSON object, the action. The
reference engine crashes on such a line; `rubric replay` reports it at file:line:column
and skips that trajectory, while the other trajectories still replay.
""",
)
ACTION_NOT_OBJECT = declare(
    "T002",
    "action-not-object",
    Severity.ERROR,
    "replay",
    """
A trajectory line is JSON but not an object.

An action is an object with a `type` key: `{"type": "read_document", ...}`. A list, a
string or a number on a line is reported and that trajectory is skipped.
""",
)
MALFORMED_FIELD = declare(
    "T003",
    "malformed-field",
    Severity.WARNING,
    "replay",
    """
An action field has a value the engine cannot use, so it was scored as absent.

For example `citations: null` or `quotes: 3`. The reference engine raises on these; the
embedded scorer scores the field as absent so the rest of the trajectory still replays,
and records this warning on the step.
""",
)
GATE_TIMEOUT = declare(
    "T004",
    "gate-timeout",
    Severity.ERROR,
    "replay",
    """
A gate regex hit the search time limit; its verdict on that step is unknown.

The pattern backtracks catastrophically on the agent's text. `rubric replay` exits 1.
Rewrite the pattern (see lint rule G012).
""",
)
INVALID_GATE = declare(
    "T005",
    "invalid-gate",
    Severity.ERROR,
    "replay",
    """
A gate regex does not compile, so it can never fire.

Run `rubric lint` on the matter: rule G003 reports the failing character.
""",
)
MATTER_NOT_FOUND = declare(
    "T006",
    "matter-not-found",
    Severity.ERROR,
    "replay",
    """
The trajectory's matter could not be found.

`rubric replay` looks for the nearest folder above the trajectory that holds
`matter.yaml`, or `matters/<id>` beside an `examples/<id>/` or `trajectories/<id>/`
folder. Pass `--matter DIR` otherwise.
""",
)
INVALID_EXPECTATIONS = declare(
    "E001",
    "invalid-expectations",
    Severity.ERROR,
    "check",
    """
An `expectations.yaml` or probe file does not match its JSON Schema.

`rubric check` validates expectations and probe files against `schemas/` before running
them, and reports the offending node at file:line:column.
""",
)
