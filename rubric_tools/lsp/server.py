"""The language server's state: open buffers, and per matter its generation, newest
analysis, audit and view; publishing diagnostics. The protocol's handlers are in
`rubric_tools.lsp.features`.

It keeps the open buffers, and per matter a generation counter bumped by every change of
one of its files. A change schedules the matter's analysis after a short quiet period
(`rubric.debounce`); a newer change cancels the analysis still waiting and makes the
running one stale (its result is never published). Analyses and audits run in their own
executor threads; the event loop only moves messages, so hovers, completions and
definitions are answered while a lint runs.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from rubric_tools._version import __version__
from rubric_tools.lsp import actions, adapter
from rubric_tools.lsp.analysis import Analysis, Audit, Shown, analyse, audit, config_error_diagnostic
from rubric_tools.lsp.scheduler import Scheduler, Stale, Superseded
from rubric_tools.lsp.settings import Settings
from rubric_tools.lsp.views import Buffer, View, build_view

NAME = "rubric-lsp"
CONFIG_FILES = ("pyproject.toml", "rubric.toml")
LINT, AUDIT = "lint", "audit"
#: Files whose change on disk can change a matter's findings.
WATCHED = "**/*.{yaml,yml,md,markdown,jsonl,toml}"

logger = logging.getLogger(__name__)


@dataclass
class MatterState:
    """What the server knows of one matter."""

    root: Path
    generation: int = 0
    analysis: Analysis | None = None
    audit: Audit | None = None
    view: View | None = None  # the newest view (an analysis's, or a quick load's)
    published: set[str] = field(default_factory=set)


def path_of(uri: str) -> Path | None:
    path = to_fs_path(uri)
    if path is None or not uri.startswith("file:"):
        return None
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError, ValueError):
        return None


class RubricLanguageServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(NAME, __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.settings = Settings()
        self.buffers: dict[Path, Buffer] = {}
        self.matters: dict[Path, MatterState] = {}
        self.folders: list[Path] = []
        self.outside: set[Path] = set()  # files found to belong to no matter
        self.scheduler = Scheduler(self.log, self.internal_error)
        self.lint_pool = ThreadPoolExecutor(1, thread_name_prefix="rubric-lint")
        self.audit_pool = ThreadPoolExecutor(1, thread_name_prefix="rubric-audit")
        self.query_pool = ThreadPoolExecutor(1, thread_name_prefix="rubric-query")
        self.shown_errors: set[str] = set()
        self.shut_down = False  # `shutdown` received: `exit` then ends the process with 0

    # ------------------------------------------------------------------ plumbing

    def log(self, message: str) -> None:
        """A line in the client's log for this server (never a pop-up)."""
        logger.debug(message)
        try:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Log, message=f"rubric: {message}"))
        except Exception:  # no client (tests of the scheduler alone), or the connection is gone
            pass

    def internal_error(self, message: str) -> None:
        """A bug in rubric-tools (code I001): in the log with its traceback, and once as a message."""
        from rubric_tools.internal_codes import INTERNAL_ERROR

        logger.exception(message)
        line = f"{INTERNAL_ERROR.code} internal error: {message} (a bug in rubric-tools; the server goes on)"
        self.log(line)
        if line not in self.shown_errors:
            self.shown_errors.add(line)
            try:
                self.window_show_message(
                    types.ShowMessageParams(type=types.MessageType.Error, message=f"rubric: {line}")
                )
            except Exception:  # the connection is gone
                pass

    def units(self) -> Any:
        return self.workspace.position_codec.client_num_units

    def cwd_of(self, root: Path) -> Path:
        """The workspace folder holding the matter (where the command line would run), else the matter."""
        holding = [folder for folder in self.folders if root.is_relative_to(folder)]
        return max(holding, key=lambda folder: len(folder.parts)) if holding else root

    def matter_of(self, path: Path) -> MatterState | None:
        """The matter `path` belongs to (None for a file of no matter, remembered until a
        file is opened or changes on disk)."""
        known = next((state for root, state in self.matters.items() if _belongs(path, root, state)), None)
        if known is not None or path in self.outside:
            return known
        root = adapter.matter_root_of(path)
        if root is None:
            self.outside.add(path)
            return None
        return self.matters.setdefault(root, MatterState(root))

    def buffers_of(self, root: Path) -> dict[Path, Buffer]:
        state = self.matters.get(root)
        return {
            path: buffer for path, buffer in self.buffers.items() if state is not None and _belongs(path, root, state)
        }

    # ------------------------------------------------------------------ analysis

    def changed(self, state: MatterState, *, delay: float | None = None) -> None:
        """A file of the matter changed: analyse its newest generation after `delay`."""
        state.generation += 1
        generation, root = state.generation, state.root
        buffers = self.buffers_of(root)
        settings, cwd, units = self.settings, self.cwd_of(root), self.units()

        def work(stale: Stale) -> Analysis:
            view = build_view(root, generation, buffers, units)
            if stale():
                raise Superseded
            return analyse(view, settings, cwd, stale)

        wait = self.settings.debounce if delay is None else delay
        self.scheduler.submit((root, LINT), generation, wait, self.lint_pool, work, self._analysed)

    def _analysed(self, analysis: Analysis) -> None:
        state = self.matters.get(analysis.view.root)
        if state is None or analysis.generation != state.generation:
            return
        state.analysis = analysis
        state.view = analysis.view
        self.publish(state)

    def audit_saved(self, state: MatterState) -> None:
        generation, root = state.generation, state.root
        buffers = self.buffers_of(root)
        settings, cwd, units = self.settings, self.cwd_of(root), self.units()

        def work(stale: Stale) -> Audit:
            return audit(build_view(root, generation, buffers, units), settings, cwd, stale)

        def done(result: Audit) -> None:
            if result.view.generation != state.generation:
                self.log(f"dropped the audit of {root} #{generation}: the matter changed since")
                return
            state.audit = result
            self.publish(state)

        self.scheduler.submit((root, AUDIT), generation, 0, self.audit_pool, work, done)

    def publish(self, state: MatterState) -> None:
        """Publish the newest analysis (and the audit where its files are unchanged)."""
        analysis = state.analysis
        if analysis is None:
            return
        view = analysis.view
        by_file: dict[Path, list[types.Diagnostic]] = {
            path: [lsp for _, lsp in shown] for path, shown in analysis.shown.items()
        }
        for path in view.buffers:  # an open file is always told where it stands, even clean
            by_file.setdefault(path, [])
        if analysis.config_error is not None:
            self._config_error(analysis, by_file)
        if state.audit is not None:
            for path, shown in state.audit.shown.items():
                if state.audit.stands(view, path):
                    by_file.setdefault(path, []).extend(lsp for _, lsp in shown)
        uris = set()
        for path, diagnostics in by_file.items():
            uri = path.as_uri()
            uris.add(uri)
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=view.version(path))
            )
        for uri in state.published - uris:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        state.published = uris

    def _config_error(self, analysis: Analysis, by_file: dict[Path, list[types.Diagnostic]]) -> None:
        error = analysis.config_error
        assert error is not None
        found = config_error_diagnostic(error)
        if found is not None:
            by_file.setdefault(found[0], []).append(found[1])
        if str(error) not in self.shown_errors:
            self.shown_errors.add(str(error))
            self.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Error, message=f"rubric: configuration error: {error}")
            )

    def clear(self, state: MatterState) -> None:
        for uri in state.published:
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        state.published = set()

    def relint_all(self) -> None:
        self.shown_errors.clear()
        for state in list(self.matters.values()):
            if self.settings.scope == "workspace" or self.buffers_of(state.root):
                self.changed(state, delay=0)

    def lint_workspace(self) -> None:
        """Every matter under the workspace folders (`rubric.diagnostics.scope: workspace`)."""

        def discover() -> list[Path]:
            from rubric_tools.lint.engine import discover_matters

            return discover_matters(self.folders)[0] if self.folders else []

        async def run() -> None:
            roots = await asyncio.get_running_loop().run_in_executor(self.query_pool, discover)
            for root in roots:
                self.changed(self.matters.setdefault(root, MatterState(root)), delay=0)

        asyncio.ensure_future(run())

    # ------------------------------------------------------------------ views for requests

    async def view_for(self, path: Path) -> View | None:
        """The matter's newest view: the last analysis's when nothing changed since, else a
        quick load of the buffers as they are now (off the event loop)."""
        state = self.matter_of(path)
        if state is None:
            return None
        if state.view is not None and state.view.generation == state.generation:
            return state.view
        generation, root = state.generation, state.root
        buffers, units = self.buffers_of(root), self.units()
        view = await asyncio.get_running_loop().run_in_executor(
            self.query_pool, lambda: _indexed(build_view(root, generation, buffers, units))
        )
        if state.view is None or view.generation >= state.view.generation:
            state.view = view
        return view

    def fresh_analysis(self, path: Path) -> Analysis | None:
        """The analysis of the matter's current generation (None while one is pending)."""
        state = self.matter_of(path)
        if state is None or state.analysis is None or state.analysis.generation != state.generation:
            return None
        return state.analysis

    def shown_in(self, path: Path, analysis: Analysis) -> list[Shown]:
        """What the client was shown for `path` by the analysis, and by the audit where it
        still stands (the file's text unchanged since)."""
        shown = list(analysis.shown.get(path, []))
        state = self.matters.get(analysis.view.root)
        if state is not None and state.audit is not None and state.audit.stands(analysis.view, path):
            shown += state.audit.shown.get(path, [])
        return shown

    def client_edits(self) -> actions.ClientEdits:
        workspace = self.client_capabilities.workspace
        edit = workspace.workspace_edit if workspace is not None else None
        return actions.ClientEdits(
            document_changes=bool(edit and edit.document_changes),
            snippets=bool(edit and edit.snippet_edit_support),
        )

    def takes_markdown(self, where: str) -> bool:
        """Whether the client renders Markdown in hovers (`hover`) or in completion items'
        documentation (`completion`); plain text otherwise (Markdown source reads well as it is)."""
        document = self.client_capabilities.text_document
        if where == "hover":
            hover = document.hover if document is not None else None
            formats = hover.content_format if hover is not None else None
        else:
            completion = document.completion if document is not None else None
            item = completion.completion_item if completion is not None else None
            formats = item.documentation_format if item is not None else None
        return types.MarkupKind.Markdown in (formats or ())

    def resolves_code_actions(self) -> bool:
        document = self.client_capabilities.text_document
        code_action = document.code_action if document is not None else None
        support = code_action.resolve_support if code_action is not None else None
        return support is not None and "edit" in support.properties


def _indexed(view: View) -> View:
    _ = view.index  # built off the event loop
    return view


def _belongs(path: Path, root: Path, state: MatterState) -> bool:
    if path.is_relative_to(root):
        return True
    view = state.view
    return view is not None and (path in view.trajectories or path in view.probes)
