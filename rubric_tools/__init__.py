"""rubric-tools: lint, replay and check evaluation matters for legal-work agents.

The public API is two functions,

    matter = rubric_tools.load_matter("matters/ai_saas_001")
    outcome = rubric_tools.replay(matter, actions)
    outcome.result            # the reference engine's result dict
    outcome.steps[0].reward   # the step reward of the first action

and, for Ray/Dask pipelines that re-score archives, `rubric_tools.score_batch(batch,
matters)` (see `rubric_tools.rescore.batch`).

Every command of the `rubric` console script imports this package first, so it imports
nothing heavy itself: the API below loads YAML, `regex` and the scoring model on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rubric_tools import _accelerator
from rubric_tools._lazy import lazy_getattr
from rubric_tools._version import __version__
from rubric_tools.defaults import DEFAULT_SEARCH_TIMEOUT

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from rubric_tools.loading.matter import MatterSource
    from rubric_tools.rescore.batch import score_batch
    from rubric_tools.scoring import Episode, Replay, StepRecord
    from rubric_tools.scoring.model import Matter

# Before any scoring module is imported: the compiled build of each, while its source is unchanged.
_accelerator.install()

#: Public names resolved lazily (PEP 562): name -> module that defines it.
_LAZY_NAMES = {
    "Episode": "rubric_tools.scoring.episode",
    "Replay": "rubric_tools.scoring.episode",
    "StepRecord": "rubric_tools.scoring.episode",
    "Matter": "rubric_tools.scoring.model",
    "MatterSource": "rubric_tools.loading.matter",
    "score_batch": "rubric_tools.rescore.batch",  # the rescore package
}


__getattr__ = lazy_getattr(__name__, _LAZY_NAMES)


def load_matter(path: str | Path) -> MatterSource:
    """Load a matter folder. Problems are in `.diagnostics`; `.matter` is always usable."""
    from rubric_tools.loading.matter import load_matter_source

    return load_matter_source(path)


def replay(
    matter: Matter | MatterSource,
    actions: Iterable[object],
    *,
    gate_timeout: float = DEFAULT_SEARCH_TIMEOUT,
) -> Replay:
    """Replay a trajectory's actions through the embedded scorer."""
    from rubric_tools.loading.matter import MatterSource
    from rubric_tools.scoring import replay as replay_matter

    model = matter.matter if isinstance(matter, MatterSource) else matter
    return replay_matter(model, actions, gate_timeout=gate_timeout)


__all__ = [
    "__version__",
    "Episode",
    "Matter",
    "MatterSource",
    "Replay",
    "StepRecord",
    "load_matter",
    "replay",
    "score_batch",
]
