"""Hover, go to definition and references over stdio."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lsp.support import require_extra

require_extra()

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.editor import Editor, position_of
from tests.lsp.support import AUDIT_TIMEOUT

pytestmark = pytest.mark.asyncio

BROKEN = ('anchor: "msa §4.2"', 'anchor: "msa §4.2."')


def files(workspace: Path) -> dict[str, Path]:
    root = workspace / "matters" / "ai_saas_001"
    names = ("rubric.yaml", "counterparty.yaml", "hidden_facts.yaml", "expectations.yaml", "probes.yaml")
    found = {name: root / name for name in names}
    found["msa.md"] = root / "documents" / "msa.md"
    return found


def line_of(path: Path, needle: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()) if needle in line)


# ------------------------------------------------------------------ hover


async def test_hover_on_a_rule_code_shows_its_documentation(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = files(workspace)["rubric.yaml"]
    editor.open(
        rubric,
        rubric.read_text(encoding="utf-8").replace(
            'anchor: "msa §5.1"', 'anchor: "msa §5.1"  # rubric: ignore[A006] -- ok'
        ),
    )
    text = await editor.hover(rubric, "A006]", 1)
    assert text.startswith("**A006** `anchor-on-preamble`")
    assert "An anchor points at `§full`" in text and "AUTHORING.md" in text


async def test_hover_on_an_anchor_shows_the_cited_sections_text(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = files(workspace)["rubric.yaml"]
    editor.open(rubric)
    text = await editor.hover(rubric, '"msa §4.2"', 3)
    assert "**msa §4.2**" in text and "## 4.2 Use of Customer Data" in text
    assert "> Customer grants Provider a non-exclusive, worldwide, royalty-free, perpetual and irrevocable" in text
    citation = await editor.hover(rubric, '"playbook §3"', 3)
    assert "**playbook §3**" in citation


async def test_hover_on_a_broken_anchor_says_why_it_does_not_resolve(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = files(workspace)["rubric.yaml"]
    editor.open(rubric, rubric.read_text(encoding="utf-8").replace('anchor: "msa §4.2"', 'anchor: "msa §4.9"'))
    text = await editor.hover(rubric, '"msa §4.9"', 3)
    assert "does not resolve" in text and "§4.2" in text


async def test_hover_on_an_id_shows_its_points_and_where_it_is_used(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    found = files(workspace)
    rubric = found["rubric.yaml"]
    editor.open(rubric)
    text = await editor.hover(rubric, "liability_cap]", 2)  # in final_submission.required_issue_ids
    assert text.startswith("**issue `liability_cap`** — anchor `msa §10.2`, severity `critical`, non-negotiable")
    assert (
        "| base_points | 1 |" in text and "| settlement_points | 1.5 |" in text and "| **total** | **5.75** |" in text
    )
    assert (
        f"counterparty.yaml:{line_of(found['counterparty.yaml'], 'liability_cap:') + 1} — counterparty position" in text
    )
    assert "probes.yaml:" in text and "final_submission.required_issue_ids" in text

    hidden = found["hidden_facts.yaml"]
    editor.open(hidden)
    question = await editor.hover(hidden, "q_pilot_data", 2)
    assert question.startswith("**question `q_pilot_data`** — 4 variants") and "| points | 0.5 |" in question
    escalation = await editor.hover(rubric, "esc_pilot_exposure", 2)
    assert "critical_if_missed" in escalation and "hidden_facts.yaml" in escalation


async def test_hover_on_a_gate_shows_what_the_audit_knows(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = files(workspace)["rubric.yaml"]
    editor.open(rubric)
    needle = "unenforceable as a matter of law"
    before = await editor.hover(rubric, needle, 3)
    assert before.startswith("**gate** `critical_failure_patterns[0]` of issue `liability_cap` (issue surface)")
    assert "not run on this text yet" in before
    assert "**Probes** of the issue gates of `liability_cap`" in before
    editor.save(rubric)
    await editor.diagnostics(rubric, lambda d: any(x.source == "rubric audit" for x in d), timeout=AUDIT_TIMEOUT)
    after = await editor.hover(rubric, needle, 3)
    assert "**Audit**" in after and "U003" in after and "expected" in after and "“" in after


async def test_hover_on_a_heading_lists_the_issues_that_cite_it(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    msa = files(workspace)["msa.md"]
    editor.open(msa, language="markdown")
    text = await editor.hover(msa, "## 10.2", 4)
    assert "**msa §10.2**, cited by:" in text and "issue `liability_cap` (anchor, rubric.yaml:" in text


# ------------------------------------------------------------------ definition and references


async def test_an_anchor_leads_to_its_section_heading(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    found = files(workspace)
    rubric = found["rubric.yaml"]
    editor.open(rubric)
    [location] = await editor.definition(rubric, '"msa §4.2"', 3)
    assert location.uri == found["msa.md"].as_uri()
    assert location.range.start == types.Position(line=line_of(found["msa.md"], "## 4.2 "), character=0)
    [playbook] = await editor.definition(rubric, '"playbook §3"', 3)
    assert playbook.uri.endswith("documents/playbook.md")


async def test_ids_lead_to_their_rubric_item_and_back(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    found = files(workspace)
    rubric = found["rubric.yaml"]
    rubric_text = editor.open(rubric)
    definition = position_of(rubric_text, "- id: incident_notice", 8)
    for name, needle in (
        ("rubric.yaml", "incident_notice, liability_cap]"),
        ("counterparty.yaml", "incident_notice:"),
        ("probes.yaml", "criterion: incident_notice"),
    ):
        path = found[name]
        if path not in editor.texts:
            editor.open(path)
        offset = needle.index("incident_notice") + 2
        [location] = await editor.definition(path, needle, offset)
        assert location.uri == rubric.as_uri() and location.range.start.line == definition.line, name
    expectations = found["expectations.yaml"]
    editor.open(expectations)
    [escalation] = await editor.definition(expectations, "criterion: esc_pilot_exposure", 13)
    assert escalation.uri == rubric.as_uri()
    assert escalation.range.start.line == position_of(rubric_text, "- id: esc_pilot_exposure").line
    [trajectory] = await editor.definition(expectations, "  bad_accepts_trap:", 4)
    assert trajectory.uri.endswith("trajectories/bad_accepts_trap.jsonl")

    references = await editor.references(rubric, "- id: incident_notice", 9)
    where = {(Path(r.uri.removeprefix("file://")).name, r.range.start.line) for r in references}
    assert ("rubric.yaml", definition.line) in where
    assert ("counterparty.yaml", line_of(found["counterparty.yaml"], "incident_notice:")) in where
    assert ("rubric.yaml", line_of(rubric, "required_issue_ids")) in where
    assert sum(1 for name, _ in where if name == "probes.yaml") == (
        found["probes.yaml"].read_text(encoding="utf-8").count("criterion: incident_notice")
    )
    without = await editor.references(rubric, "- id: incident_notice", 9, declaration=False)
    assert len(without) == len(references) - 1


async def test_a_heading_and_its_citations_reference_each_other(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    found = files(workspace)
    msa = found["msa.md"]
    editor.open(msa, language="markdown")
    references = await editor.references(msa, "## 5.1", 4)
    rubric_lines = {r.range.start.line for r in references if r.uri == found["rubric.yaml"].as_uri()}
    assert rubric_lines == {
        line_of(found["rubric.yaml"], 'anchor: "msa §5.1"'),
        line_of(found["rubric.yaml"], '["msa §5.1", "playbook §4"]'),
    }


async def test_a_rule_code_leads_to_its_documentation(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric = files(workspace)["rubric.yaml"]
    editor.open(
        rubric,
        rubric.read_text(encoding="utf-8").replace(
            'anchor: "msa §5.1"', 'anchor: "msa §5.1"  # rubric: ignore[G011] -- ok'
        ),
    )
    [location] = await editor.definition(rubric, "G011]", 1)
    heading = (
        Path(location.uri.removeprefix("file://")).read_text(encoding="utf-8").splitlines()[location.range.start.line]
    )
    assert heading.startswith("#### G011 ")
