"""Mutation adequacy: apply each operator's mutant to the in-memory model and re-run
the matter's checks (trajectory expectations, gate probes). A mutant that makes no
check fail that passed on the unaltered matter survives: its item is not really tested.

Bounded: at most `max_mutants` per matter and `time_budget` seconds per matter; the
rest are counted as not run.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rubric_tools.checking.runner import expectation_failures
from rubric_tools.coverage.exercise import GATE_OBSERVATION as GATES
from rubric_tools.coverage.model import Mutant, MutationResult
from rubric_tools.coverage.operators import MutantSpec, mutants
from rubric_tools.coverage.suite import Suite
from rubric_tools.loading.matter import MatterSource
from rubric_tools.scoring import replay
from rubric_tools.scoring.gates import run_gates
from rubric_tools.scoring.model import Matter
from rubric_tools.scoring.state import Observation
from rubric_tools.scoring.text import normalize


@dataclass(frozen=True)
class MutationBudget:
    max_mutants: int = 500
    time_budget: float = 120.0  # seconds per matter


GateList = tuple[str, str]  # (surface, issue id)


@dataclass
class Baseline:
    """The unaltered matter's results, and which gate lists each trajectory ran."""

    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    gate_lists: dict[str, set[GateList]] = field(default_factory=dict)
    failures: set[str] = field(default_factory=set)


def _probe_failures(matter: Matter, suite: Suite, scope: GateList | None) -> Iterator[str]:
    for probe in suite.probes:
        issue = matter.rubric.issues_by_id.get(probe.criterion)
        if issue is None or (scope is not None and scope != (probe.surface, probe.criterion)):
            continue
        check = run_gates(issue.gates(probe.surface), normalize(probe.text))
        if check.timed_out or check.errors or bool(check.fired) != probe.expect_fire:
            yield f"probe {probe.name}"


class _Results:
    """Trajectory results on a mutant, replayed lazily (a mutant stops at its first failed
    check). A gate mutant cannot change a trajectory that never ran that gate list, so
    such a trajectory keeps its baseline result without a replay."""

    def __init__(self, matter: Matter, suite: Suite, baseline: Baseline | None, scope: GateList | None) -> None:
        self.matter, self.baseline, self.scope = matter, baseline, scope
        self.by_stem = {t.expectation.stem: t for t in suite.trajectories if t.problem is None}
        self.cache: dict[str, dict[str, Any]] = {}

    def get(self, stem: str) -> dict[str, Any] | None:
        trajectory = self.by_stem.get(stem)
        if trajectory is None:
            return None
        if stem not in self.cache:
            baseline = self.baseline
            if baseline is not None and self.scope is not None and self.scope not in baseline.gate_lists[stem]:
                self.cache[stem] = baseline.results[stem]
            else:
                self.cache[stem] = replay(self.matter, trajectory.actions).result
        return self.cache[stem]


def _trajectory_failures(results: _Results) -> Iterator[str]:
    for stem, trajectory in results.by_stem.items():
        expectation = trajectory.expectation
        reference = results.get(expectation.below) if expectation.below else None
        score = reference["normalized_score"] if reference is not None else None
        result = results.get(stem)
        if result is not None and expectation_failures(expectation, result, score):
            yield f"trajectory {trajectory.name}"


def failing_checks(
    matter: Matter, suite: Suite, baseline: Baseline | None = None, scope: GateList | None = None
) -> Iterator[str]:
    """The checks that fail on `matter`, probes first (they are cheap). `scope` limits the
    work to what a mutant of that gate list can change, given the unaltered `baseline`."""
    yield from _probe_failures(matter, suite, scope)
    yield from _trajectory_failures(_Results(matter, suite, baseline, scope))


def measure_baseline(matter: Matter, suite: Suite) -> Baseline:
    baseline = Baseline()
    for trajectory in suite.trajectories:
        if trajectory.problem is not None:
            continue
        stem = trajectory.expectation.stem
        lists: set[GateList] = set()

        def note(observation: Observation, into: set[GateList] = lists) -> None:
            if observation.kind.startswith(GATES):
                into.add((observation.kind[len(GATES) :], observation.criterion))

        baseline.results[stem] = replay(matter, trajectory.actions, observer=note).result
        baseline.gate_lists[stem] = lists
    baseline.failures = set(failing_checks(matter, suite, baseline))
    return baseline


def _killer(spec: MutantSpec, source: MatterSource, suite: Suite, baseline: Baseline) -> str | None:
    mutated = spec.apply(source.matter)
    checks = failing_checks(mutated, suite, baseline, spec.gate_list)
    return next((check for check in checks if check not in baseline.failures), None)


def run_mutation(source: MatterSource, suite: Suite, budget: MutationBudget) -> MutationResult:
    baseline = measure_baseline(source.matter, suite)
    result = MutationResult(baseline_failures=sorted(baseline.failures))
    deadline = time.monotonic() + budget.time_budget
    for spec in mutants(source):
        if len(result.mutants) >= budget.max_mutants or time.monotonic() > deadline:
            result.not_run += 1
            continue
        span = spec.location.span
        mutant = Mutant(spec.id, spec.operator, spec.description, spec.file, span.line if span else 1)
        mutant.killed_by = _killer(spec, source, suite, baseline)
        result.mutants.append(mutant)
    return result
