"""The diagnostic codes of `rubric rescore` (prefix R), declared for `rubric explain`."""

from __future__ import annotations

from rubric_tools.catalogue import declare
from rubric_tools.diagnostics import Severity

UNREADABLE_ARCHIVE = declare(
    "R001",
    "unreadable-archive",
    Severity.ERROR,
    "rescore",
    """
An archive file or folder cannot be read.

It does not exist, cannot be opened, is a truncated or corrupt gzip, or is not UTF-8.
`rubric rescore` reports it and goes on with the other archives; it exits 2.
""",
)
MALFORMED_RECORD = declare(
    "R002",
    "malformed-record",
    Severity.ERROR,
    "rescore",
    """
A record of the archive is malformed, so that trajectory is skipped.

A JSONL line that is not JSON, an action that is not an object, an episode without
`matter_id` or `actions`, a trace without `matter` or `events`. The position is the
file and line (for a JSONL of episodes, also the record index). The other records
are still scored; `rubric rescore` exits 2. In a one-action-per-line trajectory a bad
line skips the whole trajectory, as in `rubric replay`.
""",
)
RESCORE_MATTER_NOT_FOUND = declare(
    "R003",
    "rescore-matter-not-found",
    Severity.ERROR,
    "rescore",
    """
The matter of a trajectory could not be found, so it is skipped.

With `--matters DIR` the matter is `DIR/<matter_id>`: the id a record names, or the
folder layout `trajectories/<matter_id>/…` (or `examples/<matter_id>/…`) of a JSONL
trajectory. Without it, the matter is found as `rubric replay` finds it.
""",
)
MATTER_INVALID = declare(
    "R004",
    "matter-invalid",
    Severity.ERROR,
    "rescore",
    """
The matter (current or base) does not load, so its trajectories are not scored.

A required file is missing or a YAML file does not parse. Run `rubric lint` on it.
""",
)
MATTER_NOT_IN_BASE = declare(
    "R005",
    "matter-not-in-base",
    Severity.WARNING,
    "rescore",
    """
A matter has no base version, so its rows have `base: null`.

The matter is new (absent from `--base DIR` or from the `--base-rev` revision), or its
folder is not in a git repository. Its trajectories are still scored under the
current rubric and compared with their recorded results.
""",
)
RESCORE_FAILED = declare(
    "R006",
    "rescore-failed",
    Severity.ERROR,
    "rescore",
    """
A trajectory could not be scored because of an internal error; it is skipped.

The message names the exception. The other trajectories are still scored and the run
exits 2. This is a bug in rubric-tools: please report it with the record.
""",
)
EMPTY_ARCHIVE = declare(
    "R009",
    "empty-archive",
    Severity.ERROR,
    "rescore",
    """
An archive folder holds no `*.jsonl` or `*.trace.json` file (nor their `.gz`).

A CI gate that re-scores nothing would pass silently, so this exits 2.
""",
)
