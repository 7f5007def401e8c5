"""Help screens rendered by click's own formatter instead of typer's rich renderer.

Typer formats `--help` with rich (panels, Markdown): importing `typer.rich_utils` pulls in
rich's console, Markdown (markdown-it, pygments) and traceback modules, about 85 ms —
more than half of `rubric --help`. Click's formatter, already loaded with typer, shows
the same content (usage, the command's text, arguments, options with their defaults,
commands) as plain wrapped text; on a terminal it adds a little colour with ANSI codes,
which cost nothing to import. The help texts are written with typer's Markdown-mode
escapes (`\\[tool.rubric]` keeps a bracket from being read as rich markup); `plain_help`
takes the escapes out.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from rubric_tools.commands.common import wants_color

_BOLD, _CYAN, _RESET = "\x1b[1m", "\x1b[36m", "\x1b[0m"


def plain_help(text: str | None) -> str | None:
    """A help text as shown: Markdown-mode escapes (`\\[`) taken out."""
    return None if text is None else text.replace("\\[", "[")


def first_paragraph(text: str | None) -> str:
    """The summary a command list shows: the first paragraph, on one line."""
    paragraph = (text or "").strip().split("\n\n", 1)[0]
    return " ".join(paragraph.split())


class _Colour:
    """Mixed into click's help formatter class: its layout with bold headings and cyan
    option and command names. Click measures columns without ANSI codes, so the wrapping
    is the plain formatter's. The formatter class is the context's own
    (`ctx.make_formatter()`, click's public API): typer vendors click in a private module,
    and no private module of a dependency is imported here."""

    def _formatter(self) -> Any:
        """Click's formatter methods, found after this class in the method order."""
        return super()

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        self._formatter().write_usage(prog, args, prefix=f"{_BOLD}{prefix or 'Usage: '}{_RESET}")

    def write_heading(self, heading: str) -> None:
        self._formatter().write_heading(f"{_BOLD}{heading}{_RESET}")

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        styled = [(f"{_CYAN}{first}{_RESET}", second) for first, second in rows]
        self._formatter().write_dl(styled, col_max=col_max, col_spacing=col_spacing)


def unescape_help_texts(command: Any) -> None:
    """Take the Markdown-mode escapes out of a click command's text and its parameters'."""
    for item in (command, *command.params):
        text = getattr(item, "help", None)
        if isinstance(text, str):
            item.help = plain_help(text)


_COLOUR_CLASSES: dict[type[Any], type[Any]] = {}


def render_help(command: Any, ctx: Any) -> str:
    """`command`'s help screen in click's layout, coloured when stdout is a terminal."""
    formatter = ctx.make_formatter()
    if wants_color(sys.stdout, no_color=False):
        base = type(formatter)
        if base not in _COLOUR_CLASSES:
            _COLOUR_CLASSES[base] = type(f"Colour{base.__name__}", (_Colour, base), {})
        formatter = _COLOUR_CLASSES[base](width=ctx.terminal_width, max_width=ctx.max_content_width)
    command.format_help(ctx, formatter)
    return str(formatter.getvalue()).rstrip("\n")
