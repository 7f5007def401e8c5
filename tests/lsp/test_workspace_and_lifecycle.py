"""Workspace folders holding many matters, each under its own configuration; start-up,
configuration from the client, file watching, clean shutdown and exit."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from tests.lsp.support import require_extra

require_extra()

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import SERVER, initialize_params
from tests.lsp.editor import Editor
from tests.lsp.support import AUDIT_TIMEOUT, copy_matters, eventually

pytestmark = pytest.mark.asyncio

BROKEN = ('anchor: "msa §4.2"', 'anchor: "msa §4.2."')


def _break(folder: Path) -> Path:
    rubric = folder / "matters" / "ai_saas_001" / "rubric.yaml"
    rubric.write_text(rubric.read_text(encoding="utf-8").replace(*BROKEN), encoding="utf-8")
    return rubric


async def test_every_matter_of_every_folder_is_linted_under_its_own_configuration(
    tmp_path: Path, bare_client: LanguageClient
) -> None:
    first = copy_matters(tmp_path / "first")
    second = copy_matters(tmp_path / "second", settings='ignore = ["A004"]\n')
    broken = [_break(first), _break(second)]
    clean = second / "matters" / "clean_saas_002" / "matter.yaml"
    client = bare_client
    await client.initialize_session(
        initialize_params([first, second], {"rubric": {"debounce": 50, "diagnostics": {"scope": "workspace"}}})
    )
    editor = Editor(client)
    first_found = await editor.diagnostics(broken[0], lambda d: any(x.code == "A002" for x in d))
    second_found = await editor.diagnostics(broken[1], lambda d: any(x.code == "A002" for x in d))
    assert any(d.code == "A004" for d in first_found)
    assert not any(d.code == "A004" for d in second_found), "the second folder's pyproject.toml ignores A004"
    assert clean.as_uri() not in {p.uri for p in editor.published if p.diagnostics}  # a clean matter: nothing to show
    assert any(r.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES for r in client.registrations)  # type: ignore[attr-defined]

    # A change on disk (a checkout) is picked up through the watched files.
    broken[0].write_text(broken[0].read_text(encoding="utf-8").replace(BROKEN[1], BROKEN[0]), encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=broken[0].as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    await editor.diagnostics(broken[0], lambda d: not any(x.code == "A002" for x in d))


async def test_only_matters_with_an_open_file_are_linted_by_default(
    tmp_path: Path, bare_client: LanguageClient
) -> None:
    first, second = copy_matters(tmp_path / "first"), copy_matters(tmp_path / "second")
    broken = [_break(first), _break(second)]
    client = bare_client
    await client.initialize_session(initialize_params([first, second]))
    editor = Editor(client)
    editor.open(broken[1])
    await editor.diagnostics(broken[1], lambda d: any(x.code == "A002" for x in d))
    assert broken[0].as_uri() not in {p.uri for p in editor.published}
    editor.close(broken[1])
    await editor.diagnostics(broken[1], lambda d: not d)  # closed: its matter's findings are withdrawn


async def test_settings_come_from_the_clients_configuration(bare_client: LanguageClient, workspace: Path) -> None:
    client = bare_client
    client.set_configuration({"audit": {"onSave": False}}, section="rubric")
    await client.initialize_session(initialize_params([workspace], {"rubric": {"debounce": 50}}))
    editor = Editor(client)
    rubric = _break(workspace)
    editor.open(rubric)
    await editor.diagnostics(rubric, version=1)
    client.set_configuration({"audit": {"onSave": True}}, section="rubric")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
    await eventually(lambda: len([p for p in editor.published if p.uri == rubric.as_uri()]) >= 2, what="a re-lint")
    editor.save(rubric)
    await editor.diagnostics(rubric, lambda d: any(x.source == "rubric audit" for x in d), timeout=AUDIT_TIMEOUT)


async def test_shutdown_then_exit_ends_the_server_cleanly(workspace: Path) -> None:
    """The protocol's end: `shutdown` answered, `exit` ends the process with 0 (1 without shutdown)."""
    for shut_down, expected in ((True, 0), (False, 1)):
        server = await asyncio.create_subprocess_exec(
            *SERVER, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
        )
        assert server.stdin is not None and server.stdout is not None
        messages = [
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {"processId": None, "rootUri": workspace.as_uri(), "capabilities": {}},
            },
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        ]
        if shut_down:
            messages.append({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        messages.append({"jsonrpc": "2.0", "method": "exit"})
        import json

        for message in messages:
            body = json.dumps(message).encode("utf-8")
            server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        await server.stdin.drain()
        code = await asyncio.wait_for(server.wait(), 30)
        output = await server.stdout.read()
        stderr = (await server.stderr.read()).decode() if server.stderr else ""
        assert code == expected, stderr
        assert b'"id":1' in output.replace(b" ", b"") and (b'"id":2' in output.replace(b" ", b"")) == shut_down
        assert "Traceback" not in stderr


async def test_help_says_how_to_wire_an_editor() -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "rubric_tools", "lsp", "--help", stdout=asyncio.subprocess.PIPE
    )
    out, _ = await process.communicate()
    text = out.decode()
    assert process.returncode == 0
    for editor in ("VS Code", "Neovim", "Helix"):
        assert editor in text
    assert 'cmd = { "rubric", "lsp" }' in text and "[language-server.rubric]" in text
