"""StepContext.record: points rounded into the event as `round(points, 4)`, exact points added;
the result reports copies of what was recorded; step records share their budgets."""

from __future__ import annotations

import dataclasses
import datetime
import math
from collections.abc import Mapping
from typing import Any

import pytest

from rubric_tools.scoring import episode as episode_module
from rubric_tools.scoring import replay
from rubric_tools.scoring.episode import Budgets, Episode
from rubric_tools.scoring.gates import GateCheck
from rubric_tools.scoring.result import episode_result, normalized_score
from rubric_tools.scoring.state import EpisodeState, StepContext, fresh_state
from tests.scoring.builders import issue_action, matter, read


def _context() -> StepContext:
    return StepContext(matter(), EpisodeState())


@pytest.mark.parametrize("points", [0.0, -0.0, 0, 1, -0.25, 0.123456, 2.00005, 1e-9, -1e-9, math.inf])
def test_recorded_points_are_round_to_four_places(points: float) -> None:
    for _ in range(2):  # the second time from the memo, if it remembers the value
        ctx = _context()
        event: dict[str, object] = {"type": "x"}
        assert ctx.record(event, points) is points
        expected = round(points, 4)
        assert repr(event["points"]) == repr(expected)  # -0.0 stays -0.0, an int stays an int
        assert type(event["points"]) is type(expected)
        assert ctx.state.raw_score == 0.0 + points
        assert ctx.state.events == [event] and ctx.new_events == [event]


def test_nan_points_are_recorded_as_nan() -> None:
    ctx = _context()
    event: dict[str, object] = {}
    ctx.record(event, math.nan)
    assert math.isnan(event["points"])  # type: ignore[arg-type]


def test_a_result_copies_what_it_reports() -> None:
    """The result never aliases the episode: its events are copies of the records' events,
    its lists are not the state's."""
    outcome = replay(matter(), [read("lease", "2.1"), issue_action(), {"type": "submit_final", "summary": "done"}])
    recorded = [event for step in outcome.steps for event in step.events]
    reported = outcome.result["breakdown"]["reward_events"]
    assert reported == recorded and recorded
    assert all(mine is not theirs for mine, theirs in zip(reported, recorded, strict=True))


def test_a_result_sorts_ids_of_two_kinds_by_kind() -> None:
    """Ids Python cannot order together (a date and a text) are listed grouped by kind, as
    `sorted_ids` lists them, in every id set of the result."""
    day = datetime.date(2024, 1, 2)
    state = EpisodeState(matched_issues={"cap", day}, matched_redlines={"b", "a"}, settled_issues={day, "z"})
    breakdown = episode_result(matter(), state)["breakdown"]
    assert breakdown["matched_issues"] == [day, "cap"]
    assert breakdown["matched_redlines"] == ["a", "b"]
    assert breakdown["settled_issues"] == [day, "z"]


_BUDGET_ACTIONS: list[object] = [
    read("lease", "2.1"),
    {"type": "ask_client", "question": "how often is it used"},
    issue_action(),
    {"type": "escalate", "topic": "cap", "reason": "too low"},
    {"type": "submit_final", "summary": "done"},
]


def test_step_records_share_the_budgets_left_between_replays() -> None:
    """Each record's budgets are what is left after its step (as `Episode.budgets` says), and
    replays of one matter share equal ones: the matter remembers them."""
    subject = matter()
    first, second = replay(subject, _BUDGET_ACTIONS), replay(subject, _BUDGET_ACTIONS)
    episode = Episode(subject)
    for action, mine, again in zip(_BUDGET_ACTIONS, first.steps, second.steps, strict=True):
        episode.step(action)
        assert type(mine.budgets) is Budgets and mine.budgets == episode.budgets()
        assert again.budgets is mine.budgets
    assert len({step.budgets.client_questions for step in first.steps}) == 2  # the question counted


@pytest.mark.parametrize(
    ("rows", "per_row", "kept"), [(1, 1, [1]), (2, 1, [1, 1]), (8, 1, [1, 1, 1]), (8, 8, [1, 2, 2])]
)
def test_the_budgets_memo_is_bounded(monkeypatch: pytest.MonkeyPatch, rows: int, per_row: int, kept: list[int]) -> None:
    """Rows by (questions, escalations, rounds) left, Budgets by steps left in each: both bounded."""
    monkeypatch.setattr(episode_module, "BUDGETS_ROWS_LIMIT", rows)
    monkeypatch.setattr(episode_module, "BUDGETS_ROW_LIMIT", per_row)
    subject = matter()
    outcome = replay(subject, _BUDGET_ACTIONS)
    assert [len(row) for row in subject.derived_memo[episode_module.BUDGETS_MEMO_KEY].values()] == kept
    episode = Episode(subject)
    for action, step in zip(_BUDGET_ACTIONS, outcome.steps, strict=True):
        episode.step(action)
        assert step.budgets == episode.budgets()


