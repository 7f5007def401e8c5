"""Mutation adequacy: apply each operator's mutant to the in-memory model and re-run
the matter's checks (trajectory expectations, gate probes). A mutant that makes no
check fail that passed on the unaltered matter survives: its item is not really tested.

Bounded: at most `max_mutants` per matter and `time_budget` seconds per matter; the
rest are counted as not run.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from rubric_tools.checking.runner import expectation_failures
from rubric_tools.coverage.model import Mutant, MutationResult
from rubric_tools.coverage.operators import MutantSpec, mutants
from rubric_tools.coverage.suite import Suite
from rubric_tools.loading.matter import MatterSource
from rubric_tools.scoring import replay
from rubric_tools.scoring.gates import run_gates
from rubric_tools.scoring.model import Matter
from rubric_tools.scoring.text import normalize


@dataclass(frozen=True)
class MutationBudget:
    max_mutants: int = 500
    time_budget: float = 120.0  # seconds per matter


def _probe_failures(matter: Matter, suite: Suite) -> Iterator[str]:
    for probe in suite.probes:
        issue = matter.rubric.issues_by_id.get(probe.criterion)
        if issue is None:
            continue
        check = run_gates(issue.gates(probe.surface), normalize(probe.text))
        if check.timed_out or check.errors or bool(check.fired) != probe.expect_fire:
            yield f"probe {probe.name}"


def _trajectory_failures(matter: Matter, suite: Suite) -> Iterator[str]:
    runnable = [t for t in suite.trajectories if t.problem is None]
    results = {t.expectation.stem: replay(matter, t.actions).result for t in runnable}
    for trajectory in runnable:
        expectation = trajectory.expectation
        reference = results.get(expectation.below) if expectation.below else None
        score = reference["normalized_score"] if reference is not None else None
        if expectation_failures(expectation, results[expectation.stem], score):
            yield f"trajectory {trajectory.name}"


def failing_checks(matter: Matter, suite: Suite) -> Iterator[str]:
    """The checks that fail on `matter`, probes first (they are cheap)."""
    yield from _probe_failures(matter, suite)
    yield from _trajectory_failures(matter, suite)


def _killer(spec: MutantSpec, source: MatterSource, suite: Suite, baseline: set[str]) -> str | None:
    mutated = spec.apply(source.matter)
    return next((check for check in failing_checks(mutated, suite) if check not in baseline), None)


def run_mutation(source: MatterSource, suite: Suite, budget: MutationBudget) -> MutationResult:
    baseline = set(failing_checks(source.matter, suite))
    result = MutationResult(baseline_failures=sorted(baseline))
    deadline = time.monotonic() + budget.time_budget
    for spec in mutants(source):
        if len(result.mutants) >= budget.max_mutants or time.monotonic() > deadline:
            result.not_run += 1
            continue
        yaml_file = source.files.get(spec.file)
        span = yaml_file.span(spec.path) if yaml_file is not None else None
        mutant = Mutant(spec.id, spec.operator, spec.description, spec.file, span.line if span else 1)
        mutant.killed_by = _killer(spec, source, suite, baseline)
        result.mutants.append(mutant)
    return result
