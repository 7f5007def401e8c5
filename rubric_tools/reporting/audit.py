"""Renderers of `rubric audit`: a readable report per matter and gate, JSON (validated
by `schemas/audit-output.schema.json`) and SARIF 2.1.0. They only render."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from rubric_tools._version import __version__
from rubric_tools.audit.runner import AuditReport, MatterAudit
from rubric_tools.diagnostics import Diagnostic, Severity
from rubric_tools.fixing.fixes import fix_to_data
from rubric_tools.reporting.lint_common import display_path, printable
from rubric_tools.reporting.lint_sarif import (
    SARIF_LEVEL,
    SARIF_SCHEMA_URI,
    SARIF_VERSION,
    SRCROOT,
    _artifact_location,
    sarif_fix,
)
from rubric_tools.reporting.safe_output import dumps as safe_dumps

JSON_VERSION = 1


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(report: AuditReport) -> dict[str, Any]:
    diagnostics = report.diagnostics
    return {
        "matters": len(report.matters),
        "findings": len(diagnostics),
        "errors": sum(1 for d in diagnostics if d.severity is Severity.ERROR),
        "warnings": sum(1 for d in diagnostics if d.severity is Severity.WARNING),
        "by_code": dict(sorted(Counter(d.code for d in diagnostics).items())),
    }


# ------------------------------------------------------------------ text


def _evidence_lines(diagnostic: Diagnostic) -> list[str]:
    lines = []
    for item in diagnostic.extra.get("evidence", []):  # type: ignore[attr-defined]
        where = f"{item['kind']} · {item['source']}" if item["source"] != item["kind"] else item["kind"]
        lines.append(f"      - [{printable(where)}] {printable(item['sentence'])!r} → {printable(item['got'])}")
    total = diagnostic.extra.get("evidence_total", 0)
    shown = len(diagnostic.extra.get("evidence", []))  # type: ignore[arg-type]
    if isinstance(total, int) and total > shown:
        lines.append(f"      … and {total - shown} more (--output-format json lists them)")
    return lines


def _matter_text(matter: MatterAudit, cwd: Path | None) -> list[str]:
    lines = [f"{display_path(matter.root, cwd)} ({matter.matter_id}): {_plural(len(matter.diagnostics), 'finding')}"]
    for problem in matter.problems:
        lines.append(
            f"  {display_path(problem.file, cwd)}:{problem.line}:{problem.column} {problem.code} "
            f"{printable(problem.message)} (the matter must load cleanly to be audited)"
        )
    for diagnostic in matter.diagnostics:
        where = f"{display_path(diagnostic.file, cwd)}:{diagnostic.line}:{diagnostic.column}"
        lines.append(f"  {where} {diagnostic.code} [{diagnostic.severity.value}] {diagnostic.name}")
        lines.append(f"    {printable(diagnostic.message)}")
        lines += _evidence_lines(diagnostic)
        if diagnostic.fix_hint:
            lines.append(f"    fix: {printable(diagnostic.fix_hint)}")
        if diagnostic.fix is not None:
            lines += _paste_ready(diagnostic)
    lines += _robustness_lines(matter, cwd)
    return lines


def _robustness_lines(matter: MatterAudit, cwd: Path | None) -> list[str]:
    """One line per gate list: sins caught and correct work left silent, before → after
    (as written only, when no proposals were made)."""
    if not matter.robustness:
        return []
    proposed = any(f.after_is != "none" for f in matter.robustness)
    fixed = any(f.after_is == "fix" for f in matter.robustness)
    after = "after --fix" if fixed else "after the proposals"
    lines = [f"  robustness of each gate list (before → {after}):" if proposed else "  robustness of each gate list:"]
    for figure in matter.robustness:
        where = f"{display_path(figure.file, cwd)}:{figure.line}" if figure.line else display_path(figure.file, cwd)
        note = "" if figure.changed or figure.after_is == "none" else " (unchanged)"
        lines.append(f"    {where} {printable(figure.name)}: robustness: {figure.describe()}{note}")
    return lines


def _paste_ready(diagnostic: Diagnostic) -> list[str]:
    """The gate entry after the proposed change, as the author would paste it into rubric.yaml."""
    from rubric_tools.fixing.gate_edits import render_yaml_value

    proposal = diagnostic.extra.get("proposal")
    after = proposal.get("after") if isinstance(proposal, dict) else None
    if not isinstance(after, dict):
        return []
    lines = ["    paste-ready entry (`rubric audit --fix --unsafe-fixes` writes it):"]
    for index, (key, value) in enumerate(after.items()):
        rendered = render_yaml_value(value)
        if rendered is None:
            return []
        lines.append(f"      {'- ' if index == 0 else '  '}{key}: {printable(rendered)}")
    return lines


def render_text(report: AuditReport, cwd: Path | None = None) -> str:
    lines: list[str] = []  # usage errors go to stderr (commands.audit), never into the report
    for matter in report.matters:
        lines += _matter_text(matter, cwd)
        lines.append("")
    if not report.matters:  # the command says where it looked (stderr) and exits 2
        return "No matters were audited.\n"
    counts = summary(report)
    by_code = ", ".join(f"{code} {count}" for code, count in counts["by_code"].items())
    lines.append(
        f"Audited {_plural(counts['matters'], 'matter')}: {_plural(counts['errors'], 'error')}, "
        f"{_plural(counts['warnings'], 'warning')}" + (f" ({by_code})" if by_code else "") + "."
    )
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ json


def finding_record(diagnostic: Diagnostic, cwd: Path | None = None) -> dict[str, Any]:
    span = diagnostic.span
    return {
        "code": diagnostic.code,
        "name": diagnostic.name,
        "severity": diagnostic.severity.value,
        "file": display_path(diagnostic.file, cwd),
        "line": diagnostic.line,
        "column": diagnostic.column,
        "end_line": span.end_line if span else diagnostic.line,
        "end_column": span.end_column if span else diagnostic.column,
        "message": diagnostic.message,
        "matter": diagnostic.matter,
        "subject": diagnostic.extra.get("subject", {}),
        "evidence": diagnostic.extra.get("evidence", []),
        "evidence_total": diagnostic.extra.get("evidence_total", 0),
        "proposal": diagnostic.extra.get("proposal"),
        "fix_hint": diagnostic.fix_hint,
        "fix": fix_to_data(diagnostic.fix, lambda path: display_path(path, cwd)) if diagnostic.fix else None,
    }


def report_document(report: AuditReport, cwd: Path | None = None) -> dict[str, Any]:
    return {
        "version": JSON_VERSION,
        "tool": {"name": "rubric-tools", "version": __version__},
        "matters": [
            {
                "matter_id": matter.matter_id,
                "path": display_path(matter.root, cwd),
                "problems": [
                    f"{display_path(p.file, cwd)}:{p.line}:{p.column}: {p.code} {p.message}" for p in matter.problems
                ],
                "findings": [finding_record(d, cwd) for d in matter.diagnostics],
                "robustness": [f.to_json(display_path(f.file, cwd)) for f in matter.robustness],
            }
            for matter in report.matters
        ],
        "usage_errors": list(report.usage_errors),
        "summary": summary(report),
    }


def render_json(report: AuditReport, cwd: Path | None = None) -> str:
    return safe_dumps(report_document(report, cwd), indent=2) + "\n"


# ------------------------------------------------------------------ sarif


def _descriptor(code: str, diagnostic: Diagnostic) -> dict[str, Any]:
    from rubric_tools.code_registry import lookup

    entry = lookup(code)
    doc = entry.doc if entry else diagnostic.name
    summary_text = doc.strip().split("\n", 1)[0]
    # A lint rule's level is the configured one the finding carries; another code's is declared.
    severity = entry.severity if entry and not entry.is_rule else diagnostic.severity
    return {
        "id": code,
        "name": diagnostic.name,
        "shortDescription": {"text": summary_text},
        "fullDescription": {"text": doc},
        "defaultConfiguration": {"level": SARIF_LEVEL[severity]},
    }


def _finding_robustness(diagnostic: Diagnostic, figures: dict[tuple[Any, ...], dict[str, Any]]) -> dict[str, Any]:
    """The robustness of the gate list a gate finding sits in, for its SARIF properties."""
    subject = diagnostic.extra.get("subject")
    if not isinstance(subject, dict) or "surface" not in subject:
        return {}
    figure = figures.get((diagnostic.matter, subject.get("issue"), subject.get("surface")))
    return {"robustness": figure} if figure is not None else {}


def render_sarif(report: AuditReport, cwd: Path | None = None, exit_code: int = 0) -> str:
    diagnostics = report.diagnostics
    descriptors: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for diagnostic in diagnostics:
        if diagnostic.code not in index:
            index[diagnostic.code] = len(descriptors)
            descriptors.append(_descriptor(diagnostic.code, diagnostic))
    figures = {
        (matter.matter_id, figure.issue_id, figure.surface): figure.to_json(display_path(figure.file, cwd))
        for matter in report.matters
        for figure in matter.robustness
    }
    results = []
    for diagnostic in diagnostics:
        physical: dict[str, Any] = {"artifactLocation": _artifact_location(diagnostic.file, cwd)}
        if diagnostic.span is not None:
            span = diagnostic.span
            physical["region"] = {
                "startLine": span.line,
                "startColumn": span.column,
                "endLine": span.end_line,
                "endColumn": span.end_column,
            }
        results.append(
            {
                "ruleId": diagnostic.code,
                "ruleIndex": index[diagnostic.code],
                "level": SARIF_LEVEL[diagnostic.severity],
                "message": {"text": diagnostic.message},
                "locations": [{"physicalLocation": physical}],
                "properties": {
                    "matter": diagnostic.matter,
                    "evidence": diagnostic.extra.get("evidence", []),
                    "proposal": diagnostic.extra.get("proposal"),
                    **_finding_robustness(diagnostic, figures),
                },
                **({"fixes": [sarif_fix(diagnostic.fix, cwd)]} if diagnostic.fix else {}),
            }
        )
    base = (cwd or Path.cwd()).absolute().as_uri().rstrip("/") + "/"
    run = {
        "tool": {"driver": {"name": "rubric-tools", "version": __version__, "rules": descriptors}},
        "originalUriBaseIds": {SRCROOT: {"uri": base}},
        "columnKind": "unicodeCodePoints",
        "invocations": [{"executionSuccessful": exit_code != 2, "exitCode": exit_code}],
        "results": results,
        "properties": {
            "robustness": [
                {"matter": matter.matter_id, **figures[(matter.matter_id, f.issue_id, f.surface)]}
                for matter in report.matters
                for f in matter.robustness
            ]
        },
    }
    return safe_dumps({"$schema": SARIF_SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}, indent=2) + "\n"
