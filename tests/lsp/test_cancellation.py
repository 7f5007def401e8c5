"""Nothing blocks the editor and nothing stale is published: a change cancels the lint
still waiting out its debounce, supersedes the one running (its result is dropped), and
requests are answered while a lint runs. These tests assert the order of events, never
how long anything took."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.lsp.support import require_extra

require_extra()

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import initialize_params
from tests.lsp.editor import Editor
from tests.lsp.support import eventually

pytestmark = pytest.mark.asyncio

BROKEN = ('anchor: "msa §4.2"', 'anchor: "msa §4.2."')


def _logged(client: LanguageClient, what: str, generation: int) -> list[str]:
    """The server's log lines saying `what` of the matter's lint number `generation` (with
    one file open, a generation is the buffer's version)."""
    return [
        m.message
        for m in client.log_messages
        if what in m.message and (m.message.endswith(f" #{generation}") or f" #{generation} " in m.message)
    ]


def _slow(workspace: Path, copies: int = 150) -> None:
    """Many trajectories: the matter's checks replay every one, so its lint takes a while."""
    folder = workspace / "matters" / "ai_saas_001" / "trajectories"
    for number in range(copies):
        shutil.copy(folder / "reference.jsonl", folder / f"extra_{number:03}.jsonl")


async def _opened_slow_matter(client: LanguageClient, workspace: Path) -> tuple[Editor, Path, str]:
    """A server without debounce on a matter slow to check, its rubric open and linted once."""
    _slow(workspace)
    await client.initialize_session(initialize_params([workspace], {"rubric": {"debounce": 0}}))
    editor = Editor(client)
    rubric = workspace / "matters" / "ai_saas_001" / "rubric.yaml"
    text = editor.open(rubric)
    await editor.diagnostics(rubric, version=1)
    return editor, rubric, text


async def test_typing_within_the_debounce_lints_only_the_last_version(
    bare_client: LanguageClient, workspace: Path
) -> None:
    client = bare_client
    await client.initialize_session(initialize_params([workspace], {"rubric": {"debounce": 400}}))
    editor = Editor(client)
    rubric = workspace / "matters" / "ai_saas_001" / "rubric.yaml"
    text = editor.open(rubric)
    await editor.diagnostics(rubric, version=1)
    versions = [editor.change(rubric, text.replace(*BROKEN) if n % 2 == 0 else text) for n in range(5)]
    final = await editor.diagnostics(rubric, version=versions[-1])
    assert any(d.code == "A002" for d in final)  # the fifth change broke the anchor
    published = [p.version for p in editor.published if p.uri == rubric.as_uri()]
    assert published == [1, versions[-1]], "the intermediate versions were never linted"
    for version in versions[:-1]:
        assert _logged(client, "before it started", version), f"version {version} was cancelled while waiting"


async def test_a_newer_change_supersedes_a_running_lint_whose_result_is_dropped(
    bare_client: LanguageClient, workspace: Path
) -> None:
    client = bare_client
    editor, rubric, text = await _opened_slow_matter(client, workspace)
    broken = editor.change(rubric, text.replace(*BROKEN))
    await eventually(lambda: _logged(client, "started lint", broken), what="the lint of the broken text")
    sent = len(editor.published)
    clean = editor.change(rubric, text)
    final = await editor.diagnostics(rubric, version=clean)
    assert not any(d.code == "A002" for d in final)
    assert not [p for p in editor.published[sent:] if p.uri == rubric.as_uri() and p.version == broken]
    assert not [p for p in editor.published if p.version == broken], "the superseded lint published nothing"
    assert _logged(client, "superseded", broken)


async def test_requests_are_answered_while_a_lint_runs(bare_client: LanguageClient, workspace: Path) -> None:
    client = bare_client
    editor, rubric, text = await _opened_slow_matter(client, workspace)
    version = editor.change(rubric, text + "\n")
    await eventually(lambda: _logged(client, "started lint", version), what="the lint to start")
    hover = await editor.hover(rubric, '"msa §4.2"', 2)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=rubric.as_uri()))
    )
    answered = len(editor.published)
    assert "Use of Customer Data" in hover and symbols
    await editor.diagnostics(rubric, version=version)
    assert not [p for p in editor.published[:answered] if p.uri == rubric.as_uri() and p.version == version], (
        "the hover and the outline were answered before the running lint finished"
    )
