"""The `github` lint output: GitHub Actions workflow commands, one per diagnostic,

    ::error file=a.yaml,line=3,col=5,endLine=3,endColumn=9,title=G003 invalid-regex::message

escaped as the Actions runner unescapes them: `%`, CR and LF in the message; those
plus `:` and `,` in property values.
"""

from __future__ import annotations

from pathlib import Path

from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.lint.engine import LintReport
from rubric_tools.reporting.lint_common import display_path

GITHUB_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    """Escape a command's message (`%` first, so escapes are not escaped twice)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github_command(diagnostic: Diagnostic, cwd: Path | None = None) -> str:
    properties = [("file", display_path(diagnostic.file, cwd))]
    span = diagnostic.span
    if span is not None:
        properties += [
            ("line", str(span.line)),
            ("col", str(span.column)),
            ("endLine", str(span.end_line)),
            ("endColumn", str(span.end_column)),
        ]
    properties.append(("title", f"{diagnostic.code} {diagnostic.name}"))
    rendered = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
    message = diagnostic.message
    if diagnostic.fix is not None:
        flag = "--fix" if diagnostic.fix.safe else "--fix --unsafe-fixes"
        message += f" (fixable with `rubric lint {flag}`: {diagnostic.fix.message})"
    return f"::{GITHUB_COMMAND[diagnostic.severity]} {rendered}::{escape_data(message)}"


def render_github(report: LintReport, *, cwd: Path | None = None) -> str:
    return "".join(github_command(d, cwd) + "\n" for d in report.diagnostics)
