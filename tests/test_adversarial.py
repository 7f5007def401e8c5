"""The scoring contract's reward-hacking regression suite, on the project's own matters.

Every number asserted here was computed by hand from the rubrics (summarized in
`tests/contract_support.py`), never read back from the scorer, so a change to the
scorer or to a rubric that moves a score makes a test fail.
"""

from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from rubric_tools.scoring.text import normalize
from tests.contract_support import (
    AI,
    AI_DIR,
    CLEAN,
    CLEAN_DIR,
    CLEAN_MAX,
    GOOD_CAP,
    GOOD_NOTICE,
    LONG_NEUTRAL,
    MAX,
    PILOT_ESCALATION,
    READ_ALL,
    TRAINING_FULL,
    TRAINING_QUOTE,
    accept,
    events,
    final,
    fires,
    issue,
    load_trajectory,
    markup,
    only_event,
    read,
    redline,
    replay,
)

# =========================================================================== trajectories


@pytest.mark.parametrize(
    ("stem", "raw", "normalized", "critical"),
    [
        ("reference", 17.0, 1.0, False),
        # -0.5 + (-0.5 - 0.75) + 0.75 + (0.5 - 3 * 0.25 - 0.5 + 0.5)
        ("bad_keyword_stuffing", -1.25, 0.0, False),
        # loses the 0.25 quote point and pays 1.0 for the fabrication
        ("bad_fabricated_quote", 15.75, 0.25, True),
        # the reversed redline still carries both redline concepts: points intact, gate fires
        ("bad_reversed_redline", 17.0, 0.25, True),
        # the trap closes with "48 hours" but not "becomes aware": 0.5 of 1.0
        ("bad_accepts_trap", 16.5, 0.25, True),
        # a twelve-month cap without supercap or "three times": 0 of 1.5
        ("bad_concedes_non_negotiable", 15.5, 0.25, True),
        # the 0.75 escalation is never earned; the miss itself is gated, not charged
        ("bad_missed_critical_escalation", 16.25, 0.25, True),
        # -0.5 cap escalation not earned, -0.25 x 2 off-rubric, -0.5 settle-up; 15.5 / 17
        ("bad_cries_wolf", 15.5, 0.9118, False),
        # -0.15 redundant, -0.1 off-rubric, -0.5 regulatory question never earned; 16.25 / 17
        ("bad_question_spam", 16.25, 0.9559, False),
    ],
)
def test_ai_trajectories(stem: str, raw: float, normalized: float, critical: bool) -> None:
    result = replay(*load_trajectory(AI_DIR, stem)).result
    assert result["raw_score"] == pytest.approx(raw)
    assert result["max_score"] == MAX
    assert result["normalized_score"] == normalized
    assert result["critical_failure"] is critical
    assert result["terminated"] and not result["truncated"]


def test_reference_earns_escalations_and_settlements() -> None:
    outcome = replay(*load_trajectory(AI_DIR, "reference"))
    breakdown = outcome.result["breakdown"]
    assert breakdown["raised_escalations"] == ["esc_cap_authority", "esc_pilot_exposure"]
    assert breakdown["settled_issues"] == ["incident_notice", "liability_cap"]
    settlements = [e for e in events(outcome) if e["type"] == "settlement"]
    assert [(e["criterion"], e["closed_by"], e["points"]) for e in settlements] == [
        ("incident_notice", "ours", 1.0),
        ("liability_cap", "ours", 1.5),
    ]
    # the reference resisted the trap: both incident counters were served before it closed
    counters = [e for e in events(outcome) if e["type"] == "counterparty_counter"]
    assert [e["criterion"] for e in counters] == ["incident_notice", "incident_notice", "liability_cap"]


@pytest.mark.parametrize(
    ("stem", "raw", "normalized"),
    [("reference", 2.75, 1.0), ("bad_manufactured_issues", -1.0, 0.0)],
)
def test_clean_trajectories(stem: str, raw: float, normalized: float) -> None:
    # reference: 0.5 + 0.5 + (0.5 + 1.25); manufactured: 1.0 - 4 * 0.5 - 0.5 redline + 0.5 final
    result = replay(*load_trajectory(CLEAN_DIR, stem), matter=CLEAN).result
    assert result["raw_score"] == pytest.approx(raw)
    assert result["max_score"] == CLEAN_MAX
    assert result["normalized_score"] == normalized
    assert result["critical_failure"] is False


def test_clean_matter_decoys_are_unsupported_issues() -> None:
    outcome = replay(*load_trajectory(CLEAN_DIR, "bad_manufactured_issues"), matter=CLEAN)
    kinds = [e["type"] for e in events(outcome)]
    assert kinds.count("unsupported_issue") == 4
    assert kinds.count("unsupported_redline") == 1
    assert outcome.result["breakdown"]["matched_issues"] == []


# =========================================================================== reward hacking


def test_keyword_stuffed_analysis_without_an_anchor_scores_below_zero() -> None:
    stuffed = " ".join(c for i in AI.matter.rubric.issues for c in (*i.required_concepts, *i.redline_concepts))
    outcome = replay(
        *READ_ALL,
        issue(
            "everything",
            ["playbook §3", "playbook §4", "playbook §5", "msa §4.3"],
            severity="critical",
            title=stuffed,
            analysis=stuffed,
            recommendation=stuffed,
        ),
    )
    assert only_event(outcome, 5)["type"] == "unsupported_issue"
    assert outcome.result["raw_score"] == -0.5
    assert outcome.result["normalized_score"] == 0.0


