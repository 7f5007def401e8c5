"""`rubric max-score MATTER`: the derived max_score term by term, and the declared one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from rubric_tools.cli import main

BASE = Path(__file__).parent / "rule_cases" / "_base"


def test_json_terms_sum_to_the_derived_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["max-score", "--output-format", "json", str(BASE)]) == 0
    document = json.loads(capsys.readouterr().out)
    terms = {(t["section"], t["item"], t["component"]): t["points"] for t in document["items"]}
    # question 0.5 + escalation 0.5 + issue 3.25 + settlement 1.0 (positioned) + final 0.5 + 0.0
    assert document["derived"] == 5.75 and document["declared"] is None
    assert sum(terms.values()) == pytest.approx(5.75)
    assert terms[("issues", "uptime_credit", "settlement_points")] == 1.0
    assert terms[("final_submission", "final", "concept_points")] == 0.0


def test_table_and_a_declared_value_that_drifts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "m"
    shutil.copytree(BASE, root)
    (root / "counterparty.yaml").unlink()
    rubric = root / "rubric.yaml"
    rubric.write_text(rubric.read_text(encoding="utf-8") + "max_score: 6\n", encoding="utf-8")
    assert main(["max-score", str(root)]) == 1
    out = capsys.readouterr().out
    assert "redline_points" in out and "4.75" in out  # no settlement without a position
    assert "declared max_score 6 differs from the derived 4.75" in " ".join(out.split())


def test_not_a_matter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["max-score", str(tmp_path)]) == 2
    assert "not a matter folder" in capsys.readouterr().err
    assert main(["max-score", "--output-format", "yaml", str(BASE)]) == 2
