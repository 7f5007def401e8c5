"""`rubric solve` and `rubric attack` end to end: exit codes, output formats, --write."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rubric_tools import load_matter, replay
from rubric_tools.cli import main
from tests.prove_support import base_data, issue, write_matter


@pytest.fixture
def base(tmp_path: Path) -> Path:
    write_matter(tmp_path / "base", base_data())
    return tmp_path / "base"


@pytest.fixture
def gated(tmp_path: Path) -> Path:
    """A required concept its own gate punishes: 0.25 out of reach."""
    data = base_data()
    issue(data).update(
        required_concepts=["service credit", "unenforceable"], critical_failure_patterns=["unenforceable"]
    )
    write_matter(tmp_path / "gated", data)
    return tmp_path / "gated"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_solve_reaches_max_score(capsys: pytest.CaptureFixture[str], base: Path) -> None:
    code, out, _ = _run(capsys, "solve", str(base), "--no-color")
    assert code == 0
    assert "5.75 / 5.75" in out and "max_score reached" in out


def test_solve_names_each_shortfall(capsys: pytest.CaptureFixture[str], gated: Path) -> None:
    code, out, _ = _run(capsys, "solve", str(gated), "--no-color")
    assert code == 1
    assert "5.5 / 5.75" in out
    assert "gate-on-required-language" in out and "issues[0].required_concepts[1]" in out


def test_solve_json(capsys: pytest.CaptureFixture[str], gated: Path) -> None:
    code, out, _ = _run(capsys, "solve", str(gated), "--format", "json")
    document: dict[str, Any] = json.loads(out)
    assert code == 1 and document["reached"] is False
    assert document["raw_score"] == 5.5 and document["max_score"] == 5.75
    assert [s["reason"] for s in document["shortfalls"]] == ["gate-on-required-language"]
    assert document["shortfalls"][0]["path"] == ["issues", 0, "required_concepts", 1]
    assert document["unexplained_points"] == 0
    assert document["trajectory"][-1]["type"] == "submit_final"


def test_solve_writes_a_trajectory_that_replays_to_max(
    capsys: pytest.CaptureFixture[str], base: Path, tmp_path: Path
) -> None:
    target = tmp_path / "reference.jsonl"
    code, out, _ = _run(capsys, "solve", str(base), "--write", str(target), "--no-color")
    assert code == 0 and f"trajectory written to {target}" in out
    lines = target.read_text(encoding="utf-8").splitlines()
    actions = [json.loads(line) for line in lines]
    assert all(isinstance(action, dict) for action in actions)
    result = replay(load_matter(base), actions).result
    assert result["raw_score"] == result["max_score"] == 5.75
    code, out, _ = _run(capsys, "replay", str(target), "--matter", str(base), "--format", "json")
    assert code == 0 and json.loads(out)


def test_solve_input_errors_exit_2(capsys: pytest.CaptureFixture[str], base: Path, tmp_path: Path) -> None:
    code, _, err = _run(capsys, "solve", str(tmp_path / "nowhere"))
    assert code == 2 and "not a matter folder" in err
    code, _, err = _run(capsys, "solve", str(base), "--write", str(tmp_path))  # a folder: unwritable
    assert code == 2 and "cannot write" in err
    (base / "rubric.yaml").write_text("issues: [unclosed\n", encoding="utf-8")
    code, out, err = _run(capsys, "solve", str(base))
    assert code == 2 and "L001" in err and out == ""


def test_attack_passes_on_the_base_matter(capsys: pytest.CaptureFixture[str], base: Path) -> None:
    code, out, _ = _run(capsys, "attack", str(base), "--no-color")
    assert code == 0
    assert "reference (solver)" in out and "no strategy beats the rubric" in out


def test_attack_fails_when_a_strategy_beats_the_rubric(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = base_data()
    data["rubric.yaml"]["questions"][0]["points"] = 10.0
    write_matter(tmp_path / "weak", data)
    code, out, _ = _run(capsys, "attack", str(tmp_path / "weak"), "--output-format", "json")
    document = json.loads(out)
    assert code == 1 and document["passed"] is False
    failed = [row["name"] for row in document["strategies"] if row["verdict"] == "fail"]
    assert failed == ["one-stuffed-question"]


def test_attack_reads_thresholds_from_the_config(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = base_data()
    data["rubric.yaml"]["questions"][0]["points"] = 10.0
    write_matter(tmp_path / "weak", data)
    (tmp_path / "pyproject.toml").write_text('[tool.rubric.attack]\nexempt = ["one-stuffed-question"]\n')
    code, _, _ = _run(capsys, "attack", str(tmp_path / "weak"), "--no-color")
    assert code == 0
    (tmp_path / "pyproject.toml").write_text("[tool.rubric.attack]\nmax-fraction = 0.9\n")
    code, out, err = _run(capsys, "attack", str(tmp_path / "weak"), "--no-color")
    assert code == 2 and "unknown setting attack.max-fraction" in err and out == ""


def test_attack_input_errors_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = _run(capsys, "attack", str(tmp_path / "nowhere"))
    assert code == 2 and "not a matter folder" in err
