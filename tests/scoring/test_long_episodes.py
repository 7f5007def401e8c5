"""Long episodes: a revision re-scores every earlier submission (engine semantics), but
the text work of each submission is done once and the events it yields are shared, so
per-step cost and memory stay flat in episode length."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from rubric_tools.scoring import episode as episode_module
from rubric_tools.scoring import replay, work_product
from rubric_tools.scoring.model import Constraints
from tests.scoring.builders import issue_action, matter, read


def _alternating(submissions: int) -> Iterator[dict[str, Any]]:
    """Read the anchor, then submit an issue and revise the first one, over and over."""
    yield read("lease", "2.1")
    for index in range(submissions):
        yield issue_action(f"label-{index}", analysis=f"Finding {index}: the lessor pays for defects.")
        yield {**issue_action("label-0"), "type": "revise_issue", "analysis": f"Revision {index}."}


def _long_matter(steps: int) -> Any:
    return matter(constraints=Constraints(maximum_steps=steps + 10))


def _distinct_events(submissions: int) -> tuple[int, int]:
    """(distinct event objects retained by the step records, events they reference)."""
    actions = list(_alternating(submissions))
    outcome = replay(_long_matter(len(actions)), actions)
    assert len(outcome.steps) == len(actions)
    events = [event for step in outcome.steps for event in step.events]
    return len({id(event) for event in events}), len(events)


def test_revisions_share_the_events_of_unchanged_submissions() -> None:
    distinct_small, referenced_small = _distinct_events(60)
    distinct_large, referenced_large = _distinct_events(240)
    # Records reference every re-derived event (quadratic, as the engine reports them) ...
    assert referenced_large > 12 * referenced_small
    # ... but the objects behind them grow linearly with the episode.
    assert distinct_large < 4.5 * distinct_small, (distinct_small, distinct_large)


def test_each_submission_is_worked_on_once(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []
    normalized: list[str] = []
    real_split, real_normalize = work_product.split_citation, work_product.normalize

    def counting_split(citation: str) -> Any:
        parsed.append(citation)
        return real_split(citation)

    def counting_normalize(text: str) -> str:
        normalized.append(text)
        return real_normalize(text)

    monkeypatch.setattr(work_product, "split_citation", counting_split)
    monkeypatch.setattr(work_product, "normalize", counting_normalize)
    submissions = 100
    actions = list(_alternating(submissions))
    replay(_long_matter(len(actions)), actions)
    # Two citations per action, parsed when it is submitted, never again on a re-score
    # (re-parsing would be 2 * (1 + 2 + ... + 100) = 10,100 calls).
    assert len(parsed) <= 2 * (2 * submissions)
    # Only the first submission and its revisions match the issue (the rest duplicate it).
    assert len(normalized) == submissions + 1


def test_memoized_rescoring_equals_scoring_afresh() -> None:
    """Every revision's result equals a fresh replay without any memo (a revision step
    re-scored from scratch by a new episode that submits the same work in order)."""
    actions = list(_alternating(12))
    long_matter = _long_matter(len(actions))
    outcome = replay(long_matter, actions)
    original_score_issue = work_product.score_issue

    def unmemoized(ctx: Any, action: Any, memo: Any = None) -> float:
        return original_score_issue(ctx, action, None)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(work_product, "score_issue", unmemoized)
        patch.setitem(episode_module.HANDLERS, "submit_issue", work_product.submit_issue)
        fresh = replay(long_matter, actions)
    assert outcome.result == fresh.result
    assert [s.events for s in outcome.steps] == [s.events for s in fresh.steps]
    assert [s.reward for s in outcome.steps] == [s.reward for s in fresh.steps]
