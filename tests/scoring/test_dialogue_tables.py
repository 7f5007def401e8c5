"""Unit tests: the per-matter tables the dialogue and negotiation handlers look things up in
give the very results the checked paths give (reads, matching, the final, counter settlements)."""

from __future__ import annotations

import datetime
from dataclasses import replace
from typing import Any

import pytest

from rubric_tools.scoring import Episode, replay
from rubric_tools.scoring import episode as episode_module
from rubric_tools.scoring.dialogue import first_match, read_document
from rubric_tools.scoring.gates import GateCheck, run_gates
from rubric_tools.scoring.model import FinalSubmission, MatchItem, Rubric, sorted_ids
from rubric_tools.scoring.state import EpisodeState, StepContext
from tests.scoring.builders import issue_action, matter, read


@pytest.mark.parametrize(
    ("action", "reward", "citations"),
    [
        (read("lease", "2.1"), 0.0, {"lease §2.1"}),
        (read("lease"), 0.0, {"lease §full", "lease §1", "lease §2.1", "lease §3"}),
        (
            {"type": "read_document", "document_id": "lease", "section": None},
            0.0,
            {"lease §full", "lease §1", "lease §2.1", "lease §3"},
        ),
        ({"type": "read_document", "document_id": "lease", "section": 1}, 0.0, {"lease §1"}),  # str() of 1
        ({"type": "read_document", "document_id": "lease", "section": ""}, 0.0, {"lease §"}),
        ({"type": "read_document", "document_id": "lease", "section": 0}, 0.0, {"lease §0"}),  # falsy: recorded
        ({"type": "read_document", "document_id": "lease", "section": ["2.1"]}, -0.1, set()),  # unhashable
        ({"type": "read_document", "document_id": "lease", "section": "9"}, -0.1, set()),
        ({"type": "read_document", "document_id": ["lease"], "section": "1"}, -0.2, set()),  # unhashable
        ({"type": "read_document", "document_id": None}, -0.2, set()),
        ({"type": "read_document", "section": "1"}, -0.2, set()),  # no document id at all
    ],
)
def test_reads_outside_the_table_take_the_checked_path(
    action: dict[str, Any], reward: float, citations: set[str]
) -> None:
    episode = Episode(matter())
    assert episode.step(action).reward == reward
    assert episode.state.read_citations == citations
    # The step loop reads through the table itself; the handler (what HANDLERS holds) agrees.
    state = EpisodeState()
    assert read_document(StepContext(episode.matter, state), action) == reward
    assert state.read_citations == citations


def test_a_replaced_read_handler_is_called() -> None:
    """The loop's own read path is taken only for dialogue.read_document, not for a handler
    put in its place."""
    calls: list[object] = []

    def counting(ctx: StepContext, action: Any) -> float:
        calls.append(action)
        return read_document(ctx, action)

    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(episode_module.HANDLERS, "read_document", counting)
        outcome = replay(matter(), [read("lease", "2.1"), read("lease")])
    assert len(calls) == 2
    assert [step.reward for step in outcome.steps] == [0.0, 0.0]


def test_a_document_id_read_as_its_text() -> None:
    m = matter()
    numbered = replace(m, documents={"7": m.documents["policy"]})
    episode = Episode(numbered)
    assert episode.step({"type": "read_document", "document_id": 7, "section": "1"}).reward == 0.0
    assert episode.state.read_citations == {"policy §1"}  # the document's own id is in its citations


def test_first_match_walks_variants_in_rubric_order_and_skips_empty_ones() -> None:
    rubric = Rubric(
        questions=(
            MatchItem("first", concepts=(), aliases=(("budget", "cap"), ("budget", "ceiling"))),
            MatchItem("second", concepts=("budget",), aliases=(("cost",),)),
            MatchItem("third", concepts=("budget", "owner")),  # never reached: "second" wins first
        )
    )
    # Consecutive variants sharing their first concept are one run, searched for it once.
    assert [(first, [(rest, item.id) for rest, item in run]) for first, run in rubric.question_table] == [
        ("budget", [(("cap",), "first"), (("ceiling",), "first"), ((), "second")]),
        ("cost", [((), "second")]),
        ("budget", [(("owner",), "third")]),
    ]
    for text, expected in [
        ("what is the budget ceiling?", "first"),
        ("who is the budget owner?", "second"),
        ("what does it cost?", "second"),
        ("what is the cap?", None),
    ]:
        item = first_match(rubric.question_table, text)
        assert (item.id if item else None) == expected
    assert rubric.escalation_table == ()


