"""The project's diagnostics as LSP diagnostics: code, severity, exact range, related
locations and a link to the code's documentation.

Related locations come from what the finding points at: the evidence the audit found
(each sentence at its file and line), and, for a finding on a citation or an id, the
section it cites or the other places the id is written (`navigation.related`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from lsprotocol import types

from rubric_tools.diagnostics import Diagnostic, Severity, Span
from rubric_tools.lsp import adapter
from rubric_tools.lsp.settings import Settings
from rubric_tools.lsp.views import CheckProblem, View

SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}

#: Which command finds what (a diagnostic's `source`, as the client shows it).
LINT_SOURCE, CHECK_SOURCE, AUDIT_SOURCE = "rubric lint", "rubric check", "rubric audit"

#: Related locations shown per finding, at most.
MAX_RELATED = 8


def documentation_url(code: str, settings: Settings) -> str | None:
    """Where a code is documented: `docs.baseUrl` + the heading's anchor, else the
    installed AUTHORING.md at the heading's line (see `rubric_tools.lsp.settings`)."""
    found = adapter.documentation_anchor(code)
    if found is None:
        return None
    file, line, anchor = found
    if settings.docs_base_url:
        return f"{settings.docs_base_url.split('#', 1)[0]}#{anchor}"
    return f"{file.as_uri()}#L{line}"


def _message(diagnostic: Diagnostic) -> str:
    message = diagnostic.message
    if diagnostic.fix_hint:
        message += f"\n{diagnostic.fix_hint}"
    if diagnostic.fix is not None:
        fix = diagnostic.fix
        message += f"\nfix ({'safe' if fix.safe else 'unsafe'}): {fix.message}"
    return message


def _evidence(view: View, diagnostic: Diagnostic) -> Iterable[types.DiagnosticRelatedInformation]:
    """The audit's evidence where it has a place: a file and line (a probe, a trajectory
    step, a hidden answer), or a cited section (`playbook §3`)."""
    evidence = diagnostic.extra.get("evidence")
    for item in evidence if isinstance(evidence, list) else ():
        if not isinstance(item, dict):
            continue
        where = _evidence_location(view, item)
        if where is None:
            continue
        sentence = str(item.get("sentence", ""))
        shown = sentence if len(sentence) <= 120 else sentence[:117] + "..."
        yield types.DiagnosticRelatedInformation(
            location=where,
            message=f"{item.get('source', '')}: expected {item.get('expected')}, got {item.get('got')}: {shown!r}",
        )


def _evidence_location(view: View, item: dict[str, Any]) -> types.Location | None:
    if isinstance(item.get("file"), str):
        path = Path(item["file"])
        line = item["line"] if isinstance(item.get("line"), int) else 1
        text = view.text(path)
        where = text.line_range(line) if text is not None else types.Range(types.Position(0, 0), types.Position(0, 0))
        return types.Location(uri=path.as_uri(), range=where)
    section = view.index.section(str(item.get("source", "")))
    if section is None:
        return None
    return view.location(section.file, Span(section.line, section.column, section.line, len(section.heading) + 1))


def to_lsp(
    view: View,
    diagnostic: Diagnostic,
    settings: Settings,
    related: list[types.DiagnosticRelatedInformation],
    source: str,
) -> types.Diagnostic:
    """One project diagnostic as the client sees it; `source` says which command finds it
    (`rubric lint`, `rubric check`, `rubric audit`)."""
    text = view.text(diagnostic.file)
    where = text.range(diagnostic.span) if text is not None else types.Range(types.Position(0, 0), types.Position(0, 0))
    href = documentation_url(diagnostic.code, settings)
    found = [*_evidence(view, diagnostic), *related][:MAX_RELATED]
    return types.Diagnostic(
        range=where,
        message=_message(diagnostic),
        severity=SEVERITY[diagnostic.severity],
        code=diagnostic.code,
        code_description=types.CodeDescription(href=href) if href else None,
        source=source,
        related_information=found or None,
    )


def problem_to_lsp(view: View, problem: CheckProblem) -> types.Diagnostic:
    text = view.text(problem.file)
    span = problem.span
    where = text.range(span) if text is not None else types.Range(types.Position(0, 0), types.Position(0, 0))
    return types.Diagnostic(
        range=where, message=problem.message, severity=SEVERITY[problem.severity], source=CHECK_SOURCE
    )


def line_span(view: View, file: Path, line: int | None) -> Span | None:
    """The span of a whole line (a probe, an expectation entry), when the text is readable."""
    text = view.text(file)
    if text is None or line is None:
        return None
    content = text.loader_line_text(line)
    indent = len(content) - len(content.lstrip())
    return Span(line, indent + 1, line, len(content) + 1)
