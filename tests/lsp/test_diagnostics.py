"""Diagnostics over stdio: on open, on change of the unsaved buffer, on save (with the
audit), for every kind of matter file, with code, severity, exact range, related
locations and a link to the code's documentation; configuration read as the CLI reads it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.lsp.support import require_extra

require_extra()

from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.lsp.conftest import initialize_params
from tests.lsp.editor import Editor, range_of
from tests.lsp.support import AUDIT_TIMEOUT, copy_matters, eventually

pytestmark = pytest.mark.asyncio

BROKEN = ('anchor: "msa §4.2"', 'anchor: "msa §4.2."')


def codes(found: list[types.Diagnostic]) -> set[str]:
    return {str(d.code) for d in found if d.code is not None}


def matter(workspace: Path, name: str = "ai_saas_001") -> Path:
    return workspace / "matters" / name


async def test_a_broken_anchor_gets_a002_at_its_range_with_the_rules_documentation(
    client: LanguageClient, workspace: Path
) -> None:
    editor = Editor(client)
    rubric = matter(workspace) / "rubric.yaml"
    text = editor.open(rubric, rubric.read_text(encoding="utf-8").replace(*BROKEN))
    found = await editor.diagnostics(rubric, lambda d: "A002" in codes(d))
    a002 = next(d for d in found if d.code == "A002")
    assert a002.range == range_of(text, '"msa §4.2."')
    assert a002.severity == types.DiagnosticSeverity.Error
    assert a002.source == "rubric lint"
    assert "names section '4.2.'" in a002.message
    assert a002.code_description is not None
    href = a002.code_description.href
    assert href.startswith("file://") and href.split("#")[0].endswith("AUTHORING.md")
    line = int(href.rsplit("#L", 1)[1])
    heading = Path(href.split("#")[0].removeprefix("file://")).read_text(encoding="utf-8").splitlines()[line - 1]
    assert heading.startswith("#### A002 `unresolved-citation`")


async def test_the_unsaved_buffer_is_linted_and_the_disk_is_not_touched(
    client: LanguageClient, workspace: Path
) -> None:
    editor = Editor(client)
    rubric = matter(workspace) / "rubric.yaml"
    on_disk = rubric.read_text(encoding="utf-8")
    editor.open(rubric)
    clean = await editor.diagnostics(rubric, version=1)
    assert "A002" not in codes(clean)
    version = editor.change(rubric, on_disk.replace(*BROKEN))
    broken = await editor.diagnostics(rubric, version=version)
    assert "A002" in codes(broken)
    assert rubric.read_text(encoding="utf-8") == on_disk
    version = editor.change(rubric, on_disk)
    assert "A002" not in codes(await editor.diagnostics(rubric, version=version))


async def test_an_edit_of_a_document_rechecks_the_rubric(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    rubric, msa = matter(workspace) / "rubric.yaml", matter(workspace) / "documents" / "msa.md"
    text = editor.open(rubric)
    document = editor.open(msa, language="markdown")
    await editor.diagnostics(rubric)
    editor.change(msa, document.replace("## 4.2 Use of Customer Data", "## 4.7 Use of Customer Data"))
    found = await editor.diagnostics(rubric, lambda d: "A002" in codes(d))
    assert any(d.code == "A002" and d.range == range_of(text, '"msa §4.2"') for d in found)


async def test_saving_runs_the_audit_and_its_findings_last_until_the_text_changes(
    client: LanguageClient, workspace: Path
) -> None:
    editor = Editor(client)
    rubric = matter(workspace) / "rubric.yaml"
    # A redline concept the clause under review already holds ('train': msa §4.2 says it),
    # so that the audit reports U007 with the clause as its evidence.
    written = rubric.read_text(encoding="utf-8")
    rubric.write_text(written.replace('"to train"', '"train"', 1), encoding="utf-8")
    text = editor.open(rubric)
    before = await editor.diagnostics(rubric, version=1)
    assert not any(d.source == "rubric audit" for d in before)
    editor.save(rubric)
    audited = await editor.diagnostics(
        rubric, lambda d: any(x.source == "rubric audit" for x in d), timeout=AUDIT_TIMEOUT
    )
    audit = [d for d in audited if d.source == "rubric audit"]
    assert all(str(d.code).startswith("U") and d.code_description is not None for d in audit)
    # U007: a redline concept already in the clause under review; its evidence is the clause.
    u007 = next(d for d in audit if d.code == "U007")
    assert u007.related_information is not None
    clause = u007.related_information[0]
    assert clause.location.uri == (matter(workspace) / "documents" / "msa.md").as_uri()
    heading = (matter(workspace) / "documents" / "msa.md").read_text(encoding="utf-8").splitlines()
    assert heading[clause.location.range.start.line] == "## 4.2 Use of Customer Data"
    assert "msa §4.2: expected" in clause.message
    version = editor.change(rubric, text + "\n")
    after = await editor.diagnostics(rubric, version=version)
    assert not any(d.source == "rubric audit" for d in after), "positions of an older text are not shown"


async def test_the_audit_on_save_can_be_turned_off(bare_client: LanguageClient, workspace: Path) -> None:
    client = bare_client
    client.set_configuration({"audit": {"onSave": False}, "debounce": 50}, section="rubric")
    await client.initialize_session(initialize_params([workspace], options={}))
    editor = Editor(client)
    rubric = matter(workspace) / "rubric.yaml"
    editor.open(rubric)
    await editor.diagnostics(rubric, version=1)
    published = len(editor.published)
    editor.save(rubric)
    await eventually(lambda: len(editor.published) > published, what="the lint on save")
    await editor.client.text_document_hover_async(  # a round trip: anything queued has been sent
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=rubric.as_uri()), position=types.Position(0, 0)
        )
    )
    assert not any(d.source == "rubric audit" for p in editor.published for d in p.diagnostics)


async def test_related_locations_point_at_what_a_finding_is_about(client: LanguageClient, workspace: Path) -> None:
    """An unknown id in required_issue_ids: the issue list is not it; a required issue that
    cannot be matched: related to its rubric item."""
    editor = Editor(client)
    rubric = matter(workspace) / "rubric.yaml"
    text = editor.open(rubric, rubric.read_text(encoding="utf-8").replace(*BROKEN))
    found = await editor.diagnostics(rubric, lambda d: "P100" in codes(d))
    at_required = [d for d in found if d.range.start.line == range_of(text, "[data_training,").start.line]
    assert at_required and at_required[0].related_information
    definition = range_of(text, "id: data_training")
    assert any(
        info.location.uri == rubric.as_uri() and info.location.range.start.line == definition.start.line
        for info in at_required[0].related_information
    )


async def test_trajectories_expectations_and_probes_are_checked(client: LanguageClient, workspace: Path) -> None:
    editor = Editor(client)
    root = matter(workspace)
    trajectory = root / "trajectories" / "reference.jsonl"
    lines = trajectory.read_text(encoding="utf-8").splitlines()
    lines[2] = '{"type": "read_document", "document_id": "msa"'  # not JSON
    editor.open(trajectory, "\n".join(lines) + "\n", language="jsonl")
    found = await editor.diagnostics(trajectory, lambda d: "T001" in codes(d))
    t001 = next(d for d in found if d.code == "T001")
    assert t001.range.start.line == 2 and t001.source == "rubric check"
    editor.close(trajectory)  # back to the file on disk, which replays

    probes = root / "probes.yaml"
    text = probes.read_text(encoding="utf-8")
    first = text.index("expect_fire: true")
    flipped = text[:first] + "expect_fire: false" + text[first + len("expect_fire: true") :]
    editor.open(probes, flipped)
    problems = await editor.diagnostics(probes, lambda d: any("should stay silent" in x.message for x in d))
    assert problems[0].range.start.line == range_of(flipped, "- surface: issue").start.line

    expectations = root / "expectations.yaml"
    text = expectations.read_text(encoding="utf-8")
    editor.open(expectations, text.replace("    min_raw: 17.0\n", "    min_raw: 18.0\n"))
    missed = await editor.diagnostics(expectations, lambda d: any("misses its expectation" in x.message for x in d))
    assert "raw 17 < 18" in missed[0].message
    assert missed[0].range.start.line == range_of(text, "  reference:").start.line


async def test_configuration_is_read_as_the_command_line_reads_it(tmp_path: Path, bare_client: LanguageClient) -> None:
    workspace = copy_matters(
        tmp_path / "ws", settings='ignore = ["A004"]\n\n[tool.rubric.severity]\nA002 = "warning"\n'
    )
    client = bare_client
    await client.initialize_session(initialize_params([workspace]))
    editor = Editor(client)
    rubric = matter(workspace) / "rubric.yaml"
    editor.open(rubric, rubric.read_text(encoding="utf-8").replace(*BROKEN))
    found = await editor.diagnostics(rubric, lambda d: "A002" in codes(d))
    assert "A004" not in codes(found)
    assert next(d for d in found if d.code == "A002").severity == types.DiagnosticSeverity.Warning


async def test_a_configuration_error_is_shown_at_its_line(tmp_path: Path, bare_client: LanguageClient) -> None:
    workspace = copy_matters(tmp_path / "ws", settings='selekt = ["A"]\n')
    client = bare_client
    await client.initialize_session(initialize_params([workspace]))
    editor = Editor(client)
    editor.open(matter(workspace) / "rubric.yaml")
    pyproject = workspace / "pyproject.toml"
    found = await editor.diagnostics(pyproject)
    assert found[0].range.start.line == 3 and "selekt" in found[0].message
    await eventually(lambda: client.messages, what="a message to the user")
    assert "configuration error" in client.messages[0].message
