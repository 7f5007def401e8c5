"""Archive fixtures for the rescore tests, generated from the project's own matters."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path
from typing import Any

import rubric_tools
from rubric_tools.rescore.run import RescoreOptions, RescoreRun, rescore
from tests.conftest import MATTERS_DIR


def copy_matters(target: Path) -> Path:
    """The project's matters, copied (with their trajectories) into `target/matters`."""
    matters = target / "matters"
    shutil.copytree(MATTERS_DIR, matters)
    return matters


def trajectories(matters: Path) -> list[tuple[str, Path]]:
    """(matter_id, trajectory file) of every bundled trajectory."""
    return [(path.parent.parent.name, path) for path in sorted(matters.glob("*/trajectories/*.jsonl"))]


def actions_of(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def result_of(matters: Path, matter_id: str, actions: list[dict[str, Any]]) -> dict[str, Any]:
    return rubric_tools.replay(rubric_tools.load_matter(matters / matter_id), actions).result


def write_jsonl_layout(matters: Path, archive: Path, gzipped: bool = False) -> list[Path]:
    """`archive/trajectories/<matter_id>/<name>.jsonl` with `<name>.expected.json` beside each."""
    written = []
    for matter_id, path in trajectories(matters):
        folder = archive / "trajectories" / matter_id
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / (path.name + (".gz" if gzipped else ""))
        data = path.read_bytes()
        target.write_bytes(gzip.compress(data) if gzipped else data)
        expected = {"result": result_of(matters, matter_id, actions_of(path))}
        (folder / (path.stem + ".expected.json")).write_text(json.dumps(expected), encoding="utf-8")
        written.append(target)
    return written


def episodes_lines(matters: Path) -> list[str]:
    return [
        json.dumps(
            {
                "matter_id": matter_id,
                "actions": actions_of(path),
                "result": result_of(matters, matter_id, actions_of(path)),
            }
        )
        for matter_id, path in trajectories(matters)
    ]


def write_traces(matters: Path, archive: Path) -> list[Path]:
    """The reference environment's trace files, nested in sub-folders."""
    written = []
    for number, (matter_id, path) in enumerate(trajectories(matters)):
        actions = actions_of(path)
        events = [{"step": i + 1, "action": action, "reward": 0.0} for i, action in enumerate(actions)]
        trace = {
            "matter": matter_id,
            "seed": number,
            "events": [{"reset": True}, *events],
            "result": result_of(matters, matter_id, actions),
        }
        folder = archive / "runs" / f"run{number % 3}"
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{path.stem}-{number}.trace.json"
        target.write_text(json.dumps(trace, indent=1), encoding="utf-8")
        written.append(target)
    return written


def run(archives: list[Path], **options: Any) -> tuple[RescoreRun, list[dict[str, Any]], list[Any]]:
    """Rescore in process: the run, its rows and its diagnostics."""
    rows: list[dict[str, Any]] = []
    problems: list[Any] = []
    result = rescore(RescoreOptions(archives=archives, **options), on_row=rows.append, on_diagnostic=problems.append)
    return result, rows, problems


def scores(rows: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    return [(row["matter_id"], row["current"]) for row in rows]
