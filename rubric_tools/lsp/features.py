"""The protocol's handlers: what `rubric lsp` does with each message of the client.

They run on the event loop and only move data: a change bumps its matter's generation
and schedules an analysis (`RubricLanguageServer.changed`); requests read the matter's
newest view, and anything that takes time (a quick load, a hover's text, completions,
a fix-all) runs in an executor thread.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types

from rubric_tools.diagnostics import Diagnostic
from rubric_tools.lsp import actions, adapter, completion, hover, navigation, symbols
from rubric_tools.lsp.convert import documentation_url
from rubric_tools.lsp.locate import Target
from rubric_tools.lsp.positions import TextIndex
from rubric_tools.lsp.server import CONFIG_FILES, WATCHED, MatterState, RubricLanguageServer, path_of
from rubric_tools.lsp.settings import merged
from rubric_tools.lsp.views import Buffer, View


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
        ls.outside.discard(path)  # it may have been moved into a matter
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
        ls.outside.clear()  # a matter.yaml may have appeared
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
        audited = state is not None and state.audit is not None and state.audit.stands(view, target.file)
        audit_findings = state.audit.diagnostics if audited and state is not None and state.audit else None
        url = documentation_url(target.text, ls.settings) if target.kind == "code" else None
        text = await _off_loop(ls, lambda: hover.hover(view, target, url, audit_findings))
        if not text:
            return None
        source = view.text(target.file)
        where = source.range(target.span) if source is not None else None
        kind = types.MarkupKind.Markdown if ls.takes_markdown("hover") else types.MarkupKind.PlainText
        return types.Hover(contents=types.MarkupContent(kind=kind, value=text), range=where)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def on_definition(ls: RubricLanguageServer, params: types.DefinitionParams) -> list[types.Location] | None:
        return await _locations(ls, params, navigation.definition)

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    async def on_references(ls: RubricLanguageServer, params: types.ReferenceParams) -> list[types.Location] | None:
        include = params.context.include_declaration
        return await _locations(ls, params, lambda view, target: navigation.references(view, target, include))

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
        if not ls.takes_markdown("completion"):
            for item in items:
                if isinstance(item.documentation, types.MarkupContent):
                    item.documentation = item.documentation.value
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


async def _locations(
    ls: RubricLanguageServer,
    params: types.DefinitionParams | types.ReferenceParams,
    find: Callable[[View, Target], list[types.Location]],
) -> list[types.Location] | None:
    """Where `find` leads from what is at the request's position (None: nowhere)."""
    found = await _target(ls, params.text_document.uri, params.position)
    if found is None:
        return None
    view, target = found
    return await _off_loop(ls, lambda: find(view, target)) or None


async def _target(ls: RubricLanguageServer, uri: str, position: types.Position) -> tuple[View, Target] | None:
    path = path_of(uri)
    view = await ls.view_for(path) if path is not None else None
    if view is None or path is None:
        return None
    target = await _off_loop(ls, lambda: view.target(path, position))
    return (view, target) if target is not None else None


def _wants(only: Sequence[str] | None, kind: str) -> bool:
    """Whether a code action of `kind` is asked for (`only`: the kinds, or their parents)."""
    return only is None or any(kind == wanted or kind.startswith(f"{wanted}.") for wanted in only)


def _touches(text: TextIndex, shown: types.Range, asked: types.Range) -> bool:
    start, end = text.offset_at(asked.start), text.offset_at(asked.end)
    return text.offset_at(shown.start) <= end and text.offset_at(shown.end) >= start


async def _code_actions(ls: RubricLanguageServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    path = path_of(params.text_document.uri)
    analysis = ls.fresh_analysis(path) if path is not None else None
    if path is None or analysis is None:
        return None  # not linted at this version yet: the client asks again with the new diagnostics
    view = analysis.view
    kind, text = view.kind(path), view.text(path)
    if kind is None or text is None:
        return None
    shown = ls.shown_in(path, analysis)
    findings = [
        (item, lsp) for item, lsp in shown if isinstance(item, Diagnostic) and _touches(text, lsp.range, params.range)
    ]
    only, client = params.context.only, ls.client_edits()
    result: list[types.CodeAction] = []
    if _wants(only, types.CodeActionKind.QuickFix):
        result += await _off_loop(ls, lambda: actions.quick_fixes(view, path, kind, findings, client))
    config = analysis.config
    safe = any(isinstance(item, Diagnostic) and item.fix is not None and item.fix.safe for item, _ in shown)
    if config is not None and safe and _wants(only, actions.FIX_ALL):
        action = actions.fix_all_action(path)
        if not ls.resolves_code_actions():  # the edit now; otherwise on codeAction/resolve
            fixed = await _off_loop(ls, lambda: adapter.fix_file(view.root, path, view.overlay, config), pool="lint")
            action.edit = actions.fix_all_edit(view, path, fixed, client)
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