def test_a_fresh_state_is_the_dataclass_default_field_for_field() -> None:
    """`fresh_state` writes out `EpisodeState()`: every field, the same value and type, and
    containers of its own (two fresh states share none)."""
    fresh, default, other = fresh_state(), EpisodeState(), fresh_state()
    assert fresh == default
    for name in (field.name for field in dataclasses.fields(EpisodeState)):
        mine, expected = getattr(fresh, name), getattr(default, name)
        assert type(mine) is type(expected) and repr(mine) == repr(expected), name
        if isinstance(mine, (list, set, dict)):
            assert mine is not getattr(other, name), name


def test_the_context_keeps_one_warnings_list_emptied_after_each_step() -> None:
    """The step loop holds the context's warnings list for a whole run: it is never replaced."""
    episode = Episode(matter())
    warnings = episode._ctx.warnings
    first = episode.step(["not", "an", "object"])
    second = episode.step(read("lease", "2.1"))
    third = episode.step(7)
    assert first.warnings == ("action is not an object (list)",) and second.warnings == ()
    assert third.warnings == ("action is not an object (int)",)
    assert episode._ctx.warnings is warnings and not warnings


def _rounded_normalized_score(raw: float, maximum: float, critical: bool, cap: float) -> float:
    score = 0.0 if maximum == 0 else max(0.0, min(1.0, raw / maximum))
    return round(min(score, cap) if critical else score, 4)


@pytest.mark.parametrize(
    ("raw", "maximum", "critical", "cap"),
    [
        (-1.0, 10.0, False, 0.25),
        (0.0, 0.0, False, 0.25),
        (1.234567, 10.0, False, 0.25),
        (12.0, 10.0, False, 0.25),
        (5.0, 10.0, True, 0.123456),
        (5.0, 10.0, True, -0.0),
        (5.0, 10.0, True, 0),
        (5.0, 10.0, True, False),
        (-3.0, 10.0, True, 0.25),
        (math.inf, 10.0, False, 0.25),
        (math.nan, 10.0, False, 0.25),
    ],
)
def test_a_normalized_score_is_the_rounded_clamped_ratio(
    raw: float, maximum: float, critical: bool, cap: float
) -> None:
    """Zero scores skip round(): the same value, sign and type as round(score, 4) gives."""
    mine, expected = (
        normalized_score(raw, maximum, critical, cap),
        _rounded_normalized_score(raw, maximum, critical, cap),
    )
    assert repr(mine) == repr(expected) and type(mine) is type(expected)


def _noting_handler(ctx: StepContext, action: Mapping[str, Any]) -> float:
    """A handler that writes every kind of note, as the real ones do: through the context."""
    ctx.note_gates(GateCheck(timed_out=("slow",)))
    ctx.note_gates(GateCheck(errors=("bad (",)))
    ctx.warnings.append("careful")
    return ctx.penalty(-0.5, "noted")


def test_a_step_records_the_notes_written_through_the_context(monkeypatch: pytest.MonkeyPatch) -> None:
    """`penalty` and `note_gates` flag the step as noted: its record carries the penalty reason and
    the gate notes, and the next step's record none of them."""
    monkeypatch.setitem(episode_module.HANDLERS, "note_everything", _noting_handler)
    episode = Episode(matter())
    noted = episode.step({"type": "note_everything"})
    clean = episode.step(read("lease", "2.1"))
    assert (noted.penalty_reason, noted.gate_timeouts, noted.gate_errors) == ("noted", ("slow",), ("bad (",))
    assert noted.warnings == ("careful",) and noted.reward == -0.5
    assert (clean.penalty_reason, clean.gate_timeouts, clean.gate_errors, clean.warnings) == (None, (), (), ())
    assert not episode._ctx.noted


def test_only_penalty_and_note_gates_flag_a_context_as_noted() -> None:
    ctx = _context()
    ctx.note_gates(GateCheck(fired=("a",)))
    assert not ctx.noted
    ctx.penalty(-0.1, "why")
    assert ctx.noted
    ctx.clear()
    assert not ctx.noted and ctx.penalty_reason is None
    ctx.note_gates(GateCheck(errors=("x",)))
    assert ctx.noted
