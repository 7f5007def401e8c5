"""Unit tests: markups, counters, acceptances and settlement scoring."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from rubric_tools.scoring import Episode, replay
from rubric_tools.scoring.model import Constraints
from rubric_tools.scoring.negotiation import MARKUP_FIELDS
from tests.scoring.builders import issue_action, matter, read


def markup(label: str, text: str, section: str = "2.1") -> dict:
    return {"type": "send_markup", "issue_id": label, "document_id": "lease", "section": section, "proposed_text": text}


GOOD_TEXT = "The lessor pays for defects present at delivery."


def kinds(outcome):  # type: ignore[no-untyped-def]
    return [(e["type"], e["criterion"], e["points"]) for e in outcome.result["breakdown"]["reward_events"]]


def test_resist_then_close_on_our_text() -> None:
    outcome = replay(matter(), [markup("by-anchor", GOOD_TEXT), markup("by-anchor", GOOD_TEXT)])
    assert kinds(outcome) == [("counterparty_counter", "repairs", 0.0), ("settlement", "repairs", 1.0)]
    settlement = outcome.result["breakdown"]["reward_events"][1]
    assert settlement["closed_by"] == "ours" and settlement["missing_concepts"] == []
    assert outcome.result["breakdown"]["settled_issues"] == ["repairs"]


def test_accepting_the_trap_counter_is_critical() -> None:
    outcome = replay(matter(), [markup("lbl", "We pay."), {"type": "accept_counterparty", "issue_id": "lbl"}])
    settlement = outcome.result["breakdown"]["reward_events"][-1]
    assert settlement["closed_by"] == "theirs"
    assert settlement["critical_failure_pattern"] == "half of the cost"
    assert settlement["points"] == 0.5  # "defects" but not "lessor"
    assert outcome.result["critical_failure"] is True


def test_counters_run_out_into_rejections_and_closed_points_are_duplicates() -> None:
    outcome = replay(matter(), [markup("l", "no"), markup("l", "no"), markup("l", GOOD_TEXT), markup("l", GOOD_TEXT)])
    assert kinds(outcome) == [
        ("counterparty_counter", "repairs", 0.0),
        ("counterparty_reject", "repairs", 0.0),
        ("settlement", "repairs", 1.0),
        ("duplicate_settlement", "repairs", -0.2),
    ]


def test_unsupported_markup_burns_a_round() -> None:
    m = matter(constraints=Constraints(maximum_negotiation_rounds=2))
    outcome = replay(
        m, [markup("x", GOOD_TEXT, section="3"), markup("x", GOOD_TEXT, section="1"), markup("x", GOOD_TEXT)]
    )
    assert [k[0] for k in kinds(outcome)] == ["unsupported_markup", "unsupported_markup"]
    reasons = [e["reason"] for e in outcome.result["breakdown"]["reward_events"]]
    assert reasons[1] == "the counterparty holds no position on that provision"
    assert outcome.steps[2].reward == -0.5  # round budget exhausted: no event


def test_markup_label_comes_from_a_matched_issue() -> None:
    outcome = replay(matter(), [read("lease"), issue_action("mine"), markup("mine", GOOD_TEXT, section="3")])
    assert kinds(outcome)[-1] == ("counterparty_counter", "repairs", 0.0)


def test_accept_without_counter_or_negotiation_is_rejected_without_a_round() -> None:
    episode = Episode(matter())
    assert episode.step({"type": "accept_counterparty", "issue_id": "nobody"}).reward == -0.25
    assert episode.state.rounds_used == 0
    no_counterparty = Episode(matter(positions=MappingProxyType({})))
    assert no_counterparty.step(markup("l", GOOD_TEXT)).reward == 0.0
    assert no_counterparty.step({"type": "accept_counterparty", "issue_id": "l"}).reward == 0.0
    assert no_counterparty.state.events == []


def test_non_negotiable_point_conceded_is_critical_and_refusing_costs_nothing() -> None:
    from dataclasses import replace

    base = matter()
    repairs = replace(base.rubric.issues[0], non_negotiable=True, settlement_critical_failure_patterns=())
    m = replace(base, rubric=replace(base.rubric, issues=(repairs, base.rubric.issues[1])))
    outcome = replay(m, [markup("l", "We pay."), {"type": "accept_counterparty", "issue_id": "l"}])
    settlement = outcome.result["breakdown"]["reward_events"][-1]
    assert settlement["non_negotiable_missing"] == ["lessor"]
    assert outcome.result["critical_failure"] is True
    refused = replay(m, [markup("l", "We pay.")])
    assert refused.result["critical_failure"] is False and refused.result["raw_score"] == 0.0


def test_settlement_scaffold_pays_full_points_for_any_text() -> None:
    from dataclasses import replace

    base = matter()
    repairs = replace(base.rubric.issues[0], settlement_concepts=(), settlement_critical_failure_patterns=())
    m = replace(base, rubric=replace(base.rubric, issues=(repairs, base.rubric.issues[1])))
    outcome = replay(m, [markup("l", "anything"), {"type": "accept_counterparty", "issue_id": "l"}])
    assert outcome.result["breakdown"]["reward_events"][-1]["points"] == pytest.approx(1.0)


@pytest.mark.parametrize("missing", sorted(MARKUP_FIELDS))
def test_a_markup_missing_a_field_is_an_environment_penalty_without_a_round(missing: str) -> None:
    # Each field of MARKUP_FIELDS, which send_markup checks written out one by one.
    action = markup("l", GOOD_TEXT)
    del action[missing]
    episode = Episode(matter())
    record = episode.step(action)
    assert record.reward == -0.25 and record.events == () and episode.state.rounds_used == 0
    assert record.penalty_reason == "send_markup is missing a required field"
