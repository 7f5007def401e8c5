"""The `concise` lint output: one line per diagnostic, `path:line:col: CODE message`,
then the summary line."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text

from rubric_tools.lint.engine import LintReport
from rubric_tools.reporting.console import console_text, string_console
from rubric_tools.reporting.lint_common import fixable_line, summary_line
from rubric_tools.reporting.lint_full import diagnostic_header


def render_concise(report: LintReport, *, color: bool = False, cwd: Path | None = None) -> str:
    console = string_console(color)
    for diagnostic in report.diagnostics:
        console.print(diagnostic_header(diagnostic, cwd, with_name=False, unsafe_fixes=report.unsafe_fixes))
    console.print(Text(summary_line(report), style="bold"))
    fixes = fixable_line(report)
    if fixes:
        console.print(Text(fixes))
    return console_text(console)
