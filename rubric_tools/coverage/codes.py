"""Coverage codes (prefix C): the rows `rubric coverage` and `rubric check --coverage` fail on."""

from __future__ import annotations

from rubric_tools.catalogue import declare
from rubric_tools.diagnostics import Severity

COVERAGE_UNDER_THRESHOLD = declare(
    "C001",
    "coverage-under-threshold",
    Severity.ERROR,
    "coverage",
    """
A matter's rubric coverage, or the overall coverage, is below `fail-under`.

Coverage is the share of the matter's scorable items (question and escalation variants,
issue components and concepts, redlines, settlements, each gate in both directions,
each counterparty path, the final submission's concepts and penalty) that some
trajectory or gate probe exercises. `[tool.rubric.coverage]` sets `fail-under` (all
matters together) and `fail-under-matter` (each matter). Add the trajectories and
probes the report lists as missing, each at its YAML line.
""",
)
MUTATION_UNDER_THRESHOLD = declare(
    "C002",
    "mutation-score-under-threshold",
    Severity.ERROR,
    "coverage",
    """
A matter's mutation score is below `mutation-fail-under`: some altered rubrics pass every check.

`rubric coverage --mutation` deletes each gate, strips its guards, drops each concept,
deletes each variant, moves each anchor, flips non-negotiable, raises resist rounds and
softens counters, one at a time in memory, and re-runs the matter's expectations and
probes. A mutant no check notices survives: tighten an expectation (a `max_raw`, a
`critical_failure: false`) or add the trajectory or probe that depends on the item.
""",
)
MATTER_NOT_MEASURED = declare(
    "C003",
    "matter-not-measured",
    Severity.ERROR,
    "coverage",
    """
A matter's coverage could not be measured because the matter does not load.

Fix the load errors `rubric lint` reports (missing file, broken YAML); coverage is
measured on the scorer's model of the matter.
""",
)
