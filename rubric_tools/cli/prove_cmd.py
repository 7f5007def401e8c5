"""`rubric solve` and `rubric attack`: argument parsing only; the work is done by
`rubric_tools.commands.prove`, whose functions return the exit code."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from rubric_tools.cli.app import commands


class ProveFormat(StrEnum):
    text = "text"
    json = "json"


_MATTER_HELP = "The matter folder (the one holding matter.yaml)."
_NO_COLOR_HELP = "Never colour the output."


@commands.command("solve")
def solve_command(
    matter: Annotated[Path, typer.Argument(help=_MATTER_HELP, show_default=False, metavar="MATTER")],
    write: Annotated[
        Path | None, typer.Option("--write", help="Write the solver's trajectory to FILE as JSONL.")
    ] = None,
    output_format: Annotated[
        ProveFormat, typer.Option("--output-format", "--format", help="text or json.", case_sensitive=False)
    ] = ProveFormat.text,
    no_color: Annotated[bool, typer.Option("--no-color", help=_NO_COLOR_HELP)] = False,
) -> None:
    """Prove the rubric reachable: build a trajectory that earns max_score from the rubric,
    documents and counterparty script alone, replay it, and name every point it cannot earn.

    Exit 0 when max_score is reached, 1 when points fall short, 2 on input errors.
    """
    from rubric_tools.commands.prove import run_solve  # the solver loads only when it runs

    raise typer.Exit(run_solve(matter, write, output_format.value, sys.stdout, sys.stderr, no_color=no_color))


@commands.command("attack")
def attack_command(
    matter: Annotated[Path, typer.Argument(help=_MATTER_HELP, show_default=False, metavar="MATTER")],
    output_format: Annotated[
        ProveFormat, typer.Option("--output-format", "--format", help="text or json.", case_sensitive=False)
    ] = ProveFormat.text,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config",
            help="Read \\[tool.rubric.attack] thresholds from this file instead of "
            "discovering rubric.toml / pyproject.toml.",
            dir_okay=False,
        ),
    ] = None,
    no_color: Annotated[bool, typer.Option("--no-color", help=_NO_COLOR_HELP)] = False,
) -> None:
    """Replay reward-hacking strategies against the rubric, beside the solver's reference.

    Exit 0 when every threshold of \\[tool.rubric.attack] holds, 1 when a strategy beats the
    rubric, 2 on input or configuration errors.
    """
    from rubric_tools.commands.prove import run_attack  # the strategies load only when they run

    raise typer.Exit(
        run_attack(matter, output_format.value, sys.stdout, sys.stderr, config_file=config, no_color=no_color)
    )
