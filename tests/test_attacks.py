"""Reward-hacking strategies on fixture matters: each one beats a rubric built to be
exploitable by it, and none beats the base matter (`rule_cases/_base`).

Base matter, for the arithmetic below: question 0.5, escalation 0.5 (required: −0.5
when missed), issue 3.25 (base 1, severity 0.25, citations 0.25, concepts 0.5, quote
0.25, redline 1), settlement 1, final 0.5 (−0.25 while uptime_credit is unmatched).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rubric_tools.config.attack import CEILING_STRATEGY, AttackSection
from rubric_tools.config.errors import ConfigError
from rubric_tools.config.project import config_from_mapping
from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY
from rubric_tools.prove.attacks import FAIL, PASS, REPORTED, AttackReport, attack_matter
from rubric_tools.prove.strategies import STRATEGIES
from tests.prove_support import base_data, issue, write_matter

Mutation = Callable[[dict[str, Any]], dict[str, str] | None]


def _attack(tmp_path: Path, mutate: Mutation | None = None, thresholds: AttackSection | None = None) -> AttackReport:
    data = base_data()
    documents = mutate(data) if mutate else None
    return attack_matter(write_matter(tmp_path / "matter", data, documents), thresholds)


def _row(report: AttackReport, name: str) -> Any:
    return next(row for row in report.rows if row.name == name)


def test_base_matter_resists_every_strategy(tmp_path: Path) -> None:
    report = _attack(tmp_path)
    assert report.passed and report.exit_code == 0
    assert report.reference.normalized_score == 1.0
    assert [row.name for row in report.rows] == [s.name for s in STRATEGIES]
    assert {row.verdict for row in report.rows} == {PASS, REPORTED}
    assert _row(report, "keyword-stuffing-unanchored").raw_score == pytest.approx(-1.25)  # −0.5 −0.25 −0.5
    assert _row(report, "fabricated-quotes").critical_failure


def _summary_only(data: dict[str, Any]) -> None:
    """The brief's example: the final summary's concepts are the only grading."""
    data["rubric.yaml"].update(questions=[], escalations=[], issues=[])
    data["rubric.yaml"]["final_submission"] = {
        "points": 0.5,
        "required_concepts": ["service credit", "99.9"],
        "concept_points": 1.0,
    }
    data["counterparty.yaml"] = None


def _summary_heavy(data: dict[str, Any]) -> None:
    """Issues exist, but the final summary's concepts outweigh all of them."""
    data["rubric.yaml"].update(questions=[], escalations=[])
    data["rubric.yaml"]["final_submission"] = {
        "points": 0.5,
        "required_concepts": ["service credit", "99.9"],
        "concept_points": 10.0,
    }
    data["counterparty.yaml"] = None


def _empty_summary_pays(data: dict[str, Any]) -> None:
    data["rubric.yaml"].update(escalations=[])
    data["rubric.yaml"]["final_submission"].update(minimum_characters=0, required_issue_ids=[], points=2.0)


def _redline_and_settlement_heavy(data: dict[str, Any]) -> None:
    issue(data).update(
        base_points=0.25,
        severity_points=0.0,
        citation_points=0.0,
        quote_points=0.0,
        concept_points=0.25,
        redline_points=3.0,
        settlement_points=3.0,
    )


def _anchor_and_citations_heavy(data: dict[str, Any]) -> None:
    # Citing every section matches the anchor and carries every required citation:
    # 6 + 1 of 11.5, less the missed escalation, is over half without any analysis.
    issue(data).update(base_points=6.0, citation_points=1.0)


def _lenient_cap(data: dict[str, Any]) -> None:
    data["rubric.yaml"]["critical_failure_score_cap"] = 1.0
    issue(data).update(base_points=6.0, concept_points=2.0)


def _quotes_heavy(data: dict[str, Any]) -> dict[str, str]:
    """The anchor is its document's only section, so the whole document is a verbatim
    quote of it; and quotes pay more than anything else."""
    issue(data).update(base_points=2.0, quote_points=6.0)
    return {"documents/hosting.md": "## 3.1 Availability\n\nHost will keep the platform available 99.9 percent.\n"}


def _question_heavy(data: dict[str, Any]) -> None:
    data["rubric.yaml"]["questions"][0]["points"] = 10.0


def _escalation_heavy(data: dict[str, Any]) -> None:
    data["rubric.yaml"]["escalations"][0]["points"] = 10.0


def _settlement_heavy(data: dict[str, Any]) -> None:
    issue(data).update(settlement_points=10.0)  # the base counter carries "service credit"


def _single_issue(data: dict[str, Any]) -> None:
    data["rubric.yaml"].update(questions=[], escalations=[])
    data["counterparty.yaml"] = None


