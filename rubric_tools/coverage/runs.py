"""Measure a set of matters against `[tool.rubric.coverage]`: what `rubric coverage` and
`rubric check --coverage` share."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rubric_tools.config.audit import AuditSection
from rubric_tools.config.coverage import CoverageSection
from rubric_tools.coverage.analysis import AnalysisOptions, analyze_matters
from rubric_tools.coverage.mutation import MutationBudget
from rubric_tools.coverage.verdict import CoverageRun, evaluate
from rubric_tools.loading.layout import matters_to_check


def measure(
    paths: Sequence[Path],
    settings: CoverageSection,
    mutation: bool,
    keep_sources: bool = False,
    jobs: int | None = None,
    robustness: AuditSection | None = None,
) -> CoverageRun:
    """`robustness`: measure each gate list's robustness with these audit settings."""
    roots, problems = matters_to_check(paths)
    budget = MutationBudget(settings.max_mutants, settings.mutation_time_budget)
    options = AnalysisOptions(mutation, budget, keep_sources, robustness)
    run = CoverageRun(settings=settings, mutation=mutation, usage_errors=list(problems))
    run.matters = analyze_matters(roots, options, jobs or settings.jobs)
    run.failures = evaluate(run.matters, settings, mutation)
    return run
