"""`rubric coverage [PATHS]`: argument parsing only; the work is `run_coverage`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from rubric_tools.cli.app import commands
from rubric_tools.cli.params import MatterPaths
from rubric_tools.reporting.formats import CoverageFormat


@commands.command("coverage")
def coverage_command(
    paths: MatterPaths = None,
    output_format: Annotated[
        CoverageFormat,
        typer.Option("--output-format", "--format", help="text or json.", case_sensitive=False),
    ] = CoverageFormat.TEXT,
    mutation: Annotated[bool, typer.Option("--mutation", help="Also run mutation testing.")] = False,
    html: Annotated[
        Path | None, typer.Option("--html", help="Write a static HTML report to DIR.", metavar="DIR")
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option("--jobs", "-j", min=1, help="Matters analysed in parallel \\[default: coverage.jobs, 2]."),
    ] = None,
    fail_under: Annotated[
        float | None,
        typer.Option("--fail-under", min=0, max=100, help="Fail when overall coverage is below this percent."),
    ] = None,
    config: Annotated[Path | None, typer.Option("--config", help="Configuration file to use.")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the report to FILE.")] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain text output.")] = False,
) -> None:
    """Which scorable items of each matter its trajectories and gate probes exercise.
    Exit 0, 1 when below a fail-under threshold of \\[tool.rubric.coverage], 2 on usage errors."""
    from rubric_tools.commands.coverage import CoverageOptions, run_coverage  # heavy: only when run

    options = CoverageOptions(paths or [], output_format, config, output, mutation, html, jobs, fail_under, no_color)
    raise typer.Exit(run_coverage(options, sys.stdout, sys.stderr))
