"""The background work of the server: analysing one generation of a matter (lint, and the
trajectory, expectation and probe checks of `rubric check`), auditing it, and turning
the findings into LSP diagnostics. Runs in executor threads; `stale()` is asked between
stages so that superseded work stops early (`scheduler.Superseded`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types

from rubric_tools.config.errors import ConfigError
from rubric_tools.config.project import ProjectConfig
from rubric_tools.diagnostics import Diagnostic
from rubric_tools.lsp import adapter
from rubric_tools.lsp.convert import AUDIT_SOURCE, CHECK_SOURCE, LINT_SOURCE, line_span, problem_to_lsp, to_lsp
from rubric_tools.lsp.navigation import related
from rubric_tools.lsp.scheduler import Stale, Superseded
from rubric_tools.lsp.settings import Settings
from rubric_tools.lsp.views import CheckProblem, View

#: A finding (the project's diagnostic, or a check's problem) and what the client is shown.
Shown = tuple[Diagnostic | CheckProblem, types.Diagnostic]


@dataclass
class Analysis:
    """One generation of a matter, analysed: what the server publishes and acts on."""

    view: View
    config: ProjectConfig | None = None
    config_error: ConfigError | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    problems: list[CheckProblem] = field(default_factory=list)
    shown: dict[Path, list[Shown]] = field(default_factory=dict)

    @property
    def generation(self) -> int:
        return self.view.generation


@dataclass
class Audit:
    """The audit of one saved generation. Its findings stand for a file while the file's
    text is what was audited (their positions refer to it)."""

    view: View
    texts: dict[Path, str] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    shown: dict[Path, list[Shown]] = field(default_factory=dict)

    def valid_for(self, path: Path, text: str | None) -> bool:
        return path in self.texts and self.texts[path] == text

    def stands(self, view: View, path: Path) -> bool:
        """Whether its findings in `path` still stand: the file reads in `view` as it was audited."""
        text = view.text(path)
        return self.valid_for(path, text.text if text is not None else None)


def _check(stale: Stale) -> None:
    if stale():
        raise Superseded


def config_for(root: Path, settings: Settings, cwd: Path) -> ProjectConfig:
    config_file = Path(settings.config_file) if settings.config_file else None
    if config_file is not None and not config_file.is_absolute():
        config_file = cwd / config_file
    return adapter.project_config(root, config_file, cwd)


def analyse(view: View, settings: Settings, cwd: Path, stale: Stale) -> Analysis:
    """Lint the view's matter, then check its trajectories, expectations and probes."""
    analysis = Analysis(view)
    try:
        analysis.config = config_for(view.root, settings, cwd)
    except ConfigError as error:
        analysis.config_error = error
        return analysis
    overlay = view.overlay
    linted = adapter.lint(view.source, analysis.config, overlay)
    _check(stale)
    checked, missed = adapter.trajectory_checks(view.source, overlay)
    analysis.diagnostics = linted + checked
    for miss in missed:
        message = f"trajectory {miss.stem!r} misses its expectation: {'; '.join(miss.problems)}"
        analysis.problems.append(CheckProblem(miss.file, line_span(view, miss.file, miss.line), message))
    _check(stale)
    for path in view.probes:
        for problem in adapter.probe_problems(view.source, path, overlay):
            analysis.problems.append(
                CheckProblem(problem.file, line_span(view, problem.file, problem.line), problem.message)
            )
    _check(stale)
    analysis.shown = show(view, linted, LINT_SOURCE, settings)
    for path, shown in show(view, checked, CHECK_SOURCE, settings).items():
        analysis.shown.setdefault(path, []).extend(shown)
    for checked_problem in analysis.problems:
        if view.text(checked_problem.file) is not None:
            shown_problem = (checked_problem, problem_to_lsp(view, checked_problem))
            analysis.shown.setdefault(checked_problem.file, []).append(shown_problem)
    for path in read_files(view):  # read here, not when the event loop publishes
        view.text(path)
    return analysis


def read_files(view: View) -> list[Path]:
    """The matter's YAML files and documents, as the view read them."""
    found = [source.path for source in view.source.files.values()]
    return found + [document.path for document in view.source.documents if document.path is not None]


def audit(view: View, settings: Settings, cwd: Path, stale: Stale) -> Audit:
    """`rubric audit` of the view's matter (as saved), with its findings as LSP diagnostics."""
    result = Audit(view)
    try:
        config = config_for(view.root, settings, cwd)
    except ConfigError:
        return result  # the lint of the same generation reports it
    result.diagnostics = adapter.audit(view.source, config)
    _check(stale)
    result.shown = show(view, result.diagnostics, AUDIT_SOURCE, settings)
    # Every file the audit read: its verdicts stand while these read the same.
    read = {*read_files(view), *result.shown}
    result.texts = {path: text.text for path in read if (text := view.text(path)) is not None}
    return result


def show(view: View, diagnostics: list[Diagnostic], source: str, settings: Settings) -> dict[Path, list[Shown]]:
    """Every diagnostic as the client will be shown it, by file."""
    shown: dict[Path, list[Shown]] = {}
    for diagnostic in diagnostics:
        if view.text(diagnostic.file) is None:
            continue  # a file that cannot be read (a FIFO, outside the matter): its finding sits on matter.yaml
        lsp = to_lsp(view, diagnostic, settings, related(view, diagnostic.file, diagnostic.span), source)
        shown.setdefault(diagnostic.file, []).append((diagnostic, lsp))
    return shown


def config_error_diagnostic(error: ConfigError) -> tuple[Path, types.Diagnostic] | None:
    """A configuration error, at its line of the configuration file."""
    if error.file is None:
        return None
    line = max((error.line or 1) - 1, 0)
    where = types.Range(start=types.Position(line=line, character=0), end=types.Position(line=line + 1, character=0))
    return error.file, types.Diagnostic(
        range=where,
        message=f"{error.message} (nothing in the matters this configuration applies to is linted until it is fixed)",
        severity=types.DiagnosticSeverity.Error,
        source="rubric",
    )
