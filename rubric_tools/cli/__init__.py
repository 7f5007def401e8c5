"""The `rubric` command line. Each command lives in its own module of this package:
it parses arguments and calls one library function that returns an exit code."""

from __future__ import annotations

import sys

from rubric_tools.cli.app import app

# Importing a command module registers its command(s) on `app`.
from rubric_tools.cli import replay_cmd  # noqa: E402,F401  isort: skip
from rubric_tools.cli import lint_cmd  # noqa: E402,F401  isort: skip
from rubric_tools.cli import prove_cmd  # noqa: E402,F401  isort: skip
from rubric_tools.cli import check_cmd  # noqa: E402,F401  isort: skip
from rubric_tools.cli import max_score_cmd  # noqa: E402,F401  isort: skip
from rubric_tools.cli import rescore_cmd  # noqa: E402,F401  isort: skip
from rubric_tools.cli import audit_cmd  # noqa: E402,F401  isort: skip
from rubric_tools.cli import authoring_cmd  # noqa: E402,F401  isort: skip
from rubric_tools.cli import coverage_cmd  # noqa: E402,F401  isort: skip

USAGE_ERROR = 2


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `rubric` console script."""
    try:
        app(args=argv, standalone_mode=True)
    except SystemExit as exit_:
        code = exit_.code
        return code if isinstance(code, int) else (0 if code is None else USAGE_ERROR)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
