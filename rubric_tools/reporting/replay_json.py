"""One replayed trajectory as JSON records: the `replays` entry, the JSON Lines record, the
`--trace` entry, a diagnostic (the streaming writers in `rubric_tools.commands.replay_stream`
assemble the documents). Kept apart from the text renderers so that `rubric replay
--format json|jsonl` never imports rich."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rubric_tools.diagnostics import Diagnostic
from rubric_tools.loading.resolved_paths import resolve_file, resolved_folder
from rubric_tools.replaying import TrajectoryReplay, step_trace

if TYPE_CHECKING:
    from rubric_tools.scoring import Replay


def display_path(path: Path, cwd: str | None = None) -> str:
    """`path` relative to the working folder (`cwd`, read when not given) when it is below it."""
    return _relative_display(path, cwd if cwd is not None else os.getcwd())


# Remembered: every diagnostic of a trajectory shows the same path, and resolving it took a
# system call per path component each time (`resolve_file` resolves each folder once). The
# working folder is the key as text: a Path built for it on every call cost more than the rest.
@lru_cache(maxsize=1024)
def _relative_display(path: Path, cwd: str) -> str:
    resolved, working = resolve_file(path), _resolved_working_folder(cwd)
    # A path outside the working folder (a corpus elsewhere) is ruled out by its text first:
    # relative_to's refusal (an exception formatting both paths) cost more than the rest.
    if os.path.normcase(str(resolved)).startswith(os.path.normcase(str(working))):
        try:
            return str(resolved.relative_to(working))
        except ValueError:  # a sibling whose name extends the folder's (`/work/a2` for `/work/a`)
            pass
    return str(path)


@lru_cache(maxsize=8)
def _resolved_working_folder(cwd: str) -> Path:
    return resolved_folder(Path(cwd))


def diagnostic_json(diagnostic: Diagnostic, cwd: str | None = None) -> dict[str, Any]:
    return {
        "code": diagnostic.code,
        "name": diagnostic.name,
        "severity": diagnostic.severity.value,
        "message": diagnostic.message,
        "file": display_path(diagnostic.file, cwd),
        "line": diagnostic.line,
        "column": diagnostic.column,
    }


def replay_json(item: TrajectoryReplay) -> dict[str, Any] | None:
    """The `replays` entry of one trajectory; None when it could not be replayed."""
    if item.replay is None:
        return None
    return {
        "trajectory": display_path(item.trajectory),
        "matter_id": item.matter_id,
        "steps": _steps(item.replay),
        "result": item.replay.result,
    }


def _steps(replayed: Replay) -> list[dict[str, Any]]:
    # The events tuple as it is: JSON writes a tuple as a list, and copying each cost more than writing it.
    return [{"step": r.step, "type": r.type, "reward": r.reward, "events": r.events} for r in replayed.steps]


def jsonl_record(item: TrajectoryReplay) -> dict[str, Any]:
    """The JSON Lines record of one trajectory: every input gets one, replayed or not."""
    cwd = os.getcwd()  # once for the record's paths, not once per diagnostic
    replayed = item.replay
    return {
        "trajectory": display_path(item.trajectory, cwd),
        "matter_id": item.matter_id,
        "steps": _steps(replayed) if replayed is not None else None,
        "result": replayed.result if replayed is not None else None,
        "diagnostics": [diagnostic_json(d, cwd) for d in item.diagnostics],
    }


def trace_entry(item: TrajectoryReplay) -> dict[str, Any] | None:
    """The `--trace` entry of one trajectory: every step's action, events and budgets."""
    if item.replay is None:
        return None
    return {
        "trajectory": display_path(item.trajectory),
        "matter_id": item.matter_id,
        "steps": step_trace(item),
        "result": item.replay.result,
    }
