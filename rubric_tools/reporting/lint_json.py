"""The `json` lint output: one versioned document, described by
`schemas/lint-output.schema.json`. Bump `JSON_OUTPUT_VERSION` on any incompatible
change; adding a key is compatible."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rubric_tools._version import __version__
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.fixing.fixes import fix_to_data
from rubric_tools.lint.engine import LintReport, MatterReport
from rubric_tools.reporting import safe_output
from rubric_tools.reporting.lint_common import display_path

JSON_OUTPUT_VERSION = 1
TOOL_NAME = "rubric-tools"


def _counts(diagnostics: list[Diagnostic]) -> dict[str, int]:
    return {
        "errors": sum(1 for d in diagnostics if d.severity is Severity.ERROR),
        "warnings": sum(1 for d in diagnostics if d.severity is Severity.WARNING),
        "infos": sum(1 for d in diagnostics if d.severity is Severity.INFO),
    }


def _matter(matter: MatterReport, cwd: Path | None) -> dict[str, Any]:
    return {
        "matter_id": matter.matter_id,
        "path": display_path(matter.root, cwd),
        **_counts(matter.diagnostics),
    }


def diagnostic_record(diagnostic: Diagnostic, cwd: Path | None) -> dict[str, Any]:
    """One diagnostic as plain data; positions are null when it has no span."""
    span = diagnostic.span
    return {
        "code": diagnostic.code,
        "name": diagnostic.name,
        "severity": diagnostic.severity.value,
        "message": diagnostic.message,
        "fix_hint": diagnostic.fix_hint,
        "file": display_path(diagnostic.file, cwd),
        "line": span.line if span else None,
        "column": span.column if span else None,
        "end_line": span.end_line if span else None,
        "end_column": span.end_column if span else None,
        "matter": diagnostic.matter,
        "fix": fix_to_data(diagnostic.fix, lambda path: display_path(path, cwd)) if diagnostic.fix else None,
    }


def report_document(report: LintReport, cwd: Path | None = None) -> dict[str, Any]:
    diagnostics = report.diagnostics
    return {
        "version": JSON_OUTPUT_VERSION,
        "tool": TOOL_NAME,
        "tool_version": __version__,
        "summary": {
            "matters": len(report.matters),
            "matters_with_diagnostics": sum(1 for m in report.matters if m.diagnostics),
            "diagnostics": len(diagnostics),
            **_counts(diagnostics),
            "fail_level": report.fail_level.value,
            "failed": report.failed,
            "exit_code": report.exit_code,
            "fixable": sum(1 for d in diagnostics if d.fix is not None and d.fix.safe),
            "unsafe_fixable": sum(1 for d in diagnostics if d.fix is not None and not d.fix.safe),
            "fixed": report.fixed,
            "baselined": report.baselined,
        },
        "usage_errors": list(report.usage_errors),
        "matters": [_matter(matter, cwd) for matter in report.matters],
        "diagnostics": [diagnostic_record(d, cwd) for d in diagnostics],
    }


def render_json(report: LintReport, *, cwd: Path | None = None) -> str:
    return safe_output.dumps(report_document(report, cwd)) + "\n"
