"""`rubric lsp`: the language server, over stdio, built on pygls.

It keeps the open buffers, and per matter a generation counter bumped by every change of
one of its files. A change schedules the matter's analysis after a short quiet period
(`rubric.debounce`); a newer change cancels the analysis still waiting and makes the
running one stale (its result is never published). Analyses and audits run in their own
executor threads; the event loop only moves messages, so hovers, completions and
definitions are answered while a lint runs. See `rubric_tools.lsp` for the features.
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
from rubric_tools.lsp import actions, adapter, completion, hover, navigation, symbols
from rubric_tools.lsp.analysis import Analysis, Audit, analyse, audit, config_error_diagnostic
from rubric_tools.lsp.convert import documentation_url
from rubric_tools.lsp.scheduler import Scheduler, Stale, Superseded
from rubric_tools.lsp.settings import Settings, merged
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
        self.scheduler = Scheduler(self.log)
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

    def units(self) -> Any:
        return self.workspace.position_codec.client_num_units

    def cwd_of(self, root: Path) -> Path:
        """The workspace folder holding the matter (where the command line would run), else the matter."""
        holding = [folder for folder in self.folders if root.is_relative_to(folder)]
        return max(holding, key=lambda folder: len(folder.parts)) if holding else root

    def matter_of(self, path: Path) -> MatterState | None:
        known = next((state for root, state in self.matters.items() if _belongs(path, root, state)), None)
        if known is not None:
            return known
        root = adapter.matter_root_of(path)
        if root is None:
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
                current = view.text(path)
                if state.audit.valid_for(path, current.text if current is not None else None):
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

    def client_edits(self) -> actions.ClientEdits:
        workspace = self.client_capabilities.workspace
        edit = workspace.workspace_edit if workspace is not None else None
        return actions.ClientEdits(
            document_changes=bool(edit and edit.document_changes),
            snippets=bool(edit and edit.snippet_edit_support),
        )

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


# ---------------------------------------------------------------------- features


def create_server() -> RubricLanguageServer:
    server = RubricLanguageServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: RubricLanguageServer, params: types.InitializeParams) -> None:
        ls.settings = merged(ls.settings, params.initialization_options)
        folders = [folder.uri for folder in params.workspace_folders or []]
        if not folders and params.root_uri:
            folders = [params.root_uri]
        ls.folders = [path for uri in folders if (path := path_of(uri)) is not None]

    @server.feature(types.INITIALIZED)
    async def initialized(ls: RubricLanguageServer, params: types.InitializedParams) -> None:
        await _pull_configuration(ls)
        _watch_files(ls)
        if ls.settings.scope == "workspace":
            ls.lint_workspace()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def configuration_changed(ls: RubricLanguageServer, params: types.DidChangeConfigurationParams) -> None:
        ls.settings = merged(ls.settings, params.settings)
        await _pull_configuration(ls)
        ls.relint_all()
        if ls.settings.scope == "workspace":
            ls.lint_workspace()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    def folders_changed(ls: RubricLanguageServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        removed = {path_of(folder.uri) for folder in params.event.removed}
        ls.folders = [folder for folder in ls.folders if folder not in removed]
        ls.folders += [path for folder in params.event.added if (path := path_of(folder.uri)) is not None]
        if ls.settings.scope == "workspace":
            ls.lint_workspace()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RubricLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        document = params.text_document
        path = path_of(document.uri)
        if path is None:
            return
        ls.buffers[path] = Buffer(document.uri, path, document.version, document.text)
        state = ls.matter_of(path)
        if state is not None:
            ls.changed(state, delay=0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RubricLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is None or path not in ls.buffers:
            return
        document = ls.workspace.get_text_document(params.text_document.uri)
        ls.buffers[path] = Buffer(params.text_document.uri, path, params.text_document.version, document.source)
        state = ls.matter_of(path)
        if state is not None:
            ls.changed(state)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RubricLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is None:
            return
        if path.name in CONFIG_FILES:
            ls.relint_all()
            return
        state = ls.matter_of(path)
        if state is None:
            return
        ls.changed(state, delay=0)
        if ls.settings.audit_on_save:
            ls.audit_saved(state)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RubricLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is None or ls.buffers.pop(path, None) is None:
            return
        state = ls.matter_of(path)
        if state is None:
            return
        if ls.settings.scope == "open" and not ls.buffers_of(state.root):
            state.generation += 1  # whatever is still running for it is stale
            ls.clear(state)
            return
        ls.changed(state, delay=0)  # the disk's text replaces the buffer's

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def files_changed(ls: RubricLanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        touched: dict[Path, MatterState] = {}
        for change in params.changes:
            path = path_of(change.uri)
            if path is None or path in ls.buffers:
                continue  # an open file's buffer is what counts
            if path.name in CONFIG_FILES:
                ls.relint_all()
                return
            state = ls.matter_of(path)
            if state is not None and (ls.settings.scope == "workspace" or ls.buffers_of(state.root)):
                touched[state.root] = state
        for state in touched.values():
            ls.changed(state)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: RubricLanguageServer, params: types.HoverParams) -> types.Hover | None:
        found = await _target(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        view, target = found
        state = ls.matter_of(view.root)
        audit_findings = None
        if state is not None and state.audit is not None:
            current = view.text(target.file)
            if state.audit.valid_for(target.file, current.text if current is not None else None) or not any(
                d.file == target.file for d in state.audit.diagnostics
            ):
                audit_findings = state.audit.diagnostics
        url = documentation_url(target.text, ls.settings) if target.kind == "code" else None
        text = await _off_loop(ls, lambda: hover.hover(view, target, url, audit_findings))
        if not text:
            return None
        source = view.text(target.file)
        where = source.range(target.span) if source is not None else None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text), range=where)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def on_definition(ls: RubricLanguageServer, params: types.DefinitionParams) -> list[types.Location] | None:
        found = await _target(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        view, target = found
        return await _off_loop(ls, lambda: navigation.definition(view, target)) or None

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    async def on_references(ls: RubricLanguageServer, params: types.ReferenceParams) -> list[types.Location] | None:
        found = await _target(ls, params.text_document.uri, params.position)
        if found is None:
            return None
        view, target = found
        include = params.context.include_declaration
        return await _off_loop(ls, lambda: navigation.references(view, target, include)) or None

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=["§", "[", ",", '"', "'"], resolve_provider=False),
    )
    async def on_completion(ls: RubricLanguageServer, params: types.CompletionParams) -> types.CompletionList | None:
        path = path_of(params.text_document.uri)
        view = await ls.view_for(path) if path is not None else None
        if view is None or path is None:
            return None
        kind, text = view.kind(path), view.text(path)
        if kind is None or text is None:
            return None
        items = await _off_loop(ls, lambda: completion.complete(view, kind, text, params.position))
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def on_symbols(ls: RubricLanguageServer, params: types.DocumentSymbolParams) -> list[types.DocumentSymbol]:
        path = path_of(params.text_document.uri)
        view = await ls.view_for(path) if path is not None else None
        if view is None or path is None:
            return []
        kind = view.kind(path)
        return await _off_loop(ls, lambda: symbols.symbols(view, path, kind)) if kind is not None else []

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, actions.FIX_ALL], resolve_provider=True
        ),
    )
    async def on_code_action(ls: RubricLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
        return await _code_actions(ls, params)

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def on_resolve(ls: RubricLanguageServer, action: types.CodeAction) -> types.CodeAction:
        data = action.data if isinstance(action.data, dict) else {}
        path = path_of(str(data.get("fixAll", "")))
        analysis = ls.fresh_analysis(path) if path is not None else None
        if path is None or analysis is None or analysis.config is None:
            return action
        view, config = analysis.view, analysis.config
        text = await _off_loop(ls, lambda: adapter.fix_file(view.root, path, view.overlay, config), pool="lint")
        action.edit = actions.fix_all_edit(view, path, text, ls.client_edits())
        return action

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: RubricLanguageServer, params: None) -> None:
        ls.shut_down = True
        ls.scheduler.cancel_all()
        for pool in (ls.lint_pool, ls.audit_pool, ls.query_pool):
            pool.shutdown(wait=False, cancel_futures=True)

    return server


async def _off_loop(ls: RubricLanguageServer, work: Any, pool: str = "query") -> Any:
    executor = ls.lint_pool if pool == "lint" else ls.query_pool
    return await asyncio.get_running_loop().run_in_executor(executor, work)


async def _target(ls: RubricLanguageServer, uri: str, position: types.Position) -> tuple[View, Any] | None:
    path = path_of(uri)
    view = await ls.view_for(path) if path is not None else None
    if view is None or path is None:
        return None
    target = await _off_loop(ls, lambda: view.target(path, position))
    return (view, target) if target is not None else None


async def _code_actions(ls: RubricLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    path = path_of(params.text_document.uri)
    analysis = ls.fresh_analysis(path) if path is not None else None
    if path is None or analysis is None:
        return None  # not linted yet at this version: the client asks again with the new diagnostics
    view = analysis.view
    kind = view.kind(path)
    text = view.text(path)
    if kind is None or text is None:
        return None
    wanted = params.context.only
    first = text.offset_at(params.range.start)
    last = text.offset_at(params.range.end)
    shown = list(analysis.shown.get(path, []))
    state = ls.matter_of(path)
    if state is not None and state.audit is not None and state.audit.valid_for(path, text.text):
        shown += state.audit.shown.get(path, [])
    touching = [
        (item, lsp)
        for item, lsp in shown
        if not isinstance(item, tuple)
        and hasattr(item, "code")
        and text.offset_at(lsp.range.start) <= max(last, first)
        and text.offset_at(lsp.range.end) >= first
    ]
    client = ls.client_edits()
    result: list[types.CodeAction] = []
    if wanted is None or any(kind_.startswith(types.CodeActionKind.QuickFix) for kind_ in wanted):
        result += await _off_loop(ls, lambda: actions.quick_fixes(view, path, kind, touching, client))  # type: ignore[arg-type]
    fixable = any(getattr(item, "fix", None) is not None and item.fix.safe for item, _ in shown)  # type: ignore[union-attr]
    if fixable and (wanted is None or any(actions.FIX_ALL.startswith(kind_) for kind_ in wanted)):
        config = analysis.config
        if config is not None:
            lazy = ls.resolves_code_actions()

            def fixed() -> str | None:
                return adapter.fix_file(view.root, path, view.overlay, config)

            action = actions.fix_all_action(view, path, fixed, client, lazy=True)
            if not lazy:
                text_after = await _off_loop(ls, fixed, pool="lint")
                action.edit = actions.fix_all_edit(view, path, text_after, client)
            result.append(action)
    return result


async def _pull_configuration(ls: RubricLanguageServer) -> None:
    workspace = ls.client_capabilities.workspace
    if workspace is None or not workspace.configuration:
        return
    try:
        answers = await ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section="rubric")])
        )
    except Exception as exc:  # a client that says it can and then cannot
        ls.log(f"workspace/configuration failed: {exc}")
        return
    if answers:
        ls.settings = merged(ls.settings, answers[0])


def _watch_files(ls: RubricLanguageServer) -> None:
    workspace = ls.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace is not None else None
    if watched is None or not watched.dynamic_registration:
        return
    registration = types.Registration(
        id="rubric-watched-files",
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern=WATCHED)]
        ),
    )
    ls.client_register_capability(types.RegistrationParams(registrations=[registration]))


def serve() -> None:
    """Run the server on stdin/stdout until the client says exit."""
    create_server().start_io()
