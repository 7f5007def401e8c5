"""The issue's acceptance path, as three real editors' clients announce themselves
(pytest-lsp's recorded capabilities): VS Code (UTF-16 positions, document changes,
code actions resolved lazily), Neovim 0.11 (UTF-8 positions, plain `changes`) and
Emacs 29 (UTF-32 positions, no lazy resolution). A bundled rubric with a broken anchor:
A002 at the anchor's range, a quick fix that restores it, the cited section's text on
hover, its heading as definition, section tokens completed."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lsp.support import require_extra

require_extra()

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import initialize_params
from tests.lsp.editor import Editor, range_of

pytestmark = pytest.mark.asyncio

BROKEN = ('anchor: "msa §4.2"', 'anchor: "msa §4.2."')
CLIENTS = ("visual-studio-code", "neovim", "emacs")


@pytest.mark.parametrize("spec", CLIENTS)
async def test_a_broken_anchor_in_a_bundled_rubric(spec: str, bare_client: LanguageClient, workspace: Path) -> None:
    client = bare_client
    result = await client.initialize_session(initialize_params([workspace], client=spec))
    encoding = str(result.capabilities.position_encoding or "utf-16")
    editor = Editor(client, encoding)
    rubric = workspace / "matters" / "ai_saas_001" / "rubric.yaml"
    msa = workspace / "matters" / "ai_saas_001" / "documents" / "msa.md"
    original = rubric.read_text(encoding="utf-8")
    # A comment with characters outside ASCII and the BMP on the anchor's line: every
    # column after it differs between UTF-8, UTF-16 and UTF-32.
    broken = original.replace(*BROKEN).replace('"msa §4.2."', '"msa §4.2."  # §§ 😀 the clause', 1)
    editor.open(rubric, broken)

    found = await editor.diagnostics(rubric, lambda d: any(x.code == "A002" for x in d))
    a002 = next(d for d in found if d.code == "A002")
    assert a002.range == range_of(broken, '"msa §4.2."', encoding=encoding)

    offered = await editor.code_actions(rubric, a002.range, [a002])
    fix = next(action for action in offered if action.title.startswith("Fix A002"))
    assert editor.apply(rubric, fix.edit) == broken.replace('"msa §4.2."', '"msa §4.2"')

    # The broken anchor cites msa §4.2 as it meant to: its text, and its heading as definition.
    hover = await editor.hover(rubric, '"msa §4.2."', 5)
    assert "does not resolve" in hover and "Did you mean **msa §4.2**?" in hover
    assert "## 4.2 Use of Customer Data" in hover and "> Customer grants Provider a non-exclusive" in hover
    [location] = await editor.definition(rubric, '"msa §4.2."', 6)
    heading = msa.read_text(encoding="utf-8").splitlines()[location.range.start.line]
    assert location.uri == msa.as_uri() and heading == "## 4.2 Use of Customer Data"
    hover = await editor.hover(rubric, '"playbook §3"', 11)
    assert "**playbook §3**" in hover

    cursor = editor.position(rubric, '"msa §4.2."', len('"msa §4'))
    editor.change(rubric, editor.texts[rubric].replace('"msa §4.2."', '"msa §4"', 1))
    items = await editor.complete(rubric, cursor)
    assert [item.label for item in items][:3] == ["msa §4.1", "msa §4.2", "msa §4.3"]

    whole = types.Range(start=types.Position(0, 0), end=types.Position(0, 0))
    editor.change(rubric, original.replace('anchor: "msa §5.1"', 'anchor: "msa §5.1"  # rubric: ignore[A006] -- ok'))
    await editor.diagnostics(rubric, lambda d: any(x.code == "X103" for x in d), version=editor.versions[rubric])
    [fix_all] = await editor.code_actions(rubric, whole, only=[types.CodeActionKind.SourceFixAll])
    if fix_all.edit is None:
        fix_all = await client.code_action_resolve_async(fix_all)
    assert editor.apply(rubric, fix_all.edit) == original
