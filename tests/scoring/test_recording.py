"""StepContext.record: points rounded into the event as `round(points, 4)`, exact points added."""

from __future__ import annotations

import math

import pytest

from rubric_tools.scoring.state import EpisodeState, StepContext
from tests.scoring.builders import matter


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
