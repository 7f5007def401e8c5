"""P007/P008 count a minimal perfect trajectory; the scorer confirms it is reachable.

The budget rules claim "no trajectory can earn every point within the budget". These
tests replay, with the embedded scorer, a trajectory exactly as long as the rules'
count on the rule-case base matter, and check it earns every point — so the count is
never larger than needed (which would cry wolf).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from rubric_tools.lint.plans import round_plan_of, step_plan_of
from rubric_tools.loading import load_matter_source
from rubric_tools.scoring import replay
from rubric_tools.scoring.model import Position

BASE_MATTER = Path(__file__).parent / "rule_cases" / "_base"
LABEL = "credit-gap"

ISSUE = {
    "type": "submit_issue",
    "issue_id": LABEL,
    "title": "No service credit",
    "severity": "medium",
    "citations": ["hosting §3.1", "guide §2"],
    "analysis": "The 99.9 percent target carries no service credit.",
    "recommendation": "Require a service credit.",
    "quotes": [{"citation": "hosting §3.1", "text": "No credit is owed for downtime."}],
}
REDLINE = {
    "type": "propose_redline",
    "issue_id": LABEL,
    "document_id": "hosting",
    "section": "3.1",
    "replacement_text": "Host shall provide a service credit for each month below target.",
    "rationale": "Playbook requires a credit.",
}


def _markup(text: str) -> dict[str, Any]:
    return {"type": "send_markup", "issue_id": LABEL, "document_id": "hosting", "section": "3.1", "proposed_text": text}


def _trajectory(*negotiation: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"type": "read_document", "document_id": "hosting"},
        {"type": "ask_client", "question": "Which region must the backups stay in?"},
        {"type": "escalate", "topic": "Service credit", "reason": "Approval for the credit we ask for."},
        ISSUE,
        REDLINE,
        *negotiation,
        {"type": "submit_final", "summary": "The hosting agreement lacks a service credit; " * 3},
    ]


def test_the_counted_steps_earn_every_point() -> None:
    matter = load_matter_source(BASE_MATTER).matter
    needed = step_plan_of(matter).total
    actions = _trajectory(_markup("Host shall provide a service credit."))
    assert needed == len(actions) == 7
    tight = replace(matter, constraints=replace(matter.constraints, maximum_steps=needed))
    result = replay(tight, actions).result
    assert result["normalized_score"] == 1.0
    assert not result["truncated"] and result["terminated"]


def test_accepting_a_clean_counter_is_the_shorter_way_to_settle() -> None:
    base = load_matter_source(BASE_MATTER).matter
    stubborn = replace(base.positions["uptime_credit"], resist_rounds=4)
    matter = replace(base, positions={"uptime_credit": stubborn})
    plan = round_plan_of(matter)
    assert plan.total == 2  # not resist_rounds + 1 = 5
    tight = replace(matter, constraints=replace(matter.constraints, maximum_negotiation_rounds=plan.total))
    actions = _trajectory(
        _markup("Host shall provide a service credit."), {"type": "accept_counterparty", "issue_id": LABEL}
    )
    result = replay(tight, actions).result
    assert result["normalized_score"] == 1.0
    assert result["breakdown"]["settled_issues"] == ["uptime_credit"]


def test_a_counter_that_loses_points_is_no_shortcut() -> None:
    base = load_matter_source(BASE_MATTER).matter
    position: Position = base.positions["uptime_credit"]
    stubborn = replace(position, resist_rounds=4)
    issue = replace(base.rubric.issues[0], settlement_concepts=("service credit", "ten percent"))
    rubric = replace(base.rubric, issues=(issue,))
    matter = replace(base, rubric=rubric, positions={"uptime_credit": stubborn})
    assert round_plan_of(matter).total == 5
