"""The `sarif` lint output: one SARIF 2.1.0 log with a single run.

`tool.driver.rules` lists every registered rule (documentation included) plus any
code that appears in the results without being a registered rule, so every result's
`ruleIndex` resolves. Columns count Unicode code points, as our spans do, which the
run declares with `columnKind`. URIs are relative to the working directory, which is
recorded as the `%SRCROOT%` base.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from rubric_tools._version import __version__
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.fixing.fixes import Fix
from rubric_tools.lint.registry import Rule, all_rules
from rubric_tools.reporting import safe_output
from rubric_tools.reporting.lint_common import display_path

if TYPE_CHECKING:  # a type only: the audit's SARIF report uses this module without lint's engine
    from rubric_tools.lint.engine import LintReport

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
SRCROOT = "%SRCROOT%"
SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _rule_descriptor(rule: Rule) -> dict[str, Any]:
    descriptor: dict[str, Any] = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary or rule.name},
        "defaultConfiguration": {"level": SARIF_LEVEL[rule.severity]},
        "properties": {"family": rule.family, "fixable": rule.fixable},
    }
    if rule.doc:
        descriptor["fullDescription"] = {"text": rule.doc}
        descriptor["help"] = {"text": rule.doc, "markdown": rule.doc}
    return descriptor


def _unregistered_descriptor(diagnostic: Diagnostic) -> dict[str, Any]:
    """A descriptor for a code reported outside the registry (e.g. an internal error)."""
    return {
        "id": diagnostic.code,
        "name": diagnostic.name,
        "shortDescription": {"text": diagnostic.name},
        "defaultConfiguration": {"level": SARIF_LEVEL[diagnostic.severity]},
    }


def _artifact_location(path: Path, cwd: Path | None) -> dict[str, Any]:
    shown = display_path(path, cwd)
    if Path(shown).is_absolute():
        return {"uri": Path(shown).as_uri()}
    return {"uri": quote(shown, safe="/"), "uriBaseId": SRCROOT}


def _result(diagnostic: Diagnostic, rule_index: int, cwd: Path | None) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": _artifact_location(diagnostic.file, cwd)}
    span = diagnostic.span
    if span is not None:
        physical["region"] = {
            "startLine": span.line,
            "startColumn": span.column,
            "endLine": span.end_line,
            "endColumn": span.end_column,
        }
    properties: dict[str, Any] = {"name": diagnostic.name}
    if diagnostic.matter is not None:
        properties["matter"] = diagnostic.matter
    if diagnostic.fix_hint:
        properties["fixHint"] = diagnostic.fix_hint
    result: dict[str, Any] = {
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index,
        "level": SARIF_LEVEL[diagnostic.severity],
        "message": {"text": diagnostic.message},
        "locations": [{"physicalLocation": physical}],
        "properties": properties,
    }
    if diagnostic.fix is not None:
        properties["fixApplicability"] = diagnostic.fix.applicability.value
        result["fixes"] = [sarif_fix(diagnostic.fix, cwd)]
    return result


def sarif_fix(fix: Fix, cwd: Path | None) -> dict[str, Any]:
    """A SARIF fix: one artifactChange per file, one replacement per edit."""
    changes: dict[Path, list[dict[str, Any]]] = {}
    for edit in fix.edits:
        span = edit.span
        changes.setdefault(edit.file, []).append(
            {
                "deletedRegion": {
                    "startLine": span.line,
                    "startColumn": span.column,
                    "endLine": span.end_line,
                    "endColumn": span.end_column,
                },
                "insertedContent": {"text": edit.new},
            }
        )
    return {
        "description": {"text": f"{fix.message} ({fix.applicability.value} fix)"},
        "artifactChanges": [
            {"artifactLocation": _artifact_location(path, cwd), "replacements": replacements}
            for path, replacements in changes.items()
        ],
    }


def sarif_log(report: LintReport, *, cwd: Path | None = None) -> dict[str, Any]:
    diagnostics = report.diagnostics
    descriptors = [_rule_descriptor(rule) for rule in all_rules()]
    index = {descriptor["id"]: position for position, descriptor in enumerate(descriptors)}
    for diagnostic in diagnostics:
        if diagnostic.code not in index:
            index[diagnostic.code] = len(descriptors)
            descriptors.append(_unregistered_descriptor(diagnostic))
    base = (cwd or Path.cwd()).absolute().as_uri().rstrip("/") + "/"
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "rubric-tools",
                "version": __version__,
                "rules": descriptors,
            }
        },
        "originalUriBaseIds": {SRCROOT: {"uri": base}},
        "columnKind": "unicodeCodePoints",
        "invocations": [
            {
                "executionSuccessful": report.exit_code != 2,
                "exitCode": report.exit_code,
                "toolExecutionNotifications": [
                    {"level": "error", "message": {"text": problem}} for problem in report.usage_errors
                ],
            }
        ],
        "results": [_result(d, index[d.code], cwd) for d in diagnostics],
    }
    return {"$schema": SARIF_SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}


def render_sarif(report: LintReport, *, cwd: Path | None = None) -> str:
    return safe_output.dumps(sarif_log(report, cwd=cwd)) + "\n"
