"""`rubric max-score MATTER`: argument parsing only; the work is `commands.max_score`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from rubric_tools.cli.app import commands


@commands.command("max-score")
def max_score_command(
    matter: Annotated[Path, typer.Argument(help="The matter folder.")],
    output_format: Annotated[str, typer.Option("--output-format", "--format", help="text or json.")] = "text",
    no_color: Annotated[bool, typer.Option("--no-color", help="Never colour the output.")] = False,
) -> None:
    """Show the derived max_score as a table, one row per item and component."""
    if output_format not in ("text", "json"):
        print("error: --output-format must be text or json", file=sys.stderr)
        raise typer.Exit(2)
    from rubric_tools.commands.max_score import run_max_score  # heavy: only when run

    raise typer.Exit(run_max_score(matter, output_format == "json", sys.stdout, sys.stderr, no_color=no_color))
