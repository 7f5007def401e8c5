"""`rubric check` leaves nothing untested silently: schema findings, trajectories no
expectation covers (M003, `--strict`), duplicate and mismatched matter ids (M001, M002)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rubric_tools.checking import check_paths
from rubric_tools.cli import main
from rubric_tools.config.check import CheckSection
from rubric_tools.config.project import ProjectConfig
from tests.test_check import ASK, ESCALATE, FINAL, ISSUE, MARKUP, QUOTE, READ, rows, write_jsonl

BASE = Path(__file__).parent / "rule_cases" / "_base"
TYPO = {"type": "read_documnet", "document_id": "hosting"}


@pytest.fixture
def matter(tmp_path: Path) -> Path:
    root = tmp_path / "matters" / "base_fixture"
    shutil.copytree(BASE, root)
    write_jsonl(
        root / "trajectories" / "reference.jsonl", [READ, ASK, ESCALATE, dict(ISSUE, quotes=QUOTE), MARKUP, FINAL]
    )
    return root


def _expect(matter: Path, body: str) -> None:
    (matter / "expectations.yaml").write_text(
        "trajectories:\n  reference:\n    min_normalized: 0.1\n" + body, encoding="utf-8"
    )


def test_schema_findings_fail_the_trajectory(matter: Path) -> None:
    write_jsonl(matter / "trajectories" / "typo.jsonl", [TYPO, READ, FINAL])
    _expect(matter, "  typo:\n    max_normalized: 1.0\n")
    row = rows(check_paths([matter]))[("trajectory", "typo.jsonl")]
    assert not row.passed and row.line == 1
    assert "1 action schema finding" in row.detail and "T101" in row.detail and "read_document" in row.detail


def test_declared_malformed_trajectory_passes(matter: Path) -> None:
    write_jsonl(matter / "trajectories" / "typo.jsonl", [TYPO, READ, FINAL])
    _expect(matter, "  typo:\n    malformed: true\n")
    assert rows(check_paths([matter]))[("trajectory", "typo.jsonl")].passed


def test_fuzz_naming_convention_is_deliberately_malformed(matter: Path) -> None:
    write_jsonl(matter / "trajectories" / "fuzz_001.jsonl", [TYPO, {"type": 7}])
    row = rows(check_paths([matter]))[("trajectory", "fuzz_001.jsonl")]
    assert row.passed and not row.warning


def test_unchecked_trajectory_warns_and_strict_fails_it(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_jsonl(matter / "trajectories" / "stray.jsonl", [READ, FINAL])
    row = rows(check_paths([matter]))[("trajectory", "stray.jsonl")]
    assert row.passed and row.warning and "M003" in row.detail
    assert main(["check", str(matter), "--no-color"]) == 0
    out = capsys.readouterr().out
    assert "warn trajectory stray.jsonl" in out and "(1 warning)" in out
    assert main(["check", str(matter), "--strict"]) == 1
    strict = rows(check_paths([matter], ProjectConfig(check=CheckSection(strict=True))))[("trajectory", "stray.jsonl")]
    assert not strict.passed


def test_strict_from_configuration(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_jsonl(matter / "trajectories" / "stray.jsonl", [READ, FINAL])
    config = matter.parent.parent / "rubric.toml"
    config.write_text("[check]\nstrict = true\n", encoding="utf-8")
    assert main(["check", str(matter), "--output-format", "json"]) == 1
    config.write_text("[check]\nstrikt = true\n", encoding="utf-8")
    assert main(["check", str(matter)]) == 2
    assert "did you mean 'strict'" in capsys.readouterr().err


def test_matter_id_must_match_its_folder(matter: Path) -> None:
    text = (matter / "matter.yaml").read_text(encoding="utf-8")
    (matter / "matter.yaml").write_text(
        text.replace("matter_id: base_fixture", "matter_id: other_id"), encoding="utf-8"
    )
    report = check_paths([matter])
    row = rows(report)[("matter", "matter_id")]
    assert not row.passed and "M002" in row.detail and report.exit_code == 1


def test_duplicate_matter_ids_in_one_repository(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (matter.parent.parent / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    copy = matter.parent.parent / "archive" / "base_fixture"
    shutil.copytree(matter, copy)
    report = check_paths([matter.parent, copy.parent])
    duplicates = [r for r in report.rows if r.kind == "matter" and "M001" in r.detail]
    assert len(duplicates) == 2 and report.exit_code == 1
    assert main(["check", str(matter.parent), str(copy.parent), "--output-format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert sum(1 for m in document["matters"] for c in m["checks"] if "M001" in c["detail"]) == 2


def test_duplicate_stems_are_reported(matter: Path) -> None:
    (matter / "trajectories" / "reference.yaml").write_text("- type: submit_final\n  summary: x\n", encoding="utf-8")
    row = rows(check_paths([matter]))[("trajectory", "reference.yaml")]
    assert not row.passed and row.got == "duplicate stem"


def test_yaml_trajectories_in_repository_layouts_belong_to_their_matter(matter: Path) -> None:
    from rubric_tools.loading.layout import files_outside_matters
    from rubric_tools.loading.layout import trajectory_paths as trajectory_files

    examples = matter.parent.parent / "examples" / matter.name
    examples.mkdir(parents=True)
    (examples / "extra.yaml").write_text("- type: submit_final\n  summary: x\n", encoding="utf-8")
    stray = matter.parent.parent / "notes" / "extra.yaml"
    stray.parent.mkdir()
    stray.write_text("- a\n", encoding="utf-8")
    assert examples / "extra.yaml" in trajectory_files(matter)
    assert files_outside_matters([examples / "extra.yaml", stray]) == [stray]


def test_hook_mode_skips_files_outside_matters(matter: Path, capsys: pytest.CaptureFixture[str]) -> None:
    readme = matter.parent.parent / "README.md"
    readme.write_text("# rubrics\n", encoding="utf-8")
    fixture = matter.parent.parent / "fixtures" / "sample.jsonl"
    fixture.parent.mkdir()
    fixture.write_text("{}\n", encoding="utf-8")
    for command in ("lint", "check"):
        assert main([command, str(readme), str(fixture)]) == 2
        assert "error" in capsys.readouterr().err
        assert main([command, "--ignore-non-matter-files", str(readme), str(fixture)]) == 0
        assert capsys.readouterr().err == ""
        assert main([command, "--ignore-non-matter-files", str(readme), str(matter / "rubric.yaml")]) == 0
    assert "base_fixture" in capsys.readouterr().out
