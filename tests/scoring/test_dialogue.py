"""Unit tests: reading, searching, questions, escalations, budgets and the final."""

from __future__ import annotations

import pytest

from rubric_tools.scoring import Episode, derived_max_score, replay
from tests.scoring.builders import issue_action, matter, read


def step(episode: Episode, action: object) -> float:
    return episode.step(action).reward


def test_derived_max_score_counts_settlement_only_for_positioned_issues() -> None:
    m = matter()
    # questions .75 + escalations 1.25 + repairs 3.25 + settlement 1 + rent 2.25 + final 1.0
    assert derived_max_score(m.rubric, m.positions) == pytest.approx(9.5)
    assert derived_max_score(m.rubric, {}) == pytest.approx(8.5)


def test_read_document_records_citations_and_penalises_unknown_targets() -> None:
    episode = Episode(matter())
    assert step(episode, read("nope")) == -0.2
    assert step(episode, read("lease", "9")) == -0.1
    assert step(episode, read("lease", "2.1")) == 0.0
    assert step(episode, read("policy")) == 0.0
    assert step(episode, read("lease", "")) == 0.0  # reads the whole text, records "lease §"
    assert episode.state.read_citations == {"lease §2.1", "policy §full", "policy §1", "lease §"}
    assert episode.state.events == []  # reads and penalties record no events


def test_search_needs_three_characters() -> None:
    episode = Episode(matter())
    assert step(episode, {"type": "search_matter", "query": " ab "}) == -0.1
    assert step(episode, {"type": "search_matter", "query": "abc"}) == 0.0
    assert step(episode, {"type": "search_matter", "query": None}) == 0.0  # "None" has 4 characters


def test_question_matching_aliases_redundancy_off_rubric_and_budget() -> None:
    episode = Episode(matter())
    assert step(episode, {"type": "ask_client", "question": "What is your USAGE?"}) == 0.5
    assert step(episode, {"type": "ask_client", "question": "How many Hours per  week?"}) == -0.15
    assert step(episode, {"type": "ask_client", "question": "   "}) == -0.25  # not counted
    assert step(episode, {"type": "ask_client", "question": "Favourite colour?"}) == -0.1
    assert step(episode, {"type": "ask_client", "question": "budget?"}) == -0.5  # budget of 3
    assert episode.state.questions_asked_total == 3
    assert episode.state.events[2] == {"type": "off_rubric_question", "criterion": "favourite colour?", "points": -0.1}
    fresh = Episode(matter())
    assert step(fresh, {"type": "ask_client", "question": "Is there a BUDGET?"}) == 0.25


def test_escalation_matches_topic_plus_reason_and_has_its_own_budget() -> None:
    episode = Episode(matter())
    assert step(episode, {"type": "escalate", "topic": "Defect costs", "reason": ""}) == -0.25
    assert step(episode, {"type": "escalate", "topic": "Defect costs", "reason": "beyond my authority"}) == 0.75
    assert step(episode, {"type": "escalate", "topic": "weather", "reason": "rain"}) == -0.25
    assert step(episode, {"type": "escalate", "topic": "safety", "reason": "recall"}) == -0.5
    assert [e["type"] for e in episode.state.events] == ["required_escalation", "off_rubric_escalation"]


def test_unknown_action_types_and_non_objects_cost_half_a_point() -> None:
    episode = Episode(matter())
    for action in ({"type": "READ_DOCUMENT"}, {"type": None}, {}, {"type": ["x"]}, ["not", "an", "object"]):
        assert step(episode, action) == -0.5
    assert episode.state.raw_score == 0.0


def test_final_settles_up_escalations_and_scores_summary_concepts() -> None:
    m = matter()
    summary = "The repairs clause must move defect costs to the lessor before signing."
    result = replay(m, [{"type": "submit_final", "summary": summary}]).result
    final = result["breakdown"]["reward_events"][0]
    # 0.5 for length, -0.25 repairs missing, -0.5 missed required escalation, +0.5 concepts
    assert final["points"] == pytest.approx(0.25)
    assert final["missing_issues"] == ["repairs"]
    assert final["missed_escalations"] == ["esc_defects"]
    assert final["missed_critical_escalations"] == ["esc_safety"]
    assert result["critical_failure"] is True
    assert result["normalized_score"] == pytest.approx(round(0.25 / 9.5, 4))
    assert result["terminated"] is True


def test_short_summary_earns_no_points_and_later_actions_are_ignored() -> None:
    outcome = replay(matter(), [{"type": "submit_final", "summary": "  too short  "}, read("lease")])
    assert len(outcome.steps) == 1
    assert outcome.result["breakdown"]["reward_events"][0]["points"] == pytest.approx(-0.75)


def test_truncation_at_maximum_steps() -> None:
    from rubric_tools.scoring.model import Constraints

    m = matter(constraints=Constraints(maximum_steps=2))
    outcome = replay(m, [read("lease"), read("lease"), read("lease")])
    assert len(outcome.steps) == 2
    assert outcome.result["truncated"] is True and outcome.result["terminated"] is False


def test_normalization_is_clamped_and_capped() -> None:
    m = matter()
    outcome = replay(m, [issue_action(citations=["bogus §1"])])
    assert outcome.result["raw_score"] == pytest.approx(-1.25)
    assert outcome.result["normalized_score"] == 0.0
