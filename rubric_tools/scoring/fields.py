"""Defensive access to action fields: malformed values never raise (engine.md §6)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from rubric_tools.scoring.state import StepContext


def text_field(action: Mapping[str, Any], name: str, default: object = "") -> str:
    """The engine `str()`s free-text fields: an explicit null becomes "None", an absent one ""."""
    return str(action.get(name, default))


def iterable_field(ctx: StepContext, action: Mapping[str, Any], name: str) -> list[Any]:
    """Items of a list field. A value the engine would fail to iterate (null, a number,
    a boolean) is scored as absent, with a warning naming the field."""
    value = action.get(name, [])
    if isinstance(value, list):
        return value
    if isinstance(value, str | Mapping):
        # The engine iterates these as they are: characters of a string, keys of a mapping.
        return list(value)
    if isinstance(value, Iterable):
        return list(value)
    ctx.warn_malformed(name, value)
    return []


def label_of(action: Mapping[str, Any]) -> str:
    """The agent's own issue label, `str()`-ed as the engine does: 7 is "7", true is "True"."""
    return str(action.get("issue_id"))
