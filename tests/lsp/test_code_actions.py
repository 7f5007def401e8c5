"""Code actions over stdio: lint and audit fixes as quick fixes (safe ones preferred,
unsafe ones saying why), an inline suppression with a reason, fix all safe fixes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lsp.support import require_extra

require_extra()

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.editor import Editor
from tests.lsp.support import AUDIT_TIMEOUT, MATTERS

pytestmark = pytest.mark.asyncio

BROKEN = ('anchor: "msa §4.2"', 'anchor: "msa §4.2."')
#: A suppression of a rule that finds nothing on its node: X103, whose fix (removing it) is safe.
UNUSED = "  # rubric: ignore[A006] -- the anchor is an operative section"


def rubric_of(workspace: Path) -> Path:
    return workspace / "matters" / "ai_saas_001" / "rubric.yaml"


async def test_the_broken_anchor_has_a_quick_fix_that_restores_it(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = rubric_of(workspace)
    original = rubric.read_text(encoding="utf-8")
    editor.open(rubric, original.replace(*BROKEN))
    found = await editor.diagnostics(rubric, lambda d: any(x.code == "A002" for x in d))
    a002 = next(d for d in found if d.code == "A002")
    offered = await editor.code_actions(rubric, a002.range, [a002])
    fix = next(action for action in offered if action.title.startswith("Fix A002"))
    assert fix.kind == types.CodeActionKind.QuickFix and list(fix.diagnostics or ()) == [a002]
    # The trajectories cite msa §4.2: restoring the anchor moves their scores, which the
    # replay proof finds, so the fix is unsafe and says why.
    assert not fix.is_preferred
    assert "'msa §4.2'" in fix.title and "unsafe: applying it changes the score of" in fix.title
    restored = editor.apply(rubric, fix.edit)
    assert restored == original
    version = editor.change(rubric, restored)
    assert not any(d.code == "A002" for d in await editor.diagnostics(rubric, version=version))


async def test_a_safe_fix_is_preferred(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = rubric_of(workspace)
    original = rubric.read_text(encoding="utf-8")
    text = editor.open(rubric, original.replace('anchor: "msa §5.1"', 'anchor: "msa §5.1"' + UNUSED))
    found = await editor.diagnostics(rubric, lambda d: any(x.code == "X103" for x in d))
    x103 = next(d for d in found if d.code == "X103")
    offered = await editor.code_actions(rubric, x103.range, [x103])
    fix = next(action for action in offered if action.title.startswith("Fix X103"))
    assert fix.is_preferred and "unsafe" not in fix.title
    assert editor.apply(rubric, fix.edit) == original
    assert text != original


async def test_a_finding_can_be_suppressed_with_a_reason(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = rubric_of(workspace)
    text = editor.open(rubric, rubric.read_text(encoding="utf-8").replace(*BROKEN))
    found = await editor.diagnostics(rubric, lambda d: any(x.code == "A004" for x in d))
    a004 = next(d for d in found if d.code == "A004")
    offered = await editor.code_actions(rubric, a004.range, [a004])
    suppress = next(action for action in offered if action.title.startswith("Suppress A004"))
    after = editor.apply(rubric, suppress.edit)
    inserted = [line for line in after.splitlines() if "rubric: ignore[A004]" in line]
    assert len(inserted) == 1 and inserted[0].lstrip().startswith("# rubric: ignore[A004] -- ")
    reason = inserted[0].split(" -- ", 1)[1]
    assert reason.strip(), "the comment carries a reason to be written over"
    target = after.splitlines()[after.splitlines().index(inserted[0]) + 1]
    assert target.strip().startswith("required_citations:")
    assert len(inserted[0]) - len(inserted[0].lstrip()) == len(target) - len(target.lstrip())
    assert after.replace(inserted[0] + "\n", "") == text
    version = editor.change(rubric, after)
    remaining = await editor.diagnostics(rubric, version=version)
    assert not {"A004", "X101", "X103"} & {str(d.code) for d in remaining}
    assert any(d.code == "A002" for d in remaining)


async def test_fix_all_safe_fixes_in_this_file_leaves_the_unsafe_ones(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = rubric_of(workspace)
    original = rubric.read_text(encoding="utf-8")
    seeded = (
        original.replace(*BROKEN)
        .replace('anchor: "msa §5.1"', 'anchor: "msa §5.1"' + UNUSED)
        .replace('anchor: "msa §10.2"', 'anchor: "msa §10.2"' + UNUSED)
    )
    editor.open(rubric, seeded)
    await editor.diagnostics(rubric, lambda d: sum(x.code == "X103" for x in d) == 2)
    whole = types.Range(start=types.Position(0, 0), end=types.Position(0, 0))
    offered = await editor.code_actions(rubric, whole, only=[types.CodeActionKind.SourceFixAll])
    assert [action.kind for action in offered] == ["source.fixAll.rubric"]
    action = offered[0]
    if action.edit is None:  # VS Code resolves code actions' edits lazily
        action = await client.code_action_resolve_async(action)
    fixed = editor.apply(rubric, action.edit)
    assert fixed == original.replace(*BROKEN), "both unused suppressions removed, the unsafe anchor fix not applied"


async def test_an_audit_fix_is_a_quick_fix_after_save(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = rubric_of(workspace)
    text = editor.open(rubric)
    editor.save(rubric)
    # The audit on save makes its guard proposals (about 25 s of CPU for this matter on the
    # 2-core CI machine, more beside another test's server): a hang guard, not a speed test.
    found = await editor.diagnostics(
        rubric, lambda d: any(x.source == "rubric audit" for x in d), timeout=AUDIT_TIMEOUT
    )
    audited = [d for d in found if d.source == "rubric audit"]
    fixes = []
    for diagnostic in audited:
        offered = await editor.code_actions(rubric, diagnostic.range, [diagnostic])
        fixes += [a for a in offered if a.title.startswith(f"Fix {diagnostic.code}")]
    assert fixes, "a verified guard proposal is offered"
    assert all(not fix.is_preferred and "(unsafe: " in fix.title for fix in fixes)
    changed = editor.apply(rubric, fixes[0].edit)
    assert changed != text and (MATTERS / "ai_saas_001" / "rubric.yaml").read_text(encoding="utf-8") == text
