"""The solver on fixture matters: reachable ones are solved to max_score, and each
unreachable-by-construction one is explained by exactly the expected typed shortfalls.

The base matter (`rule_cases/_base`) is worth 5.75: question 0.5, escalation 0.5
(required: 0.5 more if missed), issue 3.25 (base 1, severity 0.25, citations 0.25,
concepts 0.5 over two, quote 0.25, redline 1 over one concept), settlement 1, final 0.5.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rubric_tools.prove import Reason, Solution, solve
from tests.prove_support import base_data, issue, write_matter

BASE_MAX = 5.75
Mutation = Callable[[dict[str, Any]], dict[str, str] | None]


def _solve(tmp_path: Path, mutate: Mutation | None = None) -> Solution:
    data = base_data()
    documents = mutate(data) if mutate else None
    return solve(write_matter(tmp_path / "matter", data, documents).matter)


def _assert_explained(solution: Solution) -> None:
    """Every point between the raw score and max_score is named by a shortfall."""
    assert not solution.result["truncated"]
    assert solution.result["terminated"]
    assert solution.unexplained_points == pytest.approx(0.0, abs=1e-9), solution.shortfalls


def _types(solution: Solution) -> list[str]:
    return [action["type"] for action in solution.actions]


# --------------------------------------------------------------------------- reachable


def test_base_matter_reaches_max_score(tmp_path: Path) -> None:
    solution = _solve(tmp_path)
    assert solution.reached and solution.exit_code == 0
    assert solution.raw_score == solution.max_score == BASE_MAX
    assert solution.shortfalls == ()
    assert _types(solution)[-1] == "submit_final"
    assert {"ask_client", "escalate", "submit_issue", "propose_redline", "send_markup"} <= set(_types(solution))
    # One whole-document read records every token: the anchor document is read once.
    reads = [a for a in solution.actions if a["type"] == "read_document"]
    assert reads[0] == {"type": "read_document", "document_id": "hosting", "section": None}


def test_issue_cites_anchor_first_with_a_verbatim_quote(tmp_path: Path) -> None:
    submitted = next(a for a in _solve(tmp_path).actions if a["type"] == "submit_issue")
    assert submitted["citations"] == ["hosting §3.1", "guide §2"]
    assert submitted["severity"] == "medium"
    quote = submitted["quotes"][0]
    assert quote["citation"] == "hosting §3.1"
    assert quote["text"] in (Path(__file__).parent / "rule_cases/_base/documents/hosting.md").read_text()


def test_resist_rounds_are_sat_out_with_the_same_markup(tmp_path: Path) -> None:
    def resist(data: dict[str, Any]) -> None:
        data["counterparty.yaml"]["positions"]["uptime_credit"]["resist_rounds"] = 2

    solution = _solve(tmp_path, resist)
    markups = [a for a in solution.actions if a["type"] == "send_markup"]
    assert len(markups) == 3 and len({a["proposed_text"] for a in markups}) == 1
    assert "accept_counterparty" not in _types(solution)
    assert solution.reached


def test_reorders_concepts_when_only_their_combination_trips_a_gate(tmp_path: Path) -> None:
    def ordered_gate(data: dict[str, Any]) -> None:
        issue(data)["critical_failure_patterns"] = ["service credit.*99.9"]

    solution = _solve(tmp_path, ordered_gate)
    assert solution.reached, solution.shortfalls


def test_accepts_a_counter_only_when_no_markup_of_ours_scores(tmp_path: Path) -> None:
    def gated_ask(data: dict[str, Any]) -> None:
        data["counterparty.yaml"]["positions"]["uptime_credit"]["accept_concepts"] = [["ten percent"]]
        issue(data)["settlement_critical_failure_patterns"] = ["ten percent"]

    solution = _solve(tmp_path, gated_ask)
    assert solution.reached, solution.shortfalls
    assert _types(solution).count("accept_counterparty") == 1
    settlement = [e for e in solution.result["breakdown"]["reward_events"] if e["type"] == "settlement"]
    assert settlement[0]["closed_by"] == "theirs"


def test_settlement_reached_through_the_anchor_target_when_the_section_is_missing(tmp_path: Path) -> None:
    def missing_section(data: dict[str, Any]) -> None:
        issue(data)["anchor"] = "hosting §9"
        issue(data)["required_citations"] = ["guide §2"]

    solution = _solve(tmp_path, missing_section)
    assert solution.result["breakdown"]["settled_issues"] == ["uptime_credit"]
    assert [s.reason for s in solution.shortfalls] == [Reason.MISSING_ANCHOR, Reason.MISSING_ANCHOR]


# --------------------------------------------------------------------------- unreachable


def _constraint(key: str, value: int) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        data["matter.yaml"]["constraints"][key] = value

    return mutate


def _issue_field(key: str, value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        issue(data)[key] = value

    return mutate


def _position_field(key: str, value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        data["counterparty.yaml"]["positions"]["uptime_credit"][key] = value

    return mutate


def _both(*mutations: Mutation) -> Mutation:
    def mutate(data: dict[str, Any]) -> dict[str, str] | None:
        documents: dict[str, str] = {}
        for mutation in mutations:
            documents.update(mutation(data) or {})
        return documents

    return mutate


def _rubric(key: str, value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        data["rubric.yaml"][key] = value

    return mutate


def _final(key: str, value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        data["rubric.yaml"]["final_submission"][key] = value

    return mutate


def _questions(*items: dict[str, Any]) -> Mutation:
    return _rubric("questions", list(items))


def _short_anchor_section(data: dict[str, Any]) -> dict[str, str]:
    return {"documents/hosting.md": "# Hosting\n\n## 3.1 Up\n\n## 4 Term\n\nThis agreement runs for one year.\n"}


_DUPLICATE_ISSUE = {
    "id": "uptime_again",
    "anchor": "hosting §3.1",
    "severity": "low",
    "required_concepts": ["uptime"],
    "redline_concepts": ["uptime"],
}

#: (fixture, mutation, expected [(reason, points)] in any order)
UNREACHABLE: list[tuple[str, Mutation, list[tuple[Reason, float]]]] = [
    ("too few steps", _constraint("maximum_steps", 5), [(Reason.BUDGET, 0.5), (Reason.BUDGET, 1.0)]),
    ("no client questions", _constraint("maximum_client_questions", 0), [(Reason.BUDGET, 0.5)]),
    ("no escalations", _constraint("maximum_escalations", 0), [(Reason.BUDGET, 1.0)]),
    (
        "resistance outlasts the rounds",
        _both(_position_field("resist_rounds", 5), _position_field("counters", [])),
        [(Reason.BUDGET, 1.0)],
    ),
    (
        "required concept trips the issue gate",
        _both(
            _issue_field("required_concepts", ["service credit", "unenforceable"]),
            _issue_field("critical_failure_patterns", ["unenforceable"]),
        ),
        [(Reason.GATE_ON_REQUIRED_LANGUAGE, 0.25)],
    ),
    (
        "concepts trip the issue gate only together",
        _issue_field("critical_failure_patterns", ["service credit.*99.9|99.9.*service credit"]),
        [(Reason.GATE_ON_REQUIRED_LANGUAGE, 0.25)],
    ),
    (
        "redline concept trips the redline gate",
        _both(
            _issue_field("redline_concepts", ["service credit", "credit is waived"]),
            _issue_field("redline_critical_failure_patterns", ["waived"]),
        ),
        [(Reason.GATE_ON_REQUIRED_LANGUAGE, 0.5)],
    ),
    (
        "issue gate fires on any text",
        _issue_field("critical_failure_patterns", ["^"]),
        [(Reason.GATE_ON_REQUIRED_LANGUAGE, 2.25), (Reason.GATE_ON_REQUIRED_LANGUAGE, 0.25)],
    ),
    (
        "question shadowed by an earlier one",
        _questions(
            {"id": "q_region", "points": 0.25, "concepts": ["region"]},
            {"id": "q_backup_region", "points": 0.5, "concepts": ["backup", "region"]},
        ),
        [(Reason.SHADOWED_VARIANT, 0.5)],
    ),
    (
        "no accept variant and no counter",
        _both(_position_field("accept_concepts", []), _position_field("counters", [])),
        [(Reason.SETTLEMENT_NEVER_ACCEPTED, 1.0)],
    ),
    (
        "every acceptable text and counter gated",
        _both(
            _position_field("accept_concepts", [["ten percent"]]),
            _issue_field("settlement_critical_failure_patterns", ["ten percent", "five percent"]),
        ),
        [(Reason.SETTLEMENT_NEVER_ACCEPTED, 1.0)],
    ),
    (
        "non-negotiable point whose concept is gated is left open",
        _both(
            _issue_field("settlement_concepts", ["service credit", "ten percent"]),
            _issue_field("settlement_critical_failure_patterns", ["ten percent"]),
            _issue_field("non_negotiable", True),
        ),
        [(Reason.SETTLEMENT_NEVER_ACCEPTED, 1.0)],
    ),
    (
        "negotiable point closes on the concepts it can carry",
        _both(
            _issue_field("settlement_concepts", ["service credit", "ten percent"]),
            _issue_field("settlement_critical_failure_patterns", ["ten percent"]),
        ),
        [(Reason.SETTLEMENT_NEVER_ACCEPTED, 0.5)],
    ),
    ("concept points without concepts", _issue_field("required_concepts", []), [(Reason.UNREACHABLE_COMPONENT, 0.5)]),
    (
        "redline points without redline concepts",
        _issue_field("redline_concepts", []),
        [(Reason.UNREACHABLE_COMPONENT, 1.0)],
    ),
    ("final concept points without concepts", _final("concept_points", 0.5), [(Reason.UNREACHABLE_COMPONENT, 0.5)]),
    (
        "question without concepts",
        _questions({"id": "q_empty", "points": 0.5, "concepts": []}),
        [(Reason.UNREACHABLE_COMPONENT, 0.5)],
    ),
    (
        "two questions share an id",
        _questions(
            {"id": "q_backup_region", "points": 0.5, "concepts": ["backup"]},
            {"id": "q_backup_region", "points": 0.25, "concepts": ["region"]},
        ),
        [(Reason.UNREACHABLE_COMPONENT, 0.25)],
    ),
    ("declared max above the derived", _rubric("max_score", 10.0), [(Reason.DECLARED_MAX_MISMATCH, 4.25)]),
    (
        "anchor section missing",
        _issue_field("anchor", "hosting §9"),
        [(Reason.MISSING_ANCHOR, 3.25), (Reason.MISSING_ANCHOR, 0.25)],
    ),
    (
        "anchor document missing",
        _issue_field("anchor", "lease §3.1"),
        [(Reason.MISSING_ANCHOR, 3.25), (Reason.MISSING_ANCHOR, 0.25)],
    ),
    (
        "anchor not in canonical form",
        _issue_field("anchor", "hosting  §3.1"),
        [(Reason.MISSING_ANCHOR, 3.25), (Reason.MISSING_ANCHOR, 0.25)],
    ),
    (
        "anchor shared with an earlier issue",
        _rubric("issues", [base_data()["rubric.yaml"]["issues"][0], _DUPLICATE_ISSUE]),
        [(Reason.MISSING_ANCHOR, 3.25)],
    ),
    (
        "required citation resolves nowhere",
        _issue_field("required_citations", ["hosting §3.1", "guide §7"]),
        [(Reason.UNRESOLVABLE_CITATION, 0.25)],
    ),
    ("anchor section too short to quote", _short_anchor_section, [(Reason.UNQUOTABLE_ANCHOR, 0.25)]),
    (
        "required issue id that no issue has",
        _final("required_issue_ids", ["uptime_credit", "ghost"]),
        [(Reason.UNKNOWN_REQUIRED_ISSUE, 0.25)],
    ),
]


@pytest.mark.parametrize(("mutation", "expected"), [pytest.param(m, e, id=n) for n, m, e in UNREACHABLE])
def test_unreachable_by_construction(tmp_path: Path, mutation: Mutation, expected: list[tuple[Reason, float]]) -> None:
    solution = _solve(tmp_path, mutation)
    got = sorted((s.reason, round(s.points, 6)) for s in solution.shortfalls)
    assert got == sorted((reason, round(points, 6)) for reason, points in expected), solution.shortfalls
    assert solution.exit_code == 1 and not solution.reached
    assert not solution.critical_failure, "the solver must never plan a critical failure"
    if not any(s.reason is Reason.DECLARED_MAX_MISMATCH for s in solution.shortfalls):
        _assert_explained(solution)


def test_budget_shortfalls_name_the_budget(tmp_path: Path) -> None:
    solution = _solve(tmp_path, _constraint("maximum_steps", 5))
    assert {s.detail["budget"] for s in solution.shortfalls} == {"maximum_steps"}
    assert solution.result["steps"] == 5


def test_gate_shortfall_names_gate_and_concept(tmp_path: Path) -> None:
    solution = _solve(
        tmp_path,
        _both(
            _issue_field("required_concepts", ["service credit", "unenforceable"]),
            _issue_field("critical_failure_patterns", ["unenforceable"]),
        ),
    )
    (shortfall,) = solution.shortfalls
    assert shortfall.detail == {"gate": "unenforceable", "concept": "unenforceable"}
    assert shortfall.path == ("issues", 0, "required_concepts", 1)


def test_shadowed_critical_escalation_is_a_critical_shortfall(tmp_path: Path) -> None:
    def shadowed(data: dict[str, Any]) -> None:
        data["rubric.yaml"]["escalations"] = [
            {"id": "esc_credit", "points": 0.25, "concepts": ["credit"]},
            {"id": "esc_uptime_credit", "points": 0.5, "critical_if_missed": True, "concepts": ["service credit"]},
        ]

    solution = _solve(tmp_path, shadowed)
    (shortfall,) = solution.shortfalls
    assert shortfall.reason is Reason.SHADOWED_VARIANT and shortfall.critical
    assert shortfall.detail == {"shadowed_by": "esc_credit"}
    assert solution.critical_failure and solution.exit_code == 1


def test_declared_max_below_derived_is_still_reported(tmp_path: Path) -> None:
    solution = _solve(tmp_path, _rubric("max_score", 5.0))
    assert solution.normalized_score == 1.0
    assert [s.reason for s in solution.shortfalls] == [Reason.DECLARED_MAX_MISMATCH]
    assert solution.exit_code == 1


def test_unresolvable_citation_is_not_cited(tmp_path: Path) -> None:
    solution = _solve(tmp_path, _issue_field("required_citations", ["hosting §3.1", "guide §7"]))
    submitted = next(a for a in solution.actions if a["type"] == "submit_issue")
    assert submitted["citations"] == ["hosting §3.1"]
    assert solution.result["breakdown"]["invalid_citations"] == []


# --------------------------------------------------------------------------- degenerate input


def _set(path: tuple[Any, ...], value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return mutate


DEGENERATE: dict[str, Mutation] = {
    "rubric is a list": _set(("rubric.yaml",), ["not", "a", "mapping"]),
    "issue entries that are not mappings": _rubric("issues", ["oops", base_data()["rubric.yaml"]["issues"][0]]),
    "no steps at all": _constraint("maximum_steps", 0),
    "absurd resistance and budgets": _both(
        _position_field("resist_rounds", 10**12),
        _constraint("maximum_steps", 10**12),
        _constraint("maximum_negotiation_rounds", 10**12),
    ),
    "absurd summary minimum": _final("minimum_characters", 10**9),
    "negative points": _both(_issue_field("redline_points", -1.0), _questions({"id": "q", "points": -2.0})),
    "no severity": _issue_field("severity", None),
    "counterparty without positions": _set(("counterparty.yaml",), {"positions": None}),
}


@pytest.mark.parametrize("mutation", [pytest.param(m, id=n) for n, m in DEGENERATE.items()])
def test_degenerate_input_is_explained_not_raised(tmp_path: Path, mutation: Mutation) -> None:
    solution = _solve(tmp_path, mutation)
    assert not any(s.reason is Reason.REPLAY_MISMATCH for s in solution.shortfalls), solution.shortfalls
    # Negative components are out of the trajectory: the raw score may exceed max_score.
    assert solution.unexplained_points <= 1e-9
    assert len(solution.actions) <= 10_000


def test_an_issue_id_yaml_11_reads_as_a_date_loses_only_its_redline(tmp_path: Path) -> None:
    """The engine scores no redline of an issue whose id is not text (conformance-edge H08d):
    the plan earns everything else and names the redline points as unreachable."""
    day = datetime.date(2024, 1, 1)

    def dated(data: dict[str, Any]) -> None:
        issue(data)["id"] = day
        data["rubric.yaml"]["final_submission"]["required_issue_ids"] = [day]
        positions = data["counterparty.yaml"]["positions"]
        positions[day] = positions.pop("uptime_credit")

    solution = _solve(tmp_path, dated)
    _assert_explained(solution)
    assert [(s.reason, s.points) for s in solution.shortfalls] == [(Reason.UNREACHABLE_COMPONENT, 1.0)]
    assert "date" in solution.shortfalls[0].message
    assert solution.raw_score == pytest.approx(BASE_MAX - 1.0)
    assert solution.result["breakdown"]["matched_issues"] == [day]
    assert "propose_redline" not in _types(solution)
