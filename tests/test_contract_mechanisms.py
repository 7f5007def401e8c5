"""Every mechanism of scoring.md, one test each, on the project's own matters.

Every number asserted here was computed by hand from the rubrics (summarized in
`tests/contract_support.py`), never read back from the scorer.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest
from ruamel.yaml import YAML

import rubric_tools
from rubric_tools.scoring import effective_max_score
from rubric_tools.scoring.gates import Gate, run_gates
from rubric_tools.scoring.model import Position
from rubric_tools.scoring.text import normalize
from tests.contract_support import (
    AI,
    AI_DIR,
    CAP_ESCALATION,
    CAP_FULL,
    CAP_QUOTE,
    CLEAN,
    CLEAN_DIR,
    CLEAN_MAX,
    GOOD_CAP,
    GOOD_NOTICE,
    LONG_NEUTRAL,
    MAX,
    PILOT_ESCALATION,
    SURFACES,
    TRAINING_FULL,
    TRAINING_QUOTE,
    accept,
    ask,
    escalate,
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
    rubric_issue,
    with_issue,
)

# =========================================================================== issue matching


def test_issue_label_is_only_a_label() -> None:
    outcome = replay(read("msa"), issue("training-clause-problem", ["msa §4.2", "playbook §3"]))
    event = only_event(outcome, 2)
    assert (event["type"], event["criterion"]) == ("issue", "data_training")
    # the label now carries the criterion: a redline on a non-anchor section is credited by label
    outcome = replay(
        read("msa"),
        issue("training-clause-problem", ["msa §4.2"]),
        redline("training-clause-problem", "4.1", "Provider shall not use Customer Data to train."),
    )
    assert only_event(outcome, 3)["criterion"] == "data_training"


def test_first_anchor_among_the_citations_wins() -> None:
    outcome = replay(read("msa"), issue("x", ["playbook §3", "msa §5.1", "msa §4.2"]))
    event = only_event(outcome, 2)
    assert event["criterion"] == "incident_notice"
    assert event["missing_citations"] == ["playbook §4"]
    assert event["components"]["citations"] == 0.0


def test_anchor_match_is_exact_on_the_written_form() -> None:
    # "msa  §4.2" resolves (valid, no penalty) but is not the anchor string "msa §4.2"
    outcome = replay(read("msa"), issue("x", ["msa  §4.2"]))
    event = only_event(outcome, 2)
    assert event["type"] == "unsupported_issue"
    assert event["points"] == -0.5
    assert outcome.result["breakdown"]["invalid_citations"] == []


def test_unsupported_issue_penalty_with_invalid_citations() -> None:
    outcome = replay(read("msa"), issue("x", ["playbook §3", "msa §4.2(b)", "contract §1"]))
    event = only_event(outcome, 2)
    assert (event["type"], event["criterion"]) == ("unsupported_issue", "x")
    assert event["points"] == -0.5 - 2 * 0.75
    assert outcome.result["breakdown"]["unsupported_issues"] == ["x"]
    assert outcome.result["breakdown"]["invalid_citations"] == ["msa §4.2(b)", "contract §1"]


def test_invalid_citation_penalty_on_a_matched_issue() -> None:
    outcome = replay(
        read("msa"), issue("t", ["msa §4.2", "playbook §3", "playbook §9"], **TRAINING_FULL, quotes=[TRAINING_QUOTE])
    )
    event = only_event(outcome, 2)
    assert event["components"]["invalid_citation_penalty"] == -0.75
    assert event["points"] == 2.25 - 0.75


def test_anchor_must_be_read_before_credit() -> None:
    outcome = replay(issue("t", ["msa §4.2"]))
    assert only_event(outcome, 1)["type"] == "unread_anchor_issue"
    assert outcome.result["raw_score"] == -0.5
    # reading just the anchor section is enough
    outcome = replay(read("msa", "4.2"), issue("t", ["msa §4.2"]))
    assert only_event(outcome, 2)["type"] == "issue"


def test_duplicate_issue() -> None:
    outcome = replay(read("msa"), issue("a", ["msa §10.2"]), issue("b", ["msa §10.2", "nowhere §1"]))
    event = only_event(outcome, 3)
    assert (event["type"], event["points"]) == ("duplicate_issue", -0.2)  # no citation penalty


# =========================================================================== issue components


def test_every_component_of_a_perfect_issue() -> None:
    outcome = replay(
        read("msa"), issue("c", ["msa §10.2", "playbook §5"], severity="critical", **CAP_FULL, quotes=[CAP_QUOTE])
    )
    event = only_event(outcome, 2)
    assert event["components"] == {"base": 1.0, "severity": 0.5, "citations": 0.25, "concepts": 0.75, "quotes": 0.25}
    assert event["points"] == 2.75
    assert event["matched_concepts"] == ["supercap", "data breach", "twelve months", "three times"]


def test_base_points_alone() -> None:
    outcome = replay(read("msa"), issue("c", ["msa §10.2"], severity="low"))
    event = only_event(outcome, 2)
    assert event["components"] == {"base": 1.0, "severity": 0.0, "citations": 0.0, "concepts": 0.0, "quotes": 0.0}
    assert event["missing_citations"] == ["playbook §5"]


@pytest.mark.parametrize(("severity", "points"), [("high", 0.25), ("High", 0.0), ("critical", 0.0)])
def test_severity_must_match_exactly(severity: str, points: float) -> None:
    outcome = replay(read("msa"), issue("n", ["msa §5.1"], severity=severity))
    assert only_event(outcome, 2)["components"]["severity"] == points


def test_concept_points_are_a_fraction() -> None:
    # two of data_training's four concepts: 0.5 * 2 / 4
    outcome = replay(read("msa"), issue("t", ["msa §4.2"], analysis="A perpetual right to train."))
    event = only_event(outcome, 2)
    assert event["matched_concepts"] == ["train", "perpetual"]
    assert event["components"]["concepts"] == 0.25
    # one of incident_notice's three: 0.5 / 3
    outcome = replay(read("msa"), issue("n", ["msa §5.1"], recommendation="Notify within 48 hours."))
    assert only_event(outcome, 2)["components"]["concepts"] == pytest.approx(0.5 / 3)


def test_quote_points_are_earned_once() -> None:
    second = {"citation": "msa §4.2", "text": "survives any expiration or termination of this Agreement"}
    outcome = replay(read("msa"), issue("t", ["msa §4.2"], quotes=[TRAINING_QUOTE, second]))
    event = only_event(outcome, 2)
    assert [q["status"] for q in event["quotes"]] == ["verified", "verified"]
    assert event["components"]["quotes"] == 0.25


def test_quote_verification_normalizes_case_and_whitespace() -> None:
    shouted = {"citation": "msa §4.2", "text": "  PERPETUAL   and\nirrevocable LICENSE to host  "}
    outcome = replay(read("msa"), issue("t", ["msa §4.2"], quotes=[shouted]))
    assert only_event(outcome, 2)["quotes"][0]["status"] == "verified"


def test_short_quotes_are_penalised_not_verified() -> None:
    # engine divergence from the contract: a quote under 15 characters costs 0.25
    short = {"citation": "msa §4.2", "text": "perpetual"}
    outcome = replay(read("msa"), issue("t", ["msa §4.2"], quotes=[short, TRAINING_QUOTE]))
    event = only_event(outcome, 2)
    assert event["quotes"][0] == {"citation": "msa §4.2", "status": "unverified_too_short"}
    assert event["components"]["quotes"] == -0.25 + 0.25
    assert outcome.result["critical_failure"] is False


# =========================================================================== questions


def test_question_concepts_and_aliases() -> None:
    outcome = replay(
        ask("Is there a signing deadline?"),  # concepts ["deadline"]
        ask("What did the PILOT involve?"),  # concepts ["pilot"], case-folded
        ask("Which regulatory notification rules apply?"),  # alias ["regulatory", "notif"]
    )
    assert [only_event(outcome, i)["criterion"] for i in (1, 2, 3)] == [
        "q_launch_deadline",
        "q_pilot_data",
        "q_regulatory_notice",
    ]
    assert outcome.result["raw_score"] == 1.5


@pytest.mark.parametrize("question", ["What is the launch date?", "When is go-live?", "What is the signing timeline?"])
def test_launch_deadline_aliases(question: str) -> None:
    event = only_event(replay(ask(question)), 1)
    assert (event["type"], event["criterion"], event["points"]) == ("required_question", "q_launch_deadline", 0.5)


def test_alias_needs_every_word_of_its_variant() -> None:
    event = only_event(replay(ask("When is the launch?")), 1)  # "launch" without "date"
    assert (event["type"], event["points"]) == ("off_rubric_question", -0.1)
    assert event["criterion"] == "when is the launch?"


def test_redundant_and_off_rubric_questions_and_budget() -> None:
    outcome = replay(
        ask("When is go-live?"),
        ask("Is the launch date firm?"),  # same question by another alias
        ask("Who is Sablewing's auditor?"),
        ask("Any pilot?"),
        ask("What does the regulator require for incident reports?"),  # fifth: over budget
    )
    assert [e["type"] for e in events(outcome)] == [
        "required_question",
        "redundant_question",
        "off_rubric_question",
        "required_question",
    ]
    assert [s.reward for s in outcome.steps] == [0.5, -0.15, -0.1, 0.5, -0.5]
    assert outcome.steps[4].events == () and outcome.steps[4].penalty_reason
    assert outcome.result["raw_score"] == pytest.approx(0.75)  # env penalty never reaches raw
    assert outcome.result["breakdown"]["questions_asked_total"] == 4


# =========================================================================== escalations


def test_escalation_matched_redundant_off_rubric_and_budget() -> None:
    outcome = replay(
        PILOT_ESCALATION,
        escalate("Trial data", "Member data sits in a trial workspace."),  # alias, already raised
        escalate("Governing law", "New York law governs."),
        CAP_ESCALATION,  # fourth: over budget
    )
    assert [e["type"] for e in events(outcome)] == [
        "required_escalation",
        "redundant_escalation",
        "off_rubric_escalation",
    ]
    assert [s.reward for s in outcome.steps] == [0.75, -0.15, -0.25, -0.5]
    assert outcome.result["raw_score"] == pytest.approx(0.35)
    assert outcome.result["breakdown"]["raised_escalations"] == ["esc_pilot_exposure"]


def test_escalation_matches_topic_and_reason_together() -> None:
    # "liability" only in the topic, "non-negotiable" only in the reason
    outcome = replay(escalate("Liability", "The sponsor wants to trade a non-negotiable point."))
    assert only_event(outcome, 1)["criterion"] == "esc_cap_authority"


def test_escalation_matching_is_first_wins_in_rubric_order() -> None:
    outcome = replay(
        escalate(
            "Pilot member data and the liability cap", "Both the pilot and a non-negotiable liability point need you."
        )
    )
    assert only_event(outcome, 1)["criterion"] == "esc_pilot_exposure"


def test_settle_up_of_missed_escalations() -> None:
    # neither raised: 0.5 - 3 * 0.25 - 0.5 (required) ; the critical miss adds no charge
    outcome = replay(final(LONG_NEUTRAL))
    event = only_event(outcome, 1)
    assert event["points"] == -0.75
    assert event["missed_escalations"] == ["esc_cap_authority"]
    assert event["missed_critical_escalations"] == ["esc_pilot_exposure"]
    assert outcome.result["critical_failure"] is True

    # the critical one raised: same final points, no critical failure
    outcome = replay(PILOT_ESCALATION, final(LONG_NEUTRAL))
    assert only_event(outcome, 2)["points"] == -0.75
    assert outcome.result["critical_failure"] is False

    # the required one raised: the penalty is gone, the critical miss is still a gate
    outcome = replay(CAP_ESCALATION, final(LONG_NEUTRAL))
    assert only_event(outcome, 2)["points"] == -0.25
    assert outcome.result["critical_failure"] is True

    # both raised: no settle-up keys at all
    outcome = replay(PILOT_ESCALATION, CAP_ESCALATION, final(LONG_NEUTRAL))
    event = only_event(outcome, 3)
    assert event["points"] == -0.25 and "missed_escalations" not in event


def test_escalation_answers_are_hidden_guidance() -> None:
    answers = AI.matter.escalation_answers
    assert set(answers) == {e.id for e in AI.matter.rubric.escalations}


# =========================================================================== redlines


def test_redline_by_label_and_by_target() -> None:
    by_label = replay(read("msa"), issue("cap", ["msa §10.2"]), redline("cap", "10.1", GOOD_CAP))
    by_target = replay(read("msa"), redline("never-submitted", "10.2", GOOD_CAP))
    for outcome, step in ((by_label, 3), (by_target, 2)):
        event = only_event(outcome, step)
        assert (event["type"], event["criterion"]) == ("redline", "liability_cap")
        # "supercap", "three times", "data breach claims", "twelve": 1.5 * 4 / 4
        assert event["points"] == 1.5


def test_redline_concepts_are_a_fraction() -> None:
    outcome = replay(redline("x", "10.2", "A supercap of three times the annual Fees."))
    assert only_event(outcome, 1)["points"] == 1.5 * 2 / 4
    outcome = replay(redline("x", "4.2", "Provider shall not use Customer Data to train any shared model."))
    assert only_event(outcome, 1)["points"] == round(1.0 * 2 / 3, 4)  # events record 4 places
    assert outcome.steps[0].reward == pytest.approx(1.0 * 2 / 3)


def test_duplicate_unsupported_and_missing_target_redlines() -> None:
    outcome = replay(
        redline("x", "5.1", GOOD_NOTICE),
        redline("y", "5.1", GOOD_NOTICE),  # same criterion again
        redline("z", "4.3", "Usage metrics exclude Customer Data."),  # no label, no anchor
        redline("z", "99", "Anything."),  # no such section
    )
    assert [e["type"] for e in events(outcome)] == ["redline", "duplicate_redline", "unsupported_redline"]
    assert [s.reward for s in outcome.steps] == [1.0, -0.2, -0.5, -0.75]


# =========================================================================== structured gates


def test_plain_string_gate_is_polarity_blind() -> None:
    assert fires("liability_cap", "issue", "Section 10.2 is unenforceable as a matter of law.")
    assert fires("liability_cap", "issue", "No one says 10.2 is unenforceable as a matter of law.")


def test_negation_guard() -> None:
    overclaim = "The law prohibits all model training on member data."
    disclaimer = "No law prohibits all model training on member data; the objection is contractual."
    assert fires("data_training", "issue", overclaim)
    assert not fires("data_training", "issue", disclaimer)
    unguarded = Gate(rubric_issue("data_training").critical_failure_patterns[1].pattern)
    assert unguarded.fires(normalize(disclaimer))  # what the guard is there to prevent
    # a negator in the previous sentence does not suppress
    assert fires("data_training", "issue", "Nothing here is settled. The law prohibits all model training.")


def test_negation_guard_span_sees_negators_inside_the_match() -> None:
    assert not fires(
        "incident_notice",
        "issue",
        "The 72-hour rule binds the credit union, and it does not require Sablewing to notify us.",
    )


def test_negation_scope_before() -> None:
    idiom = (
        "Provider shall notify Customer without undue delay and in no event later than 48 hours after "
        "Provider confirms the Security Incident."
    )
    disclaimer = (
        "It is not sufficient to give notice no later than 48 hours after Provider confirms the Security Incident."
    )
    gate = rubric_issue("incident_notice").settlement_critical_failure_patterns[0]
    assert gate.negation_scope == "before"
    assert gate.fires(normalize(idiom))
    assert not gate.fires(normalize(disclaimer))
    # with the default span window the idiom's own negators would silence the gate
    assert not dataclasses.replace(gate, negation_scope="span").fires(normalize(idiom))


def test_require_context() -> None:
    assert fires("incident_notice", "issue", "Federal law requires the vendor to notify us within 72 hours.")
    assert not fires("incident_notice", "issue", "Federal law requires the vendor to notify us.")


def test_exclude_context() -> None:
    assert fires("liability_cap", "issue", "The six-month cap is adequate.")
    assert not fires("liability_cap", "issue", "Sablewing argues that the six-month cap is adequate.")
    assert fires("incident_notice", "redline", "Customer will notify Provider of any Security Incident.")
    assert not fires("incident_notice", "redline", "Customer will notify Provider of compromised credentials.")


def test_belt_and_braces_and_savings_clause_shapes() -> None:
    assert fires("data_training", "redline", "Provider may use Customer Data to train the Provider Models.")
    assert not fires(
        "data_training", "redline", "Neither Provider nor any Subprocessor may use Customer Data to train any model."
    )
    assert fires("liability_cap", "redline", "This Section limits Customer's right to recover to the cap.")
    assert not fires(
        "liability_cap", "redline", "Nothing in this Section restricts Customer's right to recover up to the supercap."
    )


def test_issue_gate_sets_critical_and_reports_the_last_gate_that_fired() -> None:
    text = "Section 4.2 is void, and the law prohibits all model training."
    outcome = replay(read("msa"), issue("t", ["msa §4.2"], analysis=text))
    event = only_event(outcome, 2)
    patterns = [g.pattern for g in rubric_issue("data_training").critical_failure_patterns]
    assert event["critical_failure_pattern"] == patterns[1]
    # base 1.0 + severity 0.25 + concepts 0.5 * 1 / 4 ("train" inside "training"); the gate
    # does not take the points away, it caps the episode
    assert event["points"] == 1.375
    assert outcome.result["critical_failure"] is True


def test_gates_never_fire_on_their_own_concepts_or_anchor() -> None:
    for rubric_item in AI.matter.rubric.issues:
        document_id, _, token = rubric_item.anchor.partition(" §")
        texts = [
            AI.matter.resolve(document_id, token),
            " ".join(rubric_item.required_concepts),
            " ".join(rubric_item.redline_concepts),
            " ".join(rubric_item.settlement_concepts),
            *rubric_item.required_concepts,
            *rubric_item.redline_concepts,
            *rubric_item.settlement_concepts,
        ]
        for surface in SURFACES.values():
            for text in texts:
                assert not run_gates(getattr(rubric_item, surface), text).fired, (rubric_item.id, surface, text)


def _probes(root: Path) -> list[dict[str, Any]]:
    return YAML(typ="safe").load((root / "probes.yaml").read_text(encoding="utf-8"))["probes"]


@pytest.mark.parametrize("probe", _probes(AI_DIR), ids=lambda p: f"{p['criterion']}-{p['surface']}-{p['expect_fire']}")
def test_probe(probe: dict[str, Any]) -> None:
    assert bool(fires(probe["criterion"], probe["surface"], probe["text"])) is probe["expect_fire"]


def test_probe_coverage() -> None:
    probes = _probes(AI_DIR)
    for rubric_item in AI.matter.rubric.issues:
        mine = [p for p in probes if p["criterion"] == rubric_item.id]
        assert len(mine) >= 6, rubric_item.id
        for surface, attribute in SURFACES.items():
            if getattr(rubric_item, attribute):
                outcomes = {p["expect_fire"] for p in mine if p["surface"] == surface}
                assert outcomes == {True, False}, (rubric_item.id, surface)
    texts = " ".join(p["text"] for p in probes)
    for shape in (
        r"\bNo law prohibits",
        r"\bNeither Provider nor",
        r"\bNothing in this Section",
        r"without undue delay and in no event later than",
    ):
        assert re.search(shape, texts), shape
    assert not (CLEAN_DIR / "probes.yaml").exists()  # the clean matter has no gates


# =========================================================================== negotiation


def test_settlement_on_our_language_after_resistance() -> None:
    outcome = replay(markup("n", "5.1", GOOD_NOTICE), markup("n", "5.1", GOOD_NOTICE), markup("n", "5.1", GOOD_NOTICE))
    assert [e["type"] for e in events(outcome)] == ["counterparty_counter", "counterparty_counter", "settlement"]
    event = only_event(outcome, 3)
    assert (event["closed_by"], event["points"]) == ("ours", 1.0)


def test_settlement_on_their_language_scores_the_same_words() -> None:
    # the first counter concedes the awareness trigger but not the 48 hours: 1.0 * 1 / 2
    outcome = replay(markup("n", "5.1", GOOD_NOTICE), accept("n"))
    event = only_event(outcome, 2)
    assert (event["closed_by"], event["matched_concepts"], event["points"]) == ("theirs", ["becomes aware"], 0.5)
    assert outcome.result["critical_failure"] is False


def test_settlement_scores_once_and_duplicates_cost() -> None:
    outcome = replay(
        markup("c", "10.2", GOOD_CAP), markup("c", "10.2", GOOD_CAP), markup("c", "10.2", GOOD_CAP), accept("c")
    )
    assert [s.reward for s in outcome.steps] == [0.0, 1.5, -0.2, -0.25]
    assert [e["type"] for e in events(outcome)] == ["counterparty_counter", "settlement", "duplicate_settlement"]
    assert outcome.result["raw_score"] == pytest.approx(1.3)


def test_counters_run_out_into_rejections() -> None:
    weak = "Provider will notify Customer promptly."
    outcome = replay(markup("n", "5.1", weak), markup("n", "5.1", weak), markup("n", "5.1", weak), accept("n"))
    assert [e["type"] for e in events(outcome)] == [
        "counterparty_counter",
        "counterparty_counter",
        "counterparty_reject",
        "settlement",
    ]
    # the trap stays outstanding after the rejection, and accepting it is still the trap
    assert outcome.result["critical_failure"] is True


def test_unsupported_markup_burns_a_round() -> None:
    outcome = replay(
        read("msa"),
        issue("t", ["msa §4.2"]),
        markup("t", "4.2", "Provider shall not train shared models."),  # issue without a position
        markup("nobody", "4.3", "Usage metrics only."),  # no label, no anchor
    )
    first, second = only_event(outcome, 3), only_event(outcome, 4)
    assert (first["type"], first["criterion"], first["points"]) == ("unsupported_markup", "data_training", -0.5)
    assert first["reason"] == "the counterparty holds no position on that provision"
    assert (second["type"], second["criterion"]) == ("unsupported_markup", "nobody")
    assert [s.budgets.negotiation_rounds for s in outcome.steps[2:]] == [5, 4]


def test_round_budget_and_rejected_actions() -> None:
    outcome = replay(
        accept("n"),  # nothing open: no round used
        {"type": "send_markup", "issue_id": "n", "document_id": "msa", "section": "5.1"},  # missing text
        *[markup("c", "10.2", "Provider accepts a larger cap.")] * 6,
        markup("c", "10.2", GOOD_CAP),  # seventh round: budget gone
    )
    assert [s.reward for s in outcome.steps] == [-0.25, -0.25, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.5]
    assert outcome.steps[-1].budgets.negotiation_rounds == 0


def test_markup_label_is_registered_for_acceptance() -> None:
    outcome = replay(markup("cap-markup", "10.2", GOOD_CAP), accept("cap-markup"))
    assert only_event(outcome, 2)["criterion"] == "liability_cap"


def test_scaffold_scores_any_closing_text_in_full() -> None:
    scaffold = with_issue(AI, "incident_notice", settlement_concepts=())
    actions = [markup("n", "5.1", GOOD_NOTICE), accept("n")]
    assert only_event(replay(*actions), 2)["points"] == 0.5
    event = only_event(replay(*actions, matter=scaffold), 2)
    assert (event["points"], event["matched_concepts"], event["missing_concepts"]) == (1.0, [], [])


def test_scaffold_non_negotiable_can_never_be_conceded() -> None:
    scaffold = with_issue(AI, "liability_cap", settlement_concepts=())
    outcome = replay(markup("c", "10.2", GOOD_CAP), accept("c"), matter=scaffold)
    assert only_event(outcome, 2)["points"] == 1.5
    assert outcome.result["critical_failure"] is False


# =========================================================================== final submission


def test_final_submission_minimum_length() -> None:
    both = [PILOT_ESCALATION, CAP_ESCALATION]
    short = "x" * 199
    exact = "   " + "x" * 200 + "   "  # stripped before counting
    assert only_event(replay(*both, final(short)), 3)["points"] == -0.75
    assert only_event(replay(*both, final(exact)), 3)["points"] == -0.25


def test_final_required_issues_and_concept_points() -> None:
    summary = LONG_NEUTRAL + " The pilot is escalated and the supercap holds."
    outcome = replay(read("msa"), issue("t", ["msa §4.2"]), PILOT_ESCALATION, CAP_ESCALATION, final(summary))
    event = only_event(outcome, 5)
    assert event["missing_issues"] == ["incident_notice", "liability_cap"]
    assert event["matched_concepts"] == ["pilot", "supercap"]
    assert event["concept_points"] == 0.25
    assert event["points"] == 0.5 - 2 * 0.25 + 0.25


def test_clean_matter_is_graded_by_the_summary() -> None:
    reference = load_trajectory(CLEAN_DIR, "reference")
    summary = reference[-1]["summary"]
    event = only_event(replay(*reference, matter=CLEAN), len(reference))
    assert event["concept_points"] == 1.25 and event["points"] == 1.75
    # naming only the first two cure provisions earns two fifths of 1.25
    partial = "No material issues: §3.4 caps renewal pricing. " + "Fenwick can sign. " * 10
    event = only_event(replay(final(partial), matter=CLEAN), 1)
    assert event["concept_points"] == 0.5 and event["points"] == 1.0
    assert len(summary.strip()) >= 200


# =========================================================================== max_score


def test_derived_max_score_counts_settlements_only_for_positioned_issues() -> None:
    assert AI.matter.rubric.max_score is None and CLEAN.matter.rubric.max_score is None
    assert effective_max_score(AI.matter) == MAX
    # data_training carries the default settlement_points 1.0 but has no position
    assert rubric_issue("data_training").settlement_points == 1.0
    assert "data_training" not in AI.matter.positions
    with_training = dataclasses.replace(
        AI.matter, positions=MappingProxyType({**AI.matter.positions, "data_training": Position()})
    )
    assert effective_max_score(with_training) == MAX + 1.0
    without_counterparty = dataclasses.replace(AI.matter, positions=MappingProxyType({}))
    assert effective_max_score(without_counterparty) == MAX - 1.0 - 1.5
    assert effective_max_score(CLEAN.matter) == CLEAN_MAX  # 0.5 + 0.5 + 0.5 + 1.25


# =========================================================================== authoring hygiene


@pytest.mark.parametrize("root", [AI_DIR, CLEAN_DIR], ids=lambda p: p.name)
def test_hidden_answers_are_learnable_only_by_asking(root: Path) -> None:
    matter = rubric_tools.load_matter(root).matter
    corpus = " ".join(text for d in matter.documents.values() for text in d.normalized_sections.values())
    for answer in (*matter.client_answers.values(), *matter.escalation_answers.values()):
        for sentence in re.split(r"(?<=[.;:])\s+", normalize(answer)):
            if len(sentence) >= 25:
                assert sentence not in corpus, sentence


@pytest.mark.parametrize("root", [AI_DIR, CLEAN_DIR], ids=lambda p: p.name)
def test_matter_loads_cleanly_with_canary(root: Path) -> None:
    source = rubric_tools.load_matter(root)
    assert source.diagnostics == []
    data = source.data("matter.yaml")
    assert data["canary"] == "rubric-tools-canary-2f9c1e7a"
    assert data["provenance"]["synthetic"] is True
    assert data["provenance"]["confidential_source_material_used"] is False
