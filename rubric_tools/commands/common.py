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
#: Tables written to a pipe or a file (a CI log) are never wrapped: each row keeps its lines.
LOG_TABLE_WIDTH = 1000


def output_width(stream: TextIO) -> int | None:
    """The width to render at: None (the terminal's, 80 columns included) for a terminal,
    PIPE_WIDTH otherwise, so that piped tables never wrap mid-word at rich's default 80."""
    isatty = getattr(stream, "isatty", None)
    try:
        return None if isatty and isatty() else PIPE_WIDTH
    except (OSError, ValueError):
        return PIPE_WIDTH


def table_width(stream: TextIO) -> int | None:
    """The width to render a wide table at: the terminal's, else wide enough that no
    cell is folded (`nda_` / `mutu` / `al_0` / `01` at 80 columns is unreadable in a log)."""
    return None if output_width(stream) is None else LOG_TABLE_WIDTH


def wants_color(stream: TextIO, no_color: bool) -> bool:
    """Colour only for a terminal, and never with --no-color or NO_COLOR set."""
    if no_color or os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):
        return False


# --------------------------------------------------------------- internal errors

#: Set by the global `--debug` option (or RUBRIC_DEBUG=1): internal errors then print
#: their traceback after the one-line report.
_debug = False


def set_debug(enabled: bool) -> None:
    global _debug
    _debug = enabled


def debug_enabled() -> bool:
    return _debug or os.environ.get("RUBRIC_DEBUG") == "1"


def internal_error_report(exc: BaseException, what: str, *, debug: bool | None = None) -> tuple[str, str]:
    """A bug as (the one-line I001 message without "error: ", the traceback or "").

    The traceback is given only with --debug (`debug`, when the caller runs where the
    option is not set, e.g. a pool worker)."""
    from rubric_tools.internal_codes import INTERNAL_ERROR

    debug = debug_enabled() if debug is None else debug
    detail = " ".join(f"{type(exc).__name__}: {exc}".split())
    if len(detail) > 300:
        detail = detail[:297] + "..."
    trace = ""
    if debug:
        import traceback

        trace = "".join(traceback.format_exception(exc))
    hint = "" if debug else "; rerun as `rubric --debug …` for the traceback"  # a global option, before the command
    return f"{INTERNAL_ERROR.code} internal error while {what}: {detail} (a bug in rubric-tools{hint})", trace


def report_internal_error(stderr: TextIO, exc: BaseException, what: str) -> int:
    """Report a bug as one line with code I001 (the traceback only with --debug); exit 2."""
    line, trace = internal_error_report(exc, what)
    stderr.write(f"{trace}error: {line}\n")
    return EXIT_USAGE
