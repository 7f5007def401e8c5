"""Values the reference cannot load or compute with are lint errors, never internal errors.

Issue 24's reproducers, through the real command line: a standard tag on a value its
constructor cannot read (`!!bool "maybe"`, `!!int ''`, ...), a 400-digit integer, `.nan`
points, and a gate refused for its compile cost. Each is reported at the file, line and
column that holds it, with exit 1 (lint, max-score, solve) or 2 (replay: the matter
cannot be loaded), and never as I001.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rubric_tools.cli import main
from tests.prove_support import BASE_MATTER

TAG_VALUES = ['!!timestamp "not a date"', '!!bool "maybe"', "!!bool ''", "!!float ''", "!!int ''"]


def _matter(tmp_path: Path, points: str) -> Path:
    """The base matter with the first question's points written as `points` (line 4, column 13)."""
    root = tmp_path / "matter"
    shutil.copytree(BASE_MATTER, root)
    rubric = root / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8")
    assert "    points: 0.5\n" in text.split("escalations:")[0]
    rubric.write_text(text.replace("    points: 0.5\n", f"    points: {points}\n", 1), encoding="utf-8")
    (tmp_path / "run.jsonl").write_text(
        json.dumps({"type": "ask_client", "question": "where are backups kept?"}) + "\n", encoding="utf-8"
    )
    return root


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


