"""Completion and document symbols over stdio, on buffers being typed (which rarely parse)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lsp.support import require_extra

require_extra()

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.editor import Editor, apply_edits

pytestmark = pytest.mark.asyncio


def matter(workspace: Path) -> Path:
    return workspace / "matters" / "ai_saas_001"


def labels(items: list[types.CompletionItem]) -> list[str]:
    return [item.label for item in items]


async def _typed(
    editor: Editor, path: Path, needle: str, typed: str
) -> tuple[list[types.CompletionItem], types.Position]:
    """Type `typed` right after `needle` (unsaved), then ask for completions at the cursor."""
    at = editor.position(path, needle, len(needle))
    editor.type_at(path, at, typed)
    lines = typed.split("\n")
    last = len(lines[-1].encode("utf-16-le")) // 2
    cursor = types.Position(line=at.line + len(lines) - 1, character=last + (at.character if len(lines) == 1 else 0))
    return await editor.complete(path, cursor), cursor


async def test_section_tokens_complete_a_citation(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = matter(workspace) / "rubric.yaml"
    editor.open(rubric, rubric.read_text(encoding="utf-8").replace('anchor: "msa §4.2"', 'anchor: "msa §4"'))
    at = editor.position(rubric, 'anchor: "msa §4', len('anchor: "msa §4'))
    items = await editor.complete(rubric, at)
    assert labels(items)[:3] == ["msa §4.1", "msa §4.2", "msa §4.3"]
    chosen = next(item for item in items if item.label == "msa §4.2")
    assert chosen.detail == "## 4.2 Use of Customer Data"
    assert (
        isinstance(chosen.documentation, types.MarkupContent)
        and "Customer grants Provider" in chosen.documentation.value
    )
    assert isinstance(chosen.text_edit, types.TextEdit)
    line = editor.texts[rubric].splitlines()[at.line]
    assert (
        apply_edits(
            line,
            [
                types.TextEdit(
                    range=types.Range(
                        start=types.Position(0, chosen.text_edit.range.start.character),
                        end=types.Position(0, chosen.text_edit.range.end.character),
                    ),
                    new_text=chosen.text_edit.new_text,
                )
            ],
        )
        == '    anchor: "msa §4.2"'
    )


async def test_citations_complete_in_required_citations_and_trajectories(
    client: LanguageClient, workspace: Path
) -> None:
    editor = Editor(client)
    rubric = matter(workspace) / "rubric.yaml"
    editor.open(rubric)
    items, _ = await _typed(editor, rubric, 'required_citations: ["msa §4.2", ', '"play')
    assert set(labels(items)) >= {"playbook §3", "playbook §4", "playbook §5"}
    assert all(label.startswith("playbook §") for label in labels(items))

    trajectory = matter(workspace) / "trajectories" / "reference.jsonl"
    editor.open(trajectory, '{"type": "submit_issue", "citations": ["dpa §\n', language="jsonl")
    items = await editor.complete(
        trajectory, types.Position(line=0, character=len('{"type": "submit_issue", "citations": ["dpa §'))
    )
    assert items and all(label.startswith("dpa §") for label in labels(items))


async def test_schema_keys_complete_with_their_descriptions(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = matter(workspace) / "rubric.yaml"
    editor.open(rubric)
    items, _ = await _typed(editor, rubric, '    anchor: "msa §4.2"\n', "    sev")
    severity = next(item for item in items if item.label == "severity")
    assert severity.kind == types.CompletionItemKind.Property
    assert isinstance(severity.documentation, types.MarkupContent)
    assert "exact equality" in severity.documentation.value
    assert isinstance(severity.text_edit, types.TextEdit) and severity.text_edit.new_text == "severity: "

    items, _ = await _typed(
        editor,
        rubric,
        "      - pattern: '\\b4\\.2 (?:is|would be) (?:void|invalid|illegal|unenforceable)\\b'\n",
        "        neg",
    )
    assert {"negation_guard", "negation_scope"} <= set(labels(items))

    items, _ = await _typed(editor, rubric, "    severity: high", "\n    non_negotiable: t")
    assert labels(items) == ["true"]


async def test_ids_complete_where_ids_are_written(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = matter(workspace) / "rubric.yaml"
    editor.open(rubric)
    items, _ = await _typed(editor, rubric, "required_issue_ids: [data_training, incident_notice, liability_cap", ", ")
    assert labels(items) == ["data_training", "incident_notice", "liability_cap"]

    counterparty = matter(workspace) / "counterparty.yaml"
    editor.open(counterparty)
    items, _ = await _typed(editor, counterparty, "positions:\n", "  data")
    assert labels(items) == ["data_training"]

    hidden = matter(workspace) / "hidden_facts.yaml"
    editor.open(hidden)
    items, _ = await _typed(editor, hidden, "escalation_answers:\n", "  esc_")
    assert labels(items) == ["esc_pilot_exposure", "esc_cap_authority"]

    probes = matter(workspace) / "probes.yaml"
    editor.open(probes)
    items, _ = await _typed(editor, probes, "probes:\n", "  - surface: issue\n    criterion: ")
    assert labels(items) == ["data_training", "incident_notice", "liability_cap"]


async def test_rule_codes_complete_inside_a_suppression(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = matter(workspace) / "rubric.yaml"
    editor.open(rubric)
    items, _ = await _typed(editor, rubric, 'anchor: "msa §5.1"', "  # rubric: ignore[A00")
    assert labels(items) == ["A001", "A002", "A003", "A004", "A005", "A006", "A007", "A008"]
    assert items[1].detail is not None and items[1].detail.startswith("unresolved-citation (error)")
    items, _ = await _typed(editor, rubric, "ignore[A00", "2, U0")
    assert "U003" in labels(items)

    msa = matter(workspace) / "documents" / "msa.md"
    editor.open(msa, language="markdown")
    items, _ = await _typed(editor, msa, "## 3 Fees and Payment\n", "<!-- rubric: ignore[D00")
    assert "D006" in labels(items)


async def test_document_symbols_outline_a_rubric_and_a_document(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = matter(workspace) / "rubric.yaml"
    text = editor.open(rubric)
    outline = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=rubric.as_uri()))
    )
    assert outline is not None
    top = {symbol.name: symbol for symbol in outline if isinstance(symbol, types.DocumentSymbol)}
    assert list(top) == ["questions", "escalations", "issues", "final_submission"]
    issues = top["issues"].children or []
    assert [issue.name for issue in issues] == ["data_training", "incident_notice", "liability_cap"]
    assert issues[0].kind == types.SymbolKind.Class and issues[0].detail == "msa §4.2"
    gates = [gate.name for gate in issues[0].children or []]
    assert gates[:2] == ["critical_failure_patterns[0]", "critical_failure_patterns[1]"]
    assert "redline_critical_failure_patterns[2]" in gates
    assert [q.name for q in top["questions"].children or []] == [
        "q_launch_deadline",
        "q_pilot_data",
        "q_regulatory_notice",
    ]
    assert issues[1].selection_range.start.line == text.splitlines().index("  - id: incident_notice")

    msa = matter(workspace) / "documents" / "msa.md"
    editor.open(msa, language="markdown")
    sections = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=msa.as_uri()))
    )
    names = [s.name for s in sections or [] if isinstance(s, types.DocumentSymbol)]
    assert names[:5] == ["§1", "§2", "§3", "§4.1", "§4.2"]
