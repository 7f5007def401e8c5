"""What every command shares: its exit codes and when to colour its output."""

from __future__ import annotations

import os
from typing import TextIO

# Every command exits 0 when all is well, 1 when it found what it looks for (findings,
# failed checks, a shortfall, a gate timeout), 2 on usage, input, configuration or
# internal errors.
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2


PIPE_WIDTH = 120  # a pipe or a file gets a comfortable fixed width; a terminal its own


def output_width(stream: TextIO) -> int | None:
    """The width to render at: None (the terminal's, 80 columns included) for a terminal,
    PIPE_WIDTH otherwise, so that piped tables never wrap mid-word at rich's default 80."""
    isatty = getattr(stream, "isatty", None)
    try:
        return None if isatty and isatty() else PIPE_WIDTH
    except (OSError, ValueError):
        return PIPE_WIDTH


def wants_color(stream: TextIO, no_color: bool) -> bool:
    """Colour only for a terminal, and never with --no-color or NO_COLOR set."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):
        return False
