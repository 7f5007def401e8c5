"""A matter's witnesses: the trajectories and gate probes whose scores a safe fix must
not move, found where the matter-folder layout says they are
(`rubric_tools.loading.layout`, as `rubric check` finds them).

Probes are evaluated here directly on the gates (the verdict is what a fix must keep);
`rubric check` additionally validates probe files and reports their problems.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rubric_tools.loading import layout

if TYPE_CHECKING:
    from rubric_tools.scoring.model import Matter

# The scorer and loaders are imported where used: a fully cached run must stay cheap to start.


@dataclass(frozen=True)
class Witnesses:
    """A matter's trajectories (their actions) and gate probes (surface, issue, text)."""

    trajectories: tuple[tuple[Path, tuple[Any, ...]], ...]
    probes: tuple[tuple[str, str, str, str], ...]  # (where, surface, issue id, text)

    def __bool__(self) -> bool:
        return bool(self.trajectories or self.probes)


def _probe_entries(path: Path) -> list[tuple[str, str, str, str]]:
    from rubric_tools.loading.yaml_source import load_yaml
    from rubric_tools.scoring.model import GATE_SURFACES

    source = load_yaml(path)
    data = source.data.get("probes") if isinstance(source.data, Mapping) else source.data
    found = []
    for index, entry in enumerate(data if isinstance(data, list) else []):
        if isinstance(entry, Mapping) and isinstance(entry.get("text"), str):
            surface, criterion = str(entry.get("surface")), str(entry.get("criterion"))
            if surface in GATE_SURFACES:
                found.append((f"{path.name}#{index + 1}", surface, criterion, entry["text"]))
    return found


def find_witnesses(matter_root: Path) -> Witnesses:
    """The matter's valid trajectories and well-formed probes (others prove nothing)."""
    from rubric_tools.loading.trajectory import load_trajectory

    trajectories = []
    for path in layout.trajectory_paths(matter_root):
        trajectory = load_trajectory(path)
        if trajectory.valid:
            trajectories.append((path, tuple(trajectory.actions)))
    probes = [entry for path in layout.probe_paths(matter_root) for entry in _probe_entries(path)]
    return Witnesses(tuple(trajectories), tuple(probes))


def observe_each(matter: Matter, witnesses: Witnesses) -> Iterator[tuple[str, Any]]:
    """Every observable score, one witness at a time (so a comparison can stop at the
    first that differs): result and step rewards per trajectory, gates fired per probe."""
    from rubric_tools.scoring import replay
    from rubric_tools.scoring.gates import run_gates
    from rubric_tools.scoring.text import normalize

    for path, actions in witnesses.trajectories:
        outcome = replay(matter, actions)
        yield path.name, (outcome.result, [step.reward for step in outcome.steps])
    for where, surface, criterion, text in witnesses.probes:
        issue = matter.rubric.issues_by_id.get(criterion)
        if issue is None:
            yield where, None
            continue
        check = run_gates(issue.gates(surface), normalize(text))
        yield where, (check.fired, tuple(check.timed_out), tuple(check.errors))
