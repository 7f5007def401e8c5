"""The revision ledger (scoring/ledger.py): a revision replays the other submissions, or the
later ones, from it when the revised one cannot change their outcomes. Replaying must give the very episode a
full re-score gives: every step's events, reward and score (floats by repr), warnings and
gate notes, and the result."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from rubric_tools import load_matter
from rubric_tools.scoring import ledger, replay, revision
from rubric_tools.scoring.model import Constraints
from tests.scoring.builders import issue_action, matter, read

LABELS = ("a", "b", "c", "d", "e")
CITATIONS: tuple[Any, ...] = (
    ["lease §2.1", "policy §1"],
    ["lease §2.1"],
    ["policy §1", "lease §2.1"],
    ["lease §1"],
    ["lease §9", "lease §2.1"],  # an invalid citation first
    ["policy §1"],  # no anchor
    "lease §2.1",  # not a list: the engine iterates its characters
    None,  # scored as absent, with a warning a re-score notes again
)
ANALYSES = (
    "The lease makes us pay for manufacturer defects; the lessor should.",
    "Repair clauses are void here.",  # a critical gate
    "Nothing to see.",
)
QUOTES: tuple[Any, ...] = (
    [],
    7,  # scored as absent, with a warning (noted only when the issue matches)
    [{"citation": "lease §2.1", "text": "Orchard Farms bears the cost of every repair"}],  # verified
    [{"citation": "lease §2.1", "text": "the lessor pays for everything forever"}],  # fabricated
)
REDLINE_TEXTS = ("The lessor pays for defects.", "Orchard Farms pays all defects.", "No change.")
TARGETS = (("lease", "2.1"), ("lease", "1"), ("lease", "3"))


def _issue(rng: random.Random, kind: str, label: str) -> dict[str, Any]:
    citations = rng.choice(CITATIONS)
    action = issue_action(
        label, type=kind, severity=rng.choice(("high", "low")), analysis=rng.choice(ANALYSES), quotes=rng.choice(QUOTES)
    )
    action["citations"] = citations
    return action


def _redline(rng: random.Random, kind: str, label: str, target: tuple[str, str]) -> dict[str, Any]:
    document, section = target
    return {
        "type": kind,
        "issue_id": label,
        "document_id": document,
        "section": section,
        "replacement_text": rng.choice(REDLINE_TEXTS),
        "rationale": "policy",
    }


def _episode(rng: random.Random, length: int) -> list[dict[str, Any]]:
    """Submissions, revisions of early and late ones (often the same text again), reads
    between them that make waiting anchors readable, and other steps."""
    actions: list[dict[str, Any]] = []
    issues: list[str] = []
    redlines: list[tuple[str, tuple[str, str]]] = []
    for _ in range(length):
        roll = rng.random()
        if roll < 0.3:
            label = rng.choice(LABELS) + str(rng.randrange(4))
            issues.append(label)
            actions.append(_issue(rng, "submit_issue", label))
        elif roll < 0.45:
            label, target = rng.choice(LABELS) + str(rng.randrange(4)), rng.choice(TARGETS)
            redlines.append((label, target))
            actions.append(_redline(rng, "propose_redline", label, target))
        elif roll < 0.7 and issues:
            label = issues[0] if rng.random() < 0.4 else rng.choice(issues)
            actions.append(_issue(rng, "revise_issue", label))
        elif roll < 0.85 and redlines:
            actions.append(_redline(rng, "revise_redline", *rng.choice(redlines)))
        elif roll < 0.93:
            actions.append(read("lease", rng.choice(("2.1", "1", "3"))))
        else:
            actions.append({"type": "ask_client", "question": "How often is it used per week?"})
    return actions


def _trace(outcome: Any) -> str:
    steps = [
        (s.step, s.type, s.events, repr(s.reward), repr(s.raw_score), s.warnings, s.gate_timeouts, s.gate_errors)
        for s in outcome.steps
    ]
    return repr(steps) + json.dumps(outcome.result, sort_keys=True, default=repr) + repr(outcome.result["raw_score"])


def _replays(monkeypatch: pytest.MonkeyPatch, minimum: int) -> list[tuple[str, int]]:
    """Set the replay threshold and note each revision that replays: ("all", index) when all
    the others are replayed, ("later", index) when only the later ones are."""
    monkeypatch.setattr(ledger, "REPLAY_MINIMUM", minimum)
    taken: list[tuple[str, int]] = []
    replay_all_but, replay_parts = revision._replay_all_but, ledger.replay_parts

    def all_but(ctx: Any, index: int, *rest: Any) -> bool:
        replayed = replay_all_but(ctx, index, *rest)
        if replayed:
            taken.append(("all", index))
        return replayed

    def later_ones(ctx: Any, index: int, *rest: Any) -> Any:
        parts = replay_parts(ctx, index, *rest)
        if parts is not None:
            taken.append(("later", index))
        return parts

    monkeypatch.setattr(revision, "_replay_all_but", all_but)
    monkeypatch.setattr(ledger, "replay_parts", later_ones)
    return taken


def test_replaying_from_the_ledger_equals_a_full_rescore(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(20261201)
    episodes = [_episode(rng, rng.randrange(20, 90)) for _ in range(150)]
    long_matter = matter(constraints=Constraints(maximum_steps=200))
    taken = _replays(monkeypatch, 1)
    replayed = [_trace(replay(long_matter, actions)) for actions in episodes]
    # Revisions of early and late submissions replayed, both ways.
    assert len({index for how, index in taken if how == "all"}) > 20
    assert len({index for how, index in taken if how == "later"}) > 5
    monkeypatch.setattr(ledger, "REPLAY_MINIMUM", 10**9)
    taken.clear()
    rescored = [_trace(replay(long_matter, actions)) for actions in episodes]
    assert not taken
    for mine, full in zip(replayed, rescored, strict=True):
        assert mine == full


def test_an_observer_sees_every_decision_so_nothing_is_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(7)
    episodes = [_episode(rng, 60) for _ in range(20)]
    long_matter = matter(constraints=Constraints(maximum_steps=200))
    taken = _replays(monkeypatch, 1)
    observed: list[Any] = []
    watched = [_trace(replay(long_matter, actions, observer=observed.append)) for actions in episodes]
    assert observed and not taken
    unwatched = [_trace(replay(long_matter, actions)) for actions in episodes]
    assert taken
    assert watched == unwatched


def test_a_read_since_the_last_revision_rescores_the_issue_that_waited_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A later issue whose anchor was unread scores again once it is read: no replay."""
    revise_first = {**issue_action("first"), "type": "revise_issue", "analysis": "Again."}
    actions = [
        read("lease", "2.1"),
        issue_action("first"),
        issue_action("rent", citations=["lease §1"]),  # anchor unread
        revise_first,
        read("lease", "1"),
        revise_first,  # the rent issue now matches
        revise_first,
    ]
    taken = _replays(monkeypatch, 1)
    outcome = replay(matter(), actions)
    assert taken == [("all", 0), ("all", 0)]  # not the one right after the read
    last = outcome.steps[-1].events
    assert [event["type"] for event in last] == ["issue", "issue"]
    monkeypatch.setattr(ledger, "REPLAY_MINIMUM", 10**9)
    assert _trace(replay(matter(), actions)) == _trace(outcome)


