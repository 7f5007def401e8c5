"""A matter's test suite, loaded once: its trajectories with their expectations, and
its gate probes. Coverage credits items from it; mutation re-runs it on mutants."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rubric_tools.checking.expectations import (
    Expectation,
    Expectations,
    conventional_expectations,
    load_expectations,
)
from rubric_tools.diagnostics import Severity
from rubric_tools.loading.layout import probe_paths, trajectory_paths
from rubric_tools.loading.probe_file import probe_entries, well_formed_probes
from rubric_tools.loading.trajectory import load_trajectory
from rubric_tools.loading.yaml_source import load_yaml


@dataclass(frozen=True)
class SuiteTrajectory:
    name: str  # file name, e.g. reference.jsonl
    actions: tuple[Any, ...]
    expectation: Expectation
    problem: str | None = None  # why it cannot be replayed

    @property
    def must_not_fire(self) -> bool:
        """Its expectation declares no critical failure, so no gate may fire on its texts."""
        return self.expectation.critical_failure is False


@dataclass(frozen=True)
class SuiteProbe:
    file: str
    line: int
    surface: str
    criterion: str
    text: str
    expect_fire: bool

    @property
    def name(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class Suite:
    trajectories: list[SuiteTrajectory] = field(default_factory=list)
    probes: list[SuiteProbe] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def expectation_of(self, stem: str) -> Expectation | None:
        return next((t.expectation for t in self.trajectories if t.expectation.stem == stem), None)


def _probes(path: Path) -> tuple[list[SuiteProbe], list[str]]:
    """Well-formed probes of one file; `rubric check` reports the malformed ones."""
    source = load_yaml(path)
    if probe_entries(source) is None:
        return [], [f"{path.name}: no `probes:` list"]
    found = [
        SuiteProbe(path.name, probe.line, probe.surface, probe.criterion, probe.text, probe.expect_fire)
        for probe in well_formed_probes(source)
    ]
    return found, []


def load_suite(matter_root: Path) -> Suite:
    suite = Suite()
    files = trajectory_paths(matter_root)
    declared: Expectations | None = load_expectations(matter_root)
    expectations = declared or conventional_expectations([p.stem for p in files])
    for path in files:
        expectation = expectations.by_stem.get(path.stem, Expectation(path.stem, source="none"))
        loaded = load_trajectory(path)
        errors = [d for d in loaded.diagnostics if d.severity is Severity.ERROR]
        problem = f"line {errors[0].line}: {errors[0].message}" if errors else None
        suite.trajectories.append(SuiteTrajectory(path.name, tuple(loaded.actions), expectation, problem))
    for path in probe_paths(matter_root):
        probes, problems = _probes(path)
        suite.probes += probes
        suite.problems += problems
    return suite
