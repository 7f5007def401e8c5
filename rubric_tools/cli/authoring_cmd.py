"""`rubric new` and `rubric convert`: argument parsing only; the work is in
`rubric_tools.commands.new` and `.convert`, whose functions return the exit code."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from rubric_tools.cli.app import commands


@commands.command("new")
def new_command(
    matter_id: Annotated[
        str, typer.Argument(help="The new matter's id, also its folder name.", show_default=False, metavar="MATTER_ID")
    ],
    directory: Annotated[Path, typer.Option("--dir", help="Folder that holds the matters.", file_okay=False)] = Path(
        "matters"
    ),
    config: Annotated[Path | None, typer.Option("--config", help="Configuration file to use.")] = None,
) -> None:
    """Create a complete, lint-clean matter skeleton with a solver-written reference trajectory.

    Exit 0 when the matter is created and its reference earns max_score, 2 when the id is
    invalid or already taken.
    """
    from rubric_tools.authoring.new_matter import NewMatterOptions  # heavy: only when run
    from rubric_tools.commands.new import run_new

    raise typer.Exit(run_new(NewMatterOptions(matter_id, directory, config), sys.stdout, sys.stderr))


@commands.command("convert")
def convert_command(
    source: Annotated[
        Path, typer.Argument(help="Trajectory to read (.jsonl, .yaml or .yml).", show_default=False, metavar="IN")
    ],
    destination: Annotated[
        Path, typer.Argument(help="File to write; its suffix picks the format.", show_default=False, metavar="OUT")
    ],
    schema: Annotated[
        str | None, typer.Option("--schema", help="Path or URL for the YAML file's `$schema` line.")
    ] = None,
) -> None:
    """Convert a trajectory between JSONL and YAML, losslessly for JSON values.

    Exit 0 when written, 2 when the input cannot be read as a trajectory.
    """
    from rubric_tools.commands.convert import ConvertOptions, run_convert

    raise typer.Exit(run_convert(ConvertOptions(source, destination, schema), sys.stdout, sys.stderr))
