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


def _mixed_revisions() -> list[dict[str, Any]]:
    """Revisions over every branch a re-score can take: unsupported, unread anchor (then
    read), invalid citations, duplicates, a fired gate, a fabricated quote, redlines by
    label, by target, duplicate and unsupported."""
    redline = {"issue_id": "mine", "document_id": "lease", "section": "2.1", "rationale": "policy"}
    fabricated = [{"citation": "lease §2.1", "text": "the lessor pays for everything forever"}]
    return [
        issue_action("early"),  # anchor not read yet
        issue_action("nowhere", citations=["policy §1", "lease §9"]),  # no anchor, an invalid citation
        {**redline, "type": "propose_redline", "replacement_text": "The lessor pays for defects."},
        {**issue_action("early"), "type": "revise_issue"},
        read("lease", "2.1"),
        {**issue_action("early"), "type": "revise_issue", "analysis": "repair clauses are void"},
        issue_action("mine", quotes=fabricated),  # a duplicate of the matched issue
        {**redline, "type": "propose_redline", "issue_id": "other", "replacement_text": "Orchard Farms pays defects."},
        {**redline, "type": "propose_redline", "issue_id": "x", "section": "3", "replacement_text": "no target"},
        {**issue_action("nowhere", citations=["lease §9"]), "type": "revise_issue"},
        {**redline, "type": "revise_redline", "replacement_text": "The lessor bears defects."},
        {**issue_action("early"), "type": "revise_issue", "analysis": "The lessor pays manufacturer defects."},
    ]


def test_rescoring_in_place_equals_rescoring_through_the_handlers(monkeypatch: pytest.MonkeyPatch) -> None:
    """A revision records remembered events in place; with an observer every submission goes
    through the handlers instead. Both must give the very same episode."""
    actions = _mixed_revisions()
    calls: list[str] = []
    original_score_issue = work_product.score_issue

    def counting(ctx: Any, action: Any, memo: Any = None) -> float:
        calls.append(str(action.get("issue_id")))
        return original_score_issue(ctx, action, memo)

    monkeypatch.setattr(work_product, "score_issue", counting)
    in_place = replay(_long_matter(len(actions)), actions)
    in_place_calls = len(calls)
    calls.clear()
    observations: list[Any] = []
    through_handlers = replay(_long_matter(len(actions)), actions, observer=observations.append)
    assert calls and in_place_calls < len(calls)  # the in-place path did run
    assert observations
    assert in_place.result == through_handlers.result
    events = [event for step in in_place.steps for event in step.events]
    kinds = {"issue", "unsupported_issue", "unread_anchor_issue", "duplicate_issue", "redline", "duplicate_redline"}
    assert kinds | {"unsupported_redline"} <= {event["type"] for event in events}
    assert any("critical_failure_pattern" in event for event in events)
    for mine, theirs in zip(in_place.steps, through_handlers.steps, strict=True):
        assert (mine.events, mine.reward, mine.raw_score, mine.warnings) == (
            theirs.events,
            theirs.reward,
            theirs.raw_score,
            theirs.warnings,
        )


def test_revisions_keep_a_critical_failure_of_kept_events_and_drop_one_of_work_product() -> None:
    markup = {"type": "send_markup", "issue_id": "m", "document_id": "lease", "section": "2.1", "proposed_text": "x"}
    void = {**issue_action("a"), "type": "revise_issue", "analysis": "repair clauses are void"}
    clean = {**issue_action("a"), "type": "revise_issue"}
    actions: list[dict[str, Any]] = [read("lease", "2.1"), issue_action("a"), void, clean]
    episode = replay(_long_matter(20), actions)
    assert not episode.result["critical_failure"]  # the gate's event went with the revision
    trap = [*actions, markup, {"type": "accept_counterparty", "issue_id": "m"}, clean, clean, void, clean]
    outcome = replay(_long_matter(20), trap)
    assert outcome.result["critical_failure"]  # a settlement on the trap counter stays critical
