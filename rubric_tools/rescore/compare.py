"""What changed between two results of one trajectory: pure functions on result dicts."""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping
from typing import Any

from rubric_tools.diagnostics import finite_float
from rubric_tools.rescore.records import SCORE_FIELDS
from rubric_tools.scoring.causes import critical_causes

#: Scores are equal when they differ by no more than this (the conformance tolerance).
TOLERANCE = 1e-9
#: At most this many differing events are listed per side (the count is always exact).
MAX_LISTED_EVENTS = 20


def score_of(result: Mapping[str, Any]) -> dict[str, Any]:
    return {name: result[name] for name in SCORE_FIELDS}


def same_score(left: Mapping[str, Any] | None, right: Mapping[str, Any] | None) -> bool:
    if left is None or right is None:
        return left is right
    if bool(left["critical_failure"]) != bool(right["critical_failure"]):
        return False
    return all(
        math.isclose(float(left[name]), float(right[name]), rel_tol=0, abs_tol=TOLERANCE)
        for name in ("raw_score", "normalized_score")
    )


def _causes(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "kind": c.kind,
            "criterion": c.criterion,
            "surface": c.surface,
            "pattern": c.pattern,
            "detail": c.detail,
            "description": c.describe(),
        }
        for c in critical_causes(result)
    ]


def critical_flip(current: Mapping[str, Any], base: Mapping[str, Any]) -> dict[str, Any] | None:
    """`gained` (critical now, not before) with the causes that fire now, or `lost` with
    the causes that no longer fire; None when the flag did not move."""
    now, before = bool(current["critical_failure"]), bool(base["critical_failure"])
    if now == before:
        return None
    if now:
        return {"direction": "gained", "causes": _causes(current)}
    return {"direction": "lost", "causes": _causes(base)}


def _events(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    events = result["breakdown"]["reward_events"] if has_events(result) else []
    return [e for e in events if isinstance(e, dict)]


def has_events(result: Mapping[str, Any]) -> bool:
    breakdown = result.get("breakdown")
    return isinstance(breakdown, dict) and isinstance(breakdown.get("reward_events"), list)


def points_by_criterion(result: Mapping[str, Any]) -> dict[str, float]:
    """Points earned per rubric item (`<event type>:<criterion>`), summed over its events."""
    totals: dict[str, float] = {}
    for event in _events(result):
        points = finite_float(event.get("points"))  # a recorded result's events are the archive's
        if points is not None and "criterion" in event:
            key = f"{event.get('type')}:{event['criterion']}"
            totals[key] = totals.get(key, 0.0) + points
    return totals


def issue_changes(current: Mapping[str, Any], base: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every rubric item whose points moved, in a stable order."""
    if _events(current) == _events(base):
        return []
    now, before = points_by_criterion(current), points_by_criterion(base)
    changes = []
    for key in sorted(set(now) | set(before)):
        new, old = now.get(key, 0.0), before.get(key, 0.0)
        if not math.isclose(new, old, rel_tol=0, abs_tol=TOLERANCE):
            kind, _, criterion = key.partition(":")
            changes.append(
                {
                    "type": kind,
                    "criterion": criterion,
                    "base_points": round(old, 6),
                    "current_points": round(new, 6),
                    "delta": round(new - old, 6),
                }
            )
    return changes


def _canonical(event: Mapping[str, Any]) -> str:
    return json.dumps(event, sort_keys=True, default=str)


def event_changes(current: Mapping[str, Any], base: Mapping[str, Any]) -> dict[str, Any]:
    """The reward events recorded under one rubric and not the other (as multisets)."""
    if _events(current) == _events(base):  # the common case, compared without encoding
        return {"added_count": 0, "removed_count": 0, "added": [], "removed": []}
    now = Counter(_canonical(e) for e in _events(current))
    before = Counter(_canonical(e) for e in _events(base))
    added, removed = now - before, before - now
    return {
        "added_count": sum(added.values()),
        "removed_count": sum(removed.values()),
        "added": [json.loads(e) for e in list(added.elements())[:MAX_LISTED_EVENTS]],
        "removed": [json.loads(e) for e in list(removed.elements())[:MAX_LISTED_EVENTS]],
    }
