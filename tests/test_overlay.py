"""Unsaved editor buffers (`rubric lsp`): an overlay of path -> bytes the loaders read
instead of the disk, under the same file-system policy, size caps and refusals."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from rubric_tools.checking.expectations import load_expectations
from rubric_tools.checking.probes import run_probe_file
from rubric_tools.config.lint import LintSection
from rubric_tools.lint.engine import lint_source
from rubric_tools.loading import files
from rubric_tools.loading.matter import load_matter_source
from rubric_tools.replaying import MatterCache, replay_file

MATTERS = Path(__file__).resolve().parent.parent / "matters"


@pytest.fixture
def matter(tmp_path: Path) -> Path:
    root = tmp_path / "matters" / "ai_saas_001"
    shutil.copytree(MATTERS / "ai_saas_001", root)
    return root.resolve()


def _edited(path: Path, old: str, new: str) -> bytes:
    text = path.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new).encode("utf-8")


def test_a_buffer_is_read_instead_of_the_disk_and_the_disk_is_left_alone(matter: Path) -> None:
    rubric = matter / "rubric.yaml"
    on_disk = rubric.read_bytes()
    buffer = _edited(rubric, 'anchor: "msa §4.2"', 'anchor: "msa §4.9"')
    source = load_matter_source(matter, {rubric: buffer})
    assert source.matter.rubric.issues[0].anchor == "msa §4.9"
    assert rubric.read_bytes() == on_disk
    assert load_matter_source(matter).matter.rubric.issues[0].anchor == "msa §4.2"


def test_a_document_buffer_changes_the_sections_and_the_lint_of_the_rubric(matter: Path) -> None:
    msa = matter / "documents" / "msa.md"
    buffer = _edited(msa, "## 4.2 Use of Customer Data", "## 4.7 Use of Customer Data")
    config = LintSection(prove_fixes=False)
    clean = lint_source(load_matter_source(matter), config)
    assert not [d for d in clean.diagnostics if d.code == "A002"]
    edited = lint_source(load_matter_source(matter, {msa: buffer}), config)
    unresolved = [d for d in edited.diagnostics if d.code == "A002"]
    assert unresolved and all(d.file == matter / "rubric.yaml" for d in unresolved)


def test_a_buffer_gets_the_same_refusals_as_the_file(matter: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text("positions: {}\n", encoding="utf-8")
    counterparty = matter / "counterparty.yaml"
    counterparty.unlink()
    counterparty.symlink_to(outside)
    source = load_matter_source(matter, {outside.resolve(): b"positions: {}\n"})
    assert "L007" in {d.code for d in source.diagnostics}  # a link out of the matter stays refused


def test_a_buffer_over_the_cap_is_refused(matter: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "MAX_YAML_BYTES", 100)
    hidden = matter / "hidden_facts.yaml"
    source = load_matter_source(matter, {hidden: b"client_answers: {}\n" + b"#" * 200})
    assert [d.code for d in source.diagnostics if d.file == hidden] == ["L009"]


def test_a_buffer_for_a_fifo_never_opens_it(matter: Path, opened: list[str]) -> None:
    hidden = matter / "hidden_facts.yaml"
    hidden.unlink()
    os.mkfifo(hidden)
    source = load_matter_source(matter, {hidden: b"client_answers: {}\n"})
    assert "L008" in {d.code for d in source.diagnostics}
    assert str(hidden) not in opened


def test_trajectories_expectations_and_probes_read_their_buffers(matter: Path) -> None:
    trajectory = matter / "trajectories" / "reference.jsonl"
    broken = b'{"type": "read_document", "document_id": "msa"}\nnot json\n'
    item = replay_file(trajectory, matter, MatterCache(), overlay={trajectory: broken})
    assert [d.code for d in item.diagnostics] == ["T001"]
    assert replay_file(trajectory, matter, MatterCache()).diagnostics == []

    expectations = matter / "expectations.yaml"
    buffer = _edited(expectations, "    below: reference\n", "    below: no_such_trajectory\n")
    found = load_expectations(matter, {expectations: buffer})
    assert found is not None and {d.code for d in found.diagnostics} == {"E001"}

    probes = matter / "probes.yaml"
    flipped = _edited(probes, "    expect_fire: true\n", "    expect_fire: false\n")
    source = load_matter_source(matter)
    assert run_probe_file(probes, source.matter).passed
    assert not run_probe_file(probes, source.matter, {probes: flipped}).passed


def test_the_fix_proof_runs_on_the_buffers_like_on_the_same_files(matter: Path) -> None:
    """A broken anchor's canonical fix moves the trajectories' scores: downgraded to unsafe,
    from the buffer exactly as from the same text on disk, and nothing is written."""
    rubric = matter / "rubric.yaml"
    buffer = _edited(rubric, 'anchor: "msa §4.2"', 'anchor: "MSA §4.2."')
    overlay = {rubric: buffer}
    from_buffer = lint_source(load_matter_source(matter, overlay), LintSection(), overlay=overlay)
    rubric.write_bytes(buffer)
    from_disk = lint_source(load_matter_source(matter), LintSection())
    fixes = [(d.code, d.fix.safe, d.fix.downgraded) for d in from_buffer.diagnostics if d.fix is not None]
    assert fixes == [(d.code, d.fix.safe, d.fix.downgraded) for d in from_disk.diagnostics if d.fix is not None]
    assert ("A002", False) in {(code, safe) for code, safe, _ in fixes}
