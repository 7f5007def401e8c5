"""The pure scoring core: no file or terminal I/O.

`text` normalizes, `sections` splits documents, `gates` matches critical-failure
patterns, `episode` is the state machine and `result` builds the engine's result.
"""

from rubric_tools.scoring.episode import ACTION_TYPES, Episode, Replay, StepRecord, replay
from rubric_tools.scoring.result import derived_max_score, effective_max_score

__all__ = [
    "ACTION_TYPES",
    "Episode",
    "Replay",
    "StepRecord",
    "derived_max_score",
    "effective_max_score",
    "replay",
]
