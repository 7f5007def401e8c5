"""`rubric check [PATHS]`: argument parsing only; the work is `run_check`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from rubric_tools.cli.app import commands
from rubric_tools.cli.params import MatterPaths
from rubric_tools.reporting.formats import CheckFormat


@commands.command("check")
def check_command(
    paths: MatterPaths = None,
    output_format: Annotated[
        CheckFormat, typer.Option("--output-format", "--format", help="text, json or junit.", case_sensitive=False)
    ] = CheckFormat.TEXT,
    config: Annotated[Path | None, typer.Option("--config", help="Configuration file to use.")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the report to FILE.")] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help="Plain text output.")] = False,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="Fail a trajectory that no expectation covers (M003), "
            "as `strict = true` in \\[tool.rubric.check] does.",
        ),
    ] = False,
    ignore_non_matter_files: Annotated[
        bool,
        typer.Option(
            "--ignore-non-matter-files",
            help="Skip given files that belong to no matter instead of failing (the pre-commit hooks pass it).",
        ),
    ] = False,
    coverage: Annotated[
        bool, typer.Option("--coverage", help="Also check rubric coverage against \\[tool.rubric.coverage].")
    ] = False,
    mutation: Annotated[
        bool, typer.Option("--mutation", help="Also run mutation testing (implies --coverage).")
    ] = False,
) -> None:
    """Lint each matter, replay every trajectory against its expectations, run every
    gate probe. Exit 0 when every check passes, 1 when one fails, 2 on usage errors."""
    from rubric_tools.commands.check import CheckOptions, run_check  # heavy: only when run

    options = CheckOptions(
        paths or [], output_format, config, output, no_color, strict, ignore_non_matter_files, coverage, mutation
    )
    raise typer.Exit(run_check(options, sys.stdout, sys.stderr))
