"""The `full` lint output (the default), modelled on ruff's:

    matters/acme/rubric.yaml:12:15: G003 [invalid-regex] pattern does not compile
       |
    12 |       - "(unclosed"
       |         ^^^^^^^^^^^ G003
       |
       = help: close the group

followed by a summary line. Every piece of user text goes through rich `Text`
objects, never markup, so brackets in a message or a file are printed as written.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.text import Text

from rubric_tools.diagnostics import Diagnostic
from rubric_tools.fixing.fixes import Fix
from rubric_tools.lint.engine import LintReport
from rubric_tools.reporting.console import SEVERITY_STYLE, console_text, string_console
from rubric_tools.reporting.lint_common import (
    SourceLines,
    display_path,
    fixable_line,
    make_snippet,
    printable,
    summary_line,
)


def diagnostic_header(
    diagnostic: Diagnostic, cwd: Path | None, *, with_name: bool = True, unsafe_fixes: bool = False
) -> Text:
    """`path:line:col: CODE [name] message`, coloured by severity."""
    header = Text()
    header.append(
        f"{printable(display_path(diagnostic.file, cwd))}:{diagnostic.line}:{diagnostic.column}:",
        style="bold",
    )
    header.append(" ")
    header.append(diagnostic.code, style=SEVERITY_STYLE[diagnostic.severity])
    if diagnostic.fix is not None and (diagnostic.fix.safe or unsafe_fixes):
        header.append(" [*]", style="bold cyan")  # ruff's marker: `--fix` resolves this one
    if with_name:
        header.append(f" [{diagnostic.name}]", style="dim")
    # One line per diagnostic, whatever the message holds.
    header.append(f" {printable(diagnostic.message)}")
    return header


def _gutter(text: str) -> Text:
    """A line that starts with the blue gutter; what is appended keeps its own style
    (a Text's own style would colour the whole line, source text included)."""
    line = Text()
    line.append(text, style="blue")
    return line


def _print_diagnostic(
    console: Console, diagnostic: Diagnostic, sources: SourceLines, cwd: Path | None, unsafe_fixes: bool
) -> None:
    console.print(diagnostic_header(diagnostic, cwd, unsafe_fixes=unsafe_fixes))
    snippet = make_snippet(sources.lines(diagnostic.file), diagnostic.span)
    gutter_width = len(str(snippet.line_number)) if snippet else 1
    pad = " " * (gutter_width + 1)
    if snippet is not None:
        console.print(_gutter(pad + "|"))
        console.print(_gutter(f"{snippet.line_number:>{gutter_width}} | ").append(snippet.text))
        carets = _gutter(pad + "| ").append(" " * snippet.caret_start)
        carets.append(
            "^" * snippet.caret_width + f" {diagnostic.code}",
            style=SEVERITY_STYLE[diagnostic.severity],
        )
        console.print(carets)
        console.print(_gutter(pad + "|"))
    if diagnostic.fix_hint:
        hint = _gutter(pad + "= ").append("help", style="bold cyan")
        hint.append(f": {printable(diagnostic.fix_hint)}")
        console.print(hint)
    if diagnostic.fix is not None:
        console.print(_gutter(pad + "= ").append("fix", style="bold cyan").append(f": {fix_line(diagnostic.fix)}"))
    console.print()


def fix_line(fix: Fix) -> str:
    """`write 'msa §4.2' (safe: --fix)` or `... (unsafe: --fix --unsafe-fixes; why)`."""
    if fix.safe:
        return f"{printable(fix.message)} (safe fix available: --fix)"
    why = f"; {printable(fix.downgraded)}" if fix.downgraded else ""
    return f"{printable(fix.message)} (unsafe fix available: --fix --unsafe-fixes{why})"


def render_full(report: LintReport, *, color: bool = False, cwd: Path | None = None) -> str:
    """Every diagnostic with its source snippet, then the summary line."""
    console = string_console(color)
    sources = SourceLines()
    for diagnostic in report.diagnostics:
        _print_diagnostic(console, diagnostic, sources, cwd, report.unsafe_fixes)
    console.print(Text(summary_line(report), style="bold"))
    fixes = fixable_line(report)
    if fixes:
        console.print(Text(fixes))
    return console_text(console)
