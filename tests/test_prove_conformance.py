"""`rubric solve` and `rubric attack` on every matter of the conformance corpus.

The solver must reach max_score or explain every point it misses, never plan a critical
failure, and score at least what the corpus's own reference trajectory (`good.jsonl`)
scored under the reference engine, with actions that validate against the action schema.
The attack must run and report every strategy, each a schema-valid trajectory.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

import rubric_tools
from rubric_tools.prove import Reason, solve
from rubric_tools.prove.attacks import REFERENCE, attack_matter
from rubric_tools.prove.strategies import STRATEGIES
from rubric_tools.schemas import load_schema
from tests.conftest import conformance_dir, require_conformance

_CORPUS = conformance_dir()
_MATTER_IDS = sorted(p.name for p in (_CORPUS / "matters").iterdir()) if _CORPUS else ["corpus-missing"]


def _load(matter_id: str) -> tuple[Path, rubric_tools.MatterSource]:
    corpus = require_conformance()
    return corpus, rubric_tools.load_matter(corpus / "matters" / matter_id)


@pytest.mark.parametrize("matter_id", _MATTER_IDS)
def test_solver_reaches_max_score_or_explains_every_shortfall(matter_id: str) -> None:
    corpus, source = _load(matter_id)
    solution = solve(source.matter)
    result = solution.result
    assert result["terminated"] and not result["truncated"]
    assert result["steps"] <= source.matter.constraints.maximum_steps
    assert not any(s.reason is Reason.REPLAY_MISMATCH for s in solution.shortfalls), solution.shortfalls
    assert solution.critical_failure == any(s.critical for s in solution.shortfalls)
    if solution.reached:
        assert solution.raw_score == pytest.approx(solution.max_score)
        assert solution.exit_code == 0
    else:
        assert solution.shortfalls and solution.exit_code == 1
        assert solution.unexplained_points == pytest.approx(0.0, abs=1e-9)
    good = json.loads((corpus / "trajectories" / matter_id / "good.expected.json").read_text(encoding="utf-8"))
    assert solution.raw_score >= good["result"]["raw_score"] - 1e-9
    validator = Draft202012Validator(load_schema("action"))
    invalid = [str(best_match(validator.iter_errors(a))) for a in solution.actions if not validator.is_valid(a)]
    assert invalid == []


@pytest.mark.parametrize("matter_id", _MATTER_IDS)
def test_attack_reports_every_strategy(matter_id: str) -> None:
    _, source = _load(matter_id)
    report = attack_matter(source)
    assert report.matter_id == source.matter_id
    assert report.reference.name == REFERENCE
    assert report.reference.normalized_score == solve(source.matter).normalized_score
    assert [row.name for row in report.rows] == [strategy.name for strategy in STRATEGIES]
    validator = Draft202012Validator(load_schema("action"))
    for strategy in STRATEGIES:
        actions = strategy.build(source.matter)
        assert actions[-1]["type"] == "submit_final"
        assert all(validator.is_valid(action) for action in actions), strategy.name
    for row in report.rows:
        assert 0.0 <= row.normalized_score <= 1.0
        assert row.verdict in ("pass", "fail", "reported") and row.reason
        assert row.steps <= source.matter.constraints.maximum_steps
    assert report.exit_code == (0 if report.passed else 1)
    assert json.dumps(report.to_json())