def test_a_question_records_its_points_rounded_as_record_would() -> None:
    m = matter()
    precise = replace(m.rubric.questions[1], points=0.123456)
    m = replace(m, rubric=replace(m.rubric, questions=(m.rubric.questions[0], precise)))
    episode = Episode(m)
    record = episode.step({"type": "ask_client", "question": "What budget?"})
    assert record.reward == 0.123456 and record.events[0]["points"] == 0.1235
    assert episode.state.raw_score == 0.123456


@pytest.mark.parametrize(
    "required",
    [
        ("repairs", "zeta", "alpha", "zeta"),
        (datetime.date(2024, 1, 2), "repairs", datetime.date(2024, 1, 1), 10, 9),  # kinds Python cannot order
        (10, 9, 100),
    ],
)
def test_final_lists_missing_ids_as_sorted_ids_sorts_them(required: tuple[Any, ...]) -> None:
    m = matter()
    final = replace(m.rubric.final_submission, required_issue_ids=required)
    m = replace(m, rubric=replace(m.rubric, final_submission=final))
    outcome = replay(m, [read("lease"), read("policy"), issue_action(), {"type": "submit_final", "summary": "x"}])
    missing = outcome.result["breakdown"]["reward_events"][-1]["missing_issues"]
    assert missing == sorted_ids({i for i in required if i != "repairs"})


def test_sorted_required_ids_exist_only_for_text_ids() -> None:
    assert FinalSubmission(required_issue_ids=("b", "a", "b")).sorted_required_issue_ids == ("a", "b")
    assert FinalSubmission(required_issue_ids=("b", 1)).sorted_required_issue_ids is None


def _settle_on_the_counter(m: Any) -> dict[str, Any]:
    markup = {"type": "send_markup", "issue_id": "l", "document_id": "lease", "section": "2.1", "proposed_text": "no"}
    outcome = replay(m, [markup, {"type": "accept_counterparty", "issue_id": "l"}])
    event: dict[str, Any] = outcome.result["breakdown"]["reward_events"][-1]
    assert event["type"] == "settlement" and event["closed_by"] == "theirs"
    return event


def test_a_counter_settlement_is_scored_once_per_matter_with_fresh_event_lists() -> None:
    m = matter()
    first, second = _settle_on_the_counter(m), _settle_on_the_counter(m)
    assert first == second and first["critical_failure_pattern"] == "half of the cost"
    assert first["matched_concepts"] is not second["matched_concepts"]
    assert len(m.counter_settlement_memo) == 1


def test_a_counter_settlement_whose_gate_timed_out_is_scored_again(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []

    class TimingOut:
        def run(self, text: str, timeout: float) -> GateCheck:
            calls.append(text)
            return GateCheck(timed_out=("half of the cost",))

    m = matter()
    # Settlement gates run through the issue's cached runner, kept where cached_property keeps it.
    monkeypatch.setitem(vars(m.rubric.issues_by_id["repairs"]), "settlement_gate_runner", TimingOut())
    _settle_on_the_counter(m)
    _settle_on_the_counter(m)
    assert len(calls) == 2 and m.counter_settlement_memo == {}


def test_an_issue_runs_its_settlement_gates_through_one_runner_that_finds_what_run_gates_finds() -> None:
    repairs = matter().rubric.issues_by_id["repairs"]
    assert repairs.settlement_gate_runner is repairs.settlement_gate_runner
    assert repairs.settlement_gate_runner.run("we pay half of the cost").fired == ("half of the cost",)
    for text in ("we split half of the cost of repairs", "the lessor repairs defects", ""):
        found = repairs.settlement_gate_runner.run(text)
        assert found == run_gates(repairs.settlement_critical_failure_patterns, text)