#: strategy → the rubric it beats by construction
EXPLOITABLE: dict[str, Mutation] = {
    "keyword-stuffing-unanchored": _empty_summary_pays,
    "concept-stuffing-no-read": _redline_and_settlement_heavy,
    "cite-every-section": _anchor_and_citations_heavy,
    "fabricated-quotes": _lenient_cap,
    "quote-whole-contract": _quotes_heavy,
    "one-stuffed-question": _question_heavy,
    "escalate-everything": _escalation_heavy,
    "accept-every-counter": _settlement_heavy,
    "stuffed-summary": _summary_heavy,
    "many-labels": _single_issue,
}


def test_every_strategy_but_the_ceiling_has_an_exploitable_fixture() -> None:
    assert set(EXPLOITABLE) == {s.name for s in STRATEGIES} - {CEILING_STRATEGY}


@pytest.mark.parametrize("strategy", sorted(EXPLOITABLE))
def test_strategy_beats_the_rubric_built_for_it(tmp_path: Path, strategy: str) -> None:
    report = _attack(tmp_path, EXPLOITABLE[strategy])
    row = _row(report, strategy)
    assert row.verdict == FAIL, row
    assert not report.passed and report.exit_code == 1
    assert row.reason


def test_unanchored_stuffing_fails_on_raw_score(tmp_path: Path) -> None:
    row = _row(_attack(tmp_path, _empty_summary_pays), "keyword-stuffing-unanchored")
    assert row.raw_score == pytest.approx(2.0 - 0.5)  # the empty summary pays; one unsupported issue
    assert "unanchored-max-raw" in row.reason


def test_stuffed_summary_is_a_clean_matters_reported_ceiling(tmp_path: Path) -> None:
    report = _attack(tmp_path, _summary_only)  # issues: [] — the summary is the work product
    row = _row(report, "stuffed-summary")
    assert row.normalized_score == 1.0 and report.reference.normalized_score == 1.0
    assert row.verdict == REPORTED and "clean-matter ceiling" in row.reason


def test_critical_failure_counts_through_the_cap(tmp_path: Path) -> None:
    row = _row(_attack(tmp_path, _lenient_cap), "fabricated-quotes")
    assert row.critical_failure and "despite a critical failure" in row.reason


def test_ceiling_is_reported_not_failed_unless_configured(tmp_path: Path) -> None:
    report = _attack(tmp_path)
    ceiling = _row(report, CEILING_STRATEGY)
    assert ceiling.verdict == REPORTED and ceiling.normalized_score >= 0.5
    strict = _attack(tmp_path, thresholds=AttackSection(exempt=()))
    assert _row(strict, CEILING_STRATEGY).verdict == FAIL


def thresholds_from_config(table: dict[str, Any]) -> AttackSection:
    """The attack section of a configuration holding `table` as `[attack]`."""
    return config_from_mapping({"attack": table}, CONFIG_VOCABULARY).attack


def test_thresholds_are_configurable(tmp_path: Path) -> None:
    lenient = thresholds_from_config({"unanchored-max-raw": 5, "max-fraction-of-reference": 1.0})
    report = _attack(tmp_path, _question_heavy, lenient)
    assert _row(report, "one-stuffed-question").verdict == PASS


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"max-fraction": 0.5}, "did you mean 'max-fraction-of-reference'"),
        ({"max-fraction-of-reference": 2}, "between 0 and 1"),
        ({"unanchored-max-raw": "zero"}, "must be a number"),
        ({"exempt": ["stuffed-sumary"]}, "did you mean 'stuffed-summary'"),
        ({"exempt": "stuffed-summary"}, "list of strategy names"),
    ],
)
def test_bad_thresholds_are_reported(table: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        thresholds_from_config(table)


def test_report_json_has_every_row(tmp_path: Path) -> None:
    document = _attack(tmp_path).to_json()
    assert document["passed"] is True
    assert document["reference"]["normalized_score"] == 1.0
    assert len(document["strategies"]) == len(STRATEGIES)


def test_attack_rows_adapter_gives_one_row_per_strategy(tmp_path: Path) -> None:
    from rubric_tools.checking.attack_rows import attack_rows
    from rubric_tools.config.attack import AttackSection
    from rubric_tools.config.resolve import load_config_file
    from rubric_tools.lint.vocabulary import CONFIG_VOCABULARY

    data = base_data()
    _question_heavy(data)
    source = write_matter(tmp_path / "matter", data)
    rows = attack_rows(source, AttackSection())
    assert [row.name for row in rows] == [s.name for s in STRATEGIES]
    assert [row.name for row in rows if not row.passed] == ["one-stuffed-question"]
    (tmp_path / "rubric.toml").write_text('[attack]\nexempt = ["one-stuffed-question"]\n')
    rows = attack_rows(source, load_config_file(tmp_path / "rubric.toml", CONFIG_VOCABULARY).attack)
    assert all(row.passed for row in rows)