def test_long_alternating_episodes_replay_every_revision(monkeypatch: pytest.MonkeyPatch) -> None:
    """At the default threshold, a long episode revising its first submission replays the rest."""
    actions: list[dict[str, Any]] = [read("lease", "2.1")]
    for index in range(40):
        actions.append(issue_action(f"label-{index}"))
        actions.append({**issue_action("label-0"), "type": "revise_issue", "analysis": f"Revision {index}."})
    taken = _replays(monkeypatch, ledger.REPLAY_MINIMUM)
    replay(matter(constraints=Constraints(maximum_steps=200)), actions)
    # The k-th revision (from 0) has k later submissions: replayed once there are enough.
    assert len(taken) == 40 - ledger.REPLAY_MINIMUM


def test_a_revised_redline_is_scored_on_what_the_ones_before_it_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """Replaying the others, the revised redline still finds the issue its label names (not
    its target's) and the redline matched before it: the same branch as a full re-score."""
    by_label = _redline(random.Random(1), "propose_redline", "x", ("lease", "1"))  # "x" names repairs
    duplicate = _redline(random.Random(2), "propose_redline", "y", ("lease", "2.1"))  # repairs again
    actions = [
        read("lease", "2.1"),
        issue_action("x"),
        by_label,
        duplicate,
        issue_action("z", citations=["policy §1"]),
        {**by_label, "type": "revise_redline", "replacement_text": "The lessor pays for all defects."},
        {**duplicate, "type": "revise_redline", "replacement_text": "The lessor pays."},
    ]
    taken = _replays(monkeypatch, 1)
    outcome = replay(matter(), actions)
    assert taken == [("all", 1), ("all", 2)]
    assert [event["type"] for event in outcome.steps[-2].events][1:3] == ["redline", "duplicate_redline"]
    monkeypatch.setattr(ledger, "REPLAY_MINIMUM", 10**9)
    assert _trace(replay(matter(), actions)) == _trace(outcome)


def test_the_conformance_corpus_replays_to_the_same_episodes(
    monkeypatch: pytest.MonkeyPatch, conformance: Path
) -> None:
    """The corpus's trajectories, each also with its revisions repeated at the end (so that
    revisions meet reads, duplicates and redlines of real matters), replayed wherever the
    ledger allows and re-scored in full."""
    work = []
    for path in sorted(conformance.glob("trajectories/*/*.jsonl")):
        loaded = load_matter(conformance / "matters" / path.parent.name).matter
        actions = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        revisions = [a for a in actions if isinstance(a, dict) and str(a.get("type")).startswith("revise_")]
        finals = [a for a in actions if isinstance(a, dict) and a.get("type") == "submit_final"]
        body = [a for a in actions if a not in finals]
        long_matter = replace(loaded, constraints=replace(loaded.constraints, maximum_steps=10 * len(actions) + 10))
        work.append((long_matter, body + revisions[::-1] + revisions + finals))
    taken = _replays(monkeypatch, 1)
    replayed = [_trace(replay(matter_, actions)) for matter_, actions in work]
    assert len(taken) > 500
    monkeypatch.setattr(ledger, "REPLAY_MINIMUM", 10**9)
    assert replayed == [_trace(replay(matter_, actions)) for matter_, actions in work]
