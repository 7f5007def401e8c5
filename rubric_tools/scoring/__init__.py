"""The pure scoring core: no file or terminal I/O.

`text` normalizes, `sections` splits documents, `gates` matches critical-failure
patterns, `episode` is the state machine and `result` builds the engine's result.

The names below load on first use (PEP 562), so that importing one light module of the
core (`sections`, `text`) does not import the whole state machine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rubric_tools._lazy import lazy_getattr

if TYPE_CHECKING:
    from rubric_tools.scoring.episode import ACTION_TYPES, Episode, Replay, StepRecord, replay
    from rubric_tools.scoring.result import derived_max_score, effective_max_score

_LAZY_NAMES = {
    "ACTION_TYPES": "rubric_tools.scoring.episode",
    "Episode": "rubric_tools.scoring.episode",
    "Replay": "rubric_tools.scoring.episode",
    "StepRecord": "rubric_tools.scoring.episode",
    "replay": "rubric_tools.scoring.episode",
    "derived_max_score": "rubric_tools.scoring.result",
    "effective_max_score": "rubric_tools.scoring.result",
}


__getattr__ = lazy_getattr(__name__, _LAZY_NAMES)


__all__ = [
    "ACTION_TYPES",
    "Episode",
    "Replay",
    "StepRecord",
    "derived_max_score",
    "effective_max_score",
    "replay",
]
