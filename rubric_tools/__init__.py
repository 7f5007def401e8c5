"""rubric-tools: lint, replay and check evaluation matters for legal-work agents.

The public API is two functions,

    matter = rubric_tools.load_matter("matters/ai_saas_001")
    outcome = rubric_tools.replay(matter, actions)
    outcome.result            # the reference engine's result dict
    outcome.steps[0].reward   # the step reward of the first action

and, for Ray/Dask pipelines that re-score archives, `rubric_tools.score_batch(batch,
matters)` (imported on first use; see `rubric_tools.rescore.batch`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rubric_tools._version import __version__
from rubric_tools.loading.matter import MatterSource, load_matter_source
from rubric_tools.scoring import Episode, Replay, StepRecord
from rubric_tools.scoring import replay as _replay_matter
from rubric_tools.scoring.gates import DEFAULT_SEARCH_TIMEOUT
from rubric_tools.scoring.model import Matter


def load_matter(path: str | Path) -> MatterSource:
    """Load a matter folder. Problems are in `.diagnostics`; `.matter` is always usable."""
    return load_matter_source(path)


def replay(
    matter: Matter | MatterSource,
    actions: Iterable[object],
    *,
    gate_timeout: float = DEFAULT_SEARCH_TIMEOUT,
) -> Replay:
    """Replay a trajectory's actions through the embedded scorer."""
    model = matter.matter if isinstance(matter, MatterSource) else matter
    return _replay_matter(model, actions, gate_timeout=gate_timeout)


def __getattr__(name: str) -> object:
    # score_batch pulls in the rescore package: imported only when first used.
    if name == "score_batch":
        from rubric_tools.rescore.batch import score_batch

        return score_batch
    raise AttributeError(f"module 'rubric_tools' has no attribute {name!r}")


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
