"""Render a coverage run as JSON (schemas/coverage-output.schema.json)."""

from __future__ import annotations

from typing import Any

from rubric_tools.coverage.model import MatterCoverage, MutationResult
from rubric_tools.coverage.verdict import CoverageRun
from rubric_tools.reporting.coverage_text import display_path
from rubric_tools.reporting.safe_output import dumps as safe_dumps

JSON_FORMAT_VERSION = 1


def _mutation(mutation: MutationResult | None, root: str) -> dict[str, Any] | None:
    if mutation is None:
        return None
    return {
        "score": mutation.score,
        "mutants": len(mutation.mutants),
        "killed": mutation.killed,
        "not_run": mutation.not_run,
        "baseline_failures": mutation.baseline_failures,
        "results": [
            {
                "id": m.id,
                "operator": m.operator,
                "description": m.description,
                "file": display_path(root, m.file),
                "line": m.line,
                "killed_by": m.killed_by,
            }
            for m in mutation.mutants
        ],
    }


def _matter(matter: MatterCoverage) -> dict[str, Any]:
    return {
        "matter_id": matter.matter_id,
        "root": display_path(matter.root, ""),
        "items": len(matter.items),
        "covered": matter.covered,
        "percent": round(matter.percent, 2),
        "trajectories": len(matter.trajectories),
        "probes": matter.probe_count,
        "problems": matter.problems,
        "missing": [item.id for item in matter.missing],
        "detail": [
            {
                "id": item.id,
                "kind": item.kind,
                "description": item.description,
                "file": display_path(matter.root, item.file),
                "line": item.line,
                "end_line": item.end_line,
                "covered": item.covered,
                "exercised_by": item.exercised_by,
            }
            for item in matter.items
        ],
        "mutation": _mutation(matter.mutation, matter.root),
    }


def render_json(run: CoverageRun) -> str:
    settings = run.settings
    return safe_dumps(
        {
            "version": JSON_FORMAT_VERSION,
            "matters": [_matter(m) for m in run.matters],
            "totals": {
                "items": sum(len(m.items) for m in run.matters),
                "covered": sum(m.covered for m in run.matters),
                "percent": round(run.percent, 2),
            },
            "thresholds": {
                "fail_under": settings.fail_under,
                "fail_under_matter": settings.fail_under_matter,
                "mutation_fail_under": settings.mutation_fail_under,
            },
            "failures": [{"code": f.code, "matter_id": f.matter_id, "message": f.message} for f in run.failures],
            "passed": not run.failures,
        },
        indent=2,
    )
