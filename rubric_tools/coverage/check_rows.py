"""`rubric check --coverage`: a coverage row (and with --mutation a mutation row) per
matter, and an overall row, failing below the `[tool.rubric.coverage]` thresholds."""

from __future__ import annotations

from pathlib import Path

from rubric_tools.checking.rows import OVERALL, CheckRow
from rubric_tools.checking.runner import CheckReport, MatterCheck
from rubric_tools.config.coverage import CoverageSection
from rubric_tools.coverage.codes import COVERAGE_UNDER_THRESHOLD, MUTATION_UNDER_THRESHOLD
from rubric_tools.coverage.model import MatterCoverage, printable
from rubric_tools.coverage.runs import measure
from rubric_tools.coverage.verdict import matter_failures

DETAIL_LIMIT = 10


def _coverage_row(matter: MatterCoverage, settings: CoverageSection) -> CheckRow:
    failures = [f for f in matter_failures(matter, settings, mutation=False)]
    missing = matter.missing
    lines = [f"{f.code} {f.message}" for f in failures]
    lines += [f"{item.file}:{item.line} missing {item.id}" for item in missing[:DETAIL_LIMIT]]
    if len(missing) > DETAIL_LIMIT:
        lines.append(f"… and {len(missing) - DETAIL_LIMIT} more (run `rubric coverage`)")
    first = missing[0] if missing else None
    return CheckRow(
        "coverage",
        "rubric coverage",
        not failures,
        f"≥ {settings.fail_under_matter:g}% of items covered",
        f"{matter.percent:.1f}% ({matter.covered}/{len(matter.items)})",
        printable("\n".join(lines)),
        Path(matter.root) / (first.file if first else "rubric.yaml"),
        first.line if first else None,
    )


def _mutation_row(matter: MatterCoverage, settings: CoverageSection) -> CheckRow | None:
    mutation = matter.mutation
    if mutation is None:
        return None
    failed = [f for f in matter_failures(matter, settings, mutation=True) if f.code == MUTATION_UNDER_THRESHOLD.code]
    survivors = mutation.survivors
    lines = [f"{f.code} {f.message}" for f in failed]
    lines += [f"{m.file}:{m.line} survived {m.operator}: {m.description}" for m in survivors[:DETAIL_LIMIT]]
    score = "-" if mutation.score is None else f"{mutation.score:.1f}%"
    first = survivors[0] if survivors else None
    return CheckRow(
        "mutation",
        "rubric coverage --mutation",
        not failed,
        f"mutation score ≥ {settings.mutation_fail_under:g}%",
        f"{score} ({mutation.killed}/{len(mutation.mutants)} killed)",
        printable("\n".join(lines)),
        Path(matter.root) / (first.file if first else "rubric.yaml"),
        first.line if first else None,
    )


def add_coverage_rows(report: CheckReport, settings: CoverageSection, mutation: bool) -> None:
    """Measure the report's matters and append their coverage rows."""
    if not report.matters:
        return
    run = measure([m.root for m in report.matters], settings, mutation)
    by_root = {Path(m.root).resolve(): m for m in run.matters}
    for check in report.matters:
        measured = by_root.get(check.root.resolve())
        if measured is None:
            continue
        check.rows.append(_coverage_row(measured, settings))
        row = _mutation_row(measured, settings)
        if row is not None:
            check.rows.append(row)
    overall = [f for f in run.failures if f.matter_id is None]
    total = sum(len(m.items) for m in run.matters)
    report.matters.append(
        MatterCheck(
            Path("."),
            OVERALL,
            [
                CheckRow(
                    "coverage",
                    "overall",
                    not overall,
                    f"≥ {settings.fail_under:g}% of all items covered",
                    f"{run.percent:.1f}% ({sum(m.covered for m in run.matters)}/{total})",
                    "\n".join(f"{COVERAGE_UNDER_THRESHOLD.code} {f.message}" for f in overall),
                )
            ],
        )
    )
