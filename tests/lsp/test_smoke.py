from __future__ import annotations

from pathlib import Path

import pytest

from tests.lsp.support import require_extra

require_extra()

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.support import eventually


@pytest.mark.asyncio
async def test_open_gets_diagnostics(client: LanguageClient, workspace: Path) -> None:
    rubric = workspace / "matters" / "ai_saas_001" / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8").replace('anchor: "msa §4.2"', 'anchor: "msa §4.9"')
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=rubric.as_uri(), language_id="yaml", version=1, text=text)
        )
    )
    found = await eventually(lambda: client.diagnostics.get(rubric.as_uri()), what="diagnostics")
    print(found)
    print(client.log_messages)
    assert any(d.code == "A002" for d in found)