@pytest.mark.parametrize("value", TAG_VALUES)
def test_a_tag_value_the_reference_cannot_construct_is_y005(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    root = _matter(tmp_path, value)
    for command in ("lint", "max-score", "solve"):
        code, text = _run(capsys, command, str(root))
        # max-score exits 2 on any matter file it cannot load, as on a YAML syntax error.
        assert code == (2 if command == "max-score" else 1), (command, text)
        assert "I001" not in text and "internal error" not in text
        assert "rubric.yaml:4:13: Y005" in text or "rubric.yaml:4:13: the engine's YAML" in text, (command, text)
    code, text = _run(capsys, "replay", str(tmp_path / "run.jsonl"), "--matter", str(root))
    assert code == 2 and "Y005" in text and "rubric.yaml:4:13" in text
    assert "I001" not in text and "internal error" not in text


def test_a_huge_integer_is_s007_not_an_overflow(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _matter(tmp_path, "1" + "0" * 400)
    for command in ("lint", "max-score", "solve"):
        code, text = _run(capsys, command, str(root))
        assert "I001" not in text and "OverflowError" not in text, (command, text)
        assert code == (0 if command == "max-score" else 1), (command, text)  # max-score prints an infinite total
    code, text = _run(capsys, "lint", str(root))
    assert "rubric.yaml:4:13: S007" in text and "401 digits" in text


def test_nan_points_are_s007_and_not_a_solver_defect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _matter(tmp_path, ".nan")
    code, text = _run(capsys, "lint", str(root), "--output-format", "concise")
    assert code == 1 and "rubric.yaml:4:13: S007" in text
    assert "P100" not in text and "solver defect" not in text


def test_a_refused_gate_is_reported_at_its_rubric_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _matter(tmp_path, "0.5")
    rubric = root / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8")
    gate = '      - "uptime commitments are unenforceable"\n'
    assert gate in text
    rubric.write_text(text.replace(gate, "      - '(?:a{65535}){65535}'\n"), encoding="utf-8")
    line = text[: text.index(gate)].count("\n") + 1
    (tmp_path / "run.jsonl").write_text(
        "\n".join(
            json.dumps(action)
            for action in (
                {"type": "read_document", "document_id": "hosting"},
                *(
                    {
                        "type": "submit_issue",
                        "issue_id": f"credit{n}",
                        "title": "credit",
                        "severity": "medium",
                        "citations": ["hosting §3.1"],
                        "analysis": "a",
                        "recommendation": "r",
                    }
                    for n in range(2)
                ),
            )
        )
        + "\n",
        encoding="utf-8",
    )
    code, out = _run(capsys, "replay", str(tmp_path / "run.jsonl"), "--matter", str(root), "--format", "concise")
    refused = [row for row in out.splitlines() if "T005" in row]
    assert len(refused) == 1, out  # once, at the gate, not at every step that runs it
    assert f"rubric.yaml:{line}:9: T005" in refused[0] and "first run at step 2" in refused[0]


HUGE = "9" * 400


def test_a_huge_negative_minimum_is_f002_not_an_overflow(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _matter(tmp_path, "0.5")
    rubric = root / "rubric.yaml"
    rubric.write_text(
        rubric.read_text(encoding="utf-8").replace("minimum_characters: 80", f"minimum_characters: -{HUGE}"),
        encoding="utf-8",
    )
    code, text = _run(capsys, "lint", str(root), "--output-format", "concise")
    assert code == 1 and "I001" not in text and "OverflowError" not in text, text
    assert "F002" in text and "a negative integer of 400 digits" in text


def test_a_huge_integer_bound_in_expectations_is_e001(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _matter(tmp_path, "0.5")
    (root / "expectations.yaml").write_text(f"trajectories:\n  reference:\n    min_raw: {HUGE}\n", encoding="utf-8")
    code, text = _run(capsys, "check", str(root))
    assert code == 1 and "I001" not in text and "OverflowError" not in text, text
    assert "expectations.yaml:3:14 E001 `min_raw` is an integer of 400 digits" in text


@pytest.mark.parametrize(
    ("command", "table", "key"),
    [("coverage", "coverage", "fail-under"), ("attack", "attack", "max-fraction-of-reference")],
)
def test_a_huge_integer_setting_is_a_configuration_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, table: str, key: str
) -> None:
    root = _matter(tmp_path, "0.5")
    config = tmp_path / "rubric.toml"
    config.write_text(f"[{table}]\n{key} = {HUGE}\n", encoding="utf-8")
    code, text = _run(capsys, command, str(root), "--config", str(config))
    assert code == 2 and "I001" not in text and "OverflowError" not in text, text
    assert f"rubric.toml:2: {table}.{key} must be" in text and "an integer of 400 digits" in text


@pytest.mark.parametrize("command", ["check", "audit", "coverage"])
def test_a_probe_whose_surface_is_a_list_is_reported_not_an_internal_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    root = _matter(tmp_path, "0.5")
    (root / "probes.yaml").write_text(
        "probes:\n"
        "  - {surface: [], criterion: uptime_credit, text: uptime is unenforceable, expect_fire: true}\n"
        "  - {surface: issue, criterion: uptime_credit, text: uptime is unenforceable, expect_fire: true}\n",
        encoding="utf-8",
    )
    code, text = _run(capsys, command, str(root))
    assert "I001" not in text and "unhashable" not in text, text
    if command == "check":
        assert code == 1 and "`probes[0].surface` is [], which is not one of: issue, redline, settlement" in text


def test_a_gate_of_a_literal_too_long_to_search_for_is_g016(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _matter(tmp_path, "0.5")
    rubric = root / "rubric.yaml"
    text = rubric.read_text(encoding="utf-8")
    gate = '      - "uptime commitments are unenforceable"\n'
    rubric.write_text(text.replace(gate, f"      - {'ab' * 2500}\n"), encoding="utf-8")
    line = text[: text.index(gate)].count("\n") + 1
    code, out = _run(capsys, "lint", str(root), "--output-format", "concise")
    assert code == 1 and "I001" not in out, out
    assert f"rubric.yaml:{line}:9: G016" in out and "a run of 5,000 literal characters" in out


def test_a_gate_s_density_counts_on_re_what_the_scorer_would_count() -> None:
    from rubric_tools.gate_analysis.search_cost import NEUTRAL_PROSE, density, prose_sample
    from rubric_tools.scoring.gates import compile_pattern

    sample = prose_sample([NEUTRAL_PROSE])
    for pattern in (r"\bthe\b", "shall", r"[a-z]+", "a" * 400):
        scored = sum(1 for _ in compile_pattern(pattern).finditer(sample))
        assert density(pattern, sample) == scored / len(sample), pattern


def test_a_gate_whose_witness_has_no_word_is_audited(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # `\N{BULLET}` matches "•": a witness no clause can be built around (fuzz seed 11134683036576128445).
    root = _matter(tmp_path, "0.5")
    rubric = root / "rubric.yaml"
    gate = '      - "uptime commitments are unenforceable"\n'
    bullet = gate + "      - '\\N{BULLET}'\n"
    rubric.write_text(rubric.read_text(encoding="utf-8").replace(gate, bullet), encoding="utf-8")
    for command in ("audit", "check"):
        code, out = _run(capsys, command, str(root))
        assert "I001" not in out and "IndexError" not in out, (command, out)
