"""Malformed actions never raise: every field of every action type, every JSON shape."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from rubric_tools.scoring import ACTION_TYPES, Episode
from tests.scoring.builders import issue_action, matter, read

ODD_VALUES: list[Any] = [
    None,
    0,
    1.5,
    True,
    "",
    "x",
    "lease §2.1",
    [],
    [None],
    [1, [2]],
    {},
    {"a": 1},
    [{"citation": None, "text": None}],
    [{"citation": 5, "text": ["x"]}],
]
FIELDS = [
    "type",
    "document_id",
    "section",
    "query",
    "question",
    "topic",
    "reason",
    "issue_id",
    "title",
    "severity",
    "citations",
    "analysis",
    "recommendation",
    "quotes",
    "replacement_text",
    "rationale",
    "proposed_text",
    "summary",
]


def complete_action(action_type: str) -> dict[str, Any]:
    action = issue_action()
    action.update(
        type=action_type,
        document_id="lease",
        section="2.1",
        query="rent",
        question="usage?",
        topic="defect",
        reason="authority",
        replacement_text="lessor defects",
        rationale="r",
        proposed_text="lessor defects",
        summary="done " * 20,
    )
    return action


@pytest.mark.parametrize("action_type", ACTION_TYPES)
def test_every_field_of_every_action_accepts_any_json_value(action_type: str) -> None:
    for field, value in itertools.product(FIELDS, ODD_VALUES):
        episode = Episode(matter())
        episode.step(read("lease"))
        episode.step(issue_action("my-label"))
        action = complete_action(action_type)
        action[field] = value
        record = episode.step(action)
        assert isinstance(record.reward, float | int)
        if not episode.done:
            episode.step(complete_action(action_type))
        episode.result()


@pytest.mark.parametrize("value", ODD_VALUES + ["string action", 7, ["list"]])
def test_non_object_actions(value: Any) -> None:
    episode = Episode(matter())
    assert episode.step(value).reward == -0.5


def test_a_step_that_raised_leaves_nothing_to_the_next() -> None:
    """The step context is reused across steps: an observer's exception mid-step must not
    carry that step's events or warnings into the next record."""
    calls: list[object] = []

    def failing_once(observation: object) -> None:
        calls.append(observation)
        if len(calls) == 1:
            raise RuntimeError("observer failed")

    episode = Episode(matter(), observer=failing_once)
    episode.step(read("lease"))
    with pytest.raises(RuntimeError):
        episode.step({**issue_action(), "quotes": 7})  # a warning, then the observer raises
    record = episode.step(read("lease", "2.1"))
    assert record.events == () and record.warnings == () and record.penalty_reason is None
