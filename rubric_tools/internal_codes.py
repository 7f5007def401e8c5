"""Internal-error codes (I): a bug in rubric-tools, reported in one line, never a traceback.

Declared in the catalogue (`rubric_tools.catalogue`) so that `rubric explain` knows them.
"""

from __future__ import annotations

from rubric_tools.catalogue import declare
from rubric_tools.diagnostics import Severity

INTERNAL_ERROR = declare(
    "I001",
    "internal-error",
    Severity.ERROR,
    "internal",
    """
A command stopped on a bug in rubric-tools.

Whatever the input, a command reports problems with the input as diagnostics; an
exception it did not expect is a bug. It is reported as one line on stderr, with the
exception's type and message, and the command exits 2. Run the same command with the
global `--debug` option (`rubric --debug lint ...`) to print the traceback as well,
and report it with the input that caused it.
""",
)
RULE_CRASHED = declare(
    "I002",
    "rule-crashed",
    Severity.ERROR,
    "internal",
    """
A lint rule crashed on this matter; the other rules still ran.

The finding names the rule and the exception. `rubric lint` exits 2 (an internal
error, not a finding of the matter), and the result is never cached. Run with the
global `--debug` option for the traceback, and report it with the matter.
""",
)