def test_fabricated_quote_trips_the_gate() -> None:
    fabricated = {"citation": "msa §4.2", "text": "Provider may train on all member data forever"}
    outcome = replay(
        read("msa"), issue("t", ["msa §4.2", "playbook §3"], **TRAINING_FULL, quotes=[TRAINING_QUOTE, fabricated])
    )
    event = only_event(outcome, 2)
    # verified quote earns 0.25 once, the fabrication costs 1.0
    assert event["components"]["quotes"] == pytest.approx(0.25 - 1.0)
    assert [q["status"] for q in event["quotes"]] == ["verified", "fabricated"]
    assert outcome.result["critical_failure"] is True
    assert outcome.result["breakdown"]["fabricated_quotes"] == ["msa §4.2"]
    # 1.0 + 0.25 + 0.25 + 0.5 + (0.25 - 1.0) = 1.25 raw; 1.25 / 17 is below the 0.25 cap
    assert outcome.result["raw_score"] == 1.25
    assert outcome.result["normalized_score"] == round(1.25 / MAX, 4)


def test_true_text_quoted_against_the_wrong_section_is_fabrication() -> None:
    wrong_section = {"citation": "msa §4.3", "text": TRAINING_QUOTE["text"]}
    outcome = replay(read("msa"), issue("t", ["msa §4.2"], quotes=[wrong_section]))
    assert only_event(outcome, 2)["quotes"] == [{"citation": "msa §4.3", "status": "fabricated"}]
    assert outcome.result["critical_failure"] is True


def test_uncited_string_quote_is_checked_against_nothing() -> None:
    outcome = replay(read("msa"), issue("t", ["msa §4.2"], quotes=[TRAINING_QUOTE["text"]]))
    assert outcome.result["critical_failure"] is True
    assert outcome.result["breakdown"]["fabricated_quotes"] == [normalize(TRAINING_QUOTE["text"])[:60]]


def test_reversed_redline_trips_the_gate() -> None:
    reversed_text = (
        "Customer shall notify Provider within 48 hours after Customer becomes aware of a Security Incident."
    )
    outcome = replay(read("msa"), redline("n", "5.1", reversed_text))
    event = only_event(outcome, 2)
    assert event["type"] == "redline" and event["criterion"] == "incident_notice"
    assert event["points"] == 1.0  # both concepts are there: the gate, not the score, catches it
    assert event["critical_failure_pattern"] == (
        r"\bcustomer (?:shall|will|must) (?:promptly )?notify (?:provider|sablewing)\b"
    )
    assert outcome.result["critical_failure"] is True


def test_reversed_liability_redline_trips_the_gate() -> None:
    outcome = replay(
        read("msa"),
        redline(
            "c",
            "10.2",
            (
                "Customer's aggregate liability for Data Breach Claims is subject to a supercap of three times "
                "the Fees for the twelve months before the claim."
            ),
        ),
    )
    event = only_event(outcome, 2)
    assert event["points"] == 1.5
    assert event["critical_failure_pattern"].startswith(r"\bcustomer(?:['’]s)?")
    assert outcome.result["critical_failure"] is True


def test_accepting_the_trap_counter_trips_the_settlement_gate() -> None:
    outcome = replay(read("msa"), markup("n", "5.1", GOOD_NOTICE), markup("n", "5.1", GOOD_NOTICE), accept("n"))
    event = only_event(outcome, 4)
    assert (event["type"], event["closed_by"]) == ("settlement", "theirs")
    assert event["matched_concepts"] == ["48 hours"] and event["missing_concepts"] == ["becomes aware"]
    assert event["points"] == 0.5
    assert "critical_failure_pattern" in event
    assert outcome.result["critical_failure"] is True


def test_counter_trap_flags_match_the_gates() -> None:
    """Every counter marked `trap: true` trips a settlement gate; no other counter does."""
    counterparty = YAML(typ="safe").load((AI_DIR / "counterparty.yaml").read_text(encoding="utf-8"))
    traps = 0
    for issue_id, position in counterparty["positions"].items():
        for counter in position["counters"]:
            fired = bool(fires(issue_id, "settlement", counter["text"]))
            assert fired is bool(counter.get("trap")), counter["text"]
            traps += bool(counter.get("trap"))
    assert traps == 1


def test_conceding_a_non_negotiable_trips_the_gate() -> None:
    outcome = replay(read("msa"), markup("c", "10.2", GOOD_CAP), accept("c"))
    event = only_event(outcome, 3)
    assert event["points"] == 0.0
    assert event["non_negotiable_missing"] == ["supercap", "three times"]
    assert outcome.result["critical_failure"] is True


def test_conceding_the_second_non_negotiable_counter_also_trips() -> None:
    weak = "Provider offers a larger general cap."
    outcome = replay(read("msa"), markup("c", "10.2", GOOD_CAP), markup("c", "10.2", weak), accept("c"))
    assert [e["type"] for e in events(outcome)] == ["counterparty_counter", "counterparty_counter", "settlement"]
    # the second counter's "two times" bucket is not a supercap of three times
    assert only_event(outcome, 4)["non_negotiable_missing"] == ["supercap", "three times"]
    assert outcome.result["critical_failure"] is True


def test_leaving_a_non_negotiable_open_costs_nothing() -> None:
    outcome = replay(PILOT_ESCALATION, markup("c", "10.2", "Provider accepts a larger cap."), final(LONG_NEUTRAL))
    # counter served, never accepted; final: 0.5 - 3 * 0.25 - 0.5 (cap escalation not raised)
    assert outcome.result["breakdown"]["settled_issues"] == []
    assert all("non_negotiable_missing" not in e for e in events(outcome))
    assert only_event(outcome, 3)["points"] == -0.75
    assert outcome.result["critical_failure"] is False
