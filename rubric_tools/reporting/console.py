"""Rendering into a string with rich, and the severity colours every report shares.

Kept apart from `lint_common` (which knows lint reports and so imports the lint engine)
so that a page with no lint report behind it, `rubric explain CODE`, imports only rich."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

from rubric_tools.diagnostics import Severity

if TYPE_CHECKING:
    from rich.console import Console

SEVERITY_STYLE = {
    Severity.ERROR: "bold red",
    Severity.WARNING: "bold yellow",
    Severity.INFO: "bold cyan",
}


def string_console(color: bool, width: int = 100) -> Console:
    """A console that renders into a string; colour only when asked for."""
    from rich.console import Console

    return Console(
        file=io.StringIO(),
        force_terminal=color,
        no_color=not color,
        color_system="standard" if color else None,
        width=width,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=True,
    )


def console_text(console: Console) -> str:
    file = console.file
    return file.getvalue() if isinstance(file, io.StringIO) else ""
