"""One matter end to end — load, enumerate items, exercise, optionally mutate — and the
driver that runs matters in parallel worker processes."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from rubric_tools.audit.runner import audit_matter_source
from rubric_tools.checking.audit_inputs import audit_inputs
from rubric_tools.config.audit import AuditSection
from rubric_tools.coverage.exercise import exercise_suite
from rubric_tools.coverage.items import scorable_items
from rubric_tools.coverage.model import GateListFigure, MatterCoverage, SourceFile
from rubric_tools.coverage.mutation import MutationBudget, run_mutation
from rubric_tools.coverage.suite import load_suite
from rubric_tools.diagnostics import Severity
from rubric_tools.loading.matter import COUNTERPARTY_FILE, RUBRIC_FILE, MatterSource, load_matter_source


@dataclass(frozen=True)
class AnalysisOptions:
    mutation: bool = False
    budget: MutationBudget = MutationBudget()
    keep_sources: bool = False  # the HTML report lists the YAML files
    #: Measure each gate list's robustness with these audit settings (the HTML report shows it).
    robustness: AuditSection | None = None


def analyze_matter(root: Path, options: AnalysisOptions) -> MatterCoverage:
    source = load_matter_source(root)
    coverage = MatterCoverage(source.matter_id, str(source.root))
    errors = [d for d in source.diagnostics if d.severity is Severity.ERROR]
    if errors:
        first = errors[0]
        coverage.problems.append(f"{first.file.name}:{first.line}: {first.message} (the matter does not load)")
        return coverage
    table = scorable_items(source)
    suite = load_suite(source.root)
    coverage.problems += suite.problems
    coverage.trajectories = exercise_suite(table, source.matter, suite)
    coverage.items = list(table.items.values())
    coverage.probe_count = len(suite.probes)
    if options.keep_sources:
        for name in (RUBRIC_FILE, COUNTERPARTY_FILE):
            yaml_file = source.files.get(name)
            if yaml_file is not None:
                coverage.sources.append(SourceFile(name, list(yaml_file.lines)))
    if options.mutation:
        coverage.mutation = run_mutation(source, suite, options.budget)
    if options.robustness is not None:
        coverage.robustness = gate_list_figures(source, options.robustness)
    return coverage


def gate_list_figures(source: MatterSource, settings: AuditSection) -> list[GateListFigure]:
    """Each gate list's robustness, from the audit (its texts and its verified proposals)."""
    audited = audit_matter_source(source, settings, audit_inputs(source.root))
    return [
        GateListFigure(
            figure.name,
            figure.key,
            figure.file.name,
            figure.line,
            figure.entries,
            figure.before.must_fire,
            figure.before.caught,
            figure.after.caught,
            figure.before.must_not_fire,
            figure.before.silent,
            figure.after.silent,
            list(figure.changed),
        )
        for figure in audited.robustness
    ]


def analyze_matters(roots: Sequence[Path], options: AnalysisOptions, jobs: int) -> list[MatterCoverage]:
    """Every matter, in the given order; in `jobs` worker processes when there is more than one."""
    if jobs <= 1 or len(roots) <= 1:
        return [analyze_matter(root, options) for root in roots]
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(roots))) as pool:
            return list(pool.map(analyze_matter, roots, [options] * len(roots)))
    except (OSError, BrokenProcessPool):  # no processes to be had here (sandbox, limits): run serially
        return [analyze_matter(root, options) for root in roots]
