"""`rubric new`: a skeleton that is lint-clean and passes `rubric check` as created."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rubric_tools.cli import main

CANARY = "test-canary-5d1f"
SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$")


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.rubric]\nmatter-dirs = ["matters"]\ncanary = "{CANARY}"\n', encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_new_matter_is_green_under_check_with_no_edits(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "fresh_matter_001"]) == 0
    created = capsys.readouterr().out
    root = repo / "matters" / "fresh_matter_001"
    assert "trajectories/reference.yaml" in created
    assert main(["check", "--output-format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    checks = report["matters"][0]["checks"]
    kinds = {check["kind"] for check in checks}
    assert {"lint", "trajectory", "probes", "attack"} <= kinds
    assert all(check["passed"] and not check["warning"] for check in checks)
    # Lint-clean means clean, not merely below the fail level.
    assert main(["lint", str(root), "--output-format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["diagnostics"] == []
    assert f"canary: {CANARY}" in (root / "matter.yaml").read_text(encoding="utf-8")
    # The template teaches by example: its gates and concepts survive the audit too. Its
    # hand-written guards are a starting point: the audit proposes guards scoped by meaning
    # and widenings for them (warnings, U003/U004), never an error.
    assert main(["audit", str(root), "--output-format", "json"]) == 0
    audit = json.loads(capsys.readouterr().out)
    findings = [f for m in audit["matters"] for f in m["findings"]]
    assert [f["code"] for f in findings if f["severity"] == "error"] == []
    assert {f["code"] for f in findings} <= {"U003", "U004"}


def test_every_yaml_file_has_a_schema_line_that_resolves(repo: Path) -> None:
    assert main(["new", "fresh_matter_002"]) == 0
    root = repo / "matters" / "fresh_matter_002"
    files = sorted(root.rglob("*.yaml"))
    assert {p.name for p in files} >= {
        "matter.yaml",
        "rubric.yaml",
        "hidden_facts.yaml",
        "counterparty.yaml",
        "expectations.yaml",
        "probes.yaml",
        "reference.yaml",
    }
    for path in files:
        first = path.read_text(encoding="utf-8").splitlines()[0]
        match = SCHEMA_LINE.match(first)
        assert match, f"{path} lacks a schema line"
        target = (path.parent / match.group(1)).resolve()
        assert target.is_file(), f"{path}: {match.group(1)} does not resolve"
        json.loads(target.read_text(encoding="utf-8"))


def test_rubric_has_one_item_of_each_kind(repo: Path) -> None:
    from rubric_tools.loading.yaml_source import load_yaml

    assert main(["new", "fresh_matter_003"]) == 0
    root = repo / "matters" / "fresh_matter_003"
    rubric = load_yaml(root / "rubric.yaml").data
    issue = rubric["issues"][0]
    assert rubric["questions"] and rubric["escalations"] and rubric["final_submission"]
    for component in (
        "required_citations",
        "required_concepts",
        "redline_concepts",
        "settlement_concepts",
        "critical_failure_patterns",
        "redline_critical_failure_patterns",
        "settlement_critical_failure_patterns",
    ):
        assert issue[component], component
    position = load_yaml(root / "counterparty.yaml").data["positions"][issue["id"]]
    assert any(counter.get("trap") for counter in position["counters"])


@pytest.mark.parametrize("bad_id", ["Has Space", "../escape", "UPPER", "", "_under", "a/b", "x" * 65])
def test_invalid_ids_are_usage_errors(repo: Path, capsys: pytest.CaptureFixture[str], bad_id: str) -> None:
    assert main(["new", bad_id]) == 2
    captured = capsys.readouterr()
    assert "not a valid matter id" in captured.err and captured.out == ""
    assert not (repo / "matters").exists() or not any((repo / "matters").iterdir())


def test_existing_id_is_refused_and_left_untouched(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "taken_001"]) == 0
    rubric = repo / "matters" / "taken_001" / "rubric.yaml"
    rubric.write_text(rubric.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["new", "taken_001"]) == 2
    assert "already exists" in capsys.readouterr().err
    assert rubric.read_text(encoding="utf-8").endswith("# edited\n")


def test_existing_schema_folder_is_reused(repo: Path) -> None:
    schemas = repo / "schemas"
    schemas.mkdir()
    (schemas / "matter.schema.json").write_text("{}", encoding="utf-8")
    assert main(["new", "reuse_001"]) == 0
    assert (schemas / "matter.schema.json").read_text(encoding="utf-8") == "{}"  # not overwritten
    first = (repo / "matters" / "reuse_001" / "rubric.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first.endswith("=../../schemas/rubric.schema.json")


def test_templates_ship_as_package_data() -> None:
    from importlib import resources

    folder = resources.files("rubric_tools").joinpath("templates", "matter")
    assert folder.joinpath("rubric.yaml").is_file() and folder.joinpath("documents", "contract.md").is_file()


def test_reference_trajectory_validates_against_the_trajectory_schema(repo: Path) -> None:
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource

    from rubric_tools.loading.yaml_source import load_yaml
    from rubric_tools.schemas import load_schema

    assert main(["new", "fresh_matter_004"]) == 0
    reference = repo / "matters" / "fresh_matter_004" / "trajectories" / "reference.yaml"
    assert "trajectory.schema.json" in reference.read_text(encoding="utf-8").splitlines()[0]
    action = load_schema("action")
    registry = Registry().with_resource(action["$id"], Resource.from_contents(action))
    validator = Draft202012Validator(load_schema("trajectory"), registry=registry)
    actions = load_yaml(reference).data
    assert isinstance(actions, list) and actions
    assert [e.message for e in validator.iter_errors(actions)] == []
    assert list(validator.iter_errors([{"type": "read_documnet", "document_id": "contract"}]))


def test_an_id_another_folder_declares_is_refused(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "first_001"]) == 0
    (repo / "matters" / "first_001").rename(repo / "matters" / "renamed")
    capsys.readouterr()
    assert main(["new", "first_001"]) == 2
    assert "already declares matter_id 'first_001'" in capsys.readouterr().err


def test_convert_points_yaml_at_the_repository_schema(repo: Path) -> None:
    assert main(["new", "conv_001"]) == 0
    trajectories = repo / "matters" / "conv_001" / "trajectories"
    assert main(["convert", str(trajectories / "reference.yaml"), str(trajectories / "ref.jsonl")]) == 0
    assert main(["convert", str(trajectories / "ref.jsonl"), str(trajectories / "again.yaml")]) == 0
    first = (trajectories / "again.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == "# yaml-language-server: $schema=../../../schemas/trajectory.schema.json"
